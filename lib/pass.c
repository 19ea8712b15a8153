// SPDX-License-Identifier: GPL-2.0
/*
 * kswapd's rounds, as the gates see them.
 *
 * balance_pgdat() starts every round, and every restart of one, at
 * DEF_PRIORITY, and only ever lowers the priority within it; MGLRU's
 * set_initial_priority() may lower it further inside the first
 * shrink_node(), so the first step of a round tells the round's first
 * priority.  A pass that enters shrink_node() at DEF_PRIORITY starts
 * (again) from scratch.
 *
 * The progress gate skips at every pass.  When kswapd reaches its last
 * pass (priority 1) with nothing reclaimed in the round although the
 * module skipped memcgs, the eligible ones had nothing to give: like
 * direct reclaim's retry with sc->memcg_low_reclaim, the round starts
 * over at DEF_PRIORITY with everyone, rather than counting a kswapd
 * failure that stock reclaim would not have had.
 */
#include <memcg_softlimit/pass.h>

#define KSWAPD_LAST_PRIORITY	1

bool msl_last_pass(enum msl_kind kind, int priority)
{
	return priority <= (kind == MSL_KIND_KSWAPD ? KSWAPD_LAST_PRIORITY : 0);
}

int msl_kswapd_pass_begin(struct msl_kswapd_round *round, int priority,
			  unsigned long reclaimed, bool may_retry)
{
	if (priority >= MSL_DEF_PRIORITY) {
		round->skipped = false;
		round->retry = false;
		round->learn_first = true;
		round->first_priority = -1;
		return priority;
	}
	if (may_retry && !round->retry && round->skipped &&
	    priority <= KSWAPD_LAST_PRIORITY && !reclaimed) {
		round->retry = true;
		round->learn_first = true;
		round->first_priority = -1;
		return MSL_DEF_PRIORITY;
	}
	return priority;
}

int msl_kswapd_effective_priority(struct msl_kswapd_round *round,
				  int priority)
{
	int first;

	if (round->learn_first) {
		round->learn_first = false;
		round->first_priority = priority;
	}
	first = round->first_priority;
	if (first < 0 || priority > first)
		return priority;
	return MSL_DEF_PRIORITY - (first - priority);
}
