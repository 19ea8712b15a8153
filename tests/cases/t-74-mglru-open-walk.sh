#!/bin/bash
# configs: *-mglru*
# timeout: 480
# MGLRU's memcg LRU walks only its old generation, and memcgs move to the
# young one when reclaimed or skipped as memory.min skips them.  A skipped
# protected memcg stays in the old generation (at its tail) while eligible
# memcgs are still there, so that the first walk in which the gate lets
# everyone in (depth, retry, dry spell, nothing eligible) meets it: read
# from the decision events, grouped into walks (one task's decisions at
# one priority in a row), the protected cgroups are met in most walks that
# open the gate, and most of their skips find them where the last skip
# left them, at the tail of the same generation (lru_seg 2, MEMCG_LRU_TAIL).
# Before, every skip sent them young (lru_seg back to 0) and the walks that
# opened the gate found only the eligible memcgs and the root.
. "$MSL_PAYLOAD/guest/patch-cases.sh"
shm=/run/msl-shm
shm_mount "$shm" 400
for cg in P1 P2 E; do cg_create "$cg"; done
msl_load
set_soft_limit P1 max
set_soft_limit P2 max
set_soft_limit E 1
dd if=/dev/urandom of="$MSL_SCRATCH/e.data" bs=1M count=48 status=none
cg_run E sh -c "while :; do cat $MSL_SCRATCH/e.data >/dev/null; done" &
loop=$!
fill_pagecaches P1 p1.data 110 P2 p2.data 110
p1=$(cg_id P1)
p2=$(cg_id P2)
echo 8192 >"$MSL_TRACEFS/buffer_size_kb"
trace_clear
trace_enable memcg_softlimit/decision
dd if=/dev/zero of="$shm/fill" bs=1M count=280 status=none || fail "280 MiB of shmem"
trace_disable memcg_softlimit/decision
kill "$loop" 2>/dev/null
pkill -f "cat $MSL_SCRATCH/e.data"
trace_dump >"$MSL_SCRATCH/trace"
read -r walks open met skips old <<<"$(awk -v p1="$p1" -v p2="$p2" '
	function flush() {
		if (n) { walks++; if (isopen) { open++; if (hasp) met++ } }
		n = 0; isopen = 0; hasp = 0
	}
	/ decision: / {
		match($0, / priority=[0-9]+/); prio = substr($0, RSTART + 10, RLENGTH - 10)
		if ($1 != task || prio != lastprio) flush()
		task = $1; lastprio = prio; n++
		match($0, /cgroup_id=[0-9]+/); id = substr($0, RSTART + 10, RLENGTH - 10)
		match($0, /reason=[a-z_]+/); r = substr($0, RSTART + 7, RLENGTH - 7)
		if (r == "depth" || r == "retry" || r == "dry_spell" || r == "nothing_eligible") isopen = 1
		if (id == p1 || id == p2) {
			hasp = 1
			if (r == "under") { skips++; if ($0 ~ /lru_seg=2/) old++ }
		}
	}
	END { flush(); printf "%d %d %d %d %d\n", walks, open, met, skips, old }
' "$MSL_SCRATCH/trace")"
note "$walks walks, $open that opened the gate, $met of them met P1 or P2; P1 and P2 skipped $skips times, $old of them at the tail where the last skip left them"
assert_gt "$open" 0 "walks that opened the gate"
assert_ge "$((met * 2))" "$open" "open walks that met a protected cgroup (at least half)"
assert_ge "$((old * 2))" "$skips" "skips that found the protected cgroups at the tail of their generation (at least half)"
rm -f "$shm/fill"
