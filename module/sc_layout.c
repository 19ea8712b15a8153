// SPDX-License-Identifier: GPL-2.0
/*
 * struct scan_control is private to mm/vmscan.c and its layout changes
 * between kernels, so every field the hooks read is located by name in the
 * running kernel's BTF and checked for kind, size and signedness.  Nothing
 * is ever guessed: a field that does not resolve refuses the load.
 */
#include <linux/btf.h>
#include <linux/kernel.h>
#include <linux/printk.h>

#include <memcg_softlimit/btf.h>
#include "params.h"
#include "sc_layout.h"
#include "symbols.h"

struct msl_sc_field {
	const char *name;
	u32 kind;
	u32 size;
	int is_signed;
	const char *ptr_struct;
	u32 bitfield_size;
	u32 offset;		/* bytes; for bitfields, of the containing u32 */
	u32 bit_shift;		/* bitfields only */
};

enum {
	SC_TARGET,
	SC_PRIORITY,
	SC_NR_SCANNED,
	SC_NR_RECLAIMED,
	SC_PROACTIVE,
	SC_LOW_RECLAIM,
	SC_LOW_SKIPPED,
	SC_NR_TO_RECLAIM,
	SC_MAY_SWAP,
	SC_CACHE_TRIM,
	SC_MAY_DEACTIVATE,
	SC_NR_FIELDS
};

static struct msl_sc_field sc_fields[SC_NR_FIELDS] = {
	[SC_TARGET] = { "target_mem_cgroup", BTF_KIND_PTR, 8, -1, "mem_cgroup" },
	[SC_PRIORITY] = { "priority", BTF_KIND_INT, 1, 1, NULL },
	[SC_NR_SCANNED] = { "nr_scanned", BTF_KIND_INT, 8, 0, NULL },
	[SC_NR_RECLAIMED] = { "nr_reclaimed", BTF_KIND_INT, 8, 0, NULL },
	[SC_PROACTIVE] = { "proactive", BTF_KIND_INT, 4, 0, NULL, 1 },
	/* memory.low's protocol, which the progress gate joins. */
	[SC_LOW_RECLAIM] = { "memcg_low_reclaim", BTF_KIND_INT, 4, 0, NULL, 1 },
	[SC_LOW_SKIPPED] = { "memcg_low_skipped", BTF_KIND_INT, 4, 0, NULL, 1 },
	/* What the reclaimer asked for and may take: the depth bound. */
	[SC_NR_TO_RECLAIM] = { "nr_to_reclaim", BTF_KIND_INT, 8, 0, NULL },
	[SC_MAY_SWAP] = { "may_swap", BTF_KIND_INT, 4, 0, NULL, 1 },
	/* The classic LRU's file-only mode, judged on the eligible memcgs. */
	[SC_CACHE_TRIM] = { "cache_trim_mode", BTF_KIND_INT, 4, 0, NULL, 1 },
	/* The classic LRU's deactivation, judged on the eligible memcgs too. */
	[SC_MAY_DEACTIVATE] = { "may_deactivate", BTF_KIND_INT, 4, 0, NULL, 2 },
};

struct msl_sc_offsets msl_sc __read_mostly;

static struct msl_btf vmlinux_btf;
static int memcg_lru_young = -1, memcg_lru_tail = -1;

static int resolve_field(struct msl_sc_field *f)
{
	struct msl_btf_member member;
	char why[96];
	int ret;

	ret = msl_btf_check_field(&vmlinux_btf, "scan_control", f->name,
				  f->kind, f->size, f->is_signed, f->ptr_struct,
				  &member, why, sizeof(why));
	if (ret) {
		pr_err("refusing to load: struct scan_control: %s\n", why);
		return ret;
	}
	if (member.bitfield_size != f->bitfield_size) {
		pr_err("refusing to load: struct scan_control.%s: want a %u-bit field, have %u\n",
		       f->name, f->bitfield_size, member.bitfield_size);
		return -EINVAL;
	}
	if (f->bitfield_size) {
		/* Read as the aligned u32 holding it: it must not straddle two. */
		f->offset = member.bit_offset / 32 * 4;
		f->bit_shift = member.bit_offset % 32;
		if (f->bit_shift + f->bitfield_size > 32) {
			pr_err("refusing to load: struct scan_control.%s straddles a 32-bit word\n",
			       f->name);
			return -EINVAL;
		}
	} else {
		if (member.bit_offset % 8) {
			pr_err("refusing to load: struct scan_control.%s is not byte aligned\n",
			       f->name);
			return -EINVAL;
		}
		f->offset = member.bit_offset / 8;
	}
	return 0;
}

int msl_sc_layout_init(void)
{
	unsigned long start, stop;
	int i, ret;

	start = msl_lookup_data_symbol("__start_BTF");
	if (!start) {
		pr_err("refusing to load: no __start_BTF (kernel built without CONFIG_DEBUG_INFO_BTF)\n");
		return -ENOENT;
	}
	/* The kernel's own extent of its BTF: the header alone cannot tell. */
	stop = msl_lookup_data_symbol("__stop_BTF");
	if (!stop || stop <= start || stop - start > U32_MAX) {
		pr_err("refusing to load: no usable __stop_BTF\n");
		return -ENOENT;
	}
	ret = msl_btf_init(&vmlinux_btf, (const void *)start, stop - start);
	if (ret) {
		pr_err("refusing to load: vmlinux BTF (%lu bytes): %s\n",
		       stop - start, vmlinux_btf.error);
		return ret;
	}

	for (i = 0; i < SC_NR_FIELDS; i++) {
		ret = resolve_field(&sc_fields[i]);
		if (ret)
			return ret;
	}
	msl_sc = (struct msl_sc_offsets) {
		.target = sc_fields[SC_TARGET].offset,
		.priority = sc_fields[SC_PRIORITY].offset,
		.nr_scanned = sc_fields[SC_NR_SCANNED].offset,
		.nr_reclaimed = sc_fields[SC_NR_RECLAIMED].offset,
		.proactive = sc_fields[SC_PROACTIVE].offset,
		.low_reclaim = sc_fields[SC_LOW_RECLAIM].offset,
		.low_skipped = sc_fields[SC_LOW_SKIPPED].offset,
		.proactive_bit = sc_fields[SC_PROACTIVE].bit_shift,
		.low_reclaim_bit = sc_fields[SC_LOW_RECLAIM].bit_shift,
		.low_skipped_bit = sc_fields[SC_LOW_SKIPPED].bit_shift,
		.nr_to_reclaim = sc_fields[SC_NR_TO_RECLAIM].offset,
		.may_swap = sc_fields[SC_MAY_SWAP].offset,
		.may_swap_bit = sc_fields[SC_MAY_SWAP].bit_shift,
		.cache_trim = sc_fields[SC_CACHE_TRIM].offset,
		.cache_trim_bit = sc_fields[SC_CACHE_TRIM].bit_shift,
		.may_deactivate = sc_fields[SC_MAY_DEACTIVATE].offset,
		.may_deactivate_bit = sc_fields[SC_MAY_DEACTIVATE].bit_shift,
	};

	if (msl_test_field()) {
		/* Any type will do: the test is that the name resolves. */
		struct msl_btf_member member;
		s32 id = msl_btf_find(&vmlinux_btf, "scan_control",
				      BTF_KIND_STRUCT);

		if (id < 0 || msl_btf_member(&vmlinux_btf, id, msl_test_field(),
					     &member)) {
			pr_err("refusing to load: struct scan_control: no field %s\n",
			       msl_test_field());
			return -ENOENT;
		}
	}
	return 0;
}

static int memcg_lru_op(const char *name, int *cached)
{
	s64 value;

	if (*cached < 0) {
		if (msl_btf_enum_value(&vmlinux_btf, name, &value) ||
		    value < 0 || value > INT_MAX) {
			pr_err("refusing to load: no %s in BTF, which a skipped shrink_one() returns\n",
			       name);
			return -ENOENT;
		}
		*cached = value;
	}
	return *cached;
}

int msl_sc_memcg_lru_young(void)
{
	return memcg_lru_op("MEMCG_LRU_YOUNG", &memcg_lru_young);
}

int msl_sc_memcg_lru_tail(void)
{
	return memcg_lru_op("MEMCG_LRU_TAIL", &memcg_lru_tail);
}

/*
 * The prototypes the hooks read arguments from and the stubs copy: each
 * hooked function must be in BTF with this prototype, or the module
 * refuses to load, since a stub with another signature would return
 * garbage to its caller and an argument read from the wrong register is
 * worse.
 */
struct hook_proto {
	const char *symbol;
	u32 ret_kind;		/* BTF_KIND_UNKN: void */
	u32 ret_size;
	/* Pointee struct names; "" for a scalar, "*" for a scalar's pointer. */
	const char *params[4];
	u32 nr_params;
};

static const struct hook_proto hook_protos[] = {
	{ "shrink_node", BTF_KIND_UNKN, 0,
	  { "pglist_data", "scan_control" }, 2 },
	{ "shrink_lruvec", BTF_KIND_UNKN, 0,
	  { "lruvec", "scan_control" }, 2 },
	{ "shrink_one", BTF_KIND_INT, 4,
	  { "lruvec", "scan_control" }, 2 },
	{ "shrink_slab", BTF_KIND_INT, 8,
	  { "", "", "mem_cgroup", "" }, 4 },
	{ "mem_cgroup_soft_limit_reclaim", BTF_KIND_INT, 8,
	  { "pglist_data", "", "", "*" }, 4 },
	{ "memcg1_soft_limit_reclaim", BTF_KIND_INT, 8,
	  { "pglist_data", "", "", "*" }, 4 },
};

int msl_verify_hook_proto(const char *symbol, const char *like)
{
	struct msl_btf_type_desc ret, params[4];
	const struct hook_proto *want = NULL;
	u32 nr, i;
	int err;

	for (i = 0; i < ARRAY_SIZE(hook_protos); i++)
		if (!strcmp(hook_protos[i].symbol, like))
			want = &hook_protos[i];
	if (WARN_ON(!want))
		return -EINVAL;

	err = msl_btf_func_proto(&vmlinux_btf, symbol, &ret, params,
				 ARRAY_SIZE(params), &nr);
	if (err == -ENOENT) {
		pr_err("refusing to load: %s is not in the kernel's BTF, so its prototype cannot be checked\n",
		       symbol);
		return err;
	}
	if (err)
		goto mismatch;
	if (nr != want->nr_params || ret.kind != want->ret_kind ||
	    (want->ret_kind != BTF_KIND_UNKN && ret.size != want->ret_size))
		goto mismatch;
	for (i = 0; i < nr; i++) {
		const char *pointee = want->params[i];

		if (!pointee[0]) {
			if (params[i].kind != BTF_KIND_INT &&
			    params[i].kind != BTF_KIND_ENUM)
				goto mismatch;
		} else if (params[i].kind != BTF_KIND_PTR) {
			goto mismatch;
		} else if (!strcmp(pointee, "*")) {
			if (params[i].ptr_kind != BTF_KIND_INT)
				goto mismatch;
		} else if (!params[i].ptr_name ||
			   strcmp(params[i].ptr_name, pointee)) {
			goto mismatch;
		}
	}
	return 0;
mismatch:
	pr_err("refusing to load: %s has an unexpected prototype in BTF\n",
	       symbol);
	return -EINVAL;
}
