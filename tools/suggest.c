// SPDX-License-Identifier: GPL-2.0
/* What a cgroup reuses, the limit that protects it (suggest.h). */
#include <limits.h>
#include <string.h>

#include <linux/kernel.h>
#include <memcg_softlimit/control.h>

#include "suggest.h"
#include "conf.h"
#include "escape.h"
#include "msl.h"
#include "size.h"
#include "workingset.h"

const char *msl_reuse_kind_name(enum msl_reuse_kind k)
{
	static const char *const names[] = {
		[MSL_REUSE_WINDOW] = "window",
		[MSL_REUSE_PARTIAL] = "partial",
		[MSL_REUSE_UNKNOWN] = "unknown",
		[MSL_REUSE_UPPER] = "upper_bound",
	};

	return (unsigned int)k < ARRAY_SIZE(names) ? names[k] : "?";
}

/* @path is @top or below it, whole components only. */
static bool path_under(const char *top, const char *path)
{
	size_t n = strlen(top);

	if (!strcmp(top, "/"))
		return *path == '/';
	return !strncmp(path, top, n) && (path[n] == '\0' || path[n] == '/');
}

void msl_reuse_from_lru_gen(const struct msl_lru_gen *g, const char *cgpath,
			    uint64_t page_size, struct msl_reuse *r)
{
	uint64_t young = 0, unaged = 0;
	bool known = false;
	size_t i;

	memset(r, 0, sizeof(*r));
	/*
	 * lru_gen lists each memcg's own pages; usage counts the subtree's,
	 * and so does the limit: the subtree's memcgs summed.
	 */
	for (i = 0; i < g->n; i++) {
		const struct msl_lru_gen_memcg *m = &g->memcg[i];

		if (!m->total_pages || !path_under(cgpath, m->path))
			continue;
		/*
		 * A removed memcg that had this very path (6.12: id 0): its
		 * pages count in the parent's usage, not in that of the
		 * cgroup there now.  (7.x moves them into the parent's
		 * generations as it removes the memcg: it has none left.)
		 */
		if (!m->id && !strcmp(m->path, cgpath))
			continue;
		if (m->observed_age_ms < g->window_ms) {
			young += m->young_pages;
			known = true;
		} else {
			unaged += m->total_pages;
		}
	}
	r->unaged = unaged * page_size;
	if (!known && unaged) {
		r->kind = MSL_REUSE_UNKNOWN;
	} else if (unaged) {
		/* Those not known counted whole: the limit protects them. */
		r->kind = MSL_REUSE_PARTIAL;
		r->reused = (young + unaged) * page_size;
	} else {
		r->kind = MSL_REUSE_WINDOW;
		r->reused = young * page_size;
	}
}

void msl_reuse_from_stat(const struct msl_stat_workingset *w,
			 struct msl_reuse *r)
{
	memset(r, 0, sizeof(*r));
	r->kind = MSL_REUSE_UPPER;
	/*
	 * A page used twice since it came in is on an active list: reused
	 * once at least, at any time since, until reclaim deactivates it.
	 */
	r->reused = w->active_anon + w->active_file;
}

void msl_reuse_set_stat(struct msl_reuse *r, uint64_t usage,
			const struct msl_stat_workingset *w)
{
	uint64_t lru = w->active_anon + w->inactive_anon + w->active_file +
		       w->inactive_file;

	r->usage = usage;
	r->refaults = w->refault_anon + w->refault_file;
	r->have_refaults = w->have_refaults;
	/* (read at another moment than usage: never below 0) */
	r->other = usage > lru ? usage - lru : 0;
}

bool msl_reuse_suggest(const struct msl_reuse *r, unsigned int headroom,
		       uint64_t *limit)
{
	if (r->kind == MSL_REUSE_UNKNOWN)
		return false;
	*limit = msl_suggest_limit(r->reused + r->other, headroom);
	return true;
}

void msl_reuse_span_add(struct msl_reuse_span *s, const struct msl_reuse *r)
{
	if (!s->samples)
		s->first_refaults = r->refaults;
	s->samples++;
	s->last_refaults = r->refaults;
	s->last_usage = r->usage;
	s->max.have_refaults = r->have_refaults;
	if (r->other > s->max.other)
		s->max.other = r->other;
	if (r->kind == MSL_REUSE_UNKNOWN) {
		if (!s->known)
			s->max.unaged = r->unaged;
		return;
	}
	/* The largest; of equals, the one measured rather than counted whole. */
	if (!s->known || r->reused > s->max.reused ||
	    (r->reused == s->max.reused && r->kind < s->max.kind)) {
		s->max.kind = r->kind;
		s->max.reused = r->reused;
		s->max.unaged = r->unaged;
	}
	s->known++;
}

void msl_reuse_span_result(const struct msl_reuse_span *s,
			   struct msl_reuse *out)
{
	*out = s->max;
	if (!s->known) {
		out->kind = MSL_REUSE_UNKNOWN;
		out->reused = 0;
	}
	out->usage = s->last_usage;
	/* One sample: since the cgroup began; more: over the span. */
	out->refaults = s->samples < 2 ? s->last_refaults :
			s->last_refaults >= s->first_refaults ?
			s->last_refaults - s->first_refaults : s->last_refaults;
}

const char *msl_rule_path_why(const char *path)
{
	size_t n = strlen(path);
	const char *p;

	if (strpbrk(path, "*?"))
		return "its name has '*' or '?', which would match other cgroups too";
	if (strpbrk(path, "\n\r"))
		return "its name has a line break";
	for (p = path; *p; p++)
		if (*p == '#' && p > path && (p[-1] == ' ' || p[-1] == '\t'))
			return "its name has a blank before '#', which starts a comment";
	if (n && (path[n - 1] == ' ' || path[n - 1] == '\t'))
		return "its name ends in a blank, which would be trimmed";
	return NULL;
}

/* A size the rules' parser takes back exactly: the largest exact unit. */
static const char *rule_size(uint64_t bytes, char *buf, size_t len)
{
	static const char units[] = "KMGT";
	int u = 0;

	while (u < 4 && bytes && !(bytes % (1ULL << (10 * (u + 1)))))
		u++;
	if (u)
		snprintf(buf, len, "%llu%c",
			 (unsigned long long)(bytes >> (10 * u)), units[u - 1]);
	else
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
	return buf;
}

/* The line @path SIZE, checked by the module's own parser: NULL or why not. */
static const char *rule_why(const char *path, const char *size)
{
	char line[PATH_MAX + MSL_SIZE_BUF + 2];
	struct msl_rule rule;
	const char *why;

	why = msl_rule_path_why(path);
	if (why)
		return why;
	if ((size_t)snprintf(line, sizeof(line), "%s %s", path, size) >=
	    sizeof(line))
		return "its path is too long";
	why = NULL;
	if (msl_rule_parse(line, &rule, &why) != 1)
		return why ? why : "the rules' parser refuses it";
	return NULL;
}

size_t msl_suggest_snippet(FILE *f, const char *file, const char *what,
			   const struct msl_suggestion *s, size_t n)
{
	char size[MSL_SIZE_BUF], text[PATH_MAX];
	const char *why;
	size_t i, rules = 0;

	fprintf(f, "%s %s.\n"
		"# Each limit: what the cgroup reused, its kernel memory, and the\n"
		"# headroom, rounded up to a MiB (memcg-softlimit(8), suggest).\n"
		"# Nothing here is applied until apply is run on it.  Check it:\n"
		"#   %s apply --dry-run %s\n"
		"# apply it:\n"
		"#   %s apply %s\n"
		"# or copy it into %s/ to have it applied at each\n"
		"# load of the module (the first rule that matches a cgroup decides).\n"
		"# suggest --write replaces a file it wrote, never another.\n",
		MSL_SUGGEST_MARK, what, MSL_PROG, file, MSL_PROG, file,
		MSL_CONF_DIR);
	for (i = 0; i < n; i++) {
		msl_text(s[i].path, text, sizeof(text));
		if (!s[i].known) {
			fprintf(f, "# %s: no suggestion: %s\n", text, s[i].why);
			continue;
		}
		rule_size(s[i].limit, size, sizeof(size));
		why = rule_why(s[i].path, size);
		if (why) {
			fprintf(f, "# %s %s: not written as a rule: %s\n", text,
				size, why);
			continue;
		}
		fprintf(f, "%s %s\n", s[i].path, size);
		rules++;
	}
	return rules;
}

bool msl_suggest_is_ours(const char *head)
{
	return !strncmp(head, MSL_SUGGEST_MARK, strlen(MSL_SUGGEST_MARK));
}
