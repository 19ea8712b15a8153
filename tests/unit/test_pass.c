// SPDX-License-Identifier: GPL-2.0
/* Unit tests of lib/pass.c: kswapd's rounds as the gates see them. */
#include <string.h>

#include <linux/kernel.h>
#include <memcg_softlimit/pass.h>
#include "unit.h"

/*
 * One event of kswapd's life: a pass begins at @priority with @reclaimed
 * pages so far in the round (STEP: a gated step at @priority instead).
 * @want: the priority pass_begin returns, or the step's effective one.
 */
struct event {
	enum { PASS, STEP, SKIP } what;
	int priority;
	unsigned long reclaimed;
	int want;
	bool retry;	/* the round's retry flag afterwards */
};

static void run(const char *name, enum msl_gate gate,
		const struct event *ev, int n)
{
	struct msl_kswapd_round round;
	int i, got;

	memset(&round, 0, sizeof(round));
	round.first_priority = -1;
	for (i = 0; i < n; i++) {
		switch (ev[i].what) {
		case PASS:
			got = msl_kswapd_pass_begin(&round, ev[i].priority,
						    ev[i].reclaimed,
						    gate == MSL_GATE_PROGRESS);
			break;
		case STEP:
			got = msl_kswapd_effective_priority(&round,
							    ev[i].priority);
			break;
		default:
			round.skipped = true;
			got = ev[i].want;
			break;
		}
		if (got != ev[i].want || round.retry != ev[i].retry) {
			fprintf(stderr, "%s: event %d: got %d retry %d\n",
				name, i, got, round.retry);
			CHECK(0);
		}
	}
}

/* The classic LRU: the round starts at 12, each step's priority is its own. */
static void classic_round(void)
{
	static const struct event ev[] = {
		{ PASS, 12, 0, 12, false },
		{ STEP, 12, 0, 12, false },
		{ PASS, 11, 5, 11, false },
		{ STEP, 11, 0, 11, false },
		{ PASS, 6, 50, 6, false },
		{ STEP, 6, 0, 6, false },
	};

	run("classic", MSL_GATE_PRIORITY, ev, ARRAY_SIZE(ev));
}

/*
 * MGLRU: set_initial_priority() lowers the first pass to, say, 8 inside
 * shrink_node(): that pass is the round's first, effective 12, and the
 * passes after it count down from there.  A restart (priority 12 again)
 * starts over.
 */
static void mglru_round(void)
{
	static const struct event ev[] = {
		{ PASS, 12, 0, 12, false },
		{ STEP, 8, 0, 12, false },
		{ STEP, 8, 0, 12, false },
		{ PASS, 7, 10, 7, false },
		{ STEP, 7, 0, 11, false },
		{ PASS, 6, 10, 6, false },
		{ STEP, 6, 0, 10, false },
		/* balance_pgdat's goto restart: from scratch. */
		{ PASS, 12, 10, 12, false },
		{ STEP, 9, 0, 12, false },
		{ STEP, 10, 0, 10, false },	/* above the first: its own */
	};

	run("mglru", MSL_GATE_PRIORITY, ev, ARRAY_SIZE(ev));
}

/*
 * The progress gate: a round that skipped and reaches its last pass
 * having reclaimed nothing starts over at 12 with everyone (retry); once
 * it reclaimed anything, or without skips, or under the priority gate,
 * it does not.
 */
static void progress_retry(void)
{
	static const struct event dry[] = {
		{ PASS, 12, 0, 12, false },
		{ SKIP, 0, 0, 0, false },
		{ PASS, 2, 0, 2, false },
		{ PASS, 1, 0, 12, true },
		{ STEP, 12, 0, 12, true },
		{ PASS, 11, 0, 11, true },
		/* Still nothing at the retry's last pass: no second retry. */
		{ PASS, 1, 0, 1, true },
	};
	static const struct event some[] = {
		{ PASS, 12, 0, 12, false },
		{ SKIP, 0, 0, 0, false },
		{ PASS, 1, 3, 1, false },
	};
	static const struct event no_skip[] = {
		{ PASS, 12, 0, 12, false },
		{ PASS, 1, 0, 1, false },
	};
	static const struct event next_round[] = {
		{ PASS, 12, 0, 12, false },
		{ SKIP, 0, 0, 0, false },
		{ PASS, 1, 0, 12, true },
		/* The retry's pass was enough: the round goes on at 12, gated. */
		{ PASS, 12, 40, 12, false },
		{ PASS, 1, 40, 1, false },
	};

	run("dry", MSL_GATE_PROGRESS, dry, ARRAY_SIZE(dry));
	run("some", MSL_GATE_PROGRESS, some, ARRAY_SIZE(some));
	run("no skip", MSL_GATE_PROGRESS, no_skip, ARRAY_SIZE(no_skip));
	run("next round", MSL_GATE_PROGRESS, next_round,
	    ARRAY_SIZE(next_round));
	run("priority gate", MSL_GATE_PRIORITY, some, ARRAY_SIZE(some));
	{
		static const struct event prio[] = {
			{ PASS, 12, 0, 12, false },
			{ SKIP, 0, 0, 0, false },
			{ PASS, 1, 0, 1, false },
		};

		run("priority gate dry", MSL_GATE_PRIORITY, prio,
		    ARRAY_SIZE(prio));
	}
}

/* kswapd never reaches 0: its last pass is 1; everyone else's is 0. */
static void last_pass(void)
{
	CHECK(msl_last_pass(MSL_KIND_KSWAPD, 1));
	CHECK(!msl_last_pass(MSL_KIND_KSWAPD, 2));
	CHECK(msl_last_pass(MSL_KIND_DIRECT, 0));
	CHECK(!msl_last_pass(MSL_KIND_DIRECT, 1));
	CHECK(!msl_last_pass(MSL_KIND_PROACTIVE, 1));
	CHECK(msl_last_pass(MSL_KIND_PROACTIVE, 0));
}

int main(void)
{
	RUN("pass", last_pass);
	RUN("pass", classic_round);
	RUN("pass", mglru_round);
	RUN("pass", progress_retry);
	return 0;
}
