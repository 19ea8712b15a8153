// SPDX-License-Identifier: GPL-2.0
/*
 * prom_scenario DIR: the textfiles `stat --prometheus` writes, one a
 * minute for 50 minutes of a made-up node, through the tool's own code
 * (metrics.c, prom.c): tests/prom/rules.sh feeds them to promtool's rule
 * tests and to a real node_exporter and Prometheus.  The node:
 *   /svc, soft limit 1G, 512M in use; /batch, no limit, 2G; /gone.
 *   minutes 0-4   reclaim takes /batch (over), spares /svc (under);
 *                 a missed call at minute 3
 *   minute 5      /gone is removed; its dying memcg is still reclaimed
 *   minutes 5-29  /batch has nothing left: every round retries, /svc
 *                 is reclaimed (retry); /svc over its soft limit from
 *                 minute 10 (1.5G in use)
 *   minute 25     the module is reloaded (its counters start again)
 *   minutes 30-49 the module is gone (memcg_softlimit_up 0)
 * Files: DIR/NNN.prom, NNN the minute.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/cgmap.h"
#include "../../tools/cgroup.h"
#include "../../tools/counters.h"
#include "../../tools/metrics.h"
#include "../../tools/module.h"
#include "../../tools/prom.h"
#include "../../tools/softlimit.h"

static struct msl_cgnode nodes[4];
static struct msl_cgmap map = { .nodes = nodes };

static void tree(bool with_gone)
{
	static const char *const paths[] = { "/", "/batch", "/svc", "/gone" };
	size_t i;

	map.n = with_gone ? 4 : 3;
	for (i = 0; i < map.n; i++)
		nodes[i] = (struct msl_cgnode){ .id = 10 + i,
			.path = (char *)paths[i], .depth = i ? 1 : 0 };
}

int main(int argc, char **argv)
{
	struct msl_module mod = { .loaded = true, .version = "0.1.0" };
	struct msl_metrics m = { .up = -1 };
	struct msl_prom o = { .module = &mod, .kernel = "6.12.74+deb12-amd64" };
	uint64_t over = 0, under = 0, retry = 0, dying = 0, missed = 0;
	struct msl_table t = { 0 };
	struct msl_series *s;
	char file[PATH_MAX];
	const char *why;
	int min;

	if (argc != 2) {
		fprintf(stderr, "usage: prom_scenario DIR\n");
		return 2;
	}
	msl_params_default(&mod.params);
	for (min = 0; min < 50; min++) {
		snprintf(file, sizeof(file), "%s/%03d.prom", argv[1], min);
		if (min >= 30) {
			o.down_why = "no memcg_softlimit module for the running kernel";
			if (msl_write_prometheus(file, NULL, &o, &why))
				return 1;
			continue;
		}
		if (min == 25)		/* reloaded: every entry from 0 */
			over = under = retry = dying = missed = 0;
		if (min < 5) {
			over += 600;
			under += 600;
		} else {
			retry += 60;
			dying += 6;
		}
		if (min == 3)
			missed++;
		tree(min < 5);
		msl_table_clear(&t);
		t.seq = min < 25 ? min + 1 : min - 24;
		t.nr_tracked = 3;
		t.missed = missed;
		msl_table_get(&t, 11)->path = "/batch";
		msl_table_get(&t, 11)->c.decisions[MSL_REASON_OVER] = over;
		msl_table_get(&t, 11)->c.reclaimed[MSL_KIND_KSWAPD] = over * 8;
		msl_table_get(&t, 12)->path = "/svc";
		msl_table_get(&t, 12)->c.decisions[MSL_REASON_UNDER] = under;
		msl_table_get(&t, 12)->c.decisions[MSL_REASON_RETRY] = retry;
		msl_table_get(&t, 12)->c.reclaimed[MSL_KIND_KSWAPD] = retry * 8;
		msl_table_get(&t, 13)->path = min < 5 ? "/gone" : NULL;
		msl_table_get(&t, 13)->c.decisions[MSL_REASON_RETRY] = dying;
		if (msl_metrics_update(&m, &t, &map, -1))
			return 1;
		s = msl_metrics_find(&m, "/svc");
		if (s) {
			s->have_usage = s->have_limit = true;
			s->usage = (min >= 10 ? 1536ULL : 512ULL) << 20;
			s->lim = (struct msl_limit){ MSL_LIMIT_SET, 1ULL << 30 };
			s->over = min >= 10;
		}
		s = msl_metrics_find(&m, "/batch");
		if (s) {
			s->have_usage = s->have_limit = true;
			s->usage = 2ULL << 30;
			s->lim = (struct msl_limit){ MSL_LIMIT_UNSET, 0 };
		}
		o.t = &t;
		if (msl_write_prometheus(file, &m, &o, &why))
			return 1;
	}
	msl_table_free(&t);
	msl_metrics_free(&m);
	return 0;
}
