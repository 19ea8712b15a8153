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

static void policy_names_parse(void)
{
	CHECK(!strcmp(msl_policy_name(MSL_POLICY_V8), "v8"));
	CHECK(!strcmp(msl_policy_name(MSL_POLICY_WALK), "walk"));
	CHECK(!strcmp(msl_policy_name(MSL_NR_POLICIES), "?"));
	CHECK(msl_policy_parse("v8") == MSL_POLICY_V8);
	CHECK(msl_policy_parse("walk\n") == MSL_POLICY_WALK);
	CHECK(msl_policy_parse(" \twalk\t\n") == MSL_POLICY_WALK);
	CHECK(msl_policy_parse("excess") == -1);
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
	RUN("policy", policy_names_parse);
	return 0;
}
