// SPDX-License-Identifier: GPL-2.0
/*
 * The memory controller's hierarchy: where it is mounted (v1 or v2), user
 * paths to cgroup paths, and a cgroup's files (cgmap.c walks it and maps
 * ids to paths).  A cgroup's id is the inode number of its directory,
 * which is what the module's events carry.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "escape.h"
#include "msl.h"

/* mountinfo escapes blanks and backslashes in octal: \040 \011 \012 \134 */
static void unescape_octal(char *s)
{
	char *o = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
}

static bool has_option(const char *opts, const char *want)
{
	size_t n = strlen(want);
	const char *p = opts;

	while (p && *p) {
		if (!strncmp(p, want, n) && (p[n] == ',' || p[n] == '\0'))
			return true;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

static bool v2_has_memory(const char *mount)
{
	char path[PATH_MAX + 32], buf[512];
	char *tok, *save;

	snprintf(path, sizeof(path), "%s/cgroup.controllers", mount);
	if (msl_read_file(path, buf, sizeof(buf)) < 0)
		return false;
	for (tok = strtok_r(buf, " \n", &save); tok;
	     tok = strtok_r(NULL, " \n", &save))
		if (!strcmp(tok, "memory"))
			return true;
	return false;
}

int msl_cgfs_find(struct msl_cgfs *fs, const char *mountinfo)
{
	char v2[sizeof(fs->mount)] = "";
	char *text, *line, *save;
	int found = 0;

	text = msl_read_all(mountinfo ? mountinfo : "/proc/self/mountinfo",
			    NULL);
	if (!text)
		return -errno;
	for (line = strtok_r(text, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[6] = { 0 }, *sep, *p, *s2;
		int i;

		sep = strstr(line, " - ");
		if (!sep)
			continue;
		*sep = '\0';
		/* id parent maj:min root mountpoint ... */
		for (i = 0, p = strtok_r(line, " ", &s2); p && i < 5;
		     p = strtok_r(NULL, " ", &s2))
			f[i++] = p;
		if (i < 5)
			continue;
		/* fstype source superopts */
		f[5] = sep + 3;
		p = strchr(f[5], ' ');
		if (!p)
			continue;
		*p++ = '\0';
		p = strchr(p, ' ');		/* skip the source */
		if (!strcmp(f[5], "cgroup") && p && has_option(p + 1, "memory")) {
			unescape_octal(f[4]);
			fs->version = 1;
			snprintf(fs->mount, sizeof(fs->mount), "%s", f[4]);
			found = 1;
		} else if (!strcmp(f[5], "cgroup2") && !v2[0] &&
			   !strcmp(f[3], "/")) {
			unescape_octal(f[4]);
			snprintf(v2, sizeof(v2), "%s", f[4]);
		}
	}
	free(text);
	if (found)
		return 0;
	/* The memory controller is on v2 when no v1 hierarchy has it. */
	if (v2[0] && (mountinfo || v2_has_memory(v2))) {
		fs->version = 2;
		snprintf(fs->mount, sizeof(fs->mount), "%s", v2);
		return 0;
	}
	return -ENOENT;
}

int msl_cg_normalize(const struct msl_cgfs *fs, const char *in, char *out,
		     size_t len, const char **why)
{
	size_t ml = strlen(fs->mount), o = 0, n;
	const char *p = in, *end;

	*why = NULL;
	if (!in || !*in) {
		*why = "empty cgroup path";
		return -1;
	}
	if (ml > 1 && !strncmp(in, fs->mount, ml) &&
	    (in[ml] == '/' || in[ml] == '\0'))
		p = in + ml;
	if (len < 2) {
		*why = "path too long";
		return -1;
	}
	out[o++] = '/';
	while (*p) {
		const char *c;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		end = strchr(p, '/');
		n = end ? (size_t)(end - p) : strlen(p);
		if ((n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.')) {
			*why = "'.' and '..' are not allowed in cgroup paths";
			return -1;
		}
		for (c = p; c < p + n; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f) {
				*why = "control character in cgroup path";
				return -1;
			}
		if (o > 1)
			out[o++] = '/';
		if (o + n + 1 > len || o + n >= PATH_MAX) {
			*why = "path too long";
			return -1;
		}
		memcpy(out + o, p, n);
		o += n;
		p += n;
	}
	out[o] = '\0';
	return 0;
}

void msl_cg_fspath(const struct msl_cgfs *fs, const char *cgpath, char *buf,
		   size_t len)
{
	if (!strcmp(cgpath, "/"))
		snprintf(buf, len, "%s", fs->mount);
	else
		snprintf(buf, len, "%s%s", strcmp(fs->mount, "/") ?
			 fs->mount : "", cgpath);
}

int msl_cg_id(const struct msl_cgfs *fs, const char *cgpath, uint64_t *id)
{
	char path[PATH_MAX * 2];
	struct stat st;

	msl_cg_fspath(fs, cgpath, path, sizeof(path));
	if (stat(path, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	strncat(path, "/cgroup.procs", sizeof(path) - strlen(path) - 1);
	if (access(path, F_OK))
		return -ENOTDIR;
	*id = st.st_ino;
	return 0;
}

int msl_cg_resolve(const struct msl_cgfs *fs, const char *arg, unsigned flags,
		   char *cgpath, size_t len, uint64_t *id, char *msg,
		   size_t msglen)
{
	char fspath[PATH_MAX * 2], parent[PATH_MAX * 2], *slash;
	const char *why;
	int ret;

	msg[0] = '\0';
	if (msl_cg_normalize(fs, arg, cgpath, len, &why)) {
		char shown[256];

		snprintf(msg, msglen, "bad cgroup path '%s': %s",
			 msl_text(arg, shown, sizeof(shown)), why);
		return MSL_EXIT_USAGE;
	}
	if ((flags & MSL_CG_NOT_ROOT) && !strcmp(cgpath, "/")) {
		snprintf(msg, msglen, "the root cgroup cannot have a soft limit (it is everyone's ancestor): name a cgroup below it");
		return MSL_EXIT_USAGE;
	}
	msl_cg_fspath(fs, cgpath, fspath, sizeof(fspath));
	ret = msl_cg_id(fs, cgpath, id);
	if (ret == -ENOENT) {
		snprintf(msg, msglen, "no such cgroup: %s (%s does not exist)",
			 cgpath, fspath);
		return MSL_EXIT_ERR;
	}
	if (ret) {
		snprintf(msg, msglen, "not a cgroup: %s (%s)", cgpath, fspath);
		return MSL_EXIT_ERR;
	}
	if ((flags & MSL_CG_MEMCG) && strcmp(cgpath, "/") &&
	    !msl_cg_has_memcg(fs, cgpath)) {
		snprintf(parent, sizeof(parent), "%s", fspath);
		slash = strrchr(parent, '/');
		if (slash)
			*slash = '\0';
		snprintf(msg, msglen, "cgroup %s has no memory controller of its own: echo +memory > %s/cgroup.subtree_control",
			 cgpath, parent);
		return MSL_EXIT_ERR;
	}
	return 0;
}

int msl_cg_read_u64(const struct msl_cgfs *fs, const char *cgpath,
		    const char *file, uint64_t *val)
{
	char path[PATH_MAX * 2], buf[64], *end;
	unsigned long long v;
	ssize_t r;

	msl_cg_fspath(fs, cgpath, path, sizeof(path));
	strncat(path, "/", sizeof(path) - strlen(path) - 1);
	strncat(path, file, sizeof(path) - strlen(path) - 1);
	r = msl_read_file(path, buf, sizeof(buf));
	if (r < 0)
		return r;
	if (!strcmp(buf, "max\n") || !strcmp(buf, "max")) {
		*val = UINT64_MAX;
		return 0;
	}
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n'))
		return -EINVAL;
	*val = v;
	return 0;
}

static const char *usage_file(const struct msl_cgfs *fs)
{
	return fs->version == 1 ? "memory.usage_in_bytes" : "memory.current";
}

bool msl_cg_has_memcg(const struct msl_cgfs *fs, const char *cgpath)
{
	char path[PATH_MAX * 2];

	msl_cg_fspath(fs, cgpath, path, sizeof(path));
	strncat(path, "/", sizeof(path) - strlen(path) - 1);
	strncat(path, usage_file(fs), sizeof(path) - strlen(path) - 1);
	return access(path, F_OK) == 0;
}

int msl_cg_usage(const struct msl_cgfs *fs, const char *cgpath,
		 uint64_t *bytes)
{
	return msl_cg_read_u64(fs, cgpath, usage_file(fs), bytes);
}

int msl_open_fs(struct msl_cgfs *fs)
{
	if (msl_cgfs_find(fs, NULL)) {
		msl_err("no memory cgroup hierarchy is mounted (cgroup v1 with the memory controller, or cgroup2 with memory in cgroup.controllers)");
		return MSL_EXIT_ERR;
	}
	return 0;
}

int msl_target_open(struct msl_target *t, const char *arg,
		    unsigned int flags)
{
	char msg[PATH_MAX * 3];
	int ret;

	ret = msl_open_fs(&t->fs);
	if (ret)
		return ret;
	ret = msl_cg_resolve(&t->fs, arg, flags, t->path, sizeof(t->path),
			     &t->id, msg, sizeof(msg));
	if (ret)
		msl_err("%s", msg);
	return ret;
}

int msl_cg_filter(const struct msl_cgfs *fs, const char *arg, char *out,
		  size_t len)
{
	char msg[PATH_MAX * 3];
	uint64_t id;
	int ret;

	ret = msl_cg_resolve(fs, arg, 0, out, len, &id, msg, sizeof(msg));
	if (ret)
		msl_err("-c %s: %s", arg, msg);
	return ret;
}
