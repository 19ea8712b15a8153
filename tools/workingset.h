/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a cgroup reuses: its working set as the kernel measures it, read
 * without disturbing it (memcg-softlimit suggest).
 *
 * MGLRU keeps each memcg's pages in generations, one per aging: a page
 * found used since the last aging moves to the youngest, and the lru_gen
 * debugfs file lists, per memcg and node, each generation's age in ms and
 * its anonymous and file pages.  The pages of the generations younger
 * than a window are the ones the memcg used within it (or faulted in, for
 * new pages).  Generations only form when the kernel ages, under
 * reclaim: a memcg whose youngest generation is older than the window was
 * not aged within it, and its reuse there is not known.
 *
 * The classic LRU keeps no ages: a page used twice since it came in is on
 * an active list, so active_anon + active_file of memory.stat is what the
 * cgroup reused at least once, at any time since the pages came in (a
 * bound from above for a window: pages reused once long ago count too,
 * until reclaim deactivates them).
 */
#ifndef MSL_TOOL_WORKINGSET_H
#define MSL_TOOL_WORKINGSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One memcg of the lru_gen file, its nodes summed. */
struct msl_lru_gen_memcg {
	char *path;			/* "" for the root's own pages */
	/*
	 * The memcg's id as lru_gen prints it: 6.12's private memcg id (0
	 * once the memcg is removed, its pages still charged to it), 7.x's
	 * cgroup id (64 bits; a removed memcg's pages move to its parent).
	 */
	uint64_t id;
	uint64_t young_pages;		/* in generations younger than the window */
	uint64_t total_pages;		/* in all its generations */
	uint64_t youngest_age_ms;	/* the youngest generation's age, any node */
	/*
	 * An aging moves the pages it finds used into the youngest
	 * generation, then opens a new, empty one: what the last aging saw
	 * is in the second youngest, as old as the aging before it.  Its
	 * age, on the node of this memcg's pages that was aged least
	 * recently: a window shorter than that holds no aging's findings.
	 */
	uint64_t observed_age_ms;
	bool has_generations;
};

struct msl_lru_gen {
	struct msl_lru_gen_memcg *memcg;
	size_t n;
	uint64_t window_ms;		/* what young_pages counted */
};

/*
 * Parses the text of /sys/kernel/debug/lru_gen (@len bytes), counting per
 * memcg the pages of generations younger than @window_ms.  0, or -1 with
 * *@why set when the text is not that file's (nothing kept).
 */
int msl_lru_gen_parse(const char *text, size_t len, uint64_t window_ms,
		      struct msl_lru_gen *out, const char **why);
const struct msl_lru_gen_memcg *msl_lru_gen_find(const struct msl_lru_gen *g,
						 const char *path);
void msl_lru_gen_free(struct msl_lru_gen *g);

/*
 * From memory.stat (bytes, v2 names or v1's, whichever are there; v1's
 * hierarchical total_* over its local counters).
 */
struct msl_stat_workingset {
	uint64_t active_anon, inactive_anon, active_file, inactive_file;
	uint64_t refault_file, refault_anon;	/* 0 where the kernel has none */
	bool found;
	bool have_refaults;	/* workingset_refault_*: v2; v1 on 6.1 too */
};

/*
 * Parses memory.stat's text; found is false when no LRU key was there,
 * have_refaults false when no refault key was.
 */
void msl_stat_workingset_parse(const char *text,
			       struct msl_stat_workingset *out);

/*
 * The soft limit to suggest for a working set of @reused bytes: @headroom
 * percent more, rounded up to a whole MiB, and at least one MiB.
 */
uint64_t msl_suggest_limit(uint64_t reused, unsigned int headroom);

#endif /* MSL_TOOL_WORKINGSET_H */
