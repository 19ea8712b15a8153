#!/bin/bash
# configs: *-v2-*
# cgroup v2 soft limits through /proc/memcg_softlimit/limits: set, read
# back, unset, dropped with the cgroup; bad input refused, changing nothing.
CTL=/proc/memcg_softlimit/limits
msl_load
cg_create "P/C"
cg_create "Q"
mkdir "$MSL_CGROUP_ROOT/P/C/nomem" 2>/dev/null # no +memory in C's subtree_control

# One write(2) per command, as the interface requires (the shell's printf
# may split its output at newlines).
write1() { printf '%s' "$1" | dd of="$CTL" bs=1M iflag=fullblock status=none; }
write() { write1 "$1" 2>/dev/null; }
# expect_refused CMD ERRNO-TEXT
expect_refused() {
	local before after err
	before=$(cat "$CTL")
	err=$(write1 "$1" 2>&1) && fail "accepted: '$1'"
	grep -q "$2" <<<"$err" || fail "'$1': expected '$2', got '$err'"
	after=$(cat "$CTL")
	assert_eq "$after" "$before" "state unchanged after '$1'"
}

write "set /P/C 100M" || fail "set /P/C"
write "set /Q max" || fail "set /Q max"
write "set /P 1073741824" || fail "set /P in bytes"
id_c=$(stat -c %i "$MSL_CGROUP_ROOT/P/C")
assert_true "P/C listed" grep -qx "$id_c 104857600 /P/C" "$CTL"
assert_true "Q listed as max" grep -qx "$(stat -c %i "$MSL_CGROUP_ROOT/Q") max /Q" "$CTL"
assert_true "P listed" grep -q " 1073741824 /P\$" "$CTL"
write "set /P/C 64K" || fail "update /P/C"
assert_true "P/C updated in place" grep -qx "$id_c 65536 /P/C" "$CTL"
assert_eq "$(grep -c /P/C "$CTL")" 1 "one entry per cgroup"

expect_refused "set / 1G" "Invalid argument"
expect_refused "set /nope 1G" "No such file"
expect_refused "set /P/C/nomem 1G" "Invalid argument"
expect_refused "set /P/C 1Q" "Invalid argument"
expect_refused "set /P/C -5" "Invalid argument"
expect_refused "set /P/C 99999999999999999999" "Invalid argument"
expect_refused "frobnicate /P/C" "Invalid argument"
expect_refused "set /P/../Q 1G" "Invalid argument"
expect_refused "$(printf 'set /P/C 1G\nset /Q 1G')" "Invalid argument"
expect_refused "$(printf 'set /P/C\xff 1G')" "No such file"
expect_refused "set /$(head -c 5000 /dev/zero | tr '\0' a) 1G" "Invalid argument"

# Only root may change or read the table.
if setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "echo 'unset /P/C' > $CTL" 2>/dev/null; then
	fail "nobody could write the control file"
fi
assert_true "P/C still set" grep -q "/P/C\$" "$CTL"

write "unset /P/C" || fail "unset /P/C"
assert_false "P/C gone after unset" grep -q "/P/C\$" "$CTL"
write "unset /P/C" || fail "unset of an unset cgroup is a no-op"

rmdir "$MSL_CGROUP_ROOT/Q" || fail "rmdir Q"
assert_false "Q dropped with its cgroup" grep -q "/Q\$" "$CTL"
msl_unload
