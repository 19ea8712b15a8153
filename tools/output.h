/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MSL_TOOL_OUTPUT_H
#define MSL_TOOL_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "scols.h"

struct msl_cmdline;

struct msl_row;
struct msl_table;

/* output.c: a table of counters as a table (libsmartcols) or JSON */
struct msl_print {
	bool delta;			/* the counters are a delta ... */
	double interval;		/* ... over this many seconds */
	double time;			/* when (epoch seconds), 0: unknown */
	bool timestamp;			/* -T: the time in the text too */
	bool all;			/* rows without any count too */
	bool bytes;			/* sizes in bytes */
	bool no_paths;			/* ids not resolved (report --ids) */
	/* report: paths from the recording; NULL is "(unnamed)", not removed */
	bool recorded;
	const char *paths_from;		/* JSON "paths": recording, ... */
	/* report's window: seconds from the recording's first event */
	bool window;
	double since, until;
	const char *cgroup;		/* -c: only below this path */
	const char *source;		/* JSON "source": snapshot, events */
	const char *command;		/* JSON "command": stat, report */
	const char *down_why;		/* no table: why the module is absent */
	struct msl_cols cols;		/* the table's columns */
};
uint64_t msl_page_bytes(uint64_t pages);
/* @path is @prefix or below it (component-wise); NULL @prefix: all. */
bool msl_path_under(const char *prefix, const char *path);
bool msl_print_shows(const struct msl_row *r, const struct msl_print *p);
const struct msl_coldef *msl_counter_columns(size_t *n);
extern const char msl_counter_default_cols[];
/* 0, or -1 out of memory. */
int msl_print_text(FILE *f, const struct msl_table *t,
		   const struct msl_print *p, const struct msl_cmdline *cl);
/* One document; @t NULL: the module is absent (p->down_why), no rows. */
void msl_print_json(FILE *f, const struct msl_table *t,
		    const struct msl_print *p);

#endif /* MSL_TOOL_OUTPUT_H */
