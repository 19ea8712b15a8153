#!/bin/bash
# configs: all
# timeout: 600
# The progress gate's dry spell opens once per retry, where the retry
# begins (dry_spell.h): the memcg_softlimit:dry_spell event comes
# from the task whose retry round it opens, before that round's first
# decision, never from the middle of a round (its last decision before the
# event is never a retry decision), however long the round takes; and
# each spell is at most twice the last.  To make retries, the module runs
# without its count of what the eligible cgroups hold (test_supply=N): E,
# over its soft limit with only anonymous memory and no swap, then looks
# eligible, as it did to every pass before that count.
. "$MSL_PAYLOAD/guest/patch-cases.sh"
shm=/run/msl-shm
shm_mount "$shm" 400
cg_create P1
cg_create P2
cg_create E
# shellcheck disable=SC2016 # perl's own variable
cg_run E perl -e '$x = "e" x (40 << 20); sleep 600' &
holder=$!
e_holds() { [ "$(cg_usage_bytes E)" -ge $((36 << 20)) ]; }
wait_until 30 e_holds || fail "E holds only $(($(cg_usage_bytes E) >> 20)) MiB"
msl_load test_supply=N
set_soft_limit P1 max
set_soft_limit P2 max
set_soft_limit E 1
fill_pagecaches P1 p1.data 110 P2 p2.data 110
echo 8192 >"$MSL_TRACEFS/buffer_size_kb"
trace_clear
trace_enable memcg_softlimit/decision
trace_enable memcg_softlimit/dry_spell
t0=$SECONDS
dd if=/dev/zero of="$shm/fill" bs=1M count=280 status=none || fail "280 MiB of shmem"
trace_disable memcg_softlimit/decision
trace_disable memcg_softlimit/dry_spell
note "allocated 280 MiB in $((SECONDS - t0)) s"
trace_dump >"$MSL_SCRATCH/trace"
# Per task (the trace line's comm-pid): its last decision's reason before
# each spell it opened; the spells' lengths in order.
check=$(awk '
	/ decision: / {
		match($0, /reason=[a-z_]+/)
		last[$1] = substr($0, RSTART + 7, RLENGTH - 7)
		next
	}
	/ dry_spell: / {
		spells++
		if (last[$1] == "retry") mid++
		match($0, /spell_ms=[0-9]+/)
		ms = substr($0, RSTART + 9, RLENGTH - 9) + 0
		if (prev && ms > 2 * prev) jump++
		prev = ms
		lens = lens " " ms
	}
	END { printf "%d %d %d%s\n", spells, mid, jump, lens }
' "$MSL_SCRATCH/trace")
read -r spells mid jump lens <<<"$check"
retries=$(grep -c 'reason=retry' "$MSL_SCRATCH/trace")
note "$spells spells (ms:$(echo "$lens" | tr -s ' ' | cut -c1-200)), $retries retry decisions"
assert_gt "$spells" 0 "dry spells opened"
assert_eq "$mid" 0 "spells opened in the middle of a retry round"
assert_eq "$jump" 0 "spells more than twice as long as the last"
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
rm -f "$shm/fill"
