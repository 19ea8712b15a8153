/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MSL_TOOL_COUNTERS_H
#define MSL_TOOL_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <memcg_softlimit/policy.h>

struct msl_cgfs;
struct msl_cgmap;

/* counters.c: per-cgroup counters, as the snapshot event carries them */
struct msl_counts {
	uint64_t decisions[MSL_NR_REASONS];
	uint64_t scanned[MSL_NR_KINDS];
	uint64_t reclaimed[MSL_NR_KINDS];
};
uint64_t msl_counts_decisions(const struct msl_counts *c);
uint64_t msl_counts_reclaims(const struct msl_counts *c);
uint64_t msl_counts_skips(const struct msl_counts *c);
uint64_t msl_counts_scanned(const struct msl_counts *c);
uint64_t msl_counts_reclaimed(const struct msl_counts *c);
bool msl_counts_zero(const struct msl_counts *c);

struct msl_row {
	uint64_t id;
	struct msl_counts c;
	const char *path;		/* NULL: removed (or not resolved) */
	/* report --between-snapshots: its first and last snapshot events */
	uint64_t first_snap_ts, last_snap_ts, first_snap_seq;
};
struct msl_table {
	struct msl_row *rows;
	size_t n, cap;
	size_t *slots;			/* hash of ids: row index + 1 */
	size_t nslots;
	/* From snapshot_done; seq 0 when the table is not a snapshot. */
	uint64_t seq;
	uint64_t nr_tracked, untracked, dying, missed;
	bool done;
};
struct msl_row *msl_table_get(struct msl_table *t, uint64_t id);
struct msl_row *msl_table_find(const struct msl_table *t, uint64_t id);
void msl_table_clear(struct msl_table *t);
void msl_table_free(struct msl_table *t);
int msl_table_copy(struct msl_table *dst, const struct msl_table *src);
/*
 * out = cur - prev, row by row (a row new in cur counts from 0; a counter
 * that went down means the module was reloaded: it counts from 0 too).
 */
int msl_table_delta(struct msl_table *out, const struct msl_table *cur,
		    const struct msl_table *prev);
void msl_table_add(struct msl_counts *to, const struct msl_counts *c);

enum msl_sort {
	MSL_SORT_PATH, MSL_SORT_ID, MSL_SORT_DECISIONS, MSL_SORT_RECLAIMS,
	MSL_SORT_SKIPS, MSL_SORT_SCANNED, MSL_SORT_RECLAIMED,
};
int msl_sort_parse(const char *s, enum msl_sort *out);
extern const char msl_sort_keys[];
/* Numbers: largest first; path and id: ascending; ties by path, then id. */
void msl_table_sort(struct msl_table *t, enum msl_sort key, bool reverse);
void msl_table_resolve(struct msl_table *t, const struct msl_cgmap *m);
/* The same, walking the hierarchy again if some id is not in @m. */
int msl_table_resolve_fresh(struct msl_table *t, struct msl_cgmap *m,
			    const struct msl_cgfs *fs);

#endif /* MSL_TOOL_COUNTERS_H */
