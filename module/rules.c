// SPDX-License-Identifier: GPL-2.0
/*
 * Rules: soft limits by cgroup path pattern (cgroup v2), so that the
 * cgroups that matter on a fleet (services, containers, pods), which come
 * and go, get their limit as they are created, with no daemon and no
 * polling.  Format and matching: include/memcg_softlimit/control.h.
 *
 * The rule set is replaced whole by a write and read under RCU: the
 * cgroup_mkdir probe matches the new cgroup's path against it and takes
 * the entry for the limit from memcg_state's pool, without allocating.
 * When the pool is empty the cgroup's id waits in a small ring for a work
 * item that can allocate.
 *
 * Not every memcg comes with a cgroup_mkdir: enabling +memory in a
 * parent's cgroup.subtree_control gives its existing children memcgs of
 * their own, with no event.  So while there are rules, a reconciliation
 * runs every RECONCILE_INTERVAL over the memcgs created since it last
 * looked (css serial numbers only grow) and gives those without a limit
 * their rule's; it also catches any the ring had no room for.
 */
#include <linux/cgroup.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "compat.h"
#include <memcg_softlimit/control.h>
#include "memcg_state.h"
#include "rules.h"

struct rule {
	const char *pattern;	/* into struct rule_set's text */
	enum msl_rule_action action;
	u64 pages;
};

struct rule_set {
	struct rcu_head rcu;
	char *text;
	unsigned int nr;
	struct rule rule[];
};

static struct rule_set __rcu *rules;
/* Writers of the rule set, and the walk that applies a new one. */
static DEFINE_MUTEX(rules_mutex);

#define PENDING_SLOTS	256
static u64 pending[PENDING_SLOTS];
static unsigned int nr_pending;
/* New cgroups whose limit waited for the work item, or for the sweep. */
static atomic64_t nr_deferred = ATOMIC64_INIT(0);
static atomic64_t nr_ring_full = ATOMIC64_INIT(0);
/* Memcgs the reconciliation gave their rule's limit. */
static atomic64_t nr_reconciled = ATOMIC64_INIT(0);

#define RECONCILE_INTERVAL	HZ
/* The highest css serial number the reconciliation saw (rules_mutex). */
static u64 serial_seen;
static void reconcile(struct work_struct *work);
static DECLARE_DELAYED_WORK(reconcile_work, reconcile);
static DEFINE_RAW_SPINLOCK(pending_lock);
static void apply_pending(struct work_struct *work);
static DECLARE_WORK(pending_work, apply_pending);

static void free_set(struct rule_set *set)
{
	if (set) {
		kfree(set->text);
		kfree(set);
	}
}

static void free_set_rcu(struct rcu_head *head)
{
	free_set(container_of(head, struct rule_set, rcu));
}

static u64 rule_pages(const struct rule *r)
{
	if (r->action == MSL_RULE_MAX)
		return MSL_LIMIT_MAX_PAGES;
	/* Keep clear of the two values that encode max and unset. */
	return min_t(u64, r->pages, MSL_LIMIT_UNSET_PAGES - 1);
}

/* The first rule matching @path, under rcu_read_lock or rules_mutex. */
static const struct rule *first_match(const struct rule_set *set,
				      const char *path)
{
	unsigned int i;

	for (i = 0; set && i < set->nr; i++)
		if (msl_path_match(set->rule[i].pattern, path))
			return &set->rule[i];
	return NULL;
}

/* Has its own memcg: +memory is in its parent's subtree_control. */
static bool has_own_memcg(struct cgroup *cgrp)
{
	struct cgroup_subsys_state *css;

	css = rcu_dereference(cgrp->subsys[memory_cgrp_id]);
	return css && css->cgroup == cgrp;
}

static void defer(u64 id)
{
	bool queued = false;

	raw_spin_lock(&pending_lock);
	if (nr_pending < PENDING_SLOTS) {
		pending[nr_pending++] = id;
		queued = true;
	}
	raw_spin_unlock(&pending_lock);
	if (queued) {
		atomic64_inc(&nr_deferred);
		queue_work(msl_unbound_wq, &pending_work);
	} else {
		/* The reconciliation will find it within a second. */
		atomic64_inc(&nr_ring_full);
	}
}

void msl_rules_cgroup_created(struct cgroup *cgrp, const char *path)
{
	const struct rule *r;

	if (!cgroup_subsys_on_dfl(memory_cgrp_subsys) || !path)
		return;
	rcu_read_lock();
	r = first_match(rcu_dereference(rules), path);
	if (r && r->action != MSL_RULE_UNSET && has_own_memcg(cgrp) &&
	    msl_state_set_limit_atomic(cgrp, rule_pages(r)) == -ENOMEM)
		defer(cgroup_id(cgrp));
	rcu_read_unlock();
}

/* Process context: the rule for @cgrp by its path, applied; true if set. */
static bool apply_one(const struct rule_set *set, struct cgroup *cgrp,
		      char *buf)
{
	const struct rule *r;
	bool own;

	if (cgroup_path(cgrp, buf, PATH_MAX) < 0)
		return false;
	r = first_match(set, buf);
	if (!r || r->action == MSL_RULE_UNSET)
		return false;
	rcu_read_lock();
	own = has_own_memcg(cgrp);
	rcu_read_unlock();
	if (!own)
		return false;
	if (msl_state_set_limit(cgrp, rule_pages(r))) {
		pr_warn_ratelimited("rules: no room for the soft limit of %s\n",
				    buf);
		return false;
	}
	return true;
}

static void apply_pending(struct work_struct *work)
{
	struct cgroup *cgrp;
	unsigned int n;
	char *buf;
	u64 id;

	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!buf)
		return;
	mutex_lock(&rules_mutex);
	for (;;) {
		raw_spin_lock(&pending_lock);
		n = nr_pending;
		if (n)
			id = pending[--nr_pending];
		raw_spin_unlock(&pending_lock);
		if (!n)
			break;
		cgrp = cgroup_get_from_id(id);
		if (IS_ERR(cgrp))
			continue;
		apply_one(rcu_dereference_protected(rules,
						    lockdep_is_held(&rules_mutex)),
			  cgrp, buf);
		cgroup_put(cgrp);
	}
	mutex_unlock(&rules_mutex);
	kfree(buf);
}

/*
 * Every memcg of the hierarchy now but the root whose css serial number is
 * above @after, with a reference each; *@last: the highest serial seen.
 */
static struct cgroup_subsys_state **collect_memcgs(u64 after, u64 *last,
						   unsigned int *nr)
{
	struct cgroup_subsys_state *top, *pos, **all;
	unsigned int n = 0, cap = 0;

	*last = after;
	rcu_read_lock();
	top = rcu_dereference(memory_cgrp_subsys.root->cgrp.subsys[memory_cgrp_id]);
	css_for_each_descendant_pre(pos, top) {
		if (pos != top && pos->serial_nr > after)
			cap++;
		*last = max(*last, pos->serial_nr);
	}
	rcu_read_unlock();
	*nr = 0;
	if (!cap)
		return NULL;
	/* Cgroups made after this are the mkdir probe's, or the next pass's. */
	all = kvmalloc_array(cap, sizeof(*all), GFP_KERNEL);
	if (!all)
		return ERR_PTR(-ENOMEM);
	rcu_read_lock();
	css_for_each_descendant_pre(pos, top) {
		if (n == cap)
			break;
		if (pos != top && pos->serial_nr > after &&
		    pos->serial_nr <= *last && css_tryget_online(pos))
			all[n++] = pos;
	}
	rcu_read_unlock();
	*nr = n;
	return all;
}

/*
 * The rules for every memcg with a serial number above @after (0: all of
 * them); only to those without a limit when @unlimited_only.  Returns how
 * many got one, or -ENOMEM; the serial seen moves on.  Under rules_mutex.
 */
static int apply_after(const struct rule_set *set, u64 after,
		       bool unlimited_only)
{
	struct cgroup_subsys_state **all;
	unsigned int n = 0, i, applied = 0;
	u64 last;
	char *buf;

	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	all = collect_memcgs(after, &last, &n);
	if (IS_ERR(all)) {
		kfree(buf);
		return PTR_ERR(all);
	}
	for (i = 0; i < n; i++) {
		if (!unlimited_only ||
		    !msl_state_has_limit(cgroup_id(all[i]->cgroup)))
			applied += apply_one(set, all[i]->cgroup, buf);
		css_put(all[i]);
	}
	serial_seen = last;
	kvfree(all);
	kfree(buf);
	return applied;
}

static void reconcile(struct work_struct *work)
{
	const struct rule_set *set;
	int applied;

	mutex_lock(&rules_mutex);
	set = rcu_dereference_protected(rules, lockdep_is_held(&rules_mutex));
	if (!set || !set->nr) {
		mutex_unlock(&rules_mutex);
		return;
	}
	applied = apply_after(set, serial_seen, true);
	mutex_unlock(&rules_mutex);
	if (applied > 0)
		atomic64_add(applied, &nr_reconciled);
	schedule_delayed_work(&reconcile_work, RECONCILE_INTERVAL);
}

static struct rule_set *parse_set(char *text, size_t len)
{
	struct rule_set *set;
	struct msl_rule rule;
	unsigned int line = 0, cap = 0;
	char *p, *next;
	const char *why;
	int ret;

	for (p = text; p < text + len; p++)
		cap += *p == '\n';
	set = kzalloc(struct_size(set, rule, min(cap + 1, MSL_MAX_RULES)),
		      GFP_KERNEL);
	if (!set)
		return ERR_PTR(-ENOMEM);
	set->text = text;
	for (p = text; p; p = next) {
		next = strchr(p, '\n');
		if (next)
			*next++ = '\0';
		line++;
		ret = msl_rule_parse(p, &rule, &why);
		if (!ret)
			continue;
		if (ret < 0) {
			pr_warn("rules: line %u: %s\n", line, why);
			goto bad;
		}
		if (set->nr == MSL_MAX_RULES) {
			pr_warn("rules: more than %d rules\n", MSL_MAX_RULES);
			goto bad;
		}
		set->rule[set->nr].pattern = rule.pattern;
		set->rule[set->nr].action = rule.action;
		set->rule[set->nr].pages = rule.bytes >> PAGE_SHIFT;
		set->nr++;
	}
	return set;
bad:
	set->text = NULL;
	free_set(set);
	return ERR_PTR(-EINVAL);
}

int msl_rules_write(char *text, size_t len)
{
	struct rule_set *set, *old;
	int ret;

	if (!cgroup_subsys_on_dfl(memory_cgrp_subsys))
		ret = -EOPNOTSUPP;
	else if (memchr(text, '\0', len))
		ret = -EINVAL;
	else
		ret = 0;
	set = ret ? ERR_PTR(ret) : parse_set(text, len);
	if (IS_ERR(set)) {
		kfree(text);
		return PTR_ERR(set);
	}
	mutex_lock(&rules_mutex);
	old = rcu_replace_pointer(rules, set, lockdep_is_held(&rules_mutex));
	ret = apply_after(set, 0, false);
	if (set->nr)
		mod_delayed_work(msl_percpu_wq, &reconcile_work, RECONCILE_INTERVAL);
	mutex_unlock(&rules_mutex);
	if (ret > 0)
		ret = 0;
	if (old)
		call_rcu(&old->rcu, free_set_rcu);
	return ret;
}

void msl_rules_show(struct seq_file *m)
{
	const struct rule_set *set;
	const struct rule *r;
	unsigned int i;

	mutex_lock(&rules_mutex);
	set = rcu_dereference_protected(rules, lockdep_is_held(&rules_mutex));
	for (i = 0; set && i < set->nr; i++) {
		r = &set->rule[i];
		if (r->action == MSL_RULE_LIMIT)
			seq_printf(m, "%s %llu\n", r->pattern,
				   r->pages << PAGE_SHIFT);
		else
			seq_printf(m, "%s %s\n", r->pattern,
				   r->action == MSL_RULE_MAX ? "max" : "unset");
	}
	mutex_unlock(&rules_mutex);
}

unsigned int msl_rules_count(void)
{
	const struct rule_set *set;
	unsigned int n;

	rcu_read_lock();
	set = rcu_dereference(rules);
	n = set ? set->nr : 0;
	rcu_read_unlock();
	return n;
}

void msl_rules_show_counts(struct seq_file *m)
{
	seq_printf(m, "rules_deferred: %lld\nrules_ring_full: %lld\nrules_reconciled: %lld\n",
		   atomic64_read(&nr_deferred), atomic64_read(&nr_ring_full),
		   atomic64_read(&nr_reconciled));
}

/* After cgroup_events.c detached: no probe can queue work any more. */
void msl_rules_exit(void)
{
	struct rule_set *set;

	cancel_delayed_work_sync(&reconcile_work);
	cancel_work_sync(&pending_work);
	set = rcu_replace_pointer(rules, NULL, true);
	synchronize_rcu();
	free_set(set);
}
