#!/bin/bash
# configs: all
# The module refuses to load, with one dmesg line naming what is missing,
# when a struct scan_control field does not resolve from BTF, and leaves
# nothing registered behind; a normal load afterwards works.
before=$(dmesg | wc -l)
if out=$(insmod "$MSL_KO" test_field=no_such_field 2>&1); then
	fail "insmod with a bogus field succeeded"
fi
note "insmod refused: $out"
msg=$(dmesg | tail -n +"$((before + 1))" | grep 'memcg_softlimit: refusing to load')
note "dmesg: $msg"
assert_eq "$(echo "$msg" | grep -c .)" 1 "refusal lines in dmesg"
assert_true "the refusal names the field" grep -q 'no field no_such_field' <<<"$msg"
assert_false "module left loaded" msl_loaded
assert_false "proc directory left behind" test -e /proc/memcg_softlimit
assert_false "kprobes left registered" grep -q memcg_softlimit /sys/kernel/debug/kprobes/list
assert_false "trace system left behind" test -d "$MSL_TRACEFS/events/memcg_softlimit"

# A real field resolves, and the load goes through.
msl_load test_field=nr_reclaimed
hooked=$(dmesg | tail -n 20 | grep -c 'memcg_softlimit: hooked')
assert_ge "$hooked" 2 "hooks reported in dmesg"
assert_true "kprobes registered" grep -q 'shrink_lruvec' /sys/kernel/debug/kprobes/list
msl_unload
assert_false "kprobes left after unload" grep -q 'memcg_softlimit\|shrink_lruvec' /sys/kernel/debug/kprobes/list

# Every hooked function must be in BTF with the prototype the stubs copy:
# one missing or with another prototype refuses the load with one line
# naming it (test_proto adds one more function to check, as shrink_lruvec).
refuse_with() { # refuse_with PARAM EXPECTED_TEXT
	local out msg before
	before=$(dmesg | wc -l)
	if out=$(insmod "$MSL_KO" "$1" 2>&1); then
		fail "insmod $1 succeeded"
	fi
	msg=$(dmesg | tail -n +"$((before + 1))" | grep 'memcg_softlimit: refusing to load')
	note "$1: $msg"
	assert_eq "$(echo "$msg" | grep -c .)" 1 "refusal lines in dmesg for $1"
	assert_true "the refusal says: $2" grep -qF "$2" <<<"$msg"
	assert_false "module left loaded after $1" msl_loaded
	assert_false "kprobes left registered after $1" grep -q 'shrink_' /sys/kernel/debug/kprobes/list
}
refuse_with test_proto=no_such_function "no_such_function is not in the kernel's BTF"
refuse_with test_proto=shrink_node "shrink_node has an unexpected prototype in BTF"
msl_load test_proto=shrink_lruvec
msl_unload
