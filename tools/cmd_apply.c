// SPDX-License-Identifier: GPL-2.0
/*
 * apply [FILE]: soft limits by path pattern, "PATTERN SIZE" lines (a
 * literal path is a pattern too; SIZE may be unset), from FILE or else
 * from the configuration and its drop-ins (conf.c).  Every line is
 * checked here first, with the module's own parsers (ctl_parse.c), and a
 * bad line anywhere changes nothing.  cgroup v2: the whole set goes to
 * the module's rules file in one write, and the module gives each cgroup
 * its limit as the cgroup is created (no daemon).  cgroup v1, or a module
 * without the rules file: the rules are applied to the cgroups that exist
 * now, the first rule that matches each one; later ones get nothing.
 * A rule that matches no cgroup yet is not an error; a rule "unset" leaves
 * the limits of the cgroups it matches as they are (and keeps later rules
 * from them), as the module does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <memcg_softlimit/control.h>

#include "cgmap.h"
#include "cgroup.h"
#include "conf.h"
#include "module.h"
#include "msl.h"
#include "opts.h"
#include "softlimit.h"

/* Each existing cgroup to its first rule: how many each rule has now. */
static int count_matches(const struct msl_cgfs *fs, struct msl_conf *rs)
{
	struct msl_cgmap map = { 0 };
	size_t i;
	int ret = msl_cgmap_build(&map, fs);

	if (ret)
		return ret;
	for (i = 1; i < map.n; i++) {
		struct msl_conf_rule *r = (struct msl_conf_rule *)
			msl_conf_first_match(rs, map.nodes[i].path);

		if (r && msl_cg_has_memcg(fs, map.nodes[i].path))
			r->matched++;
	}
	msl_cgmap_free(&map);
	return 0;
}

static char *rules_text(const struct msl_conf *rs)
{
	char *text = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	for (i = 0; i < rs->n; i++)
		fprintf(f, "%s %s\n", rs->v[i].pattern, rs->v[i].size);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

static void say_matches(const struct msl_conf *rs, const char *then)
{
	size_t i;

	for (i = 0; i < rs->n; i++)
		printf("%s %s: %u cgroup%s now%s\n", rs->v[i].pattern,
		       rs->v[i].size, rs->v[i].matched,
		       rs->v[i].matched == 1 ? "" : "s", then);
}

/* cgroup v2 with a module that keeps rules: one write of the whole set. */
static int load_rules(const struct msl_cgfs *fs, struct msl_conf *rs,
		      bool dry_run)
{
	char *text;
	int ret;

	count_matches(fs, rs);
	if (dry_run) {
		printf("would load %zu rule%s into %s:\n", rs->n,
		       rs->n == 1 ? "" : "s", MSL_CTL_RULES);
		say_matches(rs, ", and each matching cgroup created later");
		return MSL_EXIT_OK;
	}
	text = rules_text(rs);
	if (!text) {
		msl_err("out of memory");
		return MSL_EXIT_ERR;
	}
	/* An empty set is one empty write: it clears the rules. */
	ret = msl_write_file(MSL_CTL_RULES, text);
	free(text);
	if (ret) {
		msl_err("cannot load the rules into %s: %s", MSL_CTL_RULES,
			ret == -EINVAL ? "the module refused them (its reason is in the kernel log: dmesg | grep memcg_softlimit); nothing changed" :
			ret == -EPERM || ret == -EACCES ? "permission denied: run as root" :
			strerror(-ret));
		return MSL_EXIT_ERR;
	}
	printf("loaded %zu rule%s into %s\n", rs->n, rs->n == 1 ? "" : "s",
	       MSL_CTL_RULES);
	say_matches(rs, ", and each matching cgroup created later");
	return MSL_EXIT_OK;
}

/*
 * cgroup v1, or a module without rules: the first rule matching each
 * cgroup that exists now, one change each; literal paths that name no
 * cgroup are said, not failed.
 */
static int apply_now(const struct msl_cgfs *fs, struct msl_conf *rs,
		     bool dry_run)
{
	struct msl_v2limits v2 = { 0 };
	struct msl_cgmap map = { 0 };
	char where[PATH_MAX + 32];
	int failed = 0, applied = 0;
	size_t i;

	if (msl_cgmap_build(&map, fs)) {
		msl_err("cannot walk %s", fs->mount);
		return MSL_EXIT_ERR;
	}
	if (fs->version == 2 && msl_module_loaded())
		msl_v2limits_load(&v2);
	for (i = 1; i < map.n; i++) {
		const char *path = map.nodes[i].path;
		struct msl_conf_rule *r = (struct msl_conf_rule *)
			msl_conf_first_match(rs, path);
		struct msl_change ch;

		if (!r || !msl_cg_has_memcg(fs, path))
			continue;
		r->matched++;
		/* unset: this cgroup's limit is left as it is (rules.c). */
		if (!strcmp(r->size, "unset")) {
			printf("%s: left as it is (unset)\n", path);
			continue;
		}
		snprintf(where, sizeof(where), "%s:%d: ", r->file, r->line);
		if (msl_parse_change(&ch, path, r->size, where) ||
		    msl_change_one(fs, &ch, where, &v2, dry_run, true))
			failed++;
		else
			applied++;
	}
	for (i = 0; i < rs->n; i++)
		if (!rs->v[i].matched)
			printf("%s %s: no such cgroup now (%s)\n",
			       rs->v[i].pattern, rs->v[i].size,
			       fs->version == 1 ?
			       "cgroup v1: a cgroup made later gets no limit until apply runs again" :
			       "this module has no rules file: a cgroup made later gets no limit until apply runs again");
	msl_cgmap_free(&map);
	msl_v2limits_free(&v2);
	if (failed)
		msl_err("%d cgroup%s failed, %d applied", failed,
			failed == 1 ? "" : "s", applied);
	return failed ? MSL_EXIT_ERR : MSL_EXIT_OK;
}

static const struct msl_optuse apply_opts[] = {
	{ MSL_OPT_DRY_RUN, NULL },
	{ MSL_OPT_END, NULL },
};

static int cmd_apply(const struct msl_cmdline *cl)
{
	/* FILE alone; by default the main file, then the drop-ins. */
	const char *file = cl->nargs ? cl->args[0] : MSL_CONF_DEFAULT;
	const char *dir = cl->nargs ? NULL : MSL_CONF_DIR;
	struct msl_conf rs = { 0 };
	struct msl_cgfs fs;
	char **names;
	int bad, ret;
	size_t n;

	ret = msl_open_fs(&fs);
	if (ret)
		return ret;
	/* By default the main file may be missing: the drop-ins are enough. */
	if (dir && access(file, F_OK) && errno == ENOENT) {
		if (msl_conf_dropins(dir, &names, &n) || !n) {
			msl_err("nothing to apply: no %s, no %s/*.conf", file,
				dir);
			return MSL_EXIT_ERR;
		}
		while (n)
			free(names[--n]);
		free(names);
		file = NULL;
	}
	bad = msl_conf_load(&rs, &fs, file, dir);
	if (bad) {
		if (bad > 0)
			msl_err("%d bad line%s: nothing applied", bad,
				bad == 1 ? "" : "s");
		ret = MSL_EXIT_ERR;
		goto out;
	}
	if (rs.n > MSL_MAX_RULES) {
		msl_err("%zu rules, the module takes at most %d: nothing applied",
			rs.n, MSL_MAX_RULES);
		ret = MSL_EXIT_ERR;
		goto out;
	}
	msl_conf_warn(&rs);
	if (!cl->dry_run) {
		ret = msl_need_module(&fs);
		if (ret)
			goto out;
	}
	if (fs.version == 2 && !access(MSL_CTL_RULES, F_OK))
		ret = load_rules(&fs, &rs, cl->dry_run);
	else
		ret = apply_now(&fs, &rs, cl->dry_run);
out:
	msl_conf_free(&rs);
	return ret;
}

const struct msl_cmd msl_cmd_apply = {
	.name = "apply", .fn = cmd_apply, .opts = apply_opts, .args = "[FILE]",
	.summary = "apply a file of \"PATTERN SIZE\" soft-limit rules",
	.min_args = 0, .max_args = 1,
	.help =
	"Apply a file of \"PATTERN SIZE\" lines; by default " MSL_CONF_DEFAULT "\n"
	"then " MSL_CONF_DIR "/*.conf in the order of their names:\n"
	"PATTERN a cgroup path, '*' and '?' within one component, '**' for any\n"
	"number of components (/system.slice/*.service 512M, /kubepods.slice/**\n"
	"max); SIZE as set takes it, or unset (leave them as they are); the first\n"
	"matching line decides; # starts a comment.  A file with a bad line\n"
	"changes nothing.  cgroup v2: the module keeps the rules and gives each\n"
	"new cgroup its limit as it is created; cgroup v1: the cgroups that\n"
	"exist now.",
};
