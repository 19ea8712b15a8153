// SPDX-License-Identifier: GPL-2.0
/*
 * The command line as a whole, once its options are taken (opts.c): as
 * many arguments as the command takes, and no options that exclude each
 * other or that go only with another.
 */
#include <stdio.h>
#include <string.h>

#include "opts.h"
#include "opts_check.h"

/* The name of positional argument @i in cmd->args ("SIZE"). */
static const char *arg_name(const struct msl_cmd *cmd, int i)
{
	static char name[32];
	const char *p = cmd->args ? cmd->args : "";
	size_t n;

	for (;;) {
		p += strspn(p, " [");
		n = strcspn(p, " []");
		if (!n || !i--)
			break;
		p += n;
		p += strspn(p, "]");
	}
	snprintf(name, sizeof(name), "%.*s", (int)n, n ? p : "argument");
	return name;
}

/* As many positional arguments as @cmd takes. */
static int check_nargs(const struct msl_cmd *cmd, const struct msl_cmdline *cl)
{
	if (cl->nargs < cmd->min_args)
		return msl_usage_error(cmd, "missing %s",
				       arg_name(cmd, cl->nargs));
	if (cl->nargs > cmd->max_args)
		return msl_usage_error(cmd, "unexpected argument '%s'",
				       cl->args[cmd->max_args]);
	return -1;
}

/* Options that exclude each other, or go only with another. */
static int check_combinations(const struct msl_cmd *cmd,
			      const struct msl_cmdline *cl)
{
	if (cl->json && cl->output)
		return msl_usage_error(cmd, "-o picks a table's columns: a --json document has every field (docs/json.md)");
	if (cl->snapshot && cl->between)
		return msl_usage_error(cmd, "--snapshot and --between-snapshots exclude each other");
	if (cl->id_label && !cl->prometheus)
		return msl_usage_error(cmd, "--id-label goes with --prometheus FILE");
	if (cl->since >= 0 && cl->until >= 0 && cl->until <= cl->since)
		return msl_usage_error(cmd, "--until %g is not after --since %g",
				       cl->until, cl->since);
	if ((cl->snapshot || cl->between) &&
	    (cl->since >= 0 || cl->until >= 0 || cl->interval > 0))
		return msl_usage_error(cmd, "--since, --until and INTERVAL count events: not with --snapshot or --between-snapshots");
	if (cl->ids && cl->local_paths)
		return msl_usage_error(cmd, "--ids and --local-paths exclude each other");
	if (cl->depth >= 0 && !cl->prometheus)
		return msl_usage_error(cmd, "--depth goes with --prometheus FILE");
	if (cl->quiet && !cl->prometheus && (cmd->flags & MSL_ARGS_INTERVAL))
		return msl_usage_error(cmd, "--quiet without --prometheus FILE would do nothing");
	return -1;
}


int msl_cmdline_check(const struct msl_cmd *cmd, const struct msl_cmdline *cl)
{
	int ret = check_nargs(cmd, cl);

	if (ret >= 0)
		return ret;
	return check_combinations(cmd, cl);
}
