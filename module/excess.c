// SPDX-License-Identifier: GPL-2.0
/*
 * policy excess: the largest excess lately, one word (policy.h): the
 * excess in pages, the second it was noted in, the low bits of the id of
 * the level that holds it.  Updated with a compare-and-swap loop, which
 * only retries when another CPU changed the word meanwhile (lock-free);
 * a step whose excess changes nothing writes nothing.
 */
#include <linux/atomic.h>

#include "excess.h"
#include "memcg_state.h"
#include "params.h"

static atomic64_t excess_max = ATOMIC64_INIT(0);
/* The policy writes the word was noted under: a write forgets it. */
static unsigned long noted_under;

/* msl_excess_fn: one global word and the memcg's credit, both atomics. */
bool msl_excess_note(void *arg, u64 id, u64 excess, struct msl_excess *out)
{
	struct msl_excess_ctx *x = arg;
	unsigned long writes = READ_ONCE(msl_policy_writes);
	s64 old;
	u64 word;

	if (READ_ONCE(noted_under) != writes) {
		/* A policy was written: start again from the tree as it is. */
		WRITE_ONCE(noted_under, writes);
		atomic64_set(&excess_max, 0);
	}
	old = atomic64_read(&excess_max);
	for (;;) {
		word = msl_excess_max_next((u64)old, x->now, id, excess);
		if (word == (u64)old ||
		    atomic64_try_cmpxchg(&excess_max, &old, (s64)word))
			break;
	}
	if (!excess || !x->entry)
		return false;
	out->max = msl_excess_max_value(word, x->now);
	out->credit = (u64)atomic64_add_return((s64)excess,
					       &x->entry->excess_credit);
	return true;
}
