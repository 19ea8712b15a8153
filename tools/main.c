// SPDX-License-Identifier: GPL-2.0
/*
 * memcg-softlimit: soft limits by cgroup path, and what global reclaim did
 * to each cgroup and why, from the memcg_softlimit module's counters.
 * Exit status: 0 success, 1 runtime error, 2 usage error.  Each command's
 * options and help are beside its code (cmd_*.c); opts.c parses them.
 */
#include <stdlib.h>
#include <locale.h>
#include <string.h>

#include <linux/kernel.h>

#include "msl.h"
#include "opts_check.h"
#include "opts.h"

#ifndef MSL_VERSION
#define MSL_VERSION "unknown"
#endif

static const struct msl_cmd *const commands[] = {
	&msl_cmd_status, &msl_cmd_set, &msl_cmd_get, &msl_cmd_unset,
	&msl_cmd_apply, &msl_cmd_tree, &msl_cmd_stat, &msl_cmd_top,
	&msl_cmd_explain, &msl_cmd_report, &msl_cmd_suggest,
};

static const struct msl_cmd *find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

static void usage_all(FILE *f)
{
	size_t i;

	fprintf(f, "usage: %s COMMAND [OPTIONS] [ARGS]\n       %s --help | --version | help COMMAND\n\ncommands:\n",
		MSL_PROG, MSL_PROG);
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-8s %s\n", commands[i]->name,
			commands[i]->summary);
	fprintf(f, "\nEach command's arguments and options: %s help COMMAND.\n",
		MSL_PROG);
	fprintf(f, "PATH is a cgroup path below the memory hierarchy's mount (/a/b), or the\n"
		"directory itself (/sys/fs/cgroup/a/b).  Options may follow the arguments.\n"
		"Exit status: 0 success, 1 runtime error, 2 usage error.\n"
		"See memcg-softlimit(8).\n");
}

static int run(int argc, char **argv)
{
	const struct msl_cmd *c;
	struct msl_cmdline cl;
	int ret;

	/*
	 * The terminal's character set, so that libsmartcols counts a wide
	 * character as two columns; numbers keep the C locale (JSON).
	 */
	setlocale(LC_CTYPE, "");
	if (argc < 2) {
		msl_err("no command given");
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
		if (argc < 3) {
			usage_all(stdout);
			return MSL_EXIT_OK;
		}
		c = find(argv[2]);
		if (!c) {
			msl_err("no command '%s' (%s --help lists them)",
				argv[2], MSL_PROG);
			return MSL_EXIT_USAGE;
		}
		msl_cmd_usage(stdout, c, true);
		return MSL_EXIT_OK;
	}
	c = find(argv[1]);
	if (!c) {
		msl_err("no command '%s' (%s --help lists them)", argv[1],
			MSL_PROG);
		return MSL_EXIT_USAGE;
	}
	ret = msl_cmdline_parse(c, argc - 1, argv + 1, &cl);
	if (ret < 0)
		ret = msl_cmdline_check(c, &cl);
	if (ret >= 0)
		return ret;
	return c->fn(&cl);
}

int main(int argc, char **argv)
{
	int ret;

	msl_hold_stdout();
	ret = run(argc, argv);
	/* What was printed but not written is a failure, whatever we did. */
	if (msl_close_stdout() && ret == MSL_EXIT_OK)
		ret = MSL_EXIT_ERR;
	return ret;
}
