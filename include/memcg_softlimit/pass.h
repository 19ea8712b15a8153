/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pass tracking of one node's kswapd, pure so that the unit tests build it
 * unchanged.  kswapd is one thread per node and reclaims only its own
 * node, so each node's state has one writer and needs no lock, and no
 * other reclaimer can take or evict it.
 */
#ifndef MSL_PASS_H
#define MSL_PASS_H

#include <memcg_softlimit/policy.h>

struct msl_kswapd_round {
	/* The module skipped a memcg in this round. */
	bool skipped;
	/* The progress gate's retry: this round reclaims everyone. */
	bool retry;
	/* The next gated step learns the round's first priority. */
	bool learn_first;
	/* The priority of the round's first pass, once learned; else -1. */
	int first_priority;
};

/*
 * kswapd enters shrink_node() at sc->priority @priority, its round having
 * reclaimed @reclaimed pages so far.  Returns the priority it must go on
 * at: DEF_PRIORITY again when the progress gate's retry starts, which
 * only if @may_retry.
 */
int msl_kswapd_pass_begin(struct msl_kswapd_round *round, int priority,
			  unsigned long reclaimed, bool may_retry);
/*
 * A gated step of kswapd at sc->priority @priority: the priority gate's
 * effective priority, DEF_PRIORITY minus the passes since the round's
 * first (MGLRU starts kswapd's round below DEF_PRIORITY).
 */
int msl_kswapd_effective_priority(struct msl_kswapd_round *round,
				  int priority);
/*
 * A reclaimer's last pass before it gives up (direct reclaim: OOM; kswapd:
 * a failure that leaves the node to direct reclaim), which the priority
 * gate never gates whatever its threshold: priority 0 for direct and
 * proactive reclaim, 1 for kswapd, whose balance_pgdat() stops there.
 */
bool msl_last_pass(enum msl_kind kind, int priority);

#endif /* MSL_PASS_H */
