/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The progress gate's depth bound, pure so that the unit tests build it
 * unchanged.
 *
 * A pass of reclaim at priority p scans about 1/2^p of each memcg's lists,
 * so a reclaimer that asked for @request pages and skips the protected
 * memcgs has, by the end of its pass at p, scanned about 2 * supply >> p
 * pages of the eligible ones, which hold @supply cold pages on the node.
 * Where that passes 2^MSL_DEPTH_SLACK times the request and the reclaimer
 * still goes on (it has not got what it asked for), the eligible memcgs
 * gave less than one page in 2^MSL_DEPTH_SLACK of what was scanned
 * (consider_reclaim_throttle() counts reclaim under one in eight as no
 * progress): hot pages, pages that will not go.  The protected memcgs are
 * then reclaimed too for the rest of the call, rather than scanning ever
 * deeper into the eligible ones' hot pages while the allocation waits.
 * The first pass, at DEF_PRIORITY, always skips: a bound shallower than the
 * gentlest pass would let the protected memcgs in at once.
 */
#ifndef MSL_DEPTH_H
#define MSL_DEPTH_H

#include <memcg_softlimit/policy.h>

/* Up to 2^3 = 8 times the request scanned at an efficiency under 1/8. */
#define MSL_DEPTH_SLACK		3

/*
 * The lowest priority at which a reclaimer asking for @request pages may
 * still skip the protected memcgs of a node whose eligible ones hold
 * @supply cold pages, 0..DEF_PRIORITY; 0 lets every pass skip (a supply
 * under 2^slack requests, which even the last pass does not scan that
 * often).
 */
int msl_depth_floor(u64 supply, u64 request, int slack);

/*
 * The bound judges a supply counted now, which says nothing of what flows
 * through it: a neighbour streaming through the page cache holds few cold
 * pages at any moment, none while reclaim has just drained them, and
 * gives every page reclaim scans.  So the count also measures what the
 * eligible memcgs gave since the last one: where reclaim took at least
 * MSL_GIVING_MIN pages from them at an efficiency of one in
 * 2^@slack or better (the measure the bound stands for), they are giving
 * and no pass is too deep for them.  Unless what was reclaimed comes back:
 * pages reclaimed and faulted in again (the node's workingset refaults)
 * are thrashing, not supply, and where they come to half of what was
 * reclaimed the memcgs are not giving (a node thrashing on the root's
 * program text while protected page cache sits untouched is what the
 * fallbacks are for).
 */
#define MSL_GIVING_MIN		32

bool msl_depth_giving(u64 scanned, u64 reclaimed, u64 refaulted, int slack);

#endif /* MSL_DEPTH_H */
