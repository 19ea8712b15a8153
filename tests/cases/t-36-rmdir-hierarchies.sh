#!/bin/bash
# configs: all
# timeout: 300
# kernfs ids are unique per hierarchy, not system-wide: the removal of a
# cgroup of another hierarchy that has the id of a memcg (a named v1
# hierarchy such as systemd's, or another controller's) must leave that
# memcg's counters and soft limit alone.
. "$MSL_PAYLOAD/guest/patch-cases.sh"
N=/run/msl-named
mkdir -p "$N"
mount -t cgroup -o none,name=msltest msltest "$N" || fail "cannot mount a named v1 hierarchy"
msl_load
# X in the memory hierarchy and Y in the named one, with the same id.
# Each hierarchy hands out ids upward, one per kernfs node: a mkdir takes
# the directory's id and then one per file in it, so a probe (mkdir,
# rmdir) moves that hierarchy's next id by a step of its own (the
# memory hierarchy's many files, the named one's four).  Probes in
# whichever hierarchy is behind bring both to one next id; on cgroup v2 a
# probe one level down, under a cgroup without controllers, has a step of
# its own too (no memory files), for when the two steps alone cannot meet.
read -r X_ID Y_ID < <(perl -e '
	my ($mem, $named) = @ARGV;
	sub probe { my $d = shift; mkdir("$d/msl-probe") or die "mkdir $d: $!";
		my $id = (stat("$d/msl-probe"))[1];
		rmdir("$d/msl-probe") or die "rmdir $d: $!"; return $id }
	# step DIR: (next id, step) after two probes
	sub step { my $d = shift; my $a = probe($d); my $b = probe($d); return ($b + $b - $a, $b - $a) }
	my ($m, $sm) = step($mem);
	my ($n, $sn) = step($named);
	my ($alt, $sa) = ($mem, $sm);
	if (-e "$mem/cgroup.subtree_control") {
		mkdir("$mem/msl-probe-parent") or die "mkdir: $!";
		$alt = "$mem/msl-probe-parent";
		($m, $sa) = step($alt);
	}
	while ($m < $n) { $m = probe($mem) + $sm }
	# the named hierarchy only moves by its step: bring the memory
	# hierarchy next id to the named one modulo that step, then let the
	# named one catch up
	my ($a, $b) = (-1, -1);
	FIT: for my $i (0 .. $sn - 1) { for my $j (0 .. $sn - 1) {
		if (($m + $i * $sm + $j * $sa - $n) % $sn == 0) { ($a, $b) = ($i, $j); last FIT }
	} }
	die "steps $sm, $sa (memory) and $sn (named) cannot meet" if $a < 0;
	$m = probe($mem) + $sm for 1 .. $a;
	$m = probe($alt) + $sa for 1 .. $b;
	$n = probe($named) + $sn while $n < $m;
	die "next ids $m and $n did not meet" if $m != $n;
	mkdir("$mem/X") or die "mkdir X: $!";
	mkdir("$named/Y") or die "mkdir Y: $!";
	rmdir("$mem/msl-probe-parent") if -d "$mem/msl-probe-parent";
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
wait_reclaim_quiet
before=$(x_entry)
[ -n "$before" ] || fail "X has no counters to watch"
rmdir "$N/Y" || fail "rmdir $N/Y"
after=$(x_entry)
[ -n "$after" ] || fail "X's counters are gone after an rmdir in another hierarchy (before: $before)"
# Reclaim may still count (kswapd finishing its round), so every counter
# is at least what it was; a dropped entry would have started from 0.
dropped=$(perl -e 'my %b = $ARGV[0] =~ /(\w+)=(\d+)/g; my %a = $ARGV[1] =~ /(\w+)=(\d+)/g;
	print join(" ", map { "$_ $b{$_}->$a{$_}" } grep { $a{$_} < $b{$_} } sort keys %b)' "$before" "$after")
assert_eq "$dropped" "" "X's counters that went down after an rmdir in another hierarchy"
note "X's counters before and after: $before | $after"
if [ "$MSL_CGROUP_VERSION" = 2 ]; then
	assert_true "X's soft limit still there" grep -qE "^$X_ID 536870912 /X$" /proc/memcg_softlimit/limits
fi
# X's own rmdir still drops them.
cg_remove X
assert_eq "$(x_entry)" "" "X's counters after its own rmdir"
find "$N" -mindepth 1 -depth -type d -exec rmdir {} + 2>/dev/null
umount "$N"
msl_unload
