/* SPDX-License-Identifier: GPL-2.0 */
/* The pages each gated call scanned and reclaimed, counted per memcg. */
#ifndef MSL_ACCOUNT_H
#define MSL_ACCOUNT_H

#include <linux/types.h>
#include <memcg_softlimit/policy.h>

struct lruvec;

/*
 * One gated call that runs: what its scan_control said when it began.
 * Kept in the kretprobe's instance between the call's entry and return.
 */
struct msl_gated_call {
	u64 cgroup_id;
	const void *sc;
	unsigned long nr_scanned;
	unsigned long nr_reclaimed;
	int nid;
	int priority;
	unsigned int kind;
	/* The policy reclaims the memcg on its own account: supply's flow. */
	bool eligible;
};

/* A call of @lruvec's memcg begins, for reclaim of @kind. */
void msl_account_begin(struct msl_gated_call *call, struct lruvec *lruvec,
		       const void *sc, enum msl_kind kind, bool eligible);
/* It returned: its pages added to the memcg's counters and traced. */
void msl_account_end(const struct msl_gated_call *call);

#endif /* MSL_ACCOUNT_H */
