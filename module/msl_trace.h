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

/* The words of policy.c's msl_*_name(), for the text formats. */
TRACE_DEFINE_ENUM(MSL_KIND_KSWAPD);
TRACE_DEFINE_ENUM(MSL_KIND_DIRECT);
TRACE_DEFINE_ENUM(MSL_KIND_PROACTIVE);
TRACE_DEFINE_ENUM(MSL_KIND_TARGETED);
TRACE_DEFINE_ENUM(MSL_RECLAIM);
TRACE_DEFINE_ENUM(MSL_SKIP);
TRACE_DEFINE_ENUM(MSL_REASON_OFF);
TRACE_DEFINE_ENUM(MSL_REASON_TARGETED);
TRACE_DEFINE_ENUM(MSL_REASON_ROOT);
TRACE_DEFINE_ENUM(MSL_REASON_PRIORITY);
TRACE_DEFINE_ENUM(MSL_REASON_OVER);
TRACE_DEFINE_ENUM(MSL_REASON_ANCESTOR_OVER);
TRACE_DEFINE_ENUM(MSL_REASON_NOTHING_ELIGIBLE);
TRACE_DEFINE_ENUM(MSL_REASON_UNDER);
TRACE_DEFINE_ENUM(MSL_REASON_SIBLING_OVER);
TRACE_DEFINE_ENUM(MSL_REASON_NONE_OVER);
TRACE_DEFINE_ENUM(MSL_REASON_EXCESS_SHARE);
TRACE_DEFINE_ENUM(MSL_POLICY_V8);
TRACE_DEFINE_ENUM(MSL_POLICY_WALK);
TRACE_DEFINE_ENUM(MSL_POLICY_EXCESS);
TRACE_DEFINE_ENUM(MSL_LIMIT_UNSET);
TRACE_DEFINE_ENUM(MSL_LIMIT_SET);
TRACE_DEFINE_ENUM(MSL_LIMIT_MAX);
TRACE_DEFINE_ENUM(MSL_LIMIT_V1);

#define msl_show_kind(kind)						\
	__print_symbolic(kind,						\
			 { MSL_KIND_KSWAPD, "kswapd" },			\
			 { MSL_KIND_DIRECT, "direct" },			\
			 { MSL_KIND_PROACTIVE, "proactive" },		\
			 { MSL_KIND_TARGETED, "targeted" })

#define msl_show_verdict(verdict)					\
	__print_symbolic(verdict,					\
			 { MSL_RECLAIM, "reclaim" },			\
			 { MSL_SKIP, "skip" })

#define msl_show_reason(reason)						\
	__print_symbolic(reason,					\
			 { MSL_REASON_OFF, "policy_off" },		\
			 { MSL_REASON_TARGETED, "targeted" },		\
			 { MSL_REASON_ROOT, "root" },			\
			 { MSL_REASON_PRIORITY, "below_threshold" },	\
			 { MSL_REASON_OVER, "over" },			\
			 { MSL_REASON_ANCESTOR_OVER, "ancestor_over" },	\
			 { MSL_REASON_NOTHING_ELIGIBLE, "nothing_eligible" }, \
			 { MSL_REASON_UNDER, "under" },		\
			 { MSL_REASON_SIBLING_OVER, "sibling_over" },	\
			 { MSL_REASON_NONE_OVER, "none_over" },	\
			 { MSL_REASON_EXCESS_SHARE, "excess_share" })

#define msl_show_policy(policy)						\
	__print_symbolic(policy,					\
			 { MSL_POLICY_V8, "v8" },			\
			 { MSL_POLICY_WALK, "walk" },			\
			 { MSL_POLICY_EXCESS, "excess" })

#define msl_show_limit_src(src)						\
	__print_symbolic(src,						\
			 { MSL_LIMIT_UNSET, "unset" },			\
			 { MSL_LIMIT_SET, "set" },			\
			 { MSL_LIMIT_MAX, "max" },			\
			 { MSL_LIMIT_V1, "v1" })

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
		 const struct msl_memcg *totals),

	TP_ARGS(self, nid, priority, effective_priority, kind, policy,
		decision, totals),

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
	),

	TP_printk("cgroup_id=%llu nid=%d priority=%d effective_priority=%d kind=%s verdict=%s reason=%s usage=%llu soft_limit=%llu limit=%s decider_id=%llu reclaims=%llu skips=%llu scanned=%llu reclaimed=%llu excess=%llu excess_max=%llu credit=%llu policy=%s",
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
		  msl_show_policy(__entry->policy))
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
 * totals at once through the trace buffer.
 */
TRACE_EVENT(snapshot,

	TP_PROTO(u64 seq, const struct msl_memcg *e),

	TP_ARGS(seq, e),

	TP_STRUCT__entry(
		__field(u64, seq)
		__field(u64, cgroup_id)
		__field(u64, policy_off)
		__field(u64, targeted)
		__field(u64, root)
		__field(u64, below_threshold)
		__field(u64, over)
		__field(u64, ancestor_over)
		__field(u64, nothing_eligible)
		__field(u64, under)
		__field(u64, sibling_over)
		__field(u64, none_over)
		__field(u64, excess_share)
		__field(u64, scanned_kswapd)
		__field(u64, reclaimed_kswapd)
		__field(u64, scanned_direct)
		__field(u64, reclaimed_direct)
		__field(u64, scanned_proactive)
		__field(u64, reclaimed_proactive)
		__field(u64, scanned_targeted)
		__field(u64, reclaimed_targeted)
	),

	TP_fast_assign(
		__entry->seq = seq;
		__entry->cgroup_id = e->cgroup_id;
		__entry->policy_off = atomic64_read(&e->decisions[MSL_REASON_OFF]);
		__entry->targeted = atomic64_read(&e->decisions[MSL_REASON_TARGETED]);
		__entry->root = atomic64_read(&e->decisions[MSL_REASON_ROOT]);
		__entry->below_threshold =
			atomic64_read(&e->decisions[MSL_REASON_PRIORITY]);
		__entry->over = atomic64_read(&e->decisions[MSL_REASON_OVER]);
		__entry->ancestor_over =
			atomic64_read(&e->decisions[MSL_REASON_ANCESTOR_OVER]);
		__entry->nothing_eligible =
			atomic64_read(&e->decisions[MSL_REASON_NOTHING_ELIGIBLE]);
		__entry->under = atomic64_read(&e->decisions[MSL_REASON_UNDER]);
		__entry->sibling_over =
			atomic64_read(&e->decisions[MSL_REASON_SIBLING_OVER]);
		__entry->none_over =
			atomic64_read(&e->decisions[MSL_REASON_NONE_OVER]);
		__entry->excess_share =
			atomic64_read(&e->decisions[MSL_REASON_EXCESS_SHARE]);
		__entry->scanned_kswapd = atomic64_read(&e->scanned[MSL_KIND_KSWAPD]);
		__entry->reclaimed_kswapd =
			atomic64_read(&e->reclaimed[MSL_KIND_KSWAPD]);
		__entry->scanned_direct = atomic64_read(&e->scanned[MSL_KIND_DIRECT]);
		__entry->reclaimed_direct =
			atomic64_read(&e->reclaimed[MSL_KIND_DIRECT]);
		__entry->scanned_proactive =
			atomic64_read(&e->scanned[MSL_KIND_PROACTIVE]);
		__entry->reclaimed_proactive =
			atomic64_read(&e->reclaimed[MSL_KIND_PROACTIVE]);
		__entry->scanned_targeted =
			atomic64_read(&e->scanned[MSL_KIND_TARGETED]);
		__entry->reclaimed_targeted =
			atomic64_read(&e->reclaimed[MSL_KIND_TARGETED]);
	),

	TP_printk("seq=%llu cgroup_id=%llu policy_off=%llu targeted=%llu root=%llu below_threshold=%llu over=%llu ancestor_over=%llu nothing_eligible=%llu under=%llu sibling_over=%llu none_over=%llu excess_share=%llu scanned_kswapd=%llu reclaimed_kswapd=%llu scanned_direct=%llu reclaimed_direct=%llu scanned_proactive=%llu reclaimed_proactive=%llu scanned_targeted=%llu reclaimed_targeted=%llu",
		  __entry->seq, __entry->cgroup_id, __entry->policy_off,
		  __entry->targeted, __entry->root, __entry->below_threshold,
		  __entry->over, __entry->ancestor_over,
		  __entry->nothing_eligible, __entry->under,
		  __entry->sibling_over, __entry->none_over,
		  __entry->excess_share,
		  __entry->scanned_kswapd, __entry->reclaimed_kswapd,
		  __entry->scanned_direct, __entry->reclaimed_direct,
		  __entry->scanned_proactive, __entry->reclaimed_proactive,
		  __entry->scanned_targeted, __entry->reclaimed_targeted)
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

#endif /* MSL_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE msl_trace
#include <trace/define_trace.h>
