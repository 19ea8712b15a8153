/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MSL_TOOL_SOFTLIMIT_H
#define MSL_TOOL_SOFTLIMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <memcg_softlimit/policy.h>

struct msl_cgfs;

/* softlimit.c: soft limits by cgroup, v1 and v2 */
struct msl_limit {
	enum msl_limit_src src;
	uint64_t bytes;			/* SET and V1 */
};
struct msl_v2limit {
	uint64_t id;
	bool is_max;
	uint64_t bytes;
};
struct msl_v2limits {
	struct msl_v2limit *v;
	size_t n;
};
/* Parses the module's listing; 0, or -1 on a malformed line. */
int msl_v2limits_parse(struct msl_v2limits *l, const char *text);
/* Reads MSL_CTL_LIMITS: 0, -ENOENT (module not loaded), -errno */
int msl_v2limits_load(struct msl_v2limits *l);
void msl_v2limits_free(struct msl_v2limits *l);
bool msl_v2limits_find(const struct msl_v2limits *l, uint64_t id,
		       struct msl_limit *out);
/* The limit of one cgroup (v1 file, or v2 listing which may be NULL). */
int msl_limit_get(const struct msl_cgfs *fs, const char *cgpath,
		  const struct msl_v2limits *v2, struct msl_limit *out);
/* 0 or -errno; *why says what to do. */
int msl_limit_write(const struct msl_cgfs *fs, const char *cgpath, bool unset,
		    bool is_max, uint64_t bytes, const char **why);
/* v1's soft_limit_in_bytes value that reads as unset (PAGE_COUNTER_MAX). */
uint64_t msl_v1_unset_bytes(void);
/* v1 has no "max" but unset: the largest value that is not unset. */
uint64_t msl_v1_max_bytes(void);
void msl_limit_fmt(const struct msl_limit *l, char *buf, size_t len,
		   bool bytes);

/* softlimit.c: changing one soft limit, for set, unset and apply */
struct msl_change {
	const char *arg;		/* PATH as given */
	bool unset, is_max;
	uint64_t bytes;
	const char *size;		/* SIZE as given */
};
/* 0, or MSL_EXIT_USAGE with why said (prefixed by @where). */
int msl_parse_change(struct msl_change *ch, const char *path,
		     const char *size, const char *where);
/* An exit status; failures said, prefixed by @where ("FILE:LINE: "). */
int msl_change_one(const struct msl_cgfs *fs, const struct msl_change *ch,
		   const char *where, const struct msl_v2limits *v2,
		   bool dry_run, bool verbose);

#endif /* MSL_TOOL_SOFTLIMIT_H */
