/* SPDX-License-Identifier: GPL-2.0 */
/* /proc/memcg_softlimit: limits, rules, status, snapshot. */
#ifndef MSL_PROCFS_H
#define MSL_PROCFS_H

int msl_procfs_init(void);
void msl_procfs_exit(void);

#endif /* MSL_PROCFS_H */
