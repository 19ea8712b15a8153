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
/* New cgroups whose limit was lost (pool and pending ring both full). */
u64 msl_rules_lost(void);
/* cgroup_mkdir, preemption off: gives the new cgroup its rule's limit. */
void msl_rules_cgroup_created(struct cgroup *cgrp, const char *path);
void msl_rules_exit(void);

#endif /* MSL_RULES_H */
