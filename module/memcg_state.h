/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MSL_MEMCG_STATE_H
#define MSL_MEMCG_STATE_H

#include <linux/atomic.h>
#include <linux/hashtable.h>
#include <linux/rcupdate.h>
#include <linux/types.h>
#include <memcg_softlimit/policy.h>

struct cgroup;

/* limit_pages values besides a page count */
#define MSL_LIMIT_UNSET_PAGES	(~0ULL - 1)
#define MSL_LIMIT_MAX_PAGES	(~0ULL)

/*
 * What the module keeps per memory cgroup, keyed by cgroup id: the cgroup
 * v2 soft limit, if any, and the decision and page counters.  Entries live
 * as long as the cgroup: the cgroup_rmdir tracepoint drops them.
 */
struct msl_memcg {
	struct hlist_node node;
	u64 cgroup_id;
	u64 limit_pages;
	atomic64_t decisions[MSL_NR_REASONS];
	atomic64_t scanned[MSL_NR_KINDS];
	atomic64_t reclaimed[MSL_NR_KINDS];
	/* policy walk: which children are over, for one jiffy (gate.c) */
	atomic64_t over_children;
	/* policy excess: the sum of the excesses noted, wrapping (excess.c) */
	atomic64_t excess_credit;
	struct rcu_head rcu;
};

/* Decisions and pages the module could not attribute to a memcg. */
struct msl_global_stats {
	atomic64_t untracked;	/* no entry could be had (pool empty, cap) */
	atomic64_t dying;	/* the memcg was being removed */
	atomic64_t missed;	/* gated calls whose pages went uncounted */
};
extern struct msl_global_stats msl_global;

/* Counts the live memcgs and fills the pool; after cgroup_events.c's probes. */
void msl_state_start(void);
void msl_state_exit(void);
/* cgroup_events.c: a cgroup of the memory hierarchy came or went. */
void msl_state_cgroup_added(void);
void msl_state_cgroup_removed(u64 cgroup_id);

/*
 * The entries by cgroup id; written under memcg_state.c's lock, read
 * under RCU.  Looked up inline: the reclaim path does it at every level
 * of every decision.
 */
#define MSL_STATE_HASH_BITS	12
extern struct hlist_head msl_state_table[1 << MSL_STATE_HASH_BITS];

/* Caller holds rcu_read_lock. */
static inline struct msl_memcg *msl_state_find(u64 cgroup_id)
{
	struct msl_memcg *e;

	hash_for_each_possible_rcu(msl_state_table, e, node, cgroup_id)
		if (e->cgroup_id == cgroup_id)
			return e;
	return NULL;
}
/* Reclaim path: find, or create from a preallocated pool; NULL if none. */
struct msl_memcg *msl_state_get_atomic(u64 cgroup_id);

/* Process context (control writes). */
int msl_state_set_limit(struct cgroup *cgrp, u64 limit_pages);
/* Any context, under rcu_read_lock: from the pool, no allocation. */
int msl_state_set_limit_atomic(struct cgroup *cgrp, u64 limit_pages);
void msl_state_clear_limit(u64 cgroup_id);
/* A limit is set for @cgroup_id (through the module). */
bool msl_state_has_limit(u64 cgroup_id);

struct msl_limit_row {
	u64 cgroup_id;
	u64 limit_pages;
};
/* Copies up to @max rows of entries that have a limit; returns how many. */
unsigned int msl_state_limits(struct msl_limit_row *rows, unsigned int max);
unsigned int msl_state_nr_limits(void);

/* Drops the entries of removed cgroups (cgroup v2; the periodic sweep). */
void msl_state_sweep(void);
/* Entries waiting in the pool now. */
unsigned int msl_state_pool_count(void);

#endif /* MSL_MEMCG_STATE_H */
