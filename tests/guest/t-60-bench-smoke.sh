#!/bin/bash
# configs: 6.12-v2-mglru 6.1-v1-classic
# timeout: 480
# tcg: single
# The benchmarks (make bench, tests/guest/bench-lib.sh) at their smallest
# size, so that they cannot rot: each part runs once and its records must
# be complete and sane.  No performance target is asserted here.
# Single-threaded TCG: the overhead part switches function_graph on and off
# and loads and unloads the module while S streams, live text patches of
# code the other vCPU runs (CI saw "Oops: int3" there on 6.12 MGLRU with a
# thread per vCPU; tests/vm/README.md).
MSL_BENCH_SIZE=smoke
B_RECORDS=$MSL_SCRATCH/smoke-records.jsonl
. "$MSL_PAYLOAD/guest/bench-lib.sh"
: >"$B_RECORDS"

# field RECORD KEY: a scalar or list value of a flat JSON record
field() { sed -nE "s/.*\"$2\":(\"[^\"]*\"|\[[^]]*\]|[-0-9.]+).*/\1/p" <<<"$1" | tr -d '"[]'; }
records() { grep -F "\"part\":\"$1\"" "$B_RECORDS"; }

# --- isolation: no protection and the module, page cache ---------------------
bench_iso file none msl msl-walk
assert_eq "$(records iso | wc -l)" 3 "isolation records"
while read -r r; do
	mode=$(field "$r" mode) before=$(field "$r" before_kib)
	assert_gt "$before" $((B_WS * 1024 * 9 / 10)) "$mode: P's set was loaded before the stream"
	IFS=, read -ra kept <<<"$(field "$r" kept_kib)"
	IFS=, read -ra sns <<<"$(field "$r" stream_ns)"
	IFS=, read -ra rr <<<"$(field "$r" reread_ns)"
	assert_eq "${#kept[@]}" "$B_NSEG" "$mode: one residency sample per segment"
	assert_eq "${#sns[@]}" "$B_NSEG" "$mode: one stream time per segment"
	assert_eq "${#rr[@]}" "$B_NSEG" "$mode: one re-read per segment"
	for k in "${kept[@]}"; do
		assert_ge "$k" 0 "$mode: residency"
		assert_le "$k" $((B_WS * 1024 + 64)) "$mode: residency within the set"
	done
	for t in "${sns[@]}" "${rr[@]}"; do assert_gt "$t" 0 "$mode: a positive time"; done
	note "smoke iso $mode: before ${before} KiB, kept ${kept[*]} KiB, stream ns ${sns[*]}"
done < <(records iso)
for mode in msl msl-walk; do
	r=$(records iso | grep "\"mode\":\"$mode\"")
	assert_gt "$(field "$r" msl_skips)" 0 "$mode: the module skipped P at least once (snapshot counters reached the record)"
done
[ "$(bench_policies)" != "" ] || fail "bench_policies found no policy besides v8 (walk is built in)"
bench_policies | grep -qx excess || fail "bench_policies: no excess (the module has it)"

# The overhead and scale parts measure the handler: walk, the costlier
# policy, is enough here; trees run every policy.

# --- overhead: function_graph and one throughput pair -------------------------
MSL_BENCH_POLICIES=walk bench_overhead
for label in stock loaded handlers handlers-walk; do
	r=$(records fgraph | grep -F "\"label\":\"$label\"" | grep -E "\"func\":\"($(fg_gated)|$(fg_handler))\"" | head -n 1)
	[ -n "$r" ] || fail "no function_graph record for $label ($(fg_gated)/$(fg_handler)); traced: $(records fgraph | head -c 300)"
	assert_gt "$(field "$r" calls)" 0 "$label: traced calls"
	mean=$(field "$r" mean_ns)
	assert_gt "${mean%.*}" 0 "$label: a positive mean duration"
	note "smoke fgraph $label $(field "$r" func): $(field "$r" calls) calls, mean $(field "$r" mean_ns) ns"
done
assert_eq "$(records throughput | wc -l)" 2 "throughput records (one pair)"
for arm in loaded unloaded; do
	r=$(records throughput | grep -F "\"arm\":\"$arm\"")
	assert_gt "$(field "$r" stream_ns)" 0 "$arm: stream time"
done

# --- scale: 10 memcgs ---------------------------------------------------------
MSL_BENCH_POLICIES=walk bench_scale
r=$(records scale)
assert_eq "$(field "$r" failed)" "" "creating the memcgs"
assert_ge "$(field "$r" nr_tracked)" 10 "the module tracked at least the 10 memcgs"
assert_ge "$(field "$r" slab_freed)" 0 "slab objects freed at unload"
note "smoke scale: $(field "$r" nr_tracked) tracked, $(field "$r" slab_freed) kmalloc-256 objects freed at unload"
r=$(records fgraph | grep -F '"label":"scale-10-walk"' | grep -E "\"func\":\"$(fg_handler)\"")
assert_gt "$(field "$r" calls)" 0 "scale: the decision handler traced under policy=walk"
msl_loaded && msl_unload

# --- trees: the article's case c under stock, v8, walk and excess -------------
bench_trees
assert_eq "$(records trees | wc -l)" $((2 + $(bench_policies | wc -l))) "trees records (stock, v8 and each policy)"
assert_eq "$(records trees | grep -c '"mode":"excess"')" 1 "a trees record under excess"
declare -A KEPT FILL
while read -r r; do
	mode=$(field "$r" mode)
	IFS=, read -ra leaves <<<"$(field "$r" leaves)"
	IFS=, read -ra before <<<"$(field "$r" before_mib)"
	IFS=, read -ra kept <<<"$(field "$r" kept_mib)"
	IFS=, read -ra skips <<<"$(field "$r" skips)"
	assert_eq "${#leaves[@]}" 4 "$mode: four leaves"
	assert_eq "${#kept[@]}" 4 "$mode: one residency per leaf"
	for i in 0 1 2 3; do
		assert_gt "${before[i]}" 0 "$mode: ${leaves[i]} was filled"
		assert_le "${kept[i]}" $((before[i] + 1)) "$mode: ${leaves[i]} kept at most its fill"
	done
	[ "$mode" = stock ] || assert_gt "$((skips[0] + skips[1] + skips[2] + skips[3]))" 0 "$mode: skips in the tree"
	note "smoke trees c $mode: kept ${kept[*]} of ${before[*]} MiB (${leaves[*]}), skips ${skips[*]}"
	for i in 0 1 2 3; do
		KEPT[$mode:${leaves[i]}]=${kept[i]} FILL[$mode:${leaves[i]}]=${before[i]}
	done
done < <(records trees)

# The direction of each policy's effect on case c (A under with A1 over, B
# over, A2 and C under; S streaming, unset, so over), the rules of README
# "Policies" at the threshold README gives for the LRU.  Stock cgroup v1
# has soft limits of its own: there the module must only do no worse.
# lost MODE LEAF: share of its pages the leaf lost, in percent
lost() {
	local fill=${FILL[$1:$2]} left=${KEPT[$1:$2]}
	echo $(((fill - left) * 100 / fill))
}
# spared MODE LEAF: the leaf, skipped at the first pass, keeps more than stock
spared() {
	if [ "$MSL_CGROUP_VERSION" = 1 ]; then
		assert_ge "${KEPT[$1:$2]}" "${KEPT[stock:$2]}" "trees c $1: $2 keeps at least as much as with stock v1 soft limits"
	else
		assert_gt "${KEPT[$1:$2]}" "${KEPT[stock:$2]}" "trees c $1: $2 keeps more than stock"
	fi
}
# (MGLRU may take nothing from a cgroup the rule lets it reclaim: <= there)
less_lost() { # less_lost MODE SPARED RECLAIMED
	if [ "$MSL_LRU" = mglru ]; then
		assert_le "$(lost "$1" "$2")" "$(lost "$1" "$3")" "trees c $1: $2 loses no larger a share than $3"
	else
		assert_lt "$(lost "$1" "$2")" "$(lost "$1" "$3")" "trees c $1: $2 loses a smaller share than $3"
	fi
}
# v8: A1 and B (over) are reclaimed, A2 and C spared.
for leaf in A/A2 C; do
	spared v8 "$leaf"
	less_lost v8 "$leaf" A/A1
done
# walk: B and S are over at the top, so A's whole subtree (A1 too) and C
# are skipped: A1 keeps at least as much as under v8, and loses no larger
# a share than B.
for leaf in A/A1 A/A2 C; do spared walk "$leaf"; done
assert_ge "${KEPT[walk:A/A1]}" "${KEPT[v8:A/A1]}" "trees c walk: A1 keeps at least as much as under v8"
less_lost walk A/A1 B
# excess: eligible as v8, but A1 and B only at their excess's share of
# S's (S's usage is all excess): A2 and C spared as under v8, and A1 and B
# together keep at least as much as under v8.
for leaf in A/A2 C; do
	spared excess "$leaf"
	less_lost excess "$leaf" A/A1
done
assert_ge "$((${KEPT[excess:A/A1]} + ${KEPT[excess:B]}))" "$((${KEPT[v8:A/A1]} + ${KEPT[v8:B]}))" \
	"trees c excess: A1 and B (over, at a share) keep at least as much as under v8"
true
