#!/bin/bash
# configs: all
# Targeted reclaim (a cgroup's own hard limit, and memory.reclaim on it) is
# untouched: a cgroup far under its soft limit still shrinks to its limit.
. "$MSL_PAYLOAD/guest/cases.sh"
msl_load
cg_create T
set_soft_limit T max
fill_pagecache T t.data 100
before=$(cg_file_mib T)
assert_ge "$before" 90 "T's page cache before"
trace_clear
trace_enable memcg_softlimit/decision
if [ "$MSL_CGROUP_VERSION" = 1 ]; then
	cg_set T memory.limit_in_bytes $((40 << 20))
else
	cg_set T memory.max 40M
fi
after=$(cg_file_mib T)
note "T: ${before} MiB -> ${after} MiB under a 40 MiB hard limit"
assert_le "$after" 40 "T shrank to its hard limit"
if [ "$MSL_CGROUP_VERSION" = 2 ]; then
	cg_set T memory.max max
	cg_set T memory.reclaim 20M
	reclaimed=$(cg_file_mib T)
	note "memory.reclaim 20M on T: ${after} -> ${reclaimed} MiB"
	assert_le "$reclaimed" $((after - 15)) "memory.reclaim on T reclaimed"
fi
trace_disable memcg_softlimit/decision
T_ID=$(cg_id T)
n=$(trace_count "cgroup_id=$T_ID .*kind=targeted verdict=reclaim reason=targeted")
assert_gt "$n" 0 "targeted decisions on T"
assert_eq "$(trace_count "cgroup_id=$T_ID .*verdict=skip")" 0 "skips of T"
msl_unload
