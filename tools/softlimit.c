// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
/*
 * Soft limits by cgroup path.  cgroup v1: memory.soft_limit_in_bytes, whose
 * stock value (PAGE_COUNTER_MAX pages) reads as unset.  cgroup v2: the
 * module's MSL_CTL_LIMITS, one command per write(2) (control.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <memcg_softlimit/control.h>
#include <memcg_softlimit/policy.h>

#include "softlimit.h"
#include "absence.h"
#include "cgroup.h"
#include "msl.h"
#include "size.h"

#define SIZE_HELP "bytes with an optional K, M, G, T or Ki, Mi, Gi, Ti (powers of 1024), or max (infinity)"

#define V1_FILE	"memory.soft_limit_in_bytes"

static uint64_t page_size(void)
{
	long ps = sysconf(_SC_PAGESIZE);

	return ps > 0 ? (uint64_t)ps : 4096;
}

uint64_t msl_v1_unset_bytes(void)
{
	/* PAGE_COUNTER_MAX is LONG_MAX / PAGE_SIZE pages on 64-bit. */
	return (uint64_t)(INT64_MAX / page_size()) * page_size();
}

uint64_t msl_v1_max_bytes(void)
{
	return msl_v1_unset_bytes() - page_size();
}

int msl_v2limits_parse(struct msl_v2limits *l, const char *text)
{
	const char *p = text;
	struct msl_v2limit *v;
	size_t cap = 0;

	memset(l, 0, sizeof(*l));
	while (*p) {
		unsigned long long id, bytes = 0;
		const char *eol = strchr(p, '\n');
		bool is_max = false;
		char *end;

		if (!eol)
			eol = p + strlen(p);
		if (eol == p) {
			p++;
			continue;
		}
		errno = 0;
		id = strtoull(p, &end, 10);
		if (errno || end == p || *end != ' ')
			goto bad;
		p = end + 1;
		if (!strncmp(p, "max ", 4)) {
			is_max = true;
			p += 4;
		} else {
			bytes = strtoull(p, &end, 10);
			if (errno || end == p || *end != ' ')
				goto bad;
			p = end + 1;
		}
		if (l->n == cap) {
			cap = cap ? cap * 2 : 32;
			v = realloc(l->v, cap * sizeof(*v));
			if (!v)
				goto bad;
			l->v = v;
		}
		l->v[l->n].id = id;
		l->v[l->n].is_max = is_max;
		l->v[l->n].bytes = is_max ? UINT64_MAX : bytes;
		l->n++;
		p = *eol ? eol + 1 : eol;
	}
	return 0;
bad:
	msl_v2limits_free(l);
	return -1;
}

int msl_v2limits_load(struct msl_v2limits *l)
{
	char *text;
	int ret;

	memset(l, 0, sizeof(*l));
	text = msl_read_all(MSL_CTL_LIMITS, NULL);
	if (!text)
		return -errno;
	ret = msl_v2limits_parse(l, text) ? -EINVAL : 0;
	free(text);
	return ret;
}

void msl_v2limits_free(struct msl_v2limits *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

bool msl_v2limits_find(const struct msl_v2limits *l, uint64_t id,
		       struct msl_limit *out)
{
	size_t i;

	for (i = 0; l && i < l->n; i++) {
		if (l->v[i].id != id)
			continue;
		out->src = l->v[i].is_max ? MSL_LIMIT_MAX : MSL_LIMIT_SET;
		out->bytes = l->v[i].bytes;
		return true;
	}
	out->src = MSL_LIMIT_UNSET;
	out->bytes = 0;
	return false;
}

int msl_limit_get(const struct msl_cgfs *fs, const char *cgpath,
		  const struct msl_v2limits *v2, struct msl_limit *out)
{
	uint64_t v, id;
	int ret;

	out->src = MSL_LIMIT_UNSET;
	out->bytes = 0;
	if (fs->version == 1) {
		ret = msl_cg_read_u64(fs, cgpath, V1_FILE, &v);
		if (ret)
			return ret;
		if (v < msl_v1_unset_bytes()) {
			out->src = MSL_LIMIT_V1;
			out->bytes = v;
		}
		return 0;
	}
	ret = msl_cg_id(fs, cgpath, &id);
	if (ret)
		return ret;
	msl_v2limits_find(v2, id, out);
	return 0;
}

void msl_limit_fmt(const struct msl_limit *l, char *buf, size_t len,
		   bool bytes)
{
	switch (l->src) {
	case MSL_LIMIT_UNSET:
		snprintf(buf, len, "unset");
		return;
	case MSL_LIMIT_MAX:
		snprintf(buf, len, "max");
		return;
	default:
		if (l->src == MSL_LIMIT_V1 && l->bytes >= msl_v1_max_bytes())
			snprintf(buf, len, "max");
		else if (bytes)
			snprintf(buf, len, "%llu", (unsigned long long)l->bytes);
		else
			msl_size_fmt(l->bytes, buf, len);
	}
}

static const char *v2_why(int err)
{
	switch (err) {
	case -ENOENT:
		return "no such cgroup";
	case -EINVAL:
		return "the module refused it: the cgroup must not be the root and must have its own memory controller";
	case -ENOSPC:
		return "the module's table of soft limits is full";
	case -EOPNOTSUPP:
		return "the memory controller is on cgroup v1 here: use memory.soft_limit_in_bytes";
	case -EPERM:
	case -EACCES:
		return "permission denied: run as root";
	default:
		return NULL;
	}
}

int msl_limit_write(const struct msl_cgfs *fs, const char *cgpath, bool unset,
		    bool is_max, uint64_t bytes, const char **why)
{
	char path[PATH_MAX * 2], *cmd;
	int ret;

	*why = NULL;
	if (fs->version == 1) {
		char val[32];

		if (unset)
			snprintf(val, sizeof(val), "-1");
		else if (is_max || bytes >= msl_v1_max_bytes())
			/* at PAGE_COUNTER_MAX it would read as unset */
			snprintf(val, sizeof(val), "%llu",
				 (unsigned long long)msl_v1_max_bytes());
		else
			snprintf(val, sizeof(val), "%llu",
				 (unsigned long long)bytes);
		msl_cg_fspath(fs, cgpath, path, sizeof(path));
		strncat(path, "/" V1_FILE, sizeof(path) - strlen(path) - 1);
		ret = msl_write_file(path, val);
		if (ret == -EPERM || ret == -EACCES)
			*why = "permission denied: run as root";
		return ret;
	}
	if (unset)
		ret = asprintf(&cmd, "unset %s\n", cgpath);
	else if (is_max)
		ret = asprintf(&cmd, "set %s max\n", cgpath);
	else
		ret = asprintf(&cmd, "set %s %llu\n", cgpath,
			       (unsigned long long)bytes);
	if (ret < 0)
		return -ENOMEM;
	if (access(MSL_CTL_LIMITS, F_OK)) {
		free(cmd);
		*why = msl_module_absent_why();
		return -ENOENT;
	}
	ret = msl_write_file(MSL_CTL_LIMITS, cmd);
	free(cmd);
	*why = v2_why(ret);
	return ret;
}

/* set, unset and apply: one change of one soft limit */
static uint64_t page_round(uint64_t bytes)
{
	long ps = sysconf(_SC_PAGESIZE);

	if (ps <= 0)
		ps = 4096;
	return bytes / (uint64_t)ps * (uint64_t)ps;
}

static bool unchanged(const struct msl_cgfs *fs, const char *cgpath,
		      const struct msl_change *ch, const struct msl_v2limits *v2)
{
	struct msl_limit cur;
	char buf[MSL_SIZE_BUF];

	if (msl_limit_get(fs, cgpath, v2, &cur))
		return false;
	if (ch->unset)
		return cur.src == MSL_LIMIT_UNSET;
	if (ch->is_max) {
		msl_limit_fmt(&cur, buf, sizeof(buf), true);
		return !strcmp(buf, "max");
	}
	return (cur.src == MSL_LIMIT_SET || cur.src == MSL_LIMIT_V1) &&
	       cur.bytes == page_round(ch->bytes);
}

/*
 * One change: returns an exit status and prints why it failed, prefixed
 * by @where ("FILE:LINE: " for apply).
 */
int msl_change_one(const struct msl_cgfs *fs, const struct msl_change *ch,
		      const char *where, const struct msl_v2limits *v2,
		      bool dry_run, bool verbose)
{
	char cgpath[PATH_MAX], msg[PATH_MAX * 3];
	const char *why;
	uint64_t id;
	int ret;

	ret = msl_cg_resolve(fs, ch->arg, MSL_CG_NOT_ROOT | MSL_CG_MEMCG,
			     cgpath, sizeof(cgpath), &id, msg, sizeof(msg));
	if (ret) {
		msl_err("%s%s", where, msg);
		return ret;
	}
	if (verbose && unchanged(fs, cgpath, ch, v2)) {
		printf("%s %s%s%s: unchanged\n", ch->unset ? "unset" : "set",
		       cgpath, ch->unset ? "" : " ", ch->unset ? "" : ch->size);
		return 0;
	}
	if (dry_run) {
		printf("would %s %s%s%s\n", ch->unset ? "unset" : "set", cgpath,
		       ch->unset ? "" : " ", ch->unset ? "" : ch->size);
		return 0;
	}
	ret = msl_limit_write(fs, cgpath, ch->unset, ch->is_max, ch->bytes,
			      &why);
	if (ret) {
		msl_err("%scannot %s the soft limit of %s: %s", where,
			ch->unset ? "unset" : "set", cgpath,
			why ? why : strerror(-ret));
		return MSL_EXIT_ERR;
	}
	if (verbose)
		printf("%s %s%s%s\n", ch->unset ? "unset" : "set", cgpath,
		       ch->unset ? "" : " ", ch->unset ? "" : ch->size);
	return 0;
}

int msl_parse_change(struct msl_change *ch, const char *path, const char *size,
			const char *where)
{
	int ret;

	memset(ch, 0, sizeof(*ch));
	ch->arg = path;
	ch->size = size;
	if (!strcmp(size, "unset")) {
		ch->unset = true;
		return 0;
	}
	ret = msl_size_parse(size, &ch->bytes, &ch->is_max);
	if (ret) {
		msl_err("%sbad size '%s': %s", where, size,
			ret == -ERANGE ? "out of range" : ret == -EDOM ?
			msl_size_why(ret) : SIZE_HELP);
		return MSL_EXIT_USAGE;
	}
	if (!ch->is_max && ch->bytes != page_round(ch->bytes))
		msl_warn("%s%s: soft limits are kept in whole pages: %llu bytes",
			 where, size,
			 (unsigned long long)page_round(ch->bytes));
	return 0;
}
