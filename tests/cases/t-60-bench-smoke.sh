#!/bin/bash
# configs: all
# timeout: 480
# tcg: single
# The benchmarks (make bench, bench/guest/bench-lib.sh) at their smallest
# size, so that they cannot rot: each part runs once and its records must
# be complete and sane.  No performance target is asserted here.
# Single-threaded TCG: the overhead part switches function_graph on and off
# and loads and unloads the module while S streams, live text patches of
# code the other vCPU runs (CI saw "Oops: int3" there on 6.12 MGLRU with a
# thread per vCPU; tests/vm/README.md).
MSL_BENCH_SIZE=smoke
B_RECORDS=$MSL_SCRATCH/smoke-records.jsonl
. "$MSL_PAYLOAD/bench/bench-lib.sh"
. "$MSL_PAYLOAD/guest/trees-c.sh"
: >"$B_RECORDS"

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
trees_c_check
