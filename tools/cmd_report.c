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

#include "table.h"
#include "trace.h"

struct report {
	struct msl_evfmt fmt;
	struct msl_evsink sink;
	struct msl_snapcoll snaps;
	struct msl_table activity;
	struct msl_table snap_times;	/* --between-snapshots */
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
	{ MSL_OPT_END, NULL },
};

static int cmd_report(const struct msl_cmdline *cl)
{
	struct msl_print pr = {
		.source = "events", .all = cl->all, .bytes = cl->bytes,
		.no_paths = cl->ids, .cgroup = cl->cgroup,
	};
	size_t ncols;
	const struct msl_coldef *defs = msl_counter_columns(&ncols);
	const char *file = cl->args[0];
	struct msl_cgmap map = { 0 };
	struct msl_table *out;
	struct report r;
	struct msl_cgfs fs;
	int n, found, ret;

	ret = msl_cols_from_cmdline(cl, defs, ncols, msl_counter_default_cols,
				    &pr.cols);
	if (ret)
		return ret < 0 ? MSL_EXIT_USAGE : MSL_EXIT_OK;
	ret = MSL_EXIT_ERR;
	if (cl->snapshot)
		pr.source = "snapshot";
	if (cl->between)
		pr.source = "between-snapshots";

	memset(&r, 0, sizeof(r));
	r.sink.snaps = &r.snaps;
	r.sink.activity = &r.activity;
	tracecmd_set_loglevel(TEP_LOG_CRITICAL);
	if (cl->between) {
		/* First the times of each cgroup's snapshots, then the events. */
		struct report times = { .sink.snap_times = &r.snap_times };

		n = read_file(file, &times);
		if (n == -2)
			goto out;
		if (n < 0)
			goto fail_read;
		r.sink.window = &r.snap_times;
	}
	found = read_file(file, &r);
	if (found == -2)
		goto out;
	if (found < 0)
		goto fail_read;
	if (!found) {
		msl_err("%s has no memcg_softlimit events: record with trace-cmd record -e memcg_softlimit",
			file);
		goto out;
	}
	if (r.fmt.missing[0])
		msl_warn("event fields not in the recording (counted as 0): %s",
			 r.fmt.missing);
	if (r.sink.nr_missed_events)
		msl_warn("the recording lost %llu events: counts are low",
			 (unsigned long long)r.sink.nr_missed_events);

	if (cl->snapshot) {
		if (!r.snaps.nr_done) {
			msl_err("%s has no complete snapshot (echo 1 > %s while recording, or memcg-softlimit stat)",
				file, MSL_CTL_SNAPSHOT);
			goto out;
		}
		if (r.snaps.last_missing)
			msl_warn("the last snapshot lacks %llu cgroups (lost events)",
				 (unsigned long long)r.snaps.last_missing);
		out = &r.snaps.last;
	} else if (cl->between) {
		if (r.snaps.nr_done < 2) {
			msl_err("%s has %llu complete snapshots, --between-snapshots needs two (memcg-softlimit stat, twice, while recording)",
				file, (unsigned long long)r.snaps.nr_done);
			goto out;
		}
		out = &r.activity;
		out->seq = r.snaps.last.seq;
		out->nr_tracked = out->n;
	} else {
		out = &r.activity;
		/* The activity has no snapshot_done: say what it is counted from. */
		out->seq = r.snaps.nr_done ? r.snaps.last.seq : 0;
		out->nr_tracked = out->n;
	}
	if (!cl->ids && !msl_cgfs_find(&fs, NULL) && !msl_cgmap_build(&map, &fs))
		msl_table_resolve(out, &map);
	msl_table_sort(out, cl->sort_set ? cl->sort : MSL_SORT_PATH,
		       cl->reverse);
	if (cl->json) {
		msl_print_json(stdout, out, &pr);
	} else {
		if (!cl->snapshot && !cl->raw && !cl->noheadings)
			printf("# %llu decision, %llu reclaimed and %llu snapshot events in %s\n",
			       (unsigned long long)r.sink.nr_decision,
			       (unsigned long long)r.sink.nr_reclaimed,
			       (unsigned long long)r.sink.nr_snapshot, file);
		if (msl_print_text(stdout, out, &pr, cl)) {
			msl_err("out of memory");
			goto out;
		}
	}
	ret = MSL_EXIT_OK;
	goto out;
fail_read:
	msl_err("cannot read the events of %s", file);
out:
	msl_snapcoll_free(&r.snaps);
	msl_table_free(&r.activity);
	msl_table_free(&r.snap_times);
	msl_cgmap_free(&map);
	return ret;
}

const struct msl_cmd msl_cmd_report = {
	.name = "report", .fn = cmd_report, .opts = report_opts,
	.args = "FILE", .min_args = 1, .max_args = 1,
	.help =
	"The per-cgroup summary of a trace-cmd recording (trace-cmd record -e\n"
	"memcg_softlimit), every buffer of it: decisions by reason and pages by\n"
	"kind counted from its events; --snapshot prints the last snapshot\n"
	"recorded instead.  Cgroup ids are resolved on this machine; --ids does\n"
	"not.",
};
