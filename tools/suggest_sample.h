/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memcg-softlimit suggest, its readings (suggest_sample.c): every cgroup
 * below PATH read once, what it reuses added to the span of its earlier
 * readings.  What is made of them is cmd_suggest.c's.
 */
#ifndef MSL_TOOL_SUGGEST_SAMPLE_H
#define MSL_TOOL_SUGGEST_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cgroup.h"
#include "softlimit.h"
#include "suggest.h"

struct msl_cmdline;

/* A cgroup below PATH with a memcg of its own, as last read. */
struct msl_suggest_row {
	uint64_t id;
	char *path;
	int depth;
	struct msl_reuse_span span;
	struct msl_limit lim;
	bool have_peak, have_low;
	uint64_t peak, low;
};

struct msl_suggest {
	const struct msl_cmdline *cl;
	struct msl_target at;		/* the hierarchy, PATH in it */
	bool mglru, loaded;
	uint64_t age_ms, page_size;
	unsigned int headroom;
	struct msl_suggest_row *rows;		/* tree order, as last walked */
	size_t n;
	int base;			/* the depth drawn at the left */
	double time;			/* of the last reading */
};

/* Whether the kernel runs MGLRU (lru_gen enabled). */
bool msl_suggest_mglru_enabled(void);
/*
 * One reading of every cgroup below PATH: the rows of this walk, each
 * with the span its id had (a cgroup made since starts one, a cgroup
 * gone is dropped).  0, or an exit status with why said.
 */
int msl_suggest_sample(struct msl_suggest *s);
void msl_suggest_rows_free(struct msl_suggest_row *rows, size_t n);

#endif /* MSL_TOOL_SUGGEST_SAMPLE_H */
