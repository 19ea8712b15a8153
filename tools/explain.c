// SPDX-License-Identifier: GPL-2.0
/*
 * explain: lib/policy.c's msl_decide() at every priority on a chain of
 * levels (the cgroup, then its ancestors below the root), and the rule
 * that decides each time.  The same source file runs in the kernel, so the
 * tool cannot disagree with it.
 */
#include <string.h>

#include <memcg_softlimit/policy.h>

#include "explain.h"
#include "escape.h"
#include "module.h"
#include "size.h"
#include "softlimit.h"

struct cursor {
	const struct msl_chain *chain;
	unsigned int at;
};

static bool next_level(void *opaque, struct msl_level *level)
{
	struct cursor *c = opaque;

	if (c->at >= c->chain->n)
		return false;
	*level = c->chain->level[c->at++];
	return true;
}

void msl_explain(const struct msl_params *params, enum msl_kind kind,
		 const struct msl_chain *chain,
		 struct msl_explain_row rows[MSL_DEF_PRIORITY + 1])
{
	int i;

	for (i = 0; i <= MSL_DEF_PRIORITY; i++) {
		struct msl_step step = {
			.kind = kind,
			.is_root = chain->is_root,
			.effective_priority = MSL_DEF_PRIORITY - i,
			/* (effective 0 is sc->priority 0 too) */
			.last_pass = i == MSL_DEF_PRIORITY,
		};
		struct cursor c = { chain, 0 };

		rows[i].priority = step.effective_priority;
		msl_decide(params, &step, next_level, &c, &rows[i].d);
		step.retry = true;
		c.at = 0;
		msl_decide(params, &step, next_level, &c, &rows[i].d_retry);
		step.retry = false;
		step.nothing_eligible = true;
		c.at = 0;
		msl_decide(params, &step, next_level, &c,
			   &rows[i].d_nothing_eligible);
	}
}

unsigned int msl_excess_percent(uint64_t excess, uint64_t max)
{
	uint64_t pct;

	if (!excess)
		return 0;
	if (excess >= max)
		return 100;
	pct = excess * 100 / max;	/* (excess < 2^36 pages) */
	return pct ? (unsigned int)pct : 1;
}

/* excess: how often the memcg is reclaimed, after "...over its limit". */
static void excess_share_text(const struct msl_chain *chain,
			      const struct msl_decision *d, char *buf,
			      size_t len)
{
	uint64_t max = chain->excess_max > d->excess ? chain->excess_max :
						       d->excess;
	unsigned int pct = msl_excess_percent(d->excess, max);
	size_t n = strlen(buf);
	const char *path = d->reason == MSL_REASON_ANCESTOR_OVER ?
			   " (the largest excess along the path)" : "";

	if (n >= len)
		return;
	if (pct == 100)
		snprintf(buf + n, len - n, "%s, the largest excess now: reclaimed at every first-pass step",
			 path);
	else
		snprintf(buf + n, len - n, "%s, by %s%u%% of the largest excess now (%s): reclaimed at that share of first-pass steps, skipped (excess_share) at the others",
			 path, d->excess * 100 < max ? "<" : "", pct,
			 chain->excess_max_path ? chain->excess_max_path : "?");
}

static int level_of(const struct msl_chain *chain, uint64_t id)
{
	unsigned int i;

	for (i = 0; i < chain->n; i++)
		if (chain->level[i].cgroup_id == id)
			return (int)i;
	return -1;
}

static const char *name_of(const struct msl_chain *chain, int i)
{
	return i >= 0 && chain->path[i] ? chain->path[i] : "?";
}

const char *msl_explain_rule(const struct msl_params *params,
			     const struct msl_chain *chain,
			     const struct msl_explain_row *row, char *buf,
			     size_t len)
{
	int i = level_of(chain, row->d.decider_id);
	const struct msl_level *l = i >= 0 ? &chain->level[i] : NULL;

	switch (row->d.reason) {
	case MSL_REASON_OFF:
		snprintf(buf, len, "the policy is off (enabled=N): reclaimed as stock");
		break;
	case MSL_REASON_TARGETED:
		snprintf(buf, len, "targeted reclaim (a cgroup's own limit) is never gated");
		break;
	case MSL_REASON_ROOT:
		snprintf(buf, len, "the root cgroup is always reclaimed");
		break;
	case MSL_REASON_PRIORITY:
		if (row->priority >= params->priority_threshold)
			snprintf(buf, len, "priority 0, direct reclaim's last pass, is never gated: every cgroup is reclaimed");
		else
			snprintf(buf, len, "effective priority %d < priority_threshold %d: every cgroup is reclaimed",
				 row->priority, params->priority_threshold);
		break;
	case MSL_REASON_OVER:
	case MSL_REASON_ANCESTOR_OVER:
		if (l && l->src == MSL_LIMIT_UNSET &&
		    params->unset == MSL_UNSET_INHERIT)
			snprintf(buf, len, "%s%s has no soft limit and none above it: its own pages are eligible (unset=inherit)",
				 row->d.reason == MSL_REASON_OVER ? "" : "ancestor ",
				 name_of(chain, i));
		else if (l && l->src == MSL_LIMIT_UNSET)
			snprintf(buf, len, "%s%s has no soft limit, which counts as 0 (unset=%s), and uses memory",
				 row->d.reason == MSL_REASON_OVER ? "" : "ancestor ",
				 name_of(chain, i), msl_unset_name(params->unset));
		else
			snprintf(buf, len, "%s%s is over its soft limit",
				 row->d.reason == MSL_REASON_OVER ? "" : "ancestor ",
				 name_of(chain, i));
		if (msl_policy_ops(params->policy)->weighs_excess)
			excess_share_text(chain, &row->d, buf, len);
		break;
	case MSL_REASON_EXCESS_SHARE:
		snprintf(buf, len, "excess: %s is over its soft limit, but by less than the largest excess: this is one of the steps that skip it",
			 name_of(chain, i));
		break;
	case MSL_REASON_RETRY:
		snprintf(buf, len, "a round over the eligible cgroups reclaimed nothing: the reclaimer tries again with every cgroup, as every round on its node does for a short while after (progress gate)");
		break;
	case MSL_REASON_DRY_SPELL:
		snprintf(buf, len, "a retry on this node a moment ago: every round there reclaims every cgroup for a short while (progress gate's dry spell)");
		break;
	case MSL_REASON_DEPTH:
		snprintf(buf, len, "the reclaimer went deeper than what the eligible cgroups hold justifies: they gave too little of what it scanned, so every cgroup is reclaimed for the rest of its call (progress gate)");
		break;
	case MSL_REASON_DYING:
		snprintf(buf, len, "the cgroup was removed: its pages are reclaimed at every pass, as the kernel drops a removed cgroup's memory.low");
		break;
	case MSL_REASON_NOTHING_ELIGIBLE:
		snprintf(buf, len, "the last first pass on this node found nothing but the root eligible (V8 2/2)");
		break;
	case MSL_REASON_UNDER:
		snprintf(buf, len, "neither the cgroup nor an ancestor below the root is over its soft limit (%u level%s read)",
			 row->d.levels, row->d.levels == 1 ? "" : "s");
		break;
	case MSL_REASON_SIBLING_OVER:
		snprintf(buf, len, "walk: %s is under its soft limit and a sibling of it is over: reclaim goes to the siblings over",
			 name_of(chain, i));
		break;
	case MSL_REASON_NONE_OVER:
		snprintf(buf, len, "walk: no cgroup over along its path nor beside it: proportional (%u level%s read)",
			 row->d.levels, row->d.levels == 1 ? "" : "s");
		break;
	default:
		snprintf(buf, len, "?");
	}
	return buf;
}

/* A size, right-aligned in @width columns (0: as it is). */
static void put_size(FILE *f, int width, uint64_t bytes)
{
	char buf[MSL_SIZE_BUF];

	fprintf(f, "%*s", width, msl_size_fmt(bytes, buf, sizeof(buf)));
}

static void print_chain(FILE *f, const struct msl_params *params,
			const struct msl_chain *chain, unsigned long page_size)
{
	const struct msl_policy_ops *ops = msl_policy_ops(params->policy);
	bool walk = ops->reads_siblings, excess = ops->weighs_excess;
	unsigned int i;

	fprintf(f, "chain, from the cgroup up to below the root:\n");
	fprintf(f, "  %10s %9s %10s %6s %5s %s%s %s\n", "ID", "USAGE",
		"SOFT_LIMIT", "LIMIT", "OVER", walk ? "SIBLING_OVER " : "",
		excess ? "   EXCESS" : "", "CGROUP");
	for (i = 0; i < chain->n; i++) {
		const struct msl_level *l = &chain->level[i];

		fprintf(f, "  %10llu", (unsigned long long)l->cgroup_id);
		fputc(' ', f);
		put_size(f, 9, l->usage * page_size);
		/* v1 has no max: a limit beyond 4 EiB is as good as one. */
		if ((l->src == MSL_LIMIT_SET || l->src == MSL_LIMIT_V1) &&
		    l->soft_limit < (1ULL << 62) / page_size) {
			fputc(' ', f);
			put_size(f, 10, l->soft_limit * page_size);
		} else {
			fprintf(f, " %10s", l->src == MSL_LIMIT_UNSET ? "-" : "max");
		}
		fprintf(f, " %6s %5s ", msl_limit_src_name(l->src),
			msl_level_over(params, l) ? "yes" : "no");
		if (walk)
			fprintf(f, "%12s ", l->sibling_over ? "yes" : "no");
		if (excess) {
			uint64_t e = msl_level_excess(params, l);

			if (e)
				put_size(f, 9, e * page_size);
			else
				fprintf(f, "%9s", "-");
		}
		fputc(' ', f);
		msl_put_cgroup(f, chain->path[i]);
		fputc('\n', f);
	}
	if (!chain->n)
		fprintf(f, "  (none: the root cgroup)\n");
}

void msl_explain_print(FILE *f, const struct msl_params *params,
		       enum msl_kind kind, const struct msl_chain *chain,
		       const struct msl_explain_row *rows, bool mglru,
		       unsigned long page_size)
{
	char rule[512], mg[16];
	bool ne_differs = false;
	int i, lo;

	char pbuf[128];

	fprintf(f, "policy: %s, %s; reclaim kind %s\n",
		msl_policy_name(params->policy),
		msl_params_fmt(params, pbuf, sizeof(pbuf)), msl_kind_name(kind));
	print_chain(f, params, chain, page_size);
	if (msl_policy_ops(params->policy)->weighs_excess) {
		if (chain->excess_max) {
			fputs("largest excess now: ", f);
			put_size(f, 0, chain->excess_max * page_size);
			fputs(" (", f);
			msl_put_cgroup(f, chain->excess_max_path);
			fputs(")\n", f);
		} else {
			fprintf(f, "largest excess now: none (no cgroup is over its soft limit)\n");
		}
	}
	fprintf(f, "\n%4s %9s %7s  %-16s %s\n", "PRIO", "MGLRU_SC", "VERDICT",
		"REASON", "RULE");
	for (i = 0; i <= MSL_DEF_PRIORITY; i++) {
		const struct msl_explain_row *r = &rows[i];

		/* MGLRU starts large reclaims at sc->priority 6..12. */
		lo = r->priority - MSL_DEF_PRIORITY / 2;
		snprintf(mg, sizeof(mg), "%d..%d", lo < 0 ? 0 : lo, r->priority);
		fprintf(f, "%4d %9s %7s  %-16s %s\n", r->priority, mg,
			msl_verdict_name(r->d.verdict),
			msl_reason_name(r->d.reason),
			msl_explain_rule(params, chain, r, rule, sizeof(rule)));
		if (r->d.verdict != r->d_nothing_eligible.verdict)
			ne_differs = true;
	}
	if (msl_gate_of(params) == MSL_GATE_PROGRESS &&
	    rows[0].d.verdict != rows[0].d_retry.verdict) {
		struct msl_explain_row retry = rows[0];

		retry.d = rows[0].d_retry;
		fprintf(f, "%4s %9s %7s  %-16s %s\n", "any", "",
			msl_verdict_name(retry.d.verdict),
			msl_reason_name(retry.d.reason),
			msl_explain_rule(params, chain, &retry, rule,
					 sizeof(rule)));
	}
	if (ne_differs)
		fprintf(f, "\nA skip above becomes reclaim (nothing_eligible) while the last first pass on\n"
			"the node found nothing but the root eligible (V8 2/2); the module keeps that\n"
			"per node and it is not visible here.\n");
	fprintf(f, "\nPRIO is the effective priority the policy sees.  On the classic LRU, and\n"
		"for direct reclaim, it is sc->priority.  MGLRU starts kswapd and\n"
		"memory.reclaim at an sc->priority of 6..12 (set_initial_priority) and the\n"
		"module counts passes from there: effective priority P is an sc->priority\n"
		"in MGLRU_SC, and the first pass is skipped whatever priority MGLRU started\n"
		"it at.  MGLRU is %s here.\n", mglru ? "on" : "off");
}

static const char *path_of(const struct msl_chain *chain, uint64_t id)
{
	unsigned int i;

	for (i = 0; i < chain->n; i++)
		if (chain->level[i].cgroup_id == id)
			return chain->path[i];
	return NULL;
}

/* "40.1M of 8000M, 7.9G headroom" or "177.2M of 128M, 49.2M over" */
void msl_level_usage_text(const struct msl_level *l, uint64_t ps, char *buf,
			  size_t len)
{
	char u[MSL_SIZE_BUF], s[MSL_SIZE_BUF], d[MSL_SIZE_BUF];
	uint64_t usage = l->usage * ps, limit = l->soft_limit * ps;

	msl_size_fmt(usage, u, sizeof(u));
	if (l->src == MSL_LIMIT_UNSET) {
		snprintf(buf, len, "%s, no soft limit", u);
	} else if (l->src == MSL_LIMIT_MAX || limit >= (1ULL << 62)) {
		snprintf(buf, len, "%s, soft limit max", u);
	} else {
		msl_size_fmt(limit, s, sizeof(s));
		msl_size_fmt(usage > limit ? usage - limit : limit - usage, d,
			     sizeof(d));
		snprintf(buf, len, "%s of %s, %s %s", u, s, d,
			 usage > limit ? "over" : "headroom");
	}
}

void msl_answer_verdict(const struct msl_params *params,
			const struct msl_chain *chain,
			const struct msl_explain_row *rows, uint64_t ps,
			char *buf, size_t len)
{
	const struct msl_decision *d = &rows[0].d;
	const char *decider = path_of(chain, d->decider_id);
	const struct msl_level *dl = NULL;
	char use[128] = "";
	unsigned int i;
	size_t o;

	if (chain->is_root) {
		snprintf(buf, len, "always reclaimed: the root cgroup is everyone's ancestor");
		return;
	}
	for (i = 0; i < chain->n; i++)
		if (chain->level[i].cgroup_id == d->decider_id)
			dl = &chain->level[i];
	/* Spared: the nearest limit above, or its own, keeps it so. */
	for (i = 0; !dl && d->verdict == MSL_SKIP && i < chain->n; i++)
		if (chain->level[i].src != MSL_LIMIT_UNSET) {
			dl = &chain->level[i];
			decider = chain->path[i];
		}
	if (dl)
		msl_level_usage_text(dl, ps, use, sizeof(use));
	if (d->verdict == MSL_SKIP)
		o = (size_t)snprintf(buf, len, "spared while other cgroups can give reclaim what it asks for (%s)",
				     msl_reason_name(d->reason));
	else if (d->reason == MSL_REASON_OVER)
		o = (size_t)snprintf(buf, len, "reclaimed first: over its soft limit");
	else if (d->reason == MSL_REASON_ANCESTOR_OVER)
		o = (size_t)snprintf(buf, len, "reclaimed first with %s, which is over its soft limit",
				     decider ? decider : "an ancestor");
	else
		o = (size_t)snprintf(buf, len, "reclaimed (%s)",
				     msl_reason_name(d->reason));
	if (use[0] && o < len)
		o += (size_t)snprintf(buf + o, len - o, "; %s%s%s",
				      d->verdict == MSL_SKIP && decider ? decider : "",
				      d->verdict == MSL_SKIP && decider ? " " : "",
				      use);
	/* The progress gate lets everyone in when the others have nothing. */
	if (d->verdict == MSL_SKIP && rows[0].d_retry.verdict == MSL_RECLAIM &&
	    msl_gate_of(params) == MSL_GATE_PROGRESS && o < len)
		snprintf(buf + o, len - o, "; reclaimed too once they have nothing left (retry), before any OOM kill");
}
