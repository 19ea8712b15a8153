#!/bin/bash
# configs: all
# timeout: 600
# V8 2/2: when nothing but the root is eligible, no pass is wasted
# skipping everyone: the pass that finds nothing eligible reclaims as
# stock does (the module looks for an eligible memcg where a pass begins),
# and once a memcg is over its soft limit again, the others are skipped
# again.  unset=max so that only the limits this test sets count (unset
# cgroups are never over).
. "$MSL_PAYLOAD/guest/patch-cases.sh"
msl_load unset=max
cg_create P
cg_create Q
set_soft_limit P 1024
fill_pagecache P p.data 120
echo 4096 >"$MSL_TRACEFS/buffer_size_kb"
trace_clear
trace_enable memcg_softlimit/decision
trace_enable memcg_softlimit/supply
stream_sparse "$MSL_CGROUP_ROOT" 768
trace_disable memcg_softlimit/decision
trace_disable memcg_softlimit/supply
trace_dump >"$MSL_SCRATCH/trace.1"
P_ID=$(cg_id P)
seen=$(gated_decisions "$MSL_SCRATCH/trace.1" "$P_ID")
note "only root eligible; P: $(echo "$seen" | tr '\n' ';' | tr -s ' ')"
ne=$(echo "$seen" | awk '$2 == "reclaim/nothing_eligible" {print $1}')
sk=$(echo "$seen" | awk '$2 == "skip/under" {print $1}')
note "P's page cache: 120 MiB -> $(cg_file_mib P) MiB"
if [ "$MSL_LRU" = classic ]; then
	# Every pass walks every memcg, so P is met at each.
	assert_gt "${ne:-0}" 0 "P reclaimed for lack of anything eligible"
fi
# A pass that begins after a quiet spell judges before the count of what
# the eligible memcgs hold that it kicked is in (module/supply.h: a stale
# count reads as unknown, and unknown protects): steps may skip P until
# that count's supply event, and the steps already under way on other
# CPUs then (at most one a CPU), never once a step has found nothing
# eligible.  (How many steps come before the count is the scheduler's
# business: 1 to 4 under TCG.)
assert_true "a supply count came in during the stream" grep -q 'supply: nid=' "$MSL_SCRATCH/trace.1"
order=$(grep -E "cgroup_id=$P_ID .*$GATED|supply: nid=" "$MSL_SCRATCH/trace.1" |
	sed -E -e 's/.* verdict=([a-z_]+) reason=([a-z_]+) .*/\1\/\2/' -e 's/.*supply: nid=.*/count/')
early=$(awk '$0 == "count" || $0 == "reclaim/nothing_eligible" {exit} $0 == "skip/under" {n++} END {print n + 0}' <<<"$order")
after_count=$(awk '$0 == "reclaim/nothing_eligible" {exit} $0 == "count" {seen = 1} seen && $0 == "skip/under" {n++} END {print n + 0}' <<<"$order")
late=$(awk '$0 == "reclaim/nothing_eligible" {seen = 1} seen && $0 == "skip/under" {n++} END {print n + 0}' <<<"$order")
note "P skipped $early times before the first count, $after_count between it and the first step that found nothing eligible, $late after"
assert_eq "$late" 0 "steps that skipped P after one found nothing eligible"
assert_le "$after_count" "$(nproc)" "steps that skipped P once the count was in (under way then: one a CPU at most)"
check_decision_consistency "$MSL_SCRATCH/trace.1"

# Q goes over its limit: P is skipped again, Q reclaimed as over.
set_soft_limit Q 1
fill_pagecache Q q.data 60
cg_run P dd if="$MSL_SCRATCH/p.data" of=/dev/null bs=1M status=none
trace_clear
trace_enable memcg_softlimit/decision
stream_sparse "$MSL_CGROUP_ROOT" 256
trace_disable memcg_softlimit/decision
trace_dump >"$MSL_SCRATCH/trace.2"
seen=$(gated_decisions "$MSL_SCRATCH/trace.2" "$P_ID")
note "Q over its limit; P: $(echo "$seen" | tr '\n' ';' | tr -s ' ')"
# MGLRU may not meet P at all in so short a stream.
[ "$MSL_LRU" = classic ] && assert_true "P skipped again once Q is over" grep -q 'skip/under' <<<"$seen"
Q_ID=$(cg_id Q)
qseen=$(gated_decisions "$MSL_SCRATCH/trace.2" "$Q_ID")
note "Q: $(echo "$qseen" | tr '\n' ';' | tr -s ' ')"
if [ "$MSL_LRU" = classic ] || [ -n "$qseen" ]; then
	assert_true "Q reclaimed as over" grep -q 'reclaim/over' <<<"$qseen"
else
	note "MGLRU met Q at no step in this stream"
fi
# Over is looked at after the witness: a memcg over its limit is itself
# the proof that something is eligible.
assert_false "Q (over its limit) reclaimed as nothing_eligible" grep -q 'nothing_eligible' <<<"$qseen"
check_decision_consistency "$MSL_SCRATCH/trace.2"
msl_unload
