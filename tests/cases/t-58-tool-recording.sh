#!/bin/bash
# configs: 6.1-v1-classic 6.12-v2-mglru
# timeout: 600
# (Userspace reading the same events everywhere: one cgroup v1 + classic LRU
# and one cgroup v2 + MGLRU configuration cover it.)
# A small real recording of the module's events, made as an operator
# would (trace-cmd start -e memcg_softlimit, snapshots from stat while it
# runs, the patch's case 1 under pressure, trace-cmd extract once the
# pressure is over), read by report and checked
# against trace-cmd's own reading (tests/guest/report-check.sh, the check
# tests/unit runs on the sample kept in tests/unit/data).  With
# msl.record_sample=1 on the kernel command line (tests/record-sample),
# the recording is also sent back on the verdict channel, zstd and base64,
# as "INFO t-58-tool-recording sample| ..." lines, to become that sample.
[ -n "${MSL_TOOL:-}" ] || skip "no memcg-softlimit in the payload (tools/ not built)"
. "$MSL_PAYLOAD/guest/patch-cases.sh"
T=$MSL_TOOL
S=$MSL_SCRATCH
REC=$S/sample.dat
msl_load
build_tree
apply_limits 1

# The recording keeps /proc/kallsyms (megabytes) unless it reads empty:
# the module's events need no kernel symbols.
: >"$S/no-kallsyms"
mount --bind "$S/no-kallsyms" /proc/kallsyms || fail "cannot hide /proc/kallsyms"
# Into the kernel's ring buffer, extracted after the pressure: trace-cmd
# record's readers allocate a page per splice, with __GFP_NORETRY, and under
# this test's pressure one such allocation failed and the recording lost
# everything after it, the snapshots included (seen once, 6.1 v1).
trace-cmd start -b 4096 -e memcg_softlimit >"$S/record.log" 2>&1 ||
	fail "trace-cmd start failed: $(cat "$S/record.log")"
grep -q 1 "$MSL_TRACEFS/events/memcg_softlimit/decision/enable" ||
	fail "trace-cmd start did not enable the module's events"
wait_reclaim_quiet
"$T" stat >/dev/null || fail "stat failed"
fill_tree
pressure
wait_reclaim_quiet
"$T" stat >/dev/null || fail "stat failed"
trace-cmd stop >>"$S/record.log" 2>&1
# The buffer overwrites its oldest events when full: none may be lost.
overrun=$(awk '/^overrun:/ { n += $2 } END { print n + 0 }' "$MSL_TRACEFS"/per_cpu/cpu*/stats)
assert_eq "$overrun" 0 "events the ring buffer overwrote"
trace-cmd extract -o "$REC" >>"$S/record.log" 2>&1 ||
	fail "trace-cmd extract failed: $(tail -n 3 "$S/record.log")"
trace-cmd reset >>"$S/record.log" 2>&1
umount /proc/kallsyms
note "recording: $(stat -c %s "$REC") bytes, $(trace-cmd report -i "$REC" 2>/dev/null | grep -c ' decision: ') decisions"
assert_le "$(stat -c %s "$REC")" $((4 * 1048576)) "the recording's size"

echo "---- memcg-softlimit report sample.dat"; "$T" report "$REC"
echo "---- memcg-softlimit report --snapshot -w sample.dat"; "$T" report --snapshot -w "$REC"
# report agrees with trace-cmd's own reading of it.
REPORT_CHECK_PREFIX=guest "$MSL_PAYLOAD/guest/report-check.sh" "$T" "$REC" >"$S/check.txt" 2>&1
cat "$S/check.txt"
grep -q '^RESULT PASS guest/decisions_by_cgroup_and_reason$' "$S/check.txt" || fail "report vs trace-cmd: $(grep FAIL "$S/check.txt" | head -n 3 | tr '\n' ' ')"
assert_eq "$(grep -c '^RESULT FAIL' "$S/check.txt")" 0 "report-check failures"
assert_eq "$(grep -c "^RESULT PASS" "$S/check.txt")" 7 "report-check passes (every check of report-check.sh)"
# Named by the recording, not by this machine: the same cgroups once they
# are gone here.
for cg in A/A1 B S; do
	assert_true "report names /$cg from the recording" grep -qE "\"path\":\"/$cg\"" <("$T" report --json -a "$REC" 2>/dev/null)
done

if grep -qw 'msl.record_sample=1' /proc/cmdline; then
	# Which cgroup each id was, for the sample's README.
	for cg in A A/A1 A/A2 B S; do
		echo "INFO $MSL_TEST sample-id| $(cg_id "$cg") /$cg" >>"$MSL_RESULTS"
	done
	echo "INFO $MSL_TEST sample-kernel| $(uname -r) $MSL_CONFIG" >>"$MSL_RESULTS"
	zstd -19 -q -c "$REC" | base64 -w 76 | sed "s/^/INFO $MSL_TEST sample| /" >>"$MSL_RESULTS"
	echo "INFO $MSL_TEST sample-end| $(sha256sum <"$REC" | cut -d' ' -f1)" >>"$MSL_RESULTS"
fi
msl_unload
