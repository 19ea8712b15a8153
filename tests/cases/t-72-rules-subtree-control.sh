#!/bin/bash
# configs: *-v2-*
# timeout: 300
# Rules reach every memcg, also those that come without a cgroup_mkdir:
# enabling +memory in an existing parent's cgroup.subtree_control gives its
# children memcgs of their own, which the module's reconciliation (every
# second while there are rules) finds by their css serial numbers and
# gives their rule's limit, and counts in status.  A limit set by hand is
# not overwritten.
. "$MSL_PAYLOAD/guest/patch-cases.sh"
R=/proc/memcg_softlimit/rules
L=/proc/memcg_softlimit/limits
write_rules() { printf '%s' "$1" | dd of="$R" bs=1M count=1 iflag=fullblock status=none 2>/dev/null; }
status_count() { awk -v k="$1:" '$1 == k {print $2}' /proc/memcg_softlimit/status; }
msl_load
write_rules '/ctl.slice/* 96M
' || fail "writing the rules failed"
# ctl.slice has the memory controller; its children get none yet.
cg_create ctl.slice
mkdir "$(cg_path ctl.slice/a.service)" "$(cg_path ctl.slice/b.service)" ||
	fail "mkdir under ctl.slice"
assert_false "a.service has no memcg of its own yet" test -e "$(cg_path ctl.slice/a.service)/memory.current"
assert_false "no limit for a.service before +memory" grep -q " /ctl.slice/a.service$" "$L"
reconciled=$(status_count rules_reconciled)
echo +memory >"$(cg_path ctl.slice)/cgroup.subtree_control" ||
	fail "enabling +memory in ctl.slice"
has_both() {
	grep -qE " 100663296 /ctl.slice/a.service$" "$L" &&
		grep -qE " 100663296 /ctl.slice/b.service$" "$L"
}
t0=$SECONDS
wait_until 10 has_both || fail "a.service and b.service have no limit 10 s after +memory: $(tr '\n' ';' <"$L")"
note "both children got the rule's 96M $((SECONDS - t0)) s after +memory; status: $(grep rules_ /proc/memcg_softlimit/status | tr '\n' ' ')"
assert_ge "$(status_count rules_reconciled)" "$((reconciled + 2))" "status: memcgs reconciled"

# By hand after the rule: the reconciliation leaves it.
echo "set /ctl.slice/a.service 10M" >/proc/memcg_softlimit/limits || fail "set a.service 10M"
mkdir "$(cg_path ctl.slice/c.service)" || fail "mkdir c.service"
wait_until 10 grep -qE " 100663296 /ctl.slice/c.service$" "$L" ||
	fail "c.service (made by mkdir) has no limit"
sleep 2
assert_true "a.service keeps the limit set by hand" grep -qE " 10485760 /ctl.slice/a.service$" "$L"
