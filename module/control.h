/* SPDX-License-Identifier: GPL-2.0 */
/* /proc/memcg_softlimit: limits, rules, status, snapshot. */
#ifndef MSL_CONTROL_H
#define MSL_CONTROL_H

int msl_control_init(void);
void msl_control_exit(void);

#endif /* MSL_CONTROL_H */
