#!/bin/bash
# configs: pkg-*
# timeout: 120
#
# Runs in the package image (tests/pkg/host.sh: memcg-softlimit-dkms
# installed with dpkg into a copy of the guest rootfs, DKMS built the module
# for both kernels there), booted with systemd as PID 1 (tests/pkg/host.sh):
# memcg-softlimit-load.service (enabled by the package) loaded
# memcg_softlimit at boot, the module is the one DKMS built and signed in
# the image, the image's modprobe.d options (a fixture:
# priority_threshold=11) applied, and no unit of ours, nor
# systemd-modules-load, failed.
[ "$(cat /proc/1/comm)" = systemd ] || fail "PID 1 is $(cat /proc/1/comm), not systemd: this test is for the package image"
declare -A exp=()
while IFS='=' read -r k v; do exp[$k]=$v; done <"$MSL_PKG_EXPECT"
kver=$(uname -r)
load=memcg-softlimit-load.service

assert_eq "$(systemctl is-enabled "$load")" enabled "$load enabled by the package"
systemctl status --no-pager "$load"
assert_eq "$(systemctl is-active "$load")" active "$load ran at boot"
assert_eq "$(systemctl show -p ConditionResult --value "$load")" yes "$load's conditions held (a module for $kver)"
assert_true "module loaded at boot" msl_loaded
assert_eq "$(cat /sys/module/"$MSL_MODULE"/initstate)" live "initstate"
assert_false "no modules-load.d entry any more" test -e /usr/lib/modules-load.d/memcg-softlimit.conf
# Who loaded it: the module's first kernel message falls between the start
# and the end of memcg-softlimit-load.service (the only loader in the image).
journalctl -b -o short-monotonic --no-pager 2>/dev/null | grep -E "memcg_softlimit|memcg-softlimit" | head -n 20
us() { systemctl show -p "$1" --value "$load"; }
t_start=$(us InactiveExitTimestampMonotonic)
t_end=$(us ActiveEnterTimestampMonotonic)
t_mod=$(dmesg | sed -n 's/^\[ *\([0-9.]*\)\] memcg_softlimit: .*/\1/p' | awk 'NR == 1 {printf "%d", $1 * 1e6}')
echo "$load ran ${t_start} .. ${t_end} us; first memcg_softlimit kernel message at ${t_mod:-?} us"
[ -n "$t_mod" ] || fail "no memcg_softlimit kernel message"
assert_true "module loaded while $load ran (${t_start}..${t_end} us, module at ${t_mod} us)" \
	test "$t_mod" -ge "$((t_start - 200000))" -a "$t_mod" -le "$((t_end + 200000))"
note "loaded at $(awk -v u="$t_mod" 'BEGIN {printf "%.1f", u / 1e6}') s after boot, by $load ($(awk -v a="$t_start" -v b="$t_end" 'BEGIN {printf "%.1f-%.1f", a / 1e6, b / 1e6}') s)"

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

# Nothing of ours failed at boot (the boot is not degraded because of us).
for u in "$load" memcg-softlimit.service systemd-modules-load.service; do
	assert_false "$u did not fail" systemctl is-failed --quiet "$u"
done
failed=$(systemctl --failed --no-legend --plain 2>/dev/null | awk '{print $1}' | tr '\n' ' ')
state=$(systemctl is-system-running 2>/dev/null)
echo "system: $state; failed units: ${failed:-none}"
assert_eq "${failed:-none}" none "failed units after boot"
note "$f ($(stat -c %s "$f") bytes); system $state"
