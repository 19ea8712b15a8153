// SPDX-License-Identifier: GPL-2.0
/*
 * Minimal raw-BTF reader, see include/memcg_softlimit/btf.h.
 *
 * Pure code: the same source is built into the module and into the
 * userspace unit tests.  Every read copies, after a bounds check (type
 * section reads through msl_btf_tread()), so a corrupted or unaligned
 * blob cannot make us read out of bounds.
 */
#include <linux/errno.h>
#include <linux/string.h>
#include <memcg_softlimit/btf.h>

/* Layouts of records some UAPI headers lack (see the MSL_BTF_KIND_*). */
struct msl_btf_enum64 {
	u32 name_off;
	u32 val_lo32;
	u32 val_hi32;
};

struct msl_btf_decl_tag {
	s32 component_idx;
};

/* Bound on typedef/modifier chains, array nesting, anonymous members. */
#define MSL_BTF_MAX_DEPTH	32
#define MSL_BTF_MAX_ANON	8

struct msl_btf_iter {
	u32 id;			/* id of the record in t */
	u32 next;		/* offset of the next record */
	u32 data_off;		/* offset of t's trailing data */
	struct btf_type t;
};

static bool msl_btf_tread(const struct msl_btf *btf, u32 off, void *dst,
			  u32 len)
{
	if (!btf->types || off > btf->types_len || len > btf->types_len - off)
		return false;
	memcpy(dst, btf->types + off, len);
	return true;
}

/* NULL if @off is not inside the string section. */
static const char *msl_btf_str(const struct msl_btf *btf, u32 off)
{
	if (!btf->strs || off >= btf->strs_len)
		return NULL;
	return btf->strs + off;
}

/* 1 if the string at @off is @name, 0 if not, -EINVAL if @off is bad. */
static int msl_btf_name_is(const struct msl_btf *btf, u32 off,
			   const char *name)
{
	const char *s = msl_btf_str(btf, off);

	if (!s)
		return -EINVAL;
	return strcmp(s, name) == 0;
}

static u32 msl_btf_kind(const struct btf_type *t)
{
	return MSL_BTF_INFO_KIND(t->info);
}

static u32 msl_btf_vlen(const struct btf_type *t)
{
	return MSL_BTF_INFO_VLEN(t->info);
}

static bool msl_btf_kflag(const struct btf_type *t)
{
	return MSL_BTF_INFO_KFLAG(t->info);
}

/* What follows struct btf_type, for the kinds this reader knows. */
static const struct msl_btf_layout msl_btf_known[MSL_BTF_NR_KINDS] = {
	[BTF_KIND_INT] = { .info_sz = sizeof(u32) },
	[BTF_KIND_ARRAY] = { .info_sz = sizeof(struct btf_array) },
	[BTF_KIND_STRUCT] = { .elem_sz = sizeof(struct btf_member) },
	[BTF_KIND_UNION] = { .elem_sz = sizeof(struct btf_member) },
	[BTF_KIND_ENUM] = { .elem_sz = sizeof(struct btf_enum) },
	[BTF_KIND_FUNC_PROTO] = { .elem_sz = sizeof(struct btf_param) },
	[BTF_KIND_VAR] = { .info_sz = sizeof(struct btf_var) },
	[BTF_KIND_DATASEC] = { .elem_sz = sizeof(struct btf_var_secinfo) },
	[MSL_BTF_KIND_DECL_TAG] = {
		.info_sz = sizeof(struct msl_btf_decl_tag) },
	[MSL_BTF_KIND_ENUM64] = { .elem_sz = sizeof(struct msl_btf_enum64) },
};

static bool msl_btf_kind_known(u32 kind)
{
	return kind && kind < MSL_BTF_NR_KINDS;
}

static void msl_btf_layout_of(const struct msl_btf *btf, u32 kind,
			      struct msl_btf_layout *l)
{
	memcpy(l, btf->layout + kind * sizeof(*l), sizeof(*l));
}

/*
 * Size of the data following struct btf_type; -EOPNOTSUPP for a kind
 * that neither this reader nor the blob's layout section describes.
 */
static int msl_btf_extra(const struct msl_btf *btf, const struct btf_type *t,
			 u32 *extra)
{
	struct msl_btf_layout l;
	u32 kind = msl_btf_kind(t);

	if (!kind)
		return -EINVAL;
	if (msl_btf_kind_known(kind))
		l = msl_btf_known[kind];
	else if (kind < btf->nr_layout)
		msl_btf_layout_of(btf, kind, &l);
	else
		return -EOPNOTSUPP;
	/* As libbpf: records stay 4-byte aligned, whatever the kind. */
	if (l.info_sz % 4 || l.elem_sz % 4)
		return -EINVAL;
	/* No overflow: vlen < 2^24, the sizes < 2^8. */
	*extra = l.info_sz + msl_btf_vlen(t) * l.elem_sz;
	return 0;
}

/* 1 and the next record in @it, 0 at the end, -EINVAL if malformed. */
static int msl_btf_next(const struct msl_btf *btf, struct msl_btf_iter *it)
{
	u32 off = it->next, extra;
	int ret;

	if (off == btf->types_len)
		return 0;
	if (it->id >= BTF_MAX_TYPE)
		return -EINVAL;
	if (!msl_btf_tread(btf, off, &it->t, sizeof(it->t)))
		return -EINVAL;
	ret = msl_btf_extra(btf, &it->t, &extra);
	if (ret)
		return ret;
	off += sizeof(it->t);
	if (extra > btf->types_len - off)
		return -EINVAL;
	it->id++;
	it->data_off = off;
	it->next = off + extra;
	return 1;
}

static void msl_btf_iter_start(struct msl_btf_iter *it)
{
	memset(it, 0, sizeof(*it));
}

/* Record of type @id (not 0): header and offset of its trailing data. */
static int msl_btf_type(const struct msl_btf *btf, u32 id,
			struct btf_type *t, u32 *data_off)
{
	struct msl_btf_iter it;
	int ret;

	if (id == 0 || id > btf->nr_types)
		return -EINVAL;
	msl_btf_iter_start(&it);
	while ((ret = msl_btf_next(btf, &it)) > 0) {
		if (it.id == id) {
			*t = it.t;
			*data_off = it.data_off;
			return 0;
		}
	}
	return -EINVAL;
}

static bool msl_btf_is_modifier(u32 kind)
{
	return kind == BTF_KIND_TYPEDEF || kind == BTF_KIND_CONST ||
	       kind == BTF_KIND_VOLATILE || kind == BTF_KIND_RESTRICT ||
	       kind == MSL_BTF_KIND_TYPE_TAG;
}

/*
 * Follow typedefs and modifiers from *@id.  On return *@id is the
 * resolved type, 0 for void (then @t and @data_off are not set).
 */
static int msl_btf_resolve(const struct msl_btf *btf, u32 *id,
			   struct btf_type *t, u32 *data_off)
{
	int depth, ret;

	for (depth = 0; depth < MSL_BTF_MAX_DEPTH; depth++) {
		if (*id == 0)
			return 0;
		ret = msl_btf_type(btf, *id, t, data_off);
		if (ret)
			return ret;
		if (!msl_btf_is_modifier(msl_btf_kind(t)))
			return 0;
		*id = t->type;
	}
	return -EINVAL;
}

/* Is [hdr_len + off, hdr_len + off + len) inside a blob of @size bytes? */
static bool msl_btf_in_blob(u32 size, u32 hdr_len, u32 off, u32 len)
{
	u64 start = (u64)hdr_len + off;

	return start <= size && len <= size - start;
}

static int msl_btf_read_header(struct msl_btf_header *hdr, const u8 *data,
			       u32 size, const char **why)
{
	u32 i;

	memset(hdr, 0, sizeof(*hdr));
	*why = "shorter than a BTF header";
	if (!data || size < MSL_BTF_MIN_HDR_LEN)
		return -EINVAL;
	memcpy(hdr, data, MSL_BTF_MIN_HDR_LEN);
	*why = "bad magic";
	if (hdr->magic != BTF_MAGIC)
		return -EINVAL;
	*why = "unknown BTF version";
	if (hdr->version != BTF_VERSION)
		return -EOPNOTSUPP;
	*why = "hdr_len out of bounds";
	if (hdr->hdr_len < MSL_BTF_MIN_HDR_LEN || hdr->hdr_len > size)
		return -EINVAL;
	/* A shorter header's missing fields read as zero. */
	memcpy(hdr, data, hdr->hdr_len < sizeof(*hdr) ? hdr->hdr_len :
						      sizeof(*hdr));
	/* A longer one may only add fields that are zero, i.e. unused. */
	*why = "header fields unknown to this reader are set";
	for (i = sizeof(*hdr); i < hdr->hdr_len; i++)
		if (data[i])
			return -EOPNOTSUPP;
	/* The kernel refuses any flag as well: none is defined. */
	*why = "header flags unknown to this reader are set";
	if (hdr->flags)
		return -EOPNOTSUPP;
	return 0;
}

/*
 * The layout section must agree with this reader on the kinds it knows:
 * otherwise one of the two misreads every record of that kind.
 */
static int msl_btf_read_layout(struct msl_btf *btf,
			       const struct msl_btf_header *hdr,
			       const char **why)
{
	struct msl_btf_layout l;
	u32 kind;

	if (!hdr->layout_len)
		return 0;
	*why = "layout section out of bounds";
	if (!msl_btf_in_blob(btf->size, hdr->hdr_len, hdr->layout_off,
			     hdr->layout_len))
		return -EINVAL;
	*why = "layout section length not a whole number of entries";
	if (hdr->layout_len % sizeof(l))
		return -EINVAL;
	btf->layout = btf->data + hdr->hdr_len + hdr->layout_off;
	btf->nr_layout = hdr->layout_len / sizeof(l);
	*why = "layout section disagrees with this reader on a known kind";
	for (kind = 1; kind < btf->nr_layout && msl_btf_kind_known(kind);
	     kind++) {
		msl_btf_layout_of(btf, kind, &l);
		if (l.info_sz != msl_btf_known[kind].info_sz ||
		    l.elem_sz != msl_btf_known[kind].elem_sz)
			return -EINVAL;
	}
	return 0;
}

static int msl_btf_parse(struct msl_btf *btf, const void *data, u32 size,
			 const char **why)
{
	struct msl_btf_header hdr;
	struct msl_btf_iter it;
	int ret;

	ret = msl_btf_read_header(&hdr, data, size, why);
	if (ret)
		return ret;
	btf->data = data;
	btf->size = size;
	btf->hdr_len = hdr.hdr_len;

	*why = "type section out of bounds";
	if (!msl_btf_in_blob(size, hdr.hdr_len, hdr.type_off, hdr.type_len))
		return -EINVAL;
	btf->types = btf->data + hdr.hdr_len + hdr.type_off;
	btf->types_len = hdr.type_len;

	*why = "string section out of bounds";
	if (!msl_btf_in_blob(size, hdr.hdr_len, hdr.str_off, hdr.str_len))
		return -EINVAL;
	btf->strs = (const char *)btf->data + hdr.hdr_len + hdr.str_off;
	btf->strs_len = hdr.str_len;
	/* The first string is "" (name_off 0), and the last ends the section. */
	*why = "malformed string section";
	if (!btf->strs_len || btf->strs[0] || btf->strs[btf->strs_len - 1])
		return -EINVAL;

	ret = msl_btf_read_layout(btf, &hdr, why);
	if (ret)
		return ret;

	msl_btf_iter_start(&it);
	while ((ret = msl_btf_next(btf, &it)) > 0) {
		*why = "type name outside the string section";
		if (it.t.name_off >= btf->strs_len)
			return -EINVAL;
	}
	if (ret == -EOPNOTSUPP)
		*why = "a type of a kind unknown to this reader and to the layout section";
	else if (ret)
		*why = "malformed type section";
	if (ret)
		return ret;
	btf->nr_types = it.id;
	return 0;
}

int msl_btf_init(struct msl_btf *btf, const void *data, u32 size)
{
	const char *why = "";
	int ret;

	memset(btf, 0, sizeof(*btf));
	ret = msl_btf_parse(btf, data, size, &why);
	if (ret) {
		memset(btf, 0, sizeof(*btf));
		btf->error = why;
	}
	return ret;
}

s32 msl_btf_find_next(const struct msl_btf *btf, const char *name, u32 kind,
		      s32 after)
{
	struct msl_btf_iter it;
	int ret;

	if (!name)
		return -EINVAL;
	msl_btf_iter_start(&it);
	while ((ret = msl_btf_next(btf, &it)) > 0) {
		if ((s32)it.id <= after || msl_btf_kind(&it.t) != kind)
			continue;
		ret = msl_btf_name_is(btf, it.t.name_off, name);
		if (ret < 0)
			return ret;
		if (ret)
			return it.id;
	}
	return ret ? ret : -ENOENT;
}

s32 msl_btf_find(const struct msl_btf *btf, const char *name, u32 kind)
{
	return msl_btf_find_next(btf, name, kind, 0);
}

static int msl_btf_member_at(const struct msl_btf *btf, u32 struct_id,
			     const char *name, u32 base,
			     struct msl_btf_member *out, int depth)
{
	struct btf_type t, mt;
	struct btf_member m;
	u32 i, vlen, kind, off, mid, mdata, enc, bit_off, bits;
	bool kflag;
	int ret;

	ret = msl_btf_type(btf, struct_id, &t, &off);
	if (ret)
		return ret;
	kind = msl_btf_kind(&t);
	if (kind != BTF_KIND_STRUCT && kind != BTF_KIND_UNION)
		return -EINVAL;
	kflag = msl_btf_kflag(&t);
	vlen = msl_btf_vlen(&t);
	for (i = 0; i < vlen; i++, off += sizeof(m)) {
		if (!msl_btf_tread(btf, off, &m, sizeof(m)))
			return -EINVAL;
		bit_off = kflag ? BTF_MEMBER_BIT_OFFSET(m.offset) : m.offset;
		bits = kflag ? BTF_MEMBER_BITFIELD_SIZE(m.offset) : 0;
		if (bit_off > ~base)
			return -EINVAL;
		bit_off += base;

		if (m.name_off == 0) {
			/* Anonymous struct/union: look inside. */
			mid = m.type;
			ret = msl_btf_resolve(btf, &mid, &mt, &mdata);
			if (ret)
				return ret;
			if (!mid || depth >= MSL_BTF_MAX_ANON)
				continue;
			kind = msl_btf_kind(&mt);
			if (kind != BTF_KIND_STRUCT && kind != BTF_KIND_UNION)
				continue;
			ret = msl_btf_member_at(btf, mid, name, bit_off, out,
						depth + 1);
			if (ret != -ENOENT)
				return ret;
			continue;
		}

		ret = msl_btf_name_is(btf, m.name_off, name);
		if (ret < 0)
			return ret;
		if (!ret)
			continue;

		if (!kflag && m.type) {
			/* Old encoding: the bitfield is in the INT itself. */
			ret = msl_btf_type(btf, m.type, &mt, &mdata);
			if (ret)
				return ret;
			if (msl_btf_kind(&mt) == BTF_KIND_INT) {
				if (!msl_btf_tread(btf, mdata, &enc, sizeof(enc)))
					return -EINVAL;
				if (BTF_INT_OFFSET(enc) ||
				    BTF_INT_BITS(enc) != mt.size * 8) {
					if (bit_off > ~BTF_INT_OFFSET(enc))
						return -EINVAL;
					bit_off += BTF_INT_OFFSET(enc);
					bits = BTF_INT_BITS(enc);
				}
			}
		}
		out->type_id = m.type;
		out->bit_offset = bit_off;
		out->bitfield_size = bits;
		return 0;
	}
	return -ENOENT;
}

int msl_btf_member(const struct msl_btf *btf, s32 struct_id, const char *name,
		   struct msl_btf_member *out)
{
	if (struct_id <= 0 || !name || !out)
		return -EINVAL;
	return msl_btf_member_at(btf, struct_id, name, 0, out, 0);
}

/* Size of a resolved non-array type. */
static u32 msl_btf_plain_size(const struct btf_type *t)
{
	switch (msl_btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_ENUM:
	case MSL_BTF_KIND_ENUM64:
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_FLOAT:
	case BTF_KIND_DATASEC:
		return t->size;
	case BTF_KIND_PTR:
		return sizeof(void *);
	default:
		return 0;
	}
}

/* Size of an ARRAY: product of the dimensions times the element size. */
static int msl_btf_array_size(const struct msl_btf *btf, u32 id, u32 *size)
{
	struct btf_type t;
	struct btf_array arr;
	u32 data_off;
	u64 n = 1;
	int depth, ret;

	for (depth = 0; depth < MSL_BTF_MAX_DEPTH; depth++) {
		ret = msl_btf_resolve(btf, &id, &t, &data_off);
		if (ret)
			return ret;
		if (!id)
			return -EINVAL;
		if (msl_btf_kind(&t) != BTF_KIND_ARRAY) {
			n *= msl_btf_plain_size(&t);
			if (n >> 32)
				return -EINVAL;
			*size = n;
			return 0;
		}
		if (!msl_btf_tread(btf, data_off, &arr, sizeof(arr)))
			return -EINVAL;
		n *= arr.nelems;
		if (n >> 32)
			return -EINVAL;
		id = arr.type;
	}
	return -EINVAL;
}

int msl_btf_describe(const struct msl_btf *btf, u32 type_id,
		     struct msl_btf_type_desc *out)
{
	struct btf_type t, pt;
	u32 data_off, enc, pid;
	int ret;

	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->kind = MSL_BTF_KIND_VOID;
	out->name = "void";
	out->ptr_name = "";

	ret = msl_btf_resolve(btf, &type_id, &t, &data_off);
	if (ret)
		return ret;
	if (!type_id)
		return 0;

	out->kind = msl_btf_kind(&t);
	out->name = msl_btf_str(btf, t.name_off);
	if (!out->name)
		return -EINVAL;
	out->size = msl_btf_plain_size(&t);

	switch (out->kind) {
	case BTF_KIND_INT:
		if (!msl_btf_tread(btf, data_off, &enc, sizeof(enc)))
			return -EINVAL;
		if (t.size > 16 ||
		    BTF_INT_OFFSET(enc) + BTF_INT_BITS(enc) > t.size * 8)
			return -EINVAL;
		out->is_signed = BTF_INT_ENCODING(enc) & BTF_INT_SIGNED;
		out->is_bool = BTF_INT_ENCODING(enc) & BTF_INT_BOOL;
		break;
	case BTF_KIND_ENUM:
	case MSL_BTF_KIND_ENUM64:
		out->is_signed = msl_btf_kflag(&t);
		break;
	case BTF_KIND_ARRAY:
		ret = msl_btf_array_size(btf, type_id, &out->size);
		if (ret)
			return ret;
		break;
	case BTF_KIND_PTR:
		pid = t.type;
		ret = msl_btf_resolve(btf, &pid, &pt, &data_off);
		if (ret)
			return ret;
		if (!pid) {
			out->ptr_name = "void";
			break;
		}
		out->ptr_kind = msl_btf_kind(&pt);
		out->ptr_name = msl_btf_str(btf, pt.name_off);
		if (!out->ptr_name)
			return -EINVAL;
		break;
	default:
		break;
	}
	return 0;
}

static bool msl_btf_desc_eq(const struct msl_btf_type_desc *a,
			    const struct msl_btf_type_desc *b)
{
	return a->kind == b->kind && a->size == b->size &&
	       a->is_signed == b->is_signed && a->is_bool == b->is_bool &&
	       a->ptr_kind == b->ptr_kind && !strcmp(a->name, b->name) &&
	       !strcmp(a->ptr_name, b->ptr_name);
}

/*
 * Describe the prototype of FUNC @func_id into @ret/@params, or, if
 * @cmp, compare it with what is there (-ENOTUNIQ if it differs).
 */
static int msl_btf_proto_of(const struct msl_btf *btf, u32 func_id,
			    struct msl_btf_type_desc *ret,
			    struct msl_btf_type_desc *params, u32 max_params,
			    u32 *nr_params, bool cmp)
{
	struct msl_btf_type_desc d;
	struct btf_type t;
	struct btf_param p;
	u32 off, i, vlen;
	int err;

	err = msl_btf_type(btf, func_id, &t, &off);
	if (err)
		return err;
	if (msl_btf_kind(&t) != BTF_KIND_FUNC)
		return -EINVAL;
	err = msl_btf_type(btf, t.type, &t, &off);
	if (err)
		return err;
	if (msl_btf_kind(&t) != BTF_KIND_FUNC_PROTO)
		return -EINVAL;
	vlen = msl_btf_vlen(&t);
	if (cmp && vlen != *nr_params)
		return -ENOTUNIQ;
	*nr_params = vlen;

	err = msl_btf_describe(btf, t.type, cmp ? &d : ret);
	if (err)
		return err;
	if (cmp && !msl_btf_desc_eq(&d, ret))
		return -ENOTUNIQ;

	for (i = 0; i < vlen && i < max_params; i++, off += sizeof(p)) {
		if (!msl_btf_tread(btf, off, &p, sizeof(p)))
			return -EINVAL;
		err = msl_btf_describe(btf, p.type, cmp ? &d : &params[i]);
		if (err)
			return err;
		if (cmp && !msl_btf_desc_eq(&d, &params[i]))
			return -ENOTUNIQ;
	}
	return 0;
}

int msl_btf_func_proto(const struct msl_btf *btf, const char *func,
		       struct msl_btf_type_desc *ret,
		       struct msl_btf_type_desc *params, u32 max_params,
		       u32 *nr_params)
{
	s32 id, first;
	int err;

	if (!func || !ret || !nr_params || (max_params && !params))
		return -EINVAL;
	first = msl_btf_find(btf, func, BTF_KIND_FUNC);
	if (first < 0)
		return first;
	err = msl_btf_proto_of(btf, first, ret, params, max_params, nr_params,
			       false);
	if (err)
		return err;

	/* Same-named FUNCs (static functions) must agree. */
	for (id = first;;) {
		id = msl_btf_find_next(btf, func, BTF_KIND_FUNC, id);
		if (id == -ENOENT)
			break;
		if (id < 0)
			return id;
		err = msl_btf_proto_of(btf, id, ret, params, max_params,
				       nr_params, true);
		if (err)
			return err;
	}
	return *nr_params > max_params ? -E2BIG : 0;
}

/* Fold one enumerator into the result: -ENOTUNIQ on a conflict. */
static int msl_btf_enum_found(s64 v, s64 *value, bool *found)
{
	if (*found && *value != v)
		return -ENOTUNIQ;
	*value = v;
	*found = true;
	return 0;
}

int msl_btf_enum_value(const struct msl_btf *btf, const char *enumerator,
		       s64 *value)
{
	struct msl_btf_iter it;
	struct msl_btf_enum64 e64;
	struct btf_enum e;
	bool found = false;
	u32 i, kind, off;
	s64 v;
	int ret, match;

	if (!enumerator || !value)
		return -EINVAL;
	msl_btf_iter_start(&it);
	while ((ret = msl_btf_next(btf, &it)) > 0) {
		kind = msl_btf_kind(&it.t);
		off = it.data_off;
		for (i = 0; kind == BTF_KIND_ENUM && i < msl_btf_vlen(&it.t);
		     i++, off += sizeof(e)) {
			if (!msl_btf_tread(btf, off, &e, sizeof(e)))
				return -EINVAL;
			match = msl_btf_name_is(btf, e.name_off, enumerator);
			if (match < 0)
				return match;
			if (!match)
				continue;
			if (msl_btf_kflag(&it.t))
				v = (s32)e.val;
			else
				v = (u32)e.val;
			ret = msl_btf_enum_found(v, value, &found);
			if (ret)
				return ret;
		}
		for (i = 0; kind == MSL_BTF_KIND_ENUM64 &&
			    i < msl_btf_vlen(&it.t); i++, off += sizeof(e64)) {
			if (!msl_btf_tread(btf, off, &e64, sizeof(e64)))
				return -EINVAL;
			match = msl_btf_name_is(btf, e64.name_off, enumerator);
			if (match < 0)
				return match;
			if (!match)
				continue;
			v = (s64)(((u64)e64.val_hi32 << 32) | e64.val_lo32);
			ret = msl_btf_enum_found(v, value, &found);
			if (ret)
				return ret;
		}
	}
	if (ret)
		return ret;
	return found ? 0 : -ENOENT;
}

/* Messages for msl_btf_check_field(), built in the caller's buffer. */
struct msl_btf_msg {
	char *buf;
	u32 len;
	u32 pos;
};

static void msl_btf_puts(struct msl_btf_msg *m, const char *s)
{
	if (!m->buf || !m->len)
		return;
	while (*s && m->pos + 1 < m->len)
		m->buf[m->pos++] = *s++;
	m->buf[m->pos] = '\0';
}

static void msl_btf_putu(struct msl_btf_msg *m, u32 v)
{
	char tmp[11];
	int i = sizeof(tmp) - 1;

	tmp[i] = '\0';
	do {
		tmp[--i] = '0' + v % 10;
		v /= 10;
	} while (v);
	msl_btf_puts(m, tmp + i);
}

static const char *msl_btf_kind_name(u32 kind)
{
	static const char * const names[MSL_BTF_NR_KINDS] = {
		"void", "int", "ptr", "array", "struct", "union", "enum",
		"fwd", "typedef", "volatile", "const", "restrict", "func",
		"func_proto", "var", "datasec", "float", "decl_tag",
		"type_tag", "enum64",
	};

	return kind < MSL_BTF_NR_KINDS ? names[kind] : "unknown kind";
}

static bool msl_btf_has_sign(u32 kind)
{
	return kind == BTF_KIND_INT || kind == BTF_KIND_ENUM ||
	       kind == MSL_BTF_KIND_ENUM64;
}

static bool msl_btf_is_tagged(u32 kind)
{
	return kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION ||
	       kind == BTF_KIND_ENUM || kind == MSL_BTF_KIND_ENUM64;
}

/* "8-byte ptr to struct mem_cgroup", "1-byte signed int", ... */
static void msl_btf_put_desc(struct msl_btf_msg *m, u32 kind, u32 size,
			     int is_signed, const char *name, u32 ptr_kind,
			     const char *ptr_name)
{
	if (size) {
		msl_btf_putu(m, size);
		msl_btf_puts(m, "-byte ");
	}
	if (is_signed >= 0 && msl_btf_has_sign(kind))
		msl_btf_puts(m, is_signed ? "signed " : "unsigned ");
	if (kind == BTF_KIND_INT && is_signed < 0 && name && *name) {
		msl_btf_puts(m, name);
		return;
	}
	msl_btf_puts(m, msl_btf_kind_name(kind));
	if (msl_btf_is_tagged(kind) && name && *name) {
		msl_btf_puts(m, " ");
		msl_btf_puts(m, name);
	}
	if (kind == BTF_KIND_PTR && ptr_name) {
		msl_btf_puts(m, " to ");
		msl_btf_puts(m, msl_btf_kind_name(ptr_kind));
		if (*ptr_name && ptr_kind != MSL_BTF_KIND_VOID) {
			msl_btf_puts(m, " ");
			msl_btf_puts(m, ptr_name);
		}
	}
}

static void msl_btf_put_which(struct msl_btf_msg *m, const char *what,
			      const char *field, const char *struct_name)
{
	msl_btf_puts(m, what);
	msl_btf_puts(m, field);
	msl_btf_puts(m, " in struct ");
	msl_btf_puts(m, struct_name);
}

/* Check @field in the STRUCT @sid; fill @mb and @d. */
static int msl_btf_check_one(const struct msl_btf *btf, s32 sid,
			     const char *struct_name, const char *field,
			     u32 want_kind, u32 want_size, int want_signed,
			     const char *want_ptr_struct,
			     struct msl_btf_member *mb,
			     struct msl_btf_type_desc *d, struct msl_btf_msg *m)
{
	struct btf_type st;
	u32 off;
	u64 end;
	bool bad;
	int ret;

	ret = msl_btf_type(btf, sid, &st, &off);
	if (!ret)
		ret = msl_btf_member(btf, sid, field, mb);
	if (ret == -ENOENT) {
		msl_btf_put_which(m, "no field ", field, struct_name);
		return ret;
	}
	if (!ret)
		ret = msl_btf_describe(btf, mb->type_id, d);
	if (ret) {
		msl_btf_put_which(m, "malformed BTF for field ", field,
				  struct_name);
		return ret;
	}

	bad = d->kind != want_kind || (want_size && d->size != want_size) ||
	      (want_signed >= 0 && d->is_signed != !!want_signed);
	if (want_ptr_struct)
		bad = bad || d->kind != BTF_KIND_PTR ||
		      d->ptr_kind != BTF_KIND_STRUCT ||
		      strcmp(d->ptr_name, want_ptr_struct);
	if (bad) {
		msl_btf_puts(m, field);
		msl_btf_puts(m, ": want ");
		msl_btf_put_desc(m, want_kind, want_size, want_signed, NULL,
				 BTF_KIND_STRUCT, want_ptr_struct);
		msl_btf_puts(m, ", have ");
		msl_btf_put_desc(m, d->kind, d->size, d->is_signed, d->name,
				 d->ptr_kind, d->ptr_name);
		return -EOPNOTSUPP;
	}

	/* The field must lie inside the struct. */
	if (mb->bitfield_size) {
		end = (u64)mb->bit_offset + mb->bitfield_size;
		bad = mb->bitfield_size > (u64)d->size * 8;
	} else {
		end = (u64)mb->bit_offset + (u64)d->size * 8;
		bad = mb->bit_offset % 8;
	}
	if (bad || end > (u64)st.size * 8) {
		msl_btf_puts(m, field);
		msl_btf_puts(m, ": bad offset ");
		msl_btf_putu(m, mb->bit_offset);
		msl_btf_puts(m, " bits in struct ");
		msl_btf_puts(m, struct_name);
		msl_btf_puts(m, " of ");
		msl_btf_putu(m, st.size);
		msl_btf_puts(m, " bytes");
		return -EINVAL;
	}
	return 0;
}

int msl_btf_check_field(const struct msl_btf *btf, const char *struct_name,
			const char *field, u32 want_kind, u32 want_size,
			int want_signed, const char *want_ptr_struct,
			struct msl_btf_member *out, char *why, u32 why_len)
{
	struct msl_btf_msg m = { .buf = why, .len = why_len };
	struct msl_btf_member first_mb, mb;
	struct msl_btf_type_desc first_d, d;
	bool found = false;
	s32 sid;
	int ret;

	msl_btf_puts(&m, "");
	if (!struct_name || !field) {
		msl_btf_puts(&m, "bad arguments");
		return -EINVAL;
	}
	for (sid = 0;;) {
		sid = msl_btf_find_next(btf, struct_name, BTF_KIND_STRUCT, sid);
		if (sid == -ENOENT)
			break;
		if (sid < 0) {
			msl_btf_puts(&m, "malformed BTF");
			return sid;
		}
		ret = msl_btf_check_one(btf, sid, struct_name, field,
					want_kind, want_size, want_signed,
					want_ptr_struct, &mb, &d, &m);
		if (ret)
			return ret;
		if (found && (mb.bit_offset != first_mb.bit_offset ||
			      mb.bitfield_size != first_mb.bitfield_size ||
			      !msl_btf_desc_eq(&d, &first_d))) {
			msl_btf_put_which(&m, "ambiguous: differing ", field,
					  struct_name);
			return -ENOTUNIQ;
		}
		if (!found) {
			first_mb = mb;
			first_d = d;
			found = true;
		}
	}
	if (!found) {
		msl_btf_puts(&m, "no struct ");
		msl_btf_puts(&m, struct_name);
		return -ENOENT;
	}
	if (out)
		*out = first_mb;
	return 0;
}
