#!/bin/bash
# configs: all
# timeout: 600
# tcg: single
# (Userspace reading the same events everywhere: one cgroup v1 + classic LRU
# and one cgroup v2 + MGLRU configuration cover it; t-50, t-51, t-52 and t-54
# run on the whole matrix.)
# memcg-softlimit tree and explain on the patch's case 2 (limits set with
# the tool): the first-pass verdicts they print are the module's (the
# same policy source), with the module's current parameters; the
# decisions the module then takes under pressure agree with them.
[ -n "${MSL_TOOL:-}" ] || skip "no memcg-softlimit in the payload (tools/ not built)"
. "$MSL_PAYLOAD/guest/patch-cases.sh"
T=$MSL_TOOL
S=$MSL_SCRATCH
# The priority gate at the first pass only (V8): the rows below are that.
msl_load priority_threshold=12
build_tree
for cg in A A/A1 A/A2 B; do
	l=$(soft_limit_of 2 "$cg")
	[ "$l" = max ] || l=${l}M
	"$T" set "/$cg" "$l" || fail "set /$cg $l"
done
fill_tree

"$T" tree >"$S/tree.txt" 2>"$S/tree.err" || fail "tree failed: $(cat "$S/tree.err")"
echo "---- tree"; cat "$S/tree.txt"
"$T" tree -o soft_limit,over,first_pass,cgroup >"$S/tree.cols" 2>>"$S/tree.err" || fail "tree -o failed: $(cat "$S/tree.err")"
# tree_col NAME: "SOFT_LIMIT OVER FIRST_PASS" of the cgroup named NAME
# (the name last, after libsmartcols' tree drawing)
tree_col() {
	awk -v n="$1" '{ name = $NF; sub(/^[^A-Za-z0-9\/]+/, "", name); if (name == n) { print $1, $2, $3, $4; exit } }' "$S/tree.cols"
}
assert_eq "$(tree_col A)" "128M yes reclaim (over)" "tree: A"
assert_eq "$(tree_col A1)" "80M yes reclaim (over)" "tree: A1"
assert_eq "$(tree_col A2)" "8000M no reclaim (ancestor_over)" "tree: A2"
assert_eq "$(tree_col B)" "128M no skip (under)" "tree: B"
assert_eq "$(tree_col S)" "unset no skip (under)" "tree: S (unset counts as 0, but S is empty)"
assert_true "tree: the root" grep -qE '^/ .*reclaim \(root\)' "$S/tree.txt"
assert_true "tree: drawn" grep -qE '^(├─|\|-)A +' "$S/tree.txt"
assert_true "tree: decision totals" grep -q 'RECLAIM' "$S/tree.txt"
echo "---- memcg-softlimit tree -o soft_limit,over,first_pass,cgroup"; cat "$S/tree.cols"
"$T" tree --json >"$S/tree.json" || fail "tree --json failed"
echo "---- memcg-softlimit tree --json"; cat "$S/tree.json"
assert_true "tree --json: nested children" grep -q '"children":\[' "$S/tree.json"
grep -qE '\{"id":[0-9]+,"path":"/A/A1","memcg":true,"usage_bytes":[0-9]+,"soft_limit":"(set|v1)","soft_limit_bytes":83886080,"over":true,"first_pass":\{"verdict":"reclaim","reason":"over",' "$S/tree.json" ||
	fail "tree --json: A1 is not over its 80M, first pass reclaim (over): $(grep -o '"path":"/A/A1"[^}]*' "$S/tree.json")"
json_doc tree "$S/tree.json"
"$T" tree --json --no-counters /A >"$S/tree-a.json" || fail "tree --json /A failed"
assert_true "tree --json --no-counters: null totals" grep -q '"reclaims":null' "$S/tree-a.json"
json_doc tree_no_counters "$S/tree-a.json"
"$T" tree /A >"$S/subtree.txt" || fail "tree /A failed"
assert_false "tree /A has no B" grep -qw B "$S/subtree.txt"
assert_true "tree /A starts at /A" grep -qE '^/A ' "$S/subtree.txt"

"$T" explain /A/A2 >"$S/a2.txt" || fail "explain failed"
echo "---- explain /A/A2"; cat "$S/a2.txt"
p12=$(grep -E '^ +12 ' "$S/a2.txt")
assert_true "A2 at 12: reclaim, ancestor_over" grep -qE ' reclaim +ancestor_over ' <<<"$p12"
assert_true "A2 at 12: decided by /A" grep -q 'ancestor /A is over its soft limit' <<<"$p12"
assert_true "A2 at 11: below the threshold" grep -qE '^ +11 .* reclaim +below_threshold ' "$S/a2.txt"
assert_true "chain lists A2 then A" awk '/ \/A\/A2$/ { a = NR } / \/A$/ { b = NR } END { exit !(a && b == a + 1) }' "$S/a2.txt"
if [ "$MSL_LRU" = mglru ]; then
	assert_true "MGLRU on" grep -q 'MGLRU is on here' "$S/a2.txt"
else
	assert_true "MGLRU off" grep -q 'MGLRU is off here' "$S/a2.txt"
fi
"$T" explain /A/A2 --json >"$S/a2.json" || fail "explain --json failed"
assert_true "explain --json: priority 12" grep -q '^{"priority":12,"decision":{"verdict":"reclaim","reason":"ancestor_over",' "$S/a2.json"
assert_true "explain --json: the chain" grep -q '^{"id":[0-9]*,"path":"/A/A2",' "$S/a2.json"
json_doc explain "$S/a2.json"
"$T" explain "$MSL_CGROUP_ROOT/B" >"$S/b.txt" || fail "explain B failed"
assert_true "B at 12: skip, under" grep -qE '^ +12 .* skip +under ' "$S/b.txt"
"$T" explain / >"$S/root.txt" || fail "explain / failed"
assert_true "root: always reclaimed" grep -qE '^ +12 .* reclaim +root ' "$S/root.txt"

# The module's current parameters: a lower threshold widens the skip.
echo 10 >"/sys/module/$MSL_MODULE/parameters/priority_threshold"
"$T" explain /B >"$S/b10.txt" || fail "explain failed"
assert_true "threshold 10: B skipped at 10" grep -qE '^ +10 .* skip +under ' "$S/b10.txt"
assert_true "threshold 10: B reclaimed at 9" grep -qE '^ +9 .* reclaim +below_threshold .*< priority_threshold 10' "$S/b10.txt"
echo 12 >"/sys/module/$MSL_MODULE/parameters/priority_threshold"
echo N >"/sys/module/$MSL_MODULE/parameters/enabled"
"$T" explain /B >"$S/boff.txt" || fail "explain failed"
assert_true "policy off: reclaimed" grep -qE '^ +12 .* reclaim +policy_off ' "$S/boff.txt"
echo Y >"/sys/module/$MSL_MODULE/parameters/enabled"

# Under pressure the module decides B's first passes as explain said.
echo 4096 >"$MSL_TRACEFS/buffer_size_kb"
trace_clear
trace_enable memcg_softlimit/decision
pressure
# (MGLRU meets B at a first pass seldom, see case-run.sh: there the
# assertion below needs B skipped as under or A1 reclaimed as over, and no
# more streams are made once either was seen.)
for extra in 1 2 3; do
	a1_over=0
	decided "$(cg_id A/A1)" "$FIRST_PASS verdict=reclaim reason=over " && a1_over=1
	if [ "$MSL_LRU" = mglru ]; then
		[ "$a1_over" = 1 ] && break
		decided "$(cg_id B)" "$FIRST_PASS verdict=skip reason=under " && break
	else
		[ "$a1_over" = 1 ] && decided "$(cg_id B)" "$FIRST_PASS " && break
	fi
	note "extra stream $extra: B or A1 not decided at a first pass yet"
	pressure
done
trace_disable memcg_softlimit/decision
trace_dump >"$S/trace.txt"
seen=$(first_pass_decisions "$S/trace.txt" "$(cg_id B)")
note "B first pass under pressure: $(echo "$seen" | tr '\n' ';' | tr -s ' '); explain said skip/under"
assert_false "the module never reclaimed B as over" grep -qE 'reclaim/(over|ancestor_over)' <<<"$seen"
b_skipped=0 a1_over=0
grep -q 'skip/under' <<<"$seen" && b_skipped=1
seen=$(first_pass_decisions "$S/trace.txt" "$(cg_id A/A1)")
note "A1 first pass under pressure: $(echo "$seen" | tr '\n' ';' | tr -s ' ')"
grep -q 'reclaim/over' <<<"$seen" && a1_over=1
if [ "$MSL_LRU" = mglru ]; then
	# MGLRU need not meet either at a first pass (case-run.sh): one will do.
	assert_gt $((b_skipped + a1_over)) 0 "B skipped or A1 reclaimed as over at a first pass"
else
	assert_eq "$b_skipped" 1 "the module skipped B at the first pass"
	assert_eq "$a1_over" 1 "the module reclaimed A1 as over"
fi
check_decision_consistency "$S/trace.txt"
"$T" tree >"$S/tree2.txt" || fail "tree failed"
echo "---- tree after pressure"; cat "$S/tree2.txt"
msl_unload
