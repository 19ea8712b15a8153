// SPDX-License-Identifier: GPL-2.0
/*
 * Accounting: the pages a gated call scanned and reclaimed are
 * sc->nr_scanned and sc->nr_reclaimed after it less before it, added to
 * its memcg's counters and traced (memcg_softlimit:reclaimed), and, for a
 * memcg the policy reclaims on its own account, to the eligible supply's
 * flow (supply.h).  probes.c calls this from the accounting kretprobe;
 * nothing here decides.
 */
#include <linux/memcontrol.h>
#include <linux/rcupdate.h>

#include "account.h"
#include "memcg_state.h"
#include "msl_trace.h"
#include "sc_layout.h"
#include "supply.h"

void msl_account_begin(struct msl_gated_call *call, struct lruvec *lruvec,
		       const void *sc, enum msl_kind kind, bool eligible)
{
	call->cgroup_id = cgroup_id(lruvec_memcg(lruvec)->css.cgroup);
	call->sc = sc;
	call->nr_scanned = msl_sc_nr_scanned(sc);
	call->nr_reclaimed = msl_sc_nr_reclaimed(sc);
	call->nid = lruvec_pgdat(lruvec)->node_id;
	call->priority = msl_sc_priority(sc);
	call->kind = kind;
	call->eligible = eligible &&
			 (kind == MSL_KIND_KSWAPD || kind == MSL_KIND_DIRECT);
}

void msl_account_end(const struct msl_gated_call *call)
{
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
	if (call->eligible)
		msl_supply_note_flow(call->nid, scanned, reclaimed);
}
