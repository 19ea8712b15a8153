/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the supported kernels lives here (with the
 * feature tests in Kbuild), so the rest of the module reads as if there
 * were one kernel.
 */
#ifndef MSL_COMPAT_H
#define MSL_COMPAT_H

#include <linux/memcontrol.h>

/*
 * memcg->soft_limit moved under CONFIG_MEMCG_V1 in 6.11; Debian 6.12 has
 * it off, so the field does not exist there.  Kbuild tells which.
 */
#if !defined(MSL_SOFT_LIMIT_UNDER_MEMCG_V1) || IS_ENABLED(CONFIG_MEMCG_V1)
#define MSL_HAVE_V1_SOFT_LIMIT 1
static inline unsigned long msl_v1_soft_limit(struct mem_cgroup *memcg)
{
	return READ_ONCE(memcg->soft_limit);
}
#else
#define MSL_HAVE_V1_SOFT_LIMIT 0
static inline unsigned long msl_v1_soft_limit(struct mem_cgroup *memcg)
{
	return PAGE_COUNTER_MAX;
}
#endif

#endif /* MSL_COMPAT_H */
