// SPDX-License-Identifier: GPL-2.0
/*
 * The decision at each per-memcg reclaim step of global reclaim: the
 * gate says whether this pass skips at all (README "Gates"), the policy
 * (policy.c) whether this memcg is skipped; the step is counted in the
 * memcg's entry and traced.
 *
 * Nothing here sleeps, allocates or takes a sleeping lock: it runs in
 * probe handlers, with preemption off, inside reclaim.
 */
#include <linux/jiffies.h>
#include <linux/memcontrol.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <linux/workqueue.h>

#include "compat.h"
#include "dry_spell.h"
#include "eligible.h"
#include "excess.h"
#include "gate.h"
#include "softlimits.h"
#include "memcg_state.h"
#include "msl_trace.h"
#include "params.h"
#include "pass.h"
#include "sc_layout.h"

/* One per node, written by that node's kswapd only (pass.h). */
static struct msl_kswapd_round *kswapd_rounds;
/* One per node, written by any of its reclaimers (dry_spell.h). */
static struct msl_dry_spell *dry_spells;

enum msl_kind msl_reclaim_kind(const void *sc)
{
	struct mem_cgroup *target = msl_sc_target(sc);

	if (target && target->css.parent)
		return MSL_KIND_TARGETED;
	if (target || msl_sc_proactive(sc))
		return MSL_KIND_PROACTIVE;
	return current_is_kswapd() ? MSL_KIND_KSWAPD : MSL_KIND_DIRECT;
}

void msl_gate_pass_begin(pg_data_t *pgdat, void *sc)
{
	struct msl_params params;
	int priority, next;

	if (msl_reclaim_kind(sc) == MSL_KIND_TARGETED)
		return;
	msl_current_params(&params);
	if (params.enabled && !msl_gating_stopped() &&
	    msl_policy_ops(params.policy)->may_find_none)
		msl_eligible_pass_begin(&params);
	if (!current_is_kswapd())
		return;
	priority = msl_sc_priority(sc);
	next = msl_kswapd_pass_begin(&kswapd_rounds[pgdat->node_id], priority,
				     msl_sc_nr_reclaimed(sc),
				     msl_gate_of(&params));
	if (next != priority)
		msl_sc_set_priority(sc, next);
}

/*
 * walk: which children of a memcg are over, cached in the memcg's entry
 * for one jiffy: how many (0, 1, or 2 for two or more), the low bits of
 * the id of the one when there is one, and the jiffy.  0 is "not cached"
 * (a miss).  Within that jiffy an answer may miss a limit or a usage that
 * crossed over; that is all the staleness there is.
 */
#define OC_COUNT_SHIFT		62
#define OC_STAMP_MASK		GENMASK_ULL(61, 32)
#define OC_STAMP_SHIFT		32
#define OC_ID_MASK		GENMASK_ULL(31, 0)

/*
 * css_for_each_child() would do, but css_next_child() is not exported.
 * The children list is RCU-protected (list_del_rcu() on release) and the
 * caller holds rcu_read_lock() across the whole walk, which is all
 * css_next_child() needs when the lock is not dropped between steps.  No
 * allocation, no sleeping, no lock; O(children), stopping at the second
 * child over.
 */
static u64 scan_over_children(const struct msl_params *params,
			      struct mem_cgroup *parent)
{
	struct cgroup_subsys_state *pos;
	struct msl_level level;
	u64 count = 0, id = 0;

	list_for_each_entry_rcu(pos, &parent->css.children, sibling) {
		msl_fill_level(mem_cgroup_from_css(pos), &level);
		if (!msl_level_over(params, &level))
			continue;
		if (++count == 2)
			break;
		id = level.cgroup_id;
	}
	return count << OC_COUNT_SHIFT | (id & OC_ID_MASK);
}

/* walk: is a child of @memcg's parent other than @memcg (@id) over? */
static bool sibling_over(const struct msl_params *params,
			 struct mem_cgroup *memcg, u64 id)
{
	struct mem_cgroup *parent = parent_mem_cgroup(memcg);
	unsigned long now = jiffies;
	struct msl_memcg *e;
	u64 stamp, v = 0, count;

	if (!parent)
		return false;
	stamp = ((u64)now << OC_STAMP_SHIFT) & OC_STAMP_MASK;
	/* The parent's entry; the root's too, made at its first decision. */
	e = msl_state_find(cgroup_id(parent->css.cgroup));
	if (e)
		v = atomic64_read(&e->over_children);
	if (!v || (v & OC_STAMP_MASK) != stamp) {
		v = scan_over_children(params, parent) | stamp;
		if (e)
			atomic64_set(&e->over_children, v);
	}
	count = v >> OC_COUNT_SHIFT;
	return count > 1 || (count == 1 && (v & OC_ID_MASK) != (id & OC_ID_MASK));
}

struct level_cursor {
	const struct msl_params *params;
	struct mem_cgroup *memcg;
	struct msl_level *self;
	bool siblings;
};

static bool next_level(void *cursor, struct msl_level *level)
{
	struct level_cursor *c = cursor;
	struct mem_cgroup *memcg = c->memcg;

	if (!memcg || !memcg->css.parent)
		return false;
	if (c->self) {
		/* The memcg's own level was read already, for the event. */
		*level = *c->self;
		c->self = NULL;
	} else {
		msl_fill_level(memcg, level);
	}
	level->sibling_over = c->siblings &&
			      sibling_over(c->params, memcg, level->cgroup_id);
	c->memcg = parent_mem_cgroup(memcg);
	return true;
}

/*
 * The memcg's entry for counting: found or created, but never for a memcg
 * being removed (its entry would outlive the rmdir that drops it).
 */
static struct msl_memcg *counting_entry(struct mem_cgroup *memcg,
					struct msl_memcg *found, u64 id)
{
	struct msl_memcg *e = found;

	if (!e) {
		if (css_is_dying(&memcg->css)) {
			atomic64_inc(&msl_global.dying);
			return NULL;
		}
		e = msl_state_get_atomic(id);
		if (!e) {
			atomic64_inc(&msl_global.untracked);
			return NULL;
		}
	}
	return e;
}

/*
 * shrink_node_memcgs() calls shrink_slab() for a memcg right after its
 * shrink_lruvec(), with no scheduling point between them on kernels that
 * preempt only voluntarily: a skip leaves the task, memcg and node here
 * for the shrink_slab() probe to match.  On a fully preemptible kernel the
 * task may move to another CPU in between, and its shrinkers then run (the
 * stock behaviour; nothing else goes wrong).
 */
struct slab_skip {
	const struct task_struct *task;
	const struct mem_cgroup *memcg;
	int nid;
};
static DEFINE_PER_CPU(struct slab_skip, slab_skip);

bool msl_gate_slab_follows_skip(struct mem_cgroup *memcg, int nid)
{
	struct slab_skip *s = this_cpu_ptr(&slab_skip);

	if (s->task != current || s->memcg != memcg || s->nid != nid)
		return false;
	s->task = NULL;
	return true;
}

static void note_skip(void *sc, struct mem_cgroup *memcg, int nid,
		      enum msl_site site, const struct msl_params *params,
		      struct msl_kswapd_round *round)
{
	struct slab_skip *s;

	if (round)
		round->skipped = true;
	else if (msl_gate_of(params) == MSL_GATE_PROGRESS)
		/* memory.low's protocol: retry before OOM (do_try_to_free_pages). */
		msl_sc_note_low_skipped(sc);
	if (site == MSL_SITE_LRUVEC) {
		s = this_cpu_ptr(&slab_skip);
		s->task = current;
		s->memcg = memcg;
		s->nid = nid;
	}
}

/*
 * The progress gate's retry opens a dry spell on the node; a step in one
 * reclaims as the retry does.
 */
static bool dry_spell_step(int nid, bool retry)
{
	struct msl_dry_spell *spell = &dry_spells[nid];

	if (retry) {
		msl_dry_spell_note_retry(spell, jiffies, HZ);
		return true;
	}
	return msl_dry_spell_open(spell, jiffies);
}

/* Liveness: gated steps seen, per CPU, against global reclaim's scanning. */
static DEFINE_PER_CPU(unsigned long, steps_seen);

enum msl_verdict msl_gate_step(struct lruvec *lruvec, void *sc,
			       enum msl_site site)
{
	struct mem_cgroup *memcg = lruvec_memcg(lruvec);
	struct msl_level self = { .src = MSL_LIMIT_UNSET };
	const struct msl_policy_ops *ops;
	struct msl_kswapd_round *round = NULL;
	struct msl_memcg *entry = NULL;
	struct msl_excess_ctx xctx;
	struct level_cursor cursor;
	struct msl_params params;
	struct msl_decision d;
	struct msl_step step;
	int priority, nid;

	if (!msl_test_blind())
		this_cpu_inc(steps_seen);
	if (!memcg || msl_gating_stopped())
		return MSL_RECLAIM;

	msl_current_params(&params);
	ops = msl_policy_ops(params.policy);
	priority = msl_sc_priority(sc);
	nid = lruvec_pgdat(lruvec)->node_id;
	step.kind = msl_reclaim_kind(sc);
	step.is_root = !memcg->css.parent;
	step.last_pass = priority == 0;
	step.nothing_eligible = msl_nothing_eligible();
	if (step.kind == MSL_KIND_KSWAPD) {
		round = &kswapd_rounds[nid];
		step.effective_priority =
			msl_kswapd_effective_priority(round, priority);
		step.retry = round->retry;
	} else {
		step.effective_priority = priority;
		step.retry = msl_sc_memcg_low_reclaim(sc);
	}
	if (msl_gate_of(&params) == MSL_GATE_PROGRESS &&
	    (step.kind == MSL_KIND_KSWAPD || step.kind == MSL_KIND_DIRECT))
		step.retry = dry_spell_step(nid, step.retry);
	step.excess_note = ops->weighs_excess ? msl_excess_note : NULL;
	step.excess_arg = &xctx;

	rcu_read_lock();
	if (step.is_root) {
		self.cgroup_id = cgroup_id(memcg->css.cgroup);
		self.usage = page_counter_read(&memcg->memory);
		entry = msl_state_find(self.cgroup_id);
	} else {
		entry = msl_fill_level(memcg, &self);
	}
	/* Before deciding: excess keeps the memcg's credit in it. */
	entry = counting_entry(memcg, entry, self.cgroup_id);
	xctx.entry = entry;
	xctx.now = (u64)jiffies / HZ;
	cursor.params = &params;
	cursor.memcg = memcg;
	cursor.self = step.is_root ? NULL : &self;
	cursor.siblings = ops->reads_siblings;
	msl_decide(&params, &step, next_level, &cursor, &d);

	if (entry)
		atomic64_inc(&entry->decisions[d.reason]);
	trace_decision(&self, nid, priority, step.effective_priority,
		       step.kind, params.policy, &d, entry);
	rcu_read_unlock();

	if (d.verdict == MSL_SKIP)
		note_skip(sc, memcg, nid, site, &params, round);
	return d.verdict;
}

/*
 * Liveness: every page reclaim scans is scanned inside a hooked step, so a
 * window in which reclaim scanned pages (the kernel's pgscan_kswapd,
 * pgscan_direct and pgscan_khugepaged, 7.x's pgscan_proactive) but no hooked step
 * ran means that on this kernel the hooks are not on the reclaim path
 * (say, a hooked function got inlined into its caller, which still has
 * an out-of-line copy for other callers).  Then gating stops for good,
 * with one warning and a line in /proc/memcg_softlimit/status, so that
 * nobody believes in a protection that is not there (and so that v1's
 * own soft-limit reclaim is no longer bypassed).
 */
#define LIVENESS_PERIOD		(10 * HZ)
#define LIVENESS_MIN_SCANNED	512

static bool stopped;
static char stopped_why[96];
static unsigned long last_steps, last_scanned;
static unsigned long events[NR_VM_EVENT_ITEMS];
static void liveness_check(struct work_struct *work);
static DECLARE_DELAYED_WORK(liveness_work, liveness_check);

bool msl_gating_stopped(void)
{
	return READ_ONCE(stopped);
}

const char *msl_gating_state(void)
{
	return READ_ONCE(stopped) ? stopped_why : "active";
}

static unsigned long global_scanned(void)
{
	return msl_global_pgscan(events);
}

static unsigned long total_steps(void)
{
	unsigned long n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += per_cpu(steps_seen, cpu);
	return n;
}

static void liveness_check(struct work_struct *work)
{
	unsigned long steps = total_steps(), scanned = global_scanned();

	if (steps == last_steps &&
	    scanned - last_scanned >= LIVENESS_MIN_SCANNED) {
		snprintf(stopped_why, sizeof(stopped_why),
			 "stopped: global reclaim scanned %lu pages in %d s and no hooked step ran",
			 scanned - last_scanned, LIVENESS_PERIOD / HZ);
		smp_wmb();	/* the reason before the flag */
		WRITE_ONCE(stopped, true);
		pr_warn("gating %s; the module no longer skips anything\n",
			stopped_why);
		return;
	}
	last_steps = steps;
	last_scanned = scanned;
	schedule_delayed_work(&liveness_work, LIVENESS_PERIOD);
}

int msl_gate_init(void)
{
	int nid;

	kswapd_rounds = kcalloc(nr_node_ids, sizeof(*kswapd_rounds),
				GFP_KERNEL);
	dry_spells = kcalloc(nr_node_ids, sizeof(*dry_spells), GFP_KERNEL);
	if (!kswapd_rounds || !dry_spells) {
		kfree(kswapd_rounds);
		kfree(dry_spells);
		kswapd_rounds = NULL;
		dry_spells = NULL;
		return -ENOMEM;
	}
	for (nid = 0; nid < nr_node_ids; nid++)
		msl_dry_spell_init(&dry_spells[nid], jiffies, HZ);
	last_steps = total_steps();
	last_scanned = global_scanned();
	schedule_delayed_work(&liveness_work, LIVENESS_PERIOD);
	return 0;
}

/* After the probes are gone: nothing reads the rounds any more. */
void msl_gate_exit(void)
{
	cancel_delayed_work_sync(&liveness_work);
	msl_eligible_exit();
	kfree(kswapd_rounds);
	kswapd_rounds = NULL;
	kfree(dry_spells);
	dry_spells = NULL;
}
