#!/bin/bash
# configs: all
# timeout: 300
# Fail closed: when global reclaim scans pages but no hooked step runs (a
# hooked function inlined into its caller on some build, say), the module
# warns once, says so in its status, and stops gating.  test_blind=1
# makes the hooks see steps without counting them.
. "$MSL_PAYLOAD/guest/patch-cases.sh"
S=/proc/memcg_softlimit/status
n=$(dmesg | wc -l)
msl_load test_blind=1
assert_true "gating active at load" grep -qx 'gating: active' "$S"
cg_create S
stopped() { grep -q '^gating: stopped' "$S"; }
deadline=$((SECONDS + 120))
until stopped || [ $SECONDS -ge $deadline ]; do
	stream_sparse S 256
done
note "status: $(tr '\n' ';' <"$S")"
assert_true "gating stopped" stopped
assert_true "status says why" grep -q 'no hooked step ran' "$S"
warns=$(dmesg | tail -n +"$((n + 1))" | grep -c 'memcg_softlimit: gating stopped' || true)
assert_eq "$warns" 1 "warnings in dmesg"
# Stopped for good: no decision is taken any more.
trace_clear
trace_enable memcg_softlimit/decision
stream_sparse S 256
trace_disable memcg_softlimit/decision
assert_eq "$(trace_count 'decision:')" 0 "decisions after gating stopped"
msl_unload
# A normal load gates again.
msl_load
assert_true "gating active after a reload" grep -qx 'gating: active' "$S"
msl_unload
