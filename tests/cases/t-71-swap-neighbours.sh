#!/bin/bash
# configs: all
# timeout: 420
# With swap on, protected page cache stays while unprotected neighbours
# hold swappable memory (shmem) and another writes more of it than the
# guest has left: reclaim sends the neighbours' pages to swap, as
# memory.low does, instead of the protected cgroups' cache.  On
# the classic LRU the node's plenty of inactive file pages (the protected
# ones') puts reclaim in its file-only cache-trim mode, which never scans
# the neighbours' shmem: the module judges that mode on the eligible
# cgroups' file pages alone.  Before it did, the protected cgroups lost
# 40-60% of their page cache here, some of it while they were being
# filled, and nothing went to swap.  Swap holds all of the neighbours'
# shmem with room to spare (where it runs out, memory.low too must give
# way at some point).  Once N's and W's shmem is all in swap only S's
# stream gives, holding few cold pages at any moment: counted by what it
# held, the module's depth bound and kswapd's retry took 7-67% of P's
# cache in one run in two to six on 7.3 with lru_gen off, until the module
# measured what the eligible cgroups give (docs/design.md).  S's stream
# then sat on its active list, never deactivated beside the protected
# cgroups' inactive cache, and the module's fallbacks took a third of P's
# cache in one run in two on that kernel, until the module judged
# deactivation on the eligible cgroups' own lists.
# While the protected cgroups are being filled beside N's shmem, kswapd's
# boosted reclaim (which may not swap) found nothing eligible and took
# 6-11% of their cache on 6.1 with cgroup v2, until the module left boosted
# passes alone: the fill is held to 95%, what was kept once filled to 97%.
. "$MSL_PAYLOAD/guest/patch-cases.sh"
shm=/run/msl-shm
shm_mount "$shm" 400
swap_file_on 448
msl_load
for cg in P1 P2 N W S; do cg_create "$cg"; done
set_soft_limit P1 max
set_soft_limit P2 max
# Pages written to swap, kept compressed by zswap (on in Debian's 6.12), or
# found zero-filled and written nowhere (6.12).
swapped_out() { awk '$1 == "pswpout" || $1 == "zswpout" || $1 == "swpout_zero" {n += $2} END {print n + 0}' /proc/vmstat; }

swap_before=$(swapped_out)
# The neighbours' shmem first, then the protected cache beside it.
shmem_write N "$shm/n" 200 || fail "N's 200 MiB of shmem"
echo 8192 >"$MSL_TRACEFS/buffer_size_kb"
trace_clear
trace_enable memcg_softlimit/decision
fill_pagecaches P1 p1.data 100 P2 p2.data 100
p1=$(cg_file_mib P1)
p2=$(cg_file_mib P2)
note "filled beside N's shmem: P1 $p1 MiB, P2 $p2 MiB, N $(($(cg_usage_bytes N) >> 20)) MiB"
# More shmem, from W, than the guest has left: N's or P's pages must go.
shmem_write W "$shm/w" 120 || fail "W's 120 MiB of shmem"
stream_sparse S 1024
trace_disable memcg_softlimit/decision
p_ids="$(cg_id P1)|$(cg_id P2)"
note "P1 and P2's reclaim decisions by reason, from the fill on: $(grep -E "decision: cgroup_id=($p_ids) .*verdict=reclaim" "$MSL_TRACEFS/trace" | grep -oE 'reason=[a-z_]+' | sort | uniq -c | tr -s ' ' | tr '\n' ',')"
p1_after=$(cg_file_mib P1)
p2_after=$(cg_file_mib P2)
swapped=$(($(swapped_out) - swap_before))
note "after W wrote 120 MiB of shmem and S streamed 1 GiB: P1 $p1_after MiB, P2 $p2_after MiB, N $(($(cg_usage_bytes N) >> 20)) MiB and W $(($(cg_usage_bytes W) >> 20)) MiB in memory, $((swapped / 256)) MiB swapped out"
assert_ge "$p1" 95 "P1's page cache as filled (MiB of 100)"
assert_ge "$p2" 95 "P2's page cache as filled (MiB of 100)"
assert_ge "$(((p1_after + p2_after) * 100))" "$(((p1 + p2) * 97))" "P1 and P2's page cache kept, in MiB x 100 (at least 97% of the $((p1 + p2)) MiB filled)"
assert_gt "$swapped" 0 "pages swapped out (the neighbours')"
