#!/bin/bash
# configs: all
# timeout: 180
#
# Smoke test of the harness and the module: the guest matches its
# configuration (kernel series, cgroup version, LRU), the module loads and
# unloads, and the page-cache helpers of lib.sh charge a cgroup.

# Kernel series
kver=$(uname -r)
series=$(echo "$kver" | cut -d. -f1-2) # 6.1.0-57-amd64 -> 6.1
assert_eq "$series" "$MSL_KSERIES" "kernel series of $kver (the row's)"
[ -z "$MSL_FLAVOUR" ] || [ "$MSL_FLAVOUR" = amd64 ] ||
	assert_true "kernel flavour $MSL_FLAVOUR" grep -q -- "-$MSL_FLAVOUR\$" <<<"$kver"
note "kernel $kver"

# Cgroup version
case $MSL_CGROUP_VERSION in
1)
	assert_eq "$MSL_CGROUP_VERSION" 1 "cgroup version"
	assert_true "cgroup v1 memory hierarchy mounted at $MSL_CGROUP_ROOT" \
		grep -qE "^[^ ]+ $MSL_CGROUP_ROOT cgroup .*memory" /proc/mounts
	assert_true "v1 memory controller at $MSL_CGROUP_ROOT" test -e "$MSL_CGROUP_ROOT/memory.usage_in_bytes"
	assert_true "v1 soft limit file present" test -e "$MSL_CGROUP_ROOT/memory.soft_limit_in_bytes"
	;;
*)
	assert_eq "$MSL_CGROUP_VERSION" 2 "cgroup version"
	assert_eq "$(stat -f -c %T "$MSL_CGROUP_ROOT")" cgroup2fs "cgroup2 mounted at $MSL_CGROUP_ROOT"
	assert_true "memory controller enabled for children" grep -qw memory "$MSL_CGROUP_ROOT/cgroup.subtree_control"
	;;
esac

# LRU (MSL_LRU comes from the row of tests/matrix; the guest set it)
lru_file=/sys/kernel/mm/lru_gen/enabled
case $MSL_LRU in
mglru)
	assert_true "$lru_file exists" test -e "$lru_file"
	assert_ne "$(cat "$lru_file")" 0x0000 "MGLRU enabled"
	;;
*)
	if [ -e "$lru_file" ]; then
		assert_eq "$(cat "$lru_file")" 0x0000 "MGLRU disabled"
	fi
	;;
esac
note "lru_gen/enabled=$(cat "$lru_file" 2>/dev/null || echo none)"

# The module
assert_false "module not loaded before the test" msl_loaded
msl_load
assert_true "/sys/module/$MSL_MODULE exists" test -d "/sys/module/$MSL_MODULE"
assert_true "lsmod lists $MSL_MODULE" grep -q "^$MSL_MODULE " /proc/modules
msl_unload
assert_false "/sys/module/$MSL_MODULE gone after rmmod" test -d "/sys/module/$MSL_MODULE"

# The page-cache helpers charge the right cgroup.
cg_create smoke
fill_pagecache smoke smoke.dat 16
file_mib=$(cg_file_mib smoke)
assert_ge "$file_mib" 12 "16 MiB file read in cgroup smoke is charged there (MiB)"
cg_create smoke/sparse
before=$(cg_file_mib smoke/sparse)
stream_sparse smoke/sparse 32
after=$(cg_file_mib smoke/sparse)
assert_ge "$after" 8 "sparse stream charged page cache to smoke/sparse (MiB, before: $before)"
note "page cache: smoke=${file_mib}MiB, sparse=${after}MiB after a 32 MiB stream"
cg_remove smoke
assert_false "cgroup smoke removed" test -d "$MSL_CGROUP_ROOT/smoke"
