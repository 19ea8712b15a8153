// SPDX-License-Identifier: GPL-2.0
/*
 * V8 2/2: when no memcg is eligible, skipping the protected ones would
 * leave reclaim nothing but the root, so the pass reclaims everyone as
 * stock does.  The question is answered where a pass begins, so the pass
 * that finds nothing eligible is the one that reclaims, and no pass is
 * wasted at a transition.
 *
 * The answer is a witness: the memcg found eligible last time, with a
 * reference.  Checking it again costs one walk up its path; only when it
 * no longer is eligible does a pre-order walk of the hierarchy look for
 * another, stopping at the first.  A walk that found none is trusted for
 * the rest of its jiffy, so that passes while nothing is eligible cost
 * one walk per jiffy at most.
 */
#include <linux/cgroup.h>
#include <linux/jiffies.h>
#include <linux/memcontrol.h>

#include "eligible.h"
#include "softlimits.h"

static struct mem_cgroup *witness;
static unsigned long none_found_at;
bool msl_nothing_eligible_now;

struct path_cursor {
	struct mem_cgroup *memcg;
};

static bool next_level(void *cursor, struct msl_level *level)
{
	struct path_cursor *c = cursor;

	if (!c->memcg || !c->memcg->css.parent)
		return false;
	msl_fill_level(c->memcg, level);
	level->sibling_over = false;
	c->memcg = parent_mem_cgroup(c->memcg);
	return true;
}

static bool eligible(const struct msl_params *params, struct mem_cgroup *memcg)
{
	struct path_cursor c = { memcg };

	return msl_eligible(params, next_level, &c);
}

/* Caller holds rcu_read_lock. */
static struct mem_cgroup *find_witness(const struct msl_params *params)
{
	struct cgroup_subsys_state *top, *pos;

	top = rcu_dereference(memory_cgrp_subsys.root->cgrp.subsys[memory_cgrp_id]);
	css_for_each_descendant_pre(pos, top) {
		if (pos == top)
			continue;
		if (eligible(params, mem_cgroup_from_css(pos)) &&
		    css_tryget(pos))
			return mem_cgroup_from_css(pos);
	}
	return NULL;
}

static void set_witness(struct mem_cgroup *memcg)
{
	struct mem_cgroup *old = xchg(&witness, memcg);

	if (old)
		css_put(&old->css);
}

void msl_eligible_pass_begin(const struct msl_params *params)
{
	unsigned long now = jiffies;
	struct mem_cgroup *w, *found;

	rcu_read_lock();
	w = READ_ONCE(witness);
	if (w && eligible(params, w)) {
		WRITE_ONCE(msl_nothing_eligible_now, false);
	} else if (!w && READ_ONCE(msl_nothing_eligible_now) &&
		   READ_ONCE(none_found_at) == now) {
		/* Searched this jiffy already. */
	} else {
		found = find_witness(params);
		set_witness(found);
		if (!found)
			WRITE_ONCE(none_found_at, now);
		WRITE_ONCE(msl_nothing_eligible_now, !found);
	}
	rcu_read_unlock();
}

void msl_eligible_exit(void)
{
	set_witness(NULL);
	WRITE_ONCE(msl_nothing_eligible_now, false);
}
