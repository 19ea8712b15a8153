#!/bin/bash
# configs: all
# timeout: 900
# A skip spares the whole memcg, not only its LRU: P's reclaimable slab
# (the dentries and inodes of 30,000 files it looked up) and its page
# cache survive S's stream with the module at its defaults as memory.low
# keeps them, where stock reclaim takes them.  S fills the dentry cache
# too (negative dentries of names that do not exist), so that reclaim
# shrinks slab, not only the page cache.  The memcg-aware shrinkers
# run in the same per-memcg step as the LRU (shrink_node_memcgs() on the
# classic LRU, shrink_one() on MGLRU), so a skip that spared the LRU alone
# would let them go.
# How far the stream reaches into slab is up to the shrinkers' deferred
# counts (a dentry needs two passes: one clears its reference bit) and, on
# MGLRU, to whether reclaim visits P at all, so stock sometimes keeps all
# of P's slab (6.1 v2 once kept 100%): the control then proves nothing,
# and the stock round is repeated at twice the pressure, up to twice,
# before every other round runs at the level where stock lost slab.
# Losing 2% is proof enough: the rounds that keep P's slab move it by a
# few KiB of 40 MiB.  (On 6.12 MGLRU stock lost 5% at the first level
# and nothing at all at the next two, its page cache not touched either.)
. "$MSL_PAYLOAD/guest/patch-cases.sh"
NFILES=30000
NEGATIVE=300000
STREAM=640
STOCK_SHRANK_BELOW=98	# stock's kept % that shows the stream reached slab
D=$MSL_SCRATCH/slab-files
N=$MSL_SCRATCH/slab-none
mkdir -p "$D" "$N"
perl -e 'for (1 .. $ARGV[1]) { open(my $f, ">", "$ARGV[0]/f$_") or die "$!" }' "$D" "$NFILES" ||
	fail "creating $NFILES files"

# slab_kib CGROUP: its reclaimable kernel memory in KiB (v2 slab_reclaimable;
# v1 has no slab in memory.stat: all of its kernel memory)
slab_kib() {
	if [ "$MSL_CGROUP_VERSION" = 1 ]; then
		echo $(($(cat "$(cg_path "$1")/memory.kmem.usage_in_bytes") >> 10))
	else
		echo $(($(memstat "$1" slab_reclaimable) >> 10))
	fi
}

# round LABEL: P looks up every file and reads 48 MiB of page cache, then
# S streams; records P's slab and page cache before and after.
declare -A SLAB0 SLAB1 FILE0 FILE1
round() {
	local label=$1
	drop_caches
	cg_run P perl -e 'stat("$ARGV[0]/f$_") for 1 .. $ARGV[1]' "$D" "$NFILES"
	cg_run P dd if="$MSL_SCRATCH/p.data" of=/dev/null bs=1M status=none
	SLAB0[$label]=$(slab_kib P) FILE0[$label]=$(cg_file_mib P)
	cg_run S perl -e 'stat("$ARGV[0]/n$_") for 1 .. $ARGV[1]' "$N" "$NEGATIVE" &
	stream_sparse S "$STREAM"
	wait $!
	SLAB1[$label]=$(slab_kib P) FILE1[$label]=$(cg_file_mib P)
	note "$label: P slab ${SLAB0[$label]} -> ${SLAB1[$label]} KiB, page cache ${FILE0[$label]} -> ${FILE1[$label]} MiB"
}
kept_pct() { # kept_pct BEFORE AFTER
	[ "$1" -gt 0 ] || fail "nothing to keep"
	echo $(($2 * 100 / $1))
}

cg_create P
cg_create S
fill_pagecache P p.data 48
round stock
assert_ge "${SLAB0[stock]}" 8192 "P's slab after looking up $NFILES files (KiB)"
for attempt in 2 3; do
	[ "$(kept_pct "${SLAB0[stock]}" "${SLAB1[stock]}")" -ge "$STOCK_SHRANK_BELOW" ] ||
		break
	STREAM=$((STREAM * 2)) NEGATIVE=$((NEGATIVE * 2))
	note "stock kept P's slab: round $attempt at ${STREAM} MiB and $NEGATIVE negative dentries"
	round stock
done
assert_lt "$(kept_pct "${SLAB0[stock]}" "${SLAB1[stock]}")" "$STOCK_SHRANK_BELOW" \
	"stock: P's slab kept (%), the control that the stream reaches slab"

if [ "$MSL_CGROUP_VERSION" = 2 ]; then
	cg_set P memory.low 1G
	round memory.low
	cg_set P memory.low 0
fi

msl_load
set_soft_limit P 1024
round module
msl_unload

slab_module=$(kept_pct "${SLAB0[module]}" "${SLAB1[module]}")
file_module=$(kept_pct "${FILE0[module]}" "${FILE1[module]}")
note "kept: stock slab $(kept_pct "${SLAB0[stock]}" "${SLAB1[stock]}")%, page cache $(kept_pct "${FILE0[stock]}" "${FILE1[stock]}")%; module slab $slab_module%, page cache $file_module%"
assert_ge "$slab_module" 90 "module: P's reclaimable slab kept (%)"
assert_ge "$file_module" 90 "module: P's page cache kept (%)"
assert_gt "$slab_module" "$(kept_pct "${SLAB0[stock]}" "${SLAB1[stock]}")" "module keeps more slab than stock (%)"
if [ "$MSL_CGROUP_VERSION" = 2 ]; then
	slab_low=$(kept_pct "${SLAB0[memory.low]}" "${SLAB1[memory.low]}")
	note "memory.low: slab $slab_low%, page cache $(kept_pct "${FILE0[memory.low]}" "${FILE1[memory.low]}")%"
	assert_ge "$slab_module" $((slab_low - 5)) "module keeps P's slab as memory.low does (%)"
fi
