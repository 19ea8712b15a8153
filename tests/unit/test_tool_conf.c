// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of tools/conf.c: the main file, then the drop-ins in the
 * order of their names; rules that never decide; immune subtrees; the
 * file names of set --persist.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../tools/conf.h"
#include "unit.h"

static char dir[64], drop[96];

static void put(const char *name, const char *text)
{
	char path[160];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", name[0] == '/' ? "" : drop,
		 name[0] == '/' ? name + 1 : name);
	f = fopen(name[0] == '/' ? name : path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/msl-conf-XXXXXX");
	CHECK(mkdtemp(dir) != NULL);
	snprintf(drop, sizeof(drop), "%s/conf.d", dir);
	CHECK(mkdir(drop, 0755) == 0);
}

static void teardown(void)
{
	char cmd[160];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

static void main_then_dropins_in_name_order(void)
{
	struct msl_conf c = { 0 };
	char main_file[96];

	setup();
	snprintf(main_file, sizeof(main_file), "%s/main.conf", dir);
	put(main_file, "# comment\n/a 1G\n\n/b/*.service 512Mi # trailing\n");
	put("20-z.conf", "/z 2G\n");
	put("10-y.conf", "/y infinity\n");
	put("05-x.conf.dpkg-new", "/never 1G\n");
	put(".hidden.conf", "/never 1G\n");
	put("notes.txt", "/never 1G\n");
	CHECK(msl_conf_load(&c, NULL, main_file, drop) == 0);
	CHECK(c.n == 4);
	if (c.n == 4) {
		CHECK(!strcmp(c.v[0].pattern, "/a") && c.v[0].line == 2);
		CHECK(!strcmp(c.v[1].pattern, "/b/*.service") &&
		      !strcmp(c.v[1].size, "512Mi") && c.v[1].line == 4);
		CHECK(!strcmp(c.v[2].pattern, "/y") &&
		      c.v[2].action == MSL_RULE_MAX &&
		      strstr(c.v[2].file, "/10-y.conf"));
		CHECK(!strcmp(c.v[3].pattern, "/z") &&
		      strstr(c.v[3].file, "/20-z.conf"));
	}
	CHECK(msl_conf_first_match(&c, "/b/x.service") == &c.v[1]);
	CHECK(msl_conf_first_match(&c, "/q") == NULL);
	msl_conf_free(&c);
	/* No drop-in directory at all is no error. */
	CHECK(msl_conf_load(&c, NULL, main_file, "/nonexistent/conf.d") == 0);
	CHECK(c.n == 2);
	msl_conf_free(&c);
	teardown();
}

static void bad_lines_counted_everywhere(void)
{
	struct msl_conf c = { 0 };
	char main_file[96];

	setup();
	snprintf(main_file, sizeof(main_file), "%s/main.conf", dir);
	put(main_file, "/a 1G\n/b 1000\n");
	put("10-x.conf", "/c 1Q\nnot-a-path 1G\n/d\n/e 2G\n");
	CHECK(msl_conf_load(&c, NULL, main_file, drop) == 4);
	msl_conf_free(&c);
	CHECK(msl_conf_load(&c, NULL, "/nonexistent/main.conf", drop) == -1);
	msl_conf_free(&c);
	teardown();
}

static void rules_that_never_decide(void)
{
	struct msl_conf c = { 0 };
	char main_file[96];

	setup();
	snprintf(main_file, sizeof(main_file), "%s/main.conf", dir);
	put(main_file, "/w/** 4G\n/s/*.service 512M\n/k/** max\n");
	put("50-db.conf", "/w/db 8G\n/s/*.service 1G\n/s/x.slice 1G\n/k/** 2G\n");
	CHECK(msl_conf_load(&c, NULL, main_file, drop) == 0);
	CHECK(c.n == 7);
	if (c.n == 7) {
		CHECK(msl_conf_hidden_by(&c, 0) == NULL);
		CHECK(msl_conf_hidden_by(&c, 3) == &c.v[0]);	/* /w/db */
		CHECK(msl_conf_hidden_by(&c, 4) == &c.v[1]);	/* same */
		CHECK(msl_conf_hidden_by(&c, 5) == NULL);	/* another */
		CHECK(msl_conf_hidden_by(&c, 6) == &c.v[2]);
		CHECK(!msl_conf_immune_subtree(&c.v[0]));
		CHECK(msl_conf_immune_subtree(&c.v[2]));
		CHECK(!msl_conf_immune_subtree(&c.v[6]));
	}
	msl_conf_free(&c);
	teardown();
}

static void snippet_names(void)
{
	char buf[128];

	CHECK(msl_conf_snippet("/d", "/workload.slice/db.service", buf,
			       sizeof(buf)) == 0);
	CHECK(!strcmp(buf, "/d/set-workload.slice-db.service.conf"));
	CHECK(msl_conf_snippet("/d", "/a-b/c d/.x", buf, sizeof(buf)) == 0);
	CHECK(!strcmp(buf, "/d/set-a\\x2db-c\\x20d-\\x2ex.conf"));
	CHECK(msl_conf_snippet("/d", "/a", buf, 8) == -ENAMETOOLONG);
}

int main(void)
{
	RUN("tool_conf", main_then_dropins_in_name_order);
	RUN("tool_conf", bad_lines_counted_everywhere);
	RUN("tool_conf", rules_that_never_decide);
	RUN("tool_conf", snippet_names);
	return 0;
}
