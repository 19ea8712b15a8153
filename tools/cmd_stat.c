// SPDX-License-Identifier: GPL-2.0
/*
 * stat [INTERVAL [COUNT]]: per-cgroup totals from one snapshot of the
 * module's counters or, every INTERVAL seconds, what each interval added;
 * a table, JSON, and Prometheus for node_exporter.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "absence.h"
#include "cgmap.h"
#include "cgroup.h"
#include "counters.h"
#include "exporter.h"
#include "module.h"
#include "msl.h"
#include "opts.h"
#include "output.h"
#include "scols.h"
#include "trace.h"

static const struct msl_optuse stat_opts[] = {
	{ MSL_OPT_JSON, NULL },
	{ MSL_OPT_TIMESTAMP, NULL },
	{ MSL_OPT_CGROUP, NULL },
	{ MSL_OPT_SORT, "sort by path (default), id, decisions, reclaims, skips, scanned, reclaimed" },
	{ MSL_OPT_REVERSE, NULL },
	{ MSL_OPT_ALL, "cgroups without decisions too" },
	{ MSL_OPT_WIDE, "every column: each reason, pages by kind" },
	{ MSL_OPT_OUTPUT, NULL },
	{ MSL_OPT_RAW, NULL },
	{ MSL_OPT_NOHEADINGS, NULL },
	{ MSL_OPT_BYTES, NULL },
	{ MSL_OPT_PROMETHEUS, "also write the totals to FILE (atomically) for node_exporter's textfile collector, memcg_softlimit_up 0 when the module is absent; FILE.state keeps them growing across runs" },
	{ MSL_OPT_DEPTH, NULL },
	{ MSL_OPT_ID_LABEL, NULL },
	{ MSL_OPT_QUIET, "no tables (with --prometheus); errors and warnings still said" },
	{ MSL_OPT_END, NULL },
};

static double now(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static void print(const struct msl_cmdline *cl, struct msl_table *t,
		  struct msl_print *pr)
{
	msl_table_sort(t, cl->sort_set ? cl->sort : MSL_SORT_PATH,
		       cl->reverse);
	if (cl->json)
		msl_print_json(stdout, t, pr);
	else if (msl_print_text(stdout, t, pr, cl))
		msl_err("out of memory");
	if (cl->interval > 0 && !cl->json)
		putchar('\n');
	fflush(stdout);
}

/*
 * The module absent: with --prometheus that is a state to report
 * (memcg_softlimit_up 0), not a failure of the timer that runs us.
 */
static int module_absent(const struct msl_cmdline *cl,
			 struct msl_exporter *ex, struct msl_print *pr,
			 const char *why)
{
	if (!cl->prometheus) {
		msl_err("%s", why);
		return MSL_EXIT_ERR;
	}
	/* (said when it changes, even with --quiet: worth a journal line) */
	if (msl_exporter_write(ex, NULL, NULL, why))
		return MSL_EXIT_ERR;
	/* A document that says so: the caller asked for JSON and gets it. */
	if (cl->json && !cl->quiet) {
		pr->down_why = why;
		pr->time = now();
		msl_print_json(stdout, NULL, pr);
	}
	return MSL_EXIT_OK;
}

/*
 * A snapshot each INTERVAL (one without), into the exporter's file and
 * printed (with INTERVAL, what each interval added).  An exit status.
 */
static int snapshots(const struct msl_cmdline *cl, struct msl_live *live,
		     struct msl_cgmap *map, struct msl_cgfs *fs,
		     struct msl_exporter *ex, struct msl_print *pr)
{
	struct msl_table prev = { 0 }, cur = { 0 }, delta = { 0 }, *out;
	int ret = MSL_EXIT_ERR;
	const char *why;
	long n;

	for (n = 0;; n++) {
		if (msl_live_snapshot(live, &cur, &why)) {
			if (msl_stop)
				break;
			msl_err("%s", why);
			if (cl->prometheus && !msl_module_loaded())
				msl_exporter_write(ex, NULL, NULL, why);
			goto out;
		}
		pr->time = now();
		msl_table_resolve_fresh(&cur, map, fs);
		/* By path: the file reads the same way from one run to the next. */
		msl_table_sort(&cur, MSL_SORT_PATH, false);
		if (cl->prometheus && msl_exporter_write(ex, &cur, map, NULL))
			goto out;
		out = &cur;
		if (cl->interval > 0) {
			if (n > 0) {
				if (msl_table_delta(&delta, &cur, &prev)) {
					msl_err("out of memory");
					goto out;
				}
				out = &delta;
				pr->delta = true;
				pr->interval = cl->interval;
			}
			if (msl_table_copy(&prev, &cur)) {
				msl_err("out of memory");
				goto out;
			}
		}
		if (!cl->quiet && (cl->interval == 0 || n > 0))
			print(cl, out, pr);
		/* Nobody reads us any more (main says so): stop. */
		if (ferror(stdout))
			break;
		if (cl->interval == 0 || (cl->count > 0 && n >= cl->count))
			break;
		if (msl_sleep(cl->interval))
			break;
	}
	ret = MSL_EXIT_OK;
out:
	msl_table_free(&prev);
	msl_table_free(&cur);
	msl_table_free(&delta);
	return ret;
}

static int cmd_stat(const struct msl_cmdline *cl)
{
	struct msl_print pr = {
		.source = "snapshot", .all = cl->all, .bytes = cl->bytes,
		.timestamp = cl->timestamp, .command = "stat",
	};
	size_t ncols;
	const struct msl_coldef *defs = msl_counter_columns(&ncols);
	struct msl_cgmap map = { 0 };
	struct msl_live live = { 0 };
	struct msl_exporter ex;
	char filter[PATH_MAX];
	const char *why;
	struct msl_cgfs fs;
	int ret = MSL_EXIT_ERR;

	ret = msl_cols_from_cmdline(cl, defs, ncols, msl_counter_default_cols,
				    &pr.cols);
	if (ret)
		return ret < 0 ? MSL_EXIT_USAGE : MSL_EXIT_OK;
	if (msl_open_fs(&fs))
		return MSL_EXIT_ERR;
	if (cl->cgroup) {
		ret = msl_cg_filter(&fs, cl->cgroup, filter, sizeof(filter));
		if (ret)
			return ret;
		pr.cgroup = filter;
	}
	if (cl->prometheus &&
	    msl_exporter_open(&ex, cl->prometheus, &fs, cl->depth, pr.cgroup,
			      cl->id_label))
		return MSL_EXIT_ERR;
	ret = MSL_EXIT_ERR;
	msl_signals_install();
	if (!msl_module_loaded()) {
		ret = module_absent(cl, &ex, &pr, msl_module_absent_why());
		goto out;
	}
	if (msl_cgmap_build(&map, &fs)) {
		msl_err("cannot walk %s", fs.mount);
		goto out;
	}
	if (msl_live_open(&live, map.n, &why)) {
		if (msl_module_loaded())
			msl_err("%s", why);
		else
			ret = module_absent(cl, &ex, &pr, why);
		goto out;
	}
	ret = snapshots(cl, &live, &map, &fs, &ex, &pr);
out:
	if (cl->prometheus)
		msl_exporter_close(&ex);
	msl_live_close(&live);
	msl_cgmap_free(&map);
	return ret;
}

const struct msl_cmd msl_cmd_stat = {
	.name = "stat", .fn = cmd_stat, .opts = stat_opts,
	.summary = "per-cgroup decision totals; --prometheus for node_exporter",
	.args = "[INTERVAL [COUNT]]", .min_args = 0, .max_args = 0,
	.flags = MSL_ARGS_INTERVAL,
	.help =
	"Per-cgroup totals from one snapshot of the module's counters: decisions\n"
	"that let reclaim run (RECLAIM), skips (SKIP), decisions by reason, pages\n"
	"scanned and reclaimed.  With INTERVAL (seconds), what each interval added,\n"
	"COUNT times (else until interrupted), as vmstat does.",
};
