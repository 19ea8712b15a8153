#!/bin/bash
# configs: 6.1-v1-classic 6.1-v2-classic 6.12-v2-mglru
# timeout: 300
# kernfs ids are unique per hierarchy, not system-wide: the removal of a
# cgroup of another hierarchy that has the id of a memcg (a named v1
# hierarchy such as systemd's, or another controller's) must leave that
# memcg's counters and soft limit alone.
. "$MSL_PAYLOAD/guest/cases.sh"
N=/run/msl-named
mkdir -p "$N"
mount -t cgroup -o none,name=msltest msltest "$N" || fail "cannot mount a named v1 hierarchy"
msl_load
cg_create X
X_ID=$(cg_id X)
if [ "$MSL_CGROUP_VERSION" = 2 ]; then
	echo "set /X 512M" >/proc/memcg_softlimit/limits || fail "set /X"
fi
# Decisions on X, so that it has counters.
fill_pagecache X x.data 32
cg_create S
stream_sparse S 640
# x_entry: X's snapshot line, its counters
x_entry() {
	trace_clear
	echo 1 >"$MSL_TRACEFS/events/memcg_softlimit/snapshot/enable"
	echo 1 >/proc/memcg_softlimit/snapshot
	echo 0 >"$MSL_TRACEFS/events/memcg_softlimit/snapshot/enable"
	grep -oE "snapshot: seq=[0-9]+ cgroup_id=$X_ID .*" "$MSL_TRACEFS/trace" | sed -E 's/seq=[0-9]+ //'
}
before=$(x_entry)
[ -n "$before" ] || fail "X has no counters to watch"
# A cgroup of the named hierarchy with X's id: ids are allocated upward
# per hierarchy, so make and remove cgroups there until one has it.
made=$(perl -e '
	my ($dir, $want) = @ARGV;
	for my $i (1 .. 400000) {
		mkdir("$dir/c") or die "mkdir: $!";
		my $ino = (stat("$dir/c"))[1];
		if ($ino == $want) { print "$dir/c"; exit 0 }
		die "passed id $want" if $ino > $want;
		rmdir("$dir/c") or die "rmdir: $!";
	}' "$N" "$X_ID") || fail "no cgroup of the named hierarchy got id $X_ID"
note "$made has X's id $X_ID"
rmdir "$made" || fail "rmdir $made"
after=$(x_entry)
assert_eq "$after" "$before" "X's counters after an rmdir in another hierarchy"
if [ "$MSL_CGROUP_VERSION" = 2 ]; then
	assert_true "X's soft limit still there" grep -qE "^$X_ID 536870912 /X$" /proc/memcg_softlimit/limits
fi
# X's own rmdir still drops them.
cg_remove X
assert_eq "$(x_entry)" "" "X's counters after its own rmdir"
find "$N" -mindepth 1 -depth -type d -exec rmdir {} + 2>/dev/null
umount "$N"
msl_unload
