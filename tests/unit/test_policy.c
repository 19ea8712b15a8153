// SPDX-License-Identifier: GPL-2.0
/* Unit tests of module/policy.c, built for userspace from the same source. */
#include <memcg_softlimit/policy.h>

#include "cases.h"
#include <string.h>

#include "unit.h"

struct cursor {
	const struct case_node *tree;
	int at;
};

static bool next_level(void *opaque, struct msl_level *level)
{
	struct cursor *c = opaque;
	const struct case_node *n;

	if (c->at < 0 || c->tree[c->at].parent < 0)
		return false;
	n = &c->tree[c->at];
	level->cgroup_id = (u64)c->at + 100;
	level->usage = n->usage;
	level->soft_limit = n->soft_limit;
	level->src = n->src;
	c->at = n->parent;
	return true;
}

static const struct msl_params v8 = {
	.enabled = true,
	.priority_threshold = MSL_DEF_PRIORITY,
	.unset_eligible = true,
};

static struct msl_decision decide_with(const struct msl_params *params,
				       const struct case_node *tree, int node,
				       enum msl_kind kind, int priority,
				       bool nothing_eligible)
{
	struct cursor c = { tree, node };
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

static struct msl_decision decide(const struct case_node *tree, int node,
				  int priority)
{
	return decide_with(&v8, tree, node, MSL_KIND_KSWAPD, priority, false);
}

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
	return 0;
}
