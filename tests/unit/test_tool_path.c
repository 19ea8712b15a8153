// SPDX-License-Identifier: GPL-2.0
/*
 * Path handling of the tool: finding the memory hierarchy in mountinfo,
 * user paths to cgroup paths, what is refused (and with which exit
 * status), cgroup ids to paths, and the module's listing of limits.  A
 * directory tree under /tmp stands in for the cgroup filesystem.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../tools/cgmap.h"
#include "../../tools/cgroup.h"
#include "../../tools/msl.h"
#include "../../tools/size.h"
#include "../../tools/softlimit.h"
#include "unit.h"

static char tmp[] = "/tmp/msl-unit-path.XXXXXX";

static void put(const char *rel, const char *content)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(content, f);
	fclose(f);
}

/* A directory; a cgroup if it has cgroup.procs, a memcg if memory.current */
static void dir(const char *rel, bool cgroup, bool memcg)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	if (mkdir(path, 0755) && errno != EEXIST) {
		perror(path);
		exit(1);
	}
	if (!cgroup)
		return;
	snprintf(path, sizeof(path), "%s/cgroup.procs", rel);
	put(path, "");
	if (memcg) {
		snprintf(path, sizeof(path), "%s/memory.current", rel);
		put(path, "1048576\n");
	}
}

static uint64_t ino(const char *rel)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	return stat(path, &st) ? 0 : st.st_ino;
}

static void mountinfo_finds_the_memory_hierarchy(void)
{
	struct msl_cgfs fs;
	char mi[PATH_MAX];

	snprintf(mi, sizeof(mi), "%s/mountinfo", tmp);
	put("mountinfo",
	    "22 1 0:21 / /proc rw - proc proc rw\n"
	    "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	    "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	    "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"
	    "35 31 0:32 / /sys/fs/cgroup/mem\\040ory rw,relatime shared:5 - cgroup cgroup rw,nosuid,memory\n");
	CHECK(msl_cgfs_find(&fs, mi) == 0);
	CHECK(fs.version == 1);
	CHECK(!strcmp(fs.mount, "/sys/fs/cgroup/mem ory"));

	put("mountinfo",
	    "22 1 0:21 / /proc rw - proc proc rw\n"
	    "40 23 0:38 /sub /mnt/sub rw - cgroup2 cgroup2 rw\n"
	    "41 23 0:38 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n"
	    "42 23 0:30 / /sys/fs/cgroup/cpuset rw - cgroup cgroup rw,cpuset\n");
	CHECK(msl_cgfs_find(&fs, mi) == 0);
	CHECK(fs.version == 2);
	CHECK(!strcmp(fs.mount, "/sys/fs/cgroup"));

	put("mountinfo", "22 1 0:21 / /proc rw - proc proc rw\n");
	CHECK(msl_cgfs_find(&fs, mi) == -ENOENT);
}

static bool norm(const char *in, const char *want)
{
	struct msl_cgfs fs = { .version = 2, .mount = "/sys/fs/cgroup" };
	char out[PATH_MAX];
	const char *why;

	if (msl_cg_normalize(&fs, in, out, sizeof(out), &why)) {
		if (!want)
			return why != NULL;
		fprintf(stderr, "normalize '%s': %s\n", in, why);
		return false;
	}
	if (!want || strcmp(out, want)) {
		fprintf(stderr, "normalize '%s': got '%s'\n", in, out);
		return false;
	}
	return true;
}

static void user_paths_to_cgroup_paths(void)
{
	char huge[PATH_MAX + 16];

	CHECK(norm("/sys/fs/cgroup/a/b", "/a/b"));
	CHECK(norm("/sys/fs/cgroup", "/"));
	CHECK(norm("/sys/fs/cgroup/", "/"));
	CHECK(norm("/a/b", "/a/b"));
	CHECK(norm("a/b", "/a/b"));
	CHECK(norm("/a//b/", "/a/b"));
	CHECK(norm("/", "/"));
	CHECK(norm("//", "/"));
	CHECK(norm("/workload.slice/db.service", "/workload.slice/db.service"));
	CHECK(norm("/with space/x", "/with space/x"));
	CHECK(norm("/caf\xc3\xa9", "/caf\xc3\xa9"));
	CHECK(norm("/odd\xff", "/odd\xff"));	/* bytes are bytes */
	/* Only the mount point itself is stripped, not a longer name. */
	CHECK(norm("/sys/fs/cgroupx/a", "/sys/fs/cgroupx/a"));
	CHECK(norm("/a/..b", "/a/..b"));
	CHECK(norm("", NULL));
	CHECK(norm("/a/../b", NULL));
	CHECK(norm("/a/./b", NULL));
	CHECK(norm("..", NULL));
	CHECK(norm("/sys/fs/cgroup/..", NULL));
	CHECK(norm("/a\nb", NULL));
	CHECK(norm("/a\tb", NULL));
	CHECK(norm("/a\x7f", NULL));
	memset(huge, 'a', sizeof(huge) - 1);
	huge[0] = '/';
	huge[sizeof(huge) - 1] = '\0';
	CHECK(norm(huge, NULL));
}

static int resolve(const char *arg, unsigned flags, char *msg, size_t len,
		   uint64_t *id)
{
	struct msl_cgfs fs = { .version = 2 };
	char cgpath[PATH_MAX];

	snprintf(fs.mount, sizeof(fs.mount), "%s", tmp);
	*id = 0;
	return msl_cg_resolve(&fs, arg, flags, cgpath, sizeof(cgpath), id,
			      msg, len);
}

static void refusals_and_exit_status(void)
{
	const unsigned set = MSL_CG_NOT_ROOT | MSL_CG_MEMCG;
	char msg[PATH_MAX * 3], full[PATH_MAX];
	uint64_t id;

	CHECK(resolve("/A", set, msg, sizeof(msg), &id) == 0);
	CHECK(id == ino("A") && id != 0);
	snprintf(full, sizeof(full), "%s/A/A1", tmp);
	CHECK(resolve(full, set, msg, sizeof(msg), &id) == 0);
	CHECK(id == ino("A/A1"));
	CHECK(resolve("A/A1/", set, msg, sizeof(msg), &id) == 0);

	CHECK(resolve("/", set, msg, sizeof(msg), &id) == MSL_EXIT_USAGE);
	CHECK(strstr(msg, "root cgroup") != NULL);
	CHECK(resolve(tmp, set, msg, sizeof(msg), &id) == MSL_EXIT_USAGE);
	CHECK(resolve("/", 0, msg, sizeof(msg), &id) == 0);
	CHECK(id == ino(""));

	CHECK(resolve("/nope", set, msg, sizeof(msg), &id) == MSL_EXIT_ERR);
	CHECK(strstr(msg, "no such cgroup: /nope") != NULL);
	CHECK(resolve("/A/../A", set, msg, sizeof(msg), &id) == MSL_EXIT_USAGE);
	CHECK(strstr(msg, "bad cgroup path") != NULL);
	/* The message itself never carries a raw control character. */
	CHECK(resolve("/A\n\x1b", set, msg, sizeof(msg), &id) == MSL_EXIT_USAGE);
	CHECK(strstr(msg, "'/A\\x0a\\x1b'") != NULL);
	/* A file, a plain directory: not cgroups. */
	CHECK(resolve("/A/memory.current", set, msg, sizeof(msg), &id) ==
	      MSL_EXIT_ERR);
	CHECK(strstr(msg, "not a cgroup") != NULL);
	CHECK(resolve("/plain", set, msg, sizeof(msg), &id) == MSL_EXIT_ERR);
	CHECK(strstr(msg, "not a cgroup") != NULL);
	/* No memcg of its own: says how to give it one. */
	CHECK(resolve("/A/nomem", set, msg, sizeof(msg), &id) == MSL_EXIT_ERR);
	CHECK(strstr(msg, "no memory controller") != NULL);
	CHECK(strstr(msg, "/A/cgroup.subtree_control") != NULL);
	CHECK(resolve("/A/nomem", MSL_CG_NOT_ROOT, msg, sizeof(msg), &id) == 0);
}

static void ids_resolve_to_paths(void)
{
	struct msl_cgfs fs = { .version = 2 };
	struct msl_cgmap m = { 0 };
	size_t i;

	snprintf(fs.mount, sizeof(fs.mount), "%s", tmp);
	CHECK(msl_cgmap_build(&m, &fs) == 0);
	CHECK(msl_cgmap_path(&m, ino("")) && !strcmp(msl_cgmap_path(&m, ino("")), "/"));
	CHECK(msl_cgmap_path(&m, ino("A/A1")) &&
	      !strcmp(msl_cgmap_path(&m, ino("A/A1")), "/A/A1"));
	CHECK(msl_cgmap_path(&m, ino("B \"q\"")) &&
	      !strcmp(msl_cgmap_path(&m, ino("B \"q\"")), "/B \"q\""));
	CHECK(msl_cgmap_path(&m, 0) == NULL);
	CHECK(msl_cgmap_path(&m, 987654321987ULL) == NULL);	/* "(removed)" */
	/* Depth first, children by name, the last child marked. */
	CHECK(m.n >= 6);
	CHECK(!strcmp(m.nodes[0].path, "/") && m.nodes[0].depth == 0);
	CHECK(!strcmp(m.nodes[1].path, "/A") && m.nodes[1].depth == 1);
	CHECK(!strcmp(m.nodes[2].path, "/A/A1") && m.nodes[2].depth == 2);
	CHECK(!m.nodes[2].last);
	for (i = 0; i < m.n; i++)
		if (!strcmp(m.nodes[i].path, "/plain"))
			CHECK(m.nodes[i].last);
	msl_cgmap_free(&m);
}

static void module_listing_of_limits(void)
{
	struct msl_v2limits l;
	struct msl_limit lim;
	char buf[MSL_SIZE_BUF];

	CHECK(msl_v2limits_parse(&l, "12 104857600 /P/C\n13 max /Q\n14 4096 /with space\n15 0 (removed)\n") == 0);
	CHECK(l.n == 4);
	CHECK(msl_v2limits_find(&l, 12, &lim) && lim.src == MSL_LIMIT_SET &&
	      lim.bytes == 104857600);
	msl_limit_fmt(&lim, buf, sizeof(buf), false);
	CHECK(!strcmp(buf, "100M"));
	msl_limit_fmt(&lim, buf, sizeof(buf), true);
	CHECK(!strcmp(buf, "104857600"));
	CHECK(msl_v2limits_find(&l, 13, &lim) && lim.src == MSL_LIMIT_MAX);
	msl_limit_fmt(&lim, buf, sizeof(buf), true);
	CHECK(!strcmp(buf, "max"));
	CHECK(msl_v2limits_find(&l, 14, &lim) && lim.bytes == 4096);
	CHECK(!msl_v2limits_find(&l, 99, &lim) && lim.src == MSL_LIMIT_UNSET);
	msl_limit_fmt(&lim, buf, sizeof(buf), false);
	CHECK(!strcmp(buf, "unset"));
	msl_v2limits_free(&l);
	CHECK(msl_v2limits_parse(&l, "") == 0 && l.n == 0);
	CHECK(msl_v2limits_parse(&l, "x 1 /a\n") == -1);
	CHECK(msl_v2limits_parse(&l, "12 lots /a\n") == -1);
	CHECK(msl_v2limits_parse(&l, "12\n") == -1);
}

static void v1_values(void)
{
	struct msl_limit lim = { MSL_LIMIT_V1, 0 };
	char buf[MSL_SIZE_BUF];
	long ps = sysconf(_SC_PAGESIZE);

	/* PAGE_COUNTER_MAX pages: what v1 reads back when unset. */
	CHECK(msl_v1_unset_bytes() == (uint64_t)(INT64_MAX / ps) * (uint64_t)ps);
	lim.bytes = msl_v1_unset_bytes() - (uint64_t)ps;
	msl_limit_fmt(&lim, buf, sizeof(buf), true);
	CHECK(!strcmp(buf, "max"));
	lim.bytes = 1ULL << 30;
	msl_limit_fmt(&lim, buf, sizeof(buf), false);
	CHECK(!strcmp(buf, "1G"));
}

int main(void)
{
	char cmd[PATH_MAX + 16];

	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	dir("A", true, true);
	dir("A/A1", true, true);
	dir("A/A2", true, true);
	dir("A/nomem", true, false);
	dir("B \"q\"", true, true);
	dir("plain", false, false);
	put("cgroup.procs", "");

	RUN("tool_path", mountinfo_finds_the_memory_hierarchy);
	RUN("tool_path", user_paths_to_cgroup_paths);
	RUN("tool_path", refusals_and_exit_status);
	RUN("tool_path", ids_resolve_to_paths);
	RUN("tool_path", module_listing_of_limits);
	RUN("tool_path", v1_values);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	return system(cmd) ? 1 : 0;
}
