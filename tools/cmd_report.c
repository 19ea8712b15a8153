// SPDX-License-Identifier: GPL-2.0
/*
 * report FILE: the per-cgroup summary of a trace-cmd recording, read with
 * libtracecmd: decisions by reason and pages by kind counted from its
 * decision and reclaimed events, or (--snapshot) the last snapshot in it.
 * --between-snapshots counts each cgroup's events from its first snapshot
 * in the file to its last, the window that two `stat` calls made while
 * recording see, whatever reclaim ran before or after them.
 * Every buffer of the file (top level and instances) is read.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>
#include <memcg_softlimit/events.h>

#include "cgmap.h"
#include "cgroup.h"
#include "counters.h"
#include "msl.h"
#include "opts.h"
#include "output.h"
#include "scols.h"
#include "trace.h"

struct report {
	struct msl_evfmt fmt;
	struct msl_evsink sink;
	struct msl_snapcoll snaps;
	struct msl_table *activity;	/* one, or one per interval */
	size_t nactivity;
	struct msl_table snap_times;	/* --between-snapshots */
	struct msl_table paths;		/* what the recording names */
	int err;
};

static int on_record(struct tracecmd_input *handle, struct tep_record *rec,
		     int cpu, void *data)
{
	struct report *r = data;
	struct tep_handle *tep = tracecmd_get_tep(handle);
	struct tep_event *ev;

	(void)cpu;
	ev = tep_find_event(tep, tep_data_type(tep, rec));
	if (!ev)
		return 0;
	if (msl_ev_handle(&r->fmt, ev, rec, &r->sink)) {
		r->err = -ENOMEM;
		return -1;
	}
	return 0;
}

static int read_buffer(struct tracecmd_input *h, struct report *r)
{
	if (msl_evfmt_init(&r->fmt, tracecmd_get_tep(h)))
		return 0;		/* no memcg_softlimit events in it */
	if (tracecmd_iterate_events(h, NULL, 0, on_record, r) < 0 || r->err)
		return -1;
	return 1;
}

/*
 * Every buffer of the file through r's sink: the number of buffers with
 * the module's events, -1 when reading failed, -2 when the file is not a
 * recording (said).
 */
static int read_file(const char *path, struct report *r)
{
	struct tracecmd_input *h, *ih;
	int i, n, found = 0;

	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		msl_err("cannot read %s as a trace-cmd recording: %s",
			path, errno ? strerror(errno) : "bad format");
		return -2;
	}
	n = read_buffer(h, r);
	for (i = 0; n >= 0 && i < tracecmd_buffer_instances(h); i++) {
		found += n;
		ih = tracecmd_buffer_instance_handle(h, i);
		if (!ih) {
			n = 0;
			continue;
		}
		n = read_buffer(ih, r);
		tracecmd_close(ih);
	}
	tracecmd_close(h);
	return n < 0 ? -1 : found + n;
}

/*
 * The rows' paths: the recording's own by default (its cgroup_path
 * events), which are right wherever and whenever it is read; ids it does
 * not name resolved on this machine only when asked (--local-paths), as
 * they mean something only where, and while, it was recorded.
 */
static void name_rows(const struct msl_cmdline *cl, struct msl_table *out,
		      const struct msl_table *paths, struct msl_cgmap *map,
		      struct msl_print *pr)
{
	struct msl_cgfs fs;
	size_t i, named = 0;

	if (cl->ids) {
		pr->paths_from = "none";
		return;
	}
	pr->recorded = true;
	if (cl->local_paths && !msl_cgfs_find(&fs, NULL) &&
	    !msl_cgmap_build(map, &fs))
		msl_table_resolve(out, map);
	else
		for (i = 0; i < out->n; i++)
			out->rows[i].path = NULL;
	for (i = 0; i < out->n; i++) {
		const struct msl_row *p = msl_table_find(paths, out->rows[i].id);

		if (p && p->path) {
			out->rows[i].path = p->path;
			named++;
		}
	}
	pr->paths_from = cl->local_paths ? "recording+local" : "recording";
	if (!paths->n && !cl->local_paths)
		msl_warn("the recording names no cgroup (a module from before its cgroup_path event): --local-paths resolves the ids on this machine, right only where and while it was recorded");
	else if (named < out->n && !cl->local_paths)
		msl_warn("%zu of %zu cgroups are not named in the recording (made before it and never in a snapshot): --local-paths resolves them on this machine",
			 out->n - named, out->n);
}

/* -c names a cgroup the recording has (with or without decisions). */
static bool any_under(const struct msl_table *t, const char *prefix)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (msl_path_under(prefix, t->rows[i].path))
			return true;
	return false;
}

static const struct msl_optuse report_opts[] = {
	{ MSL_OPT_SNAPSHOT, NULL },
	{ MSL_OPT_BETWEEN, NULL },
	{ MSL_OPT_JSON, NULL },
	{ MSL_OPT_CGROUP, NULL },
	{ MSL_OPT_SORT, "sort by path (default), id, decisions, reclaims, skips, scanned, reclaimed" },
	{ MSL_OPT_REVERSE, NULL },
	{ MSL_OPT_ALL, NULL },
	{ MSL_OPT_WIDE, "every column: each reason, pages by kind" },
	{ MSL_OPT_OUTPUT, NULL },
	{ MSL_OPT_RAW, NULL },
	{ MSL_OPT_NOHEADINGS, NULL },
	{ MSL_OPT_BYTES, NULL },
	{ MSL_OPT_IDS, NULL },
	{ MSL_OPT_LOCAL_PATHS, NULL },
	{ MSL_OPT_SINCE, NULL },
	{ MSL_OPT_UNTIL, NULL },
	{ MSL_OPT_END, NULL },
};

/*
 * --since, --until, INTERVAL: the window in the recording's own time (from
 * its first event, which a first reading finds) and its intervals, one
 * table each.  0, or -1 when reading failed (said).
 */
static int set_window(const struct msl_cmdline *cl, const char *file,
		      struct report *r, struct msl_print *pr)
{
	struct report first = { .err = 0 };
	uint64_t span;
	size_t n = 1;
	int found;

	found = read_file(file, &first);
	if (found == 0)
		msl_err("%s has no memcg_softlimit events", file);
	else if (found == -1)
		msl_err("cannot read the events of %s", file);
	if (found <= 0)
		return -1;
	pr->window = true;
	pr->since = cl->since >= 0 ? cl->since : 0;
	pr->until = cl->until >= 0 ? cl->until :
		    (double)(first.sink.last_ts - first.sink.first_ts + 1) / 1e9;
	r->sink.t_from = first.sink.first_ts + (uint64_t)(pr->since * 1e9);
	r->sink.t_to = first.sink.first_ts + (uint64_t)(pr->until * 1e9);
	if (r->sink.t_to <= r->sink.t_from) {
		msl_err("%s: the recording is %.3f s long, nothing after --since %g",
			file, (double)(first.sink.last_ts - first.sink.first_ts) / 1e9,
			pr->since);
		return -1;
	}
	if (cl->interval > 0) {
		r->sink.step = (uint64_t)(cl->interval * 1e9);
		span = r->sink.t_to - r->sink.t_from;
		n = (size_t)((span + r->sink.step - 1) / r->sink.step);
	}
	if (n > 100000) {
		msl_err("%zu intervals: choose a longer INTERVAL", n);
		return -1;
	}
	r->activity = calloc(n, sizeof(*r->activity));
	if (!r->activity) {
		msl_err("out of memory");
		return -1;
	}
	r->nactivity = n;
	return 0;
}

/* One table (or document) of the report. */
static int print_one(const struct msl_cmdline *cl, struct msl_table *out,
		     struct msl_print *pr, const struct report *r,
		     const char *file)
{
	msl_table_sort(out, cl->sort_set ? cl->sort : MSL_SORT_PATH,
		       cl->reverse);
	if (cl->json) {
		msl_print_json(stdout, out, pr);
		return 0;
	}
	if (!cl->snapshot && !cl->raw && !cl->noheadings)
		printf("# %llu decision, %llu reclaimed and %llu snapshot events in %s\n",
		       (unsigned long long)r->sink.nr_decision,
		       (unsigned long long)r->sink.nr_reclaimed,
		       (unsigned long long)r->sink.nr_snapshot, file);
	if (pr->window && !cl->raw && !cl->noheadings)
		printf("# from %.3f s to %.3f s after the recording's first event\n",
		       pr->since, pr->until);
	if (msl_print_text(stdout, out, pr, cl)) {
		msl_err("out of memory");
		return -1;
	}
	if (cl->interval > 0 && !cl->raw)
		putchar('\n');
	return 0;
}

/*
 * Every event of @file into @r (with --between-snapshots, the times of
 * each cgroup's snapshots first).  0, or -1 with why said.
 */
static int read_events(const struct msl_cmdline *cl, const char *file,
		       struct report *r)
{
	int n, found;

	if (cl->between) {
		/* First the times of each cgroup's snapshots, then the events. */
		struct report times = { .sink.snap_times = &r->snap_times };

		n = read_file(file, &times);
		if (n == -2)
			return -1;
		if (n < 0)
			goto fail_read;
		r->sink.window = &r->snap_times;
	}
	found = read_file(file, r);
	if (found == -2)
		return -1;
	if (found < 0)
		goto fail_read;
	if (!found) {
		msl_err("%s has no memcg_softlimit events: record with trace-cmd record -e memcg_softlimit",
			file);
		return -1;
	}
	if (r->fmt.missing[0])
		msl_warn("event fields not in the recording (counted as 0): %s",
			 r->fmt.missing);
	if (r->sink.nr_missed_events)
		msl_warn("the recording lost %llu events: counts are low",
			 (unsigned long long)r->sink.nr_missed_events);
	return 0;
fail_read:
	msl_err("cannot read the events of %s", file);
	return -1;
}

/*
 * The tables to print: the activity counted (one per interval), or the
 * last snapshot; their rows named.  0, or -1 with why said.
 */
static int pick_tables(const struct msl_cmdline *cl, const char *file,
		       struct report *r, struct msl_cgmap *map,
		       struct msl_print *pr)
{
	size_t i, matched = 0;
	struct msl_table *out;

	if (cl->snapshot) {
		if (!r->snaps.nr_done) {
			msl_err("%s has no complete snapshot (echo 1 > %s while recording, or memcg-softlimit stat)",
				file, MSL_CTL_SNAPSHOT);
			return -1;
		}
		if (r->snaps.last_missing)
			msl_warn("the last snapshot lacks %llu cgroups (lost events)",
				 (unsigned long long)r->snaps.last_missing);
		r->activity = &r->snaps.last;
		r->nactivity = 1;
	} else if (cl->between && r->snaps.nr_done < 2) {
		msl_err("%s has %llu complete snapshots, --between-snapshots needs two (memcg-softlimit stat, twice, while recording)",
			file, (unsigned long long)r->snaps.nr_done);
		return -1;
	}
	for (i = 0; i < r->nactivity; i++) {
		out = &r->activity[i];
		if (!cl->snapshot) {
			/* The activity has no snapshot_done: say what it is counted from. */
			out->seq = r->snaps.nr_done ? r->snaps.last.seq : 0;
			out->nr_tracked = out->n;
		}
		name_rows(cl, out, &r->paths, map, pr);
		matched += !cl->cgroup || any_under(out, cl->cgroup);
	}
	if (!matched) {
		msl_err("-c %s: no cgroup of the recording is %s or below it%s",
			cl->cgroup, cl->cgroup, cl->ids ?
			" (with --ids no cgroup has a path: leave out -c)" : "");
		return -1;
	}
	return 0;
}

static int cmd_report(const struct msl_cmdline *cl)
{
	struct msl_print pr = {
		.source = "events", .all = cl->all, .bytes = cl->bytes,
		.no_paths = cl->ids, .cgroup = cl->cgroup, .command = "report",
	};
	size_t ncols, i;
	const struct msl_coldef *defs = msl_counter_columns(&ncols);
	const char *file = cl->args[0];
	struct msl_cgmap map = { 0 };
	struct msl_table one = { 0 };
	struct report r;
	double since;
	int ret;

	ret = msl_cols_from_cmdline(cl, defs, ncols, msl_counter_default_cols,
				    &pr.cols);
	if (ret)
		return ret < 0 ? MSL_EXIT_USAGE : MSL_EXIT_OK;
	if (cl->count >= 0)
		return msl_usage_error(cl->cmd, "report takes FILE and one INTERVAL, no COUNT");
	ret = MSL_EXIT_ERR;
	if (cl->snapshot)
		pr.source = "snapshot";
	if (cl->between)
		pr.source = "between-snapshots";

	memset(&r, 0, sizeof(r));
	r.activity = &one;
	r.nactivity = 1;
	tracecmd_set_loglevel(TEP_LOG_CRITICAL);
	if ((cl->since >= 0 || cl->until >= 0 || cl->interval > 0) &&
	    set_window(cl, file, &r, &pr))
		goto out;
	r.sink.snaps = &r.snaps;
	r.sink.activity = r.activity;
	r.sink.nactivity = r.nactivity;
	r.sink.paths = &r.paths;
	if (read_events(cl, file, &r) || pick_tables(cl, file, &r, &map, &pr))
		goto out;
	since = pr.since;
	for (i = 0; i < r.nactivity; i++) {
		if (r.sink.step) {
			pr.since = since + (double)i * cl->interval;
			pr.until = pr.since + cl->interval;
		}
		if (print_one(cl, &r.activity[i], &pr, &r, file))
			goto out;
	}
	ret = MSL_EXIT_OK;
out:
	msl_snapcoll_free(&r.snaps);
	for (i = 0; r.activity != &r.snaps.last && i < r.nactivity; i++)
		msl_table_free(&r.activity[i]);
	if (r.activity != &one && r.activity != &r.snaps.last)
		free(r.activity);
	msl_table_free(&one);
	msl_table_free(&r.snap_times);
	msl_paths_free(&r.paths);
	msl_cgmap_free(&map);
	return ret;
}

const struct msl_cmd msl_cmd_report = {
	.name = "report", .fn = cmd_report, .opts = report_opts,
	.summary = "the per-cgroup summary of a trace-cmd recording",
	.args = "FILE [INTERVAL]", .min_args = 1, .max_args = 1,
	.flags = MSL_ARGS_INTERVAL,
	.help =
	"The per-cgroup summary of a trace-cmd recording (trace-cmd record -e\n"
	"memcg_softlimit), every buffer of it: decisions by reason and pages by\n"
	"kind counted from its events; --snapshot prints the last snapshot\n"
	"recorded instead.  Cgroups are named by the paths the recording holds\n"
	"(the module traces them at each snapshot and each mkdir), wherever it\n"
	"is read; --local-paths also resolves the ids it does not name on this\n"
	"machine, --ids names none.  --since and --until keep the events of a\n"
	"window (seconds after the recording's first event); INTERVAL prints a\n"
	"table for each INTERVAL seconds of it."
};
