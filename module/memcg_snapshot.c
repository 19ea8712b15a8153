// SPDX-License-Identifier: GPL-2.0
/*
 * The per-memcg state as trace events (procfs.c's snapshot write): the
 * entries of removed cgroups dropped first, then each tracked memcg's path
 * and counters, and the global counts.
 */
#include <linux/atomic.h>
#include <linux/cgroup.h>
#include <linux/hashtable.h>
#include <linux/limits.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "memcg_snapshot.h"
#include "memcg_state.h"
#include "msl_trace.h"

static atomic64_t snapshot_seq;

/*
 * A recording read on another machine, or after a reboot, cannot look a
 * cgroup id up: each snapshot first names every tracked memcg (the root
 * included), with the path of its cgroup now.
 */
static void trace_tracked_paths(u64 seq)
{
	struct cgroup_subsys_state *top, *pos;
	char *path;

	if (!trace_cgroup_path_enabled())
		return;
	path = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!path)
		return;
	rcu_read_lock();
	top = rcu_dereference(memory_cgrp_subsys.root->cgrp.subsys[memory_cgrp_id]);
	css_for_each_descendant_pre(pos, top) {
		u64 id = cgroup_id(pos->cgroup);

		if (msl_state_find(id) && cgroup_path(pos->cgroup, path, PATH_MAX) >= 0)
			trace_cgroup_path(seq, id, path);
	}
	rcu_read_unlock();
	kfree(path);
}

void msl_state_snapshot(u64 missed)
{
	struct msl_memcg *e;
	u64 seq = atomic64_inc_return(&snapshot_seq);
	unsigned int n = 0;
	int bkt;

	msl_state_sweep();
	trace_tracked_paths(seq);
	rcu_read_lock();
	hash_for_each_rcu(msl_state_table, bkt, e, node) {
		trace_snapshot(seq, e);
		n++;
	}
	rcu_read_unlock();
	trace_snapshot_done(seq, n, &msl_global, missed, msl_state_pool_count());
}
