// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/btf.c, the raw-BTF reader, built with ASan/UBSan.
 * Each case runs in a forked child that prints its own "RESULT PASS|FAIL
 * unit/btf/<case>" line; a crash or a sanitizer report fails it here.
 *
 * Hand-built blobs: one table of type records, laid out in each header
 * shape (24 bytes as Linux 6.x and Debian 7.3's vmlinux; 32 as 7.x's
 * UAPI, with and without a layout section, with records of kinds the
 * reader does not know; 40, zero-padded), a table of queries run against
 * every shape, and a table of damaged blobs.  Real blobs: the host's
 * /sys/kernel/btf/vmlinux, the .BTF of /lib/modules/<kver>/build/vmlinux,
 * and raw .BTF sections of Debian's kernel images, $MSL_BTF_DIR/btf-<kver>
 * (default /var/cache/memcg-softlimit/btf; too big to commit), checked
 * against pahole; SKIP where there are none.
 */
#define _GNU_SOURCE
#include <glob.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/errno.h>
#include <linux/kernel.h>

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#else
#define ASAN_POISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#define ASAN_UNPOISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#endif

#include <memcg_softlimit/btf.h>

/* The tables leave out trailing columns where they do not apply. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#define FUZZ_ITERS	2000
#define REAL_PREFIX	(64 * 1024)

const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
	return "halt_on_error=1:print_stacktrace=1";
}

static char reason[1024];

static const char *failf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	return reason;
}

#define CHECK(cond, ...) do { if (!(cond)) return failf(__VA_ARGS__); } while (0)
#define TRY(expr) do { const char *_r = (expr); if (_r) return _r; } while (0)

static void run_case(const char *name, const char *(*fn)(void))
{
	const char *r;
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		alarm(60);	/* a hang (a reference loop) fails the case */
		r = fn();
		printf("RESULT %s unit/btf/%s %s\n", r ? "FAIL" : "PASS", name,
		       r ? r : "");
		fflush(stdout);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		printf("RESULT FAIL unit/btf/%s fork or wait failed\n", name);
	else if (WIFSIGNALED(status))
		printf("RESULT FAIL unit/btf/%s killed: %s\n", name,
		       strsignal(WTERMSIG(status)));
	else if (WEXITSTATUS(status))
		printf("RESULT FAIL unit/btf/%s exited with %d (sanitizer report on stderr)\n",
		       name, WEXITSTATUS(status));
}

static void put32(u8 *p, u32 v) { memcpy(p, &v, 4); }
static u32 get32(const u8 *p) { u32 v; memcpy(&v, p, 4); return v; }

/* ---------------------------------------------------------------- */
/* The hand-built types and their layout in each header shape       */

/* Header fields by offset: the format's, not the reader's struct. */
enum { F_HDR_LEN = 4, F_TYPE_OFF = 8, F_TYPE_LEN = 12, F_STR_OFF = 16,
	F_STR_LEN = 20, F_LAYOUT_OFF = 24, F_LAYOUT_LEN = 28 };

/* Two kinds unknown to the reader; the layout section the blobs carry. */
enum { K_MYSTERY = 20, K_RIDDLE = 21, NR_LAYOUT = 22 };
static const u8 layout_tab[NR_LAYOUT][2] = {	/* info_sz, elem_sz */
	[BTF_KIND_INT] = { 4, 0 }, [BTF_KIND_ARRAY] = { 12, 0 },
	[BTF_KIND_STRUCT] = { 0, 12 }, [BTF_KIND_UNION] = { 0, 12 },
	[BTF_KIND_ENUM] = { 0, 8 }, [BTF_KIND_FUNC_PROTO] = { 0, 8 },
	[BTF_KIND_VAR] = { 4, 0 }, [BTF_KIND_DATASEC] = { 0, 12 },
	[MSL_BTF_KIND_DECL_TAG] = { 4, 0 }, [MSL_BTF_KIND_ENUM64] = { 0, 12 },
	[K_MYSTERY] = { 4, 8 }, [K_RIDDLE] = { 0, 0 },
};

/* A word after struct btf_type: a string's offset, or a value. */
struct word { const char *s; u32 v; };
#define S(x)		{ .s = (x) }
#define V(x)		{ .v = (u32)(x) }
#define M(n, t, off)	S(n), V(t), V(off)
#define ENC(e, off, b)	V((u32)(e) << 24 | (off) << 16 | (b))

struct rec {
	const char *name;
	u32 kind, vlen, kflag, st;	/* st: size or type */
	struct word w[15];
};

enum {
	H_INT = 1, H_UINT, H_SCHAR, H_S8_INNER, H_S8, H_PTR_FOO, H_FOO,
	H_ANON_UNION, H_OLDBF, H_UINT3, H_UINT5_OFF3, H_ARR, H_ARR2,
	H_ENUM_COLOR, H_ENUM64_BIG, H_FWD, H_VOLATILE, H_CONST, H_RESTRICT,
	H_PROTO, H_FUNC, H_VAR, H_DATASEC, H_FLOAT, H_DECL_TAG, H_TYPE_TAG,
	H_PTR_TAGGED, H_PROTO_VA, H_FUNC_VA, H_FUNC_DUP_SAME, H_DUPFUNC1,
	H_DUPFUNC2, H_ENUM_OTHER, H_DUP1, H_DUP2, H_SAME1, H_SAME2, H_BADOFF,
	H_LOOP1, H_LOOP2, H_PTR_BAD, H_BADREF, H_BOOL,
	/* only where a layout section describes them: unknown kinds, and after */
	H_MYSTERY, H_RIDDLE, H_AFTER, H_LATE, H_LATEFUNC, H_END,
	H_KNOWN_END = H_MYSTERY, ID_PAST_END = 0x7fffffff,
};

static const struct rec hand[H_END] = {
	[H_INT] = { "int", BTF_KIND_INT, 0, 0, 4, { ENC(BTF_INT_SIGNED, 0, 32) } },
	[H_UINT] = { "unsigned int", BTF_KIND_INT, 0, 0, 4, { ENC(0, 0, 32) } },
	[H_SCHAR] = { "signed char", BTF_KIND_INT, 0, 0, 1, { ENC(BTF_INT_SIGNED, 0, 8) } },
	[H_S8_INNER] = { "__s8", BTF_KIND_TYPEDEF, 0, 0, H_SCHAR },
	[H_S8] = { "s8", BTF_KIND_TYPEDEF, 0, 0, H_S8_INNER },
	[H_PTR_FOO] = { "", BTF_KIND_PTR, 0, 0, H_FOO },
	/* struct foo { int a; s8 b; unsigned c:3, d:1; union { int u1; struct foo *u2; }; } */
	[H_FOO] = { "foo", BTF_KIND_STRUCT, 5, 1, 16, { M("a", H_INT, 0), M("b", H_S8, 32),
		M("c", H_UINT, 3u << 24 | 40), M("d", H_UINT, 1u << 24 | 43),
		M("", H_ANON_UNION, 64) } },
	[H_ANON_UNION] = { "", BTF_KIND_UNION, 2, 0, 8, { M("u1", H_INT, 0), M("u2", H_PTR_FOO, 0) } },
	/* kind_flag 0: the bitfield is in the INT */
	[H_OLDBF] = { "oldbf", BTF_KIND_STRUCT, 2, 0, 4, { M("x", H_UINT3, 0), M("y", H_UINT5_OFF3, 0) } },
	[H_UINT3] = { "unsigned int", BTF_KIND_INT, 0, 0, 4, { ENC(0, 0, 3) } },
	[H_UINT5_OFF3] = { "unsigned int", BTF_KIND_INT, 0, 0, 4, { ENC(0, 3, 5) } },
	[H_ARR] = { "", BTF_KIND_ARRAY, 0, 0, 0, { V(H_INT), V(H_UINT), V(4) } },
	[H_ARR2] = { "", BTF_KIND_ARRAY, 0, 0, 0, { V(H_ARR), V(H_UINT), V(3) } },
	[H_ENUM_COLOR] = { "color", BTF_KIND_ENUM, 3, 1, 4,
		{ S("RED"), V(-1), S("GREEN"), V(2), S("BLUE"), V(-3) } },
	[H_ENUM64_BIG] = { "big", MSL_BTF_KIND_ENUM64, 2, 1, 8,
		{ S("HUGE"), V(0x23456789), V(1), S("NEG"), V(-5), V(-1) } },
	[H_FWD] = { "fwdstruct", BTF_KIND_FWD },
	[H_VOLATILE] = { "", BTF_KIND_VOLATILE, 0, 0, H_INT },
	[H_CONST] = { "", BTF_KIND_CONST, 0, 0, H_VOLATILE },
	[H_RESTRICT] = { "", BTF_KIND_RESTRICT, 0, 0, H_PTR_FOO },
	/* void myfunc(struct foo *restrict p, const volatile int v) */
	[H_PROTO] = { "", BTF_KIND_FUNC_PROTO, 2, 0, 0, { S("p"), V(H_RESTRICT), S("v"), V(H_CONST) } },
	[H_FUNC] = { "myfunc", BTF_KIND_FUNC, 0, 0, H_PROTO },
	[H_VAR] = { "myvar", BTF_KIND_VAR, 0, 0, H_INT, { V(1) } },
	[H_DATASEC] = { ".data", BTF_KIND_DATASEC, 1, 0, 4, { V(H_VAR), V(0), V(4) } },
	[H_FLOAT] = { "double", BTF_KIND_FLOAT, 0, 0, 8 },
	[H_DECL_TAG] = { "tag", MSL_BTF_KIND_DECL_TAG, 0, 0, H_FOO, { V(-1) } },
	[H_TYPE_TAG] = { "user", MSL_BTF_KIND_TYPE_TAG, 0, 0, H_FOO },
	[H_PTR_TAGGED] = { "", BTF_KIND_PTR, 0, 0, H_TYPE_TAG },
	/* s8 vfunc(struct foo __user *x, ...) */
	[H_PROTO_VA] = { "", BTF_KIND_FUNC_PROTO, 2, 0, H_S8, { S("x"), V(H_PTR_TAGGED), S(""), V(0) } },
	[H_FUNC_VA] = { "vfunc", BTF_KIND_FUNC, 0, 0, H_PROTO_VA },
	[H_FUNC_DUP_SAME] = { "myfunc", BTF_KIND_FUNC, 0, 0, H_PROTO },
	[H_DUPFUNC1] = { "dupfunc", BTF_KIND_FUNC, 0, 0, H_PROTO },
	[H_DUPFUNC2] = { "dupfunc", BTF_KIND_FUNC, 0, 0, H_PROTO_VA },
	[H_ENUM_OTHER] = { "other", BTF_KIND_ENUM, 2, 0, 4, { S("RED"), V(7), S("BIGU"), V(-1) } },
	[H_DUP1] = { "dup", BTF_KIND_STRUCT, 1, 0, 4, { M("f", H_INT, 0) } },
	[H_DUP2] = { "dup", BTF_KIND_STRUCT, 1, 0, 8, { M("f", H_INT, 32) } },
	[H_SAME1] = { "same", BTF_KIND_STRUCT, 1, 0, 4, { M("f", H_INT, 0) } },
	[H_SAME2] = { "same", BTF_KIND_STRUCT, 1, 0, 4, { M("f", H_INT, 0) } },
	[H_BADOFF] = { "badoff", BTF_KIND_STRUCT, 3, 0, 4,
		{ M("g", H_INT, 64), M("l", H_LOOP1, 0), M("r", H_PTR_BAD, 0) } },
	[H_LOOP1] = { "loop1", BTF_KIND_TYPEDEF, 0, 0, H_LOOP2 },
	[H_LOOP2] = { "loop2", BTF_KIND_TYPEDEF, 0, 0, H_LOOP1 },
	[H_PTR_BAD] = { "", BTF_KIND_PTR, 0, 0, 9999 },
	/* a member name past the string section: found lazily */
	[H_BADREF] = { "badref", BTF_KIND_STRUCT, 1, 0, 4, { V(0xfffff), V(H_INT), V(0) } },
	[H_BOOL] = { "_Bool", BTF_KIND_INT, 0, 0, 1, { ENC(BTF_INT_BOOL, 0, 8) } },
	[H_MYSTERY] = { "mystery", K_MYSTERY, 2, 0, 7, { V(1), V(2), V(3), V(4), V(5) } },
	[H_RIDDLE] = { "riddle", K_RIDDLE, 3, 1, 0 },
	/* struct after { struct foo *p; mystery m; } */
	[H_AFTER] = { "after", BTF_KIND_STRUCT, 2, 0, 16,
		{ M("p", H_PTR_FOO, 0), M("m", H_MYSTERY, 64) } },
	[H_LATE] = { "late", BTF_KIND_ENUM, 1, 0, 4, { S("LATE"), V(42) } },
	[H_LATEFUNC] = { "latefunc", BTF_KIND_FUNC, 0, 0, H_PROTO },
};

struct shape {
	const char *name;
	u32 hdr_len, nr_layout, end;	/* records 1..end-1 */
};

enum { SH24, SH32, SH32L, SH32U, SH40 };
static const struct shape shapes[] = {
	[SH24] = { "h24", 24, 0, H_KNOWN_END },
	[SH32] = { "h32", 32, 0, H_KNOWN_END },
	[SH32L] = { "h32_layout", 32, 20, H_KNOWN_END },	/* as libbpf */
	[SH32U] = { "h32_unknown", 32, NR_LAYOUT, H_END },
	[SH40] = { "h40", 40, NR_LAYOUT, H_END },
};

struct blob {
	u8 *p;				/* exactly sized, for ASan */
	u32 size, types, layout, strs;	/* section offsets in p */
	u32 rec[H_END];			/* record offsets in p */
};

static u32 add_str(char *strs, u32 *slen, const char *s)
{
	u32 off = *slen;

	if (!*s)
		return 0;
	strcpy(strs + off, s);
	*slen += strlen(s) + 1;
	return off;
}

/*
 * A blob as libbpf lays one out: a @hdr_len-byte header, @tlen bytes of
 * types and @xlen more, @nr_layout entries of layout_tab, @slen of strings.
 */
static u8 *wrap(u32 hdr_len, const void *types, u32 tlen, const void *more,
		u32 xlen, u32 nr_layout, const void *strs, u32 slen, u32 *size)
{
	u32 llen = nr_layout * 4, i;
	u8 *p;

	tlen += xlen;
	*size = hdr_len + tlen + llen + slen;
	p = calloc(1, *size);	/* exactly sized, for ASan */
	if (!p)
		abort();
	put32(p, BTF_MAGIC | BTF_VERSION << 16);
	put32(p + F_HDR_LEN, hdr_len);
	put32(p + F_TYPE_LEN, tlen);
	put32(p + F_STR_OFF, tlen + llen);
	put32(p + F_STR_LEN, slen);
	if (hdr_len >= 32) {
		put32(p + F_LAYOUT_OFF, tlen);
		put32(p + F_LAYOUT_LEN, llen);
	}
	memcpy(p + hdr_len, types, tlen - xlen);
	memcpy(p + hdr_len + tlen - xlen, more, xlen);
	for (i = 0; i < nr_layout; i++)
		memcpy(p + hdr_len + tlen + 4 * i, layout_tab[i], 2);
	memcpy(p + hdr_len + tlen + llen, strs, slen);
	return p;
}

static void build(struct blob *b, const struct shape *sh)
{
	static u8 types[8192];
	static char strs[4096];
	u32 tlen = 0, slen = 1, id, i, nw;
	const struct rec *r;

	strs[0] = '\0';
	for (id = 1; id < sh->end; id++) {
		r = &hand[id];
		b->rec[id] = sh->hdr_len + tlen;
		put32(types + tlen, add_str(strs, &slen, r->name));
		put32(types + tlen + 4, r->kflag << 31 | r->kind << 24 | r->vlen);
		put32(types + tlen + 8, r->st);
		tlen += 12;
		nw = (layout_tab[r->kind][0] + r->vlen * layout_tab[r->kind][1]) / 4;
		for (i = 0; i < nw; i++, tlen += 4)
			put32(types + tlen, r->w[i].s ?
			      add_str(strs, &slen, r->w[i].s) : r->w[i].v);
	}
	b->p = wrap(sh->hdr_len, types, tlen, "", 0, sh->nr_layout, strs,
		    slen, &b->size);
	b->types = sh->hdr_len;
	b->layout = b->types + tlen;
	b->strs = b->layout + sh->nr_layout * 4;
}

/* ---------------------------------------------------------------- */
/* Queries, run against every shape                                 */

struct desc {
	u32 kind, size;
	int sgn, is_bool;
	const char *name;
	u32 ptr_kind;
	const char *ptr_name;
};

#define D_VOID			{ MSL_BTF_KIND_VOID, 0, 0, 0, "void", 0, "" }
#define D_PTR(pk, pn)		{ BTF_KIND_PTR, 8, 0, 0, "", pk, pn }
#define D(kind, size, sgn, name) { kind, size, sgn, 0, name, 0, "" }

static const char *check_desc(const struct msl_btf_type_desc *d,
			      const struct desc *w, const char *what)
{
	CHECK(d->kind == w->kind && d->size == w->size &&
	      d->is_signed == !!w->sgn && d->is_bool == !!w->is_bool &&
	      d->ptr_kind == w->ptr_kind && !strcmp(d->name, w->name) &&
	      !strcmp(d->ptr_name, w->ptr_name),
	      "%s: kind %u size %u signed %d bool %d '%s' ptr %u '%s', want %u %u %d %d '%s' %u '%s'",
	      what, d->kind, d->size, d->is_signed, d->is_bool, d->name,
	      d->ptr_kind, d->ptr_name, w->kind, w->size, w->sgn, w->is_bool,
	      w->name, w->ptr_kind, w->ptr_name);
	return NULL;
}

enum { Q_FIND, Q_DESC, Q_MEMBER, Q_PROTO, Q_ENUM, Q_FIELD };

static const struct query {
	int op;
	u32 need;		/* a record only some shapes have; 0: none */
	const char *s, *f;	/* name; the field of Q_FIELD */
	u32 id, n;		/* type id or kind; after, max params or size */
	int sgn;
	const char *ptr;
	int err;
	s64 v;			/* id found, enumerator, nr of params */
	u32 bo, bits;
	const char *why;
	struct desc d[3];	/* Q_DESC: d[0]; Q_PROTO: return, params */
} queries[] = {
#define FIND(nm, k, after, want) \
	{ Q_FIND, (want) > 0 ? (want) : 0, nm, .id = k, .n = after, .v = want }
	FIND("foo", BTF_KIND_STRUCT, 0, H_FOO), FIND("foo", BTF_KIND_UNION, 0, -ENOENT),
	FIND("nosuch", BTF_KIND_STRUCT, 0, -ENOENT), FIND("unsigned int", BTF_KIND_INT, 0, H_UINT),
	FIND("unsigned int", BTF_KIND_INT, H_UINT, H_UINT3), FIND("fwdstruct", BTF_KIND_FWD, 0, H_FWD),
	FIND("myvar", BTF_KIND_VAR, 0, H_VAR), FIND(".data", BTF_KIND_DATASEC, 0, H_DATASEC),
	FIND("tag", MSL_BTF_KIND_DECL_TAG, 0, H_DECL_TAG), FIND("double", BTF_KIND_FLOAT, 0, H_FLOAT),
	FIND("user", MSL_BTF_KIND_TYPE_TAG, 0, H_TYPE_TAG), FIND("_Bool", BTF_KIND_INT, 0, H_BOOL),
	FIND("big", MSL_BTF_KIND_ENUM64, 0, H_ENUM64_BIG), FIND("mystery", K_MYSTERY, 0, H_MYSTERY),
	FIND("riddle", K_RIDDLE, 0, H_RIDDLE), FIND("after", BTF_KIND_STRUCT, 0, H_AFTER),
	FIND("myfunc", BTF_KIND_FUNC, H_FUNC, H_FUNC_DUP_SAME),
#define DESC(tid, e, ...) { Q_DESC, tid, .id = tid, .err = e, .d = { __VA_ARGS__ } }
	DESC(0, 0, D_VOID), DESC(H_S8, 0, D(BTF_KIND_INT, 1, 1, "signed char")),
	DESC(H_UINT, 0, D(BTF_KIND_INT, 4, 0, "unsigned int")),
	DESC(H_BOOL, 0, { BTF_KIND_INT, 1, 0, 1, "_Bool", 0, "" }),
	DESC(H_CONST, 0, D(BTF_KIND_INT, 4, 1, "int")),
	DESC(H_RESTRICT, 0, D_PTR(BTF_KIND_STRUCT, "foo")),
	DESC(H_PTR_TAGGED, 0, D_PTR(BTF_KIND_STRUCT, "foo")),
	DESC(H_ARR2, 0, D(BTF_KIND_ARRAY, 48, 0, "")),
	DESC(H_ENUM_COLOR, 0, D(BTF_KIND_ENUM, 4, 1, "color")),
	DESC(H_ENUM_OTHER, 0, D(BTF_KIND_ENUM, 4, 0, "other")),
	DESC(H_ENUM64_BIG, 0, D(MSL_BTF_KIND_ENUM64, 8, 1, "big")),
	DESC(H_FOO, 0, D(BTF_KIND_STRUCT, 16, 0, "foo")),
	DESC(H_ANON_UNION, 0, D(BTF_KIND_UNION, 8, 0, "")),
	DESC(H_FLOAT, 0, D(BTF_KIND_FLOAT, 8, 0, "double")),
	DESC(H_FWD, 0, D(BTF_KIND_FWD, 0, 0, "fwdstruct")),
	DESC(H_VAR, 0, D(BTF_KIND_VAR, 0, 0, "myvar")),
	DESC(H_DATASEC, 0, D(BTF_KIND_DATASEC, 4, 0, ".data")),
	DESC(H_DECL_TAG, 0, D(MSL_BTF_KIND_DECL_TAG, 0, 0, "tag")),
	DESC(H_MYSTERY, 0, D(K_MYSTERY, 0, 0, "mystery")),
	DESC(H_AFTER, 0, D(BTF_KIND_STRUCT, 16, 0, "after")),
	/* broken references are refused, not followed */
	DESC(H_LOOP1, -EINVAL), DESC(H_PTR_BAD, -EINVAL), DESC(ID_PAST_END, -EINVAL),
#define MEMBER(sid, nm, e, bo_, bits_) \
	{ Q_MEMBER, sid, nm, .id = sid, .err = e, .bo = bo_, .bits = bits_ }
	MEMBER(H_FOO, "a", 0, 0, 0), MEMBER(H_FOO, "b", 0, 32, 0), MEMBER(H_FOO, "c", 0, 40, 3),
	MEMBER(H_FOO, "d", 0, 43, 1), MEMBER(H_FOO, "u1", 0, 64, 0), MEMBER(H_FOO, "u2", 0, 64, 0),
	MEMBER(H_OLDBF, "x", 0, 0, 3), MEMBER(H_OLDBF, "y", 0, 3, 5), MEMBER(H_ANON_UNION, "u2", 0, 0, 0),
	MEMBER(H_AFTER, "m", 0, 64, 0), MEMBER(H_FOO, "zz", -ENOENT, 0, 0),
	MEMBER(H_INT, "a", -EINVAL, 0, 0), MEMBER(0, "a", -EINVAL, 0, 0),
	MEMBER(H_BADREF, "a", -EINVAL, 0, 0),
#define PROTO(fn, nd, max, e, nr, ...) \
	{ Q_PROTO, nd, fn, .n = max, .err = e, .v = nr, .d = { __VA_ARGS__ } }
	/* two identical FUNCs "myfunc": fine; "..." is a last void parameter */
	PROTO("myfunc", 0, 2, 0, 2, D_VOID, D_PTR(BTF_KIND_STRUCT, "foo"), D(BTF_KIND_INT, 4, 1, "int")),
	PROTO("vfunc", 0, 2, 0, 2, D(BTF_KIND_INT, 1, 1, "signed char"),
	      D_PTR(BTF_KIND_STRUCT, "foo"), D_VOID),
	PROTO("latefunc", H_LATEFUNC, 2, 0, 2, D_VOID, D_PTR(BTF_KIND_STRUCT, "foo"),
	      D(BTF_KIND_INT, 4, 1, "int")),
	PROTO("myfunc", 0, 1, -E2BIG, 2), PROTO("myfunc", 0, 0, -E2BIG, 2),
	PROTO("dupfunc", 0, 2, -ENOTUNIQ, 0), PROTO("nosuch", 0, 2, -ENOENT, 0),
#define ENUMV(nm, nd, e, val) { Q_ENUM, nd, nm, .err = e, .v = val }
	ENUMV("GREEN", 0, 0, 2), ENUMV("BLUE", 0, 0, -3), ENUMV("BIGU", 0, 0, 0xffffffffLL),
	ENUMV("HUGE", 0, 0, 0x123456789LL), ENUMV("NEG", 0, 0, -5), ENUMV("LATE", H_LATE, 0, 42),
	ENUMV("RED", 0, -ENOTUNIQ, 0), ENUMV("NOPE", 0, -ENOENT, 0),
#define FIELD(nd, st, fl, k, sz, sg, p, e, w, bo_, bits_) \
	{ Q_FIELD, nd, st, fl, k, sz, sg, p, e, 0, bo_, bits_, w }
	FIELD(0, "foo", "b", BTF_KIND_INT, 1, 1, NULL, 0, "", 32, 0),
	FIELD(0, "foo", "u2", BTF_KIND_PTR, 8, -1, "foo", 0, "", 64, 0),
	FIELD(0, "foo", "d", BTF_KIND_INT, 4, 0, NULL, 0, "", 43, 1),
	FIELD(0, "foo", "u2", BTF_KIND_PTR, 8, -1, "bar", -EOPNOTSUPP,
	      "u2: want 8-byte ptr to struct bar, have 8-byte ptr to struct foo", 0, 0),
	FIELD(0, "foo", "a", BTF_KIND_INT, 1, 1, NULL, -EOPNOTSUPP,
	      "a: want 1-byte signed int, have 4-byte signed int", 0, 0),
	FIELD(0, "foo", "a", BTF_KIND_INT, 4, 0, NULL, -EOPNOTSUPP,
	      "a: want 4-byte unsigned int, have 4-byte signed int", 0, 0),
	FIELD(0, "foo", "a", BTF_KIND_PTR, 0, -1, NULL, -EOPNOTSUPP,
	      "a: want ptr, have 4-byte signed int", 0, 0),
	FIELD(0, "foo", "zz", BTF_KIND_INT, 4, 0, NULL, -ENOENT, "no field zz in struct foo", 0, 0),
	FIELD(0, "nosuch", "a", BTF_KIND_INT, 4, 0, NULL, -ENOENT, "no struct nosuch", 0, 0),
	FIELD(0, "dup", "f", BTF_KIND_INT, 4, 1, NULL, -ENOTUNIQ,
	      "ambiguous: differing f in struct dup", 0, 0),
	FIELD(0, "same", "f", BTF_KIND_INT, 4, 1, NULL, 0, "", 0, 0),
	FIELD(0, "badoff", "g", BTF_KIND_INT, 4, 1, NULL, -EINVAL,
	      "g: bad offset 64 bits in struct badoff of 4 bytes", 0, 0),
	FIELD(0, "badoff", "l", BTF_KIND_INT, 4, 1, NULL, -EINVAL,
	      "malformed BTF for field l in struct badoff", 0, 0),
	FIELD(0, "badoff", "r", BTF_KIND_PTR, 8, -1, NULL, -EINVAL,
	      "malformed BTF for field r in struct badoff", 0, 0),
	FIELD(H_AFTER, "after", "p", BTF_KIND_PTR, 8, -1, "foo", 0, "", 0, 0),
	FIELD(H_AFTER, "after", "m", BTF_KIND_INT, 4, 1, NULL, -EOPNOTSUPP,
	      "m: want 4-byte signed int, have unknown kind", 0, 0),
};

static const char *run_query(const struct msl_btf *btf, const struct query *q,
			     const char *what)
{
	struct msl_btf_type_desc d[3];
	struct msl_btf_member m = { 0 };
	u32 id = q->id == ID_PAST_END ? btf->nr_types + 1 : q->id, nr = 0, k;
	char why[128] = "";
	int err = 0;
	s64 v = 0;

	switch (q->op) {
	case Q_FIND:
		v = msl_btf_find_next(btf, q->s, q->id, q->n);
		CHECK(v == q->v, "%s: %" PRId64, what, v);
		return NULL;
	case Q_DESC:
		err = msl_btf_describe(btf, id, d);
		nr = !err;
		break;
	case Q_MEMBER:
		err = msl_btf_member(btf, id, q->s, &m);
		break;
	case Q_PROTO:
		err = msl_btf_func_proto(btf, q->s, d, q->n ? d + 1 : NULL, q->n, &nr);
		CHECK(err != q->err || (err && err != -E2BIG) || nr == q->v,
		      "%s: %u params", what, nr);
		nr = err ? 0 : nr + 1;
		break;
	case Q_ENUM:
		err = msl_btf_enum_value(btf, q->s, &v);
		CHECK(err || v == q->v, "%s: %" PRId64, what, v);
		break;
	case Q_FIELD:
		err = msl_btf_check_field(btf, q->s, q->f, q->id, q->n, q->sgn,
					  q->ptr, &m, why, sizeof(why));
		CHECK(!strcmp(why, q->why), "%s: '%s'", what, why);
		break;
	}
	CHECK(err == q->err, "%s: %d, want %d", what, err, q->err);
	CHECK(err || (m.bit_offset == q->bo && m.bitfield_size == q->bits),
	      "%s: bit %u:%u", what, m.bit_offset, m.bitfield_size);
	for (k = 0; k < nr; k++)
		TRY(check_desc(&d[k], &q->d[k], what));
	return NULL;
}

static int cur_shape;

static const char *t_shape(void)
{
	const struct shape *sh = &shapes[cur_shape];
	struct msl_btf_member m;
	struct msl_btf btf;
	struct blob b;
	char what[64], why[16];
	u32 i;
	int err;

	build(&b, sh);
	err = msl_btf_init(&btf, b.p, b.size);
	CHECK(!err, "init %d (%s)", err, btf.error);
	CHECK(btf.nr_types == sh->end - 1 && btf.nr_layout == sh->nr_layout &&
	      btf.hdr_len == sh->hdr_len && !btf.error,
	      "%u types, %u layout entries", btf.nr_types, btf.nr_layout);
	/* what would be 7.x's layout fields are the first type's bytes */
	CHECK(sh->hdr_len != 24 || (get32(b.p + F_LAYOUT_OFF) &&
				    get32(b.p + F_LAYOUT_LEN)), "zero after h24");
	for (i = 0; i < ARRAY_SIZE(queries); i++) {
		if (queries[i].need >= sh->end && queries[i].need != ID_PAST_END)
			continue;
		snprintf(what, sizeof(what), "query %u (%s)", i,
			 queries[i].s ? queries[i].s : "");
		TRY(run_query(&btf, &queries[i], what));
	}
	err = msl_btf_check_field(&btf, "nosuch", "a", BTF_KIND_INT, 4, 0,
				  NULL, &m, why, 8);
	CHECK(err == -ENOENT && !strcmp(why, "no stru"), "truncated: '%s'", why);
	CHECK(!msl_btf_check_field(&btf, "foo", "a", BTF_KIND_INT, 4, 1, NULL,
				   NULL, NULL, 0), "NULL out and why");
	CHECK(msl_btf_init(&btf, NULL, 100) == -EINVAL && btf.error, "NULL");
	free(b.p);
	return NULL;
}

/* ---------------------------------------------------------------- */
/* Damaged blobs                                                    */

enum op {
	OP_HDR,		/* header u32 at .at = .v */
	OP_HDR_ADD,	/* header u32 at .at += .v */
	OP_BYTE,	/* byte .at of section .sec = .v (.at < 0: from its end) */
	OP_SIZE,	/* the blob is .v bytes long (< 0: that many shorter) */
	OP_INFO,	/* record .at gets kind .v (and vlen .v2 if not 0) */
	OP_NAME,	/* record .at's name_off = str_len */
	OP_TYPES_END,	/* type section ends .v bytes into record .at */
};

enum { SEC_HDR, SEC_LAYOUT, SEC_STRS, SEC_END };

static const struct bad {
	const char *name;
	int shape, op, sec, at;
	s64 v;
	u32 v2;
	int err;
	const char *why;
} bads[] = {
	{ "bad_magic", SH24, OP_BYTE, SEC_HDR, 1, 0x9f, 0, -EINVAL, "magic" },
	{ "version_2", SH24, OP_BYTE, SEC_HDR, 2, 2, 0, -EOPNOTSUPP, "version" },
	{ "flags_set", SH32U, OP_BYTE, SEC_HDR, 3, 1, 0, -EOPNOTSUPP, "flags" },
	{ "hdr_len_7", SH24, OP_HDR, 0, F_HDR_LEN, 7, 0, -EINVAL, "hdr_len" },
	/* fields past a short header read as zero: no string section */
	{ "hdr_len_16", SH24, OP_HDR, 0, F_HDR_LEN, 16, 0, -EINVAL, "string section" },
	{ "hdr_len_past_end", SH24, OP_HDR, 0, F_HDR_LEN, 1 << 30, 0, -EINVAL, "hdr_len" },
	{ "size_7", SH24, OP_SIZE, 0, 0, 7, 0, -EINVAL, "shorter" },
	{ "size_inside_h32", SH32L, OP_SIZE, 0, 0, 28, 0, -EINVAL, "hdr_len" },
	{ "cut_1_h24", SH24, OP_SIZE, 0, 0, -1, 0, -EINVAL, "string section out" },
	{ "cut_1_h32_unknown", SH32U, OP_SIZE, 0, 0, -1, 0, -EINVAL, "string section out" },
	{ "type_len_past_end", SH24, OP_HDR, 0, F_TYPE_LEN, 1 << 30, 0, -EINVAL, "type section out" },
	{ "type_off_wraps", SH24, OP_HDR, 0, F_TYPE_OFF, 0xfffffff0, 0, -EINVAL, "type section out" },
	{ "type_len_into_strings", SH24, OP_HDR_ADD, 0, F_TYPE_LEN, 4, 0, -EINVAL, "type section" },
	{ "type_len_short", SH24, OP_HDR_ADD, 0, F_TYPE_LEN, -4, 0, -EINVAL, "type section" },
	{ "types_end_in_struct", SH32U, OP_TYPES_END, 0, H_FOO, 36, 0, -EINVAL, "type section" },
	{ "types_end_in_unknown", SH32U, OP_TYPES_END, 0, H_MYSTERY, 20, 0, -EINVAL, "type section" },
	{ "str_len_past_end", SH24, OP_HDR_ADD, 0, F_STR_LEN, 1, 0, -EINVAL, "string section out" },
	{ "str_off_wraps", SH32U, OP_HDR, 0, F_STR_OFF, 0xfffffffc, 0, -EINVAL, "string section out" },
	{ "str_len_0", SH24, OP_HDR, 0, F_STR_LEN, 0, 0, -EINVAL, "string section" },
	{ "strings_unterminated", SH24, OP_BYTE, SEC_END, -1, 'x', 0, -EINVAL, "string section" },
	{ "first_string_not_empty", SH24, OP_BYTE, SEC_STRS, 0, 'x', 0, -EINVAL, "string section" },
	{ "name_off_past_strings", SH24, OP_NAME, 0, H_INT, 0, 0, -EINVAL, "type name" },
	{ "huge_vlen", SH24, OP_INFO, 0, H_FOO, BTF_KIND_STRUCT, 0xffffff, -EINVAL, "type section" },
	/* 7.x's kind and vlen are wider than 6.x's UAPI masks */
	{ "kind_33_is_not_int", SH24, OP_INFO, 0, H_INT, 33, 0, -EOPNOTSUPP, "kind" },
	{ "vlen_bit_16", SH24, OP_INFO, 0, H_FOO, BTF_KIND_STRUCT, 0x10005, -EINVAL, "type sec" },
	{ "kind_0", SH32U, OP_INFO, 0, H_INT, 0, 0, -EINVAL, "type section" },
	{ "kind_20_no_layout", SH24, OP_INFO, 0, H_INT, 20, 0, -EOPNOTSUPP, "kind" },
	{ "kind_127_no_layout", SH32, OP_INFO, 0, H_INT, 127, 0, -EOPNOTSUPP, "kind" },
	{ "kind_20_past_layout", SH32L, OP_INFO, 0, H_INT, 20, 0, -EOPNOTSUPP, "kind" },
	{ "kind_22_past_layout", SH32U, OP_INFO, 0, H_INT, 22, 0, -EOPNOTSUPP, "kind" },
	/* the layout section's kind 20 is as long as an INT when vlen is 0 */
	{ "kind_20_stepped_over", SH32U, OP_INFO, 0, H_INT, 20, 0, 0 },
	{ "layout_len_odd", SH32L, OP_HDR_ADD, 0, F_LAYOUT_LEN, -2, 0, -EINVAL, "whole number" },
	{ "layout_off_past_end", SH32L, OP_HDR, 0, F_LAYOUT_OFF, 1 << 30, 0, -EINVAL, "layout sec" },
	{ "layout_len_past_end", SH32U, OP_HDR, 0, F_LAYOUT_LEN, 1 << 30, 0, -EINVAL, "layout sec" },
	/* layout_len 0: no layout section, whatever layout_off says */
	{ "layout_off_without_len", SH32, OP_HDR, 0, F_LAYOUT_OFF, 1 << 30, 0, 0 },
	{ "layout_int_info_8", SH32L, OP_BYTE, SEC_LAYOUT, 4 * BTF_KIND_INT, 8, 0, -EINVAL, "disagrees" },
	{ "layout_struct_elem_16", SH32U, OP_BYTE, SEC_LAYOUT, 4 * BTF_KIND_STRUCT + 1, 16, 0, -EINVAL,
	  "disagrees" },
	{ "layout_unknown_info_2", SH32U, OP_BYTE, SEC_LAYOUT, 4 * K_MYSTERY, 2, 0, -EINVAL, "type sec" },
	/* flags are unused so far: ignored, as libbpf does */
	{ "layout_flags_set", SH32U, OP_BYTE, SEC_LAYOUT, 4 * K_MYSTERY + 2, 0xff, 0, 0 },
	{ "h40_unknown_field_set", SH40, OP_BYTE, SEC_HDR, 32, 1, 0, -EOPNOTSUPP, "header fields" },
	{ "h40_last_byte_set", SH40, OP_BYTE, SEC_HDR, 39, 0x80, 0, -EOPNOTSUPP, "header fields" },
};

static const struct bad *cur_bad;

static const char *t_bad(void)
{
	const struct bad *c = cur_bad;
	struct msl_btf btf;
	struct blob b;
	u32 sec[4], size, t;
	int err;

	build(&b, &shapes[c->shape]);
	sec[SEC_HDR] = 0;
	sec[SEC_LAYOUT] = b.layout;
	sec[SEC_STRS] = b.strs;
	sec[SEC_END] = b.size;
	size = b.size;
	t = c->op == OP_INFO ? get32(b.p + b.rec[c->at] + 4) : 0;
	if (c->op == OP_HDR)
		put32(b.p + c->at, (u32)c->v);
	else if (c->op == OP_HDR_ADD)
		put32(b.p + c->at, get32(b.p + c->at) + (u32)c->v);
	else if (c->op == OP_BYTE)
		b.p[sec[c->sec] + c->at] = (u8)c->v;
	else if (c->op == OP_SIZE)
		size = c->v < 0 ? size + c->v : (u32)c->v;
	else if (c->op == OP_INFO)
		put32(b.p + b.rec[c->at] + 4, (t & ~(0x7fu << 24) &
		      (c->v2 ? ~0xffffffu : ~0u)) | (u32)c->v << 24 | c->v2);
	else if (c->op == OP_NAME)
		put32(b.p + b.rec[c->at], get32(b.p + F_STR_LEN));
	else if (c->op == OP_TYPES_END)
		put32(b.p + F_TYPE_LEN, b.rec[c->at] - b.types + (u32)c->v);
	/* a shorter blob still ends where the heap block ends, for ASan */
	memmove(b.p + b.size - size, b.p, size);
	ASAN_POISON_MEMORY_REGION(b.p, b.size - size);
	err = msl_btf_init(&btf, b.p + b.size - size, size);
	ASAN_UNPOISON_MEMORY_REGION(b.p, b.size - size);
	free(b.p);
	CHECK(err == c->err, "init %d (%s), want %d", err, btf.error, c->err);
	CHECK(!err || (!btf.nr_types && !btf.types && !btf.layout &&
		       strstr(btf.error, c->why)),
	      "error '%s', want '%s' in it", btf.error, c->why);
	return NULL;
}

/* ---------------------------------------------------------------- */
/* Fuzzing                                                          */

static u64 rng_state;

static u64 rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static const char *any_name(void)
{
	static const char * const names[] = {
		"foo", "a", "b", "u2", "x", "f", "g", "dup", "myfunc", "vfunc",
		"dupfunc", "RED", "HUGE", "int", "mystery", "after", "m", "LATE",
		"scan_control", "priority", "proactive", "shrink_node",
		"NR_LRU_LISTS", "mem_cgroup", "\x01none",
	};

	return names[rng() % ARRAY_SIZE(names)];
}

static bool name_ok(const struct msl_btf *btf, const char *s)
{
	if (s >= btf->strs && s < btf->strs + btf->strs_len)
		return strnlen(s, btf->strs + btf->strs_len - s) <
		       (size_t)(btf->strs + btf->strs_len - s);
	return !strcmp(s, "void") || !strcmp(s, "");
}

/* Every entry point on a (possibly damaged) blob. */
static const char *exercise(const u8 *buf, u32 size)
{
	struct msl_btf_type_desc d, p[3];
	struct msl_btf_member m;
	struct msl_btf btf;
	u32 id, tid, i, k, nr, step;
	char why[64];
	int err;
	s64 v;

	if (msl_btf_init(&btf, buf, size))
		return NULL;
	CHECK(btf.types >= buf && btf.types + btf.types_len <= buf + size &&
	      (const u8 *)btf.strs >= buf &&
	      (const u8 *)btf.strs + btf.strs_len <= buf + size &&
	      (!btf.layout || btf.layout + 4 * btf.nr_layout <= buf + size),
	      "sections outside the blob");
	CHECK(btf.nr_types <= btf.types_len / 12, "%u types", btf.nr_types);
	for (i = 0; i <= NR_LAYOUT; i++)
		msl_btf_find(&btf, any_name(), i);
	msl_btf_enum_value(&btf, any_name(), &v);
	for (i = 0; i < 3; i++) {
		err = msl_btf_func_proto(&btf, any_name(), &d, p, 3, &nr);
		for (k = 0; (!err || err == -E2BIG) && k <= nr && k <= 3; k++)
			CHECK(name_ok(&btf, k ? p[k - 1].name : d.name) &&
			      name_ok(&btf, k ? p[k - 1].ptr_name : d.ptr_name),
			      "bad prototype names");
		msl_btf_check_field(&btf, any_name(), any_name(), rng() % 20,
				    rng() % 9, (int)(rng() % 3) - 1,
				    rng() % 2 ? any_name() : NULL, &m, why,
				    sizeof(why));
		CHECK(memchr(why, 0, sizeof(why)), "why not terminated");
	}
	/* every type of small blobs, about 16 of big ones */
	step = btf.nr_types > 64 ? btf.nr_types / 16 : 1;
	for (id = 0; id <= btf.nr_types + 1; id += step) {
		tid = id + (u32)(rng() % step);
		if (!msl_btf_describe(&btf, tid, &d))
			CHECK(tid <= btf.nr_types && name_ok(&btf, d.name) &&
			      name_ok(&btf, d.ptr_name), "described %u", tid);
		msl_btf_member(&btf, tid, any_name(), &m);
	}
	return NULL;
}

/*
 * FUZZ_ITERS copies of @base, bytes flipped or set in its first
 * @mutable_len (one in four in the header), one in three truncated; each
 * ends where its heap block does, for ASan.
 */
static const char *fuzz(const u8 *base, u32 size, u32 mutable_len, u64 seed)
{
	u32 iter, len, i, at, nflips, hl = get32(base + F_HDR_LEN);
	u8 *block = malloc(size), *b;
	const char *r = NULL;
	u64 it_seed;

	CHECK(block, "malloc");
	rng_state = seed;
	for (iter = 0; iter < FUZZ_ITERS && !r; iter++) {
		it_seed = rng_state;
		len = rng() % 3 ? size : (u32)(rng() % (size + 1));
		b = block + size - len;
		memcpy(b, base, len);
		ASAN_POISON_MEMORY_REGION(block, size - len);
		nflips = rng() % 8 + !(iter % 4);
		for (i = 0; i < nflips && len; i++) {
			at = !(iter % 4) && !i ? rng() % hl :
			     rng() % (mutable_len < len ? mutable_len : len);
			if (at < len)
				b[at] = rng() % 2 ? b[at] ^ 1u << rng() % 8 : rng();
		}
		r = exercise(b, len);
		ASAN_UNPOISON_MEMORY_REGION(block, size);
		if (r)
			r = failf("iteration %u (rng %#" PRIx64 "): %s", iter,
				  it_seed, r);
	}
	free(block);
	return r;
}

static const char *t_fuzz(void)
{
	struct blob b;
	const char *r;

	build(&b, &shapes[cur_shape]);
	r = fuzz(b.p, b.size, b.size, 0x1234567887654321ULL + cur_shape);
	free(b.p);
	return r;
}

/* ---------------------------------------------------------------- */
/* Real blobs                                                       */

static const char *real_path;	/* what pahole reads */
static u8 *real;
static u32 real_size;

static const char *init_real(struct msl_btf *btf)
{
	int err = msl_btf_init(btf, real, real_size);

	CHECK(!err, "%s: init %d (%s)", real_path, err, btf->error);
	CHECK(btf->nr_types > 10000, "%u types", btf->nr_types);
	return NULL;
}

/* The fields module/sc_layout.c reads, and how a mismatch is told. */
static const struct query sc_fields[] = {
	FIELD(0, "scan_control", "target_mem_cgroup", BTF_KIND_PTR, 8, -1, "mem_cgroup", 0, "", 0, 0),
	FIELD(0, "scan_control", "priority", BTF_KIND_INT, 1, 1, NULL, 0, "", 0, 0),
	FIELD(0, "scan_control", "nr_scanned", BTF_KIND_INT, 8, 0, NULL, 0, "", 0, 0),
	FIELD(0, "scan_control", "nr_reclaimed", BTF_KIND_INT, 8, 0, NULL, 0, "", 0, 0),
	FIELD(0, "scan_control", "nr_to_reclaim", BTF_KIND_INT, 8, 0, NULL, 0, "", 0, 0),
	FIELD(0, "scan_control", "proactive", BTF_KIND_INT, 4, 0, NULL, 0, "", 0, 1),
	FIELD(0, "scan_control", "priority", BTF_KIND_INT, 4, 1, NULL, -EOPNOTSUPP,
	      "priority: want 4-byte signed int, have 1-byte signed int", 0, 0),
	FIELD(0, "scan_control", "target_mem_cgroup", BTF_KIND_PTR, 8, -1, "lruvec", -EOPNOTSUPP,
	      "target_mem_cgroup: want 8-byte ptr to struct lruvec, "
	      "have 8-byte ptr to struct mem_cgroup", 0, 0),
	FIELD(0, "scan_control", "no_such_field", BTF_KIND_INT, 4, 0, NULL, -ENOENT,
	      "no field no_such_field in struct scan_control", 0, 0),
};

/*
 * Every member of struct scan_control that pahole prints must be where
 * the reader finds it; those of sc_fields[] are noted in @bo and @bits.
 */
static const char *pahole_check(const struct msl_btf *btf, s32 sid,
				s64 *bo, u32 *bits)
{
	char cmd[512], line[512], *semi, *tok, *c, *colon;
	unsigned int off, bit, sz, want_bo, want_bits;
	struct msl_btf_type_desc d = { 0 };
	struct msl_btf_member m = { 0 };
	int n = 0, err;
	FILE *f;
	u32 i;

	snprintf(cmd, sizeof(cmd), "pahole -F btf -C scan_control '%s' 2>/dev/null",
		 real_path);
	f = popen(cmd, "r");
	CHECK(f, "popen");
	while (fgets(line, sizeof(line), f)) {
		semi = strchr(line, ';');
		c = strstr(line, "/*");
		if (line[0] != '\t' || line[1] == '\t' || !semi || !c || c < semi)
			continue;
		*semi = '\0';
		tok = strrchr(line, ' ') ? strrchr(line, ' ') + 1 : line + 1;
		tok += strspn(tok, "*");
		bit = 0;
		if (strpbrk(tok, "()[") ||
		    (sscanf(c, "/* %u: %u %u", &off, &bit, &sz) != 3 &&
		     sscanf(c, "/* %u %u", &off, &sz) != 2))
			continue;
		colon = strchr(tok, ':');
		if (colon)
			*colon = '\0';
		want_bo = off * 8 + (colon ? bit : 0);
		want_bits = colon ? (u32)atoi(colon + 1) : 0;
		err = msl_btf_member(btf, sid, tok, &m);
		err = err ?: msl_btf_describe(btf, m.type_id, &d);
		if (err || m.bit_offset != want_bo || m.bitfield_size != want_bits ||
		    d.size != sz) {
			pclose(f);
			return failf("%s: %d, bit %u:%u size %u, pahole says %u:%u %u",
				     tok, err, m.bit_offset, m.bitfield_size,
				     d.size, want_bo, want_bits, sz);
		}
		n++;
		for (i = 0; i < ARRAY_SIZE(sc_fields); i++)
			if (!strcmp(tok, sc_fields[i].f)) {
				bo[i] = want_bo;
				bits[i] = want_bits;
			}
	}
	pclose(f);
	CHECK(n >= 10, "pahole -C scan_control %s listed %d members (pahole installed?)",
	      real_path, n);
	return NULL;
}

static const char *t_real_scan_control(void)
{
	u32 bits[ARRAY_SIZE(sc_fields)] = { 0 }, i;
	s64 bo[ARRAY_SIZE(sc_fields)] = { 0 };
	struct msl_btf_member m;
	struct msl_btf btf;
	char why[160];
	s32 sid;
	int err;

	TRY(init_real(&btf));
	sid = msl_btf_find(&btf, "scan_control", BTF_KIND_STRUCT);
	CHECK(sid > 0 && msl_btf_find_next(&btf, "scan_control", BTF_KIND_STRUCT,
					   sid) == -ENOENT, "not one struct scan_control");
	TRY(pahole_check(&btf, sid, bo, bits));
	for (i = 0; i < ARRAY_SIZE(sc_fields); i++) {
		const struct query *q = &sc_fields[i];

		err = msl_btf_check_field(&btf, q->s, q->f, q->id, q->n, q->sgn,
					  q->ptr, &m, why, sizeof(why));
		CHECK(err == q->err && !strcmp(why, q->why), "%s: %d '%s'", q->f, err, why);
		CHECK(err || (bo[i] == m.bit_offset && bits[i] == m.bitfield_size &&
			      bits[i] == q->bits), "%s: bit %u:%u, pahole says %" PRId64 ":%u",
		      q->f, m.bit_offset, m.bitfield_size, bo[i], bits[i]);
	}
	return NULL;
}

/* The prototypes module/sc_layout.c checks, the enumerators it reads. */
static const struct query real_queries[] = {
	PROTO("shrink_node", 0, 2, 0, 2, D_VOID, D_PTR(BTF_KIND_STRUCT, "pglist_data"),
	      D_PTR(BTF_KIND_STRUCT, "scan_control")),
	PROTO("shrink_lruvec", 0, 2, 0, 2, D_VOID, D_PTR(BTF_KIND_STRUCT, "lruvec"),
	      D_PTR(BTF_KIND_STRUCT, "scan_control")),
	PROTO("shrink_node", 0, 1, -E2BIG, 2), PROTO("msl_no_such_function", 0, 1, -ENOENT, 0),
	ENUMV("LRU_INACTIVE_ANON", 0, 0, 0), ENUMV("LRU_ACTIVE_ANON", 0, 0, 1),
	ENUMV("LRU_INACTIVE_FILE", 0, 0, 2), ENUMV("LRU_ACTIVE_FILE", 0, 0, 3),
	ENUMV("LRU_UNEVICTABLE", 0, 0, 4),
	ENUMV("NR_LRU_LISTS", 0, 0, 5), ENUMV("MSL_NO_SUCH_ENUMERATOR", 0, -ENOENT, 0),
	ENUMV("BPF_F_CTXLEN_MASK", 0, 0, (s64)BPF_F_CTXLEN_MASK),	/* an ENUM64 */
};

static const char *t_real_queries(void)
{
	struct msl_btf btf;
	char what[64];
	s64 young, old;
	u32 i;
	int err;

	TRY(init_real(&btf));
	for (i = 0; i < ARRAY_SIZE(real_queries); i++) {
		snprintf(what, sizeof(what), "%s", real_queries[i].s);
		TRY(run_query(&btf, &real_queries[i], what));
	}
	/* anonymous, so in the BTF of some kernels only: absent, or OLD + 1 */
	err = msl_btf_enum_value(&btf, "MEMCG_LRU_YOUNG", &young);
	CHECK(err == -ENOENT || (!err && !msl_btf_enum_value(&btf, "MEMCG_LRU_OLD", &old) &&
				 young == old + 1), "MEMCG_LRU_YOUNG: %d", err);
	return NULL;
}

/*
 * The real blob re-wrapped in a 32-byte header with a layout section and
 * a record of an unknown kind appended, then in a 40-byte zero-padded
 * header: the reader must see the same.
 */
static const char *t_real_rewrap(void)
{
	static const u32 mystery[] = { 0, K_MYSTERY << 24 | 1, 0, 7, 8, 9 };
	struct msl_btf_member m[2];
	struct msl_btf btf[2];
	char why[2][160];
	int pass, err, e[2], k;
	u32 size, i;
	u8 *p;

	TRY(init_real(&btf[0]));
	for (pass = 0; pass < 2; pass++) {
		p = wrap(pass ? 40 : 32, btf[0].types, btf[0].types_len, mystery,
			 pass ? 0 : sizeof(mystery), pass ? 0 : NR_LAYOUT,
			 btf[0].strs, btf[0].strs_len, &size);
		err = msl_btf_init(&btf[1], p, size);
		CHECK(!err, "pass %d: init %d (%s)", pass, err, btf[1].error);
		CHECK(btf[1].nr_types == btf[0].nr_types + !pass &&
		      (pass || msl_btf_find(&btf[1], "", K_MYSTERY) ==
		       (s32)btf[1].nr_types), "pass %d: %u types", pass,
		      btf[1].nr_types);
		for (i = 0; i < ARRAY_SIZE(sc_fields); i++) {
			const struct query *q = &sc_fields[i];

			memset(m, 0, sizeof(m));
			for (k = 0; k < 2; k++)
				e[k] = msl_btf_check_field(&btf[k], q->s, q->f, q->id,
							   q->n, q->sgn, q->ptr,
							   &m[k], why[k], 160);
			CHECK(e[0] == e[1] && !memcmp(&m[0], &m[1], sizeof(m[0])) &&
			      !strcmp(why[0], why[1]), "pass %d: %s differs: '%s'",
			      pass, q->f, why[1]);
		}
		free(p);
	}
	return NULL;
}

static const char *t_real_exercise(void)
{
	return exercise(real, real_size);
}

/* Its types in the first 64 KiB and all its strings, in a 24-byte header. */
static const char *t_real_fuzz(void)
{
	struct msl_btf btf, full;
	u32 cut, size = 0;
	const char *r;
	u8 *b = NULL;

	TRY(init_real(&full));
	for (cut = REAL_PREFIX - 24; cut > 0; cut -= 4) {
		free(b);
		b = wrap(24, full.types, cut, "", 0, 0, full.strs,
			 full.strs_len, &size);
		if (!msl_btf_init(&btf, b, size))
			break;
	}
	CHECK(cut && btf.nr_types > 100, "cannot cut the real blob");
	r = fuzz(b, size, REAL_PREFIX, 0x0ddc0ffee0ddf00dULL);
	free(b);
	return r;
}

/* The file at @path, or (@elf) its .BTF section, into real, real_size. */
static bool load(const char *path, bool elf)
{
	char tmp[] = "/tmp/msl-btf-XXXXXX", cmd[600];
	struct stat st;
	int fd = -1;
	FILE *f;

	real = NULL;
	real_size = 0;
	if (elf) {
		fd = mkstemp(tmp);
		snprintf(cmd, sizeof(cmd), "objcopy -O binary --only-section=.BTF '%s' '%s'",
			 path, tmp);
		path = fd >= 0 && !system(cmd) ? tmp : NULL;
	}
	f = path ? fopen(path, "rb") : NULL;
	if (f && !fstat(fileno(f), &st) && (real = malloc(st.st_size + 1)))
		real_size = fread(real, 1, st.st_size, f);
	if (f)
		fclose(f);
	if (fd >= 0) {
		unlink(tmp);
		close(fd);
	}
	return real_size;
}

/* Blobs matching @pattern, raw or (@elf) .BTF sections; SKIP if none. */
static void run_reals(const char *pattern, bool elf, const char *what)
{
	static const struct {
		const char *name;
		const char *(*fn)(void);
	} cases[] = {
		{ "scan_control", t_real_scan_control }, { "queries", t_real_queries },
		{ "rewrap", t_real_rewrap }, { "exercise", t_real_exercise },
		{ "fuzz", t_real_fuzz },
	};
	char label[256], name[300];
	const char *k;
	glob_t g;
	size_t i, c;

	if (glob(pattern, 0, NULL, &g)) {
		printf("RESULT SKIP unit/btf/%s no %s\n", what, pattern);
		return;
	}
	for (i = 0; i < g.gl_pathc; i++) {
		real_path = g.gl_pathv[i];
		/* the kernel release in the path names the cases */
		k = strstr(real_path, elf ? "/modules/" : "/btf-");
		if (!k)
			snprintf(label, sizeof(label), "%s", what);
		else if (elf)
			snprintf(label, sizeof(label), "%.*s", (int)strcspn(k + 9, "/"), k + 9);
		else
			snprintf(label, sizeof(label), "raw_%s", k + 5);
		if (!load(real_path, elf)) {
			printf("RESULT FAIL unit/btf/%s cannot read the BTF of %s\n",
			       label, real_path);
			continue;
		}
		/* fuzzing one blob of each kind is enough */
		for (c = 0; c < ARRAY_SIZE(cases) - (elf || i); c++) {
			snprintf(name, sizeof(name), "%s_%s", label, cases[c].name);
			run_case(name, cases[c].fn);
		}
		free(real);
	}
	globfree(&g);
}

int main(void)
{
	const char *dir = getenv("MSL_BTF_DIR");
	char name[300];
	u32 i;

	for (cur_shape = 0; cur_shape < (int)ARRAY_SIZE(shapes); cur_shape++) {
		snprintf(name, sizeof(name), "%s", shapes[cur_shape].name);
		run_case(name, t_shape);
	}
	for (i = 0; i < ARRAY_SIZE(bads); i++) {
		cur_bad = &bads[i];
		snprintf(name, sizeof(name), "bad_%s", bads[i].name);
		run_case(name, t_bad);
	}
	cur_shape = SH24;
	run_case("h24_fuzz", t_fuzz);
	cur_shape = SH32U;
	run_case("h32_unknown_fuzz", t_fuzz);

	run_reals("/sys/kernel/btf/vmlinux", false, "host");
	run_reals("/lib/modules/*/build/vmlinux", true, "build_vmlinux");
	snprintf(name, sizeof(name), "%s/btf-*", dir ? dir : "/var/cache/memcg-softlimit/btf");
	run_reals(name, false, "raw_debian");
	return 0;
}
