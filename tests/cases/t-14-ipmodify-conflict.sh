#!/bin/bash
# configs: all
# Another IPMODIFY user of a hooked function (as a livepatch of it would
# be) makes the module refuse to load with its message, leaving nothing
# registered; and with the module loaded, that user cannot take the
# function either.
HOLDER=$(dirname "$MSL_KO")/msl_ipmodify_holder.ko
[ -f "$HOLDER" ] || fail "test module missing: $HOLDER"
insmod "$HOLDER" || fail "insmod of the IPMODIFY holder failed"
before=$(dmesg | wc -l)
if out=$(insmod "$MSL_KO" 2>&1); then
	fail "memcg_softlimit loaded beside another IPMODIFY user of shrink_lruvec"
fi
msg=$(dmesg | tail -n +"$((before + 1))" | grep 'memcg_softlimit: refusing to load')
note "refused: $out; dmesg: $msg"
assert_true "the refusal names the function and the reason" grep -q 'cannot hook shrink_lruvec.*IPMODIFY' <<<"$msg"
assert_false "module left loaded" msl_loaded
assert_false "probes left registered" grep -qE 'shrink_node|shrink_one|shrink_slab' /sys/kernel/debug/kprobes/list
rmmod msl_ipmodify_holder || fail "rmmod holder"

msl_load
if insmod "$HOLDER" 2>/dev/null; then
	rmmod msl_ipmodify_holder
	fail "the IPMODIFY holder loaded beside memcg_softlimit"
fi
msl_unload
