// SPDX-License-Identifier: GPL-2.0
/*
 * What the first pass of global reclaim would decide now, cgroup by
 * cgroup (tree's FIRST_PASS): the hierarchy read once into levels, each
 * cgroup decided on its chain up to below the root by lib/policy.c's
 * msl_decide(), the module's own code.  A policy that reads more than the
 * chain gets it read here too: whether a sibling is over (walk), the
 * largest excess of any memcg (excess).
 */
#include <errno.h>
#include <stdlib.h>

#include <memcg_softlimit/policy.h>

#include "cgmap.h"
#include "cgroup.h"
#include "explain.h"
#include "firstpass.h"
#include "softlimit.h"

struct walk {
	const struct msl_firstpass_node *info;
	int at;
};

static bool next_level(void *opaque, struct msl_level *level)
{
	struct walk *w = opaque;

	if (w->at < 0 || w->info[w->at].parent < 0)
		return false;		/* the root is never a level */
	*level = w->info[w->at].level;
	w->at = w->info[w->at].parent;
	return true;
}

static void fill_info(const struct msl_cgfs *fs, const struct msl_cgmap *map,
		      const struct msl_v2limits *v2, struct msl_firstpass_node *info,
		      uint64_t ps)
{
	int stack[512];
	struct msl_limit lim;
	uint64_t usage;
	size_t i;

	for (i = 0; i < map->n; i++) {
		const struct msl_cgnode *n = &map->nodes[i];
		struct msl_firstpass_node *in = &info[i];

		if (n->depth < 512)
			stack[n->depth] = (int)i;
		in->parent = n->depth > 0 && n->depth <= 512 ?
			     stack[n->depth - 1] : -1;
		in->level.cgroup_id = n->id;
		in->level.src = MSL_LIMIT_UNSET;
		in->has_memcg = msl_cg_has_memcg(fs, n->path);
		if (!msl_cg_usage(fs, n->path, &usage))
			in->level.usage = usage / ps;
		if (n->depth > 0 && !msl_limit_get(fs, n->path, v2, &lim)) {
			in->level.src = lim.src;
			in->level.soft_limit = lim.bytes / ps;
		}
	}
}

/*
 * walk: whether another child of each node's parent is over, as the
 * module reads it (children with a memcg of their own), in O(n).
 */
static void fill_sibling_over(const struct msl_cgmap *map,
			      const struct msl_params *params,
			      struct msl_firstpass_node *info)
{
	unsigned int *over = calloc(map->n ? map->n : 1, sizeof(*over));
	size_t i;

	if (!over)
		return;
	for (i = 0; i < map->n; i++)
		if (info[i].parent >= 0 && info[i].has_memcg &&
		    msl_level_over(params, &info[i].level))
			over[info[i].parent]++;
	for (i = 0; i < map->n; i++)
		if (info[i].parent >= 0)
			info[i].level.sibling_over =
				over[info[i].parent] >
				(info[i].has_memcg &&
				 msl_level_over(params, &info[i].level));
	free(over);
}

/*
 * excess: the largest excess of any memcg below the root now; the share
 * of each eligible memcg is its excess over this.
 */
static uint64_t largest_excess(const struct msl_cgmap *map,
			       const struct msl_params *params,
			       const struct msl_firstpass_node *info)
{
	uint64_t e, max = 0;
	size_t i;

	for (i = 0; i < map->n; i++) {
		if (info[i].parent < 0 || !info[i].has_memcg)
			continue;
		e = msl_level_excess(params, &info[i].level);
		if (e > max)
			max = e;
	}
	return max;
}

void msl_firstpass_decide(const struct msl_firstpass *fp, size_t i,
			  struct msl_decision *d, unsigned int *pct)
{
	const struct msl_cgnode *n = &fp->map->nodes[i];
	struct msl_step step = {
		.kind = MSL_KIND_KSWAPD,
		.is_root = n->depth == 0,
		.effective_priority = MSL_DEF_PRIORITY,
	};
	struct walk wk = { fp->node, (int)i };

	msl_decide(fp->params, &step, next_level, &wk, d);
	*pct = msl_policy_ops(fp->params->policy)->weighs_excess &&
	       d->verdict == MSL_RECLAIM && d->excess ?
	       msl_excess_percent(d->excess, fp->excess_max) : 100;
}

int msl_firstpass_read(struct msl_firstpass *fp, const struct msl_cgfs *fs,
		       const struct msl_cgmap *map,
		       const struct msl_v2limits *v2,
		       const struct msl_params *params, uint64_t ps)
{
	const struct msl_policy_ops *ops = msl_policy_ops(params->policy);

	fp->params = params;
	fp->map = map;
	fp->excess_max = 0;
	fp->node = calloc(map->n ? map->n : 1, sizeof(*fp->node));
	if (!fp->node)
		return -ENOMEM;
	fill_info(fs, map, v2, fp->node, ps);
	if (ops->reads_siblings)
		fill_sibling_over(map, params, fp->node);
	if (ops->weighs_excess)
		fp->excess_max = largest_excess(map, params, fp->node);
	return 0;
}

void msl_firstpass_free(struct msl_firstpass *fp)
{
	free(fp->node);
	fp->node = NULL;
}
