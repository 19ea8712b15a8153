/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MSL_TOOL_ESCAPE_H
#define MSL_TOOL_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* escape.c: cgroup names are bytes; every output format gets them safely */
/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if none. */
size_t msl_utf8_seq(const unsigned char *s, size_t n);
/* Terminal: control characters, backslash and invalid UTF-8 as \xNN, \\ */
void msl_put_text(FILE *f, const char *s);
/* As is, but bytes that are not valid UTF-8 as the text \xNN. */
void msl_put_utf8_safe(FILE *f, const char *s);
/* The same into @buf (cut short if it does not fit). */
const char *msl_text(const char *s, char *buf, size_t len);
/* A cgroup path as text, "(removed)" for NULL. */
void msl_put_cgroup(FILE *f, const char *path);
/* JSON string with its quotes; invalid UTF-8 bytes as the text "\xNN" */
void msl_put_json_str(FILE *f, const char *s);
bool msl_utf8_valid(const char *s);
/*
 * A name that is not valid UTF-8, as a JSON string that maps back: its
 * backslashes doubled, each byte outside valid UTF-8 as the text \xNN
 * (docs/json.md).
 */
void msl_put_json_escaped(FILE *f, const char *s);
/*
 * Prometheus label value without quotes: backslash, double quote and
 * newline escaped; invalid UTF-8 as \\xNN
 */
void msl_put_prom_label(FILE *f, const char *s);

#endif /* MSL_TOOL_ESCAPE_H */
