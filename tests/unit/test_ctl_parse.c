// SPDX-License-Identifier: GPL-2.0
/* Unit tests of lib/ctl_parse.c: sizes and control commands. */
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
	/* Ki, Mi, Gi, Ti (Kubernetes' spelling) and infinity (systemd's). */
	CHECK(msl_parse_size("512Mi", &b, &max) == 0 && b == 512ULL << 20 && !max);
	CHECK(msl_parse_size("64Ki", &b, &max) == 0 && b == 64ULL << 10);
	CHECK(msl_parse_size("3gi", &b, &max) == 0 && b == 3ULL << 30);
	CHECK(msl_parse_size("2Ti", &b, &max) == 0 && b == 2ULL << 40);
	CHECK(msl_parse_size("infinity", &b, &max) == 0 && max);
	CHECK(msl_parse_size("1KiB", &b, &max) == -EINVAL);
	CHECK(msl_parse_size("1i", &b, &max) == -EINVAL);
	CHECK(msl_parse_size("1Mx", &b, &max) == -EINVAL);
	CHECK(msl_parse_size("Infinity", &b, &max) == -EINVAL);
	CHECK(msl_parse_size("16777216Ti", &b, &max) == -ERANGE);
	/* Less than a page is 0 pages, "always over": refused; 0 says it. */
	CHECK(msl_parse_size("1000", &b, &max) == -EDOM);
	CHECK(msl_parse_size("1", &b, &max) == -EDOM);
	CHECK(msl_parse_size("1K", &b, &max) == -EDOM);
	CHECK(msl_parse_size("1Ki", &b, &max) == -EDOM);
	CHECK(msl_parse_size("4095", &b, &max) == -EDOM);
	CHECK(strstr(msl_size_why(-EDOM), "below one page"));
	CHECK(strstr(msl_size_why(-EINVAL), "Ki, Mi, Gi, Ti"));
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
	CHECK(parse("set /A 512Mi", &cmd, buf) == 0 && cmd.bytes == 512ULL << 20);
	CHECK(parse("set /A infinity", &cmd, buf) == 0 && cmd.is_max);
}

static void bad_commands(void)
{
	static const char *const bad[] = {
		"", "\n", "set", "set ", "set /A", "set /A ", "set  1G",
		"set A 1G", "set /A 1Q", "set /A -5", "set /A 1G\nset /B 1G",
		"unset", "unset ", "unset A", "remove /A", "SET /A 1G",
		"set /A/../B 1G", "set /A/./B 1G", "set /.. 1G", "set /A 1000",
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

static const struct {
	const char *pattern, *path;
	bool match;
} matches[] = {
	{ "/a", "/a", true },
	{ "/a", "/b", false },
	{ "/a", "/a/b", false },
	{ "/a/b", "/a", false },
	{ "/system.slice/*.service", "/system.slice/foo.service", true },
	{ "/system.slice/*.service", "/system.slice/.service", true },
	{ "/system.slice/*.service", "/system.slice/foo.scope", false },
	/* '*' stays within its component. */
	{ "/system.slice/*.service", "/system.slice/a/b.service", false },
	{ "/*", "/a", true },
	{ "/*", "/a/b", false },
	{ "/a?c", "/abc", true },
	{ "/a?c", "/ac", false },
	{ "/a*b*c", "/axxbyyc", true },
	{ "/a*b*c", "/axxbyy", false },
	{ "/*x*", "/x", true },
	/* '**' as a whole component: any number of components, none too. */
	{ "/kubepods.slice/**", "/kubepods.slice", true },
	{ "/kubepods.slice/**", "/kubepods.slice/a", true },
	{ "/kubepods.slice/**", "/kubepods.slice/a/b/c", true },
	{ "/kubepods.slice/**", "/kubepods", false },
	{ "/**/db", "/db", true },
	{ "/**/db", "/x/y/db", true },
	{ "/**/db", "/x/y/db/z", false },
	{ "/a/**/z", "/a/z", true },
	{ "/a/**/z", "/a/b/c/z", true },
	{ "/a/**/z", "/a/b/c/zz", false },
	{ "/a/**/b/**/c", "/a/x/b/y/b/z/c", true },
	{ "/a/**/b/**/c", "/a/x/c", false },
	{ "/**", "/anything/at/all", true },
	{ "/**/*.service", "/system.slice/foo.service", true },
	{ "/**/*.service", "/foo.service", true },
	{ "/**/*.service", "/system.slice/foo.service/x", false },
	{ "/with space/*", "/with space/x", true },
};

static void path_matching(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(matches) / sizeof(matches[0]); i++) {
		bool got = msl_path_match(matches[i].pattern, matches[i].path);

		if (got != matches[i].match)
			fprintf(stderr, "%s ~ %s: %d\n", matches[i].pattern,
				matches[i].path, got);
		CHECK(got == matches[i].match);
	}
}

static void bad_patterns(void)
{
	static const char *const bad[] = {
		"", "a", "/", "//a", "/a/", "/a//b", "/a**", "/**a", "/a/**b",
		"/a/../b", "/./a", "/a\x01",
	};
	static const char *const good[] = {
		"/a", "/**", "/a/**", "/**/b", "/a*", "/*.service", "/a?/b*c",
	};
	const char *why;
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		bool refused = msl_pattern_check(bad[i], &why) == -EINVAL;

		if (!refused)
			fprintf(stderr, "accepted: \"%s\"\n", bad[i]);
		CHECK(refused && why);
	}
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		CHECK(msl_pattern_check(good[i], &why) == 0);
}

static const struct {
	const char *line;
	int ret;
	const char *pattern;
	enum msl_rule_action action;
	u64 bytes;
} rule_lines[] = {
	{ "/system.slice/*.service 512M", 1, "/system.slice/*.service",
	  MSL_RULE_LIMIT, 512ULL << 20 },
	{ "  /kubepods.slice/**\tmax \r", 1, "/kubepods.slice/**",
	  MSL_RULE_MAX, 0 },
	{ "/my cgroup/x  unset", 1, "/my cgroup/x", MSL_RULE_UNSET, 0 },
	{ "", 0, NULL, 0, 0 },
	{ "   ", 0, NULL, 0, 0 },
	{ "# /a 1G", 0, NULL, 0, 0 },
	{ "/a", -EINVAL, NULL, 0, 0 },
	{ "1G", -EINVAL, NULL, 0, 0 },
	{ "/a 1Q", -EINVAL, NULL, 0, 0 },
	{ "/a UNSET", -EINVAL, NULL, 0, 0 },
	{ "/ 1G", -EINVAL, NULL, 0, 0 },
	{ "/a** 1G", -EINVAL, NULL, 0, 0 },
	{ "a 1G", -EINVAL, NULL, 0, 0 },
	{ "/k/** 512Mi", 1, "/k/**", MSL_RULE_LIMIT, 512ULL << 20 },
	{ "/k/** infinity", 1, "/k/**", MSL_RULE_MAX, 0 },
	{ "/a 1000", -EINVAL, NULL, 0, 0 },
};

static void rules(void)
{
	struct msl_rule rule;
	const char *why;
	unsigned int i;
	char buf[256];

	for (i = 0; i < sizeof(rule_lines) / sizeof(rule_lines[0]); i++) {
		int ret;

		strcpy(buf, rule_lines[i].line);
		ret = msl_rule_parse(buf, &rule, &why);
		if (ret != rule_lines[i].ret)
			fprintf(stderr, "\"%s\": %d\n", rule_lines[i].line, ret);
		CHECK(ret == rule_lines[i].ret);
		if (ret < 0)
			CHECK(why != NULL);
		if (ret != 1)
			continue;
		CHECK(!strcmp(rule.pattern, rule_lines[i].pattern));
		CHECK(rule.action == rule_lines[i].action);
		CHECK(rule.bytes == rule_lines[i].bytes);
	}
}

int main(void)
{
	RUN("ctl_parse", sizes);
	RUN("ctl_parse", commands);
	RUN("ctl_parse", bad_commands);
	RUN("ctl_parse", oversized_and_embedded_nul);
	RUN("ctl_parse", random_input_never_crashes);
	RUN("ctl_parse", path_matching);
	RUN("ctl_parse", bad_patterns);
	RUN("ctl_parse", rules);
	return 0;
}
