/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MSL_TOOL_EXPLAIN_H
#define MSL_TOOL_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <memcg_softlimit/policy.h>

#include "counters.h"

/* explain.c: the policy at each priority, on a chain of levels */
#define MSL_EXPLAIN_MAX_LEVELS	256
struct msl_chain {
	struct msl_level level[MSL_EXPLAIN_MAX_LEVELS];	/* the cgroup first */
	const char *path[MSL_EXPLAIN_MAX_LEVELS];
	unsigned int n;
	bool is_root;
	/*
	 * Policy excess: the largest excess over a soft limit of any memcg
	 * now (pages, 0 for none) and the cgroup that has it; the module's is
	 * the largest its recent decisions saw, which converges to this.
	 */
	uint64_t excess_max;
	const char *excess_max_path;
};
struct msl_explain_row {
	int priority;			/* effective priority */
	struct msl_decision d;
	/* The same step in the retry round (progress gate). */
	struct msl_decision d_retry;
	struct msl_decision d_nothing_eligible;
};
/* rows[i] for effective priority MSL_DEF_PRIORITY - i, 13 of them. */
void msl_explain(const struct msl_params *params, enum msl_kind kind,
		 const struct msl_chain *chain,
		 struct msl_explain_row rows[MSL_DEF_PRIORITY + 1]);
/*
 * explain's answer, before its table: answer.c gathers it, explain.c says
 * it (explain_json.c in --json)
 */
struct msl_answer {
	char verdict[512];
	const char *src;		/* rule, set, v1, unset, root */
	char file[4096], rule[4200];	/* rule: where */
	int line;
	bool have_min, have_low, have_counts;
	uint64_t min, low;		/* bytes */
	char pressure[128];		/* memory.pressure's "some" line */
	struct msl_counts c;
};
void msl_explain_print(FILE *f, const struct msl_params *params,
		       enum msl_kind kind, const struct msl_chain *chain,
		       const struct msl_explain_row *rows, bool mglru,
		       unsigned long page_size);
/*
 * excess: the share of first-pass steps that reclaim a memcg whose
 * excess is @excess, in percent (100: every step; 0 only for 0).
 */
unsigned int msl_excess_percent(uint64_t excess, uint64_t max);
const char *msl_explain_rule(const struct msl_params *params,
			     const struct msl_chain *chain,
			     const struct msl_explain_row *row, char *buf,
			     size_t len);

/* explain.c: "40.1M of 8000M, 7.9G headroom", "177.2M of 128M, 49.2M over" */
void msl_level_usage_text(const struct msl_level *l, uint64_t ps, char *buf,
			  size_t len);
/* The decision at the first pass in words, with the headroom that decides. */
void msl_answer_verdict(const struct msl_params *params,
			const struct msl_chain *chain,
			const struct msl_explain_row *rows, uint64_t ps,
			char *buf, size_t len);

#endif /* MSL_TOOL_EXPLAIN_H */
