/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Liveness: the hooks see global reclaim's steps, or gating stops for good
 * (liveness.c says why).
 */
#ifndef MSL_LIVENESS_H
#define MSL_LIVENESS_H

#include <linux/percpu.h>
#include <linux/types.h>

#include "params.h"

DECLARE_PER_CPU(unsigned long, msl_liveness_steps);

/* A gated step ran (read by the periodic check). */
static inline void msl_liveness_saw_step(void)
{
	if (!msl_test_blind())
		this_cpu_inc(msl_liveness_steps);
}

/* The liveness check gave up: the hooks see no step of global reclaim. */
bool msl_gating_stopped(void);
/* "active", or "stopped <why>", for /proc/memcg_softlimit/status. */
const char *msl_gating_state(void);
void msl_liveness_start(void);
void msl_liveness_stop(void);

#endif /* MSL_LIVENESS_H */
