/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MSL_TOOL_SIZE_H
#define MSL_TOOL_SIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* size.c: sizes as the module's control interface takes them */
#define MSL_SIZE_BUF	32
int msl_size_parse(const char *s, uint64_t *bytes, bool *is_max);
/* "0", "4K", "80M", "1.5G" (exact when a whole number of the unit), "max" */
const char *msl_size_fmt(uint64_t bytes, char *buf, size_t len);
/* A decimal number, a fraction allowed, within [@min, @max]; -EINVAL if not. */
int msl_decimal_parse(const char *s, double min, double max, double *out);
/* Seconds with an optional fraction ("2", "0.5"), > 0 and <= 86400. */
int msl_seconds_parse(const char *s, double *out);
/*
 * A duration: a number (a fraction allowed) and ms, s, m or h, seconds
 * without ("500ms", "30s", "1.5m", "90"); from 1 ms to 30 days, in
 * milliseconds (rounded to the nearest).  -EINVAL otherwise.
 */
#define MSL_DURATION_MAX_MS	(30ULL * 24 * 3600 * 1000)
int msl_duration_parse(const char *s, uint64_t *ms);

#endif /* MSL_TOOL_SIZE_H */
