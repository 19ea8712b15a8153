// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of tools/metrics.c and tools/prom.c: the series of
 * --prometheus only grow (a removed cgroup's entry into
 * "<parent>/(removed)", a reload of the module restarting entries, not
 * series), every cgroup has its series from 0, --depth folds, the state
 * survives a save and a load, the module's coming and going is a change
 * once; the text format (an independent parser: prom-check.pl).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../tools/cgmap.h"
#include "../../tools/cgroup.h"
#include "../../tools/counters.h"
#include "../../tools/metrics.h"
#include "../../tools/module.h"
#include "../../tools/msl.h"
#include "../../tools/output.h"
#include "../../tools/prom.h"
#include "../../tools/softlimit.h"
#include "unit.h"

static struct msl_cgnode nodes[8];
static struct msl_cgmap map = { .nodes = nodes };

static void tree(const char *const *paths)
{
	size_t i;

	for (i = 0; paths[i]; i++) {
		const char *p;
		int d = 0;

		for (p = paths[i] + 1; *p; p++)
			d += *p == '/';
		nodes[i] = (struct msl_cgnode){ .id = 100 + i,
			.path = (char *)paths[i],
			.depth = strcmp(paths[i], "/") ? d + 1 : 0 };
	}
	map.n = i;
}

static struct msl_row *row(struct msl_table *t, uint64_t id, const char *path)
{
	struct msl_row *r = msl_table_get(t, id);

	r->path = path;
	return r;
}

static uint64_t over(const struct msl_metrics *m, const char *cg)
{
	const struct msl_series *s = msl_metrics_find(m, cg);

	return s ? s->v.decisions[MSL_REASON_OVER] : ~0ULL;
}

static void counters_only_grow(void)
{
	static const char *const before[] = { "/", "/a", "/a/b", "/c", NULL };
	static const char *const after[] = { "/", "/a", "/c", NULL };
	struct msl_metrics m = { .up = -1 };
	struct msl_table t = { 0 };

	tree(before);
	t.seq = 5;
	row(&t, 7, "/a/b")->c.decisions[MSL_REASON_OVER] = 10;
	row(&t, 8, NULL)->c.decisions[MSL_REASON_OVER] = 4;	/* never seen */
	CHECK(msl_metrics_update(&m, &t, &map, -1) == 0);
	/* Every cgroup from 0, the ones with counts at their counts. */
	CHECK(m.n == 5);
	CHECK(over(&m, "/c") == 0 && over(&m, "/a") == 0);
	CHECK(over(&m, "/a/b") == 10);
	/* A series made for a removed cgroup starts at 0, its gain next run. */
	CHECK(over(&m, "(removed)") == 0);

	/* /a/b removed; its entry still counts (a dying memcg). */
	tree(after);
	msl_table_clear(&t);
	t.seq = 6;
	row(&t, 7, NULL)->c.decisions[MSL_REASON_OVER] = 13;
	row(&t, 8, NULL)->c.decisions[MSL_REASON_OVER] = 6;
	CHECK(msl_metrics_update(&m, &t, &map, -1) == 0);
	CHECK(over(&m, "/a/b") == ~0ULL);		/* its series ended */
	CHECK(over(&m, "/a/(removed)") == 0);	/* new: 0 first */
	CHECK(over(&m, "(removed)") == 6);

	/* The entry freed: nothing goes down. */
	msl_table_clear(&t);
	t.seq = 7;
	row(&t, 8, NULL)->c.decisions[MSL_REASON_OVER] = 6;
	CHECK(msl_metrics_update(&m, &t, &map, -1) == 0);
	CHECK(over(&m, "/a/(removed)") == 3);	/* only what it gained */
	CHECK(over(&m, "(removed)") == 6);

	/* The module reloaded: snapshots start again at 1, entries at 0. */
	msl_table_clear(&t);
	t.seq = 1;
	row(&t, 9, "/c")->c.decisions[MSL_REASON_OVER] = 2;
	row(&t, 8, NULL)->c.decisions[MSL_REASON_OVER] = 1;
	CHECK(msl_metrics_update(&m, &t, &map, -1) == 0);
	CHECK(over(&m, "/c") == 2);
	CHECK(over(&m, "(removed)") == 7);
	msl_table_free(&t);
	msl_metrics_free(&m);
}

static void depth_folds(void)
{
	static const char *const paths[] = { "/", "/k", "/k/p1", "/k/p1/c", "/s", NULL };
	struct msl_metrics m = { .up = -1 };
	struct msl_table t = { 0 };
	char buf[64];

	CHECK(!strcmp(msl_metrics_rollup("/k/p1/c", 1, buf, sizeof(buf)), "/k"));
	CHECK(!strcmp(msl_metrics_rollup("/k/p1/c", 2, buf, sizeof(buf)), "/k/p1"));
	CHECK(!strcmp(msl_metrics_rollup("/k", 2, buf, sizeof(buf)), "/k"));
	CHECK(!strcmp(msl_metrics_rollup("/k/p1", -1, buf, sizeof(buf)), "/k/p1"));
	CHECK(!strcmp(msl_metrics_rollup("/k/p1", 0, buf, sizeof(buf)), "/"));
	CHECK(!strcmp(msl_metrics_rollup("/", 1, buf, sizeof(buf)), "/"));
	tree(paths);
	t.seq = 1;
	row(&t, 1, "/k/p1/c")->c.decisions[MSL_REASON_OVER] = 5;
	row(&t, 2, "/k/p1")->c.decisions[MSL_REASON_OVER] = 1;
	row(&t, 3, "/s")->c.decisions[MSL_REASON_OVER] = 2;
	CHECK(msl_metrics_update(&m, &t, &map, 1) == 0);
	CHECK(m.n == 3);		/* /, /k, /s */
	CHECK(over(&m, "/k") == 6 && over(&m, "/s") == 2);
	CHECK(msl_metrics_find(&m, "/k/p1") == NULL);
	msl_table_free(&t);
	msl_metrics_free(&m);
}

static void state_survives_a_save(void)
{
	static const char *const paths[] = { "/", "/a b%", "/c", NULL };
	char dir[] = "/tmp/msl-unit-state.XXXXXX", file[PATH_MAX + 16];
	struct msl_metrics m = { .up = -1 }, back = { .up = -1 };
	struct msl_table t = { 0 };
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(file, sizeof(file), "%s/x.prom.state", dir);
	CHECK(msl_metrics_load(&back, file) == 0 && back.n == 0);
	tree(paths);
	t.seq = 3;
	t.missed = 4;
	row(&t, 7, "/a b%")->c.reclaimed[MSL_KIND_DIRECT] = 9;
	CHECK(msl_metrics_update(&m, &t, &map, -1) == 0);
	CHECK(msl_metrics_state_changed(&m, true, NULL));
	CHECK(msl_metrics_save(&m, file) == 0);
	CHECK(msl_metrics_load(&back, file) == 0);
	CHECK(back.n == m.n && back.nseen == 1 && back.seq == 3 &&
	      back.missed == 4 && back.up == 1);
	CHECK(msl_metrics_find(&back, "/a b%") &&
	      msl_metrics_find(&back, "/a b%")->v.reclaimed[MSL_KIND_DIRECT] == 9);
	CHECK(back.seen[0].path && !strcmp(back.seen[0].path, "/a b%"));
	/* The same entry read again: only its gain counts. */
	msl_table_clear(&t);
	t.seq = 4;
	t.missed = 5;
	row(&t, 7, "/a b%")->c.reclaimed[MSL_KIND_DIRECT] = 10;
	CHECK(msl_metrics_update(&back, &t, &map, -1) == 0);
	CHECK(msl_metrics_find(&back, "/a b%")->v.reclaimed[MSL_KIND_DIRECT] == 10);
	CHECK(back.missed == 5);
	/* Up, then down twice with the same reason: one change, then none. */
	CHECK(!msl_metrics_state_changed(&back, true, NULL));
	CHECK(msl_metrics_state_changed(&back, false, "gone"));
	CHECK(!msl_metrics_state_changed(&back, false, "gone"));
	CHECK(msl_metrics_state_changed(&back, false, "refused"));
	/* A state file of another layout: a fresh start, said (1). */
	f = fopen(file, "w");
	CHECK(f != NULL);
	if (f) {
		fputs("msl-metrics-state 1 9 4\nseries /a 1 2 3\n", f);
		fclose(f);
	}
	CHECK(msl_metrics_load(&back, file) == 1 && back.n == 0);
	snprintf(file, sizeof(file), "rm -rf '%s'", dir);
	CHECK(system(file) == 0);
	msl_table_free(&t);
	msl_metrics_free(&m);
	msl_metrics_free(&back);
}

static char *prom_text(const struct msl_metrics *m, const struct msl_prom *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	msl_print_prometheus(f, m, o);
	fclose(f);
	return buf;
}

static void exposition(void)
{
	static const char *const paths[] = { "/", "/a \"x\"", "/b", "/b/c", NULL };
	char dir[] = "/tmp/msl-unit-prom.XXXXXX", file[PATH_MAX], cmd[PATH_MAX + 64];
	struct msl_module mod = { .loaded = true, .version = "0.1.0" };
	struct msl_metrics m = { .up = -1 };
	struct msl_prom o = { .module = &mod, .kernel = "6.12.0" };
	struct msl_table t = { 0 };
	struct msl_series *s;
	char *text, want[160];
	const char *why;
	struct stat st;
	mode_t old;

	msl_params_default(&mod.params);
	tree(paths);
	t.seq = 1;
	t.nr_tracked = 2;
	row(&t, 7, "/a \"x\"")->c.decisions[MSL_REASON_UNDER] = 12;
	t.rows[0].c.reclaimed[MSL_KIND_KSWAPD] = 3;
	CHECK(msl_metrics_update(&m, &t, &map, -1) == 0);
	s = msl_metrics_find(&m, "/b/c");
	CHECK(s != NULL);
	if (s) {
		s->have_usage = s->have_limit = true;
		s->usage = 100;
		s->lim = (struct msl_limit){ MSL_LIMIT_MAX, UINT64_MAX };
	}
	s = msl_metrics_find(&m, "/b");
	if (s) {
		s->have_usage = s->have_limit = s->over = true;
		s->usage = 5 << 20;
		s->lim = (struct msl_limit){ MSL_LIMIT_SET, 1 << 20 };
		s->id = 103;
	}
	text = prom_text(&m, &o);
	CHECK(strstr(text, "memcg_softlimit_up 1\n") != NULL);
	CHECK(strstr(text, "memcg_softlimit_info{version=\"0.1.0\",policy=\"v8\",gate=\"progress\",priority_threshold=\"auto\",unset=\"inherit\",enabled=\"Y\",kernel=\"6.12.0\"} 1\n") != NULL);
	CHECK(strstr(text, "memcg_softlimit_decisions_total{cgroup=\"/a \\\"x\\\"\",reason=\"under\"} 12\n") != NULL);
	snprintf(want, sizeof(want), "memcg_softlimit_reclaimed_bytes_total{cgroup=\"/a \\\"x\\\"\",kind=\"kswapd\"} %llu\n",
		 (unsigned long long)msl_page_bytes(3));
	CHECK(strstr(text, want) != NULL);
	/* Every cgroup's counters, from 0. */
	CHECK(strstr(text, "memcg_softlimit_decisions_total{cgroup=\"/b/c\",reason=\"over\"} 0\n") != NULL);
	CHECK(strstr(text, "memcg_softlimit_usage_bytes{cgroup=\"/b\"} 5242880\n") != NULL);
	CHECK(strstr(text, "memcg_softlimit_soft_limit_bytes{cgroup=\"/b\",source=\"set\"} 1048576\n") != NULL);
	CHECK(strstr(text, "memcg_softlimit_soft_limit_bytes{cgroup=\"/b/c\",source=\"max\"} +Inf\n") != NULL);
	CHECK(strstr(text, "memcg_softlimit_over{cgroup=\"/b\"} 1\n") != NULL);
	CHECK(strstr(text, "memcg_softlimit_over{cgroup=\"/b/c\"} 0\n") != NULL);
	CHECK(strstr(text, "id=") == NULL);
	free(text);
	o.id_label = true;
	o.cgroup = "/b";
	text = prom_text(&m, &o);
	CHECK(strstr(text, "{cgroup=\"/b\",id=\"103\",reason=\"over\"} 0\n") != NULL);
	CHECK(strstr(text, "cgroup=\"/a") == NULL);
	free(text);
	/* The module absent: up 0 and why, and nothing else. */
	o = (struct msl_prom){ .down_why = "refused\nat load" };
	text = prom_text(NULL, &o);
	CHECK(!strcmp(text, "# HELP memcg_softlimit_up 1 when the memcg_softlimit module is loaded and its counters were read, else 0.\n"
		      "# TYPE memcg_softlimit_up gauge\nmemcg_softlimit_up 0\n"
		      "# memcg-softlimit: refused at load\n"));
	free(text);

	/* The file: 0644 whatever the umask, replaced by rename. */
	o = (struct msl_prom){ .module = &mod };
	CHECK(mkdtemp(dir) != NULL);
	snprintf(file, sizeof(file), "%s/memcg_softlimit.prom", dir);
	old = umask(077);
	CHECK(msl_write_prometheus(file, &m, &o, &why) == 0);
	umask(old);
	CHECK(stat(file, &st) == 0 && (st.st_mode & 0777) == 0644);
	/* The guest tests' independent parser of the format agrees. */
	snprintf(cmd, sizeof(cmd), "perl ../guest/prom-check.pl '%s' >&2", file);
	CHECK(system(cmd) == 0);
	CHECK(msl_write_prometheus(file, NULL, &o, &why) == 0);
	text = msl_read_all(file, NULL);
	CHECK(text && strstr(text, "memcg_softlimit_up 0\n") &&
	      !strstr(text, "decisions_total"));
	free(text);
	snprintf(cmd, sizeof(cmd), "ls -A '%s' | grep -qv memcg_softlimit.prom", dir);
	CHECK(system(cmd) != 0);
	snprintf(file, sizeof(file), "%s/no/such/dir.prom", dir);
	CHECK(msl_write_prometheus(file, &m, &o, &why) != 0 && why);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	msl_table_free(&t);
	msl_metrics_free(&m);
}

int main(void)
{
	RUN("tool_metrics", counters_only_grow);
	RUN("tool_metrics", depth_folds);
	RUN("tool_metrics", state_survives_a_save);
	RUN("tool_metrics", exposition);
	return 0;
}
