/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MSL_TOOL_ANSWER_H
#define MSL_TOOL_ANSWER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct msl_answer;
struct msl_chain;

struct msl_cgfs;

/* answer.c: explain's answer (struct msl_answer, explain.h), gathered */
/* The limit's source, the other protections, the counters (a snapshot). */
void msl_answer_gather(const struct msl_cgfs *fs, const char *cgpath,
		       uint64_t id, const struct msl_chain *chain,
		       bool with_counters, struct msl_answer *a);
void msl_answer_print(FILE *f, const struct msl_answer *a,
		      const struct msl_chain *chain, uint64_t ps);

#endif /* MSL_TOOL_ANSWER_H */
