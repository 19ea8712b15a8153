// SPDX-License-Identifier: GPL-2.0
/*
 * status: the module, its parameters and hooks, the kernel, LRU and cgroup
 * version.  Which hooks are registered comes from debugfs' kprobes/list
 * (the module does not say); which one reclaim goes through now follows
 * from lru_gen and the kernel's symbols.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "msl.h"

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

int cmd_status(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' }, { 0 } };
	struct msl_v2limits v2;
	struct msl_module m;
	struct msl_cgfs fs;
	struct utsname u;
	char lru[64] = "";
	int state[NR_HOOKS], c, have_fs, mglru_sym, n;
	bool mglru_on = false;
	size_t i;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1)
		return msl_usage("status", c != 'h');
	if (argc != optind)
		return msl_usage("status", true);

	msl_module_read(&m);
	uname(&u);
	have_fs = !msl_cgfs_find(&fs, NULL);
	if (msl_read_file(LRU_GEN, lru, sizeof(lru)) >= 0) {
		lru[strcspn(lru, "\n")] = '\0';
		mglru_on = strtoul(lru, NULL, 0) & 1;
	}
	mglru_sym = kallsyms_has("try_to_shrink_lruvec");

	if (m.loaded)
		printf("module:      loaded, version %s\n",
		       m.version[0] ? m.version : "?");
	else
		printf("module:      not loaded: run modprobe memcg_softlimit\n");
	if (m.loaded) {
		if (!m.params.enabled)
			printf("policy:      off (enabled=N): reclaim as stock, decisions still traced\n");
		else if (m.params.policy == MSL_POLICY_WALK)
			printf("policy:      walk: the first reclaim pass takes, level by level from the top, only the cgroups over their soft limit\n");
		else if (m.params.policy == MSL_POLICY_EXCESS)
			printf("policy:      excess: the first reclaim pass takes the cgroups over their soft limit (or below one that is), each at a share of its steps in proportion to its excess; the largest excess at every step\n");
		else
			printf("policy:      v8: the first reclaim pass skips cgroups under their soft limit\n");
		printf("parameters:  enabled=%s policy=%s priority_threshold=%d unset_eligible=%s keep_v1_reclaim=%s%s\n",
		       m.params.enabled ? "Y" : "N",
		       msl_policy_name(m.params.policy),
		       m.params.priority_threshold,
		       m.params.unset_eligible ? "Y" : "N",
		       m.keep_v1_reclaim ? "Y" : "N",
		       m.params_read ? "" : " (not all readable)");
	}
	printf("kernel:      %s\n", u.release);
	if (have_fs)
		printf("cgroup:      v%d, memory hierarchy at %s\n", fs.version,
		       fs.mount);
	else
		printf("cgroup:      no memory cgroup hierarchy mounted\n");
	if (lru[0])
		printf("lru:         %s (lru_gen/enabled %s)\n",
		       mglru_on ? "MGLRU" : "classic", lru);
	else
		printf("lru:         classic (no MGLRU in this kernel)\n");

	if (m.loaded) {
		const char *now = mglru_on && mglru_sym == 1 ?
			"try_to_shrink_lruvec (MGLRU's memcg LRU)" :
			"shrink_lruvec";

		if (read_kprobes(state) < 0) {
			printf("hooks:       unknown: %s is not readable (mount -t debugfs none /sys/kernel/debug)\n",
			       KPROBES_LIST);
		} else {
			printf("hooks:      ");
			for (i = 0, n = 0; i < NR_HOOKS; i++)
				if (state[i] == 1)
					printf("%s %s", n++ ? "," : "",
					       hook_syms[i]);
			printf("%s\n", n ? "" : " none registered");
			if (state[1] != 1 || state[0] != 1)
				printf("             (shrink_node and shrink_lruvec should be hooked: see dmesg)\n");
		}
		printf("reclaim:     global reclaim of a memcg goes through %s%s\n",
		       now, mglru_on && mglru_sym == 0 ?
		       " (this kernel's MGLRU runs inside it)" : "");
		if (have_fs && fs.version == 2) {
			n = msl_v2limits_load(&v2);
			if (!n) {
				printf("soft limits: %zu set (%s)\n", v2.n,
				       MSL_CTL_LIMITS);
				msl_v2limits_free(&v2);
			} else {
				printf("soft limits: %s: %s\n", MSL_CTL_LIMITS,
				       strerror(-n));
			}
		}
	}
	if (have_fs && fs.version == 1) {
		n = count_v1_limits(&fs);
		if (n >= 0)
			printf("soft limits: %d set (memory.soft_limit_in_bytes)\n",
			       n);
	}
	if (!m.loaded) {
		msl_err(MSL_NOT_LOADED);
		return MSL_EXIT_ERR;
	}
	return MSL_EXIT_OK;
}
