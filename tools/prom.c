// SPDX-License-Identifier: GPL-2.0
/*
 * The Prometheus text exposition format, for node_exporter's textfile
 * collector: pages as bytes, a memcg_softlimit_up gauge that is written
 * also when the module is absent (the file then holds nothing else: never
 * stale counters), no series that is 0 unless asked (a fleet has many
 * cgroups that reclaim never met), the cgroup id label only when asked
 * (it changes each time a cgroup is made anew, a new series each time).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msl.h"

#define REMOVED	"(removed)"

static void labels(FILE *f, const struct msl_row *r, const char *k,
		   const char *v, const struct msl_prom *o)
{
	fputs("{cgroup=\"", f);
	if (r->path)
		msl_put_prom_label(f, r->path);
	else
		fputs(REMOVED, f);
	fputc('"', f);
	if (o->id_label)
		fprintf(f, ",id=\"%llu\"", (unsigned long long)r->id);
	fprintf(f, ",%s=\"%s\"}", k, v);
}

static void family(FILE *f, const char *name, const char *type,
		   const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void sample(FILE *f, const char *name, const struct msl_row *r,
		   const char *k, const char *v, uint64_t value,
		   const struct msl_prom *o)
{
	if (!value && !o->all)
		return;
	fputs(name, f);
	labels(f, r, k, v, o);
	fprintf(f, " %llu\n", (unsigned long long)value);
}

/*
 * The rows as series: without the id label, every removed cgroup is one
 * series, "(removed)", their sum (two series may not share labels).
 */
static int series_rows(const struct msl_table *t, const struct msl_prom *o,
		       struct msl_row **out, size_t *n)
{
	struct msl_row *rows, *removed = NULL;
	size_t i;

	rows = calloc(t->n + 1, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	*n = 0;
	for (i = 0; i < t->n; i++) {
		const struct msl_row *r = &t->rows[i];

		if (o->cgroup && !msl_path_under(o->cgroup, r->path))
			continue;
		if (r->path || o->id_label) {
			rows[(*n)++] = *r;
			continue;
		}
		if (!removed) {
			removed = &rows[(*n)++];
			removed->path = NULL;
		}
		msl_table_add(&removed->c, &r->c);
	}
	*out = rows;
	return 0;
}

static void counters(FILE *f, const struct msl_row *rows, size_t n,
		     const struct msl_prom *o)
{
	size_t i;
	int k;

	family(f, "memcg_softlimit_decisions_total", "counter",
	       "Reclaim decisions of the soft-limit policy on a cgroup, by reason (under, sibling_over and excess_share skip).");
	for (i = 0; i < n; i++)
		for (k = 0; k < MSL_NR_REASONS; k++)
			sample(f, "memcg_softlimit_decisions_total", &rows[i],
			       "reason", msl_reason_name(k),
			       rows[i].c.decisions[k], o);
	family(f, "memcg_softlimit_scanned_bytes_total", "counter",
	       "Bytes scanned in a cgroup by reclaim steps the module let run, by kind of reclaim.");
	for (i = 0; i < n; i++)
		for (k = 0; k < MSL_NR_KINDS; k++)
			sample(f, "memcg_softlimit_scanned_bytes_total", &rows[i],
			       "kind", msl_kind_name(k),
			       msl_page_bytes(rows[i].c.scanned[k]), o);
	family(f, "memcg_softlimit_reclaimed_bytes_total", "counter",
	       "Bytes reclaimed from a cgroup by reclaim steps the module let run, by kind of reclaim.");
	for (i = 0; i < n; i++)
		for (k = 0; k < MSL_NR_KINDS; k++)
			sample(f, "memcg_softlimit_reclaimed_bytes_total",
			       &rows[i], "kind", msl_kind_name(k),
			       msl_page_bytes(rows[i].c.reclaimed[k]), o);
}

static void totals(FILE *f, const struct msl_table *t)
{
	family(f, "memcg_softlimit_untracked_decisions_total", "counter",
	       "Decisions on cgroups the module had no counters for.");
	fprintf(f, "memcg_softlimit_untracked_decisions_total %llu\n",
		(unsigned long long)t->untracked);
	family(f, "memcg_softlimit_dying_decisions_total", "counter",
	       "Decisions on cgroups being removed.");
	fprintf(f, "memcg_softlimit_dying_decisions_total %llu\n",
		(unsigned long long)t->dying);
	family(f, "memcg_softlimit_missed_calls_total", "counter",
	       "Gated reclaim calls whose pages went uncounted.");
	fprintf(f, "memcg_softlimit_missed_calls_total %llu\n",
		(unsigned long long)t->missed);
	family(f, "memcg_softlimit_tracked_cgroups", "gauge",
	       "Cgroups with counters in the module.");
	fprintf(f, "memcg_softlimit_tracked_cgroups %llu\n",
		(unsigned long long)t->nr_tracked);
}

int msl_print_prometheus(FILE *f, const struct msl_table *t,
			 const struct msl_prom *o)
{
	struct msl_row *rows;
	size_t n;
	char *p;

	family(f, "memcg_softlimit_up", "gauge",
	       "1 when the memcg_softlimit module is loaded and its counters were read, else 0.");
	fprintf(f, "memcg_softlimit_up %d\n", t ? 1 : 0);
	if (!t) {
		/* A comment, one line: why (node_exporter ignores it). */
		fputs("# memcg-softlimit: ", f);
		for (p = (char *)(o->down_why ? o->down_why : "module absent");
		     *p; p++)
			fputc(*p == '\n' ? ' ' : *p, f);
		fputc('\n', f);
		return 0;
	}
	if (series_rows(t, o, &rows, &n))
		return -ENOMEM;
	counters(f, rows, n, o);
	totals(f, t);
	free(rows);
	return 0;
}

int msl_write_prometheus(const char *file, const struct msl_table *t,
			 const struct msl_prom *o, const char **why)
{
	char tmp[PATH_MAX];
	FILE *f;
	int fd, err = 0;

	*why = NULL;
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", file, (long)getpid()) >=
	    (int)sizeof(tmp)) {
		*why = "file name too long";
		return -ENAMETOOLONG;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		*why = "cannot create the temporary file";
		return -errno;
	}
	/* 0644 whatever the umask: node_exporter runs as another user. */
	if (fchmod(fd, 0644))
		err = -errno;
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
		goto out;
	}
	if (!err)
		err = msl_print_prometheus(f, t, o);
	if (fflush(f) || ferror(f) || fsync(fd))
		err = err ? err : -(errno ? errno : EIO);
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, file))
		err = -errno;
out:
	if (err) {
		*why = *why ? *why : "cannot write it";
		unlink(tmp);
	}
	return err;
}
