// SPDX-License-Identifier: GPL-2.0
/* Unit tests of tools/workingset.c: what a cgroup reuses. */
#include <string.h>

#include "unit.h"
#include "workingset.h"

/* As 6.12's lru_gen_seq_show() prints it: two memcgs, one node each. */
static const char LRU_GEN[] =
	"memcg     1 /\n"
	" node     0\n"
	"          5     120000        100         2000 \n"
	"          6       5000         50          300 \n"
	"          7        800         10           40 \n"
	"memcg     9 /svc\n"
	" node     0\n"
	"         11      90000          0        20000 \n"
	"         12       4000          0        10240 \n"
	"         13       1000          0            0 \n"
	"memcg    10 /has space\n"
	" node     0\n"
	"          2     700000          1            1 \n";

static void young_generations(void)
{
	struct msl_lru_gen g;
	const struct msl_lru_gen_memcg *m;
	const char *why = NULL;

	CHECK(msl_lru_gen_parse(LRU_GEN, strlen(LRU_GEN), 10000, &g, &why) == 0);
	CHECK(g.n == 3);
	CHECK(g.window_ms == 10000);
	m = msl_lru_gen_find(&g, "/svc");
	CHECK(m && m->young_pages == 10240 && m->total_pages == 30240);
	CHECK(m && m->youngest_age_ms == 1000 && m->has_generations);
	/* What the last aging saw went into the generation 4 s old. */
	CHECK(m && m->observed_age_ms == 4000 && m->id == 9);
	m = msl_lru_gen_find(&g, "/");
	CHECK(m && m->young_pages == 400);
	/* A path with a space is the rest of the line. */
	m = msl_lru_gen_find(&g, "/has space");
	CHECK(m && m->young_pages == 0 && m->youngest_age_ms == 700000);
	msl_lru_gen_free(&g);
}

/* Two nodes: a memcg's pages summed over them, its youngest age the least. */
static void two_nodes(void)
{
	static const char t[] =
		"memcg 4 /a\n node 0\n 3 2000 10 20\n node 1\n 3 500 1 2x\n";
	struct msl_lru_gen g;
	const char *why;

	CHECK(msl_lru_gen_parse(t, strlen(t), 1000, &g, &why) == 0);
	CHECK(g.n == 1 && g.memcg[0].young_pages == 3 &&
	      g.memcg[0].total_pages == 33 && g.memcg[0].youngest_age_ms == 500);
	/* One generation on a node: its age; the least recently aged node. */
	CHECK(g.memcg[0].observed_age_ms == 2000);
	msl_lru_gen_free(&g);
}

/*
 * A node that holds none of a memcg's pages says nothing of when it was
 * aged; a removed memcg (id 0) keeps its path.
 */
static void observed_age(void)
{
	static const char t[] =
		"memcg 0 /gone\n node 0\n 7 60000 0 5\n 8 9000 0 0\n"
		"memcg 5 /b\n node 0\n 3 900000 0 0\n 4 800000 0 0\n"
		" node 1\n 10 50000 0 100\n 11 20000 0 50\n 12 10 0 0\n";
	const struct msl_lru_gen_memcg *m;
	struct msl_lru_gen g;
	const char *why;

	CHECK(msl_lru_gen_parse(t, strlen(t), 30000, &g, &why) == 0);
	m = msl_lru_gen_find(&g, "/b");
	CHECK(m && m->observed_age_ms == 20000 && m->young_pages == 50 &&
	      m->total_pages == 150 && m->id == 5);
	m = msl_lru_gen_find(&g, "/gone");
	CHECK(m && m->id == 0 && m->observed_age_ms == 60000);
	msl_lru_gen_free(&g);
}

/*
 * As 7.3.4's lru_gen_seq_show() printed it in t-75 (trailing blanks
 * kept): the memcg's cgroup id unpadded where 6.12 printed its private
 * id in five columns, and generations from the lower of the two
 * min_seqs.  W aged twice through "+ 67 0 SEQ": the hot set (24 MiB)
 * in generation 4, what the second aging found; the cold set in 2.
 */
static const char LRU_GEN_7_3[] =
	"memcg 1 /\n"
	" node     0\n"
	"          0      46372          0          88 \n"
	"          1      46372          0        3605 \n"
	"          2      46372        498           0 \n"
	"          3      46372          0           0 \n"
	"memcg 28 /U\n"
	" node     0\n"
	"          0      27348          0        2051 \n"
	"          1      27348          0          16 \n"
	"          2      27348          0           0 \n"
	"          3      27348          0           0 \n"
	"memcg 67 /W\n"
	" node     0\n"
	"          2      26988        439       16384 \n"
	"          3      26988         24          49 \n"
	"          4       1648          5        6095 \n"
	"          5        400          0           0 \n";

static void linux_7_3(void)
{
	const struct msl_lru_gen_memcg *m;
	struct msl_lru_gen g;
	const char *why = NULL;

	CHECK(msl_lru_gen_parse(LRU_GEN_7_3, strlen(LRU_GEN_7_3), 13000, &g,
				&why) == 0);
	CHECK(g.n == 3);
	m = msl_lru_gen_find(&g, "/W");
	CHECK(m && m->id == 67 && m->young_pages == 6100 &&
	      m->total_pages == 16384 + 439 + 49 + 24 + 6095 + 5);
	CHECK(m && m->observed_age_ms == 1648 && m->youngest_age_ms == 400);
	m = msl_lru_gen_find(&g, "/U");
	CHECK(m && m->id == 28 && m->young_pages == 0 &&
	      m->observed_age_ms == 27348);
	m = msl_lru_gen_find(&g, "/");
	CHECK(m && m->id == 1 && m->total_pages == 88 + 3605 + 498);
	msl_lru_gen_free(&g);
}

/* A cgroup id past 32 bits (kernfs ids wrap into their high half). */
static void wide_id(void)
{
	static const char t[] = "memcg 4294967363 /a\n node 0\n 3 20 0 1 \n";
	struct msl_lru_gen g;
	const char *why = NULL;

	CHECK(msl_lru_gen_parse(t, strlen(t), 1000, &g, &why) == 0);
	CHECK(g.n == 1 && g.memcg[0].id == 4294967363ULL);
	msl_lru_gen_free(&g);
}

static void not_lru_gen(void)
{
	static const char t[] = "cache 1234\nrss 5678\n";
	struct msl_lru_gen g;
	const char *why = NULL;

	CHECK(msl_lru_gen_parse(t, strlen(t), 1000, &g, &why) == -1 && why);
	CHECK(g.n == 0 && !g.memcg);
	CHECK(msl_lru_gen_parse("", 0, 1000, &g, &why) == -1);
	why = NULL;
	CHECK(msl_lru_gen_parse("memcg /a\n", 9, 1000, &g, &why) == -1 && why);
	CHECK(msl_lru_gen_parse("memcg 7x /a\n", 12, 1000, &g, &why) == -1);
	CHECK(msl_lru_gen_parse("memcg 99999999999999999999 /a\n", 31, 1000,
				&g, &why) == -1);
	CHECK(g.n == 0 && !g.memcg);
}

/* v2's names; v1's hierarchical totals win over its local counters. */
static void memory_stat(void)
{
	struct msl_stat_workingset w;

	msl_stat_workingset_parse("anon 10\nfile 20\nactive_anon 4096\ninactive_anon 8192\n"
				  "active_file 40960\ninactive_file 81920\n"
				  "workingset_refault_file 7\n", &w);
	CHECK(w.found && w.active_file == 40960 && w.inactive_anon == 8192 &&
	      w.refault_file == 7);
	msl_stat_workingset_parse("active_file 1\ntotal_active_file 2\n", &w);
	CHECK(w.found && w.active_file == 2);
	msl_stat_workingset_parse("anon 10\n", &w);
	CHECK(!w.found && !w.have_refaults);
}

/*
 * 6.1's cgroup v1 memory.stat, its LRU and refault lines as t-75 printed
 * them for W (the local counters, then the hierarchical total_*), here
 * with a child's pages in the totals.
 */
static void memory_stat_v1(void)
{
	struct msl_stat_workingset w;

	msl_stat_workingset_parse("cache 92274688\nrss 1912832\n"
				  "workingset_refault_anon 0\n"
				  "workingset_refault_file 0\n"
				  "inactive_anon 1908736\nactive_anon 4096\n"
				  "inactive_file 67108864\nactive_file 25165824\n"
				  "hierarchical_memory_limit 9223372036854771712\n"
				  "total_cache 96468992\n"
				  "total_workingset_refault_anon 2\n"
				  "total_workingset_refault_file 5\n"
				  "total_inactive_anon 1908736\n"
				  "total_active_anon 4096\n"
				  "total_inactive_file 67108864\n"
				  "total_active_file 29360128\n", &w);
	CHECK(w.found && w.have_refaults);
	CHECK(w.active_file == 29360128 && w.inactive_file == 67108864 &&
	      w.active_anon == 4096 && w.inactive_anon == 1908736);
	CHECK(w.refault_anon == 2 && w.refault_file == 5);
	/* A v1 memory.stat without refault counters: none, not 0. */
	msl_stat_workingset_parse("total_active_file 4096\n", &w);
	CHECK(w.found && !w.have_refaults);
}

static void limits(void)
{
	const uint64_t mib = 1ULL << 20;

	CHECK(msl_suggest_limit(0, 25) == mib);
	CHECK(msl_suggest_limit(40 * mib, 25) == 50 * mib);
	CHECK(msl_suggest_limit(40 * mib + 1, 0) == 41 * mib);
	CHECK(msl_suggest_limit(100 * mib, 10) == 110 * mib);
}

int main(void)
{
	RUN("tool_workingset", young_generations);
	RUN("tool_workingset", two_nodes);
	RUN("tool_workingset", observed_age);
	RUN("tool_workingset", linux_7_3);
	RUN("tool_workingset", wide_id);
	RUN("tool_workingset", not_lru_gen);
	RUN("tool_workingset", memory_stat);
	RUN("tool_workingset", memory_stat_v1);
	RUN("tool_workingset", limits);
	return 0;
}
