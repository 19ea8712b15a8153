// SPDX-License-Identifier: GPL-2.0
/*
 * Cgroup names are arbitrary bytes except '/' and NUL.  Each output gets
 * them in a form it can carry: a terminal no control characters, JSON and
 * Prometheus only valid UTF-8 with their own escapes.  A byte that is not
 * part of valid UTF-8 is written as the four characters \xNN everywhere.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "escape.h"

size_t msl_utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (n == 0)
		return 0;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		if (c == 0xe0)
			lo = 0xa0;	/* overlong */
		else if (c == 0xed)
			hi = 0x9f;	/* surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		if (c == 0xf0)
			lo = 0x90;	/* overlong */
		else if (c == 0xf4)
			hi = 0x8f;	/* above U+10FFFF */
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

static void put_hex(FILE *f, const char *backslash, unsigned char c)
{
	fprintf(f, "%sx%02x", backslash, c);
}

void msl_put_text(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str), k;

	while (n) {
		k = msl_utf8_seq(s, n);
		if (k == 0 || *s < 0x20 || *s == 0x7f) {
			put_hex(f, "\\", *s);
			k = 1;
		} else if (*s == '\\') {
			fputs("\\\\", f);
		} else {
			fwrite(s, 1, k, f);
		}
		s += k;
		n -= k;
	}
}

void msl_put_cgroup(FILE *f, const char *path)
{
	if (path)
		msl_put_text(f, path);
	else
		fputs("(removed)", f);
}

void msl_put_utf8_safe(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str), k;

	while (n) {
		k = msl_utf8_seq(s, n);
		if (k == 0) {
			put_hex(f, "\\", *s);
			k = 1;
		} else {
			fwrite(s, 1, k, f);
		}
		s += k;
		n -= k;
	}
}

void msl_put_json_str(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str), k;

	fputc('"', f);
	while (n) {
		k = msl_utf8_seq(s, n);
		if (k == 0) {
			put_hex(f, "\\\\", *s);
			k = 1;
		} else if (*s == '"' || *s == '\\') {
			fputc('\\', f);
			fputc(*s, f);
		} else if (*s == '\n') {
			fputs("\\n", f);
		} else if (*s == '\t') {
			fputs("\\t", f);
		} else if (*s < 0x20 || *s == 0x7f) {
			fprintf(f, "\\u%04x", *s);
		} else {
			fwrite(s, 1, k, f);
		}
		s += k;
		n -= k;
	}
	fputc('"', f);
}

bool msl_utf8_valid(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str), k;

	for (; n; s += k, n -= k) {
		k = msl_utf8_seq(s, n);
		if (!k)
			return false;
	}
	return true;
}

void msl_put_json_escaped(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str), k;

	fputc('"', f);
	while (n) {
		k = msl_utf8_seq(s, n);
		if (k == 0) {
			put_hex(f, "\\\\", *s);	/* decodes to \xNN */
			k = 1;
		} else if (*s == '\\') {
			fputs("\\\\\\\\", f);	/* decodes to \\ */
		} else if (*s == '"') {
			fputs("\\\"", f);
		} else if (*s == '\n') {
			fputs("\\n", f);
		} else if (*s == '\t') {
			fputs("\\t", f);
		} else if (*s < 0x20 || *s == 0x7f) {
			fprintf(f, "\\u%04x", *s);
		} else {
			fwrite(s, 1, k, f);
		}
		s += k;
		n -= k;
	}
	fputc('"', f);
}

void msl_put_prom_label(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str), k;

	while (n) {
		k = msl_utf8_seq(s, n);
		if (k == 0) {
			put_hex(f, "\\\\", *s);
			k = 1;
		} else if (*s == '"' || *s == '\\') {
			fputc('\\', f);
			fputc(*s, f);
		} else if (*s == '\n') {
			fputs("\\n", f);
		} else {
			fwrite(s, 1, k, f);
		}
		s += k;
		n -= k;
	}
}

const char *msl_text(const char *s, char *buf, size_t len)
{
	FILE *f;

	buf[0] = buf[len - 1] = '\0';
	f = len > 1 ? fmemopen(buf, len - 1, "w") : NULL;
	if (!f)
		return buf;
	msl_put_text(f, s);
	fclose(f);
	return buf;
}
