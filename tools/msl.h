/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memcg-softlimit, the userspace tool: what its files share.  The pure
 * parts (sizes, escaping, counters, explain) need nothing but libc and are
 * linked into the unit tests as they are.
 */
#ifndef MSL_TOOL_H
#define MSL_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <memcg_softlimit/policy.h>
#include <memcg_softlimit/control.h>

#define MSL_PROG		"memcg-softlimit"
#define MSL_EXIT_OK		0
#define MSL_EXIT_ERR		1	/* runtime error */
#define MSL_EXIT_USAGE		2	/* bad command line or arguments */

#define MSL_MODULE_NAME		"memcg_softlimit"
#define MSL_SYS_MODULE		"/sys/module/memcg_softlimit"
#define MSL_CONF_DEFAULT	"/etc/memcg-softlimit.conf"

/* The kernel's names for these, so that the tool reads like the module. */
#ifndef __printf
#define msl_attribute(x)	__attribute__((x))
#define __printf(a, b)		msl_attribute(format(printf, a, b))
#endif
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif

/* util.c */
void msl_err(const char *fmt, ...) __printf(1, 2);
void msl_warn(const char *fmt, ...) __printf(1, 2);
/* A small file into buf, NUL-terminated: length, or -errno. */
ssize_t msl_read_file(const char *path, char *buf, size_t len);
/* A whole file, malloc'ed and NUL-terminated: NULL with errno set. */
char *msl_read_all(const char *path, size_t *lenp);
/* One write(2) of s: 0 or -errno (the control file wants one command each). */
int msl_write_file(const char *path, const char *s);

/* size.c: sizes as the module's control interface takes them */
#define MSL_SIZE_BUF	32
int msl_size_parse(const char *s, uint64_t *bytes, bool *is_max);
/* "0", "4K", "80M", "1.5G" (exact when a whole number of the unit), "max" */
const char *msl_size_fmt(uint64_t bytes, char *buf, size_t len);
/* Seconds with an optional fraction ("2", "0.5"), > 0 and <= 86400. */
int msl_seconds_parse(const char *s, double *out);

/* escape.c: cgroup names are bytes; every output format gets them safely */
/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if none. */
size_t msl_utf8_seq(const unsigned char *s, size_t n);
/* Terminal: control characters, backslash and invalid UTF-8 as \xNN, \\ */
void msl_put_text(FILE *f, const char *s);
/* As is, but bytes that are not valid UTF-8 as the text \xNN. */
void msl_put_utf8_safe(FILE *f, const char *s);
/* The same into @buf (cut short if it does not fit). */
const char *msl_text(const char *s, char *buf, size_t len);
/* A cgroup path as text, "(removed)" for NULL. */
void msl_put_cgroup(FILE *f, const char *path);
/* JSON string with its quotes; invalid UTF-8 bytes as the text "\xNN" */
void msl_put_json_str(FILE *f, const char *s);
/*
 * Prometheus label value without quotes: backslash, double quote and
 * newline escaped; invalid UTF-8 as \\xNN
 */
void msl_put_prom_label(FILE *f, const char *s);

/* cgroup.c: the memory controller's hierarchy */
struct msl_cgfs {
	int version;			/* 1 or 2 */
	char mount[4096];		/* where the hierarchy is mounted */
};
int msl_cgfs_find(struct msl_cgfs *fs, const char *mountinfo);
/*
 * A user's PATH to the cgroup path below the mount ("/" for the root):
 * "/sys/fs/cgroup/a/b", "/a/b" and "a/b" all give "/a/b".  0, or -1 with
 * *why set.
 */
int msl_cg_normalize(const struct msl_cgfs *fs, const char *in, char *out,
		     size_t len, const char **why);
/*
 * A command's PATH argument: normalized, and checked to be a cgroup
 * (MSL_CG_NOT_ROOT: not the root; MSL_CG_MEMCG: with a memcg of its own).
 * Returns an exit status: 0, MSL_EXIT_USAGE (bad path, the root) or
 * MSL_EXIT_ERR (no such cgroup, not a cgroup, no memcg), with @msg set.
 */
#define MSL_CG_NOT_ROOT	1
#define MSL_CG_MEMCG	2
int msl_cg_resolve(const struct msl_cgfs *fs, const char *arg,
		   unsigned int flags, char *cgpath, size_t len, uint64_t *id,
		   char *msg, size_t msglen);
void msl_cg_fspath(const struct msl_cgfs *fs, const char *cgpath, char *buf,
		   size_t len);
/* 0 and the cgroup id; -ENOENT, -ENOTDIR (not a cgroup) */
int msl_cg_id(const struct msl_cgfs *fs, const char *cgpath, uint64_t *id);
/* A memcg of its own: v2 memory.current, v1 memory.usage_in_bytes. */
bool msl_cg_has_memcg(const struct msl_cgfs *fs, const char *cgpath);
int msl_cg_usage(const struct msl_cgfs *fs, const char *cgpath,
		 uint64_t *bytes);
int msl_cg_read_u64(const struct msl_cgfs *fs, const char *cgpath,
		    const char *file, uint64_t *val);

/* The hierarchy walked once: cgroup ids to paths, and the tree in order. */
struct msl_cgnode {
	uint64_t id;
	char *path;			/* "/", "/a", "/a/b" */
	int depth;			/* 0 for the root */
	bool last;			/* last child of its parent (tree drawing) */
};
struct msl_cgmap {
	struct msl_cgnode *nodes;	/* depth-first, children by name */
	size_t n, cap;
	size_t *by_id;			/* indexes into nodes, sorted by id */
};
int msl_cgmap_build(struct msl_cgmap *m, const struct msl_cgfs *fs);
/* NULL when no cgroup has that id (any more). */
const char *msl_cgmap_path(const struct msl_cgmap *m, uint64_t id);
void msl_cgmap_free(struct msl_cgmap *m);

/* module.c: the loaded module and its parameters */
struct msl_module {
	bool loaded;
	bool params_read;		/* else V8's defaults */
	char version[64];
	struct msl_params params;
	bool keep_v1_reclaim;
};
void msl_module_read(struct msl_module *m);
bool msl_module_loaded(void);
void msl_params_default(struct msl_params *p);
int msl_bool_word(const char *s, bool *out);
/* "auto" or the number. */
const char *msl_threshold_fmt(int threshold, char *buf, size_t len);
/* "enabled=Y priority_threshold=auto unset=inherit" */
const char *msl_params_fmt(const struct msl_params *p, char *buf, size_t len);

/* absence.c: why the module is not loaded */
enum msl_absence_why {
	MSL_PRESENT,
	MSL_ABSENT_NOT_BUILT,		/* no module for the running kernel */
	MSL_ABSENT_REFUSED,		/* refused at load (dmesg says why) */
	MSL_ABSENT_LOCKDOWN,		/* signature refused: key not enrolled */
	MSL_ABSENT_NOT_LOADED,		/* there, not loaded */
};
struct msl_absence_facts {
	const char *kernel;		/* uname -r */
	const char *ko_path;		/* our module for it, or NULL */
	int ko_signed;			/* 1, 0, -1 unknown */
	const char *lockdown;		/* /sys/kernel/security/lockdown */
	bool sig_enforced;		/* module.sig_enforce=1 */
	const char *kmsg;		/* the kernel log, or NULL */
};
struct msl_absence {
	enum msl_absence_why why;
	char detail[400];		/* the kernel log's line, if any */
	char text[1024];		/* one sentence: what, and what to do */
};
void msl_absence_classify(const struct msl_absence_facts *f,
			  struct msl_absence *out);
void msl_absence_probe(struct msl_absence *out);
const char *msl_absence_word(enum msl_absence_why why);
/* The sentence for this machine, for errors that need the module. */
const char *msl_module_absent_why(void);

/* limits.c: soft limits by cgroup, v1 and v2 */
struct msl_limit {
	enum msl_limit_src src;
	uint64_t bytes;			/* SET and V1 */
};
struct msl_v2limit {
	uint64_t id;
	bool is_max;
	uint64_t bytes;
};
struct msl_v2limits {
	struct msl_v2limit *v;
	size_t n;
};
/* Parses the module's listing; 0, or -1 on a malformed line. */
int msl_v2limits_parse(struct msl_v2limits *l, const char *text);
/* Reads MSL_CTL_LIMITS: 0, -ENOENT (module not loaded), -errno */
int msl_v2limits_load(struct msl_v2limits *l);
void msl_v2limits_free(struct msl_v2limits *l);
bool msl_v2limits_find(const struct msl_v2limits *l, uint64_t id,
		       struct msl_limit *out);
/* The limit of one cgroup (v1 file, or v2 listing which may be NULL). */
int msl_limit_get(const struct msl_cgfs *fs, const char *cgpath,
		  const struct msl_v2limits *v2, struct msl_limit *out);
/* 0 or -errno; *why says what to do. */
int msl_limit_write(const struct msl_cgfs *fs, const char *cgpath, bool unset,
		    bool is_max, uint64_t bytes, const char **why);
/* v1's soft_limit_in_bytes value that reads as unset (PAGE_COUNTER_MAX). */
uint64_t msl_v1_unset_bytes(void);
void msl_limit_fmt(const struct msl_limit *l, char *buf, size_t len,
		   bool bytes);

/* counters.c: per-cgroup counters, as the snapshot event carries them */
struct msl_counts {
	uint64_t decisions[MSL_NR_REASONS];
	uint64_t scanned[MSL_NR_KINDS];
	uint64_t reclaimed[MSL_NR_KINDS];
};
uint64_t msl_counts_decisions(const struct msl_counts *c);
uint64_t msl_counts_reclaims(const struct msl_counts *c);
uint64_t msl_counts_skips(const struct msl_counts *c);
uint64_t msl_counts_scanned(const struct msl_counts *c);
uint64_t msl_counts_reclaimed(const struct msl_counts *c);
bool msl_counts_zero(const struct msl_counts *c);

struct msl_row {
	uint64_t id;
	struct msl_counts c;
	const char *path;		/* NULL: removed (or not resolved) */
	/* report --between-snapshots: its first and last snapshot events */
	uint64_t first_snap_ts, last_snap_ts, first_snap_seq;
};
struct msl_table {
	struct msl_row *rows;
	size_t n, cap;
	size_t *slots;			/* hash of ids: row index + 1 */
	size_t nslots;
	/* From snapshot_done; seq 0 when the table is not a snapshot. */
	uint64_t seq;
	uint64_t nr_tracked, untracked, dying, missed;
	bool done;
};
struct msl_row *msl_table_get(struct msl_table *t, uint64_t id);
struct msl_row *msl_table_find(const struct msl_table *t, uint64_t id);
void msl_table_clear(struct msl_table *t);
void msl_table_free(struct msl_table *t);
int msl_table_copy(struct msl_table *dst, const struct msl_table *src);
/*
 * out = cur - prev, row by row (a row new in cur counts from 0; a counter
 * that went down means the module was reloaded: it counts from 0 too).
 */
int msl_table_delta(struct msl_table *out, const struct msl_table *cur,
		    const struct msl_table *prev);
void msl_table_add(struct msl_counts *to, const struct msl_counts *c);

enum msl_sort {
	MSL_SORT_PATH, MSL_SORT_ID, MSL_SORT_DECISIONS, MSL_SORT_RECLAIMS,
	MSL_SORT_SKIPS, MSL_SORT_SCANNED, MSL_SORT_RECLAIMED,
};
int msl_sort_parse(const char *s, enum msl_sort *out);
extern const char msl_sort_keys[];
/* Numbers: largest first; path and id: ascending; ties by path, then id. */
void msl_table_sort(struct msl_table *t, enum msl_sort key, bool reverse);
void msl_table_resolve(struct msl_table *t, const struct msl_cgmap *m);
/* The same, walking the hierarchy again if some id is not in @m. */
int msl_table_resolve_fresh(struct msl_table *t, struct msl_cgmap *m,
			    const struct msl_cgfs *fs);

/* output.c: a table of counters as a table (libsmartcols) or JSON */
struct msl_coldef;
struct msl_cmdline;
/* Columns as -o picks them (table.h); msl_counter_columns() defines them. */
struct msl_cols {
	int idx[64];
	size_t n;
};
struct msl_print {
	bool delta;			/* the counters are a delta ... */
	double interval;		/* ... over this many seconds */
	double time;			/* when (epoch seconds), 0: unknown */
	bool timestamp;			/* -T: the time in the text too */
	bool all;			/* rows without any count too */
	bool bytes;			/* sizes in bytes */
	bool no_paths;			/* ids not resolved (report --ids) */
	const char *cgroup;		/* -c: only below this path */
	const char *source;		/* JSON "source": snapshot, events */
	struct msl_cols cols;		/* the table's columns */
};
uint64_t msl_page_bytes(uint64_t pages);
/* @path is @prefix or below it (component-wise); NULL @prefix: all. */
bool msl_path_under(const char *prefix, const char *path);
bool msl_print_shows(const struct msl_row *r, const struct msl_print *p);
const struct msl_coldef *msl_counter_columns(size_t *n);
extern const char msl_counter_default_cols[];
/* 0, or -1 out of memory. */
int msl_print_text(FILE *f, const struct msl_table *t,
		   const struct msl_print *p, const struct msl_cmdline *cl);
void msl_print_json(FILE *f, const struct msl_table *t,
		    const struct msl_print *p);

/* prom.c: the same for node_exporter's textfile collector */
struct msl_prom {
	const char *down_why;		/* no table: why the module is absent */
	const char *cgroup;		/* -c: only below this path */
	bool all;			/* series that are 0 too */
	bool id_label;			/* an id label on every series */
};
/* @t NULL: the module is absent (memcg_softlimit_up 0 and why). */
int msl_print_prometheus(FILE *f, const struct msl_table *t,
			 const struct msl_prom *o);
/* FILE.tmp.PID written, then renamed over FILE. */
int msl_write_prometheus(const char *file, const struct msl_table *t,
			 const struct msl_prom *o, const char **why);

/* explain.c: the policy at each priority, on a chain of levels */
#define MSL_EXPLAIN_MAX_LEVELS	256
struct msl_chain {
	struct msl_level level[MSL_EXPLAIN_MAX_LEVELS];	/* the cgroup first */
	const char *path[MSL_EXPLAIN_MAX_LEVELS];
	unsigned int n;
	bool is_root;
	/*
	 * Policy excess: the largest excess over a soft limit of any memcg
	 * now (pages, 0 for none) and the cgroup that has it; the module's is
	 * the largest its recent decisions saw, which converges to this.
	 */
	uint64_t excess_max;
	const char *excess_max_path;
};
struct msl_explain_row {
	int priority;			/* effective priority */
	struct msl_decision d;
	/* The same step in the retry round (progress gate). */
	struct msl_decision d_retry;
	struct msl_decision d_nothing_eligible;
};
/* rows[i] for effective priority MSL_DEF_PRIORITY - i, 13 of them. */
void msl_explain(const struct msl_params *params, enum msl_kind kind,
		 const struct msl_chain *chain,
		 struct msl_explain_row rows[MSL_DEF_PRIORITY + 1]);
/* One JSON document: the cgroup, the parameters, the chain, the rows. */
void msl_explain_json(FILE *f, const char *cgpath, uint64_t id, int cgroup_v,
		      const struct msl_module *m, enum msl_kind kind,
		      const struct msl_chain *chain,
		      const struct msl_explain_row *rows, uint64_t page_size);
void msl_explain_print(FILE *f, const struct msl_params *params,
		       enum msl_kind kind, const struct msl_chain *chain,
		       const struct msl_explain_row *rows, bool mglru,
		       unsigned long page_size);
/*
 * excess: the share of first-pass steps that reclaim a memcg whose
 * excess is @excess, in percent (100: every step; 0 only for 0).
 */
unsigned int msl_excess_percent(uint64_t excess, uint64_t max);
const char *msl_explain_rule(const struct msl_params *params,
			     const struct msl_chain *chain,
			     const struct msl_explain_row *row, char *buf,
			     size_t len);

/* cmd_limit.c: finds the hierarchy, or says why not (exit status). */
int msl_open_fs(struct msl_cgfs *fs);
/* cmd_limit.c: changing one soft limit, for set, unset and apply */
struct msl_change {
	const char *arg;		/* PATH as given */
	bool unset, is_max;
	uint64_t bytes;
	const char *size;		/* SIZE as given */
};
/* 0, or MSL_EXIT_USAGE with why said (prefixed by @where). */
int msl_parse_change(struct msl_change *ch, const char *path,
		     const char *size, const char *where);
/* An exit status; failures said, prefixed by @where ("FILE:LINE: "). */
int msl_change_one(const struct msl_cgfs *fs, const struct msl_change *ch,
		   const char *where, const struct msl_v2limits *v2,
		   bool dry_run, bool verbose);
/* cgroup v2 needs the module: 0, or MSL_EXIT_ERR with why said. */
int msl_need_module(const struct msl_cgfs *fs);
/* Finds the hierarchy, or says why not (exit status). */
int msl_open_fs(struct msl_cgfs *fs);

#endif /* MSL_TOOL_H */
