/* SPDX-License-Identifier: GPL-2.0 */
/* The module parameters, read locklessly by the hooks. */
#ifndef MSL_PARAMS_H
#define MSL_PARAMS_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <memcg_softlimit/policy.h>

/*
 * The parameters the reclaim path reads at every decision, inline: a call
 * and its return (through the kernel's return thunk) would cost more than
 * the loads.  Written by their kernel_param_ops (params.c) only.
 */
extern bool msl_enabled;
extern int msl_priority_threshold;
extern int msl_unset;
extern int msl_policy;
/* Writes of the policy parameter so far (under the param lock). */
extern unsigned long msl_policy_writes;
extern bool msl_count_targeted_param;
extern bool msl_test_blind_param;
extern int msl_test_depth_slack;
extern bool msl_test_supply_param;

static inline void msl_current_params(struct msl_params *params)
{
	params->enabled = READ_ONCE(msl_enabled);
	params->priority_threshold = READ_ONCE(msl_priority_threshold);
	params->unset = READ_ONCE(msl_unset);
	params->policy = READ_ONCE(msl_policy);
}

/* Pages of targeted (limit) reclaim are counted too (off the hot path unless asked). */
static inline bool msl_count_targeted(void)
{
	return READ_ONCE(msl_count_targeted_param);
}

/* Testing only: the gate does not count the steps it sees (liveness). */
static inline bool msl_test_blind(void)
{
	return READ_ONCE(msl_test_blind_param);
}

bool msl_keep_v1_reclaim(void);
const char *msl_test_field(void);
/* Testing only: one more function to check in BTF, as shrink_lruvec. */
const char *msl_test_proto(void);

#endif /* MSL_PARAMS_H */
