// SPDX-License-Identifier: GPL-2.0
/*
 * Pure soft-limit policy: no kernel state, no locking, no allocation.
 * Compiled into the module and, unchanged, into the tool and unit tests.
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#else
#include <stddef.h>
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
#include <memcg_softlimit/policy.h>

bool msl_level_over(const struct msl_params *params,
		    const struct msl_level *level)
{
	switch (level->src) {
	case MSL_LIMIT_UNSET:
		/* V8 made 0 the default limit: any usage is over it. */
		return params->unset_eligible && level->usage > 0;
	case MSL_LIMIT_MAX:
		return false;
	case MSL_LIMIT_SET:
	case MSL_LIMIT_V1:
		return level->usage > level->soft_limit;
	default:
		return true;
	}
}

u64 msl_level_excess(const struct msl_params *params,
		     const struct msl_level *level)
{
	if (!msl_level_over(params, level))
		return 0;
	if (level->src == MSL_LIMIT_SET || level->src == MSL_LIMIT_V1)
		return level->usage - level->soft_limit;
	return level->usage;
}

static void set_decision(struct msl_decision *out, enum msl_verdict verdict,
			 enum msl_reason reason)
{
	out->verdict = verdict;
	out->reason = reason;
	out->decider_id = 0;
	out->excess = 0;
	out->excess_max = 0;
	out->excess_credit = 0;
	out->levels = 0;
}

bool msl_decide_early(const struct msl_params *params,
		      const struct msl_step *step, struct msl_decision *out)
{
	if (!params->enabled)
		set_decision(out, MSL_RECLAIM, MSL_REASON_OFF);
	else if (step->kind == MSL_KIND_TARGETED)
		set_decision(out, MSL_RECLAIM, MSL_REASON_TARGETED);
	else if (step->is_root)
		/* The root's own pages can only ever go to global reclaim. */
		set_decision(out, MSL_RECLAIM, MSL_REASON_ROOT);
	else if (step->effective_priority < params->priority_threshold ||
		 step->last_pass)
		set_decision(out, MSL_RECLAIM, MSL_REASON_PRIORITY);
	else
		return false;
	return true;
}

/* Reclaimed because the level just read (out->levels) is over. */
static void set_over(const struct msl_params *params,
		     const struct msl_level *level, struct msl_decision *out)
{
	out->verdict = MSL_RECLAIM;
	out->reason = out->levels == 1 ? MSL_REASON_OVER :
					 MSL_REASON_ANCESTOR_OVER;
	out->decider_id = level->cgroup_id;
	out->excess = msl_level_excess(params, level);
}

/* V8: over when the memcg or any ancestor below the root is over. */
static void decide_v8(const struct msl_params *params,
		      const struct msl_step *step, msl_next_level_fn next,
		      void *cursor, struct msl_decision *out)
{
	struct msl_level level;

	set_decision(out, MSL_SKIP, MSL_REASON_UNDER);
	while (next(cursor, &level)) {
		out->levels++;
		if (msl_level_over(params, &level)) {
			set_over(params, &level, out);
			return;
		}
	}
	/* V8 2/2: when only root is eligible, skipping would waste the pass. */
	if (step->nothing_eligible) {
		out->verdict = MSL_RECLAIM;
		out->reason = MSL_REASON_NOTHING_ELIGIBLE;
	}
}

/*
 * walk (the KS2012 article): top-down from the root's children, the first
 * level whose node on the memcg's path is over makes the memcg eligible
 * (its whole subtree goes); the first level where that node is not over
 * but one of its siblings is skips the memcg (reclaim goes to the over
 * siblings only); a level with no one over descends.  With no level
 * decided, none is over along the path: reclaim in proportion, as stock.
 *
 * The levels come bottom-up, so the last level that decides wins.
 */
static void decide_walk(const struct msl_params *params,
			msl_next_level_fn next, void *cursor,
			struct msl_decision *out)
{
	struct msl_level level;

	set_decision(out, MSL_RECLAIM, MSL_REASON_NONE_OVER);
	while (next(cursor, &level)) {
		out->levels++;
		if (msl_level_over(params, &level)) {
			set_over(params, &level, out);
		} else if (level.sibling_over) {
			out->verdict = MSL_SKIP;
			out->reason = MSL_REASON_SIBLING_OVER;
			out->decider_id = level.cgroup_id;
		}
	}
}

bool msl_excess_share(u64 credit, u64 excess, u64 max)
{
	if (!excess)
		return false;
	if (excess >= max)
		return true;
	return (credit - excess) % max < excess;
}

/* A word's fields, see policy.h. */
#define XW_ID_MASK	((1ULL << MSL_EXCESS_ID_BITS) - 1)
#define XW_PERIOD_SHIFT	MSL_EXCESS_ID_BITS
#define XW_PERIOD_MASK	((1ULL << MSL_EXCESS_PERIOD_BITS) - 1)
#define XW_PAGES_SHIFT	(MSL_EXCESS_ID_BITS + MSL_EXCESS_PERIOD_BITS)

u64 msl_excess_max_value(u64 word, u64 now)
{
	u64 stamp = (word >> XW_PERIOD_SHIFT) & XW_PERIOD_MASK;
	u64 age = (now - stamp) & XW_PERIOD_MASK;

	if (age >= MSL_EXCESS_PAGES_BITS)
		return 0;
	return (word >> XW_PAGES_SHIFT) >> age;
}

u64 msl_excess_max_next(u64 word, u64 now, u64 id, u64 excess)
{
	bool holder = word && (word & XW_ID_MASK) == (id & XW_ID_MASK);

	if (excess > MSL_EXCESS_PAGES_MAX)
		excess = MSL_EXCESS_PAGES_MAX;
	/* A smaller excess leaves the word alone, unless it is its own. */
	if (!holder && excess < msl_excess_max_value(word, now))
		return word;
	if (!excess)
		return 0;
	return excess << XW_PAGES_SHIFT |
	       (now & XW_PERIOD_MASK) << XW_PERIOD_SHIFT | (id & XW_ID_MASK);
}

/*
 * excess: eligible as v8 (some level of the path is over), but the
 * pressure is that of the level with the largest excess along the path,
 * not the nearest: a cgroup over by a little inside a parent over by a
 * lot goes with its parent, as the old rb-tree's "largest excess first"
 * reclaimed the whole hierarchy of the cgroup it picked.  The memcg is
 * reclaimed at a share of its first-pass steps, that excess over the
 * largest excess of any memcg lately: every step for the largest.
 * Memcgs not eligible are skipped (under), with V8 2/2 as v8.
 */
static void decide_excess(const struct msl_params *params,
			  const struct msl_step *step, msl_next_level_fn next,
			  void *cursor, struct msl_decision *out)
{
	struct msl_level level;
	struct msl_excess x;
	u64 self = 0;

	set_decision(out, MSL_SKIP, MSL_REASON_UNDER);
	while (next(cursor, &level)) {
		if (!out->levels++)
			self = level.cgroup_id;
		/* The nearest level wins a tie. */
		if (msl_level_excess(params, &level) > out->excess)
			set_over(params, &level, out);
	}
	if (!out->excess) {
		if (step->excess_note)
			step->excess_note(step->excess_arg, self, 0, &x);
		if (step->nothing_eligible) {
			out->verdict = MSL_RECLAIM;
			out->reason = MSL_REASON_NOTHING_ELIGIBLE;
		}
		return;
	}
	if (!step->excess_note ||
	    !step->excess_note(step->excess_arg, out->decider_id, out->excess,
			       &x))
		return;
	out->excess_max = x.max > out->excess ? x.max : out->excess;
	out->excess_credit = x.credit;
	if (!msl_excess_share(x.credit, out->excess, out->excess_max)) {
		out->verdict = MSL_SKIP;
		out->reason = MSL_REASON_EXCESS_SHARE;
	}
}

void msl_decide(const struct msl_params *params, const struct msl_step *step,
		msl_next_level_fn next, void *cursor, struct msl_decision *out)
{
	if (msl_decide_early(params, step, out))
		return;
	if (params->policy == MSL_POLICY_WALK)
		decide_walk(params, next, cursor, out);
	else if (params->policy == MSL_POLICY_EXCESS)
		decide_excess(params, step, next, cursor, out);
	else
		decide_v8(params, step, next, cursor, out);
}

static const char *const kind_names[] = {
	[MSL_KIND_KSWAPD] = "kswapd",
	[MSL_KIND_DIRECT] = "direct",
	[MSL_KIND_PROACTIVE] = "proactive",
	[MSL_KIND_TARGETED] = "targeted",
};

static const char *const verdict_names[] = {
	[MSL_RECLAIM] = "reclaim",
	[MSL_SKIP] = "skip",
};

static const char *const reason_names[] = {
	[MSL_REASON_OFF] = "policy_off",
	[MSL_REASON_TARGETED] = "targeted",
	[MSL_REASON_ROOT] = "root",
	[MSL_REASON_PRIORITY] = "below_threshold",
	[MSL_REASON_OVER] = "over",
	[MSL_REASON_ANCESTOR_OVER] = "ancestor_over",
	[MSL_REASON_NOTHING_ELIGIBLE] = "nothing_eligible",
	[MSL_REASON_UNDER] = "under",
	[MSL_REASON_SIBLING_OVER] = "sibling_over",
	[MSL_REASON_NONE_OVER] = "none_over",
	[MSL_REASON_EXCESS_SHARE] = "excess_share",
};

static const char *const policy_names[] = {
	[MSL_POLICY_V8] = "v8",
	[MSL_POLICY_WALK] = "walk",
	[MSL_POLICY_EXCESS] = "excess",
};

static const char *const limit_src_names[] = {
	[MSL_LIMIT_UNSET] = "unset",
	[MSL_LIMIT_SET] = "set",
	[MSL_LIMIT_MAX] = "max",
	[MSL_LIMIT_V1] = "v1",
};

static const char *lookup(const char *const *table, unsigned int size,
			  unsigned int idx)
{
	return idx < size ? table[idx] : "?";
}

const char *msl_kind_name(unsigned int kind)
{
	return lookup(kind_names, ARRAY_SIZE(kind_names), kind);
}

const char *msl_verdict_name(unsigned int verdict)
{
	return lookup(verdict_names, ARRAY_SIZE(verdict_names), verdict);
}

const char *msl_reason_name(unsigned int reason)
{
	return lookup(reason_names, ARRAY_SIZE(reason_names), reason);
}

const char *msl_limit_src_name(unsigned int src)
{
	return lookup(limit_src_names, ARRAY_SIZE(limit_src_names), src);
}

const char *msl_policy_name(unsigned int policy)
{
	return lookup(policy_names, ARRAY_SIZE(policy_names), policy);
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool msl_word_is(const char *s, const char *word)
{
	while (blank(*s))
		s++;
	while (*word && *s == *word) {
		s++;
		word++;
	}
	if (*word)
		return false;
	while (blank(*s))
		s++;
	return !*s;
}

int msl_policy_parse(const char *s)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(policy_names); i++)
		if (msl_word_is(s, policy_names[i]))
			return (int)i;
	return -1;
}
