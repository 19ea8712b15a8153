#!/bin/bash
# configs: *-v1-*
# On cgroup v1 soft limits are memory.soft_limit_in_bytes, and the module's
# v2 table refuses writes with EOPNOTSUPP, changing nothing.
msl_load
cg_create P
err=$( { echo "set /P 1G" >/proc/memcg_softlimit/limits; } 2>&1) && fail "v2 table accepted a write on cgroup v1"
assert_true "EOPNOTSUPP" grep -q "not supported" <<<"$err"
assert_eq "$(cat /proc/memcg_softlimit/limits)" "" "table empty"
msl_unload
