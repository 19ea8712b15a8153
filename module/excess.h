/* SPDX-License-Identifier: GPL-2.0 */
/* Policy excess: the largest excess lately and each memcg's share credit. */
#ifndef MSL_EXCESS_H
#define MSL_EXCESS_H

#include <linux/types.h>
#include <memcg_softlimit/policy.h>

struct msl_memcg;

/* What the step's msl_excess_fn needs: step->excess_arg points at one. */
struct msl_excess_ctx {
	struct msl_memcg *entry;	/* the step's memcg; NULL: untracked */
	u64 now;			/* seconds: the word's period */
};

/* msl_excess_fn; forgets the largest excess when a policy was written. */
bool msl_excess_note(void *arg, u64 id, u64 excess, struct msl_excess *out);

#endif /* MSL_EXCESS_H */
