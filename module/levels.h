/* SPDX-License-Identifier: GPL-2.0 */
/* The levels of a memcg's path, as the policy reads them (policy.h). */
#ifndef MSL_LEVELS_H
#define MSL_LEVELS_H

#include <memcg_softlimit/policy.h>

struct mem_cgroup;

struct msl_level_cursor {
	const struct msl_params *params;
	struct mem_cgroup *memcg;
	/* The memcg's own level, read already (the event has it), or NULL. */
	struct msl_level *self;
	/* Fill sibling_over (policy walk). */
	bool siblings;
};

void msl_level_cursor_init(struct msl_level_cursor *c,
			   const struct msl_params *params,
			   struct mem_cgroup *memcg, struct msl_level *self,
			   bool siblings);
/* msl_next_level_fn over a msl_level_cursor; caller holds rcu_read_lock. */
bool msl_next_level(void *cursor, struct msl_level *level);

#endif /* MSL_LEVELS_H */
