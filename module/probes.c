// SPDX-License-Identifier: GPL-2.0
/*
 * The probes: one kprobe on each function of the per-memcg reclaim step,
 * which either lets the call run or skips it, an observing one on
 * shrink_node() where passes begin, and the v1 soft-limit reclaim bypass;
 * on each gated function a kretprobe too, whose entry handler takes the
 * decision (gate.c) and whose return handler counts the call's pages
 * (account.c).
 *
 * To run the original we leave the instruction pointer alone.  To skip we
 * point it at a stub of the same prototype in this module and return 1,
 * which kprobes (on ftrace or int3) honour: the stub then returns to the
 * caller as the original would have.  We never call a hooked function
 * through a pointer, so the IBT sealing of static functions on 6.12
 * cannot fault us.
 *
 * A skipped memcg is spared its whole step, as memory.min spares it:
 * MGLRU's shrink_one() as a whole (LRU, shrinkers, vmpressure), and on the
 * classic LRU shrink_lruvec() and the shrink_slab() that follows it for
 * the same memcg (vmpressure sees nothing scanned and returns).
 */
#include <linux/kprobes.h>
#include <linux/memcontrol.h>
#include <linux/mmzone.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>

#include "account.h"
#include "compat.h"
#include "gate.h"
#include "liveness.h"
#include "params.h"
#include "probes.h"
#include "sc_layout.h"
#include "supply.h"

/* Stubs with the hooked functions' prototypes: what a skip runs instead. */
static void skip_shrink_lruvec(struct lruvec *lruvec, void *sc)
{
}


static unsigned long skip_shrink_slab(gfp_t gfp_mask, int nid,
				      struct mem_cgroup *memcg, int priority)
{
	return 0;
}


static int skip_to(struct pt_regs *regs, void *stub)
{
	instruction_pointer_set(regs, (unsigned long)stub);
	return 1;
}

/*
 * The accounting kretprobe shares its address with the skip probe and,
 * registered after it, runs first in the same ftrace callback with
 * preemption off.  So its entry handler takes the decision, leaves it on
 * this CPU for the skip probe, and takes no instance for a call that will
 * be skipped, nor for targeted reclaim unless count_targeted is set.  When
 * it has no instance left, its handler does not run at all; the skip probe
 * then finds nothing here and decides itself, and the call goes uncounted
 * (missed).  The skip probe never leaves a verdict behind, so none can go
 * stale.
 */
struct handed_verdict {
	const void *sc;
	const void *lruvec;
	unsigned long sp;
	enum msl_verdict verdict;
};
static DEFINE_PER_CPU(struct handed_verdict, handed);

static bool take_verdict(struct pt_regs *regs, enum msl_verdict *verdict)
{
	struct handed_verdict *h = this_cpu_ptr(&handed);

	if (!h->sc || h->sc != (void *)regs_get_kernel_argument(regs, 1) ||
	    h->lruvec != (void *)regs_get_kernel_argument(regs, 0) ||
	    h->sp != kernel_stack_pointer(regs))
		return false;
	*verdict = h->verdict;
	h->sc = NULL;
	return true;
}

static enum msl_verdict verdict_of(struct pt_regs *regs, enum msl_site site)
{
	enum msl_verdict verdict;

	if (take_verdict(regs, &verdict))
		return verdict;
	return msl_gate_step((void *)regs_get_kernel_argument(regs, 0),
			     (void *)regs_get_kernel_argument(regs, 1), site,
			     NULL);
}

static int account_entry(struct kretprobe_instance *ri, struct pt_regs *regs,
			 enum msl_site site)
{
	struct lruvec *lruvec = (void *)regs_get_kernel_argument(regs, 0);
	void *sc = (void *)regs_get_kernel_argument(regs, 1);
	struct handed_verdict *h = this_cpu_ptr(&handed);
	enum msl_kind kind;
	bool eligible;

	h->verdict = msl_gate_step(lruvec, sc, site, &eligible);
	h->sc = sc;
	h->lruvec = lruvec;
	h->sp = kernel_stack_pointer(regs);
	if (h->verdict == MSL_SKIP || !lruvec_memcg(lruvec))
		return 1;
	kind = msl_reclaim_kind(sc);
	if (kind == MSL_KIND_TARGETED && !msl_count_targeted())
		return 1;
	msl_account_begin((struct msl_gated_call *)ri->data, lruvec, sc, kind,
			  eligible);
	return 0;
}

static int account_entry_lruvec(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	return account_entry(ri, regs, MSL_SITE_LRUVEC);
}

static int account_entry_one(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	return account_entry(ri, regs, MSL_SITE_ONE);
}

static int account_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	msl_account_end((struct msl_gated_call *)ri->data);
	return 0;
}

static void prepare_accounting(struct kretprobe *rp, enum msl_site site)
{
	rp->entry_handler = site == MSL_SITE_ONE ? account_entry_one :
						   account_entry_lruvec;
	rp->handler = account_return;
	rp->data_size = sizeof(struct msl_gated_call);
	/* Calls in flight: reclaimers can sleep inside a step. */
	rp->maxactive = max_t(int, 64, 4 * num_possible_cpus());
}

static int shrink_lruvec_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (verdict_of(regs, MSL_SITE_LRUVEC) == MSL_SKIP)
		return skip_to(regs, skip_shrink_lruvec);
	return 0;
}

#if MSL_HAVE_SHRINK_ONE
static int lru_young, lru_tail;

/*
 * Where a skipped memcg goes in MGLRU's memcg LRU, whose walks visit only
 * its old generation: memcgs move to the young one when reclaimed or
 * skipped for memory.min, and the young becomes the old once the old is
 * empty.  A protected memcg sent young at once sits out every walk until
 * then, so that a retry, a dry spell or the depth bound, which let
 * everyone in, would not meet it.  So it goes to the tail of its own
 * generation (memory.low's first move), met again by the next walk, for
 * as long as the old generation holds more memcgs than the module
 * protects: some of them are eligible then.  Once it may hold protected
 * memcgs alone, each goes young at its second meeting in a row (memory.low,
 * then memory.min), so that the old generation empties and the memcg LRU
 * turns over, as it must for the eligible memcgs gone young to be met.
 */
static int skip_shrink_one(struct lruvec *lruvec, void *sc)
{
	struct pglist_data *pgdat = lruvec_pgdat(lruvec);
	unsigned long seq = READ_ONCE(pgdat->memcg_lru.seq);
	unsigned long in_old = READ_ONCE(pgdat->memcg_lru.nr_memcgs
					  [seq % MEMCG_NR_GENS]);

	if (in_old > msl_supply_protected_memcgs() ||
	    READ_ONCE(lruvec->lrugen.seg) != lru_tail)
		return lru_tail;
	return lru_young;
}

static int shrink_one_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (verdict_of(regs, MSL_SITE_ONE) == MSL_SKIP)
		return skip_to(regs, skip_shrink_one);
	return 0;
}
#endif

static int shrink_slab_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct mem_cgroup *memcg = (void *)regs_get_kernel_argument(regs, 2);
	int nid = regs_get_kernel_argument(regs, 1);

	if (msl_gate_slab_follows_skip(memcg, nid))
		return skip_to(regs, skip_shrink_slab);
	return 0;
}

static int shrink_node_pre(struct kprobe *p, struct pt_regs *regs)
{
	msl_gate_pass_begin((void *)regs_get_kernel_argument(regs, 0),
			    (void *)regs_get_kernel_argument(regs, 1));
	return 0;
}

#if MSL_HAVE_V1_SOFT_LIMIT
static unsigned long skip_soft_limit_reclaim(pg_data_t *pgdat, int order,
					     gfp_t gfp_mask,
					     unsigned long *total_scanned)
{
	return 0;
}

/* The patch removes the v1 rb-tree soft-limit reclaim. */
static int soft_limit_reclaim_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct msl_params params;

	msl_current_params(&params);
	if (!params.enabled || msl_keep_v1_reclaim() || msl_gating_stopped())
		return 0;
	return skip_to(regs, skip_soft_limit_reclaim);
}
#endif

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

struct hook {
	struct kprobe probe;
	/* For the gated steps: the pages each call scanned and reclaimed. */
	struct kretprobe account;
	bool gated;
	enum msl_site site;
	bool active;
	bool accounting;
};

/*
 * Every hook this kernel reclaims through (compat.h says which): each must
 * be there with the prototype BTF gives, or the module refuses to load.
 */
static struct hook hooks[] = {
	{ .probe = { .symbol_name = "shrink_node",
		     .pre_handler = shrink_node_pre },
	},
	{ .probe = { .symbol_name = "shrink_lruvec",
		     .pre_handler = shrink_lruvec_pre,
		     .post_handler = claim_ipmodify },
	  .gated = true, .site = MSL_SITE_LRUVEC },
	{ .probe = { .symbol_name = "shrink_slab",
		     .pre_handler = shrink_slab_pre,
		     .post_handler = claim_ipmodify },
	},
#if MSL_HAVE_SHRINK_ONE
	{ .probe = { .symbol_name = "shrink_one",
		     .pre_handler = shrink_one_pre,
		     .post_handler = claim_ipmodify },
	  .gated = true, .site = MSL_SITE_ONE },
#endif
#if MSL_HAVE_V1_SOFT_LIMIT
	{ .probe = { .symbol_name = MSL_SOFT_LIMIT_RECLAIM,
		     .pre_handler = soft_limit_reclaim_pre,
		     .post_handler = claim_ipmodify },
	},
#endif
};

static void reset_probe(struct kprobe *kp)
{
	/* A reused struct kprobe must be resolved again from its name. */
	kp->addr = NULL;
	kp->flags = 0;
}

/*
 * The kretprobe's entry handler decides and the skip probe follows (see
 * handed_verdict): kprobes runs an aggregate's probes newest first, and
 * this checks that it did put the kretprobe before the skip probe.
 */
static bool account_runs_first(const struct hook *h)
{
	return h->account.kp.list.next == &h->probe.list;
}

static void unregister_hook(struct hook *h)
{
	if (h->accounting)
		unregister_kretprobe(&h->account);
	if (h->active)
		unregister_kprobe(&h->probe);
	h->accounting = false;
	h->active = false;
	reset_probe(&h->probe);
	reset_probe(&h->account.kp);
}

/*
 * Since __register_kprobe() moved to guard() (7.x), register_kprobe()
 * returns 0 when arming the probe fails, an IPMODIFY conflict with a
 * livepatch say, and leaves the probe out of kprobes' table.
 * enable_kprobe() finds such a probe invalid (-EINVAL) and does nothing
 * to an armed one.
 */
static bool probe_armed(struct kprobe *p)
{
	return enable_kprobe(p) == 0;
}

static int register_hook(struct hook *h)
{
	const char *symbol = h->probe.symbol_name;
	int ret;

	ret = msl_verify_hook_proto(symbol, symbol);
	if (ret)
		return ret;
	/*
	 * The skip probe first: it arms the address on the IPMODIFY ops,
	 * which an aggregate probe keeps when the kretprobe joins it.
	 */
	ret = register_kprobe(&h->probe);
	if (ret)
		goto refuse;
	h->active = true;
	if (!probe_armed(&h->probe))
		goto unarmed;
	if (!h->gated)
		goto hooked;
	prepare_accounting(&h->account, h->site);
	h->account.kp.symbol_name = symbol;
	ret = register_kretprobe(&h->account);
	if (ret)
		goto refuse;
	h->accounting = true;
	if (!probe_armed(&h->account.kp))
		goto unarmed;
	if (!account_runs_first(h)) {
		unregister_hook(h);
		pr_err("refusing to load: kprobes does not run the probes on %s in the order expected\n",
		       symbol);
		return -EINVAL;
	}
hooked:
	pr_info("hooked %s\n", symbol);
	return 0;
unarmed:
	unregister_hook(h);
	pr_err("refusing to load: cannot hook %s: kprobes did not arm the probe (another IPMODIFY user such as a livepatch owns it?)\n",
	       symbol);
	return -EBUSY;
refuse:
	unregister_hook(h);
	pr_err("refusing to load: cannot hook %s (%d%s)\n", symbol, ret,
	       ret == -EBUSY ? ": another IPMODIFY user such as a livepatch owns it" :
	       ret == -ENOENT ? ": no such symbol" : "");
	return ret;
}

/* All of them at once: one grace period for the kretprobes, one for the rest. */
static void unregister_hooks(void)
{
	struct kretprobe *rps[ARRAY_SIZE(hooks)];
	struct kprobe *kps[ARRAY_SIZE(hooks)];
	int i, nr_rps = 0, nr_kps = 0;

	for (i = 0; i < ARRAY_SIZE(hooks); i++) {
		if (hooks[i].accounting)
			rps[nr_rps++] = &hooks[i].account;
		if (hooks[i].active)
			kps[nr_kps++] = &hooks[i].probe;
	}
	/* Accounting first: the skip probes alone still decide every step. */
	if (nr_rps)
		unregister_kretprobes(rps, nr_rps);
	if (nr_kps)
		unregister_kprobes(kps, nr_kps);
	for (i = 0; i < ARRAY_SIZE(hooks); i++) {
		reset_probe(&hooks[i].probe);
		reset_probe(&hooks[i].account.kp);
		hooks[i].active = false;
		hooks[i].accounting = false;
	}
}

/*
 * After the probes are gone, until no task can be inside a stub, as
 * ftrace_shutdown() waits for its trampolines.  A stub never sleeps, so a
 * task in one when the probes went has left it before its CPU schedules,
 * unless it was preempted there: the rude grace period (every CPU runs a
 * work item) covers the first case, and only a kernel that preempts in
 * kernel mode (PREEMPT_RT, preempt=full) needs Tasks RCU for the second,
 * whose grace period waits for every task to schedule voluntarily or
 * enter user space, which under heavy reclaim may take minutes.
 */
static void wait_for_stubs(void)
{
	synchronize_rcu_tasks_rude();
	if (preempt_model_preemptible())
		synchronize_rcu_tasks();
}

int msl_probes_init(void)
{
	int i, ret;

	if (msl_test_proto()) {
		ret = msl_verify_hook_proto(msl_test_proto(), "shrink_lruvec");
		if (ret)
			return ret;
	}
#if MSL_HAVE_SHRINK_ONE
	lru_young = msl_sc_memcg_lru_young();
	if (lru_young < 0)
		return lru_young;
	lru_tail = msl_sc_memcg_lru_tail();
	if (lru_tail < 0)
		return lru_tail;
#endif
	for (i = 0; i < ARRAY_SIZE(hooks); i++) {
		ret = register_hook(&hooks[i]);
		if (ret)
			goto fail;
	}
	return 0;
fail:
	unregister_hooks();
	wait_for_stubs();
	return ret;
}

void msl_probes_exit(void)
{
	unregister_hooks();
	wait_for_stubs();
}

u64 msl_probes_missed(void)
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

void msl_probes_show(struct seq_file *m)
{
	const char *sep = "";
	int i;

	for (i = 0; i < ARRAY_SIZE(hooks); i++) {
		if (!hooks[i].active)
			continue;
		seq_printf(m, "%s%s", sep, hooks[i].probe.symbol_name);
		sep = " ";
	}
	seq_putc(m, '\n');
}
