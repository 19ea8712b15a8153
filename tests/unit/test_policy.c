// SPDX-License-Identifier: GPL-2.0
/* Unit tests of module/policy.c, built for userspace from the same source. */
#include <memcg_softlimit/policy.h>

#include "cases.h"
#include <string.h>

#include "unit.h"

#define ARRAY_SIZE(a) ((int)(sizeof(a) / sizeof((a)[0])))

struct cursor {
	const struct msl_params *params;
	const struct case_node *tree;
	int n;
	int at;
};

static void fill(const struct case_node *tree, int i, struct msl_level *level)
{
	level->cgroup_id = (u64)i + 100;
	level->usage = tree[i].usage;
	level->soft_limit = tree[i].soft_limit;
	level->src = tree[i].src;
	level->sibling_over = false;
}

static bool next_level(void *opaque, struct msl_level *level)
{
	struct cursor *c = opaque;
	struct msl_level sib;
	int i;

	if (c->at < 0 || c->tree[c->at].parent < 0)
		return false;
	fill(c->tree, c->at, level);
	/* As the module: siblings are read for walk only. */
	for (i = 0; c->params->policy == MSL_POLICY_WALK && i < c->n; i++) {
		if (i == c->at || c->tree[i].parent != c->tree[c->at].parent)
			continue;
		fill(c->tree, i, &sib);
		if (msl_level_over(c->params, &sib)) {
			level->sibling_over = true;
			break;
		}
	}
	c->at = c->tree[c->at].parent;
	return true;
}

static const struct msl_params v8 = {
	.enabled = true,
	.priority_threshold = MSL_DEF_PRIORITY,
	.unset_eligible = true,
	.policy = MSL_POLICY_V8,
};

static const struct msl_params walk = {
	.enabled = true,
	.priority_threshold = MSL_DEF_PRIORITY,
	.unset_eligible = true,
	.policy = MSL_POLICY_WALK,
};

static struct msl_decision decide_n(const struct msl_params *params,
				    const struct case_node *tree, int n,
				    int node, enum msl_kind kind, int priority,
				    bool nothing_eligible)
{
	struct cursor c = { params, tree, n, node };
	struct msl_step step = {
		.kind = kind,
		.is_root = tree[node].parent < 0,
		.effective_priority = priority,
		.nothing_eligible = nothing_eligible,
		.last_pass = priority == 0,
	};
	struct msl_decision d;

	msl_decide(params, &step, next_level, &c, &d);
	return d;
}

#define decide_with(params, tree, node, kind, prio, ne)		\
	decide_n(params, tree, ARRAY_SIZE(tree), node, kind, prio, ne)
#define decide(tree, node, prio)					\
	decide_with(&v8, tree, node, MSL_KIND_KSWAPD, prio, false)

#define EXPECT(tree, node, prio, verdict_, reason_) do {		\
	struct msl_decision d_ = decide(tree, node, prio);		\
	CHECK(d_.verdict == (verdict_));				\
	CHECK(d_.reason == (reason_));					\
} while (0)

static void case1_first_pass_reclaims_only_A1(void)
{
	struct msl_decision d;

	EXPECT(case1, ROOT, 12, MSL_RECLAIM, MSL_REASON_ROOT);
	EXPECT(case1, A, 12, MSL_SKIP, MSL_REASON_UNDER);
	EXPECT(case1, A1, 12, MSL_RECLAIM, MSL_REASON_OVER);
	EXPECT(case1, A2, 12, MSL_SKIP, MSL_REASON_UNDER);
	EXPECT(case1, B, 12, MSL_SKIP, MSL_REASON_UNDER);
	d = decide(case1, A1, 12);
	CHECK(d.decider_id == A1 + 100);
	CHECK(d.levels == 1);
	d = decide(case1, A2, 12);
	CHECK(d.levels == 2);	/* A2, then A; never the root */
}

static void case2_overlimit_parent_exposes_A2(void)
{
	struct msl_decision d;

	EXPECT(case2, A, 12, MSL_RECLAIM, MSL_REASON_OVER);
	EXPECT(case2, A1, 12, MSL_RECLAIM, MSL_REASON_OVER);
	EXPECT(case2, A2, 12, MSL_RECLAIM, MSL_REASON_ANCESTOR_OVER);
	EXPECT(case2, B, 12, MSL_SKIP, MSL_REASON_UNDER);
	d = decide(case2, A2, 12);
	CHECK(d.decider_id == A + 100);
}

static void lower_priorities_skip_nobody(void)
{
	int prio, node;

	for (prio = 0; prio < MSL_DEF_PRIORITY; prio++)
		for (node = A; node < NR_CASE_NODES; node++) {
			EXPECT(case1, node, prio, MSL_RECLAIM,
			       MSL_REASON_PRIORITY);
			EXPECT(case2, node, prio, MSL_RECLAIM,
			       MSL_REASON_PRIORITY);
		}
}

static void threshold_widens_the_skip(void)
{
	struct msl_params p = v8;
	struct msl_decision d;

	p.priority_threshold = 10;
	d = decide_with(&p, case1, B, MSL_KIND_DIRECT, 10, false);
	CHECK(d.verdict == MSL_SKIP);
	d = decide_with(&p, case1, B, MSL_KIND_DIRECT, 9, false);
	CHECK(d.verdict == MSL_RECLAIM && d.reason == MSL_REASON_PRIORITY);
	p.priority_threshold = 0;
	d = decide_with(&p, case1, B, MSL_KIND_DIRECT, 1, false);
	CHECK(d.verdict == MSL_SKIP);
	/* Direct reclaim's last pass is never gated (no OOM stock avoids). */
	d = decide_with(&p, case1, B, MSL_KIND_DIRECT, 0, false);
	CHECK(d.verdict == MSL_RECLAIM && d.reason == MSL_REASON_PRIORITY);
}

static void targeted_and_off_are_untouched(void)
{
	struct msl_params off = v8;
	struct msl_decision d;

	d = decide_with(&v8, case1, B, MSL_KIND_TARGETED, 12, false);
	CHECK(d.verdict == MSL_RECLAIM && d.reason == MSL_REASON_TARGETED);
	CHECK(d.levels == 0);
	off.enabled = false;
	d = decide_with(&off, case1, B, MSL_KIND_KSWAPD, 12, false);
	CHECK(d.verdict == MSL_RECLAIM && d.reason == MSL_REASON_OFF);
	/* Proactive reclaim of the root is global reclaim by request. */
	d = decide_with(&v8, case1, B, MSL_KIND_PROACTIVE, 12, false);
	CHECK(d.verdict == MSL_SKIP);
}

static void unset_semantics(void)
{
	struct case_node tree[3] = {
		{ "root", -1, 100, MSL_LIMIT_UNSET, 0 },
		{ "P", 0, 50, MSL_LIMIT_UNSET, 0 },
		{ "C", 1, 50, MSL_LIMIT_SET, 80 },
	};
	struct msl_params stock = v8;
	struct msl_decision d;

	/* V8: unset is 0, so P is over and C is reclaimed for it. */
	d = decide_with(&v8, tree, 1, MSL_KIND_KSWAPD, 12, false);
	CHECK(d.verdict == MSL_RECLAIM && d.reason == MSL_REASON_OVER);
	d = decide_with(&v8, tree, 2, MSL_KIND_KSWAPD, 12, false);
	CHECK(d.verdict == MSL_RECLAIM &&
	      d.reason == MSL_REASON_ANCESTOR_OVER && d.decider_id == 101);
	/* Stock meaning: unset is never over. */
	stock.unset_eligible = false;
	d = decide_with(&stock, tree, 1, MSL_KIND_KSWAPD, 12, false);
	CHECK(d.verdict == MSL_SKIP);
	d = decide_with(&stock, tree, 2, MSL_KIND_KSWAPD, 12, false);
	CHECK(d.verdict == MSL_SKIP);
	/* An empty unset memcg is not over 0. */
	tree[1].usage = 0;
	d = decide_with(&v8, tree, 1, MSL_KIND_KSWAPD, 12, false);
	CHECK(d.verdict == MSL_SKIP);
}

static void limit_boundary_is_strict(void)
{
	struct msl_level l = { .usage = 10, .soft_limit = 10,
			       .src = MSL_LIMIT_SET };

	CHECK(!msl_level_over(&v8, &l));
	l.usage = 11;
	CHECK(msl_level_over(&v8, &l));
	l.src = MSL_LIMIT_V1;
	CHECK(msl_level_over(&v8, &l));
	l.src = MSL_LIMIT_MAX;
	l.usage = ~0ULL;
	CHECK(!msl_level_over(&v8, &l));
}

static void nothing_eligible_reclaims_instead_of_skipping(void)
{
	struct msl_decision d;

	d = decide_with(&v8, case1, B, MSL_KIND_KSWAPD, 12, true);
	CHECK(d.verdict == MSL_RECLAIM &&
	      d.reason == MSL_REASON_NOTHING_ELIGIBLE);
	/* Over-limit memcgs still say why they are reclaimed. */
	d = decide_with(&v8, case1, A1, MSL_KIND_KSWAPD, 12, true);
	CHECK(d.reason == MSL_REASON_OVER);
}

/* First-pass kswapd decision of @node under @params: verdict, reason, decider. */
#define EXPECT_P(params, tree, node, verdict_, reason_, decider_) do {	\
	struct msl_decision d_ = decide_with(params, tree, node,	\
					     MSL_KIND_KSWAPD, 12, false); \
	CHECK(d_.verdict == (verdict_));				\
	CHECK(d_.reason == (reason_));					\
	CHECK(d_.decider_id == (decider_));				\
} while (0)
#define ID(node) ((u64)(node) + 100)

/*
 * Case 1 under walk: at the top level neither A (max) nor B is over, so
 * the walk descends; below A, A1 is over and A2 is not: A1 only.  A's own
 * pages and B have no one over along their paths: proportional.
 */
static void walk_case1(void)
{
	EXPECT_P(&walk, case1, ROOT, MSL_RECLAIM, MSL_REASON_ROOT, 0);
	EXPECT_P(&walk, case1, A, MSL_RECLAIM, MSL_REASON_NONE_OVER, 0);
	EXPECT_P(&walk, case1, A1, MSL_RECLAIM, MSL_REASON_OVER, ID(A1));
	EXPECT_P(&walk, case1, A2, MSL_SKIP, MSL_REASON_SIBLING_OVER, ID(A2));
	EXPECT_P(&walk, case1, B, MSL_RECLAIM, MSL_REASON_NONE_OVER, 0);
}

/* Case 2 under walk: A is over at the top: its whole subtree, not B. */
static void walk_case2(void)
{
	EXPECT_P(&walk, case2, A, MSL_RECLAIM, MSL_REASON_OVER, ID(A));
	EXPECT_P(&walk, case2, A1, MSL_RECLAIM, MSL_REASON_ANCESTOR_OVER,
		 ID(A));
	EXPECT_P(&walk, case2, A2, MSL_RECLAIM, MSL_REASON_ANCESTOR_OVER,
		 ID(A));
	EXPECT_P(&walk, case2, B, MSL_SKIP, MSL_REASON_SIBLING_OVER, ID(B));
}

/*
 * The KS2012 article's tree: A (children A1, A2), B and C under the root.
 * Soft limits: A 100, A1 80, A2 80, B 100, C 100 pages unless a case says.
 */
enum { R, AA, AA1, AA2, BB, CC, NR_ART };

static void article(struct case_node t[NR_ART], u64 a, u64 a1, u64 a2,
		    u64 b, u64 c)
{
	const struct case_node base[NR_ART] = {
		[R] = { "root", -1, 1000, MSL_LIMIT_UNSET, 0 },
		[AA] = { "A", R, a, MSL_LIMIT_SET, 100 },
		[AA1] = { "A1", AA, a1, MSL_LIMIT_SET, 80 },
		[AA2] = { "A2", AA, a2, MSL_LIMIT_SET, 80 },
		[BB] = { "B", R, b, MSL_LIMIT_SET, 100 },
		[CC] = { "C", R, c, MSL_LIMIT_SET, 100 },
	};

	memcpy(t, base, sizeof(base));
}

/* (a) A over, A1 and A2 under: both policies reclaim A's subtree only. */
static void article_a_parent_over(void)
{
	struct case_node t[NR_ART];

	article(t, 150, 70, 60, 50, 50);
	EXPECT_P(&v8, t, AA, MSL_RECLAIM, MSL_REASON_OVER, ID(AA));
	EXPECT_P(&v8, t, AA1, MSL_RECLAIM, MSL_REASON_ANCESTOR_OVER, ID(AA));
	EXPECT_P(&v8, t, AA2, MSL_RECLAIM, MSL_REASON_ANCESTOR_OVER, ID(AA));
	EXPECT_P(&v8, t, BB, MSL_SKIP, MSL_REASON_UNDER, 0);
	EXPECT_P(&v8, t, CC, MSL_SKIP, MSL_REASON_UNDER, 0);
	EXPECT_P(&walk, t, AA, MSL_RECLAIM, MSL_REASON_OVER, ID(AA));
	EXPECT_P(&walk, t, AA1, MSL_RECLAIM, MSL_REASON_ANCESTOR_OVER, ID(AA));
	EXPECT_P(&walk, t, AA2, MSL_RECLAIM, MSL_REASON_ANCESTOR_OVER, ID(AA));
	EXPECT_P(&walk, t, BB, MSL_SKIP, MSL_REASON_SIBLING_OVER, ID(BB));
	EXPECT_P(&walk, t, CC, MSL_SKIP, MSL_REASON_SIBLING_OVER, ID(CC));
}

/*
 * (b) A over, A1 over, A2 under.  walk stops at the top level: A is over,
 * so all of A's subtree, A2 included, goes; A1 only an ancestor_over.
 */
static void article_b_parent_and_child_over(void)
{
	struct case_node t[NR_ART];

	article(t, 150, 90, 40, 50, 50);
	EXPECT_P(&v8, t, AA1, MSL_RECLAIM, MSL_REASON_OVER, ID(AA1));
	EXPECT_P(&v8, t, AA2, MSL_RECLAIM, MSL_REASON_ANCESTOR_OVER, ID(AA));
	EXPECT_P(&v8, t, BB, MSL_SKIP, MSL_REASON_UNDER, 0);
	EXPECT_P(&walk, t, AA, MSL_RECLAIM, MSL_REASON_OVER, ID(AA));
	EXPECT_P(&walk, t, AA1, MSL_RECLAIM, MSL_REASON_ANCESTOR_OVER, ID(AA));
	EXPECT_P(&walk, t, AA2, MSL_RECLAIM, MSL_REASON_ANCESTOR_OVER, ID(AA));
	EXPECT_P(&walk, t, BB, MSL_SKIP, MSL_REASON_SIBLING_OVER, ID(BB));
}

/*
 * (c) A under with A1 over (A1's limit 40), B over: walk reclaims B only,
 * and does not descend into A; v8 reclaims A1 and B.
 */
static void article_c_child_over_under_parent_uncle_over(void)
{
	struct case_node t[NR_ART];

	article(t, 60, 50, 10, 150, 50);
	t[AA1].soft_limit = 40;
	EXPECT_P(&v8, t, AA, MSL_SKIP, MSL_REASON_UNDER, 0);
	EXPECT_P(&v8, t, AA1, MSL_RECLAIM, MSL_REASON_OVER, ID(AA1));
	EXPECT_P(&v8, t, AA2, MSL_SKIP, MSL_REASON_UNDER, 0);
	EXPECT_P(&v8, t, BB, MSL_RECLAIM, MSL_REASON_OVER, ID(BB));
	EXPECT_P(&v8, t, CC, MSL_SKIP, MSL_REASON_UNDER, 0);
	EXPECT_P(&walk, t, AA, MSL_SKIP, MSL_REASON_SIBLING_OVER, ID(AA));
	EXPECT_P(&walk, t, AA1, MSL_SKIP, MSL_REASON_SIBLING_OVER, ID(AA));
	EXPECT_P(&walk, t, AA2, MSL_SKIP, MSL_REASON_SIBLING_OVER, ID(AA));
	EXPECT_P(&walk, t, BB, MSL_RECLAIM, MSL_REASON_OVER, ID(BB));
	EXPECT_P(&walk, t, CC, MSL_SKIP, MSL_REASON_SIBLING_OVER, ID(CC));
}

/*
 * (d) A's limit (100) below its children's (80 + 80); A1 70 and A2 60 are
 * under theirs but A (130) is over: both policies reclaim A1 and A2.
 */
static void article_d_parent_limit_below_children(void)
{
	struct case_node t[NR_ART];

	article(t, 130, 70, 60, 50, 50);
	EXPECT_P(&v8, t, AA1, MSL_RECLAIM, MSL_REASON_ANCESTOR_OVER, ID(AA));
	EXPECT_P(&v8, t, AA2, MSL_RECLAIM, MSL_REASON_ANCESTOR_OVER, ID(AA));
	EXPECT_P(&v8, t, BB, MSL_SKIP, MSL_REASON_UNDER, 0);
	EXPECT_P(&walk, t, AA1, MSL_RECLAIM, MSL_REASON_ANCESTOR_OVER, ID(AA));
	EXPECT_P(&walk, t, AA2, MSL_RECLAIM, MSL_REASON_ANCESTOR_OVER, ID(AA));
	EXPECT_P(&walk, t, BB, MSL_SKIP, MSL_REASON_SIBLING_OVER, ID(BB));
	EXPECT_P(&walk, t, CC, MSL_SKIP, MSL_REASON_SIBLING_OVER, ID(CC));
}

/*
 * (e) Nobody over: walk reclaims everyone in proportion (none_over); v8
 * skips everyone, until its pass found nothing eligible (nothing_eligible).
 */
static void article_e_nothing_over(void)
{
	struct case_node t[NR_ART];
	struct msl_decision d;
	int i;

	article(t, 50, 20, 20, 50, 50);
	for (i = AA; i < NR_ART; i++) {
		EXPECT_P(&v8, t, i, MSL_SKIP, MSL_REASON_UNDER, 0);
		EXPECT_P(&walk, t, i, MSL_RECLAIM, MSL_REASON_NONE_OVER, 0);
		d = decide_with(&v8, t, i, MSL_KIND_KSWAPD, 12, true);
		CHECK(d.verdict == MSL_RECLAIM &&
		      d.reason == MSL_REASON_NOTHING_ELIGIBLE);
		/* walk never needs V8 2/2. */
		d = decide_with(&walk, t, i, MSL_KIND_KSWAPD, 12, true);
		CHECK(d.verdict == MSL_RECLAIM &&
		      d.reason == MSL_REASON_NONE_OVER);
	}
}

/* Unset limits count as 0 (unset_eligible=Y) or never over (N); max never. */
static void walk_unset_and_max(void)
{
	struct msl_params stock_walk = walk;
	struct case_node t[NR_ART];

	/* B unset and using memory: over under unset_eligible=Y. */
	article(t, 50, 20, 20, 50, 50);
	t[BB].src = MSL_LIMIT_UNSET;
	EXPECT_P(&walk, t, BB, MSL_RECLAIM, MSL_REASON_OVER, ID(BB));
	EXPECT_P(&walk, t, AA1, MSL_SKIP, MSL_REASON_SIBLING_OVER, ID(AA));
	EXPECT_P(&walk, t, CC, MSL_SKIP, MSL_REASON_SIBLING_OVER, ID(CC));
	stock_walk.unset_eligible = false;
	EXPECT_P(&stock_walk, t, BB, MSL_RECLAIM, MSL_REASON_NONE_OVER, 0);
	EXPECT_P(&stock_walk, t, AA1, MSL_RECLAIM, MSL_REASON_NONE_OVER, 0);
	/* An empty unset cgroup is not over 0. */
	t[BB].usage = 0;
	EXPECT_P(&walk, t, AA1, MSL_RECLAIM, MSL_REASON_NONE_OVER, 0);

	/* A max is never over: the walk descends to A1, which is. */
	article(t, 5000, 90, 20, 50, 50);
	t[AA].src = MSL_LIMIT_MAX;
	EXPECT_P(&walk, t, AA, MSL_RECLAIM, MSL_REASON_NONE_OVER, 0);
	EXPECT_P(&walk, t, AA1, MSL_RECLAIM, MSL_REASON_OVER, ID(AA1));
	EXPECT_P(&walk, t, AA2, MSL_SKIP, MSL_REASON_SIBLING_OVER, ID(AA2));
	EXPECT_P(&walk, t, BB, MSL_RECLAIM, MSL_REASON_NONE_OVER, 0);
	/* A max sibling never makes anyone skip. */
	t[AA1].src = MSL_LIMIT_MAX;
	EXPECT_P(&walk, t, AA2, MSL_RECLAIM, MSL_REASON_NONE_OVER, 0);
}

/* The early rules are the same for both policies. */
static void walk_keeps_the_early_rules(void)
{
	struct msl_params off = walk;
	struct msl_decision d;

	d = decide_with(&walk, case2, B, MSL_KIND_TARGETED, 12, false);
	CHECK(d.verdict == MSL_RECLAIM && d.reason == MSL_REASON_TARGETED);
	d = decide_with(&walk, case2, B, MSL_KIND_KSWAPD, 11, false);
	CHECK(d.verdict == MSL_RECLAIM && d.reason == MSL_REASON_PRIORITY);
	d = decide_with(&walk, case2, B, MSL_KIND_DIRECT, 0, false);
	CHECK(d.verdict == MSL_RECLAIM && d.reason == MSL_REASON_PRIORITY);
	d = decide_with(&walk, case2, ROOT, MSL_KIND_KSWAPD, 12, false);
	CHECK(d.verdict == MSL_RECLAIM && d.reason == MSL_REASON_ROOT);
	off.enabled = false;
	d = decide_with(&off, case2, B, MSL_KIND_KSWAPD, 12, false);
	CHECK(d.verdict == MSL_RECLAIM && d.reason == MSL_REASON_OFF);
	/* sibling_over is ignored by v8. */
	d = decide_with(&v8, case2, A2, MSL_KIND_KSWAPD, 12, false);
	CHECK(d.reason == MSL_REASON_ANCESTOR_OVER && d.levels == 2);
}

/*
 * excess: what the module keeps between steps, simulated with the same
 * pure helpers (hooks.c does this with atomics): the largest-excess word
 * and one credit per memcg.  @at is the memcg of the step being decided.
 */
/* Room for either tree: the article's (NR_ART) or the patch's. */
#define XN 8

struct xsim {
	u64 word;
	u64 now;
	u64 credit[XN];
	int at;
	bool untracked;
	unsigned int notes;
};

static bool xsim_note(void *arg, u64 id, u64 excess, struct msl_excess *out)
{
	struct xsim *x = arg;

	x->notes++;
	x->word = msl_excess_max_next(x->word, x->now, id, excess);
	if (!excess || x->untracked)
		return false;
	out->max = msl_excess_max_value(x->word, x->now);
	x->credit[x->at] += excess;
	out->credit = x->credit[x->at];
	return true;
}

static const struct msl_params excess = {
	.enabled = true,
	.priority_threshold = MSL_DEF_PRIORITY,
	.unset_eligible = true,
	.policy = MSL_POLICY_EXCESS,
};

static struct msl_decision decide_x(const struct msl_params *params,
				    const struct case_node *tree, int n,
				    int node, struct xsim *x)
{
	struct cursor c = { params, tree, n, node };
	struct msl_step step = {
		.kind = MSL_KIND_KSWAPD,
		.is_root = tree[node].parent < 0,
		.effective_priority = MSL_DEF_PRIORITY,
		.excess_note = xsim_note,
		.excess_arg = x,
	};
	struct msl_decision d;

	x->at = node;
	msl_decide(params, &step, next_level, &c, &d);
	return d;
}

/*
 * Rounds of first-pass steps, every memcg below the root once per round
 * in tree order (as shrink_node_memcgs() visits them): the reclaims of
 * each, and its decision at the last round.
 */
struct xrun {
	int reclaims[XN];
	int skips[XN];
	struct msl_decision last[XN];
};

static void rounds(const struct case_node *tree, int n, int nr_rounds,
		   struct xrun *r)
{
	struct xsim x = { 0 };
	int i, k;

	memset(r, 0, sizeof(*r));
	for (k = 0; k < nr_rounds; k++)
		for (i = 1; i < n; i++) {
			r->last[i] = decide_x(&excess, tree, n, i, &x);
			if (r->last[i].verdict == MSL_RECLAIM)
				r->reclaims[i]++;
			else
				r->skips[i]++;
		}
}

/* @node was reclaimed at @num/@den of @nr rounds, give or take one step. */
#define EXPECT_SHARE(r, node, num, den, nr) do {				int want_ = (int)((u64)(nr) * (num) / (den));				CHECK((r)->reclaims[node] >= want_ - 1 &&				      (r)->reclaims[node] <= want_ + 1);			} while (0)

/* The reason at the last round of a memcg that is always skipped or taken. */
#define EXPECT_LAST(r, node, verdict_, reason_, decider_) do {			CHECK((r)->last[node].verdict == (verdict_));				CHECK((r)->last[node].reason == (reason_));				CHECK((r)->last[node].decider_id == (decider_));		} while (0)

/* Exactly @excess of every @max consecutive steps, the first included. */
static void excess_share_is_error_diffusion(void)
{
	u64 credit = 0, e, m;
	int k, taken, run, longest;

	CHECK(msl_excess_share(6, 6, 7));	/* the first step reclaims */
	CHECK(!msl_excess_share(12, 6, 7));
	for (m = 1; m <= 12; m++)
		for (e = 1; e <= m; e++) {
			credit = 0;
			taken = 0;
			for (k = 0; k < (int)(10 * m); k++) {
				credit += e;
				taken += msl_excess_share(credit, e, m);
			}
			CHECK(taken == (int)(10 * e));
		}
	/* Spread, not bunched: 1 of 3 never skips twice in a row. */
	credit = 0;
	run = longest = 0;
	for (k = 0; k < 300; k++) {
		credit += 1;
		run = msl_excess_share(credit, 1, 3) ? 0 : run + 1;
		longest = run > longest ? run : longest;
	}
	CHECK(longest == 2);
	CHECK(!msl_excess_share(5, 0, 7));
	CHECK(msl_excess_share(5, 9, 7));
	/* The credit may wrap: still at most one step off. */
	credit = ~0ULL - 20;
	taken = 0;
	for (k = 0; k < 70; k++) {
		credit += 3;
		taken += msl_excess_share(credit, 3, 7);
	}
	CHECK(taken >= 29 && taken <= 31);
}

/* The largest-excess word: raised, followed down by its holder, decayed. */
static void excess_max_word(void)
{
	u64 w = 0;

	CHECK(msl_excess_max_value(0, 5) == 0);
	w = msl_excess_max_next(w, 100, 7, 1000);
	CHECK(msl_excess_max_value(w, 100) == 1000);
	/* A smaller excess of another leaves it; a larger one takes it. */
	CHECK(msl_excess_max_next(w, 100, 8, 999) == w);
	w = msl_excess_max_next(w, 100, 8, 1200);
	CHECK(msl_excess_max_value(w, 100) == 1200);
	/* Its holder's excess shrinks: the largest follows it down... */
	w = msl_excess_max_next(w, 100, 8, 900);
	CHECK(msl_excess_max_value(w, 100) == 900);
	/* ...and goes with it when it is no longer eligible. */
	CHECK(msl_excess_max_next(w, 100, 7, 0) == w);
	w = msl_excess_max_next(w, 100, 8, 0);
	CHECK(w == 0);
	/* Halved with every period nobody refreshed it. */
	w = msl_excess_max_next(0, 100, 7, 1000);
	CHECK(msl_excess_max_value(w, 101) == 500);
	CHECK(msl_excess_max_value(w, 103) == 125);
	CHECK(msl_excess_max_value(w, 100 + MSL_EXCESS_PAGES_BITS) == 0);
	/* So a vanished holder is replaced by a smaller, present excess. */
	CHECK(msl_excess_max_value(msl_excess_max_next(w, 102, 9, 300),
				   102) == 300);
	/* A refresh at the same period and value changes nothing. */
	CHECK(msl_excess_max_next(w, 100, 7, 1000) == w);
	/* The clock wraps with the period field. */
	w = msl_excess_max_next(0, (1ULL << MSL_EXCESS_PERIOD_BITS) - 1, 7, 64);
	CHECK(msl_excess_max_value(w, 1ULL << MSL_EXCESS_PERIOD_BITS) == 32);
	/* Excesses beyond the field saturate. */
	w = msl_excess_max_next(0, 1, 7, ~0ULL);
	CHECK(msl_excess_max_value(w, 1) == MSL_EXCESS_PAGES_MAX);
	/* Ids are told apart by their low bits only: a collision is benign. */
	w = msl_excess_max_next(0, 1, 7, 1000);
	w = msl_excess_max_next(w, 1, 7 + (1 << MSL_EXCESS_ID_BITS), 10);
	CHECK(msl_excess_max_value(w, 1) == 10);
}

/*
 * Case 1: only A1 is eligible (A is immune): excess 7 units, the largest,
 * so A1 is reclaimed at every step; A, A2 and B skipped (under): v8's
 * decisions exactly.
 */
static void excess_case1(void)
{
	struct xrun r;

	rounds(case1, NR_CASE_NODES, 70, &r);
	CHECK(r.reclaims[A1] == 70);
	EXPECT_LAST(&r, A1, MSL_RECLAIM, MSL_REASON_OVER, ID(A1));
	CHECK(r.last[A1].excess == 7 * UNIT);
	CHECK(r.last[A1].excess_max == 7 * UNIT);
	EXPECT_LAST(&r, A, MSL_SKIP, MSL_REASON_UNDER, 0);
	EXPECT_LAST(&r, A2, MSL_SKIP, MSL_REASON_UNDER, 0);
	EXPECT_LAST(&r, B, MSL_SKIP, MSL_REASON_UNDER, 0);
	CHECK(r.reclaims[A] == 0 && r.reclaims[A2] == 0 && r.reclaims[B] == 0);
}

/*
 * Case 2: A is over by 6 units, A1 by 7 (its own, the larger along its
 * path), A2 goes with A (6).  A1 at every step, A and A2 at 6 of 7, B
 * never; the skips of A and A2 are excess_share.
 */
static void excess_case2(void)
{
	struct xrun r;
	int k;

	rounds(case2, NR_CASE_NODES, 70, &r);
	CHECK(r.reclaims[A1] == 70);
	EXPECT_SHARE(&r, A, 6, 7, 70);
	EXPECT_SHARE(&r, A2, 6, 7, 70);
	CHECK(r.reclaims[B] == 0);
	CHECK(r.last[A1].reason == MSL_REASON_OVER);
	CHECK(r.last[A1].decider_id == ID(A1));
	CHECK(r.last[A2].decider_id == ID(A));
	CHECK(r.last[A2].excess == 6 * UNIT);
	CHECK(r.last[A2].excess_max == 7 * UNIT);
	EXPECT_LAST(&r, B, MSL_SKIP, MSL_REASON_UNDER, 0);
	/* Each of A's and A2's decisions says why. */
	for (k = 1; k <= 7; k++) {
		rounds(case2, NR_CASE_NODES, k, &r);
		CHECK(r.last[A2].reason == (r.last[A2].verdict == MSL_SKIP ?
			MSL_REASON_EXCESS_SHARE : MSL_REASON_ANCESTOR_OVER));
		CHECK(r.last[A].reason == (r.last[A].verdict == MSL_SKIP ?
			MSL_REASON_EXCESS_SHARE : MSL_REASON_OVER));
		CHECK(r.last[A2].decider_id == ID(A));
	}
	CHECK(r.skips[A] == 1 && r.skips[A2] == 1);
}

/*
 * The article's tree.  (a) A over by 50: A, A1 and A2 at every step with
 * A's excess; B, C skipped (under).  (b) A1 over by 10 inside A over by
 * 50: A1 goes with A, at every step.  (c) A1 over by 10, B by 50: B at
 * every step, A1 at 1 of 5; A, A2, C skipped.  (d) A's limit below its
 * children's: A over by 30 by its own limit, its subtree at every step;
 * with B over by 10 too, B at 1 of 3.  (e) nobody over: skipped (under),
 * then nothing_eligible, as v8.
 */
static void excess_article(void)
{
	struct case_node t[NR_ART];
	struct xsim x = { 0 };
	struct msl_decision d;
	struct xrun r;
	int i;

	article(t, 150, 70, 60, 50, 50);		/* (a) */
	rounds(t, NR_ART, 50, &r);
	CHECK(r.reclaims[AA] == 50 && r.reclaims[AA1] == 50 &&
	      r.reclaims[AA2] == 50);
	EXPECT_LAST(&r, AA, MSL_RECLAIM, MSL_REASON_OVER, ID(AA));
	EXPECT_LAST(&r, AA1, MSL_RECLAIM, MSL_REASON_ANCESTOR_OVER, ID(AA));
	EXPECT_LAST(&r, AA2, MSL_RECLAIM, MSL_REASON_ANCESTOR_OVER, ID(AA));
	EXPECT_LAST(&r, BB, MSL_SKIP, MSL_REASON_UNDER, 0);
	EXPECT_LAST(&r, CC, MSL_SKIP, MSL_REASON_UNDER, 0);

	article(t, 150, 90, 40, 50, 50);		/* (b) */
	rounds(t, NR_ART, 50, &r);
	CHECK(r.reclaims[AA] == 50 && r.reclaims[AA1] == 50 &&
	      r.reclaims[AA2] == 50);
	EXPECT_LAST(&r, AA1, MSL_RECLAIM, MSL_REASON_ANCESTOR_OVER, ID(AA));
	CHECK(r.last[AA1].excess == 50);
	EXPECT_LAST(&r, BB, MSL_SKIP, MSL_REASON_UNDER, 0);

	article(t, 60, 50, 10, 150, 50);		/* (c) */
	t[AA1].soft_limit = 40;
	rounds(t, NR_ART, 50, &r);
	CHECK(r.reclaims[BB] == 50);
	EXPECT_LAST(&r, BB, MSL_RECLAIM, MSL_REASON_OVER, ID(BB));
	/* A1 comes before B in the first round: it was the largest then. */
	EXPECT_SHARE(&r, AA1, 1, 5, 50);
	CHECK(r.skips[AA1] >= 39);
	CHECK(r.reclaims[AA] == 0 && r.reclaims[AA2] == 0 &&
	      r.reclaims[CC] == 0);
	EXPECT_LAST(&r, AA, MSL_SKIP, MSL_REASON_UNDER, 0);
	EXPECT_LAST(&r, AA2, MSL_SKIP, MSL_REASON_UNDER, 0);
	EXPECT_LAST(&r, CC, MSL_SKIP, MSL_REASON_UNDER, 0);
	for (i = 0; i < 5; i++) {
		x.at = 0;
		d = decide_x(&excess, t, NR_ART, AA1, &x);
		CHECK(d.decider_id == ID(AA1) && d.excess == 10);
		CHECK(d.reason == (d.verdict == MSL_SKIP ?
			MSL_REASON_EXCESS_SHARE : MSL_REASON_OVER));
	}

	article(t, 130, 70, 60, 50, 50);		/* (d) */
	rounds(t, NR_ART, 30, &r);
	CHECK(r.reclaims[AA] == 30 && r.reclaims[AA1] == 30 &&
	      r.reclaims[AA2] == 30);
	EXPECT_LAST(&r, AA1, MSL_RECLAIM, MSL_REASON_ANCESTOR_OVER, ID(AA));
	CHECK(r.last[AA1].excess == 30);
	EXPECT_LAST(&r, BB, MSL_SKIP, MSL_REASON_UNDER, 0);
	t[BB].usage = 110;
	rounds(t, NR_ART, 30, &r);
	CHECK(r.reclaims[AA1] == 30);
	EXPECT_SHARE(&r, BB, 1, 3, 30);

	article(t, 50, 20, 20, 50, 50);		/* (e) */
	rounds(t, NR_ART, 10, &r);
	for (i = AA; i < NR_ART; i++) {
		EXPECT_LAST(&r, i, MSL_SKIP, MSL_REASON_UNDER, 0);
		d = decide_with(&excess, t, i, MSL_KIND_KSWAPD, 12, true);
		CHECK(d.verdict == MSL_RECLAIM &&
		      d.reason == MSL_REASON_NOTHING_ELIGIBLE);
	}
}

/* A memcg without state, or no state at all: reclaimed as v8. */
static void excess_without_state_is_v8(void)
{
	struct xsim x = { 0 };
	struct msl_decision d;
	int k;

	x.untracked = true;
	for (k = 0; k < 14; k++) {
		d = decide_x(&excess, case2, NR_CASE_NODES, A1, &x);
		CHECK(d.verdict == MSL_RECLAIM);
		d = decide_x(&excess, case2, NR_CASE_NODES, A2, &x);
		CHECK(d.verdict == MSL_RECLAIM &&
		      d.reason == MSL_REASON_ANCESTOR_OVER);
		CHECK(d.excess == 6 * UNIT && d.excess_max == 0);
	}
	/* (the largest is kept all the same) */
	CHECK(msl_excess_max_value(x.word, 0) == 7 * UNIT);
	d = decide_with(&excess, case2, A2, MSL_KIND_KSWAPD, 12, false);
	CHECK(d.verdict == MSL_RECLAIM && d.decider_id == ID(A));
}

/* Unset counts as 0 (excess: the usage) or never over; max never. */
static void excess_unset_and_max(void)
{
	struct msl_params stock = excess;
	struct case_node t[NR_ART];
	struct xrun r;

	/* B unset with 50: the largest excess; A over by 10 gets 1 of 5. */
	article(t, 110, 20, 20, 50, 50);
	t[BB].src = MSL_LIMIT_UNSET;
	rounds(t, NR_ART, 50, &r);
	CHECK(r.reclaims[BB] == 50);
	EXPECT_SHARE(&r, AA, 1, 5, 50);
	CHECK(r.last[BB].excess == 50);
	/* Stock meaning: B never over, A the largest. */
	stock.unset_eligible = false;
	CHECK(decide_with(&stock, t, BB, MSL_KIND_KSWAPD, 12,
			  false).reason == MSL_REASON_UNDER);
	/* A max is never over: its children go by their own excess. */
	article(t, 5000, 90, 20, 50, 50);
	t[AA].src = MSL_LIMIT_MAX;
	rounds(t, NR_ART, 10, &r);
	CHECK(r.reclaims[AA1] == 10 && r.reclaims[AA] == 0);
	EXPECT_LAST(&r, AA1, MSL_RECLAIM, MSL_REASON_OVER, ID(AA1));
}

/* The early rules are the same; the state is not touched by them. */
static void excess_keeps_the_early_rules(void)
{
	struct xsim x = { 0 };
	struct cursor c = { &excess, case2, NR_CASE_NODES, B };
	struct msl_step step = {
		.kind = MSL_KIND_TARGETED,
		.effective_priority = MSL_DEF_PRIORITY,
		.excess_note = xsim_note,
		.excess_arg = &x,
	};
	struct msl_params off = excess;
	struct msl_decision d;

	msl_decide(&excess, &step, next_level, &c, &d);
	CHECK(d.reason == MSL_REASON_TARGETED);
	step.kind = MSL_KIND_KSWAPD;
	step.effective_priority = 11;
	msl_decide(&excess, &step, next_level, &c, &d);
	CHECK(d.reason == MSL_REASON_PRIORITY);
	step.effective_priority = 0;
	step.last_pass = true;
	msl_decide(&excess, &step, next_level, &c, &d);
	CHECK(d.reason == MSL_REASON_PRIORITY);
	step.effective_priority = MSL_DEF_PRIORITY;
	step.last_pass = false;
	step.is_root = true;
	c.at = ROOT;
	msl_decide(&excess, &step, next_level, &c, &d);
	CHECK(d.reason == MSL_REASON_ROOT);
	off.enabled = false;
	msl_decide(&off, &step, next_level, &c, &d);
	CHECK(d.reason == MSL_REASON_OFF);
	CHECK(x.notes == 0);
	/* v8 and walk never call it. */
	step.is_root = false;
	c.at = A2;
	msl_decide(&v8, &step, next_level, &c, &d);
	c.at = A2;
	msl_decide(&walk, &step, next_level, &c, &d);
	CHECK(x.notes == 0);
}

static void policy_names_parse(void)
{
	CHECK(!strcmp(msl_policy_name(MSL_POLICY_V8), "v8"));
	CHECK(!strcmp(msl_policy_name(MSL_POLICY_WALK), "walk"));
	CHECK(!strcmp(msl_policy_name(MSL_NR_POLICIES), "?"));
	CHECK(msl_policy_parse("v8") == MSL_POLICY_V8);
	CHECK(msl_policy_parse("walk\n") == MSL_POLICY_WALK);
	CHECK(msl_policy_parse(" \twalk\t\n") == MSL_POLICY_WALK);
	CHECK(msl_policy_parse("excess") == MSL_POLICY_EXCESS);
	CHECK(!strcmp(msl_policy_name(MSL_POLICY_EXCESS), "excess"));
	CHECK(msl_policy_parse("excessive") == -1);
	CHECK(msl_policy_parse("") == -1);
	CHECK(msl_policy_parse("\n") == -1);
	CHECK(msl_policy_parse("wal") == -1);
	CHECK(msl_policy_parse("walks") == -1);
	CHECK(msl_policy_parse("w alk") == -1);
	CHECK(msl_policy_parse("V8") == -1);
	CHECK(msl_word_is("excess\n", "excess"));
	CHECK(!strcmp(msl_reason_name(MSL_REASON_SIBLING_OVER),
		      "sibling_over"));
	CHECK(!strcmp(msl_reason_name(MSL_REASON_NONE_OVER), "none_over"));
	CHECK(msl_reason_skips(MSL_REASON_UNDER));
	CHECK(msl_reason_skips(MSL_REASON_SIBLING_OVER));
	CHECK(!msl_reason_skips(MSL_REASON_NONE_OVER));
	CHECK(!msl_reason_skips(MSL_REASON_NOTHING_ELIGIBLE));
	CHECK(msl_reason_skips(MSL_REASON_EXCESS_SHARE));
	CHECK(!strcmp(msl_reason_name(MSL_REASON_EXCESS_SHARE),
		      "excess_share"));
	/* Appended: the numbers of the older reasons did not move. */
	CHECK(MSL_REASON_NONE_OVER == 9 && MSL_REASON_EXCESS_SHARE == 10);
}

static void names_match_the_enums(void)
{
	CHECK(!strcmp(msl_reason_name(MSL_REASON_ANCESTOR_OVER),
		      "ancestor_over"));
	CHECK(!strcmp(msl_kind_name(MSL_KIND_KSWAPD), "kswapd"));
	CHECK(!strcmp(msl_verdict_name(MSL_SKIP), "skip"));
	CHECK(!strcmp(msl_limit_src_name(MSL_LIMIT_MAX), "max"));
	CHECK(!strcmp(msl_reason_name(MSL_NR_REASONS), "?"));
}

int main(void)
{
	RUN("policy", case1_first_pass_reclaims_only_A1);
	RUN("policy", case2_overlimit_parent_exposes_A2);
	RUN("policy", lower_priorities_skip_nobody);
	RUN("policy", threshold_widens_the_skip);
	RUN("policy", targeted_and_off_are_untouched);
	RUN("policy", unset_semantics);
	RUN("policy", limit_boundary_is_strict);
	RUN("policy", nothing_eligible_reclaims_instead_of_skipping);
	RUN("policy", names_match_the_enums);
	RUN("policy", walk_case1);
	RUN("policy", walk_case2);
	RUN("policy", article_a_parent_over);
	RUN("policy", article_b_parent_and_child_over);
	RUN("policy", article_c_child_over_under_parent_uncle_over);
	RUN("policy", article_d_parent_limit_below_children);
	RUN("policy", article_e_nothing_over);
	RUN("policy", walk_unset_and_max);
	RUN("policy", walk_keeps_the_early_rules);
	RUN("policy", excess_share_is_error_diffusion);
	RUN("policy", excess_max_word);
	RUN("policy", excess_case1);
	RUN("policy", excess_case2);
	RUN("policy", excess_article);
	RUN("policy", excess_without_state_is_v8);
	RUN("policy", excess_unset_and_max);
	RUN("policy", excess_keeps_the_early_rules);
	RUN("policy", policy_names_parse);
	return 0;
}
