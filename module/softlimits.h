/* SPDX-License-Identifier: GPL-2.0 */
/* Where each level's soft limit comes from; cgroup v2 limits' control. */
#ifndef MSL_SOFTLIMITS_H
#define MSL_SOFTLIMITS_H

#include <memcg_softlimit/policy.h>

struct mem_cgroup;
struct msl_ctl_cmd;
struct msl_memcg;
struct seq_file;

/* Caller holds rcu_read_lock; returns the memcg's state entry, if any. */
struct msl_memcg *msl_fill_level(struct mem_cgroup *memcg,
				 struct msl_level *level);
int msl_limits_apply(const struct msl_ctl_cmd *cmd);
void msl_limits_show(struct seq_file *m);

#endif /* MSL_SOFTLIMITS_H */
