/* SPDX-License-Identifier: GPL-2.0 */
/*
 * firstpass.c: what the first pass of global reclaim would decide now for
 * each cgroup of the hierarchy as read (tree's FIRST_PASS): lib/policy.c's
 * msl_decide() on each cgroup's chain of levels, with what its policy
 * reads beyond the chain (siblings over, the largest excess) read too.
 */
#ifndef MSL_TOOL_FIRSTPASS_H
#define MSL_TOOL_FIRSTPASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <memcg_softlimit/policy.h>

#include "cgroup.h"
#include "softlimit.h"

struct msl_firstpass_node {
	struct msl_level level;		/* usage and limit in pages */
	bool has_memcg;
	int parent;			/* index, -1 for the root */
};

struct msl_firstpass {
	const struct msl_params *params;
	const struct msl_cgmap *map;
	struct msl_firstpass_node *node;	/* one per map node */
	uint64_t excess_max;		/* pages: the largest excess now */
};

/*
 * Reads every cgroup of @map (on @fs, pages of @ps bytes; soft limits of
 * v2 from @v2) as @params' policy reads it.  0 or -ENOMEM.
 */
int msl_firstpass_read(struct msl_firstpass *fp, const struct msl_cgfs *fs,
		       const struct msl_cgmap *map,
		       const struct msl_v2limits *v2,
		       const struct msl_params *params, uint64_t ps);
/*
 * What a first pass decides now on map node @i; under excess, the share
 * of first-pass steps that reclaim it (100 elsewhere).
 */
void msl_firstpass_decide(const struct msl_firstpass *fp, size_t i,
			  struct msl_decision *d, unsigned int *pct);
void msl_firstpass_free(struct msl_firstpass *fp);

#endif /* MSL_TOOL_FIRSTPASS_H */
