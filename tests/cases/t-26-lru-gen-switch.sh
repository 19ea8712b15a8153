#!/bin/bash
# configs: 6.12-* 7.*
# lru_gen switched at runtime: the module follows, gating MGLRU's memcg LRU
# (shrink_one) while it is on and the classic shrink_lruvec while it is
# off.  At the defaults P, immune, is skipped either way; under the
# priority gate at 12 (the patch's first pass) kswapd's first pass is
# MGLRU's own, lowered by set_initial_priority(), which the module maps to
# effective priority 12, and on the classic LRU sc->priority itself.
. "$MSL_PAYLOAD/guest/patch-cases.sh"
LG=/sys/kernel/mm/lru_gen/enabled
[ -w "$LG" ] || fail "no $LG"
orig=$(cat "$LG")
msl_load
cg_create P
cg_create Q
set_soft_limit P max
fill_pagecache P p.data 64
idp=$(cg_id P)

# pressure_round LRU SEEN: Q (eligible: no limit anywhere above it)
# streams page cache, with P immune and read in again first, until the
# command SEEN says the decisions to check were taken, at most five
# streams: MGLRU may reach P at no step of one (its memcg LRU serves Q
# first).
pressure_round() {
	local try
	echo "$1" >"$LG" || fail "cannot set lru_gen to $1"
	trace_clear
	for try in 1 2 3 4 5; do
		cg_run P dd if="$MSL_SCRATCH/p.data" of=/dev/null bs=1M status=none
		trace_enable memcg_softlimit/decision
		stream_sparse Q 512
		trace_disable memcg_softlimit/decision
		"$2" && break
		note "lru_gen=$1: stream $try did not show P's decisions yet"
	done
	trace_dump >"$MSL_SCRATCH/trace.$1.$(msl_param priority_threshold)"
}
skipped() { decided "$idp" "$GATED verdict=skip reason=under "; }
# kswapd's first pass, at MGLRU's lowered priority, mapped to 12: seen
# on any memcg kswapd met (MGLRU's memcg LRU may serve Q alone, P's skip
# having rotated it to the young generation)
mglru_seen() {
	[ "$(grep -E "decision: .*effective_priority=12 kind=kswapd " "$MSL_TRACEFS/trace" |
		grep -vc ' priority=12 ')" -gt 0 ]
}
classic_seen() { decided "$idp" ' priority=12 effective_priority=12 .*verdict=skip '; }

for lru in y n; do
	pressure_round "$lru" skipped
	T=$MSL_SCRATCH/trace.$lru.auto
	note "lru_gen=$lru, defaults: $(grep -c "cgroup_id=$idp " "$T") decisions on P, $(grep -E "cgroup_id=$idp .*verdict=skip reason=under" "$T" | grep -c . || true) skips; by verdict and reason: $(grep -oE "cgroup_id=$idp .*verdict=[a-z]+ reason=[a-z_]+" "$T" | grep -oE 'verdict=.*' | sort | uniq -c | tr -s ' ' | tr '\n' ',')"
	assert_true "P skipped at the defaults, lru_gen=$lru" grep -qE "cgroup_id=$idp .*verdict=skip reason=under" "$T"
	assert_false "P reclaimed at the defaults, lru_gen=$lru" grep -qE "cgroup_id=$idp .*verdict=reclaim reason=(over|ancestor_over|below_threshold)" "$T"
done

echo 12 >"/sys/module/$MSL_MODULE/parameters/priority_threshold"
pressure_round y mglru_seen
T=$MSL_SCRATCH/trace.y.12
mapped=$(grep -E "decision: .*effective_priority=12 kind=kswapd " "$T" | grep -vc ' priority=12 ' || true)
note "MGLRU on, priority gate: $(grep -c "cgroup_id=$idp " "$T") decisions on P, $mapped kswapd decisions at a lower MGLRU priority mapped to effective 12"
assert_gt "$mapped" 0 "kswapd decisions at MGLRU's lowered initial priority, mapped to the first pass"
check_no_skip_below "$T" 12

pressure_round n classic_seen
T=$MSL_SCRATCH/trace.n.12
mismatch=$(awk '/decision:/ {
	for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	if (f["priority"] != f["effective_priority"]) n++ } END { print n + 0 }' "$T")
note "MGLRU off, priority gate: $(grep -c "cgroup_id=$idp " "$T") decisions on P"
assert_eq "$mismatch" 0 "classic decisions whose effective priority differs from sc->priority"
assert_gt "$(grep -E "cgroup_id=$idp .*priority=12 effective_priority=12 .*verdict=skip" "$T" | grep -c . || true)" 0 "P skipped at DEF_PRIORITY (classic)"
check_no_skip_below "$T" 12

echo "$orig" >"$LG"
msl_unload
