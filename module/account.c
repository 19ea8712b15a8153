// SPDX-License-Identifier: GPL-2.0
/*
 * Accounting: a kretprobe on each gated function records the pages the
 * call scanned and reclaimed (sc->nr_scanned and sc->nr_reclaimed before
 * and after).
 *
 * The kretprobe shares its address with the skip probe (probes.c) and,
 * registered after it, runs first in the same ftrace callback with
 * preemption off.  So its entry handler takes the decision, leaves it on
 * this CPU for the skip probe, and takes no instance for a call that will
 * be skipped, nor for targeted reclaim unless count_targeted is set.
 * When it has no instance left, its handler does not run at all; the skip
 * probe then finds nothing here and decides itself, and the call goes
 * uncounted (missed).  The skip probe never leaves a verdict behind, so
 * none can go stale.
 */
#include <linux/kprobes.h>
#include <linux/memcontrol.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>

#include "account.h"
#include "memcg_state.h"
#include "msl_trace.h"
#include "params.h"
#include "sc_layout.h"

struct handed_verdict {
	const void *sc;
	const void *lruvec;
	unsigned long sp;
	enum msl_verdict verdict;
};
static DEFINE_PER_CPU(struct handed_verdict, handed);

bool msl_account_take_verdict(struct pt_regs *regs, enum msl_verdict *verdict)
{
	struct handed_verdict *h = this_cpu_ptr(&handed);

	if (!h->sc || h->sc != (void *)regs_get_kernel_argument(regs, 1) ||
	    h->lruvec != (void *)regs_get_kernel_argument(regs, 0) ||
	    h->sp != kernel_stack_pointer(regs))
		return false;
	*verdict = h->verdict;
	h->sc = NULL;
	return true;
}

struct gated_call {
	u64 cgroup_id;
	const void *sc;
	unsigned long nr_scanned;
	unsigned long nr_reclaimed;
	int nid;
	int priority;
	unsigned int kind;
};

static int account_entry(struct kretprobe_instance *ri, struct pt_regs *regs,
			 enum msl_site site)
{
	struct gated_call *call = (struct gated_call *)ri->data;
	struct lruvec *lruvec = (void *)regs_get_kernel_argument(regs, 0);
	void *sc = (void *)regs_get_kernel_argument(regs, 1);
	struct handed_verdict *h = this_cpu_ptr(&handed);
	struct mem_cgroup *memcg;

	h->verdict = msl_gate_step(lruvec, sc, site);
	h->sc = sc;
	h->lruvec = lruvec;
	h->sp = kernel_stack_pointer(regs);
	memcg = lruvec_memcg(lruvec);
	if (h->verdict == MSL_SKIP || !memcg)
		return 1;
	call->kind = msl_reclaim_kind(sc);
	if (call->kind == MSL_KIND_TARGETED && !msl_count_targeted())
		return 1;
	call->cgroup_id = cgroup_id(memcg->css.cgroup);
	call->sc = sc;
	call->nr_scanned = msl_sc_nr_scanned(sc);
	call->nr_reclaimed = msl_sc_nr_reclaimed(sc);
	call->nid = lruvec_pgdat(lruvec)->node_id;
	call->priority = msl_sc_priority(sc);
	return 0;
}

static int account_entry_lruvec(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	return account_entry(ri, regs, MSL_SITE_LRUVEC);
}

static int account_entry_one(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	return account_entry(ri, regs, MSL_SITE_ONE);
}

static int account_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct gated_call *call = (struct gated_call *)ri->data;
	unsigned long scanned = msl_sc_nr_scanned(call->sc) - call->nr_scanned;
	unsigned long reclaimed =
		msl_sc_nr_reclaimed(call->sc) - call->nr_reclaimed;
	struct msl_memcg *e;

	rcu_read_lock();
	e = msl_state_find(call->cgroup_id);
	if (e) {
		atomic64_add(scanned, &e->scanned[call->kind]);
		atomic64_add(reclaimed, &e->reclaimed[call->kind]);
	}
	trace_reclaimed(call->cgroup_id, call->nid, call->priority, call->kind,
			scanned, reclaimed, e);
	rcu_read_unlock();
	return 0;
}

void msl_account_prepare(struct kretprobe *rp, enum msl_site site)
{
	rp->entry_handler = site == MSL_SITE_ONE ? account_entry_one :
						   account_entry_lruvec;
	rp->handler = account_return;
	rp->data_size = sizeof(struct gated_call);
	/* Calls in flight: reclaimers can sleep inside a step. */
	rp->maxactive = max_t(int, 64, 4 * num_possible_cpus());
}
