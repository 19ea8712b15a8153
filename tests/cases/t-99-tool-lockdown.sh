#!/bin/bash
# configs: 6.1-v1-classic 6.12-v2-mglru
# tcg: single
# The third absence status tells apart (the fleet issue): a module that
# Secure Boot's lockdown refuses for its signature.  The guest has no
# Secure Boot, but lockdown can be raised at run time, never lowered: so
# this test runs last in its boot (t-99), and raises it only after all
# else.  The payload's module is unsigned, as one whose key is not
# enrolled: insmod is refused, and status says why and what to do.
[ -n "${MSL_TOOL:-}" ] || skip "no memcg-softlimit in the payload (tools/ not built)"
LD=/sys/kernel/security/lockdown
mountpoint -q /sys/kernel/security || mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
[ -w "$LD" ] || skip "no lockdown LSM in this kernel ($LD)"
note "lockdown: $(cat "$LD")"
grep -q '\[none\]' "$LD" || skip "lockdown is already up: $(cat "$LD")"
tail -c 28 "$MSL_KO" | grep -q 'Module signature appended' &&
	skip "the payload's module is signed: no unsigned module to refuse"
KDIR=/lib/modules/$(uname -r)/updates
mkdir -p "$KDIR" && cp "$MSL_KO" "$KDIR/" || fail "cannot copy the module under $KDIR"
echo integrity >"$LD" || fail "cannot raise lockdown to integrity"
assert_true "lockdown is up" grep -q '\[integrity\]' "$LD"
if out=$(insmod "$MSL_KO" 2>&1); then
	fail "insmod of an unsigned module under lockdown succeeded"
fi
note "insmod under lockdown: $out; dmesg: $(dmesg | grep -iE 'lockdown|signature|unavailable key' | tail -n 1)"
out=$("$MSL_TOOL" status 2>&1)
rc=$?
echo "---- memcg-softlimit status (lockdown)"; echo "$out"
assert_eq "$rc" 1 "status without the module"
assert_true "status: refused for its signature" grep -qE "^module: +absent \(lockdown\): memcg_softlimit cannot be loaded: Secure Boot lockdown enforces module signatures and the module's signing key is not enrolled" <<<"$out"
assert_true "status: what to do" grep -q "mokutil --import" <<<"$out"
out=$("$MSL_TOOL" stat 2>&1)
assert_true "stat says the same" grep -q "Secure Boot lockdown enforces module signatures" <<<"$out"
rm -f "$KDIR/memcg_softlimit.ko"
rmdir "$KDIR" 2>/dev/null
true
