// SPDX-License-Identifier: GPL-2.0
/*
 * stat: per-cgroup totals from one snapshot of the module's counters, or
 * with -i what each interval added; text, JSON, Prometheus.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

int cmd_stat(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'c' },
		{ "sort", required_argument, NULL, 's' },
		{ "reverse", no_argument, NULL, 'r' },
		{ "all", no_argument, NULL, 'a' },
		{ "wide", no_argument, NULL, 'w' },
		{ "prometheus", required_argument, NULL, 'p' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' }, { 0 } };
	struct msl_table prev = { 0 }, cur = { 0 }, delta = { 0 }, *out;
	struct msl_print pr = { .source = "snapshot" };
	const char *prom = NULL, *why;
	enum msl_sort key = MSL_SORT_PATH;
	bool json = false, reverse = false, quiet = false;
	struct msl_cgmap map = { 0 };
	double interval = 0;
	long count = -1, n;
	struct msl_live live;
	struct msl_cgfs fs;
	char *end;
	int c, ret = MSL_EXIT_ERR;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+ji:c:s:rawp:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'i':
			if (msl_seconds_parse(optarg, &interval)) {
				msl_err("bad interval '%s': seconds, e.g. 5 or 0.5", optarg);
				return MSL_EXIT_USAGE;
			}
			break;
		case 'c':
			errno = 0;
			count = strtol(optarg, &end, 10);
			if (errno || *end || count <= 0) {
				msl_err("bad count '%s': a number of intervals, 1 or more", optarg);
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
			pr.all = true;
			break;
		case 'w':
			pr.wide = true;
			break;
		case 'p':
			prom = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		default:
			return msl_usage("stat", c != 'h');
		}
	}
	if (argc != optind || (count > 0 && interval == 0))
		return msl_usage("stat", true);
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
	for (n = 0;; n++) {
		if (msl_live_snapshot(&live, &cur, &why)) {
			if (msl_stop)
				break;
			msl_err("%s", why);
			goto out;
		}
		msl_table_resolve_fresh(&cur, &map, &fs);
		if (prom) {
			c = msl_write_prometheus(prom, &cur, &why);
			if (c) {
				msl_err("cannot write %s: %s: %s", prom, why,
					strerror(-c));
				goto out;
			}
		}
		out = &cur;
		if (interval > 0) {
			if (n > 0) {
				if (msl_table_delta(&delta, &cur, &prev)) {
					msl_err("out of memory");
					goto out;
				}
				out = &delta;
				pr.delta = true;
				pr.interval = interval;
			}
			if (msl_table_copy(&prev, &cur)) {
				msl_err("out of memory");
				goto out;
			}
		}
		if (!quiet && (interval == 0 || n > 0)) {
			msl_table_sort(out, key, reverse);
			if (json)
				msl_print_json(stdout, out, &pr);
			else
				msl_print_text(stdout, out, &pr);
			if (interval > 0 && !json)
				putchar('\n');
			fflush(stdout);
		}
		if (interval == 0 || (count > 0 && n >= count))
			break;
		if (msl_sleep(interval))
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
