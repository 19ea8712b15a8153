// SPDX-License-Identifier: GPL-2.0
/* Unit tests of lib/dry_spell.c: a node's spell after a retry. */
#include <memcg_softlimit/dry_spell.h>
#include "unit.h"

#define HZ_TEST 250UL
#define MIN (HZ_TEST / MSL_DRY_SPELL_MIN_DIV)

/* Shut before any retry, open for the shortest spell after the first. */
static void first_retry(void)
{
	struct msl_dry_spell s;
	unsigned long t = 1000;

	msl_dry_spell_init(&s, t, HZ_TEST);
	CHECK(!msl_dry_spell_open(&s, t));
	msl_dry_spell_begin(&s, t, HZ_TEST);
	CHECK(msl_dry_spell_open(&s, t));
	CHECK(msl_dry_spell_open(&s, t + MIN - 1));
	CHECK(!msl_dry_spell_open(&s, t + MIN));
}

/* A retry inside an open spell does not lengthen the spells to come. */
static void retry_while_open(void)
{
	struct msl_dry_spell s;
	unsigned long t = 1000;

	msl_dry_spell_init(&s, t, HZ_TEST);
	CHECK(msl_dry_spell_begin(&s, t, HZ_TEST) == MIN);
	CHECK(msl_dry_spell_begin(&s, t + 1, HZ_TEST) == 0);
	CHECK(s.shift == 0);
	CHECK(msl_dry_spell_open(&s, t + MIN));
	CHECK(!msl_dry_spell_open(&s, t + 1 + MIN));
}

/*
 * One retry round ten spells long: its steps hold the spell open, and
 * however long it lasts the length never doubles; a retry beginning right
 * after it does double it, once.
 */
static void long_retry_round(void)
{
	struct msl_dry_spell s;
	unsigned long t = 1000, step;

	msl_dry_spell_init(&s, t, HZ_TEST);
	msl_dry_spell_begin(&s, t, HZ_TEST);
	for (step = 1; step <= 10 * MIN; step++) {
		msl_dry_spell_hold(&s, t + step, HZ_TEST);
		CHECK(msl_dry_spell_open(&s, t + step));
	}
	CHECK(s.shift == 0);
	t += 10 * MIN;		/* the round's last step */
	CHECK(msl_dry_spell_open(&s, t + MIN - 1));
	CHECK(!msl_dry_spell_open(&s, t + MIN));
	CHECK(msl_dry_spell_begin(&s, t + MIN, HZ_TEST) == 2 * MIN);
	CHECK(s.shift == 1);
}

/* A step of a retry whose beginning went unseen opens the current length. */
static void hold_opens(void)
{
	struct msl_dry_spell s;
	unsigned long t = 1000;

	msl_dry_spell_init(&s, t, HZ_TEST);
	msl_dry_spell_hold(&s, t, HZ_TEST);
	CHECK(msl_dry_spell_open(&s, t + MIN - 1));
	CHECK(!msl_dry_spell_open(&s, t + MIN));
	CHECK(s.shift == 0);
}

/* Dry right after each spell: each lasts twice the last, up to the cap. */
static void doubling_to_cap(void)
{
	struct msl_dry_spell s;
	unsigned long t = 5000, len = MIN;
	unsigned int i;

	msl_dry_spell_init(&s, t, HZ_TEST);
	msl_dry_spell_begin(&s, t, HZ_TEST);
	for (i = 1; i <= MSL_DRY_SPELL_MAX_SHIFT + 2; i++) {
		t += len;	/* the spell just ended */
		msl_dry_spell_begin(&s, t, HZ_TEST);
		if (i <= MSL_DRY_SPELL_MAX_SHIFT)
			len *= 2;
		CHECK(msl_dry_spell_open(&s, t + len - 1));
		CHECK(!msl_dry_spell_open(&s, t + len));
	}
	CHECK(s.shift == MSL_DRY_SPELL_MAX_SHIFT);
}

/* A retry after a quiet longer than a spell starts over at the shortest. */
static void quiet_resets(void)
{
	struct msl_dry_spell s;
	unsigned long t = 1000;

	msl_dry_spell_init(&s, t, HZ_TEST);
	msl_dry_spell_begin(&s, t, HZ_TEST);
	msl_dry_spell_begin(&s, t + MIN, HZ_TEST);
	CHECK(s.shift == 1);
	t += MIN + 2 * MIN;	/* the second spell ended at t */
	msl_dry_spell_begin(&s, t + 2 * MIN, HZ_TEST);
	CHECK(s.shift == 0);
	CHECK(!msl_dry_spell_open(&s, t + 3 * MIN));
}

/* jiffies start near the wrap (INITIAL_JIFFIES) and wrap: same answers. */
static void across_wrap(void)
{
	struct msl_dry_spell s;
	unsigned long t = (unsigned long)-(MIN / 2);

	msl_dry_spell_init(&s, t, HZ_TEST);
	CHECK(!msl_dry_spell_open(&s, t));
	CHECK(!msl_dry_spell_open(&s, 0));
	msl_dry_spell_begin(&s, t, HZ_TEST);
	CHECK(msl_dry_spell_open(&s, 0));
	CHECK(!msl_dry_spell_open(&s, t + MIN));
}

int main(void)
{
	RUN("dry_spell", first_retry);
	RUN("dry_spell", retry_while_open);
	RUN("dry_spell", long_retry_round);
	RUN("dry_spell", hold_opens);
	RUN("dry_spell", doubling_to_cap);
	RUN("dry_spell", quiet_resets);
	RUN("dry_spell", across_wrap);
	return 0;
}
