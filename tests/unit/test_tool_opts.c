// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of tools/opts.c and tools/scols.c: one option vocabulary,
 * options after arguments, [INTERVAL [COUNT]], usage errors that say
 * what was wrong, -o column choice.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "../../tools/msl.h"
#include "../../tools/opts.h"
#include "../../tools/opts_check.h"
#include "../../tools/output.h"
#include "../../tools/scols.h"
#include "unit.h"

static int fake(const struct msl_cmdline *cl) { (void)cl; return 0; }

static const struct msl_optuse opts[] = {
	{ MSL_OPT_JSON, NULL }, { MSL_OPT_CGROUP, NULL },
	{ MSL_OPT_SORT, NULL }, { MSL_OPT_TIMESTAMP, NULL },
	{ MSL_OPT_PROMETHEUS, NULL }, { MSL_OPT_ID_LABEL, NULL },
	{ MSL_OPT_POLICY, NULL }, { MSL_OPT_RAW, NULL }, { MSL_OPT_END, NULL },
};
static const struct msl_cmd stat_like = {
	.name = "stat", .fn = fake, .opts = opts,
	.args = "[INTERVAL [COUNT]]", .flags = MSL_ARGS_INTERVAL,
	.help = "A test command.",
};
static const struct msl_cmd path_like = {
	.name = "set", .fn = fake, .opts = opts, .args = "PATH SIZE",
	.min_args = 2, .max_args = 2, .help = "A test command.",
};

static const struct msl_optuse suggest_opts[] = {
	{ MSL_OPT_JSON, NULL }, { MSL_OPT_AGE, NULL },
	{ MSL_OPT_HEADROOM, NULL }, { MSL_OPT_WRITE, NULL },
	{ MSL_OPT_END, NULL },
};
static const struct msl_cmd suggest_like = {
	.name = "suggest", .fn = fake, .opts = suggest_opts,
	.args = "[PATH] [INTERVAL [COUNT]]", .min_args = 0, .max_args = 1,
	.flags = MSL_ARGS_INTERVAL, .help = "A test command.",
};

static char errbuf[4096];

/* Parses the words of @line; stderr into errbuf. */
static int parse(const struct msl_cmd *cmd, const char *line,
		 struct msl_cmdline *cl)
{
	static char copy[512];
	char *argv[32], *save, *w;
	int argc = 0, ret, saved = dup(2);
	FILE *f = tmpfile();

	snprintf(copy, sizeof(copy), "%s", line);
	for (w = strtok_r(copy, " ", &save); w && argc < 31;
	     w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	fflush(stderr);
	dup2(fileno(f), 2);
	ret = msl_cmdline_parse(cmd, argc, argv, cl);
	if (ret < 0)
		ret = msl_cmdline_check(cmd, cl);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	errbuf[fread(errbuf, 1, sizeof(errbuf) - 1, f)] = '\0';
	fclose(f);
	return ret;
}

static void interval_and_count(void)
{
	struct msl_cmdline cl;

	CHECK(parse(&stat_like, "stat", &cl) == -1);
	CHECK(cl.interval == 0 && cl.count == -1 && cl.policy == -1);
	CHECK(parse(&stat_like, "stat 5", &cl) == -1 && cl.interval == 5);
	CHECK(parse(&stat_like, "stat 0.5 3", &cl) == -1 &&
	      cl.interval == 0.5 && cl.count == 3 && cl.nargs == 0);
	CHECK(parse(&stat_like, "stat 1 2 3", &cl) == MSL_EXIT_USAGE);
	CHECK(strstr(errbuf, "unexpected argument '3'"));
	CHECK(parse(&stat_like, "stat 0", &cl) == MSL_EXIT_USAGE);
	CHECK(strstr(errbuf, "stat: bad interval '0'"));
	CHECK(parse(&stat_like, "stat soon", &cl) == MSL_EXIT_USAGE);
	CHECK(strstr(errbuf, "bad interval 'soon'"));
	CHECK(parse(&stat_like, "stat 1 0", &cl) == MSL_EXIT_USAGE);
	CHECK(strstr(errbuf, "bad count '0'"));
	CHECK(strstr(errbuf, "usage: memcg-softlimit stat [OPTIONS] [INTERVAL [COUNT]]"));
}

/* An optional PATH before INTERVAL: a number there is INTERVAL. */
static void optional_path_then_interval(void)
{
	struct msl_cmdline cl;

	CHECK(parse(&suggest_like, "suggest", &cl) == -1 && cl.nargs == 0 &&
	      cl.interval == 0 && cl.age_ms == 0 && cl.headroom == -1 &&
	      !cl.write);
	CHECK(parse(&suggest_like, "suggest /A", &cl) == -1 && cl.nargs == 1 &&
	      cl.interval == 0);
	CHECK(parse(&suggest_like, "suggest 60 10", &cl) == -1 &&
	      cl.nargs == 0 && cl.interval == 60 && cl.count == 10);
	CHECK(parse(&suggest_like, "suggest 0.5", &cl) == -1 &&
	      cl.nargs == 0 && cl.interval == 0.5 && cl.count == -1);
	CHECK(parse(&suggest_like, "suggest /A 60 10", &cl) == -1 &&
	      cl.nargs == 1 && !strcmp(cl.args[0], "/A") && cl.interval == 60 &&
	      cl.count == 10);
	CHECK(parse(&suggest_like, "suggest /60 5", &cl) == -1 &&
	      cl.nargs == 1 && cl.interval == 5);
	CHECK(parse(&suggest_like, "suggest 0", &cl) == MSL_EXIT_USAGE);
	CHECK(strstr(errbuf, "bad interval '0'"));
	CHECK(parse(&suggest_like, "suggest /A soon", &cl) == MSL_EXIT_USAGE);
	CHECK(strstr(errbuf, "bad interval 'soon'"));
	CHECK(parse(&suggest_like, "suggest 1 2 3", &cl) == MSL_EXIT_USAGE);
	CHECK(strstr(errbuf, "after INTERVAL and COUNT"));
	CHECK(parse(&suggest_like, "suggest /A /B", &cl) == MSL_EXIT_USAGE);
	CHECK(strstr(errbuf, "bad interval '/B'"));
	CHECK(parse(&suggest_like, "suggest --age 5m --headroom 25% -j /A 60 2",
		    &cl) == -1);
	CHECK(cl.age_ms == 300000 && cl.headroom == 25 && cl.json &&
	      cl.interval == 60 && cl.count == 2);
	CHECK(parse(&suggest_like, "suggest --write out.conf", &cl) == -1 &&
	      !strcmp(cl.write, "out.conf"));
	CHECK(parse(&suggest_like, "suggest --age 5x", &cl) == MSL_EXIT_USAGE);
	CHECK(strstr(errbuf, "suggest: bad age '5x': a duration"));
	CHECK(parse(&suggest_like, "suggest --age 0", &cl) == MSL_EXIT_USAGE);
	CHECK(parse(&suggest_like, "suggest --headroom 1001", &cl) ==
	      MSL_EXIT_USAGE);
	CHECK(strstr(errbuf, "bad headroom '1001': a whole percentage"));
	CHECK(parse(&suggest_like, "suggest --headroom 1.5", &cl) ==
	      MSL_EXIT_USAGE);
	CHECK(parse(&suggest_like, "suggest --headroom=", &cl) ==
	      MSL_EXIT_USAGE);
	CHECK(parse(&suggest_like, "suggest --write=", &cl) == MSL_EXIT_USAGE);
	CHECK(strstr(errbuf, "--write needs a file name"));
	CHECK(parse(&suggest_like, "suggest --headroom 0", &cl) == -1 &&
	      cl.headroom == 0);
}

static void options_anywhere(void)
{
	struct msl_cmdline cl;

	CHECK(parse(&stat_like, "stat 2 -j 4 -c /A -T", &cl) == -1);
	CHECK(cl.json && cl.timestamp && cl.interval == 2 && cl.count == 4 &&
	      !strcmp(cl.cgroup, "/A"));
	CHECK(parse(&path_like, "set /A 1G --json", &cl) == -1);
	CHECK(cl.json && cl.nargs == 2 && !strcmp(cl.args[0], "/A"));
	CHECK(parse(&path_like, "set -- -odd 1G", &cl) == -1);
	CHECK(!strcmp(cl.args[0], "-odd"));
	CHECK(parse(&stat_like, "stat -s reclaimed --raw -p walk", &cl) == -1);
	CHECK(cl.sort_set && cl.sort == MSL_SORT_RECLAIMED && cl.raw &&
	      cl.policy == MSL_POLICY_WALK);
}

static void usage_errors_say_what(void)
{
	struct msl_cmdline cl;

	CHECK(parse(&path_like, "set /A", &cl) == MSL_EXIT_USAGE);
	CHECK(strstr(errbuf, "set: missing SIZE"));
	CHECK(parse(&path_like, "set", &cl) == MSL_EXIT_USAGE);
	CHECK(strstr(errbuf, "set: missing PATH"));
	CHECK(parse(&path_like, "set /A 1G extra", &cl) == MSL_EXIT_USAGE);
	CHECK(strstr(errbuf, "unexpected argument 'extra'"));
	CHECK(parse(&stat_like, "stat -x", &cl) == MSL_EXIT_USAGE);
	CHECK(strstr(errbuf, "unknown option '-x'"));
	CHECK(parse(&path_like, "set /P -5", &cl) == MSL_EXIT_USAGE);
	CHECK(strstr(errbuf, "unknown option '-5': no SIZE, INTERVAL or COUNT is negative"));
	CHECK(parse(&stat_like, "stat --bogus", &cl) == MSL_EXIT_USAGE);
	CHECK(strstr(errbuf, "unknown option '--bogus'"));
	/* An option of the vocabulary this command does not take. */
	CHECK(parse(&stat_like, "stat --dry-run", &cl) == MSL_EXIT_USAGE);
	CHECK(strstr(errbuf, "unknown option '--dry-run'"));
	CHECK(parse(&stat_like, "stat -s", &cl) == MSL_EXIT_USAGE);
	CHECK(strstr(errbuf, "option -s needs an argument"));
	CHECK(parse(&stat_like, "stat -s bogus", &cl) == MSL_EXIT_USAGE);
	CHECK(strstr(errbuf, "bad sort key 'bogus'"));
	CHECK(parse(&stat_like, "stat -p nope", &cl) == MSL_EXIT_USAGE);
	CHECK(strstr(errbuf, "bad policy 'nope'"));
	CHECK(parse(&stat_like, "stat --id-label", &cl) == MSL_EXIT_USAGE);
	CHECK(strstr(errbuf, "--id-label goes with --prometheus"));
}

/* -c is a path from the root, whatever form it was given in. */
static void cgroup_filter_normalized(void)
{
	struct msl_cmdline cl;

	CHECK(parse(&stat_like, "stat -c A/B", &cl) == -1);
	CHECK(cl.cgroup && !strcmp(cl.cgroup, "/A/B"));
	CHECK(parse(&stat_like, "stat -c //A//B/", &cl) == -1);
	CHECK(!strcmp(cl.cgroup, "/A/B"));
	CHECK(parse(&stat_like, "stat -c /", &cl) == -1);
	CHECK(!strcmp(cl.cgroup, "/"));
	CHECK(msl_path_under(cl.cgroup, "/X"));
	CHECK(parse(&stat_like, "stat -c A/../B", &cl) == MSL_EXIT_USAGE);
	CHECK(strstr(errbuf, "bad cgroup 'A/../B'"));
	CHECK(parse(&stat_like, "stat", &cl) == -1);
	CHECK(!cl.cgroup);
}

static void column_choice(void)
{
	size_t n;
	const struct msl_coldef *defs = msl_counter_columns(&n);
	struct msl_cols c;
	char why[128];
	unsigned int r;

	CHECK(msl_cols_select(defs, n, "ID,CGROUP", NULL, &c, why, sizeof(why)) == 0);
	CHECK(c.n == 2 && !strcmp(defs[c.idx[0]].name, "ID"));
	CHECK(msl_cols_select(defs, n, "ID,CGROUP", "+retry,Scanned_Kswapd",
			      &c, why, sizeof(why)) == 0);
	CHECK(c.n == 4 && !strcmp(defs[c.idx[2]].name, "RETRY") &&
	      !strcmp(defs[c.idx[3]].name, "SCANNED_KSWAPD"));
	CHECK(msl_cols_select(defs, n, "ID", "cgroup", &c, why, sizeof(why)) == 0);
	CHECK(c.n == 1 && !strcmp(defs[c.idx[0]].name, "CGROUP"));
	CHECK(msl_cols_select(defs, n, "ID", "nope", &c, why, sizeof(why)) == -1);
	CHECK(strstr(why, "unknown column 'nope'"));
	CHECK(msl_cols_select(defs, n, "ID", "id,,cgroup", &c, why, sizeof(why)) == -1);
	CHECK(msl_cols_select(defs, n, "ID", "id,", &c, why, sizeof(why)) == -1);
	CHECK(msl_cols_select(defs, n, "ID", "", &c, why, sizeof(why)) == -1);
	/* Every reason has its column, named from policy.h's list. */
	for (r = 0; r < MSL_NR_REASONS; r++) {
		CHECK(msl_cols_select(defs, n, "ID", msl_reason_name(r), &c,
				      why, sizeof(why)) == 0);
		CHECK(!strcasecmp(defs[c.idx[0]].name, msl_reason_name(r)));
	}
	CHECK(msl_cols_select(defs, n, "ID", "retry", &c, why, sizeof(why)) == 0);
}

int main(void)
{
	RUN("tool_opts", interval_and_count);
	RUN("tool_opts", options_anywhere);
	RUN("tool_opts", optional_path_then_interval);
	RUN("tool_opts", usage_errors_say_what);
	RUN("tool_opts", column_choice);
	RUN("tool_opts", cgroup_filter_normalized);
	return 0;
}
