/* SPDX-License-Identifier: GPL-2.0 */
/* V8 2/2: is any memcg eligible at all? */
#ifndef MSL_ELIGIBLE_H
#define MSL_ELIGIBLE_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <memcg_softlimit/policy.h>

/*
 * At the start of a pass of global reclaim: looks for a memcg that the
 * policy would reclaim, and remembers the answer for the pass's steps.
 */
void msl_eligible_pass_begin(const struct msl_params *params);
/* Written by eligible.c only; read at every decision, so inline. */
extern bool msl_nothing_eligible_now;

/* The answer of the latest pass begun: no memcg is eligible. */
static inline bool msl_nothing_eligible(void)
{
	return READ_ONCE(msl_nothing_eligible_now);
}
void msl_eligible_exit(void);

#endif /* MSL_ELIGIBLE_H */
