/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's events (include/memcg_softlimit/events.h) as libtraceevent
 * reads them: every field is found by name in the event's format, at run
 * time, live (live.c) or from a trace-cmd recording (cmd_report.c).
 */
#ifndef MSL_TOOL_TRACE_H
#define MSL_TOOL_TRACE_H

#include <signal.h>

#include <event-parse.h>

#include <memcg_softlimit/policy.h>

#include "counters.h"

struct msl_evfmt {
	struct tep_event *decision, *reclaimed, *snapshot, *snapshot_done;
	struct tep_event *cgroup_path;
	struct tep_format_field *p_id;
	struct tep_format_field *d_id, *d_kind, *d_reason;
	struct tep_format_field *r_id, *r_kind, *r_scanned, *r_reclaimed;
	struct tep_format_field *s_seq, *s_id;
	struct tep_format_field *s_reason[MSL_NR_REASONS];
	struct tep_format_field *s_scanned[MSL_NR_KINDS];
	struct tep_format_field *s_reclaimed[MSL_NR_KINDS];
	struct tep_format_field *sd_seq, *sd_nr_tracked, *sd_untracked;
	struct tep_format_field *sd_dying, *sd_missed;
	char missing[256];		/* fields not found, for a warning */
};
/* 0, or -1 when the tep has none of the module's events. */
int msl_evfmt_init(struct msl_evfmt *f, struct tep_handle *tep);

/* Snapshots being assembled from their events, by sequence number. */
#define MSL_SNAP_PENDING	4
struct msl_snapcoll {
	struct msl_table pending[MSL_SNAP_PENDING];
	struct msl_table last;		/* the newest snapshot_done seen */
	uint64_t nr_done;
	uint64_t last_missing;		/* rows of @last lost (nr_tracked - n) */
};
void msl_snapcoll_free(struct msl_snapcoll *c);

/* Where a stream of events goes: snapshots, and/or counted activity. */
struct msl_evsink {
	struct msl_snapcoll *snaps;
	struct msl_table *activity;	/* decisions by reason, pages by kind */
	/*
	 * report --between-snapshots.  @snap_times: a first reading that
	 * only notes, per cgroup, the times of its first and last snapshot
	 * events.  @window: the second reading counts a cgroup's events into
	 * @activity only when they fall between those two times.  By time
	 * stamp, not by reading order, which need not be time order across
	 * CPUs.
	 */
	struct msl_table *snap_times;
	const struct msl_table *window;
	/*
	 * The paths the recording names (cgroup_path events): row->path
	 * owned, the last one recorded for each id.
	 */
	struct msl_table *paths;
	/*
	 * report --since/--until and INTERVAL: only the events with
	 * t_from <= ts < t_to count (t_to 0: no window), each into
	 * activity[(ts - t_from) / step] (step 0: all into activity[0]).
	 */
	uint64_t t_from, t_to, step;
	size_t nactivity;
	struct msl_row outside;		/* what falls outside counts here */
	/* The time stamps of the first and last event read (ns). */
	uint64_t first_ts, last_ts;
	uint64_t nr_decision, nr_reclaimed, nr_snapshot, nr_unknown;
	uint64_t nr_missed_events;	/* reported lost by the ring buffer */
};
/* Frees the paths of msl_evsink.paths, and the table. */
void msl_paths_free(struct msl_table *paths);
/* 0, or -ENOMEM. */
int msl_ev_handle(const struct msl_evfmt *f, struct tep_event *ev,
		  struct tep_record *rec, struct msl_evsink *sink);

/* live.c: a private tracefs instance with the snapshot events enabled. */
struct tracefs_instance;
struct msl_live {
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	struct msl_evfmt fmt;
	struct msl_snapcoll coll;
	size_t expect_rows;
};
extern volatile sig_atomic_t msl_stop;	/* SIGINT, SIGTERM, SIGHUP seen */
void msl_signals_install(void);
/* 0, or -1 with *why set (what to do). */
int msl_live_open(struct msl_live *l, size_t expect_rows, const char **why);
/* Asks the module for one snapshot and reads it into @out. */
int msl_live_snapshot(struct msl_live *l, struct msl_table *out,
		      const char **why);
void msl_live_close(struct msl_live *l);
/* Sleeps up to @seconds, returning early (1) when msl_stop is set. */
int msl_sleep(double seconds);

#endif /* MSL_TOOL_TRACE_H */
