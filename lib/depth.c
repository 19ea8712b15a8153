// SPDX-License-Identifier: GPL-2.0
/* The progress gate's depth bound (depth.h). */
#include <memcg_softlimit/depth.h>

/* floor(log2(x)) for x > 0, as the kernel's ilog2(); -1 for 0 */
static int log2_floor(u64 x)
{
	int n = -1;

	while (x) {
		x >>= 1;
		n++;
	}
	return n;
}

bool msl_depth_giving(u64 scanned, u64 reclaimed, u64 refaulted, int slack)
{
	if (slack < 0 || slack > 16 || reclaimed < MSL_GIVING_MIN)
		return false;
	return reclaimed >= (scanned >> slack) && refaulted < reclaimed / 2;
}

int msl_depth_floor(u64 supply, u64 request, int slack)
{
	int scan_covers;

	if (!request)
		request = 1;
	if (!supply)
		return MSL_DEF_PRIORITY;
	/*
	 * The priority at which a pass scans about the request: supply >>
	 * p >= request, rounding the supply down and the request up, as
	 * set_initial_priority() does.  The eligible memcgs may then be
	 * scanned to 2^slack times the request (passes p and deeper add
	 * about twice what p scans).
	 */
	scan_covers = log2_floor(supply) - (log2_floor(request - 1) + 1);
	if (scan_covers - slack + 1 > MSL_DEF_PRIORITY)
		return MSL_DEF_PRIORITY;
	if (scan_covers - slack + 1 < 0)
		return 0;
	return scan_covers - slack + 1;
}
