// SPDX-License-Identifier: GPL-2.0
/* set, get, unset: the soft limit of one cgroup, by path. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <memcg_softlimit/control.h>

#include "cgroup.h"
#include "conf.h"
#include "json.h"
#include "module.h"
#include "msl.h"
#include "opts.h"
#include "persist.h"
#include "size.h"
#include "softlimit.h"

static int cmd_set(const struct msl_cmdline *cl)
{
	struct msl_cgfs fs;
	struct msl_change ch;
	int ret;

	if (!strcmp(cl->args[1], "unset"))
		return msl_usage_error(cl->cmd, "SIZE 'unset': use memcg-softlimit unset PATH");
	ret = msl_parse_change(&ch, cl->args[0], cl->args[1], "");
	if (!ret)
		ret = msl_open_fs(&fs);
	if (!ret)
		ret = msl_need_module(&fs);
	if (!ret)
		ret = msl_change_one(&fs, &ch, "", NULL, false, false);
	if (!ret && cl->persist)
		ret = msl_persist_set(&fs, ch.arg, ch.size);
	return ret;
}

static const struct msl_optuse persist_opts[] = {
	{ MSL_OPT_PERSIST, NULL },
	{ MSL_OPT_END, NULL },
};

const struct msl_cmd msl_cmd_set = {
	.name = "set", .fn = cmd_set, .opts = persist_opts, .args = "PATH SIZE",
	.summary = "set the soft limit of a cgroup",
	.min_args = 2, .max_args = 2,
	.help =
	"Set the soft limit of a cgroup: SIZE in bytes with an optional K, M, G,\n"
	"T or Ki, Mi, Gi, Ti (powers of 1024; less than a page is refused: it\n"
	"would be 0 pages, always over), or max (infinity: never over, skipped\n"
	"while any other cgroup can give reclaim what it asks for).\n"
	"cgroup v1: memory.soft_limit_in_bytes, until reboot; cgroup v2: the\n"
	"module, until it is unloaded or the machine reboots.  --persist also\n"
	"writes it to " MSL_CONF_DIR "/set-<path>.conf, which apply\n"
	"reads at each load of the module.",
};

static int cmd_unset(const struct msl_cmdline *cl)
{
	struct msl_cgfs fs;
	struct msl_change ch;
	int ret;

	msl_parse_change(&ch, cl->args[0], "unset", "");
	ret = msl_open_fs(&fs);
	if (!ret)
		ret = msl_need_module(&fs);
	if (!ret)
		ret = msl_change_one(&fs, &ch, "", NULL, false, false);
	if (!ret && cl->persist)
		ret = msl_persist_unset(&fs, ch.arg);
	return ret;
}

const struct msl_cmd msl_cmd_unset = {
	.name = "unset", .fn = cmd_unset, .opts = persist_opts, .args = "PATH",
	.summary = "remove the soft limit of a cgroup",
	.min_args = 1, .max_args = 1,
	.help =
	"Remove the soft limit of a cgroup (what unset means: module parameter\n"
	"unset, inherit by default); --persist also removes the file that set\n"
	"--persist wrote for it.",
};

static const struct msl_optuse get_opts[] = {
	{ MSL_OPT_BYTES, NULL },
	{ MSL_OPT_JSON, NULL },
	{ MSL_OPT_END, NULL },
};

static int cmd_get(const struct msl_cmdline *cl)
{
	struct msl_v2limits v2 = { 0 };
	char buf[MSL_SIZE_BUF];
	struct msl_target t;
	struct msl_limit lim;
	int ret;

	ret = msl_target_open(&t, cl->args[0], MSL_CG_NOT_ROOT);
	if (ret)
		return ret;
	if (t.fs.version == 2) {
		ret = msl_need_module(&t.fs);
		if (ret)
			return ret;
		ret = msl_v2limits_load(&v2);
		if (ret) {
			msl_err("cannot read %s: %s", MSL_CTL_LIMITS,
				ret == -EACCES || ret == -EPERM ?
				"permission denied: run as root" : strerror(-ret));
			return MSL_EXIT_ERR;
		}
	}
	ret = msl_limit_get(&t.fs, t.path, &v2, &lim);
	msl_v2limits_free(&v2);
	if (ret) {
		msl_err("cannot read the soft limit of %s: %s", t.path,
			strerror(-ret));
		return MSL_EXIT_ERR;
	}
	msl_limit_fmt(&lim, buf, sizeof(buf), cl->bytes || cl->json);
	if (!cl->json) {
		printf("%s\n", buf);
		return 0;
	}
	msl_json_begin(stdout, "get");
	msl_json_path(stdout, "path", t.path);
	msl_json_u64(stdout, "id", t.id);
	msl_json_limit(stdout, &lim);
	fputs("}\n", stdout);
	return 0;
}

const struct msl_cmd msl_cmd_get = {
	.name = "get", .fn = cmd_get, .opts = get_opts, .args = "PATH",
	.summary = "print the soft limit of a cgroup",
	.min_args = 1, .max_args = 1,
	.help = "Print the soft limit of a cgroup: a size, max, or unset.",
};
