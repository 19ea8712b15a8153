/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Each node's eligible supply: the pages that global reclaim may take from
 * the memcgs the policy lets it reclaim there (the root's own included),
 * counted by a work item outside the reclaim path and read by the probes
 * as one word per node.
 */
#ifndef MSL_SUPPLY_H
#define MSL_SUPPLY_H

#include <asm/barrier.h>
#include <linux/compiler.h>
#include <linux/jiffies.h>
#include <linux/types.h>

/*
 * A node's word: cold file pages of the eligible memcgs, the root's own
 * included (bits 0-28), their anonymous pages, hot and cold, where they
 * have swap room (bits 29-57), saturating at 2 TiB; whether reclaim took
 * pages from them since the last count at a fair efficiency (depth.h's
 * giving); whether memcgs other than the root hold file or anonymous
 * pages, hot or cold (V8 2/2: "nothing but the root eligible"); whether
 * the node holds pages of a memcg the policy protects.  0 until the first
 * count, and once it is stale: nothing known.
 */
#define MSL_SUPPLY_PAGES_BITS	29
#define MSL_SUPPLY_PAGES_MAX	((1ULL << MSL_SUPPLY_PAGES_BITS) - 1)
#define MSL_SUPPLY_GIVING	(1ULL << 59)
#define MSL_SUPPLY_OTHERS_FILE	(1ULL << 60)
#define MSL_SUPPLY_OTHERS_ANON	(1ULL << 61)
#define MSL_SUPPLY_PROTECTS	(1ULL << 62)
#define MSL_SUPPLY_KNOWN	(1ULL << 63)

/*
 * A count older than this says who held what then, not now: the first
 * passes after a quiet spell (or the module's load) would judge on it
 * until the count they kick is in (t-71 saw a count from before the
 * neighbours' memory was written reclaim the protected cgroups as
 * nothing_eligible).  Such a word reads as unknown.
 */
#define MSL_SUPPLY_STALE	(HZ / 2)

extern u64 *msl_supply_words;
extern unsigned long msl_supply_counted_at;
/* Memcgs the policy protects now, with pages or not (MGLRU's placement). */
extern unsigned long msl_supply_nr_protected;

static inline u64 msl_supply_word(int nid)
{
	/* Pairs with count_supply()'s release: a fresh date, its words. */
	if (time_after(jiffies, smp_load_acquire(&msl_supply_counted_at) +
				MSL_SUPPLY_STALE))
		return 0;
	return READ_ONCE(msl_supply_words[nid]);
}

static inline u64 msl_supply_file(u64 word)
{
	return word & MSL_SUPPLY_PAGES_MAX;
}

static inline u64 msl_supply_anon(u64 word)
{
	return (word >> MSL_SUPPLY_PAGES_BITS) & MSL_SUPPLY_PAGES_MAX;
}

static inline unsigned long msl_supply_protected_memcgs(void)
{
	return READ_ONCE(msl_supply_nr_protected);
}

/*
 * A gated call of kswapd or direct reclaim on a memcg the policy reclaims
 * on its own account (policy.h's msl_reason_eligible()) scanned and
 * reclaimed these pages on @nid: the eligible memcgs' flow.
 */
void msl_supply_note_flow(int nid, unsigned long scanned,
			  unsigned long reclaimed);
/* A pass of global reclaim began: count again if the last count is old. */
void msl_supply_kick(void);
int msl_supply_init(void);
void msl_supply_exit(void);

#endif /* MSL_SUPPLY_H */
