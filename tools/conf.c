// SPDX-License-Identifier: GPL-2.0
/*
 * The configuration as hosts manage it: /etc/memcg-softlimit.conf, then
 * every *.conf of /etc/memcg-softlimit.conf.d in lexical order (modprobe.d's
 * way: packages and configuration management drop a file in, nobody
 * edits a shared one), read into one list of "PATTERN SIZE" rules.  The
 * first rule that matches a cgroup decides, as in the module, so a rule
 * can be dead: said, with the rule that hides it.  A rule that makes a
 * whole subtree immune (max) is said too: everything outside it, the
 * node's own agents included, is then what global reclaim takes first.
 * Every line is checked with the module's own parser (ctl_parse.c); a
 * bad line is said with its file and line, and counts.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <memcg_softlimit/control.h>

#include "conf.h"
#include "cgroup.h"
#include "msl.h"

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

/* A pattern as the module wants it: the mount's prefix taken off. */
static void normalize(const struct msl_cgfs *fs, const char *in, char *out,
		      size_t len)
{
	size_t ml = fs ? strlen(fs->mount) : 0;

	if (ml > 1 && !strncmp(in, fs->mount, ml) &&
	    (in[ml] == '/' || in[ml] == '\0'))
		in += ml;
	snprintf(out, len, "%s", *in ? in : "/");
}

static struct msl_conf_rule *new_rule(struct msl_conf *c)
{
	struct msl_conf_rule *v;
	size_t cap;

	if (c->n == c->cap) {
		cap = c->cap ? c->cap * 2 : 16;
		v = realloc(c->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		c->v = v;
		c->cap = cap;
	}
	memset(&c->v[c->n], 0, sizeof(c->v[0]));
	return &c->v[c->n];
}

/* One line: 0 a rule added, 1 nothing (blank), -1 bad (said). */
static int parse_line(struct msl_conf *c, const struct msl_cgfs *fs,
		      char *line, const char *file, int lineno)
{
	char *p, *size, pattern[PATH_MAX], check[PATH_MAX + 64], *pat, *sz;
	struct msl_conf_rule *r;
	struct msl_rule rule;
	const char *why = NULL;

	/* A comment: # at the start of the line or after a blank. */
	for (p = line; *p; p++)
		if (*p == '#' && (p == line || isspace((unsigned char)p[-1]))) {
			*p = '\0';
			break;
		}
	line = trim(line);
	if (!*line)
		return 1;
	size = line + strlen(line);
	while (size > line && !isspace((unsigned char)size[-1]))
		size--;
	if (size == line) {
		if (!c->quiet)
			msl_err("%s:%d: expected \"PATH SIZE\"", file, lineno);
		return -1;
	}
	size[-1] = '\0';
	normalize(fs, trim(line), pattern, sizeof(pattern));
	/* The module's own parser, on the line the module will get. */
	snprintf(check, sizeof(check), "%s %s", pattern, size);
	if (msl_rule_parse(check, &rule, &why) != 1) {
		if (!c->quiet)
			msl_err("%s:%d: %s: %s", file, lineno, pattern,
				why ? why : "empty rule");
		return -1;
	}
	pat = strdup(pattern);
	sz = strdup(size);
	r = pat && sz ? new_rule(c) : NULL;
	if (!r) {
		free(pat);
		free(sz);
		msl_err("out of memory");
		return -1;
	}
	r->pattern = pat;
	r->size = sz;
	r->file = file;
	r->line = lineno;
	r->action = rule.action;
	c->n++;
	return 0;
}

/*
 * @file, kept for the rules' messages: the copy, or NULL.  (GCC 12's
 * -fanalyzer loses the copy once it is in c->files and calls it a leak,
 * here and in the caller; msl_conf_free() frees it.)
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wanalyzer-malloc-leak"
static const char *keep_name(struct msl_conf *c, const char *file)
{
	char **v = realloc(c->files, (c->nfiles + 1) * sizeof(*v));
	char *copy;

	if (!v)
		return NULL;
	c->files = v;
	copy = strdup(file);
	if (!copy)
		return NULL;
	v[c->nfiles++] = copy;
	return copy;
}

int msl_conf_read_file(struct msl_conf *c, const struct msl_cgfs *fs,
		       const char *file)
{
	char *text, *line, *next;
	const char *name;
	int lineno = 0, bad = 0;

	text = msl_read_all(file, NULL);
	if (!text) {
		if (!c->quiet)
			msl_err("cannot read %s: %s", file, strerror(errno));
		return -1;
	}
	name = keep_name(c, file);
	if (!name) {
		free(text);
		msl_err("out of memory");
		return -1;
	}
	for (line = text; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (parse_line(c, fs, line, name, ++lineno) < 0)
			bad++;
	}
	free(text);
	return bad;
}
#pragma GCC diagnostic pop

static int by_name(const void *a, const void *b)
{
	/* Byte order, whatever the locale: the order a file's name says. */
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int msl_conf_dropins(const char *dir, char ***out, size_t *n)
{
	struct dirent *de;
	char **v = NULL, **nv, *path;
	size_t len;
	DIR *d;

	*out = NULL;
	*n = 0;
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		len = strlen(de->d_name);
		/* *.conf, no hidden file (an editor's, dpkg's .dpkg-new) */
		if (de->d_name[0] == '.' || len < 6 ||
		    strcmp(de->d_name + len - 5, ".conf"))
			continue;
		if (de->d_type != DT_REG && de->d_type != DT_LNK &&
		    de->d_type != DT_UNKNOWN)
			continue;
		if (asprintf(&path, "%s/%s", dir, de->d_name) < 0)
			goto oom;
		nv = realloc(v, (*n + 1) * sizeof(*v));
		if (!nv) {
			free(path);
			goto oom;
		}
		v = nv;
		v[(*n)++] = path;
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), by_name);
	*out = v;
	return 0;
oom:
	closedir(d);
	while (*n)
		free(v[--(*n)]);
	free(v);
	return -ENOMEM;
}

int msl_conf_load(struct msl_conf *c, const struct msl_cgfs *fs,
		  const char *main_file, const char *dir)
{
	char **files;
	size_t n, i;
	int bad = 0, r, err;

	if (main_file) {
		r = msl_conf_read_file(c, fs, main_file);
		if (r < 0)
			return -1;
		bad += r;
	}
	if (!dir)
		return bad;
	err = msl_conf_dropins(dir, &files, &n);
	if (err) {
		if (!c->quiet)
			msl_err("cannot read %s: %s", dir, strerror(-err));
		return -1;
	}
	for (i = 0; i < n; i++) {
		r = msl_conf_read_file(c, fs, files[i]);
		bad += r < 0 ? 1 : r;
		free(files[i]);
	}
	free(files);
	return bad;
}

void msl_conf_free(struct msl_conf *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->v[i].pattern);
		free(c->v[i].size);
	}
	for (i = 0; i < c->nfiles; i++)
		free(c->files[i]);
	free(c->v);
	free(c->files);
	memset(c, 0, sizeof(*c));
}

const struct msl_conf_rule *msl_conf_first_match(const struct msl_conf *c,
						 const char *path)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (msl_path_match(c->v[i].pattern, path))
			return &c->v[i];
	return NULL;
}

static bool literal(const char *pattern)
{
	return !strpbrk(pattern, "*?");
}

const struct msl_conf_rule *msl_conf_hidden_by(const struct msl_conf *c,
					       size_t i)
{
	const struct msl_conf_rule *r = &c->v[i];
	size_t j;

	for (j = 0; j < i; j++) {
		const struct msl_conf_rule *e = &c->v[j];

		if (!strcmp(e->pattern, r->pattern) ||
		    (literal(r->pattern) && msl_path_match(e->pattern,
							   r->pattern)))
			return e;
	}
	return NULL;
}

bool msl_conf_immune_subtree(const struct msl_conf_rule *r)
{
	size_t n = strlen(r->pattern);

	return r->action == MSL_RULE_MAX && n >= 3 &&
	       !strcmp(r->pattern + n - 3, "/**");
}

void msl_conf_warn(const struct msl_conf *c)
{
	const struct msl_conf_rule *e;
	size_t i;

	for (i = 0; i < c->n; i++) {
		const struct msl_conf_rule *r = &c->v[i];

		e = msl_conf_hidden_by(c, i);
		if (e)
			msl_warn("%s:%d: %s %s never decides: %s:%d (%s %s) comes first and matches it (the first matching rule decides)",
				 r->file, r->line, r->pattern, r->size,
				 e->file, e->line, e->pattern, e->size);
		if (msl_conf_immune_subtree(r))
			msl_warn("%s:%d: %s %s: no cgroup below %.*s is reclaimed first, so global reclaim takes first from everything outside it, the node's own agents included (the kubelet, containerd and sshd in /system.slice): give those a limit too, or use a size here",
				 r->file, r->line, r->pattern, r->size,
				 (int)(strlen(r->pattern) - 3), r->pattern);
	}
}

int msl_conf_snippet(const char *dir, const char *cgpath, char *buf,
		     size_t len)
{
	static const char keep[] = "abcdefghijklmnopqrstuvwxyz"
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:_.@";
	const char *start = cgpath + strspn(cgpath, "/"), *p;
	size_t o;
	int n;

	n = snprintf(buf, len, "%s/set-", dir);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	o = (size_t)n;
	/*
	 * systemd-escape --path's rule: '/' between components is '-', any
	 * other byte outside [A-Za-z0-9:_.@] (and a leading '.') is \xNN.
	 */
	for (p = start; *p; p++) {
		if (o + 5 >= len)
			return -ENAMETOOLONG;
		if (*p == '/')
			buf[o++] = '-';
		else if (strchr(keep, *p) &&
			 !(*p == '.' && (p == start || p[-1] == '/')))
			buf[o++] = *p;
		else
			o += (size_t)snprintf(buf + o, len - o, "\\x%02x",
					      (unsigned char)*p);
	}
	if (o + sizeof(".conf") > len)
		return -ENAMETOOLONG;
	memcpy(buf + o, ".conf", sizeof(".conf"));
	return 0;
}
