// SPDX-License-Identifier: GPL-2.0
/*
 * The levels a decision reads: a memcg and its ancestors below the root,
 * bottom-up, with walk's "is a sibling over?" cached per parent.  Read
 * under rcu_read_lock() by the reclaim path and by the supply work alike:
 * no allocation, no sleeping, no lock.
 */
#include <linux/bits.h>
#include <linux/cgroup.h>
#include <linux/jiffies.h>
#include <linux/memcontrol.h>
#include <linux/rculist.h>

#include "levels.h"
#include "memcg_state.h"
#include "softlimits.h"

/*
 * walk: which children of a memcg are over, cached in the memcg's entry
 * for one jiffy: how many (0, 1, or 2 for two or more), the low bits of
 * the id of the one when there is one, and the jiffy.  0 is "not cached"
 * (a miss).  Within that jiffy an answer may miss a limit or a usage that
 * crossed over; that is all the staleness there is.
 */
#define OC_COUNT_SHIFT		62
#define OC_STAMP_MASK		GENMASK_ULL(61, 32)
#define OC_STAMP_SHIFT		32
#define OC_ID_MASK		GENMASK_ULL(31, 0)

/*
 * css_for_each_child() would do, but css_next_child() is not exported.
 * The children list is RCU-protected (list_del_rcu() on release) and the
 * caller holds rcu_read_lock() across the whole walk, which is all
 * css_next_child() needs when the lock is not dropped between steps.  No
 * allocation, no sleeping, no lock; O(children), stopping at the second
 * child over.
 */
static u64 scan_over_children(const struct msl_params *params,
			      struct mem_cgroup *parent)
{
	struct cgroup_subsys_state *pos;
	struct msl_level level;
	u64 count = 0, id = 0;

	list_for_each_entry_rcu(pos, &parent->css.children, sibling) {
		msl_fill_level(mem_cgroup_from_css(pos), &level);
		if (!msl_level_over(params, &level))
			continue;
		if (++count == 2)
			break;
		id = level.cgroup_id;
	}
	return count << OC_COUNT_SHIFT | (id & OC_ID_MASK);
}

/* walk: is a child of @memcg's parent other than @memcg (@id) over? */
static bool sibling_over(const struct msl_params *params,
			 struct mem_cgroup *memcg, u64 id)
{
	struct mem_cgroup *parent = parent_mem_cgroup(memcg);
	unsigned long now = jiffies;
	struct msl_memcg *e;
	u64 stamp, v = 0, count;

	if (!parent)
		return false;
	stamp = ((u64)now << OC_STAMP_SHIFT) & OC_STAMP_MASK;
	/* The parent's entry; the root's too, made at its first decision. */
	e = msl_state_find(cgroup_id(parent->css.cgroup));
	if (e)
		v = atomic64_read(&e->over_children);
	if (!v || (v & OC_STAMP_MASK) != stamp) {
		v = scan_over_children(params, parent) | stamp;
		if (e)
			atomic64_set(&e->over_children, v);
	}
	count = v >> OC_COUNT_SHIFT;
	return count > 1 || (count == 1 && (v & OC_ID_MASK) != (id & OC_ID_MASK));
}

bool msl_next_level(void *cursor, struct msl_level *level)
{
	struct msl_level_cursor *c = cursor;
	struct mem_cgroup *memcg = c->memcg;

	if (!memcg || !memcg->css.parent)
		return false;
	if (c->self) {
		/* The memcg's own level was read already, for the event. */
		*level = *c->self;
		c->self = NULL;
	} else {
		msl_fill_level(memcg, level);
	}
	level->sibling_over = c->siblings &&
			      sibling_over(c->params, memcg, level->cgroup_id);
	c->memcg = parent_mem_cgroup(memcg);
	return true;
}

void msl_level_cursor_init(struct msl_level_cursor *c,
			   const struct msl_params *params,
			   struct mem_cgroup *memcg, struct msl_level *self,
			   bool siblings)
{
	c->params = params;
	c->memcg = memcg;
	c->self = self;
	c->siblings = siblings;
}
