// SPDX-License-Identifier: GPL-2.0
/* set, get, unset, apply: soft limits by cgroup path. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msl.h"

#define SIZE_HELP "bytes with an optional K, M, G or T (powers of 1024), or max"

int msl_open_fs(struct msl_cgfs *fs)
{
	if (msl_cgfs_find(fs, NULL)) {
		msl_err("no memory cgroup hierarchy is mounted (cgroup v1 with the memory controller, or cgroup2 with memory in cgroup.controllers)");
		return MSL_EXIT_ERR;
	}
	return 0;
}

/* Only -h: returns -1 to go on, else the exit status. */
static int no_options(int argc, char **argv, const char *cmd, int nargs,
		      int maxargs)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' }, { 0 } };
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1)
		return msl_usage(cmd, c != 'h');
	if (argc - optind < nargs || argc - optind > maxargs)
		return msl_usage(cmd, true);
	return -1;
}

struct change {
	const char *arg;		/* PATH as given */
	bool unset, is_max;
	uint64_t bytes;
	const char *size;		/* SIZE as given */
};

static uint64_t page_round(uint64_t bytes)
{
	long ps = sysconf(_SC_PAGESIZE);

	if (ps <= 0)
		ps = 4096;
	return bytes / (uint64_t)ps * (uint64_t)ps;
}

static bool unchanged(const struct msl_cgfs *fs, const char *cgpath,
		      const struct change *ch, const struct msl_v2limits *v2)
{
	struct msl_limit cur;
	char buf[MSL_SIZE_BUF];

	if (msl_limit_get(fs, cgpath, v2, &cur))
		return false;
	if (ch->unset)
		return cur.src == MSL_LIMIT_UNSET;
	if (ch->is_max) {
		msl_limit_fmt(&cur, buf, sizeof(buf), true);
		return !strcmp(buf, "max");
	}
	return (cur.src == MSL_LIMIT_SET || cur.src == MSL_LIMIT_V1) &&
	       cur.bytes == page_round(ch->bytes);
}

/*
 * One change: returns an exit status and prints why it failed, prefixed
 * by @where ("FILE:LINE: " for apply).
 */
static int change_one(const struct msl_cgfs *fs, const struct change *ch,
		      const char *where, const struct msl_v2limits *v2,
		      bool dry_run, bool verbose)
{
	char cgpath[PATH_MAX], msg[PATH_MAX * 3];
	const char *why;
	uint64_t id;
	int ret;

	ret = msl_cg_resolve(fs, ch->arg, MSL_CG_NOT_ROOT | MSL_CG_MEMCG,
			     cgpath, sizeof(cgpath), &id, msg, sizeof(msg));
	if (ret) {
		msl_err("%s%s", where, msg);
		return ret;
	}
	if (verbose && unchanged(fs, cgpath, ch, v2)) {
		printf("%s %s%s%s: unchanged\n", ch->unset ? "unset" : "set",
		       cgpath, ch->unset ? "" : " ", ch->unset ? "" : ch->size);
		return 0;
	}
	if (dry_run) {
		printf("would %s %s%s%s\n", ch->unset ? "unset" : "set", cgpath,
		       ch->unset ? "" : " ", ch->unset ? "" : ch->size);
		return 0;
	}
	ret = msl_limit_write(fs, cgpath, ch->unset, ch->is_max, ch->bytes,
			      &why);
	if (ret) {
		msl_err("%scannot %s the soft limit of %s: %s", where,
			ch->unset ? "unset" : "set", cgpath,
			why ? why : strerror(-ret));
		return MSL_EXIT_ERR;
	}
	if (verbose)
		printf("%s %s%s%s\n", ch->unset ? "unset" : "set", cgpath,
		       ch->unset ? "" : " ", ch->unset ? "" : ch->size);
	return 0;
}

static int need_module(const struct msl_cgfs *fs)
{
	if (fs->version == 2 && !msl_module_loaded()) {
		msl_err(MSL_NOT_LOADED);
		return MSL_EXIT_ERR;
	}
	return 0;
}

static int parse_change(struct change *ch, const char *path, const char *size,
			const char *where)
{
	int ret;

	memset(ch, 0, sizeof(*ch));
	ch->arg = path;
	ch->size = size;
	if (!strcmp(size, "unset")) {
		ch->unset = true;
		return 0;
	}
	ret = msl_size_parse(size, &ch->bytes, &ch->is_max);
	if (ret) {
		msl_err("%sbad size '%s': %s", where, size,
			ret == -ERANGE ? "out of range" : SIZE_HELP);
		return MSL_EXIT_USAGE;
	}
	return 0;
}

int cmd_set(int argc, char **argv)
{
	struct msl_cgfs fs;
	struct change ch;
	int ret;

	ret = no_options(argc, argv, "set", 2, 2);
	if (ret >= 0)
		return ret;
	if (!strcmp(argv[optind + 1], "unset"))
		return msl_usage("set", true);
	ret = parse_change(&ch, argv[optind], argv[optind + 1], "");
	if (!ret)
		ret = msl_open_fs(&fs);
	if (!ret)
		ret = need_module(&fs);
	if (!ret)
		ret = change_one(&fs, &ch, "", NULL, false, false);
	return ret;
}

int cmd_unset(int argc, char **argv)
{
	struct msl_cgfs fs;
	struct change ch;
	int ret;

	ret = no_options(argc, argv, "unset", 1, 1);
	if (ret >= 0)
		return ret;
	parse_change(&ch, argv[optind], "unset", "");
	ret = msl_open_fs(&fs);
	if (!ret)
		ret = need_module(&fs);
	if (!ret)
		ret = change_one(&fs, &ch, "", NULL, false, false);
	return ret;
}

int cmd_get(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "bytes", no_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' }, { 0 } };
	char cgpath[PATH_MAX], msg[PATH_MAX * 3], buf[MSL_SIZE_BUF];
	struct msl_v2limits v2 = { 0 };
	struct msl_limit lim;
	struct msl_cgfs fs;
	bool bytes = false;
	uint64_t id;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+bh", opts, NULL)) != -1) {
		if (c == 'b')
			bytes = true;
		else
			return msl_usage("get", c != 'h');
	}
	if (argc - optind != 1)
		return msl_usage("get", true);
	ret = msl_open_fs(&fs);
	if (ret)
		return ret;
	ret = msl_cg_resolve(&fs, argv[optind], MSL_CG_NOT_ROOT, cgpath,
			     sizeof(cgpath), &id, msg, sizeof(msg));
	if (ret) {
		msl_err("%s", msg);
		return ret;
	}
	if (fs.version == 2) {
		ret = need_module(&fs);
		if (ret)
			return ret;
		ret = msl_v2limits_load(&v2);
		if (ret) {
			msl_err("cannot read %s: %s", MSL_CTL_LIMITS,
				ret == -EACCES || ret == -EPERM ?
				"permission denied: run as root" : strerror(-ret));
			return MSL_EXIT_ERR;
		}
	}
	ret = msl_limit_get(&fs, cgpath, &v2, &lim);
	msl_v2limits_free(&v2);
	if (ret) {
		msl_err("cannot read the soft limit of %s: %s", cgpath,
			strerror(-ret));
		return MSL_EXIT_ERR;
	}
	msl_limit_fmt(&lim, buf, sizeof(buf), bytes);
	printf("%s\n", buf);
	return 0;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

int cmd_apply(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' }, { 0 } };
	struct msl_v2limits v2 = { 0 };
	const char *file = MSL_CONF_DEFAULT;
	char *text, *line, *next, *p, *size, where[PATH_MAX + 32];
	int c, ret, failed = 0, applied = 0, lineno = 0;
	bool dry_run = false;
	struct msl_cgfs fs;
	struct change ch;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+nh", opts, NULL)) != -1) {
		if (c == 'n')
			dry_run = true;
		else
			return msl_usage("apply", c != 'h');
	}
	if (argc - optind > 1)
		return msl_usage("apply", true);
	if (argc - optind == 1)
		file = argv[optind];
	text = msl_read_all(file, NULL);
	if (!text) {
		msl_err("cannot read %s: %s", file, strerror(errno));
		return MSL_EXIT_ERR;
	}
	ret = msl_open_fs(&fs);
	if (!ret && !dry_run)
		ret = need_module(&fs);
	if (ret) {
		free(text);
		return ret;
	}
	if (fs.version == 2 && msl_module_loaded())
		msl_v2limits_load(&v2);
	for (line = text; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		snprintf(where, sizeof(where), "%s:%d: ", file, lineno);
		/* A comment: # at the start of the line or after a blank. */
		for (p = line; *p; p++)
			if (*p == '#' && (p == line || isspace((unsigned char)p[-1]))) {
				*p = '\0';
				break;
			}
		line = trim(line);
		if (!*line)
			continue;
		size = line + strlen(line);
		while (size > line && !isspace((unsigned char)size[-1]))
			size--;
		if (size == line) {
			msl_err("%sexpected \"PATH SIZE\"", where);
			failed++;
			continue;
		}
		size[-1] = '\0';
		if (parse_change(&ch, trim(line), size, where) ||
		    change_one(&fs, &ch, where, &v2, dry_run, true))
			failed++;
		else
			applied++;
	}
	msl_v2limits_free(&v2);
	free(text);
	if (failed)
		msl_err("%s: %d line%s failed, %d applied", file, failed,
			failed == 1 ? "" : "s", applied);
	return failed ? MSL_EXIT_ERR : MSL_EXIT_OK;
}
