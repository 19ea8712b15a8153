#!/bin/bash
# configs: all
# Targeted reclaim (a cgroup's own hard limit, and memory.reclaim on it) is
# untouched: a cgroup far under its soft limit still shrinks to its limit.
. "$MSL_PAYLOAD/guest/patch-cases.sh"
msl_load
cg_create T
set_soft_limit T max
fill_pagecache T t.data 100
before=$(cg_file_mib T)
assert_ge "$before" 90 "T's page cache before"
trace_clear
trace_enable memcg_softlimit/decision
trace_enable memcg_softlimit/reclaimed
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
trace_disable memcg_softlimit/reclaimed
T_ID=$(cg_id T)
n=$(trace_count "cgroup_id=$T_ID .*kind=targeted verdict=reclaim reason=targeted")
assert_gt "$n" 0 "targeted decisions on T"
assert_eq "$(trace_count "cgroup_id=$T_ID .*verdict=skip")" 0 "skips of T"
# Targeted calls take no accounting probe unless count_targeted=Y.
assert_eq "$(trace_count "reclaimed: cgroup_id=$T_ID .*kind=targeted")" 0 "targeted calls counted by default"
echo Y >"/sys/module/$MSL_MODULE/parameters/count_targeted"
if [ "$MSL_CGROUP_VERSION" = 1 ]; then
	cg_set T memory.limit_in_bytes -1
else
	cg_set T memory.max max
fi
cg_run T dd if="$MSL_SCRATCH/t.data" of=/dev/null bs=1M status=none
trace_clear
trace_enable memcg_softlimit/reclaimed
if [ "$MSL_CGROUP_VERSION" = 1 ]; then
	cg_set T memory.limit_in_bytes $((20 << 20))
else
	cg_set T memory.max 20M
fi
trace_disable memcg_softlimit/reclaimed
counted=$(trace_count "reclaimed: cgroup_id=$T_ID .*kind=targeted")
note "count_targeted=Y: $counted targeted calls counted"
assert_gt "$counted" 0 "targeted calls counted with count_targeted=Y"
msl_unload
