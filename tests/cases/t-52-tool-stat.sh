#!/bin/bash
# configs: all
# timeout: 600
# On one configuration per kernel and per cgroup version (6.1 v1, 6.12 v2):
# what it reads (tracefs, the module's events and counters) does not depend
# on the LRU; the policy itself is tested on all four (t-2x, t-30).
# memcg-softlimit stat: its totals are the module's snapshot and add up to
# the decisions the test forced.  O is over its soft limit and U under it
# (max); reclaim at the first pass must reclaim O and skip U.  cgroup v2:
# memory.reclaim on the root cgroup (proactive, deterministic); v1: global
# pressure from S.  The top-level buffer records every event from the
# module's load on, so every counter can be checked against the events.
[ -n "${MSL_TOOL:-}" ] || skip "no memcg-softlimit in the payload (tools/ not built)"
T=$MSL_TOOL
S=$MSL_SCRATCH
REASONS="policy_off targeted root below_threshold over ancestor_over nothing_eligible under sibling_over none_over excess_share retry"
KINDS="kswapd direct proactive targeted"
# jrow FILE ID: the line of cgroup ID in a JSON document of the tool
jrow() { grep -E "^\{\"id\":$2," "$1" | head -n 1; }
# jget LINE KEY: decisions by reason (over), pages (scanned.kswapd, from
# scanned_bytes; reclaimed_total, from reclaimed_bytes_total), top level
PS=$(getconf PAGESIZE)
jget() {
	local v
	case $2 in
	scanned.* | reclaimed.*)
		v=$(sed -nE "s/.*\"${2%%.*}_bytes\":\{[^}]*\"${2#*.}\":([0-9]+).*/\1/p" <<<"$1")
		[ -z "$v" ] || echo $((v / PS)) ;;
	*_total)
		v=$(sed -nE "s/.*\"${2%_total}_bytes_total\":([0-9]+).*/\1/p" <<<"$1" | head -n 1)
		[ -z "$v" ] || echo $((v / PS)) ;;
	reclaims | skips | seq | nr_tracked | untracked) sed -nE "s/.*\"$2\":([0-9]+).*/\1/p" <<<"$1" | head -n 1 ;;
	*) sed -nE "s/.*\"decisions\":\{[^}]*\"$2\":([0-9]+).*/\1/p" <<<"$1" ;;
	esac
}
# snap FILE SEQ ID FIELD: a field of the snapshot event of ID in SEQ
snap() {
	grep -E "snapshot: seq=$2 cgroup_id=$3 " "$1" | head -n 1 | sed -nE "s/.* $4=([0-9]+).*/\1/p"
}
# before_snap FILE SEQ ID: the trace up to the snapshot event of ID in SEQ
before_snap() {
	awk -v pat="snapshot: seq=$2 cgroup_id=$3 " 'index($0, pat) { exit } { print }' "$1"
}
workload() { root_pressure 20; }

msl_load
echo 8192 >"$MSL_TRACEFS/buffer_size_kb"
trace_clear
trace_enable memcg_softlimit
cg_create O
cg_create U
cg_create S
"$T" set /O 1M || fail "set /O"
"$T" set /U max || fail "set /U"
fill_pagecaches O fill.O 40 U fill.U 40
assert_ge "$(cg_file_mib O)" 30 "O's page cache"
assert_ge "$(cg_file_mib U)" 30 "U's page cache"
ID_O=$(stat -c %i "$(cg_path O)")
ID_U=$(stat -c %i "$(cg_path U)")

"$T" stat --json -a >"$S/first.json" || fail "stat --json failed"
# Intervals while the workload runs, until SIGTERM: deltas of consecutive
# snapshots.
n0=$(grep -c 'snapshot_done:' "$MSL_TRACEFS/trace")
"$T" stat --json -a 1 >"$S/deltas.json" 2>"$S/deltas.err" &
st=$!
# The workload starts once stat -i took its first snapshot (in the trace).
more_snapshots() { [ "$(grep -c 'snapshot_done:' "$MSL_TRACEFS/trace")" -gt "$n0" ]; }
wait_until 20 more_snapshots ||
	fail "stat -i took no snapshot: $(cat "$S/deltas.err")"
workload
# (MGLRU meets U at a first pass seldom: see case-run.sh)
if [ "$MSL_CGROUP_VERSION" = 2 ]; then
	U_MUST="effective_priority=12 kind=proactive verdict=skip reason=under "
	O_MUST="effective_priority=12 kind=proactive verdict=reclaim reason=over "
else
	U_MUST="verdict=skip reason=under " O_MUST="verdict=reclaim reason=over "
fi
for extra in 1 2 3; do
	decided "$ID_U" "$U_MUST" && decided "$ID_O" "$O_MUST" && break
	note "extra workload $extra: U not skipped or O not reclaimed yet"
	workload
done
wait_reclaim_quiet
sleep 1.5
kill -TERM $st
wait $st || fail "stat -i failed: $(cat "$S/deltas.err")"
"$T" stat --json -a >"$S/final.json" || fail "stat --json failed"
"$T" stat >"$S/final.txt" || fail "stat (text) failed"
"$T" stat -q --prometheus "$S/msl.prom" || fail "stat --prometheus failed"
perl "$MSL_PAYLOAD/guest/prom-check.pl" "$S/msl.prom" || fail "stat --prometheus wrote an invalid file"
"$T" stat -q -a --id-label --prometheus "$S/msl-all.prom" || fail "stat --prometheus -a --id-label failed"
perl "$MSL_PAYLOAD/guest/prom-check.pl" "$S/msl-all.prom" || fail "stat --prometheus -a --id-label wrote an invalid file"
# Every interval replaces the file; each one parses.
"$T" stat -q --prometheus "$S/msl-i.prom" 0.3 6 &
sp=$!
checks=0
while kill -0 $sp 2>/dev/null; do
	if [ -e "$S/msl-i.prom" ]; then
		perl "$MSL_PAYLOAD/guest/prom-check.pl" "$S/msl-i.prom" >/dev/null ||
			fail "an interval's file did not parse: $(perl "$MSL_PAYLOAD/guest/prom-check.pl" "$S/msl-i.prom")"
		checks=$((checks + 1))
	fi
	sleep 0.1
done
wait $sp || fail "stat --prometheus 0.3 6 failed"
assert_gt "$checks" 3 "interval files parsed while stat wrote them"
trace_disable memcg_softlimit
trace_dump >"$S/trace.txt"
grep -q LOST "$S/trace.txt" && fail "the top-level buffer lost events: $(grep -m1 LOST "$S/trace.txt")"
note "stat: $(grep -E ' /(O|U|S)$' "$S/final.txt" | tr -s ' ' | tr '\n' '|')"
echo "---- stat"; cat "$S/final.txt"

seq=$(jget "$(head -n 1 "$S/final.json")" seq)
[ -n "$seq" ] || fail "no seq in stat --json: $(head -c 300 "$S/final.json")"
assert_true "the snapshot the tool asked for is in the top-level buffer" grep -q "snapshot_done: seq=$seq " "$S/trace.txt"
assert_eq "$(grep -c "snapshot: seq=$seq " "$S/trace.txt")" "$(grep -c '^{"id"' "$S/final.json")" "cgroups in the snapshot vs in stat --json -a"

for cg in O U; do
	id=$(stat -c %i "$(cg_path $cg)")
	row=$(jrow "$S/final.json" "$id")
	[ -n "$row" ] || fail "$cg (id $id) missing from stat --json"
	before_snap "$S/trace.txt" "$seq" "$id" >"$S/events.$cg"
	assert_true "$cg's path" grep -q "\"path\":\"/$cg\"" <<<"$row"
	for r in $REASONS; do
		assert_eq "$(jget "$row" "$r")" "$(snap "$S/trace.txt" "$seq" "$id" "$r")" "$cg $r: stat vs snapshot"
		n=$(grep -E "decision: cgroup_id=$id " "$S/events.$cg" | grep -c "reason=$r " || true)
		assert_eq "$(jget "$row" "$r")" "$n" "$cg $r: stat vs decision events"
	done
	for k in $KINDS; do
		assert_eq "$(jget "$row" "scanned.$k")" "$(snap "$S/trace.txt" "$seq" "$id" "scanned_$k")" "$cg scanned_$k: stat vs snapshot"
		assert_eq "$(jget "$row" "reclaimed.$k")" "$(snap "$S/trace.txt" "$seq" "$id" "reclaimed_$k")" "$cg reclaimed_$k: stat vs snapshot"
		got=$(grep -E "reclaimed: cgroup_id=$id .*kind=$k " "$S/events.$cg" |
			sed -nE 's/.* nr_reclaimed=([0-9]+).*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
		assert_eq "$(jget "$row" "reclaimed.$k")" "$got" "$cg reclaimed_$k: stat vs reclaimed events"
	done
done

# The decisions the test forced: O over, never skipped; U skipped, never over.
O=$(jrow "$S/final.json" "$ID_O")
U=$(jrow "$S/final.json" "$ID_U")
note "O: over=$(jget "$O" over) skips=$(jget "$O" skips) reclaimed=$(jget "$O" reclaimed_total) pages; U: under=$(jget "$U" under) reclaims=$(jget "$U" reclaims)"
assert_gt "$(jget "$O" over)" 0 "O reclaimed as over"
# O is skipped only once reclaim has taken it under its limit (or before
# it was filled): each skip event says so itself.
bad=$(grep -E "decision: cgroup_id=$ID_O .*verdict=skip" "$S/trace.txt" |
	awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	       if (f["usage"] + 0 > f["soft_limit"] + 0) print }' | head -n 2)
[ -z "$bad" ] || fail "O skipped while over its soft limit: $bad"
assert_gt "$(jget "$U" under)" 0 "U skipped as under"
assert_eq "$(jget "$U" over)" 0 "U over"
assert_eq "$(jget "$U" ancestor_over)" 0 "U ancestor_over"
if [ "$MSL_CGROUP_VERSION" = 2 ]; then
	assert_gt "$(grep -cE "decision: cgroup_id=$ID_U .*effective_priority=12 kind=proactive verdict=skip reason=under" "$S/trace.txt")" 0 "proactive first-pass skips of U"
	assert_gt "$(grep -cE "decision: cgroup_id=$ID_O .*effective_priority=12 kind=proactive verdict=reclaim reason=over" "$S/trace.txt")" 0 "proactive first-pass reclaims of O"
fi
assert_true "text: O listed" grep -qE " /O$" "$S/final.txt"
assert_true "text: U listed" grep -qE " /U$" "$S/final.txt"

# stat -i: each interval is the difference of two consecutive snapshots.
ndocs=$(grep -c '^{"schema":1,"command":"stat",' "$S/deltas.json")
json_doc stat "$S/final.json"
json_doc stat_intervals "$S/deltas.json"
assert_ge "$ndocs" 2 "stat -i 1 documents"
assert_eq "$(grep -c '"delta":true,"interval":1.000,' "$S/deltas.json")" "$ndocs" "documents are deltas"
assert_true "every document is whole" test "$(grep -c '^\]}$' "$S/deltas.json")" = "$ndocs"
sum_over=0
for dseq in $(sed -nE 's/^\{"schema".*"seq":([0-9]+).*/\1/p' "$S/deltas.json"); do
	doc=$(awk -v s="\"seq\":$dseq," '/^\{"schema"/ { on = index($0, s) > 0 } on' "$S/deltas.json")
	for cg in O U; do
		id=$(stat -c %i "$(cg_path $cg)")
		row=$(grep -E "^\{\"id\":$id," <<<"$doc")
		for r in over under below_threshold; do
			a=$(snap "$S/trace.txt" $((dseq - 1)) "$id" "$r")
			b=$(snap "$S/trace.txt" "$dseq" "$id" "$r")
			# (v1: a cgroup has no counters before its first decision)
			got=$(jget "$row" "$r")
			assert_eq "${got:-0}" $((${b:-0} - ${a:-0})) "interval to snapshot $dseq: $cg $r"
		done
	done
	got=$(jget "$(grep -E "^\{\"id\":$ID_O," <<<"$doc")" over)
	sum_over=$((sum_over + ${got:-0}))
done
assert_gt "$sum_over" 0 "O's over decisions in the intervals"

# Prometheus: the same totals, labelled by path, pages as bytes.
assert_true "prometheus file written" test -s "$S/msl.prom"
assert_eq "$(ls "$S" | grep -c 'msl.*prom.tmp')" 0 "temporary files left"
assert_true "memcg_softlimit_up 1" grep -qx "memcg_softlimit_up 1" "$S/msl.prom"
line=$(grep -E "^memcg_softlimit_decisions_total\{cgroup=\"/O\",reason=\"over\"\} [0-9]+$" "$S/msl.prom")
[ -n "$line" ] || fail "no decisions_total line for O: $(grep -m3 decisions_total "$S/msl.prom")"
assert_ge "${line##* }" "$(jget "$O" over)" "prometheus O over vs stat"
assert_false "no id label unless asked" grep -q 'id="' "$S/msl.prom"
# Every cgroup's series from the start, at 0 (enabled=Y: never policy_off).
for cg in O U S; do
	assert_true "zero series for $cg" grep -qx "memcg_softlimit_decisions_total{cgroup=\"/$cg\",reason=\"policy_off\"} 0" "$S/msl.prom"
done
assert_true "the module's info" grep -qE '^memcg_softlimit_info\{version="[^"]+",policy="v8",gate="progress",' "$S/msl.prom"
assert_true "O's soft limit" grep -qE '^memcg_softlimit_soft_limit_bytes\{cgroup="/O",source="(set|v1)"\} 1048576$' "$S/msl.prom"
assert_true "U at max" grep -qE '^memcg_softlimit_soft_limit_bytes\{cgroup="/U",source="(max|v1)"\} \+Inf$' "$S/msl.prom"
assert_true "usage gauges" grep -qE '^memcg_softlimit_usage_bytes\{cgroup="/S"\} [0-9]+$' "$S/msl.prom"
assert_true "the over gauge" grep -qE '^memcg_softlimit_over\{cgroup="/U"\} 0$' "$S/msl.prom"
assert_true "the id label with --id-label" grep -qE "^memcg_softlimit_decisions_total\{cgroup=\"/O\",id=\"$ID_O\",reason=\"over\"\} [0-9]+$" "$S/msl-all.prom"
assert_true "prometheus TYPE lines" grep -q '^# TYPE memcg_softlimit_reclaimed_bytes_total counter$' "$S/msl.prom"
bytes=$(sed -nE 's/^memcg_softlimit_reclaimed_bytes_total\{cgroup="\/O",kind="(kswapd|direct|proactive)"\} ([0-9]+)$/\2/p' "$S/msl.prom" | awk '{ s += $1 } END { print s + 0 }')
pages=$(jget "$O" reclaimed_total)
assert_ge "$bytes" $((pages * $(getconf PAGESIZE))) "O's reclaimed bytes vs pages in stat --json"
# -T and -c: the time in each table, only the cgroups below a prefix.
"$T" stat -T -c /O -a >"$S/filtered.txt" || fail "stat -T -c /O failed"
echo "---- memcg-softlimit stat -T -c /O -a"; cat "$S/filtered.txt"
echo "---- memcg-softlimit stat -w"; "$T" stat -w
echo "---- memcg-softlimit --prometheus (head)"; head -n 12 "$S/msl.prom"
assert_true "stat -T: the time" grep -qE '^# [0-9]{2}:[0-9]{2}:[0-9]{2} snapshot' "$S/filtered.txt"
assert_true "stat -c /O: O" grep -qE ' /O$' "$S/filtered.txt"
assert_false "stat -c /O: no U" grep -qE ' /U$' "$S/filtered.txt"
assert_true "stat --json: the time" grep -qE '"source":"snapshot","delta":false,"interval":null,"time":[0-9]+\.[0-9]{3},' "$S/final.json"
# --raw and -o: columns a script can split.
"$T" stat --raw -o id,over,cgroup -c /O >"$S/raw.txt" || fail "stat --raw failed"
echo "---- memcg-softlimit stat --raw -o id,over,cgroup -c /O"; cat "$S/raw.txt"
echo "---- memcg-softlimit stat --json 1 1 (first lines)"; "$T" stat --json -c /O 0.5 1 | head -n 3
assert_eq "$(head -n 1 "$S/raw.txt")" "ID OVER CGROUP" "stat --raw header"
assert_eq "$(awk '$3 == "/O" { print $1 }' "$S/raw.txt")" "$ID_O" "stat --raw: O's id"
assert_eq "$(ls "$MSL_TRACEFS/instances")" "" "tracefs instances left behind"
msl_unload
