#!/bin/bash
# configs: pkg-*
# timeout: 120
#
# Runs in the package image (tests/pkg/host.sh: memcg-softlimit-dkms
# installed with dpkg into a copy of the guest rootfs, DKMS built the module
# for both kernels there), booted with systemd as PID 1 (tests/pkg/lib.sh):
# systemd-modules-load.service loaded memcg_softlimit at boot from
# /usr/lib/modules-load.d/memcg-softlimit.conf, the module is the one DKMS
# built and signed in the image, and the image's modprobe.d options
# (a fixture: priority_threshold=11) applied.
[ "$(cat /proc/1/comm)" = systemd ] || fail "PID 1 is $(cat /proc/1/comm), not systemd: this test is for the package image"
declare -A exp=()
while IFS='=' read -r k v; do exp[$k]=$v; done <"$MSL_PKG_EXPECT"
kver=$(uname -r)

assert_true "modules-load.d entry installed" grep -qx memcg_softlimit /usr/lib/modules-load.d/memcg-softlimit.conf
assert_eq "$(systemctl is-active systemd-modules-load.service)" active "systemd-modules-load.service"
assert_true "module loaded at boot" msl_loaded
assert_eq "$(cat /sys/module/"$MSL_MODULE"/initstate)" live "initstate"
# Who loaded it: systemd-modules-load logs "Inserted module" (when journald
# is up by then), and the module's first kernel message falls between the
# start and the end of systemd-modules-load.service (the only other loader,
# memcg-softlimit.service's ExecStartPre, is ordered after it).
journalctl -b -o short-monotonic --no-pager 2>/dev/null | grep -E "systemd-modules-load|memcg_softlimit|memcg-softlimit" | head -n 20
us() { systemctl show -p "$1" --value systemd-modules-load.service; }
t_start=$(us InactiveExitTimestampMonotonic)
t_end=$(us ActiveEnterTimestampMonotonic)
t_mod=$(dmesg | sed -n 's/^\[ *\([0-9.]*\)\] memcg_softlimit: .*/\1/p' | awk 'NR == 1 {printf "%d", $1 * 1e6}')
echo "systemd-modules-load ran ${t_start} .. ${t_end} us; first memcg_softlimit kernel message at ${t_mod:-?} us"
if journalctl -b -o cat --no-pager 2>/dev/null | grep -q "Inserted module 'memcg_softlimit'"; then
	note "systemd-modules-load logged \"Inserted module 'memcg_softlimit'\""
else
	[ -n "$t_mod" ] || fail "no memcg_softlimit kernel message"
	assert_true "module loaded while systemd-modules-load ran (${t_start}..${t_end} us, module at ${t_mod} us)" \
		test "$t_mod" -ge "$((t_start - 200000))" -a "$t_mod" -le "$((t_end + 200000))"
fi
note "loaded at $(awk -v u="$t_mod" 'BEGIN {printf "%.1f", u / 1e6}') s after boot, by systemd-modules-load ($(awk -v a="$t_start" -v b="$t_end" 'BEGIN {printf "%.1f-%.1f", a / 1e6, b / 1e6}') s)"

f=$(modinfo -n "$MSL_MODULE")
case $f in
/lib/modules/"$kver"/updates/dkms/memcg_softlimit.ko*) ;;
*) fail "modinfo -n gives '$f', not the DKMS module in updates/dkms/" ;;
esac
assert_eq "$(cat /sys/module/"$MSL_MODULE"/version)" "${exp[version]}" "version of the loaded module"
assert_eq "$(modinfo -F signer "$MSL_MODULE")" "DKMS module signing key" "signed by the image's DKMS MOK key"
[ -z "${exp[mok_serial]}" ] || assert_eq "$(modinfo -F sig_key "$MSL_MODULE")" "${exp[mok_serial]}" "sig_key = /var/lib/dkms/mok.pub"
assert_eq "$(cat /sys/module/"$MSL_MODULE"/parameters/priority_threshold)" "${exp[priority_threshold]}" "modprobe.d option applied at boot"
assert_true "control file" test -r /proc/memcg_softlimit/limits
bad=$(dmesg | grep -E 'BUG:|WARNING:|Oops|general protection|memcg_softlimit: refusing' | head -n 3)
[ -z "$bad" ] || fail "kernel log: $bad"
dmesg | grep -E 'memcg_softlimit|module verification' | head -n 5
note "$f ($(stat -c %s "$f") bytes)"
