#!/bin/bash
# configs: pkg-*
# timeout: 240
#
# Runs in the package image booted with systemd (see t-41-dkms-boot):
# memcg-softlimit.service, wanted by the module's device unit
# (60-memcg-softlimit.rules tags the module's uevent), applied /etc/memcg-softlimit.conf at boot (the
# image adds "/system.slice 1G" and "/msl-t42-later.slice 256M", a cgroup
# that does not exist then, to it) and its drop-in directory (the image
# adds 50-msl-test.conf with "/msl-t42-dropin.slice 128Mi") without
# failing; a cgroup created after boot gets its rule's limit, from the
# main file or from the drop-in; a reload of the module runs the unit again
# and brings the limits back; a start with no module loaded is skipped,
# not failed; reinstalling the package (its postinst restarts the unit)
# applies the file again.
[ "$(cat /proc/1/comm)" = systemd ] || fail "PID 1 is $(cat /proc/1/comm), not systemd: this test is for the package image"
[ -f /lib/systemd/system/memcg-softlimit.service ] ||
	fail "the memcg-softlimit package (tool, unit) is not in the image: its build failed (see the pkg results: deb/build)"
declare -A exp=()
while IFS='=' read -r k v; do exp[$k]=$v; done <"$MSL_PKG_EXPECT"
read -r cg _ <<<"${exp[softlimit]}"
read -r later later_size <<<"${exp[later]}"
read -r dropin dropin_size <<<"${exp[dropin]}"
unit=memcg-softlimit.service
dev=sys-module-memcg_softlimit.device
L=/proc/memcg_softlimit/limits
us() { systemctl show -p "$1" --value "$unit"; }
has_limit() { grep -qE "^[0-9]+ $2 $1\$" "$L" 2>/dev/null; }
# ran_since T: the unit's last run ended after T (monotonic us).  A
# function, so that wait_until reads the property anew on each try.
ran_since() { [ "$(us ExecMainExitTimestampMonotonic)" -gt "$1" ]; }
# What systemd and udev saw, for a failure.
diag() {
	systemctl show -p ActiveState -p SubState -p Wants -p InactiveEnterTimestampMonotonic \
		-p ActiveEnterTimestampMonotonic "$dev" 2>&1
	systemctl show -p ConditionResult -p ExecMainExitTimestampMonotonic -p Result "$unit" 2>&1
	udevadm info /sys/module/"$MSL_MODULE" 2>&1 | head -n 12
	journalctl -b -o short-monotonic --no-pager -u "$unit" -u "$dev" 2>&1 | tail -n 15
}
# unload: the module away, and the unit stopped with it by udev's remove
# event (60-memcg-softlimit.rules), which runs after modprobe -r returns:
# a restart issued before that stop would be cancelled by it ("Job for
# ... canceled.", seen on 7.3).
unload() {
	modprobe -r "$MSL_MODULE" || fail "modprobe -r failed"
	assert_false "unloaded" msl_loaded
	wait_until 10 sh -c "[ \"\$(systemctl is-active $unit)\" = inactive ]" ||
		{ diag; fail "$unit still $(systemctl is-active "$unit") with the module unloaded"; }
}
cleanup() {
	rmdir "$MSL_CGROUP_ROOT$later" "$MSL_CGROUP_ROOT$dropin" 2>/dev/null
	msl_loaded || modprobe "$MSL_MODULE" 2>/dev/null
}
trap cleanup EXIT

assert_eq "$(systemctl is-enabled "$unit")" enabled "$unit enabled by the package (wanted by $dev)"
assert_true "udev rule installed" test -f /lib/udev/rules.d/60-memcg-softlimit.rules
assert_eq "$(systemctl is-active "$dev")" active "$dev (the loaded module, tagged by udev)"
assert_true "$dev wants $unit" grep -qw "$unit" <(systemctl show -p Wants --value "$dev")
systemctl status --no-pager "$unit"
assert_eq "$(us Result)" success "$unit's result at boot"
assert_eq "$(systemctl is-active "$unit")" active "$unit active while the module is loaded"
assert_eq "$(us ExecStart | grep -o 'path=[^ ;]*' | head -n 1)" "path=/usr/sbin/memcg-softlimit" "$unit runs the packaged command by its path"
note "sandbox: $(systemd-analyze security --no-pager "$unit" 2>/dev/null | tail -n 1)"
assert_eq "$(us ExecMainStatus)" 0 "memcg-softlimit apply's exit status at boot"
assert_eq "$(us ConditionResult)" yes "$unit's condition held"
t_boot=$(us ExecMainExitTimestampMonotonic)
assert_gt "$t_boot" 0 "$unit ran at boot"
t_load=$(systemctl show -p ActiveEnterTimestampMonotonic --value memcg-softlimit-load.service)
assert_gt "$t_boot" "$t_load" "$unit ran after the module was loaded"
cat "$L"
assert_true "the soft limit of $cg is set" has_limit "$cg" 1073741824

# A cgroup that did not exist when the file was applied (apply did not
# fail for it) gets its limit as it is created.
assert_false "$later did not exist at boot" test -d "$MSL_CGROUP_ROOT$later"
cg_create "${later#/}"
wait_until 5 has_limit "$later" 268435456 || fail "$later was created but has no $later_size soft limit: $(tr '\n' ';' <"$L")"
echo "ok: $later got $later_size at its creation"
assert_true "the drop-in directory is in the package" test -d /etc/memcg-softlimit.conf.d
assert_false "$dropin did not exist at boot" test -d "$MSL_CGROUP_ROOT$dropin"
cg_create "${dropin#/}"
wait_until 5 has_limit "$dropin" 134217728 ||
	fail "$dropin was created but has no $dropin_size soft limit from the drop-in: $(tr '\n' ';' <"$L")"
echo "ok: $dropin got $dropin_size (50-msl-test.conf) at its creation"

# The module reloaded: the unit stops with it, runs again and the limits
# are back.
unload
modprobe "$MSL_MODULE" || fail "modprobe failed"
wait_until 60 ran_since "$t_boot" ||
	{ diag; fail "$unit did not run again when the module was loaded again"; }
assert_eq "$(us Result)" success "$unit's result after the reload"
assert_eq "$(systemctl is-active "$unit")" active "$unit active again"
wait_until 5 has_limit "$cg" 1073741824 || fail "$cg's soft limit is not back after the reload"
assert_true "$later's limit is back after the reload" has_limit "$later" 268435456
t_reload=$(us ExecMainExitTimestampMonotonic)

# Started with no module loaded (a package upgrade does that): skipped.
unload
systemctl restart "$unit" || fail "systemctl restart $unit without the module failed"
assert_eq "$(us ConditionResult)" no "$unit skipped without the module"
assert_false "$unit did not fail" systemctl is-failed --quiet "$unit"
modprobe "$MSL_MODULE" || fail "modprobe failed"
wait_until 60 ran_since "$t_reload" ||
	{ diag; fail "$unit did not run when the module was loaded"; }
wait_until 5 has_limit "$cg" 1073741824 || fail "$cg's soft limit is not back"

# The package reinstalled (as an upgrade does): its postinst restarts the
# unit, which applies the file again.
[ -f "${exp[tool_deb]:-/nonexistent}" ] || fail "no package to reinstall in the image (${exp[tool_deb]:-none})"
echo "unset $cg" >"$L" || fail "cannot unset $cg"
assert_false "unset" has_limit "$cg" 1073741824
t_before=$(us ExecMainExitTimestampMonotonic)
dpkg -i "${exp[tool_deb]}" || fail "dpkg -i ${exp[tool_deb]} failed"
assert_gt "$(us ExecMainExitTimestampMonotonic)" "$t_before" "$unit ran again at the package's reinstallation"
assert_eq "$(us Result)" success "$unit's result after the reinstallation"
assert_true "the reinstallation applied $cg again" has_limit "$cg" 1073741824
assert_false "$unit did not fail" systemctl is-failed --quiet "$unit"
note "$unit applied the file at boot, at each load of the module and at the package's reinstallation; $later got $later_size when created"

# The metrics timer: enabled by the package, idle where node_exporter's
# textfile directory is missing; its service writes the file there.
TF=/var/lib/prometheus/node-exporter
assert_eq "$(systemctl is-enabled memcg-softlimit-metrics.timer)" enabled "metrics timer enabled by the package"
if [ ! -d "$TF" ]; then
	systemctl start memcg-softlimit-metrics.service
	assert_eq "$(systemctl show -p ConditionResult --value memcg-softlimit-metrics.service)" no "skipped without $TF"
	mkdir -p "$TF"
	made_tf=1
fi
systemctl start memcg-softlimit-metrics.service || fail "memcg-softlimit-metrics.service failed: $(journalctl -u memcg-softlimit-metrics.service --no-pager | tail -n 3)"
assert_eq "$(systemctl show -p ExecMainStatus --value memcg-softlimit-metrics.service)" 0 "metrics service's exit status"
assert_true "memcg_softlimit_up 1" grep -qx "memcg_softlimit_up 1" "$TF/memcg_softlimit.prom"
head -n 5 "$TF/memcg_softlimit.prom"
[ -z "${made_tf:-}" ] || rm -rf /var/lib/prometheus
