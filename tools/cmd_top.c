// SPDX-License-Identifier: GPL-2.0
/*
 * top: every interval, the cgroups that reclaim is hitting (reclaim
 * decisions, pages reclaimed) and sparing (skips), from the difference of
 * two snapshots.  A live screen on a terminal; --batch for logs and tests.
 * top [INTERVAL [COUNT]]: every INTERVAL seconds (default 2), COUNT
 * screens (else until q or a signal).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <memcg_softlimit/policy.h>

#include "cgmap.h"
#include "cgroup.h"
#include "counters.h"
#include "json.h"
#include "module.h"
#include "msl.h"
#include "opts.h"
#include "output.h"
#include "scols.h"
#include "size.h"
#include "softlimit.h"
#include "trace.h"

static struct termios saved_tty;
static bool tty_raw;

static void tty_restore(void)
{
	if (tty_raw) {
		tcsetattr(STDIN_FILENO, TCSANOW, &saved_tty);
		tty_raw = false;
	}
}

static void tty_setup(void)
{
	struct termios t;

	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &saved_tty))
		return;
	t = saved_tty;
	t.c_lflag &= ~(ICANON | ECHO);
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 0;
	if (!tcsetattr(STDIN_FILENO, TCSANOW, &t)) {
		tty_raw = true;
		atexit(tty_restore);
	}
}

/* Sleeps, or returns 1 early on q or a signal. */
static int wait_key(double seconds)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	char ch;
	int ms = (int)(seconds * 1000), r;
	struct timespec t0, t1;

	if (!tty_raw)
		return msl_sleep(seconds);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		if (msl_stop)
			return 1;
		r = poll(&p, 1, ms);
		if (r > 0 && read(STDIN_FILENO, &ch, 1) == 1 &&
		    (ch == 'q' || ch == 'Q'))
			return 1;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ms = (int)(seconds * 1000) - (int)((t1.tv_sec - t0.tv_sec) * 1000 +
				(t1.tv_nsec - t0.tv_nsec) / 1000000);
		if (ms <= 0)
			return msl_stop ? 1 : 0;
	}
}

static const char *status_of(const struct msl_counts *c)
{
	uint64_t rec = msl_counts_reclaims(c), skip = msl_counts_skips(c);

	if ((rec || msl_counts_reclaimed(c)) && skip)
		return "mixed";
	if (rec || msl_counts_reclaimed(c))
		return "hit";
	if (skip)
		return "spared";
	return "idle";
}

enum {
	COL_STATUS, COL_RECLAIM, COL_SKIP, COL_SCANNED, COL_RECLAIMED,
	COL_USAGE, COL_SOFT_LIMIT, COL_ID, COL_CGROUP, NR_COLS,
};
static const struct msl_coldef top_cols[NR_COLS] = {
	[COL_STATUS] = { "STATUS", "hit (reclaimed, never skipped), spared (only skipped), mixed, idle", 6, 0, false },
	[COL_RECLAIM] = { "RECLAIM", "decisions that let reclaim run in the interval", 6, 0, true },
	[COL_SKIP] = { "SKIP", "skips in the interval", 6, 0, true },
	[COL_SCANNED] = { "SCANNED", "pages scanned in the interval", 6, 0, true },
	[COL_RECLAIMED] = { "RECLAIMED", "pages reclaimed in the interval", 6, 0, true },
	[COL_USAGE] = { "USAGE", "memory in use now", 6, 0, true },
	[COL_SOFT_LIMIT] = { "SOFT_LIMIT", "soft limit now (unset, max, a size)", 6, SCOLS_FL_RIGHT, false },
	[COL_ID] = { "ID", "cgroup id", 6, 0, true },
	[COL_CGROUP] = { "CGROUP", "the cgroup's path", 0.3, 0, false },
};
static const char top_default_cols[] =
	"STATUS,RECLAIM,SKIP,SCANNED,RECLAIMED,USAGE,SOFT_LIMIT,CGROUP";

static const struct msl_optuse top_opts[] = {
	{ MSL_OPT_BATCH, NULL },
	{ MSL_OPT_JSON, "one JSON document per screen (implies --batch)" },
	{ MSL_OPT_TIMESTAMP, NULL },
	{ MSL_OPT_CGROUP, NULL },
	{ MSL_OPT_SORT, "sort by decisions (default), path, id, reclaims, skips, scanned, reclaimed" },
	{ MSL_OPT_REVERSE, NULL },
	{ MSL_OPT_ALL, "idle cgroups too" },
	{ MSL_OPT_OUTPUT, NULL },
	{ MSL_OPT_WIDE, NULL },
	{ MSL_OPT_RAW, NULL },
	{ MSL_OPT_NOHEADINGS, NULL },
	{ MSL_OPT_BYTES, NULL },
	{ MSL_OPT_END, NULL },
};

struct screen {
	const struct msl_cmdline *cl;
	const struct msl_cgfs *fs;
	const struct msl_module *m;
	const struct msl_v2limits *v2;
	struct msl_cols cols;
	const char *cgroup;		/* -c, below the mount */
	double interval;
	double time;
};

static void size_cell(struct libscols_line *ln, size_t i, uint64_t bytes,
		      bool raw_bytes)
{
	char buf[MSL_SIZE_BUF];

	if (raw_bytes)
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)bytes);
	else
		msl_size_fmt(bytes, buf, sizeof(buf));
	scols_line_set_data(ln, i, buf);
}

static void fill(struct libscols_line *ln, const struct msl_row *r,
		 const struct screen *s)
{
	char buf[MSL_SIZE_BUF];
	struct msl_limit lim;
	uint64_t usage;
	size_t i;

	for (i = 0; i < s->cols.n; i++) {
		switch (s->cols.idx[i]) {
		case COL_STATUS:
			scols_line_set_data(ln, i, status_of(&r->c));
			break;
		case COL_RECLAIM:
			snprintf(buf, sizeof(buf), "%llu", (unsigned long long)msl_counts_reclaims(&r->c));
			scols_line_set_data(ln, i, buf);
			break;
		case COL_SKIP:
			snprintf(buf, sizeof(buf), "%llu", (unsigned long long)msl_counts_skips(&r->c));
			scols_line_set_data(ln, i, buf);
			break;
		case COL_SCANNED:
			size_cell(ln, i, msl_page_bytes(msl_counts_scanned(&r->c)),
				  s->cl->bytes || s->cl->json);
			break;
		case COL_RECLAIMED:
			size_cell(ln, i, msl_page_bytes(msl_counts_reclaimed(&r->c)),
				  s->cl->bytes || s->cl->json);
			break;
		case COL_USAGE:
			if (r->path && !msl_cg_usage(s->fs, r->path, &usage))
				size_cell(ln, i, usage, s->cl->bytes || s->cl->json);
			break;
		case COL_SOFT_LIMIT:
			if (r->path && strcmp(r->path, "/") &&
			    !msl_limit_get(s->fs, r->path, s->v2, &lim)) {
				msl_limit_fmt(&lim, buf, sizeof(buf),
					      s->cl->bytes || s->cl->json);
				scols_line_set_data(ln, i, buf);
			}
			break;
		case COL_ID:
			snprintf(buf, sizeof(buf), "%llu", (unsigned long long)r->id);
			scols_line_set_data(ln, i, buf);
			break;
		case COL_CGROUP:
			msl_scols_set(ln, i, r->path ? r->path : "(removed)",
				      s->cl->json);
			break;
		}
	}
}

static void put_time(FILE *f, double t)
{
	char tbuf[32];
	time_t sec = (time_t)t;
	struct tm tm;

	strftime(tbuf, sizeof(tbuf), "%H:%M:%S", localtime_r(&sec, &tm));
	fputs(tbuf, f);
}

static void header(FILE *f, const struct msl_table *t, const struct screen *s)
{
	char b1[MSL_SIZE_BUF], pbuf[128];
	uint64_t tot_rec = 0, tot_skip = 0, tot_pages = 0;
	const struct msl_module *m = s->m;
	size_t i;

	for (i = 0; i < t->n; i++) {
		tot_rec += msl_counts_reclaims(&t->rows[i].c);
		tot_skip += msl_counts_skips(&t->rows[i].c);
		tot_pages += msl_counts_reclaimed(&t->rows[i].c);
	}
	fputs("memcg-softlimit top - ", f);
	put_time(f, s->time);
	fprintf(f, ", every %.1fs, snapshot %llu; policy %s, %s\n", s->interval,
		(unsigned long long)t->seq,
		m->params.enabled ? msl_policy_name(m->params.policy) : "OFF",
		msl_params_fmt(&m->params, pbuf, sizeof(pbuf)));
	fprintf(f, "interval: %llu reclaim and %llu skip decisions, %s reclaimed; %llu cgroups tracked, untracked %llu, dying %llu, missed %llu\n",
		(unsigned long long)tot_rec, (unsigned long long)tot_skip,
		msl_size_fmt(msl_page_bytes(tot_pages), b1, sizeof(b1)),
		(unsigned long long)t->nr_tracked,
		(unsigned long long)t->untracked, (unsigned long long)t->dying,
		(unsigned long long)t->missed);
}

/* One document per screen, json.c's vocabulary, every field. */
static void screen_json(FILE *f, const struct msl_table *t,
			const struct screen *s)
{
	const char *sep = "";
	struct msl_limit lim;
	uint64_t usage;
	size_t i;

	msl_json_begin(f, "top");
	fprintf(f, ",\"time\":%.3f,\"interval\":%.3f", s->time, s->interval);
	msl_json_u64(f, "seq", t->seq);
	msl_json_u64(f, "nr_tracked", t->nr_tracked);
	msl_json_u64(f, "untracked", t->untracked);
	msl_json_u64(f, "dying", t->dying);
	msl_json_u64(f, "missed", t->missed);
	msl_json_params(f, &s->m->params, NULL);
	msl_json_key(f, "cgroups");
	fputc('[', f);
	for (i = 0; i < t->n; i++) {
		const struct msl_row *r = &t->rows[i];

		if (!s->cl->all && msl_counts_zero(&r->c))
			continue;
		if (!msl_path_under(s->cgroup, r->path))
			continue;
		fprintf(f, "%s\n{\"id\":%llu", sep, (unsigned long long)r->id);
		sep = ",";
		msl_json_path(f, "path", r->path);
		msl_json_str(f, "status", status_of(&r->c));
		msl_json_u64(f, "reclaims", msl_counts_reclaims(&r->c));
		msl_json_u64(f, "skips", msl_counts_skips(&r->c));
		msl_json_u64(f, "scanned_bytes",
			     msl_page_bytes(msl_counts_scanned(&r->c)));
		msl_json_u64(f, "reclaimed_bytes",
			     msl_page_bytes(msl_counts_reclaimed(&r->c)));
		msl_json_key(f, "usage_bytes");
		if (r->path && !msl_cg_usage(s->fs, r->path, &usage))
			fprintf(f, "%llu", (unsigned long long)usage);
		else
			fputs("null", f);
		if (r->path && strcmp(r->path, "/") &&
		    !msl_limit_get(s->fs, r->path, s->v2, &lim))
			msl_json_limit(f, &lim);
		else
			fputs(",\"soft_limit\":null,\"soft_limit_bytes\":null", f);
		fputc('}', f);
	}
	fputs("\n]}\n", f);
}

static int screen(FILE *f, const struct msl_table *t, const struct screen *s)
{
	const struct msl_cmdline *cl = s->cl;
	struct libscols_table *tb;
	struct libscols_line *ln;
	size_t i, shown = 0;

	if (cl->json) {
		screen_json(f, t, s);
		return 0;
	}
	if (!cl->raw && !cl->noheadings)
		header(f, t, s);
	else if (cl->timestamp) {
		put_time(f, s->time);
		fputc('\n', f);
	}
	tb = msl_scols_new(cl, top_cols, &s->cols, f);
	if (!tb)
		return -1;
	for (i = 0; i < t->n; i++) {
		const struct msl_row *r = &t->rows[i];

		if (!cl->all && msl_counts_zero(&r->c))
			continue;
		if (!msl_path_under(s->cgroup, r->path))
			continue;
		ln = scols_table_new_line(tb, NULL);
		if (!ln)
			break;
		fill(ln, r, s);
		shown++;
	}
	msl_scols_print(tb, cl, top_cols, &s->cols, f);
	scols_unref_table(tb);
	if (!shown && !cl->raw)
		fprintf(f, "(no reclaim decisions in this interval)\n");
	return 0;
}

/* What top holds from one screen to the next. */
struct top {
	struct screen s;
	struct msl_module m;
	struct msl_v2limits v2;
	struct msl_cgfs fs;
	struct msl_cgmap map;
	struct msl_live live;
	struct msl_table prev, cur, delta;
	bool batch;
};

/*
 * The screen of one interval: what the counters gained since the last
 * one, the cgroups' limits as they are now.  0, or -1 with why said.
 */
static int next_screen(struct top *t)
{
	const struct msl_cmdline *cl = t->s.cl;
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	t->s.time = (double)now.tv_sec + (double)now.tv_nsec / 1e9;
	if (msl_table_delta(&t->delta, &t->cur, &t->prev) ||
	    msl_table_copy(&t->prev, &t->cur)) {
		msl_err("out of memory");
		return -1;
	}
	msl_module_read(&t->m);
	msl_v2limits_free(&t->v2);
	if (t->fs.version == 2)
		msl_v2limits_load(&t->v2);
	msl_table_resolve_fresh(&t->delta, &t->map, &t->fs);
	msl_table_sort(&t->delta, cl->sort_set ? cl->sort :
		       MSL_SORT_DECISIONS, cl->reverse);
	if (!t->batch)
		fputs("\033[H\033[2J", stdout);
	if (screen(stdout, &t->delta, &t->s)) {
		msl_err("out of memory");
		return -1;
	}
	if (t->batch && !cl->json)
		putchar('\n');
	fflush(stdout);
	return 0;
}

/* Screens until COUNT, q or a signal: an exit status. */
static int screens(struct top *t)
{
	const struct msl_cmdline *cl = t->s.cl;
	const char *why;
	long n;

	if (msl_live_snapshot(&t->live, &t->prev, &why)) {
		msl_err("%s", why);
		return MSL_EXIT_ERR;
	}
	if (!t->batch) {
		tty_setup();
		printf("\033[H\033[2J%s top: first screen in %.1f s (q quits)\n",
		       MSL_PROG, t->s.interval);
		fflush(stdout);
	}
	for (n = 0; cl->count < 0 || n < cl->count; n++) {
		if (wait_key(t->s.interval))
			break;
		if (msl_live_snapshot(&t->live, &t->cur, &why)) {
			if (msl_stop)
				break;
			msl_err("%s", why);
			return MSL_EXIT_ERR;
		}
		if (next_screen(t))
			return MSL_EXIT_ERR;
		/* Nobody reads us any more (main says so): stop. */
		if (ferror(stdout))
			break;
	}
	return MSL_EXIT_OK;
}

static int cmd_top(const struct msl_cmdline *cl)
{
	struct top t = { .s = { .cl = cl } };
	char filter[PATH_MAX];
	const char *why;
	int ret;

	t.s.v2 = &t.v2;
	t.batch = cl->batch || cl->json;
	ret = msl_cols_from_cmdline(cl, top_cols, NR_COLS, top_default_cols,
				    &t.s.cols);
	if (ret)
		return ret < 0 ? MSL_EXIT_USAGE : MSL_EXIT_OK;
	t.s.interval = cl->interval > 0 ? cl->interval : 2;
	t.s.fs = &t.fs;
	t.s.m = &t.m;
	if (!isatty(STDOUT_FILENO))
		t.batch = true;
	if (msl_open_fs(&t.fs))
		return MSL_EXIT_ERR;
	if (cl->cgroup) {
		ret = msl_cg_filter(&t.fs, cl->cgroup, filter, sizeof(filter));
		if (ret)
			return ret;
		t.s.cgroup = filter;
	}
	ret = MSL_EXIT_ERR;
	msl_signals_install();
	if (msl_cgmap_build(&t.map, &t.fs)) {
		msl_err("cannot walk %s", t.fs.mount);
		return MSL_EXIT_ERR;
	}
	if (msl_live_open(&t.live, t.map.n, &why))
		msl_err("%s", why);
	else
		ret = screens(&t);
	tty_restore();
	msl_live_close(&t.live);
	msl_v2limits_free(&t.v2);
	msl_table_free(&t.prev);
	msl_table_free(&t.cur);
	msl_table_free(&t.delta);
	msl_cgmap_free(&t.map);
	return ret;
}

const struct msl_cmd msl_cmd_top = {
	.name = "top", .fn = cmd_top, .opts = top_opts,
	.summary = "live: the cgroups reclaim hits and spares, every interval",
	.args = "[INTERVAL [COUNT]]", .min_args = 0, .max_args = 0,
	.flags = MSL_ARGS_INTERVAL,
	.help =
	"The cgroups reclaim is hitting and sparing, every INTERVAL seconds\n"
	"(default 2), COUNT screens (else until q or Ctrl-C): STATUS, reclaim and\n"
	"skip decisions, pages scanned and reclaimed in the interval, usage and\n"
	"soft limit now.  On a terminal a live screen; else (or --batch) plain\n"
	"screens one after another.",
};
