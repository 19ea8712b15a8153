#!/bin/bash
# configs: 6.1-v1-classic 6.12-v2-mglru
# timeout: 900
# On one cgroup v1 and one v2 configuration (the parsing is the same on
# every kernel): 100,000 generated bad writes to the control file and parameters, two
# writers racing each other and valid writers: every one is refused and
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
params_before=$(grep -H . $P/enabled $P/priority_threshold $P/unset_eligible $P/keep_v1_reclaim)

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
pbad=0
for i in $(seq 2000); do
	for v in "$((13 + i))" "-$i" "x$i" "12x" "1 2" "$(head -c 8 /dev/urandom | tr -d '\0\n')"; do
		printf '%s' "$v" >$P/priority_threshold 2>/dev/null && pbad=$((pbad + 1))
	done
done
for v in maybe 2 - "" "é"; do
	printf '%s' "$v" >$P/enabled 2>/dev/null && [ -n "$v" ] && pbad=$((pbad + 1))
done
wait $f1 $f2 $r
note "fuzzer 1: $(tr '\n' ' ' <"$MSL_SCRATCH/fz1"); fuzzer 2: $(tr '\n' ' ' <"$MSL_SCRATCH/fz2"); parameter writes accepted: $pbad of 12005"
assert_true "fuzzer 1 ran" grep -q '^accepted' "$MSL_SCRATCH/fz1"
assert_true "fuzzer 2 ran" grep -q '^accepted' "$MSL_SCRATCH/fz2"
assert_eq "$(sed -n 's/^accepted //p' "$MSL_SCRATCH/fz1")" 0 "bad control writes accepted (fuzzer 1)"
assert_eq "$(sed -n 's/^accepted //p' "$MSL_SCRATCH/fz2")" 0 "bad control writes accepted (fuzzer 2)"
assert_eq "$pbad" 0 "bad parameter writes accepted"
assert_eq "$(grep -H . $P/enabled $P/priority_threshold $P/unset_eligible $P/keep_v1_reclaim)" "$params_before" "parameters after the fuzzing"
echo "unset /R" >"$CTL" 2>/dev/null
assert_eq "$(grep -v ' /Z[0-9]$' "$CTL")" "$limits_before" "limits after the fuzzing"
for z in 0 1 2 3; do
	rmdir "$MSL_CGROUP_ROOT/Z$z" 2>/dev/null
done
assert_false "limit of a removed cgroup left behind" grep -qE ' /Z[0-9]$| \(removed\)$' "$CTL"
msl_unload
