// SPDX-License-Identifier: GPL-2.0
/*
 * The Prometheus text exposition format, for node_exporter's textfile
 * collector: memcg_softlimit_up, written also when the module is absent
 * (the file then holds nothing else: never stale counters);
 * memcg_softlimit_info; per cgroup (metrics.c keeps them: only growing,
 * every one from 0) the counters, pages as bytes, and the gauges an
 * alert needs: usage, soft limit, over or not.  The cgroup id is a label
 * only when asked (it changes each time a cgroup is made anew).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <memcg_softlimit/policy.h>

#include "prom.h"
#include "escape.h"
#include "metrics.h"
#include "module.h"
#include "output.h"
#include "softlimit.h"

static void family(FILE *f, const char *name, const char *type,
		   const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static bool shown(const struct msl_series *s, const struct msl_prom *o)
{
	const char *c = s->cgroup;

	/* "(removed)" and ".../(removed)" go with their parent's path. */
	if (!o->cgroup)
		return true;
	if (c[0] != '/')
		return false;
	return msl_path_under(o->cgroup, c);
}

static void labels(FILE *f, const struct msl_series *s, const char *k,
		   const char *v, const struct msl_prom *o)
{
	fputs("{cgroup=\"", f);
	msl_put_prom_label(f, s->cgroup);
	fputc('"', f);
	if (o->id_label && s->exists && s->id)
		fprintf(f, ",id=\"%llu\"", (unsigned long long)s->id);
	if (k)
		fprintf(f, ",%s=\"%s\"", k, v);
	fputc('}', f);
}

/* Counters: every series of every exported cgroup, 0 included. */
static void counters(FILE *f, const struct msl_metrics *m,
		     const struct msl_prom *o)
{
	static const char *const names[] = {
		"memcg_softlimit_scanned_bytes_total",
		"memcg_softlimit_reclaimed_bytes_total",
	};
	static const char *const helps[] = {
		"Bytes scanned in a cgroup by reclaim steps the module let run, by kind of reclaim.",
		"Bytes reclaimed from a cgroup by reclaim steps the module let run, by kind of reclaim.",
	};
	size_t i;
	int k, w;

	family(f, "memcg_softlimit_decisions_total", "counter",
	       "Reclaim decisions of the soft-limit policy on a cgroup, by reason (under, sibling_over and excess_share skip); cgroups removed count into <parent>/(removed).");
	for (i = 0; i < m->n; i++)
		for (k = 0; shown(&m->s[i], o) && k < MSL_NR_REASONS; k++) {
			fputs("memcg_softlimit_decisions_total", f);
			labels(f, &m->s[i], "reason", msl_reason_name(k), o);
			fprintf(f, " %llu\n",
				(unsigned long long)m->s[i].v.decisions[k]);
		}
	for (w = 0; w < 2; w++) {
		family(f, names[w], "counter", helps[w]);
		for (i = 0; i < m->n; i++)
			for (k = 0; shown(&m->s[i], o) && k < MSL_NR_KINDS; k++) {
				const uint64_t *v = w ? m->s[i].v.reclaimed :
						    m->s[i].v.scanned;

				fputs(names[w], f);
				labels(f, &m->s[i], "kind", msl_kind_name(k), o);
				fprintf(f, " %llu\n", (unsigned long long)
					msl_page_bytes(v[k]));
			}
	}
}

/* Gauges of the cgroups that exist: usage, soft limit, over or not. */
static void gauges(FILE *f, const struct msl_metrics *m,
		   const struct msl_prom *o)
{
	const struct msl_series *s;
	size_t i;

	family(f, "memcg_softlimit_usage_bytes", "gauge",
	       "Memory in use by the cgroup and its descendants.");
	for (i = 0, s = m->s; i < m->n; i++, s++)
		if (s->exists && s->have_usage && shown(s, o)) {
			fputs("memcg_softlimit_usage_bytes", f);
			labels(f, s, NULL, NULL, o);
			fprintf(f, " %llu\n", (unsigned long long)s->usage);
		}
	family(f, "memcg_softlimit_soft_limit_bytes", "gauge",
	       "The cgroup's soft limit (+Inf: max, never over); no series: unset.");
	for (i = 0, s = m->s; i < m->n; i++, s++) {
		char word[16];

		if (!s->exists || !s->have_limit || !shown(s, o) ||
		    s->lim.src == MSL_LIMIT_UNSET)
			continue;
		fputs("memcg_softlimit_soft_limit_bytes", f);
		msl_limit_fmt(&s->lim, word, sizeof(word), true);
		labels(f, s, "source", msl_limit_src_name(s->lim.src), o);
		if (!strcmp(word, "max"))
			fputs(" +Inf\n", f);
		else
			fprintf(f, " %llu\n", (unsigned long long)s->lim.bytes);
	}
	family(f, "memcg_softlimit_over", "gauge",
	       "1 when the cgroup is over its own soft limit (as the module's policy reads it), else 0.");
	for (i = 0, s = m->s; i < m->n; i++, s++)
		if (s->exists && s->have_limit && shown(s, o)) {
			fputs("memcg_softlimit_over", f);
			labels(f, s, NULL, NULL, o);
			fprintf(f, " %d\n", s->over ? 1 : 0);
		}
}

static void totals(FILE *f, const struct msl_metrics *m,
		   const struct msl_prom *o)
{
	family(f, "memcg_softlimit_untracked_decisions_total", "counter",
	       "Decisions on cgroups the module had no counters for.");
	fprintf(f, "memcg_softlimit_untracked_decisions_total %llu\n",
		(unsigned long long)m->untracked);
	family(f, "memcg_softlimit_dying_decisions_total", "counter",
	       "Decisions on cgroups being removed.");
	fprintf(f, "memcg_softlimit_dying_decisions_total %llu\n",
		(unsigned long long)m->dying);
	family(f, "memcg_softlimit_missed_calls_total", "counter",
	       "Gated reclaim calls whose pages went uncounted.");
	fprintf(f, "memcg_softlimit_missed_calls_total %llu\n",
		(unsigned long long)m->missed);
	family(f, "memcg_softlimit_tracked_cgroups", "gauge",
	       "Cgroups with counters in the module.");
	fprintf(f, "memcg_softlimit_tracked_cgroups %llu\n",
		(unsigned long long)(o->t ? o->t->nr_tracked : 0));
}

/* The module's version and settings, to find mixed fleets. */
static void info(FILE *f, const struct msl_prom *o)
{
	const struct msl_module *mod = o->module;
	char t[16];

	if (!mod)
		return;
	family(f, "memcg_softlimit_info", "gauge",
	       "The loaded module: its version, policy, gate and parameters (always 1).");
	fputs("memcg_softlimit_info{version=\"", f);
	msl_put_prom_label(f, mod->version[0] ? mod->version : "unknown");
	fprintf(f, "\",policy=\"%s\",gate=\"%s\",priority_threshold=\"%s\",unset=\"%s\",enabled=\"%s\",kernel=\"",
		msl_policy_name(mod->params.policy),
		msl_gate_name(msl_gate_of(&mod->params)),
		msl_threshold_fmt(mod->params.priority_threshold, t, sizeof(t)),
		msl_unset_name(mod->params.unset),
		mod->params.enabled ? "Y" : "N");
	msl_put_prom_label(f, o->kernel ? o->kernel : "");
	fputs("\"} 1\n", f);
}

int msl_print_prometheus(FILE *f, const struct msl_metrics *m,
			 const struct msl_prom *o)
{
	const char *p;

	family(f, "memcg_softlimit_up", "gauge",
	       "1 when the memcg_softlimit module is loaded and its counters were read, else 0.");
	fprintf(f, "memcg_softlimit_up %d\n", m ? 1 : 0);
	if (!m) {
		/* A comment, one line: why (node_exporter ignores it). */
		fputs("# memcg-softlimit: ", f);
		for (p = o->down_why ? o->down_why : "module absent"; *p; p++)
			fputc(*p == '\n' ? ' ' : *p, f);
		fputc('\n', f);
		return 0;
	}
	info(f, o);
	counters(f, m, o);
	gauges(f, m, o);
	totals(f, m, o);
	return 0;
}

int msl_write_prometheus(const char *file, const struct msl_metrics *m,
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
		err = msl_print_prometheus(f, m, o);
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
