#!/bin/bash
# configs: all
# timeout: 900
# tcg: single
# The policy parameter: v8, walk and excess on the KS2012 article's tree
# (README "Policies"), each case asserting the first-pass verdict and
# reason its rule predicts for A1, A2, B and C; and bad values refused.
# t-60-bench-smoke and t-28-article-pages assert the effect on pages kept.
# Single-threaded TCG (tests/vm/README.md): nothing here needs the vCPUs to
# run at the same instant (kswapd, direct reclaim and the stream still
# interleave at every turn), and that boot shares make check's time with
# another configuration's.
#
#   root
#   |-- A      page cache in A1 (12 MiB) and A2 (12 MiB)
#   |   |-- A1
#   |   `-- A2
#   |-- B       8 MiB
#   `-- C       4 MiB
#
# Soft limits are 1 MiB ("over", far below the usage) or 1000 MiB
# ("under"), except case d (A 15 MiB below its children's 16 + 16 MiB,
# usage 24).  unset=max (the stock meaning), so that cgroups the test did
# not make (unset limits) are never over and cannot make a sibling skip,
# and priority_threshold=12, the patch's first pass, so that the decisions
# looked at are the policies' at effective priority 12.  Reclaim:
# on MGLRU memory.reclaim on the root cgroup (proactive, deterministic);
# on the classic LRU a stream from S (no soft limit) makes global pressure
# (v1 has no memory.reclaim, and on the classic LRU proactive reclaim
# needed so many windows that the test took 224 s on cgroup v2).  Each
# window stops as soon as every leaf had a first-pass decision, and the
# leaves are refilled before each, so that no limit is crossed (the
# margins are 4 MiB or more; a memory.reclaim window takes 4 MiB).
. "$MSL_PAYLOAD/guest/patch-cases.sh"
S=$MSL_SCRATCH
P=/sys/module/$MSL_MODULE/parameters/policy
LEAVES="A/A1 A/A2 B C"

msl_load unset=max priority_threshold=12
assert_eq "$(msl_param policy)" v8 "default policy"
# Only first-pass decisions are looked at: record no others (the filter
# goes with the module's events at rmmod).
F=$MSL_TRACEFS/events/memcg_softlimit/decision/filter
echo 'effective_priority == 12' >"$F" || fail "cannot filter decisions"
trap '{ echo 0 >"$F"; } 2>/dev/null' EXIT

# Bad values fail and change nothing; blanks and a newline are fine.
for bad in excessive foo "" "v8 walk" V8 "walk excess"; do
	if echo "$bad" >"$P" 2>/dev/null; then
		fail "policy accepted '$bad'"
	fi
	assert_eq "$(msl_param policy)" v8 "policy after writing '$bad'"
done
err=$(echo foo 2>&1 >"$P") && fail "policy accepted foo"
assert_true "foo: invalid argument" grep -qi "invalid argument" <<<"$err"
printf ' walk \n' >"$P" || fail "policy refused ' walk '"
assert_eq "$(msl_param policy)" walk "policy after ' walk '"
echo foo >"$P" 2>/dev/null && fail "policy accepted foo"
assert_eq "$(msl_param policy)" walk "policy kept after foo"
echo excess >"$P" || fail "policy refused excess"
assert_eq "$(msl_param policy)" excess "policy after excess"
echo v8 >"$P" || fail "policy refused v8"
modinfo -p "$MSL_KO" | grep -q '^policy:.* or excess (eligible as v8' ||
	fail "modinfo: no policy description of excess"

for cg in A A/A1 A/A2 B C S; do
	cg_create "$cg"
done
declare -A MIB=([A/A1]=12 [A/A2]=12 [B]=8 [C]=4)
seed=$(head -c 3072 /dev/urandom | base64 -w 0)
for cg in $LEAVES; do
	{ yes "$seed" || true; } | head -c "$((MIB[$cg] * 1048576))" >"$S/${cg//\//_}.data" ||
		fail "writing the data of $cg failed"
done
drop_caches
# refill: each leaf reads its file (again); pages still cached stay its own.
refill() {
	local cg
	for cg in $LEAVES; do
		cg_run "$cg" dd if="$S/${cg//\//_}.data" of=/dev/null bs=1M status=none ||
			fail "reading in $cg failed"
	done
}
declare -A ID
for cg in $LEAVES; do
	ID[$cg]=$(cg_id "$cg")
done
if [ "$MSL_LRU" = mglru ]; then
	KIND=proactive
	window_pressure() { echo 4M >"$MSL_CGROUP_ROOT/memory.reclaim" 2>/dev/null || true; }
else
	KIND='(kswapd|direct)'
	window_pressure() { stream_sparse S 96; }
	# Fill memory once, so that each window's stream is global pressure.
	refill
	stream_sparse S 448
fi

# limits A A1 A2 B C: soft limits in MiB, u for 1000 (under)
limits() {
	local cg v args=("$@") i=0
	for cg in A A/A1 A/A2 B C; do
		v=${args[i]}
		[ "$v" = u ] && v=1000
		set_soft_limit "$cg" "$v"
		i=$((i + 1))
	done
}

# all_seen ID: the verdict/reason of each first-pass decision on ID, in order.
all_seen() {
	grep -E "decision: cgroup_id=$1 .*effective_priority=12 kind=$KIND " "$S/trace" |
		sed -E 's/.* verdict=([a-z_]+) reason=([a-z_]+) .*/\1\/\2/'
}
# seen ID: the verdict/reason of each first-pass decision on ID, uniq'ed.
# A stream reclaims everyone at lower priorities during the window, so
# only its first decision on ID is certain to see the usage of the refill.
seen() {
	all_seen "$1" |
		if [ "$KIND" = proactive ]; then sort -u; else head -n 1; fi
}

# check CASE POLICY EXPECT...: a window under POLICY, then each leaf's
# first-pass decisions must all be its EXPECT (verdict/reason; a|b allows
# either).
check() {
	local case=$1 policy=$2 cg try got want i=0
	shift 2
	local want_all=("$@")
	echo "$policy" >"$P" || fail "cannot set policy $policy"
	trace_clear
	trace_enable memcg_softlimit/decision
	for try in 1 2 3 4 5 6 7 8; do
		window_pressure
		trace_dump >"$S/trace"
		local missing=""
		for cg in $LEAVES; do
			[ -n "$(seen "${ID[$cg]}")" ] || missing+=" $cg"
		done
		[ -z "$missing" ] && break
		note "case $case $policy: no first-pass decision yet on$missing (try $try)"
	done
	trace_disable memcg_softlimit/decision
	trace_dump >"$S/trace"
	grep -qE "decision: .*effective_priority=12 kind=$KIND .*policy=$policy " "$S/trace" ||
		fail "case $case: no decision event says policy=$policy"
	if grep -E "decision: .*kind=$KIND " "$S/trace" | grep -qv "policy=$policy "; then
		fail "case $case: a decision under another policy than $policy"
	fi
	for cg in $LEAVES; do
		want=${want_all[i]}
		i=$((i + 1))
		got=$(seen "${ID[$cg]}" | tr '\n' ' ')
		got=${got% }
		[ -n "$got" ] || fail "case $case $policy: $cg had no first-pass decision"
		for g in $got; do
			[[ "|$want|" == *"|$g|"* ]] ||
				fail "case $case $policy: $cg decided $got at the first pass, the rule says $want"
		done
	done
	note "case $case $policy: A1 A2 B C = $(for cg in $LEAVES; do printf '%s; ' "$(seen "${ID[$cg]}" | tr '\n' ' ')"; done)"
	check_decision_consistency "$S/trace"
	[ "$policy" != excess ] || excess_oracle "$case"
}

# excess_oracle CASE: every first-pass decision of the excess window that
# was weighed (its excess, the largest excess and its credit are in the
# event) took the verdict msl_excess_share() gives: reclaim when its excess
# is the largest, else when (credit - excess) mod largest < excess.  Sets
# WEIGHED_BELOW to how many decisions per cgroup id were weighed against a
# larger excess than their own ("ID:N ...").
excess_oracle() {
	local out bad
	out=$(grep -E "decision: .*effective_priority=12 kind=$KIND .*reason=(over|ancestor_over|excess_share) .*policy=excess " "$S/trace" |
		awk '{
			id = ""; e = m = c = -1; v = ""
			for (i = 1; i <= NF; i++) {
				split($i, kv, "=")
				if (kv[1] == "cgroup_id") id = kv[2]
				else if (kv[1] == "verdict") v = kv[2]
				else if (kv[1] == "excess") e = kv[2] + 0
				else if (kv[1] == "excess_max") m = kv[2] + 0
				else if (kv[1] == "credit") c = kv[2] + 0
			}
			if (e < 0 || m < 0 || c < 0) { print "BAD no excess fields: " $0; next }
			want = "reclaim"
			if (m > e && (c - e) % m >= e) want = "skip"
			if (m > e) below[id]++
			if (v != want) print "BAD " v " where the share rule says " want ": " $0
			n++
		}
		END {
			printf "WEIGHED %d", n
			for (id in below) printf " %s:%d", id, below[id]
			printf "\n"
		}')
	bad=$(grep '^BAD' <<<"$out" | head -n 3)
	[ -z "$bad" ] || fail "case $1 excess: $bad"
	WEIGHED_BELOW=$(grep '^WEIGHED' <<<"$out" | cut -d' ' -f3-)
	note "case $1 excess: $(grep '^WEIGHED' <<<"$out" | cut -d' ' -f2) weighed first-pass decisions followed the share rule; below the largest (id:count): ${WEIGHED_BELOW:-none}"
}

# run CASE LIMITS(5) -- V8(4) -- WALK(4) -- EXCESS(4)
run() {
	local case=$1
	shift
	refill
	limits "$1" "$2" "$3" "$4" "$5"
	check "$case" v8 "$7" "$8" "$9" "${10}"
	refill
	check "$case" walk "${12}" "${13}" "${14}" "${15}"
	refill
	check "$case" excess "${17}" "${18}" "${19}" "${20}"
}

R=reclaim S_=skip
# v8 skips an under cgroup at the first pass, unless the last first pass on
# the node found nothing but the root eligible (V8 2/2): on MGLRU a pass
# can stop, its quota met, before it reached the over cgroups.
NE="$S_/under|$R/nothing_eligible"
# excess: eligible as v8, each at a share of its first-pass steps, its
# excess (the largest along its path) over the largest; the largest at
# every step, the others skipped (excess_share) at the rest.
XS="$R/over|$S_/excess_share"
# (a) A over, A1 and A2 under: A's subtree; walk skips B and C for A;
# excess: A (over by 23 MiB) has the only excess, hence the largest.
run a 1 u u u u -- "$R/ancestor_over" "$R/ancestor_over" "$NE" "$NE" \
	-- "$R/ancestor_over" "$R/ancestor_over" "$S_/sibling_over" "$S_/sibling_over" \
	-- "$R/ancestor_over" "$R/ancestor_over" "$NE" "$NE"
# (b) A and A1 over: walk stops at A, the top: all of A's subtree; excess:
# A1 (over by 11 MiB) goes with A (23), the largest along its path.
run b 1 1 u u u -- "$R/over" "$R/ancestor_over" "$NE" "$NE" \
	-- "$R/ancestor_over" "$R/ancestor_over" "$S_/sibling_over" "$S_/sibling_over" \
	-- "$R/ancestor_over" "$R/ancestor_over" "$NE" "$NE"
# (c) A under with A1 over, B over: walk does not descend into A; excess:
# A1 (over by 11 MiB) the largest, B (7) at about 7/11 of its steps.
# Either may be skipped at a step once reclaim has brought A1 near B.
run c u 1 u 1 u -- "$R/over" "$NE" "$R/over" "$NE" \
	-- "$S_/sibling_over" "$S_/sibling_over" "$R/over" "$S_/sibling_over" \
	-- "$XS" "$NE" "$XS" "$NE"
# The excess window began with the largest excess forgotten (the policy
# was written) and A1 refilled: A1's first decision in it reclaims A1.
first=$(all_seen "${ID[A/A1]}" | head -n 1)
assert_eq "$first" "$R/over" "case c excess: A1's first first-pass decision"
# B, at a share below 1 while A1 stays the largest, is weighed against
# A1's excess, and excess_oracle checked each such verdict.  The largest
# excess halves each second nobody renews it, and under TCG a window can
# outlast that: B then meets it decayed below its own excess and is the
# largest itself (a full run saw B reclaimed at all 8 of its steps so).
# So more windows, refilled, until B has been weighed below the largest
# (memory.reclaim only: a stream also reclaims at lower priorities and
# moves the shares).
note "case c excess: B's first-pass decisions: $(all_seen "${ID[B]}" | sort | uniq -c | tr -s ' \n' '  ')"
if [ "$KIND" = proactive ]; then
	for try in 1 2 3; do
		[[ " $WEIGHED_BELOW " == *" ${ID[B]}:"* ]] && break
		note "case c excess: B not weighed below the largest yet; another window ($try)"
		refill
		check c excess "$XS" "$NE" "$XS" "$NE"
	done
	[[ " $WEIGHED_BELOW " == *" ${ID[B]}:"* ]] ||
		fail "case c excess: B never weighed below A1's larger excess in 4 windows"
	note "case c excess: B's first-pass decisions in the last window: $(all_seen "${ID[B]}" | sort | uniq -c | tr -s ' \n' '  ')"
fi
# The tool explains case c as the module decided it (excess, then walk).
if [ -n "${MSL_TOOL:-}" ]; then
	refill
	"$MSL_TOOL" status >"$S/status" || fail "status failed"
	echo "---- status (excess, case c)"; cat "$S/status"
	assert_true "status shows policy=excess" grep -q "^parameters:.*policy=excess" "$S/status"
	"$MSL_TOOL" explain "$MSL_CGROUP_ROOT/A/A1" >"$S/explain.excess" || fail "explain failed"
	assert_true "explain (excess): A1 at every step" grep -qE '^ +12 .* reclaim +over .*the largest excess now: reclaimed at every first-pass step' "$S/explain.excess"
	"$MSL_TOOL" explain "$MSL_CGROUP_ROOT/B" >"$S/explain.excess.B" || fail "explain B failed"
	echo "---- explain B (excess, case c)"; cat "$S/explain.excess.B"
	assert_true "explain (excess): B at a share of A1's" grep -qE '^ +12 .* reclaim +over .*by [0-9]+% of the largest excess now \(/A/A1\)' "$S/explain.excess.B"
	assert_true "explain (excess): the largest is A1's" grep -qE '^largest excess now: .* \(/A/A1\)$' "$S/explain.excess.B"
	"$MSL_TOOL" tree --no-counters >"$S/tree.excess" || fail "tree failed"
	echo "---- tree (excess, case c)"; cat "$S/tree.excess"
	assert_true "tree (excess): A1 reclaimed, over" grep -qE -- '(-|─)A1 .* reclaim \(over\)' "$S/tree.excess"
	assert_true "tree (excess): B reclaimed at a share, over" grep -qE -- '(-|─)B .* reclaim [0-9]+% \(over\)' "$S/tree.excess"
	assert_true "tree (excess): A2 skipped, under" grep -qE -- '(-|─)A2 .* skip \(under\)' "$S/tree.excess"
	echo walk >"$P" || fail "cannot set policy walk"
	"$MSL_TOOL" status >"$S/status" || fail "status failed"
	assert_true "status shows policy=walk" grep -q "^parameters:.*policy=walk" "$S/status"
	"$MSL_TOOL" explain "$MSL_CGROUP_ROOT/A/A1" >"$S/explain.walk" || fail "explain failed"
	assert_true "explain (walk): A1 skipped, sibling_over" grep -qE '^ +12 .* skip +sibling_over ' "$S/explain.walk"
	"$MSL_TOOL" explain -p v8 "$MSL_CGROUP_ROOT/A/A1" >"$S/explain.v8" || fail "explain -p v8 failed"
	assert_true "explain -p v8: A1 reclaimed, over" grep -qE '^ +12 .* reclaim +over ' "$S/explain.v8"
	"$MSL_TOOL" explain -p excess "$MSL_CGROUP_ROOT/A/A1" >"$S/explain.p" || fail "explain -p excess failed"
	assert_true "explain -p excess: policy excess" grep -q '^policy: excess,' "$S/explain.p"
	"$MSL_TOOL" explain -p bogus "$MSL_CGROUP_ROOT/A/A1" >/dev/null 2>&1
	assert_eq "$?" 2 "explain -p bogus: usage error"
	"$MSL_TOOL" tree --no-counters >"$S/tree.walk" || fail "tree failed"
	echo "---- tree (walk, case c)"; cat "$S/tree.walk"
	assert_true "tree (walk): A1 skipped, sibling_over" grep -qE -- '(-|─)A1 .* skip \(sibling_over\)' "$S/tree.walk"
	assert_true "tree (walk): B reclaimed, over" grep -qE -- '(-|─)B .* reclaim \(over\)' "$S/tree.walk"
	assert_true "tree (walk): C skipped, sibling_over" grep -qE -- '(-|─)C .* skip \(sibling_over\)' "$S/tree.walk"
fi
# (d) A's limit (15) below its children's (16 + 16), A (24) over; excess:
# A's excess by its own limit (9 MiB), the only one: every step.
run d 15 16 16 u u -- "$R/ancestor_over" "$R/ancestor_over" "$NE" "$NE" \
	-- "$R/ancestor_over" "$R/ancestor_over" "$S_/sibling_over" "$S_/sibling_over" \
	-- "$R/ancestor_over" "$R/ancestor_over" "$NE" "$NE"
# (e) nobody over: v8 skips (until a pass found nothing eligible), walk
# reclaims everyone in proportion, excess decides as v8.
run e u u u u u -- "$NE" "$NE" "$NE" "$NE" \
	-- "$R/none_over" "$R/none_over" "$R/none_over" "$R/none_over" \
	-- "$NE" "$NE" "$NE" "$NE"

echo v8 >"$P"
for cg in A B C S; do
	cg_remove "$cg"
done
msl_unload
