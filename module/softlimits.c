// SPDX-License-Identifier: GPL-2.0
/*
 * Soft limits: where each level of the hierarchy gets its limit from.
 *
 * cgroup v1 keeps memory.soft_limit_in_bytes in memcg->soft_limit, which
 * we read as is.  cgroup v2 has no soft limit, and writing memcg->soft_limit
 * on 6.1 would feed the v1 rb-tree reclaim, so v2 limits live in the
 * module's per-memcg state (memcg_state.c), set through the control file.
 */
#include <linux/cgroup.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/page_counter.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include <memcg_softlimit/control.h>
#include "compat.h"
#include "softlimits.h"
#include "memcg_state.h"

/* Serialises control writes and listings (which sleep). */
static DEFINE_MUTEX(limit_mutex);

/* Caller holds rcu_read_lock; returns the memcg's state entry, if any. */
struct msl_memcg *msl_fill_level(struct mem_cgroup *memcg,
				 struct msl_level *level)
{
	struct msl_memcg *e;
	unsigned long v1;
	u64 pages;

	level->cgroup_id = cgroup_id(memcg->css.cgroup);
	level->usage = page_counter_read(&memcg->memory);
	level->soft_limit = 0;
	level->src = MSL_LIMIT_UNSET;

	e = msl_state_find(level->cgroup_id);
	if (!cgroup_subsys_on_dfl(memory_cgrp_subsys)) {
		/* v1's default PAGE_COUNTER_MAX is "unset" (V8: 0). */
		v1 = msl_v1_soft_limit(memcg);
		if (v1 != PAGE_COUNTER_MAX) {
			level->soft_limit = v1;
			level->src = MSL_LIMIT_V1;
		}
		return e;
	}
	if (!e)
		return NULL;
	pages = READ_ONCE(e->limit_pages);
	if (pages == MSL_LIMIT_MAX_PAGES) {
		level->src = MSL_LIMIT_MAX;
	} else if (pages != MSL_LIMIT_UNSET_PAGES) {
		level->src = MSL_LIMIT_SET;
		level->soft_limit = pages;
	}
	return e;
}

int msl_limits_apply(const struct msl_ctl_cmd *cmd)
{
	struct cgroup_subsys_state *css;
	struct cgroup *cgrp;
	int ret = 0;

	if (!cgroup_subsys_on_dfl(memory_cgrp_subsys))
		return -EOPNOTSUPP;

	cgrp = cgroup_get_from_path(cmd->path);
	if (IS_ERR(cgrp))
		return PTR_ERR(cgrp);

	if (!cgroup_parent(cgrp)) {
		/* V8: the root is everyone's ancestor; a limit there means nothing. */
		ret = -EINVAL;
		goto out;
	}
	css = cgroup_get_e_css(cgrp, &memory_cgrp_subsys);
	if (!css || css->cgroup != cgrp) {
		/* No memcg of its own: +memory is not in the parent's subtree_control. */
		ret = -EINVAL;
		if (css)
			css_put(css);
		goto out;
	}
	css_put(css);

	mutex_lock(&limit_mutex);
	if (cmd->op == MSL_CTL_UNSET)
		msl_state_clear_limit(cgroup_id(cgrp));
	else if (cmd->is_max)
		ret = msl_state_set_limit(cgrp, MSL_LIMIT_MAX_PAGES);
	else
		/* Keep clear of the two values that encode max and unset. */
		ret = msl_state_set_limit(cgrp, min_t(u64, cmd->bytes >> PAGE_SHIFT,
						      MSL_LIMIT_UNSET_PAGES - 1));
	mutex_unlock(&limit_mutex);
out:
	cgroup_put(cgrp);
	return ret;
}

/* Listing sleeps (cgroup paths), so rows are copied out of RCU first. */
void msl_limits_show(struct seq_file *m)
{
	struct msl_limit_row *rows;
	struct cgroup *cgrp;
	unsigned int n, i, cap;
	char *path;

	mutex_lock(&limit_mutex);
	/* Under limit_mutex limits are only ever removed, never added. */
	cap = msl_state_nr_limits();
	rows = kvmalloc_array(max(cap, 1U), sizeof(*rows), GFP_KERNEL);
	path = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!rows || !path)
		goto out;

	n = msl_state_limits(rows, cap);
	for (i = 0; i < n; i++) {
		seq_printf(m, "%llu ", rows[i].cgroup_id);
		if (rows[i].limit_pages == MSL_LIMIT_MAX_PAGES)
			seq_puts(m, "max ");
		else
			seq_printf(m, "%llu ", rows[i].limit_pages << PAGE_SHIFT);
		cgrp = cgroup_get_from_id(rows[i].cgroup_id);
		if (IS_ERR(cgrp)) {
			seq_puts(m, "(removed)\n");
			continue;
		}
		if (cgroup_path(cgrp, path, PATH_MAX) >= 0)
			seq_printf(m, "%s\n", path);
		else
			seq_puts(m, "?\n");
		cgroup_put(cgrp);
	}
out:
	mutex_unlock(&limit_mutex);
	kfree(path);
	kvfree(rows);
}
