// SPDX-License-Identifier: GPL-2.0
/*
 * The option vocabulary and its one parser.  getopt_long() permutes, so
 * options after the arguments are taken too (`tree /A -j`); it is told to
 * stay quiet, and every mistake is said here in words with the command's
 * name.
 */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>
#include <memcg_softlimit/policy.h>

#include "opts.h"
#include "cgroup.h"
#include "conf.h"
#include "counters.h"
#include "msl.h"
#include "size.h"

struct vocab {
	enum msl_optid id;
	const char *name;		/* long name */
	const char *arg;		/* NULL: takes no argument */
	const char *help;
};

/* Every option of the tool, with the meaning it has everywhere. */
static const struct vocab vocabulary[] = {
	{ MSL_OPT_ALL, "all", NULL, "cgroups without any count too" },
	{ MSL_OPT_BYTES, "bytes", NULL, "sizes in bytes, not K, M, G" },
	{ MSL_OPT_CGROUP, "cgroup", "CGROUP",
	  "only CGROUP and the cgroups below it (a path prefix)" },
	{ MSL_OPT_HELP, "help", NULL, "this help" },
	{ MSL_OPT_JSON, "json", NULL, "JSON, one document per interval" },
	{ MSL_OPT_KIND, "kind", "KIND",
	  "reclaim kind: kswapd (default), direct, proactive, targeted" },
	{ MSL_OPT_DRY_RUN, "dry-run", NULL, "check and say what would be done, change nothing" },
	{ MSL_OPT_OUTPUT, "output", "COLS",
	  "columns, comma-separated (+COLS adds to the default; -o help lists them)" },
	{ MSL_OPT_POLICY, "policy", "POLICY",
	  "decide under POLICY (v8, walk, excess), not the module's" },
	{ MSL_OPT_QUIET, "quiet", NULL, "print nothing but errors" },
	{ MSL_OPT_REVERSE, "reverse", NULL, "reverse the sort order" },
	{ MSL_OPT_SORT, "sort", "KEY",
	  "sort by path, id, decisions, reclaims, skips, scanned, reclaimed" },
	{ MSL_OPT_TIMESTAMP, "timestamp", NULL, "print the time before each table" },
	{ MSL_OPT_WIDE, "wide", NULL, "every column" },
	{ MSL_OPT_RAW, "raw", NULL, "columns separated by one blank, unaligned, for scripts" },
	{ MSL_OPT_NOHEADINGS, "noheadings", NULL, "no header line" },
	{ MSL_OPT_PROMETHEUS, "prometheus", "FILE",
	  "also write the totals to FILE for node_exporter's textfile collector" },
	{ MSL_OPT_ID_LABEL, "id-label", NULL,
	  "with --prometheus: an id label (the cgroup id) on every series" },
	{ MSL_OPT_BATCH, "batch", NULL,
	  "plain screens one after another (the default when not on a terminal)" },
	{ MSL_OPT_NO_COUNTERS, "no-counters", NULL, "take no snapshot of the counters" },
	{ MSL_OPT_SNAPSHOT, "snapshot", NULL, "the last snapshot in the recording" },
	{ MSL_OPT_BETWEEN, "between-snapshots", NULL,
	  "only the events between each cgroup's first and last snapshot" },
	{ MSL_OPT_IDS, "ids", NULL, "cgroup ids only, no paths" },
	{ MSL_OPT_LOCAL_PATHS, "local-paths", NULL,
	  "ids the recording does not name resolved on this machine (right only where and while it was recorded)" },
	{ MSL_OPT_DEPTH, "depth", "N",
	  "with --prometheus: the cgroups below depth N counted into their ancestor there" },
	{ MSL_OPT_SINCE, "since", "SECONDS",
	  "only the events from SECONDS after the recording's first one" },
	{ MSL_OPT_UNTIL, "until", "SECONDS",
	  "only the events before SECONDS after the recording's first one" },
	{ MSL_OPT_PERSIST, "persist", NULL,
	  "also keep it across module loads and reboots (a file in " MSL_CONF_DIR ")" },
	{ MSL_OPT_AGE, "age", "DURATION",
	  "the window: memory used within DURATION (30s, 5m, 500ms, 1h; plain: seconds)" },
	{ MSL_OPT_HEADROOM, "headroom", "PCT",
	  "percent added to what is reused (default 10)" },
	{ MSL_OPT_WRITE, "write", "FILE",
	  "also write the suggestions to FILE as \"PATH SIZE\" rules, not applied" },
};

static const struct vocab *vocab_of(enum msl_optid id)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vocabulary); i++)
		if (vocabulary[i].id == id)
			return &vocabulary[i];
	return NULL;
}

static bool has_short(enum msl_optid id)
{
	return id < 0x100;
}

/* @text from column @indent on, wrapped at word boundaries before 80. */
static void put_wrapped(FILE *f, const char *text, int indent)
{
	int col = indent, n;

	while (*text) {
		n = (int)strcspn(text, " ");
		if (col > indent && col + 1 + n > 79) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", n, text);
		col += n;
		text += n;
		text += strspn(text, " ");
	}
	fputc('\n', f);
}

void msl_cmd_usage(FILE *f, const struct msl_cmd *cmd, bool full)
{
	const struct msl_optuse *u;
	char left[64];

	fprintf(f, "usage: %s %s%s%s%s\n", MSL_PROG, cmd->name,
		cmd->opts->id ? " [OPTIONS]" : "", cmd->args ? " " : "",
		cmd->args ? cmd->args : "");
	if (!full)
		return;
	fprintf(f, "\n%s\n\noptions:\n", cmd->help);
	for (u = cmd->opts; u->id; u++) {
		const struct vocab *v = vocab_of(u->id);

		if (!v)
			continue;
		if (has_short(v->id))
			snprintf(left, sizeof(left), "-%c, --%s%s%s", v->id,
				 v->name, v->arg ? " " : "", v->arg ? v->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", v->name,
				 v->arg ? " " : "", v->arg ? v->arg : "");
		fprintf(f, "  %-26s ", left);
		put_wrapped(f, u->help ? u->help : v->help, 29);
	}
	fprintf(f, "  %-26s %s\n", "-h, --help", "this help");
}

int msl_usage_error(const struct msl_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s %s: ", MSL_PROG, cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	msl_cmd_usage(stderr, cmd, false);
	fprintf(stderr, "(%s %s --help for more)\n", MSL_PROG, cmd->name);
	return MSL_EXIT_USAGE;
}

static int parse_kind(const char *s, enum msl_kind *kind)
{
	int k;

	for (k = 0; k < MSL_NR_KINDS; k++)
		if (!strcmp(s, msl_kind_name(k))) {
			*kind = k;
			return 0;
		}
	return -EINVAL;
}

/* A percentage, a whole number from 0 to 1000, "%" allowed after it. */
static int parse_percent(const char *s, int *out)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end == '%')
		end++;
	if (errno || *end || v > 1000)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

/* Seconds from a recording's start: 0 or more, a fraction allowed. */
static int parse_offset(const char *s, double *out)
{
	return msl_decimal_parse(s, 0, 1e9, out);
}

static int parse_count(const char *s, long *count)
{
	char *end;

	errno = 0;
	*count = strtol(s, &end, 10);
	return errno || end == s || *end || *count <= 0 ? -EINVAL : 0;
}

/* The options that only switch something on, and where. */
static const struct {
	enum msl_optid id;
	size_t offset;
} flags[] = {
	{ MSL_OPT_ALL, offsetof(struct msl_cmdline, all) },
	{ MSL_OPT_BYTES, offsetof(struct msl_cmdline, bytes) },
	{ MSL_OPT_JSON, offsetof(struct msl_cmdline, json) },
	{ MSL_OPT_DRY_RUN, offsetof(struct msl_cmdline, dry_run) },
	{ MSL_OPT_QUIET, offsetof(struct msl_cmdline, quiet) },
	{ MSL_OPT_REVERSE, offsetof(struct msl_cmdline, reverse) },
	{ MSL_OPT_TIMESTAMP, offsetof(struct msl_cmdline, timestamp) },
	{ MSL_OPT_WIDE, offsetof(struct msl_cmdline, wide) },
	{ MSL_OPT_RAW, offsetof(struct msl_cmdline, raw) },
	{ MSL_OPT_NOHEADINGS, offsetof(struct msl_cmdline, noheadings) },
	{ MSL_OPT_ID_LABEL, offsetof(struct msl_cmdline, id_label) },
	{ MSL_OPT_BATCH, offsetof(struct msl_cmdline, batch) },
	{ MSL_OPT_NO_COUNTERS, offsetof(struct msl_cmdline, no_counters) },
	{ MSL_OPT_SNAPSHOT, offsetof(struct msl_cmdline, snapshot) },
	{ MSL_OPT_BETWEEN, offsetof(struct msl_cmdline, between) },
	{ MSL_OPT_IDS, offsetof(struct msl_cmdline, ids) },
	{ MSL_OPT_PERSIST, offsetof(struct msl_cmdline, persist) },
	{ MSL_OPT_LOCAL_PATHS, offsetof(struct msl_cmdline, local_paths) },
};

static bool *flag_of(int id, struct msl_cmdline *cl)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(flags); i++)
		if ((int)flags[i].id == id)
			return (bool *)((char *)cl + flags[i].offset);
	return NULL;
}

/*
 * -c CGROUP as a path from the root: "A/B" is "/A/B" (as PATH arguments
 * take it), never a prefix that no path has.  The commands that see the
 * hierarchy check that it exists; report, that the recording has it.
 */
static int take_cgroup(const struct msl_cmd *cmd, const char *arg,
		       struct msl_cmdline *cl)
{
	static const struct msl_cgfs no_mount = { .mount = "/" };
	const char *why;

	if (msl_cg_normalize(&no_mount, arg, cl->cgroup_buf,
			     sizeof(cl->cgroup_buf), &why))
		return msl_usage_error(cmd, "bad cgroup '%s': %s", arg, why);
	cl->cgroup = cl->cgroup_buf;
	return -1;
}

/* One option's value into @cl: -1 to go on, else the exit status. */
static int take(const struct msl_cmd *cmd, int id, const char *arg,
		struct msl_cmdline *cl)
{
	bool *flag = flag_of(id, cl);
	long depth;
	int policy;

	if (flag) {
		*flag = true;
		return -1;
	}
	switch (id) {
	case MSL_OPT_CGROUP:
		return take_cgroup(cmd, arg, cl);
	case MSL_OPT_OUTPUT:
		cl->output = arg;
		break;
	case MSL_OPT_PROMETHEUS:
		cl->prometheus = arg;
		break;
	case MSL_OPT_WRITE:
		if (!*arg)
			return msl_usage_error(cmd, "--write needs a file name");
		cl->write = arg;
		break;
	case MSL_OPT_AGE:
		if (msl_duration_parse(arg, &cl->age_ms))
			return msl_usage_error(cmd, "bad age '%s': a duration from 1ms to 30 days: a number with ms, s, m or h after it, seconds without (e.g. 30s, 5m, 500ms, 90)",
					       arg);
		break;
	case MSL_OPT_HEADROOM:
		if (parse_percent(arg, &cl->headroom))
			return msl_usage_error(cmd, "bad headroom '%s': a whole percentage from 0 to 1000 (e.g. 10)",
					       arg);
		break;
	case MSL_OPT_SINCE:
	case MSL_OPT_UNTIL:
		if (parse_offset(arg, id == MSL_OPT_SINCE ? &cl->since :
				 &cl->until))
			return msl_usage_error(cmd, "bad %s '%s': seconds from the recording's first event, 0 or more (e.g. 30 or 2.5)",
					       id == MSL_OPT_SINCE ? "--since" : "--until",
					       arg);
		break;
	case MSL_OPT_DEPTH:
		if (parse_count(arg, &depth) && strcmp(arg, "0"))
			return msl_usage_error(cmd, "bad depth '%s': a number of path components, 0 or more",
					       arg);
		cl->depth = strcmp(arg, "0") ? (int)depth : 0;
		break;
	case MSL_OPT_SORT:
		if (msl_sort_parse(arg, &cl->sort))
			return msl_usage_error(cmd, "bad sort key '%s': one of %s",
					       arg, msl_sort_keys);
		cl->sort_set = true;
		break;
	case MSL_OPT_KIND:
		if (parse_kind(arg, &cl->kind))
			return msl_usage_error(cmd, "bad kind '%s': kswapd, direct, proactive or targeted",
					       arg);
		break;
	case MSL_OPT_POLICY:
		policy = msl_policy_parse(arg);
		if (policy < 0)
			return msl_usage_error(cmd, "bad policy '%s': v8, walk or excess",
					       arg);
		cl->policy = policy;
		break;
	default:
		return MSL_EXIT_USAGE;
	}
	return -1;
}

/*
 * How many of cl->args are the command's own arguments, the rest being
 * INTERVAL and COUNT: the optional ones stop at the first that reads as
 * a number (opts.h).
 */
static int own_args(const struct msl_cmd *cmd, const struct msl_cmdline *cl)
{
	int n = cmd->min_args;
	double v;

	while (n < cmd->max_args && n < cl->nargs &&
	       msl_decimal_parse(cl->args[n], 0, 1e18, &v))
		n++;
	return n;
}

/* The trailing [INTERVAL [COUNT]], taken off cl->args. */
static int take_interval(const struct msl_cmd *cmd, struct msl_cmdline *cl)
{
	int own = own_args(cmd, cl), extra = cl->nargs - own;

	if (extra <= 0)
		return -1;
	if (msl_seconds_parse(cl->args[own], &cl->interval))
		return msl_usage_error(cmd, "bad interval '%s': seconds, more than 0 (e.g. 5 or 0.5)",
				       cl->args[own]);
	if (extra > 1 && parse_count(cl->args[own + 1], &cl->count))
		return msl_usage_error(cmd, "bad count '%s': a number of intervals, 1 or more",
				       cl->args[own + 1]);
	if (extra > 2)
		return msl_usage_error(cmd, "unexpected argument '%s' after INTERVAL and COUNT",
				       cl->args[own + 2]);
	cl->nargs = own;
	return -1;
}

/* @cl before the options: nothing given. */
static void cmdline_init(struct msl_cmdline *cl, const struct msl_cmd *cmd)
{
	memset(cl, 0, sizeof(*cl));
	cl->cmd = cmd;
	cl->policy = -1;
	cl->count = -1;
	cl->depth = -1;
	cl->since = cl->until = -1;
	cl->headroom = -1;
	cl->kind = MSL_KIND_KSWAPD;
}

/*
 * getopt_long()'s tables for the options @cmd takes, and --help:
 * @longopts has room for ARRAY_SIZE(vocabulary) + 2, @shortopts for
 * 2 * ARRAY_SIZE(vocabulary) + 4.
 */
static void getopt_tables(const struct msl_cmd *cmd, struct option *longopts,
			  char *shortopts)
{
	const struct msl_optuse *u;
	size_t nl = 0, ns = 0;

	/* ':' first: a missing argument is told apart from an unknown option. */
	shortopts[ns++] = ':';
	for (u = cmd->opts; u->id; u++) {
		const struct vocab *v = vocab_of(u->id);

		if (!v)
			continue;
		longopts[nl++] = (struct option){ v->name,
			v->arg ? required_argument : no_argument, NULL, v->id };
		if (has_short(v->id)) {
			shortopts[ns++] = (char)v->id;
			if (v->arg)
				shortopts[ns++] = ':';
		}
	}
	longopts[nl++] = (struct option){ "help", no_argument, NULL, 'h' };
	longopts[nl] = (struct option){ 0 };
	shortopts[ns++] = 'h';
	shortopts[ns] = '\0';
}

/* getopt_long() returned ':' or '?' (@c): the mistake said; exit status. */
static int option_error(const struct msl_cmd *cmd, int c, char **argv)
{
	if (c == ':')
		return msl_usage_error(cmd, "option %s needs an argument",
				       argv[optind - 1]);
	/* "-5": someone meant a number; none is negative. */
	if (optopt >= '0' && optopt <= '9')
		return msl_usage_error(cmd, "unknown option '-%c': no SIZE, INTERVAL or COUNT is negative",
				       optopt);
	if (optopt)
		return msl_usage_error(cmd, "unknown option '-%c'",
				       optopt);
	return msl_usage_error(cmd, "unknown option '%s'",
			       argv[optind - 1]);
}

int msl_cmdline_parse(const struct msl_cmd *cmd, int argc, char **argv,
		      struct msl_cmdline *cl)
{
	struct option longopts[ARRAY_SIZE(vocabulary) + 2];
	char shortopts[2 * ARRAY_SIZE(vocabulary) + 4];
	int c, ret;

	cmdline_init(cl, cmd);
	getopt_tables(cmd, longopts, shortopts);
	opterr = 0;
	/* 0, not 1: glibc starts afresh, whatever a previous parse left. */
	optind = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (c == 'h') {
			msl_cmd_usage(stdout, cmd, true);
			return MSL_EXIT_OK;
		}
		if (c == ':' || c == '?')
			return option_error(cmd, c, argv);
		ret = take(cmd, c, optarg, cl);
		if (ret >= 0)
			return ret;
	}
	cl->args = argv + optind;
	cl->nargs = argc - optind;
	if (cmd->flags & MSL_ARGS_INTERVAL) {
		ret = take_interval(cmd, cl);
		if (ret >= 0)
			return ret;
	}
	return -1;
}
