/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MSL_MEMCG_SNAPSHOT_H
#define MSL_MEMCG_SNAPSHOT_H

#include <linux/types.h>

/*
 * Drops entries of removed cgroups, then traces one snapshot; @missed:
 * gated calls whose pages went uncounted (the probes' misses).
 */
void msl_state_snapshot(u64 missed);

#endif /* MSL_MEMCG_SNAPSHOT_H */
