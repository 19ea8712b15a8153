// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of tools/suggest.c: a subtree's reuse from lru_gen or
 * memory.stat, the suggestion, the largest over a span of samples, and
 * the rules file that --write makes (read back by apply's own reader).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/kernel.h>

#include "../../tools/conf.h"
#include "../../tools/msl.h"
#include "../../tools/workingset.h"
#include "../../tools/suggest.h"
#include "unit.h"

#define MIB	(1ULL << 20)
#define PS	4096ULL

/*
 * /svc aged 4 s ago (its last aging's findings), /svc/a too, /svc/idle
 * last 90 s ago; /gone a removed memcg of the path /svc/a; /cold never
 * aged within a minute.
 */
static const char LRU_GEN[] =
	"memcg 1 /\n node 0\n 5 9000 100 2000\n 6 4000 50 300\n 7 800 10 40\n"
	"memcg 9 /svc\n node 0\n 11 90000 0 20000\n 12 4000 0 10000\n 13 1000 0 0\n"
	"memcg 10 /svc/a\n node 0\n 3 60000 0 5000\n 4 2000 0 1000\n 5 100 0 24\n"
	"memcg 11 /svc/idle\n node 0\n 2 200000 0 300\n 3 90000 0 100\n"
	"memcg 0 /svc/a\n node 0\n 1 500 0 7777\n 2 400 0 1\n"
	"memcg 12 /svc/empty\n node 0\n 1 900000 0 0\n 2 800000 0 0\n"
	"memcg 13 /cold\n node 0\n 1 900000 0 512\n 2 700000 0 512\n";

static void subtree_from_lru_gen(void)
{
	struct msl_lru_gen g;
	struct msl_reuse r;
	const char *why;

	CHECK(msl_lru_gen_parse(LRU_GEN, strlen(LRU_GEN), 10000, &g, &why) == 0);
	/* /svc/a alone: the removed memcg of its path is not its. */
	msl_reuse_from_lru_gen(&g, "/svc/a", PS, &r);
	CHECK(r.kind == MSL_REUSE_WINDOW && r.reused == 1024 * PS &&
	      r.unaged == 0);
	/*
	 * /svc: its own 10000, /svc/a's 1024 and the removed one's 7778
	 * (charged to /svc), /svc/idle's 400 counted whole.
	 */
	msl_reuse_from_lru_gen(&g, "/svc", PS, &r);
	CHECK(r.kind == MSL_REUSE_PARTIAL && r.unaged == 400 * PS &&
	      r.reused == (10000 + 1024 + 7778 + 400) * PS);
	msl_reuse_from_lru_gen(&g, "/svc/idle", PS, &r);
	CHECK(r.kind == MSL_REUSE_UNKNOWN && r.reused == 0 &&
	      r.unaged == 400 * PS);
	/* No page on its LRUs: nothing reused, and that is known. */
	msl_reuse_from_lru_gen(&g, "/svc/empty", PS, &r);
	CHECK(r.kind == MSL_REUSE_WINDOW && r.reused == 0);
	msl_reuse_from_lru_gen(&g, "/cold", PS, &r);
	CHECK(r.kind == MSL_REUSE_UNKNOWN);
	/* Whole components: /sv is not /svc's parent. */
	msl_reuse_from_lru_gen(&g, "/sv", PS, &r);
	CHECK(r.kind == MSL_REUSE_WINDOW && r.reused == 0);
	msl_lru_gen_free(&g);

	/*
	 * Its last aging 90 s ago put what it found into the generation
	 * born 200 s ago: a window of 100 s does not hold it, 250 s does.
	 */
	CHECK(msl_lru_gen_parse(LRU_GEN, strlen(LRU_GEN), 100000, &g, &why) == 0);
	msl_reuse_from_lru_gen(&g, "/svc/idle", PS, &r);
	CHECK(r.kind == MSL_REUSE_UNKNOWN);
	msl_lru_gen_free(&g);
	CHECK(msl_lru_gen_parse(LRU_GEN, strlen(LRU_GEN), 250000, &g, &why) == 0);
	msl_reuse_from_lru_gen(&g, "/svc/idle", PS, &r);
	CHECK(r.kind == MSL_REUSE_WINDOW && r.reused == 400 * PS);
	msl_lru_gen_free(&g);
}

static void classic_and_suggestion(void)
{
	struct msl_stat_workingset w;
	struct msl_reuse r;
	uint64_t limit = 0;

	msl_stat_workingset_parse("anon 10\nactive_anon 4194304\n"
				  "inactive_anon 1048576\nactive_file 20971520\n"
				  "inactive_file 67108864\n"
				  "workingset_refault_anon 3\n"
				  "workingset_refault_file 40\n", &w);
	msl_reuse_from_stat(&w, &r);
	CHECK(r.kind == MSL_REUSE_UPPER && r.reused == 24 * MIB);
	/* 90 MiB in use, 89 of them on the LRUs: 1 MiB of kernel memory. */
	msl_reuse_set_stat(&r, 90 * MIB, &w);
	CHECK(r.usage == 90 * MIB && r.other == MIB && r.refaults == 43 &&
	      r.have_refaults);
	CHECK(msl_reuse_suggest(&r, 10, &limit) && limit == 28 * MIB);
	CHECK(msl_reuse_suggest(&r, 0, &limit) && limit == 25 * MIB);
	/* Usage read before the LRUs grew: no negative kernel memory. */
	msl_reuse_set_stat(&r, 88 * MIB, &w);
	CHECK(r.other == 0);
	r.kind = MSL_REUSE_UNKNOWN;
	limit = 7;
	CHECK(!msl_reuse_suggest(&r, 10, &limit) && limit == 7);
}

static struct msl_reuse sample(enum msl_reuse_kind kind, uint64_t reused,
			       uint64_t unaged, uint64_t other,
			       uint64_t usage, uint64_t refaults)
{
	struct msl_reuse r = {
		.kind = kind, .reused = reused, .unaged = unaged,
		.other = other, .usage = usage, .refaults = refaults,
	};

	return r;
}

/* The span: the largest reuse any sample knew, the last usage. */
static void span_maximum(void)
{
	struct msl_reuse_span s = { 0 };
	struct msl_reuse r, out;

	r = sample(MSL_REUSE_UNKNOWN, 0, 50, 1, 100, 5);
	msl_reuse_span_add(&s, &r);
	msl_reuse_span_result(&s, &out);
	CHECK(out.kind == MSL_REUSE_UNKNOWN && out.reused == 0 &&
	      out.unaged == 50 && out.refaults == 5);
	r = sample(MSL_REUSE_WINDOW, 30, 0, 2, 120, 9);
	msl_reuse_span_add(&s, &r);
	r = sample(MSL_REUSE_PARTIAL, 45, 10, 1, 130, 12);
	msl_reuse_span_add(&s, &r);
	r = sample(MSL_REUSE_WINDOW, 45, 0, 1, 125, 20);
	msl_reuse_span_add(&s, &r);
	r = sample(MSL_REUSE_WINDOW, 20, 0, 1, 110, 21);
	msl_reuse_span_add(&s, &r);
	/* An unknown sample later never lowers it. */
	r = sample(MSL_REUSE_UNKNOWN, 0, 99, 1, 105, 22);
	msl_reuse_span_add(&s, &r);
	msl_reuse_span_result(&s, &out);
	CHECK(s.samples == 6 && s.known == 4);
	/* 45 twice: the measured one rather than the one counted whole. */
	CHECK(out.kind == MSL_REUSE_WINDOW && out.reused == 45 &&
	      out.unaged == 0);
	CHECK(out.other == 2 && out.usage == 105 && out.refaults == 17);
	/* A counter that went back (a new cgroup of that id): its value. */
	r = sample(MSL_REUSE_WINDOW, 1, 0, 0, 1, 3);
	msl_reuse_span_add(&s, &r);
	msl_reuse_span_result(&s, &out);
	CHECK(out.refaults == 3 && out.reused == 45);
}

static void rule_paths(void)
{
	CHECK(!msl_rule_path_why("/system.slice/db.service"));
	CHECK(!msl_rule_path_why("/has space/a#b"));
	CHECK(msl_rule_path_why("/a*b"));
	CHECK(msl_rule_path_why("/a?"));
	CHECK(msl_rule_path_why("/a #b"));
	CHECK(msl_rule_path_why("/a\tb/\t#c"));
	CHECK(msl_rule_path_why("/a\nb"));
	CHECK(msl_rule_path_why("/ends in blank "));
}

/* What --write makes, read back by apply's reader: every rule good. */
static void snippet_reads_back(void)
{
	static const struct msl_suggestion s[] = {
		{ "/svc", true, 28 * MIB, NULL },
		{ "/svc/idle", false, 0, "not aged within 10s" },
		{ "/big", true, 10241 * MIB, NULL },
		{ "/two", true, 2048 * MIB, NULL },
		{ "/odd*name", true, MIB, NULL },
		{ "/has space", true, 3 * MIB, NULL },
	};
	char file[] = "/tmp/msl-suggest-XXXXXX", *text;
	struct msl_conf c = { .quiet = false };
	FILE *f;
	int fd;

	fd = mkstemp(file);
	CHECK(fd >= 0);
	f = fdopen(fd, "w");
	CHECK(msl_suggest_snippet(f, file, "a test", s, ARRAY_SIZE(s)) == 4);
	fclose(f);
	text = msl_read_all(file, NULL);
	CHECK(text && msl_suggest_is_ours(text));
	CHECK(text && strstr(text, "\n/svc 28M\n") &&
	      strstr(text, "\n/big 10241M\n") && strstr(text, "\n/two 2G\n") &&
	      strstr(text, "\n/has space 3M\n"));
	CHECK(text && strstr(text, "# /svc/idle: no suggestion: not aged within 10s\n"));
	CHECK(text && strstr(text, "# /odd*name 1M: not written as a rule"));
	CHECK(text && strstr(text, "apply --dry-run /tmp/msl-suggest-"));
	free(text);
	CHECK(msl_conf_read_file(&c, NULL, file) == 0);
	CHECK(c.n == 4 && !strcmp(c.v[0].pattern, "/svc") &&
	      !strcmp(c.v[0].size, "28M") && !strcmp(c.v[3].pattern, "/has space"));
	msl_conf_free(&c);
	unlink(file);
	CHECK(!msl_suggest_is_ours("/svc 1G\n"));
	CHECK(!msl_suggest_is_ours("# Written by memcg-softlimit set --persist"));
}

int main(void)
{
	RUN("tool_suggest", subtree_from_lru_gen);
	RUN("tool_suggest", classic_and_suggestion);
	RUN("tool_suggest", span_maximum);
	RUN("tool_suggest", rule_paths);
	RUN("tool_suggest", snippet_reads_back);
	return 0;
}
