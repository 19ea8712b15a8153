// SPDX-License-Identifier: GPL-2.0
/* Unit tests of lib/policy.c, built for userspace from the same source. */
#include <linux/kernel.h>
#include <memcg_softlimit/policy.h>

#include "cases.h"
#include <string.h>

#include "unit.h"

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

/* The patch's rule as written: the first pass only, unset is 0. */
static const struct msl_params v8 = {
	.enabled = true,
	.priority_threshold = MSL_DEF_PRIORITY,
	.unset = MSL_UNSET_ZERO,
	.policy = MSL_POLICY_V8,
};

/* What modprobe gives: the progress gate, unset limits inherited. */
static const struct msl_params dflt = {
	.enabled = true,
	.priority_threshold = MSL_THRESHOLD_AUTO,
	.unset = MSL_UNSET_INHERIT,
	.policy = MSL_POLICY_V8,
};

static const struct msl_params walk = {
	.enabled = true,
	.priority_threshold = MSL_DEF_PRIORITY,
	.unset = MSL_UNSET_ZERO,
	.policy = MSL_POLICY_WALK,
};

static const struct msl_params stock_unset = {
	.enabled = true,
	.priority_threshold = MSL_DEF_PRIORITY,
	.unset = MSL_UNSET_MAX,
	.policy = MSL_POLICY_V8,
};

static const struct msl_params stock_walk = {
	.enabled = true,
	.priority_threshold = MSL_DEF_PRIORITY,
	.unset = MSL_UNSET_MAX,
	.policy = MSL_POLICY_WALK,
};

static const struct msl_params threshold6 = {
	.enabled = true,
	.priority_threshold = 6,
	.unset = MSL_UNSET_ZERO,
	.policy = MSL_POLICY_V8,
};

static const struct msl_params off = {
	.enabled = false,
	.priority_threshold = MSL_THRESHOLD_AUTO,
	.unset = MSL_UNSET_INHERIT,
	.policy = MSL_POLICY_V8,
};

/* A step's circumstances besides its memcg: the gates' inputs. */
enum {
	F_RETRY = 1 << 0,		/* the reclaimer's retry */
	F_NONE = 1 << 1,		/* nothing is eligible (V8 2/2) */
	F_SPELL = 1 << 2,		/* the node is in a dry spell */
	F_DEEP = 1 << 3,		/* below the depth bound */
	F_DYING = 1 << 4,		/* the memcg was removed */
};

static struct msl_decision decide_n(const struct msl_params *params,
				    const struct case_node *tree, int n,
				    int node, enum msl_kind kind, int priority,
				    unsigned int flags)
{
	struct cursor c = { params, tree, n, node };
	struct msl_step step = {
		.kind = kind,
		.is_root = tree[node].parent < 0,
		.effective_priority = priority,
		.last_pass = priority == 0,
		.retry = flags & F_RETRY,
		.nothing_eligible = flags & F_NONE,
		.dry_spell = flags & F_SPELL,
		.below_floor = flags & F_DEEP,
		.dying = flags & F_DYING,
	};
	struct msl_decision d;

	msl_decide(params, &step, next_level, &c, &d);
	return d;
}

#define decide_with(params, tree, node, kind, prio, flags)		\
	decide_n(params, tree, ARRAY_SIZE(tree), node, kind, prio, flags)
#define ID(node) ((u64)(node) + 100)

/*
 * The KS2012 article's tree: A (children A1, A2), B and C under the root.
 * Soft limits: A 100, A1 80, A2 80, B 100, C 100 pages unless a case says.
 */
enum { R, AA, AA1, AA2, BB, CC, NR_ART };

#define ARTICLE(a, a1, a2, b, c, a1_limit, b_src)			\
	{								\
		[R] = { "root", -1, 1000, MSL_LIMIT_UNSET, 0 },	\
		[AA] = { "A", R, a, MSL_LIMIT_SET, 100 },		\
		[AA1] = { "A1", AA, a1, MSL_LIMIT_SET, a1_limit },	\
		[AA2] = { "A2", AA, a2, MSL_LIMIT_SET, 80 },		\
		[BB] = { "B", R, b, b_src, 100 },			\
		[CC] = { "C", R, c, MSL_LIMIT_SET, 100 },		\
	}

/* (a) A over, A1 and A2 under. */
static const struct case_node art_a[NR_ART] =
	ARTICLE(150, 70, 60, 50, 50, 80, MSL_LIMIT_SET);
/* (b) A over, A1 over, A2 under. */
static const struct case_node art_b[NR_ART] =
	ARTICLE(150, 90, 40, 50, 50, 80, MSL_LIMIT_SET);
/* (c) A under with A1 over (its limit 40), B over. */
static const struct case_node art_c[NR_ART] =
	ARTICLE(60, 50, 10, 150, 50, 40, MSL_LIMIT_SET);
/* (d) A's limit below its children's: A1, A2 under theirs, A over. */
static const struct case_node art_d[NR_ART] =
	ARTICLE(130, 70, 60, 50, 50, 80, MSL_LIMIT_SET);
/* (e) nobody over. */
static const struct case_node art_e[NR_ART] =
	ARTICLE(50, 20, 20, 50, 50, 80, MSL_LIMIT_SET);
/* (e) with B unset and using memory. */
static const struct case_node art_e_unset_b[NR_ART] =
	ARTICLE(50, 20, 20, 50, 50, 80, MSL_LIMIT_UNSET);
/* (e) with B unset and empty. */
static const struct case_node art_e_empty_b[NR_ART] =
	ARTICLE(50, 20, 20, 0, 50, 80, MSL_LIMIT_UNSET);

/* A copy to change: article(t, a, a1, a2, b, c). */
static void article(struct case_node t[NR_ART], u64 a, u64 a1, u64 a2,
		    u64 b, u64 c)
{
	const struct case_node base[NR_ART] =
		ARTICLE(a, a1, a2, b, c, 80, MSL_LIMIT_SET);

	memcpy(t, base, sizeof(base));
}

/* A max at the top (A), A1 over, A2 under; a max sibling (A1) in _2. */
static const struct case_node art_max[NR_ART] = {
	[R] = { "root", -1, 6000, MSL_LIMIT_UNSET, 0 },
	[AA] = { "A", R, 5000, MSL_LIMIT_MAX, 0 },
	[AA1] = { "A1", AA, 90, MSL_LIMIT_SET, 80 },
	[AA2] = { "A2", AA, 20, MSL_LIMIT_SET, 80 },
	[BB] = { "B", R, 50, MSL_LIMIT_SET, 100 },
	[CC] = { "C", R, 50, MSL_LIMIT_SET, 100 },
};

static const struct case_node art_max_2[NR_ART] = {
	[R] = { "root", -1, 6000, MSL_LIMIT_UNSET, 0 },
	[AA] = { "A", R, 5000, MSL_LIMIT_MAX, 0 },
	[AA1] = { "A1", AA, 90, MSL_LIMIT_MAX, 0 },
	[AA2] = { "A2", AA, 20, MSL_LIMIT_SET, 80 },
	[BB] = { "B", R, 50, MSL_LIMIT_SET, 100 },
	[CC] = { "C", R, 50, MSL_LIMIT_SET, 100 },
};

/*
 * A host as systemd and container runtimes lay it out: a limit on the
 * slice (SL), none on its services (S1, S2) and one (S3) with its own;
 * the streamer (ST) and a slice of its own (OT) with no limit anywhere.
 */
enum { H_ROOT, SL, S1, S2, S3, S3C, ST, OT, OTC, NR_HOST };

#define HOST(sl_usage, s3_usage)					\
	{								\
		[H_ROOT] = { "root", -1, 5000, MSL_LIMIT_UNSET, 0 },	\
		[SL] = { "system.slice", H_ROOT, sl_usage, MSL_LIMIT_SET, 400 }, \
		[S1] = { "a.service", SL, 100, MSL_LIMIT_UNSET, 0 },	\
		[S2] = { "b.service", SL, 100, MSL_LIMIT_UNSET, 0 },	\
		[S3] = { "c.service", SL, s3_usage, MSL_LIMIT_SET, 150 }, \
		[S3C] = { "c.service/x", S3, 40, MSL_LIMIT_UNSET, 0 },	\
		[ST] = { "stream.scope", H_ROOT, 900, MSL_LIMIT_UNSET, 0 }, \
		[OT] = { "other.slice", H_ROOT, 300, MSL_LIMIT_UNSET, 0 }, \
		[OTC] = { "d.service", OT, 300, MSL_LIMIT_SET, 500 },	\
	}

/* The slice under its limit, c.service too. */
static const struct case_node host_under[NR_HOST] = HOST(300, 100);
/* The slice over its limit. */
static const struct case_node host_slice_over[NR_HOST] = HOST(500, 100);
/* c.service over its own limit, the slice under. */
static const struct case_node host_leaf_over[NR_HOST] = HOST(350, 200);

struct row {
	const char *what;
	const struct case_node *tree;
	int n;
	const struct msl_params *params;
	int node;
	enum msl_kind kind;
	int priority;
	unsigned int flags;
	enum msl_verdict verdict;
	enum msl_reason reason;
	int decider;		/* a node, or -1: none */
};

#define T(tree) tree, ARRAY_SIZE(tree)
#define KS MSL_KIND_KSWAPD
#define DR MSL_KIND_DIRECT
#define RE MSL_RECLAIM
#define SK MSL_SKIP
#define P(reason) MSL_REASON_##reason

static const struct row rows[] = {
	/* The patch's case 1 at its first pass: A1 only. */
	{ "case1", T(case1), &v8, ROOT, KS, 12, 0, RE, P(ROOT), -1 },
	{ "case1", T(case1), &v8, A, KS, 12, 0, SK, P(UNDER), -1 },
	{ "case1", T(case1), &v8, A1, KS, 12, 0, RE, P(OVER), A1 },
	{ "case1", T(case1), &v8, A2, KS, 12, 0, SK, P(UNDER), -1 },
	{ "case1", T(case1), &v8, B, KS, 12, 0, SK, P(UNDER), -1 },
	/* Case 2: A over, so A2 goes too; B spared. */
	{ "case2", T(case2), &v8, A, KS, 12, 0, RE, P(OVER), A },
	{ "case2", T(case2), &v8, A1, KS, 12, 0, RE, P(OVER), A1 },
	{ "case2", T(case2), &v8, A2, KS, 12, 0, RE, P(ANCESTOR_OVER), A },
	{ "case2", T(case2), &v8, B, KS, 12, 0, SK, P(UNDER), -1 },
	/* The defaults decide the patch's cases as the patch does... */
	{ "dflt case1", T(case1), &dflt, A, KS, 12, 0, SK, P(UNDER), -1 },
	{ "dflt case1", T(case1), &dflt, A1, KS, 12, 0, RE, P(OVER), A1 },
	{ "dflt case1", T(case1), &dflt, A2, DR, 12, 0, SK, P(UNDER), -1 },
	{ "dflt case1", T(case1), &dflt, B, KS, 12, 0, SK, P(UNDER), -1 },
	{ "dflt case2", T(case2), &dflt, A2, KS, 12, 0, RE, P(ANCESTOR_OVER), A },
	{ "dflt case2", T(case2), &dflt, B, DR, 12, 0, SK, P(UNDER), -1 },
	/* ...at every priority: the progress gate (memory.low's protocol). */
	{ "progress", T(case1), &dflt, B, KS, 11, 0, SK, P(UNDER), -1 },
	{ "progress", T(case1), &dflt, B, KS, 1, 0, SK, P(UNDER), -1 },
	{ "progress", T(case1), &dflt, B, DR, 0, 0, SK, P(UNDER), -1 },
	{ "progress", T(case1), &dflt, A1, DR, 0, 0, RE, P(OVER), A1 },
	/* Until the reclaimer retries after a round that reclaimed nothing. */
	{ "retry", T(case1), &dflt, B, DR, 12, F_RETRY, RE, P(RETRY), -1 },
	{ "retry", T(case1), &dflt, B, KS, 5, F_RETRY, RE, P(RETRY), -1 },
	{ "retry", T(case1), &dflt, A1, DR, 12, F_RETRY, RE, P(RETRY), -1 },
	/* The priority gate ignores the retry: its last pass is its escape. */
	{ "retry", T(case1), &v8, B, DR, 12, F_RETRY, SK, P(UNDER), -1 },
	/* A dry spell and the depth bound open the progress gate alone. */
	{ "spell", T(case1), &dflt, B, KS, 9, F_SPELL, RE, P(DRY_SPELL), -1 },
	{ "spell", T(case1), &v8, B, KS, 12, F_SPELL, SK, P(UNDER), -1 },
	{ "spell", T(case1), &dflt, B, DR, 12, F_SPELL | F_RETRY, RE, P(RETRY), -1 },
	{ "depth", T(case1), &dflt, B, DR, 4, F_DEEP, RE, P(DEPTH), -1 },
	{ "depth", T(case1), &v8, B, DR, 12, F_DEEP, SK, P(UNDER), -1 },
	{ "depth", T(case1), &dflt, A1, DR, 4, F_DEEP, RE, P(DEPTH), -1 },
	/* A removed memcg is reclaimed at every pass, under every gate. */
	{ "dying", T(case1), &dflt, B, KS, 12, F_DYING, RE, P(DYING), -1 },
	{ "dying", T(case1), &v8, B, DR, 12, F_DYING, RE, P(DYING), -1 },
	{ "dying", T(case1), &walk, B, DR, 12, F_DYING, RE, P(DYING), -1 },
	{ "dying", T(case1), &dflt, B, MSL_KIND_TARGETED, 12, F_DYING, RE, P(TARGETED), -1 },
	{ "dying", T(case1), &off, B, KS, 12, F_DYING, RE, P(OFF), -1 },
	/* The priority gate: the first pass only, at 12. */
	{ "priority", T(case1), &v8, B, KS, 11, 0, RE, P(PRIORITY), -1 },
	{ "priority", T(case1), &v8, A1, DR, 0, 0, RE, P(PRIORITY), -1 },
	{ "priority 6", T(case1), &threshold6, B, DR, 6, 0, SK, P(UNDER), -1 },
	{ "priority 6", T(case1), &threshold6, B, DR, 5, 0, RE, P(PRIORITY), -1 },
	/* V8 2/2: nothing eligible, everyone reclaimed, under either gate. */
	{ "none", T(case1), &v8, B, KS, 12, F_NONE, RE, P(NOTHING_ELIGIBLE), -1 },
	{ "none", T(case1), &dflt, B, DR, 3, F_NONE, RE, P(NOTHING_ELIGIBLE), -1 },
	{ "none", T(art_e), &dflt, AA1, KS, 12, F_NONE, RE, P(NOTHING_ELIGIBLE), -1 },
	/* A memcg over its limit is its own proof: over, whatever the count says. */
	{ "none over", T(case1), &dflt, A1, DR, 12, F_NONE, RE, P(OVER), A1 },
	{ "none over", T(case2), &v8, A2, KS, 12, F_NONE, RE, P(ANCESTOR_OVER), A },
	/* walk never has that case: none over is proportional reclaim. */
	{ "none walk", T(art_e), &walk, AA1, KS, 12, F_NONE, RE, P(NONE_OVER), -1 },
	/* Targeted reclaim, the root and a disabled module: untouched. */
	{ "early", T(case1), &dflt, B, MSL_KIND_TARGETED, 12, 0, RE, P(TARGETED), -1 },
	{ "early", T(case1), &walk, B, MSL_KIND_TARGETED, 12, 0, RE, P(TARGETED), -1 },
	{ "early", T(case1), &dflt, ROOT, DR, 12, 0, RE, P(ROOT), -1 },
	{ "early", T(case1), &off, B, KS, 12, 0, RE, P(OFF), -1 },
	/* Proactive reclaim of the root is global reclaim by request. */
	{ "proactive", T(case1), &dflt, B, MSL_KIND_PROACTIVE, 12, 0, SK, P(UNDER), -1 },

	/* The article's tree under v8 and walk. */
	{ "art a", T(art_a), &v8, AA, KS, 12, 0, RE, P(OVER), AA },
	{ "art a", T(art_a), &v8, AA1, KS, 12, 0, RE, P(ANCESTOR_OVER), AA },
	{ "art a", T(art_a), &v8, BB, KS, 12, 0, SK, P(UNDER), -1 },
	{ "art a", T(art_a), &walk, AA2, KS, 12, 0, RE, P(ANCESTOR_OVER), AA },
	{ "art a", T(art_a), &walk, BB, KS, 12, 0, SK, P(SIBLING_OVER), BB },
	{ "art a", T(art_a), &walk, CC, KS, 12, 0, SK, P(SIBLING_OVER), CC },
	{ "art b", T(art_b), &v8, AA1, KS, 12, 0, RE, P(OVER), AA1 },
	{ "art b", T(art_b), &v8, AA2, KS, 12, 0, RE, P(ANCESTOR_OVER), AA },
	{ "art b", T(art_b), &walk, AA1, KS, 12, 0, RE, P(ANCESTOR_OVER), AA },
	{ "art b", T(art_b), &walk, BB, KS, 12, 0, SK, P(SIBLING_OVER), BB },
	{ "art c", T(art_c), &v8, AA, KS, 12, 0, SK, P(UNDER), -1 },
	{ "art c", T(art_c), &v8, AA1, KS, 12, 0, RE, P(OVER), AA1 },
	{ "art c", T(art_c), &v8, BB, KS, 12, 0, RE, P(OVER), BB },
	{ "art c", T(art_c), &walk, AA, KS, 12, 0, SK, P(SIBLING_OVER), AA },
	{ "art c", T(art_c), &walk, AA1, KS, 12, 0, SK, P(SIBLING_OVER), AA },
	{ "art c", T(art_c), &walk, BB, KS, 12, 0, RE, P(OVER), BB },
	{ "art d", T(art_d), &v8, AA1, KS, 12, 0, RE, P(ANCESTOR_OVER), AA },
	{ "art d", T(art_d), &walk, AA2, KS, 12, 0, RE, P(ANCESTOR_OVER), AA },
	{ "art d", T(art_d), &walk, CC, KS, 12, 0, SK, P(SIBLING_OVER), CC },
	{ "art e", T(art_e), &v8, AA1, KS, 12, 0, SK, P(UNDER), -1 },
	{ "art e", T(art_e), &walk, AA1, KS, 12, 0, RE, P(NONE_OVER), -1 },
	{ "art e", T(art_e), &walk, BB, KS, 12, 0, RE, P(NONE_OVER), -1 },
	/* walk weighs an unset sibling as 0, unless unset=max. */
	{ "walk unset", T(art_e_unset_b), &walk, BB, KS, 12, 0, RE, P(OVER), BB },
	{ "walk unset", T(art_e_unset_b), &walk, AA1, KS, 12, 0, SK, P(SIBLING_OVER), AA },
	{ "walk unset", T(art_e_unset_b), &stock_walk, BB, KS, 12, 0, RE, P(NONE_OVER), -1 },
	{ "walk unset", T(art_e_unset_b), &stock_walk, AA1, KS, 12, 0, RE, P(NONE_OVER), -1 },
	{ "walk unset", T(art_e_empty_b), &walk, AA1, KS, 12, 0, RE, P(NONE_OVER), -1 },
	/* A max is never over: the walk descends to A1, which is. */
	{ "walk max", T(art_max), &walk, AA, KS, 12, 0, RE, P(NONE_OVER), -1 },
	{ "walk max", T(art_max), &walk, AA1, KS, 12, 0, RE, P(OVER), AA1 },
	{ "walk max", T(art_max), &walk, AA2, KS, 12, 0, SK, P(SIBLING_OVER), AA2 },
	{ "walk max", T(art_max), &walk, BB, KS, 12, 0, RE, P(NONE_OVER), -1 },
	{ "walk max", T(art_max_2), &walk, AA2, KS, 12, 0, RE, P(NONE_OVER), -1 },

	/* unset=zero (V8): an unset slice is over, so everyone below it. */
	{ "zero", T(host_under), &v8, ST, KS, 12, 0, RE, P(OVER), ST },
	{ "zero", T(host_under), &v8, OT, KS, 12, 0, RE, P(OVER), OT },
	{ "zero", T(host_under), &v8, OTC, KS, 12, 0, RE, P(ANCESTOR_OVER), OT },
	{ "zero", T(host_under), &v8, S1, KS, 12, 0, RE, P(OVER), S1 },
	{ "zero", T(host_under), &v8, S3, KS, 12, 0, SK, P(UNDER), -1 },
	/* unset=max (stock): unset is never over. */
	{ "max", T(host_under), &stock_unset, ST, KS, 12, 0, SK, P(UNDER), -1 },
	{ "max", T(host_under), &stock_unset, S1, KS, 12, 0, SK, P(UNDER), -1 },
	/*
	 * unset=inherit: services without a limit inherit the slice's;
	 * cgroups with no limit anywhere above stay eligible for their own
	 * pages, but make no limited descendant eligible.
	 */
	{ "inherit", T(host_under), &dflt, S1, KS, 12, 0, SK, P(UNDER), -1 },
	{ "inherit", T(host_under), &dflt, S2, DR, 12, 0, SK, P(UNDER), -1 },
	{ "inherit", T(host_under), &dflt, S3, KS, 12, 0, SK, P(UNDER), -1 },
	{ "inherit", T(host_under), &dflt, S3C, KS, 12, 0, SK, P(UNDER), -1 },
	{ "inherit", T(host_under), &dflt, SL, KS, 12, 0, SK, P(UNDER), -1 },
	{ "inherit", T(host_under), &dflt, ST, KS, 12, 0, RE, P(OVER), ST },
	{ "inherit", T(host_under), &dflt, OT, KS, 12, 0, RE, P(OVER), OT },
	{ "inherit", T(host_under), &dflt, OTC, KS, 12, 0, SK, P(UNDER), -1 },
	{ "inherit", T(host_slice_over), &dflt, S1, KS, 12, 0, RE, P(ANCESTOR_OVER), SL },
	{ "inherit", T(host_slice_over), &dflt, S3C, KS, 12, 0, RE, P(ANCESTOR_OVER), SL },
	{ "inherit", T(host_slice_over), &dflt, SL, KS, 12, 0, RE, P(OVER), SL },
	{ "inherit", T(host_leaf_over), &dflt, S3, KS, 12, 0, RE, P(OVER), S3 },
	{ "inherit", T(host_leaf_over), &dflt, S3C, KS, 12, 0, RE, P(ANCESTOR_OVER), S3 },
	{ "inherit", T(host_leaf_over), &dflt, S1, KS, 12, 0, SK, P(UNDER), -1 },
};

static void decisions(void)
{
	const struct row *r;
	struct msl_decision d;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		r = &rows[i];
		d = decide_n(r->params, r->tree, r->n, r->node, r->kind,
			     r->priority, r->flags);
		if (d.verdict == r->verdict && d.reason == r->reason &&
		    d.decider_id == (r->decider < 0 ? 0 : ID(r->decider)))
			continue;
		fprintf(stderr, "row %u (%s, %s): got %s/%s by %llu\n", i,
			r->what, r->tree[r->node].name,
			msl_verdict_name(d.verdict), msl_reason_name(d.reason),
			(unsigned long long)d.decider_id);
		CHECK(0);
	}
}

/* What the rows do not say: levels read, the walk's stop. */
static void levels_read(void)
{
	struct msl_decision d;

	d = decide_with(&v8, case1, A1, KS, 12, 0);
	CHECK(d.levels == 1);
	d = decide_with(&v8, case1, A2, KS, 12, 0);
	CHECK(d.levels == 2);	/* A2, then A; never the root */
	d = decide_with(&dflt, case1, B, MSL_KIND_TARGETED, 12, 0);
	CHECK(d.levels == 0);
	/* sibling_over is not read by v8. */
	d = decide_with(&v8, case2, A2, KS, 12, 0);
	CHECK(d.reason == MSL_REASON_ANCESTOR_OVER && d.levels == 2);
	/* inherit reads the whole path before it calls an unset cgroup eligible. */
	d = decide_with(&dflt, host_under, S3C, KS, 12, 0);
	CHECK(d.levels == 3);
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
	/* Unset: over 0 under zero, resolved along the path under inherit. */
	l.src = MSL_LIMIT_UNSET;
	l.usage = 1;
	CHECK(msl_level_over(&v8, &l));
	CHECK(!msl_level_over(&dflt, &l));
	CHECK(!msl_level_over(&stock_unset, &l));
	l.usage = 0;
	CHECK(!msl_level_over(&v8, &l));
}

/* msl_eligible(): V8 2/2's question, without side effects. */
static void eligibility(void)
{
	static const struct {
		const struct case_node *tree;
		int n;
		const struct msl_params *params;
		int node;
		bool eligible;
	} e[] = {
		{ T(case1), &dflt, A1, true },
		{ T(case1), &dflt, A2, false },
		{ T(case1), &dflt, B, false },
		{ T(case2), &dflt, A2, true },
		{ T(art_e), &v8, AA1, false },
		{ T(art_e_unset_b), &v8, BB, true },
		{ T(art_e_unset_b), &dflt, BB, true },
		{ T(art_e_unset_b), &stock_unset, BB, false },
		{ T(host_under), &dflt, S1, false },
		{ T(host_under), &dflt, ST, true },
		{ T(host_slice_over), &dflt, S1, true },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(e); i++) {
		struct cursor c = { e[i].params, e[i].tree, e[i].n, e[i].node };

		CHECK(msl_eligible(e[i].params, next_level, &c) ==
		      e[i].eligible);
	}
}

/*
 * excess: what the module keeps between steps, simulated with the same
 * pure helpers (excess.c does this with atomics): the largest-excess word
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
	.unset = MSL_UNSET_ZERO,
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
		d = decide_with(&excess, t, i, MSL_KIND_KSWAPD, 12, F_NONE);
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
	d = decide_with(&excess, case2, A2, MSL_KIND_KSWAPD, 12, 0);
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
	stock.unset = MSL_UNSET_MAX;
	CHECK(decide_with(&stock, t, BB, MSL_KIND_KSWAPD, 12,
			  0).reason == MSL_REASON_UNDER);
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
	CHECK(MSL_REASON_NONE_OVER == 9 && MSL_REASON_EXCESS_SHARE == 10 &&
	      MSL_REASON_RETRY == 11);
	CHECK(!strcmp(msl_reason_name(MSL_REASON_RETRY), "retry"));
	CHECK(!msl_reason_skips(MSL_REASON_RETRY));
	/* The eligible supply's flow: a policy's reclaim, not a fallback's. */
	CHECK(msl_reason_eligible(MSL_REASON_OVER));
	CHECK(msl_reason_eligible(MSL_REASON_ANCESTOR_OVER));
	CHECK(msl_reason_eligible(MSL_REASON_ROOT));
	CHECK(msl_reason_eligible(MSL_REASON_NONE_OVER));
	CHECK(msl_reason_eligible(MSL_REASON_DYING));
	CHECK(!msl_reason_eligible(MSL_REASON_NOTHING_ELIGIBLE));
	CHECK(!msl_reason_eligible(MSL_REASON_RETRY));
	CHECK(!msl_reason_eligible(MSL_REASON_DRY_SPELL));
	CHECK(!msl_reason_eligible(MSL_REASON_DEPTH));
	CHECK(!msl_reason_eligible(MSL_REASON_UNDER));
}

static void parameters_parse(void)
{
	int t = 99;

	CHECK(msl_threshold_parse("auto\n", &t) == 0 && t == MSL_THRESHOLD_AUTO);
	CHECK(msl_threshold_parse("12", &t) == 0 && t == 12);
	CHECK(msl_threshold_parse(" 0\n", &t) == 0 && t == 0);
	t = 99;
	CHECK(msl_threshold_parse("13", &t) == -1 && t == 99);
	CHECK(msl_threshold_parse("-1", &t) == -1);
	CHECK(msl_threshold_parse("", &t) == -1);
	CHECK(msl_threshold_parse("6x", &t) == -1);
	CHECK(msl_threshold_parse("0012", &t) == -1);
	CHECK(msl_threshold_parse("Auto", &t) == -1 && t == 99);
	CHECK(msl_unset_parse("inherit\n") == MSL_UNSET_INHERIT);
	CHECK(msl_unset_parse("zero") == MSL_UNSET_ZERO);
	CHECK(msl_unset_parse("max") == MSL_UNSET_MAX);
	CHECK(msl_unset_parse("0") == -1);
	CHECK(msl_gate_of(&dflt) == MSL_GATE_PROGRESS);
	CHECK(msl_gate_of(&v8) == MSL_GATE_PRIORITY);
	CHECK(!strcmp(msl_gate_name(MSL_GATE_PROGRESS), "progress"));
	CHECK(!strcmp(msl_unset_name(MSL_UNSET_INHERIT), "inherit"));
	/* Each policy says what its callers must provide. */
	CHECK(msl_policy_ops(MSL_POLICY_WALK)->reads_siblings);
	CHECK(!msl_policy_ops(MSL_POLICY_WALK)->may_find_none);
	CHECK(msl_policy_ops(MSL_POLICY_EXCESS)->weighs_excess);
	CHECK(msl_policy_ops(MSL_POLICY_V8)->may_find_none);
	CHECK(!msl_policy_ops(MSL_POLICY_V8)->weighs_excess);
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
	RUN("policy", decisions);
	RUN("policy", levels_read);
	RUN("policy", limit_boundary_is_strict);
	RUN("policy", eligibility);
	RUN("policy", names_match_the_enums);
	RUN("policy", excess_share_is_error_diffusion);
	RUN("policy", excess_max_word);
	RUN("policy", excess_case1);
	RUN("policy", excess_case2);
	RUN("policy", excess_article);
	RUN("policy", excess_without_state_is_v8);
	RUN("policy", excess_unset_and_max);
	RUN("policy", excess_keeps_the_early_rules);
	RUN("policy", policy_names_parse);
	RUN("policy", parameters_parse);
	return 0;
}
