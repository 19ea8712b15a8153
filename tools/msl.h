/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memcg-softlimit, the userspace tool: what every file shares, the
 * program's and the module's names, the exit statuses and util.c
 * (messages, small files).
 * Each concern has its own header beside its .c (cgroup.h, softlimit.h,
 * module.h, counters.h, output.h, ...).  The pure parts (sizes, escaping,
 * counters, explain) need nothing but libc and are linked into the unit
 * tests as they are.
 */
#ifndef MSL_TOOL_H
#define MSL_TOOL_H

#include <stddef.h>
#include <sys/types.h>

/* The kernel's __printf (include/userspace/), as the module */
#include <linux/compiler.h>

#define MSL_PROG		"memcg-softlimit"
#define MSL_EXIT_OK		0
#define MSL_EXIT_ERR		1	/* runtime error */
#define MSL_EXIT_USAGE		2	/* bad command line or arguments */

#define MSL_MODULE_NAME		"memcg_softlimit"
#define MSL_SYS_MODULE		"/sys/module/memcg_softlimit"

/* util.c: messages, standard output, small files */
/* Before anything is opened: a closed fd 1 stays failing, never reused. */
void msl_hold_stdout(void);
/*
 * At exit: standard output flushed and closed; a write that failed
 * (a full disk, a closed pipe or descriptor) said: 0 or -errno.
 */
int msl_close_stdout(void);
void msl_err(const char *fmt, ...) __printf(1, 2);
void msl_warn(const char *fmt, ...) __printf(1, 2);
/* A small file into buf, NUL-terminated: length, or -errno. */
ssize_t msl_read_file(const char *path, char *buf, size_t len);
/* A whole file, malloc'ed and NUL-terminated: NULL with errno set. */
char *msl_read_all(const char *path, size_t *lenp);
/* One write(2) of s: 0 or -errno (the control file wants one command each). */
int msl_write_file(const char *path, const char *s);

#endif /* MSL_TOOL_H */
