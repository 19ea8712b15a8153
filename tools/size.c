// SPDX-License-Identifier: GPL-2.0
/* Sizes: parsed by the module's own parser, printed the way they parse. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>
#include <memcg_softlimit/control.h>

#include "size.h"

int msl_size_parse(const char *s, uint64_t *bytes, bool *is_max)
{
	u64 b;
	int ret;

	ret = msl_parse_size(s, &b, is_max);	/* lib/ctl_parse.c */
	if (ret)
		return ret;
	*bytes = b;
	return 0;
}

const char *msl_size_fmt(uint64_t bytes, char *buf, size_t len)
{
	static const char units[] = " KMGTPE";
	int u, exact = 0, top = 0;

	if (bytes == UINT64_MAX) {
		snprintf(buf, len, "max");
		return buf;
	}
	for (u = 1; u <= 6; u++) {
		if (bytes >> (10 * u) == 0)
			break;
		top = u;
		if (bytes % (1ULL << (10 * u)) == 0)
			exact = u;
	}
	/* Exact when short (80M, 8000M, 1536), else one decimal (117.7M). */
	if ((bytes >> (10 * exact)) < 10000) {
		if (exact)
			snprintf(buf, len, "%llu%c",
				 (unsigned long long)(bytes >> (10 * exact)),
				 units[exact]);
		else
			snprintf(buf, len, "%llu", (unsigned long long)bytes);
	} else {
		snprintf(buf, len, "%.1f%c",
			 (double)bytes / (double)(1ULL << (10 * top)), units[top]);
	}
	return buf;
}

int msl_decimal_parse(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !((*s >= '0' && *s <= '9') || *s == '.'))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

int msl_seconds_parse(const char *s, double *out)
{
	return msl_decimal_parse(s, 0, 86400, out) || *out == 0 ? -EINVAL : 0;
}

int msl_duration_parse(const char *s, uint64_t *ms)
{
	static const struct {
		const char *unit;
		double ms;
	} units[] = {
		{ "", 1000 }, { "ms", 1 }, { "s", 1000 }, { "m", 60000 },
		{ "h", 3600000 },
	};
	const char *p = s;
	double v, scaled;
	char num[32];
	size_t i, n;

	/* Digits and one '.' at most: no exponent, hex or "inf" (strtod's). */
	n = strspn(p, "0123456789");
	if (p[n] == '.') {
		i = strspn(p + n + 1, "0123456789");
		if (!i)
			return -EINVAL;
		n += 1 + i;
	}
	if (!n || n >= sizeof(num))
		return -EINVAL;
	memcpy(num, p, n);
	num[n] = '\0';
	v = strtod(num, NULL);
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(p + n, units[i].unit))
			continue;
		scaled = v * units[i].ms;
		if (!isfinite(scaled) || scaled < 0.5 ||
		    scaled > (double)MSL_DURATION_MAX_MS)
			return -EINVAL;
		*ms = (uint64_t)(scaled + 0.5);
		return 0;
	}
	return -EINVAL;
}
