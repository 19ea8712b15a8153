/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's root-only control interface, shared by the module and the
 * tool.  Soft limits of cgroup v2 cgroups live in the module (cgroup v2 has
 * no soft limit, and Debian 6.12 has no memcg->soft_limit at all).
 *
 * MSL_CTL_LIMITS, mode 0600:
 *   write "set <path> <size>\n"  size: bytes, optional K/M/G/T suffix
 *                                (powers of 1024), or "max" (immune)
 *   write "unset <path>\n"       back to unset (see unset_eligible)
 *   <path> is the cgroup's path below the cgroup2 mount, starting with
 *   '/'; it may contain spaces (everything up to the last space for set).
 *   One command per write().  Errors: EINVAL (malformed, or the root
 *   cgroup), ENOENT (no such cgroup), EOPNOTSUPP (memory controller not
 *   on cgroup v2: use memory.soft_limit_in_bytes), ENOSPC (table full).
 *   read: one line per soft limit: "<cgroup id> <bytes|max> <path>\n"
 */
#ifndef MEMCG_SOFTLIMIT_CONTROL_H
#define MEMCG_SOFTLIMIT_CONTROL_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
typedef uint64_t u64;
#endif

#define MSL_PROC_DIR		"memcg_softlimit"
#define MSL_CTL_LIMITS		"/proc/memcg_softlimit/limits"
#define MSL_PARAMS_DIR		"/sys/module/memcg_softlimit/parameters"

/* Longest command accepted in one write: PATH_MAX plus verb and size. */
#define MSL_CTL_MAX_CMD		4200
/* Bound on soft limits held by the module. */
#define MSL_MAX_LIMITS		65536

enum msl_ctl_op { MSL_CTL_SET, MSL_CTL_UNSET };

struct msl_ctl_cmd {
	enum msl_ctl_op op;
	/* Points into the parsed buffer, NUL-terminated in place. */
	char *path;
	bool is_max;
	u64 bytes;
};

/* 0, or -EINVAL with *why naming the problem. Modifies @buf in place. */
int msl_ctl_parse(char *buf, size_t len, struct msl_ctl_cmd *cmd,
		  const char **why);
/* Parses "123", "64K", "1G", "max": 0, or -EINVAL / -ERANGE. */
int msl_parse_size(const char *s, u64 *bytes, bool *is_max);

#endif /* MEMCG_SOFTLIMIT_CONTROL_H */
