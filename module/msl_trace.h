/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the memcg_softlimit trace system.  Symbolic fields print
 * as words in /sys/kernel/tracing/trace and trace-cmd report (the enums
 * are exported with TRACE_DEFINE_ENUM) and stay numbers in raw records.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM memcg_softlimit

#if !defined(MSL_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define MSL_TRACE_H

#include <linux/tracepoint.h>
#include <memcg_softlimit/policy.h>
#include "memcg_state.h"
#include "supply.h"

#ifndef MSL_TRACE_HELPERS
#define MSL_TRACE_HELPERS
/* Running totals of a memcg's entry, 0 without one. */
static inline u64 msl_tp_decisions(const struct msl_memcg *e, bool skips)
{
	u64 sum = 0;
	int r;

	if (!e)
		return 0;
	for (r = 0; r < MSL_NR_REASONS; r++)
		if (skips == msl_reason_skips(r))
			sum += atomic64_read(&e->decisions[r]);
	return sum;
}

static inline u64 msl_tp_pages(const struct msl_memcg *e, bool reclaimed)
{
	u64 sum = 0;
	int k;

	if (!e)
		return 0;
	for (k = 0; k < MSL_NR_KINDS; k++)
		sum += atomic64_read(reclaimed ? &e->reclaimed[k] :
					     &e->scanned[k]);
	return sum;
}
#endif

/*
 * The enums' words, from policy.h's lists (the pattern of the kernel's
 * include/trace/events/9p.h): exported with TRACE_DEFINE_ENUM so that
 * trace-cmd and libtraceevent print words, then mapped for
 * __print_symbolic.
 */
#undef EM
#undef EMe
#define EM(value, word)		TRACE_DEFINE_ENUM(value);
#define EMe(value, word)	TRACE_DEFINE_ENUM(value);

MSL_KINDS
MSL_VERDICTS
MSL_REASONS
MSL_POLICIES
MSL_LIMIT_SOURCES

#undef EM
#undef EMe
#define EM(value, word)		{ value, #word },
#define EMe(value, word)	{ value, #word }

#define msl_show_kind(kind)		__print_symbolic(kind, MSL_KINDS)
#define msl_show_verdict(verdict)	__print_symbolic(verdict, MSL_VERDICTS)
#define msl_show_reason(reason)		__print_symbolic(reason, MSL_REASONS)
#define msl_show_policy(policy)		__print_symbolic(policy, MSL_POLICIES)
#define msl_show_limit_src(src)		__print_symbolic(src, MSL_LIMIT_SOURCES)

/*
 * One per reclaim step that the module gated: which memcg, on which node,
 * at which priority, for which kind of reclaim, and what was decided why.
 * usage and soft_limit are the memcg's own, in bytes; soft_limit is the
 * effective one (0 for unset under unset_eligible, U64_MAX for max);
 * policy is the rule that decided (module parameter policy).
 */
TRACE_EVENT(decision,

	TP_PROTO(const struct msl_level *self, int nid, int priority,
		 int effective_priority, unsigned int kind,
		 unsigned int policy, const struct msl_decision *decision,
		 const struct msl_memcg *totals, int lru_gen, int lru_seg),

	TP_ARGS(self, nid, priority, effective_priority, kind, policy,
		decision, totals, lru_gen, lru_seg),

	TP_STRUCT__entry(
		__field(u64, cgroup_id)
		__field(u64, usage)
		__field(u64, soft_limit)
		__field(u64, decider_id)
		__field(u64, reclaims)
		__field(u64, skips)
		__field(u64, scanned)
		__field(u64, reclaimed)
		__field(u64, excess)
		__field(u64, excess_max)
		__field(u64, credit)
		__field(int, nid)
		__field(int, priority)
		__field(int, effective_priority)
		__field(unsigned int, kind)
		__field(unsigned int, verdict)
		__field(unsigned int, reason)
		__field(unsigned int, limit_src)
		__field(unsigned int, policy)
		__field(int, lru_gen)
		__field(int, lru_seg)
	),

	TP_fast_assign(
		__entry->cgroup_id = self->cgroup_id;
		__entry->usage = self->usage << PAGE_SHIFT;
		__entry->soft_limit =
			self->src == MSL_LIMIT_SET || self->src == MSL_LIMIT_V1 ?
			self->soft_limit << PAGE_SHIFT :
			self->src == MSL_LIMIT_MAX ? U64_MAX : 0;
		__entry->decider_id = decision->decider_id;
		__entry->reclaims = msl_tp_decisions(totals, false);
		__entry->skips = msl_tp_decisions(totals, true);
		__entry->scanned = msl_tp_pages(totals, false);
		__entry->reclaimed = msl_tp_pages(totals, true);
		__entry->excess = decision->excess << PAGE_SHIFT;
		__entry->excess_max = decision->excess_max << PAGE_SHIFT;
		__entry->credit = decision->excess_credit << PAGE_SHIFT;
		__entry->nid = nid;
		__entry->priority = priority;
		__entry->effective_priority = effective_priority;
		__entry->kind = kind;
		__entry->verdict = decision->verdict;
		__entry->reason = decision->reason;
		__entry->limit_src = self->src;
		__entry->policy = policy;
		__entry->lru_gen = lru_gen;
		__entry->lru_seg = lru_seg;
	),

	TP_printk("cgroup_id=%llu nid=%d priority=%d effective_priority=%d kind=%s verdict=%s reason=%s usage=%llu soft_limit=%llu limit=%s decider_id=%llu reclaims=%llu skips=%llu scanned=%llu reclaimed=%llu excess=%llu excess_max=%llu credit=%llu policy=%s lru_gen=%d lru_seg=%d",
		  __entry->cgroup_id, __entry->nid, __entry->priority,
		  __entry->effective_priority,
		  msl_show_kind(__entry->kind),
		  msl_show_verdict(__entry->verdict),
		  msl_show_reason(__entry->reason),
		  __entry->usage, __entry->soft_limit,
		  msl_show_limit_src(__entry->limit_src),
		  __entry->decider_id, __entry->reclaims, __entry->skips,
		  __entry->scanned, __entry->reclaimed,
		  __entry->excess, __entry->excess_max, __entry->credit,
		  msl_show_policy(__entry->policy),
		  __entry->lru_gen, __entry->lru_seg)
);

/*
 * The progress gate's retry opened a dry spell on a node (dry_spell.h):
 * for spell_ms every round there reclaims everyone; shift is how many
 * times the spell doubled since the last quiet.
 */
TRACE_EVENT(dry_spell,

	TP_PROTO(int nid, unsigned int kind, unsigned int spell_ms,
		 unsigned int shift),

	TP_ARGS(nid, kind, spell_ms, shift),

	TP_STRUCT__entry(
		__field(int, nid)
		__field(unsigned int, kind)
		__field(unsigned int, spell_ms)
		__field(unsigned int, shift)
	),

	TP_fast_assign(
		__entry->nid = nid;
		__entry->kind = kind;
		__entry->spell_ms = spell_ms;
		__entry->shift = shift;
	),

	TP_printk("nid=%d kind=%s spell_ms=%u shift=%u",
		  __entry->nid, msl_show_kind(__entry->kind),
		  __entry->spell_ms, __entry->shift)
);

/*
 * A count of a node's eligible supply (supply.h), as the probes will read
 * it: the cold file pages and the anonymous ones (where they have swap
 * room) of the memcgs a first pass would reclaim, whether reclaim took
 * pages from them since the last count at a fair efficiency (giving,
 * depth.h), whether memcgs other than the root hold any pages of each
 * type, whether the node holds protected pages, and how many memcgs the
 * policy protects.
 */
TRACE_EVENT(supply,

	TP_PROTO(int nid, u64 word, unsigned long nr_protected),

	TP_ARGS(nid, word, nr_protected),

	TP_STRUCT__entry(
		__field(int, nid)
		__field(u64, file)
		__field(u64, anon)
		__field(bool, giving)
		__field(bool, others_file)
		__field(bool, others_anon)
		__field(bool, protects)
		__field(unsigned long, nr_protected)
	),

	TP_fast_assign(
		__entry->nid = nid;
		__entry->file = msl_supply_file(word);
		__entry->anon = msl_supply_anon(word);
		__entry->giving = !!(word & MSL_SUPPLY_GIVING);
		__entry->others_file = !!(word & MSL_SUPPLY_OTHERS_FILE);
		__entry->others_anon = !!(word & MSL_SUPPLY_OTHERS_ANON);
		__entry->protects = !!(word & MSL_SUPPLY_PROTECTS);
		__entry->nr_protected = nr_protected;
	),

	TP_printk("nid=%d file=%llu anon=%llu giving=%d others_file=%d others_anon=%d protects=%d nr_protected=%lu",
		  __entry->nid, __entry->file, __entry->anon, __entry->giving,
		  __entry->others_file, __entry->others_anon,
		  __entry->protects, __entry->nr_protected)
);

/* After a gated call that ran: the pages it scanned and reclaimed. */
TRACE_EVENT(reclaimed,

	TP_PROTO(u64 cgroup_id, int nid, int priority, unsigned int kind,
		 unsigned long nr_scanned, unsigned long nr_reclaimed,
		 const struct msl_memcg *totals),

	TP_ARGS(cgroup_id, nid, priority, kind, nr_scanned, nr_reclaimed,
		totals),

	TP_STRUCT__entry(
		__field(u64, cgroup_id)
		__field(u64, nr_scanned)
		__field(u64, nr_reclaimed)
		__field(u64, scanned)
		__field(u64, reclaimed)
		__field(int, nid)
		__field(int, priority)
		__field(unsigned int, kind)
	),

	TP_fast_assign(
		__entry->cgroup_id = cgroup_id;
		__entry->nr_scanned = nr_scanned;
		__entry->nr_reclaimed = nr_reclaimed;
		__entry->scanned = msl_tp_pages(totals, false);
		__entry->reclaimed = msl_tp_pages(totals, true);
		__entry->nid = nid;
		__entry->priority = priority;
		__entry->kind = kind;
	),

	TP_printk("cgroup_id=%llu nid=%d priority=%d kind=%s nr_scanned=%llu nr_reclaimed=%llu scanned=%llu reclaimed=%llu",
		  __entry->cgroup_id, __entry->nid, __entry->priority,
		  msl_show_kind(__entry->kind),
		  __entry->nr_scanned, __entry->nr_reclaimed,
		  __entry->scanned, __entry->reclaimed)
);

/*
 * Every counter of one memcg, emitted for each tracked memcg on a write to
 * /proc/memcg_softlimit/snapshot, so a reader that starts late gets all
 * totals at once through the trace buffer: one field per reason, named by
 * its word, then scanned_<kind> and reclaimed_<kind> per kind, all made
 * from policy.h's lists.
 */
#define MSL_REASON_FIELD(value, word)	__field(u64, word)
#define MSL_KIND_FIELDS(value, word)					\
	__field(u64, scanned_##word)					\
	__field(u64, reclaimed_##word)
#define MSL_REASON_ASSIGN(value, word)					\
	__entry->word = atomic64_read(&e->decisions[value]);
#define MSL_KIND_ASSIGN(value, word)					\
	__entry->scanned_##word = atomic64_read(&e->scanned[value]);	\
	__entry->reclaimed_##word = atomic64_read(&e->reclaimed[value]);
#define MSL_REASON_FORMAT(value, word)	" " #word "=%llu"
#define MSL_KIND_FORMAT(value, word)					\
	" scanned_" #word "=%llu reclaimed_" #word "=%llu"
#define MSL_REASON_ARG(value, word)	__entry->word,
#define MSL_KIND_ARGS(value, word)					\
	__entry->scanned_##word, __entry->reclaimed_##word,
#define MSL_LAST_KIND_ARGS(value, word)					\
	__entry->scanned_##word, __entry->reclaimed_##word

TRACE_EVENT(snapshot,

	TP_PROTO(u64 seq, const struct msl_memcg *e),

	TP_ARGS(seq, e),

	TP_STRUCT__entry(
		__field(u64, seq)
		__field(u64, cgroup_id)
		MSL_REASON_LIST(MSL_REASON_FIELD, MSL_REASON_FIELD)
		MSL_KIND_LIST(MSL_KIND_FIELDS, MSL_KIND_FIELDS)
	),

	TP_fast_assign(
		__entry->seq = seq;
		__entry->cgroup_id = e->cgroup_id;
		MSL_REASON_LIST(MSL_REASON_ASSIGN, MSL_REASON_ASSIGN)
		MSL_KIND_LIST(MSL_KIND_ASSIGN, MSL_KIND_ASSIGN)
	),

	TP_printk("seq=%llu cgroup_id=%llu"
		  MSL_REASON_LIST(MSL_REASON_FORMAT, MSL_REASON_FORMAT)
		  MSL_KIND_LIST(MSL_KIND_FORMAT, MSL_KIND_FORMAT),
		  __entry->seq, __entry->cgroup_id,
		  MSL_REASON_LIST(MSL_REASON_ARG, MSL_REASON_ARG)
		  MSL_KIND_LIST(MSL_KIND_ARGS, MSL_LAST_KIND_ARGS))
);

/* Ends one snapshot: how many memcgs, and what could not be attributed. */
TRACE_EVENT(snapshot_done,

	TP_PROTO(u64 seq, unsigned int nr_tracked,
		 const struct msl_global_stats *g, u64 missed_returns,
		 unsigned int pooled),

	TP_ARGS(seq, nr_tracked, g, missed_returns, pooled),

	TP_STRUCT__entry(
		__field(u64, seq)
		__field(u64, untracked)
		__field(u64, dying)
		__field(u64, missed)
		__field(unsigned int, nr_tracked)
		__field(unsigned int, pooled)
	),

	TP_fast_assign(
		__entry->seq = seq;
		__entry->untracked = atomic64_read(&g->untracked);
		__entry->dying = atomic64_read(&g->dying);
		__entry->missed = atomic64_read(&g->missed) + missed_returns;
		__entry->nr_tracked = nr_tracked;
		__entry->pooled = pooled;
	),

	TP_printk("seq=%llu nr_tracked=%u untracked=%llu dying=%llu missed=%llu pooled=%u",
		  __entry->seq, __entry->nr_tracked, __entry->untracked,
		  __entry->dying, __entry->missed, __entry->pooled)
);

#ifndef msl_assign_str
#ifdef MSL_ASSIGN_STR_ONE_ARG	/* Kbuild: 6.10 on */
#define msl_assign_str(dst, src)	__assign_str(dst)
#else
#define msl_assign_str(dst, src)	__assign_str(dst, src)
#endif
#endif

/*
 * Names a memcg for a recording read elsewhere or after a reboot, where
 * its id means nothing: at each snapshot one per tracked memcg (seq the
 * snapshot's, before its rows), and one at each mkdir in the memory
 * hierarchy (seq 0).  The path is below the hierarchy's root, "/" for it.
 */
TRACE_EVENT(cgroup_path,

	TP_PROTO(u64 seq, u64 cgroup_id, const char *path),

	TP_ARGS(seq, cgroup_id, path),

	TP_STRUCT__entry(
		__field(u64, seq)
		__field(u64, cgroup_id)
		__string(path, path)
	),

	TP_fast_assign(
		__entry->seq = seq;
		__entry->cgroup_id = cgroup_id;
		msl_assign_str(path, path);
	),

	TP_printk("seq=%llu cgroup_id=%llu path=%s", __entry->seq,
		  __entry->cgroup_id, __get_str(path))
);

#endif /* MSL_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE msl_trace
#include <trace/define_trace.h>
