// SPDX-License-Identifier: GPL-2.0
/*
 * Runtime switches.  Each is a plain word that the reclaim hooks read with
 * READ_ONCE, so a change takes effect at the next reclaim step without
 * unloading and without a lock on the reclaim path.  A value that does not
 * parse is refused (EINVAL) and changes nothing.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/sysfs.h>

#include <memcg_softlimit/depth.h>
#include "params.h"

bool msl_enabled = true;
module_param_named(enabled, msl_enabled, bool, 0644);
MODULE_PARM_DESC(enabled,
		 "Apply the soft-limit skip to global reclaim (default Y)");

int msl_priority_threshold = MSL_THRESHOLD_AUTO;

static int threshold_set(const char *val, const struct kernel_param *kp)
{
	int value;

	if (msl_threshold_parse(val, &value))
		return -EINVAL;
	WRITE_ONCE(msl_priority_threshold, value);
	return 0;
}

static int threshold_get(char *buffer, const struct kernel_param *kp)
{
	int value = READ_ONCE(msl_priority_threshold);

	if (value == MSL_THRESHOLD_AUTO)
		return sysfs_emit(buffer, "auto\n");
	return sysfs_emit(buffer, "%d\n", value);
}

static const struct kernel_param_ops threshold_ops = {
	.set = threshold_set,
	.get = threshold_get,
};
module_param_cb(priority_threshold, &threshold_ops, &msl_priority_threshold,
		0644);
MODULE_PARM_DESC(priority_threshold,
		 "auto (default): skip memcgs under their soft limit at every pass of global reclaim until a round over the eligible ones reclaimed nothing (memory.low's protocol); 0..12: skip only while the effective reclaim priority is >= this (12: the patch's first pass only), never at priority 0");

int msl_unset = MSL_UNSET_INHERIT;

static int unset_set(const char *val, const struct kernel_param *kp)
{
	int value = msl_unset_parse(val);

	if (value < 0)
		return -EINVAL;
	WRITE_ONCE(msl_unset, value);
	return 0;
}

static int unset_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%s\n", msl_unset_name(READ_ONCE(msl_unset)));
}

static const struct kernel_param_ops unset_ops = {
	.set = unset_set,
	.get = unset_get,
};
module_param_cb(unset, &unset_ops, &msl_unset, 0644);
MODULE_PARM_DESC(unset,
		 "What an unset soft limit means: inherit (default: the nearest ancestor with a limit decides; with none above, the cgroup's own pages are eligible, as V8), zero (V8: any usage is over), max (never over, as stock kernels)");

int msl_policy = MSL_POLICY_V8;
unsigned long msl_policy_writes;

static int policy_set(const char *val, const struct kernel_param *kp)
{
	int value = msl_policy_parse(val);

	if (value < 0)
		return -EINVAL;
	WRITE_ONCE(msl_policy, value);
	/* excess starts again from the tree as it is (excess.c). */
	WRITE_ONCE(msl_policy_writes, msl_policy_writes + 1);
	return 0;
}

static int policy_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%s\n", msl_policy_name(READ_ONCE(msl_policy)));
}

static const struct kernel_param_ops policy_ops = {
	.set = policy_set,
	.get = policy_get,
};
module_param_cb(policy, &policy_ops, &msl_policy, 0644);
MODULE_PARM_DESC(policy,
		 "Rule at a gated pass: v8 (default: reclaim a memcg when it or an ancestor is over its soft limit), walk (top-down: at each level reclaim only the children over their soft limits, whole subtrees; descend where none is) or excess (eligible as v8, each reclaimed at a share of its gated steps in proportion to its excess over its soft limit, the largest excess at every step)");

static bool keep_v1_reclaim;
module_param(keep_v1_reclaim, bool, 0644);
MODULE_PARM_DESC(keep_v1_reclaim,
		 "Keep the kernel's cgroup v1 rb-tree soft-limit reclaim while the policy is on (default N: bypassed, as the patch removes it)");

bool msl_count_targeted_param;
module_param_named(count_targeted, msl_count_targeted_param, bool, 0644);
MODULE_PARM_DESC(count_targeted,
		 "Count the pages each targeted (limit) reclaim call scans and reclaims too (default N: only global reclaim's, which the policy gates)");

static char *test_field;
module_param(test_field, charp, 0);
MODULE_PARM_DESC(test_field,
		 "Testing only: one more struct scan_control field that must resolve from BTF at load");

static char *test_proto;
module_param(test_proto, charp, 0);
MODULE_PARM_DESC(test_proto,
		 "Testing only: one more function that must be in BTF with shrink_lruvec's prototype at load");

bool msl_test_blind_param;
module_param_named(test_blind, msl_test_blind_param, bool, 0);
MODULE_PARM_DESC(test_blind,
		 "Testing only: the hooks see steps but do not count them, as if they were off the reclaim path (the liveness check must notice)");

int msl_test_depth_slack = MSL_DEPTH_SLACK;
module_param_named(test_depth_slack, msl_test_depth_slack, int, 0644);
MODULE_PARM_DESC(test_depth_slack,
		 "Testing only: the progress gate's depth bound lets the protected memcgs in once the eligible ones were scanned 2^this times the request (default 3); -1: no bound");

bool msl_test_supply_param = true;
module_param_named(test_supply, msl_test_supply_param, bool, 0644);
MODULE_PARM_DESC(test_supply,
		 "Testing only: N makes the gates ignore what the eligible memcgs hold (no depth bound, no per-node V8 2/2): every pass skips until the retry");

bool msl_keep_v1_reclaim(void)
{
	return READ_ONCE(keep_v1_reclaim);
}

const char *msl_test_field(void)
{
	return test_field;
}

const char *msl_test_proto(void)
{
	return test_proto;
}
