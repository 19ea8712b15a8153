// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for module/btf.c (the raw-BTF reader), built in userspace
 * (the Makefile builds it with ASan/UBSan, and UBSan is made fatal here).
 *
 * Each case runs in a forked child, so a crash or a sanitizer report
 * becomes "RESULT FAIL unit/btf/<case> <why>" instead of ending the run.
 * Prints one RESULT line per case and always exits 0.
 *
 * Real blobs: /sys/kernel/btf/vmlinux, and the .BTF section of every
 * /lib/modules/<kver>/build/vmlinux (Debian's headers ship one for 6.12).
 * Offsets and enumerators are cross-checked against pahole run on the
 * same file.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <glob.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/bpf.h>

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#else
#define ASAN_POISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#define ASAN_UNPOISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#endif

#include <memcg_softlimit/btf.h>

#define FUZZ_ITERS	2000
#define REAL_PREFIX	(64 * 1024)

/* When built with -fsanitize=undefined: stop at the first report. */
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
	return "halt_on_error=1:print_stacktrace=1";
}

/* ---------------------------------------------------------------- */
/* Case runner                                                      */

static char reason[1024];

static const char *failf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	return reason;
}

#define CHECK(cond, ...)					\
	do {							\
		if (!(cond))					\
			return failf(__VA_ARGS__);		\
	} while (0)

typedef const char *(*case_fn)(void);

static void run_case(const char *name, case_fn fn)
{
	char buf[1100];
	size_t len = 0;
	ssize_t n;
	int pfd[2], status;
	pid_t pid;

	fflush(stdout);
	if (pipe(pfd)) {
		printf("RESULT FAIL unit/btf/%s pipe failed\n", name);
		return;
	}
	pid = fork();
	if (pid < 0) {
		printf("RESULT FAIL unit/btf/%s fork failed\n", name);
		close(pfd[0]);
		close(pfd[1]);
		return;
	}
	if (pid == 0) {
		const char *r;
		char out[1100];
		size_t l, off = 0;

		close(pfd[0]);
		alarm(60);	/* a hang (e.g. a reference loop) fails the case */
		r = fn();
		l = (size_t)snprintf(out, sizeof(out), "R%s", r ? r : "");
		if (l >= sizeof(out))
			l = sizeof(out) - 1;
		while (off < l) {
			n = write(pfd[1], out + off, l - off);
			if (n <= 0)
				break;
			off += (size_t)n;
		}
		_exit(0);
	}
	close(pfd[1]);
	while (len < sizeof(buf) - 1 &&
	       (n = read(pfd[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0)
		;
	for (size_t i = 0; i < len; i++)
		if (buf[i] == '\n' || buf[i] == '\r')
			buf[i] = ' ';
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && buf[0] == 'R') {
		if (buf[1])
			printf("RESULT FAIL unit/btf/%s %s\n", name, buf + 1);
		else
			printf("RESULT PASS unit/btf/%s\n", name);
	} else if (WIFSIGNALED(status)) {
		printf("RESULT FAIL unit/btf/%s killed by signal %d (%s)\n",
		       name, WTERMSIG(status),
		       WTERMSIG(status) == SIGALRM ? "hung for 60 s" :
		       strsignal(WTERMSIG(status)));
	} else {
		printf("RESULT FAIL unit/btf/%s exited with status %d (sanitizer report on stderr?)\n",
		       name, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
	fflush(stdout);
}

/* ---------------------------------------------------------------- */
/* Hand-built blob                                                  */

static u32 hand_off[64];	/* offset of each hand-built record */

struct bb {
	u8 types[8192];
	u32 tlen;
	char strs[4096];
	u32 slen;
	u32 nr;
};

static u32 bb_str(struct bb *b, const char *s)
{
	u32 off = b->slen;
	size_t l = strlen(s) + 1;

	if (!*s)
		return 0;
	if (b->slen + l > sizeof(b->strs))
		abort();
	memcpy(b->strs + b->slen, s, l);
	b->slen += (u32)l;
	return off;
}

static void bb_u32(struct bb *b, u32 v)
{
	if (b->tlen + 4 > sizeof(b->types))
		abort();
	memcpy(b->types + b->tlen, &v, 4);
	b->tlen += 4;
}

/* Starts a type record; returns its id. */
static u32 bb_type(struct bb *b, const char *name, u32 kind, u32 vlen,
		   int kflag, u32 size_or_type)
{
	if (b->nr + 1 < sizeof(hand_off) / sizeof(hand_off[0]))
		hand_off[b->nr + 1] = b->tlen;
	bb_u32(b, bb_str(b, name));
	bb_u32(b, ((u32)!!kflag << 31) | (kind << 24) | vlen);
	bb_u32(b, size_or_type);
	return ++b->nr;
}

static void bb_member(struct bb *b, const char *name, u32 type, u32 off)
{
	bb_u32(b, bb_str(b, name));
	bb_u32(b, type);
	bb_u32(b, off);
}

static void bb_pair(struct bb *b, const char *name, u32 val)
{
	bb_u32(b, bb_str(b, name));
	bb_u32(b, val);
}

static u8 *bb_finish(const struct bb *b, u32 *size)
{
	struct btf_header h = {
		.magic = BTF_MAGIC,
		.version = BTF_VERSION,
		.hdr_len = sizeof(h),
		.type_off = 0,
		.type_len = b->tlen,
		.str_off = b->tlen,
		.str_len = b->slen,
	};
	u8 *p;

	*size = (u32)sizeof(h) + b->tlen + b->slen;
	p = malloc(*size);
	if (!p)
		abort();
	memcpy(p, &h, sizeof(h));
	memcpy(p + sizeof(h), b->types, b->tlen);
	memcpy(p + sizeof(h) + b->tlen, b->strs, b->slen);
	return p;
}

/* Type ids of the hand-built blob. */
enum {
	H_INT = 1, H_UINT, H_SCHAR, H_S8_INNER, H_S8, H_PTR_FOO, H_FOO,
	H_ANON_UNION, H_OLDBF, H_UINT3, H_UINT5_OFF3, H_ARR, H_ARR2,
	H_ENUM_COLOR, H_ENUM64_BIG, H_FWD, H_VOLATILE, H_CONST, H_RESTRICT,
	H_PROTO, H_FUNC, H_VAR, H_DATASEC, H_FLOAT, H_DECL_TAG, H_TYPE_TAG,
	H_PTR_TAGGED, H_PROTO_VA, H_FUNC_VA, H_FUNC_DUP_SAME, H_DUPFUNC1,
	H_DUPFUNC2, H_ENUM_OTHER, H_DUP1, H_DUP2, H_SAME1, H_SAME2, H_BADOFF,
	H_LOOP1, H_LOOP2, H_PTR_BAD, H_BADREF, H_BOOL, H_NR_TYPES = H_BOOL
};

static u8 *hand_blob(u32 *size)
{
	static struct bb b;
	u32 id;

	memset(&b, 0, sizeof(b));
	b.slen = 1;	/* "" at offset 0 */

#define EXPECT_ID(x) do { if (id != (x)) abort(); } while (0)
	id = bb_type(&b, "int", BTF_KIND_INT, 0, 0, 4);
	bb_u32(&b, (BTF_INT_SIGNED << 24) | 32);
	EXPECT_ID(H_INT);
	id = bb_type(&b, "unsigned int", BTF_KIND_INT, 0, 0, 4);
	bb_u32(&b, 32);
	EXPECT_ID(H_UINT);
	id = bb_type(&b, "signed char", BTF_KIND_INT, 0, 0, 1);
	bb_u32(&b, (BTF_INT_SIGNED << 24) | 8);
	EXPECT_ID(H_SCHAR);
	id = bb_type(&b, "__s8", BTF_KIND_TYPEDEF, 0, 0, H_SCHAR);
	EXPECT_ID(H_S8_INNER);
	id = bb_type(&b, "s8", BTF_KIND_TYPEDEF, 0, 0, H_S8_INNER);
	EXPECT_ID(H_S8);
	id = bb_type(&b, "", BTF_KIND_PTR, 0, 0, H_FOO);
	EXPECT_ID(H_PTR_FOO);
	/* struct foo { int a; s8 b; unsigned c:3, d:1; union { int u1; struct foo *u2; }; } */
	id = bb_type(&b, "foo", BTF_KIND_STRUCT, 5, 1, 16);
	bb_member(&b, "a", H_INT, 0);
	bb_member(&b, "b", H_S8, 32);
	bb_member(&b, "c", H_UINT, (3u << 24) | 40);
	bb_member(&b, "d", H_UINT, (1u << 24) | 43);
	bb_member(&b, "", H_ANON_UNION, 64);
	EXPECT_ID(H_FOO);
	id = bb_type(&b, "", BTF_KIND_UNION, 2, 0, 8);
	bb_member(&b, "u1", H_INT, 0);
	bb_member(&b, "u2", H_PTR_FOO, 0);
	EXPECT_ID(H_ANON_UNION);
	/* Old bitfield encoding (kind_flag 0): bits in the INT. */
	id = bb_type(&b, "oldbf", BTF_KIND_STRUCT, 2, 0, 4);
	bb_member(&b, "x", H_UINT3, 0);
	bb_member(&b, "y", H_UINT5_OFF3, 0);
	EXPECT_ID(H_OLDBF);
	id = bb_type(&b, "unsigned int", BTF_KIND_INT, 0, 0, 4);
	bb_u32(&b, 3);
	EXPECT_ID(H_UINT3);
	id = bb_type(&b, "unsigned int", BTF_KIND_INT, 0, 0, 4);
	bb_u32(&b, (3u << 16) | 5);
	EXPECT_ID(H_UINT5_OFF3);
	id = bb_type(&b, "", BTF_KIND_ARRAY, 0, 0, 0);
	bb_u32(&b, H_INT);	/* type */
	bb_u32(&b, H_UINT);	/* index_type */
	bb_u32(&b, 4);		/* nelems */
	EXPECT_ID(H_ARR);
	id = bb_type(&b, "", BTF_KIND_ARRAY, 0, 0, 0);
	bb_u32(&b, H_ARR);
	bb_u32(&b, H_UINT);
	bb_u32(&b, 3);
	EXPECT_ID(H_ARR2);
	id = bb_type(&b, "color", BTF_KIND_ENUM, 3, 1, 4);
	bb_pair(&b, "RED", (u32)-1);
	bb_pair(&b, "GREEN", 2);
	bb_pair(&b, "BLUE", (u32)-3);
	EXPECT_ID(H_ENUM_COLOR);
	id = bb_type(&b, "big", MSL_BTF_KIND_ENUM64, 2, 1, 8);
	bb_member(&b, "HUGE", 0x23456789, 0x1);	/* name, lo32, hi32 */
	bb_member(&b, "NEG", (u32)-5, (u32)-1);
	EXPECT_ID(H_ENUM64_BIG);
	id = bb_type(&b, "fwdstruct", BTF_KIND_FWD, 0, 0, 0);
	EXPECT_ID(H_FWD);
	id = bb_type(&b, "", BTF_KIND_VOLATILE, 0, 0, H_INT);
	EXPECT_ID(H_VOLATILE);
	id = bb_type(&b, "", BTF_KIND_CONST, 0, 0, H_VOLATILE);
	EXPECT_ID(H_CONST);
	id = bb_type(&b, "", BTF_KIND_RESTRICT, 0, 0, H_PTR_FOO);
	EXPECT_ID(H_RESTRICT);
	/* void myfunc(struct foo *restrict p, const volatile int v) */
	id = bb_type(&b, "", BTF_KIND_FUNC_PROTO, 2, 0, 0);
	bb_pair(&b, "p", H_RESTRICT);
	bb_pair(&b, "v", H_CONST);
	EXPECT_ID(H_PROTO);
	id = bb_type(&b, "myfunc", BTF_KIND_FUNC, 0, 0, H_PROTO);
	EXPECT_ID(H_FUNC);
	id = bb_type(&b, "myvar", BTF_KIND_VAR, 0, 0, H_INT);
	bb_u32(&b, 1);		/* linkage */
	EXPECT_ID(H_VAR);
	id = bb_type(&b, ".data", BTF_KIND_DATASEC, 1, 0, 4);
	bb_u32(&b, H_VAR);
	bb_u32(&b, 0);
	bb_u32(&b, 4);
	EXPECT_ID(H_DATASEC);
	id = bb_type(&b, "double", BTF_KIND_FLOAT, 0, 0, 8);
	EXPECT_ID(H_FLOAT);
	id = bb_type(&b, "tag", MSL_BTF_KIND_DECL_TAG, 0, 0, H_FOO);
	bb_u32(&b, (u32)-1);
	EXPECT_ID(H_DECL_TAG);
	id = bb_type(&b, "user", MSL_BTF_KIND_TYPE_TAG, 0, 0, H_FOO);
	EXPECT_ID(H_TYPE_TAG);
	id = bb_type(&b, "", BTF_KIND_PTR, 0, 0, H_TYPE_TAG);
	EXPECT_ID(H_PTR_TAGGED);
	/* s8 vfunc(struct foo __user *x, ...) */
	id = bb_type(&b, "", BTF_KIND_FUNC_PROTO, 2, 0, H_S8);
	bb_pair(&b, "x", H_PTR_TAGGED);
	bb_pair(&b, "", 0);
	EXPECT_ID(H_PROTO_VA);
	id = bb_type(&b, "vfunc", BTF_KIND_FUNC, 0, 0, H_PROTO_VA);
	EXPECT_ID(H_FUNC_VA);
	id = bb_type(&b, "myfunc", BTF_KIND_FUNC, 0, 0, H_PROTO);
	EXPECT_ID(H_FUNC_DUP_SAME);
	id = bb_type(&b, "dupfunc", BTF_KIND_FUNC, 0, 0, H_PROTO);
	EXPECT_ID(H_DUPFUNC1);
	id = bb_type(&b, "dupfunc", BTF_KIND_FUNC, 0, 0, H_PROTO_VA);
	EXPECT_ID(H_DUPFUNC2);
	id = bb_type(&b, "other", BTF_KIND_ENUM, 2, 0, 4);
	bb_pair(&b, "RED", 7);
	bb_pair(&b, "BIGU", 0xffffffffu);
	EXPECT_ID(H_ENUM_OTHER);
	id = bb_type(&b, "dup", BTF_KIND_STRUCT, 1, 0, 4);
	bb_member(&b, "f", H_INT, 0);
	EXPECT_ID(H_DUP1);
	id = bb_type(&b, "dup", BTF_KIND_STRUCT, 1, 0, 8);
	bb_member(&b, "f", H_INT, 32);
	EXPECT_ID(H_DUP2);
	id = bb_type(&b, "same", BTF_KIND_STRUCT, 1, 0, 4);
	bb_member(&b, "f", H_INT, 0);
	EXPECT_ID(H_SAME1);
	id = bb_type(&b, "same", BTF_KIND_STRUCT, 1, 0, 4);
	bb_member(&b, "f", H_INT, 0);
	EXPECT_ID(H_SAME2);
	id = bb_type(&b, "badoff", BTF_KIND_STRUCT, 3, 0, 4);
	bb_member(&b, "g", H_INT, 64);
	bb_member(&b, "l", H_LOOP1, 0);
	bb_member(&b, "r", H_PTR_BAD, 0);
	EXPECT_ID(H_BADOFF);
	id = bb_type(&b, "loop1", BTF_KIND_TYPEDEF, 0, 0, H_LOOP2);
	EXPECT_ID(H_LOOP1);
	id = bb_type(&b, "loop2", BTF_KIND_TYPEDEF, 0, 0, H_LOOP1);
	EXPECT_ID(H_LOOP2);
	id = bb_type(&b, "", BTF_KIND_PTR, 0, 0, 9999);
	EXPECT_ID(H_PTR_BAD);
	/* member name offset past the string section: found lazily */
	id = bb_type(&b, "badref", BTF_KIND_STRUCT, 1, 0, 4);
	bb_u32(&b, 0xfffff);
	bb_u32(&b, H_INT);
	bb_u32(&b, 0);
	EXPECT_ID(H_BADREF);
	id = bb_type(&b, "_Bool", BTF_KIND_INT, 0, 0, 1);
	bb_u32(&b, (BTF_INT_BOOL << 24) | 8);
	EXPECT_ID(H_BOOL);
#undef EXPECT_ID
	return bb_finish(&b, size);
}

static const char *check_desc(const struct msl_btf_type_desc *d,
			      const char *what, u32 kind, u32 size,
			      int is_signed, const char *name, u32 ptr_kind,
			      const char *ptr_name)
{
	CHECK(d->kind == kind, "%s: kind %u, want %u", what, d->kind, kind);
	CHECK(d->size == size, "%s: size %u, want %u", what, d->size, size);
	CHECK(is_signed < 0 || d->is_signed == !!is_signed,
	      "%s: signed %d, want %d", what, d->is_signed, is_signed);
	CHECK(d->name && !strcmp(d->name, name), "%s: name '%s', want '%s'",
	      what, d->name ? d->name : "(null)", name);
	CHECK(d->ptr_kind == ptr_kind, "%s: ptr_kind %u, want %u", what,
	      d->ptr_kind, ptr_kind);
	CHECK(d->ptr_name && !strcmp(d->ptr_name, ptr_name),
	      "%s: ptr_name '%s', want '%s'", what,
	      d->ptr_name ? d->ptr_name : "(null)", ptr_name);
	return NULL;
}

#define CHECK_DESC(...)						\
	do {							\
		const char *_r = check_desc(__VA_ARGS__);	\
		if (_r)						\
			return _r;				\
	} while (0)

static const char *t_hand_kinds(void)
{
	struct msl_btf btf;
	struct msl_btf_type_desc d;
	u32 size;
	u8 *blob = hand_blob(&size);
	int ret;

	ret = msl_btf_init(&btf, blob, size);
	CHECK(ret == 0, "init: %d", ret);
	CHECK(btf.nr_types == H_NR_TYPES, "nr_types %u, want %u",
	      btf.nr_types, H_NR_TYPES);

	CHECK(msl_btf_find(&btf, "foo", BTF_KIND_STRUCT) == H_FOO, "find foo");
	CHECK(msl_btf_find(&btf, "foo", BTF_KIND_UNION) == -ENOENT,
	      "find union foo");
	CHECK(msl_btf_find(&btf, "nosuch", BTF_KIND_STRUCT) == -ENOENT,
	      "find nosuch");
	CHECK(msl_btf_find(&btf, "unsigned int", BTF_KIND_INT) == H_UINT,
	      "find unsigned int");
	CHECK(msl_btf_find_next(&btf, "unsigned int", BTF_KIND_INT, H_UINT) ==
	      H_UINT3, "find_next unsigned int");
	CHECK(msl_btf_find(&btf, "fwdstruct", BTF_KIND_FWD) == H_FWD, "fwd");
	CHECK(msl_btf_find(&btf, "myvar", BTF_KIND_VAR) == H_VAR, "var");
	CHECK(msl_btf_find(&btf, ".data", BTF_KIND_DATASEC) == H_DATASEC,
	      "datasec");
	CHECK(msl_btf_find(&btf, "tag", MSL_BTF_KIND_DECL_TAG) == H_DECL_TAG,
	      "decl_tag");
	CHECK(msl_btf_find(&btf, "user", MSL_BTF_KIND_TYPE_TAG) == H_TYPE_TAG,
	      "type_tag");
	CHECK(msl_btf_find(&btf, "big", MSL_BTF_KIND_ENUM64) == H_ENUM64_BIG,
	      "enum64");
	CHECK(msl_btf_find(&btf, "double", BTF_KIND_FLOAT) == H_FLOAT,
	      "float");

	ret = msl_btf_describe(&btf, 0, &d);
	CHECK(!ret, "describe void: %d", ret);
	CHECK_DESC(&d, "void", MSL_BTF_KIND_VOID, 0, 0, "void", 0, "");
	ret = msl_btf_describe(&btf, H_S8, &d);
	CHECK(!ret, "describe s8: %d", ret);
	CHECK_DESC(&d, "s8", BTF_KIND_INT, 1, 1, "signed char", 0, "");
	ret = msl_btf_describe(&btf, H_UINT, &d);
	CHECK(!ret, "describe uint: %d", ret);
	CHECK_DESC(&d, "uint", BTF_KIND_INT, 4, 0, "unsigned int", 0, "");
	ret = msl_btf_describe(&btf, H_BOOL, &d);
	CHECK(!ret && d.is_bool && !d.is_signed && d.size == 1, "bool");
	ret = msl_btf_describe(&btf, H_CONST, &d);
	CHECK(!ret, "describe const volatile: %d", ret);
	CHECK_DESC(&d, "cv int", BTF_KIND_INT, 4, 1, "int", 0, "");
	ret = msl_btf_describe(&btf, H_RESTRICT, &d);
	CHECK(!ret, "describe restrict: %d", ret);
	CHECK_DESC(&d, "restrict ptr", BTF_KIND_PTR, 8, 0, "",
		   BTF_KIND_STRUCT, "foo");
	ret = msl_btf_describe(&btf, H_PTR_TAGGED, &d);
	CHECK(!ret, "describe tagged ptr: %d", ret);
	CHECK_DESC(&d, "tagged ptr", BTF_KIND_PTR, 8, 0, "",
		   BTF_KIND_STRUCT, "foo");
	ret = msl_btf_describe(&btf, H_ARR2, &d);
	CHECK(!ret, "describe int[3][4]: %d", ret);
	CHECK_DESC(&d, "int[3][4]", BTF_KIND_ARRAY, 48, 0, "", 0, "");
	ret = msl_btf_describe(&btf, H_ENUM_COLOR, &d);
	CHECK(!ret, "describe enum: %d", ret);
	CHECK_DESC(&d, "enum", BTF_KIND_ENUM, 4, 1, "color", 0, "");
	ret = msl_btf_describe(&btf, H_ENUM_OTHER, &d);
	CHECK(!ret && !d.is_signed, "unsigned enum: %d", ret);
	ret = msl_btf_describe(&btf, H_ENUM64_BIG, &d);
	CHECK(!ret, "describe enum64: %d", ret);
	CHECK_DESC(&d, "enum64", MSL_BTF_KIND_ENUM64, 8, 1, "big", 0, "");
	ret = msl_btf_describe(&btf, H_FOO, &d);
	CHECK(!ret, "describe foo: %d", ret);
	CHECK_DESC(&d, "foo", BTF_KIND_STRUCT, 16, 0, "foo", 0, "");
	ret = msl_btf_describe(&btf, H_ANON_UNION, &d);
	CHECK(!ret, "describe union: %d", ret);
	CHECK_DESC(&d, "union", BTF_KIND_UNION, 8, 0, "", 0, "");
	ret = msl_btf_describe(&btf, H_FLOAT, &d);
	CHECK(!ret, "describe float: %d", ret);
	CHECK_DESC(&d, "float", BTF_KIND_FLOAT, 8, 0, "double", 0, "");
	ret = msl_btf_describe(&btf, H_FWD, &d);
	CHECK(!ret && d.kind == BTF_KIND_FWD && d.size == 0, "fwd: %d", ret);
	ret = msl_btf_describe(&btf, H_VAR, &d);
	CHECK(!ret && d.kind == BTF_KIND_VAR, "var: %d", ret);
	ret = msl_btf_describe(&btf, H_DATASEC, &d);
	CHECK(!ret && d.kind == BTF_KIND_DATASEC && d.size == 4,
	      "datasec: %d", ret);
	ret = msl_btf_describe(&btf, H_DECL_TAG, &d);
	CHECK(!ret && d.kind == MSL_BTF_KIND_DECL_TAG, "decl_tag: %d", ret);

	/* Broken references are refused, not followed. */
	ret = msl_btf_describe(&btf, H_LOOP1, &d);
	CHECK(ret == -EINVAL, "typedef loop: %d", ret);
	ret = msl_btf_describe(&btf, H_PTR_BAD, &d);
	CHECK(ret == -EINVAL, "ptr to type 9999: %d", ret);
	ret = msl_btf_describe(&btf, H_NR_TYPES + 1, &d);
	CHECK(ret == -EINVAL, "type past the end: %d", ret);
	free(blob);
	return NULL;
}

static const char *t_hand_members(void)
{
	static const struct {
		u32 sid;
		const char *name;
		u32 bit_offset, bitfield_size;
	} want[] = {
		{ H_FOO, "a", 0, 0 },
		{ H_FOO, "b", 32, 0 },
		{ H_FOO, "c", 40, 3 },
		{ H_FOO, "d", 43, 1 },
		{ H_FOO, "u1", 64, 0 },	/* inside the anonymous union */
		{ H_FOO, "u2", 64, 0 },
		{ H_OLDBF, "x", 0, 3 },	/* kind_flag 0: bits in the INT */
		{ H_OLDBF, "y", 3, 5 },
		{ H_ANON_UNION, "u2", 0, 0 },
	};
	struct msl_btf btf;
	struct msl_btf_member m;
	u32 size, i;
	u8 *blob = hand_blob(&size);
	int ret;

	CHECK(!msl_btf_init(&btf, blob, size), "init");
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		ret = msl_btf_member(&btf, want[i].sid, want[i].name, &m);
		CHECK(!ret, "member %s: %d", want[i].name, ret);
		CHECK(m.bit_offset == want[i].bit_offset &&
		      m.bitfield_size == want[i].bitfield_size,
		      "member %s: bit %u:%u, want %u:%u", want[i].name,
		      m.bit_offset, m.bitfield_size, want[i].bit_offset,
		      want[i].bitfield_size);
	}
	CHECK(msl_btf_member(&btf, H_FOO, "zz", &m) == -ENOENT, "no member");
	CHECK(msl_btf_member(&btf, H_INT, "a", &m) == -EINVAL, "not a struct");
	CHECK(msl_btf_member(&btf, 0, "a", &m) == -EINVAL, "id 0");
	CHECK(msl_btf_member(&btf, H_BADREF, "a", &m) == -EINVAL,
	      "member name offset past the strings");
	free(blob);
	return NULL;
}

static const char *t_hand_func_proto(void)
{
	struct msl_btf btf;
	struct msl_btf_type_desc ret, p[4];
	u32 size, nr = 99;
	u8 *blob = hand_blob(&size);
	int err;

	CHECK(!msl_btf_init(&btf, blob, size), "init");
	/* two identical FUNCs "myfunc": fine */
	err = msl_btf_func_proto(&btf, "myfunc", &ret, p, 4, &nr);
	CHECK(!err, "myfunc: %d", err);
	CHECK(nr == 2, "myfunc: %u params", nr);
	CHECK_DESC(&ret, "myfunc ret", MSL_BTF_KIND_VOID, 0, 0, "void", 0, "");
	CHECK_DESC(&p[0], "myfunc p", BTF_KIND_PTR, 8, 0, "",
		   BTF_KIND_STRUCT, "foo");
	CHECK_DESC(&p[1], "myfunc v", BTF_KIND_INT, 4, 1, "int", 0, "");

	err = msl_btf_func_proto(&btf, "vfunc", &ret, p, 4, &nr);
	CHECK(!err, "vfunc: %d", err);
	CHECK(nr == 2, "vfunc: %u params", nr);
	CHECK_DESC(&ret, "vfunc ret", BTF_KIND_INT, 1, 1, "signed char", 0,
		   "");
	CHECK_DESC(&p[0], "vfunc x", BTF_KIND_PTR, 8, 0, "",
		   BTF_KIND_STRUCT, "foo");
	CHECK_DESC(&p[1], "vfunc ...", MSL_BTF_KIND_VOID, 0, 0, "void", 0,
		   "");

	nr = 0;
	err = msl_btf_func_proto(&btf, "myfunc", &ret, p, 1, &nr);
	CHECK(err == -E2BIG && nr == 2, "max_params 1: %d, nr %u", err, nr);
	err = msl_btf_func_proto(&btf, "myfunc", &ret, NULL, 0, &nr);
	CHECK(err == -E2BIG && nr == 2, "max_params 0: %d, nr %u", err, nr);
	err = msl_btf_func_proto(&btf, "dupfunc", &ret, p, 4, &nr);
	CHECK(err == -ENOTUNIQ, "dupfunc: %d", err);
	err = msl_btf_func_proto(&btf, "nosuch", &ret, p, 4, &nr);
	CHECK(err == -ENOENT, "nosuch: %d", err);
	free(blob);
	return NULL;
}

static const char *t_hand_enum(void)
{
	struct msl_btf btf;
	u32 size;
	u8 *blob = hand_blob(&size);
	s64 v = 0;
	int err;

	CHECK(!msl_btf_init(&btf, blob, size), "init");
	err = msl_btf_enum_value(&btf, "GREEN", &v);
	CHECK(!err && v == 2, "GREEN: %d %" PRId64, err, v);
	err = msl_btf_enum_value(&btf, "BLUE", &v);
	CHECK(!err && v == -3, "BLUE (signed enum): %d %" PRId64, err, v);
	err = msl_btf_enum_value(&btf, "BIGU", &v);
	CHECK(!err && v == 0xffffffffLL, "BIGU (unsigned enum): %d %" PRId64,
	      err, v);
	err = msl_btf_enum_value(&btf, "HUGE", &v);
	CHECK(!err && v == 0x123456789LL, "HUGE (enum64): %d %" PRIx64, err,
	      (u64)v);
	err = msl_btf_enum_value(&btf, "NEG", &v);
	CHECK(!err && v == -5, "NEG (signed enum64): %d %" PRId64, err, v);
	err = msl_btf_enum_value(&btf, "RED", &v);
	CHECK(err == -ENOTUNIQ, "RED is -1 and 7: %d", err);
	err = msl_btf_enum_value(&btf, "NOPE", &v);
	CHECK(err == -ENOENT, "NOPE: %d", err);
	free(blob);
	return NULL;
}

static const char *t_hand_check_field(void)
{
	struct msl_btf btf;
	struct msl_btf_member m;
	char why[128];
	u32 size;
	u8 *blob = hand_blob(&size);
	int err;

	CHECK(!msl_btf_init(&btf, blob, size), "init");
	err = msl_btf_check_field(&btf, "foo", "b", BTF_KIND_INT, 1, 1, NULL,
				  &m, why, sizeof(why));
	CHECK(!err && m.bit_offset == 32 && !why[0], "foo.b: %d '%s'", err,
	      why);
	err = msl_btf_check_field(&btf, "foo", "u2", BTF_KIND_PTR, 8, -1,
				  "foo", &m, why, sizeof(why));
	CHECK(!err && m.bit_offset == 64, "foo.u2: %d '%s'", err, why);
	err = msl_btf_check_field(&btf, "foo", "d", BTF_KIND_INT, 4, 0, NULL,
				  &m, why, sizeof(why));
	CHECK(!err && m.bit_offset == 43 && m.bitfield_size == 1,
	      "foo.d: %d '%s'", err, why);

	err = msl_btf_check_field(&btf, "foo", "u2", BTF_KIND_PTR, 8, -1,
				  "bar", &m, why, sizeof(why));
	CHECK(err == -EOPNOTSUPP &&
	      !strcmp(why, "u2: want 8-byte ptr to struct bar, have 8-byte ptr to struct foo"),
	      "foo.u2 as bar *: %d '%s'", err, why);
	err = msl_btf_check_field(&btf, "foo", "a", BTF_KIND_INT, 1, 1, NULL,
				  &m, why, sizeof(why));
	CHECK(err == -EOPNOTSUPP &&
	      !strcmp(why, "a: want 1-byte signed int, have 4-byte signed int"),
	      "foo.a as s8: %d '%s'", err, why);
	err = msl_btf_check_field(&btf, "foo", "a", BTF_KIND_INT, 4, 0, NULL,
				  &m, why, sizeof(why));
	CHECK(err == -EOPNOTSUPP &&
	      !strcmp(why, "a: want 4-byte unsigned int, have 4-byte signed int"),
	      "foo.a as u32: %d '%s'", err, why);
	err = msl_btf_check_field(&btf, "foo", "a", BTF_KIND_PTR, 0, -1, NULL,
				  &m, why, sizeof(why));
	CHECK(err == -EOPNOTSUPP && !strcmp(why, "a: want ptr, have 4-byte signed int"),
	      "foo.a as ptr: %d '%s'", err, why);
	err = msl_btf_check_field(&btf, "foo", "zz", BTF_KIND_INT, 4, 0, NULL,
				  &m, why, sizeof(why));
	CHECK(err == -ENOENT && !strcmp(why, "no field zz in struct foo"),
	      "foo.zz: %d '%s'", err, why);
	err = msl_btf_check_field(&btf, "nosuch", "a", BTF_KIND_INT, 4, 0,
				  NULL, &m, why, sizeof(why));
	CHECK(err == -ENOENT && !strcmp(why, "no struct nosuch"),
	      "nosuch.a: %d '%s'", err, why);
	err = msl_btf_check_field(&btf, "dup", "f", BTF_KIND_INT, 4, 1, NULL,
				  &m, why, sizeof(why));
	CHECK(err == -ENOTUNIQ, "dup.f (differing structs): %d '%s'", err,
	      why);
	err = msl_btf_check_field(&btf, "same", "f", BTF_KIND_INT, 4, 1, NULL,
				  &m, why, sizeof(why));
	CHECK(!err, "same.f (identical structs): %d '%s'", err, why);
	err = msl_btf_check_field(&btf, "badoff", "g", BTF_KIND_INT, 4, 1,
				  NULL, &m, why, sizeof(why));
	CHECK(err == -EINVAL && why[0], "badoff.g (past the end): %d '%s'",
	      err, why);
	err = msl_btf_check_field(&btf, "badoff", "l", BTF_KIND_INT, 4, 1,
				  NULL, &m, why, sizeof(why));
	CHECK(err == -EINVAL && why[0], "badoff.l (typedef loop): %d '%s'",
	      err, why);
	err = msl_btf_check_field(&btf, "badoff", "r", BTF_KIND_PTR, 8, -1,
				  NULL, &m, why, sizeof(why));
	CHECK(err == -EINVAL && why[0], "badoff.r (bad ptr): %d '%s'", err,
	      why);
	/* truncated message, NULL message and NULL out */
	err = msl_btf_check_field(&btf, "nosuch", "a", BTF_KIND_INT, 4, 0,
				  NULL, &m, why, 8);
	CHECK(err == -ENOENT && !strcmp(why, "no stru"), "truncation: '%s'",
	      why);
	err = msl_btf_check_field(&btf, "foo", "a", BTF_KIND_INT, 4, 1, NULL,
				  NULL, NULL, 0);
	CHECK(!err, "NULL out/why: %d", err);
	err = msl_btf_check_field(&btf, "nosuch", "a", BTF_KIND_INT, 4, 1,
				  NULL, NULL, NULL, 0);
	CHECK(err == -ENOENT, "NULL out/why, missing: %d", err);
	free(blob);
	return NULL;
}

static struct btf_header *hdr_of(u8 *blob)
{
	return (struct btf_header *)blob;
}

static const char *t_hand_malformed(void)
{
	struct msl_btf btf;
	u32 size, n;
	u8 *good = hand_blob(&size);
	u8 *b = malloc(size);
	u32 types_at = sizeof(struct btf_header);
	struct btf_type t;
	int err;

	CHECK(b, "malloc");
#define RESET() memcpy(b, good, size)
#define REFUSED_WITH(want, len, what)					\
	do {								\
		err = msl_btf_init(&btf, b, (len));			\
		CHECK(err == (want), "%s: init %d", what, err);		\
		CHECK(btf.nr_types == 0 && !btf.types && btf.error,	\
		      "%s: struct not cleared", what);			\
	} while (0)
#define REFUSED(len, what) REFUSED_WITH(-EINVAL, len, what)

	RESET();
	err = msl_btf_init(&btf, b, size);
	CHECK(!err, "good blob refused: %d", err);

	RESET();
	hdr_of(b)->magic = 0x9feb;
	REFUSED(size, "byte-swapped magic");
	RESET();
	hdr_of(b)->version = 2;
	REFUSED_WITH(-EOPNOTSUPP, size, "version 2");
	RESET();
	hdr_of(b)->hdr_len = 8;
	REFUSED(size, "hdr_len 8");
	RESET();
	hdr_of(b)->hdr_len = size + 4;
	REFUSED(size, "hdr_len past the end");
	RESET();
	hdr_of(b)->type_len += 4;
	REFUSED(size, "type section past the end");
	RESET();
	hdr_of(b)->type_off = 0xfffffff0;
	REFUSED(size, "type_off overflow");
	RESET();
	hdr_of(b)->str_len += 1;
	REFUSED(size, "string section past the end");
	RESET();
	hdr_of(b)->str_len = 0;
	REFUSED(size, "empty string section");
	RESET();
	b[size - 1] = 'x';
	REFUSED(size, "string section not NUL-terminated");
	RESET();
	b[types_at + hdr_of(b)->str_off] = 'x';
	REFUSED(size, "first string not empty");
	RESET();
	REFUSED(sizeof(struct btf_header) - 1, "shorter than the header");
	err = msl_btf_init(&btf, NULL, 100);
	CHECK(err == -EINVAL, "NULL data: %d", err);
	RESET();
	REFUSED(size - 1, "truncated by one byte");

	/* truncated type: cut the type section in the middle of struct foo */
	RESET();
	hdr_of(b)->type_len = hand_off[H_FOO] + 12 + 2 * 12;
	REFUSED(size, "type section ends inside a record");
	RESET();
	hdr_of(b)->type_len -= 4;
	REFUSED(size, "type section ends inside the last record");

	/* string offset past the end, in the first type */
	RESET();
	memcpy(&t, b + types_at, sizeof(t));
	t.name_off = hdr_of(b)->str_len;
	memcpy(b + types_at, &t, sizeof(t));
	REFUSED(size, "name_off == str_len");
	/* unknown kinds: 20, 31, and 0 */
	for (n = 0; n < 3; n++) {
		static const u32 kinds[] = { 20, 31, 0 };

		RESET();
		memcpy(&t, b + types_at, sizeof(t));
		t.info = (t.info & ~(0x1fu << 24)) | (kinds[n] << 24);
		memcpy(b + types_at, &t, sizeof(t));
		REFUSED_WITH(kinds[n] ? -EOPNOTSUPP : -EINVAL, size,
			     "unknown kind");
	}
	/* a vlen that runs past the type section */
	RESET();
	memcpy(&t, b + types_at + hand_off[H_FOO], sizeof(t));
	CHECK(BTF_INFO_KIND(t.info) == BTF_KIND_STRUCT, "layout changed");
	t.info |= 0xffff;
	memcpy(b + types_at + hand_off[H_FOO], &t, sizeof(t));
	REFUSED(size, "huge vlen");
#undef RESET
#undef REFUSED
#undef REFUSED_WITH
	free(b);
	free(good);
	return NULL;
}

/* ---------------------------------------------------------------- */
/* Fuzzing                                                          */

static u64 rng_state = 0x9e3779b97f4a7c15ULL;

static u64 rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static const char *names[] = {
	"foo", "a", "b", "c", "d", "u1", "u2", "x", "y", "f", "g", "dup",
	"same", "myfunc", "vfunc", "dupfunc", "RED", "GREEN", "HUGE", "int",
	"scan_control", "priority", "nr_to_reclaim", "proactive",
	"shrink_node", "NR_LRU_LISTS", "mem_cgroup", "\x01none",
};

#define NR_NAMES (sizeof(names) / sizeof(names[0]))

static bool name_ok(const struct msl_btf *btf, const char *s)
{
	if (!s)
		return false;
	if (s >= btf->strs && s < btf->strs + btf->strs_len)
		return strlen(s) < (size_t)(btf->strs + btf->strs_len - s);
	return !strcmp(s, "void") || !strcmp(s, "");
}

/* Use every entry point on a (possibly corrupted) blob. */
static const char *exercise(const u8 *buf, u32 size)
{
	struct msl_btf btf;
	struct msl_btf_type_desc d, ret, p[3];
	struct msl_btf_member m;
	char why[64];
	u32 id, i, k, nr, step;
	s64 v;
	int err;

	if (msl_btf_init(&btf, buf, size))
		return NULL;
	CHECK(btf.types >= buf && btf.types + btf.types_len <= buf + size &&
	      (const u8 *)btf.strs >= buf &&
	      (const u8 *)btf.strs + btf.strs_len <= buf + size,
	      "sections outside the blob");
	CHECK(btf.nr_types <= btf.types_len / 12, "nr_types %u too big",
	      btf.nr_types);
	/* full walks */
	for (k = 0; k < MSL_BTF_NR_KINDS + 1; k++)
		msl_btf_find(&btf, names[rng() % NR_NAMES], k);
	msl_btf_enum_value(&btf, names[rng() % NR_NAMES], &v);
	msl_btf_enum_value(&btf, "\x01none", &v);
	for (i = 0; i < 3; i++) {
		err = msl_btf_func_proto(&btf, names[rng() % NR_NAMES], &ret,
					 p, 3, &nr);
		if (!err || err == -E2BIG) {
			CHECK(name_ok(&btf, ret.name) &&
			      name_ok(&btf, ret.ptr_name), "bad ret name");
			for (k = 0; k < nr && k < 3; k++)
				CHECK(name_ok(&btf, p[k].name) &&
				      name_ok(&btf, p[k].ptr_name),
				      "bad param name");
		}
		msl_btf_check_field(&btf, names[rng() % NR_NAMES],
				    names[rng() % NR_NAMES],
				    (u32)(rng() % 20), (u32)(rng() % 9),
				    (int)(rng() % 3) - 1,
				    rng() % 2 ? names[rng() % NR_NAMES] : NULL,
				    &m, why, sizeof(why));
		CHECK(memchr(why, 0, sizeof(why)), "why not terminated");
	}
	/* every type of small blobs, about 16 of big ones */
	step = btf.nr_types > 64 ? btf.nr_types / 16 : 1;
	for (id = 0; id <= btf.nr_types + 1; id += step) {
		u32 tid = step > 1 ? id + (u32)(rng() % step) : id;

		err = msl_btf_describe(&btf, tid, &d);
		if (tid > btf.nr_types)
			CHECK(err == -EINVAL, "describe past the end: %d", err);
		if (!err)
			CHECK(name_ok(&btf, d.name) &&
			      name_ok(&btf, d.ptr_name), "bad desc name");
		msl_btf_member(&btf, tid, names[rng() % NR_NAMES], &m);
		msl_btf_member(&btf, tid, "\x01none", &m);
	}
	return NULL;
}

/*
 * FUZZ_ITERS mutated copies of @base: random byte flips or sets within
 * the first @mutable_len bytes (and often in the header), and one time
 * in three a truncation.  Each copy ends exactly at the end of its heap
 * block, so ASan reports any read past it; the unused front of the block
 * is poisoned too.
 */
static const char *fuzz(const u8 *base, u32 size, u32 mutable_len,
			u64 seed)
{
	u32 iter, len, nflips, i;
	const char *r = NULL;
	u8 *block, *b;

	block = malloc(size ? size : 1);
	if (!block)
		return "malloc failed";
	rng_state = seed;
	for (iter = 0; iter < FUZZ_ITERS && !r; iter++) {
		u64 it_seed = rng_state;

		len = size;
		if (rng() % 3 == 0)
			len = (u32)(rng() % (size + 1));
		b = block + (size - len);
		memcpy(b, base, len);
		ASAN_POISON_MEMORY_REGION(block, size - len);
		nflips = (u32)(rng() % 8);
		if (iter % 4 == 0 && len >= sizeof(struct btf_header))
			nflips++;	/* also hit the header often */
		for (i = 0; i < nflips && len; i++) {
			u32 lim = mutable_len < len ? mutable_len : len;
			u32 at = iter % 4 == 0 && i == 0 ?
				 (u32)(rng() % sizeof(struct btf_header)) :
				 (u32)(rng() % lim);

			if (at >= len)
				continue;
			if (rng() % 2)
				b[at] ^= (u8)(1u << (rng() % 8));
			else
				b[at] = (u8)rng();
		}
		r = exercise(b, len);
		ASAN_UNPOISON_MEMORY_REGION(block, size);
		if (r)
			r = failf("iteration %u (rng state %#" PRIx64 "): %s",
				  iter, it_seed, r);
	}
	free(block);
	return r;
}

static const char *t_fuzz_hand(void)
{
	u32 size;
	u8 *blob = hand_blob(&size);
	const char *r = fuzz(blob, size, size, 0x1234567887654321ULL);

	free(blob);
	return r;
}

/* ---------------------------------------------------------------- */
/* Real blobs                                                       */

struct real_blob {
	char label[128];	/* for case names */
	char path[256];		/* what pahole reads */
	u8 *data;
	u32 size;
	const char *load_err;
};

static struct real_blob *cur;

static u8 *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 20, len = 0, n;
	u8 *p = NULL, *np;

	if (!f)
		return NULL;
	for (;;) {
		np = realloc(p, cap);
		if (!np)
			break;
		p = np;
		n = fread(p + len, 1, cap - len, f);
		len += n;
		if (len < cap)
			break;
		cap *= 2;
	}
	fclose(f);
	*size = len;
	return p;
}

/* The .BTF section of an ELF64 vmlinux, copied. */
static u8 *elf_btf(const u8 *elf, size_t size, u32 *out_size)
{
	const Elf64_Ehdr *eh = (const void *)elf;
	const Elf64_Shdr *sh, *strsh;
	u8 *p;
	u32 i;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(*sh) || eh->e_shoff > size ||
	    (size - eh->e_shoff) / sizeof(*sh) < eh->e_shnum ||
	    eh->e_shstrndx >= eh->e_shnum)
		return NULL;
	sh = (const void *)(elf + eh->e_shoff);
	strsh = &sh[eh->e_shstrndx];
	for (i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_name >= strsh->sh_size ||
		    strsh->sh_offset + sh[i].sh_name + 5 > size ||
		    memcmp(elf + strsh->sh_offset + sh[i].sh_name, ".BTF", 5))
			continue;
		if (sh[i].sh_offset > size || sh[i].sh_size > size - sh[i].sh_offset)
			return NULL;
		p = malloc(sh[i].sh_size);
		if (!p)
			return NULL;
		memcpy(p, elf + sh[i].sh_offset, sh[i].sh_size);
		*out_size = (u32)sh[i].sh_size;
		return p;
	}
	return NULL;
}

static void load_real(struct real_blob *rb, bool is_elf)
{
	size_t size = 0;
	u8 *raw = read_file(rb->path, &size);

	if (!raw) {
		rb->load_err = "cannot read";
		return;
	}
	if (!is_elf) {
		rb->data = raw;
		rb->size = (u32)size;
		return;
	}
	rb->data = elf_btf(raw, size, &rb->size);
	free(raw);
	if (!rb->data)
		rb->load_err = "no .BTF section";
}

static const char *init_cur(struct msl_btf *btf)
{
	int err;

	if (cur->load_err)
		return failf("%s: %s", cur->path, cur->load_err);
	err = msl_btf_init(btf, cur->data, cur->size);
	if (err)
		return failf("%s: msl_btf_init %d", cur->path, err);
	return NULL;
}

#define INIT_CUR(btf)						\
	do {							\
		const char *_r = init_cur(btf);			\
		if (_r)						\
			return _r;				\
	} while (0)

struct pahole_member {
	char name[64];
	u32 offset, bit, bits, size;
};

/* Top-level members of "struct @sname" as printed by pahole. */
static int pahole_struct(const char *path, const char *sname,
			 struct pahole_member *pm, int max)
{
	char cmd[512], line[512];
	FILE *f;
	int n = 0;

	snprintf(cmd, sizeof(cmd), "pahole -F btf -C '%s' '%s' 2>/dev/null",
		 sname, path);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *semi, *cm, *tok, *colon, *q;
		unsigned int off, bit = 0, sz;

		if (line[0] != '\t' || line[1] == '\t')
			continue;
		semi = strchr(line, ';');
		cm = strstr(line, "/*");
		if (!semi || !cm || cm < semi)
			continue;
		*semi = '\0';
		tok = strrchr(line, ' ');
		tok = tok ? tok + 1 : line + 1;
		while (*tok == '*')
			tok++;
		if (!*tok || strpbrk(tok, "()[}"))
			continue;
		q = cm + 2;
		if (sscanf(q, "%u", &off) != 1)
			continue;
		while (*q == ' ')
			q++;
		while (*q >= '0' && *q <= '9')
			q++;
		if (*q == ':') {
			if (sscanf(q + 1, "%u %u", &bit, &sz) != 2)
				continue;
		} else if (sscanf(q, "%u", &sz) != 1) {
			continue;
		}
		if (n >= max)
			break;
		memset(&pm[n], 0, sizeof(pm[n]));
		colon = strchr(tok, ':');
		if (colon) {
			*colon = '\0';
			pm[n].bits = (u32)atoi(colon + 1);
		}
		snprintf(pm[n].name, sizeof(pm[n].name), "%.63s", tok);
		pm[n].offset = off;
		pm[n].bit = bit;
		pm[n].size = sz;
		n++;
	}
	if (pclose(f) != 0 && n == 0)
		return -1;
	return n;
}

static const char *t_real_init(void)
{
	struct msl_btf btf;

	INIT_CUR(&btf);
	CHECK(btf.nr_types > 10000, "only %u types", btf.nr_types);
	CHECK(msl_btf_find(&btf, "task_struct", BTF_KIND_STRUCT) > 0,
	      "no struct task_struct");
	return NULL;
}

/* Every top-level member of scan_control against pahole. */
static const char *t_real_pahole(void)
{
	struct pahole_member pm[128];
	struct msl_btf btf;
	struct msl_btf_member m;
	struct msl_btf_type_desc d;
	s32 sid;
	int n, i, err;

	INIT_CUR(&btf);
	n = pahole_struct(cur->path, "scan_control", pm, 128);
	CHECK(n > 0, "pahole -C scan_control %s gave nothing (pahole installed?)",
	      cur->path);
	CHECK(n >= 10, "pahole listed only %d members", n);
	sid = msl_btf_find(&btf, "scan_control", BTF_KIND_STRUCT);
	CHECK(sid > 0, "no struct scan_control: %d", sid);
	CHECK(msl_btf_find_next(&btf, "scan_control", BTF_KIND_STRUCT, sid) ==
	      -ENOENT, "several struct scan_control");
	for (i = 0; i < n; i++) {
		u32 want = pm[i].offset * 8 + (pm[i].bits ? pm[i].bit : 0);

		err = msl_btf_member(&btf, sid, pm[i].name, &m);
		CHECK(!err, "member %s: %d", pm[i].name, err);
		CHECK(m.bit_offset == want && m.bitfield_size == pm[i].bits,
		      "%s: bit %u:%u, pahole says %u:%u", pm[i].name,
		      m.bit_offset, m.bitfield_size, want, pm[i].bits);
		err = msl_btf_describe(&btf, m.type_id, &d);
		CHECK(!err, "describe %s: %d", pm[i].name, err);
		CHECK(d.size == pm[i].size, "%s: size %u, pahole says %u",
		      pm[i].name, d.size, pm[i].size);
	}
	return NULL;
}

static const char *find_pm(struct pahole_member *pm, int n, const char *name,
			   u32 *bit_offset, u32 *bits)
{
	int i;

	for (i = 0; i < n; i++) {
		if (strcmp(pm[i].name, name))
			continue;
		*bit_offset = pm[i].offset * 8 + (pm[i].bits ? pm[i].bit : 0);
		*bits = pm[i].bits;
		return NULL;
	}
	return failf("pahole does not list %s", name);
}

/* The fields the module uses, through msl_btf_check_field(). */
static const char *t_real_scan_control(void)
{
	static const struct {
		const char *field;
		u32 kind, size;
		int is_signed;
		const char *ptr_struct;
		u32 bitfield_size;
	} want[] = {
		{ "target_mem_cgroup", BTF_KIND_PTR, 8, -1, "mem_cgroup", 0 },
		{ "priority", BTF_KIND_INT, 1, 1, NULL, 0 },
		{ "nr_scanned", BTF_KIND_INT, 8, 0, NULL, 0 },
		{ "nr_reclaimed", BTF_KIND_INT, 8, 0, NULL, 0 },
		{ "nr_to_reclaim", BTF_KIND_INT, 8, 0, NULL, 0 },
		{ "proactive", BTF_KIND_INT, 4, 0, NULL, 1 },
	};
	struct pahole_member pm[128];
	struct msl_btf btf;
	struct msl_btf_member m;
	char why[128];
	u32 i, off = 0, bits = 0;
	int n, err;
	const char *r;

	INIT_CUR(&btf);
	n = pahole_struct(cur->path, "scan_control", pm, 128);
	CHECK(n > 0, "pahole -C scan_control %s gave nothing (pahole installed?)",
	      cur->path);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		err = msl_btf_check_field(&btf, "scan_control", want[i].field,
					  want[i].kind, want[i].size,
					  want[i].is_signed,
					  want[i].ptr_struct, &m, why,
					  sizeof(why));
		CHECK(!err, "%s: %d '%s'", want[i].field, err, why);
		CHECK(m.bitfield_size == want[i].bitfield_size,
		      "%s: bitfield_size %u, want %u", want[i].field,
		      m.bitfield_size, want[i].bitfield_size);
		r = find_pm(pm, n, want[i].field, &off, &bits);
		if (r)
			return r;
		CHECK(m.bit_offset == off && m.bitfield_size == bits,
		      "%s: bit %u:%u, pahole says %u:%u", want[i].field,
		      m.bit_offset, m.bitfield_size, off, bits);
	}
	/* priority is s8 -> __s8 -> signed char: via typedefs */
	err = msl_btf_check_field(&btf, "scan_control", "priority",
				  BTF_KIND_INT, 4, 1, NULL, &m, why,
				  sizeof(why));
	CHECK(err == -EOPNOTSUPP &&
	      !strcmp(why, "priority: want 4-byte signed int, have 1-byte signed int"),
	      "priority as int: %d '%s'", err, why);
	err = msl_btf_check_field(&btf, "scan_control", "target_mem_cgroup",
				  BTF_KIND_PTR, 8, -1, "lruvec", &m, why,
				  sizeof(why));
	CHECK(err == -EOPNOTSUPP, "target_mem_cgroup as lruvec *: %d '%s'",
	      err, why);
	err = msl_btf_check_field(&btf, "scan_control", "no_such_field",
				  BTF_KIND_INT, 4, 0, NULL, &m, why,
				  sizeof(why));
	CHECK(err == -ENOENT &&
	      !strcmp(why, "no field no_such_field in struct scan_control"),
	      "no_such_field: %d '%s'", err, why);
	return NULL;
}

static const char *check_proto(struct msl_btf *btf, const char *func,
			       const char *p0, const char *p1)
{
	struct msl_btf_type_desc ret, p[4];
	u32 nr = 0;
	int err;

	err = msl_btf_func_proto(btf, func, &ret, p, 4, &nr);
	CHECK(!err, "%s: %d", func, err);
	CHECK(nr == 2, "%s: %u params", func, nr);
	CHECK_DESC(&ret, func, MSL_BTF_KIND_VOID, 0, 0, "void", 0, "");
	CHECK_DESC(&p[0], func, BTF_KIND_PTR, 8, 0, "", BTF_KIND_STRUCT, p0);
	CHECK_DESC(&p[1], func, BTF_KIND_PTR, 8, 0, "", BTF_KIND_STRUCT, p1);
	err = msl_btf_func_proto(btf, func, &ret, p, 1, &nr);
	CHECK(err == -E2BIG && nr == 2, "%s with room for 1: %d", func, err);
	return NULL;
}

static const char *t_real_func_proto(void)
{
	struct msl_btf btf;
	struct msl_btf_type_desc ret, p[1];
	const char *r;
	u32 nr;
	int err;

	INIT_CUR(&btf);
	r = check_proto(&btf, "shrink_node", "pglist_data", "scan_control");
	if (r)
		return r;
	r = check_proto(&btf, "shrink_lruvec", "lruvec", "scan_control");
	if (r)
		return r;
	err = msl_btf_func_proto(&btf, "msl_no_such_function", &ret, p, 1,
				 &nr);
	CHECK(err == -ENOENT, "msl_no_such_function: %d", err);
	return NULL;
}

/* Enumerators against pahole's "enum lru_list", and a UAPI ENUM64. */
static const char *t_real_enum(void)
{
	struct msl_btf btf;
	char cmd[512], line[512], name[64];
	long long pv;
	s64 v, old;
	FILE *f;
	int err, n = 0;

	INIT_CUR(&btf);
	snprintf(cmd, sizeof(cmd), "pahole -F btf -C lru_list '%s' 2>/dev/null",
		 cur->path);
	f = popen(cmd, "r");
	CHECK(f, "popen");
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " %63[A-Z_] = %lld", name, &pv) != 2)
			continue;
		err = msl_btf_enum_value(&btf, name, &v);
		if (err || v != pv) {
			pclose(f);
			return failf("%s: %d %" PRId64 ", pahole says %lld",
				     name, err, v, pv);
		}
		n++;
	}
	pclose(f);
	CHECK(n >= 5, "pahole listed %d enumerators of lru_list", n);
	err = msl_btf_enum_value(&btf, "NR_LRU_LISTS", &v);
	CHECK(!err && v == 5, "NR_LRU_LISTS: %d %" PRId64, err, v);
	err = msl_btf_enum_value(&btf, "PGSCAN_KSWAPD", &v);
	CHECK(!err && v > 0, "PGSCAN_KSWAPD: %d", err);
	/* 64-bit enumerator from the UAPI */
	err = msl_btf_enum_value(&btf, "BPF_F_CTXLEN_MASK", &v);
	CHECK(!err && (u64)v == (u64)BPF_F_CTXLEN_MASK,
	      "BPF_F_CTXLEN_MASK: %d %#" PRIx64, err, (u64)v);
	err = msl_btf_enum_value(&btf, "MSL_NO_SUCH_ENUMERATOR", &v);
	CHECK(err == -ENOENT, "MSL_NO_SUCH_ENUMERATOR: %d", err);
	/*
	 * MEMCG_LRU_YOUNG is in the BTF of some kernels (Debian 6.12) and
	 * not others (it is anonymous and may be dropped): either -ENOENT
	 * or MEMCG_LRU_OLD + 1.
	 */
	err = msl_btf_enum_value(&btf, "MEMCG_LRU_YOUNG", &v);
	if (err != -ENOENT) {
		CHECK(!err, "MEMCG_LRU_YOUNG: %d", err);
		err = msl_btf_enum_value(&btf, "MEMCG_LRU_OLD", &old);
		CHECK(!err && v == old + 1, "MEMCG_LRU_YOUNG %" PRId64
		      ", MEMCG_LRU_OLD %" PRId64 " (%d)", v, old, err);
	}
	return NULL;
}

/*
 * The real blob's header and the types that fit in its first 64 KiB,
 * with its whole string section; mutations hit only the first 64 KiB.
 */
static const char *t_fuzz_real(void)
{
	struct btf_header h;
	struct msl_btf btf;
	u32 type_len, cut, total;
	u8 *b;
	const char *r;

	INIT_CUR(&btf);
	memcpy(&h, cur->data, sizeof(h));
	type_len = REAL_PREFIX - h.hdr_len;
	if (type_len > h.type_len)
		type_len = h.type_len;
	total = h.hdr_len + type_len + h.str_len;
	b = malloc(total);
	CHECK(b, "malloc");
	/* find the last record boundary within the prefix */
	for (cut = type_len & ~3u; cut > 0; cut -= 4) {
		struct btf_header nh = h;

		nh.type_off = 0;
		nh.type_len = cut;
		nh.str_off = cut;
		memcpy(b, &nh, sizeof(nh));
		memcpy(b + h.hdr_len, cur->data + h.hdr_len + h.type_off, cut);
		memcpy(b + h.hdr_len + cut,
		       cur->data + h.hdr_len + h.str_off, h.str_len);
		if (!msl_btf_init(&btf, b, h.hdr_len + cut + h.str_len))
			break;
	}
	CHECK(cut > 0 && btf.nr_types > 100, "cannot cut the real blob");
	r = fuzz(b, h.hdr_len + cut + h.str_len, REAL_PREFIX,
		 0x0ddc0ffee0ddf00dULL);
	free(b);
	return r;
}

static const char *t_fuzz_real_full(void)
{
	const char *r;

	/* the whole unmodified blob once */
	r = exercise(cur->data, cur->size);
	return r;
}

/* ---------------------------------------------------------------- */

static void run_real(struct real_blob *rb)
{
	char name[256];

	cur = rb;
#define REAL(n, fn)							\
	do {								\
		snprintf(name, sizeof(name), "%s_" n, rb->label);	\
		run_case(name, fn);					\
	} while (0)
	REAL("init", t_real_init);
	REAL("pahole_scan_control", t_real_pahole);
	REAL("scan_control_fields", t_real_scan_control);
	REAL("func_proto", t_real_func_proto);
	REAL("enum", t_real_enum);
	REAL("exercise", t_fuzz_real_full);
	REAL("fuzz", t_fuzz_real);
#undef REAL
}

int main(void)
{
	static struct real_blob host = {
		.label = "host",
		.path = "/sys/kernel/btf/vmlinux",
	};
	struct real_blob kb;
	glob_t g;
	size_t i;

	run_case("hand_kinds", t_hand_kinds);
	run_case("hand_members", t_hand_members);
	run_case("hand_func_proto", t_hand_func_proto);
	run_case("hand_enum", t_hand_enum);
	run_case("hand_check_field", t_hand_check_field);
	run_case("hand_malformed", t_hand_malformed);
	run_case("hand_fuzz", t_fuzz_hand);

	load_real(&host, false);
	run_real(&host);

	/* vmlinux of installed kernel headers (Debian ships it for 6.12) */
	if (glob("/lib/modules/*/build/vmlinux", 0, NULL, &g) == 0) {
		for (i = 0; i < g.gl_pathc; i++) {
			const char *kver = g.gl_pathv[i] + strlen("/lib/modules/");

			memset(&kb, 0, sizeof(kb));
			snprintf(kb.label, sizeof(kb.label), "%.*s",
				 (int)(strchr(kver, '/') - kver), kver);
			snprintf(kb.path, sizeof(kb.path), "%s", g.gl_pathv[i]);
			load_real(&kb, true);
			run_real(&kb);
			free(kb.data);
		}
		globfree(&g);
	}
	free(host.data);
	return 0;
}
