// SPDX-License-Identifier: GPL-2.0
/*
 * `memcg-softlimit explain` on the patch's two cases (cases.h): the tool
 * runs lib/policy.c on the chain it reads, so its verdicts must be the
 * ones test_policy.c expects of the module, and what it prints must say so.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "../../tools/explain.h"
#include "cases.h"
#include "unit.h"

static const char *const names[NR_CASE_NODES] = {
	[ROOT] = "/", [A] = "/A", [A1] = "/A/A1", [A2] = "/A/A2", [B] = "/B",
};

static const struct msl_params v8 = {
	.enabled = true,
	.priority_threshold = MSL_DEF_PRIORITY,
	.unset = MSL_UNSET_ZERO,
};

/* The chain `explain` builds: the cgroup, then its ancestors below root. */
static void chain_of(const struct case_node *tree, int node,
		     struct msl_chain *c)
{
	memset(c, 0, sizeof(*c));
	c->is_root = tree[node].parent < 0;
	for (; node >= 0 && tree[node].parent >= 0; node = tree[node].parent) {
		struct msl_level *l = &c->level[c->n];

		l->cgroup_id = (u64)node + 100;
		l->usage = tree[node].usage;
		l->soft_limit = tree[node].soft_limit;
		l->src = tree[node].src;
		c->path[c->n++] = names[node];
	}
}

static struct msl_chain chain;
static struct msl_explain_row rows[MSL_DEF_PRIORITY + 1];

static void explain(const struct msl_params *p, const struct case_node *tree,
		    int node)
{
	chain_of(tree, node, &chain);
	msl_explain(p, MSL_KIND_KSWAPD, &chain, rows);
}

/* rows[0] is priority 12, the first pass; every later one reclaims. */
#define EXPECT_FIRST(tree, node, verdict_, reason_, decider) do {	\
	int i_;								\
	explain(&v8, tree, node);					\
	CHECK(rows[0].priority == 12);					\
	CHECK(rows[0].d.verdict == (verdict_));				\
	CHECK(rows[0].d.reason == (reason_));				\
	CHECK(rows[0].d.decider_id == (u64)(decider));			\
	for (i_ = 1; i_ <= MSL_DEF_PRIORITY; i_++) {			\
		CHECK(rows[i_].priority == 12 - i_);			\
		CHECK(rows[i_].d.verdict == MSL_RECLAIM);		\
		CHECK(rows[i_].d.reason == (node == ROOT ?		\
			MSL_REASON_ROOT : MSL_REASON_PRIORITY));	\
	}								\
} while (0)

static void case1_explains_only_A1_reclaimed(void)
{
	EXPECT_FIRST(case1, ROOT, MSL_RECLAIM, MSL_REASON_ROOT, 0);
	EXPECT_FIRST(case1, A, MSL_SKIP, MSL_REASON_UNDER, 0);
	EXPECT_FIRST(case1, A1, MSL_RECLAIM, MSL_REASON_OVER, A1 + 100);
	EXPECT_FIRST(case1, A2, MSL_SKIP, MSL_REASON_UNDER, 0);
	EXPECT_FIRST(case1, B, MSL_SKIP, MSL_REASON_UNDER, 0);
	explain(&v8, case1, A2);
	CHECK(chain.n == 2);			/* A2, A; never the root */
	CHECK(rows[0].d.levels == 2);
}

static void case2_explains_A2_through_its_parent(void)
{
	EXPECT_FIRST(case2, A, MSL_RECLAIM, MSL_REASON_OVER, A + 100);
	EXPECT_FIRST(case2, A1, MSL_RECLAIM, MSL_REASON_OVER, A1 + 100);
	EXPECT_FIRST(case2, A2, MSL_RECLAIM, MSL_REASON_ANCESTOR_OVER, A + 100);
	EXPECT_FIRST(case2, B, MSL_SKIP, MSL_REASON_UNDER, 0);
}

static char *print(const struct msl_params *p, bool mglru)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	msl_explain_print(f, p, MSL_KIND_KSWAPD, &chain, rows, mglru, 4096);
	fclose(f);
	return buf;
}

/* The printed line of one priority: "  12      6..12    skip  under ..." */
static char *line_of(char *text, int prio)
{
	char want[16], *l;

	snprintf(want, sizeof(want), "\n%4d ", prio);
	l = strstr(text, want);
	return l ? l + 1 : NULL;
}

static bool line_has(char *text, int prio, const char *what)
{
	char *l = line_of(text, prio), *e;
	bool found;

	if (!l)
		return false;
	e = strchr(l, '\n');
	if (e)
		*e = '\0';
	found = strstr(l, what) != NULL;
	if (e)
		*e = '\n';
	return found;
}

static void printed_rules_name_the_decider(void)
{
	char *out;

	explain(&v8, case2, A2);
	out = print(&v8, true);
	CHECK(line_has(out, 12, "reclaim"));
	CHECK(line_has(out, 12, "ancestor_over"));
	CHECK(line_has(out, 12, "ancestor /A is over its soft limit"));
	CHECK(line_has(out, 11, "below_threshold"));
	CHECK(line_has(out, 11, "effective priority 11 < priority_threshold 12"));
	/* The chain, with sizes in bytes: A2 5 units = 1280 pages = 5M. */
	CHECK(strstr(out, "5M") != NULL);
	CHECK(strstr(out, "/A/A2") != NULL);
	/* How MGLRU's sc->priority maps to the effective one. */
	CHECK(line_has(out, 12, "6..12"));
	CHECK(line_has(out, 5, "0..5"));
	CHECK(strstr(out, "MGLRU is on here.") != NULL);
	free(out);

	explain(&v8, case1, B);
	out = print(&v8, false);
	CHECK(line_has(out, 12, "skip"));
	CHECK(line_has(out, 12, "under"));
	CHECK(line_has(out, 12, "(1 level read)"));
	/* The V8 2/2 escape is mentioned where a skip could become reclaim. */
	CHECK(strstr(out, "nothing_eligible") != NULL);
	CHECK(strstr(out, "MGLRU is off here.") != NULL);
	free(out);
}

static void parameters_change_the_explanation(void)
{
	struct msl_params p = v8;
	char *out;

	/* A threshold of 10 widens the skip to priorities 12..10. */
	p.priority_threshold = 10;
	explain(&p, case1, B);
	CHECK(rows[0].d.verdict == MSL_SKIP);
	CHECK(rows[2].priority == 10 && rows[2].d.verdict == MSL_SKIP);
	CHECK(rows[3].priority == 9 && rows[3].d.reason == MSL_REASON_PRIORITY);
	out = print(&p, false);
	CHECK(line_has(out, 9, "< priority_threshold 10"));
	free(out);

	/* A threshold of 0 skips down to 1; priority 0 is never gated. */
	p.priority_threshold = 0;
	explain(&p, case1, B);
	CHECK(rows[11].priority == 1 && rows[11].d.verdict == MSL_SKIP);
	CHECK(rows[12].priority == 0 && rows[12].d.reason == MSL_REASON_PRIORITY);
	out = print(&p, false);
	CHECK(line_has(out, 0, "last pass, is never gated"));
	free(out);

	/* Off: every priority reclaims as stock. */
	p = v8;
	p.enabled = false;
	explain(&p, case1, B);
	CHECK(rows[0].d.verdict == MSL_RECLAIM &&
	      rows[0].d.reason == MSL_REASON_OFF);
	out = print(&p, false);
	CHECK(line_has(out, 12, "policy is off"));
	free(out);

	/* Stock unset semantics: an unset parent is never over. */
	p = v8;
	p.unset = MSL_UNSET_MAX;
	explain(&p, case1, A2);
	CHECK(rows[0].d.verdict == MSL_SKIP);
}

static void unset_limit_is_named_as_such(void)
{
	char *out;

	memset(&chain, 0, sizeof(chain));
	chain.level[0] = (struct msl_level){ 102, 50, 80, MSL_LIMIT_SET, false };
	chain.path[0] = "/P/C";
	chain.level[1] = (struct msl_level){ 101, 50, 0, MSL_LIMIT_UNSET, false };
	chain.path[1] = "/P";
	chain.n = 2;
	msl_explain(&v8, MSL_KIND_DIRECT, &chain, rows);
	CHECK(rows[0].d.reason == MSL_REASON_ANCESTOR_OVER);
	CHECK(rows[0].d.decider_id == 101);
	out = print(&v8, false);
	CHECK(line_has(out, 12, "ancestor /P has no soft limit, which counts as 0"));
	free(out);
}

static void targeted_is_never_gated(void)
{
	explain(&v8, case1, B);
	msl_explain(&v8, MSL_KIND_TARGETED, &chain, rows);
	CHECK(rows[0].d.verdict == MSL_RECLAIM &&
	      rows[0].d.reason == MSL_REASON_TARGETED);
	CHECK(rows[0].d.levels == 0);
}

/* walk: case 1's A2 is under, its sibling A1 over; B has no one over. */
static void walk_explains_sibling_over(void)
{
	struct msl_params walk = v8;
	char *out;

	walk.policy = MSL_POLICY_WALK;
	explain(&walk, case1, A2);
	chain.level[0].sibling_over = true;	/* A1 */
	msl_explain(&walk, MSL_KIND_KSWAPD, &chain, rows);
	CHECK(rows[0].d.verdict == MSL_SKIP &&
	      rows[0].d.reason == MSL_REASON_SIBLING_OVER);
	CHECK(rows[0].d.decider_id == A2 + 100);
	out = print(&walk, false);
	CHECK(strstr(out, "policy: walk,") != NULL);
	CHECK(strstr(out, "SIBLING_OVER") != NULL);
	CHECK(line_has(out, 12, "walk: /A/A2 is under its soft limit and a sibling of it is over"));
	free(out);
	explain(&walk, case1, B);
	CHECK(rows[0].d.verdict == MSL_RECLAIM &&
	      rows[0].d.reason == MSL_REASON_NONE_OVER);
	out = print(&walk, false);
	CHECK(line_has(out, 12, "none_over"));
	free(out);
	out = print(&v8, false);
	CHECK(strstr(out, "policy: v8,") != NULL);
	CHECK(strstr(out, "SIBLING_OVER") == NULL);
	free(out);
}

/*
 * excess on case 2: A over by 6 units, A1 by 7 (the largest), A2 with A.
 * explain says which level sets the pressure and how often it reclaims.
 */
static void excess_explains_the_share(void)
{
	struct msl_params excess = v8;
	char *out;

	excess.policy = MSL_POLICY_EXCESS;
	CHECK(msl_excess_percent(0, 7) == 0);
	CHECK(msl_excess_percent(6, 7) == 85);
	CHECK(msl_excess_percent(7, 7) == 100);
	CHECK(msl_excess_percent(9, 7) == 100);
	CHECK(msl_excess_percent(1, 1000) == 1);

	explain(&excess, case2, A2);
	CHECK(rows[0].d.verdict == MSL_RECLAIM &&
	      rows[0].d.reason == MSL_REASON_ANCESTOR_OVER);
	CHECK(rows[0].d.decider_id == A + 100);
	CHECK(rows[0].d.excess == 6 * UNIT);
	chain.excess_max = 7 * UNIT;
	chain.excess_max_path = "/A/A1";
	out = print(&excess, false);
	CHECK(strstr(out, "policy: excess,") != NULL);
	CHECK(strstr(out, "EXCESS") != NULL);
	/* A's excess, 6 units = 1536 pages = 6M, and the largest, 7M. */
	CHECK(strstr(out, "6M") != NULL);
	CHECK(strstr(out, "largest excess now: 7M (/A/A1)") != NULL);
	CHECK(line_has(out, 12, "ancestor /A is over its soft limit (the largest excess along the path), by 85% of the largest excess now (/A/A1)"));
	CHECK(line_has(out, 12, "skipped (excess_share) at the others"));
	CHECK(line_has(out, 11, "below_threshold"));
	free(out);

	explain(&excess, case2, A1);
	CHECK(rows[0].d.reason == MSL_REASON_OVER &&
	      rows[0].d.decider_id == A1 + 100);
	chain.excess_max = 7 * UNIT;
	chain.excess_max_path = "/A/A1";
	out = print(&excess, false);
	CHECK(line_has(out, 12, "A1 is over its soft limit, the largest excess now: reclaimed at every first-pass step"));
	free(out);

	/* A tiny excess against a large one. */
	explain(&excess, case2, A);
	chain.excess_max = 1000 * 6 * UNIT;
	chain.excess_max_path = "/Z";
	out = print(&excess, false);
	CHECK(line_has(out, 12, "by <1% of the largest excess now (/Z)"));
	free(out);

	/* Under: as v8. */
	explain(&excess, case2, B);
	CHECK(rows[0].d.verdict == MSL_SKIP &&
	      rows[0].d.reason == MSL_REASON_UNDER);
	out = print(&excess, false);
	CHECK(strstr(out, "largest excess now: none") != NULL);
	free(out);
	/* v8 shows no EXCESS column. */
	explain(&v8, case2, A2);
	out = print(&v8, false);
	CHECK(strstr(out, "EXCESS") == NULL);
	free(out);
}

/* The one line an operator reads first, with the headroom that decides. */
static void verdict_says_why_and_how_far(void)
{
	struct msl_params progress = v8;
	char v[512];

	explain(&v8, case2, A2);
	msl_answer_verdict(&v8, &chain, rows, 4096, v, sizeof(v));
	CHECK(strstr(v, "reclaimed first with /A, which is over its soft limit; ") == v);
	CHECK(strstr(v, " over") != NULL);
	explain(&v8, case1, A1);
	msl_answer_verdict(&v8, &chain, rows, 4096, v, sizeof(v));
	CHECK(strstr(v, "reclaimed first: over its soft limit; ") == v);
	explain(&v8, case1, B);
	msl_answer_verdict(&v8, &chain, rows, 4096, v, sizeof(v));
	CHECK(strstr(v, "spared while other cgroups can give reclaim what it asks for (under); /B ") == v);
	CHECK(strstr(v, "headroom") != NULL);
	CHECK(strstr(v, "retry") == NULL);	/* the priority gate: no retry */
	progress.priority_threshold = MSL_THRESHOLD_AUTO;
	explain(&progress, case1, B);
	msl_answer_verdict(&progress, &chain, rows, 4096, v, sizeof(v));
	CHECK(strstr(v, "reclaimed too once they have nothing left (retry)") != NULL);
	explain(&v8, case1, ROOT);
	msl_answer_verdict(&v8, &chain, rows, 4096, v, sizeof(v));
	CHECK(strstr(v, "always reclaimed") == v);
}

int main(void)
{
	RUN("tool_explain", case1_explains_only_A1_reclaimed);
	RUN("tool_explain", case2_explains_A2_through_its_parent);
	RUN("tool_explain", printed_rules_name_the_decider);
	RUN("tool_explain", parameters_change_the_explanation);
	RUN("tool_explain", unset_limit_is_named_as_such);
	RUN("tool_explain", targeted_is_never_gated);
	RUN("tool_explain", walk_explains_sibling_over);
	RUN("tool_explain", excess_explains_the_share);
	RUN("tool_explain", verdict_says_why_and_how_far);
	return 0;
}
