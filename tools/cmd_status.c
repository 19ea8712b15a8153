// SPDX-License-Identifier: GPL-2.0
/*
 * status: the module (or precisely why it is absent), its parameters,
 * gate and hooks, the kernel, LRU and cgroup version; "key: value" lines
 * or one JSON object.  The module says what it hooked and whether it
 * gates in MSL_CTL_STATUS; a module without that file, through debugfs'
 * kprobes/list (which does not name a probe's owner).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <linux/kernel.h>
#include <memcg_softlimit/control.h>
#include <memcg_softlimit/policy.h>

#include "absence.h"
#include "cgmap.h"
#include "cgroup.h"
#include "json.h"
#include "module.h"
#include "msl.h"
#include "opts.h"
#include "softlimit.h"

#define KPROBES_LIST	"/sys/kernel/debug/kprobes/list"
#define LRU_GEN		"/sys/kernel/mm/lru_gen/enabled"

static const char *const hook_syms[] = {
	"shrink_node", "shrink_lruvec", "try_to_shrink_lruvec",
	"mem_cgroup_soft_limit_reclaim",
};
#define NR_HOOKS ARRAY_SIZE(hook_syms)

/* 1 registered, 0 not, -1 unknown; per hook_syms. */
static int read_kprobes(int state[NR_HOOKS])
{
	char *text = msl_read_all(KPROBES_LIST, NULL), *line, *save, *sym;
	size_t i;

	for (i = 0; i < NR_HOOKS; i++)
		state[i] = text ? 0 : -1;
	if (!text)
		return -errno;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char addr[32], type[4], where[256];

		if (sscanf(line, "%31s %3s %255s", addr, type, where) != 3 ||
		    strcmp(type, "k") || strstr(line, "[GONE]") ||
		    strstr(line, "[DISABLED]"))
			continue;
		sym = strtok(where, "+");
		for (i = 0; sym && i < NR_HOOKS; i++)
			if (!strcmp(sym, hook_syms[i]))
				state[i] = 1;
	}
	free(text);
	return 0;
}

/* Is there a function of this name in the running kernel? */
static int kallsyms_has(const char *name)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], sym[256], type;
	unsigned long long addr;
	int found = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &addr, &type, sym) == 3 &&
		    (type == 't' || type == 'T') && !strcmp(sym, name)) {
			found = 1;
			break;
		}
	fclose(f);
	return found;
}

static int count_v1_limits(const struct msl_cgfs *fs)
{
	struct msl_cgmap map = { 0 };
	struct msl_limit lim;
	size_t i;
	int n = 0;

	if (msl_cgmap_build(&map, fs))
		return -1;
	for (i = 1; i < map.n; i++)
		if (!msl_limit_get(fs, map.nodes[i].path, NULL, &lim) &&
		    lim.src == MSL_LIMIT_V1)
			n++;
	msl_cgmap_free(&map);
	return n;
}

/* What each policy does, by the policy's number (a lookup, no branch). */
static const char *const policy_text[MSL_NR_POLICIES] = {
	[MSL_POLICY_V8] = "a gated pass skips cgroups under their soft limit",
	[MSL_POLICY_WALK] = "a gated pass takes, level by level from the top, only the cgroups over their soft limit",
	[MSL_POLICY_EXCESS] = "a gated pass takes the cgroups over their soft limit (or below one that is), each at a share of its steps in proportion to its excess",
};

struct status {
	struct msl_module m;
	struct msl_absence absent;
	bool have_fs;
	struct msl_cgfs fs;
	char kernel[128];
	char lru[64];
	bool mglru_on;
	int mglru_sym;
	char *ctl;			/* MSL_CTL_STATUS, NULL: not there */
	int hooks[NR_HOOKS];		/* without MSL_CTL_STATUS */
	bool hooks_known;
	long limits;			/* -1: unknown */
	char newer_buf[64];
	const char *newer;		/* installed, newer than the loaded one */
};

/* The value of "key: value" in MSL_CTL_STATUS's text, into @buf. */
static const char *ctl_value(const char *ctl, const char *key, char *buf,
			     size_t len)
{
	size_t n = strlen(key);
	const char *p = ctl;

	while (p && *p) {
		if (!strncmp(p, key, n) && p[n] == ':') {
			p += n + 1;
			p += strspn(p, " \t");
			snprintf(buf, len, "%.*s", (int)strcspn(p, "\n"), p);
			return buf;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

static void gather(struct status *st)
{
	struct msl_v2limits v2;
	struct utsname u;

	memset(st, 0, sizeof(*st));
	st->limits = -1;
	msl_module_read(&st->m);
	if (!st->m.loaded)
		msl_absence_probe(&st->absent);
	uname(&u);
	snprintf(st->kernel, sizeof(st->kernel), "%s", u.release);
	st->have_fs = !msl_cgfs_find(&st->fs, NULL);
	if (msl_read_file(LRU_GEN, st->lru, sizeof(st->lru)) >= 0) {
		st->lru[strcspn(st->lru, "\n")] = '\0';
		st->mglru_on = strtoul(st->lru, NULL, 0) & 1;
	}
	st->mglru_sym = kallsyms_has("try_to_shrink_lruvec");
	if (!st->m.loaded)
		goto limits;
	st->newer = msl_newer_installed(st->m.version, st->newer_buf,
					sizeof(st->newer_buf));
	st->ctl = msl_read_all(MSL_CTL_STATUS, NULL);
	if (!st->ctl)
		st->hooks_known = read_kprobes(st->hooks) == 0;
	if (st->have_fs && st->fs.version == 2 && !msl_v2limits_load(&v2)) {
		st->limits = (long)v2.n;
		msl_v2limits_free(&v2);
	}
limits:
	if (st->have_fs && st->fs.version == 1)
		st->limits = count_v1_limits(&st->fs);
}

static const char *reclaim_path(const struct status *st)
{
	return st->mglru_on && st->mglru_sym == 1 ?
	       "try_to_shrink_lruvec (MGLRU's memcg LRU)" : "shrink_lruvec";
}

static void hooks_text(const struct status *st, char *buf, size_t len)
{
	size_t i, o = 0;

	buf[0] = '\0';
	if (st->ctl && ctl_value(st->ctl, "hooks", buf, len))
		return;
	if (!st->hooks_known) {
		snprintf(buf, len, "unknown: %s is not readable (mount -t debugfs none /sys/kernel/debug)",
			 KPROBES_LIST);
		return;
	}
	for (i = 0; i < NR_HOOKS; i++)
		if (st->hooks[i] == 1 && o < len)
			o += snprintf(buf + o, len - o, "%s%s", o ? " " : "",
				      hook_syms[i]);
	if (!o)
		snprintf(buf, len, "none registered (see dmesg)");
}

static void print_text(const struct status *st)
{
	const struct msl_module *m = &st->m;
	char buf[512], t[16];

	if (m->loaded)
		printf("module:      loaded, version %s\n",
		       m->version[0] ? m->version : "?");
	if (st->newer)
		printf("update:      %s %s is installed for this kernel, %s is loaded: modprobe -r %s && modprobe %s (or reboot) loads it\n",
		       MSL_MODULE_NAME, st->newer, m->version, MSL_MODULE_NAME,
		       MSL_MODULE_NAME);
	else
		printf("module:      absent (%s): %s\n",
		       msl_absence_word(st->absent.why), st->absent.text);
	if (m->loaded) {
		if (!m->params.enabled)
			printf("policy:      off (enabled=N): reclaim as stock, decisions still traced\n");
		else
			printf("policy:      %s: %s\n",
			       msl_policy_name(m->params.policy),
			       policy_text[m->params.policy]);
		printf("parameters:  policy=%s %s keep_v1_reclaim=%s%s\n",
		       msl_policy_name(m->params.policy),
		       msl_params_fmt(&m->params, buf, sizeof(buf)),
		       m->keep_v1_reclaim ? "Y" : "N",
		       m->params_read ? "" : " (not all readable)");
		printf("gate:        %s (priority_threshold=%s)\n",
		       st->ctl && ctl_value(st->ctl, "gate", buf, sizeof(buf)) ?
		       buf : msl_gate_name(msl_gate_of(&m->params)),
		       msl_threshold_fmt(m->params.priority_threshold, t,
					 sizeof(t)));
		if (st->ctl && ctl_value(st->ctl, "gating", buf, sizeof(buf)))
			printf("gating:      %s\n", buf);
		hooks_text(st, buf, sizeof(buf));
		printf("hooks:       %s\n", buf);
		if (st->ctl && ctl_value(st->ctl, "rules", buf, sizeof(buf)))
			printf("rules:       %s (%s)\n", buf, MSL_CTL_RULES);
	}
	printf("kernel:      %s\n", st->kernel);
	if (st->have_fs)
		printf("cgroup:      v%d, memory hierarchy at %s\n",
		       st->fs.version, st->fs.mount);
	else
		printf("cgroup:      no memory cgroup hierarchy mounted\n");
	if (st->lru[0])
		printf("lru:         %s (lru_gen/enabled %s)\n",
		       st->mglru_on ? "MGLRU" : "classic", st->lru);
	else
		printf("lru:         classic (no MGLRU in this kernel)\n");
	if (m->loaded)
		printf("reclaim:     global reclaim of a memcg goes through %s%s\n",
		       reclaim_path(st), st->mglru_on && st->mglru_sym == 0 ?
		       " (this kernel's MGLRU runs inside it)" : "");
	if (st->limits >= 0)
		printf("soft limits: %ld set (%s)\n", st->limits,
		       st->fs.version == 1 ? "memory.soft_limit_in_bytes" :
		       MSL_CTL_LIMITS);
}

static void print_json(const struct status *st)
{
	const struct msl_module *m = &st->m;
	char buf[512];
	FILE *f = stdout;

	msl_json_begin(f, "status");
	msl_json_bool(f, "loaded", m->loaded);
	msl_json_str(f, "absent", m->loaded ? NULL :
		     msl_absence_word(st->absent.why));
	msl_json_str(f, "why", m->loaded ? NULL : st->absent.text);
	msl_json_str(f, "kernel_log", m->loaded || !st->absent.detail[0] ?
		     NULL : st->absent.detail);
	msl_json_str(f, "version", m->loaded ? m->version : NULL);
	msl_json_str(f, "installed_version", st->newer);
	if (m->loaded) {
		msl_json_params(f, &m->params, &m->keep_v1_reclaim);
		msl_json_str(f, "gate", st->ctl && ctl_value(st->ctl, "gate", buf, sizeof(buf)) ?
			     buf : msl_gate_name(msl_gate_of(&m->params)));
		msl_json_str(f, "gating", st->ctl ? ctl_value(st->ctl, "gating", buf, sizeof(buf)) : NULL);
		hooks_text(st, buf, sizeof(buf));
		msl_json_str(f, "hooks", buf);
		msl_json_key(f, "rules");
		if (st->ctl && ctl_value(st->ctl, "rules", buf, sizeof(buf)))
			fprintf(f, "%ld", strtol(buf, NULL, 10));
		else
			fputs("null", f);
		msl_json_str(f, "reclaim", reclaim_path(st));
	}
	msl_json_str(f, "kernel", st->kernel);
	msl_json_key(f, "cgroup_version");
	if (st->have_fs)
		fprintf(f, "%d", st->fs.version);
	else
		fputs("null", f);
	msl_json_path(f, "cgroup_mount", st->have_fs ? st->fs.mount : NULL);
	msl_json_str(f, "lru", st->lru[0] && st->mglru_on ? "mglru" : "classic");
	msl_json_key(f, "soft_limits");
	if (st->limits >= 0)
		fprintf(f, "%ld", st->limits);
	else
		fputs("null", f);
	fputs("}\n", f);
}

static const struct msl_optuse status_opts[] = {
	{ MSL_OPT_JSON, "one JSON object" },
	{ MSL_OPT_END, NULL },
};

static int cmd_status(const struct msl_cmdline *cl)
{
	struct status st;

	gather(&st);
	if (cl->json)
		print_json(&st);
	else
		print_text(&st);
	free(st.ctl);
	if (!st.m.loaded) {
		fflush(stdout);
		msl_err("%s", st.absent.text);
		return MSL_EXIT_ERR;
	}
	return MSL_EXIT_OK;
}

const struct msl_cmd msl_cmd_status = {
	.name = "status", .fn = cmd_status, .opts = status_opts, .args = NULL,
	.summary = "the module (or why it is absent), its gate, parameters and hooks",
	.min_args = 0, .max_args = 0,
	.help =
	"The module (loaded, version, policy, parameters, gate, hooks, rules) or\n"
	"precisely why it is absent (not built for this kernel, refused at load\n"
	"with the kernel log's reason, refused for its signature under Secure\n"
	"Boot or lockdown, or not loaded), the kernel, the LRU and the cgroup\n"
	"version.  Exits 1 when the module is absent.",
};
