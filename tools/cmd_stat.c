// SPDX-License-Identifier: GPL-2.0
/*
 * stat [INTERVAL [COUNT]]: per-cgroup totals from one snapshot of the
 * module's counters or, every INTERVAL seconds, what each interval added;
 * a table, JSON, and Prometheus for node_exporter.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "table.h"
#include "trace.h"

static const struct msl_optuse stat_opts[] = {
	{ MSL_OPT_JSON, NULL },
	{ MSL_OPT_TIMESTAMP, NULL },
	{ MSL_OPT_CGROUP, NULL },
	{ MSL_OPT_SORT, "sort by path (default), id, decisions, reclaims, skips, scanned, reclaimed" },
	{ MSL_OPT_REVERSE, NULL },
	{ MSL_OPT_ALL, "cgroups without decisions too; with --prometheus, series that are 0 too" },
	{ MSL_OPT_WIDE, "every column: each reason, pages by kind" },
	{ MSL_OPT_OUTPUT, NULL },
	{ MSL_OPT_RAW, NULL },
	{ MSL_OPT_NOHEADINGS, NULL },
	{ MSL_OPT_BYTES, NULL },
	{ MSL_OPT_PROMETHEUS, "also write the totals to FILE (atomically) for node_exporter's textfile collector, memcg_softlimit_up 0 when the module is absent" },
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

/* --prometheus: the totals, or memcg_softlimit_up 0 and why (t NULL). */
static int write_prom(const struct msl_cmdline *cl, const struct msl_table *t,
		      const char *down_why)
{
	struct msl_prom o = {
		.down_why = down_why, .cgroup = cl->cgroup, .all = cl->all,
		.id_label = cl->id_label,
	};
	const char *why;
	int ret;

	ret = msl_write_prometheus(cl->prometheus, t, &o, &why);
	if (ret)
		msl_err("cannot write %s: %s: %s", cl->prometheus, why,
			strerror(-ret));
	return ret;
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
static int module_absent(const struct msl_cmdline *cl, const char *why)
{
	if (!cl->prometheus) {
		msl_err("%s", why);
		return MSL_EXIT_ERR;
	}
	if (write_prom(cl, NULL, why))
		return MSL_EXIT_ERR;
	/* Even with --quiet: the one line worth a journal entry. */
	msl_warn("%s (wrote memcg_softlimit_up 0 to %s)", why, cl->prometheus);
	return MSL_EXIT_OK;
}

static int cmd_stat(const struct msl_cmdline *cl)
{
	struct msl_table prev = { 0 }, cur = { 0 }, delta = { 0 }, *out;
	struct msl_print pr = {
		.source = "snapshot", .all = cl->all, .bytes = cl->bytes,
		.timestamp = cl->timestamp, .cgroup = cl->cgroup,
	};
	size_t ncols;
	const struct msl_coldef *defs = msl_counter_columns(&ncols);
	struct msl_cgmap map = { 0 };
	struct msl_live live = { 0 };
	const char *why;
	struct msl_cgfs fs;
	int ret = MSL_EXIT_ERR;
	long n;

	ret = msl_cols_from_cmdline(cl, defs, ncols, msl_counter_default_cols,
				    &pr.cols);
	if (ret)
		return ret < 0 ? MSL_EXIT_USAGE : MSL_EXIT_OK;
	ret = MSL_EXIT_ERR;
	if (msl_open_fs(&fs))
		return MSL_EXIT_ERR;
	msl_signals_install();
	if (!msl_module_loaded())
		return module_absent(cl, msl_module_absent_why());
	if (msl_cgmap_build(&map, &fs)) {
		msl_err("cannot walk %s", fs.mount);
		return MSL_EXIT_ERR;
	}
	if (msl_live_open(&live, map.n, &why)) {
		msl_cgmap_free(&map);
		return msl_module_loaded() ? (msl_err("%s", why), MSL_EXIT_ERR) :
		       module_absent(cl, why);
	}
	for (n = 0;; n++) {
		if (msl_live_snapshot(&live, &cur, &why)) {
			if (msl_stop)
				break;
			msl_err("%s", why);
			if (cl->prometheus && !msl_module_loaded())
				write_prom(cl, NULL, why);
			goto out;
		}
		pr.time = now();
		msl_table_resolve_fresh(&cur, &map, &fs);
		/* By path: the file reads the same way from one run to the next. */
		msl_table_sort(&cur, MSL_SORT_PATH, false);
		if (cl->prometheus && write_prom(cl, &cur, NULL))
			goto out;
		out = &cur;
		if (cl->interval > 0) {
			if (n > 0) {
				if (msl_table_delta(&delta, &cur, &prev)) {
					msl_err("out of memory");
					goto out;
				}
				out = &delta;
				pr.delta = true;
				pr.interval = cl->interval;
			}
			if (msl_table_copy(&prev, &cur)) {
				msl_err("out of memory");
				goto out;
			}
		}
		if (!cl->quiet && (cl->interval == 0 || n > 0))
			print(cl, out, &pr);
		if (cl->interval == 0 || (cl->count > 0 && n >= cl->count))
			break;
		if (msl_sleep(cl->interval))
			break;
	}
	ret = MSL_EXIT_OK;
out:
	msl_live_close(&live);
	msl_table_free(&prev);
	msl_table_free(&cur);
	msl_table_free(&delta);
	msl_cgmap_free(&map);
	return ret;
}

const struct msl_cmd msl_cmd_stat = {
	.name = "stat", .fn = cmd_stat, .opts = stat_opts,
	.args = "[INTERVAL [COUNT]]", .min_args = 0, .max_args = 0,
	.flags = MSL_ARGS_INTERVAL,
	.help =
	"Per-cgroup totals from one snapshot of the module's counters: decisions\n"
	"that let reclaim run (RECLAIM), skips (SKIP), decisions by reason, pages\n"
	"scanned and reclaimed.  With INTERVAL (seconds), what each interval added,\n"
	"COUNT times (else until interrupted), as vmstat does.",
};
