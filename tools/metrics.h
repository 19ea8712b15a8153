/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MSL_TOOL_METRICS_H
#define MSL_TOOL_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counters.h"
#include "softlimit.h"

struct msl_cgmap;

/* metrics.c: the series of --prometheus, kept across runs (FILE.state) */
#define MSL_SERIES_REMOVED	"(removed)"
struct msl_series {
	char *cgroup;			/* a path, ".../(removed)", "(removed)" */
	struct msl_counts v;		/* what it ever counted, pages */
	struct msl_counts pending;	/* a new series' first gain, next run */
	bool exists;			/* a cgroup now: its gauges below */
	bool have_usage, have_limit, over;
	uint64_t usage, id;		/* bytes; the cgroup's id now */
	struct msl_limit lim;
};
struct msl_seen {			/* a module entry, as last read */
	uint64_t id;
	char *path;			/* NULL: never seen with one */
	struct msl_counts last;
};
struct msl_metrics {
	struct msl_series *s;		/* sorted by cgroup */
	size_t n, cap;
	struct msl_seen *seen;
	size_t nseen;
	uint64_t seq;			/* the last snapshot read */
	uint64_t untracked, dying, missed;		/* ever */
	uint64_t last_untracked, last_dying, last_missed; /* as last read */
	int up;				/* last run: 1, 0, -1 unknown */
	char why[512];			/* why it was down */
};
/*
 * metrics_state.c: FILE.state.  0 (none yet is fine), 1 when unusable
 * (start afresh), -errno.
 */
int msl_metrics_load(struct msl_metrics *m, const char *file);
int msl_metrics_save(const struct msl_metrics *m, const char *file);
void msl_metrics_free(struct msl_metrics *m);
/*
 * Adds what each entry of @t (rows resolved against @map) gained since
 * the last reading, and gives every cgroup of @map (at most @depth deep,
 * -1: all) its series; drops the series of cgroups gone.  0 or -ENOMEM.
 */
int msl_metrics_update(struct msl_metrics *m, const struct msl_table *t,
		       const struct msl_cgmap *map, int depth);
struct msl_series *msl_metrics_find(const struct msl_metrics *m,
				    const char *cgroup);
/* @path folded to @depth components (-1: as it is) into @buf. */
const char *msl_metrics_rollup(const char *path, int depth, char *buf,
			       size_t len);
/* Records up/down and why; true when that differs from the last run. */
bool msl_metrics_state_changed(struct msl_metrics *m, bool up,
			       const char *why);
/* The series of @cgroup, made at 0 if new; NULL: no memory. */
struct msl_series *msl_metrics_series(struct msl_metrics *m,
				      const char *cgroup);
/* A series' counts one by one (the state file's order), 0 to NR - 1. */
#define MSL_METRICS_NR_COUNTS	(MSL_NR_REASONS + 2 * MSL_NR_KINDS)
uint64_t *msl_metrics_count(struct msl_counts *c, int i);

#endif /* MSL_TOOL_METRICS_H */
