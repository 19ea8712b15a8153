/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the supported kernels lives here (with the
 * feature tests in Kbuild), so the rest of the module reads as if there
 * were one kernel.
 */
#ifndef MSL_COMPAT_H
#define MSL_COMPAT_H

#include <linux/memcontrol.h>
#include <linux/vmstat.h>
#include <linux/workqueue.h>

/*
 * memcg->soft_limit and its rb-tree reclaim moved under CONFIG_MEMCG_V1
 * in 6.11, the reclaim renamed memcg1_soft_limit_reclaim(); Debian 6.12
 * has CONFIG_MEMCG_V1 off, so neither exists there.  Kbuild tells which.
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

#ifdef MSL_HAVE_MEMCG1_SOFT_LIMIT_RECLAIM
#define MSL_SOFT_LIMIT_RECLAIM	"memcg1_soft_limit_reclaim"
#else
#define MSL_SOFT_LIMIT_RECLAIM	"mem_cgroup_soft_limit_reclaim"
#endif

/*
 * MGLRU gained its memcg LRU in 6.3: global reclaim then takes each memcg
 * in turn through shrink_one(), not shrink_lruvec().
 */
#if IS_ENABLED(CONFIG_LRU_GEN) && defined(MSL_HAVE_MEMCG_LRU)
#define MSL_HAVE_SHRINK_ONE 1
#else
#define MSL_HAVE_SHRINK_ONE 0
#endif

/*
 * Pages reclaim scanned, by kswapd, direct and khugepaged reclaim (and
 * proactive, where 7.x counts it apart): vm events until 7.x made them
 * node stats.  Process context only (all_vm_events() takes the CPU hotplug
 * lock); @events: room for NR_VM_EVENT_ITEMS counters.
 */
#ifdef MSL_PGSCAN_IN_NODE_STAT
static inline unsigned long msl_global_pgscan(unsigned long *events)
{
	return global_node_page_state(PGSCAN_KSWAPD) +
	       global_node_page_state(PGSCAN_DIRECT) +
	       global_node_page_state(PGSCAN_KHUGEPAGED) +
	       global_node_page_state(PGSCAN_PROACTIVE);
}
#else
static inline unsigned long msl_global_pgscan(unsigned long *events)
{
	unsigned long n;

	all_vm_events(events);
	n = events[PGSCAN_KSWAPD] + events[PGSCAN_DIRECT];
#ifdef MSL_HAVE_PGSCAN_KHUGEPAGED
	n += events[PGSCAN_KHUGEPAGED];
#endif
	return n;
}
#endif

/* The system workqueues' new names, the old ones' where they are missing. */
#ifdef MSL_HAVE_SYSTEM_DFL_WQ
#define msl_unbound_wq	system_dfl_wq
#define msl_percpu_wq	system_percpu_wq
#else
#define msl_unbound_wq	system_unbound_wq
#define msl_percpu_wq	system_wq
#endif

#endif /* MSL_COMPAT_H */
