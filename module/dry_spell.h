/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A node's dry spell, pure so that the unit tests build it unchanged.
 *
 * The progress gate lets everyone in when a reclaimer's round over the
 * eligible cgroups reclaimed nothing (its retry).  The next round on that
 * node would find the same, and finding it costs a whole round: direct
 * reclaim's thirteen passes, each scanning deeper into what the eligible
 * cgroups and the root still hold, their hot pages among it.  An
 * allocation that needs many rounds then pays that for each, where stock
 * reclaim takes the cold pages of the protected cgroups at once (t-24:
 * 280 MiB in 3 to 146 s on 6.1 against stock's 1 s, ending with the same
 * pages kept).  So a retry opens a dry spell on its node, during which
 * every round reclaims everyone from its first pass.  A retry soon after
 * a spell ended means the eligible cgroups are still dry: the next spell
 * lasts twice as long, up to MSL_DRY_SPELL_MAX_SHIFT doublings; a retry
 * after a longer quiet starts over at the shortest.
 *
 * Any reclaimer of the node writes it, without a lock: two of them racing
 * to open the same spell open it twice, with the same or the next length,
 * which is all that can go wrong.
 */
#ifndef MSL_DRY_SPELL_H
#define MSL_DRY_SPELL_H

#ifdef __KERNEL__
#include <linux/compiler.h>
#include <linux/types.h>
#else
#include <stdbool.h>
/* The unit tests run one thread. */
#define READ_ONCE(x)		(x)
#define WRITE_ONCE(x, v)	((x) = (v))
#endif

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
/* A retry on the node at @now: opens a spell unless one is open. */
void msl_dry_spell_note_retry(struct msl_dry_spell *spell, unsigned long now,
			      unsigned long hz);

#endif /* MSL_DRY_SPELL_H */
