#!/bin/bash
# configs: all
# timeout: 600
# V8 2/2: when nothing but the root is eligible, a first pass is not wasted
# skipping everyone: the module notices and reclaims as stock, until some
# memcg is over its soft limit again.  unset_eligible=0 so that only the
# limits this test sets count (unset and dying cgroups are never over).
. "$MSL_PAYLOAD/guest/cases.sh"
msl_load unset_eligible=0
cg_create P
cg_create Q
set_soft_limit P 1024
fill_pagecache P p.data 120
echo 4096 >"$MSL_TRACEFS/buffer_size_kb"
trace_clear
trace_enable memcg_softlimit/decision
stream_sparse "$MSL_CGROUP_ROOT" 768
trace_disable memcg_softlimit/decision
trace_dump >"$MSL_SCRATCH/trace.1"
P_ID=$(cg_id P)
seen=$(first_pass_decisions "$MSL_SCRATCH/trace.1" "$P_ID")
note "only root eligible; P first pass: $(echo "$seen" | tr '\n' ';' | tr -s ' ')"
ne=$(echo "$seen" | awk '$2 == "reclaim/nothing_eligible" {print $1}')
sk=$(echo "$seen" | awk '$2 == "skip/under" {print $1}')
if [ "$MSL_LRU" = classic ]; then
	# Every first pass walks every memcg: only the passes before the
	# module learnt that nothing is eligible may skip P.
	assert_gt "${ne:-0}" 0 "P reclaimed for lack of anything eligible"
	assert_lt "${sk:-0}" "${ne:-0}" "first passes that skipped P vs those that reclaimed it"
else
	# MGLRU visits a memcg once per generation and a skip rotates it to
	# the young generation: P is seen at a first pass a few times at most,
	# and the pass is not lost, as root is reclaimed in it.
	assert_le "${sk:-0}" 4 "first passes that skipped P"
fi
note "P's page cache: 120 MiB -> $(cg_file_mib P) MiB"
check_no_skip_below "$MSL_SCRATCH/trace.1" 12

# Q goes over its limit: P is skipped again at the first pass.
set_soft_limit Q 1
fill_pagecache Q q.data 60
cg_run P dd if="$MSL_SCRATCH/p.data" of=/dev/null bs=1M status=none
trace_clear
trace_enable memcg_softlimit/decision
stream_sparse "$MSL_CGROUP_ROOT" 256
trace_disable memcg_softlimit/decision
trace_dump >"$MSL_SCRATCH/trace.2"
seen=$(first_pass_decisions "$MSL_SCRATCH/trace.2" "$P_ID")
note "Q over its limit; P first pass: $(echo "$seen" | tr '\n' ';' | tr -s ' ')"
# MGLRU may not meet P at a first pass at all in so short a stream.
[ "$MSL_LRU" = classic ] && assert_true "P skipped again once Q is over" grep -q 'skip/under' <<<"$seen"
Q_ID=$(cg_id Q)
qseen=$(first_pass_decisions "$MSL_SCRATCH/trace.2" "$Q_ID")
note "Q first pass: $(echo "$qseen" | tr '\n' ';' | tr -s ' ')"
if [ "$MSL_LRU" = classic ] || [ -n "$qseen" ]; then
	assert_true "Q reclaimed as over" grep -q 'reclaim/over' <<<"$qseen"
else
	note "MGLRU met Q at no first pass in this stream"
fi
# Over is looked at before the node's nothing-eligible mark.
assert_false "Q (over its limit) reclaimed as nothing_eligible" grep -q 'nothing_eligible' <<<"$qseen"
check_decision_consistency "$MSL_SCRATCH/trace.2"
msl_unload
