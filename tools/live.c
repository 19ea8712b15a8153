// SPDX-License-Identifier: GPL-2.0
/*
 * Live counters: a private tracefs instance (never the top-level buffer,
 * never another tracer's) with the snapshot events enabled; a write to
 * MSL_CTL_SNAPSHOT makes the module trace every memcg's totals into every
 * buffer with those events on, ours included.  The instance goes on exit,
 * on SIGINT, SIGTERM and SIGHUP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>
#include <memcg_softlimit/events.h>

#include "trace.h"
#include "absence.h"
#include "counters.h"
#include "module.h"
#include "msl.h"

#define INSTANCE_PREFIX		"memcg-softlimit-"
/* A snapshot event in the ring buffer, with headers, rounded up. */
#define SNAPSHOT_EVENT_BYTES	200

volatile sig_atomic_t msl_stop;
static char instance_dir[PATH_MAX];	/* for the second signal */
static struct msl_live *live_open;
static int atexit_done;

static void on_signal(int sig)
{
	if (msl_stop) {
		/* Second signal: the main loop is stuck; leave no instance. */
		if (instance_dir[0])
			rmdir(instance_dir);
		_exit(128 + sig);
	}
	msl_stop = sig;
}

void msl_signals_install(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: sleeps and reads return EINTR at once. */
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		/* Ignored when we started (nohup, a script's & job): stay so. */
		if (!sigaction(sigs[i], NULL, &old) && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
	signal(SIGPIPE, SIG_IGN);
}

int msl_sleep(double seconds)
{
	struct timespec ts;

	if (msl_stop)
		return 1;
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		if (msl_stop)
			return 1;
	return msl_stop ? 1 : 0;
}

static void atexit_cleanup(void)
{
	if (live_open)
		msl_live_close(live_open);
}

/* Instances of ours whose process is gone (SIGKILL) are removed. */
static void remove_stale_instances(void)
{
	char **names = tracefs_instances(NULL), *end;
	struct tracefs_instance *inst;
	int i;
	long pid;

	for (i = 0; names && names[i]; i++) {
		if (strncmp(names[i], INSTANCE_PREFIX, strlen(INSTANCE_PREFIX)))
			continue;
		pid = strtol(names[i] + strlen(INSTANCE_PREFIX), &end, 10);
		if (*end || pid <= 0 || pid == getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		inst = tracefs_instance_alloc(NULL, names[i]);
		if (inst) {
			tracefs_instance_destroy(inst);
			tracefs_instance_free(inst);
		}
	}
	tracefs_list_free(names);
}

static int enable(struct msl_live *l, const char *event, const char **why)
{
	if (tracefs_event_enable(l->inst, MSL_TRACE_SYSTEM, event)) {
		*why = "cannot enable the module's snapshot events in the private tracefs instance";
		return -1;
	}
	return 0;
}

static void size_buffer(struct msl_live *l)
{
	long long kb = 0, need;
	char buf[32];

	need = ((long long)l->expect_rows + 64) * SNAPSHOT_EVENT_BYTES / 1024 + 64;
	if (!tracefs_instance_file_read_number(l->inst, "buffer_size_kb", &kb) &&
	    kb >= need)
		return;
	snprintf(buf, sizeof(buf), "%lld", need);
	if (tracefs_instance_file_write(l->inst, "buffer_size_kb", buf) < 0)
		msl_warn("cannot grow the private trace buffer to %lld KiB: a snapshot of many cgroups may be cut short",
			 need);
}

int msl_live_open(struct msl_live *l, size_t expect_rows, const char **why)
{
	const char *systems[] = { MSL_TRACE_SYSTEM, NULL };
	const char *dir;
	char name[64];
	char *path;

	memset(l, 0, sizeof(*l));
	l->expect_rows = expect_rows;
	if (!msl_module_loaded()) {
		*why = msl_module_absent_why();
		return -1;
	}
	dir = tracefs_tracing_dir();
	if (!dir) {
		*why = "tracefs is not mounted: mount -t tracefs nodev /sys/kernel/tracing";
		return -1;
	}
	if (access(MSL_CTL_SNAPSHOT, F_OK)) {
		*why = "the loaded memcg_softlimit has no " MSL_CTL_SNAPSHOT
		       " (a module without counters): load a newer one";
		return -1;
	}
	if (access(MSL_CTL_SNAPSHOT, W_OK)) {
		*why = "permission denied: run as root";
		return -1;
	}
	l->tep = tracefs_local_events_system(NULL, systems);
	if (!l->tep || msl_evfmt_init(&l->fmt, l->tep) || !l->fmt.snapshot ||
	    !l->fmt.snapshot_done) {
		*why = "no memcg_softlimit:snapshot event in tracefs (a module without counters?): load a newer module";
		goto fail;
	}
	if (l->fmt.missing[0])
		msl_warn("event fields not found (counted as 0): %s",
			 l->fmt.missing);
	remove_stale_instances();
	snprintf(name, sizeof(name), INSTANCE_PREFIX "%ld", (long)getpid());
	l->inst = tracefs_instance_create(name);
	if (!l->inst) {
		*why = errno == EACCES || errno == EPERM ?
			"permission denied creating a tracefs instance: run as root" :
			"cannot create a tracefs instance";
		goto fail;
	}
	if (!tracefs_instance_is_new(l->inst)) {
		/* Someone else's: never use it, never remove it. */
		tracefs_instance_free(l->inst);
		l->inst = NULL;
		*why = "a tracefs instance named " INSTANCE_PREFIX "<our pid> exists already";
		goto fail;
	}
	path = tracefs_instance_get_dir(l->inst);
	if (path) {
		snprintf(instance_dir, sizeof(instance_dir), "%s", path);
		tracefs_put_tracing_file(path);
	}
	live_open = l;
	if (!atexit_done++)
		atexit(atexit_cleanup);
	size_buffer(l);
	/*
	 * Without record-cmd, enabling events does not hook sched_switch to
	 * save comms (we read none): no text patching of __schedule for
	 * every run, nothing added to the context-switch path.
	 */
	tracefs_option_disable(l->inst, TRACEFS_OPTION_RECORD_CMD);
	if (enable(l, MSL_EV_SNAPSHOT, why) ||
	    enable(l, MSL_EV_SNAPSHOT_DONE, why))
		goto fail;
	tracefs_trace_on(l->inst);
	return 0;
fail:
	msl_live_close(l);
	return -1;
}

static int on_event(struct tep_event *ev, struct tep_record *rec, int cpu,
		    void *data)
{
	struct msl_live *l = data;
	struct msl_evsink sink = { .snaps = &l->coll };

	(void)cpu;
	return msl_ev_handle(&l->fmt, ev, rec, &sink) ? -1 : 0;
}

int msl_live_snapshot(struct msl_live *l, struct msl_table *out,
		      const char **why)
{
	uint64_t done_before = l->coll.nr_done;
	int tries, ret;

	ret = msl_write_file(MSL_CTL_SNAPSHOT, "1\n");
	if (ret) {
		*why = ret == -ENOENT ? msl_module_absent_why() :
		       ret == -EPERM || ret == -EACCES ?
		       "permission denied: run as root" :
		       "cannot write " MSL_CTL_SNAPSHOT;
		return -1;
	}
	/* The module traces the whole snapshot inside our write(2). */
	for (tries = 0; tries < 50; tries++) {
		if (tracefs_iterate_raw_events(l->tep, l->inst, NULL, 0,
					       on_event, l) < 0) {
			*why = "cannot read the private trace buffer";
			return -1;
		}
		if (l->coll.nr_done > done_before)
			break;
		if (msl_sleep(0.02)) {
			*why = "interrupted";
			return -1;
		}
	}
	if (l->coll.nr_done == done_before) {
		*why = msl_module_loaded() ?
			"no snapshot_done event within a second: is tracing_on off, or the buffer too small?" :
			msl_module_absent_why();
		return -1;
	}
	if (l->coll.last_missing) {
		msl_warn("snapshot %llu: %llu of %llu cgroups lost in the trace buffer",
			 (unsigned long long)l->coll.last.seq,
			 (unsigned long long)l->coll.last_missing,
			 (unsigned long long)l->coll.last.nr_tracked);
		l->expect_rows = l->coll.last.nr_tracked * 2;
		size_buffer(l);
	}
	if (msl_table_copy(out, &l->coll.last)) {
		*why = "out of memory";
		return -1;
	}
	return 0;
}

void msl_live_close(struct msl_live *l)
{
	if (l->inst) {
		tracefs_event_disable(l->inst, MSL_TRACE_SYSTEM, NULL);
		if (tracefs_instance_destroy(l->inst))
			msl_warn("cannot remove the tracefs instance %s: remove it with rmdir",
				 instance_dir);
		tracefs_instance_free(l->inst);
		l->inst = NULL;
	}
	instance_dir[0] = '\0';
	if (l->tep) {
		tep_free(l->tep);
		l->tep = NULL;
	}
	msl_snapcoll_free(&l->coll);
	if (live_open == l)
		live_open = NULL;
}
