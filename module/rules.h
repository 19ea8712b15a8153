/* SPDX-License-Identifier: GPL-2.0 */
/* Soft limits by path pattern, for cgroups now and as they are created. */
#ifndef MSL_RULES_H
#define MSL_RULES_H

#include <linux/types.h>

struct cgroup;
struct seq_file;

/*
 * Replaces the rule set with @text (@len bytes, NUL-terminated, taken
 * over: freed here or with the set) and applies it to the cgroups there
 * are.  Nothing changes on an error.
 */
int msl_rules_write(char *text, size_t len);
void msl_rules_show(struct seq_file *m);
unsigned int msl_rules_count(void);
/*
 * For /proc/memcg_softlimit/status: new cgroups whose limit waited for a
 * work item (the entry pool was empty), those that found its ring full
 * too, and memcgs the reconciliation gave their limit (those, and memcgs
 * that came without a cgroup_mkdir: +memory in a parent's subtree_control).
 */
void msl_rules_show_counts(struct seq_file *m);
/* cgroup_mkdir, preemption off: gives the new cgroup its rule's limit. */
void msl_rules_cgroup_created(struct cgroup *cgrp, const char *path);
void msl_rules_exit(void);

#endif /* MSL_RULES_H */
