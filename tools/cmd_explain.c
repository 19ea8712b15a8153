// SPDX-License-Identifier: GPL-2.0
/*
 * explain PATH: the chain of the cgroup and its ancestors as the module
 * would read it now (usage, soft limit), run through the module's policy
 * at every priority with the module's current parameters.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <memcg_softlimit/control.h>
#include <memcg_softlimit/policy.h>

#include "absence.h"
#include "answer.h"
#include "cgmap.h"
#include "cgroup.h"
#include "explain.h"
#include "explain_json.h"
#include "module.h"
#include "msl.h"
#include "opts.h"
#include "softlimit.h"

static bool mglru_enabled(void)
{
	char buf[32];

	if (msl_read_file("/sys/kernel/mm/lru_gen/enabled", buf, sizeof(buf)) < 0)
		return false;
	return strtoul(buf, NULL, 0) & 1;
}

/*
 * walk: is a child of @cgpath's parent, other than @cgpath, over its soft
 * limit?  The module asks the same of the memory controller's children;
 * a v2 cgroup without a memcg of its own is not one of them.
 */
static bool sibling_over(const struct msl_cgfs *fs, const char *cgpath,
			 const struct msl_v2limits *v2,
			 const struct msl_params *params, uint64_t ps)
{
	char parent[PATH_MAX], dir[PATH_MAX * 2], child[PATH_MAX];
	const char *slash = strrchr(cgpath, '/');
	struct msl_level l = { 0 };
	struct msl_limit lim;
	struct dirent *de;
	bool over = false;
	uint64_t usage;
	DIR *d;

	if (!slash || slash == cgpath)
		snprintf(parent, sizeof(parent), "/");
	else
		snprintf(parent, sizeof(parent), "%.*s", (int)(slash - cgpath),
			 cgpath);
	msl_cg_fspath(fs, parent, dir, sizeof(dir));
	d = opendir(dir);
	if (!d)
		return false;
	while (!over && (de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		if (snprintf(child, sizeof(child), "%s/%s",
			     strcmp(parent, "/") ? parent : "", de->d_name) >=
		    (int)sizeof(child))
			continue;
		if (!strcmp(child, cgpath) || !msl_cg_has_memcg(fs, child) ||
		    msl_cg_usage(fs, child, &usage) ||
		    msl_limit_get(fs, child, v2, &lim))
			continue;
		l.usage = usage / ps;
		l.src = lim.src;
		l.soft_limit = lim.bytes / ps;
		over = msl_level_over(params, &l);
	}
	closedir(d);
	return over;
}

/*
 * excess: the largest excess over a soft limit of any cgroup with a memcg
 * of its own, the root excepted, now; its path into @path.  With the
 * policy's rule (the largest excess along a path) this is the largest
 * excess any memcg is reclaimed for, which the module's converges to.
 */
static uint64_t largest_excess(const struct msl_cgfs *fs,
			       const struct msl_v2limits *v2,
			       const struct msl_params *params, uint64_t ps,
			       char *path, size_t len)
{
	struct msl_cgmap map = { 0 };
	struct msl_level l = { 0 };
	struct msl_limit lim;
	uint64_t usage, e, max = 0;
	size_t i;

	path[0] = '\0';
	if (msl_cgmap_build(&map, fs))
		return 0;
	for (i = 0; i < map.n; i++) {
		const struct msl_cgnode *n = &map.nodes[i];

		if (!n->depth || !msl_cg_has_memcg(fs, n->path) ||
		    msl_cg_usage(fs, n->path, &usage) ||
		    msl_limit_get(fs, n->path, v2, &lim))
			continue;
		l.usage = usage / ps;
		l.src = lim.src;
		l.soft_limit = lim.bytes / ps;
		e = msl_level_excess(params, &l);
		if (e > max) {
			max = e;
			snprintf(path, len, "%s", n->path);
		}
	}
	msl_cgmap_free(&map);
	return max;
}

/* The chain's paths, each its own allocation (chain.path points there). */
static void free_paths(struct msl_chain *chain)
{
	unsigned int i;

	for (i = 0; i < chain->n; i++)
		free((char *)chain->path[i]);
	chain->n = 0;
}

/*
 * The cgroup, then each ancestor, up to (not including) the root: 0, or
 * an exit status with why said.
 */
static int read_chain(const struct msl_cgfs *fs, const char *cgpath,
		      const struct msl_v2limits *v2,
		      const struct msl_params *params, uint64_t ps,
		      struct msl_chain *chain)
{
	bool siblings = msl_policy_ops(params->policy)->reads_siblings;
	char p[PATH_MAX], *slash;
	struct msl_limit lim;
	uint64_t usage;

	snprintf(p, sizeof(p), "%s", cgpath);
	while (strcmp(p, "/") && chain->n < MSL_EXPLAIN_MAX_LEVELS) {
		struct msl_level *l = &chain->level[chain->n];
		char *copy;

		if (msl_cg_id(fs, p, &l->cgroup_id) ||
		    msl_cg_usage(fs, p, &usage) ||
		    msl_limit_get(fs, p, v2, &lim)) {
			msl_err("cannot read %s (removed meanwhile?)", p);
			return MSL_EXIT_ERR;
		}
		copy = strdup(p);
		if (!copy) {
			msl_err("out of memory");
			return MSL_EXIT_ERR;
		}
		l->usage = usage / ps;
		l->src = lim.src;
		l->soft_limit = lim.bytes / ps;
		l->sibling_over = siblings &&
				  sibling_over(fs, p, v2, params, ps);
		chain->path[chain->n++] = copy;
		slash = strrchr(p, '/');
		if (slash == p)
			p[1] = '\0';
		else
			*slash = '\0';
	}
	return 0;
}

static const struct msl_optuse explain_opts[] = {
	{ MSL_OPT_KIND, NULL },
	{ MSL_OPT_POLICY, NULL },
	{ MSL_OPT_JSON, "JSON: the chain and the decision at each priority" },
	{ MSL_OPT_NO_COUNTERS, "no counters (they take a snapshot, which every recording of the module's events sees)" },
	{ MSL_OPT_END, NULL },
};

static int cmd_explain(const struct msl_cmdline *cl)
{
	static char max_path[PATH_MAX];
	struct msl_explain_row rows[MSL_DEF_PRIORITY + 1];
	struct msl_v2limits v2 = { 0 };
	static struct msl_chain chain;
	static struct msl_answer answer;
	struct msl_module m;
	struct msl_target t;
	uint64_t ps;
	int ret;

	ret = msl_target_open(&t, cl->args[0], MSL_CG_MEMCG);
	if (ret)
		return ret;
	msl_module_read(&m);
	if (cl->policy >= 0)
		m.params.policy = cl->policy;
	ret = t.fs.version == 2 && m.loaded ? msl_v2limits_load(&v2) : 0;
	if (ret) {
		msl_err("cannot read %s: %s", MSL_CTL_LIMITS,
			ret == -EACCES || ret == -EPERM ?
			"permission denied: run as root" : strerror(-ret));
		return MSL_EXIT_ERR;
	}
	ps = (uint64_t)sysconf(_SC_PAGESIZE);

	memset(&chain, 0, sizeof(chain));
	chain.is_root = !strcmp(t.path, "/");
	ret = read_chain(&t.fs, t.path, &v2, &m.params, ps, &chain);
	if (ret)
		goto out;
	if (msl_policy_ops(m.params.policy)->weighs_excess) {
		chain.excess_max = largest_excess(&t.fs, &v2, &m.params, ps,
						  max_path, sizeof(max_path));
		chain.excess_max_path = max_path;
	}
	msl_explain(&m.params, cl->kind, &chain, rows);
	memset(&answer, 0, sizeof(answer));
	msl_answer_verdict(&m.params, &chain, rows, ps, answer.verdict,
			   sizeof(answer.verdict));
	msl_answer_gather(&t.fs, t.path, t.id, &chain, !cl->no_counters, &answer);
	if (cl->json) {
		msl_explain_json(stdout, t.path, t.id, t.fs.version, &m,
				 cl->kind, &chain, rows, ps, &answer);
		goto out;
	}
	printf("cgroup %s (id %llu), cgroup v%d, ", t.path,
	       (unsigned long long)t.id, t.fs.version);
	if (m.loaded)
		printf("module %s loaded\n", m.version[0] ? m.version : "");
	else
		printf("%s (showing its defaults)\n", msl_module_absent_why());
	msl_answer_print(stdout, &answer, &chain, ps);
	msl_explain_print(stdout, &m.params, cl->kind, &chain, rows,
			  mglru_enabled(), ps);
out:
	free_paths(&chain);
	msl_v2limits_free(&v2);
	return ret;
}

const struct msl_cmd msl_cmd_explain = {
	.name = "explain", .fn = cmd_explain, .opts = explain_opts,
	.summary = "why reclaim would skip or reclaim one cgroup now",
	.args = "PATH", .min_args = 1, .max_args = 1,
	.help =
	"Why global reclaim would skip or reclaim this cgroup now: a verdict with\n"
	"its headroom and its ancestors', where its soft limit comes from (a\n"
	"line of the configuration, set by hand, v1), its counters by reason\n"
	"(root, module loaded), memory.min, memory.low and its memory pressure;\n"
	"then, at each priority from 12 to 0, the rule that decides, computed\n"
	"by the module's own policy code with its current parameters (its\n"
	"defaults when it is not loaded).  -p explains under that policy\n"
	"instead: walk also reads the siblings of each level, excess the whole\n"
	"hierarchy for the largest excess.",
};
