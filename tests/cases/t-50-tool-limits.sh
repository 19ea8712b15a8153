#!/bin/bash
# configs: all
# memcg-softlimit set/get/unset/apply/status: soft limits by cgroup path,
# read back where the kernel and the module keep them (v1
# memory.soft_limit_in_bytes, v2 /proc/memcg_softlimit/limits).
[ -n "${MSL_TOOL:-}" ] || skip "no memcg-softlimit in the payload (tools/ not built)"
CTL=/proc/memcg_softlimit/limits
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

# apply: every line checked first; a file with a bad line changes nothing.
CONF=$MSL_SCRATCH/conf/limits.conf
cat >"$CONF" <<'CONF'
# soft limits
/P            2G   # the parent
/Q            unset

/P/C          max
/nope         1G
/P            garbage
justonefield
/a**b         1G
CONF
before="$(kernel_limit P) $(kernel_limit P/C) $(kernel_limit Q)"
tool 1 apply "$CONF"
note "apply with errors: $(tr '\n' '|' <<<"$ERR")"
assert_true "bad size at line 7" grep -q "limits.conf:7: /P: size must be" <<<"$ERR"
assert_true "malformed line 8" grep -q "limits.conf:8: expected \"PATH SIZE\"" <<<"$ERR"
assert_true "bad pattern at line 9" grep -q "limits.conf:9: /a\*\*b: '\*\*' must be a whole path component" <<<"$ERR"
assert_true "summary" grep -q "3 bad lines: nothing applied" <<<"$ERR"
assert_false "a cgroup that does not exist is no error" grep -q "nope" <<<"$ERR"
assert_eq "$(kernel_limit P) $(kernel_limit P/C) $(kernel_limit Q)" "$before" "nothing changed by a file with bad lines"

# A good file, a cgroup named in it that does not exist yet, patterns.
grep -v -e garbage -e justonefield -e 'a\*\*b' "$CONF" >"$CONF.good"
echo "/W/*.service 512M" >>"$CONF.good"
cg_create W
tool 0 apply "$CONF.good"
APPLIED=$OUT
echo "---- memcg-softlimit apply limits.conf.good"; echo "$APPLIED"
note "apply: $(tr '\n' '|' <<<"$APPLIED")"
assert_eq "$(kernel_limit P)" 2147483648 "P after apply"
tool 0 get /Q
assert_eq "$OUT" max "Q after apply: a rule 'unset' leaves its limit as it is"
tool 0 get /P/C
assert_eq "$OUT" max "P/C after apply"
cg_create nope
cg_create W/a.service
cg_create W/b.scope
if [ "$MSL_CGROUP_VERSION" = 2 ]; then
	# The module gives each new cgroup its rule's limit as it is made.
	assert_true "rules loaded in one write" grep -q "^loaded 5 rules into /proc/memcg_softlimit/rules" <<<"$APPLIED"
	assert_true "/nope: none now, the rule waits" grep -q "^/nope 1G: 0 cgroups now" <<<"$APPLIED"
	assert_eq "$(kernel_limit nope)" 1073741824 "/nope made after apply: its limit from the rule"
	assert_eq "$(kernel_limit W/a.service)" 536870912 "/W/a.service made after apply: 512M by pattern"
	assert_eq "$(kernel_limit W/b.scope)" unset "/W/b.scope matches no rule"
	assert_true "the rules in force" grep -q "^/W/\*\.service " /proc/memcg_softlimit/rules
else
	# cgroup v1: the cgroups that exist when apply runs.
	assert_true "/nope said, not failed" grep -q "^/nope 1G: no such cgroup now (cgroup v1" <<<"$APPLIED"
	assert_eq "$(kernel_limit nope)" unset "v1: /nope made after apply has no limit yet"
	tool 0 apply "$CONF.good"
	assert_eq "$(kernel_limit nope)" 1073741824 "v1: /nope after a second apply"
	assert_eq "$(kernel_limit W/a.service)" 536870912 "v1: /W/a.service by pattern"
	assert_eq "$(kernel_limit W/b.scope)" unset "v1: /W/b.scope matches no rule"
	tool 0 apply "$CONF.good"
	assert_ge "$(grep -c unchanged <<<"$OUT")" 4 "third apply: the limits unchanged"
fi
# --dry-run changes nothing.
printf '/P 5M\n/Q 7M\n' >"$CONF.dry"
tool 0 apply -n "$CONF.dry"
if [ "$MSL_CGROUP_VERSION" = 2 ]; then
	assert_true "dry run says what it would do" grep -q "^would load 2 rules" <<<"$OUT"
else
	assert_true "dry run says what it would do" grep -q "would set /Q 7M" <<<"$OUT"
fi
tool 0 get /Q
assert_eq "$OUT" max "Q after a dry run"
tool 1 apply "$MSL_SCRATCH/conf/missing.conf"
assert_true "missing file named" grep -q "cannot read .*missing.conf" <<<"$ERR"

tool 0 status
echo "---- memcg-softlimit status"; echo "$OUT"
note "status: $(tr '\n' '|' <<<"$OUT")"
assert_true "status: loaded" grep -q "^module: *loaded" <<<"$OUT"
assert_true "status: cgroup version" grep -q "^cgroup: *v$MSL_CGROUP_VERSION" <<<"$OUT"
assert_true "status: parameters" grep -qE "priority_threshold=auto unset=inherit" <<<"$OUT"
assert_true "status: the progress gate" grep -qE "^gate: +progress" <<<"$OUT"
assert_true "status: hooks named" grep -qE "^hooks: +[a-z_]+" <<<"$OUT"
# MGLRU reclaims through its memcg LRU (shrink_one) from 6.3
if [ "$MSL_LRU" = mglru ] && [ "$MSL_KSERIES" != 6.1 ]; then
	assert_true "status: MGLRU hook in use" grep -q "^reclaim:.*try_to_shrink_lruvec" <<<"$OUT"
else
	assert_true "status: classic hook in use" grep -q "^reclaim:.*through shrink_lruvec" <<<"$OUT"
fi
tool 0 status --json
echo "---- memcg-softlimit status --json"; echo "$OUT"
assert_true "status --json: loaded" grep -q '^{"schema":1,"command":"status","loaded":true,"absent":null,' <<<"$OUT"
printf '%s\n' "$OUT" >"$MSL_SCRATCH/status.json"
json_doc status "$MSL_SCRATCH/status.json"
assert_true "status --json: gate" grep -qE '"gate":"(progress|priority)"' <<<"$OUT"
tool 0 get --json /P
assert_true "get --json" grep -qE '"soft_limit":"(set|v1)","soft_limit_bytes":2147483648\}' <<<"$OUT"
printf '%s\n' "$OUT" >"$MSL_SCRATCH/get.json"
json_doc get "$MSL_SCRATCH/get.json"
tool 0 get --json /Q
assert_true "get --json: max" grep -qE '"soft_limit":"max","soft_limit_bytes":null\}' <<<"$OUT"
tool 0 get --json /W/b.scope
assert_true "get --json: unset" grep -qE '"soft_limit":"unset","soft_limit_bytes":null\}' <<<"$OUT"
tool 0 --version
tool 0 help stat
assert_true "help: the positional interval" grep -q "^usage: memcg-softlimit stat \[OPTIONS\] \[INTERVAL \[COUNT\]\]" <<<"$OUT"
cg_remove W
cg_remove nope
msl_unload
