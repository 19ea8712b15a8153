// SPDX-License-Identifier: GPL-2.0
/*
 * memcg-softlimit: soft limits by cgroup path, and what global reclaim did
 * to each cgroup and why, from the memcg_softlimit module's counters.
 * Exit status: 0 success, 1 runtime error, 2 usage error.
 */
#include <stdlib.h>
#include <string.h>

#include "msl.h"

#ifndef MSL_VERSION
#define MSL_VERSION "unknown"
#endif

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *synopsis;
	const char *help;
};

static const struct command commands[] = {
	{ "status", cmd_status, "status",
	  "The module (loaded, version, policy on/off, parameters, active hooks),\n"
	  "the kernel, the LRU and the cgroup version." },
	{ "set", cmd_set, "set PATH SIZE",
	  "Set the soft limit of a cgroup: SIZE in bytes with an optional K, M, G\n"
	  "or T (powers of 1024), or max (never over: skipped by every first pass).\n"
	  "cgroup v1: memory.soft_limit_in_bytes; cgroup v2: the module." },
	{ "get", cmd_get, "get [-b|--bytes] PATH",
	  "Print the soft limit of a cgroup: a size, max, or unset." },
	{ "unset", cmd_unset, "unset PATH",
	  "Remove the soft limit of a cgroup (unset counts as 0 while\n"
	  "unset_eligible=Y)." },
	{ "apply", cmd_apply, "apply [-n|--dry-run] [FILE]",
	  "Apply a file of \"PATH SIZE\" lines (# starts a comment; SIZE may also\n"
	  "be unset), by default " MSL_CONF_DEFAULT ".  Every line is tried; the\n"
	  "exit status is 1 if any failed." },
	{ "tree", cmd_tree, "tree [-n|--no-counters] [PATH]",
	  "The cgroup tree with usage, soft limit, over or under, the decision at\n"
	  "the first pass, and the decision totals of each cgroup." },
	{ "stat", cmd_stat,
	  "stat [-j|--json] [-i SECONDS [-c COUNT]] [-s KEY] [-r] [-a] [-w]\n"
	  "             [-p|--prometheus FILE] [-q]",
	  "Per-cgroup totals from one snapshot of the module's counters; with -i,\n"
	  "what each interval added.  -s sorts by KEY (path, id, decisions,\n"
	  "reclaims, skips, scanned, reclaimed), -r reverses, -a lists cgroups\n"
	  "without decisions too, -w shows every reason and kind.  --prometheus\n"
	  "writes the totals to FILE (atomically) in Prometheus text format; -q\n"
	  "prints nothing else." },
	{ "top", cmd_top,
	  "top [-d SECONDS] [-b|--batch] [-n COUNT] [-s KEY] [-r] [-a]",
	  "The cgroups reclaim is hitting and sparing, every SECONDS (default 2).\n"
	  "q or Ctrl-C quits.  --batch prints plain screens one after another\n"
	  "(COUNT of them with -n) for logs and scripts." },
	{ "explain", cmd_explain, "explain [-k KIND] [-p v8|walk|excess] PATH",
	  "Why global reclaim would skip or reclaim this cgroup now, at each\n"
	  "priority from 12 to 0: its ancestors' usage and soft limits and the\n"
	  "rule that decides, computed by the module's own policy code with its\n"
	  "current parameters.  KIND: kswapd (default), direct, proactive,\n"
	  "targeted.  -p explains under that policy instead of the module's:\n"
	  "v8, walk (which also reads the siblings of each level) or excess\n"
	  "(which also reads the whole hierarchy for the largest excess)." },
	{ "report", cmd_report,
	  "report [--snapshot|--between-snapshots] [-j] [-s KEY] [-r] [-a] [-w] [--ids] FILE",
	  "The per-cgroup summary of a trace-cmd recording (trace-cmd record -e\n"
	  "memcg_softlimit): decisions by reason and pages by kind, counted from\n"
	  "its events; --snapshot prints the last snapshot recorded instead.\n"
	  "Cgroup ids are resolved on this machine; --ids does not." },
};
#define NR_COMMANDS ARRAY_SIZE(commands)

static const struct command *find(const char *name)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void usage_all(FILE *f)
{
	size_t i;

	fprintf(f, "usage: %s COMMAND [ARGS]\n       %s --help | --version | help COMMAND\n\ncommands:\n",
		MSL_PROG, MSL_PROG);
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  %s\n", commands[i].synopsis);
	fprintf(f, "\nPATH is a cgroup path below the memory hierarchy's mount (/a/b), or the\n"
		"directory itself (/sys/fs/cgroup/a/b).  Exit status: 0 success, 1 runtime\n"
		"error, 2 usage error.  See memcg-softlimit(8).\n");
}

int msl_usage(const char *cmd, bool error)
{
	const struct command *c = find(cmd);
	FILE *f = error ? stderr : stdout;

	if (!c) {
		usage_all(f);
	} else {
		fprintf(f, "usage: %s %s\n", MSL_PROG, c->synopsis);
		if (!error)
			fprintf(f, "\n%s\n", c->help);
		else
			fprintf(f, "(%s %s --help for more)\n", MSL_PROG, c->name);
	}
	return error ? MSL_EXIT_USAGE : MSL_EXIT_OK;
}

int main(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		usage_all(stderr);
		return MSL_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage_all(stdout);
		return MSL_EXIT_OK;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("%s %s\n", MSL_PROG, MSL_VERSION);
		return MSL_EXIT_OK;
	}
	if (!strcmp(argv[1], "help")) {
		if (argc > 2 && !find(argv[2])) {
			msl_err("no command '%s'", argv[2]);
			return MSL_EXIT_USAGE;
		}
		return msl_usage(argc > 2 ? argv[2] : "", false);
	}
	c = find(argv[1]);
	if (!c) {
		msl_err("no command '%s' (%s --help lists them)", argv[1],
			MSL_PROG);
		return MSL_EXIT_USAGE;
	}
	return c->fn(argc - 1, argv + 1);
}
