// SPDX-License-Identifier: GPL-2.0
/*
 * memcg_softlimit: "mm: memcg softlimit reclaim rework" (Ying Han, V8) at
 * runtime.  Under global memory pressure, the first reclaim pass skips
 * every memory cgroup that is neither over its soft limit nor below an
 * ancestor that is.
 */
#include <linux/module.h>

#include "internal.h"
#include "memcg_state.h"

static int __init memcg_softlimit_init(void)
{
	int ret;

	ret = msl_sc_layout_init();
	if (ret)
		return ret;
	ret = msl_state_init();
	if (ret)
		return ret;
	ret = msl_control_init();
	if (ret)
		goto out_state;
	/* Last: from here on reclaim runs through us. */
	ret = msl_hooks_init();
	if (ret)
		goto out_control;
	return 0;

out_control:
	msl_control_exit();
out_state:
	msl_state_exit();
	return ret;
}

static void __exit memcg_softlimit_exit(void)
{
	msl_hooks_exit();
	msl_control_exit();
	msl_state_exit();
}

module_init(memcg_softlimit_init);
module_exit(memcg_softlimit_exit);
MODULE_LICENSE("GPL");
MODULE_AUTHOR("memcg-softlimit developers");
MODULE_DESCRIPTION("Soft-limit-first global reclaim for memory cgroups (memcg softlimit reclaim rework, V8)");
MODULE_VERSION(MSL_VERSION);
