// SPDX-License-Identifier: GPL-2.0
/*
 * stat --prometheus FILE, one run: the series kept in FILE.state read,
 * the snapshot added (metrics.c), the gauges of each cgroup read now,
 * FILE replaced (prom.c), the state saved.  The module coming or going is
 * said once, when it changes, not at every run of the timer: a node
 * without the module would otherwise log the same long line every minute.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <memcg_softlimit/control.h>
#include <memcg_softlimit/policy.h>

#include "exporter.h"
#include "cgmap.h"
#include "cgroup.h"
#include "counters.h"
#include "metrics.h"
#include "module.h"
#include "msl.h"
#include "output.h"
#include "prom.h"
#include "softlimit.h"

int msl_exporter_open(struct msl_exporter *e, const char *file,
		      const struct msl_cgfs *fs, int depth,
		      const char *cgroup, bool id_label)
{
	struct utsname u;
	int ret;

	memset(e, 0, sizeof(*e));
	e->file = file;
	e->fs = fs;
	e->depth = depth;
	e->cgroup = cgroup;
	e->id_label = id_label;
	if (!uname(&u))
		snprintf(e->kernel, sizeof(e->kernel), "%s", u.release);
	if (snprintf(e->state, sizeof(e->state), "%s.state", file) >=
	    (int)sizeof(e->state)) {
		msl_err("%s: name too long", file);
		return -ENAMETOOLONG;
	}
	ret = msl_metrics_load(&e->m, e->state);
	if (ret < 0)
		msl_warn("cannot read %s (%s): the series start again from 0",
			 e->state, strerror(-ret));
	else if (ret > 0)
		msl_warn("%s is from another version: the series start again from 0",
			 e->state);
	return 0;
}

/* The gauges of each series whose cgroup exists: usage, limit, over. */
static void read_gauges(struct msl_exporter *e, const struct msl_cgmap *map)
{
	struct msl_v2limits v2 = { 0 };
	uint64_t ps = msl_page_bytes(1);
	struct msl_level l = { 0 };
	bool limits = true;
	size_t i;

	if (e->fs->version == 2 && msl_v2limits_load(&v2)) {
		msl_warn("cannot read %s: soft limits left out", MSL_CTL_LIMITS);
		limits = false;
	}
	for (i = 0; i < map->n; i++) {
		const struct msl_cgnode *n = &map->nodes[i];
		struct msl_series *s = msl_metrics_find(&e->m, n->path);

		if (!s)
			continue;
		s->id = n->id;
		s->have_usage = !msl_cg_usage(e->fs, n->path, &s->usage);
		s->have_limit = limits && n->depth > 0 &&
				msl_cg_has_memcg(e->fs, n->path) &&
				!msl_limit_get(e->fs, n->path, &v2, &s->lim);
		if (!s->have_limit)
			continue;
		l.usage = s->have_usage ? s->usage / ps : 0;
		l.src = s->lim.src;
		l.soft_limit = s->lim.bytes / ps;
		s->over = msl_level_over(&e->mod.params, &l);
	}
	msl_v2limits_free(&v2);
}

int msl_exporter_write(struct msl_exporter *e, const struct msl_table *t,
		       const struct msl_cgmap *map, const char *down_why)
{
	struct msl_prom o = {
		.down_why = down_why, .cgroup = e->cgroup,
		.id_label = e->id_label, .module = &e->mod,
		.kernel = e->kernel, .t = t,
	};
	int was_up = e->m.up;
	bool changed = msl_metrics_state_changed(&e->m, t != NULL, down_why);
	const char *why;
	int ret;

	if (t) {
		msl_module_read(&e->mod);
		if (msl_metrics_update(&e->m, t, map, e->depth)) {
			msl_err("out of memory");
			return -ENOMEM;
		}
		read_gauges(e, map);
	}
	ret = msl_write_prometheus(e->file, t ? &e->m : NULL, &o, &why);
	if (ret) {
		msl_err("cannot write %s: %s: %s", e->file, why, strerror(-ret));
		return ret;
	}
	ret = msl_metrics_save(&e->m, e->state);
	if (ret)
		msl_warn("cannot save %s (%s): the next run starts its series from 0",
			 e->state, strerror(-ret));
	/* Once per change: the first run, and each coming or going. */
	if (changed && !t)
		msl_warn("%s (memcg_softlimit_up 0 in %s from now on; said again only when it changes)",
			 down_why, e->file);
	else if (t && was_up == 0)
		msl_warn("memcg_softlimit is loaded again: memcg_softlimit_up 1 in %s",
			 e->file);
	return 0;
}

void msl_exporter_close(struct msl_exporter *e)
{
	msl_metrics_free(&e->m);
}
