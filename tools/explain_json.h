/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MSL_TOOL_EXPLAIN_JSON_H
#define MSL_TOOL_EXPLAIN_JSON_H

#include <stdint.h>
#include <stdio.h>

#include <memcg_softlimit/policy.h>

#include "explain.h"

struct msl_module;

/* explain_json.c: one JSON document: the cgroup, the parameters, the chain, the rows. */
/* @answer NULL: the table's part alone. */
void msl_explain_json(FILE *f, const char *cgpath, uint64_t id, int cgroup_v,
		      const struct msl_module *m, enum msl_kind kind,
		      const struct msl_chain *chain,
		      const struct msl_explain_row *rows, uint64_t page_size,
		      const struct msl_answer *answer);
/* The answer's members for explain's document (each with its comma). */
void msl_answer_json(FILE *f, const struct msl_answer *a, uint64_t ps);

#endif /* MSL_TOOL_EXPLAIN_JSON_H */
