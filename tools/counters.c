// SPDX-License-Identifier: GPL-2.0
/*
 * Per-cgroup counters keyed by cgroup id: the rows of one snapshot, the
 * delta of two, or what a recording's events add up to; sorting.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <memcg_softlimit/policy.h>

#include "counters.h"
#include "cgmap.h"
#include "cgroup.h"

uint64_t msl_counts_decisions(const struct msl_counts *c)
{
	uint64_t s = 0;
	int r;

	for (r = 0; r < MSL_NR_REASONS; r++)
		s += c->decisions[r];
	return s;
}

uint64_t msl_counts_skips(const struct msl_counts *c)
{
	uint64_t s = 0;
	int r;

	for (r = 0; r < MSL_NR_REASONS; r++)
		if (msl_reason_skips(r))
			s += c->decisions[r];
	return s;
}

uint64_t msl_counts_reclaims(const struct msl_counts *c)
{
	return msl_counts_decisions(c) - msl_counts_skips(c);
}

uint64_t msl_counts_scanned(const struct msl_counts *c)
{
	uint64_t s = 0;
	int k;

	for (k = 0; k < MSL_NR_KINDS; k++)
		s += c->scanned[k];
	return s;
}

uint64_t msl_counts_reclaimed(const struct msl_counts *c)
{
	uint64_t s = 0;
	int k;

	for (k = 0; k < MSL_NR_KINDS; k++)
		s += c->reclaimed[k];
	return s;
}

bool msl_counts_zero(const struct msl_counts *c)
{
	return !msl_counts_decisions(c) && !msl_counts_scanned(c) &&
	       !msl_counts_reclaimed(c);
}

void msl_table_add(struct msl_counts *to, const struct msl_counts *c)
{
	int i;

	for (i = 0; i < MSL_NR_REASONS; i++)
		to->decisions[i] += c->decisions[i];
	for (i = 0; i < MSL_NR_KINDS; i++) {
		to->scanned[i] += c->scanned[i];
		to->reclaimed[i] += c->reclaimed[i];
	}
}

static size_t hash_id(uint64_t id, size_t nslots)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdULL;
	id ^= id >> 33;
	return (size_t)(id & (nslots - 1));
}

static int rehash(struct msl_table *t, size_t nslots)
{
	size_t *slots = calloc(nslots, sizeof(*slots)), i, h;

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < t->n; i++) {
		h = hash_id(t->rows[i].id, nslots);
		while (slots[h])
			h = (h + 1) & (nslots - 1);
		slots[h] = i + 1;
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = nslots;
	return 0;
}

struct msl_row *msl_table_find(const struct msl_table *t, uint64_t id)
{
	size_t h;

	if (!t->nslots)
		return NULL;
	for (h = hash_id(id, t->nslots); t->slots[h];
	     h = (h + 1) & (t->nslots - 1))
		if (t->rows[t->slots[h] - 1].id == id)
			return &t->rows[t->slots[h] - 1];
	return NULL;
}

struct msl_row *msl_table_get(struct msl_table *t, uint64_t id)
{
	struct msl_row *row = msl_table_find(t, id), *rows;
	size_t h;

	if (row)
		return row;
	if ((t->n + 1) * 2 > t->nslots &&
	    rehash(t, t->nslots ? t->nslots * 2 : 64))
		return NULL;
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 32;

		rows = realloc(t->rows, cap * sizeof(*rows));
		if (!rows)
			return NULL;
		t->rows = rows;
		t->cap = cap;
	}
	row = &t->rows[t->n];
	memset(row, 0, sizeof(*row));
	row->id = id;
	for (h = hash_id(id, t->nslots); t->slots[h];
	     h = (h + 1) & (t->nslots - 1))
		;
	t->slots[h] = ++t->n;
	return row;
}

void msl_table_clear(struct msl_table *t)
{
	struct msl_row *rows = t->rows;
	size_t *slots = t->slots, cap = t->cap, nslots = t->nslots;

	if (slots)
		memset(slots, 0, nslots * sizeof(*slots));
	memset(t, 0, sizeof(*t));
	t->rows = rows;
	t->cap = cap;
	t->slots = slots;
	t->nslots = nslots;
}

void msl_table_free(struct msl_table *t)
{
	free(t->rows);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

int msl_table_copy(struct msl_table *dst, const struct msl_table *src)
{
	struct msl_row *row;
	size_t i;

	msl_table_clear(dst);
	for (i = 0; i < src->n; i++) {
		row = msl_table_get(dst, src->rows[i].id);
		if (!row)
			return -ENOMEM;
		*row = src->rows[i];
	}
	dst->seq = src->seq;
	dst->nr_tracked = src->nr_tracked;
	dst->untracked = src->untracked;
	dst->dying = src->dying;
	dst->missed = src->missed;
	dst->done = src->done;
	return 0;
}

static uint64_t sub(uint64_t cur, uint64_t prev, bool *reset)
{
	if (cur < prev) {
		*reset = true;
		return cur;
	}
	return cur - prev;
}

int msl_table_delta(struct msl_table *out, const struct msl_table *cur,
		    const struct msl_table *prev)
{
	static const struct msl_counts zero;
	bool reset = false;
	size_t i;
	int k;

	msl_table_clear(out);
	for (i = 0; i < cur->n; i++) {
		const struct msl_row *c = &cur->rows[i];
		const struct msl_row *p = msl_table_find(prev, c->id);
		const struct msl_counts *pc = p ? &p->c : &zero;
		struct msl_row *o = msl_table_get(out, c->id);
		bool row_reset = false;

		if (!o)
			return -ENOMEM;
		o->path = c->path;
		for (k = 0; k < MSL_NR_REASONS; k++)
			o->c.decisions[k] = sub(c->c.decisions[k],
						pc->decisions[k], &row_reset);
		for (k = 0; k < MSL_NR_KINDS; k++) {
			o->c.scanned[k] = sub(c->c.scanned[k], pc->scanned[k],
					      &row_reset);
			o->c.reclaimed[k] = sub(c->c.reclaimed[k],
						pc->reclaimed[k], &row_reset);
		}
		/* One counter down: the memcg's entry was made anew. */
		if (row_reset)
			o->c = c->c;
	}
	out->seq = cur->seq;
	out->nr_tracked = cur->nr_tracked;
	out->untracked = sub(cur->untracked, prev->untracked, &reset);
	out->dying = sub(cur->dying, prev->dying, &reset);
	out->missed = sub(cur->missed, prev->missed, &reset);
	out->done = cur->done;
	return 0;
}

const char msl_sort_keys[] =
	"path, id, decisions, reclaims, skips, scanned, reclaimed";

int msl_sort_parse(const char *s, enum msl_sort *out)
{
	static const struct { const char *name; enum msl_sort key; } keys[] = {
		{ "path", MSL_SORT_PATH }, { "cgroup", MSL_SORT_PATH },
		{ "id", MSL_SORT_ID }, { "decisions", MSL_SORT_DECISIONS },
		{ "reclaims", MSL_SORT_RECLAIMS }, { "skips", MSL_SORT_SKIPS },
		{ "scanned", MSL_SORT_SCANNED },
		{ "reclaimed", MSL_SORT_RECLAIMED },
	};
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(s, keys[i].name)) {
			*out = keys[i].key;
			return 0;
		}
	return -EINVAL;
}

static enum msl_sort sort_key;
static bool sort_reverse;

static uint64_t key_value(const struct msl_row *r)
{
	switch (sort_key) {
	case MSL_SORT_DECISIONS:
		return msl_counts_decisions(&r->c);
	case MSL_SORT_RECLAIMS:
		return msl_counts_reclaims(&r->c);
	case MSL_SORT_SKIPS:
		return msl_counts_skips(&r->c);
	case MSL_SORT_SCANNED:
		return msl_counts_scanned(&r->c);
	case MSL_SORT_RECLAIMED:
		return msl_counts_reclaimed(&r->c);
	default:
		return 0;
	}
}

static int cmp_path(const struct msl_row *a, const struct msl_row *b)
{
	int c;

	/* Removed cgroups (no path) last. */
	if (!a->path || !b->path)
		c = !a->path - !b->path;
	else
		c = strcmp(a->path, b->path);
	if (c)
		return c;
	return a->id < b->id ? -1 : a->id > b->id;
}

static int cmp_rows(const void *pa, const void *pb)
{
	const struct msl_row *a = pa, *b = pb;
	uint64_t x, y;
	int c;

	switch (sort_key) {
	case MSL_SORT_PATH:
		c = cmp_path(a, b);
		break;
	case MSL_SORT_ID:
		c = a->id < b->id ? -1 : a->id > b->id;
		break;
	default:
		x = key_value(a);
		y = key_value(b);
		c = x > y ? -1 : x < y;		/* largest first */
		if (!c)
			return cmp_path(a, b);	/* ties never reversed */
	}
	return sort_reverse ? -c : c;
}

void msl_table_sort(struct msl_table *t, enum msl_sort key, bool reverse)
{
	sort_key = key;
	sort_reverse = reverse;
	if (t->n)
		qsort(t->rows, t->n, sizeof(*t->rows), cmp_rows);
	if (t->nslots)
		rehash(t, t->nslots);
}

void msl_table_resolve(struct msl_table *t, const struct msl_cgmap *m)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		t->rows[i].path = msl_cgmap_path(m, t->rows[i].id);
}

int msl_table_resolve_fresh(struct msl_table *t, struct msl_cgmap *m,
			    const struct msl_cgfs *fs)
{
	size_t i;

	msl_table_resolve(t, m);
	for (i = 0; i < t->n; i++)
		if (!t->rows[i].path)
			break;
	if (i == t->n)
		return 0;
	/* A cgroup made since the last walk, or one removed: walk again. */
	if (msl_cgmap_build(m, fs))
		return -1;
	msl_table_resolve(t, m);
	return 0;
}
