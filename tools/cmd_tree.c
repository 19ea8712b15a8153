// SPDX-License-Identifier: GPL-2.0
/*
 * tree: every cgroup of the memory hierarchy with its usage and soft limit,
 * over or under, what the first pass of global reclaim would decide now
 * (msl_decide() on its chain), and its decision totals (one snapshot).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace.h"

struct node_info {
	struct msl_level level;		/* usage and limit in pages */
	bool has_memcg;
	int parent;			/* index, -1 for the root */
};

struct walk {
	const struct node_info *info;
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
		      const struct msl_v2limits *v2, struct node_info *info,
		      uint64_t ps)
{
	int stack[512];
	struct msl_limit lim;
	uint64_t usage;
	size_t i;

	for (i = 0; i < map->n; i++) {
		const struct msl_cgnode *n = &map->nodes[i];
		struct node_info *in = &info[i];

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
			      struct node_info *info)
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
			       const struct node_info *info)
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

static void put_prefix(FILE *f, const struct msl_cgmap *map, size_t i,
		       int base)
{
	bool last[512];
	const struct msl_cgnode *n = &map->nodes[i];
	int d, depth = n->depth - base;
	size_t j = i;

	if (depth <= 0 || depth >= 512)
		return;
	/* Walk up to learn, per level, whether that ancestor was a last child. */
	for (d = depth; d >= 1; d--) {
		while (map->nodes[j].depth - base > d)
			j--;
		last[d] = map->nodes[j].last;
	}
	for (d = 1; d < depth; d++)
		fputs(last[d] ? "    " : "|   ", f);
	fputs(last[depth] ? "`-- " : "|-- ", f);
}

static size_t name_width(const struct msl_cgmap *map, size_t i, int base)
{
	const struct msl_cgnode *n = &map->nodes[i];
	const char *name = strrchr(n->path, '/');

	if (n->depth == base)
		return msl_text_width(n->path);
	return 4 * (size_t)(n->depth - base) + msl_text_width(name + 1);
}

int cmd_tree(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "no-counters", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' }, { 0 } };
	char cgpath[PATH_MAX], msg[PATH_MAX * 3], buf[MSL_SIZE_BUF];
	struct msl_v2limits v2 = { 0 };
	struct msl_table snap = { 0 };
	struct msl_cgmap map = { 0 };
	struct node_info *info = NULL;
	bool counters = true, have_counters = false;
	size_t i, first = 0, end, width = 6, w;
	int fpw = 24;
	uint64_t excess_max = 0;
	struct msl_live live;
	struct msl_module m;
	struct msl_cgfs fs;
	const char *why;
	uint64_t id, ps;
	int c, ret, base;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+nh", opts, NULL)) != -1) {
		if (c == 'n')
			counters = false;
		else
			return msl_usage("tree", c != 'h');
	}
	if (argc - optind > 1)
		return msl_usage("tree", true);
	ret = msl_open_fs(&fs);
	if (ret)
		return ret;
	ret = msl_cg_resolve(&fs, argc > optind ? argv[optind] : "/", 0,
			     cgpath, sizeof(cgpath), &id, msg, sizeof(msg));
	if (ret) {
		msl_err("%s", msg);
		return ret;
	}
	msl_signals_install();
	msl_module_read(&m);
	ps = (uint64_t)sysconf(_SC_PAGESIZE);
	ret = fs.version == 2 && m.loaded ? msl_v2limits_load(&v2) : 0;
	if (ret)
		msl_warn("cannot read %s (%s): soft limits shown as unset",
			 MSL_CTL_LIMITS, strerror(-ret));
	ret = msl_cgmap_build(&map, &fs);
	if (ret) {
		msl_err("cannot walk %s: %s", fs.mount, strerror(-ret));
		return MSL_EXIT_ERR;
	}
	if (counters && m.loaded) {
		if (msl_live_open(&live, map.n, &why) ||
		    msl_live_snapshot(&live, &snap, &why))
			msl_warn("no decision totals: %s", why);
		else
			have_counters = true;
		msl_live_close(&live);
	}
	info = calloc(map.n ? map.n : 1, sizeof(*info));
	if (!info) {
		msl_err("out of memory");
		return MSL_EXIT_ERR;
	}
	fill_info(&fs, &map, &v2, info, ps);
	if (m.params.policy == MSL_POLICY_WALK)
		fill_sibling_over(&map, &m.params, info);
	if (m.params.policy == MSL_POLICY_EXCESS) {
		excess_max = largest_excess(&map, &m.params, info);
		fpw = 28;
	}

	while (first < map.n && map.nodes[first].id != id)
		first++;
	if (first == map.n) {
		msl_err("%s vanished while walking the hierarchy", cgpath);
		return MSL_EXIT_ERR;
	}
	base = map.nodes[first].depth;
	for (end = first + 1; end < map.n && map.nodes[end].depth > base; end++)
		;
	for (i = first; i < end; i++) {
		w = name_width(&map, i, base);
		if (w > width)
			width = w;
	}
	if (width > 60)
		width = 60;

	printf("%-*s %9s %10s %5s  %-*s", (int)width, "CGROUP", "USAGE",
	       "SOFT_LIMIT", "OVER", have_counters ? fpw : 0, "FIRST_PASS");
	if (have_counters)
		printf(" %9s %9s %9s", "RECLAIM", "SKIP", "RECLAIMED");
	putchar('\n');
	for (i = first; i < end; i++) {
		const struct msl_cgnode *n = &map.nodes[i];
		const struct node_info *in = &info[i];
		struct msl_step step = {
			.kind = MSL_KIND_KSWAPD,
			.is_root = n->depth == 0,
			.effective_priority = MSL_DEF_PRIORITY,
		};
		struct walk wk = { info, (int)i };
		struct msl_decision d;
		struct msl_limit lim = { in->level.src, in->level.soft_limit * ps };
		const struct msl_row *row;
		unsigned int pct;
		char fp[64];

		put_prefix(stdout, &map, i, base);
		msl_put_text(stdout, n->depth == base ? n->path :
			     strrchr(n->path, '/') + 1);
		w = name_width(&map, i, base);
		printf("%*s", w < width ? (int)(width - w) : 0, "");
		if (in->has_memcg || n->depth == 0)
			printf(" %9s", n->depth == 0 && fs.version == 2 ? "-" :
			       msl_size_fmt(in->level.usage * ps, buf, sizeof(buf)));
		else
			printf(" %9s", "-");
		if (n->depth == 0 || !in->has_memcg) {
			printf(" %10s %5s  %-*s", "-", "-", have_counters ? fpw : 0,
			       n->depth == 0 ? "reclaim (root)" : "- (no memcg)");
		} else {
			msl_limit_fmt(&lim, buf, sizeof(buf), false);
			msl_decide(&m.params, &step, next_level, &wk, &d);
			pct = m.params.policy == MSL_POLICY_EXCESS &&
			      d.verdict == MSL_RECLAIM && d.excess ?
			      msl_excess_percent(d.excess, excess_max) : 100;
			if (pct < 100)
				snprintf(fp, sizeof(fp), "%s %s%u%% (%s)",
					 msl_verdict_name(d.verdict),
					 d.excess * 100 < excess_max ? "<" : "",
					 pct, msl_reason_name(d.reason));
			else
				snprintf(fp, sizeof(fp), "%s (%s)",
					 msl_verdict_name(d.verdict),
					 msl_reason_name(d.reason));
			printf(" %10s %5s  %-*s", buf,
			       msl_level_over(&m.params, &in->level) ? "yes" : "no",
			       have_counters ? fpw : 0, fp);
		}
		if (have_counters) {
			row = msl_table_find(&snap, n->id);
			printf(" %9llu %9llu %9s",
			       row ? (unsigned long long)msl_counts_reclaims(&row->c) : 0ULL,
			       row ? (unsigned long long)msl_counts_skips(&row->c) : 0ULL,
			       msl_size_fmt(row ? msl_counts_reclaimed(&row->c) * ps : 0,
					    buf, sizeof(buf)));
		}
		putchar('\n');
	}
	if (!m.loaded)
		printf("# %s; FIRST_PASS uses the module's default parameters\n",
		       MSL_NOT_LOADED);
	else if (m.params.policy == MSL_POLICY_EXCESS)
		printf("# FIRST_PASS under policy excess: a share (N%%) is the part of first-pass steps that reclaim the cgroup (the others skip it, excess_share), its excess over the largest now\n");
	else if (m.params.policy != MSL_POLICY_V8)
		printf("# FIRST_PASS under policy %s\n",
		       msl_policy_name(m.params.policy));
	free(info);
	msl_cgmap_free(&map);
	msl_v2limits_free(&v2);
	msl_table_free(&snap);
	return MSL_EXIT_OK;
}
