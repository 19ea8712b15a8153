/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The seed patch's two example trees, in pages, shared by the policy's and
 * the tool's unit tests.  1 unit = 1 GiB in the patch; here 1 unit = 256
 * pages, which keeps every comparison the same.
 */
#ifndef MSL_CASES_H
#define MSL_CASES_H

#include <memcg_softlimit/policy.h>

#define UNIT 256ULL

struct case_node {
	const char *name;
	int parent;		/* index, -1 for root */
	u64 usage;		/* pages */
	enum msl_limit_src src;
	u64 soft_limit;		/* pages */
};

enum { ROOT, A, A1, A2, B, NR_CASE_NODES };

/* Case 1: the administrator is trusted; A is immune ("unlimited"). */
static const struct case_node case1[NR_CASE_NODES] = {
	[ROOT] = { "root", -1, 32 * UNIT, MSL_LIMIT_UNSET, 0 },
	[A] = { "A", ROOT, 22 * UNIT, MSL_LIMIT_MAX, 0 },
	[A1] = { "A1", A, 17 * UNIT, MSL_LIMIT_SET, 10 * UNIT },
	[A2] = { "A2", A, 5 * UNIT, MSL_LIMIT_SET, 6 * UNIT },
	[B] = { "B", ROOT, 10 * UNIT, MSL_LIMIT_SET, 16 * UNIT },
};

/* Case 2: untrusted; A2 set its limit far above its parent's. */
static const struct case_node case2[NR_CASE_NODES] = {
	[ROOT] = { "root", -1, 32 * UNIT, MSL_LIMIT_UNSET, 0 },
	[A] = { "A", ROOT, 22 * UNIT, MSL_LIMIT_SET, 16 * UNIT },
	[A1] = { "A1", A, 17 * UNIT, MSL_LIMIT_SET, 10 * UNIT },
	[A2] = { "A2", A, 5 * UNIT, MSL_LIMIT_SET, 1000 * UNIT },
	[B] = { "B", ROOT, 10 * UNIT, MSL_LIMIT_SET, 16 * UNIT },
};

#endif /* MSL_CASES_H */
