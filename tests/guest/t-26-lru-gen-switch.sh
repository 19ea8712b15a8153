#!/bin/bash
# configs: 6.12-*
# lru_gen switched at runtime: the module follows, gating MGLRU's memcg LRU
# (try_to_shrink_lruvec, effective priority mapped from MGLRU's initial
# priority) while it is on and the classic shrink_lruvec while it is off.
. "$MSL_PAYLOAD/guest/cases.sh"
LG=/sys/kernel/mm/lru_gen/enabled
[ -w "$LG" ] || fail "no $LG"
orig=$(cat "$LG")
msl_load
cg_create P
cg_create Q
set_soft_limit P max
fill_pagecache P p.data 64
# Q (no soft limit: eligible) keeps something besides root eligible, or
# the node would be marked nothing-eligible and P reclaimed as stock.
fill_pagecache Q q.data 48
idp=$(cg_id P)

# reclaim_round LRU SEEN: proactive reclaim of the root, with P immune and
# Q eligible (both read in again first), until the command SEEN says the
# decisions to check were taken, at most three times: MGLRU may reach P
# at no first pass of one reclaim (its memcg LRU serves Q first).
reclaim_round() {
	local try
	echo "$1" >"$LG" || fail "cannot set lru_gen to $1"
	trace_clear
	for try in 1 2 3; do
		cg_run P dd if="$MSL_SCRATCH/p.data" of=/dev/null bs=1M status=none
		cg_run Q dd if="$MSL_SCRATCH/q.data" of=/dev/null bs=1M status=none
		trace_enable memcg_softlimit/decision
		echo 32M >"$MSL_CGROUP_ROOT/memory.reclaim" 2>/dev/null || true
		trace_disable memcg_softlimit/decision
		"$2" && break
		note "lru_gen=$1: reclaim $try did not show P's decisions yet"
	done
	trace_dump >"$MSL_SCRATCH/trace.$1"
}
mglru_seen() {
	decided "$idp" 'effective_priority=12 .*verdict=skip reason=under ' &&
		[ "$(grep -E "decision: cgroup_id=$idp .*kind=proactive" "$MSL_TRACEFS/trace" |
			grep -E 'effective_priority=12 ' | grep -vc ' priority=12 ')" -gt 0 ]
}
classic_seen() { decided "$idp" ' priority=12 effective_priority=12 .*verdict=skip '; }

reclaim_round y mglru_seen
T=$MSL_SCRATCH/trace.y
mapped=$(grep -E "cgroup_id=$idp .*kind=proactive" "$T" | grep -E 'effective_priority=12 ' | grep -vc ' priority=12 ' || true)
note "MGLRU on: $(grep -c "cgroup_id=$idp " "$T") decisions on P, $mapped at a lower MGLRU priority mapped to effective 12"
assert_gt "$mapped" 0 "decisions at MGLRU's lowered initial priority, mapped to the first pass"
assert_gt "$(grep -E "cgroup_id=$idp .*effective_priority=12 .*verdict=skip reason=under" "$T" | grep -c . || true)" 0 "P skipped at the first pass (MGLRU)"

reclaim_round n classic_seen
T=$MSL_SCRATCH/trace.n
mismatch=$(awk '/decision:/ {
	for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	if (f["priority"] != f["effective_priority"]) n++ } END { print n + 0 }' "$T")
note "MGLRU off: $(grep -c "cgroup_id=$idp " "$T") decisions on P"
assert_eq "$mismatch" 0 "classic decisions whose effective priority differs from sc->priority"
assert_gt "$(grep -E "cgroup_id=$idp .*priority=12 effective_priority=12 .*verdict=skip" "$T" | grep -c . || true)" 0 "P skipped at DEF_PRIORITY (classic)"

echo "$orig" >"$LG"
msl_unload
