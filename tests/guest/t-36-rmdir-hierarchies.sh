#!/bin/bash
# configs: all
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
# X in the memory hierarchy and Y in the named one, with the same id:
# ids go upward per hierarchy, so make and remove cgroups in whichever
# hierarchy is behind until both would give the same next id.
read -r X_ID Y_ID < <(perl -e '
	my ($mem, $named) = @ARGV;
	sub probe { my $d = shift; mkdir("$d/msl-probe") or die "mkdir $d: $!";
		my $id = (stat("$d/msl-probe"))[1];
		rmdir("$d/msl-probe") or die "rmdir $d: $!"; return $id }
	my ($m, $n) = (probe($mem), probe($named));
	for (my $i = 0; $m != $n; $i++) {
		die "ids $m and $n never met" if $i > 2000000;
		if ($m < $n) { $m = probe($mem) } else { $n = probe($named) }
	}
	mkdir("$mem/X") or die "mkdir X: $!";
	mkdir("$named/Y") or die "mkdir Y: $!";
	print join(" ", (stat("$mem/X"))[1], (stat("$named/Y"))[1]), "\n";
' "$MSL_CGROUP_ROOT" "$N") || fail "no pair of cgroups with one id"
assert_eq "$Y_ID" "$X_ID" "ids of X (memory hierarchy) and Y (named hierarchy)"
note "X and Y share id $X_ID"
if [ "$MSL_CGROUP_VERSION" = 2 ]; then
	echo "set /X 512M" >/proc/memcg_softlimit/limits || fail "set /X"
fi
# Decisions on X, so that it has counters (on v2 its limit gives it an
# entry already).
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
rmdir "$N/Y" || fail "rmdir $N/Y"
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
