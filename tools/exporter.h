/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MSL_TOOL_EXPORTER_H
#define MSL_TOOL_EXPORTER_H

#include <stdbool.h>

#include "metrics.h"
#include "module.h"

struct msl_table;

struct msl_cgfs;
struct msl_cgmap;

/* exporter.c: one run of stat --prometheus FILE */
struct msl_exporter {
	const char *file;
	char state[4200];		/* FILE.state */
	struct msl_metrics m;
	struct msl_module mod;
	const struct msl_cgfs *fs;
	char kernel[128];
	int depth;			/* --depth, -1: every cgroup */
	const char *cgroup;		/* -c */
	bool id_label;
};
/* Reads the state (a bad one is said, and started afresh): 0 or -errno. */
int msl_exporter_open(struct msl_exporter *e, const char *file,
		      const struct msl_cgfs *fs, int depth,
		      const char *cgroup, bool id_label);
/* @t NULL: the module is absent (@down_why).  0, or -errno said. */
int msl_exporter_write(struct msl_exporter *e, const struct msl_table *t,
		       const struct msl_cgmap *map, const char *down_why);
void msl_exporter_close(struct msl_exporter *e);

#endif /* MSL_TOOL_EXPORTER_H */
