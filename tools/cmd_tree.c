// SPDX-License-Identifier: GPL-2.0
/*
 * tree: every cgroup of the memory hierarchy with its usage and soft limit,
 * over or under, what the first pass of global reclaim would decide now
 * (firstpass.c: msl_decide() on its chain), and its decision totals (one
 * snapshot); drawn by libsmartcols, which also gives -o and --raw; --json is
 * json.c's vocabulary, every field, nested "children" as lsblk's.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <memcg_softlimit/control.h>
#include <memcg_softlimit/policy.h>

#include "absence.h"
#include "cgmap.h"
#include "cgroup.h"
#include "counters.h"
#include "escape.h"
#include "explain.h"
#include "firstpass.h"
#include "json.h"
#include "module.h"
#include "msl.h"
#include "opts.h"
#include "output.h"
#include "scols.h"
#include "size.h"
#include "softlimit.h"
#include "trace.h"

enum {
	COL_CGROUP, COL_ID, COL_USAGE, COL_SOFT_LIMIT, COL_LIMIT, COL_OVER,
	COL_FIRST_PASS, COL_RECLAIM, COL_SKIP, COL_RECLAIMED, NR_COLS,
};
static const struct msl_coldef tree_cols[NR_COLS] = {
	[COL_CGROUP] = { "CGROUP", "the cgroup, drawn as a tree", 0.3, SCOLS_FL_TREE, false },
	[COL_ID] = { "ID", "cgroup id", 6, 0, true },
	[COL_USAGE] = { "USAGE", "memory in use", 6, 0, true },
	[COL_SOFT_LIMIT] = { "SOFT_LIMIT", "soft limit (unset, max, a size)", 6, SCOLS_FL_RIGHT, false },
	[COL_LIMIT] = { "LIMIT", "where the limit comes from: unset, set, max, v1", 5, 0, false },
	[COL_OVER] = { "OVER", "over its own soft limit", 4, 0, false },
	[COL_FIRST_PASS] = { "FIRST_PASS", "what a first pass of global reclaim decides now (reason)", 20, 0, false },
	[COL_RECLAIM] = { "RECLAIM", "decisions that let reclaim run (one snapshot)", 6, 0, true },
	[COL_SKIP] = { "SKIP", "skips (one snapshot)", 6, 0, true },
	[COL_RECLAIMED] = { "RECLAIMED", "pages reclaimed (one snapshot)", 6, 0, true },
};
static const char tree_default_cols[] =
	"CGROUP,USAGE,SOFT_LIMIT,OVER,FIRST_PASS,RECLAIM,SKIP,RECLAIMED";
static const char tree_default_cols_nocounts[] =
	"CGROUP,USAGE,SOFT_LIMIT,OVER,FIRST_PASS";

static const struct msl_optuse tree_opts[] = {
	{ MSL_OPT_NO_COUNTERS, "no decision totals (no snapshot; no module needed)" },
	{ MSL_OPT_POLICY, NULL },
	{ MSL_OPT_JSON, "JSON: each cgroup with every field and its \"children\"" },
	{ MSL_OPT_OUTPUT, NULL },
	{ MSL_OPT_WIDE, NULL },
	{ MSL_OPT_RAW, NULL },
	{ MSL_OPT_NOHEADINGS, NULL },
	{ MSL_OPT_BYTES, NULL },
	{ MSL_OPT_END, NULL },
};

struct tree {
	const struct msl_cmdline *cl;
	const struct msl_cgfs *fs;
	const struct msl_cgmap *map;
	const struct msl_module *m;
	const struct msl_firstpass *fp;
	const struct msl_table *snap;	/* NULL: no counters */
	struct msl_cols cols;
	uint64_t ps;
};

static void cell_u64(struct libscols_line *ln, size_t col, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	scols_line_set_data(ln, col, buf);
}

/* "reclaim (over)", "reclaim 63% (over)" under excess. */
static void first_pass(const struct tree *t, size_t i, char *fp, size_t len)
{
	struct msl_decision d;
	unsigned int pct;

	msl_firstpass_decide(t->fp, i, &d, &pct);
	if (pct < 100)
		snprintf(fp, len, "%s %s%u%% (%s)", msl_verdict_name(d.verdict),
			 d.excess * 100 < t->fp->excess_max ? "<" : "", pct,
			 msl_reason_name(d.reason));
	else
		snprintf(fp, len, "%s (%s)", msl_verdict_name(d.verdict),
			 msl_reason_name(d.reason));
}

/* One cgroup's members, every field (JSON ignores -o). */
static void json_node(FILE *f, const struct tree *t, size_t i)
{
	const struct msl_cgnode *n = &t->map->nodes[i];
	const struct msl_firstpass_node *in = &t->fp->node[i];
	struct msl_limit lim = { in->level.src, in->level.soft_limit * t->ps };
	bool root = n->depth == 0, memcg = in->has_memcg || root;
	const struct msl_row *row = t->snap ? msl_table_find(t->snap, n->id) :
				    NULL;
	struct msl_decision d;
	unsigned int pct;

	fprintf(f, "{\"id\":%llu", (unsigned long long)n->id);
	msl_json_path(f, "path", n->path);
	msl_json_bool(f, "memcg", memcg);
	msl_json_opt_u64(f, "usage_bytes", memcg && !(root && t->fs->version == 2),
			 in->level.usage * t->ps);
	if (!root && in->has_memcg) {
		msl_json_limit(f, &lim);
		msl_json_bool(f, "over", msl_level_over(&t->m->params,
							&in->level));
	} else {
		fputs(",\"soft_limit\":null,\"soft_limit_bytes\":null,\"over\":null", f);
	}
	msl_json_key(f, "first_pass");
	if (memcg) {
		msl_firstpass_decide(t->fp, i, &d, &pct);
		fputs("{\"verdict\":", f);
		msl_put_json_str(f, msl_verdict_name(d.verdict));
		msl_json_str(f, "reason", msl_reason_name(d.reason));
		msl_json_u64(f, "share_percent", pct);
		fputc('}', f);
	} else {
		fputs("null", f);
	}
	msl_json_opt_u64(f, "reclaims", t->snap, row ? msl_counts_reclaims(&row->c) : 0);
	msl_json_opt_u64(f, "skips", t->snap, row ? msl_counts_skips(&row->c) : 0);
	msl_json_opt_u64(f, "reclaimed_bytes", t->snap,
			 row ? msl_page_bytes(msl_counts_reclaimed(&row->c)) : 0);
}

static void fill(struct libscols_line *ln, size_t i, int base,
		 const struct tree *t)
{
	const struct msl_cgnode *n = &t->map->nodes[i];
	const struct msl_firstpass_node *in = &t->fp->node[i];
	struct msl_limit lim = { in->level.src, in->level.soft_limit * t->ps };
	bool root = n->depth == 0, memcg = in->has_memcg || root;
	const struct msl_row *row = t->snap ? msl_table_find(t->snap, n->id) :
				    NULL;
	char buf[64];
	size_t c;

	for (c = 0; c < t->cols.n; c++) {
		switch (t->cols.idx[c]) {
		case COL_CGROUP:
			/* Drawn as a tree: the name; --raw: the whole path. */
			msl_scols_set(ln, c, n->depth == base || t->cl->raw ?
				      n->path : strrchr(n->path, '/') + 1,
				      t->cl->json);
			break;
		case COL_ID:
			cell_u64(ln, c, n->id);
			break;
		case COL_USAGE:
			/* (the root's memory.current does not exist on v2) */
			if (memcg && !(root && t->fs->version == 2))
				msl_scols_size(ln, c, in->level.usage * t->ps, t->cl);
			break;
		case COL_SOFT_LIMIT:
			if (!root && in->has_memcg) {
				msl_limit_fmt(&lim, buf, sizeof(buf),
					      t->cl->bytes || t->cl->json);
				scols_line_set_data(ln, c, buf);
			}
			break;
		case COL_LIMIT:
			if (!root && in->has_memcg)
				scols_line_set_data(ln, c, msl_limit_src_name(lim.src));
			break;
		case COL_OVER:
			if (!root && in->has_memcg)
				scols_line_set_data(ln, c, msl_level_over(&t->m->params, &in->level) ? "yes" : "no");
			break;
		case COL_FIRST_PASS:
			if (!memcg) {
				scols_line_set_data(ln, c, "- (no memcg)");
				break;
			}
			first_pass(t, i, buf, sizeof(buf));
			scols_line_set_data(ln, c, buf);
			break;
		case COL_RECLAIM:
			if (t->snap)
				cell_u64(ln, c, row ? msl_counts_reclaims(&row->c) : 0);
			break;
		case COL_SKIP:
			if (t->snap)
				cell_u64(ln, c, row ? msl_counts_skips(&row->c) : 0);
			break;
		case COL_RECLAIMED:
			if (t->snap)
				msl_scols_size(ln, c, row ? msl_page_bytes(msl_counts_reclaimed(&row->c)) : 0,
					       t->cl);
			break;
		}
	}
}

/*
 * The subtree of map index @first as one document: each cgroup with its
 * "children" (depth-first order: a deeper node opens its parent's list,
 * a shallower one closes as many as it climbs).
 */
static void print_tree_json(const struct tree *t, size_t first)
{
	int base = t->map->nodes[first].depth, depth, prev = -1;
	FILE *f = stdout;
	size_t i;

	msl_json_begin(f, "tree");
	msl_json_bool(f, "module_loaded", t->m->loaded);
	msl_json_params(f, &t->m->params, NULL);
	msl_json_bool(f, "counters", t->snap != NULL);
	msl_json_key(f, "cgroups");
	fputc('[', f);
	for (i = first; i < t->map->n; i++) {
		depth = t->map->nodes[i].depth - base;
		if (i > first && depth <= 0)
			break;
		if (depth > prev && prev >= 0)
			fputs(",\"children\":[", f);
		for (; prev > depth; prev--)
			fputs("}]", f);
		if (depth == prev)
			fputs("},", f);
		fputc('\n', f);
		json_node(f, t, i);
		prev = depth;
	}
	for (; prev > 0; prev--)
		fputs("}]", f);
	fputs(prev == 0 ? "}\n]}\n" : "]}\n", f);
}

/* The subtree of map index @first, one libsmartcols line per cgroup. */
static int print_tree(const struct tree *t, size_t first)
{
	struct libscols_line **parents, *ln;
	struct libscols_table *tb;
	int base = t->map->nodes[first].depth, depth;
	size_t i;

	tb = msl_scols_new(t->cl, tree_cols, &t->cols, stdout);
	parents = calloc(t->map->n + 1, sizeof(*parents));
	if (!tb || !parents) {
		scols_unref_table(tb);
		free(parents);
		return -1;
	}
	for (i = first; i < t->map->n; i++) {
		depth = t->map->nodes[i].depth - base;
		if (i > first && depth <= 0)
			break;
		ln = scols_table_new_line(tb, depth > 0 ? parents[depth - 1] :
					  NULL);
		if (!ln)
			break;
		parents[depth] = ln;
		fill(ln, i, base, t);
	}
	scols_print_table(tb);
	scols_unref_table(tb);
	free(parents);
	return 0;
}

/*
 * The decision totals of one snapshot into @snap: NULL when there are
 * none (not asked for, no module, or said why not).
 */
static const struct msl_table *read_counters(const struct msl_cmdline *cl,
					     const struct msl_module *m,
					     const struct msl_cgmap *map,
					     struct msl_table *snap)
{
	struct msl_live live = { 0 };
	const char *why;

	if (cl->no_counters || !m->loaded)
		return NULL;
	if (msl_live_open(&live, map->n, &why) ||
	    msl_live_snapshot(&live, snap, &why)) {
		msl_warn("no decision totals: %s", why);
		msl_live_close(&live);
		return NULL;
	}
	msl_live_close(&live);
	return snap;
}

/* Under the table: what FIRST_PASS was decided with. */
static void print_footer(const struct msl_module *m)
{
	char msg[PATH_MAX * 3];

	if (!m->loaded)
		printf("# %s; FIRST_PASS with the module's default parameters\n",
		       msl_module_absent_why());
	else if (msl_policy_ops(m->params.policy)->weighs_excess)
		printf("# FIRST_PASS under policy %s: a share (N%%) is the part of first-pass steps that reclaim the cgroup (the others skip it, excess_share), its excess over the largest now\n",
		       msl_policy_name(m->params.policy));
	else
		printf("# FIRST_PASS under policy %s, %s\n",
		       msl_policy_name(m->params.policy),
		       msl_params_fmt(&m->params, msg, sizeof(msg)));
}

static int cmd_tree(const struct msl_cmdline *cl)
{
	char msg[PATH_MAX * 3];
	struct msl_v2limits v2 = { 0 };
	struct msl_table snap = { 0 };
	struct msl_cgmap map = { 0 };
	struct msl_firstpass fp = { 0 };
	struct tree t = { .cl = cl };
	struct msl_module m;
	struct msl_target at;
	size_t first = 0;
	int ret;

	ret = msl_cols_from_cmdline(cl, tree_cols, NR_COLS, tree_default_cols,
				    &t.cols);
	if (ret)
		return ret < 0 ? MSL_EXIT_USAGE : MSL_EXIT_OK;
	ret = msl_target_open(&at, cl->nargs ? cl->args[0] : "/", 0);
	if (ret)
		return ret;
	msl_signals_install();
	msl_module_read(&m);
	if (cl->policy >= 0)
		m.params.policy = cl->policy;
	t.ps = (uint64_t)sysconf(_SC_PAGESIZE);
	ret = at.fs.version == 2 && m.loaded ? msl_v2limits_load(&v2) : 0;
	if (ret)
		msl_warn("cannot read %s (%s): soft limits shown as unset",
			 MSL_CTL_LIMITS, strerror(-ret));
	ret = msl_cgmap_build(&map, &at.fs);
	if (ret) {
		msl_err("cannot walk %s: %s", at.fs.mount, strerror(-ret));
		ret = MSL_EXIT_ERR;
		goto out;
	}
	t.snap = read_counters(cl, &m, &map, &snap);
	/* No totals: no empty columns for them, unless -o asked. */
	if (!t.snap && !cl->output && !cl->wide)
		msl_cols_select(tree_cols, NR_COLS, tree_default_cols_nocounts,
				NULL, &t.cols, msg, sizeof(msg));
	if (msl_firstpass_read(&fp, &at.fs, &map, &v2, &m.params, t.ps)) {
		msl_err("out of memory");
		ret = MSL_EXIT_ERR;
		goto out;
	}
	while (first < map.n && map.nodes[first].id != at.id)
		first++;
	if (first == map.n) {
		msl_err("%s vanished while walking the hierarchy", at.path);
		ret = MSL_EXIT_ERR;
		goto out;
	}
	t.fs = &at.fs;
	t.map = &map;
	t.m = &m;
	t.fp = &fp;
	if (cl->json) {
		print_tree_json(&t, first);
	} else if (print_tree(&t, first)) {
		msl_err("out of memory");
		ret = MSL_EXIT_ERR;
		goto out;
	}
	if (!cl->json && !cl->raw && !cl->noheadings)
		print_footer(&m);
	ret = MSL_EXIT_OK;
out:
	msl_firstpass_free(&fp);
	msl_cgmap_free(&map);
	msl_v2limits_free(&v2);
	msl_table_free(&snap);
	return ret;
}

const struct msl_cmd msl_cmd_tree = {
	.name = "tree", .fn = cmd_tree, .opts = tree_opts, .args = "[PATH]",
	.summary = "the cgroup tree: usage, soft limit, what reclaim would do now",
	.min_args = 0, .max_args = 1,
	.help =
	"The cgroup tree (below PATH, by default all of it) with usage, soft\n"
	"limit, over or under, what the first pass of global reclaim would decide\n"
	"now (the module's policy code, with its parameters), and the decision\n"
	"totals of each cgroup from one snapshot.",
};
