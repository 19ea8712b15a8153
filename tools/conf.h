/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MSL_TOOL_CONF_H
#define MSL_TOOL_CONF_H

#include <stdbool.h>
#include <stddef.h>

#include <memcg_softlimit/control.h>

struct msl_cgfs;

/* conf.c: the configuration file and its drop-in directory */
#define MSL_CONF_DEFAULT	"/etc/memcg-softlimit.conf"
#define MSL_CONF_DIR		"/etc/memcg-softlimit.conf.d"
struct msl_conf_rule {
	char *pattern;			/* below the mount, as the module takes it */
	char *size;			/* as written */
	enum msl_rule_action action;
	const char *file;		/* where it was read, and its line */
	int line;
	unsigned int matched;		/* cgroups it decides now (apply) */
};
struct msl_conf {
	struct msl_conf_rule *v;	/* in the order they decide */
	size_t n, cap;
	char **files;			/* the files read */
	size_t nfiles;
	bool quiet;			/* bad lines counted, not said */
};
/* @file's rules appended: the number of bad lines (each said), -1 unread. */
int msl_conf_read_file(struct msl_conf *c, const struct msl_cgfs *fs,
		       const char *file);
/* @dir's *.conf, in byte order of their names (none if no @dir): 0, -errno. */
int msl_conf_dropins(const char *dir, char ***files, size_t *n);
/*
 * @main_file (if any), then each drop-in of @dir (if any): the number of
 * bad lines and unreadable files, each said; -1 when @main_file or @dir
 * cannot be read.
 */
int msl_conf_load(struct msl_conf *c, const struct msl_cgfs *fs,
		  const char *main_file, const char *dir);
void msl_conf_free(struct msl_conf *c);
/* The rule that decides @path (the first that matches), or NULL. */
const struct msl_conf_rule *msl_conf_first_match(const struct msl_conf *c,
						 const char *path);
/* An earlier rule that leaves rule @i nothing to decide, or NULL. */
const struct msl_conf_rule *msl_conf_hidden_by(const struct msl_conf *c,
					       size_t i);
/* A max rule on a pattern ending in '**': a whole subtree immune. */
bool msl_conf_immune_subtree(const struct msl_conf_rule *r);
/* Warnings: dead rules, immune subtrees. */
void msl_conf_warn(const struct msl_conf *c);
/* set --persist's file for @cgpath in @dir: 0 or -ENAMETOOLONG. */
int msl_conf_snippet(const char *dir, const char *cgpath, char *buf,
		     size_t len);

#endif /* MSL_TOOL_CONF_H */
