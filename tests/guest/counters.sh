# shellcheck shell=bash
# tests/guest/counters.sh: helpers for the counter tests (issue "Counters").

# snapshot_now: ask the module for one snapshot of every memcg's counters.
snapshot_now() {
	echo 1 >/proc/memcg_softlimit/snapshot || fail "snapshot request failed"
}

# snapshot_field FILE SEQ ID FIELD: FIELD of memcg ID in snapshot SEQ of a
# text trace (tracefs "trace" or trace-cmd report); empty if absent.
snapshot_field() {
	grep -E "snapshot: seq=$2 cgroup_id=$3 " "$1" | head -n 1 |
		sed -nE "s/.* $4=([0-9]+).*/\1/p"
}

# last_seq FILE: the highest snapshot sequence number in a text trace
last_seq() {
	sed -nE 's/.*snapshot_done: seq=([0-9]+) .*/\1/p' "$1" | tail -n 1
}

# count_decisions FILE ID REGEX: decision events of ID matching REGEX
count_decisions() {
	grep -E "decision: cgroup_id=$2 " "$1" | grep -cE -- "$3" || true
}

# sum_reclaimed FILE ID FIELD: sum of FIELD (nr_scanned|nr_reclaimed) over
# the reclaimed events of ID
sum_reclaimed() {
	grep -E "reclaimed: cgroup_id=$2 " "$1" |
		sed -nE "s/.* $3=([0-9]+).*/\1/p" | awk '{ s += $1 } END { print s + 0 }'
}

# between_snapshots FILE S1 S2 ID: the lines of a text trace after memcg
# ID's snapshot event of sequence S1 (from the start if ID was not in that
# snapshot yet: its counters were 0), up to its event of sequence S2: the
# events that the counter deltas S1..S2 of ID count, and only those
# (reclaim keeps deciding before and after, woken by the recording itself).
between_snapshots() {
	local a="snapshot: seq=$2 cgroup_id=$4 " b="snapshot: seq=$3 cgroup_id=$4 "
	local from_start=0
	grep -qF -- "$a" "$1" || from_start=1
	awk -v a="$a" -v b="$b" -v on="$from_start" '
		index($0, b) { exit }
		on { print }
		index($0, a) { on = 1 }' "$1"
}
