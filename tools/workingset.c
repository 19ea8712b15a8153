// SPDX-License-Identifier: GPL-2.0
/* What a cgroup reuses, from MGLRU's generations or memory.stat (workingset.h). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "workingset.h"

/* The line at *@p, NUL-terminated into @buf (cut at @size - 1); advances. */
static bool next_line(const char **p, const char *end, char *buf, size_t size)
{
	const char *nl;
	size_t n;

	if (*p >= end)
		return false;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	n = (size_t)((nl ? nl : end) - *p);
	if (n >= size)
		n = size - 1;
	memcpy(buf, *p, n);
	buf[n] = '\0';
	*p = nl ? nl + 1 : end;
	return true;
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* An unsigned number at *@s, then an optional mark (" ", "x"). */
static bool number(const char **s, uint64_t *v)
{
	char *e;

	*s = skip_blanks(*s);
	if (!isdigit((unsigned char)**s))
		return false;
	*v = strtoull(*s, &e, 10);
	*s = e;
	if (**s == 'x')
		(*s)++;
	return true;
}

/*
 * (GCC 12's -fanalyzer loses the path's copy once it is in g->memcg and
 * calls it a leak, as in conf.c; msl_lru_gen_free() frees it.)
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wanalyzer-malloc-leak"
static struct msl_lru_gen_memcg *add_memcg(struct msl_lru_gen *g,
					   const char *path)
{
	struct msl_lru_gen_memcg *m;
	char *copy = strdup(path);

	if (!copy)
		return NULL;
	m = realloc(g->memcg, (g->n + 1) * sizeof(*g->memcg));
	if (!m) {
		free(copy);
		return NULL;
	}
	g->memcg = m;
	m = &g->memcg[g->n++];
	memset(m, 0, sizeof(*m));
	m->path = copy;
	return m;
}
#pragma GCC diagnostic pop

/* One node's generations as they are read, oldest first. */
struct node_gens {
	unsigned int n;
	uint64_t pages, last_age, prev_age;
};

/* A node's generations all read: what the last aging saw there, and when. */
static void end_node(struct msl_lru_gen_memcg *m, struct node_gens *ng)
{
	uint64_t observed = ng->n > 1 ? ng->prev_age : ng->last_age;

	/* A node without this memcg's pages says nothing about its reuse. */
	if (m && ng->n && ng->pages && observed > m->observed_age_ms)
		m->observed_age_ms = observed;
	memset(ng, 0, sizeof(*ng));
}

int msl_lru_gen_parse(const char *text, size_t len, uint64_t window_ms,
		      struct msl_lru_gen *out, const char **why)
{
	const char *p = text, *end = text + len, *s;
	struct msl_lru_gen_memcg *cur = NULL;
	uint64_t seq, age, anon, file;
	struct node_gens ng = { 0 };
	char line[4352], *e;
	unsigned long long id;
	bool in_node = false;

	memset(out, 0, sizeof(*out));
	out->window_ms = window_ms;
	while (next_line(&p, end, line, sizeof(line))) {
		s = skip_blanks(line);
		if (!*s)
			continue;
		if (!strncmp(s, "memcg ", 6)) {
			end_node(cur, &ng);
			s = skip_blanks(s + 6);
			errno = 0;
			id = strtoull(s, &e, 10);
			if (!isdigit((unsigned char)*s) || errno ||
			    (*e != ' ' && *e != '\t' && *e)) {
				*why = "a memcg line without its id";
				goto bad;
			}
			s = skip_blanks(e);
			cur = add_memcg(out, s);
			if (!cur) {
				*why = "out of memory";
				goto bad;
			}
			cur->id = id;
			in_node = false;
			continue;
		}
		if (!strncmp(s, "node ", 5)) {
			if (!cur) {
				*why = "a node line before any memcg line";
				goto bad;
			}
			end_node(cur, &ng);
			in_node = true;
			continue;
		}
		if (!cur || !in_node || !number(&s, &seq) || !number(&s, &age) ||
		    !number(&s, &anon) || !number(&s, &file)) {
			*why = "a line that is neither memcg, node nor generation";
			goto bad;
		}
		if (!cur->has_generations || age < cur->youngest_age_ms)
			cur->youngest_age_ms = age;
		cur->has_generations = true;
		cur->total_pages += anon + file;
		if (age < window_ms)
			cur->young_pages += anon + file;
		ng.prev_age = ng.last_age;
		ng.last_age = age;
		ng.pages += anon + file;
		ng.n++;
	}
	end_node(cur, &ng);
	if (!out->n) {
		*why = "no memcg in it (is MGLRU enabled?)";
		goto bad;
	}
	return 0;
bad:
	msl_lru_gen_free(out);
	return -1;
}

const struct msl_lru_gen_memcg *msl_lru_gen_find(const struct msl_lru_gen *g,
						 const char *path)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		if (!strcmp(g->memcg[i].path, path))
			return &g->memcg[i];
	return NULL;
}

void msl_lru_gen_free(struct msl_lru_gen *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		free(g->memcg[i].path);
	free(g->memcg);
	memset(g, 0, sizeof(*g));
}

void msl_stat_workingset_parse(const char *text,
			       struct msl_stat_workingset *out)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		/*
		 * v2, then v1's hierarchical totals; the LRU lists first
		 * (found), then the refaults (have_refaults).
		 */
		{ "active_anon", offsetof(struct msl_stat_workingset, active_anon) },
		{ "inactive_anon", offsetof(struct msl_stat_workingset, inactive_anon) },
		{ "active_file", offsetof(struct msl_stat_workingset, active_file) },
		{ "inactive_file", offsetof(struct msl_stat_workingset, inactive_file) },
		{ "total_active_anon", offsetof(struct msl_stat_workingset, active_anon) },
		{ "total_inactive_anon", offsetof(struct msl_stat_workingset, inactive_anon) },
		{ "total_active_file", offsetof(struct msl_stat_workingset, active_file) },
		{ "total_inactive_file", offsetof(struct msl_stat_workingset, inactive_file) },
		{ "workingset_refault_file", offsetof(struct msl_stat_workingset, refault_file) },
		{ "workingset_refault_anon", offsetof(struct msl_stat_workingset, refault_anon) },
		{ "total_workingset_refault_file", offsetof(struct msl_stat_workingset, refault_file) },
		{ "total_workingset_refault_anon", offsetof(struct msl_stat_workingset, refault_anon) },
	};
	const char *p = text, *end = text + strlen(text);
	char line[256], *sp;
	uint64_t v;
	size_t i;

	memset(out, 0, sizeof(*out));
	while (next_line(&p, end, line, sizeof(line))) {
		sp = strchr(line, ' ');
		if (!sp)
			continue;
		*sp = '\0';
		v = strtoull(sp + 1, NULL, 10);
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			if (strcmp(line, keys[i].key))
				continue;
			*(uint64_t *)((char *)out + keys[i].off) = v;
			/* v1: total_* (hierarchical) comes after the local key */
			out->found |= i < 8;
			out->have_refaults |= i >= 8;
		}
	}
}

uint64_t msl_suggest_limit(uint64_t reused, unsigned int headroom)
{
	const uint64_t mib = 1ULL << 20;
	uint64_t want = reused + reused / 100 * headroom +
			reused % 100 * headroom / 100;

	if (want < mib)
		return mib;
	return (want + mib - 1) / mib * mib;
}
