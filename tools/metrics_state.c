// SPDX-License-Identifier: GPL-2.0
/*
 * FILE.state, what `stat --prometheus` keeps from one run to the next
 * (metrics.c): whether the module was up and why not, the totals, each
 * series' counts and the module entries as last read.  Plain text, one
 * line per item, so that an operator can read it; a layout it does not
 * know (reasons added) starts the series afresh.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <memcg_softlimit/policy.h>

#include "metrics.h"
#include "counters.h"
#include "msl.h"

#define STATE_MAGIC	"msl-metrics-state 1"

/*
 * An entry as read from the state file; -ENOMEM.  (GCC 12's -fanalyzer
 * loses the copy once it is stored in the array and calls it a leak;
 * msl_metrics_free() frees it.)
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wanalyzer-malloc-leak"
static int add_seen(struct msl_metrics *m, uint64_t id, const char *path,
		    const struct msl_counts *last)
{
	struct msl_seen *v = realloc(m->seen, (m->nseen + 1) * sizeof(*v));
	char *copy = NULL;

	if (!v)
		return -ENOMEM;
	if (!v)
		return -ENOMEM;
	m->seen = v;
	if (path) {
		copy = strdup(path);
		if (!copy)
			return -ENOMEM;
	}
	v[m->nseen].id = id;
	v[m->nseen].last = *last;
	v[m->nseen].path = copy;
	m->nseen++;
	return 0;
}
#pragma GCC diagnostic pop

/* State: one token per word; a path's blanks, '%' and newlines as %XX. */
static void put_word(FILE *f, const char *s)
{
	if (!s || !*s) {
		fputc('-', f);
		return;
	}
	for (; *s; s++)
		if (*s == ' ' || *s == '%' || *s == '\n' || *s == '\t')
			fprintf(f, "%%%02x", (unsigned char)*s);
		else
			fputc(*s, f);
}

static char *get_word(char *w)
{
	char *o = w, *p = w;

	if (!strcmp(w, "-"))
		return NULL;
	while (*p) {
		if (*p == '%' && p[1] && p[2]) {
			char hex[3] = { p[1], p[2], 0 };

			*o++ = (char)strtoul(hex, NULL, 16);
			p += 3;
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	return w;
}

static void put_counts(FILE *f, struct msl_counts *c)
{
	int i;

	for (i = 0; i < MSL_METRICS_NR_COUNTS; i++)
		fprintf(f, " %llu", (unsigned long long)*msl_metrics_count(c, i));
	fputc('\n', f);
}

static int get_counts(char **save, struct msl_counts *c)
{
	char *w, *end;
	int i;

	for (i = 0; i < MSL_METRICS_NR_COUNTS; i++) {
		w = strtok_r(NULL, " \n", save);
		if (!w)
			return -1;
		*msl_metrics_count(c, i) = strtoull(w, &end, 10);
		if (*end)
			return -1;
	}
	return 0;
}

int msl_metrics_load(struct msl_metrics *m, const char *file)
{
	char *text, *line, *next, *save, *w, *p;
	struct msl_series *s;
	int ret = 0;

	msl_metrics_free(m);
	text = msl_read_all(file, NULL);
	if (!text)
		return errno == ENOENT ? 0 : -errno;
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (line == text) {
			char want[64];

			/* Another layout (reasons added): start afresh. */
			snprintf(want, sizeof(want), STATE_MAGIC " %d %d",
				 MSL_NR_REASONS, MSL_NR_KINDS);
			if (strcmp(line, want))
				goto stale;
			continue;
		}
		if (!strncmp(line, "why ", 4)) {
			snprintf(m->why, sizeof(m->why), "%s", line + 4);
			continue;
		}
		w = strtok_r(line, " ", &save);
		if (!w)
			continue;
		if (!strcmp(w, "up")) {
			p = strtok_r(NULL, " ", &save);
			m->up = p ? atoi(p) : -1;
		} else if (!strcmp(w, "totals")) {
			if (sscanf(save, "%llu %llu %llu %llu %llu %llu %llu",
				   (unsigned long long *)&m->seq,
				   (unsigned long long *)&m->untracked,
				   (unsigned long long *)&m->dying,
				   (unsigned long long *)&m->missed,
				   (unsigned long long *)&m->last_untracked,
				   (unsigned long long *)&m->last_dying,
				   (unsigned long long *)&m->last_missed) != 7)
				goto stale;
		} else if (!strcmp(w, "series")) {
			p = get_word(strtok_r(NULL, " ", &save));
			s = p ? msl_metrics_series(m, p) : NULL;
			if (!s || get_counts(&save, &s->v))
				goto stale;
		} else if (!strcmp(w, "pending")) {
			p = get_word(strtok_r(NULL, " ", &save));
			s = p ? msl_metrics_find(m, p) : NULL;
			if (!s || get_counts(&save, &s->pending))
				goto stale;
		} else if (!strcmp(w, "seen")) {
			struct msl_counts last;
			uint64_t id;

			w = strtok_r(NULL, " ", &save);
			p = strtok_r(NULL, " ", &save);
			if (!w || !p || get_counts(&save, &last))
				goto stale;
			id = strtoull(w, NULL, 10);
			ret = add_seen(m, id, get_word(p), &last);
			if (ret)
				break;
		}
	}
	free(text);
	return ret;
stale:
	free(text);
	msl_metrics_free(m);
	return 1;
}

int msl_metrics_save(const struct msl_metrics *m, const char *file)
{
	char tmp[4200];
	size_t i;
	FILE *f;
	int err = 0;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", file, (long)getpid());
	f = fopen(tmp, "w");
	if (!f)
		return -errno;
	fprintf(f, STATE_MAGIC " %d %d\nup %d\nwhy %s\n", MSL_NR_REASONS,
		MSL_NR_KINDS, m->up, m->why);
	fprintf(f, "totals %llu %llu %llu %llu %llu %llu %llu\n",
		(unsigned long long)m->seq, (unsigned long long)m->untracked,
		(unsigned long long)m->dying, (unsigned long long)m->missed,
		(unsigned long long)m->last_untracked,
		(unsigned long long)m->last_dying,
		(unsigned long long)m->last_missed);
	for (i = 0; i < m->n; i++) {
		fputs("series ", f);
		put_word(f, m->s[i].cgroup);
		put_counts(f, &m->s[i].v);
		if (msl_counts_zero(&m->s[i].pending))
			continue;
		fputs("pending ", f);
		put_word(f, m->s[i].cgroup);
		put_counts(f, (struct msl_counts *)&m->s[i].pending);
	}
	for (i = 0; i < m->nseen; i++) {
		fprintf(f, "seen %llu ", (unsigned long long)m->seen[i].id);
		put_word(f, m->seen[i].path);
		put_counts(f, &m->seen[i].last);
	}
	if (fflush(f) || ferror(f))
		err = -(errno ? errno : EIO);
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, file))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}
