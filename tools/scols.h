/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tables and trees through util-linux's libsmartcols, the way lsblk and
 * findmnt print them: -o picks the columns, --raw, --noheadings; trees
 * (tree) as libsmartcols draws them, with wide characters counted as
 * wide.
 */
#ifndef MSL_TOOL_SCOLS_H
#define MSL_TOOL_SCOLS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <libsmartcols.h>

struct msl_cmdline;

struct msl_coldef {
	const char *name;		/* upper case, as -o takes it */
	const char *help;
	double whint;			/* libsmartcols' width hint */
	int flags;			/* SCOLS_FL_* */
	bool number;			/* a JSON number, aligned right */
};

/* Columns as -o picks them: indexes into a command's definitions. */
#define MSL_MAX_COLS	64
struct msl_cols {
	int idx[MSL_MAX_COLS];
	size_t n;
};

/*
 * -o: "A,B" (just those), "+A,B" (@defaults, then those); names in any
 * case.  NULL @spec: @defaults.  0, or -1 with @why said.
 */
int msl_cols_select(const struct msl_coldef *defs, size_t ndefs,
		    const char *defaults, const char *spec,
		    struct msl_cols *out, char *why, size_t whylen);
bool msl_cols_has(const struct msl_cols *cols, int idx);
/* -o help: the columns a command has. */
void msl_cols_help(FILE *f, const struct msl_coldef *defs, size_t ndefs,
		   const char *defaults);
/*
 * The command line's columns for a table (-o, -w for all of them): 0;
 * -1 (usage error said) or 1 (-o help printed) to stop.
 */
int msl_cols_from_cmdline(const struct msl_cmdline *cl,
			  const struct msl_coldef *defs, size_t ndefs,
			  const char *defaults, struct msl_cols *out);
/* A table of those columns on @f, --raw, --noheadings, --json applied. */
struct libscols_table *msl_scols_new(const struct msl_cmdline *cl,
				     const struct msl_coldef *defs,
				     const struct msl_cols *cols, FILE *f);
/*
 * Prints @tb.  libsmartcols prints nothing for a table without lines: the
 * header line is printed here then (unless --noheadings, --json), so that
 * every screen of top has one.
 */
void msl_scols_print(struct libscols_table *tb, const struct msl_cmdline *cl,
		     const struct msl_coldef *defs,
		     const struct msl_cols *cols, FILE *f);
/*
 * A cell's text as libsmartcols gets it: for JSON, bytes that are not
 * valid UTF-8 as the text \xNN (libsmartcols would write them as they
 * are, which is not JSON); else as is (it escapes them itself).
 */
int msl_scols_set(struct libscols_line *ln, size_t col, const char *s,
		  bool json);
/*
 * A size cell: @bytes as a number with --bytes or --json (a JSON
 * number), else as msl_size_fmt() writes it ("40.1M").
 */
void msl_scols_size(struct libscols_line *ln, size_t col, uint64_t bytes,
		    const struct msl_cmdline *cl);

#endif /* MSL_TOOL_SCOLS_H */
