/* SPDX-License-Identifier: GPL-2.0 */
/* The probes on the reclaim path: which, their stubs, their registration. */
#ifndef MSL_PROBES_H
#define MSL_PROBES_H

#include <linux/types.h>

struct seq_file;

int msl_probes_init(void);
void msl_probes_exit(void);
/* Gated calls whose pages went uncounted, and probes that could not run. */
u64 msl_probes_missed(void);
/* The hooked functions, space-separated, for the status file. */
void msl_probes_show(struct seq_file *m);

#endif /* MSL_PROBES_H */
