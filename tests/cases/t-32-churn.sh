#!/bin/bash
# configs: all
# timeout: 900
# Cgroups created, filled, reclaimed and removed while reclaim runs: the
# counters of a removed cgroup disappear with it, and the module's state
# stays flat (nr_tracked in snapshot_done is the number of entries it holds).
. "$MSL_PAYLOAD/guest/patch-cases.sh"
. "$MSL_PAYLOAD/guest/counters.sh"
rounds=1000
is_long && rounds=10000
msl_load
cg_create S
for k in 0 1 2 3; do
	cg_create "C/c$k"
	# The churned cgroups below need a memcg of their own.
	[ "$MSL_CGROUP_VERSION" = 2 ] && cg_set "C/c$k" cgroup.subtree_control +memory
done
# 1,000 small files, uncached, so each cgroup charges its own page cache.
mkdir -p "$MSL_SCRATCH/churn"
perl -e 'for my $i (0 .. 999) { open(my $f, ">", "$ARGV[0]/f$i") or die; print $f ("x" x 65536); }' "$MSL_SCRATCH/churn"
sync
drop_caches
( while :; do stream_sparse S 512 s; done ) &
streamer=$!
trap 'kill $streamer 2>/dev/null; wait 2>/dev/null' EXIT

trace_clear
trace_enable memcg_softlimit/snapshot_done
trace_enable memcg_softlimit/snapshot
snapshot_now
sleep 2
ids=$MSL_SCRATCH/churned.ids
v2=0
[ "$MSL_CGROUP_VERSION" = 2 ] && v2=1
start=$SECONDS
for pass in $(seq "$((rounds / 1000))"); do
	perl "$MSL_PAYLOAD/guest/churn.pl" "$MSL_CGROUP_ROOT" C 1000 "$MSL_SCRATCH/churn" "$ids.$pass" "$v2" ||
		fail "churn pass $pass failed"
	drop_caches
done
cat "$ids".* >"$ids"
note "churned $rounds cgroups in $((SECONDS - start)) s"
kill $streamer 2>/dev/null
wait 2>/dev/null
trap - EXIT
# Let the sweep (every 10 s) drop any entry created during an rmdir.
sleep 11
snapshot_now
T=$MSL_SCRATCH/trace.txt
trace_dump >"$T"
sed -nE 's/.*snapshot_done: seq=([0-9]+) nr_tracked=([0-9]+) .*/seq \1: \2 entries/p' "$T" | tr '\n' ';' | { read -r l; note "nr_tracked over the run: $l"; }
first=$(sed -nE 's/.*snapshot_done: seq=[0-9]+ nr_tracked=([0-9]+) .*/\1/p' "$T" | head -n 1)
last=$(sed -nE 's/.*snapshot_done: seq=[0-9]+ nr_tracked=([0-9]+) .*/\1/p' "$T" | tail -n 1)
max=$(sed -nE 's/.*snapshot_done: seq=[0-9]+ nr_tracked=([0-9]+) .*/\1/p' "$T" | sort -n | tail -n 1)
seq=$(last_seq "$T")
left=$(grep -E "snapshot: seq=$seq " "$T" | sed -nE 's/.* cgroup_id=([0-9]+) .*/\1/p' | grep -cxFf "$ids" || true)
note "$rounds cgroups churned; entries: $first at the start, at most $max, $last at the end; $left of the removed cgroups still tracked"
assert_eq "$left" 0 "removed cgroups still in the snapshot"
assert_le "$last" $((first + 8)) "entries at the end vs the start"
assert_le "$max" $((first + 64)) "entries at any snapshot"
msl_unload
