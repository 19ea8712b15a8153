#!/bin/bash
# configs: all
# Every parameter is documented in modinfo, switchable at runtime, and bad
# values are refused with the old value kept.
P=/sys/module/memcg_softlimit/parameters
info=$(modinfo "$MSL_KO")
for p in enabled priority_threshold unset_eligible keep_v1_reclaim test_field; do
	assert_true "modinfo documents $p" grep -q "^parm: *$p:" <<<"$info"
done

msl_load
assert_eq "$(cat $P/enabled)" Y "enabled by default"
assert_eq "$(cat $P/priority_threshold)" 12 "V8 threshold by default"
assert_eq "$(cat $P/unset_eligible)" Y "unset eligible by default"
assert_eq "$(cat $P/keep_v1_reclaim)" N "v1 rb-tree reclaim bypassed by default"

for bad in 13 -1 abc " " 99999999999 "6 7" 0x; do
	if printf '%s' "$bad" >$P/priority_threshold 2>/dev/null; then
		fail "priority_threshold accepted '$bad'"
	fi
	assert_eq "$(cat $P/priority_threshold)" 12 "threshold unchanged after '$bad'"
done
for good in 0 6 12; do
	echo "$good" >$P/priority_threshold || fail "threshold $good refused"
	assert_eq "$(cat $P/priority_threshold)" "$good"
done
for bad in maybe 2 -; do
	if printf '%s' "$bad" >$P/enabled 2>/dev/null; then
		fail "enabled accepted '$bad'"
	fi
	assert_eq "$(cat $P/enabled)" Y "enabled unchanged after '$bad'"
done
echo 0 >$P/enabled && assert_eq "$(cat $P/enabled)" N
echo 1 >$P/enabled && assert_eq "$(cat $P/enabled)" Y
echo N >$P/unset_eligible && assert_eq "$(cat $P/unset_eligible)" N

# An unprivileged user can change nothing.
if setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "echo 0 > $P/enabled" 2>/dev/null; then
	fail "nobody could write a parameter"
fi
assert_eq "$(cat $P/enabled)" Y "enabled unchanged by nobody"
msl_unload

# Load-time values take effect.
msl_load priority_threshold=8 enabled=0
assert_eq "$(cat $P/priority_threshold)" 8
assert_eq "$(cat $P/enabled)" N
msl_unload
assert_false "load with threshold 13" insmod "$MSL_KO" priority_threshold=13
assert_false "module left loaded" msl_loaded
