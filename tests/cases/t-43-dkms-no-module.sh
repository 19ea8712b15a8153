#!/bin/bash
# configs: pkg-*
# timeout: 420
#
# Runs in the package image booted with systemd (see t-41-dkms-boot), last
# of its tests: the running kernel left without a module in the three ways
# a fleet meets, each as the boot would meet it (memcg-softlimit-load.service
# restarted, then memcg-softlimit.service as a package upgrade restarts
# it).  No unit fails, and `memcg-softlimit status` exits 1 (its man page:
# the module is not loaded), naming the running kernel and which of the
# three it is (not_built, refused with the kernel log's reason, lockdown).
#  1. not built for this kernel: `dkms uninstall` for it (as for a kernel
#     dkms.conf excludes or whose build failed); the load unit is skipped
#     by its condition; then `dkms install` puts it back.  Both with
#     --no-depmod: depmod reads every module of the kernel, 40 s each time
#     under TCG for 6.12's .ko.xz, and nothing here reads modules.dep (the
#     unit's condition and status look for the module file; the file comes
#     back at the path modules.dep names);
#  2. refused at load: the module's own check of the kernel fails
#     (test_field= in modprobe.d names a struct scan_control field this
#     kernel's BTF does not have, as a kernel the module cannot work on
#     would) and it refuses to load, with its line in the kernel log; then
#     the option goes and the module loads again;
#  3. not loadable under lockdown: /sys/kernel/security/lockdown raised to
#     integrity (what Secure Boot does), which refuses a module signed by a
#     key the kernel does not trust (the image's DKMS MOK key).  Lockdown
#     cannot be lowered again: this stays last in the boot.
[ "$(cat /proc/1/comm)" = systemd ] || fail "PID 1 is $(cat /proc/1/comm), not systemd: this test is for the package image"
command -v memcg-softlimit >/dev/null ||
	fail "the memcg-softlimit package (tool) is not in the image: its build failed (see the pkg results: deb/build)"
declare -A exp=()
while IFS='=' read -r k v; do exp[$k]=$v; done <"$MSL_PKG_EXPECT"
kver=$(uname -r)
ver=${exp[version]}
load=memcg-softlimit-load.service
unit=memcg-softlimit.service
conf=/etc/modprobe.d/zz-msl-t43.conf
LOCKDOWN=/sys/kernel/security/lockdown
cleanup() { rm -f "$conf"; }
trap cleanup EXIT

# nothing_failed WHEN: none of our units (nor systemd-modules-load) failed,
# and no unit at all is failed.
nothing_failed() {
	local u failed
	for u in "$load" "$unit" systemd-modules-load.service; do
		assert_false "$1: $u did not fail" systemctl is-failed --quiet "$u"
	done
	failed=$(systemctl --failed --no-legend --plain 2>/dev/null | awk '{print $1}' | tr '\n' ' ')
	assert_eq "${failed:-none}" none "$1: failed units"
}
# boot_again WHEN: what a boot does, and a package upgrade after it.
boot_again() {
	systemctl restart "$load" || fail "$1: systemctl restart $load failed"
	systemctl restart "$unit" || fail "$1: systemctl restart $unit failed"
}
# status_says WHEN WHY TEXT: status exits 1, names the kernel, gives the
# reason WHY ("module: absent (WHY)") and says TEXT (an extended regex).
status_says() {
	local rc=0 out
	out=$(memcg-softlimit status 2>&1) || rc=$?
	printf '%s\n' "$out"
	assert_eq "$rc" 1 "$1: memcg-softlimit status exit status (1: module not loaded)"
	assert_true "$1: status names the kernel $kver" grep -qF "$kver" <<<"$out"
	assert_true "$1: status says absent ($2)" grep -qE "^module: +absent \($2\)" <<<"$out"
	assert_true "$1: status says /$3/" grep -qE "$3" <<<"$out"
	note "$1: status: $(grep -iE 'module|lockdown|secure|refus|built' <<<"$out" | head -n 3 | tr '\n' ' ')"
}
# The unit applied the files and stays active (RemainAfterExit) until the
# module goes: wait for that, not its start, before unloading (an unload
# while it applies stops it, and its run fails).
unit_ran() {
	[ "$(systemctl show -p ConditionResult --value "$unit")" = yes ] &&
		[ "$(systemctl is-active "$unit")" = active ]
}
unload() {
	modprobe -r "$MSL_MODULE" || fail "modprobe -r $MSL_MODULE failed"
	assert_false "unloaded" msl_loaded
}

assert_true "loaded at the start" msl_loaded
nothing_failed "at the start"

# 1. Not built for this kernel.
unload
dkms uninstall --no-depmod -m memcg-softlimit -v "$ver" -k "$kver" || fail "dkms uninstall -k $kver failed"
assert_false "no module file for $kver" compgen -G "/lib/modules/$kver/updates/dkms/memcg_softlimit.ko*"
boot_again "not built"
assert_eq "$(systemctl show -p ConditionResult --value "$load")" no "not built: $load skipped by its condition"
assert_eq "$(systemctl show -p ConditionResult --value "$unit")" no "not built: $unit skipped by its condition"
assert_false "not built: not loaded" msl_loaded
nothing_failed "not built"
status_says "not built" not_built "it was not built for it"
dkms install --no-depmod -m memcg-softlimit -v "$ver" -k "$kver" || fail "dkms install -k $kver failed"
systemctl restart "$load" || fail "systemctl restart $load failed"
assert_true "installed again: loaded" msl_loaded
wait_until 60 unit_ran || fail "installed again: $unit did not run when the module was loaded"

# 2. Refused at load.
unload
echo "options $MSL_MODULE test_field=msl_t43_no_such_field" >"$conf"
boot_again "refused"
assert_eq "$(systemctl show -p ConditionResult --value "$load")" yes "refused: $load ran"
assert_eq "$(systemctl show -p ExecMainStatus --value "$load")" 1 "refused: modprobe failed (its status, ignored: ExecStart=-)"
assert_eq "$(systemctl is-active "$load")" active "refused: $load active all the same"
assert_false "refused: not loaded" msl_loaded
assert_true "refused: the module's refusal is in the kernel log" \
	grep -q 'memcg_softlimit: refusing to load: .*msl_t43_no_such_field' <(dmesg)
assert_eq "$(systemctl show -p ConditionResult --value "$unit")" no "refused: $unit skipped"
nothing_failed "refused"
status_says "refused" refused "refused to load on kernel .*no field msl_t43_no_such_field"
rm -f "$conf"
systemctl restart "$load" || fail "systemctl restart $load failed"
assert_true "option gone: loaded" msl_loaded
wait_until 60 unit_ran || fail "option gone: $unit did not run when the module was loaded"

# 3. Not loadable under lockdown.
[ -w "$LOCKDOWN" ] || fail "no $LOCKDOWN: this kernel has no lockdown LSM"
cat "$LOCKDOWN"
unload
echo integrity >"$LOCKDOWN" || fail "cannot raise lockdown to integrity"
assert_true "lockdown is integrity" grep -qF '[integrity]' "$LOCKDOWN"
boot_again "lockdown"
assert_eq "$(systemctl show -p ExecMainStatus --value "$load")" 1 "lockdown: modprobe failed (ignored)"
assert_false "lockdown: not loaded" msl_loaded
assert_true "lockdown: the kernel log names lockdown" grep -q 'Lockdown: modprobe' <(dmesg)
assert_eq "$(systemctl show -p ConditionResult --value "$unit")" no "lockdown: $unit skipped"
nothing_failed "lockdown"
status_says "lockdown" lockdown "signing key is not enrolled"
