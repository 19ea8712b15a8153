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

/* The kernel's __printf and ARRAY_SIZE (include/userspace/), as the module */
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <memcg_softlimit/policy.h>
#include <memcg_softlimit/control.h>

#define MSL_PROG		"memcg-softlimit"
#define MSL_EXIT_OK		0
#define MSL_EXIT_ERR		1	/* runtime error */
#define MSL_EXIT_USAGE		2	/* bad command line or arguments */

#define MSL_MODULE_NAME		"memcg_softlimit"
#define MSL_SYS_MODULE		"/sys/module/memcg_softlimit"
#define MSL_CONF_DEFAULT	"/etc/memcg-softlimit.conf"


/* util.c */
/* Before anything is opened: a closed fd 1 stays failing, never reused. */
void msl_hold_stdout(void);
/*
 * At exit: standard output flushed and closed; a write that failed
 * (a full disk, a closed pipe or descriptor) said: 0 or -errno.
 */
int msl_close_stdout(void);
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
/* A decimal number, a fraction allowed, within [@min, @max]; -EINVAL if not. */
int msl_decimal_parse(const char *s, double min, double max, double *out);
/* Seconds with an optional fraction ("2", "0.5"), > 0 and <= 86400. */
int msl_seconds_parse(const char *s, double *out);
/*
 * A duration: a number (a fraction allowed) and ms, s, m or h, seconds
 * without ("500ms", "30s", "1.5m", "90"); from 1 ms to 30 days, in
 * milliseconds (rounded to the nearest).  -EINVAL otherwise.
 */
#define MSL_DURATION_MAX_MS	(30ULL * 24 * 3600 * 1000)
int msl_duration_parse(const char *s, uint64_t *ms);

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
bool msl_utf8_valid(const char *s);
/*
 * A name that is not valid UTF-8, as a JSON string that maps back: its
 * backslashes doubled, each byte outside valid UTF-8 as the text \xNN
 * (docs/json.md).
 */
void msl_put_json_escaped(FILE *f, const char *s);
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
	/* Not built, and why: */
	MSL_ABSENT_UNSUPPORTED,		/* outside dkms.conf's kernels */
	MSL_ABSENT_NO_HEADERS,		/* no linux-headers-<kver> */
	MSL_ABSENT_BUILD_FAILED,	/* dkms's build failed (make.log) */
};
struct msl_absence_facts {
	const char *kernel;		/* uname -r */
	const char *ko_path;		/* our module for it, or NULL */
	int ko_signed;			/* 1, 0, -1 unknown */
	const char *lockdown;		/* /sys/kernel/security/lockdown */
	bool sig_enforced;		/* module.sig_enforce=1 */
	const char *kmsg;		/* the kernel log, or NULL */
	/* DKMS, when the module file is missing: */
	const char *dkms_version;	/* the newest registered, or NULL */
	const char *kernel_re;		/* dkms.conf's BUILD_EXCLUSIVE_KERNEL */
	bool headers;			/* /lib/modules/<kver>/build is there */
	bool built;			/* dkms built it for this kernel */
	const char *make_log;		/* dkms's last make.log, or NULL */
	bool make_log_failed;		/* ... a failed build for this kernel */
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
/* "^(6\.1|6\.12|7\.3)\." as "6.1, 6.12, 7.3" (else the pattern itself). */
const char *msl_absence_kernels(const char *re, char *buf, size_t len);
/*
 * The version DKMS installed for the running kernel when it is newer
 * than the loaded one (@loaded), into @buf; NULL when none is newer.
 */
const char *msl_newer_installed(const char *loaded, char *buf, size_t len);
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
/* v1 has no "max" but unset: the largest value that is not unset. */
uint64_t msl_v1_max_bytes(void);
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
/* Columns as -o picks them (scols.h); msl_counter_columns() defines them. */
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
	/* report: paths from the recording; NULL is "(unnamed)", not removed */
	bool recorded;
	const char *paths_from;		/* JSON "paths": recording, ... */
	/* report's window: seconds from the recording's first event */
	bool window;
	double since, until;
	const char *cgroup;		/* -c: only below this path */
	const char *source;		/* JSON "source": snapshot, events */
	const char *command;		/* JSON "command": stat, report */
	const char *down_why;		/* no table: why the module is absent */
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
/* One document; @t NULL: the module is absent (p->down_why), no rows. */
void msl_print_json(FILE *f, const struct msl_table *t,
		    const struct msl_print *p);

/* metrics.c: the series of --prometheus, kept across runs (FILE.state) */
#define MSL_SERIES_REMOVED	"(removed)"
struct msl_series {
	char *cgroup;			/* a path, ".../(removed)", "(removed)" */
	struct msl_counts v;		/* what it ever counted, pages */
	struct msl_counts pending;	/* a new series' first gain, next run */
	bool exists;			/* a cgroup now: its gauges below */
	bool have_usage, have_limit, over;
	uint64_t usage, id;		/* bytes; the cgroup's id now */
	struct msl_limit lim;
};
struct msl_seen {			/* a module entry, as last read */
	uint64_t id;
	char *path;			/* NULL: never seen with one */
	struct msl_counts last;
};
struct msl_metrics {
	struct msl_series *s;		/* sorted by cgroup */
	size_t n, cap;
	struct msl_seen *seen;
	size_t nseen;
	uint64_t seq;			/* the last snapshot read */
	uint64_t untracked, dying, missed;		/* ever */
	uint64_t last_untracked, last_dying, last_missed; /* as last read */
	int up;				/* last run: 1, 0, -1 unknown */
	char why[512];			/* why it was down */
};
/* 0 (none yet is fine), 1 when unusable (start afresh), -errno. */
int msl_metrics_load(struct msl_metrics *m, const char *file);
int msl_metrics_save(const struct msl_metrics *m, const char *file);
void msl_metrics_free(struct msl_metrics *m);
/*
 * Adds what each entry of @t (rows resolved against @map) gained since
 * the last reading, and gives every cgroup of @map (at most @depth deep,
 * -1: all) its series; drops the series of cgroups gone.  0 or -ENOMEM.
 */
int msl_metrics_update(struct msl_metrics *m, const struct msl_table *t,
		       const struct msl_cgmap *map, int depth);
struct msl_series *msl_metrics_find(const struct msl_metrics *m,
				    const char *cgroup);
/* @path folded to @depth components (-1: as it is) into @buf. */
const char *msl_metrics_rollup(const char *path, int depth, char *buf,
			       size_t len);
/* Records up/down and why; true when that differs from the last run. */
bool msl_metrics_state_changed(struct msl_metrics *m, bool up,
			       const char *why);

/* exporter.c: one run of stat --prometheus FILE */
struct msl_exporter {
	const char *file;
	char state[4200];		/* FILE.state */
	struct msl_metrics m;
	struct msl_module mod;
	const struct msl_cgfs *fs;
	char kernel[128];
	int depth;			/* --depth, -1: every cgroup */
	const char *cgroup;		/* -c */
	bool id_label;
};
/* Reads the state (a bad one is said, and started afresh): 0 or -errno. */
int msl_exporter_open(struct msl_exporter *e, const char *file,
		      const struct msl_cgfs *fs, int depth,
		      const char *cgroup, bool id_label);
/* @t NULL: the module is absent (@down_why).  0, or -errno said. */
int msl_exporter_write(struct msl_exporter *e, const struct msl_table *t,
		       const struct msl_cgmap *map, const char *down_why);
void msl_exporter_close(struct msl_exporter *e);

/* prom.c: the text exposition format for node_exporter's textfile collector */
struct msl_prom {
	const char *down_why;		/* no table: why the module is absent */
	const char *cgroup;		/* -c: only below this path */
	bool id_label;			/* an id label on existing cgroups' series */
	const struct msl_module *module;	/* memcg_softlimit_info */
	const char *kernel;
	const struct msl_table *t;	/* the snapshot: tracked cgroups */
};
/* @m NULL: the module is absent (memcg_softlimit_up 0 and why). */
int msl_print_prometheus(FILE *f, const struct msl_metrics *m,
			 const struct msl_prom *o);
/* FILE.tmp.PID written, then renamed over FILE. */
int msl_write_prometheus(const char *file, const struct msl_metrics *m,
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
struct msl_answer;
/* @answer NULL: the table's part alone. */
void msl_explain_json(FILE *f, const char *cgpath, uint64_t id, int cgroup_v,
		      const struct msl_module *m, enum msl_kind kind,
		      const struct msl_chain *chain,
		      const struct msl_explain_row *rows, uint64_t page_size,
		      const struct msl_answer *answer);
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

/* conf.c: the configuration file and its drop-in directory */
#define MSL_CONF_DIR		"/etc/memcg-softlimit.conf.d"
struct msl_conf_rule {
	char *pattern;			/* below the mount, as the module takes it */
	char *size;			/* as written */
	enum msl_rule_action action;
	const char *file;		/* where it was read, and its line */
	int line;
	unsigned int matched;		/* cgroups it decides now (apply) */
};
struct msl_conf {
	struct msl_conf_rule *v;	/* in the order they decide */
	size_t n, cap;
	char **files;			/* the files read */
	size_t nfiles;
	bool quiet;			/* bad lines counted, not said */
};
/* @file's rules appended: the number of bad lines (each said), -1 unread. */
int msl_conf_read_file(struct msl_conf *c, const struct msl_cgfs *fs,
		       const char *file);
/* @dir's *.conf, in byte order of their names (none if no @dir): 0, -errno. */
int msl_conf_dropins(const char *dir, char ***files, size_t *n);
/*
 * @main_file (if any), then each drop-in of @dir (if any): the number of
 * bad lines and unreadable files, each said; -1 when @main_file or @dir
 * cannot be read.
 */
int msl_conf_load(struct msl_conf *c, const struct msl_cgfs *fs,
		  const char *main_file, const char *dir);
void msl_conf_free(struct msl_conf *c);
/* The rule that decides @path (the first that matches), or NULL. */
const struct msl_conf_rule *msl_conf_first_match(const struct msl_conf *c,
						 const char *path);
/* An earlier rule that leaves rule @i nothing to decide, or NULL. */
const struct msl_conf_rule *msl_conf_hidden_by(const struct msl_conf *c,
					       size_t i);
/* A max rule on a pattern ending in '**': a whole subtree immune. */
bool msl_conf_immune_subtree(const struct msl_conf_rule *r);
/* Warnings: dead rules, immune subtrees. */
void msl_conf_warn(const struct msl_conf *c);
/* set --persist's file for @cgpath in @dir: 0 or -ENAMETOOLONG. */
int msl_conf_snippet(const char *dir, const char *cgpath, char *buf,
		     size_t len);

/*
 * persist.c: set --persist, unset --persist: @arg's drop-in file written
 * (with SIZE as given) or removed.  An exit status, failures said.
 */
int msl_persist_set(const struct msl_cgfs *fs, const char *arg,
		    const char *size);
int msl_persist_unset(const struct msl_cgfs *fs, const char *arg);

/* json.c: the members every document shares (docs/json.md) */
#define MSL_JSON_SCHEMA		1
/* '{' and the "schema" and "command" members; the caller closes it. */
void msl_json_begin(FILE *f, const char *command);
/* Each of these writes ',' first: ,"key":value */
void msl_json_key(FILE *f, const char *key);
void msl_json_u64(FILE *f, const char *key, uint64_t v);
void msl_json_bool(FILE *f, const char *key, bool v);
void msl_json_str(FILE *f, const char *key, const char *v);	/* NULL: null */
/* A cgroup path (NULL: null); not UTF-8: escaped, and "<key>_escaped". */
void msl_json_path(FILE *f, const char *key, const char *path);
/* "soft_limit" (its source's word) and "soft_limit_bytes" (or null). */
void msl_json_limit(FILE *f, const struct msl_limit *l);
/* "params": the policy's parameters (and keep_v1_reclaim if given). */
void msl_json_params(FILE *f, const struct msl_params *p,
		     const bool *keep_v1_reclaim);

/* answer.c: explain's answer, before its table */
struct msl_answer {
	char verdict[512];
	const char *src;		/* rule, set, v1, unset, root */
	char file[4096], rule[4200];	/* rule: where */
	int line;
	bool have_min, have_low, have_counts;
	uint64_t min, low;		/* bytes */
	char pressure[128];		/* memory.pressure's "some" line */
	struct msl_counts c;
};
/* explain.c: "40.1M of 8000M, 7.9G headroom", "177.2M of 128M, 49.2M over" */
void msl_level_usage_text(const struct msl_level *l, uint64_t ps, char *buf,
			  size_t len);
/* The decision at the first pass in words, with the headroom that decides. */
void msl_answer_verdict(const struct msl_params *params,
			const struct msl_chain *chain,
			const struct msl_explain_row *rows, uint64_t ps,
			char *buf, size_t len);
/* The limit's source, the other protections, the counters (a snapshot). */
void msl_answer_gather(const struct msl_cgfs *fs, const char *cgpath,
		       uint64_t id, const struct msl_chain *chain,
		       bool with_counters, struct msl_answer *a);
void msl_answer_print(FILE *f, const struct msl_answer *a,
		      const struct msl_chain *chain, uint64_t ps);
/* explain.c: its members for explain's document (each with its comma). */
void msl_answer_json(FILE *f, const struct msl_answer *a, uint64_t ps);

/* cgroup.c: finds the hierarchy, or says why not (exit status). */
int msl_open_fs(struct msl_cgfs *fs);
/* limits.c: changing one soft limit, for set, unset and apply */
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
/* module.c: cgroup v2 needs the module: 0, or MSL_EXIT_ERR with why said. */
int msl_need_module(const struct msl_cgfs *fs);
/*
 * cgroup.c: -c CGROUP on a live hierarchy: its path below the mount into @out, or
 * an exit status with why said (no such cgroup, a bad path).
 */
int msl_cg_filter(const struct msl_cgfs *fs, const char *arg, char *out,
		  size_t len);

#endif /* MSL_TOOL_H */
