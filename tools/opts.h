/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One option vocabulary for every command (each option means the same
 * thing wherever it is accepted), parsed in one place.  Each command
 * declares, beside its code, the options it takes and its help (the
 * pattern of bcc's libbpf-tools: one option table per tool).  Options may
 * come before or after the arguments; `--` ends them.
 */
#ifndef MSL_TOOL_OPTS_H
#define MSL_TOOL_OPTS_H

#include <stdbool.h>
#include <stdio.h>

#include <linux/compiler.h>
#include <memcg_softlimit/policy.h>

#include "counters.h"

enum msl_optid {
	MSL_OPT_END = 0,
	MSL_OPT_ALL = 'a',
	MSL_OPT_BYTES = 'b',
	MSL_OPT_CGROUP = 'c',
	MSL_OPT_HELP = 'h',
	MSL_OPT_JSON = 'j',
	MSL_OPT_KIND = 'k',
	MSL_OPT_DRY_RUN = 'n',
	MSL_OPT_OUTPUT = 'o',
	MSL_OPT_POLICY = 'p',
	MSL_OPT_QUIET = 'q',
	MSL_OPT_REVERSE = 'r',
	MSL_OPT_SORT = 's',
	MSL_OPT_TIMESTAMP = 'T',
	MSL_OPT_WIDE = 'w',
	/* Long only. */
	MSL_OPT_RAW = 0x100,
	MSL_OPT_NOHEADINGS,
	MSL_OPT_PROMETHEUS,
	MSL_OPT_ID_LABEL,
	MSL_OPT_BATCH,
	MSL_OPT_NO_COUNTERS,
	MSL_OPT_SNAPSHOT,
	MSL_OPT_BETWEEN,
	MSL_OPT_IDS,
	MSL_OPT_PERSIST,
	MSL_OPT_DEPTH,
	MSL_OPT_LOCAL_PATHS,
	MSL_OPT_SINCE,
	MSL_OPT_UNTIL,
	MSL_OPT_AGE,
	MSL_OPT_HEADROOM,
	MSL_OPT_WRITE,
};

/* An option a command accepts; @help replaces the vocabulary's own. */
struct msl_optuse {
	enum msl_optid id;
	const char *help;
};

/*
 * A command's trailing arguments are [INTERVAL [COUNT]] (stat, top).  An
 * optional argument before them that reads as a number is INTERVAL
 * (`suggest 60 10`: no PATH); a cgroup named so is written /60.
 */
#define MSL_ARGS_INTERVAL	1

struct msl_cmdline;
struct msl_cmd {
	const char *name;
	const char *summary;		/* one line for --help's list */
	int (*fn)(const struct msl_cmdline *cl);
	const struct msl_optuse *opts;	/* ends with MSL_OPT_END */
	const char *args;		/* "PATH SIZE", "[INTERVAL [COUNT]]" */
	int min_args, max_args;		/* before INTERVAL and COUNT */
	unsigned int flags;
	const char *help;
};

/* What the command line said, checked. */
struct msl_cmdline {
	const struct msl_cmd *cmd;
	bool all, bytes, json, dry_run, quiet, reverse, timestamp, wide;
	bool raw, noheadings, id_label, batch, no_counters, snapshot;
	bool between, ids, persist, local_paths;
	const char *cgroup;		/* -c: a path prefix, from "/" */
	char cgroup_buf[4096];		/* (where -c's normalized form is) */
	const char *output;		/* -o: columns, as given */
	const char *prometheus;		/* --prometheus FILE */
	bool sort_set;
	enum msl_sort sort;
	enum msl_kind kind;
	int policy;			/* -p, else -1 */
	int depth;			/* --depth, -1: none given */
	double since, until;		/* report: seconds in, -1: none given */
	double interval;		/* 0: none given */
	long count;			/* -1: none given */
	uint64_t age_ms;		/* --age, 0: none given */
	int headroom;			/* --headroom percent, -1: none given */
	const char *write;		/* --write FILE */
	int nargs;
	char **args;
};

/*
 * Parses argv (argv[0] is the command's name) into @cl.  Returns -1 to
 * go on, else the exit status (help printed: 0; usage error said: 2).
 * What the options and arguments allow together is opts_check.h's to say.
 */
int msl_cmdline_parse(const struct msl_cmd *cmd, int argc, char **argv,
		      struct msl_cmdline *cl);
/* A command's usage line, and with @full its help and options. */
void msl_cmd_usage(FILE *f, const struct msl_cmd *cmd, bool full);
/* Says what was wrong, then how to get help: returns MSL_EXIT_USAGE. */
int msl_usage_error(const struct msl_cmd *cmd, const char *fmt, ...)
	__printf(2, 3);

/* The commands, each defined beside its code. */
extern const struct msl_cmd msl_cmd_status, msl_cmd_set, msl_cmd_get,
	msl_cmd_unset, msl_cmd_apply, msl_cmd_tree, msl_cmd_stat, msl_cmd_top,
	msl_cmd_explain, msl_cmd_report, msl_cmd_suggest;

#endif /* MSL_TOOL_OPTS_H */
