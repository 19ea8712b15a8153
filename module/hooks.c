// SPDX-License-Identifier: GPL-2.0
/*
 * The reclaim hooks: one kprobe on each per-memcg reclaim step of global
 * reclaim, which either lets the step run or skips it.
 *
 * To run the original we leave the instruction pointer alone.  To skip we
 * point it at a stub of the same prototype in this module and return 1,
 * which kprobes (on ftrace or int3) honour: the stub then returns to the
 * caller as the original would have.  We never call a hooked function
 * through a pointer, so the IBT sealing of static functions on 6.12
 * cannot fault us.
 *
 * Nothing here sleeps, allocates or takes a lock: the handlers run with
 * preemption disabled inside reclaim.
 */
#include <linux/bitmap.h>
#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/kprobes.h>
#include <linux/memcontrol.h>
#include <linux/mmzone.h>
#include <linux/nodemask.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/swap.h>

#include "internal.h"
#include "memcg_state.h"
#include "msl_trace.h"

/*
 * Pass tracking, per reclaimer.  A reclaimer is identified by its struct
 * scan_control, which lives on its stack for the whole reclaim.  Each slot
 * is one 64-bit word written only by the reclaimer whose tag it holds, so
 * readers never see a torn state; a reclaimer whose slot was taken by
 * another falls back to sc->priority, which only ever skips less.
 */
#define SLOT_BITS		8
#define SLOT_TAG_MASK		GENMASK_ULL(39, 0)
#define SLOT_P0_SHIFT		40
#define SLOT_P0_MASK		GENMASK_ULL(43, 40)
#define SLOT_P0_KNOWN		BIT_ULL(44)
#define SLOT_FIRST		BIT_ULL(45)
#define SLOT_NID_SHIFT		46
#define SLOT_NID_MASK		GENMASK_ULL(55, 46)
#define SLOT_SKIPPED		BIT_ULL(56)
#define SLOT_ELIGIBLE		BIT_ULL(57)
#define SLOT_VALID		BIT_ULL(58)

static u64 pass_slots[1 << SLOT_BITS];

/*
 * Nodes whose last first pass skipped every memcg but the root: the next
 * first pass there reclaims as stock does (V8 2/2), at no per-step scan.
 * Cleared by the first decision that finds an eligible memcg.
 */
static unsigned long *nothing_eligible;

static u64 *slot_of(const void *sc)
{
	return &pass_slots[hash_ptr(sc, SLOT_BITS)];
}

static u64 sc_tag(const void *sc)
{
	return ((unsigned long)sc >> 3) & SLOT_TAG_MASK;
}

static bool slot_owned(u64 slot, const void *sc)
{
	return (slot & SLOT_VALID) && (slot & SLOT_TAG_MASK) == sc_tag(sc);
}

static int slot_nid(u64 slot)
{
	return (slot & SLOT_NID_MASK) >> SLOT_NID_SHIFT;
}

/* A pass starts: shrink_node() for one node. */
static void pass_begin(const void *sc, int nid)
{
	u64 *slot = slot_of(sc);
	u64 old = READ_ONCE(*slot);
	u64 carry = 0;

	if (slot_owned(old, sc)) {
		/* The previous pass skipped all it saw: remember for next time. */
		if ((old & SLOT_SKIPPED) && !(old & SLOT_ELIGIBLE) &&
		    !test_bit(slot_nid(old), nothing_eligible))
			set_bit(slot_nid(old), nothing_eligible);
		carry = old & (SLOT_P0_MASK | SLOT_P0_KNOWN);
	}
	if (msl_sc_priority(sc) == MSL_DEF_PRIORITY)
		carry = SLOT_FIRST;
	WRITE_ONCE(*slot, SLOT_VALID | sc_tag(sc) | carry |
		   (((u64)nid << SLOT_NID_SHIFT) & SLOT_NID_MASK));
}

static void pass_note(const void *sc, u64 bit)
{
	u64 *slot = slot_of(sc);
	u64 old = READ_ONCE(*slot);

	if (slot_owned(old, sc) && !(old & bit))
		WRITE_ONCE(*slot, old | bit);
}

/*
 * MGLRU's kswapd does not start at DEF_PRIORITY: set_initial_priority()
 * lowers sc->priority to between 6 and 12 before the first memcg is
 * reclaimed.  The seed's "first pass" is that pass, so the effective
 * priority is DEF_PRIORITY minus the passes made since it (see README).
 */
static int mglru_effective_priority(const void *sc, int priority)
{
	u64 *slot = slot_of(sc);
	u64 old = READ_ONCE(*slot);
	int first;

	if (!slot_owned(old, sc))
		return priority;
	if (old & SLOT_P0_KNOWN) {
		first = (old & SLOT_P0_MASK) >> SLOT_P0_SHIFT;
		if (priority > first)
			return priority;
		return MSL_DEF_PRIORITY - (first - priority);
	}
	if (!(old & SLOT_FIRST) || priority < 0 || priority > MSL_DEF_PRIORITY)
		return priority;
	WRITE_ONCE(*slot, old | SLOT_P0_KNOWN |
		   ((u64)priority << SLOT_P0_SHIFT));
	return MSL_DEF_PRIORITY;
}

static enum msl_kind reclaim_kind(const void *sc, struct mem_cgroup *target)
{
	if (target && target->css.parent)
		return MSL_KIND_TARGETED;
	if (target || msl_sc_proactive(sc))
		return MSL_KIND_PROACTIVE;
	return current_is_kswapd() ? MSL_KIND_KSWAPD : MSL_KIND_DIRECT;
}

struct level_cursor {
	const struct msl_params *params;
	struct mem_cgroup *memcg;
	struct msl_level *self;
};

/*
 * walk: which children of a memcg are over their soft limit, cached in the
 * memcg's entry for one jiffy: how many (0, 1, or 2 for two or more), the
 * low bits of the id of the one when there is one, and the jiffy.  0 is
 * "not cached" (a miss).  Within that jiffy an answer may miss a limit or
 * a usage that crossed over; that is all the staleness there is.
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
	level->sibling_over = c->params->policy == MSL_POLICY_WALK &&
			      sibling_over(c->params, memcg, level->cgroup_id);
	c->memcg = parent_mem_cgroup(memcg);
	return true;
}

/*
 * policy excess: the largest excess lately, one word (policy.h): the
 * excess in pages, the second it was noted in, the low bits of the id of
 * the level that holds it.  Updated with a compare-and-swap loop, which
 * only retries when another CPU changed the word meanwhile (lock-free);
 * a step whose excess changes nothing writes nothing.
 */
static atomic64_t excess_max = ATOMIC64_INIT(0);

void msl_excess_reset(void)
{
	atomic64_set(&excess_max, 0);
}

struct excess_ctx {
	struct msl_memcg *entry;	/* the step's memcg; NULL: untracked */
	u64 now;			/* seconds: the word's period */
};

/* msl_excess_fn: one global word and the memcg's credit, both atomics. */
static bool excess_note(void *arg, u64 id, u64 excess, struct msl_excess *out)
{
	struct excess_ctx *x = arg;
	s64 old = atomic64_read(&excess_max);
	u64 word;

	for (;;) {
		word = msl_excess_max_next((u64)old, x->now, id, excess);
		if (word == (u64)old ||
		    atomic64_try_cmpxchg(&excess_max, &old, (s64)word))
			break;
	}
	if (!excess || !x->entry)
		return false;
	out->max = msl_excess_max_value(word, x->now);
	out->credit = (u64)atomic64_add_return((s64)excess,
					       &x->entry->excess_credit);
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
 * Each gated function has two probes at one address, run one after the
 * other in one ftrace callback with preemption off: the accounting
 * kretprobe and the skip kprobe.  Whichever runs first decides and leaves
 * the verdict here; the other takes it, so a step is decided and counted
 * once.  A verdict is keyed by the call (reclaimer, lruvec, stack pointer).
 */
struct pending_verdict {
	const void *sc;
	const void *lruvec;
	unsigned long sp;
	enum msl_verdict verdict;
};
static DEFINE_PER_CPU(struct pending_verdict, pending);

static enum msl_verdict gate_step(struct lruvec *lruvec, const void *sc,
				  bool mglru);

static enum msl_verdict decide_once(struct pt_regs *regs, bool mglru)
{
	struct pending_verdict *p = this_cpu_ptr(&pending);
	struct lruvec *lruvec = (void *)regs_get_kernel_argument(regs, 0);
	const void *sc = (void *)regs_get_kernel_argument(regs, 1);
	unsigned long sp = kernel_stack_pointer(regs);

	if (p->sc == sc && p->lruvec == lruvec && p->sp == sp) {
		p->sc = NULL;
		return p->verdict;
	}
	p->verdict = gate_step(lruvec, sc, mglru);
	p->sc = sc;
	p->lruvec = lruvec;
	p->sp = sp;
	return p->verdict;
}

static enum msl_verdict gate_step(struct lruvec *lruvec, const void *sc,
				  bool mglru)
{
	struct mem_cgroup *memcg = lruvec_memcg(lruvec);
	struct msl_level self = { .src = MSL_LIMIT_UNSET };
	struct msl_memcg *entry = NULL;
	struct level_cursor cursor;
	struct excess_ctx xctx;
	struct msl_params params;
	struct msl_decision d;
	struct msl_step step;
	int priority, nid;

	if (!memcg)
		return MSL_RECLAIM;
	step.kind = reclaim_kind(sc, msl_sc_target(sc));
	/* Under MGLRU, targeted steps were already seen at shrink_lruvec. */
	if (mglru && step.kind == MSL_KIND_TARGETED)
		return MSL_RECLAIM;

	msl_current_params(&params);
	priority = msl_sc_priority(sc);
	nid = lruvec_pgdat(lruvec)->node_id;
	step.is_root = !memcg->css.parent;
	step.effective_priority = mglru ?
		mglru_effective_priority(sc, priority) : priority;
	step.nothing_eligible = test_bit(nid, nothing_eligible);
	step.last_pass = priority == 0;
	step.excess_note = params.policy == MSL_POLICY_EXCESS ?
			   excess_note : NULL;
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
	msl_decide(&params, &step, next_level, &cursor, &d);

	if (entry)
		atomic64_inc(&entry->decisions[d.reason]);
	trace_decision(&self, nid, priority, step.effective_priority,
		       step.kind, params.policy, &d, entry);
	rcu_read_unlock();

	/* An excess_share skip is eligible: the pass had something to take. */
	if (d.reason == MSL_REASON_OVER || d.reason == MSL_REASON_ANCESTOR_OVER ||
	    d.reason == MSL_REASON_NONE_OVER ||
	    d.reason == MSL_REASON_EXCESS_SHARE) {
		pass_note(sc, SLOT_ELIGIBLE);
		if (step.nothing_eligible)
			clear_bit(nid, nothing_eligible);
	} else if (d.verdict == MSL_SKIP) {
		pass_note(sc, SLOT_SKIPPED);
	}
	return d.verdict;
}

/*
 * Accounting: a kretprobe on each gated function records the pages the
 * call scanned and reclaimed (sc->nr_scanned and sc->nr_reclaimed before
 * and after).  A skipped call takes no instance.
 */
struct gated_call {
	u64 cgroup_id;
	const void *sc;
	unsigned long nr_scanned;
	unsigned long nr_reclaimed;
	int nid;
	int priority;
	unsigned int kind;
};

static int account_entry(struct kretprobe_instance *ri, struct pt_regs *regs,
			 bool mglru)
{
	struct gated_call *call = (struct gated_call *)ri->data;
	struct lruvec *lruvec = (void *)regs_get_kernel_argument(regs, 0);
	const void *sc = (void *)regs_get_kernel_argument(regs, 1);
	struct mem_cgroup *memcg = lruvec_memcg(lruvec);

	if (decide_once(regs, mglru) == MSL_SKIP || !memcg)
		return 1;
	call->kind = reclaim_kind(sc, msl_sc_target(sc));
	if (mglru && call->kind == MSL_KIND_TARGETED)
		return 1;
	call->cgroup_id = cgroup_id(memcg->css.cgroup);
	call->sc = sc;
	call->nr_scanned = msl_sc_nr_scanned(sc);
	call->nr_reclaimed = msl_sc_nr_reclaimed(sc);
	call->nid = lruvec_pgdat(lruvec)->node_id;
	call->priority = msl_sc_priority(sc);
	return 0;
}

static int account_entry_classic(struct kretprobe_instance *ri,
				 struct pt_regs *regs)
{
	return account_entry(ri, regs, false);
}

static int account_entry_mglru(struct kretprobe_instance *ri,
			       struct pt_regs *regs)
{
	return account_entry(ri, regs, true);
}

static int account_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct gated_call *call = (struct gated_call *)ri->data;
	unsigned long scanned = msl_sc_nr_scanned(call->sc) - call->nr_scanned;
	unsigned long reclaimed =
		msl_sc_nr_reclaimed(call->sc) - call->nr_reclaimed;
	struct msl_memcg *e;

	rcu_read_lock();
	e = msl_state_find(call->cgroup_id);
	if (e) {
		atomic64_add(scanned, &e->scanned[call->kind]);
		atomic64_add(reclaimed, &e->reclaimed[call->kind]);
	}
	trace_reclaimed(call->cgroup_id, call->nid, call->priority, call->kind,
			scanned, reclaimed, e);
	rcu_read_unlock();
	return 0;
}

/* Stubs with the hooked functions' prototypes: what a skip runs instead. */
static void skip_shrink_lruvec(struct lruvec *lruvec, void *sc)
{
}

/* true: "rotate", so shrink_one() moves the memcg to the young generation. */
static bool skip_try_to_shrink_lruvec(struct lruvec *lruvec, void *sc)
{
	return true;
}

static unsigned long skip_soft_limit_reclaim(pg_data_t *pgdat, int order,
					     gfp_t gfp_mask,
					     unsigned long *total_scanned)
{
	return 0;
}

static int skip_to(struct pt_regs *regs, void *stub)
{
	instruction_pointer_set(regs, (unsigned long)stub);
	return 1;
}

static int shrink_lruvec_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (decide_once(regs, false) == MSL_SKIP)
		return skip_to(regs, skip_shrink_lruvec);
	return 0;
}

static int try_to_shrink_lruvec_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (decide_once(regs, true) == MSL_SKIP)
		return skip_to(regs, skip_try_to_shrink_lruvec);
	return 0;
}

/*
 * A probe with a post handler is armed on kprobes' IPMODIFY ftrace_ops,
 * which ftrace grants to one user per function: a livepatch of a function
 * we redirect then refuses us, or we it, instead of both moving the
 * instruction pointer.
 */
static void claim_ipmodify(struct kprobe *p, struct pt_regs *regs,
			   unsigned long flags)
{
}

static int shrink_node_pre(struct kprobe *p, struct pt_regs *regs)
{
	pg_data_t *pgdat = (void *)regs_get_kernel_argument(regs, 0);
	const void *sc = (void *)regs_get_kernel_argument(regs, 1);
	struct mem_cgroup *target = msl_sc_target(sc);

	if (!target || !target->css.parent)
		pass_begin(sc, pgdat->node_id);
	return 0;
}

static int soft_limit_reclaim_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct msl_params params;

	msl_current_params(&params);
	if (!params.enabled || msl_keep_v1_reclaim())
		return 0;
	return skip_to(regs, skip_soft_limit_reclaim);
}

enum hook_need { HOOK_REQUIRED, HOOK_OPTIONAL };

struct hook {
	struct kprobe probe;
	/* For the gated steps: the pages each call scanned and reclaimed. */
	struct kretprobe account;
	enum hook_need need;
	bool active;
	bool accounting;
};

/* MGLRU's memcg LRU reclaims through shrink_one/try_to_shrink_lruvec. */
#if IS_ENABLED(CONFIG_LRU_GEN) && defined(MSL_HAVE_MEMCG_LRU)
#define MGLRU_HOOK_NEED HOOK_REQUIRED
#else
#define MGLRU_HOOK_NEED HOOK_OPTIONAL
#endif

#define GATED_CALL_PROBE(entry)						\
	{ .kp = { .symbol_name = NULL }, .entry_handler = (entry),	\
	  .handler = account_return,					\
	  .data_size = sizeof(struct gated_call) }

static struct hook hooks[] = {
	{ .probe = { .symbol_name = "shrink_node",
		     .pre_handler = shrink_node_pre },
	  .need = HOOK_REQUIRED },
	{ .probe = { .symbol_name = "shrink_lruvec",
		     .pre_handler = shrink_lruvec_pre,
		     .post_handler = claim_ipmodify },
	  .account = GATED_CALL_PROBE(account_entry_classic),
	  .need = HOOK_REQUIRED },
	{ .probe = { .symbol_name = "try_to_shrink_lruvec",
		     .pre_handler = try_to_shrink_lruvec_pre,
		     .post_handler = claim_ipmodify },
	  .account = GATED_CALL_PROBE(account_entry_mglru),
	  .need = MGLRU_HOOK_NEED },
	{ .probe = { .symbol_name = "mem_cgroup_soft_limit_reclaim",
		     .pre_handler = soft_limit_reclaim_pre,
		     .post_handler = claim_ipmodify },
	  .need = HOOK_OPTIONAL },
};

static void reset_probe(struct kprobe *kp)
{
	/* A reused struct kprobe must be resolved again from its name. */
	kp->addr = NULL;
	kp->flags = 0;
}

static void unregister_hooks(void)
{
	int i;

	for (i = ARRAY_SIZE(hooks) - 1; i >= 0; i--) {
		struct hook *h = &hooks[i];

		if (h->active) {
			unregister_kprobe(&h->probe);
			reset_probe(&h->probe);
			h->active = false;
		}
		if (h->accounting) {
			unregister_kretprobe(&h->account);
			reset_probe(&h->account.kp);
			h->accounting = false;
		}
	}
}

static int register_hook(struct hook *h)
{
	const char *symbol = h->probe.symbol_name;
	int ret;

	ret = msl_verify_hook_proto(symbol);
	if (ret)
		return ret;
	/*
	 * The skip probe first: it arms the address on the IPMODIFY ops,
	 * which an aggregate probe keeps when the kretprobe joins it.
	 */
	ret = register_kprobe(&h->probe);
	if (ret)
		goto fail;
	h->active = true;
	if (h->account.handler) {
		h->account.kp.symbol_name = symbol;
		h->account.maxactive = max_t(int, 64, 4 * num_possible_cpus());
		ret = register_kretprobe(&h->account);
		if (ret)
			goto fail;
		h->accounting = true;
	}
	pr_info("memcg_softlimit: hooked %s\n", symbol);
	return 0;
fail:
	if (h->active) {
		unregister_kprobe(&h->probe);
		h->active = false;
	}
	reset_probe(&h->probe);
	reset_probe(&h->account.kp);
	if (ret == -ENOENT && h->need == HOOK_OPTIONAL)
		return 0;
	pr_err("memcg_softlimit: refusing to load: cannot hook %s (%d%s)\n",
	       symbol, ret,
	       ret == -EBUSY ? ": another IPMODIFY user such as a livepatch owns it" :
	       ret == -ENOENT ? ": no such symbol" : "");
	return ret;
}

int msl_hooks_init(void)
{
	int i, ret;

	nothing_eligible = bitmap_zalloc(nr_node_ids, GFP_KERNEL);
	if (!nothing_eligible)
		return -ENOMEM;
	memset(pass_slots, 0, sizeof(pass_slots));

	for (i = 0; i < ARRAY_SIZE(hooks); i++) {
		ret = register_hook(&hooks[i]);
		if (ret)
			goto fail;
	}
	return 0;
fail:
	unregister_hooks();
	synchronize_rcu_tasks();
	bitmap_free(nothing_eligible);
	return ret;
}

void msl_hooks_exit(void)
{
	unregister_hooks();
	/*
	 * unregister_kprobe() waited for running handlers; a task sent to a
	 * stub may still be inside it.  Tasks RCU waits for every task to
	 * pass a voluntary schedule, after which none can be in module text.
	 */
	synchronize_rcu_tasks();
	bitmap_free(nothing_eligible);
}

u64 msl_hooks_missed(void)
{
	u64 missed = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(hooks); i++) {
		if (hooks[i].accounting)
			missed += hooks[i].account.nmissed;
		if (hooks[i].active)
			missed += hooks[i].probe.nmissed;
	}
	return missed;
}

bool msl_hook_active(const char *symbol)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(hooks); i++)
		if (!strcmp(hooks[i].probe.symbol_name, symbol))
			return hooks[i].active;
	return false;
}
