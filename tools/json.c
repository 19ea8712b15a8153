// SPDX-License-Identifier: GPL-2.0
/*
 * The one JSON vocabulary of every command (docs/json.md, the schema in
 * docs/memcg-softlimit.schema.json): each document an object that opens
 * with "schema" and "command"; sizes in bytes as numbers under keys that
 * end in _bytes; counts as numbers; yes/no as booleans; a soft limit as
 * "soft_limit" (set, max, unset, v1) and "soft_limit_bytes" (a number, or
 * null when there is no finite limit); cgroups by their whole path.
 * Every writer here but msl_json_begin() puts the comma before its member.
 */
#include <string.h>

#include <memcg_softlimit/policy.h>

#include "json.h"
#include "escape.h"
#include "softlimit.h"

void msl_json_begin(FILE *f, const char *command)
{
	fprintf(f, "{\"schema\":%d,\"command\":", MSL_JSON_SCHEMA);
	msl_put_json_str(f, command);
}

void msl_json_key(FILE *f, const char *key)
{
	fputs(",\"", f);
	fputs(key, f);
	fputs("\":", f);
}

void msl_json_u64(FILE *f, const char *key, uint64_t v)
{
	msl_json_key(f, key);
	fprintf(f, "%llu", (unsigned long long)v);
}

void msl_json_opt_u64(FILE *f, const char *key, bool have, uint64_t v)
{
	msl_json_key(f, key);
	if (have)
		fprintf(f, "%llu", (unsigned long long)v);
	else
		fputs("null", f);
}

void msl_json_bool(FILE *f, const char *key, bool v)
{
	msl_json_key(f, key);
	fputs(v ? "true" : "false", f);
}

void msl_json_str(FILE *f, const char *key, const char *v)
{
	msl_json_key(f, key);
	if (v)
		msl_put_json_str(f, v);
	else
		fputs("null", f);
}

void msl_json_path(FILE *f, const char *key, const char *path)
{
	msl_json_key(f, key);
	if (!path) {
		fputs("null", f);
		return;
	}
	if (msl_utf8_valid(path)) {
		msl_put_json_str(f, path);
		return;
	}
	/* Not UTF-8: the escaped form, and a member that says so. */
	msl_put_json_escaped(f, path);
	fprintf(f, ",\"%s_escaped\":true", key);
}

void msl_json_limit(FILE *f, const struct msl_limit *l)
{
	const char *word = msl_limit_src_name(l->src);
	bool finite = l->src == MSL_LIMIT_SET || l->src == MSL_LIMIT_V1;

	/* v1 has no max: its largest value that is not unset reads as one. */
	if (l->src == MSL_LIMIT_V1 && l->bytes >= msl_v1_max_bytes()) {
		word = "max";
		finite = false;
	}
	msl_json_str(f, "soft_limit", word);
	msl_json_key(f, "soft_limit_bytes");
	if (finite)
		fprintf(f, "%llu", (unsigned long long)l->bytes);
	else
		fputs("null", f);
}

void msl_json_params(FILE *f, const struct msl_params *p,
		     const bool *keep_v1_reclaim)
{
	msl_json_key(f, "params");
	fprintf(f, "{\"enabled\":%s", p->enabled ? "true" : "false");
	msl_json_str(f, "policy", msl_policy_name(p->policy));
	/* "auto" (the progress gate) or the priority, a number */
	msl_json_key(f, "priority_threshold");
	if (p->priority_threshold == MSL_THRESHOLD_AUTO)
		fputs("\"auto\"", f);
	else
		fprintf(f, "%d", p->priority_threshold);
	msl_json_str(f, "gate", msl_gate_name(msl_gate_of(p)));
	msl_json_str(f, "unset", msl_unset_name(p->unset));
	if (keep_v1_reclaim)
		msl_json_bool(f, "keep_v1_reclaim", *keep_v1_reclaim);
	fputc('}', f);
}
