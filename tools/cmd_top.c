// SPDX-License-Identifier: GPL-2.0
/*
 * top: every interval, the cgroups that reclaim is hitting (reclaim
 * decisions, pages reclaimed) and sparing (skips), from the difference of
 * two snapshots.  A live screen on a terminal; --batch for logs and tests.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

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

static void screen(FILE *f, const struct msl_table *t, const struct msl_cgfs *fs,
		   const struct msl_module *m, const struct msl_v2limits *v2,
		   double interval, bool all)
{
	char tbuf[32], b1[MSL_SIZE_BUF], b2[MSL_SIZE_BUF], b3[MSL_SIZE_BUF],
	     b4[MSL_SIZE_BUF];
	uint64_t ps = (uint64_t)sysconf(_SC_PAGESIZE), usage;
	uint64_t tot_rec = 0, tot_skip = 0, tot_pages = 0;
	time_t now = time(NULL);
	struct msl_limit lim;
	size_t i, shown = 0;

	strftime(tbuf, sizeof(tbuf), "%H:%M:%S", localtime(&now));
	for (i = 0; i < t->n; i++) {
		tot_rec += msl_counts_reclaims(&t->rows[i].c);
		tot_skip += msl_counts_skips(&t->rows[i].c);
		tot_pages += msl_counts_reclaimed(&t->rows[i].c);
	}
	fprintf(f, "memcg-softlimit top - %s, every %.1fs, snapshot %llu; policy %s, priority_threshold %d, unset_eligible %s\n",
		tbuf, interval, (unsigned long long)t->seq,
		m->params.enabled ? msl_policy_name(m->params.policy) : "OFF",
		m->params.priority_threshold,
		m->params.unset_eligible ? "Y" : "N");
	fprintf(f, "interval: %llu reclaim and %llu skip decisions, %s reclaimed; %llu cgroups tracked, untracked %llu, dying %llu, missed %llu\n",
		(unsigned long long)tot_rec, (unsigned long long)tot_skip,
		msl_size_fmt(tot_pages * ps, b1, sizeof(b1)),
		(unsigned long long)t->nr_tracked,
		(unsigned long long)t->untracked, (unsigned long long)t->dying,
		(unsigned long long)t->missed);
	fprintf(f, "%-6s %9s %9s %9s %9s %9s %10s  %s\n", "STATUS", "RECLAIM",
		"SKIP", "SCANNED", "RECLAIMED", "USAGE", "SOFT_LIMIT", "CGROUP");
	for (i = 0; i < t->n; i++) {
		const struct msl_row *r = &t->rows[i];

		if (!all && msl_counts_zero(&r->c))
			continue;
		shown++;
		snprintf(b3, sizeof(b3), "-");
		snprintf(b4, sizeof(b4), "-");
		if (r->path && !msl_cg_usage(fs, r->path, &usage))
			msl_size_fmt(usage, b3, sizeof(b3));
		if (r->path && strcmp(r->path, "/") &&
		    !msl_limit_get(fs, r->path, v2, &lim))
			msl_limit_fmt(&lim, b4, sizeof(b4), false);
		fprintf(f, "%-6s %9llu %9llu %9s %9s %9s %10s  ", status_of(&r->c),
			(unsigned long long)msl_counts_reclaims(&r->c),
			(unsigned long long)msl_counts_skips(&r->c),
			msl_size_fmt(msl_counts_scanned(&r->c) * ps, b1, sizeof(b1)),
			msl_size_fmt(msl_counts_reclaimed(&r->c) * ps, b2, sizeof(b2)),
			b3, b4);
		msl_put_cgroup(f, r->path);
		fputc('\n', f);
	}
	if (!shown)
		fprintf(f, "(no reclaim decisions in this interval)\n");
}

int cmd_top(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "delay", required_argument, NULL, 'd' },
		{ "batch", no_argument, NULL, 'b' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "sort", required_argument, NULL, 's' },
		{ "reverse", no_argument, NULL, 'r' },
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' }, { 0 } };
	struct msl_table prev = { 0 }, cur = { 0 }, delta = { 0 };
	enum msl_sort key = MSL_SORT_DECISIONS;
	bool batch = false, reverse = false, all = false;
	struct msl_v2limits v2 = { 0 };
	struct msl_cgmap map = { 0 };
	double interval = 2;
	long count = -1, n;
	struct msl_live live;
	struct msl_module m;
	struct msl_cgfs fs;
	const char *why;
	char *end;
	int c, ret = MSL_EXIT_ERR;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+d:bn:s:rah", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (msl_seconds_parse(optarg, &interval)) {
				msl_err("bad delay '%s': seconds, e.g. 2 or 0.5", optarg);
				return MSL_EXIT_USAGE;
			}
			break;
		case 'b':
			batch = true;
			break;
		case 'n':
			errno = 0;
			count = strtol(optarg, &end, 10);
			if (errno || *end || count <= 0) {
				msl_err("bad count '%s': a number of screens, 1 or more", optarg);
				return MSL_EXIT_USAGE;
			}
			break;
		case 's':
			if (msl_sort_parse(optarg, &key)) {
				msl_err("bad sort key '%s': one of %s", optarg, msl_sort_keys);
				return MSL_EXIT_USAGE;
			}
			break;
		case 'r':
			reverse = true;
			break;
		case 'a':
			all = true;
			break;
		default:
			return msl_usage("top", c != 'h');
		}
	}
	if (argc != optind)
		return msl_usage("top", true);
	if (!isatty(STDOUT_FILENO))
		batch = true;
	if (msl_open_fs(&fs))
		return MSL_EXIT_ERR;
	msl_signals_install();
	if (msl_cgmap_build(&map, &fs)) {
		msl_err("cannot walk %s", fs.mount);
		return MSL_EXIT_ERR;
	}
	if (msl_live_open(&live, map.n, &why)) {
		msl_err("%s", why);
		goto out;
	}
	if (msl_live_snapshot(&live, &prev, &why)) {
		msl_err("%s", why);
		goto out;
	}
	if (!batch) {
		tty_setup();
		printf("\033[H\033[2J%s top: first screen in %.1f s (q quits)\n",
		       MSL_PROG, interval);
		fflush(stdout);
	}
	for (n = 0; count < 0 || n < count; n++) {
		if (wait_key(interval))
			break;
		if (msl_live_snapshot(&live, &cur, &why)) {
			if (msl_stop)
				break;
			msl_err("%s", why);
			goto out;
		}
		if (msl_table_delta(&delta, &cur, &prev) ||
		    msl_table_copy(&prev, &cur)) {
			msl_err("out of memory");
			goto out;
		}
		msl_module_read(&m);
		msl_v2limits_free(&v2);
		if (fs.version == 2)
			msl_v2limits_load(&v2);
		msl_table_resolve_fresh(&delta, &map, &fs);
		msl_table_sort(&delta, key, reverse);
		if (!batch)
			fputs("\033[H\033[2J", stdout);
		screen(stdout, &delta, &fs, &m, &v2, interval, all);
		if (batch)
			putchar('\n');
		fflush(stdout);
	}
	ret = MSL_EXIT_OK;
out:
	tty_restore();
	msl_live_close(&live);
	msl_v2limits_free(&v2);
	msl_table_free(&prev);
	msl_table_free(&cur);
	msl_table_free(&delta);
	msl_cgmap_free(&map);
	return ret;
}
