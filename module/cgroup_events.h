/* SPDX-License-Identifier: GPL-2.0 */
/* cgroup_mkdir and cgroup_rmdir, for the memory hierarchy only. */
#ifndef MSL_CGROUP_EVENTS_H
#define MSL_CGROUP_EVENTS_H

int msl_cgroup_events_init(void);
void msl_cgroup_events_exit(void);

#endif /* MSL_CGROUP_EVENTS_H */
