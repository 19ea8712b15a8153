/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's root-only control interface, shared by the module and the
 * tool.  Soft limits of cgroup v2 cgroups live in the module (cgroup v2 has
 * no soft limit, and Debian 6.12 has no memcg->soft_limit at all).
 *
 * MSL_CTL_LIMITS, mode 0600:
 *   write "set <path> <size>\n"  size: bytes, optional K/M/G/T or Ki/Mi/Gi/Ti
 *                                (powers of 1024), or "max"/"infinity"
 *                                (immune); 1 byte to a page less than a
 *                                page is refused (0 pages: always over)
 *   write "unset <path>\n"       back to unset (module parameter unset)
 *   <path> is the cgroup's path below the cgroup2 mount, starting with
 *   '/'; it may contain spaces (everything up to the last space for set).
 *   One command per write().  Errors: EINVAL (malformed, or the root
 *   cgroup), ENOENT (no such cgroup), EOPNOTSUPP (memory controller not
 *   on cgroup v2: use memory.soft_limit_in_bytes), ENOSPC (table full).
 *   read: one line per soft limit: "<cgroup id> <bytes|max> <path>\n"
 *
 * MSL_CTL_RULES, mode 0600 (cgroup v2): soft limits by path pattern, given
 * to every cgroup that matches when the rules are written and to each one
 * created later, as it is created (no daemon, no polling).
 *   write: the whole rule set in one write(), one rule a line,
 *            "<pattern> <size|max|unset>\n" (a shell's printf writes
 *            line by line: `dd iflag=fullblock bs=1M count=1`, or the
 *            tool's apply, writes once)
 *          blank lines and lines starting with '#' are ignored.  The set
 *          replaces the previous one; a set of no rule (a blank line)
 *          clears it.  The first
 *          rule that matches a cgroup's path decides (unset: leave it).
 *          A pattern is a path below the cgroup2 mount, starting with '/':
 *          '*' matches within one path component, '**' as a whole component
 *          matches any number of components (none included), '?' one
 *          character; a literal path is a pattern too.  Any error (line
 *          named by number in the kernel log) changes nothing: EINVAL.
 *   read: the rules in force, in the same format.
 *
 * MSL_CTL_STATUS, mode 0444: what the module is doing, "key: value" lines:
 *   gate: progress|priority           (parameter priority_threshold)
 *   gating: active|stopped <why>      (stopped: reclaim ran without ever
 *                                      reaching a hooked step, see README)
 *   hooks: <symbol> ...               (the functions hooked)
 *   rules: <n>                        (path rules in force)
 */
#ifndef MEMCG_SOFTLIMIT_CONTROL_H
#define MEMCG_SOFTLIMIT_CONTROL_H

#include <linux/types.h>

#define MSL_PROC_DIR		"memcg_softlimit"
#define MSL_CTL_LIMITS		"/proc/memcg_softlimit/limits"
#define MSL_CTL_RULES		"/proc/memcg_softlimit/rules"
#define MSL_CTL_STATUS		"/proc/memcg_softlimit/status"
#define MSL_PARAMS_DIR		"/sys/module/memcg_softlimit/parameters"

/* Longest command accepted in one write: PATH_MAX plus verb and size. */
#define MSL_CTL_MAX_CMD		4200
/* Bound on soft limits held by the module. */
#define MSL_MAX_LIMITS		65536
/* Bounds on the rule set: rules, and bytes written at once. */
#define MSL_MAX_RULES		1024
#define MSL_MAX_RULES_TEXT	(256 * 1024)

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
/*
 * Bytes with an optional K, M, G, T or Ki, Mi, Gi, Ti (powers of 1024),
 * or max (infinity).  0; -EINVAL malformed, -ERANGE too large, -EDOM
 * more than 0 but less than a page (0 pages: always over).
 */
int msl_parse_size(const char *s, u64 *bytes, bool *is_max);
/* What msl_parse_size()'s error means, in words. */
const char *msl_size_why(int err);

/*
 * Does cgroup path @path match rule pattern @pattern (MSL_CTL_RULES)?
 * Both start with '/'.
 */
bool msl_path_match(const char *pattern, const char *path);
/*
 * A pattern is well formed: a path as `set` takes, no empty component,
 * '**' only as a whole component, not the root.  0 or -EINVAL with *why.
 */
int msl_pattern_check(const char *pattern, const char **why);

enum msl_rule_action { MSL_RULE_LIMIT, MSL_RULE_MAX, MSL_RULE_UNSET };

struct msl_rule {
	/* Points into the parsed line, NUL-terminated in place. */
	char *pattern;
	enum msl_rule_action action;
	u64 bytes;		/* MSL_RULE_LIMIT */
};

/*
 * One line of a rule set ("<pattern> <size|max|unset>", no newline),
 * modified in place: 1 and *rule filled, 0 for a blank or comment line,
 * or -EINVAL with *why.
 */
int msl_rule_parse(char *line, struct msl_rule *rule, const char **why);

#endif /* MEMCG_SOFTLIMIT_CONTROL_H */
