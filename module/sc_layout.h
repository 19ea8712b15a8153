/* SPDX-License-Identifier: GPL-2.0 */
/* struct scan_control and the hooked prototypes, read from the running kernel's BTF. */
#ifndef MSL_SC_LAYOUT_H
#define MSL_SC_LAYOUT_H

#include <linux/compiler.h>
#include <linux/types.h>

struct mem_cgroup;

/*
 * Where struct scan_control keeps what the hooks read, resolved from BTF by
 * msl_sc_layout_init() before any probe is registered and never changed
 * after.  Bitfields are read as the aligned u32 holding them.  The
 * accessors are inline: the reclaim path calls them at every decision,
 * where a call and its return (through the kernel's return thunk) cost
 * more than the load.
 */
struct msl_sc_offsets {
	u32 target;
	u32 priority;
	u32 nr_scanned;
	u32 nr_reclaimed;
	u32 proactive;
	u32 low_reclaim;
	u32 low_skipped;
	u32 nr_to_reclaim;
	u32 may_swap;
	u32 cache_trim;
	u32 may_deactivate;
	u8 proactive_bit;
	u8 low_reclaim_bit;
	u8 low_skipped_bit;
	u8 may_swap_bit;
	u8 cache_trim_bit;
	u8 may_deactivate_bit;
};
extern struct msl_sc_offsets msl_sc;

int msl_sc_layout_init(void);
/*
 * Refuses the load, with a line naming @symbol, unless BTF has it with the
 * prototype the module expects of @like (a hooked function: @symbol).
 */
int msl_verify_hook_proto(const char *symbol, const char *like);
/*
 * shrink_one()'s "move to the young generation" and "to the tail of this
 * one" (MGLRU's memcg LRU, mm/vmscan.c), or -ENOENT.
 */
int msl_sc_memcg_lru_young(void);
int msl_sc_memcg_lru_tail(void);

static inline void *msl_sc_field(const void *sc, u32 offset)
{
	return (u8 *)sc + offset;
}

static inline struct mem_cgroup *msl_sc_target(const void *sc)
{
	return READ_ONCE(*(struct mem_cgroup * const *)
			 msl_sc_field(sc, msl_sc.target));
}

static inline int msl_sc_priority(const void *sc)
{
	return READ_ONCE(*(const s8 *)msl_sc_field(sc, msl_sc.priority));
}

static inline void msl_sc_set_priority(void *sc, int priority)
{
	WRITE_ONCE(*(s8 *)msl_sc_field(sc, msl_sc.priority), priority);
}

static inline bool msl_sc_bit(const void *sc, u32 offset, u8 bit)
{
	return (READ_ONCE(*(const u32 *)msl_sc_field(sc, offset)) >> bit) & 1;
}

static inline bool msl_sc_proactive(const void *sc)
{
	return msl_sc_bit(sc, msl_sc.proactive, msl_sc.proactive_bit);
}

static inline bool msl_sc_memcg_low_reclaim(const void *sc)
{
	return msl_sc_bit(sc, msl_sc.low_reclaim, msl_sc.low_reclaim_bit);
}

/*
 * Sets or clears @mask in the bitfield word at @offset.  Only the
 * reclaimer that owns @sc runs this, from a probe on its own call stack:
 * the word has no other writer meanwhile, and the kernel reloads it after
 * the call the probe sits in.
 */
static inline void msl_sc_write_bits(void *sc, u32 offset, u32 mask, bool set)
{
	u32 *word = msl_sc_field(sc, offset);
	u32 old = READ_ONCE(*word);
	u32 new = set ? old | mask : old & ~mask;

	if (new != old)
		WRITE_ONCE(*word, new);
}

static inline void msl_sc_note_low_skipped(void *sc)
{
	msl_sc_write_bits(sc, msl_sc.low_skipped, 1U << msl_sc.low_skipped_bit,
			  true);
}

static inline bool msl_sc_may_swap(const void *sc)
{
	return msl_sc_bit(sc, msl_sc.may_swap, msl_sc.may_swap_bit);
}

static inline bool msl_sc_cache_trim_mode(const void *sc)
{
	return msl_sc_bit(sc, msl_sc.cache_trim, msl_sc.cache_trim_bit);
}

/* prepare_scan_count() sets the mode again at the next shrink_node(). */
static inline void msl_sc_clear_cache_trim_mode(void *sc)
{
	msl_sc_write_bits(sc, msl_sc.cache_trim, 1U << msl_sc.cache_trim_bit,
			  false);
}

/*
 * may_deactivate's DEACTIVATE_FILE (mm/vmscan.c: 1 << is_file_lru(), the
 * field's second bit): shrink_list() deactivates active file pages.
 * prepare_scan_control() judges it again at the next shrink_node().
 */
static inline void msl_sc_set_deactivate_file(void *sc)
{
	msl_sc_write_bits(sc, msl_sc.may_deactivate,
			  2U << msl_sc.may_deactivate_bit, true);
}

static inline unsigned long msl_sc_nr_to_reclaim(const void *sc)
{
	return READ_ONCE(*(const unsigned long *)
			 msl_sc_field(sc, msl_sc.nr_to_reclaim));
}

static inline unsigned long msl_sc_nr_scanned(const void *sc)
{
	return READ_ONCE(*(const unsigned long *)
			 msl_sc_field(sc, msl_sc.nr_scanned));
}

static inline unsigned long msl_sc_nr_reclaimed(const void *sc)
{
	return READ_ONCE(*(const unsigned long *)
			 msl_sc_field(sc, msl_sc.nr_reclaimed));
}

#endif /* MSL_SC_LAYOUT_H */
