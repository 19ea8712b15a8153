/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MSL_INTERNAL_H
#define MSL_INTERNAL_H

#include <linux/types.h>
#include <memcg_softlimit/policy.h>

struct mem_cgroup;
struct seq_file;
struct msl_ctl_cmd;

/* params.c: the module parameters, read locklessly by the hooks. */
void msl_current_params(struct msl_params *params);
bool msl_keep_v1_reclaim(void);
const char *msl_test_field(void);

/* symbols.c */
unsigned long msl_lookup_data_symbol(const char *name);

/* sc_layout.c: struct scan_control, read through the running kernel's BTF. */
int msl_sc_layout_init(void);
struct mem_cgroup *msl_sc_target(const void *sc);
int msl_sc_priority(const void *sc);
bool msl_sc_proactive(const void *sc);
unsigned long msl_sc_nr_scanned(const void *sc);
unsigned long msl_sc_nr_reclaimed(const void *sc);
int msl_verify_hook_proto(const char *symbol);

/* limits.c: where each level's soft limit comes from; v2 limits' control. */
struct msl_memcg;
struct msl_memcg *msl_fill_level(struct mem_cgroup *memcg,
				 struct msl_level *level);
int msl_limits_apply(const struct msl_ctl_cmd *cmd);
void msl_limits_show(struct seq_file *m);

/* hooks.c */
int msl_hooks_init(void);
void msl_hooks_exit(void);
bool msl_hook_active(const char *symbol);
u64 msl_hooks_missed(void);
/* policy excess: forget the largest excess (a policy was written). */
void msl_excess_reset(void);

/* control.c */
int msl_control_init(void);
void msl_control_exit(void);


#endif /* MSL_INTERNAL_H */
