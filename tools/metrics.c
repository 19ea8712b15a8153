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
 * Counts are pages here, bytes when printed (prom.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <memcg_softlimit/policy.h>

#include "metrics.h"
#include "cgroup.h"
#include "counters.h"
#include "msl.h"

#define STATE_MAGIC	"msl-metrics-state 1"
#define NR_COUNTS	(MSL_NR_REASONS + 2 * MSL_NR_KINDS)

static uint64_t *counts_at(struct msl_counts *c, int i)
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
static struct msl_series *series(struct msl_metrics *m, const char *cgroup)
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

/* An entry as read from the state file; -ENOMEM.  (The same.) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wanalyzer-malloc-leak"
static int add_seen(struct msl_metrics *m, uint64_t id, const char *path,
		    const struct msl_counts *last)
{
	struct msl_seen *v = realloc(m->seen, (m->nseen + 1) * sizeof(*v));
	char *copy = NULL;

	if (!v)
		return -ENOMEM;
	if (!v)
		return -ENOMEM;
	m->seen = v;
	if (path) {
		copy = strdup(path);
		if (!copy)
			return -ENOMEM;
	}
	v[m->nseen].id = id;
	v[m->nseen].last = *last;
	v[m->nseen].path = copy;
	m->nseen++;
	return 0;
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

	for (i = 0; i < NR_COUNTS; i++) {
		uint64_t a = *counts_at(n, i), b = l ? *counts_at(l, i) : 0;

		/* Less than last time: a new entry (a reload), from 0. */
		*counts_at(to, i) += a >= b ? a - b : a;
	}
}

static uint64_t gain(uint64_t now, uint64_t last)
{
	return now >= last ? now - last : now;
}

int msl_metrics_update(struct msl_metrics *m, const struct msl_table *t,
		       const struct msl_cgmap *map, int depth)
{
	char **sorted, key[4096];
	struct msl_seen *seen, *old = m->seen;
	size_t i, nold = m->nseen, n = 0;
	bool restarted = t->seq < m->seq;
	int ret = -ENOMEM;

	sorted = malloc((map->n ? map->n : 1) * sizeof(*sorted));
	seen = calloc(t->n ? t->n : 1, sizeof(*seen));
	if (!sorted || !seen)
		goto out;
	for (i = 0; i < map->n; i++)
		sorted[i] = map->nodes[i].path;
	qsort(sorted, map->n, sizeof(*sorted), cmp_str);
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
			if (!series(m, map->nodes[i].path))
				goto out_seen;
	for (i = 0; i < t->n; i++) {
		const struct msl_row *r = &t->rows[i];
		struct msl_seen *was = NULL;
		const char *path = r->path;
		struct msl_series *s;
		size_t j, before = m->n;

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
		s = series(m, key_of(path, sorted, map->n, depth, key,
				     sizeof(key)));
		if (!s)
			goto out_seen;
		/*
		 * A series made now for a removed cgroup is published at 0
		 * first: its gain counts from the next run, not lost to
		 * rate() as a first sample.
		 */
		add_gain(m->n > before ? &s->pending : &s->v, &r->c,
			 was && !restarted ? &was->last : NULL);
		seen[n].id = r->id;
		seen[n].last = r->c;
		if (path) {
			seen[n].path = strdup(path);
			if (!seen[n].path)
				goto out_seen;
		}
		n++;
	}
	m->untracked += gain(t->untracked, restarted ? 0 : m->last_untracked);
	m->dying += gain(t->dying, restarted ? 0 : m->last_dying);
	m->missed += gain(t->missed, restarted ? 0 : m->last_missed);
	m->last_untracked = t->untracked;
	m->last_dying = t->dying;
	m->last_missed = t->missed;
	m->seq = t->seq;
	/* A cgroup gone: its series ends (the (removed) ones stay). */
	for (i = 0; i < m->n; i++) {
		const char *c = m->s[i].cgroup;
		size_t k = strlen(c), r = strlen(MSL_SERIES_REMOVED);

		m->s[i].exists = exists(sorted, map->n, c);
		if (m->s[i].exists || (k >= r && !strcmp(c + k - r,
							 MSL_SERIES_REMOVED)))
			continue;
		free(m->s[i].cgroup);
		memmove(&m->s[i], &m->s[i + 1], (m->n - i - 1) * sizeof(*m->s));
		m->n--;
		i--;
	}
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

/* State: one token per word; a path's blanks, '%' and newlines as %XX. */
static void put_word(FILE *f, const char *s)
{
	if (!s || !*s) {
		fputc('-', f);
		return;
	}
	for (; *s; s++)
		if (*s == ' ' || *s == '%' || *s == '\n' || *s == '\t')
			fprintf(f, "%%%02x", (unsigned char)*s);
		else
			fputc(*s, f);
}

static char *get_word(char *w)
{
	char *o = w, *p = w;

	if (!strcmp(w, "-"))
		return NULL;
	while (*p) {
		if (*p == '%' && p[1] && p[2]) {
			char hex[3] = { p[1], p[2], 0 };

			*o++ = (char)strtoul(hex, NULL, 16);
			p += 3;
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	return w;
}

static void put_counts(FILE *f, struct msl_counts *c)
{
	int i;

	for (i = 0; i < NR_COUNTS; i++)
		fprintf(f, " %llu", (unsigned long long)*counts_at(c, i));
	fputc('\n', f);
}

static int get_counts(char **save, struct msl_counts *c)
{
	char *w, *end;
	int i;

	for (i = 0; i < NR_COUNTS; i++) {
		w = strtok_r(NULL, " \n", save);
		if (!w)
			return -1;
		*counts_at(c, i) = strtoull(w, &end, 10);
		if (*end)
			return -1;
	}
	return 0;
}

int msl_metrics_load(struct msl_metrics *m, const char *file)
{
	char *text, *line, *next, *save, *w, *p;
	struct msl_series *s;
	int ret = 0;

	msl_metrics_free(m);
	text = msl_read_all(file, NULL);
	if (!text)
		return errno == ENOENT ? 0 : -errno;
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (line == text) {
			char want[64];

			/* Another layout (reasons added): start afresh. */
			snprintf(want, sizeof(want), STATE_MAGIC " %d %d",
				 MSL_NR_REASONS, MSL_NR_KINDS);
			if (strcmp(line, want))
				goto stale;
			continue;
		}
		if (!strncmp(line, "why ", 4)) {
			snprintf(m->why, sizeof(m->why), "%s", line + 4);
			continue;
		}
		w = strtok_r(line, " ", &save);
		if (!w)
			continue;
		if (!strcmp(w, "up")) {
			p = strtok_r(NULL, " ", &save);
			m->up = p ? atoi(p) : -1;
		} else if (!strcmp(w, "totals")) {
			if (sscanf(save, "%llu %llu %llu %llu %llu %llu %llu",
				   (unsigned long long *)&m->seq,
				   (unsigned long long *)&m->untracked,
				   (unsigned long long *)&m->dying,
				   (unsigned long long *)&m->missed,
				   (unsigned long long *)&m->last_untracked,
				   (unsigned long long *)&m->last_dying,
				   (unsigned long long *)&m->last_missed) != 7)
				goto stale;
		} else if (!strcmp(w, "series")) {
			p = get_word(strtok_r(NULL, " ", &save));
			s = p ? series(m, p) : NULL;
			if (!s || get_counts(&save, &s->v))
				goto stale;
		} else if (!strcmp(w, "pending")) {
			p = get_word(strtok_r(NULL, " ", &save));
			s = p ? msl_metrics_find(m, p) : NULL;
			if (!s || get_counts(&save, &s->pending))
				goto stale;
		} else if (!strcmp(w, "seen")) {
			struct msl_counts last;
			uint64_t id;

			w = strtok_r(NULL, " ", &save);
			p = strtok_r(NULL, " ", &save);
			if (!w || !p || get_counts(&save, &last))
				goto stale;
			id = strtoull(w, NULL, 10);
			ret = add_seen(m, id, get_word(p), &last);
			if (ret)
				break;
		}
	}
	free(text);
	return ret;
stale:
	free(text);
	msl_metrics_free(m);
	return 1;
}

int msl_metrics_save(const struct msl_metrics *m, const char *file)
{
	char tmp[4200];
	size_t i;
	FILE *f;
	int err = 0;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", file, (long)getpid());
	f = fopen(tmp, "w");
	if (!f)
		return -errno;
	fprintf(f, STATE_MAGIC " %d %d\nup %d\nwhy %s\n", MSL_NR_REASONS,
		MSL_NR_KINDS, m->up, m->why);
	fprintf(f, "totals %llu %llu %llu %llu %llu %llu %llu\n",
		(unsigned long long)m->seq, (unsigned long long)m->untracked,
		(unsigned long long)m->dying, (unsigned long long)m->missed,
		(unsigned long long)m->last_untracked,
		(unsigned long long)m->last_dying,
		(unsigned long long)m->last_missed);
	for (i = 0; i < m->n; i++) {
		fputs("series ", f);
		put_word(f, m->s[i].cgroup);
		put_counts(f, &m->s[i].v);
		if (msl_counts_zero(&m->s[i].pending))
			continue;
		fputs("pending ", f);
		put_word(f, m->s[i].cgroup);
		put_counts(f, (struct msl_counts *)&m->s[i].pending);
	}
	for (i = 0; i < m->nseen; i++) {
		fprintf(f, "seen %llu ", (unsigned long long)m->seen[i].id);
		put_word(f, m->seen[i].path);
		put_counts(f, &m->seen[i].last);
	}
	if (fflush(f) || ferror(f))
		err = -(errno ? errno : EIO);
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, file))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
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
