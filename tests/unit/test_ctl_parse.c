// SPDX-License-Identifier: GPL-2.0
/* Unit tests of module/ctl_parse.c: sizes and control commands. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <memcg_softlimit/control.h>

#include "unit.h"

static int parse(const char *text, struct msl_ctl_cmd *cmd, char *buf)
{
	const char *why;

	strcpy(buf, text);
	return msl_ctl_parse(buf, strlen(text), cmd, &why);
}

static void sizes(void)
{
	u64 b;
	bool max;

	CHECK(msl_parse_size("0", &b, &max) == 0 && b == 0 && !max);
	CHECK(msl_parse_size("4096", &b, &max) == 0 && b == 4096);
	CHECK(msl_parse_size("64K", &b, &max) == 0 && b == 64ULL << 10);
	CHECK(msl_parse_size("64k", &b, &max) == 0 && b == 64ULL << 10);
	CHECK(msl_parse_size("100M", &b, &max) == 0 && b == 100ULL << 20);
	CHECK(msl_parse_size("3G", &b, &max) == 0 && b == 3ULL << 30);
	CHECK(msl_parse_size("2T", &b, &max) == 0 && b == 2ULL << 40);
	CHECK(msl_parse_size("max", &b, &max) == 0 && max);
	CHECK(msl_parse_size("18446744073709551615", &b, &max) == 0 &&
	      b == ~0ULL);
	CHECK(msl_parse_size("18446744073709551616", &b, &max) == -ERANGE);
	CHECK(msl_parse_size("16777216T", &b, &max) == -ERANGE);
	CHECK(msl_parse_size("", &b, &max) == -EINVAL);
	CHECK(msl_parse_size("-1", &b, &max) == -EINVAL);
	CHECK(msl_parse_size("1.5G", &b, &max) == -EINVAL);
	CHECK(msl_parse_size("1GB", &b, &max) == -EINVAL);
	CHECK(msl_parse_size("1 G", &b, &max) == -EINVAL);
	CHECK(msl_parse_size("MAX", &b, &max) == -EINVAL);
	CHECK(msl_parse_size("0x10", &b, &max) == -EINVAL);
	CHECK(msl_parse_size("G", &b, &max) == -EINVAL);
}

static void commands(void)
{
	struct msl_ctl_cmd cmd;
	char buf[MSL_CTL_MAX_CMD + 2];

	CHECK(parse("set /A/A1 100M\n", &cmd, buf) == 0);
	CHECK(cmd.op == MSL_CTL_SET && !strcmp(cmd.path, "/A/A1") &&
	      cmd.bytes == 100ULL << 20 && !cmd.is_max);
	CHECK(parse("set /my cgroup/x max", &cmd, buf) == 0);
	CHECK(!strcmp(cmd.path, "/my cgroup/x") && cmd.is_max);
	CHECK(parse("unset /A/A1\n", &cmd, buf) == 0);
	CHECK(cmd.op == MSL_CTL_UNSET && !strcmp(cmd.path, "/A/A1"));
	CHECK(parse("unset /with space", &cmd, buf) == 0);
	CHECK(!strcmp(cmd.path, "/with space"));
	CHECK(parse("set / 1G", &cmd, buf) == 0);	/* the module refuses root */
}

static void bad_commands(void)
{
	static const char *const bad[] = {
		"", "\n", "set", "set ", "set /A", "set /A ", "set  1G",
		"set A 1G", "set /A 1Q", "set /A -5", "set /A 1G\nset /B 1G",
		"unset", "unset ", "unset A", "remove /A", "SET /A 1G",
		"set /A/../B 1G", "set /A/./B 1G", "set /.. 1G",
		"unset /A\t", "set /A\x01 1G",
	};
	struct msl_ctl_cmd cmd;
	char buf[MSL_CTL_MAX_CMD + 2];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ret = parse(bad[i], &cmd, buf);

		if (ret != -EINVAL)
			fprintf(stderr, "accepted: \"%s\"\n", bad[i]);
		CHECK(ret == -EINVAL);
	}
	/* Dots inside names are fine. */
	CHECK(parse("set /a.slice/..b 1G", &cmd, buf) == 0);
}

static void oversized_and_embedded_nul(void)
{
	static char big[MSL_CTL_MAX_CMD + 10];
	struct msl_ctl_cmd cmd;
	const char *why;
	char nul[] = "set /A\0B 1G";

	memset(big, 'a', sizeof(big));
	memcpy(big, "set /", 5);
	CHECK(msl_ctl_parse(big, MSL_CTL_MAX_CMD + 1, &cmd, &why) == -EINVAL);
	CHECK(msl_ctl_parse(nul, sizeof(nul) - 1, &cmd, &why) == -EINVAL);
}

static void random_input_never_crashes(void)
{
	static const char alphabet[] = "set unt/ 0123456789KMGTmax\n\x80\xff.";
	struct msl_ctl_cmd cmd;
	char buf[256];
	const char *why;
	int i, j, accepted = 0;

	srand(1);
	for (i = 0; i < 100000; i++) {
		int len = 1 + rand() % 200;

		for (j = 0; j < len; j++)
			buf[j] = alphabet[rand() % (sizeof(alphabet) - 1)];
		if (msl_ctl_parse(buf, len, &cmd, &why) == 0) {
			accepted++;
			CHECK(cmd.path[0] == '/');
		}
	}
	CHECK(accepted < 100000);
}

/* msl_path_match(): pattern, path, match? */
static const struct { const char *pattern, *path; bool match; } matches[] = {
	{ "/a", "/a", true },
	{ "/a", "/b", false },
	{ "/a", "/a/b", false },
	{ "/a/b", "/a", false },
	{ "/system.slice/*.service", "/system.slice/db.service", true },
	{ "/system.slice/*.service", "/system.slice/.service", true },
	{ "/system.slice/*.service", "/system.slice/db.socket", false },
	{ "/system.slice/*.service", "/system.slice/a/b.service", false },
	{ "/system.slice/*.service", "/system.slice", false },
	{ "/*", "/a", true },
	{ "/*", "/a/b", false },
	{ "/a*b*c", "/abc", true },
	{ "/a*b*c", "/aXbYbZc", true },
	{ "/a*b*c", "/aXbYc/d", false },
	{ "/a*b*c", "/acb", false },
	{ "/?", "/a", true },
	{ "/?", "/ab", false },
	{ "/?", "/", false },
	{ "/a?c", "/abc", true },
	{ "/a?c", "/a/c", false },
	{ "/kubepods.slice/**", "/kubepods.slice", true },
	{ "/kubepods.slice/**", "/kubepods.slice/a", true },
	{ "/kubepods.slice/**", "/kubepods.slice/a/b/c", true },
	{ "/kubepods.slice/**", "/kubepods", false },
	{ "/kubepods.slice/**", "/kubepods.slice2/a", false },
	{ "/**/x", "/x", true },
	{ "/**/x", "/a/b/x", true },
	{ "/**/x", "/a/b/x/y", false },
	{ "/**/x/**", "/a/x/b/x/c", true },
	{ "/a/**/b/*.scope", "/a/b/c.scope", true },
	{ "/a/**/b/*.scope", "/a/q/r/b/c.scope", true },
	{ "/a/**/b/*.scope", "/a/q/r/b/c.service", false },
	{ "/a/**/**/b", "/a/b", true },
	{ "/a/**/**/b", "/a/1/2/3/b", true },
	{ "/**", "/anything/at/all", true },
	{ "/with space/x", "/with space/x", true },
	{ "/*", "/", false },
};

static void path_patterns(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(matches) / sizeof(matches[0]); i++) {
		bool got = msl_path_match(matches[i].pattern, matches[i].path);

		if (got != matches[i].match)
			fprintf(stderr, "msl_path_match(\"%s\", \"%s\") = %d\n",
				matches[i].pattern, matches[i].path, got);
		CHECK(got == matches[i].match);
	}
}

/* msl_pattern_check(): pattern, accepted?, a word of the reason. */
static const struct { const char *pattern; bool ok; const char *why; } forms[] = {
	{ "/a", true, NULL },
	{ "/system.slice/*.service", true, NULL },
	{ "/kubepods.slice/**", true, NULL },
	{ "/**/x", true, NULL },
	{ "/a?/b*", true, NULL },
	{ "/with space", true, NULL },
	{ "a/b", false, "starts with" },
	{ "", false, "starts with" },
	{ "*", false, "starts with" },
	{ "/", false, "root" },
	{ "//a", false, "empty" },
	{ "/a//b", false, "empty" },
	{ "/a/", false, "empty" },
	{ "/a**", false, "whole path component" },
	{ "/**a/b", false, "whole path component" },
	{ "/a/b***", false, "whole path component" },
	{ "/***", false, "whole path component" },
	{ "/a/../b", false, "'..'" },
	{ "/./b", false, "'.'" },
	{ "/a\tb", false, "control" },
};

static void pattern_forms(void)
{
	unsigned int i;
	const char *why;
	int ret;

	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		why = "unset";
		ret = msl_pattern_check(forms[i].pattern, &why);
		if ((ret == 0) != forms[i].ok ||
		    (!forms[i].ok && (!why || !strstr(why, forms[i].why))))
			fprintf(stderr, "msl_pattern_check(\"%s\") = %d (%s)\n",
				forms[i].pattern, ret, why ? why : "NULL");
		CHECK((ret == 0) == forms[i].ok);
		CHECK(forms[i].ok ? why == NULL :
		      ret == -EINVAL && why && strstr(why, forms[i].why));
	}
}

int main(void)
{
	RUN("ctl_parse", path_patterns);
	RUN("ctl_parse", pattern_forms);
	RUN("ctl_parse", sizes);
	RUN("ctl_parse", commands);
	RUN("ctl_parse", bad_commands);
	RUN("ctl_parse", oversized_and_embedded_nul);
	RUN("ctl_parse", random_input_never_crashes);
	return 0;
}
