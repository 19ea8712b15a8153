/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal raw-BTF reader shared by the module and the userspace tests.
 *
 * Reads a raw BTF blob (the bytes between __start_BTF and __stop_BTF, or
 * the contents of /sys/kernel/btf/vmlinux).  No allocation, no global
 * state, every read is bounds-checked against the blob, and the blob may
 * have any alignment.  Linear scans only: meant to run a handful of times
 * at module load.
 *
 * The format is read by its own rules, not by the struct btf_header of
 * the headers the reader was built with, which grows: hdr_len says how
 * long a blob's header is, fields past it read as zero, and header bytes
 * past the fields this reader knows must be zero.  Type kinds this
 * reader does not know are stepped over when the blob's layout section
 * gives their record size, and refused otherwise.
 *
 * Every function returns 0 or a negative errno:
 *   -ENOENT   the named thing is not in the blob
 *   -EINVAL   the blob is malformed (or an argument is)
 *   -EOPNOTSUPP msl_btf_init(): the blob uses header fields or flags this
 *             reader does not know, or a kind it can neither read nor
 *             step over
 *   -E2BIG    more function parameters than the caller has room for
 *   -ENOTUNIQ the name has several definitions that disagree
 *   -EOPNOTSUPP msl_btf_check_field(): the field's type is not the wanted one
 */
#ifndef MEMCG_SOFTLIMIT_BTF_H
#define MEMCG_SOFTLIMIT_BTF_H

#include <linux/stddef.h>
#include <linux/types.h>
#include <linux/btf.h>

/* Kinds newer than some UAPI headers (they are enumerators, not macros). */
#define MSL_BTF_KIND_DECL_TAG	17
#define MSL_BTF_KIND_TYPE_TAG	18
#define MSL_BTF_KIND_ENUM64	19
/* Kinds this reader knows: 1 .. MSL_BTF_NR_KINDS - 1 */
#define MSL_BTF_NR_KINDS	20
/* msl_btf_type_desc.kind of type id 0 */
#define MSL_BTF_KIND_VOID	0

/*
 * btf_type.info: Linux 7.x widened kind to bits 24-30 and vlen to bits
 * 0-23, which older kernels keep zero; older UAPI headers mask less.
 */
#define MSL_BTF_INFO_KIND(info)		(((info) >> 24) & 0x7f)
#define MSL_BTF_INFO_VLEN(info)		((info) & 0xffffff)
#define MSL_BTF_INFO_KFLAG(info)	((info) >> 31)

/*
 * The header as this reader knows it.  A blob's header may be shorter
 * (Linux 6.x and Debian 7.3's vmlinux: 24 bytes, no layout section) or
 * longer than this.  Offsets are from the end of the blob's header.
 */
struct msl_btf_header {
	u16 magic;
	u8 version;
	u8 flags;
	u32 hdr_len;
	u32 type_off;
	u32 type_len;
	u32 str_off;
	u32 str_len;
	u32 layout_off;		/* Linux 7.x */
	u32 layout_len;
};

/* Smallest hdr_len: up to and including hdr_len itself. */
#define MSL_BTF_MIN_HDR_LEN	(offsetof(struct msl_btf_header, hdr_len) + \
				 sizeof(u32))

/*
 * The layout section: one entry per kind, from kind 0, as the encoder
 * knew them; a record of that kind is a struct btf_type followed by
 * info_sz + vlen * elem_sz bytes.
 */
struct msl_btf_layout {
	u8 info_sz;
	u8 elem_sz;
	u16 flags;		/* unused so far, as libbpf ignores them */
};

struct msl_btf {
	const u8 *data;		/* whole blob */
	u32 size;
	u32 hdr_len;
	const u8 *types;	/* type section */
	u32 types_len;
	const char *strs;	/* string section, NUL-terminated */
	u32 strs_len;
	const u8 *layout;	/* layout section, NULL if the blob has none */
	u32 nr_layout;		/* kinds it describes */
	u32 nr_types;		/* valid type ids are 1..nr_types */
	/* After a failed msl_btf_init(): what was wrong, never NULL. */
	const char *error;
};

/*
 * Validate the header (magic, version, flags, hdr_len, unknown header
 * fields zero, every section inside the blob, string section, layout
 * section agreeing with the kinds this reader knows), and walk every
 * type record once (a kind known or described by the layout section,
 * record inside the type section, name inside the string section).
 * -EINVAL on a malformed blob, -EOPNOTSUPP on one this reader cannot
 * read; then @btf is zeroed but for btf->error.  The blob must stay
 * mapped as long as @btf is used.
 */
int msl_btf_init(struct msl_btf *btf, const void *data, u32 size);

/* Type id of the first type of @kind named @name, or -ENOENT. */
s32 msl_btf_find(const struct msl_btf *btf, const char *name, u32 kind);
/* Same, but the first one with an id greater than @after. */
s32 msl_btf_find_next(const struct msl_btf *btf, const char *name, u32 kind,
		      s32 after);

/*
 * A member of a STRUCT/UNION, looked up by name (also inside anonymous
 * struct/union members).  bit_offset is from the start of the outer
 * struct; bitfield_size is 0 unless the member is a bitfield (both the
 * kind_flag encoding and the old INT-bits encoding are understood).
 */
struct msl_btf_member {
	u32 type_id;
	u32 bit_offset;
	u32 bitfield_size;
};

int msl_btf_member(const struct msl_btf *btf, s32 struct_id, const char *name,
		   struct msl_btf_member *out);

/*
 * A type resolved through TYPEDEF/CONST/VOLATILE/RESTRICT/TYPE_TAG.
 * kind:      BTF_KIND_*, MSL_BTF_KIND_VOID for void
 * size:      bytes (INT, ENUM, ENUM64, STRUCT, UNION, FLOAT, DATASEC;
 *            sizeof(void *) for PTR; nelems * element size for ARRAY;
 *            0 otherwise)
 * is_signed: INT with the signed encoding, or ENUM/ENUM64 with kind_flag
 * is_bool:   INT with the bool encoding
 * name:      name of the resolved type; "" if anonymous, "void" for void
 * ptr_kind, ptr_name: for PTR, the kind and name of the pointee, itself
 *            resolved through modifiers and typedefs (MSL_BTF_KIND_VOID
 *            and "void" for void *); 0 and "" for non-pointers.
 * Names point into the blob; they are never NULL.
 */
struct msl_btf_type_desc {
	u32 kind;
	u32 size;
	bool is_signed;
	bool is_bool;
	const char *name;
	u32 ptr_kind;
	const char *ptr_name;
};

int msl_btf_describe(const struct msl_btf *btf, u32 type_id,
		     struct msl_btf_type_desc *out);

/*
 * Prototype of the FUNC named @func: *nr_params is always set on success
 * and on -E2BIG (more than @max_params parameters; @params then holds
 * the first @max_params).  A variadic "..." is reported as a last
 * parameter of kind MSL_BTF_KIND_VOID.  If several FUNCs have that name,
 * their prototypes must describe identically, else -ENOTUNIQ.
 */
int msl_btf_func_proto(const struct msl_btf *btf, const char *func,
		       struct msl_btf_type_desc *ret,
		       struct msl_btf_type_desc *params, u32 max_params,
		       u32 *nr_params);

/*
 * Value of the enumerator @enumerator in any ENUM/ENUM64 (unsigned
 * 64-bit values above S64_MAX come back as their two's complement).
 * -ENOTUNIQ if two enumerators of that name have different values.
 */
int msl_btf_enum_value(const struct msl_btf *btf, const char *enumerator,
		       s64 *value);

/*
 * Check a field of "struct @struct_name" in one call:
 *   want_kind:       kind after msl_btf_describe() (BTF_KIND_INT, _PTR, ...)
 *   want_size:       size in bytes after describe; 0 = don't care
 *   want_signed:     1 signed, 0 unsigned, -1 = don't care
 *   want_ptr_struct: for a PTR, the pointee must be "struct <this>";
 *                    NULL = don't care
 * The field must lie inside the struct.  For a bitfield, want_size is
 * the size of the declared type (4 for "unsigned int x:1") and
 * out->bitfield_size says how many bits: a caller that reads the field
 * as a whole must check out->bitfield_size == 0.  If several structs
 * have that name, they must all agree on the field, else -ENOTUNIQ.
 * Returns -ENOENT (no such struct or field), -EOPNOTSUPP (kind, size,
 * signedness or pointee mismatch), -EINVAL (malformed, or the field
 * does not lie inside the struct), -ENOTUNIQ.
 *
 * On failure, if @why is not NULL, it receives a NUL-terminated message
 * naming what is missing or mismatched (truncated to @why_len bytes),
 * e.g. "no struct scan_control", "no field priority in struct
 * scan_control", "priority: want 1-byte signed int, have 4-byte
 * signed int".  @out may be NULL.
 */
int msl_btf_check_field(const struct msl_btf *btf, const char *struct_name,
			const char *field, u32 want_kind, u32 want_size,
			int want_signed, const char *want_ptr_struct,
			struct msl_btf_member *out, char *why, u32 why_len);

#endif /* MEMCG_SOFTLIMIT_BTF_H */
