#!/bin/bash
# configs: 6.12-v2-mglru
# timeout: 480
# Bursts of memcgs reclaim meets for the first time.  The reclaim path takes
# entries from a pool a work item refills and never allocates itself, so a
# burst of more new memcgs than the pool holds, met faster than the work
# refills it, counts the rest as untracked, their counters lost.  With the
# fixed 64-entry pool every burst did (issue 5's scale run: at 1,000 memcgs
# the module tracked 188; here, on MGLRU, 307 of the first 1,000 new
# memcgs tracked and 129 of the next 1,000, with 1,636 and 1,897 decisions
# untracked).  Now a burst that emptied the pool grows it to the burst's
# size: the next burst of as many new memcgs must lose nothing, and once
# the bursts stop the pool shrinks back.  (Growing by the steps missed
# alone was not enough: on MGLRU a burst that missed 182 steps left 256
# entries, and the next lost 81.)  Whether a burst empties the pool
# depends on how fast the work (unbound, on the other CPU) keeps up with
# the walk: MGLRU walks its memcg LRU under rcu_read_lock(), the classic
# loop calls cond_resched() between memcgs.
# MGLRU only: on the classic LRU (6.1 v2) the burst after a lossy one lost
# decisions too in a full run (440, then 1,395): each kswapd pass there
# steps through every memcg with pages, and a burst can need more entries
# than the one before it missed.  Growing the pool ahead of the memcgs (at
# their mkdir) would cover it; not made yet.
N=500
msl_load
cg_create S
cg_create burst
trap 'for s in a b c d; do rmdir "$(cg_path burst)/$s"/m[0-9]* 2>/dev/null; done; cg_remove burst; cg_remove S' EXIT
mkdir -p "$MSL_SCRATCH/burst"
perl -e 'for my $i (0 .. $ARGV[1] - 1) { open(my $f, ">", "$ARGV[0]/f$i") or die; print $f ("x" x 65536); }' \
	"$MSL_SCRATCH/burst" "$N"
sync
# make_set SET: N memcgs burst/SET/m<i>, each with 64 KiB of page cache of
# its own (an empty memcg is "below min" and reclaim passes it by), made by
# one process: forks under TCG would take minutes.
make_set() {
	cg_create "burst/$1"
	[ "$MSL_CGROUP_VERSION" = 2 ] && echo +memory >"$(cg_path "burst/$1")/cgroup.subtree_control"
	drop_caches
	perl -e '
		my ($cgroot, $set, $n, $data) = @ARGV;
		sub put { open(my $f, ">", $_[0]) or die "$_[0]: $!"; syswrite($f, $_[1]) // die "$_[0]: $!"; close($f); }
		for my $i (0 .. $n - 1) {
			mkdir("$set/m$i") or die "mkdir $set/m$i: $!";
			put("$set/m$i/cgroup.procs", $$);
			open(my $f, "<", "$data/f$i") or die; my $b; 1 while sysread($f, $b, 65536); close($f);
		}
		put("$cgroot/cgroup.procs", $$);
	' "$MSL_CGROUP_ROOT" "$(cg_path "burst/$1")" "$N" "$MSL_SCRATCH/burst" ||
		fail "making the memcgs of burst/$1 failed"
}

# burst SET: N new memcgs, pressure; LOST is the decisions it left untracked
burst() {
	local t0 u0 p0 t1 u1 p1
	read -r t0 u0 _ _ p0 <<<"$(snapshot_totals)"
	make_set "$1"
	stream_sparse S 512
	sleep 2
	read -r t1 u1 _ _ p1 <<<"$(snapshot_totals)"
	LOST=$((u1 - u0)) POOLED=$p1
	note "burst $1 ($N new memcgs): tracked $t0 -> $t1, untracked decisions +$LOST, pooled $p0 -> $p1"
	assert_ge "$((t1 - t0))" "$((N / 5))" "memcgs of burst $1 tracked (reclaim met them)"
}
# Up to three bursts until one loses decisions, then one more.
lossy=
for set in a b c d; do
	burst "$set"
	if [ -n "$lossy" ]; then
		assert_eq "$LOST" 0 "untracked decisions in burst $set, after burst $lossy lost some"
		break
	fi
	[ "$LOST" = 0 ] || lossy=$set
	[ -n "$lossy" ] || [ "$set" != c ] || break
done
[ -n "$lossy" ] || note "no burst lost a decision: the pool kept up"

# Quiet: the sweep (every 10 s) halves a grown pool back towards 64.
pooled() { snapshot_totals | cut -d' ' -f5; }
if [ "$POOLED" -gt 64 ]; then
	for _ in $(seq 40); do
		sleep 1
		[ "$(pooled)" -lt "$POOLED" ] && break
	done
	assert_lt "$(pooled)" "$POOLED" "entries in the pool 40 s after the bursts (it had grown to $POOLED)"
else
	note "the pool did not grow ($POOLED entries)"
fi
for s in $(cd "$(cg_path burst)" && echo [abcd]); do
	rmdir "$(cg_path burst)/$s"/m[0-9]* || fail "removing the memcgs of burst/$s failed"
done
msl_unload
