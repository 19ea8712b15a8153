/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MSL_TOOL_PROM_H
#define MSL_TOOL_PROM_H

#include <stdbool.h>
#include <stdio.h>

struct msl_module;

struct msl_metrics;

struct msl_table;

/* prom.c: the text exposition format for node_exporter's textfile collector */
struct msl_prom {
	const char *down_why;		/* no table: why the module is absent */
	const char *cgroup;		/* -c: only below this path */
	bool id_label;			/* an id label on existing cgroups' series */
	const struct msl_module *module;	/* memcg_softlimit_info */
	const char *kernel;
	const struct msl_table *t;	/* the snapshot: tracked cgroups */
};
/* @m NULL: the module is absent (memcg_softlimit_up 0 and why). */
int msl_print_prometheus(FILE *f, const struct msl_metrics *m,
			 const struct msl_prom *o);
/* FILE.tmp.PID written, then renamed over FILE. */
int msl_write_prometheus(const char *file, const struct msl_metrics *m,
			 const struct msl_prom *o, const char **why);

#endif /* MSL_TOOL_PROM_H */
