/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MSL_TOOL_CGMAP_H
#define MSL_TOOL_CGMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cgroup.h"

/* cgmap.c: the hierarchy walked once: cgroup ids to paths, and the tree in order. */
struct msl_cgnode {
	uint64_t id;
	char *path;			/* "/", "/a", "/a/b" */
	int depth;			/* 0 for the root */
	bool last;			/* last child of its parent (tree drawing) */
};
struct msl_cgmap {
	struct msl_cgnode *nodes;	/* depth-first, children by name */
	size_t n, cap;
	size_t *by_id;			/* indexes into nodes, sorted by id */
};
int msl_cgmap_build(struct msl_cgmap *m, const struct msl_cgfs *fs);
/* NULL when no cgroup has that id (any more). */
const char *msl_cgmap_path(const struct msl_cgmap *m, uint64_t id);
void msl_cgmap_free(struct msl_cgmap *m);

#endif /* MSL_TOOL_CGMAP_H */
