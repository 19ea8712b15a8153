// SPDX-License-Identifier: GPL-2.0
/*
 * suggest --write FILE: the suggestions as a rules file, written whole
 * under a temporary name and then put in place, never over a file that
 * suggest did not write (a configuration someone wrote by hand, a rules
 * file of their own): that is refused before any reading is taken.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suggest.h"
#include "msl.h"

int msl_suggest_write_check(const char *file, bool *replace)
{
	char head[256], dir[PATH_MAX];
	struct stat st;

	*replace = false;
	snprintf(dir, sizeof(dir), "%s", file);
	if (access(dirname(dir), W_OK)) {
		msl_err("--write %s: cannot write in %s: %s", file, dir,
			strerror(errno));
		return MSL_EXIT_ERR;
	}
	if (lstat(file, &st)) {
		if (errno == ENOENT)
			return 0;
		msl_err("--write %s: %s", file, strerror(errno));
		return MSL_EXIT_ERR;
	}
	if (!S_ISREG(st.st_mode)) {
		msl_err("--write %s: not a regular file: not replaced", file);
		return MSL_EXIT_ERR;
	}
	if (msl_read_file(file, head, sizeof(head)) < 0 ||
	    !msl_suggest_is_ours(head)) {
		msl_err("--write %s: the file exists and suggest did not write it: not replaced (remove it, or name another file)",
			file);
		return MSL_EXIT_ERR;
	}
	*replace = true;
	return 0;
}

/* @file's text under @tmp: 0 or -errno; *rules written. */
static int write_tmp(const char *tmp, const char *file, const char *what,
		     const struct msl_suggestion *s, size_t n, size_t *rules)
{
	int fd, err = 0;
	FILE *f;

	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
		return err;
	}
	*rules = msl_suggest_snippet(f, file, what, s, n);
	if (fflush(f) || ferror(f) || fsync(fd))
		err = -(errno ? errno : EIO);
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

int msl_suggest_write(const char *file, const char *what,
		      const struct msl_suggestion *s, size_t n, bool replace,
		      bool say_on_stderr)
{
	char tmp[PATH_MAX + 32];
	size_t rules = 0;
	int err;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", file, (long)getpid());
	err = write_tmp(tmp, file, what, s, n, &rules);
	if (!err && replace && rename(tmp, file))
		err = -errno;
	/* A new file: link() never replaces one made meanwhile. */
	if (!err && !replace && link(tmp, file))
		err = -errno;
	unlink(tmp);
	if (err) {
		msl_err("--write %s: %s", file, err == -EEXIST ?
			"the file appeared meanwhile: not replaced" :
			strerror(-err));
		return MSL_EXIT_ERR;
	}
	fprintf(say_on_stderr ? stderr : stdout,
		"wrote %zu rule%s to %s, applied to nothing (%s apply --dry-run %s checks it)\n",
		rules, rules == 1 ? "" : "s", file, MSL_PROG, file);
	return 0;
}
