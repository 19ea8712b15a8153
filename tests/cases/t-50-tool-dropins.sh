#!/bin/bash
# configs: *-v2-*
# Configuration as hosts manage it: `apply` with no FILE reads
# /etc/memcg-softlimit.conf, then /etc/memcg-softlimit.conf.d/*.conf in
# the order of their names (the first matching rule decides, a rule that
# can never decide is said, and so is a whole subtree at max); a bad line
# in any drop-in changes nothing; Ki/Mi and infinity are sizes; less than
# a page is refused; set --persist writes a drop-in that the next load of
# the module applies again, unset --persist removes it.
[ -n "${MSL_TOOL:-}" ] || skip "no memcg-softlimit in the payload (tools/ not built)"
CONF=/etc/memcg-softlimit.conf
DIR=/etc/memcg-softlimit.conf.d
[ -e "$CONF" ] || [ -e "$DIR" ] && fail "$CONF or $DIR exists in the test rootfs"
trap 'rm -rf "$CONF" "$DIR"' EXIT
limit() { # CG: bytes, max or unset, as the module keeps it
	local line
	line=$(grep -E "^$(stat -c %i "$(cg_path "$1")") " /proc/memcg_softlimit/limits)
	if [ -z "$line" ]; then echo unset; else echo "$line" | cut -d' ' -f2; fi
}
msl_load
for cg in D D/a D/b D/c E E/x F H I; do cg_create "$cg"; done

tool 1 apply
assert_true "nothing to apply without either" grep -q "nothing to apply" <<<"$ERR"

printf '%s\n' '/D/a 64M' '/D/** 32M' >"$CONF"
mkdir "$DIR"
printf '%s\n' '/D/b 16M  # never decides' '/H 512Mi' >"$DIR/10-x.conf"
printf '%s\n' '/E/** max' '/I infinity' >"$DIR/20-y.conf"
printf '%s\n' '/F 1G' >"$DIR/30-z.conf.dpkg-old"
tool 0 apply
echo "---- apply"; echo "$OUT"; echo "$ERR"
assert_true "one write of every file's rules" grep -q "^loaded 6 rules" <<<"$OUT"
assert_eq "$(limit D/a)" 67108864 "/D/a: the main file's rule comes first"
assert_eq "$(limit D/b)" 33554432 "/D/b: /D/** (main file) decides, not the drop-in"
assert_eq "$(limit D/c)" 33554432 "/D/c by /D/**"
assert_eq "$(limit H)" 536870912 "512Mi"
assert_eq "$(limit I)" max "infinity"
assert_eq "$(limit E/x)" max "/E/** max"
assert_eq "$(limit F)" unset "a file not named *.conf is not read"
assert_true "the dead rule is said, with what hides it" \
	grep -q "10-x.conf:1: /D/b 16M never decides: $CONF:2 (/D/\*\* 32M) comes first" <<<"$ERR"
assert_true "an immune subtree is said" grep -q "20-y.conf:1: /E/\*\* max: no cgroup below /E is reclaimed first" <<<"$ERR"

# A bad line in a drop-in: nothing changes.
# (read with cat: a proc file says it has no size, which cp and cmp trust)
before=$(cat /proc/memcg_softlimit/rules)
assert_ne "$before" "" "rules listed"
printf '%s\n' '/F 1000' >"$DIR/40-bad.conf"
tool 1 apply
assert_true "the bad line named" grep -q "40-bad.conf:1: /F: size below one page" <<<"$ERR"
assert_true "nothing applied" grep -q "1 bad line: nothing applied" <<<"$ERR"
assert_eq "$(cat /proc/memcg_softlimit/rules)" "$before" "the rules unchanged"
rm "$DIR/40-bad.conf"
tool 2 set /F 1000
assert_true "set: less than a page refused" grep -q "below one page" <<<"$ERR"
assert_eq "$(limit F)" unset "nothing set"

# set --persist: now, and at every later load of the module.
tool 0 set --persist /F 24Mi
SNIP="$DIR/set-F.conf"
assert_true "persisted in $SNIP" grep -qx "persisted in $SNIP" <<<"$OUT"
assert_true "the snippet's rule" grep -qx "/F 24Mi" "$SNIP"
assert_eq "$(limit F)" 25165824 "set now"
assert_eq "$ERR" "" "no rule before it matches /F"
tool 0 set --persist /D/c 48M
assert_true "a rule that would win at the next load is said" \
	grep -q "$CONF:2 (/D/\*\* 32M) comes before $DIR/set-D-c.conf and matches /D/c" <<<"$ERR"
msl_unload
msl_load
assert_eq "$(limit F)" unset "a new load of the module starts empty"
tool 0 apply
assert_eq "$(limit F)" 25165824 "the persisted limit applied again"
tool 0 unset --persist /F
assert_true "removed" grep -qx "removed $SNIP" <<<"$OUT"
assert_false "the snippet is gone" test -e "$SNIP"
assert_eq "$(limit F)" unset "unset now"
tool 0 unset --persist /F
assert_true "nothing to remove is said" grep -q "no limit of /F was persisted" <<<"$OUT"
