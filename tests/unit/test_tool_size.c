// SPDX-License-Identifier: GPL-2.0
/*
 * The tool's sizes: parsed by the module's own parser (so `set` accepts
 * exactly what /proc/memcg_softlimit/limits accepts), printed so that what
 * is printed parses back; intervals in seconds.
 */
#include <errno.h>
#include <string.h>

#include "../../tools/size.h"
#include "unit.h"

static int parse(const char *s, uint64_t *b, bool *max)
{
	*b = 12345;
	*max = false;
	return msl_size_parse(s, b, max);
}

static void parses_what_the_module_parses(void)
{
	uint64_t b;
	bool max;

	CHECK(parse("0", &b, &max) == 0 && b == 0 && !max);
	CHECK(parse("4096", &b, &max) == 0 && b == 4096);
	CHECK(parse("64K", &b, &max) == 0 && b == 65536);
	CHECK(parse("64k", &b, &max) == 0 && b == 65536);
	CHECK(parse("80M", &b, &max) == 0 && b == 80ULL << 20);
	CHECK(parse("1G", &b, &max) == 0 && b == 1ULL << 30);
	CHECK(parse("2T", &b, &max) == 0 && b == 2ULL << 40);
	CHECK(parse("max", &b, &max) == 0 && max && b == UINT64_MAX);
	CHECK(parse("18446744073709551615", &b, &max) == 0 &&
	      b == UINT64_MAX && !max);
}

static void refuses_garbage(void)
{
	static const char *const bad[] = {
		"", " 1G", "1G ", "1Q", "-5", "+5", "1.5G", "1GB", "G", "MAX",
		"max1", "0x10", "1 G", "1e9", "\xff", "16M\n",
	};
	uint64_t b;
	bool max;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(parse(bad[i], &b, &max) == -EINVAL);
	CHECK(parse("18446744073709551616", &b, &max) == -ERANGE);
	CHECK(parse("16777216T", &b, &max) == -ERANGE);
	CHECK(parse("99999999999999999999", &b, &max) == -ERANGE);
}

static const char *fmt(uint64_t b)
{
	static char buf[MSL_SIZE_BUF];

	return msl_size_fmt(b, buf, sizeof(buf));
}

static void formats_exactly_when_it_can(void)
{
	CHECK(!strcmp(fmt(0), "0"));
	CHECK(!strcmp(fmt(1023), "1023"));
	CHECK(!strcmp(fmt(1024), "1K"));
	CHECK(!strcmp(fmt(1536), "1536"));
	CHECK(!strcmp(fmt(80ULL << 20), "80M"));
	CHECK(!strcmp(fmt(8000ULL << 20), "8000M"));
	CHECK(!strcmp(fmt(1ULL << 30), "1G"));
	CHECK(!strcmp(fmt(3ULL << 29), "1536M"));
	CHECK(!strcmp(fmt(1ULL << 40), "1T"));
	CHECK(!strcmp(fmt(1ULL << 50), "1P"));
	CHECK(!strcmp(fmt(1ULL << 60), "1E"));
	/* Too long to be exact: one decimal of the largest unit. */
	CHECK(!strcmp(fmt(123456789), "117.7M"));
	CHECK(!strcmp(fmt(120564ULL << 10), "117.7M"));
	CHECK(!strcmp(fmt(10000), "9.8K"));
	CHECK(!strcmp(fmt(UINT64_MAX - 1), "16.0E"));
	CHECK(!strcmp(fmt(UINT64_MAX), "max"));
}

static void exact_formats_parse_back(void)
{
	/* (1 byte to a page less 1 parse to -EDOM: test_ctl_parse) */
	static const uint64_t sizes[] = {
		0, 4096, 65536, 80ULL << 20, 7ULL << 30, 3ULL << 40,
	};
	uint64_t b;
	bool max;
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		CHECK(parse(fmt(sizes[i]), &b, &max) == 0);
		CHECK(b == sizes[i]);
	}
	CHECK(parse(fmt(UINT64_MAX), &b, &max) == 0 && max);
}

static void seconds(void)
{
	double s;

	CHECK(msl_seconds_parse("2", &s) == 0 && s == 2);
	CHECK(msl_seconds_parse("0.5", &s) == 0 && s == 0.5);
	CHECK(msl_seconds_parse(".25", &s) == 0 && s == 0.25);
	CHECK(msl_seconds_parse("0", &s) == -EINVAL);
	CHECK(msl_seconds_parse("-1", &s) == -EINVAL);
	CHECK(msl_seconds_parse(" 1", &s) == -EINVAL);
	CHECK(msl_seconds_parse("1s", &s) == -EINVAL);
	CHECK(msl_seconds_parse("nan", &s) == -EINVAL);
	CHECK(msl_seconds_parse("inf", &s) == -EINVAL);
	CHECK(msl_seconds_parse("1e9", &s) == -EINVAL);
	CHECK(msl_seconds_parse("", &s) == -EINVAL);
}

/* suggest --age: a number and a unit, seconds without one, in ms. */
static void durations(void)
{
	static const char *const bad[] = {
		"", "s", "5x", "5 s", " 5s", "5s ", "-5s", "+5s", "5S", "5sec",
		"1e3", "0x10", "inf", "nan", ".", "5.", "5..1", "1.2.3s", "0",
		"0s", "0.0001", "0.4ms", "31d", "721h", "2592001", "\xff",
		"5ms5", "5m\n",
	};
	uint64_t ms;
	size_t i;

	CHECK(msl_duration_parse("30s", &ms) == 0 && ms == 30000);
	CHECK(msl_duration_parse("5m", &ms) == 0 && ms == 300000);
	CHECK(msl_duration_parse("500ms", &ms) == 0 && ms == 500);
	CHECK(msl_duration_parse("90", &ms) == 0 && ms == 90000);
	CHECK(msl_duration_parse("1.5m", &ms) == 0 && ms == 90000);
	CHECK(msl_duration_parse("0.25", &ms) == 0 && ms == 250);
	CHECK(msl_duration_parse(".5s", &ms) == 0 && ms == 500);
	CHECK(msl_duration_parse("2h", &ms) == 0 && ms == 7200000);
	CHECK(msl_duration_parse("1ms", &ms) == 0 && ms == 1);
	/* Rounded to the nearest millisecond, never to none. */
	CHECK(msl_duration_parse("0.0006", &ms) == 0 && ms == 1);
	CHECK(msl_duration_parse("1.0004s", &ms) == 0 && ms == 1000);
	CHECK(msl_duration_parse("720h", &ms) == 0 &&
	      ms == MSL_DURATION_MAX_MS);
	CHECK(msl_duration_parse("2592000", &ms) == 0 &&
	      ms == MSL_DURATION_MAX_MS);
	ms = 7;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (msl_duration_parse(bad[i], &ms) != -EINVAL)
			fprintf(stderr, "accepted '%s'\n", bad[i]);
		CHECK(msl_duration_parse(bad[i], &ms) == -EINVAL);
	}
	CHECK(ms == 7);
}

int main(void)
{
	RUN("tool_size", parses_what_the_module_parses);
	RUN("tool_size", refuses_garbage);
	RUN("tool_size", formats_exactly_when_it_can);
	RUN("tool_size", exact_formats_parse_back);
	RUN("tool_size", seconds);
	RUN("tool_size", durations);
	return 0;
}
