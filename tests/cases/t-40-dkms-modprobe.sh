#!/bin/bash
# configs: all
# timeout: 300
#
# The module DKMS built on the host for this kernel (tests/pkg/host.sh:
# `make dkms-install` from the kernel's headers, signed with a test MOK key;
# the payload's dkms/ dir) loads with a plain `modprobe memcg_softlimit` once
# it sits in /lib/modules/<kver>/updates/dkms/ and depmod ran; the options of
# a modprobe.d file take effect; modinfo shows the version, the parameters
# and the signature.  One config per kernel series: depmod -a takes ~35 s
# under TCG.  (The rootfs disk is snapshot=on; the test still takes away
# what it added and puts back the depmod files it saved, for the tests that
# follow in the same boot.)
D=$MSL_PAYLOAD/dkms
[ -r "$D/expect" ] || skip "no DKMS-built module in the payload (the host-side packaging stage did not run: MSL_NO_PKG, or its DKMS build failed)"
declare -A exp=()
while IFS='=' read -r k v; do exp[$k]=$v; done <"$D/expect"
file=${exp[file]}
[ -f "$D/$file" ] || fail "payload lacks $D/$file"

kver=$(uname -r)
dest=/lib/modules/$kver/updates/dkms
conf=/etc/modprobe.d/msl-t40.conf
P=/sys/module/"$MSL_MODULE"/parameters
saved=$MSL_SCRATCH/t40-depmod
cleanup() {
	modprobe -r "$MSL_MODULE" 2>/dev/null
	rm -f "$dest/$file" "$conf"
	rmdir "$dest" "${dest%/dkms}" 2>/dev/null
	[ -d "$saved" ] && cp -a "$saved"/modules.* "/lib/modules/$kver/"
}
trap cleanup EXIT
mkdir -p "$saved"
cp -a "/lib/modules/$kver"/modules.* "$saved/" || fail "cannot save the depmod files"

assert_false "$MSL_MODULE not loaded before the test" msl_loaded
assert_false "no $MSL_MODULE in modules.dep before" grep -q memcg_softlimit "/lib/modules/$kver/modules.dep"
mkdir -p "$dest"
cp "$D/$file" "$dest/"
t0=$SECONDS
depmod -a "$kver" || fail "depmod -a failed"
note "depmod -a took $((SECONDS - t0)) s"
assert_eq "$(modinfo -n "$MSL_MODULE")" "$dest/$file" "modinfo finds the DKMS module through modules.dep"

echo "options $MSL_MODULE priority_threshold=9 unset=max" >"$conf"
assert_true "modprobe sees the options" grep -qx "options $MSL_MODULE priority_threshold=9 unset=max" \
	<(modprobe --showconfig 2>/dev/null)
if ! out=$(modprobe "$MSL_MODULE" 2>&1); then
	dmesg | tail -n 20 >&2
	fail "modprobe $MSL_MODULE failed: $out; dmesg: $(dmesg | tail -n 3 | tr '\n' ' ')"
fi
assert_true "loaded by modprobe" msl_loaded
assert_eq "$(cat "$P/priority_threshold")" 9 "priority_threshold from modprobe.d"
assert_eq "$(cat "$P/unset")" max "unset from modprobe.d"
assert_eq "$(cat "$P/enabled")" Y "enabled at its default"
assert_true "control file present" test -e /proc/memcg_softlimit/limits
assert_eq "$(cat /sys/module/"$MSL_MODULE"/version 2>/dev/null)" "${exp[version]}" "/sys/module version"

info=$(modinfo "$MSL_MODULE")
printf '%s\n' "$info" | grep -v '^\s' | grep -vE '^(signature|alias):'
assert_eq "$(modinfo -F version "$MSL_MODULE")" "${exp[version]}" "modinfo version (VERSION)"
assert_eq "$(modinfo -F vermagic "$MSL_MODULE" | cut -d' ' -f1)" "$kver" "vermagic"
for p in enabled priority_threshold unset policy keep_v1_reclaim; do
	assert_true "modinfo documents $p" grep -qE "^parm: +$p:" <<<"$info"
done
assert_eq "$(modinfo -F signer "$MSL_MODULE")" "${exp[signer]}" "signer (the DKMS MOK key)"
assert_eq "$(modinfo -F sig_key "$MSL_MODULE")" "${exp[sig_key]}" "sig_key"
assert_eq "$(modinfo -F sig_id "$MSL_MODULE")" "PKCS#7" "sig_id"
note "modprobe'd $file (${exp[signer]}), options from modprobe.d applied"

modprobe -r "$MSL_MODULE" || fail "modprobe -r failed"
assert_false "unloaded" msl_loaded
