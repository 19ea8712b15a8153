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

#include "../../tools/msl.h"
#include "../../tools/table.h"
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
	struct msl_print p = { .source = "snapshot" };
	struct msl_table t = { 0 };
	char *out, *line;

	row(&t, 7, "/q\"b\\\n\xff")->c.decisions[MSL_REASON_OVER] = 3;
	row(&t, 8, NULL)->c.scanned[MSL_KIND_PROACTIVE] = 4;
	row(&t, 9, "/idle");
	t.seq = 42;
	t.nr_tracked = 3;
	out = print_json(&t, &p);
	CHECK(starts(out, "{\"source\":\"snapshot\",\"delta\":false,\"seq\":42,\"nr_tracked\":3,"));
	/* One cgroup a line, idle ones left out unless --all. */
	line = strstr(out, "\n{\"id\":7,");
	CHECK(line != NULL);
	CHECK(line && starts(line, "\n{\"id\":7,\"path\":\"/q\\\"b\\\\\\n\\\\xff\",\"removed\":false,\"decisions\":{\"policy_off\":0,\"targeted\":0,\"root\":0,\"below_threshold\":0,\"over\":3,"));
	CHECK(strstr(out, "\"reclaims\":3,\"skips\":0,") != NULL);
	CHECK(strstr(out, "{\"id\":8,\"path\":null,\"removed\":true,") != NULL);
	CHECK(strstr(out, "\"scanned\":{\"kswapd\":0,\"direct\":0,\"proactive\":4,\"targeted\":0}") != NULL);
	CHECK(strstr(out, "\"id\":9") == NULL);
	CHECK(!strcmp(out + strlen(out) - 4, "\n]}\n"));
	free(out);
	p.all = true;
	p.delta = true;
	p.interval = 2;
	out = print_json(&t, &p);
	CHECK(strstr(out, "\"delta\":true,\"interval\":2.000,") != NULL);
	CHECK(strstr(out, "\"time\":") == NULL);
	free(out);
	p.time = 1796000000.25;
	p.cgroup = "/idle";
	out = print_json(&t, &p);
	CHECK(strstr(out, "\"interval\":2.000,\"time\":1796000000.250,\"seq\"") != NULL);
	/* -c: only that cgroup and below. */
	CHECK(strstr(out, "{\"id\":9,") != NULL && strstr(out, "{\"id\":7,") == NULL);
	p.cgroup = NULL;
	CHECK(strstr(out, "{\"id\":9,\"path\":\"/idle\"") != NULL);
	free(out);
	msl_table_clear(&t);
	out = print_json(&t, &p);
	CHECK(strstr(out, "\"cgroups\":[\n]}") != NULL);
	free(out);
	msl_table_free(&t);
}

static char *prom_text(const struct msl_table *t, const struct msl_prom *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	msl_print_prometheus(f, t, o);
	fclose(f);
	return buf;
}

/* Every line a comment or "name{labels} value": no duplicate series. */
static bool prom_well_formed(const char *text)
{
	char *copy = strdup(text), *line, *save, *series[256];
	size_t n = 0, i;
	bool ok = true;

	for (line = strtok_r(copy, "\n", &save); line && ok;
	     line = strtok_r(NULL, "\n", &save)) {
		char *sp = strrchr(line, ' ');

		if (line[0] == '#')
			continue;
		ok = sp && sp[1] && strspn(sp + 1, "0123456789") == strlen(sp + 1) &&
		     !strncmp(line, "memcg_softlimit_", 16);
		*sp = '\0';
		for (i = 0; ok && i < n; i++)
			ok = strcmp(series[i], line) != 0;
		if (n < 256)
			series[n++] = line;
	}
	free(copy);
	return ok;
}

static void prometheus_series(void)
{
	struct msl_prom o = { 0 };
	struct msl_table t = { 0 };
	char *text, want[128];

	row(&t, 7, "/a \"x\"")->c.decisions[MSL_REASON_UNDER] = 12;
	row(&t, 7, NULL)->c.reclaimed[MSL_KIND_KSWAPD] = 3;
	t.rows[0].path = "/a \"x\"";
	row(&t, 8, NULL)->c.decisions[MSL_REASON_OVER] = 1;
	row(&t, 9, NULL)->c.decisions[MSL_REASON_OVER] = 2;
	row(&t, 10, "/b/c")->c.decisions[MSL_REASON_OVER] = 5;
	t.nr_tracked = 4;
	t.missed = 2;
	text = prom_text(&t, &o);
	CHECK(strstr(text, "memcg_softlimit_up 1\n") != NULL);
	CHECK(strstr(text, "memcg_softlimit_decisions_total{cgroup=\"/a \\\"x\\\"\",reason=\"under\"} 12\n") != NULL);
	/* Bytes, not pages. */
	snprintf(want, sizeof(want), "memcg_softlimit_reclaimed_bytes_total{cgroup=\"/a \\\"x\\\"\",kind=\"kswapd\"} %llu\n",
		 (unsigned long long)msl_page_bytes(3));
	CHECK(strstr(text, want) != NULL);
	/* No series that is 0, no id label. */
	CHECK(strstr(text, "reason=\"over\"} 0") == NULL);
	CHECK(strstr(text, "id=") == NULL);
	/* Removed cgroups: one series, their sum. */
	CHECK(strstr(text, "{cgroup=\"(removed)\",reason=\"over\"} 3\n") != NULL);
	CHECK(prom_well_formed(text));
	CHECK(strstr(text, "memcg_softlimit_missed_calls_total 2\n") != NULL);
	free(text);

	o.all = true;
	o.id_label = true;
	text = prom_text(&t, &o);
	CHECK(strstr(text, "{cgroup=\"/a \\\"x\\\"\",id=\"7\",reason=\"over\"} 0\n") != NULL);
	CHECK(strstr(text, "{cgroup=\"(removed)\",id=\"8\",reason=\"over\"} 1\n") != NULL);
	CHECK(prom_well_formed(text));
	free(text);

	o = (struct msl_prom){ .cgroup = "/b" };
	text = prom_text(&t, &o);
	CHECK(strstr(text, "cgroup=\"/b/c\"") != NULL);
	CHECK(strstr(text, "cgroup=\"/a") == NULL);
	free(text);

	/* The module absent: up 0 and why, and nothing else. */
	o = (struct msl_prom){ .down_why = "refused\nat load" };
	text = prom_text(NULL, &o);
	CHECK(!strcmp(text, "# HELP memcg_softlimit_up 1 when the memcg_softlimit module is loaded and its counters were read, else 0.\n"
		      "# TYPE memcg_softlimit_up gauge\nmemcg_softlimit_up 0\n"
		      "# memcg-softlimit: refused at load\n"));
	free(text);
	msl_table_free(&t);
}

static void prometheus_file(void)
{
	char dir[] = "/tmp/msl-unit-prom.XXXXXX", file[PATH_MAX], *text;
	char cmd[PATH_MAX + 64];
	struct msl_prom o = { .id_label = true };
	struct msl_table t = { 0 };
	const char *why;
	struct stat st;
	mode_t old;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(file, sizeof(file), "%s/memcg_softlimit.prom", dir);
	row(&t, 7, "/a")->c.decisions[MSL_REASON_UNDER] = 12;
	t.nr_tracked = 1;
	old = umask(077);
	CHECK(msl_write_prometheus(file, &t, &o, &why) == 0);
	umask(old);
	CHECK(stat(file, &st) == 0 && (st.st_mode & 0777) == 0644);
	text = msl_read_all(file, NULL);
	CHECK(text && strstr(text, "memcg_softlimit_decisions_total{cgroup=\"/a\",id=\"7\",reason=\"under\"} 12\n"));
	free(text);
	/* The guest tests' independent parser of the format agrees. */
	snprintf(cmd, sizeof(cmd), "perl ../guest/prom-check.pl '%s' >&2", file);
	CHECK(system(cmd) == 0);
	/* The module gone: the same file replaced, no stale counters. */
	CHECK(msl_write_prometheus(file, NULL, &o, &why) == 0);
	text = msl_read_all(file, NULL);
	CHECK(text && strstr(text, "memcg_softlimit_up 0\n") &&
	      !strstr(text, "decisions_total"));
	free(text);
	/* Only the file itself: the temporary went by rename. */
	snprintf(file, sizeof(file), "ls -A '%s' | grep -qv memcg_softlimit.prom", dir);
	CHECK(system(file) != 0);
	snprintf(file, sizeof(file), "%s/no/such/dir.prom", dir);
	CHECK(msl_write_prometheus(file, &t, &o, &why) != 0 && why);
	snprintf(file, sizeof(file), "rm -rf '%s'", dir);
	CHECK(system(file) == 0);
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
	RUN("tool_aggregate", prometheus_series);
	RUN("tool_aggregate", prometheus_file);
	return 0;
}
