/* SPDX-License-Identifier: GPL-2.0 */
/* The decision at each per-memcg reclaim step, and what it needs of a pass. */
#ifndef MSL_GATE_H
#define MSL_GATE_H

#include <linux/mmzone.h>
#include <memcg_softlimit/policy.h>

struct lruvec;
struct mem_cgroup;

/* Where a step was hooked: what follows it differs. */
enum msl_site {
	/* shrink_lruvec(): shrink_slab() follows for the same memcg. */
	MSL_SITE_LRUVEC,
	/* shrink_one(): MGLRU's whole per-memcg step. */
	MSL_SITE_ONE,
};

int msl_gate_init(void);
void msl_gate_exit(void);

/* shrink_node() of any reclaimer: a pass begins (may set sc->priority). */
void msl_gate_pass_begin(pg_data_t *pgdat, void *sc);
/*
 * A per-memcg reclaim step: decided, counted, traced; *@eligible (if
 * given) says whether the policy reclaims the memcg on its own account.
 */
enum msl_verdict msl_gate_step(struct lruvec *lruvec, void *sc,
			       enum msl_site site, bool *eligible);
/*
 * shrink_slab(): true when it follows a skipped MSL_SITE_LRUVEC step of
 * the same memcg by the same task, which must then skip the memcg's
 * shrinkers too.
 */
bool msl_gate_slab_follows_skip(struct mem_cgroup *memcg, int nid);
enum msl_kind msl_reclaim_kind(const void *sc);

#endif /* MSL_GATE_H */
