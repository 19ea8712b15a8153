#!/bin/bash
# configs: all
# timeout: 600
# tcg: single
# On one configuration per kernel and per cgroup version (6.1 v1, 6.12 v2):
# what it reads (tracefs, the module's events and counters) does not depend
# on the LRU; the policy itself is tested on all four (t-2x, t-30).
# memcg-softlimit report on a trace-cmd recording agrees with stat: the
# decisions and pages it counts from the events between the two snapshots
# stat took while recording (--between-snapshots) are what the counters
# gained in between, and the last snapshot in the file (--snapshot) is
# what stat printed.  Reclaim before the first or after the last snapshot
# (the recording's own writes wake kswapd, which decides at low priority
# even when it scans nothing) is outside the window.
[ -n "${MSL_TOOL:-}" ] || skip "no memcg-softlimit in the payload (tools/ not built)"
T=$MSL_TOOL
S=$MSL_SCRATCH
REASONS="policy_off targeted root below_threshold over ancestor_over nothing_eligible under sibling_over none_over excess_share retry"
KINDS="kswapd direct proactive targeted"
jrow() { grep -E "^\{\"id\":$2," "$1" | head -n 1; }
jget() {
	case $2 in
	scanned.* | reclaimed.*) sed -nE "s/.*\"${2%%.*}_bytes\":\{[^}]*\"${2#*.}\":([0-9]+).*/\1/p" <<<"$1" ;;
	*) sed -nE "s/.*\"decisions\":\{[^}]*\"$2\":([0-9]+).*/\1/p" <<<"$1" ;;
	esac
}
# minus A B: A - B, an absent number being 0
minus() { echo $((${1:-0} - ${2:-0})); }
msl_load
cg_create O
cg_create U
cg_create S
"$T" set /O 1M || fail "set /O"
"$T" set /U max || fail "set /U"
fill_pagecaches O fill.O 40 U fill.U 40
assert_ge "$(cg_file_mib O)" 30 "O's page cache"
assert_ge "$(cg_file_mib U)" 30 "U's page cache"

REC=$S/rec.dat
trace-cmd record -q -b 8192 -e memcg_softlimit -o "$REC" >"$S/record.log" 2>&1 &
rec=$!
wait_started $rec grep -q 1 "$MSL_TRACEFS/events/memcg_softlimit/decision/enable" ||
	fail "trace-cmd record did not start ($WAIT_WHY): $(cat "$S/record.log")"
wait_reclaim_quiet
"$T" stat --json -a >"$S/s1.json" || fail "stat failed"
workload() { root_pressure 30; }
# gained FILE CG FIELD: what CG's FIELD gained from s1.json to FILE
gained() {
	local id
	id=$(stat -c %i "$(cg_path "$2")")
	minus "$(jget "$(jrow "$1" "$id")" "$3")" "$(jget "$(jrow "$S/s1.json" "$id")" "$3")"
}
workload
# (MGLRU meets U at a first pass seldom: see case-run.sh.  trace-cmd
# consumes the buffer, so the counters tell; report takes the file's first
# and last snapshots, and the extra ones in between change nothing.)
for extra in 1 2 3; do
	"$T" stat --json -a >"$S/probe.json" || fail "stat failed"
	[ "$(gained "$S/probe.json" U under)" -gt 0 ] && [ "$(gained "$S/probe.json" O over)" -gt 0 ] && break
	note "extra workload $extra: U not skipped or O not reclaimed yet"
	workload
done
wait_reclaim_quiet
"$T" stat --json -a >"$S/s2.json" || fail "stat failed"
sleep 1
kill -INT "$rec"
wait "$rec" || true
if grep -qi 'lost' "$S/record.log"; then
	fail "trace-cmd lost events: $(grep -i lost "$S/record.log" | head -n 2)"
fi

"$T" report --between-snapshots --json -a "$REC" >"$S/r.json" 2>"$S/r.err" ||
	fail "report --between-snapshots failed: $(cat "$S/r.err")"
"$T" report --json -a "$REC" >"$S/rall.json" 2>>"$S/r.err" || fail "report failed: $(cat "$S/r.err")"
"$T" report "$REC" >"$S/r.txt" 2>>"$S/r.err" || fail "report (text) failed: $(cat "$S/r.err")"
"$T" report --snapshot --json -a "$REC" >"$S/rs.json" 2>>"$S/r.err" || fail "report --snapshot failed: $(cat "$S/r.err")"
echo "---- report"; cat "$S/r.txt"
[ -s "$S/r.err" ] && note "report said: $(head -c 300 "$S/r.err")"
assert_true "report counts from the events" grep -q '"source":"events"' "$S/rall.json"
assert_true "report --between-snapshots says so" grep -q '"source":"between-snapshots"' "$S/r.json"
# The whole recording holds at least what the window does.
for cg in O U; do
	id=$(stat -c %i "$(cg_path $cg)")
	for x in over under; do
		assert_ge "$(jget "$(jrow "$S/rall.json" "$id")" "$x")" "$(jget "$(jrow "$S/r.json" "$id")" "$x")" "$cg $x: whole recording vs window"
	done
done

# The last snapshot in the recording is the one stat printed last.
# (stat's document has the time it was taken and whether the module is
# loaded; a recording's has neither)
assert_eq "$(cat "$S/rs.json")" "$(sed -E 's/"command":"stat","module_loaded":true,"why":null,/"command":"report","paths":"recording",/; s/"time":[0-9]+\.[0-9]+,/"time":null,/' "$S/s2.json")" "report --snapshot --json vs stat --json"
json_doc report_between "$S/r.json"
json_doc report_events "$S/rall.json"
json_doc report_snapshot "$S/rs.json"

# What the events add up to is what the counters gained in between.
for cg in O U; do
	id=$(stat -c %i "$(cg_path $cg)")
	r=$(jrow "$S/r.json" "$id")
	a=$(jrow "$S/s1.json" "$id")
	b=$(jrow "$S/s2.json" "$id")
	[ -n "$r" ] || fail "$cg (id $id) missing from the report"
	assert_true "$cg's path in the report" grep -q "\"path\":\"/$cg\"" <<<"$r"
	for x in $REASONS; do
		assert_eq "$(jget "$r" "$x")" "$(minus "$(jget "$b" "$x")" "$(jget "$a" "$x")")" "$cg $x: report vs stat"
	done
	for k in $KINDS; do
		assert_eq "$(jget "$r" "reclaimed.$k")" "$(minus "$(jget "$b" "reclaimed.$k")" "$(jget "$a" "reclaimed.$k")")" "$cg reclaimed $k: report vs stat"
		assert_eq "$(jget "$r" "scanned.$k")" "$(minus "$(jget "$b" "scanned.$k")" "$(jget "$a" "scanned.$k")")" "$cg scanned $k: report vs stat"
	done
done
O=$(jrow "$S/r.json" "$(stat -c %i "$(cg_path O)")")
U=$(jrow "$S/r.json" "$(stat -c %i "$(cg_path U)")")
note "report: O over=$(jget "$O" over) under=$(jget "$O" under); U under=$(jget "$U" under) over=$(jget "$U" over)"
assert_gt "$(jget "$O" over)" 0 "O's over decisions in the recording"
assert_gt "$(jget "$U" under)" 0 "U's skips in the recording"
assert_true "text report lists O" grep -qE ' /O$' "$S/r.txt"
"$T" report --ids "$REC" >"$S/ids.txt" || fail "report --ids failed"
assert_false "report --ids names no path" grep -qE ' /O$' "$S/ids.txt"
# Another file: the same events in an instance buffer of trace-cmd.
trace-cmd record -q -B mslrec -e memcg_softlimit -o "$S/inst.dat" >"$S/record2.log" 2>&1 &
rec=$!
wait_started $rec grep -q 1 "$MSL_TRACEFS/instances/mslrec/events/memcg_softlimit/snapshot/enable" ||
	fail "trace-cmd record -B did not start ($WAIT_WHY): $(cat "$S/record2.log")"
sleep 1
"$T" stat >/dev/null || fail "stat failed"
sleep 1
kill -INT "$rec"
wait "$rec" || true
"$T" report --snapshot --json -a "$S/inst.dat" >"$S/inst.json" 2>"$S/inst.err" ||
	fail "report of a recording with an instance buffer: $(cat "$S/inst.err")"
assert_true "snapshot found in the instance buffer" grep -q '"source":"snapshot"' "$S/inst.json"
assert_eq "$(ls "$MSL_TRACEFS/instances" | grep -c '^memcg-softlimit-')" 0 "memcg-softlimit instances left behind"
msl_unload
