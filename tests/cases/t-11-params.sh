#!/bin/bash
# configs: all
# Every parameter is documented in modinfo, switchable at runtime, and bad
# values are refused with the old value kept.  The defaults are what the
# README promises: the progress gate, inherited unset limits, policy v8.
P=/sys/module/memcg_softlimit/parameters
info=$(modinfo "$MSL_KO")
for p in enabled priority_threshold unset policy keep_v1_reclaim \
	count_targeted test_field test_blind test_proto; do
	assert_true "modinfo documents $p" grep -q "^parm: *$p:" <<<"$info"
done

msl_load
assert_eq "$(cat $P/enabled)" Y "enabled by default"
assert_eq "$(cat $P/priority_threshold)" auto "the progress gate by default"
assert_eq "$(cat $P/unset)" inherit "unset limits inherited by default"
assert_eq "$(cat $P/policy)" v8 "policy v8 by default"
assert_eq "$(cat $P/keep_v1_reclaim)" N "v1 rb-tree reclaim bypassed by default"
assert_eq "$(cat $P/count_targeted)" N "targeted reclaim not counted by default"
assert_true "status says the progress gate" grep -qx "gate: progress" /proc/memcg_softlimit/status
assert_true "status says gating is active" grep -qx "gating: active" /proc/memcg_softlimit/status

for bad in 13 -1 abc " " 99999999999 "6 7" 0x Auto 0012; do
	if printf '%s' "$bad" >$P/priority_threshold 2>/dev/null; then
		fail "priority_threshold accepted '$bad'"
	fi
	assert_eq "$(cat $P/priority_threshold)" auto "threshold unchanged after '$bad'"
done
for good in 0 6 12 auto; do
	echo "$good" >$P/priority_threshold || fail "threshold $good refused"
	assert_eq "$(cat $P/priority_threshold)" "$good"
done
echo 12 >$P/priority_threshold
assert_true "status says the priority gate" grep -qx "gate: priority" /proc/memcg_softlimit/status
echo auto >$P/priority_threshold
for bad in maybe 2 -; do
	if printf '%s' "$bad" >$P/enabled 2>/dev/null; then
		fail "enabled accepted '$bad'"
	fi
	assert_eq "$(cat $P/enabled)" Y "enabled unchanged after '$bad'"
done
echo 0 >$P/enabled && assert_eq "$(cat $P/enabled)" N
echo 1 >$P/enabled && assert_eq "$(cat $P/enabled)" Y
# (echo: an empty printf writes nothing at all, and so fails nothing)
for bad in Y 1 zeros "" "max max"; do
	if echo "$bad" >$P/unset 2>/dev/null; then
		fail "unset accepted '$bad'"
	fi
	assert_eq "$(cat $P/unset)" inherit "unset unchanged after '$bad'"
done
for good in zero max inherit; do
	echo "$good" >$P/unset || fail "unset $good refused"
	assert_eq "$(cat $P/unset)" "$good"
done
for bad in V8 walks ""; do
	if echo "$bad" >$P/policy 2>/dev/null; then
		fail "policy accepted '$bad'"
	fi
	assert_eq "$(cat $P/policy)" v8 "policy unchanged after '$bad'"
done

# An unprivileged user can change nothing.
if setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "echo 0 > $P/enabled" 2>/dev/null; then
	fail "nobody could write a parameter"
fi
assert_eq "$(cat $P/enabled)" Y "enabled unchanged by nobody"
msl_unload

# Load-time values take effect.
msl_load priority_threshold=8 enabled=0 unset=zero
assert_eq "$(cat $P/priority_threshold)" 8
assert_eq "$(cat $P/enabled)" N
assert_eq "$(cat $P/unset)" zero
msl_unload
assert_false "load with threshold 13" insmod "$MSL_KO" priority_threshold=13
assert_false "load with unset=yes" insmod "$MSL_KO" unset=yes
assert_false "module left loaded" msl_loaded
