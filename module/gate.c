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
#include <linux/math.h>
#include <linux/memcontrol.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <linux/workqueue.h>

#include <memcg_softlimit/depth.h>
#include <memcg_softlimit/dry_spell.h>
#include <memcg_softlimit/pass.h>

#include "compat.h"
#include "excess.h"
#include "gate.h"
#include "levels.h"
#include "liveness.h"
#include "softlimits.h"
#include "supply.h"
#include "memcg_state.h"
#include "msl_trace.h"
#include "params.h"
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

static void dry_spell_begin(int nid, enum msl_kind kind)
{
	unsigned long length = msl_dry_spell_begin(&dry_spells[nid], jiffies,
						   HZ);

	if (length)
		trace_dry_spell(nid, kind, jiffies_to_msecs(length),
				dry_spells[nid].shift);
}

/*
 * The eligible memcgs still give on the node: they hold anonymous pages
 * this reclaimer may swap, or reclaim took pages from them since the last
 * count at a fair efficiency (supply.h's giving).  Swap-out is
 * asynchronous: a page is freed a pass or more after its write-out began;
 * a neighbour streaming through the page cache holds nothing for a moment
 * whenever reclaim has drained it, and refills it as it reads.  Rounds
 * that reclaimed nothing are expected while they give, and the module's
 * own fallbacks, kswapd's retry and the dry spells, would take the
 * protected page cache instead (memory.low has neither): one kswapd retry
 * beside such a stream, with its 100 ms spell, took a third of it on 7.3
 * (t-71).  The kernel's retry of a direct reclaim call, the last resort
 * before an OOM kill, stays.
 */
static bool eligible_giving(int nid, const void *sc)
{
	u64 word = msl_supply_word(nid);

	if (!(word & MSL_SUPPLY_KNOWN) || !READ_ONCE(msl_test_supply_param))
		return false;
	if (word & MSL_SUPPLY_GIVING)
		return true;
	return msl_supply_anon(word) && msl_sc_may_swap(sc) &&
	       get_nr_swap_pages() > 0;
}

void msl_gate_pass_begin(pg_data_t *pgdat, void *sc)
{
	enum msl_kind kind = msl_reclaim_kind(sc);
	int nid = pgdat->node_id, priority, next;
	struct msl_kswapd_round *round;
	struct msl_params params;
	bool fallbacks, was_retry;

	if (kind == MSL_KIND_TARGETED)
		return;
	msl_current_params(&params);
	fallbacks = msl_gate_of(&params) == MSL_GATE_PROGRESS &&
		    !eligible_giving(nid, sc);
	if (params.enabled && !msl_gating_stopped())
		msl_supply_kick();
	priority = msl_sc_priority(sc);
	if (kind == MSL_KIND_DIRECT) {
		/* The first pass of the kernel's retry: once per retry. */
		if (fallbacks && priority == MSL_DEF_PRIORITY &&
		    msl_sc_memcg_low_reclaim(sc))
			dry_spell_begin(nid, kind);
		return;
	}
	if (kind != MSL_KIND_KSWAPD)
		return;
	round = &kswapd_rounds[nid];
	was_retry = round->retry;
	next = msl_kswapd_pass_begin(round, priority, msl_sc_nr_reclaimed(sc),
				     fallbacks);
	if (next != priority)
		msl_sc_set_priority(sc, next);
	if (fallbacks && round->retry && !was_retry)
		dry_spell_begin(nid, kind);
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
 * The progress gate: a step of a retry round holds its node's dry spell
 * open; any other step of the node's kswapd or direct reclaim finds
 * whether one is open, unless the eligible memcgs still give.
 */
static void progress_step(int nid, const void *sc, struct msl_step *step)
{
	struct msl_dry_spell *spell = &dry_spells[nid];

	if (eligible_giving(nid, sc))
		return;
	if (step->retry)
		msl_dry_spell_hold(spell, jiffies, HZ);
	else
		step->dry_spell = msl_dry_spell_open(spell, jiffies);
}

/*
 * kswapd's boosted reclaim (balance_pgdat()'s nr_boost_reclaim, the only
 * global reclaim that clears sc->may_swap) runs while the node is
 * balanced, to make room for compaction after a fragmenting allocation,
 * and gives up at its first pass that reclaims nothing: nothing it fails
 * to find justifies taking protected pages.  Judged as a pass that may
 * not swap, it found nothing eligible beside a neighbour's 200 MiB of
 * shmem that swap had room for, and reclaimed the protected cgroups' page
 * cache (t-71 on 6.1: 6-11% of it).  So a boosted pass judges V8 2/2 as
 * kswapd's next unboosted pass would (with swap), and gets neither the
 * depth bound nor the dry spells.
 */
static bool kswapd_boost(const struct msl_step *step, const void *sc)
{
	return step->kind == MSL_KIND_KSWAPD && !msl_sc_may_swap(sc);
}

/*
 * What the node's supply says of this step (supply.h, depth.h): V8 2/2
 * (no memcg but the root holds anything reclaim may take here) and, for
 * the progress gate, whether this pass is deeper than the supply
 * justifies for what the reclaimer asked.  The depth bound weighs file
 * pages only: swapping is asynchronous (a page is reclaimed a pass or
 * more after its write-out began), so an eligible memcg whose anonymous
 * memory this reclaimer may swap looks unproductive while it gives, and
 * bounding on it would hand the protected page cache away while swap is
 * there (measured on 6.12's classic LRU: 35% of it lost).  Returns the
 * eligible memcgs' cold file pages, or U64_MAX before the first count.
 */
static u64 supply_step(int nid, void *sc, int priority, bool progress,
		       struct msl_step *step)
{
	u64 word = msl_supply_word(nid);
	int slack = READ_ONCE(msl_test_depth_slack);
	bool swap, boost;

	if (!(word & MSL_SUPPLY_KNOWN) || !READ_ONCE(msl_test_supply_param))
		return U64_MAX;
	boost = kswapd_boost(step, sc);
	swap = (boost || msl_sc_may_swap(sc)) && get_nr_swap_pages() > 0;
	step->nothing_eligible = !(word & MSL_SUPPLY_OTHERS_FILE) &&
				 !(swap && (word & MSL_SUPPLY_OTHERS_ANON));
	if (boost)
		return msl_supply_file(word);
	if (progress && (word & MSL_SUPPLY_PROTECTS) && slack >= 0 &&
	    !(word & MSL_SUPPLY_GIVING) && !(swap && msl_supply_anon(word)))
		step->below_floor = priority <
			msl_depth_floor(msl_supply_file(word),
					msl_sc_nr_to_reclaim(sc), slack);
	return msl_supply_file(word);
}

/*
 * The classic LRU reclaims only file pages while the node has "plenty of
 * inactive page cache" (prepare_scan_count()'s cache_trim_mode), judged on
 * every memcg's file pages, the protected ones' included.  Those are not
 * for this pass to take, and the eligible memcgs' anonymous pages would
 * never be scanned: the pass finds nothing and the protected memcgs lose
 * their page cache in the retry instead of the neighbours going to swap.
 * So the mode is judged again on the eligible memcgs' cold file pages.
 */
static void judge_cache_trim(void *sc, int priority, u64 eligible_file)
{
	if (eligible_file != U64_MAX && !(eligible_file >> priority) &&
	    msl_sc_cache_trim_mode(sc))
		msl_sc_clear_cache_trim_mode(sc);
}

/*
 * The classic LRU deactivates active pages only while the node's inactive
 * list is low or refaulting (prepare_scan_control()'s may_deactivate),
 * judged on every memcg's pages, the protected ones' included.  Beside
 * their inactive page cache an eligible memcg's active list is never
 * scanned: reclaim finds nothing, and the protected cache goes in the
 * fallbacks (t-71 on 7.3: a neighbour's stream, 200 MiB of it left on its
 * active list, and a third of the protected cache lost).  Direct reclaim
 * forces deactivation only in its last retry; kswapd never does.  So an
 * eligible memcg whose own file list is low on inactive pages, by the
 * kernel's measure (inactive_is_low()), has its active pages deactivated,
 * as a node made of the eligible memcgs alone would.
 */
static void judge_deactivate(void *sc, struct lruvec *lruvec)
{
	unsigned long inactive = 0, active = 0, gb;
	int zid;

	for (zid = 0; zid < MAX_NR_ZONES; zid++) {
		inactive += mem_cgroup_get_zone_lru_size(lruvec,
							 LRU_INACTIVE_FILE, zid);
		active += mem_cgroup_get_zone_lru_size(lruvec, LRU_ACTIVE_FILE,
						       zid);
	}
	gb = (inactive + active) >> (30 - PAGE_SHIFT);
	if (inactive * (gb ? int_sqrt(10 * gb) : 1) < active)
		msl_sc_set_deactivate_file(sc);
}

/*
 * Where MGLRU's memcg LRU holds the memcg on this node, for the decision
 * event: its generation counted from the node's oldest (0 old, 1 young),
 * and its segment (mm/vmscan.c: 0, head, tail); -1 for the classic LRU.
 */
static void memcg_lru_position(struct lruvec *lruvec, enum msl_site site,
			       int *gen, int *seg)
{
	*gen = -1;
	*seg = -1;
#if MSL_HAVE_SHRINK_ONE
	if (site == MSL_SITE_ONE) {
		unsigned long seq = READ_ONCE(lruvec_pgdat(lruvec)->memcg_lru.seq);

		*gen = (READ_ONCE(lruvec->lrugen.gen) + MEMCG_NR_GENS -
			seq % MEMCG_NR_GENS) % MEMCG_NR_GENS;
		*seg = READ_ONCE(lruvec->lrugen.seg);
	}
#endif
}

enum msl_verdict msl_gate_step(struct lruvec *lruvec, void *sc,
			       enum msl_site site, bool *eligible)
{
	struct mem_cgroup *memcg = lruvec_memcg(lruvec);
	struct msl_level self = { .src = MSL_LIMIT_UNSET };
	const struct msl_policy_ops *ops;
	struct msl_kswapd_round *round = NULL;
	struct msl_memcg *entry = NULL;
	struct msl_excess_ctx xctx;
	struct msl_level_cursor cursor;
	struct msl_params params;
	struct msl_decision d;
	struct msl_step step = {};
	int priority, nid, lru_gen, lru_seg;
	bool progress, own_account;
	u64 eligible_file = U64_MAX;

	msl_liveness_saw_step();
	if (eligible)
		*eligible = false;
	if (!memcg || msl_gating_stopped())
		return MSL_RECLAIM;

	msl_current_params(&params);
	progress = msl_gate_of(&params) == MSL_GATE_PROGRESS;
	ops = msl_policy_ops(params.policy);
	priority = msl_sc_priority(sc);
	nid = lruvec_pgdat(lruvec)->node_id;
	step.kind = msl_reclaim_kind(sc);
	step.is_root = !memcg->css.parent;
	step.last_pass = msl_last_pass(step.kind, priority);
	step.dying = !step.is_root && (!mem_cgroup_online(memcg) ||
				       css_is_dying(&memcg->css));
	if (step.kind != MSL_KIND_TARGETED)
		eligible_file = supply_step(nid, sc, priority, progress, &step);
	if (step.kind == MSL_KIND_KSWAPD) {
		round = &kswapd_rounds[nid];
		step.effective_priority =
			msl_kswapd_effective_priority(round, priority);
		step.retry = round->retry;
	} else {
		step.effective_priority = priority;
		step.retry = msl_sc_memcg_low_reclaim(sc);
	}
	if (progress && !kswapd_boost(&step, sc) &&
	    (step.kind == MSL_KIND_KSWAPD || step.kind == MSL_KIND_DIRECT))
		progress_step(nid, sc, &step);
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
	msl_level_cursor_init(&cursor, &params, memcg,
			      step.is_root ? NULL : &self, ops->reads_siblings);
	msl_decide(&params, &step, msl_next_level, &cursor, &d);

	if (entry)
		atomic64_inc(&entry->decisions[d.reason]);
	memcg_lru_position(lruvec, site, &lru_gen, &lru_seg);
	trace_decision(&self, nid, priority, step.effective_priority,
		       step.kind, params.policy, &d, entry, lru_gen, lru_seg);
	rcu_read_unlock();

	own_account = d.verdict == MSL_RECLAIM && msl_reason_eligible(d.reason);
	if (eligible)
		*eligible = own_account;
	if (d.verdict == MSL_SKIP) {
		note_skip(sc, memcg, nid, site, &params, round);
	} else if (progress && site == MSL_SITE_LRUVEC &&
		   step.kind != MSL_KIND_TARGETED) {
		judge_cache_trim(sc, priority, eligible_file);
		if (own_account && (msl_supply_word(nid) & MSL_SUPPLY_PROTECTS))
			judge_deactivate(sc, lruvec);
	}
	return d.verdict;
}

int msl_gate_init(void)
{
	int nid, ret;

	kswapd_rounds = kcalloc(nr_node_ids, sizeof(*kswapd_rounds),
				GFP_KERNEL);
	dry_spells = kcalloc(nr_node_ids, sizeof(*dry_spells), GFP_KERNEL);
	ret = kswapd_rounds && dry_spells ? msl_supply_init() : -ENOMEM;
	if (ret) {
		kfree(kswapd_rounds);
		kfree(dry_spells);
		kswapd_rounds = NULL;
		dry_spells = NULL;
		return ret;
	}
	for (nid = 0; nid < nr_node_ids; nid++)
		msl_dry_spell_init(&dry_spells[nid], jiffies, HZ);
	return 0;
}

/* After the probes are gone: nothing reads the rounds any more. */
void msl_gate_exit(void)
{
	msl_supply_exit();
	kfree(kswapd_rounds);
	kswapd_rounds = NULL;
	kfree(dry_spells);
	dry_spells = NULL;
}
