// SPDX-License-Identifier: GPL-2.0
/* A node's dry spell after the progress gate's retry (dry_spell.h). */
#include <memcg_softlimit/dry_spell.h>

/* jiffies comparisons that survive the counter's wrap, as time_before() */
static bool before(unsigned long a, unsigned long b)
{
	return (long)(a - b) < 0;
}

static unsigned long spell_length(unsigned int shift, unsigned long hz)
{
	unsigned long min = hz / MSL_DRY_SPELL_MIN_DIV;

	return (min ? min : 1) << shift;
}

void msl_dry_spell_init(struct msl_dry_spell *spell, unsigned long now,
			unsigned long hz)
{
	/* Ended longer ago than any spell lasts: the first retry starts short. */
	spell->shift = 0;
	spell->until = now - 2 * spell_length(MSL_DRY_SPELL_MAX_SHIFT, hz);
}

bool msl_dry_spell_open(const struct msl_dry_spell *spell, unsigned long now)
{
	return before(now, READ_ONCE(spell->until));
}

unsigned long msl_dry_spell_begin(struct msl_dry_spell *spell,
				  unsigned long now, unsigned long hz)
{
	unsigned long until = READ_ONCE(spell->until);
	unsigned int shift = READ_ONCE(spell->shift);

	if (before(now, until)) {
		/* Another reclaimer's spell: this retry is the same dry moment. */
		msl_dry_spell_hold(spell, now, hz);
		return 0;
	}
	/* Dry again within one more spell's length of the last one's end? */
	if (before(now, until + spell_length(shift, hz)))
		shift = shift < MSL_DRY_SPELL_MAX_SHIFT ? shift + 1 : shift;
	else
		shift = 0;
	WRITE_ONCE(spell->shift, shift);
	WRITE_ONCE(spell->until, now + spell_length(shift, hz));
	return spell_length(shift, hz);
}

void msl_dry_spell_hold(struct msl_dry_spell *spell, unsigned long now,
			unsigned long hz)
{
	unsigned long until = now + spell_length(READ_ONCE(spell->shift), hz);

	if (before(READ_ONCE(spell->until), until))
		WRITE_ONCE(spell->until, until);
}
