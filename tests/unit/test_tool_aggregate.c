// SPDX-License-Identifier: GPL-2.0
/*
 * The tool's aggregation: counter tables by cgroup id, deltas between two
 * snapshots, sorting, and cgroup names (any bytes) in JSON, Prometheus and
 * on a terminal.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdlib.h>
#include <locale.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../tools/counters.h"
#include "../../tools/escape.h"
#include "../../tools/opts.h"
#include "../../tools/output.h"
#include "../../tools/scols.h"
#include "unit.h"

typedef void (*printer)(FILE *f, const char *s);

static char *capture(printer fn, const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, s);
	fclose(f);
	return buf;
}

static bool prints(printer fn, const char *in, const char *want)
{
	char *got = capture(fn, in);
	bool ok = !strcmp(got, want);

	if (!ok)
		fprintf(stderr, "  got [%s] want [%s]\n", got, want);
	free(got);
	return ok;
}

static void json_escapes_odd_names(void)
{
	printer j = msl_put_json_str;

	CHECK(prints(j, "/a/b", "\"/a/b\""));
	CHECK(prints(j, "/say \"hi\"", "\"/say \\\"hi\\\"\""));
	CHECK(prints(j, "/back\\slash", "\"/back\\\\slash\""));
	CHECK(prints(j, "/nl\nx\ty", "\"/nl\\nx\\ty\""));
	CHECK(prints(j, "/c\x01\x1f\x7f", "\"/c\\u0001\\u001f\\u007f\""));
	/* Valid UTF-8 passes as is; invalid bytes become the text \xNN. */
	CHECK(prints(j, "/caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7",
		     "\"/caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7\""));
	CHECK(prints(j, "/bad\xff", "\"/bad\\\\xff\""));
	CHECK(prints(j, "/trunc\xc3", "\"/trunc\\\\xc3\""));
	CHECK(prints(j, "/overlong\xc0\xaf", "\"/overlong\\\\xc0\\\\xaf\""));
	CHECK(prints(j, "/surrogate\xed\xa0\x80",
		     "\"/surrogate\\\\xed\\\\xa0\\\\x80\""));
	CHECK(prints(j, "/big\xf4\x90\x80\x80",
		     "\"/big\\\\xf4\\\\x90\\\\x80\\\\x80\""));
	CHECK(prints(j, "", "\"\""));
}

static void prometheus_escapes_labels(void)
{
	printer p = msl_put_prom_label;

	CHECK(prints(p, "/a.slice/b.service", "/a.slice/b.service"));
	CHECK(prints(p, "/say \"hi\"", "/say \\\"hi\\\""));
	CHECK(prints(p, "/back\\slash", "/back\\\\slash"));
	CHECK(prints(p, "/nl\nx", "/nl\\nx"));
	CHECK(prints(p, "/caf\xc3\xa9", "/caf\xc3\xa9"));
	CHECK(prints(p, "/bad\xfe", "/bad\\\\xfe"));
}

static void text_is_terminal_safe(void)
{
	printer t = msl_put_text;

	CHECK(prints(t, "/a b", "/a b"));
	CHECK(prints(t, "/esc\x1b[2J", "/esc\\x1b[2J"));
	CHECK(prints(t, "/nl\n", "/nl\\x0a"));
	CHECK(prints(t, "/b\\s", "/b\\\\s"));
	CHECK(prints(t, "/bad\xff", "/bad\\xff"));
	CHECK(prints(t, "/caf\xc3\xa9", "/caf\xc3\xa9"));
	CHECK(prints(msl_put_cgroup, NULL, "(removed)"));
}

static struct msl_row *row(struct msl_table *t, uint64_t id, const char *path)
{
	struct msl_row *r = msl_table_get(t, id);

	r->path = path;
	return r;
}

/*
 * The table goes through libsmartcols: wide characters take two columns
 * (the column after them stays aligned), control characters and invalid
 * UTF-8 are escaped, --raw and -o choose the form and the columns.
 */
static void counters_table(void)
{
	struct msl_cmdline cl = { 0 };
	struct msl_print p = { .source = "snapshot" };
	struct msl_table t = { 0 };
	char *buf = NULL, *l1, *l2;
	const struct msl_coldef *defs;
	size_t len = 0, n;
	FILE *f;

	setlocale(LC_CTYPE, "C.UTF-8");
	defs = msl_counter_columns(&n);
	CHECK(msl_cols_select(defs, n, msl_counter_default_cols, "cgroup,over",
			      &p.cols, (char[64]){ 0 }, 64) == 0);
	row(&t, 1, "/\xe6\x97\xa5\xe6\x9c\xac")->c.decisions[MSL_REASON_OVER] = 7;
	row(&t, 2, "/abcd")->c.decisions[MSL_REASON_OVER] = 8;
	row(&t, 3, "/esc\x1b[2J")->c.decisions[MSL_REASON_OVER] = 9;
	f = open_memstream(&buf, &len);
	CHECK(msl_print_text(f, &t, &p, &cl) == 0);
	fclose(f);
	/* "/日本" is 5 columns wide, as "/abcd": OVER starts at one place. */
	l1 = strstr(buf, "/\xe6\x97\xa5");
	l2 = strstr(buf, "/abcd");
	CHECK(l1 && l2 && strstr(l1, " 7\n") - l1 - 7 == strstr(l2, " 8\n") - l2 - 5);
	CHECK(strstr(buf, "\x1b") == NULL && strstr(buf, "/esc\\x1b[2J"));
	CHECK(strstr(buf, "ANCESTOR_OVER") == NULL);
	free(buf);

	cl.raw = true;
	buf = NULL;
	f = open_memstream(&buf, &len);
	CHECK(msl_print_text(f, &t, &p, &cl) == 0);
	fclose(f);
	CHECK(!strncmp(buf, "CGROUP OVER\n", 12));
	CHECK(strstr(buf, "\n/abcd 8\n") != NULL);
	free(buf);

	/* No rows: the header still, and why there is nothing below it. */
	cl.raw = false;
	msl_table_clear(&t);
	buf = NULL;
	f = open_memstream(&buf, &len);
	CHECK(msl_print_text(f, &t, &p, &cl) == 0);
	fclose(f);
	CHECK(strstr(buf, "\nCGROUP OVER\n# no cgroup with decisions") != NULL);
	free(buf);
	msl_table_free(&t);
}

static void table_grows_and_finds(void)
{
	struct msl_table t = { 0 };
	uint64_t id;

	for (id = 1; id <= 5000; id++)
		msl_table_get(&t, id * 7919)->c.decisions[MSL_REASON_OVER] = id;
	CHECK(t.n == 5000);
	for (id = 1; id <= 5000; id++) {
		struct msl_row *r = msl_table_find(&t, id * 7919);

		CHECK(r && r->c.decisions[MSL_REASON_OVER] == id);
	}
	CHECK(msl_table_find(&t, 3) == NULL);
	CHECK(msl_table_get(&t, 7919) == msl_table_find(&t, 7919));
	CHECK(t.n == 5000);
	msl_table_clear(&t);
	CHECK(t.n == 0 && msl_table_find(&t, 7919) == NULL);
	msl_table_free(&t);
}

static void counts_sum_by_verdict(void)
{
	struct msl_counts c = { 0 };

	c.decisions[MSL_REASON_OVER] = 3;
	c.decisions[MSL_REASON_ANCESTOR_OVER] = 2;
	c.decisions[MSL_REASON_PRIORITY] = 10;
	c.decisions[MSL_REASON_UNDER] = 7;
	c.scanned[MSL_KIND_KSWAPD] = 100;
	c.scanned[MSL_KIND_PROACTIVE] = 20;
	c.reclaimed[MSL_KIND_DIRECT] = 5;
	CHECK(msl_counts_decisions(&c) == 22);
	CHECK(msl_counts_skips(&c) == 7);
	CHECK(msl_counts_reclaims(&c) == 15);
	CHECK(msl_counts_scanned(&c) == 120);
	CHECK(msl_counts_reclaimed(&c) == 5);
	CHECK(!msl_counts_zero(&c));
}

static void deltas_between_snapshots(void)
{
	struct msl_table prev = { 0 }, cur = { 0 }, d = { 0 };
	struct msl_row *r;

	row(&prev, 10, "/a")->c.decisions[MSL_REASON_UNDER] = 5;
	row(&prev, 10, "/a")->c.reclaimed[MSL_KIND_KSWAPD] = 100;
	row(&prev, 11, "/b")->c.decisions[MSL_REASON_OVER] = 9;
	row(&prev, 12, "/gone")->c.decisions[MSL_REASON_OVER] = 1;
	prev.untracked = 4;
	prev.seq = 1;

	row(&cur, 10, "/a")->c.decisions[MSL_REASON_UNDER] = 8;
	row(&cur, 10, "/a")->c.reclaimed[MSL_KIND_KSWAPD] = 100;
	/* b's entry was made anew (module reloaded): counts from 0. */
	row(&cur, 11, "/b")->c.decisions[MSL_REASON_OVER] = 2;
	row(&cur, 13, "/new")->c.decisions[MSL_REASON_ROOT] = 6;
	cur.untracked = 6;
	cur.seq = 2;
	cur.nr_tracked = 3;

	CHECK(msl_table_delta(&d, &cur, &prev) == 0);
	CHECK(d.n == 3);
	CHECK(d.seq == 2 && d.untracked == 2 && d.nr_tracked == 3);
	r = msl_table_find(&d, 10);
	CHECK(r && r->c.decisions[MSL_REASON_UNDER] == 3);
	CHECK(r && r->c.reclaimed[MSL_KIND_KSWAPD] == 0);
	CHECK(r && !strcmp(r->path, "/a"));
	r = msl_table_find(&d, 11);
	CHECK(r && r->c.decisions[MSL_REASON_OVER] == 2);
	r = msl_table_find(&d, 13);
	CHECK(r && r->c.decisions[MSL_REASON_ROOT] == 6);
	CHECK(msl_table_find(&d, 12) == NULL);
	msl_table_free(&prev);
	msl_table_free(&cur);
	msl_table_free(&d);
}

static void sorting(void)
{
	struct msl_table t = { 0 };
	enum msl_sort key;

	row(&t, 30, "/b")->c.decisions[MSL_REASON_UNDER] = 5;
	row(&t, 10, "/c")->c.decisions[MSL_REASON_OVER] = 7;
	row(&t, 20, "/a")->c.decisions[MSL_REASON_OVER] = 7;
	row(&t, 40, NULL)->c.reclaimed[MSL_KIND_KSWAPD] = 99;
	t.rows[0].c.reclaimed[MSL_KIND_DIRECT] = 1;

	CHECK(msl_sort_parse("reclaims", &key) == 0 && key == MSL_SORT_RECLAIMS);
	CHECK(msl_sort_parse("cgroup", &key) == 0 && key == MSL_SORT_PATH);
	CHECK(msl_sort_parse("bogus", &key) != 0);

	msl_table_sort(&t, MSL_SORT_PATH, false);
	CHECK(!strcmp(t.rows[0].path, "/a") && !strcmp(t.rows[1].path, "/b") &&
	      !strcmp(t.rows[2].path, "/c") && !t.rows[3].path);
	msl_table_sort(&t, MSL_SORT_PATH, true);
	CHECK(!t.rows[0].path && !strcmp(t.rows[3].path, "/a"));
	msl_table_sort(&t, MSL_SORT_ID, false);
	CHECK(t.rows[0].id == 10 && t.rows[3].id == 40);
	/* Largest first; ties by path, whichever the direction. */
	msl_table_sort(&t, MSL_SORT_RECLAIMS, false);
	CHECK(t.rows[0].id == 20 && t.rows[1].id == 10);
	msl_table_sort(&t, MSL_SORT_RECLAIMS, true);
	CHECK(t.rows[0].id == 30 || t.rows[0].id == 40);
	CHECK(t.rows[2].id == 20 && t.rows[3].id == 10);
	msl_table_sort(&t, MSL_SORT_SKIPS, false);
	CHECK(t.rows[0].id == 30);
	msl_table_sort(&t, MSL_SORT_RECLAIMED, false);
	CHECK(t.rows[0].id == 40 && t.rows[1].id == 30);
	msl_table_sort(&t, MSL_SORT_DECISIONS, false);
	CHECK(t.rows[0].id == 20 && t.rows[1].id == 10 && t.rows[2].id == 30);
	/* The index follows the rows. */
	CHECK(msl_table_find(&t, 30) && msl_table_find(&t, 30)->id == 30);
	msl_table_free(&t);
}

static bool starts(const char *s, const char *prefix)
{
	if (strncmp(s, prefix, strlen(prefix))) {
		fprintf(stderr, "  [%.*s] does not start with [%s]\n",
			(int)strlen(prefix) + 20, s, prefix);
		return false;
	}
	return true;
}

static char *print_json(const struct msl_table *t, const struct msl_print *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	msl_print_json(f, t, p);
	fclose(f);
	return buf;
}

static void json_document(void)
{
	struct msl_print p = { .source = "snapshot", .command = "stat" };
	struct msl_table t = { 0 };
	char *out, *line;

	row(&t, 7, "/q\"b\\\n\xff")->c.decisions[MSL_REASON_OVER] = 3;
	row(&t, 8, NULL)->c.scanned[MSL_KIND_PROACTIVE] = 4;
	row(&t, 9, "/idle");
	row(&t, 10, "/\xc3\xa9t\xc3\xa9")->c.decisions[MSL_REASON_UNDER] = 1;
	t.seq = 42;
	t.nr_tracked = 3;
	out = print_json(&t, &p);
	CHECK(starts(out, "{\"schema\":1,\"command\":\"stat\",\"module_loaded\":true,\"why\":null,\"source\":\"snapshot\",\"delta\":false,\"interval\":null,\"time\":null,\"seq\":42,\"nr_tracked\":3,"));
	/* One cgroup a line, idle ones left out unless --all. */
	line = strstr(out, "\n{\"id\":7,");
	CHECK(line != NULL);
	/*
	 * Not UTF-8: escaped (backslashes doubled, the byte as \xNN), and
	 * said so; the newline is JSON's own escape.
	 */
	CHECK(line && starts(line, "\n{\"id\":7,\"path\":\"/q\\\"b\\\\\\\\\\n\\\\xff\",\"path_escaped\":true,\"removed\":false,\"decisions\":{\"policy_off\":0,\"targeted\":0,\"root\":0,\"below_threshold\":0,\"over\":3,"));
	/* UTF-8 as it is, never flagged. */
	CHECK(strstr(out, "{\"id\":10,\"path\":\"/\xc3\xa9t\xc3\xa9\",\"removed\":false,") != NULL);
	CHECK(strstr(out, "\"reclaims\":3,\"skips\":0,") != NULL);
	CHECK(strstr(out, "{\"id\":8,\"path\":null,\"removed\":true,") != NULL);
	/* Pages as bytes. */
	CHECK(strstr(out, "\"scanned_bytes\":{\"kswapd\":0,\"direct\":0,\"proactive\":16384,\"targeted\":0}") != NULL ||
	      msl_page_bytes(1) != 4096);
	CHECK(strstr(out, "\"id\":9") == NULL);
	CHECK(!strcmp(out + strlen(out) - 4, "\n]}\n"));
	free(out);
	p.all = true;
	p.delta = true;
	p.interval = 2;
	out = print_json(&t, &p);
	CHECK(strstr(out, "\"delta\":true,\"interval\":2.000,\"time\":null,") != NULL);
	free(out);
	p.time = 1796000000.25;
	p.cgroup = "/idle";
	out = print_json(&t, &p);
	CHECK(strstr(out, "\"interval\":2.000,\"time\":1796000000.250,\"seq\"") != NULL);
	CHECK(strstr(out, "\"cgroup_filter\":\"/idle\",") != NULL);
	/* -c: only that cgroup and below. */
	CHECK(strstr(out, "{\"id\":9,") != NULL && strstr(out, "{\"id\":7,") == NULL);
	p.cgroup = NULL;
	CHECK(strstr(out, "{\"id\":9,\"path\":\"/idle\"") != NULL);
	free(out);
	msl_table_clear(&t);
	out = print_json(&t, &p);
	CHECK(strstr(out, "\"cgroups\":[\n]}") != NULL);
	free(out);
	/* No module: a document that says why, no counters, no rows. */
	p.down_why = "not loaded";
	out = print_json(NULL, &p);
	CHECK(starts(out, "{\"schema\":1,\"command\":\"stat\",\"module_loaded\":false,\"why\":\"not loaded\","));
	CHECK(strstr(out, "\"seq\"") == NULL);
	CHECK(strstr(out, "\"cgroups\":[\n]}") != NULL);
	free(out);
	/* report reads a recording: nothing about the module. */
	p.command = "report";
	out = print_json(&t, &p);
	CHECK(starts(out, "{\"schema\":1,\"command\":\"report\",\"source\":"));
	free(out);
	msl_table_free(&t);
}

int main(void)
{
	RUN("tool_aggregate", json_escapes_odd_names);
	RUN("tool_aggregate", prometheus_escapes_labels);
	RUN("tool_aggregate", text_is_terminal_safe);
	RUN("tool_aggregate", counters_table);
	RUN("tool_aggregate", table_grows_and_finds);
	RUN("tool_aggregate", counts_sum_by_verdict);
	RUN("tool_aggregate", deltas_between_snapshots);
	RUN("tool_aggregate", sorting);
	RUN("tool_aggregate", json_document);
	return 0;
}
