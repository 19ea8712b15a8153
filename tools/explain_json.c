// SPDX-License-Identifier: GPL-2.0
/*
 * explain --json: the cgroup, the parameters, the chain and the decision
 * at every priority as one document (docs/json.md), with the answer's
 * members (answer.c gathers it) when there is one.
 */
#include <memcg_softlimit/policy.h>

#include "explain_json.h"
#include "escape.h"
#include "json.h"
#include "module.h"
#include "softlimit.h"

void msl_answer_json(FILE *f, const struct msl_answer *a, uint64_t ps)
{
	uint64_t reclaims = 0, skips = 0, reclaimed = 0;
	int k;

	msl_json_str(f, "verdict", a->verdict);
	msl_json_key(f, "limit_source");
	fputs("{\"kind\":", f);
	msl_put_json_str(f, a->src);
	msl_json_str(f, "file", a->file[0] ? a->file : NULL);
	msl_json_opt_u64(f, "line", a->line > 0, (uint64_t)a->line);
	msl_json_str(f, "rule", a->rule[0] ? a->rule : NULL);
	fputc('}', f);
	msl_json_key(f, "protections");
	fputs("{\"pressure\":", f);
	if (a->pressure[0])
		msl_put_json_str(f, a->pressure);
	else
		fputs("null", f);
	msl_json_opt_u64(f, "memory_min_bytes", a->have_min, a->min);
	msl_json_opt_u64(f, "memory_low_bytes", a->have_low, a->low);
	fputc('}', f);
	msl_json_key(f, "counters");
	if (!a->have_counts) {
		fputs("null", f);
		return;
	}
	for (k = 0; k < MSL_NR_REASONS; k++)
		fprintf(f, "%s\"%s\":%llu", k ? "," : "{\"decisions\":{",
			msl_reason_name(k),
			(unsigned long long)a->c.decisions[k]);
	fputc('}', f);
	for (k = 0; k < MSL_NR_REASONS; k++)
		*(msl_reason_skips(k) ? &skips : &reclaims) += a->c.decisions[k];
	for (k = 0; k < MSL_NR_KINDS; k++)
		reclaimed += a->c.reclaimed[k];
	msl_json_u64(f, "reclaims", reclaims);
	msl_json_u64(f, "skips", skips);
	msl_json_u64(f, "reclaimed_bytes_total", reclaimed * ps);
	fputc('}', f);
}

static void json_decision(FILE *f, const char *key,
			  const struct msl_decision *d, uint64_t ps)
{
	msl_json_key(f, key);
	fputs("{\"verdict\":", f);
	msl_put_json_str(f, msl_verdict_name(d->verdict));
	msl_json_str(f, "reason", msl_reason_name(d->reason));
	msl_json_u64(f, "decider_id", d->decider_id);
	msl_json_u64(f, "excess_bytes", d->excess * ps);
	fputc('}', f);
}

void msl_explain_json(FILE *f, const char *cgpath, uint64_t id, int cgroup_v,
		      const struct msl_module *m, enum msl_kind kind,
		      const struct msl_chain *chain,
		      const struct msl_explain_row *rows, uint64_t ps,
		      const struct msl_answer *answer)
{
	const struct msl_params *params = &m->params;
	char rule[512];
	unsigned int i;

	msl_json_begin(f, "explain");
	msl_json_path(f, "path", cgpath);
	msl_json_u64(f, "id", id);
	msl_json_u64(f, "cgroup_version", (uint64_t)cgroup_v);
	msl_json_bool(f, "module_loaded", m->loaded);
	msl_json_params(f, params, NULL);
	msl_json_str(f, "kind", msl_kind_name(kind));
	msl_json_u64(f, "page_size", ps);
	msl_json_u64(f, "excess_max_bytes", chain->excess_max * ps);
	if (answer)
		msl_answer_json(f, answer, ps);
	fputs(",\n\"chain\":[", f);
	for (i = 0; i < chain->n; i++) {
		const struct msl_level *l = &chain->level[i];
		struct msl_limit lim = { l->src, l->soft_limit * ps };

		fprintf(f, "%s\n{\"id\":%llu", i ? "," : "",
			(unsigned long long)l->cgroup_id);
		msl_json_path(f, "path", chain->path[i]);
		msl_json_u64(f, "usage_bytes", l->usage * ps);
		msl_json_limit(f, &lim);
		msl_json_bool(f, "over", msl_level_over(params, l));
		msl_json_bool(f, "sibling_over", l->sibling_over);
		msl_json_u64(f, "excess_bytes", msl_level_excess(params, l) * ps);
		fputc('}', f);
	}
	fputs("],\n\"priorities\":[", f);
	for (i = 0; i <= MSL_DEF_PRIORITY; i++) {
		fprintf(f, "%s\n{\"priority\":%d", i ? "," : "",
			rows[i].priority);
		json_decision(f, "decision", &rows[i].d, ps);
		json_decision(f, "retry", &rows[i].d_retry, ps);
		json_decision(f, "nothing_eligible",
			      &rows[i].d_nothing_eligible, ps);
		msl_json_str(f, "rule", msl_explain_rule(params, chain,
							 &rows[i], rule,
							 sizeof(rule)));
		fputc('}', f);
	}
	fputs("\n]}\n", f);
}
