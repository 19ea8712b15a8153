/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MSL_TOOL_JSON_H
#define MSL_TOOL_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <memcg_softlimit/policy.h>

struct msl_limit;

/* json.c: the members every document shares (docs/json.md) */
#define MSL_JSON_SCHEMA		1
/* '{' and the "schema" and "command" members; the caller closes it. */
void msl_json_begin(FILE *f, const char *command);
/* Each of these writes ',' first: ,"key":value */
void msl_json_key(FILE *f, const char *key);
void msl_json_u64(FILE *f, const char *key, uint64_t v);
/* @v, or null when there is none (!@have). */
void msl_json_opt_u64(FILE *f, const char *key, bool have, uint64_t v);
void msl_json_bool(FILE *f, const char *key, bool v);
void msl_json_str(FILE *f, const char *key, const char *v);	/* NULL: null */
/* A cgroup path (NULL: null); not UTF-8: escaped, and "<key>_escaped". */
void msl_json_path(FILE *f, const char *key, const char *path);
/* "soft_limit" (its source's word) and "soft_limit_bytes" (or null). */
void msl_json_limit(FILE *f, const struct msl_limit *l);
/* "params": the policy's parameters (and keep_v1_reclaim if given). */
void msl_json_params(FILE *f, const struct msl_params *p,
		     const bool *keep_v1_reclaim);

#endif /* MSL_TOOL_JSON_H */
