#!/bin/bash
# configs: all
# tcg: single
# (Userspace reading the same events everywhere: one cgroup v1 + classic LRU
# and one cgroup v2 + MGLRU configuration cover it; t-50, t-51, t-52 and t-54
# run on the whole matrix.)
# memcg-softlimit reads through a private tracefs instance: the top-level
# buffer and its settings are never touched, a concurrent trace-cmd record
# keeps working, and the instance goes on exit, SIGINT, SIGTERM and SIGHUP
# (one left by SIGKILL is removed by the next run).
[ -n "${MSL_TOOL:-}" ] || skip "no memcg-softlimit in the payload (tools/ not built)"
T=$MSL_TOOL
S=$MSL_SCRATCH
TR=$MSL_TRACEFS
ours() { ls "$TR/instances" | grep -c '^memcg-softlimit-' || true; }
toplevel() {
	cat "$TR/tracing_on" "$TR/buffer_size_kb" "$TR/current_tracer" \
		"$TR/events/memcg_softlimit/enable" "$TR/events/memcg_softlimit/snapshot/enable"
	grep -c MSL-MARKER "$TR/trace"
}
msl_load
cg_create O
"$T" set /O 1M || fail "set /O"
echo MSL-MARKER >"$TR/trace_marker"
before=$(toplevel)
"$T" stat >"$S/out" || fail "stat failed"
"$T" tree >/dev/null || fail "tree failed"
"$T" top --batch 0.2 1 >/dev/null || fail "top failed"
assert_eq "$(toplevel)" "$before" "top-level tracing state after stat, tree, top"
assert_eq "$(grep -c 'snapshot' "$TR/trace")" 0 "snapshot events in the top-level buffer"
assert_eq "$(ours)" 0 "instances after normal exits"

# Signals: the instance exists while the tool runs and goes with it.
# (A script's background job starts with SIGINT ignored, which the tool
# respects, as it does nohup's SIGHUP: perl puts the defaults back.)
for sig in INT TERM HUP; do
	perl -e '$SIG{INT} = $SIG{HUP} = "DEFAULT"; exec @ARGV or die' "$T" stat 0.5 >"$S/sig.out" 2>&1 &
	pid=$!
	wait_started $pid test -d "$TR/instances/memcg-softlimit-$pid" || fail "no instance memcg-softlimit-$pid ($WAIT_WHY)"
	sleep 0.7
	kill -"$sig" $pid
	rc=0
	wait $pid || rc=$?
	assert_eq "$rc" 0 "stat -i exit status after SIG$sig"
	assert_false "instance gone after SIG$sig" test -d "$TR/instances/memcg-softlimit-$pid"
done
perl -e '$SIG{INT} = $SIG{HUP} = "DEFAULT"; exec @ARGV or die' "$T" top --batch 0.5 >/dev/null 2>&1 &
pid=$!
wait_started $pid test -d "$TR/instances/memcg-softlimit-$pid" || fail "no instance for top ($WAIT_WHY)"
kill -TERM $pid
wait $pid
assert_eq "$?" 0 "top's exit status after SIGTERM"
assert_false "top's instance gone after SIGTERM" test -d "$TR/instances/memcg-softlimit-$pid"

# Ignored on entry, SIGHUP stays ignored (nohup).
nohup "$T" stat 0.5 >/dev/null 2>&1 &
pid=$!
wait_started $pid test -d "$TR/instances/memcg-softlimit-$pid" || fail "no instance ($WAIT_WHY)"
kill -HUP $pid
sleep 1
assert_true "nohup: still running after SIGHUP" kill -0 $pid
kill -TERM $pid
wait $pid
assert_false "instance gone" test -d "$TR/instances/memcg-softlimit-$pid"

# SIGKILL leaves it; the next run removes it (its process is gone).
"$T" stat 0.5 >/dev/null 2>&1 &
pid=$!
wait_started $pid test -d "$TR/instances/memcg-softlimit-$pid" || fail "no instance ($WAIT_WHY)"
kill -KILL $pid
wait $pid 2>/dev/null
assert_true "SIGKILL leaves the instance" test -d "$TR/instances/memcg-softlimit-$pid"
"$T" stat >/dev/null || fail "stat failed"
assert_false "the next run removed the stale instance" test -d "$TR/instances/memcg-softlimit-$pid"
assert_eq "$(ours)" 0 "instances"

# Beside a trace-cmd recording of the same events.
trace-cmd record -q -e memcg_softlimit -o "$S/rec.dat" >"$S/record.log" 2>&1 &
rec=$!
wait_started $rec grep -q 1 "$TR/events/memcg_softlimit/snapshot/enable" ||
	fail "trace-cmd record did not start ($WAIT_WHY): $(cat "$S/record.log")"
"$T" stat --json >"$S/a.json" || fail "stat during trace-cmd record failed"
"$T" stat --json >"$S/b.json" || fail "stat during trace-cmd record failed"
kill -INT $rec
wait $rec
trace-cmd report -i "$S/rec.dat" >"$S/rec.txt" 2>/dev/null || fail "trace-cmd report failed"
assert_eq "$(grep -c 'snapshot_done:' "$S/rec.txt")" 2 "trace-cmd recorded both snapshots the tool asked for"
assert_eq "$(ours)" 0 "instances"
assert_eq "$(cat "$TR/events/memcg_softlimit/enable")" 0 "trace-cmd restored the events"
msl_unload
