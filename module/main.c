// SPDX-License-Identifier: GPL-2.0
/*
 * memcg_softlimit: "mm: memcg softlimit reclaim rework" (Ying Han, V8) at
 * runtime.  Under global memory pressure, reclaim skips every memory
 * cgroup that is neither over its soft limit nor below an ancestor that
 * is, for as long as the others can give it what it needs.
 */
#include <linux/module.h>

#include "cgroup_events.h"
#include "gate.h"
#include "liveness.h"
#include "memcg_state.h"
#include "probes.h"
#include "procfs.h"
#include "rules.h"
#include "sc_layout.h"

static int __init memcg_softlimit_init(void)
{
	int ret;

	ret = msl_sc_layout_init();
	if (ret)
		return ret;
	ret = msl_cgroup_events_init();
	if (ret)
		return ret;
	msl_state_start();
	ret = msl_procfs_init();
	if (ret)
		goto out_state;
	ret = msl_gate_init();
	if (ret)
		goto out_control;
	/* Last: from here on reclaim runs through us. */
	ret = msl_probes_init();
	if (ret)
		goto out_gate;
	/*
	 * Only once every hook is in: registering them patches text one
	 * function at a time (13 s under single-threaded TCG), and a window
	 * that began before the step's hook would see reclaim scan with no
	 * step counted and stop gating for good.
	 */
	msl_liveness_start();
	return 0;

out_gate:
	msl_gate_exit();
out_control:
	msl_procfs_exit();
out_state:
	msl_cgroup_events_exit();
	msl_rules_exit();
	msl_state_exit();
	return ret;
}

static void __exit memcg_softlimit_exit(void)
{
	msl_liveness_stop();
	msl_probes_exit();
	msl_gate_exit();
	msl_procfs_exit();
	msl_cgroup_events_exit();
	msl_rules_exit();
	msl_state_exit();
}

module_init(memcg_softlimit_init);
module_exit(memcg_softlimit_exit);
MODULE_LICENSE("GPL");
MODULE_AUTHOR("memcg-softlimit developers");
MODULE_DESCRIPTION("Soft-limit-first global reclaim for memory cgroups (memcg softlimit reclaim rework, V8)");
MODULE_VERSION(MSL_VERSION);
