/* SPDX-License-Identifier: GPL-2.0 */
/* The pages each gated call scanned and reclaimed, with a kretprobe. */
#ifndef MSL_ACCOUNT_H
#define MSL_ACCOUNT_H

#include <linux/kprobes.h>
#include <memcg_softlimit/policy.h>
#include "gate.h"

/* Fills @rp (handlers, instance size, how many) for a step hooked at @site. */
void msl_account_prepare(struct kretprobe *rp, enum msl_site site);
/*
 * For the skip probe, which runs right after the kretprobe at the same
 * address: the verdict the kretprobe's entry handler took for this very
 * call, if it ran (it does not when it had no instance left).
 */
bool msl_account_take_verdict(struct pt_regs *regs, enum msl_verdict *verdict);

#endif /* MSL_ACCOUNT_H */
