// SPDX-License-Identifier: GPL-2.0
/*
 * A table of per-cgroup counters as text for people, JSON for programs and
 * the Prometheus text exposition format for node_exporter's textfile
 * collector.  Pages are pages in JSON and Prometheus, sizes in text.
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

static uint64_t page_bytes(uint64_t pages)
{
	long ps = sysconf(_SC_PAGESIZE);

	return pages * (uint64_t)(ps > 0 ? ps : 4096);
}

static bool shown(const struct msl_row *r, const struct msl_print *p)
{
	return p->all || !msl_counts_zero(&r->c);
}

static void put_pages(FILE *f, uint64_t pages)
{
	char buf[MSL_SIZE_BUF];

	fprintf(f, " %9s", msl_size_fmt(page_bytes(pages), buf, sizeof(buf)));
}

void msl_print_text(FILE *f, const struct msl_table *t,
		    const struct msl_print *p)
{
	size_t i, rows = 0;
	int k;

	if (p->source && !strcmp(p->source, "events")) {
		fprintf(f, "# counted from the events: %zu cgroups\n", t->n);
	} else if (p->source && !strcmp(p->source, "between-snapshots")) {
		fprintf(f, "# counted from the events between each cgroup's first snapshot and snapshot %llu: %zu cgroups\n",
			(unsigned long long)t->seq, t->n);
	} else {
		if (p->delta)
			fprintf(f, "# last %.1f s, up to snapshot %llu:",
				p->interval, (unsigned long long)t->seq);
		else
			fprintf(f, "# snapshot %llu:",
				(unsigned long long)t->seq);
		fprintf(f, " %llu cgroups tracked; decisions untracked %llu, dying %llu; calls missed %llu\n",
			(unsigned long long)t->nr_tracked,
			(unsigned long long)t->untracked,
			(unsigned long long)t->dying,
			(unsigned long long)t->missed);
	}
	fprintf(f, "%10s %9s %9s", "ID", "RECLAIM", "SKIP");
	if (p->wide) {
		for (k = 0; k < MSL_NR_REASONS; k++)
			fprintf(f, " %9.9s", msl_reason_name(k));
		for (k = 0; k < MSL_NR_KINDS; k++)
			fprintf(f, " S_%-7.7s", msl_kind_name(k));
		for (k = 0; k < MSL_NR_KINDS; k++)
			fprintf(f, " R_%-7.7s", msl_kind_name(k));
	} else {
		fprintf(f, " %9s %9s %9s", "OVER", "ANC_OVER", "LOW_PRIO");
	}
	fprintf(f, " %9s %9s  %s\n", "SCANNED", "RECLAIMED", "CGROUP");
	for (i = 0; i < t->n; i++) {
		const struct msl_row *r = &t->rows[i];
		const struct msl_counts *c = &r->c;

		if (!shown(r, p))
			continue;
		rows++;
		fprintf(f, "%10llu %9llu %9llu", (unsigned long long)r->id,
			(unsigned long long)msl_counts_reclaims(c),
			(unsigned long long)msl_counts_skips(c));
		if (p->wide) {
			for (k = 0; k < MSL_NR_REASONS; k++)
				fprintf(f, " %9llu",
					(unsigned long long)c->decisions[k]);
			for (k = 0; k < MSL_NR_KINDS; k++)
				put_pages(f, c->scanned[k]);
			for (k = 0; k < MSL_NR_KINDS; k++)
				put_pages(f, c->reclaimed[k]);
		} else {
			fprintf(f, " %9llu %9llu %9llu",
				(unsigned long long)c->decisions[MSL_REASON_OVER],
				(unsigned long long)c->decisions[MSL_REASON_ANCESTOR_OVER],
				(unsigned long long)c->decisions[MSL_REASON_PRIORITY]);
		}
		put_pages(f, msl_counts_scanned(c));
		put_pages(f, msl_counts_reclaimed(c));
		fputs("  ", f);
		if (p->no_paths)
			fputc('-', f);
		else
			msl_put_cgroup(f, r->path);
		fputc('\n', f);
	}
	if (!rows)
		fprintf(f, "# no cgroup with decisions%s (--all lists every tracked cgroup)\n",
			p->delta ? " in this interval" : " yet");
}

static void json_u64(FILE *f, const char *key, uint64_t v, bool comma)
{
	fprintf(f, "\"%s\":%llu%s", key, (unsigned long long)v, comma ? "," : "");
}

static void json_counts(FILE *f, const struct msl_counts *c)
{
	int k;

	fputs("\"decisions\":{", f);
	for (k = 0; k < MSL_NR_REASONS; k++)
		json_u64(f, msl_reason_name(k), c->decisions[k],
			 k + 1 < MSL_NR_REASONS);
	fputs("},", f);
	json_u64(f, "reclaims", msl_counts_reclaims(c), true);
	json_u64(f, "skips", msl_counts_skips(c), true);
	fputs("\"scanned\":{", f);
	for (k = 0; k < MSL_NR_KINDS; k++)
		json_u64(f, msl_kind_name(k), c->scanned[k], k + 1 < MSL_NR_KINDS);
	fputs("},\"reclaimed\":{", f);
	for (k = 0; k < MSL_NR_KINDS; k++)
		json_u64(f, msl_kind_name(k), c->reclaimed[k],
			 k + 1 < MSL_NR_KINDS);
	fputs("},", f);
	json_u64(f, "scanned_total", msl_counts_scanned(c), true);
	json_u64(f, "reclaimed_total", msl_counts_reclaimed(c), false);
}

/* One document per table; one cgroup a line, so that grep and awk cope. */
void msl_print_json(FILE *f, const struct msl_table *t,
		    const struct msl_print *p)
{
	const char *sep = "";
	size_t i;

	fputc('{', f);
	if (p->source) {
		fputs("\"source\":", f);
		msl_put_json_str(f, p->source);
		fputc(',', f);
	}
	fprintf(f, "\"delta\":%s,", p->delta ? "true" : "false");
	if (p->delta)
		fprintf(f, "\"interval\":%.3f,", p->interval);
	json_u64(f, "seq", t->seq, true);
	json_u64(f, "nr_tracked", t->nr_tracked, true);
	json_u64(f, "untracked", t->untracked, true);
	json_u64(f, "dying", t->dying, true);
	json_u64(f, "missed", t->missed, true);
	json_u64(f, "page_size", page_bytes(1), true);
	fputs("\"cgroups\":[", f);
	for (i = 0; i < t->n; i++) {
		const struct msl_row *r = &t->rows[i];

		if (!shown(r, p))
			continue;
		fprintf(f, "%s\n{", sep);
		sep = ",";
		json_u64(f, "id", r->id, true);
		fputs("\"path\":", f);
		if (r->path)
			msl_put_json_str(f, r->path);
		else
			fputs("null", f);
		fprintf(f, ",\"removed\":%s,", p->no_paths ? "null" :
			r->path ? "false" : "true");
		json_counts(f, &r->c);
		fputc('}', f);
	}
	fputs("\n]}\n", f);
}

static void prom_labels(FILE *f, const struct msl_row *r, const char *k,
			const char *v)
{
	fputs("{cgroup=\"", f);
	if (r->path)
		msl_put_prom_label(f, r->path);
	else
		fputs("(removed)", f);
	fprintf(f, "\",id=\"%llu\"", (unsigned long long)r->id);
	if (k)
		fprintf(f, ",%s=\"%s\"", k, v);
	fputc('}', f);
}

static void prom_family(FILE *f, const char *name, const char *type,
			const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

void msl_print_prometheus(FILE *f, const struct msl_table *t)
{
	size_t i;
	int k;

	prom_family(f, "memcg_softlimit_decisions_total", "counter",
		    "Reclaim decisions of the soft-limit policy on a cgroup, by reason (under, sibling_over and excess_share skip).");
	for (i = 0; i < t->n; i++)
		for (k = 0; k < MSL_NR_REASONS; k++) {
			fputs("memcg_softlimit_decisions_total", f);
			prom_labels(f, &t->rows[i], "reason", msl_reason_name(k));
			fprintf(f, " %llu\n",
				(unsigned long long)t->rows[i].c.decisions[k]);
		}
	prom_family(f, "memcg_softlimit_scanned_pages_total", "counter",
		    "Pages scanned in a cgroup by reclaim steps the module let run, by kind of reclaim.");
	for (i = 0; i < t->n; i++)
		for (k = 0; k < MSL_NR_KINDS; k++) {
			fputs("memcg_softlimit_scanned_pages_total", f);
			prom_labels(f, &t->rows[i], "kind", msl_kind_name(k));
			fprintf(f, " %llu\n",
				(unsigned long long)t->rows[i].c.scanned[k]);
		}
	prom_family(f, "memcg_softlimit_reclaimed_pages_total", "counter",
		    "Pages reclaimed from a cgroup by reclaim steps the module let run, by kind of reclaim.");
	for (i = 0; i < t->n; i++)
		for (k = 0; k < MSL_NR_KINDS; k++) {
			fputs("memcg_softlimit_reclaimed_pages_total", f);
			prom_labels(f, &t->rows[i], "kind", msl_kind_name(k));
			fprintf(f, " %llu\n",
				(unsigned long long)t->rows[i].c.reclaimed[k]);
		}
	prom_family(f, "memcg_softlimit_untracked_decisions_total", "counter",
		    "Decisions on cgroups the module had no counters for.");
	fprintf(f, "memcg_softlimit_untracked_decisions_total %llu\n",
		(unsigned long long)t->untracked);
	prom_family(f, "memcg_softlimit_dying_decisions_total", "counter",
		    "Decisions on cgroups being removed.");
	fprintf(f, "memcg_softlimit_dying_decisions_total %llu\n",
		(unsigned long long)t->dying);
	prom_family(f, "memcg_softlimit_missed_calls_total", "counter",
		    "Gated reclaim calls whose pages went uncounted.");
	fprintf(f, "memcg_softlimit_missed_calls_total %llu\n",
		(unsigned long long)t->missed);
	prom_family(f, "memcg_softlimit_tracked_cgroups", "gauge",
		    "Cgroups with counters in the module.");
	fprintf(f, "memcg_softlimit_tracked_cgroups %llu\n",
		(unsigned long long)t->nr_tracked);
}

int msl_write_prometheus(const char *file, const struct msl_table *t,
			 const char **why)
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
	msl_print_prometheus(f, t);
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
