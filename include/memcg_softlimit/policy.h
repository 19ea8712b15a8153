/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The soft-limit reclaim policy of "mm: memcg softlimit reclaim rework"
 * (Ying Han, V8), as a pure function shared by the kernel module and the
 * userspace tool, so that `memcg-softlimit explain` can never disagree with
 * the kernel.
 */
#ifndef MEMCG_SOFTLIMIT_POLICY_H
#define MEMCG_SOFTLIMIT_POLICY_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stdint.h>
typedef uint64_t u64;
#endif

/* mm/vmscan.c's DEF_PRIORITY: the first, gentlest reclaim pass. */
#define MSL_DEF_PRIORITY	12

/*
 * The words for these numbers are msl_*_name() in module/policy.c and the
 * symbol lists of module/msl_trace.h; keep the three in the same order.
 */
enum msl_kind {
	MSL_KIND_KSWAPD,
	MSL_KIND_DIRECT,
	MSL_KIND_PROACTIVE,
	MSL_KIND_TARGETED,
	MSL_NR_KINDS
};

enum msl_verdict {
	MSL_RECLAIM,
	MSL_SKIP,
	MSL_NR_VERDICTS
};

enum msl_reason {
	MSL_REASON_OFF,
	MSL_REASON_TARGETED,
	MSL_REASON_ROOT,
	MSL_REASON_PRIORITY,
	MSL_REASON_OVER,
	MSL_REASON_ANCESTOR_OVER,
	MSL_REASON_NOTHING_ELIGIBLE,
	MSL_REASON_UNDER,
	/* walk: an uncle or sibling of the memcg's path is over (a skip). */
	MSL_REASON_SIBLING_OVER,
	/* walk: no cgroup over along the path nor beside it: proportional. */
	MSL_REASON_NONE_OVER,
	/*
	 * excess: eligible (a level of the path is over), but not at this
	 * step: it is reclaimed at a share of its steps (a skip).
	 */
	MSL_REASON_EXCESS_SHARE,
	MSL_NR_REASONS
};

/* The reasons that skip; every other reason reclaims. */
static inline bool msl_reason_skips(unsigned int reason)
{
	return reason == MSL_REASON_UNDER ||
	       reason == MSL_REASON_SIBLING_OVER ||
	       reason == MSL_REASON_EXCESS_SHARE;
}

/* Which rule decides at the first pass (README "Policies"). */
enum msl_policy {
	/* Ying Han's V8: reclaim when the memcg or an ancestor is over. */
	MSL_POLICY_V8,
	/*
	 * The KS2012 article's top-down walk: at each level, reclaim only the
	 * children that are over (whole subtrees), else descend.
	 */
	MSL_POLICY_WALK,
	/*
	 * Rik van Riel's pressure in proportion to the excess: eligible as
	 * v8, each eligible memcg reclaimed at a share of its first-pass
	 * steps, its excess over the largest one (README "Policies").
	 */
	MSL_POLICY_EXCESS,
	MSL_NR_POLICIES
};

enum msl_limit_src {
	MSL_LIMIT_UNSET,
	MSL_LIMIT_SET,
	MSL_LIMIT_MAX,
	MSL_LIMIT_V1,
	MSL_NR_LIMIT_SOURCES
};

/* Runtime switches (module parameters). */
struct msl_params {
	bool enabled;
	/* Skip only while the effective priority is >= this (V8: DEF_PRIORITY). */
	int priority_threshold;
	/* Patch semantics: an unset soft limit is 0, so any usage is "over". */
	bool unset_eligible;
	enum msl_policy policy;
};

/*
 * excess: what the caller keeps between steps, after noting one excess:
 * @max is the largest excess (pages) of the memcgs decided lately, the
 * one just noted included; @credit is the memcg's running sum of the
 * excesses noted for it, this one included (it may wrap).
 */
struct msl_excess {
	u64 max;
	u64 credit;
};

/*
 * excess: called once by each first-pass step that read the hierarchy.
 * @excess > 0: the step's memcg is eligible and @id is the level whose
 * excess, @excess pages, sets its pressure: fill @out and return true,
 * or return false when the memcg has no state to keep a credit in (the
 * step then reclaims, as v8).  @excess == 0: the memcg @id is not
 * eligible (the largest excess it may have held is gone); the return
 * value is ignored.
 */
typedef bool (*msl_excess_fn)(void *arg, u64 id, u64 excess,
			      struct msl_excess *out);

/* One reclaim step: reclaim of one memcg's LRU pages on one node. */
struct msl_step {
	enum msl_kind kind;
	bool is_root;
	/*
	 * DEF_PRIORITY minus the number of passes this reclaimer has made
	 * since its first one.  Equal to sc->priority on the classic LRU;
	 * MGLRU starts kswapd below DEF_PRIORITY, see README "MGLRU".
	 */
	int effective_priority;
	/* The last first pass on this node found nothing but root eligible. */
	bool nothing_eligible;
	/*
	 * sc->priority is 0: direct reclaim's last pass before it fails or
	 * OOM-kills.  Never gated, whatever the threshold, so that no
	 * setting can protect pages into an OOM kill that stock would avoid.
	 */
	bool last_pass;
	/*
	 * Policy excess: the caller's state, see msl_excess_fn.  NULL: every
	 * eligible memcg is reclaimed at every step, as v8.
	 */
	msl_excess_fn excess_note;
	void *excess_arg;
};

/* One level of the hierarchy, from the memcg itself up to below the root. */
struct msl_level {
	u64 cgroup_id;
	u64 usage;		/* pages */
	u64 soft_limit;		/* pages; meaningful for SET and V1 */
	enum msl_limit_src src;
	/*
	 * walk only: another child of this level's parent (the root
	 * included) is over its soft limit, by msl_level_over().
	 */
	bool sibling_over;
};

/*
 * Fills @level with the next level up and returns true, or returns false
 * once the root is reached (the root itself is never a level).
 */
typedef bool (*msl_next_level_fn)(void *cursor, struct msl_level *level);

struct msl_decision {
	enum msl_verdict verdict;
	enum msl_reason reason;
	/*
	 * The cgroup whose soft limit decided (OVER, ANCESTOR_OVER), the
	 * level whose sibling is over (SIBLING_OVER), else 0.
	 */
	u64 decider_id;
	/*
	 * The excess over its soft limit, in pages, of the level that
	 * decided (OVER, ANCESTOR_OVER, EXCESS_SHARE), else 0; under policy
	 * excess, the largest of the path's levels over their soft limit.
	 */
	u64 excess;
	/* excess: the largest excess it was weighed against, else 0. */
	u64 excess_max;
	/*
	 * excess: the memcg's share credit after this step (pages, wraps), so
	 * that msl_excess_share(credit, excess, excess_max) can be checked
	 * from outside; else 0.
	 */
	u64 excess_credit;
	/* Levels read; 0 when the step was decided without a walk. */
	unsigned int levels;
};

bool msl_level_over(const struct msl_params *params,
		    const struct msl_level *level);
/*
 * Pages over the soft limit (the usage for an unset limit that counts as
 * 0), 0 when the level is not over.
 */
u64 msl_level_excess(const struct msl_params *params,
		     const struct msl_level *level);

/*
 * excess: does the step reclaim?  @credit is the memcg's credit after
 * adding @excess, @max the largest excess (>= @excess).  The phase of the
 * credit before the step, modulo @max, is below @excess at exactly
 * @excess of every @max consecutive steps (error diffusion): the largest
 * excess reclaims at every step, and no randomness.
 */
bool msl_excess_share(u64 credit, u64 excess, u64 max);

/*
 * excess: the largest excess lately, one 64-bit word that the module
 * updates with a compare-and-swap: the excess in pages (saturating), the
 * period it was noted in (MSL_EXCESS_PERIOD_BITS of a clock in periods,
 * the module's is seconds) and the low bits of the id of the level that
 * holds it.  It halves with every period nobody refreshed it, is raised
 * by any larger excess and follows its holder's excess down.
 */
#define MSL_EXCESS_ID_BITS	12
#define MSL_EXCESS_PERIOD_BITS	16
#define MSL_EXCESS_PAGES_BITS	36
#define MSL_EXCESS_PAGES_MAX	((1ULL << MSL_EXCESS_PAGES_BITS) - 1)
/* The largest excess, in pages, a word says at @now. */
u64 msl_excess_max_value(u64 word, u64 now);
/* The word after noting @excess of @id at @now (msl_excess_fn's rules). */
u64 msl_excess_max_next(u64 word, u64 now, u64 id, u64 excess);

/* True when the step is decided without looking at the hierarchy. */
bool msl_decide_early(const struct msl_params *params,
		      const struct msl_step *step, struct msl_decision *out);

void msl_decide(const struct msl_params *params, const struct msl_step *step,
		msl_next_level_fn next, void *cursor, struct msl_decision *out);

const char *msl_kind_name(unsigned int kind);
const char *msl_verdict_name(unsigned int verdict);
const char *msl_reason_name(unsigned int reason);
const char *msl_limit_src_name(unsigned int src);
const char *msl_policy_name(unsigned int policy);
/* @s is @word, give or take surrounding blanks and newlines (as sysfs). */
bool msl_word_is(const char *s, const char *word);
/* The policy named @s (as msl_word_is()), or -1. */
int msl_policy_parse(const char *s);

#endif /* MEMCG_SOFTLIMIT_POLICY_H */
