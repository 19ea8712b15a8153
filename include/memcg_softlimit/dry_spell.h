/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A node's dry spell, pure so that the unit tests build it unchanged.
 *
 * The progress gate lets everyone in when a reclaimer's round over the
 * eligible cgroups reclaimed nothing (its retry).  The next round on that
 * node would find the same, and finding it costs a whole round: every
 * pass of a direct reclaim call (26 on 6.12's MGLRU, which walks the
 * memcgs twice, up to 39 on the classic LRU with its forced deactivation),
 * each scanning deeper into what the eligible cgroups and the root still
 * hold, their hot pages among it.  An allocation that needs many rounds
 * then pays that for each, where stock reclaim takes the cold pages of the
 * protected cgroups at once (t-24: 280 MiB in 3 to 146 s on 6.1 against
 * stock's 1 s, ending with the same pages kept).  So a retry opens a dry
 * spell on its node, during which every round reclaims everyone from its
 * first pass; the spell stays open while the retry round goes on.  A
 * retry that begins soon after a spell ended means the eligible cgroups
 * are still dry: that spell lasts twice as long, up to
 * MSL_DRY_SPELL_MAX_SHIFT doublings; a retry after a longer quiet starts
 * over at the shortest.  The length changes only where a retry begins,
 * once per retry, however long its round takes.
 *
 * Any reclaimer of the node writes it, without a lock: two of them racing
 * to open the same spell open it twice, with the same or the next length,
 * which is all that can go wrong.
 */
#ifndef MSL_DRY_SPELL_H
#define MSL_DRY_SPELL_H

#include <linux/compiler.h>
#include <linux/types.h>

/* The shortest spell, in jiffies per second (HZ/10), and its doublings. */
#define MSL_DRY_SPELL_MIN_DIV		10
#define MSL_DRY_SPELL_MAX_SHIFT		5

struct msl_dry_spell {
	unsigned long until;	/* jiffies: open before this */
	unsigned int shift;	/* the last spell lasted min << shift */
};

/* A node whose last spell ended long ago, at jiffy @now (HZ per second). */
void msl_dry_spell_init(struct msl_dry_spell *spell, unsigned long now,
			unsigned long hz);
bool msl_dry_spell_open(const struct msl_dry_spell *spell, unsigned long now);
/*
 * A retry round begins on the node at @now: opens a spell, twice as long
 * as the last if that one ended less than its length ago.  Returns the
 * spell's length in jiffies when this opened one, 0 when one was open.
 */
unsigned long msl_dry_spell_begin(struct msl_dry_spell *spell,
				  unsigned long now, unsigned long hz);
/* A step of a retry round under way: open until its length after @now. */
void msl_dry_spell_hold(struct msl_dry_spell *spell, unsigned long now,
			unsigned long hz);

#endif /* MSL_DRY_SPELL_H */
