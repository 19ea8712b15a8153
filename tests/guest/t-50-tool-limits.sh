#!/bin/bash
# configs: all
# memcg-softlimit set/get/unset/apply/status: soft limits by cgroup path,
# read back where the kernel and the module keep them (v1
# memory.soft_limit_in_bytes, v2 /proc/memcg_softlimit/limits).
[ -n "${MSL_TOOL:-}" ] || skip "no memcg-softlimit in the payload (tools/ not built)"
CTL=/proc/memcg_softlimit/limits
# tool RC ARGS...: run the tool, expect exit status RC; OUT, ERR are its output
tool() {
	local want=$1
	shift
	OUT=$("$MSL_TOOL" "$@" 2>"$MSL_SCRATCH/tool.err")
	RC=$?
	ERR=$(cat "$MSL_SCRATCH/tool.err")
	[ "$RC" = "$want" ] || fail "memcg-softlimit $*: exit $RC, expected $want; stderr: $ERR; stdout: ${OUT:0:300}"
	echo "ok: memcg-softlimit $* -> $RC"
}
# kernel_limit CG: the limit as the kernel or the module keeps it, in bytes
# ("unset", "max")
kernel_limit() {
	local id line v
	if [ "$MSL_CGROUP_VERSION" = 1 ]; then
		v=$(cat "$(cg_path "$1")/memory.soft_limit_in_bytes")
		[ "$v" = 9223372036854771712 ] && v=unset
		echo "$v"
	else
		id=$(stat -c %i "$(cg_path "$1")")
		line=$(grep -E "^$id " "$CTL")
		if [ -z "$line" ]; then echo unset; else echo "$line" | cut -d' ' -f2; fi
	fi
}
msl_load
cg_create P
cg_create P/C
cg_create Q
mkdir "$MSL_SCRATCH/conf"

tool 0 set /P/C 100M
assert_eq "$(kernel_limit P/C)" 104857600 "P/C after set 100M"
[ "$MSL_CGROUP_VERSION" = 2 ] && assert_true "listed with its path" grep -qx "$(stat -c %i "$(cg_path P/C)") 104857600 /P/C" "$CTL"
tool 0 get /P/C
assert_eq "$OUT" 100M "get /P/C"
tool 0 get -b /P/C
assert_eq "$OUT" 104857600 "get -b /P/C"

# The directory itself, and a path without the leading slash.
tool 0 set "$MSL_CGROUP_ROOT/Q" max
tool 0 get Q
assert_eq "$OUT" max "get Q after set max"
if [ "$MSL_CGROUP_VERSION" = 1 ]; then
	# v1 has no max: the largest value that is not "unset"
	assert_eq "$(kernel_limit Q)" 9223372036854767616 "v1 value for max"
else
	assert_eq "$(kernel_limit Q)" max "module's value for max"
fi
tool 0 set P 64K
assert_eq "$(kernel_limit P)" 65536 "P after set 64K"
tool 0 set /P 1073741824
tool 0 get /P
assert_eq "$OUT" 1G "get /P"

tool 0 unset /P/C
assert_eq "$(kernel_limit P/C)" unset "P/C after unset"
tool 0 get /P/C
assert_eq "$OUT" unset "get after unset"
tool 0 unset /P/C
assert_eq "$(kernel_limit P/C)" unset "unset twice"

# apply: every line tried, errors by file:line, the rest applied.
CONF=$MSL_SCRATCH/conf/limits.conf
cat >"$CONF" <<'CONF'
# soft limits
/P            2G   # the parent
/Q            unset

/P/C          max
/nope         1G
/P            garbage
justonefield
CONF
tool 1 apply "$CONF"
note "apply with errors: $(tr '\n' '|' <<<"$ERR")"
assert_true "no such cgroup at line 6" grep -q "limits.conf:6: no such cgroup: /nope" <<<"$ERR"
assert_true "bad size at line 7" grep -q "limits.conf:7: bad size 'garbage'" <<<"$ERR"
assert_true "malformed line 8" grep -q "limits.conf:8: expected \"PATH SIZE\"" <<<"$ERR"
assert_true "summary" grep -q "3 lines failed, 3 applied" <<<"$ERR"
assert_eq "$(kernel_limit P)" 2147483648 "P after apply"
assert_eq "$(kernel_limit Q)" unset "Q after apply"
tool 0 get /P/C
assert_eq "$OUT" max "P/C after apply"

# A good file: applied, then again with nothing to change.
grep -v -e nope -e garbage -e justonefield "$CONF" >"$CONF.good"
tool 0 apply "$CONF.good"
tool 0 apply "$CONF.good"
assert_eq "$(grep -c unchanged <<<"$OUT")" 3 "second apply: every line unchanged"
# --dry-run changes nothing.
printf '/P 5M\n/Q 7M\n' >"$CONF.dry"
tool 0 apply -n "$CONF.dry"
assert_true "dry run says what it would do" grep -q "would set /Q 7M" <<<"$OUT"
assert_eq "$(kernel_limit Q)" unset "Q after a dry run"
tool 1 apply "$MSL_SCRATCH/conf/missing.conf"
assert_true "missing file named" grep -q "cannot read .*missing.conf" <<<"$ERR"

tool 0 status
note "status: $(tr '\n' '|' <<<"$OUT")"
assert_true "status: loaded" grep -q "^module: *loaded" <<<"$OUT"
assert_true "status: cgroup version" grep -q "^cgroup: *v$MSL_CGROUP_VERSION" <<<"$OUT"
assert_true "status: parameters" grep -q "priority_threshold=12" <<<"$OUT"
assert_true "status: shrink_lruvec hooked" grep -q "^hooks:.*shrink_lruvec" <<<"$OUT"
if [ "$MSL_LRU" = mglru ] && [ "$MSL_KSERIES" = 6.12 ]; then
	assert_true "status: MGLRU hook in use" grep -q "^reclaim:.*try_to_shrink_lruvec" <<<"$OUT"
else
	assert_true "status: classic hook in use" grep -q "^reclaim:.*through shrink_lruvec" <<<"$OUT"
fi
tool 0 --version
tool 0 help stat
msl_unload
