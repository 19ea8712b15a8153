// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding the module's events with libtraceevent.  Fields are looked up
 * by name in the formats the kernel (or the recording) describes, never at
 * fixed offsets; snapshot fields are named after policy.h's enums.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <memcg_softlimit/events.h>
#include <memcg_softlimit/policy.h>

#include "trace.h"
#include "counters.h"

static struct tep_format_field *field(struct msl_evfmt *f,
				      struct tep_event *ev, const char *name)
{
	struct tep_format_field *fld;
	size_t len;

	if (!ev)
		return NULL;
	fld = tep_find_field(ev, name);
	if (!fld) {
		len = strlen(f->missing);
		snprintf(f->missing + len, sizeof(f->missing) - len, "%s%s:%s",
			 len ? ", " : "", ev->name, name);
	}
	return fld;
}

int msl_evfmt_init(struct msl_evfmt *f, struct tep_handle *tep)
{
	char name[64];
	int i;

	memset(f, 0, sizeof(*f));
	f->decision = tep_find_event_by_name(tep, MSL_TRACE_SYSTEM,
					     MSL_EV_DECISION);
	f->reclaimed = tep_find_event_by_name(tep, MSL_TRACE_SYSTEM,
					      MSL_EV_RECLAIMED);
	f->snapshot = tep_find_event_by_name(tep, MSL_TRACE_SYSTEM,
					     MSL_EV_SNAPSHOT);
	f->snapshot_done = tep_find_event_by_name(tep, MSL_TRACE_SYSTEM,
						  MSL_EV_SNAPSHOT_DONE);
	/* (a module from before it: the reader resolves ids itself) */
	f->cgroup_path = tep_find_event_by_name(tep, MSL_TRACE_SYSTEM,
						MSL_EV_CGROUP_PATH);
	if (!f->decision && !f->reclaimed && !f->snapshot && !f->snapshot_done)
		return -1;
	if (f->cgroup_path)
		f->p_id = field(f, f->cgroup_path, "cgroup_id");

	f->d_id = field(f, f->decision, "cgroup_id");
	f->d_kind = field(f, f->decision, "kind");
	f->d_reason = field(f, f->decision, "reason");

	f->r_id = field(f, f->reclaimed, "cgroup_id");
	f->r_kind = field(f, f->reclaimed, "kind");
	f->r_scanned = field(f, f->reclaimed, "nr_scanned");
	f->r_reclaimed = field(f, f->reclaimed, "nr_reclaimed");

	f->s_seq = field(f, f->snapshot, "seq");
	f->s_id = field(f, f->snapshot, "cgroup_id");
	for (i = 0; i < MSL_NR_REASONS; i++)
		f->s_reason[i] = field(f, f->snapshot, msl_reason_name(i));
	for (i = 0; i < MSL_NR_KINDS; i++) {
		snprintf(name, sizeof(name), "scanned_%s", msl_kind_name(i));
		f->s_scanned[i] = field(f, f->snapshot, name);
		snprintf(name, sizeof(name), "reclaimed_%s", msl_kind_name(i));
		f->s_reclaimed[i] = field(f, f->snapshot, name);
	}

	f->sd_seq = field(f, f->snapshot_done, "seq");
	f->sd_nr_tracked = field(f, f->snapshot_done, "nr_tracked");
	f->sd_untracked = field(f, f->snapshot_done, "untracked");
	f->sd_dying = field(f, f->snapshot_done, "dying");
	f->sd_missed = field(f, f->snapshot_done, "missed");
	return 0;
}

static uint64_t val(struct tep_format_field *fld, struct tep_record *rec)
{
	unsigned long long v = 0;

	if (fld && tep_read_number_field(fld, rec->data, &v))
		v = 0;
	return v;
}

void msl_snapcoll_free(struct msl_snapcoll *c)
{
	int i;

	for (i = 0; i < MSL_SNAP_PENDING; i++)
		msl_table_free(&c->pending[i]);
	msl_table_free(&c->last);
	memset(c, 0, sizeof(*c));
}

/* The table assembling snapshot @seq (seq 0 marks a free one). */
static struct msl_table *pending(struct msl_snapcoll *c, uint64_t seq,
				 bool create)
{
	struct msl_table *oldest = NULL;
	int i;

	for (i = 0; i < MSL_SNAP_PENDING; i++)
		if (c->pending[i].seq == seq)
			return &c->pending[i];
	if (!create)
		return NULL;
	for (i = 0; i < MSL_SNAP_PENDING; i++)
		if (!oldest || c->pending[i].seq < oldest->seq)
			oldest = &c->pending[i];
	msl_table_clear(oldest);
	oldest->seq = seq;
	return oldest;
}

static int snapshot_row(const struct msl_evfmt *f, struct tep_record *rec,
			struct msl_snapcoll *c)
{
	uint64_t seq = val(f->s_seq, rec);
	struct msl_table *t;
	struct msl_row *row;
	int i;

	if (!seq)
		return 0;
	t = pending(c, seq, true);
	row = msl_table_get(t, val(f->s_id, rec));
	if (!row)
		return -ENOMEM;
	for (i = 0; i < MSL_NR_REASONS; i++)
		row->c.decisions[i] = val(f->s_reason[i], rec);
	for (i = 0; i < MSL_NR_KINDS; i++) {
		row->c.scanned[i] = val(f->s_scanned[i], rec);
		row->c.reclaimed[i] = val(f->s_reclaimed[i], rec);
	}
	return 0;
}

static void snapshot_done(const struct msl_evfmt *f, struct tep_record *rec,
			  struct msl_snapcoll *c)
{
	uint64_t seq = val(f->sd_seq, rec);
	struct msl_table *t = pending(c, seq, false), tmp;

	if (!seq)
		return;
	msl_table_clear(&c->last);
	if (t) {
		/* Hand the assembled rows over, keep the old buffers. */
		tmp = c->last;
		c->last = *t;
		*t = tmp;
	}
	c->last.seq = seq;
	c->last.nr_tracked = val(f->sd_nr_tracked, rec);
	c->last.untracked = val(f->sd_untracked, rec);
	c->last.dying = val(f->sd_dying, rec);
	c->last.missed = val(f->sd_missed, rec);
	c->last.done = true;
	c->last_missing = c->last.nr_tracked > c->last.n ?
			  c->last.nr_tracked - c->last.n : 0;
	c->nr_done++;
}

/*
 * A cgroup's snapshot event is where its counters were read: what its
 * events add up to between its first and its last snapshot event is
 * what the counters gained in between, whatever happened before or after
 * (reclaim that the recording's own writes woke, say); exactly so when
 * reclaim was idle at the snapshots, as a decision is counted just before
 * its event is written.  A cgroup missing from the file's first snapshot
 * had no counters yet (its entry comes with its first decision), so it
 * counts from the start of the file.
 * The table's seq is the file's first complete snapshot.
 */
static int note_snap_time(const struct msl_evfmt *f, struct tep_record *rec,
			  struct msl_table *times)
{
	uint64_t seq = val(f->s_seq, rec);
	struct msl_row *row;

	if (!seq)
		return 0;
	row = msl_table_get(times, val(f->s_id, rec));
	if (!row)
		return -ENOMEM;
	if (!row->first_snap_seq || seq < row->first_snap_seq) {
		row->first_snap_seq = seq;
		row->first_snap_ts = rec->ts;
	}
	if (rec->ts > row->last_snap_ts)
		row->last_snap_ts = rec->ts;
	return 0;
}

/* The file's first snapshot, which may have had no cgroup at all. */
static void note_first_snap(const struct msl_evfmt *f, struct tep_record *rec,
			    struct msl_table *times)
{
	uint64_t seq = val(f->sd_seq, rec);

	if (seq && (!times->seq || seq < times->seq))
		times->seq = seq;
}

static bool in_window(const struct msl_table *window, uint64_t id,
		      uint64_t ts)
{
	const struct msl_row *w;
	uint64_t from;

	if (!window)
		return true;
	w = msl_table_find(window, id);
	if (!w)
		return false;
	from = w->first_snap_seq > window->seq ? 0 : w->first_snap_ts;
	return ts > from && ts < w->last_snap_ts;
}

void msl_paths_free(struct msl_table *paths)
{
	size_t i;

	for (i = 0; i < paths->n; i++)
		free((char *)paths->rows[i].path);
	msl_table_free(paths);
}

/* cgroup_path: the id's path, the last one recorded winning. */
static int note_path(const struct msl_evfmt *f, struct tep_record *rec,
		     struct msl_table *paths)
{
	char *copy;
	const char *p;
	struct msl_row *row;
	int len = 0;

	p = tep_get_field_raw(NULL, f->cgroup_path, "path", rec, &len, 0);
	if (!p || len <= 0)
		return 0;
	copy = strndup(p, (size_t)len);
	if (!copy)
		return -ENOMEM;
	row = msl_table_get(paths, val(f->p_id, rec));
	if (!row) {
		free(copy);
		return -ENOMEM;
	}
	free((char *)row->path);
	row->path = copy;
	return 0;
}

/*
 * The row an event at @ts counts into: the activity, or under a time
 * window the interval's table; NULL (no row, nothing to count) outside
 * the window.  Errors are told apart by the caller: see msl_ev_handle.
 */
static struct msl_row *activity_row(struct msl_evsink *sink, uint64_t ts,
				    uint64_t id)
{
	size_t i = 0;

	if (sink->t_to) {
		if (ts < sink->t_from || ts >= sink->t_to)
			return &sink->outside;
		if (sink->step)
			i = (ts - sink->t_from) / sink->step;
		if (i >= sink->nactivity)
			return &sink->outside;
	}
	return msl_table_get(&sink->activity[i], id);
}

int msl_ev_handle(const struct msl_evfmt *f, struct tep_event *ev,
		  struct tep_record *rec, struct msl_evsink *sink)
{
	struct msl_row *row;
	unsigned int k;

	if (rec->missed_events)
		sink->nr_missed_events += rec->missed_events > 0 ?
					  rec->missed_events : 1;
	if (!sink->first_ts || rec->ts < sink->first_ts)
		sink->first_ts = rec->ts;
	if (rec->ts > sink->last_ts)
		sink->last_ts = rec->ts;
	if (ev == f->decision && f->decision) {
		sink->nr_decision++;
		if (!sink->activity)
			return 0;
		if (!in_window(sink->window, val(f->d_id, rec), rec->ts))
			return 0;
		k = val(f->d_reason, rec);
		if (k >= MSL_NR_REASONS) {
			sink->nr_unknown++;
			return 0;
		}
		row = activity_row(sink, rec->ts, val(f->d_id, rec));
		if (!row)
			return -ENOMEM;
		row->c.decisions[k]++;
	} else if (ev == f->reclaimed && f->reclaimed) {
		sink->nr_reclaimed++;
		if (!sink->activity)
			return 0;
		if (!in_window(sink->window, val(f->r_id, rec), rec->ts))
			return 0;
		k = val(f->r_kind, rec);
		if (k >= MSL_NR_KINDS) {
			sink->nr_unknown++;
			return 0;
		}
		row = activity_row(sink, rec->ts, val(f->r_id, rec));
		if (!row)
			return -ENOMEM;
		row->c.scanned[k] += val(f->r_scanned, rec);
		row->c.reclaimed[k] += val(f->r_reclaimed, rec);
	} else if (ev == f->snapshot && f->snapshot) {
		sink->nr_snapshot++;
		if (sink->snap_times &&
		    note_snap_time(f, rec, sink->snap_times))
			return -ENOMEM;
		if (sink->snaps)
			return snapshot_row(f, rec, sink->snaps);
	} else if (ev == f->cgroup_path && f->cgroup_path) {
		if (sink->paths)
			return note_path(f, rec, sink->paths);
	} else if (ev == f->snapshot_done && f->snapshot_done) {
		if (sink->snap_times)
			note_first_snap(f, rec, sink->snap_times);
		if (sink->snaps)
			snapshot_done(f, rec, sink->snaps);
	}
	return 0;
}
