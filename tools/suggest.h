/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memcg-softlimit suggest, its pure part: from what the kernel says
 * (workingset.h's readings) to what a cgroup reuses, over its whole
 * subtree as its usage counts it, and the soft limit that would protect
 * that; the largest over a span of samples; the rules file --write makes.
 */
#ifndef MSL_TOOL_SUGGEST_H
#define MSL_TOOL_SUGGEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct msl_lru_gen;
struct msl_stat_workingset;

enum msl_reuse_kind {
	MSL_REUSE_WINDOW,	/* MGLRU: pages seen in use within the window */
	/*
	 * MGLRU: some memcgs of the subtree were not aged within the
	 * window: their pages are counted whole (their reuse is not known).
	 */
	MSL_REUSE_PARTIAL,
	MSL_REUSE_UNKNOWN,	/* MGLRU: none of them was aged within it */
	MSL_REUSE_UPPER,	/* classic LRU: the active lists, a bound */
};
/* "window", "partial", "unknown", "upper_bound" (JSON's words). */
const char *msl_reuse_kind_name(enum msl_reuse_kind k);

/* One cgroup's reading (bytes). */
struct msl_reuse {
	enum msl_reuse_kind kind;
	uint64_t reused;		/* 0 when unknown */
	uint64_t unaged;		/* MGLRU: counted whole, not known */
	/*
	 * Charged to it and on no LRU list (kernel memory, unevictable
	 * pages): usage counts it, and so the soft limit, but no aging does.
	 */
	uint64_t other;
	uint64_t usage;
	uint64_t refaults;		/* pages, workingset_refault_* */
	bool have_refaults;
};

/*
 * MGLRU: @cgpath's subtree in @g, which counted young pages with its
 * window; a memcg whose last aging's findings are older than the window
 * is not known.  Pages are @page_size bytes.
 */
void msl_reuse_from_lru_gen(const struct msl_lru_gen *g, const char *cgpath,
			    uint64_t page_size, struct msl_reuse *r);
/* Classic LRU: the active lists (memory.stat, the subtree's). */
void msl_reuse_from_stat(const struct msl_stat_workingset *w,
			 struct msl_reuse *r);
/*
 * What either LRU's memory.stat adds: the usage, what of it is on no LRU
 * list, the refaults (where memory.stat has them).
 */
void msl_reuse_set_stat(struct msl_reuse *r, uint64_t usage,
			const struct msl_stat_workingset *w);
/*
 * The soft limit to suggest: (reused + other) and @headroom percent,
 * rounded up to a MiB (msl_suggest_limit).  false when not known.
 */
bool msl_reuse_suggest(const struct msl_reuse *r, unsigned int headroom,
		       uint64_t *limit);

/*
 * Sampling: the largest reuse seen over the span (and its sample's
 * unaged part), the largest other, the last usage; refaults over the
 * span.  A sample that did not know is counted, never the largest.
 */
struct msl_reuse_span {
	unsigned int samples, known;
	struct msl_reuse max;
	uint64_t first_refaults, last_refaults;
	uint64_t last_usage;
};
void msl_reuse_span_add(struct msl_reuse_span *s, const struct msl_reuse *r);
void msl_reuse_span_result(const struct msl_reuse_span *s,
			   struct msl_reuse *out);

/*
 * --write: a rules file (conf.c's syntax) of the suggestions, applied
 * by nobody until apply is run on it.  Its first line says suggest
 * wrote it: the one kind of existing file --write replaces.
 */
#define MSL_SUGGEST_MARK	"# Written by memcg-softlimit suggest --write"
struct msl_suggestion {
	const char *path;		/* below the mount, "/a/b" */
	bool known;
	uint64_t limit;			/* bytes, when known */
	const char *why;		/* when not: why */
};
/*
 * Why @path cannot be a rule's literal path (NULL: it can): a pattern
 * character would match other cgroups, a blank before '#' starts a
 * comment, a line break ends the line, a blank at the end is trimmed.
 */
const char *msl_rule_path_why(const char *path);
/*
 * @file's text: its header (@what: when and how it was measured, after
 * "suggest --write"), then a rule, or a comment saying why there is
 * none, per cgroup.  Returns the number of rules.
 */
size_t msl_suggest_snippet(FILE *f, const char *file, const char *what,
			   const struct msl_suggestion *s, size_t n);
/* Whether the text at the start of an existing file is suggest's. */
bool msl_suggest_is_ours(const char *head);

/*
 * suggest_file.c.  Before any reading: whether FILE may be written, and
 * whether it replaces one (suggest's own); an exit status, why said.
 */
int msl_suggest_write_check(const char *file, bool *replace);
/* The file written whole, then put in place: an exit status, said. */
int msl_suggest_write(const char *file, const char *what,
		      const struct msl_suggestion *s, size_t n, bool replace,
		      bool say_on_stderr);

#endif /* MSL_TOOL_SUGGEST_H */
