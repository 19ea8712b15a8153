/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memcg_softlimit trace system, as the tool and the tests read it.
 * Every event's fields are plain numbers in the raw record; kind, verdict,
 * reason and limit print as words in the text formats (policy.h has the
 * numbers and the words).
 *
 * memcg_softlimit:decision   one per gated reclaim step
 *	cgroup_id nid priority effective_priority kind verdict reason
 *	usage soft_limit limit decider_id   (usage, soft_limit in bytes)
 *	reclaims skips scanned reclaimed     (the memcg's running totals:
 *					      decisions, pages, all kinds)
 *	excess excess_max credit policy	     (bytes; excess: that of the
 *					      deciding level, else 0; policy
 *					      excess: the largest it was
 *					      weighed against and the share
 *					      credit after the step, else 0)
 *	lru_gen lru_seg			     (MGLRU's memcg LRU: generation
 *					      from the node's oldest, 0 or 1,
 *					      and segment, 2 = tail; -1 on the
 *					      classic LRU)
 * memcg_softlimit:reclaimed  one after each gated call that ran
 *	cgroup_id nid priority kind nr_scanned nr_reclaimed (this call)
 *	scanned reclaimed		     (running totals)
 * memcg_softlimit:dry_spell  a retry opened a dry spell on a node
 *	nid kind spell_ms shift		     (every round there reclaims
 *					      everyone for spell_ms; shift:
 *					      doublings since the last quiet)
 * memcg_softlimit:supply     one per node at each count of what the
 *	memcgs a first pass reclaims hold there (at most ten a second)
 *	nid file anon			     (their cold file pages; their
 *					      anonymous pages where they have
 *					      swap room)
 *	giving				     (they gave since the last count)
 *	others_file others_anon		     (memcgs but the root hold any)
 *	protects nr_protected		     (the node holds protected pages;
 *					      memcgs the policy protects)
 * memcg_softlimit:snapshot   one per tracked memcg, on a write to
 *	MSL_CTL_SNAPSHOT
 *	seq cgroup_id  then one counter per reason (MSL_SNAPSHOT_REASON_FIELD)
 *	and per kind scanned_<kind> reclaimed_<kind>
 * memcg_softlimit:snapshot_done  after the snapshot events of one request
 *	seq nr_tracked untracked missed	     (untracked: decisions on memcgs
 *	pooled				      without state; missed: gated
 *					      calls whose pages went uncounted;
 *					      pooled: entries allocated ahead
 *					      for memcgs not yet met)
 * memcg_softlimit:cgroup_path  a memcg's path, for readers elsewhere:
 *	seq cgroup_id path		     (each tracked memcg at a snapshot,
 *					      before its rows, seq the
 *					      snapshot's; each memcg made,
 *					      seq 0)
 */
#ifndef MEMCG_SOFTLIMIT_EVENTS_H
#define MEMCG_SOFTLIMIT_EVENTS_H

#define MSL_TRACE_SYSTEM	"memcg_softlimit"
#define MSL_EV_DECISION		"decision"
#define MSL_EV_RECLAIMED	"reclaimed"
#define MSL_EV_SNAPSHOT		"snapshot"
#define MSL_EV_SNAPSHOT_DONE	"snapshot_done"
#define MSL_EV_DRY_SPELL	"dry_spell"
#define MSL_EV_SUPPLY		"supply"
#define MSL_EV_CGROUP_PATH	"cgroup_path"

/* Writing anything (e.g. "1") here emits one snapshot; mode 0200. */
#define MSL_CTL_SNAPSHOT	"/proc/memcg_softlimit/snapshot"

/*
 * Snapshot fields, by the names of policy.h's enums:
 * decisions by reason: "policy_off", "targeted", "root", "below_threshold",
 * "over", "ancestor_over", "nothing_eligible", "under" (a skip),
 * "sibling_over" (a skip, policy walk), "none_over" (policy walk),
 * "excess_share" (a skip, policy excess), "retry", "dying", "dry_spell",
 * "depth";
 * pages: "scanned_kswapd", "reclaimed_kswapd", "scanned_direct", ...
 */

#endif /* MEMCG_SOFTLIMIT_EVENTS_H */
