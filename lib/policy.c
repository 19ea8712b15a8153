// SPDX-License-Identifier: GPL-2.0
/*
 * Pure soft-limit policy: no kernel state, no locking, no allocation.
 * Compiled into the module and, unchanged, into the tool and unit tests.
 */
#include <linux/kernel.h>
#include <memcg_softlimit/policy.h>

/* An unset limit read as V8's 0. */
static bool unset_counts_as_zero(const struct msl_params *params,
				 const struct msl_level *level)
{
	return level->src == MSL_LIMIT_UNSET &&
	       (params->unset == MSL_UNSET_ZERO ||
		(params->unset == MSL_UNSET_INHERIT &&
		 params->policy == MSL_POLICY_WALK));
}

bool msl_level_over(const struct msl_params *params,
		    const struct msl_level *level)
{
	switch (level->src) {
	case MSL_LIMIT_UNSET:
		return unset_counts_as_zero(params, level) && level->usage > 0;
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
	if (level->src == MSL_LIMIT_SET || level->src == MSL_LIMIT_V1)
		return level->usage > level->soft_limit ?
		       level->usage - level->soft_limit : 0;
	if (unset_counts_as_zero(params, level))
		return level->usage;
	return 0;
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
	else if (step->dying)
		set_decision(out, MSL_RECLAIM, MSL_REASON_DYING);
	else if (msl_gate_of(params) == MSL_GATE_PROGRESS && step->retry)
		set_decision(out, MSL_RECLAIM, MSL_REASON_RETRY);
	else if (msl_gate_of(params) == MSL_GATE_PROGRESS && step->dry_spell)
		set_decision(out, MSL_RECLAIM, MSL_REASON_DRY_SPELL);
	else if (msl_gate_of(params) == MSL_GATE_PROGRESS && step->below_floor)
		set_decision(out, MSL_RECLAIM, MSL_REASON_DEPTH);
	else if (msl_gate_of(params) == MSL_GATE_PRIORITY &&
		 (step->effective_priority < params->priority_threshold ||
		  step->last_pass))
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

/*
 * unset=inherit, once every level was read and none was over: a memcg
 * whose own limit is unset and which has no limit above it (@limit_above)
 * is eligible for its own pages, as V8 wants, its whole usage the excess.
 */
static void inherit_unlimited_path(const struct msl_params *params,
				   const struct msl_level *self,
				   bool limit_above, struct msl_decision *out)
{
	if (params->unset != MSL_UNSET_INHERIT || limit_above ||
	    self->src != MSL_LIMIT_UNSET || !self->usage)
		return;
	out->verdict = MSL_RECLAIM;
	out->reason = MSL_REASON_OVER;
	out->decider_id = self->cgroup_id;
	out->excess = self->usage;
}

/*
 * Reads the levels bottom-up and leaves in @out what V8's rule says:
 * reclaim for the nearest level over (@nearest) or, under excess, the
 * level with the largest excess (the nearest wins a tie); else under.
 * Returns the memcg's own id.
 */
static u64 read_path(const struct msl_params *params, bool nearest,
		     msl_next_level_fn next, void *cursor,
		     struct msl_decision *out)
{
	struct msl_level level, self = { .src = MSL_LIMIT_UNSET };
	bool limit_above = false;

	set_decision(out, MSL_SKIP, MSL_REASON_UNDER);
	while (next(cursor, &level)) {
		if (!out->levels++)
			self = level;
		else if (level.src != MSL_LIMIT_UNSET)
			limit_above = true;
		if (!msl_level_over(params, &level) ||
		    (!nearest && msl_level_excess(params, &level) <= out->excess))
			continue;
		set_over(params, &level, out);
		if (nearest)
			return self.cgroup_id;
	}
	if (out->verdict == MSL_SKIP)
		inherit_unlimited_path(params, &self, limit_above, out);
	return self.cgroup_id;
}

/* V8: over when the memcg or any ancestor below the root is over. */
static void decide_v8(const struct msl_params *params,
		      const struct msl_step *step, msl_next_level_fn next,
		      void *cursor, struct msl_decision *out)
{
	read_path(params, true, next, cursor, out);
}

bool msl_eligible(const struct msl_params *params, msl_next_level_fn next,
		  void *cursor)
{
	struct msl_decision d;

	read_path(params, true, next, cursor, &d);
	return d.verdict == MSL_RECLAIM;
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
			const struct msl_step *step, msl_next_level_fn next,
			void *cursor, struct msl_decision *out)
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
			out->excess = 0;
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
 * reclaimed at a share of its gated steps, that excess over the largest
 * excess of any memcg lately: every step for the largest.  Memcgs not
 * eligible are skipped (under).
 */
static void decide_excess(const struct msl_params *params,
			  const struct msl_step *step, msl_next_level_fn next,
			  void *cursor, struct msl_decision *out)
{
	struct msl_excess x;
	u64 self = read_path(params, false, next, cursor, out);

	if (!step->excess_note)
		return;
	if (out->verdict == MSL_SKIP) {
		/* Not eligible: the largest excess it may hold is gone. */
		step->excess_note(step->excess_arg, self, 0, &x);
		return;
	}
	if (!step->excess_note(step->excess_arg, out->decider_id, out->excess,
			       &x))
		return;
	out->excess_max = x.max > out->excess ? x.max : out->excess;
	out->excess_credit = x.credit;
	if (!msl_excess_share(x.credit, out->excess, out->excess_max)) {
		out->verdict = MSL_SKIP;
		out->reason = MSL_REASON_EXCESS_SHARE;
	}
}

static const struct msl_policy_ops policy_ops[] = {
	[MSL_POLICY_V8] = { .decide = decide_v8, .may_find_none = true },
	[MSL_POLICY_WALK] = { .decide = decide_walk, .reads_siblings = true },
	[MSL_POLICY_EXCESS] = { .decide = decide_excess, .weighs_excess = true,
				.may_find_none = true },
};

const struct msl_policy_ops *msl_policy_ops(enum msl_policy policy)
{
	if ((unsigned int)policy >= ARRAY_SIZE(policy_ops))
		policy = MSL_POLICY_V8;
	return &policy_ops[policy];
}

void msl_decide(const struct msl_params *params, const struct msl_step *step,
		msl_next_level_fn next, void *cursor, struct msl_decision *out)
{
	const struct msl_policy_ops *ops = msl_policy_ops(params->policy);

	if (msl_decide_early(params, step, out))
		return;
	ops->decide(params, step, next, cursor, out);
	/*
	 * V8 2/2: skipping a memcg that is not eligible would leave the pass
	 * nothing but the root.  Asked after the policy, so that a memcg
	 * over its limit is reclaimed as over whatever the (periodic) count
	 * of what the eligible memcgs hold says.
	 */
	if (out->verdict == MSL_SKIP && out->reason == MSL_REASON_UNDER &&
	    step->nothing_eligible && ops->may_find_none) {
		out->verdict = MSL_RECLAIM;
		out->reason = MSL_REASON_NOTHING_ELIGIBLE;
	}
}

/* In the order of the enums, which the same lists make. */
struct word {
	unsigned int value;
	const char *word;
};

#define WORD(value, word)	{ value, #word },

static const struct word kind_words[] = { MSL_KIND_LIST(WORD, WORD) };
static const struct word verdict_words[] = { MSL_VERDICT_LIST(WORD, WORD) };
static const struct word reason_words[] = { MSL_REASON_LIST(WORD, WORD) };
static const struct word policy_words[] = { MSL_POLICY_LIST(WORD, WORD) };
static const struct word limit_src_words[] = {
	MSL_LIMIT_SOURCE_LIST(WORD, WORD)
};
static const struct word unset_words[] = { MSL_UNSET_MODE_LIST(WORD, WORD) };
static const struct word gate_words[] = { MSL_GATE_LIST(WORD, WORD) };

static const char *lookup(const struct word *words, unsigned int nr,
			  unsigned int value)
{
	return value < nr ? words[value].word : "?";
}

#define WORD_OF(words, value)	lookup(words, ARRAY_SIZE(words), value)

const char *msl_kind_name(unsigned int kind)
{
	return WORD_OF(kind_words, kind);
}

const char *msl_verdict_name(unsigned int verdict)
{
	return WORD_OF(verdict_words, verdict);
}

const char *msl_reason_name(unsigned int reason)
{
	return WORD_OF(reason_words, reason);
}

const char *msl_limit_src_name(unsigned int src)
{
	return WORD_OF(limit_src_words, src);
}

const char *msl_policy_name(unsigned int policy)
{
	return WORD_OF(policy_words, policy);
}

const char *msl_unset_name(unsigned int unset)
{
	return WORD_OF(unset_words, unset);
}

const char *msl_gate_name(unsigned int gate)
{
	return WORD_OF(gate_words, gate);
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

static int parse_word(const char *s, const struct word *words,
		      unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (msl_word_is(s, words[i].word))
			return (int)words[i].value;
	return -1;
}

int msl_policy_parse(const char *s)
{
	return parse_word(s, policy_words, ARRAY_SIZE(policy_words));
}

int msl_unset_parse(const char *s)
{
	return parse_word(s, unset_words, ARRAY_SIZE(unset_words));
}

int msl_threshold_parse(const char *s, int *threshold)
{
	int value = 0, digits = 0;

	if (msl_word_is(s, "auto")) {
		*threshold = MSL_THRESHOLD_AUTO;
		return 0;
	}
	while (blank(*s))
		s++;
	for (; *s >= '0' && *s <= '9' && digits < 3; s++, digits++)
		value = value * 10 + (*s - '0');
	while (blank(*s))
		s++;
	if (!digits || *s || value > MSL_DEF_PRIORITY)
		return -1;
	*threshold = value;
	return 0;
}
