#!/bin/bash
# configs: all
# timeout: 420
# A removed cgroup's page cache, which stays charged to its dying memcg
# under the protected parent that held it, is reclaimed first: the kernel
# drops a dying memcg's memory.low and memory.min when it goes offline, and
# so does the module (reason dying), whatever its parent's soft limit says;
# the live sibling under the same parent keeps its pages.  A service that
# restarts leaves such a memcg behind each time.  Kernels that move a
# dying memcg's LRU folios to its parent when it goes offline (7.x:
# lru_gen_reparent_memcg(), both LRUs) leave no such pages: they become
# the parent's own, and the parent's soft limit protects them as it
# protects the rest of its pages.
. "$MSL_PAYLOAD/guest/patch-cases.sh"
msl_load
cg_create web
cg_create web/old
cg_create web/live
cg_create S
set_soft_limit web 200
fill_pagecaches web/old old.data 64 web/live live.data 64
old_id=$(cg_id web/old)
rmdir "$(cg_path web/old)" || fail "rmdir web/old"
web_file=$(cg_file_mib web)
live_file=$(cg_file_mib web/live)
dying_before=$((web_file - live_file))
note "web/old removed: web holds $web_file MiB of page cache, web/live $live_file, the dying memcg $dying_before"
assert_ge "$dying_before" 56 "the dying memcg's page cache before the stream (MiB)"

echo 4096 >"$MSL_TRACEFS/buffer_size_kb"
trace_clear
trace_enable memcg_softlimit/decision
stream_sparse S 1536
trace_disable memcg_softlimit/decision
live_after=$(cg_file_mib web/live)
dying_after=$(($(cg_file_mib web) - live_after))
dying_steps=$(trace_count "decision: cgroup_id=$old_id nid=.*reason=dying")
skipped=$(trace_count "decision: cgroup_id=$old_id nid=.*verdict=skip")
note "after 1.5 GiB streamed by S: dying memcg $dying_before -> $dying_after MiB ($dying_steps decisions reason=dying, $skipped skips), web/live $live_file -> $live_after MiB"
assert_eq "$skipped" 0 "skips of the dying memcg"
if grep -qw lru_gen_reparent_memcg /proc/kallsyms; then
	note "this kernel moved the dying memcg's pages to web at offline: they are web's own, under web's soft limit"
	assert_ge "$((dying_after * 100))" "$((dying_before * 90))" "the pages web took from its removed child, kept (at least 90%)"
else
	assert_gt "$dying_steps" 0 "decisions on the dying memcg, reason dying"
	assert_le "$((dying_after * 10))" "$dying_before" "the dying memcg's page cache left (at most 10%)"
fi
assert_ge "$((live_after * 100))" "$((live_file * 95))" "web/live's page cache kept (at least 95%)"
