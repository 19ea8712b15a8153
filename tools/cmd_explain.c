// SPDX-License-Identifier: GPL-2.0
/*
 * explain PATH: the chain of the cgroup and its ancestors as the module
 * would read it now (usage, soft limit), run through the module's policy
 * at every priority with the module's current parameters.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msl.h"

static int parse_kind(const char *s, enum msl_kind *kind)
{
	int k;

	for (k = 0; k < MSL_NR_KINDS; k++)
		if (!strcmp(s, msl_kind_name(k))) {
			*kind = k;
			return 0;
		}
	return -EINVAL;
}

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

int cmd_explain(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "kind", required_argument, NULL, 'k' },
		{ "policy", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' }, { 0 } };
	char cgpath[PATH_MAX], msg[PATH_MAX * 3], *paths[MSL_EXPLAIN_MAX_LEVELS];
	static char max_path[PATH_MAX];
	struct msl_explain_row rows[MSL_DEF_PRIORITY + 1];
	enum msl_kind kind = MSL_KIND_KSWAPD;
	int policy = -1;
	struct msl_v2limits v2 = { 0 };
	uint64_t id, ps, usage;
	static struct msl_chain chain;
	struct msl_limit lim;
	struct msl_module m;
	struct msl_cgfs fs;
	char *p, *slash;
	unsigned int i;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+k:p:h", opts, NULL)) != -1) {
		if (c == 'p') {
			policy = msl_policy_parse(optarg);
			if (policy < 0) {
				msl_err("bad policy '%s': v8, walk or excess",
					optarg);
				return MSL_EXIT_USAGE;
			}
		} else if (c == 'k') {
			if (parse_kind(optarg, &kind)) {
				msl_err("bad kind '%s': kswapd, direct, proactive or targeted",
					optarg);
				return MSL_EXIT_USAGE;
			}
		} else {
			return msl_usage("explain", c != 'h');
		}
	}
	if (argc - optind != 1)
		return msl_usage("explain", true);
	ret = msl_open_fs(&fs);
	if (ret)
		return ret;
	ret = msl_cg_resolve(&fs, argv[optind], MSL_CG_MEMCG, cgpath,
			     sizeof(cgpath), &id, msg, sizeof(msg));
	if (ret) {
		msl_err("%s", msg);
		return ret;
	}
	msl_module_read(&m);
	if (policy >= 0)
		m.params.policy = policy;
	ret = fs.version == 2 && m.loaded ? msl_v2limits_load(&v2) : 0;
	if (ret) {
		msl_err("cannot read %s: %s", MSL_CTL_LIMITS,
			ret == -EACCES || ret == -EPERM ?
			"permission denied: run as root" : strerror(-ret));
		return MSL_EXIT_ERR;
	}
	ps = (uint64_t)sysconf(_SC_PAGESIZE);

	memset(&chain, 0, sizeof(chain));
	chain.is_root = !strcmp(cgpath, "/");
	p = strdup(cgpath);
	if (!p) {
		msl_err("out of memory");
		return MSL_EXIT_ERR;
	}
	/* The cgroup, then each ancestor, up to (not including) the root. */
	while (strcmp(p, "/") && chain.n < MSL_EXPLAIN_MAX_LEVELS) {
		struct msl_level *l = &chain.level[chain.n];

		if (msl_cg_id(&fs, p, &l->cgroup_id) ||
		    msl_cg_usage(&fs, p, &usage) ||
		    msl_limit_get(&fs, p, &v2, &lim)) {
			msl_err("cannot read %s (removed meanwhile?)", p);
			ret = MSL_EXIT_ERR;
			goto out;
		}
		l->usage = usage / ps;
		l->src = lim.src;
		l->soft_limit = lim.bytes / ps;
		l->sibling_over = m.params.policy == MSL_POLICY_WALK &&
				  sibling_over(&fs, p, &v2, &m.params, ps);
		paths[chain.n] = strdup(p);
		chain.path[chain.n] = paths[chain.n];
		chain.n++;
		slash = strrchr(p, '/');
		if (slash == p)
			p[1] = '\0';
		else
			*slash = '\0';
	}
	if (m.params.policy == MSL_POLICY_EXCESS) {
		chain.excess_max = largest_excess(&fs, &v2, &m.params, ps,
						  max_path, sizeof(max_path));
		chain.excess_max_path = max_path;
	}
	msl_explain(&m.params, kind, &chain, rows);
	printf("cgroup %s (id %llu), cgroup v%d, ", cgpath,
	       (unsigned long long)id, fs.version);
	if (m.loaded)
		printf("module %s loaded\n", m.version[0] ? m.version : "");
	else
		printf("%s (showing its defaults)\n", MSL_NOT_LOADED);
	msl_explain_print(stdout, &m.params, kind, &chain, rows,
			  mglru_enabled(), ps);
	ret = MSL_EXIT_OK;
out:
	for (i = 0; i < chain.n; i++)
		free(paths[i]);
	free(p);
	msl_v2limits_free(&v2);
	return ret;
}
