// SPDX-License-Identifier: GPL-2.0
/*
 * explain's answer to an operator's question, before the table of every
 * priority: will reclaim take this cgroup first, and with how much
 * headroom (its usage against its soft limit, and its ancestors'); where
 * its soft limit comes from (a line of the configuration, set by hand,
 * cgroup v1); what happened to it (its counters by reason, retries
 * included); what else protects it (memory.min, memory.low) and the
 * memory pressure it sees.  The verdict itself, pure, is explain.c's.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <memcg_softlimit/events.h>
#include <memcg_softlimit/control.h>
#include <memcg_softlimit/policy.h>

#include "answer.h"
#include "cgroup.h"
#include "conf.h"
#include "counters.h"
#include "escape.h"
#include "explain.h"
#include "module.h"
#include "msl.h"
#include "output.h"
#include "size.h"
#include "trace.h"

/* The soft limit's origin: a rule of the configuration, set, v1. */
static void limit_source(const struct msl_cgfs *fs, const char *cgpath,
			 const struct msl_chain *chain, struct msl_answer *a)
{
	const struct msl_conf_rule *r;
	struct msl_conf c = { 0 };
	enum msl_limit_src src = chain->n ? chain->level[0].src :
				 MSL_LIMIT_UNSET;

	a->src = chain->is_root ? "root" : fs->version == 1 ? "v1" : "unset";
	if (chain->is_root || (fs->version == 1 && src != MSL_LIMIT_UNSET))
		return;
	if (fs->version == 1) {
		a->src = "unset";
		return;
	}
	/* (a bad line there is said by apply: read quietly here) */
	c.quiet = true;
	if (msl_conf_load(&c, fs, access(MSL_CONF_DEFAULT, F_OK) ? NULL :
			  MSL_CONF_DEFAULT, MSL_CONF_DIR) >= 0) {
		r = msl_conf_first_match(&c, cgpath);
		if (r && r->action != MSL_RULE_UNSET) {
			a->src = "rule";
			snprintf(a->file, sizeof(a->file), "%s", r->file);
			a->line = r->line;
			snprintf(a->rule, sizeof(a->rule), "%s %s", r->pattern,
				 r->size);
		}
	}
	msl_conf_free(&c);
	if (!strcmp(a->src, "unset") && src != MSL_LIMIT_UNSET)
		a->src = "set";
}

static void protections(const struct msl_cgfs *fs, const char *cgpath,
			struct msl_answer *a)
{
	char path[PATH_MAX * 2], buf[256];

	if (fs->version != 2 || !strcmp(cgpath, "/"))
		return;
	a->have_min = !msl_cg_read_u64(fs, cgpath, "memory.min", &a->min);
	a->have_low = !msl_cg_read_u64(fs, cgpath, "memory.low", &a->low);
	msl_cg_fspath(fs, cgpath, path, sizeof(path));
	strncat(path, "/memory.pressure", sizeof(path) - strlen(path) - 1);
	if (msl_read_file(path, buf, sizeof(buf)) > 0)
		snprintf(a->pressure, sizeof(a->pressure), "%.*s",
			 (int)strcspn(buf, "\n"), buf);
}

/* Its counters from a snapshot, when the module is there and we may. */
static void counters(uint64_t id, struct msl_answer *a)
{
	struct msl_live live = { 0 };
	struct msl_table t = { 0 };
	const struct msl_row *r;
	const char *why;

	if (!msl_module_loaded() || access(MSL_CTL_SNAPSHOT, W_OK))
		return;
	if (!msl_live_open(&live, 64, &why) &&
	    !msl_live_snapshot(&live, &t, &why)) {
		r = msl_table_find(&t, id);
		a->have_counts = true;
		if (r)
			a->c = r->c;
	}
	msl_live_close(&live);
	msl_table_free(&t);
}

void msl_answer_gather(const struct msl_cgfs *fs, const char *cgpath,
		       uint64_t id, const struct msl_chain *chain,
		       bool with_counters, struct msl_answer *a)
{
	limit_source(fs, cgpath, chain, a);
	protections(fs, cgpath, a);
	if (with_counters)
		counters(id, a);
}

static void print_counts(FILE *f, const struct msl_counts *c)
{
	char b[MSL_SIZE_BUF];
	int k, n;

	fprintf(f, "counted:     %llu reclaim, %llu skip decisions",
		(unsigned long long)msl_counts_reclaims(c),
		(unsigned long long)msl_counts_skips(c));
	for (k = 0, n = 0; k < MSL_NR_REASONS; k++)
		if (c->decisions[k])
			fprintf(f, "%s%s %llu", n++ ? ", " : " (",
				msl_reason_name(k),
				(unsigned long long)c->decisions[k]);
	fprintf(f, "%s; %s reclaimed\n", n ? ")" : "",
		msl_size_fmt(msl_page_bytes(msl_counts_reclaimed(c)), b,
			     sizeof(b)));
}

void msl_answer_print(FILE *f, const struct msl_answer *a,
		      const struct msl_chain *chain, uint64_t ps)
{
	char use[128], b[MSL_SIZE_BUF];
	unsigned int i;

	fprintf(f, "verdict:     %s\n", a->verdict);
	for (i = 0; i < chain->n; i++) {
		msl_level_usage_text(&chain->level[i], ps, use, sizeof(use));
		fprintf(f, "%s", i ? "             " : "headroom:    ");
		msl_put_cgroup(f, chain->path[i]);
		fprintf(f, " %s\n", use);
	}
	if (!strcmp(a->src, "rule"))
		fprintf(f, "soft limit:  from %s:%d (%s)\n", a->file, a->line,
			a->rule);
	else if (!strcmp(a->src, "set"))
		fprintf(f, "soft limit:  set by hand (memcg-softlimit set, %s): no line of the configuration gives it, so it goes when the module is unloaded\n",
			MSL_CTL_LIMITS);
	else if (!strcmp(a->src, "v1"))
		fprintf(f, "soft limit:  memory.soft_limit_in_bytes (cgroup v1)\n");
	else if (!strcmp(a->src, "unset"))
		fprintf(f, "soft limit:  none of its own\n");
	if (a->have_counts)
		print_counts(f, &a->c);
	if (a->have_min || a->have_low || a->pressure[0]) {
		fprintf(f, "protection:  memory.min %s", a->have_min ?
			msl_size_fmt(a->min, b, sizeof(b)) : "-");
		fprintf(f, ", memory.low %s", a->have_low ?
			msl_size_fmt(a->low, b, sizeof(b)) : "-");
		if (a->pressure[0])
			fprintf(f, "; memory.pressure %s", a->pressure);
		fputc('\n', f);
	}
	fputc('\n', f);
}
