// SPDX-License-Identifier: GPL-2.0
/*
 * Runtime switches.  Each is a plain word that the reclaim hooks read with
 * READ_ONCE, so a change takes effect at the next reclaim step without
 * unloading and without a lock on the reclaim path.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/sysfs.h>

#include "internal.h"

static bool enabled = true;
module_param(enabled, bool, 0644);
MODULE_PARM_DESC(enabled,
		 "Apply the soft-limit skip to global reclaim (default Y)");

static int priority_threshold = MSL_DEF_PRIORITY;

static int threshold_set(const char *val, const struct kernel_param *kp)
{
	int value, ret;

	ret = kstrtoint(val, 0, &value);
	if (ret)
		return ret;
	if (value < 0 || value > MSL_DEF_PRIORITY)
		return -EINVAL;
	WRITE_ONCE(priority_threshold, value);
	return 0;
}

static const struct kernel_param_ops threshold_ops = {
	.set = threshold_set,
	.get = param_get_int,
};
module_param_cb(priority_threshold, &threshold_ops, &priority_threshold, 0644);
MODULE_PARM_DESC(priority_threshold,
		 "Skip memcgs under their soft limit while the effective reclaim priority is >= this, 0..12 (default 12: the first pass only, as V8); priority 0, direct reclaim's last pass, is never gated");

static bool unset_eligible = true;
module_param(unset_eligible, bool, 0644);
MODULE_PARM_DESC(unset_eligible,
		 "An unset soft limit counts as 0, so the memcg is always eligible (V8, default Y); N: unset means never over, as stock kernels");

static int policy = MSL_POLICY_V8;

static int policy_set(const char *val, const struct kernel_param *kp)
{
	int value = msl_policy_parse(val);

	if (value < 0)
		return -EINVAL;
	/* excess starts again from the tree as it is (largest excess). */
	msl_excess_reset();
	WRITE_ONCE(policy, value);
	return 0;
}

static int policy_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%s\n", msl_policy_name(READ_ONCE(policy)));
}

static const struct kernel_param_ops policy_ops = {
	.set = policy_set,
	.get = policy_get,
};
module_param_cb(policy, &policy_ops, &policy, 0644);
MODULE_PARM_DESC(policy,
		 "First-pass rule: v8 (default: reclaim a memcg when it or an ancestor is over its soft limit), walk (top-down: at each level reclaim only the children over their soft limits, whole subtrees; descend where none is) or excess (eligible as v8, each reclaimed at a share of its first-pass steps in proportion to its excess over its soft limit, the largest excess at every step)");

static bool keep_v1_reclaim;
module_param(keep_v1_reclaim, bool, 0644);
MODULE_PARM_DESC(keep_v1_reclaim,
		 "Keep the kernel's cgroup v1 rb-tree soft-limit reclaim (mem_cgroup_soft_limit_reclaim) while the policy is on (default N: bypassed, as the patch removes it)");

static char *test_field;
module_param(test_field, charp, 0);
MODULE_PARM_DESC(test_field,
		 "Testing only: one more struct scan_control field that must resolve from BTF at load");

void msl_current_params(struct msl_params *params)
{
	params->enabled = READ_ONCE(enabled);
	params->priority_threshold = READ_ONCE(priority_threshold);
	params->unset_eligible = READ_ONCE(unset_eligible);
	params->policy = READ_ONCE(policy);
}

bool msl_keep_v1_reclaim(void)
{
	return READ_ONCE(keep_v1_reclaim);
}

const char *msl_test_field(void)
{
	return test_field;
}
