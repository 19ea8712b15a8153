// SPDX-License-Identifier: GPL-2.0
/* Unit tests of lib/depth.c: how deep the progress gate may skip. */
#include <memcg_softlimit/depth.h>
#include "unit.h"

/*
 * Direct reclaim asks for 32 pages.  A streaming neighbour with a million
 * cold pages gives that at the first pass or not at all: the first pass
 * already scans 256 of them (8 x 32).
 */
static void large_supply_first_pass_only(void)
{
	CHECK(msl_depth_floor(1 << 20, 32, MSL_DEPTH_SLACK) == MSL_DEF_PRIORITY);
	CHECK(msl_depth_floor(~0ULL >> 4, 32, MSL_DEPTH_SLACK) ==
	      MSL_DEF_PRIORITY);
}

/*
 * 2,300 cold pages: the pass at priority p scans 2300 >> p; before the
 * pass at 3 the eligible memcgs were scanned 287 pages (more than 8 x 32),
 * before the pass at 4 only 143.
 */
static void small_supply_bounded(void)
{
	int floor = msl_depth_floor(2300, 32, MSL_DEPTH_SLACK);

	CHECK(floor == 4);
	CHECK((2300 >> floor) < 8 * 32);
	CHECK((2300 >> (floor - 1)) >= 8 * 32);
}

/*
 * kswapd asks for the high watermarks, about 1,500 pages on a 512 MiB
 * guest: a neighbour's 77,000 cold pages let it skip down to priority 3,
 * below the 5 or 6 where kswapd finds enough to scan.
 */
static void kswapd_request(void)
{
	CHECK(msl_depth_floor(77000, 1500, MSL_DEPTH_SLACK) == 3);
}

/*
 * A supply under 8 times the request is never scanned that much: every
 * pass may skip, and the kernel's retry (or kswapd's) is the fallback.
 */
static void tiny_supply_every_pass(void)
{
	CHECK(msl_depth_floor(255, 32, MSL_DEPTH_SLACK) == 0);
	CHECK(msl_depth_floor(12000, 1500, MSL_DEPTH_SLACK) == 0);
	/* 256 pages are 8 x 32: the last pass, 0, scans that much. */
	CHECK(msl_depth_floor(256, 32, MSL_DEPTH_SLACK) == 1);
}

/* A request of 0 or 1 page, an empty supply: no division, no surprise. */
static void edges(void)
{
	CHECK(msl_depth_floor(0, 32, MSL_DEPTH_SLACK) == MSL_DEF_PRIORITY);
	CHECK(msl_depth_floor(4096, 0, MSL_DEPTH_SLACK) ==
	      msl_depth_floor(4096, 1, MSL_DEPTH_SLACK));
	CHECK(msl_depth_floor(4096, 1, MSL_DEPTH_SLACK) == 10);
}

/* Each doubling of the supply moves the floor one pass shallower. */
static void monotonic(void)
{
	u64 s;
	int last = 0, f;

	for (s = 1; s < (1ULL << 40); s <<= 1) {
		f = msl_depth_floor(s, 32, MSL_DEPTH_SLACK);
		CHECK(f >= last);
		CHECK(f <= MSL_DEF_PRIORITY);
		last = f;
	}
}

/*
 * A stream gives what is scanned (t-71's S on 7.3: its cold pages counted
 * 0 while it gave thousands a second); a trickle of hot pages gives one in
 * many; nothing scanned, or a handful reclaimed, is no flow; pages that
 * come back as fast as they go are thrashing.
 */
static void giving(void)
{
	CHECK(msl_depth_giving(4000, 3900, 0, MSL_DEPTH_SLACK));
	CHECK(msl_depth_giving(8000, 1000, 0, MSL_DEPTH_SLACK));
	CHECK(!msl_depth_giving(8000, 999, 0, MSL_DEPTH_SLACK));
	CHECK(!msl_depth_giving(100000, 200, 0, MSL_DEPTH_SLACK));
	CHECK(!msl_depth_giving(0, 0, 0, MSL_DEPTH_SLACK));
	CHECK(!msl_depth_giving(31, 31, 0, MSL_DEPTH_SLACK));
	CHECK(msl_depth_giving(MSL_GIVING_MIN, MSL_GIVING_MIN, 0,
			       MSL_DEPTH_SLACK));
	/* Reclaimed and faulted in again: thrashing, not giving. */
	CHECK(!msl_depth_giving(4000, 3900, 1950, MSL_DEPTH_SLACK));
	CHECK(msl_depth_giving(4000, 3900, 1949, MSL_DEPTH_SLACK));
	CHECK(!msl_depth_giving(4000, 3900, 9000, MSL_DEPTH_SLACK));
	/* A bad slack gives nothing rather than a shift out of range. */
	CHECK(!msl_depth_giving(4000, 3900, 0, -1));
	CHECK(!msl_depth_giving(4000, 3900, 0, 64));
}

int main(void)
{
	RUN("depth", large_supply_first_pass_only);
	RUN("depth", small_supply_bounded);
	RUN("depth", kswapd_request);
	RUN("depth", tiny_supply_every_pass);
	RUN("depth", edges);
	RUN("depth", monotonic);
	RUN("depth", giving);
	return 0;
}
