// SPDX-License-Identifier: GPL-2.0
/*
 * A table of per-cgroup counters for people (a libsmartcols table: -o,
 * --raw, --noheadings) and for programs (one JSON document per snapshot
 * or interval, one cgroup a line, with its time; json.c's vocabulary:
 * pages as bytes).  The reason and kind columns come from
 * policy.h's lists, never from a copy.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <memcg_softlimit/policy.h>

#include "output.h"
#include "counters.h"
#include "json.h"
#include "opts.h"
#include "scols.h"
#include "size.h"

uint64_t msl_page_bytes(uint64_t pages)
{
	long ps = sysconf(_SC_PAGESIZE);

	return pages * (uint64_t)(ps > 0 ? ps : 4096);
}

bool msl_path_under(const char *prefix, const char *path)
{
	size_t n;

	if (!prefix || !strcmp(prefix, "/"))
		return true;
	if (!path)
		return false;
	n = strlen(prefix);
	while (n > 1 && prefix[n - 1] == '/')
		n--;
	return !strncmp(prefix, path, n) && (path[n] == '\0' || path[n] == '/');
}

bool msl_print_shows(const struct msl_row *r, const struct msl_print *p)
{
	if (!p->all && msl_counts_zero(&r->c))
		return false;
	return !p->cgroup || msl_path_under(p->cgroup, r->path);
}

/*
 * Column layout, in the order -w shows them: the verdicts, one per
 * reason, the pages, per kind, and the path last (it is as long as it is).
 */
enum {
	COL_ID, COL_RECLAIM, COL_SKIP,
	COL_REASON0,
	COL_SCANNED = COL_REASON0 + MSL_NR_REASONS, COL_RECLAIMED,
	COL_SCANNED0,
	COL_RECLAIMED0 = COL_SCANNED0 + MSL_NR_KINDS,
	COL_CGROUP = COL_RECLAIMED0 + MSL_NR_KINDS,
	NR_COLS,
};

static char col_names[NR_COLS][40];
static char col_helps[NR_COLS][80];
static struct msl_coldef coldefs[NR_COLS];

static void upper(char *dst, size_t len, const char *prefix, const char *word)
{
	size_t i;

	snprintf(dst, len, "%s%s", prefix, word);
	for (i = 0; dst[i]; i++)
		dst[i] = (char)toupper((unsigned char)dst[i]);
}

static void def(int i, const char *name, const char *help, bool number)
{
	coldefs[i] = (struct msl_coldef){ name, help, number ? 6 : 0.3, 0,
					  number };
}

const struct msl_coldef *msl_counter_columns(size_t *n)
{
	int k;

	*n = NR_COLS;
	if (coldefs[0].name)
		return coldefs;
	def(COL_ID, "ID", "cgroup id (the inode number of its directory)", true);
	def(COL_RECLAIM, "RECLAIM", "decisions that let reclaim run", true);
	def(COL_SKIP, "SKIP", "decisions that skipped the cgroup", true);
	def(COL_SCANNED, "SCANNED", "pages scanned, all kinds", true);
	def(COL_RECLAIMED, "RECLAIMED", "pages reclaimed, all kinds", true);
	def(COL_CGROUP, "CGROUP", "the cgroup's path", false);
	for (k = 0; k < MSL_NR_REASONS; k++) {
		upper(col_names[COL_REASON0 + k], sizeof(col_names[0]), "",
		      msl_reason_name(k));
		snprintf(col_helps[COL_REASON0 + k], sizeof(col_helps[0]),
			 "decisions for the reason %s%s", msl_reason_name(k),
			 msl_reason_skips(k) ? " (a skip)" : "");
		def(COL_REASON0 + k, col_names[COL_REASON0 + k],
		    col_helps[COL_REASON0 + k], true);
	}
	for (k = 0; k < MSL_NR_KINDS; k++) {
		upper(col_names[COL_SCANNED0 + k], sizeof(col_names[0]),
		      "scanned_", msl_kind_name(k));
		snprintf(col_helps[COL_SCANNED0 + k], sizeof(col_helps[0]),
			 "pages scanned by %s reclaim", msl_kind_name(k));
		def(COL_SCANNED0 + k, col_names[COL_SCANNED0 + k],
		    col_helps[COL_SCANNED0 + k], true);
		upper(col_names[COL_RECLAIMED0 + k], sizeof(col_names[0]),
		      "reclaimed_", msl_kind_name(k));
		snprintf(col_helps[COL_RECLAIMED0 + k], sizeof(col_helps[0]),
			 "pages reclaimed by %s reclaim", msl_kind_name(k));
		def(COL_RECLAIMED0 + k, col_names[COL_RECLAIMED0 + k],
		    col_helps[COL_RECLAIMED0 + k], true);
	}
	return coldefs;
}

const char msl_counter_default_cols[] =
	"ID,RECLAIM,SKIP,OVER,ANCESTOR_OVER,RETRY,BELOW_THRESHOLD,SCANNED,RECLAIMED,CGROUP";

static void put_time(FILE *f, double t)
{
	char buf[32];
	time_t s = (time_t)t;
	struct tm tm;

	strftime(buf, sizeof(buf), "%H:%M:%S", localtime_r(&s, &tm));
	fputs(buf, f);
}

static void header_line(FILE *f, const struct msl_table *t,
			const struct msl_print *p)
{
	fputs("# ", f);
	if (p->timestamp && p->time) {
		put_time(f, p->time);
		fputs(" ", f);
	}
	if (p->source && !strcmp(p->source, "events")) {
		fprintf(f, "counted from the events: %zu cgroups\n", t->n);
		return;
	}
	if (p->source && !strcmp(p->source, "between-snapshots")) {
		fprintf(f, "counted from the events between each cgroup's first snapshot and snapshot %llu: %zu cgroups\n",
			(unsigned long long)t->seq, t->n);
		return;
	}
	if (p->delta)
		fprintf(f, "last %.1f s, up to snapshot %llu:", p->interval,
			(unsigned long long)t->seq);
	else
		fprintf(f, "snapshot %llu:", (unsigned long long)t->seq);
	fprintf(f, " %llu cgroups tracked; decisions untracked %llu, dying %llu; calls missed %llu\n",
		(unsigned long long)t->nr_tracked,
		(unsigned long long)t->untracked, (unsigned long long)t->dying,
		(unsigned long long)t->missed);
}

static void cell_u64(struct libscols_line *ln, size_t col, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	scols_line_set_data(ln, col, buf);
}

static void cell_pages(struct libscols_line *ln, size_t col, uint64_t pages,
		       bool bytes)
{
	char buf[MSL_SIZE_BUF];

	if (bytes)
		cell_u64(ln, col, msl_page_bytes(pages));
	else
		scols_line_set_data(ln, col, msl_size_fmt(msl_page_bytes(pages),
							  buf, sizeof(buf)));
}

/*
 * A cgroup the recording does not name but saw only being removed (every
 * decision reason dying): it went before anything named it.
 */
static bool removed_unnamed(const struct msl_row *r)
{
	const struct msl_counts *c = &r->c;

	return c->decisions[MSL_REASON_DYING] &&
	       msl_counts_reclaims(c) + msl_counts_skips(c) ==
	       c->decisions[MSL_REASON_DYING];
}

static void fill_row(struct libscols_line *ln, const struct msl_row *r,
		     const struct msl_print *p)
{
	const struct msl_counts *c = &r->c;
	size_t i;

	for (i = 0; i < p->cols.n; i++) {
		int col = p->cols.idx[i];

		if (col == COL_ID)
			cell_u64(ln, i, r->id);
		else if (col == COL_RECLAIM)
			cell_u64(ln, i, msl_counts_reclaims(c));
		else if (col == COL_SKIP)
			cell_u64(ln, i, msl_counts_skips(c));
		else if (col == COL_SCANNED)
			cell_pages(ln, i, msl_counts_scanned(c), p->bytes);
		else if (col == COL_RECLAIMED)
			cell_pages(ln, i, msl_counts_reclaimed(c), p->bytes);
		else if (col == COL_CGROUP)
			msl_scols_set(ln, i, p->no_paths ? "-" : r->path ? r->path :
				      p->recorded && !removed_unnamed(r) ?
				      "(unnamed)" : "(removed)", false);
		else if (col < COL_SCANNED)
			cell_u64(ln, i, c->decisions[col - COL_REASON0]);
		else if (col < COL_RECLAIMED0)
			cell_pages(ln, i, c->scanned[col - COL_SCANNED0],
				   p->bytes);
		else
			cell_pages(ln, i, c->reclaimed[col - COL_RECLAIMED0],
				   p->bytes);
	}
}

int msl_print_text(FILE *f, const struct msl_table *t,
		   const struct msl_print *p, const struct msl_cmdline *cl)
{
	struct libscols_table *tb;
	struct libscols_line *ln;
	struct msl_cmdline text = *cl;
	size_t i, rows = 0, n;
	const struct msl_coldef *defs = msl_counter_columns(&n);

	text.json = false;
	if (!cl->raw && !cl->noheadings)
		header_line(f, t, p);
	else if (p->timestamp && p->time) {
		put_time(f, p->time);
		fputc('\n', f);
	}
	tb = msl_scols_new(&text, defs, &p->cols, f);
	if (!tb)
		return -1;
	for (i = 0; i < t->n; i++) {
		if (!msl_print_shows(&t->rows[i], p))
			continue;
		ln = scols_table_new_line(tb, NULL);
		if (!ln) {
			scols_unref_table(tb);
			return -1;
		}
		fill_row(ln, &t->rows[i], p);
		rows++;
	}
	msl_scols_print(tb, &text, defs, &p->cols, f);
	scols_unref_table(tb);
	if (!rows && !cl->raw && !cl->noheadings)
		fprintf(f, "# no cgroup with decisions%s%s (--all lists every tracked cgroup)\n",
			p->cgroup ? " below " : "", p->cgroup ? p->cgroup : "");
	return 0;
}

/* Pages by kind, as bytes: "<key>":{"kswapd":N,...} */
static void json_kinds(FILE *f, const char *key, const uint64_t *pages)
{
	int k;

	msl_json_key(f, key);
	for (k = 0; k < MSL_NR_KINDS; k++)
		fprintf(f, "%s\"%s\":%llu", k ? "," : "{", msl_kind_name(k),
			(unsigned long long)msl_page_bytes(pages[k]));
	fputc('}', f);
}

static void json_counts(FILE *f, const struct msl_counts *c)
{
	int k;

	msl_json_key(f, "decisions");
	for (k = 0; k < MSL_NR_REASONS; k++)
		fprintf(f, "%s\"%s\":%llu", k ? "," : "{", msl_reason_name(k),
			(unsigned long long)c->decisions[k]);
	fputc('}', f);
	msl_json_u64(f, "reclaims", msl_counts_reclaims(c));
	msl_json_u64(f, "skips", msl_counts_skips(c));
	json_kinds(f, "scanned_bytes", c->scanned);
	json_kinds(f, "reclaimed_bytes", c->reclaimed);
	msl_json_u64(f, "scanned_bytes_total",
		     msl_page_bytes(msl_counts_scanned(c)));
	msl_json_u64(f, "reclaimed_bytes_total",
		     msl_page_bytes(msl_counts_reclaimed(c)));
}

void msl_print_json(FILE *f, const struct msl_table *t,
		    const struct msl_print *p)
{
	const char *sep = "";
	size_t i;

	msl_json_begin(f, p->command);
	/* stat reads the module; report, a recording. */
	if (!strcmp(p->command, "stat")) {
		msl_json_bool(f, "module_loaded", t != NULL);
		msl_json_str(f, "why", t ? NULL : p->down_why);
	} else if (p->paths_from) {
		msl_json_str(f, "paths", p->paths_from);
	}
	if (p->window)
		fprintf(f, ",\"since\":%.3f,\"until\":%.3f", p->since, p->until);
	msl_json_str(f, "source", p->source);
	msl_json_bool(f, "delta", p->delta);
	msl_json_key(f, "interval");
	if (p->delta)
		fprintf(f, "%.3f", p->interval);
	else
		fputs("null", f);
	/* Seconds since the epoch, when the snapshot was taken. */
	msl_json_key(f, "time");
	if (p->time)
		fprintf(f, "%.3f", p->time);
	else
		fputs("null", f);
	if (t) {
		msl_json_u64(f, "seq", t->seq);
		msl_json_u64(f, "nr_tracked", t->nr_tracked);
		msl_json_u64(f, "untracked", t->untracked);
		msl_json_u64(f, "dying", t->dying);
		msl_json_u64(f, "missed", t->missed);
	}
	msl_json_u64(f, "page_size", msl_page_bytes(1));
	msl_json_path(f, "cgroup_filter", p->cgroup);
	msl_json_key(f, "cgroups");
	fputc('[', f);
	for (i = 0; t && i < t->n; i++) {
		const struct msl_row *r = &t->rows[i];

		if (!msl_print_shows(r, p))
			continue;
		fprintf(f, "%s\n{\"id\":%llu", sep, (unsigned long long)r->id);
		sep = ",";
		msl_json_path(f, "path", p->no_paths ? NULL : r->path);
		msl_json_key(f, "removed");
		/* a recording that does not name a cgroup says nothing of it */
		fputs(p->no_paths ||
		      (p->recorded && !r->path && !removed_unnamed(r)) ? "null" :
		      r->path ? "false" : "true", f);
		json_counts(f, &r->c);
		fputc('}', f);
	}
	fputs("\n]}\n", f);
}
