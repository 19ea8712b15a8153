#!/bin/bash
# configs: *-v2-classic*
# timeout: 300
# tcg: single
# The pages each leaf of the article's tree keeps, case c (A under with A1
# over, B over, A2 and C under; README "Policies"), under stock, v8, walk
# and excess: the direction of each policy's effect, on the two
# classic-LRU cgroup v2 configurations.  t-60-bench-smoke asserts the same
# on 6.1 v1 and 6.12 MGLRU, t-27 the decisions on all four.  The soft
# limits come from the module's control file here, as on 6.12 MGLRU.
# Single-threaded TCG, as in t-60, where these directions were measured
# first: one host thread for the guest, so that the stream and kswapd are
# never preempted one against the other by the host (this boot also runs
# beside another configuration's, which keeps make check's wall time).
MSL_BENCH_SIZE=smoke
B_RECORDS=$MSL_SCRATCH/trees-records.jsonl
. "$MSL_PAYLOAD/bench/bench-lib.sh"
. "$MSL_PAYLOAD/guest/trees-c.sh"
: >"$B_RECORDS"

assert_eq "$MSL_LRU" classic "the LRU of this configuration"
assert_eq "$B_TREE_THRESHOLDS" auto "the smoke trees' gate: the defaults"
trees_c_check
