#!/bin/bash
# configs: all
# timeout: 600
# Per-memcg counters: trace-cmd records every decision with its reason, and
# the counts in the recording agree with the module's snapshot totals;
# decisions = reclaims + skips; pages reclaimed per cgroup agree with the
# cgroup's own memory.stat.
. "$MSL_PAYLOAD/guest/patch-cases.sh"
. "$MSL_PAYLOAD/guest/counters.sh"
msl_load
build_tree
apply_limits 2
declare -A ID
for cg in A A/A1 A/A2 B S; do
	ID[$cg]=$(cg_id "$cg")
done
fill_tree
declare -A FILE_BEFORE
for cg in $LEAVES; do
	FILE_BEFORE[$cg]=$(cg_file_bytes "$cg")
done

REC=$MSL_SCRATCH/rec.dat
trace-cmd record -q -b 8192 -e memcg_softlimit -o "$REC" >"$MSL_SCRATCH/record.log" 2>&1 &
rec=$!
# trace-cmd enables the events before it starts recording: wait for that.
wait_until 30 grep -q 1 "$MSL_TRACEFS/events/memcg_softlimit/decision/enable" ||
	fail "trace-cmd record did not start: $(cat "$MSL_SCRATCH/record.log")"
note "record-cmd while trace-cmd records: $(cat "$MSL_TRACEFS/options/record-cmd")"
sleep 1
wait_reclaim_quiet
snapshot_now
stream_sparse S 512
wait_reclaim_quiet
snapshot_now
sleep 1
kill -INT "$rec"
wait "$rec" || true
trace-cmd report -i "$REC" >"$MSL_SCRATCH/report.raw" 2>"$MSL_SCRATCH/report.err" ||
	fail "trace-cmd report failed: $(head -c 300 "$MSL_SCRATCH/report.err")"
# trace-cmd pads event names; tracefs does not.  One spacing for the greps.
R=$MSL_SCRATCH/report.txt
sed -E 's/ (decision|reclaimed|snapshot|snapshot_done): +/ \1: /' "$MSL_SCRATCH/report.raw" >"$R"
if grep -qi 'lost' "$R" "$MSL_SCRATCH/record.log"; then
	fail "trace-cmd lost events: $(grep -i lost "$R" "$MSL_SCRATCH/record.log" | head -n 3)"
fi
note "report: $(grep -c 'decision:' "$R") decisions, $(grep -c 'reclaimed:' "$R") reclaimed, $(grep -c 'snapshot:' "$R") snapshot events"
grep -E 'decision:' "$R" | grep -E 'kind=(kswapd|direct)' | head -n 2 | sed 's/^ */sample: /' | while read -r l; do note "$l"; done

s2=$(last_seq "$R")
[ -n "$s2" ] || fail "no snapshot_done in the recording"
s1=$((s2 - 1))
assert_true "words, not numbers, in the report" grep -qE 'decision: .*kind=(kswapd|direct|proactive) verdict=(reclaim|skip) reason=[a-z_]+' "$R"

for cg in A A/A1 A/A2 B S; do
	id=${ID[$cg]}
	W=$MSL_SCRATCH/window.${id}
	between_snapshots "$R" "$s1" "$s2" "$id" >"$W"
	line=""
	total_reclaim=0
	total_skip=0
	for reason in policy_off targeted root below_threshold over ancestor_over nothing_eligible under sibling_over none_over excess_share; do
		a=$(snapshot_field "$R" "$s1" "$id" "$reason")
		b=$(snapshot_field "$R" "$s2" "$id" "$reason")
		[ -n "$b" ] || fail "$cg (id $id) missing from snapshot $s2"
		delta=$((b - ${a:-0}))
		n=$(count_decisions "$W" "$id" "reason=$reason ")
		assert_eq "$n" "$delta" "$cg: $reason decisions in the recording vs the snapshot delta"
		case $reason in
		under|sibling_over|excess_share) total_skip=$((total_skip + n)) ;;
		*) total_reclaim=$((total_reclaim + n)) ;;
		esac
		[ "$delta" = 0 ] || line+="$reason=$delta "
	done
	assert_eq "$(count_decisions "$W" "$id" 'verdict=skip')" "$total_skip" "$cg: skips are the under, sibling_over and excess_share decisions"
	assert_eq "$(count_decisions "$W" "$id" 'verdict=reclaim')" "$total_reclaim" "$cg: decisions = reclaims + skips"
	for kind in kswapd direct; do
		a=$(snapshot_field "$R" "$s1" "$id" "reclaimed_$kind")
		b=$(snapshot_field "$R" "$s2" "$id" "reclaimed_$kind")
		got=$(grep -E "reclaimed: cgroup_id=$id .*kind=$kind " "$W" |
			sed -nE 's/.* nr_reclaimed=([0-9]+).*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
		assert_eq "$got" "$((b - ${a:-0}))" "$cg: pages reclaimed by $kind, recording vs snapshot"
		line+="reclaimed_$kind=$((b - ${a:-0})) "
	done
	note "$cg totals over the run: $line"
done

# Pages reclaimed per leaf vs the leaf's own page cache drop (memory.stat),
# within 10% + 1 MiB: the leaves are idle, so only reclaim moves them.
for cg in $LEAVES; do
	id=${ID[$cg]}
	pages=$(sum_reclaimed "$R" "$id" nr_reclaimed)
	drop=$(((FILE_BEFORE[$cg] - $(cg_file_bytes "$cg")) / 4096))
	note "$cg: reclaimed $pages pages by the counters, page cache dropped $drop pages"
	diff=$((pages - drop))
	[ $diff -lt 0 ] && diff=$((-diff))
	assert_le "$diff" $((drop / 10 + 256)) "$cg: counted vs memory.stat pages"
done
msl_unload
