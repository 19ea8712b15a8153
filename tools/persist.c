// SPDX-License-Identifier: GPL-2.0
/*
 * set --persist, unset --persist: a soft limit set by hand kept across
 * unloads and reboots as one drop-in file per cgroup in MSL_CONF_DIR
 * (set-<path, systemd-escaped>.conf), which apply reads after the main
 * file each time the module is loaded.  The file is written whole and
 * renamed into place.  Since the first matching rule decides, a rule of
 * the main file or of an earlier drop-in that matches the same cgroup
 * would win at the next apply: that is said.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "persist.h"
#include "cgroup.h"
#include "conf.h"
#include "msl.h"

/* 0, or -errno with *why. */
static int write_snippet(const char *file, const char *cgpath,
			 const char *size, const char **why)
{
	char tmp[PATH_MAX + 32];
	FILE *f;
	int fd, err = 0;

	if (mkdir(MSL_CONF_DIR, 0755) && errno != EEXIST) {
		*why = "cannot create " MSL_CONF_DIR;
		return -errno;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", file, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		*why = "cannot create it";
		return -errno;
	}
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
		unlink(tmp);
		*why = "cannot write it";
		return err;
	}
	fprintf(f, "# Written by `%s set --persist`; `%s unset --persist %s`\n"
		"# removes it.  Applied after %s at each load of the module.\n"
		"%s %s\n", MSL_PROG, MSL_PROG, cgpath, MSL_CONF_DEFAULT, cgpath,
		size);
	if (fflush(f) || ferror(f) || fsync(fd))
		err = -(errno ? errno : EIO);
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, file))
		err = -errno;
	if (err) {
		unlink(tmp);
		*why = "cannot write it";
	}
	return err;
}

/*
 * What will decide @cgpath at the next apply: @file's rule after set
 * (@file NULL: none, after unset).
 */
static void check_decides(const struct msl_cgfs *fs, const char *cgpath,
			  const char *file)
{
	struct msl_conf c = { 0 };
	const struct msl_conf_rule *r;

	/* (bad lines elsewhere are said here, and by apply) */
	if (msl_conf_load(&c, fs, access(MSL_CONF_DEFAULT, F_OK) ?
			  NULL : MSL_CONF_DEFAULT, MSL_CONF_DIR) >= 0) {
		r = msl_conf_first_match(&c, cgpath);
		if (r && file && strcmp(r->file, file))
			msl_warn("%s:%d (%s %s) comes before %s and matches %s: at the next load of the module that rule decides, not this one",
				 r->file, r->line, r->pattern, r->size, file,
				 cgpath);
		else if (r && !file)
			msl_warn("%s:%d (%s %s) still matches %s: at the next load of the module it gives it that limit",
				 r->file, r->line, r->pattern, r->size, cgpath);
	}
	msl_conf_free(&c);
}

/* PATH as the snippet names it, checked: an exit status. */
static int snippet_of(const struct msl_cgfs *fs, const char *arg,
		      char *cgpath, size_t len, char *file, size_t flen)
{
	char msg[PATH_MAX * 3];
	const char *p;
	uint64_t id;
	int ret;

	ret = msl_cg_resolve(fs, arg, MSL_CG_NOT_ROOT, cgpath, len, &id, msg,
			     sizeof(msg));
	if (ret) {
		msl_err("%s", msg);
		return ret;
	}
	/* In a rules file " #" starts a comment. */
	for (p = cgpath; *p; p++)
		if (*p == '#' && (p[-1] == ' ' || p[-1] == '\t')) {
			msl_err("%s: a blank before '#' cannot be written in a rules file", cgpath);
			return MSL_EXIT_USAGE;
		}
	if (msl_conf_snippet(MSL_CONF_DIR, cgpath, file, flen)) {
		msl_err("%s: path too long for a file name", cgpath);
		return MSL_EXIT_USAGE;
	}
	return 0;
}

int msl_persist_set(const struct msl_cgfs *fs, const char *arg,
		    const char *size)
{
	char cgpath[PATH_MAX], file[PATH_MAX];
	const char *why = NULL;
	int ret;

	ret = snippet_of(fs, arg, cgpath, sizeof(cgpath), file, sizeof(file));
	if (ret)
		return ret;
	ret = write_snippet(file, cgpath, size, &why);
	if (ret) {
		msl_err("set now, but not persisted: %s: %s: %s", file, why,
			strerror(-ret));
		return MSL_EXIT_ERR;
	}
	printf("persisted in %s\n", file);
	check_decides(fs, cgpath, file);
	return 0;
}

int msl_persist_unset(const struct msl_cgfs *fs, const char *arg)
{
	char cgpath[PATH_MAX], file[PATH_MAX];
	int ret;

	ret = snippet_of(fs, arg, cgpath, sizeof(cgpath), file, sizeof(file));
	if (ret)
		return ret;
	if (unlink(file)) {
		if (errno != ENOENT) {
			msl_err("cannot remove %s: %s", file, strerror(errno));
			return MSL_EXIT_ERR;
		}
		printf("%s: no limit of %s was persisted\n", file, cgpath);
	} else {
		printf("removed %s\n", file);
	}
	check_decides(fs, cgpath, NULL);
	return 0;
}
