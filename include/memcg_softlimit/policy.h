/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The soft-limit reclaim policy of "mm: memcg softlimit reclaim rework"
 * (Ying Han, V8), as a pure function shared by the kernel module and the
 * userspace tool, so that `memcg-softlimit explain` can never disagree with
 * the kernel.
 */
#ifndef MEMCG_SOFTLIMIT_POLICY_H
#define MEMCG_SOFTLIMIT_POLICY_H

#include <linux/types.h>

/* mm/vmscan.c's DEF_PRIORITY: the first, gentlest reclaim pass. */
#define MSL_DEF_PRIORITY	12

/*
 * Each enum is written once, as a list of X(value, word) ... Xe(value,
 * word); MSL_<NAME>S is that list with EM() and EMe(), the pattern of the
 * kernel's include/trace/events/9p.h.  The list makes the enum below, the
 * names in policy.c, TRACE_DEFINE_ENUM and __print_symbolic in
 * module/msl_trace.h, and the snapshot event's fields.  The words are
 * bare identifiers, since they name fields too.  Values only ever get
 * appended: recordings keep them as numbers.
 */
#define MSL_KIND_LIST(X, Xe)					\
	X(MSL_KIND_KSWAPD, kswapd)				\
	X(MSL_KIND_DIRECT, direct)				\
	X(MSL_KIND_PROACTIVE, proactive)			\
	Xe(MSL_KIND_TARGETED, targeted)
#define MSL_KINDS	MSL_KIND_LIST(EM, EMe)

#define MSL_VERDICT_LIST(X, Xe)					\
	X(MSL_RECLAIM, reclaim)				\
	Xe(MSL_SKIP, skip)
#define MSL_VERDICTS	MSL_VERDICT_LIST(EM, EMe)

/*
 * Why a step was decided so.  Skips: under, sibling_over (walk) and
 * excess_share (excess); every other reason reclaims.  retry: the
 * reclaimer's second round after one over the eligible cgroups reclaimed
 * nothing (the progress gate, docs/design.md "The gates"); dry_spell: a
 * round on a node shortly after such a retry there; depth: a pass deeper
 * than the eligible cgroups' supply justifies (depth.h); dying:
 * the memcg was removed (its pages have no owner left to protect).
 */
#define MSL_REASON_LIST(X, Xe)					\
	X(MSL_REASON_OFF, policy_off)				\
	X(MSL_REASON_TARGETED, targeted)			\
	X(MSL_REASON_ROOT, root)				\
	X(MSL_REASON_PRIORITY, below_threshold)		\
	X(MSL_REASON_OVER, over)				\
	X(MSL_REASON_ANCESTOR_OVER, ancestor_over)		\
	X(MSL_REASON_NOTHING_ELIGIBLE, nothing_eligible)	\
	X(MSL_REASON_UNDER, under)				\
	X(MSL_REASON_SIBLING_OVER, sibling_over)		\
	X(MSL_REASON_NONE_OVER, none_over)			\
	X(MSL_REASON_EXCESS_SHARE, excess_share)		\
	X(MSL_REASON_RETRY, retry)				\
	X(MSL_REASON_DYING, dying)				\
	X(MSL_REASON_DRY_SPELL, dry_spell)			\
	Xe(MSL_REASON_DEPTH, depth)
#define MSL_REASONS	MSL_REASON_LIST(EM, EMe)

/* Which rule decides at a gated pass (README "Policies"). */
#define MSL_POLICY_LIST(X, Xe)					\
	X(MSL_POLICY_V8, v8)					\
	X(MSL_POLICY_WALK, walk)				\
	Xe(MSL_POLICY_EXCESS, excess)
#define MSL_POLICIES	MSL_POLICY_LIST(EM, EMe)

/* Where a level's soft limit came from. */
#define MSL_LIMIT_SOURCE_LIST(X, Xe)					\
	X(MSL_LIMIT_UNSET, unset)				\
	X(MSL_LIMIT_SET, set)					\
	X(MSL_LIMIT_MAX, max)					\
	Xe(MSL_LIMIT_V1, v1)
#define MSL_LIMIT_SOURCES	MSL_LIMIT_SOURCE_LIST(EM, EMe)

/*
 * What an unset soft limit means (module parameter unset):
 * inherit: the nearest ancestor with a limit decides; with none above,
 * the cgroup's own pages are eligible (V8) but it makes no descendant
 * eligible; zero: V8's 0, any usage is over; max: never over (stock).
 */
#define MSL_UNSET_MODE_LIST(X, Xe)					\
	X(MSL_UNSET_INHERIT, inherit)				\
	X(MSL_UNSET_ZERO, zero)				\
	Xe(MSL_UNSET_MAX, max)
#define MSL_UNSET_MODES	MSL_UNSET_MODE_LIST(EM, EMe)

/*
 * Which passes of global reclaim skip (README "Gates"): progress skips at
 * every pass until a round over the eligible cgroups reclaimed nothing
 * (memory.low's protocol); priority skips while the effective priority is
 * at or above priority_threshold (12: the patch's first pass only).
 */
#define MSL_GATE_LIST(X, Xe)					\
	X(MSL_GATE_PROGRESS, progress)				\
	Xe(MSL_GATE_PRIORITY, priority)
#define MSL_GATES	MSL_GATE_LIST(EM, EMe)

#undef EM
#undef EMe
#define EM(value, word)		value,
#define EMe(value, word)	value

enum msl_kind { MSL_KINDS, MSL_NR_KINDS };
enum msl_verdict { MSL_VERDICTS, MSL_NR_VERDICTS };
enum msl_reason { MSL_REASONS, MSL_NR_REASONS };
enum msl_policy { MSL_POLICIES, MSL_NR_POLICIES };
enum msl_limit_src { MSL_LIMIT_SOURCES, MSL_NR_LIMIT_SOURCES };
enum msl_unset { MSL_UNSET_MODES, MSL_NR_UNSET_MODES };
enum msl_gate { MSL_GATES, MSL_NR_GATES };

#undef EM
#undef EMe

/* The reasons that skip; every other reason reclaims. */
static inline bool msl_reason_skips(unsigned int reason)
{
	return reason == MSL_REASON_UNDER ||
	       reason == MSL_REASON_SIBLING_OVER ||
	       reason == MSL_REASON_EXCESS_SHARE;
}

/*
 * The reasons that reclaim a memcg on its own account, as a first pass
 * would: the pages they give are the eligible supply's (supply.h), not a
 * fallback's.
 */
static inline bool msl_reason_eligible(unsigned int reason)
{
	return reason == MSL_REASON_ROOT || reason == MSL_REASON_OVER ||
	       reason == MSL_REASON_ANCESTOR_OVER ||
	       reason == MSL_REASON_NONE_OVER || reason == MSL_REASON_DYING;
}

/* priority_threshold's value for the progress gate ("auto"). */
#define MSL_THRESHOLD_AUTO	(-1)

/* Runtime switches (module parameters). */
struct msl_params {
	bool enabled;
	/*
	 * MSL_THRESHOLD_AUTO: the progress gate.  0..12: the priority gate,
	 * skipping while the effective priority is >= this (12: V8).
	 */
	int priority_threshold;
	enum msl_unset unset;
	enum msl_policy policy;
};

static inline enum msl_gate msl_gate_of(const struct msl_params *params)
{
	return params->priority_threshold == MSL_THRESHOLD_AUTO ?
	       MSL_GATE_PROGRESS : MSL_GATE_PRIORITY;
}

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
 * excess: called once by each gated step that read the hierarchy.
 * @excess > 0: the step's memcg is eligible and @id is the level whose
 * excess, @excess pages, sets its pressure: fill @out and return true,
 * or return false when the memcg has no state to keep a credit in (the
 * step then reclaims, as v8).  @excess == 0: the memcg @id is not
 * eligible (the largest excess it may have held is gone); the return
 * value is ignored.
 */
typedef bool (*msl_excess_fn)(void *arg, u64 id, u64 excess,
			      struct msl_excess *out);

/* One reclaim step: reclaim of one memcg's pages on one node. */
struct msl_step {
	enum msl_kind kind;
	bool is_root;
	/*
	 * The priority gate's measure: DEF_PRIORITY minus the passes this
	 * reclaimer has made since its first one.  sc->priority, except for
	 * MGLRU's kswapd, which starts below DEF_PRIORITY (README "Gates").
	 */
	int effective_priority;
	/*
	 * sc->priority is 0: direct reclaim's last pass before it fails or
	 * OOM-kills.  The priority gate never skips there, whatever the
	 * threshold, so that no setting protects into an OOM kill that stock
	 * would avoid.
	 */
	bool last_pass;
	/*
	 * The progress gate's escape: this reclaimer's round over the
	 * eligible cgroups reclaimed nothing, and it now tries again with
	 * everyone (direct reclaim: sc->memcg_low_reclaim; kswapd: the
	 * module's own retry).
	 */
	bool retry;
	/* A round on a node in a dry spell after a retry (progress gate). */
	bool dry_spell;
	/*
	 * The pass is deeper than the eligible memcgs' supply on the node
	 * justifies for what the reclaimer asked (progress gate, depth.h).
	 */
	bool below_floor;
	/*
	 * The memcg is offline or being removed: reclaimed at every pass, as
	 * the kernel drops a dying memcg's memory.min and memory.low.
	 */
	bool dying;
	/*
	 * No memcg but the root holds pages reclaim may take on the node
	 * (V8 2/2): a memcg the policy would skip as under is reclaimed, as
	 * stock (reason nothing_eligible); one it reclaims keeps its reason.
	 */
	bool nothing_eligible;
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

/*
 * What each policy needs from its caller, so that neither the module nor
 * the tool branches on a policy's name.
 */
struct msl_policy_ops {
	/* Decides a gated step from its levels, read bottom-up. */
	void (*decide)(const struct msl_params *params,
		       const struct msl_step *step, msl_next_level_fn next,
		       void *cursor, struct msl_decision *out);
	/* The levels must carry sibling_over (walk). */
	bool reads_siblings;
	/* The step's excess is noted through step->excess_note (excess). */
	bool weighs_excess;
	/*
	 * Some cgroups may be eligible and the rest not, so that V8 2/2
	 * (nothing eligible: reclaim all) applies.  walk has no such case:
	 * where nothing is over, everyone is reclaimed in proportion.
	 */
	bool may_find_none;
};

const struct msl_policy_ops *msl_policy_ops(enum msl_policy policy);

/*
 * A level over its own soft limit.  An unset limit counts as 0 under
 * unset=zero, and under inherit for walk, which weighs siblings; v8 and
 * excess resolve it along the path under inherit.
 */
bool msl_level_over(const struct msl_params *params,
		    const struct msl_level *level);
/*
 * Pages over the soft limit (the usage for an unset limit that counts as
 * 0), 0 when the level is not over.
 */
u64 msl_level_excess(const struct msl_params *params,
		     const struct msl_level *level);

/*
 * Would a gated step of this memcg reclaim it under a policy that may find
 * none eligible (v8, excess)?  No side effect: excess's share is not
 * weighed.  V8 2/2's question, asked of one memcg.
 */
bool msl_eligible(const struct msl_params *params, msl_next_level_fn next,
		  void *cursor);

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
const char *msl_unset_name(unsigned int unset);
const char *msl_gate_name(unsigned int gate);
/* @s is @word, give or take surrounding blanks and newlines (as sysfs). */
bool msl_word_is(const char *s, const char *word);
/* The policy or unset mode named @s (as msl_word_is()), or -1. */
int msl_policy_parse(const char *s);
int msl_unset_parse(const char *s);
/*
 * priority_threshold as written to sysfs: "auto" or 0..12; 0 and
 * *threshold set, or -1 and *threshold untouched.
 */
int msl_threshold_parse(const char *s, int *threshold);

#endif /* MEMCG_SOFTLIMIT_POLICY_H */
