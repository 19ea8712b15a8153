// SPDX-License-Identifier: GPL-2.0
/*
 * Liveness: every page reclaim scans is scanned inside a hooked step, so a
 * window in which reclaim scanned pages (the kernel's pgscan_kswapd,
 * pgscan_direct and pgscan_khugepaged, 7.x's pgscan_proactive) but no hooked step
 * ran means that on this kernel the hooks are not on the reclaim path
 * (say, a hooked function got inlined into its caller, which still has
 * an out-of-line copy for other callers).  Then gating stops for good,
 * with one warning and a line in /proc/memcg_softlimit/status, so that
 * nobody believes in a protection that is not there (and so that v1's
 * own soft-limit reclaim is no longer bypassed).
 */
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/workqueue.h>

#include "compat.h"
#include "liveness.h"

DEFINE_PER_CPU(unsigned long, msl_liveness_steps);

#define LIVENESS_PERIOD		(10 * HZ)
#define LIVENESS_MIN_SCANNED	512

static bool stopped;
static char stopped_why[96];
static unsigned long last_steps, last_scanned;
static unsigned long events[NR_VM_EVENT_ITEMS];
static void liveness_check(struct work_struct *work);
static DECLARE_DELAYED_WORK(liveness_work, liveness_check);

bool msl_gating_stopped(void)
{
	return READ_ONCE(stopped);
}

const char *msl_gating_state(void)
{
	return READ_ONCE(stopped) ? stopped_why : "active";
}

static unsigned long global_scanned(void)
{
	return msl_global_pgscan(events);
}

static unsigned long total_steps(void)
{
	unsigned long n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += per_cpu(msl_liveness_steps, cpu);
	return n;
}

static void liveness_check(struct work_struct *work)
{
	unsigned long steps = total_steps(), scanned = global_scanned();

	if (steps == last_steps &&
	    scanned - last_scanned >= LIVENESS_MIN_SCANNED) {
		snprintf(stopped_why, sizeof(stopped_why),
			 "stopped: global reclaim scanned %lu pages in %d s and no hooked step ran",
			 scanned - last_scanned, LIVENESS_PERIOD / HZ);
		smp_wmb();	/* the reason before the flag */
		WRITE_ONCE(stopped, true);
		pr_warn("gating %s; the module no longer skips anything\n",
			stopped_why);
		return;
	}
	last_steps = steps;
	last_scanned = scanned;
	schedule_delayed_work(&liveness_work, LIVENESS_PERIOD);
}

void msl_liveness_start(void)
{
	last_steps = total_steps();
	last_scanned = global_scanned();
	schedule_delayed_work(&liveness_work, LIVENESS_PERIOD);
}

void msl_liveness_stop(void)
{
	cancel_delayed_work_sync(&liveness_work);
}
