// SPDX-License-Identifier: GPL-2.0
/*
 * suggest's readings: lru_gen (MGLRU, in debugfs: root only) or each
 * cgroup's memory.stat (the classic LRU), its usage, peak, memory.low
 * and soft limit, every cgroup below PATH at once.  Readings over a span
 * keep each cgroup's largest (suggest.c's msl_reuse_span): a cgroup is
 * known by its id from one walk to the next.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/time.h>

#include <memcg_softlimit/control.h>

#include "cgmap.h"
#include "cgroup.h"
#include "module.h"
#include "msl.h"
#include "output.h"
#include "softlimit.h"
#include "suggest.h"
#include "suggest_sample.h"
#include "workingset.h"

#define LRU_GEN_ENABLED		"/sys/kernel/mm/lru_gen/enabled"
#define DEBUGFS			"/sys/kernel/debug"
#define LRU_GEN_FILE		DEBUGFS "/lru_gen"
#define DEBUGFS_MAGIC		0x64626720
#define LOCKDOWN		"/sys/kernel/security/lockdown"

bool msl_suggest_mglru_enabled(void)
{
	char buf[32];

	return msl_read_file(LRU_GEN_ENABLED, buf, sizeof(buf)) > 0 &&
	       (strtoul(buf, NULL, 0) & 1);
}

/* Why lru_gen cannot be read, said in words: an exit status. */
static int lru_gen_unreadable(int err)
{
	char lockdown[256] = "";
	struct statfs st;

	if (err == EACCES || err == EPERM) {
		if (msl_read_file(LOCKDOWN, lockdown, sizeof(lockdown)) > 0 &&
		    !strstr(lockdown, "[none]")) {
			lockdown[strcspn(lockdown, "\n")] = '\0';
			msl_err("cannot read %s: kernel lockdown (%s) closes debugfs, where MGLRU keeps its generations; on this kernel suggest can only run with lru_gen disabled (memory.stat's estimate)",
				LRU_GEN_FILE, lockdown);
		} else {
			msl_err("cannot read %s: %s: MGLRU keeps its generations in debugfs, which only root can read",
				LRU_GEN_FILE, strerror(err));
		}
	} else if (err == ENOENT &&
		   (statfs(DEBUGFS, &st) || st.f_type != DEBUGFS_MAGIC)) {
		msl_err("debugfs is not mounted: MGLRU keeps its generations in %s (mount -t debugfs none %s)",
			LRU_GEN_FILE, DEBUGFS);
	} else {
		msl_err("cannot read %s: %s", LRU_GEN_FILE, strerror(err));
	}
	return MSL_EXIT_ERR;
}

/* One reading of lru_gen: 0, or an exit status with why said. */
static int read_lru_gen(const struct msl_suggest *s, struct msl_lru_gen *g)
{
	const char *why = NULL;
	size_t len;
	char *text;
	int ret;

	text = msl_read_all(LRU_GEN_FILE, &len);
	if (!text)
		return lru_gen_unreadable(errno);
	ret = msl_lru_gen_parse(text, len, s->age_ms, g, &why);
	free(text);
	if (ret) {
		msl_err("cannot read %s: %s", LRU_GEN_FILE, why);
		return MSL_EXIT_ERR;
	}
	return 0;
}

static void read_stat(const struct msl_suggest *s, const char *cgpath,
		      struct msl_stat_workingset *w)
{
	char path[PATH_MAX * 2], *text;

	msl_cg_fspath(&s->at.fs, cgpath, path, sizeof(path));
	strncat(path, "/memory.stat", sizeof(path) - strlen(path) - 1);
	text = msl_read_all(path, NULL);
	msl_stat_workingset_parse(text ? text : "", w);
	free(text);
}

/*
 * The row of @id in the last reading.  Walks keep their order, so the
 * search starts where the last one ended: one step each, usually.
 */
static struct msl_suggest_row *find_row(struct msl_suggest_row *rows,
					size_t n, uint64_t id, size_t *hint)
{
	size_t i, k;

	for (k = 0; k < n; k++) {
		i = (*hint + k) % n;
		if (rows[i].id == id) {
			*hint = i + 1;
			return &rows[i];
		}
	}
	return NULL;
}

/* One cgroup's reading into @r (its span carried from earlier ones). */
static void read_row(const struct msl_suggest *s, const struct msl_lru_gen *g,
		     const struct msl_v2limits *v2, struct msl_suggest_row *r)
{
	struct msl_stat_workingset w;
	struct msl_reuse reuse;
	uint64_t usage = 0;

	read_stat(s, r->path, &w);
	msl_cg_usage(&s->at.fs, r->path, &usage);
	if (s->mglru)
		msl_reuse_from_lru_gen(g, r->path, s->page_size, &reuse);
	else
		msl_reuse_from_stat(&w, &reuse);
	msl_reuse_set_stat(&reuse, usage, &w);
	msl_reuse_span_add(&r->span, &reuse);
	r->have_peak = !msl_cg_read_u64(&s->at.fs, r->path, s->at.fs.version == 2 ?
					"memory.peak" :
					"memory.max_usage_in_bytes", &r->peak);
	r->have_low = s->at.fs.version == 2 &&
		      !msl_cg_read_u64(&s->at.fs, r->path, "memory.low", &r->low);
	if (msl_limit_get(&s->at.fs, r->path, v2, &r->lim))
		r->lim.src = MSL_LIMIT_UNSET;
}

void msl_suggest_rows_free(struct msl_suggest_row *rows, size_t n)
{
	while (n)
		free(rows[--n].path);
	free(rows);
}

int msl_suggest_sample(struct msl_suggest *s)
{
	struct msl_v2limits v2 = { 0 };
	struct msl_lru_gen g = { 0 };
	struct msl_cgmap map = { 0 };
	struct msl_suggest_row *rows = NULL, *old;
	size_t i, n = 0, hint = 0;
	struct timeval tv;
	int ret;

	if (s->mglru) {
		ret = read_lru_gen(s, &g);
		if (ret)
			return ret;
	}
	s->loaded = msl_module_loaded();
	if (s->at.fs.version == 2 && s->loaded && msl_v2limits_load(&v2))
		msl_warn("cannot read %s: soft limits shown as unset",
			 MSL_CTL_LIMITS);
	ret = msl_cgmap_build(&map, &s->at.fs);
	if (!ret) {
		rows = calloc(map.n ? map.n : 1, sizeof(*rows));
		if (!rows)
			ret = -ENOMEM;
	}
	if (ret) {
		msl_err("cannot walk %s: %s", s->at.fs.mount, strerror(-ret));
		ret = MSL_EXIT_ERR;
		goto out;
	}
	gettimeofday(&tv, NULL);
	s->time = (double)tv.tv_sec + tv.tv_usec / 1e6;
	s->base = -1;
	for (i = 0; i < map.n; i++) {
		const struct msl_cgnode *node = &map.nodes[i];
		struct msl_suggest_row *r = &rows[n];

		/* The root has no soft limit: it is never a row. */
		if (node->depth == 0 || !msl_path_under(s->at.path, node->path) ||
		    !msl_cg_has_memcg(&s->at.fs, node->path))
			continue;
		r->path = strdup(node->path);
		if (!r->path) {
			msl_err("out of memory");
			ret = MSL_EXIT_ERR;
			goto out;
		}
		r->id = node->id;
		r->depth = node->depth;
		if (s->base < 0 || node->depth < s->base)
			s->base = node->depth;
		old = find_row(s->rows, s->n, node->id, &hint);
		if (old)
			r->span = old->span;
		read_row(s, &g, &v2, r);
		n++;
	}
	msl_suggest_rows_free(s->rows, s->n);
	s->rows = rows;
	s->n = n;
	rows = NULL;
	n = 0;
	ret = 0;
out:
	msl_suggest_rows_free(rows, n);
	msl_cgmap_free(&map);
	msl_v2limits_free(&v2);
	msl_lru_gen_free(&g);
	return ret;
}
