#!/bin/bash
# configs: 6.1-v1-classic 6.12-v2-mglru
# (Userspace reading the same events everywhere: one cgroup v1 + classic LRU
# and one cgroup v2 + MGLRU configuration cover it.)
# memcg-softlimit-metrics.service, as its timer runs it (the guest has no
# systemd: its ExecStart is run as written, the tool's name taken from
# the payload): the file it writes in Debian's textfile directory of
# prometheus-node-exporter parses after every run, says
# memcg_softlimit_up 1 with the module and 0 without, and never keeps
# counters once the module is gone; counters never go down (the module
# reloaded, a cgroup removed) and every cgroup has its series from 0;
# the module's going and coming is said once; --depth folds.  The files
# with and without the module go to the host (prom_doc), where promtool
# checks them and Debian's node_exporter and Prometheus evaluate the
# shipped rules on them.
[ -n "${MSL_TOOL:-}" ] || skip "no memcg-softlimit in the payload (tools/ not built)"
UNITS=$MSL_PAYLOAD/systemd
SVC=$UNITS/memcg-softlimit-metrics.service
TIMER=$UNITS/memcg-softlimit-metrics.timer
CHECK=$MSL_PAYLOAD/guest/prom-check.pl
[ -f "$SVC" ] && [ -f "$TIMER" ] || fail "no metrics units in the payload ($UNITS)"
DIR=/var/lib/prometheus/node-exporter
PROM=$DIR/memcg_softlimit.prom

cmd=$(sed -n 's/^ExecStart=//p' "$SVC")
note "ExecStart: $cmd"
assert_true "the service writes into node_exporter's textfile directory" grep -q " $PROM\$" <<<"$cmd"
assert_true "the service needs that directory" grep -qx "ConditionPathIsDirectory=$DIR" "$SVC"
assert_true "the timer runs it every minute" grep -qx "OnUnitActiveSec=1min" "$TIMER"
assert_true "the timer is enabled by timers.target" grep -qx "WantedBy=timers.target" "$TIMER"
read -r -a argv <<<"$cmd"
# The packaged command by its path, never whatever PATH finds first.
[ "${argv[0]}" = /usr/sbin/memcg-softlimit ] || fail "ExecStart does not run /usr/sbin/memcg-softlimit: $cmd"
argv[0]=$MSL_TOOL
mkdir -p "$DIR"
# run_unit: the service's command as systemd would run it, then the file
# parsed; RUN_OUT is what it printed.
run_unit() {
	RUN_OUT=$("${argv[@]}" 2>&1) || fail "the service's command failed: $RUN_OUT"
	perl "$CHECK" "$PROM" || fail "$PROM does not parse: $(head -c 400 "$PROM")"
	assert_eq "$(ls "$DIR" | grep -c tmp)" 0 "temporary files in $DIR"
}
# counters FILE: "series value" of every counter
counters() { grep -E '^memcg_softlimit_[a-z_]+_total' "$1" | LC_ALL=C sort -k1,1; }
# never_down OLD NEW: no counter of OLD is lower in NEW (a series gone is
# a cgroup gone)
never_down() {
	local bad
	bad=$(LC_ALL=C join <(counters "$1") <(counters "$2") | awk '$3 < $2 { print; exit }')
	[ -z "$bad" ] || fail "a counter went down: $bad"
}

msl_load
cg_create O
cg_create S
"$MSL_TOOL" set /O 1M || fail "set /O"
# O's page cache, over its 1M, then global pressure: O is reclaimed as over.
stream_sparse O 64
root_pressure 32
wait_reclaim_quiet
run_unit
assert_eq "$RUN_OUT" "" "--quiet prints nothing"
assert_true "up 1 with the module" grep -qx "memcg_softlimit_up 1" "$PROM"
assert_true "O's decisions by path" grep -qE '^memcg_softlimit_decisions_total\{cgroup="/O",reason="[a-z_]+"\} [1-9][0-9]*$' "$PROM"
assert_false "no id label" grep -q 'id="' "$PROM"
assert_true "bytes" grep -q '^memcg_softlimit_reclaimed_bytes_total' "$PROM"
assert_eq "$(stat -c %a "$PROM")" 644 "readable by node_exporter's user"
echo "---- the metrics file"; cat "$PROM"
first=$(stat -c %i "$PROM")
cp "$PROM" "$MSL_SCRATCH/before.prom"
run_unit
assert_ne "$(stat -c %i "$PROM")" "$first" "each run replaces the file (a new inode by rename)"
assert_true "the state beside it" test -s "$PROM.state"
assert_true "every cgroup from 0" grep -qx 'memcg_softlimit_decisions_total{cgroup="/S",reason="retry"} 0' "$PROM"
never_down "$MSL_SCRATCH/before.prom" "$PROM"
cp "$PROM" "$MSL_SCRATCH/up.prom"
prom_doc up "$PROM"

# --depth: D/x counts into D.  (Not below O: a v2 cgroup with children
# and +memory for them takes no process, and O streams again below.)
cg_create D/x
"$MSL_TOOL" stat -q --depth 1 --prometheus "$MSL_SCRATCH/depth.prom" || fail "stat --depth 1 failed"
assert_true "--depth 1: D" grep -q 'cgroup="/D"' "$MSL_SCRATCH/depth.prom"
assert_false "--depth 1: no D/x" grep -q 'cgroup="/D/x"' "$MSL_SCRATCH/depth.prom"
cg_remove D

msl_unload
run_unit
echo "---- the metrics file without the module"; cat "$PROM"
note "without the module: $(grep -v '^# [HT]' "$PROM" | tr '\n' '|')"
assert_true "up 0 without the module" grep -qx "memcg_softlimit_up 0" "$PROM"
assert_false "no stale counters" grep -q '_total' "$PROM"
assert_true "the file says why" grep -q "^# memcg-softlimit: no memcg_softlimit module for the running kernel" "$PROM"
prom_doc down "$PROM"
assert_true "stderr says why too" grep -q "memcg_softlimit_up 0" <<<"$RUN_OUT"
run_unit
assert_eq "$RUN_OUT" "" "said once, not at every run"
msl_load
run_unit
assert_true "up 1 again" grep -qx "memcg_softlimit_up 1" "$PROM"
assert_true "the return said once" grep -q "loaded again" <<<"$RUN_OUT"
# The module's counters started again from 0; the series did not.
never_down "$MSL_SCRATCH/up.prom" "$PROM"
"$MSL_TOOL" set /O 1M || fail "set /O"
stream_sparse O 64
root_pressure 32
wait_reclaim_quiet
run_unit
never_down "$MSL_SCRATCH/up.prom" "$PROM"
cp "$PROM" "$MSL_SCRATCH/again.prom"
# O removed: its series ends, no counter goes down.
cg_remove O
run_unit
assert_false "O's series ended" grep -q 'cgroup="/O"' "$PROM"
never_down "$MSL_SCRATCH/again.prom" "$PROM"
rm -rf /var/lib/prometheus
msl_unload
