// SPDX-License-Identifier: GPL-2.0
/*
 * Per-memcg state: one entry per memory cgroup that has a soft limit set
 * through the module or that reclaim has reached, keyed by cgroup id in an
 * RCU hash that the reclaim path reads without a lock.
 *
 * The reclaim path never allocates: a new entry comes from a pool that a
 * work item refills with GFP_KERNEL.  When the pool is empty, or the table
 * is at its bound, the decision is still taken and only counted as
 * untracked.  The pool grows after a burst of memcgs reclaim met for the
 * first time emptied it (one MGLRU walk over 1,000 new memcgs took the 64
 * entries and lost the counters of the others for good, and so did every
 * later burst), and shrinks back when no burst came for a sweep interval.
 * (An allocation in the reclaim path without reclaim or reserves was
 * tried for the empty pool: under the pressure that makes a burst it
 * failed nearly every time.)  An entry goes when its cgroup is removed (the cgroup_rmdir
 * tracepoint); a periodic sweep catches one created while its cgroup was
 * being removed.
 */
#include <linux/cgroup.h>
#include <linux/hashtable.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>

#include <memcg_softlimit/control.h>
#include "internal.h"
#include "memcg_state.h"
#include "msl_trace.h"

#define MAX_ENTRIES	(1U << 17)
#define POOL_MIN	64
/* 2 MiB of idle entries at most, the pool of a host with 8,192 new memcgs */
#define POOL_MAX	8192
#define SWEEP_INTERVAL	(10 * HZ)

struct msl_global_stats msl_global;

static DEFINE_HASHTABLE(state_table, 12);
/* Writers of the table and the pool.  Never held across an allocation. */
static DEFINE_SPINLOCK(state_lock);
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
static atomic64_t snapshot_seq;
/*
 * Entries allocated and not yet freed (table, pool, RCU callbacks in
 * flight): 0 once the module has let go of everything, checked at exit.
 */
static atomic_long_t nr_allocated;
static struct tracepoint *rmdir_tp;

static void refill_pool(struct work_struct *work);
static DECLARE_WORK(refill_work, refill_pool);
static void sweep_work_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(sweep_work, sweep_work_fn);

struct msl_memcg *msl_state_find(u64 cgroup_id)
{
	struct msl_memcg *e;

	hash_for_each_possible_rcu(state_table, e, node, cgroup_id)
		if (e->cgroup_id == cgroup_id)
			return e;
	return NULL;
}

static void publish_locked(struct msl_memcg *e, u64 cgroup_id)
{
	e->cgroup_id = cgroup_id;
	e->limit_pages = MSL_LIMIT_UNSET_PAGES;
	hash_add_rcu(state_table, &e->node, cgroup_id);
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
	spin_lock(&state_lock);
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
	low = pool_count < pool_target / 2;
	spin_unlock(&state_lock);
	if (missed)
		atomic_inc(&pool_misses);
	/*
	 * Unbound: MGLRU walks its memcg LRU under rcu_read_lock(), so a work
	 * item queued on this CPU would wait for the whole walk; another CPU
	 * can refill the pool while it goes on.
	 */
	if (low)
		queue_work(system_unbound_wq, &refill_work);
	return e;
}

static void refill_pool(struct work_struct *work)
{
	unsigned int misses = atomic_xchg(&pool_misses, 0);
	unsigned int target;
	struct msl_memcg *e;

	spin_lock(&state_lock);
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
	target = pool_target;
	spin_unlock(&state_lock);

	while (READ_ONCE(pool_count) < target) {
		/*
		 * Beyond the first POOL_MIN, entries are a convenience: never
		 * retry hard or wake the OOM killer for them under pressure.
		 */
		e = alloc_entry(READ_ONCE(pool_count) < POOL_MIN ? GFP_KERNEL :
				GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN);
		if (!e)
			return;
		spin_lock(&state_lock);
		hlist_add_head(&e->node, &pool);
		pool_count++;
		spin_unlock(&state_lock);
	}
}

/* No burst since the last sweep: halve the pool, down to POOL_MIN. */
static void shrink_pool(void)
{
	struct msl_memcg *e;
	HLIST_HEAD(surplus);
	struct hlist_node *tmp;

	spin_lock(&state_lock);
	burst_taken = 0;
	burst_missed = 0;
	if (pool_grown_since_sweep || atomic_read(&pool_misses)) {
		pool_grown_since_sweep = false;
	} else if (pool_target > POOL_MIN) {
		pool_target /= 2;
		while (pool_count > pool_target) {
			e = hlist_entry(pool.first, struct msl_memcg, node);
			hlist_del(&e->node);
			hlist_add_head(&e->node, &surplus);
			pool_count--;
		}
	}
	spin_unlock(&state_lock);
	hlist_for_each_entry_safe(e, tmp, &surplus, node) {
		hlist_del(&e->node);
		free_entry(e);
	}
}

int msl_state_set_limit(struct cgroup *cgrp, u64 limit_pages)
{
	struct msl_memcg *e, *fresh;
	u64 id = cgroup_id(cgrp);
	int ret = 0;

	fresh = alloc_entry(GFP_KERNEL);
	if (!fresh)
		return -ENOMEM;

	spin_lock(&state_lock);
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
	if (e->limit_pages == MSL_LIMIT_UNSET_PAGES) {
		if (nr_limits >= MSL_MAX_LIMITS) {
			ret = -ENOSPC;
			goto out;
		}
		nr_limits++;
	}
	WRITE_ONCE(e->limit_pages, limit_pages);
	/*
	 * rmdir kills the cgroup's reference before its tracepoint fires, so
	 * either the probe sees this entry or we see the cgroup dying here.
	 */
	if (css_is_dying(&cgrp->self))
		remove_locked(e);
out:
	spin_unlock(&state_lock);
	free_entry(fresh);
	return ret;
}

void msl_state_clear_limit(u64 cgroup_id)
{
	struct msl_memcg *e;

	spin_lock(&state_lock);
	e = msl_state_find(cgroup_id);
	if (e && e->limit_pages != MSL_LIMIT_UNSET_PAGES) {
		WRITE_ONCE(e->limit_pages, MSL_LIMIT_UNSET_PAGES);
		nr_limits--;
	}
	spin_unlock(&state_lock);
}

unsigned int msl_state_nr_limits(void)
{
	return READ_ONCE(nr_limits);
}

unsigned int msl_state_limits(struct msl_limit_row *rows, unsigned int max)
{
	struct msl_memcg *e;
	unsigned int n = 0;
	int bkt;

	rcu_read_lock();
	hash_for_each_rcu(state_table, bkt, e, node) {
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

	spin_lock(&state_lock);
	e = msl_state_find(cgroup_id);
	if (e)
		remove_locked(e);
	spin_unlock(&state_lock);
}

static void probe_cgroup_rmdir(void *data, struct cgroup *cgrp,
			       const char *path)
{
	forget(cgroup_id(cgrp));
}

/*
 * Drop entries whose cgroup is gone.  Only cgroup v2 ids can be looked up
 * (cgroup_get_from_id() knows the default hierarchy only); on cgroup v1 the
 * rmdir probe and the dying check at creation do the work alone.
 */
static void sweep(void)
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
	hash_for_each_rcu(state_table, bkt, e, node) {
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
	sweep();
	shrink_pool();
	schedule_delayed_work(&sweep_work, SWEEP_INTERVAL);
}

void msl_state_snapshot(void)
{
	struct msl_memcg *e;
	u64 seq = atomic64_inc_return(&snapshot_seq);
	unsigned int n = 0;
	int bkt;

	sweep();
	rcu_read_lock();
	hash_for_each_rcu(state_table, bkt, e, node) {
		trace_snapshot(seq, e);
		n++;
	}
	rcu_read_unlock();
	trace_snapshot_done(seq, n, &msl_global, msl_hooks_missed(),
			    READ_ONCE(pool_count));
}

static void find_rmdir_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "cgroup_rmdir"))
		rmdir_tp = tp;
}

int msl_state_init(void)
{
	int ret;

	refill_pool(NULL);
	for_each_kernel_tracepoint(find_rmdir_tp, NULL);
	if (!rmdir_tp) {
		pr_err("memcg_softlimit: refusing to load: no cgroup_rmdir tracepoint\n");
		ret = -ENOENT;
		goto fail;
	}
	ret = tracepoint_probe_register(rmdir_tp, probe_cgroup_rmdir, NULL);
	if (ret) {
		pr_err("memcg_softlimit: refusing to load: cannot attach to cgroup_rmdir (%d)\n",
		       ret);
		goto fail;
	}
	schedule_delayed_work(&sweep_work, SWEEP_INTERVAL);
	return 0;
fail:
	msl_state_exit();
	return ret;
}

void msl_state_exit(void)
{
	struct msl_memcg *e;
	struct hlist_node *tmp;
	int bkt;

	if (rmdir_tp) {
		tracepoint_probe_unregister(rmdir_tp, probe_cgroup_rmdir, NULL);
		tracepoint_synchronize_unregister();
		rmdir_tp = NULL;
	}
	cancel_delayed_work_sync(&sweep_work);
	cancel_work_sync(&refill_work);
	spin_lock(&state_lock);
	hash_for_each_safe(state_table, bkt, tmp, e, node)
		remove_locked(e);
	hlist_for_each_entry_safe(e, tmp, &pool, node) {
		hlist_del(&e->node);
		free_entry(e);
	}
	pool_count = 0;
	pool_target = POOL_MIN;
	burst_taken = 0;
	burst_missed = 0;
	spin_unlock(&state_lock);
	/* Wait for the RCU callbacks before the module text goes. */
	rcu_barrier();
	WARN(atomic_long_read(&nr_allocated),
	     "memcg_softlimit: %ld per-memcg entries not freed\n",
	     atomic_long_read(&nr_allocated));
}
