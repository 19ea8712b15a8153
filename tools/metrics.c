// SPDX-License-Identifier: GPL-2.0
/*
 * The series of `stat --prometheus`, kept so that an operator can alert on
 * them.  The module's counters belong to its entries, which go with their
 * memcg (and all of them with the module), so the file is not a copy of
 * the last snapshot: each run adds what each entry gained since the last
 * run (state in FILE.state) to a series per cgroup path, and so:
 * - every counter only grows: an entry whose cgroup was removed counts
 *   into "<nearest existing ancestor>/(removed)", an entry never seen
 *   into "(removed)", a reload of the module restarts the entries, not
 *   the series;
 * - every cgroup of the hierarchy has its series from the start, at 0
 *   (a series first seen at N loses N to rate());
 * - --depth N folds the cgroups below depth N into their ancestor there,
 *   for hosts whose pods come and go;
 * - a series whose cgroup is gone is dropped (its last value stands);
 * - whether the module was up, and why not, is kept, so that the change
 *   is said once, not at every run.
 * Counts are pages here, bytes when printed (prom.c); FILE.state is read
 * and written by metrics_state.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <memcg_softlimit/policy.h>

#include "metrics.h"
#include "cgmap.h"
#include "cgroup.h"
#include "counters.h"

uint64_t *msl_metrics_count(struct msl_counts *c, int i)
{
	if (i < MSL_NR_REASONS)
		return &c->decisions[i];
	i -= MSL_NR_REASONS;
	return i < MSL_NR_KINDS ? &c->scanned[i] :
	       &c->reclaimed[i - MSL_NR_KINDS];
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct msl_series *)a)->cgroup,
		      ((const struct msl_series *)b)->cgroup);
}

struct msl_series *msl_metrics_find(const struct msl_metrics *m,
				    const char *cgroup)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (!strcmp(m->s[i].cgroup, cgroup))
			return &m->s[i];
	return NULL;
}

/* Room for one more series, zeroed (not counted yet): NULL, no memory. */
static struct msl_series *new_series(struct msl_metrics *m)
{
	struct msl_series *v;

	if (m->n == m->cap || !m->s) {
		v = realloc(m->s, (m->cap ? m->cap * 2 : 64) * sizeof(*v));
		if (!v)
			return NULL;
		m->s = v;
		m->cap = m->cap ? m->cap * 2 : 64;
	}
	memset(&m->s[m->n], 0, sizeof(*m->s));
	return &m->s[m->n];
}

/*
 * The series of @cgroup, made at 0 if new; NULL: no memory.  (GCC 12's
 * -fanalyzer loses the copy once it is stored in the array's new element
 * and calls it a leak; msl_metrics_free() frees it.)
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wanalyzer-malloc-leak"
struct msl_series *msl_metrics_series(struct msl_metrics *m,
				      const char *cgroup)
{
	struct msl_series *s = msl_metrics_find(m, cgroup);
	char *copy;

	if (s)
		return s;
	copy = strdup(cgroup);
	s = copy ? new_series(m) : NULL;
	if (!s) {
		free(copy);
		return NULL;
	}
	s->cgroup = copy;
	m->n++;
	return s;
}
#pragma GCC diagnostic pop


void msl_metrics_free(struct msl_metrics *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->s[i].cgroup);
	for (i = 0; i < m->nseen; i++)
		free(m->seen[i].path);
	free(m->s);
	free(m->seen);
	memset(m, 0, sizeof(*m));
	m->up = -1;
}

const char *msl_metrics_rollup(const char *path, int depth, char *buf,
			       size_t len)
{
	const char *p = path;
	int d = 0;

	if (depth < 0 || !strcmp(path, "/")) {
		snprintf(buf, len, "%s", path);
		return buf;
	}
	while (*p) {
		if (*p == '/' && p != path && ++d == depth)
			break;
		p++;
	}
	if (depth == 0)
		p = path + 1;
	snprintf(buf, len, "%.*s", (int)(p - path), path);
	return buf;
}

/* Paths that exist now, sorted: does @path? */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool exists(char **sorted, size_t n, const char *path)
{
	return n && bsearch(&path, sorted, n, sizeof(*sorted), cmp_str);
}

/*
 * Where an entry's gain counts: its cgroup's series (folded to @depth);
 * an entry whose cgroup is gone, "<nearest existing ancestor>/(removed)";
 * one never seen with a path, "(removed)".
 */
static const char *key_of(const char *path, char **sorted, size_t n,
			  int depth, char *buf, size_t len)
{
	char *slash;

	if (!path) {
		snprintf(buf, len, "%s", MSL_SERIES_REMOVED);
		return buf;
	}
	msl_metrics_rollup(path, depth, buf, len);
	if (exists(sorted, n, buf))
		return buf;
	/* Its nearest ancestor that is still there. */
	do {
		slash = strrchr(buf, '/');
		if (!slash || slash == buf) {
			snprintf(buf, len, "/%s", MSL_SERIES_REMOVED);
			return buf;
		}
		*slash = '\0';
	} while (!exists(sorted, n, buf));
	snprintf(buf + strlen(buf), len - strlen(buf), "/%s",
		 MSL_SERIES_REMOVED);
	return buf;
}

static void add_gain(struct msl_counts *to, const struct msl_counts *now,
		     const struct msl_counts *last)
{
	struct msl_counts *n = (struct msl_counts *)now;
	struct msl_counts *l = (struct msl_counts *)last;
	int i;

	for (i = 0; i < MSL_METRICS_NR_COUNTS; i++) {
		uint64_t a = *msl_metrics_count(n, i);
		uint64_t b = l ? *msl_metrics_count(l, i) : 0;

		/* Less than last time: a new entry (a reload), from 0. */
		*msl_metrics_count(to, i) += a >= b ? a - b : a;
	}
}

static uint64_t gain(uint64_t now, uint64_t last)
{
	return now >= last ? now - last : now;
}

/* The paths of @map, sorted for exists(); NULL: no memory. */
static char **sorted_paths(const struct msl_cgmap *map)
{
	char **sorted = malloc((map->n ? map->n : 1) * sizeof(*sorted));
	size_t i;

	if (!sorted)
		return NULL;
	for (i = 0; i < map->n; i++)
		sorted[i] = map->nodes[i].path;
	qsort(sorted, map->n, sizeof(*sorted), cmp_str);
	return sorted;
}

/*
 * Row @r's gain since its last reading (in @old) into its series, and
 * its reading now into @seen.  0 or -ENOMEM.
 */
static int count_row(struct msl_metrics *m, const struct msl_row *r,
		     const struct msl_seen *old, size_t nold, char **sorted,
		     size_t nsorted, int depth, bool restarted,
		     struct msl_seen *seen)
{
	const struct msl_seen *was = NULL;
	const char *path = r->path;
	struct msl_series *s;
	size_t j, before = m->n;
	char key[4096];

	/*
	 * Its last reading (a reload starts every entry anew; its
	 * cgroup, if it still exists, has the same id and path).
	 */
	for (j = 0; j < nold; j++)
		if (old[j].id == r->id) {
			was = &old[j];
			break;
		}
	if (!path && was)
		path = was->path;
	s = msl_metrics_series(m, key_of(path, sorted, nsorted, depth, key,
					 sizeof(key)));
	if (!s)
		return -ENOMEM;
	/*
	 * A series made now for a removed cgroup is published at 0
	 * first: its gain counts from the next run, not lost to
	 * rate() as a first sample.
	 */
	add_gain(m->n > before ? &s->pending : &s->v, &r->c,
		 was && !restarted ? &was->last : NULL);
	seen->id = r->id;
	seen->last = r->c;
	if (path) {
		seen->path = strdup(path);
		if (!seen->path)
			return -ENOMEM;
	}
	return 0;
}

static void add_totals(struct msl_metrics *m, const struct msl_table *t,
		       bool restarted)
{
	m->untracked += gain(t->untracked, restarted ? 0 : m->last_untracked);
	m->dying += gain(t->dying, restarted ? 0 : m->last_dying);
	m->missed += gain(t->missed, restarted ? 0 : m->last_missed);
	m->last_untracked = t->untracked;
	m->last_dying = t->dying;
	m->last_missed = t->missed;
	m->seq = t->seq;
}

/* A cgroup gone: its series ends (the (removed) ones stay). */
static void drop_gone(struct msl_metrics *m, char **sorted, size_t nsorted)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		const char *c = m->s[i].cgroup;
		size_t k = strlen(c), r = strlen(MSL_SERIES_REMOVED);

		m->s[i].exists = exists(sorted, nsorted, c);
		if (m->s[i].exists || (k >= r && !strcmp(c + k - r,
							 MSL_SERIES_REMOVED)))
			continue;
		free(m->s[i].cgroup);
		memmove(&m->s[i], &m->s[i + 1], (m->n - i - 1) * sizeof(*m->s));
		m->n--;
		i--;
	}
}

int msl_metrics_update(struct msl_metrics *m, const struct msl_table *t,
		       const struct msl_cgmap *map, int depth)
{
	struct msl_seen *seen, *old = m->seen;
	size_t i, nold = m->nseen, n = 0;
	bool restarted = t->seq < m->seq;
	int ret = -ENOMEM;
	char **sorted;

	sorted = sorted_paths(map);
	seen = calloc(t->n ? t->n : 1, sizeof(*seen));
	if (!sorted || !seen)
		goto out;
	m->nseen = 0;
	m->seen = NULL;
	/* What new series held back last run (below) counts now. */
	for (i = 0; i < m->n; i++) {
		msl_table_add(&m->s[i].v, &m->s[i].pending);
		memset(&m->s[i].pending, 0, sizeof(m->s[i].pending));
	}
	/* Every cgroup there is, at its depth, from 0. */
	for (i = 0; i < map->n; i++)
		if (depth < 0 || map->nodes[i].depth <= depth)
			if (!msl_metrics_series(m, map->nodes[i].path))
				goto out_seen;
	for (i = 0; i < t->n; i++) {
		if (count_row(m, &t->rows[i], old, nold, sorted, map->n, depth,
			      restarted, &seen[n]))
			goto out_seen;
		n++;
	}
	add_totals(m, t, restarted);
	drop_gone(m, sorted, map->n);
	/* By path: the file reads the same from one run to the next. */
	qsort(m->s, m->n, sizeof(*m->s), by_key);
	ret = 0;
out_seen:
	for (i = 0; i < nold; i++)
		free(old[i].path);
	free(old);
	m->seen = seen;
	m->nseen = n;
	seen = NULL;
out:
	free(seen);
	free(sorted);
	return ret;
}

bool msl_metrics_state_changed(struct msl_metrics *m, bool up,
			       const char *why)
{
	bool changed = m->up != (int)up ||
		       (!up && strncmp(m->why, why ? why : "",
				       sizeof(m->why) - 1));

	char *p;

	m->up = up;
	snprintf(m->why, sizeof(m->why), "%s", up || !why ? "" : why);
	/* (one line in the state file) */
	for (p = m->why; *p; p++)
		if (*p == '\n')
			*p = ' ';
	return changed;
}
