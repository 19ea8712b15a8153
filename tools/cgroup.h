/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MSL_TOOL_CGROUP_H
#define MSL_TOOL_CGROUP_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* cgroup.c: the memory controller's hierarchy */
struct msl_cgfs {
	int version;			/* 1 or 2 */
	char mount[4096];		/* where the hierarchy is mounted */
};
int msl_cgfs_find(struct msl_cgfs *fs, const char *mountinfo);
/*
 * A user's PATH to the cgroup path below the mount ("/" for the root):
 * "/sys/fs/cgroup/a/b", "/a/b" and "a/b" all give "/a/b".  0, or -1 with
 * *why set.
 */
int msl_cg_normalize(const struct msl_cgfs *fs, const char *in, char *out,
		     size_t len, const char **why);
/*
 * A command's PATH argument: normalized, and checked to be a cgroup
 * (MSL_CG_NOT_ROOT: not the root; MSL_CG_MEMCG: with a memcg of its own).
 * Returns an exit status: 0, MSL_EXIT_USAGE (bad path, the root) or
 * MSL_EXIT_ERR (no such cgroup, not a cgroup, no memcg), with @msg set.
 */
#define MSL_CG_NOT_ROOT	1
#define MSL_CG_MEMCG	2
int msl_cg_resolve(const struct msl_cgfs *fs, const char *arg,
		   unsigned int flags, char *cgpath, size_t len, uint64_t *id,
		   char *msg, size_t msglen);
void msl_cg_fspath(const struct msl_cgfs *fs, const char *cgpath, char *buf,
		   size_t len);
/* 0 and the cgroup id; -ENOENT, -ENOTDIR (not a cgroup) */
int msl_cg_id(const struct msl_cgfs *fs, const char *cgpath, uint64_t *id);
/* A memcg of its own: v2 memory.current, v1 memory.usage_in_bytes. */
bool msl_cg_has_memcg(const struct msl_cgfs *fs, const char *cgpath);
int msl_cg_usage(const struct msl_cgfs *fs, const char *cgpath,
		 uint64_t *bytes);
int msl_cg_read_u64(const struct msl_cgfs *fs, const char *cgpath,
		    const char *file, uint64_t *val);

/* cgroup.c: finds the hierarchy, or says why not (exit status). */
int msl_open_fs(struct msl_cgfs *fs);
/*
 * What a command that takes a PATH starts from: the hierarchy, and PATH
 * (@arg) resolved in it (@flags: MSL_CG_NOT_ROOT, MSL_CG_MEMCG).
 */
struct msl_target {
	struct msl_cgfs fs;
	char path[PATH_MAX];		/* below the mount: "/", "/a/b" */
	uint64_t id;
};
/* 0, or an exit status with why said (no hierarchy, a bad PATH). */
int msl_target_open(struct msl_target *t, const char *arg,
		    unsigned int flags);
/*
 * cgroup.c: -c CGROUP on a live hierarchy: its path below the mount into @out, or
 * an exit status with why said (no such cgroup, a bad path).
 */
int msl_cg_filter(const struct msl_cgfs *fs, const char *arg, char *out,
		  size_t len);

#endif /* MSL_TOOL_CGROUP_H */
