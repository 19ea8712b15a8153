// SPDX-License-Identifier: GPL-2.0
/* Column choice and libsmartcols tables, see scols.h. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "scols.h"
#include "escape.h"
#include "opts.h"
#include "size.h"

static int find_col(const struct msl_coldef *defs, size_t ndefs,
		    const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < ndefs; i++)
		if (strlen(defs[i].name) == len &&
		    !strncasecmp(defs[i].name, name, len))
			return (int)i;
	return -1;
}

/* Appends the comma-separated names of @list to @out. */
static int add_list(const struct msl_coldef *defs, size_t ndefs,
		    const char *list, struct msl_cols *out, char *why,
		    size_t whylen)
{
	const char *p = list;
	size_t len;
	int idx;

	while (*p) {
		len = strcspn(p, ",");
		if (!len) {
			snprintf(why, whylen, "empty column name in '%s'", list);
			return -1;
		}
		idx = find_col(defs, ndefs, p, len);
		if (idx < 0) {
			snprintf(why, whylen, "unknown column '%.*s' (-o help lists them)",
				 (int)len, p);
			return -1;
		}
		if (out->n == MSL_MAX_COLS) {
			snprintf(why, whylen, "too many columns");
			return -1;
		}
		out->idx[out->n++] = idx;
		p += len;
		if (*p == ',' && !*++p) {
			snprintf(why, whylen, "empty column name in '%s'", list);
			return -1;
		}
	}
	return 0;
}

int msl_cols_select(const struct msl_coldef *defs, size_t ndefs,
		    const char *defaults, const char *spec,
		    struct msl_cols *out, char *why, size_t whylen)
{
	out->n = 0;
	if (!spec || *spec == '+') {
		if (add_list(defs, ndefs, defaults, out, why, whylen))
			return -1;
		if (!spec)
			return 0;
		spec++;
	}
	if (!*spec) {
		snprintf(why, whylen, "no column named");
		return -1;
	}
	return add_list(defs, ndefs, spec, out, why, whylen);
}

bool msl_cols_has(const struct msl_cols *cols, int idx)
{
	size_t i;

	for (i = 0; i < cols->n; i++)
		if (cols->idx[i] == idx)
			return true;
	return false;
}

void msl_cols_help(FILE *f, const struct msl_coldef *defs, size_t ndefs,
		   const char *defaults)
{
	size_t i;

	fprintf(f, "columns (default %s):\n", defaults);
	for (i = 0; i < ndefs; i++)
		fprintf(f, "  %-18s %s\n", defs[i].name, defs[i].help);
}

int msl_cols_from_cmdline(const struct msl_cmdline *cl,
			  const struct msl_coldef *defs, size_t ndefs,
			  const char *defaults, struct msl_cols *out)
{
	char why[256];
	size_t i;

	if (cl->output && !strcasecmp(cl->output, "help")) {
		msl_cols_help(stdout, defs, ndefs, defaults);
		return 1;
	}
	if (cl->wide && !cl->output) {
		out->n = 0;
		for (i = 0; i < ndefs && i < MSL_MAX_COLS; i++)
			out->idx[out->n++] = (int)i;
		return 0;
	}
	if (msl_cols_select(defs, ndefs, defaults, cl->output, out, why,
			    sizeof(why))) {
		msl_usage_error(cl->cmd, "-o %s: %s", cl->output, why);
		return -1;
	}
	return 0;
}

struct libscols_table *msl_scols_new(const struct msl_cmdline *cl,
				     const struct msl_coldef *defs,
				     const struct msl_cols *cols, FILE *f)
{
	struct libscols_table *tb = scols_new_table();
	struct libscols_column *col;
	char lower[64];
	size_t i, j;

	if (!tb)
		return NULL;
	scols_table_set_stream(tb, f);
	scols_table_enable_raw(tb, cl->raw);
	scols_table_enable_noheadings(tb, cl->noheadings);
	scols_table_enable_json(tb, cl->json);
	/* Never cut a cgroup path to the terminal's width: scripts read it. */
	scols_table_enable_nowrap(tb, 1);
	scols_table_set_name(tb, "cgroups");
	for (i = 0; i < cols->n; i++) {
		const struct msl_coldef *d = &defs[cols->idx[i]];

		/* JSON keys in lower case, as lsblk writes them. */
		for (j = 0; d->name[j] && j + 1 < sizeof(lower); j++)
			lower[j] = (char)tolower((unsigned char)d->name[j]);
		lower[j] = '\0';
		/* --raw: no tree drawing, as lsblk --raw (a script reads it). */
		col = scols_table_new_column(tb, cl->json ? lower : d->name,
					     d->whint, (d->flags |
					     (d->number ? SCOLS_FL_RIGHT : 0)) &
					     ~(cl->raw ? SCOLS_FL_TREE : 0));
		if (!col) {
			scols_unref_table(tb);
			return NULL;
		}
		if (d->number)
			scols_column_set_json_type(col, SCOLS_JSON_NUMBER);
	}
	return tb;
}

void msl_scols_print(struct libscols_table *tb, const struct msl_cmdline *cl,
		     const struct msl_coldef *defs,
		     const struct msl_cols *cols, FILE *f)
{
	size_t i;

	if (scols_table_get_nlines(tb) || cl->json) {
		scols_print_table(tb);
		return;
	}
	if (cl->noheadings)
		return;
	for (i = 0; i < cols->n; i++)
		fprintf(f, "%s%s", i ? " " : "", defs[cols->idx[i]].name);
	fputc('\n', f);
}

int msl_scols_set(struct libscols_line *ln, size_t col, const char *s,
		  bool json)
{
	char *safe = NULL;
	size_t len;
	FILE *f;
	int ret;

	if (!json)
		return scols_line_set_data(ln, col, s);
	f = open_memstream(&safe, &len);
	if (!f)
		return -1;
	msl_put_utf8_safe(f, s);
	if (fclose(f))
		return -1;
	ret = scols_line_refer_data(ln, col, safe);
	if (ret)
		free(safe);
	return ret;
}

void msl_scols_size(struct libscols_line *ln, size_t col, uint64_t bytes,
		    const struct msl_cmdline *cl)
{
	char buf[MSL_SIZE_BUF];

	if (cl->bytes || cl->json)
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)bytes);
	else
		msl_size_fmt(bytes, buf, sizeof(buf));
	scols_line_set_data(ln, col, buf);
}
