#!/bin/bash
# configs: all
# timeout: 600
# timeout-long: 5400
# tcg: single
# Loading, unloading and switching the policy while kswapd and direct
# reclaim run on both CPUs: no splat (the runner checks dmesg), no leak of
# module state (unloading WARNs on an entry left), and every unload
# completes.  4 load/unload cycles, then 1,000 policy switches in a fifth
# load (MSL_LONG=1: 1,000 cycles, about 4 s each under single-threaded TCG,
# and 20,000 switches; MSL_RUN_BUDGET=6000 leaves one config the time).
# threshold_of N: the N-th of auto, 0, 1, ... 12, round and round.
threshold_of() { local t=$(($1 % 14)); [ "$t" = 13 ] && t=auto; echo "$t"; }
. "$MSL_PAYLOAD/guest/patch-cases.sh"
# Every load and unload live-patches the entries of the hooked functions and
# kprobes' ftrace trampolines while both vCPUs run them.  With a host thread
# per vCPU, QEMU's TCG lets a vCPU run code another vCPU has just patched
# (a finished patch's int3; both vCPUs jumping to 0 from a hooked call right
# after a load), which real CPUs cannot do: here the 6.12 guest crashed that
# way in the 16th cycle with multi-threaded TCG, and ran 109 cycles clean
# with single-threaded TCG, whose vCPUs still interleave but take turns on
# one host thread.  Hence "# tcg: single" above (tests/vm/README.md).
cycles=4
is_long && cycles=1000
cg_create S1
cg_create S2
( while :; do stream_sparse S1 512 s1; done ) &
s1=$!
( while :; do stream_sparse S2 512 s2; done ) &
s2=$!
trap 'kill $s1 $s2 2>/dev/null; wait 2>/dev/null' EXIT
sleep 3
n=0
for i in $(seq "$cycles"); do
	msl_load >/dev/null
	[ "$MSL_CGROUP_VERSION" = 2 ] && echo "set /S1 1M" >/proc/memcg_softlimit/limits
	# Tracing in the first two cycles only: enabling an event patches its
	# static branch in the hot reclaim path, and QEMU's TCG has executed
	# the int3 of such a patch after the patch was complete (an "Oops:
	# int3" that real CPUs cannot produce).  Load and unload, which patch
	# the hooked functions' entries, stay in every cycle: they are the test.
	if [ "$i" -le 2 ]; then
		echo 1 >"$MSL_TRACEFS/events/memcg_softlimit/decision/enable"
		# Reclaim comes in bursts (a stream between two files, kswapd
		# balanced for a moment): wait for a decision rather than a
		# fixed time, so the switches below run while reclaim does.
		for _ in $(seq 100); do
			grep -q 'decision:' "$MSL_TRACEFS/trace" && break
			sleep 0.2
		done
	else
		sleep 0.2
	fi
	echo 0 >"/sys/module/$MSL_MODULE/parameters/enabled"
	echo 1 >"/sys/module/$MSL_MODULE/parameters/enabled"
	threshold_of "$i" >"/sys/module/$MSL_MODULE/parameters/priority_threshold"
	if [ "$i" -le 2 ]; then
		echo 0 >"$MSL_TRACEFS/events/memcg_softlimit/decision/enable"
		# Read while the module, and so the event's format, is still there.
		n=$((n + $(grep -c 'decision:' "$MSL_TRACEFS/trace" || true)))
		trace_clear
	fi
	msl_unload >/dev/null
done
note "$cycles load/unload cycles under pressure; $n decisions traced"
assert_gt "$n" 0 "decisions traced while cycling"

# The policy switched off and on 1,000 times (and the threshold moved)
# while reclaim runs, in one load: both kinds of decision keep coming.
switches=1000
is_long && switches=20000
msl_load >/dev/null
echo 4096 >"$MSL_TRACEFS/buffer_size_kb"
trace_clear
echo 1 >"$MSL_TRACEFS/events/memcg_softlimit/decision/enable"
P=/sys/module/$MSL_MODULE/parameters
# At least $switches switches, then on until both kinds of decision were
# traced (MGLRU decides rarely: it reclaims in large batches) or 60 s.
deadline=$((SECONDS + 60)) i=0 off=0 on=0
while :; do
	i=$((i + 1))
	echo $((i & 1)) >"$P/enabled"
	[ $((i % 50)) = 0 ] && threshold_of $((i / 50)) >"$P/priority_threshold"
	if [ "$i" -ge "$switches" ] && [ $((i % 100)) = 0 ]; then
		off=$(grep -c 'reason=policy_off' "$MSL_TRACEFS/trace" || true)
		on=$(grep 'decision:' "$MSL_TRACEFS/trace" | grep -vc 'reason=policy_off' || true)
		{ [ "$off" -gt 0 ] && [ "$on" -gt 0 ]; } || [ "$SECONDS" -ge "$deadline" ] && break
	fi
done
echo 0 >"$MSL_TRACEFS/events/memcg_softlimit/decision/enable"
echo 1 >"$P/enabled"
echo auto >"$P/priority_threshold"
switches=$i
note "$switches policy switches under pressure: $off policy_off and $on other decisions traced"
assert_gt "$off" 0 "decisions while the policy was off"
assert_gt "$on" 0 "decisions while the policy was on"
assert_eq "$(cat "$P/enabled")" Y "enabled after the switches"
trace_clear
msl_unload >/dev/null
kill $s1 $s2 2>/dev/null
wait 2>/dev/null
trap - EXIT
