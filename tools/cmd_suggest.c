// SPDX-License-Identifier: GPL-2.0
/*
 * suggest [PATH] [INTERVAL [COUNT]]: for each cgroup below PATH, the
 * memory it reused within a window (--age), its usage, its soft limit and
 * what that keeps now, and the soft limit that would protect what it
 * reuses (suggest.c).  It only reads: nothing is written into a memcg,
 * no reclaim is asked for, no aging started.  On MGLRU what it reused is
 * what the kernel's own agings found in use (lru_gen in debugfs, root
 * only); on the classic LRU, memory.stat's active lists, a bound from
 * above.  With INTERVAL, the largest of COUNT readings.  --write FILE:
 * the suggestions as a rules file that apply takes (suggest_file.c).
 * The readings themselves are suggest_sample.c's.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <memcg_softlimit/policy.h>

#include "absence.h"
#include "cgroup.h"
#include "json.h"
#include "msl.h"
#include "opts.h"
#include "output.h"
#include "scols.h"
#include "size.h"
#include "softlimit.h"
#include "suggest.h"
#include "suggest_sample.h"
#include "trace.h"

#define DEFAULT_AGE_MS		(5 * 60 * 1000ULL)
#define DEFAULT_HEADROOM	10

/* "30s", "5m", "1500ms": as --age takes it back. */
static const char *duration_text(uint64_t ms, char *buf, size_t len)
{
	if (ms % 3600000 == 0)
		snprintf(buf, len, "%lluh", (unsigned long long)(ms / 3600000));
	else if (ms % 60000 == 0)
		snprintf(buf, len, "%llum", (unsigned long long)(ms / 60000));
	else if (ms % 1000 == 0)
		snprintf(buf, len, "%llus", (unsigned long long)(ms / 1000));
	else
		snprintf(buf, len, "%llums", (unsigned long long)ms);
	return buf;
}

/* What its soft limit keeps of its usage now (false: nothing does). */
static bool protected_now(const struct msl_suggest *s,
			  const struct msl_suggest_row *r, uint64_t usage,
			  uint64_t *bytes)
{
	bool max = r->lim.src == MSL_LIMIT_MAX ||
		   (r->lim.src == MSL_LIMIT_V1 &&
		    r->lim.bytes >= msl_v1_max_bytes());

	if (!s->loaded || r->lim.src == MSL_LIMIT_UNSET)
		return false;
	/* Under it: all of it; over it: reclaimed down to it, then skipped. */
	*bytes = max || usage <= r->lim.bytes ? usage : r->lim.bytes;
	return true;
}

enum {
	COL_CGROUP, COL_ID, COL_USAGE, COL_PEAK, COL_REUSED, COL_ESTIMATE,
	COL_UNAGED, COL_OTHER, COL_REFAULTS, COL_LOW, COL_SOFT_LIMIT,
	COL_PROTECTED, COL_SUGGESTED, NR_COLS,
};
static const struct msl_coldef suggest_cols[NR_COLS] = {
	[COL_CGROUP] = { "CGROUP", "the cgroup, drawn as a tree", 0.3, SCOLS_FL_TREE, false },
	[COL_ID] = { "ID", "cgroup id", 6, 0, true },
	[COL_USAGE] = { "USAGE", "memory in use (its subtree's)", 6, 0, true },
	[COL_PEAK] = { "PEAK", "memory.peak (v1: memory.max_usage_in_bytes)", 6, 0, true },
	[COL_REUSED] = { "REUSED", "memory reused within the window (? not known)", 6, 0, true },
	[COL_ESTIMATE] = { "ESTIMATE", "what REUSED is: window, partial, unknown, upper_bound", 8, 0, false },
	[COL_UNAGED] = { "UNAGED", "MGLRU: memory of memcgs not aged within the window", 6, 0, true },
	[COL_OTHER] = { "OTHER", "memory on no LRU list: kernel memory, unevictable", 6, 0, true },
	[COL_REFAULTS] = { "REFAULTS", "evicted pages that came back (one reading: ever; sampling: in the span)", 6, 0, true },
	[COL_LOW] = { "LOW", "memory.low (cgroup v2)", 6, SCOLS_FL_RIGHT, false },
	[COL_SOFT_LIMIT] = { "SOFT_LIMIT", "soft limit now (unset, max, a size)", 6, SCOLS_FL_RIGHT, false },
	[COL_PROTECTED] = { "PROTECTED", "what its soft limit keeps of its usage now", 6, 0, true },
	[COL_SUGGESTED] = { "SUGGESTED", "the soft limit suggested: REUSED + OTHER + headroom, in MiB", 6, SCOLS_FL_RIGHT, false },
};
static const char suggest_default_cols[] =
	"CGROUP,USAGE,REUSED,ESTIMATE,SOFT_LIMIT,PROTECTED,SUGGESTED";
static const char suggest_default_cols_classic[] =
	"CGROUP,USAGE,REUSED,ESTIMATE,REFAULTS,SOFT_LIMIT,PROTECTED,SUGGESTED";

static void fill(const struct msl_suggest *s, const struct msl_suggest_row *r,
		 const struct msl_cols *cols, struct libscols_line *ln)
{
	const struct msl_cmdline *cl = s->cl;
	struct msl_reuse e;
	uint64_t v;
	char buf[64];
	size_t c;

	msl_reuse_span_result(&r->span, &e);
	for (c = 0; c < cols->n; c++) {
		switch (cols->idx[c]) {
		case COL_CGROUP:
			/* Drawn as a tree: the name; --raw: the whole path. */
			scols_line_set_data(ln, c, r->depth == s->base || cl->raw ?
					    r->path : strrchr(r->path, '/') + 1);
			break;
		case COL_ID:
			snprintf(buf, sizeof(buf), "%llu", (unsigned long long)r->id);
			scols_line_set_data(ln, c, buf);
			break;
		case COL_USAGE:
			msl_scols_size(ln, c, e.usage, cl);
			break;
		case COL_PEAK:
			if (r->have_peak)
				msl_scols_size(ln, c, r->peak, cl);
			break;
		case COL_REUSED:
			if (e.kind == MSL_REUSE_UNKNOWN)
				scols_line_set_data(ln, c, "?");
			else
				msl_scols_size(ln, c, e.reused, cl);
			break;
		case COL_ESTIMATE:
			scols_line_set_data(ln, c, msl_reuse_kind_name(e.kind));
			break;
		case COL_UNAGED:
			if (s->mglru)
				msl_scols_size(ln, c, e.unaged, cl);
			break;
		case COL_OTHER:
			msl_scols_size(ln, c, e.other, cl);
			break;
		case COL_REFAULTS:
			if (e.have_refaults) {
				snprintf(buf, sizeof(buf), "%llu",
					 (unsigned long long)e.refaults);
				scols_line_set_data(ln, c, buf);
			}
			break;
		case COL_LOW:
			if (r->have_low) {
				if (r->low == UINT64_MAX)
					scols_line_set_data(ln, c, "max");
				else
					msl_scols_size(ln, c, r->low, cl);
			}
			break;
		case COL_SOFT_LIMIT:
			msl_limit_fmt(&r->lim, buf, sizeof(buf), cl->bytes);
			scols_line_set_data(ln, c, buf);
			break;
		case COL_PROTECTED:
			if (protected_now(s, r, e.usage, &v))
				msl_scols_size(ln, c, v, cl);
			else
				scols_line_set_data(ln, c, "-");
			break;
		case COL_SUGGESTED:
			if (msl_reuse_suggest(&e, s->headroom, &v))
				msl_scols_size(ln, c, v, cl);
			else
				scols_line_set_data(ln, c, "?");
			break;
		}
	}
}

static int print_table(const struct msl_suggest *s, const struct msl_cols *cols)
{
	struct libscols_line **parents, *ln;
	struct libscols_table *tb;
	int depth;
	size_t i;

	tb = msl_scols_new(s->cl, suggest_cols, cols, stdout);
	parents = calloc(s->n + 1, sizeof(*parents));
	if (!tb || !parents) {
		scols_unref_table(tb);
		free(parents);
		return -1;
	}
	for (i = 0; i < s->n; i++) {
		depth = s->rows[i].depth - s->base;
		ln = scols_table_new_line(tb, depth > 0 ? parents[depth - 1] :
					  NULL);
		if (!ln)
			break;
		parents[depth] = ln;
		fill(s, &s->rows[i], cols, ln);
	}
	msl_scols_print(tb, s->cl, suggest_cols, cols, stdout);
	scols_unref_table(tb);
	free(parents);
	return 0;
}

/* What the table's words mean here, under it (as tree's footer). */
static void print_footer(const struct msl_suggest *s, unsigned int samples)
{
	bool unknown = false, partial = false;
	struct msl_reuse e;
	char age[32];
	size_t i;

	for (i = 0; i < s->n; i++) {
		msl_reuse_span_result(&s->rows[i].span, &e);
		unknown |= e.kind == MSL_REUSE_UNKNOWN;
		partial |= e.kind == MSL_REUSE_PARTIAL;
	}
	duration_text(s->age_ms, age, sizeof(age));
	if (s->mglru)
		printf("# MGLRU: REUSED is what the kernel's agings found in use within the last %s (lru_gen's generations younger than that), the subtree's memcgs summed\n",
		       age);
	else
		printf("# classic LRU: REUSED is an upper bound, not a measure of the last %s: the active lists of memory.stat, pages used twice since they came in, at any time; REFAULTS: evicted pages that came back%s\n",
		       age, samples > 1 ? " during the readings" : "");
	if (unknown)
		printf("# unknown: no aging within %s (the kernel ages a memcg under reclaim): a longer --age, or readings over a longer span (suggest INTERVAL COUNT)\n",
		       age);
	if (partial)
		printf("# partial: memcgs of its subtree not aged within %s counted whole (UNAGED)\n",
		       age);
	if (samples > 1)
		printf("# the largest REUSED of %u readings %gs apart\n", samples,
		       s->cl->interval);
	printf("# SUGGESTED: REUSED, memory on no LRU list (OTHER: kernel memory) and %u%%, rounded up to a MiB; PROTECTED: what its soft limit keeps of its usage now\n",
	       s->headroom);
	if (!s->loaded)
		printf("# %s: no soft limit protects anything now\n",
		       msl_module_absent_why());
}

static void print_json(const struct msl_suggest *s, unsigned int samples)
{
	struct msl_reuse e;
	FILE *f = stdout;
	uint64_t v = 0;
	bool have;
	size_t i;

	msl_json_begin(f, "suggest");
	msl_json_str(f, "lru", s->mglru ? "mglru" : "classic");
	msl_json_str(f, "source", s->mglru ? "lru_gen" : "memory.stat");
	msl_json_u64(f, "age_ms", s->age_ms);
	msl_json_u64(f, "headroom_percent", s->headroom);
	msl_json_u64(f, "samples", samples);
	msl_json_key(f, "interval");
	if (samples > 1)
		fprintf(f, "%.3f", s->cl->interval);
	else
		fputs("null", f);
	fprintf(f, ",\"time\":%.3f", s->time);
	msl_json_bool(f, "module_loaded", s->loaded);
	msl_json_key(f, "cgroups");
	fputc('[', f);
	for (i = 0; i < s->n; i++) {
		const struct msl_suggest_row *r = &s->rows[i];

		msl_reuse_span_result(&r->span, &e);
		fprintf(f, "%s\n{\"id\":%llu", i ? "," : "",
			(unsigned long long)r->id);
		msl_json_path(f, "path", r->path);
		msl_json_u64(f, "usage_bytes", e.usage);
		msl_json_opt_u64(f, "peak_bytes", r->have_peak, r->peak);
		msl_json_opt_u64(f, "memory_low_bytes", r->have_low, r->low);
		msl_json_str(f, "reuse", msl_reuse_kind_name(e.kind));
		msl_json_opt_u64(f, "reused_bytes", e.kind != MSL_REUSE_UNKNOWN,
				 e.reused);
		msl_json_opt_u64(f, "unaged_bytes", s->mglru, e.unaged);
		msl_json_u64(f, "other_bytes", e.other);
		msl_json_opt_u64(f, "refaults", e.have_refaults, e.refaults);
		msl_json_limit(f, &r->lim);
		have = protected_now(s, r, e.usage, &v);
		msl_json_opt_u64(f, "protected_bytes", have, v);
		have = msl_reuse_suggest(&e, s->headroom, &v);
		msl_json_opt_u64(f, "suggested_bytes", have, v);
		fputc('}', f);
	}
	fputs(s->n ? "\n]}\n" : "]}\n", f);
}

/* --write FILE's text: a rule, or why none, per row. */
static int write_rules(const struct msl_suggest *s, const char *file,
		       bool replace)
{
	struct msl_suggestion *sg = calloc(s->n ? s->n : 1, sizeof(*sg));
	char age[32], what[256], when[64], why[128];
	struct msl_reuse e;
	time_t now = (time_t)s->time;
	struct tm tm;
	size_t i;
	int ret;

	if (!sg) {
		msl_err("out of memory");
		return MSL_EXIT_ERR;
	}
	duration_text(s->age_ms, age, sizeof(age));
	snprintf(why, sizeof(why), "its reuse is not known (no aging within %s)",
		 age);
	for (i = 0; i < s->n; i++) {
		msl_reuse_span_result(&s->rows[i].span, &e);
		sg[i].path = s->rows[i].path;
		sg[i].known = msl_reuse_suggest(&e, s->headroom, &sg[i].limit);
		sg[i].why = why;
	}
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %z",
		 localtime_r(&now, &tm));
	if (s->mglru)
		snprintf(what, sizeof(what), "at %s: memory reused within %s (MGLRU's generations), headroom %u%%",
			 when, age, s->headroom);
	else
		snprintf(what, sizeof(what), "at %s: memory.stat's active lists (an upper bound), headroom %u%%",
			 when, s->headroom);
	ret = msl_suggest_write(file, what, sg, s->n, replace, s->cl->json);
	free(sg);
	return ret;
}

static const struct msl_optuse suggest_opts[] = {
	{ MSL_OPT_AGE, "the window: memory used within DURATION (30s, 5m, 500ms, 1h; plain: seconds); default 5m, or INTERVAL when sampling" },
	{ MSL_OPT_HEADROOM, NULL },
	{ MSL_OPT_WRITE, "also write the suggestions to FILE as rules (apply's format), never applied by suggest; an existing FILE is replaced only if suggest wrote it" },
	{ MSL_OPT_JSON, "JSON: one document, every field" },
	{ MSL_OPT_OUTPUT, NULL },
	{ MSL_OPT_WIDE, NULL },
	{ MSL_OPT_RAW, NULL },
	{ MSL_OPT_NOHEADINGS, NULL },
	{ MSL_OPT_BYTES, NULL },
	{ MSL_OPT_END, NULL },
};

static int cmd_suggest(const struct msl_cmdline *cl)
{
	struct msl_suggest s = { .cl = cl };
	unsigned int samples = 0;
	struct msl_cols cols;
	bool replace = false;
	int ret;

	s.mglru = msl_suggest_mglru_enabled();
	ret = msl_cols_from_cmdline(cl, suggest_cols, NR_COLS, s.mglru ?
				    suggest_default_cols :
				    suggest_default_cols_classic, &cols);
	if (ret)
		return ret < 0 ? MSL_EXIT_USAGE : MSL_EXIT_OK;
	s.age_ms = cl->age_ms ? cl->age_ms :
		   cl->interval > 0 ? (uint64_t)(cl->interval * 1000 + 0.5) :
		   DEFAULT_AGE_MS;
	if (!s.age_ms)
		s.age_ms = 1;
	s.headroom = cl->headroom >= 0 ? (unsigned int)cl->headroom :
		     DEFAULT_HEADROOM;
	s.page_size = (uint64_t)sysconf(_SC_PAGESIZE);
	ret = msl_target_open(&s.at, cl->nargs ? cl->args[0] : "/", 0);
	if (ret)
		return ret;
	/* Before any reading: a file it may not replace is said now. */
	if (cl->write) {
		ret = msl_suggest_write_check(cl->write, &replace);
		if (ret)
			return ret;
	}
	msl_signals_install();
	for (;;) {
		ret = msl_suggest_sample(&s);
		if (ret)
			goto out;
		samples++;
		if (cl->interval <= 0 || (cl->count > 0 && samples >= cl->count))
			break;
		/* Interrupted: what the readings so far saw. */
		if (msl_sleep(cl->interval))
			break;
	}
	if (cl->json) {
		print_json(&s, samples);
	} else {
		if (print_table(&s, &cols)) {
			msl_err("out of memory");
			ret = MSL_EXIT_ERR;
			goto out;
		}
		if (!cl->raw && !cl->noheadings)
			print_footer(&s, samples);
	}
	ret = cl->write ? write_rules(&s, cl->write, replace) : MSL_EXIT_OK;
out:
	msl_suggest_rows_free(s.rows, s.n);
	return ret;
}

const struct msl_cmd msl_cmd_suggest = {
	.name = "suggest", .fn = cmd_suggest, .opts = suggest_opts,
	.args = "[PATH] [INTERVAL [COUNT]]", .min_args = 0, .max_args = 1,
	.flags = MSL_ARGS_INTERVAL,
	.summary = "the soft limit each cgroup needs: the memory it reuses",
	.help =
	"For each cgroup below PATH (by default all): the memory it reused\n"
	"within the last --age, its usage, its soft limit and what that keeps\n"
	"now, and the soft limit suggested: what it reused, its kernel memory and\n"
	"--headroom percent more.  MGLRU: what the kernel's agings found in use\n"
	"(/sys/kernel/debug/lru_gen: root, debugfs mounted); a cgroup not aged\n"
	"within the window is unknown.  Classic LRU: memory.stat's active lists,\n"
	"an upper bound.  With INTERVAL [COUNT], the largest of COUNT readings\n"
	"INTERVAL seconds apart (until interrupted without COUNT); a PATH that is\n"
	"a number is written /60.  It only reads: nothing is written into a\n"
	"cgroup, no reclaim, no aging.",
};
