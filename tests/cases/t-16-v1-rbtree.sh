#!/bin/bash
# configs: 6.1-v1-*
# The kernel's own cgroup v1 soft-limit reclaim (the rb-tree walk in
# mem_cgroup_soft_limit_reclaim, which reclaims through
# mem_cgroup_shrink_node) is bypassed while the policy is on, as the patch
# removes it, and runs again with keep_v1_reclaim=Y or the policy off.
. "$MSL_PAYLOAD/guest/patch-cases.sh"
KE=$MSL_TRACEFS/kprobe_events
echo 'p:msl_v1_shrink mem_cgroup_shrink_node' >>"$KE" || fail "cannot probe mem_cgroup_shrink_node"
trap 'echo 0 > "$MSL_TRACEFS/events/kprobes/msl_v1_shrink/enable"; echo "-:msl_v1_shrink" >> "$KE"' EXIT
cg_create O
cg_set O memory.soft_limit_in_bytes $((8 << 20))
fill_pagecache O o.data 96

# v1_reclaims LABEL: rb-tree reclaims of O during a stream from the root.
v1_reclaims() {
	cg_run O dd if="$MSL_SCRATCH/o.data" of=/dev/null bs=1M status=none
	trace_clear
	echo 1 >"$MSL_TRACEFS/events/kprobes/msl_v1_shrink/enable"
	stream_sparse "$MSL_CGROUP_ROOT" 512
	echo 0 >"$MSL_TRACEFS/events/kprobes/msl_v1_shrink/enable"
	N=$(trace_count 'msl_v1_shrink:')
	note "$1: mem_cgroup_shrink_node called $N times"
}

v1_reclaims stock
stock=$N
assert_gt "$stock" 0 "rb-tree soft-limit reclaim on the stock kernel"
msl_load
v1_reclaims "module (policy on)"
assert_eq "$N" 0 "rb-tree soft-limit reclaims with the policy on"
echo Y >"/sys/module/$MSL_MODULE/parameters/keep_v1_reclaim"
v1_reclaims "module, keep_v1_reclaim=Y"
assert_gt "$N" 0 "rb-tree soft-limit reclaims with keep_v1_reclaim=Y"
echo N >"/sys/module/$MSL_MODULE/parameters/keep_v1_reclaim"
echo N >"/sys/module/$MSL_MODULE/parameters/enabled"
v1_reclaims "module, policy off"
assert_gt "$N" 0 "rb-tree soft-limit reclaims with the policy off"
msl_unload
