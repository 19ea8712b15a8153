#!/bin/bash
# configs: all
# timeout: 900
# On one configuration per kernel and per cgroup version (6.1 v1, 6.12 v2):
# what it reads (tracefs, the module's events and counters) does not depend
# on the LRU; the policy itself is tested on all four (t-2x, t-30).
# The bpftrace scripts in tools/bpftrace attach to the module's tracepoints
# with Debian 12's bpftrace (0.17, args->field) and count what the
# module's own counters count.
. "$MSL_PAYLOAD/guest/patch-cases.sh"
. "$MSL_PAYLOAD/guest/counters.sh"
BT=$MSL_PAYLOAD/bpftrace
[ -d "$BT" ] || fail "no bpftrace scripts in the payload ($BT)"
command -v bpftrace >/dev/null || fail "bpftrace is not installed in the guest"
note "$(bpftrace --version)"
msl_load
build_tree
apply_limits 1
ida1=$(cg_id A/A1)
idb=$(cg_id B)

# run_bt SCRIPT OUT: start a script, wait until it is attached (bpftrace
# compiles it with LLVM first: 5-10 s each under TCG).
run_bt() {
	local t0=$SECONDS
	bpftrace "$BT/$1" >"$2" 2>&1 &
	BT_PID=$!
	if ! wait_until 180 grep -q 'Ctrl-C' "$2"; then
		# Where it was, for the report.
		note "$1: $(tr '\0' ' ' <"/proc/$BT_PID/cmdline" 2>/dev/null) state $(awk '{print $3}' "/proc/$BT_PID/stat" 2>/dev/null) wchan $(cat "/proc/$BT_PID/wchan" 2>/dev/null) utime+stime $(awk '{print $14 + $15}' "/proc/$BT_PID/stat" 2>/dev/null) ticks"
		note "meminfo: $(grep -E '^(MemFree|Cached|SUnreclaim|SReclaimable):' /proc/meminfo | tr -s ' ' | tr '\n' ' ')"
		fail "$1 did not attach in 180 s: $(head -c 400 "$2")"
	fi
	note "$1 attached in $((SECONDS - t0)) s"
}
# stop_bts PID...: SIGINT each script, every 5 s until it exits (it
# prints its maps first).  bpftrace 0.17 notices a SIGINT only when it
# interrupts its epoll_wait(): one that lands while it prints an event
# sets a flag its poll loop never reads, and it runs on (seen hanging this
# test for 900 s once in ten runs).  A script still there 120 s on fails
# the test, saying where it is.
stop_bts() {
	local pid deadline n
	for pid in "$@"; do
		deadline=$((SECONDS + 120)) n=0
		while kill -INT "$pid" 2>/dev/null; do
			n=$((n + 1))
			wait_until 5 eval "! kill -0 $pid 2>/dev/null" && break
			if [ $SECONDS -ge $deadline ]; then
				note "bpftrace $pid: state $(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) wchan $(cat "/proc/$pid/wchan" 2>/dev/null)"
				fail "bpftrace $pid did not exit within 120 s of SIGINTs"
			fi
		done
		[ "$n" -le 1 ] || note "bpftrace $pid exited after $n SIGINTs"
		wait "$pid" 2>/dev/null || true
	done
}

# The scripts count from when they attach, the snapshots between two
# requests: the tree is filled only once both are counting, and snapshots
# before and after attaching show that nothing happened in between.
# (decision events too, enabled before any pressure: the loop below looks
# for B's skip in them.)
echo 8192 >"$MSL_TRACEFS/buffer_size_kb"
trace_clear
trace_enable memcg_softlimit/snapshot
trace_enable memcg_softlimit/snapshot_done
trace_enable memcg_softlimit/decision
wait_reclaim_quiet
snapshot_now
for s in decisions-by-reason.bt top-skipped.bt reclaimed-hist.bt skips-per-second.bt; do
	run_bt "$s" "$MSL_SCRATCH/$s.out"
	BT_PIDS+=" $BT_PID"
done
snapshot_now
note "scripts attached: filling the tree, then streaming 512 MiB from S"
fill_tree
stream_sparse S 512
# (MGLRU meets B at a first pass seldom: see case-run.sh)
for extra in 1 2 3; do
	decided "$idb" "verdict=skip reason=under " && break
	note "extra stream $extra: B not skipped yet"
	stream_sparse S 512
done
note "streamed: waiting for reclaim to stop"
wait_reclaim_quiet
# Reclaim may still decide between the last snapshot and the scripts'
# detaching: a script's count lies between the snapshot taken before it
# is stopped (s2) and the one taken after (s3).
snapshot_now
note "stopping the scripts"
# shellcheck disable=SC2086 # a list of pids
stop_bts $BT_PIDS
snapshot_now
trace_dump >"$MSL_SCRATCH/snap.txt"
S=$MSL_SCRATCH/snap.txt
s3=$(last_seq "$S")
s2=$((s3 - 1))
s1=$((s3 - 2))
s0=$((s3 - 3))
# delta ID FIELD [TO]: FIELD's growth from s1 to TO (default s2)
delta() {
	local a b
	a=$(snapshot_field "$S" "$s1" "$1" "$2")
	b=$(snapshot_field "$S" "${3:-$s2}" "$1" "$2")
	echo $((${b:-0} - ${a:-0}))
}
# assert_window GOT ID FIELD... DESC: GOT lies between the sum of FIELDs'
# growth to s2 and to s3
assert_window() {
	local got=$1 id=$2 desc=${*: -1} lo=0 hi=0 f
	for f in "${@:3:$#-3}"; do
		lo=$((lo + $(delta "$id" "$f")))
		hi=$((hi + $(delta "$id" "$f" "$s3")))
	done
	assert_ge "${got:-0}" "$lo" "$desc (at least the count before the scripts stopped)"
	assert_le "${got:-0}" "$hi" "$desc (at most the count after)"
}
for id in "$ida1" "$idb"; do
	for f in over under reclaimed_kswapd reclaimed_direct; do
		assert_eq "$(snapshot_field "$S" "$s1" "$id" "$f")" "$(snapshot_field "$S" "$s0" "$id" "$f")" \
			"cgroup $id $f changed while the scripts attached"
	done
done

out=$MSL_SCRATCH/decisions-by-reason.bt.out
note "decisions-by-reason.bt: $(grep -c '^@decisions' "$out") rows"
# @decisions[ID, over]: N  (the reason by its name)
bt_count() { sed -nE "s/^@decisions\[$1, $2\]: ([0-9]+)/\1/p" "$out" | head -n 1; }
assert_window "$(bt_count "$ida1" over)" "$ida1" over "A1 over: bpftrace vs snapshot"
assert_window "$(bt_count "$idb" under)" "$idb" under "B under: bpftrace vs snapshot"
assert_false "decisions-by-reason.bt: every reason named" grep -qE '^@decisions\[[0-9]+, \]' "$out"
assert_gt "$(delta "$idb" under)" 0 "B was skipped"

out=$MSL_SCRATCH/top-skipped.bt.out
got=$(sed -nE "s/^@skipped\[$idb\]: ([0-9]+)/\1/p" "$out")
assert_window "$got" "$idb" under "top-skipped.bt: B's skips vs snapshot"

out=$MSL_SCRATCH/reclaimed-hist.bt.out
got=$(sed -nE "s/^@reclaimed_pages\[$ida1\]: ([0-9]+)/\1/p" "$out")
assert_window "$got" "$ida1" reclaimed_kswapd reclaimed_direct "reclaimed-hist.bt: A1's pages vs snapshot"
assert_true "a histogram was printed" grep -q '^@pages_per_call' "$out"

out=$MSL_SCRATCH/skips-per-second.bt.out
got=$(sed -nE "s/^@total\[$idb\]: ([0-9]+)/\1/p" "$out")
assert_window "$got" "$idb" under "skips-per-second.bt: B's total vs snapshot"
assert_ge "$(grep -cE '^[0-9]{2}:[0-9]{2}:[0-9]{2}$' "$out")" 2 "per-second lines"
note "paths: $(grep -h '^cgroup ' "$MSL_SCRATCH"/decisions-by-reason.bt.out | head -n 6 | tr '\n' '|')"
# Each script names the cgroups it met by path, once each (cgroup_path()).
case $MSL_CGROUP_VERSION in 1) H=memory ;; *) H=unified ;; esac
for s in decisions-by-reason.bt top-skipped.bt skips-per-second.bt; do
	out=$MSL_SCRATCH/$s.out
	assert_true "$s names A1 by path" grep -qE "^cgroup $ida1 is (.*[^a-z_])?$H:/A/A1([^A-Za-z0-9_./-]|\$)" "$out"
	assert_true "$s names B by path" grep -qE "^cgroup $idb is (.*[^a-z_])?$H:/B([^A-Za-z0-9_./-]|\$)" "$out"
	# Once, or once per CPU at most: the scripts' test-then-set of
	# @named is not atomic (bpftrace 0.17 has no such operation), and
	# two CPUs can meet B at the same instant.
	assert_le "$(grep -c "^cgroup $idb is " "$out")" "$(nproc)" "$s names B once (per CPU at most)"
done
out=$MSL_SCRATCH/reclaimed-hist.bt.out
assert_true "reclaimed-hist.bt names A1 by path" grep -qE "^cgroup $ida1 is (.*[^a-z_])?$H:/A/A1([^A-Za-z0-9_./-]|\$)" "$out"
msl_unload
