// SPDX-License-Identifier: GPL-2.0
/*
 * Per-memcg state: one entry per memory cgroup that has a soft limit set
 * through the module or that reclaim has reached, keyed by cgroup id in an
 * RCU hash that the reclaim path reads without a lock.
 *
 * The reclaim path never allocates: a new entry comes from a pool that a
 * work item refills with GFP_KERNEL.  When the pool is empty, or the table
 * is at its bound, the decision is still taken and only counted as
 * untracked.  (An allocation in the reclaim path without reclaim or
 * reserves was tried for the empty pool: under the pressure that makes a
 * burst it failed nearly every time.)
 *
 * So the pool is sized ahead: it holds an entry for each live cgroup of
 * the memory hierarchy the module has no entry for (counted at load, then
 * by the cgroup_mkdir and cgroup_rmdir tracepoints) and POOL_MIN spare
 * ones, up to POOL_MAX, since one reclaim pass may meet every one of them
 * for the first time (one MGLRU walk over 1,000 new memcgs took a 64-entry
 * pool and lost the counters of the others for good).  A burst that still
 * emptied it (more memcgs than counted, or met before the refill ran)
 * grows it further, and that growth is halved back each sweep interval
 * without one.
 *
 * An entry goes when its cgroup is removed (the cgroup_rmdir tracepoint); a
 * periodic sweep catches one created while its cgroup was being removed.
 */
#include <linux/cgroup.h>
#include <linux/hashtable.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "compat.h"
#include <memcg_softlimit/control.h>
#include "memcg_state.h"

#define MAX_ENTRIES	(1U << 17)
#define POOL_MIN	64
/* 2 MiB of idle entries at most, the pool of a host with 8,192 new memcgs */
#define POOL_MAX	8192
#define SWEEP_INTERVAL	(10 * HZ)

struct msl_global_stats msl_global;

DEFINE_HASHTABLE(msl_state_table, MSL_STATE_HASH_BITS);
/*
 * Writers of the table and the pool.  Never held across an allocation.
 * Raw: the reclaim hooks take it with preemption off, where a spinlock_t
 * sleeps on PREEMPT_RT; every section is a few list operations.
 */
static DEFINE_RAW_SPINLOCK(state_lock);
static unsigned int nr_entries, nr_limits;
static HLIST_HEAD(pool);
static unsigned int pool_count;
/* The pool's size: POOL_MIN, grown by bursts, halved by quiet sweeps. */
static unsigned int pool_target = POOL_MIN;
/* Steps the reclaim path found the pool empty at, since the last refill. */
static atomic_t pool_misses;
/* Since the last sweep (under state_lock): entries taken, steps missed. */
static unsigned int burst_taken, burst_missed;
static bool pool_grown_since_sweep;
/* Live cgroups of the memory hierarchy below its root, entries or not. */
static atomic_t nr_live_cgroups;
/*
 * Entries allocated and not yet freed (table, pool, RCU callbacks in
 * flight): 0 once the module has let go of everything, checked at exit.
 */
static atomic_long_t nr_allocated;

static void refill_pool(struct work_struct *work);
static DECLARE_WORK(refill_work, refill_pool);
static void sweep_work_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(sweep_work, sweep_work_fn);

/*
 * Entries the pool should hold now: one for each live memcg without an
 * entry (a pass may meet them all at once) and POOL_MIN more (the root,
 * memcgs the count missed), or what bursts grew it to.  Without the spare
 * ones the pool would run dry with the last counted memcg, before the
 * refill it then asks for could run.
 */
static unsigned int pool_wanted(void)
{
	int untracked = atomic_read(&nr_live_cgroups) - (int)READ_ONCE(nr_entries);
	unsigned int ahead = POOL_MIN + max(untracked, 0);

	return clamp_t(unsigned int, ahead, READ_ONCE(pool_target), POOL_MAX);
}

static void publish_locked(struct msl_memcg *e, u64 cgroup_id)
{
	e->cgroup_id = cgroup_id;
	e->limit_pages = MSL_LIMIT_UNSET_PAGES;
	hash_add_rcu(msl_state_table, &e->node, cgroup_id);
	nr_entries++;
}

static struct msl_memcg *alloc_entry(gfp_t gfp)
{
	struct msl_memcg *e = kzalloc(sizeof(*e), gfp);

	if (e)
		atomic_long_inc(&nr_allocated);
	return e;
}

static void free_entry(struct msl_memcg *e)
{
	if (!e)
		return;
	kfree(e);
	atomic_long_dec(&nr_allocated);
}

static void free_entry_rcu(struct rcu_head *head)
{
	free_entry(container_of(head, struct msl_memcg, rcu));
}

static void remove_locked(struct msl_memcg *e)
{
	hash_del_rcu(&e->node);
	nr_entries--;
	if (e->limit_pages != MSL_LIMIT_UNSET_PAGES)
		nr_limits--;
	call_rcu(&e->rcu, free_entry_rcu);
}

struct msl_memcg *msl_state_get_atomic(u64 cgroup_id)
{
	struct msl_memcg *e = msl_state_find(cgroup_id);
	bool low, missed = false;

	if (e)
		return e;
	raw_spin_lock(&state_lock);
	e = msl_state_find(cgroup_id);
	if (!e && nr_entries < MAX_ENTRIES) {
		if (hlist_empty(&pool)) {
			missed = true;
		} else {
			e = hlist_entry(pool.first, struct msl_memcg, node);
			hlist_del(&e->node);
			pool_count--;
			burst_taken++;
			publish_locked(e, cgroup_id);
		}
	}
	low = pool_count < pool_wanted() / 2;
	raw_spin_unlock(&state_lock);
	if (missed)
		atomic_inc(&pool_misses);
	/*
	 * Unbound: MGLRU walks its memcg LRU under rcu_read_lock(), so a work
	 * item queued on this CPU would wait for the whole walk; another CPU
	 * can refill the pool while it goes on.
	 */
	if (low)
		queue_work(msl_unbound_wq, &refill_work);
	return e;
}

static void refill_pool(struct work_struct *work)
{
	unsigned int misses = atomic_xchg(&pool_misses, 0);
	unsigned int target;
	struct msl_memcg *e;

	raw_spin_lock(&state_lock);
	/*
	 * A burst emptied the pool: room for all of it, the entries it took
	 * and the steps it missed (a memcg missed at several steps counts at
	 * each), so that a next burst of as many new memcgs finds an entry for
	 * each even if this work does not get to run meanwhile.
	 */
	if (misses) {
		burst_missed += misses;
		pool_target = clamp_t(unsigned int,
				      roundup_pow_of_two(burst_taken + burst_missed),
				      pool_target, POOL_MAX);
		pool_grown_since_sweep = true;
	}
	raw_spin_unlock(&state_lock);
	target = pool_wanted();

	while (READ_ONCE(pool_count) < target) {
		/*
		 * Beyond the first POOL_MIN, entries are a convenience: never
		 * retry hard or wake the OOM killer for them under pressure.
		 */
		e = alloc_entry(READ_ONCE(pool_count) < POOL_MIN ? GFP_KERNEL :
				GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN);
		if (!e)
			return;
		raw_spin_lock(&state_lock);
		hlist_add_head(&e->node, &pool);
		pool_count++;
		raw_spin_unlock(&state_lock);
	}
}

/*
 * No burst since the last sweep: halve what bursts grew the pool to, and
 * free what is above the size wanted now (memcgs met or removed since).
 */
static void shrink_pool(void)
{
	struct msl_memcg *e;
	HLIST_HEAD(surplus);
	struct hlist_node *tmp;
	unsigned int wanted;

	raw_spin_lock(&state_lock);
	burst_taken = 0;
	burst_missed = 0;
	if (pool_grown_since_sweep || atomic_read(&pool_misses)) {
		pool_grown_since_sweep = false;
	} else {
		if (pool_target > POOL_MIN)
			pool_target /= 2;
		wanted = pool_wanted();
		while (pool_count > wanted) {
			e = hlist_entry(pool.first, struct msl_memcg, node);
			hlist_del(&e->node);
			hlist_add_head(&e->node, &surplus);
			pool_count--;
		}
	}
	raw_spin_unlock(&state_lock);
	hlist_for_each_entry_safe(e, tmp, &surplus, node) {
		hlist_del(&e->node);
		free_entry(e);
	}
}

/* The entry of @cgrp, published in the table, now holds @limit_pages. */
static int set_limit_locked(struct msl_memcg *e, struct cgroup *cgrp,
			    u64 limit_pages)
{
	if (e->limit_pages == MSL_LIMIT_UNSET_PAGES) {
		if (nr_limits >= MSL_MAX_LIMITS)
			return -ENOSPC;
		nr_limits++;
	}
	WRITE_ONCE(e->limit_pages, limit_pages);
	/*
	 * rmdir kills the cgroup's reference before its tracepoint fires, so
	 * either the probe sees this entry or we see the cgroup dying here.
	 */
	if (css_is_dying(&cgrp->self))
		remove_locked(e);
	return 0;
}

int msl_state_set_limit(struct cgroup *cgrp, u64 limit_pages)
{
	struct msl_memcg *e, *fresh;
	u64 id = cgroup_id(cgrp);
	int ret;

	fresh = alloc_entry(GFP_KERNEL);
	if (!fresh)
		return -ENOMEM;

	raw_spin_lock(&state_lock);
	e = msl_state_find(id);
	if (!e) {
		if (nr_entries >= MAX_ENTRIES || nr_limits >= MSL_MAX_LIMITS) {
			ret = -ENOSPC;
			goto out;
		}
		publish_locked(fresh, id);
		e = fresh;
		fresh = NULL;
	}
	ret = set_limit_locked(e, cgrp, limit_pages);
out:
	raw_spin_unlock(&state_lock);
	free_entry(fresh);
	return ret;
}

int msl_state_set_limit_atomic(struct cgroup *cgrp, u64 limit_pages)
{
	struct msl_memcg *e = msl_state_get_atomic(cgroup_id(cgrp));
	int ret;

	if (!e)
		return -ENOMEM;
	raw_spin_lock(&state_lock);
	ret = set_limit_locked(e, cgrp, limit_pages);
	raw_spin_unlock(&state_lock);
	return ret;
}

void msl_state_clear_limit(u64 cgroup_id)
{
	struct msl_memcg *e;

	raw_spin_lock(&state_lock);
	e = msl_state_find(cgroup_id);
	if (e && e->limit_pages != MSL_LIMIT_UNSET_PAGES) {
		WRITE_ONCE(e->limit_pages, MSL_LIMIT_UNSET_PAGES);
		nr_limits--;
	}
	raw_spin_unlock(&state_lock);
}

bool msl_state_has_limit(u64 cgroup_id)
{
	struct msl_memcg *e;
	bool has;

	rcu_read_lock();
	e = msl_state_find(cgroup_id);
	has = e && READ_ONCE(e->limit_pages) != MSL_LIMIT_UNSET_PAGES;
	rcu_read_unlock();
	return has;
}

unsigned int msl_state_nr_limits(void)
{
	return READ_ONCE(nr_limits);
}

unsigned int msl_state_pool_count(void)
{
	return READ_ONCE(pool_count);
}

unsigned int msl_state_limits(struct msl_limit_row *rows, unsigned int max)
{
	struct msl_memcg *e;
	unsigned int n = 0;
	int bkt;

	rcu_read_lock();
	hash_for_each_rcu(msl_state_table, bkt, e, node) {
		u64 pages = READ_ONCE(e->limit_pages);

		if (pages == MSL_LIMIT_UNSET_PAGES)
			continue;
		if (n == max)
			break;
		rows[n].cgroup_id = e->cgroup_id;
		rows[n].limit_pages = pages;
		n++;
	}
	rcu_read_unlock();
	return n;
}

static void forget(u64 cgroup_id)
{
	struct msl_memcg *e;

	raw_spin_lock(&state_lock);
	e = msl_state_find(cgroup_id);
	if (e)
		remove_locked(e);
	raw_spin_unlock(&state_lock);
}

void msl_state_cgroup_added(void)
{
	atomic_inc(&nr_live_cgroups);
	if (READ_ONCE(pool_count) < pool_wanted())
		queue_work(msl_unbound_wq, &refill_work);
}

void msl_state_cgroup_removed(u64 cgroup_id)
{
	atomic_dec(&nr_live_cgroups);
	forget(cgroup_id);
}

/* The live cgroups below the memory hierarchy's root, at load. */
static int count_live_cgroups(void)
{
	struct cgroup_subsys_state *top = &memory_cgrp_subsys.root->cgrp.self;
	struct cgroup_subsys_state *pos;
	int n = 0;

	rcu_read_lock();
	css_for_each_descendant_pre(pos, top)
		if (pos != top && !css_is_dying(pos))
			n++;
	rcu_read_unlock();
	return n;
}

/*
 * Drop entries whose cgroup is gone.  Only cgroup v2 ids can be looked up
 * (cgroup_get_from_id() knows the default hierarchy only); on cgroup v1 the
 * rmdir probe and the dying check at creation do the work alone.
 */
void msl_state_sweep(void)
{
	struct msl_memcg *e;
	struct cgroup *cgrp;
	unsigned int n = 0, i, cap;
	u64 *ids;
	bool dead;
	int bkt;

	if (!cgroup_subsys_on_dfl(memory_cgrp_subsys))
		return;
	cap = READ_ONCE(nr_entries) + 16;
	ids = kvmalloc_array(cap, sizeof(*ids), GFP_KERNEL);
	if (!ids)
		return;
	rcu_read_lock();
	hash_for_each_rcu(msl_state_table, bkt, e, node) {
		if (n == cap)
			break;
		ids[n++] = e->cgroup_id;
	}
	rcu_read_unlock();

	for (i = 0; i < n; i++) {
		cgrp = cgroup_get_from_id(ids[i]);
		dead = IS_ERR(cgrp);
		if (!dead) {
			dead = css_is_dying(&cgrp->self);
			cgroup_put(cgrp);
		}
		if (dead)
			forget(ids[i]);
	}
	kvfree(ids);
}

static void sweep_work_fn(struct work_struct *work)
{
	msl_state_sweep();
	shrink_pool();
	/* A refill that failed to allocate gets another chance. */
	if (READ_ONCE(pool_count) < pool_wanted())
		queue_work(msl_unbound_wq, &refill_work);
	schedule_delayed_work(&sweep_work, SWEEP_INTERVAL);
}

/*
 * After cgroup_events.c attached its probes, so that no cgroup made
 * meanwhile is missed (one may be counted twice: the pool is a little
 * larger for a while).
 */
void msl_state_start(void)
{
	atomic_add(count_live_cgroups(), &nr_live_cgroups);
	refill_pool(NULL);
	schedule_delayed_work(&sweep_work, SWEEP_INTERVAL);
}

void msl_state_exit(void)
{
	struct msl_memcg *e;
	struct hlist_node *tmp;
	HLIST_HEAD(unused);
	int bkt;

	cancel_delayed_work_sync(&sweep_work);
	cancel_work_sync(&refill_work);
	raw_spin_lock(&state_lock);
	hash_for_each_safe(msl_state_table, bkt, tmp, e, node)
		remove_locked(e);
	/*
	 * The pool is freed after the raw lock is dropped: on PREEMPT_RT
	 * kfree() may take the page allocator's sleeping zone lock.
	 */
	hlist_move_list(&pool, &unused);
	pool_count = 0;
	pool_target = POOL_MIN;
	atomic_set(&nr_live_cgroups, 0);
	burst_taken = 0;
	burst_missed = 0;
	raw_spin_unlock(&state_lock);
	hlist_for_each_entry_safe(e, tmp, &unused, node) {
		hlist_del(&e->node);
		free_entry(e);
	}
	/* Wait for the RCU callbacks before the module text goes. */
	rcu_barrier();
	WARN(atomic_long_read(&nr_allocated),
	     "%ld per-memcg entries not freed\n",
	     atomic_long_read(&nr_allocated));
}
