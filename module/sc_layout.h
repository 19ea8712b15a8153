/* SPDX-License-Identifier: GPL-2.0 */
/* struct scan_control and the hooked prototypes, read from the running kernel's BTF. */
#ifndef MSL_SC_LAYOUT_H
#define MSL_SC_LAYOUT_H

#include <linux/types.h>

struct mem_cgroup;

int msl_sc_layout_init(void);
/*
 * Refuses the load, with a line naming @symbol, unless BTF has it with the
 * prototype the module expects of @like (a hooked function: @symbol).
 */
int msl_verify_hook_proto(const char *symbol, const char *like);
/* shrink_one()'s "move to the youngest generation", or -ENOENT. */
int msl_sc_memcg_lru_young(void);

struct mem_cgroup *msl_sc_target(const void *sc);
int msl_sc_priority(const void *sc);
void msl_sc_set_priority(void *sc, int priority);
bool msl_sc_proactive(const void *sc);
bool msl_sc_memcg_low_reclaim(const void *sc);
void msl_sc_note_low_skipped(void *sc);
unsigned long msl_sc_nr_scanned(const void *sc);
unsigned long msl_sc_nr_reclaimed(const void *sc);

#endif /* MSL_SC_LAYOUT_H */
