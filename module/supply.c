// SPDX-License-Identifier: GPL-2.0
/*
 * The eligible supply of each node (supply.h), counted by a work item that
 * a pass of global reclaim kicks when the last count is older than
 * SUPPLY_PERIOD, so that nothing is counted while nothing is reclaimed and
 * the reclaim path reads one word.
 *
 * Only cold file pages count, the ones reclaim takes without first
 * finding them unused: the inactive lists of the classic LRU, the
 * generations of MGLRU older than its two youngest (set_initial_priority()
 * weighs the same), per memcg and node, from the memcg's own lists;
 * whether memcgs other than the root hold anything is asked of all their
 * pages.  Anonymous pages count hot and cold, where the memcg and its
 * ancestors have swap room: the reader only asks whether there are any,
 * and reclaim deactivates hot ones as it needs them (the classic LRU
 * rebalances its anonymous lists at every pass, and scans both types
 * alike at its last); counting the cold ones alone read none for a
 * moment while a neighbour still held 200 MiB of shmem that swap had room
 * for, and the depth bound then took protected page cache (t-71 on 7.3).
 * Whether the reclaimer may swap and there is swap left is the reader's
 * to add.
 *
 * The count walks every memcg under rcu_read_lock(), deciding each as a
 * first pass would (policy.c through levels.c): about a microsecond a
 * memcg, ten milliseconds a second at most on a host with 10,000 memcgs
 * under constant reclaim.  It holds no reference and allocates nothing.
 */
#include <linux/atomic.h>
#include <linux/cgroup.h>
#include <linux/jiffies.h>
#include <linux/memcontrol.h>
#include <linux/mmzone.h>
#include <linux/nodemask.h>
#include <linux/page_counter.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <memcg_softlimit/depth.h>

#include "levels.h"
#include "msl_trace.h"
#include "params.h"
#include "supply.h"

#define SUPPLY_PERIOD	(HZ / 10)

u64 *msl_supply_words;
unsigned long msl_supply_counted_at;
/* When the last count was queued: one at a time, SUPPLY_PERIOD apart. */
static unsigned long kicked_at;
unsigned long msl_supply_nr_protected;
/* The work's own count of it. */
static unsigned long nr_protected;

struct node_count {
	u64 file, anon;
	bool others_file, others_anon, protects;
};
/* The work's own: one count runs at a time (one work item). */
static struct node_count *counts;

/*
 * What reclaim scanned and took from the eligible memcgs, per node: added
 * to by the accounting kretprobes (atomics, no lock), read by the count,
 * which keeps the totals it last read to measure the flow in between.
 */
struct node_flow {
	atomic_long_t scanned, reclaimed;
};
static struct node_flow *flows;
struct flow_seen {
	unsigned long scanned, reclaimed, refaulted;
};
static struct flow_seen *flows_seen;

static void count_supply(struct work_struct *work);
static DECLARE_WORK(supply_work, count_supply);
/*
 * The count must run while reclaim waits on it, when a system workqueue
 * may have no worker and creating one needs memory: a queue of its own
 * with a rescuer thread (WQ_MEM_RECLAIM), as the kernel's own reclaim
 * helpers have.
 */
static struct workqueue_struct *supply_wq;

/*
 * Pages of one memcg's lists on one node (LRU_GEN_ANON 0, FILE 1): the
 * cold ones, or all of them.  Whether an eligible memcg holds anything at
 * all (V8 2/2) is asked of all its pages: reclaim takes the hot ones too,
 * after deactivating them, and a cold list runs empty for a moment while
 * reclaim has it isolated or swaps it out (t-71 saw the protected cgroups
 * reclaimed as nothing_eligible beside neighbours holding 200 MiB).
 */
static u64 lru_pages(struct lruvec *lruvec, int type, bool cold)
{
	u64 n = 0;
	int zid;

#ifdef CONFIG_LRU_GEN
	if (READ_ONCE(lruvec->lrugen.enabled)) {
		unsigned long max_seq = READ_ONCE(lruvec->lrugen.max_seq);
		unsigned long seq = READ_ONCE(lruvec->lrugen.min_seq[type]);
		/* Cold: older than the two youngest, which count as active. */
		unsigned long last = cold ? max_seq - MIN_NR_GENS : max_seq;
		unsigned int gens = 0;
		long pages;

		for (; seq <= last && gens < MAX_NR_GENS; seq++, gens++) {
			for (zid = 0; zid < MAX_NR_ZONES; zid++) {
				pages = READ_ONCE(lruvec->lrugen.nr_pages
						  [seq % MAX_NR_GENS][type][zid]);
				n += max(pages, 0L);
			}
		}
		return n;
	}
#endif
	for (zid = 0; zid < MAX_NR_ZONES; zid++) {
		n += mem_cgroup_get_zone_lru_size(lruvec, type ?
						  LRU_INACTIVE_FILE :
						  LRU_INACTIVE_ANON, zid);
		if (!cold)
			n += mem_cgroup_get_zone_lru_size(lruvec, type ?
							  LRU_ACTIVE_FILE :
							  LRU_ACTIVE_ANON, zid);
	}
	return n;
}

/* Room below swap.max in the memcg and every ancestor (cgroup v2). */
static bool swap_room(struct mem_cgroup *memcg)
{
	if (!cgroup_subsys_on_dfl(memory_cgrp_subsys))
		return true;
	for (; memcg && memcg->css.parent; memcg = parent_mem_cgroup(memcg))
		if (page_counter_read(&memcg->swap) >= READ_ONCE(memcg->swap.max))
			return false;
	return true;
}

/* Would a first pass of global reclaim take pages from @memcg? */
static bool eligible(const struct msl_params *params, struct mem_cgroup *memcg)
{
	const struct msl_policy_ops *ops = msl_policy_ops(params->policy);
	struct msl_step step = {
		.kind = MSL_KIND_DIRECT,
		.effective_priority = MSL_DEF_PRIORITY,
		.is_root = !memcg->css.parent,
		.dying = !mem_cgroup_online(memcg) || css_is_dying(&memcg->css),
	};
	struct msl_level_cursor cursor;
	struct msl_decision d;

	msl_level_cursor_init(&cursor, params, memcg, NULL,
			      ops->reads_siblings);
	msl_decide(params, &step, msl_next_level, &cursor, &d);
	return d.verdict == MSL_RECLAIM;
}

static void count_memcg(const struct msl_params *params,
			struct mem_cgroup *memcg)
{
	bool is_root = !memcg->css.parent;
	bool reclaimed = eligible(params, memcg);
	bool room = reclaimed && swap_room(memcg);
	struct node_count *c;
	u64 file, anon;
	int nid;

	nr_protected += !reclaimed;
	for_each_node_state(nid, N_MEMORY) {
		struct lruvec *lruvec = &memcg->nodeinfo[nid]->lruvec;

		c = &counts[nid];
		file = lru_pages(lruvec, 1, true);
		anon = lru_pages(lruvec, 0, true);
		if (!reclaimed) {
			c->protects |= file || anon;
			continue;
		}
		c->file += file;
		c->others_file |= !is_root && lru_pages(lruvec, 1, false);
		if (room) {
			anon = lru_pages(lruvec, 0, false);
			c->anon += anon;
			c->others_anon |= !is_root && anon;
		}
	}
}

void msl_supply_note_flow(int nid, unsigned long scanned,
			  unsigned long reclaimed)
{
	struct node_flow *f = &flows[nid];

	atomic_long_add(scanned, &f->scanned);
	atomic_long_add(reclaimed, &f->reclaimed);
}

/*
 * The node's workingset refaults, anonymous and file: its counters less
 * what the CPUs have not folded in yet (node_page_state() is not exported
 * to modules), which is all a comparison over 100 ms needs.
 */
static unsigned long node_refaults(int nid)
{
	struct pglist_data *pgdat = NODE_DATA(nid);

	return atomic_long_read(&pgdat->vm_stat[WORKINGSET_REFAULT_ANON]) +
	       atomic_long_read(&pgdat->vm_stat[WORKINGSET_REFAULT_FILE]);
}

/* The node's flow since the last count: giving (depth.h) or not. */
static bool flow_giving(int nid)
{
	unsigned long scanned = atomic_long_read(&flows[nid].scanned);
	unsigned long reclaimed = atomic_long_read(&flows[nid].reclaimed);
	unsigned long refaulted = node_refaults(nid);
	struct flow_seen *seen = &flows_seen[nid];
	bool giving = msl_depth_giving(scanned - seen->scanned,
				       reclaimed - seen->reclaimed,
				       refaulted - seen->refaulted,
				       READ_ONCE(msl_test_depth_slack));

	seen->scanned = scanned;
	seen->reclaimed = reclaimed;
	seen->refaulted = refaulted;
	return giving;
}

static u64 word_of(const struct node_count *c, bool giving)
{
	return min(c->file, MSL_SUPPLY_PAGES_MAX) |
	       min(c->anon, MSL_SUPPLY_PAGES_MAX) << MSL_SUPPLY_PAGES_BITS |
	       (giving ? MSL_SUPPLY_GIVING : 0) |
	       (c->others_file ? MSL_SUPPLY_OTHERS_FILE : 0) |
	       (c->others_anon ? MSL_SUPPLY_OTHERS_ANON : 0) |
	       (c->protects ? MSL_SUPPLY_PROTECTS : 0) | MSL_SUPPLY_KNOWN;
}

static void count_supply(struct work_struct *work)
{
	struct cgroup_subsys_state *top, *pos;
	struct msl_params params;
	int nid;

	unsigned long began = jiffies;

	msl_current_params(&params);
	memset(counts, 0, nr_node_ids * sizeof(*counts));
	nr_protected = 0;
	rcu_read_lock();
	top = rcu_dereference(memory_cgrp_subsys.root->cgrp.subsys[memory_cgrp_id]);
	css_for_each_descendant_pre(pos, top)
		count_memcg(&params, mem_cgroup_from_css(pos));
	rcu_read_unlock();
	for_each_node_state(nid, N_MEMORY) {
		u64 word = word_of(&counts[nid], flow_giving(nid));

		WRITE_ONCE(msl_supply_words[nid], word);
		trace_supply(nid, word, nr_protected);
	}
	WRITE_ONCE(msl_supply_nr_protected, nr_protected);
	/*
	 * Dated once the words are in, with the time the count began: a
	 * reader that finds the date fresh reads this count's words, never
	 * the ones it is replacing (the module's load-time count, taken
	 * before the neighbours held anything, read as current while this
	 * one ran).
	 */
	smp_store_release(&msl_supply_counted_at, began);
}

void msl_supply_kick(void)
{
	unsigned long now = jiffies;

	if (time_after(now, READ_ONCE(kicked_at) + SUPPLY_PERIOD)) {
		WRITE_ONCE(kicked_at, now);
		queue_work(supply_wq, &supply_work);
	}
}

int msl_supply_init(void)
{
	int nid;

	msl_supply_words = kcalloc(nr_node_ids, sizeof(*msl_supply_words),
				   GFP_KERNEL);
	counts = kcalloc(nr_node_ids, sizeof(*counts), GFP_KERNEL);
	flows = kcalloc(nr_node_ids, sizeof(*flows), GFP_KERNEL);
	flows_seen = kcalloc(nr_node_ids, sizeof(*flows_seen), GFP_KERNEL);
	supply_wq = alloc_workqueue("memcg_softlimit_supply",
				    WQ_UNBOUND | WQ_MEM_RECLAIM, 1);
	if (!msl_supply_words || !counts || !flows || !flows_seen ||
	    !supply_wq) {
		msl_supply_exit();
		return -ENOMEM;
	}
	for_each_node_state(nid, N_MEMORY)
		flows_seen[nid].refaulted = node_refaults(nid);
	kicked_at = jiffies;
	count_supply(NULL);
	return 0;
}

/* After the probes are gone: nothing kicks the work any more. */
void msl_supply_exit(void)
{
	if (supply_wq) {
		cancel_work_sync(&supply_work);
		destroy_workqueue(supply_wq);
		supply_wq = NULL;
	}
	kfree(counts);
	counts = NULL;
	kfree(flows);
	flows = NULL;
	kfree(flows_seen);
	flows_seen = NULL;
	kfree(msl_supply_words);
	msl_supply_words = NULL;
}
