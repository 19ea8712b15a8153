// SPDX-License-Identifier: GPL-2.0
/* Messages and small files. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msl.h"

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s", MSL_PROG, prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void msl_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void msl_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

/*
 * fd 1 closed when we start (`cmd >&-`): a file we open would become
 * standard output.  A read-only descriptor holds its place, so that every
 * write to it fails (EBADF) as a write to a closed one does.
 */
void msl_hold_stdout(void)
{
	int fd;

	if (fcntl(STDOUT_FILENO, F_GETFD) >= 0 || errno != EBADF)
		return;
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && fd != STDOUT_FILENO) {
		dup2(fd, STDOUT_FILENO);
		close(fd);
	}
}

int msl_close_stdout(void)
{
	int err = 0;

	errno = 0;
	if (fflush(stdout))
		err = errno ? errno : EIO;
	if (ferror(stdout) && !err)
		err = EIO;
	if (fclose(stdout) && !err)
		err = errno ? errno : EIO;
	if (!err)
		return 0;
	fprintf(stderr, "%s: write error on standard output: %s\n", MSL_PROG,
		strerror(err));
	return -err;
}

ssize_t msl_read_file(const char *path, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t r;
	int fd;

	if (len == 0)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (got < len - 1) {
		r = read(fd, buf + got, len - 1 - got);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			close(fd);
			return r;
		}
		if (r == 0)
			break;
		got += r;
	}
	close(fd);
	buf[got] = '\0';
	return got;
}

char *msl_read_all(const char *path, size_t *lenp)
{
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap), *nbuf;
	ssize_t r;
	int fd, err;

	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto fail;
	for (;;) {
		if (cap - len < 2) {
			nbuf = realloc(buf, cap * 2);
			if (!nbuf)
				goto fail;
			buf = nbuf;
			cap *= 2;
		}
		r = read(fd, buf + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if (r == 0)
			break;
		len += r;
	}
	close(fd);
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
fail:
	err = errno;
	if (fd >= 0)
		close(fd);
	free(buf);
	errno = err;
	return NULL;
}

int msl_write_file(const char *path, const char *s)
{
	size_t len = strlen(s);
	ssize_t r;
	int fd, err;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do {
		r = write(fd, s, len);
	} while (r < 0 && errno == EINTR);
	err = r < 0 ? -errno : (size_t)r != len ? -EIO : 0;
	if (close(fd) && !err)
		err = -errno;
	return err;
}
