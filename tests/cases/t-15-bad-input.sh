#!/bin/bash
# configs: all
# timeout: 900
# 100,000 generated bad writes to the control file and 12,005 to the
# parameters (perl: a shell loop forking per write took three minutes
# under TCG), two writers racing each other and valid writers: every one is refused and
# nothing changes (state read back); set/unset racing rmdir leaves no entry
# for a removed cgroup.
n=50000
is_long && n=500000
CTL=/proc/memcg_softlimit/limits
P=/sys/module/memcg_softlimit/parameters
msl_load
cg_create fz
cg_create R
[ "$MSL_CGROUP_VERSION" = 2 ] && { echo "set /fz 64M" >"$CTL" || fail "set /fz"; }
limits_before=$(cat "$CTL")
params_before=$(grep -H . $P/enabled $P/priority_threshold $P/unset $P/keep_v1_reclaim)

perl "$MSL_PAYLOAD/guest/fuzz-ctl.pl" "$CTL" "$n" 1 >"$MSL_SCRATCH/fz1" 2>&1 &
f1=$!
perl "$MSL_PAYLOAD/guest/fuzz-ctl.pl" "$CTL" "$n" 2 >"$MSL_SCRATCH/fz2" 2>&1 &
f2=$!
# Valid writers racing them: a cgroup's limit set and unset, and a cgroup
# removed while its limit is being set.
racer() {
	local i
	for i in $(seq 200); do
		echo "set /R ${i}M" >"$CTL" 2>/dev/null
		echo "unset /R" >"$CTL" 2>/dev/null
		mkdir "$MSL_CGROUP_ROOT/Z$((i % 4))" 2>/dev/null
		echo "set /Z$((i % 4)) 1G" >"$CTL" 2>/dev/null &
		rmdir "$MSL_CGROUP_ROOT/Z$((i % 4))" 2>/dev/null
		wait
	done
}
racer &
r=$!
# Parameters: values no parser may accept.
perl "$MSL_PAYLOAD/guest/fuzz-param.pl" "$P" 2000 3 >"$MSL_SCRATCH/fzp" 2>&1
wait $f1 $f2 $r
note "fuzzer 1: $(tr '\n' ' ' <"$MSL_SCRATCH/fz1"); fuzzer 2: $(tr '\n' ' ' <"$MSL_SCRATCH/fz2"); parameters: $(tr '\n' ' ' <"$MSL_SCRATCH/fzp")"
assert_true "fuzzer 1 ran" grep -q '^accepted' "$MSL_SCRATCH/fz1"
assert_true "fuzzer 2 ran" grep -q '^accepted' "$MSL_SCRATCH/fz2"
assert_eq "$(sed -n 's/^accepted //p' "$MSL_SCRATCH/fz1")" 0 "bad control writes accepted (fuzzer 1)"
assert_eq "$(sed -n 's/^accepted //p' "$MSL_SCRATCH/fz2")" 0 "bad control writes accepted (fuzzer 2)"
assert_true "parameter fuzzer ran" grep -q '^accepted' "$MSL_SCRATCH/fzp"
assert_eq "$(sed -n 's/^writes //p' "$MSL_SCRATCH/fzp")" 12005 "parameter writes made"
assert_eq "$(sed -n 's/^accepted //p' "$MSL_SCRATCH/fzp")" 0 "bad parameter writes accepted"
assert_eq "$(grep -H . $P/enabled $P/priority_threshold $P/unset $P/keep_v1_reclaim)" "$params_before" "parameters after the fuzzing"
echo "unset /R" >"$CTL" 2>/dev/null
assert_eq "$(grep -v ' /Z[0-9]$' "$CTL")" "$limits_before" "limits after the fuzzing"
for z in 0 1 2 3; do
	rmdir "$MSL_CGROUP_ROOT/Z$z" 2>/dev/null
done
assert_false "limit of a removed cgroup left behind" grep -qE ' /Z[0-9]$| \(removed\)$' "$CTL"
msl_unload
