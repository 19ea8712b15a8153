#!/bin/bash
# configs: all
# timeout: 480
# Bursts of memcgs reclaim meets for the first time.  The reclaim path takes
# entries from a pool a work item refills and never allocates itself, so a
# pass that meets more new memcgs than the pool holds counts the rest as
# untracked, their counters lost.  With a fixed 64-entry pool every burst
# did (issue 5's scale run: at 1,000 memcgs the module tracked 188; on
# MGLRU 307 of the first 1,000 new memcgs, 129 of the next 1,000, 1,636 and
# 1,897 decisions untracked); a pool grown only after a burst had emptied it
# lost the first burst's, and on the classic LRU later ones too (440, then
# 1,395 decisions on 6.1 v2).  Now the pool holds an entry for each live
# memcg the module has none for: counted at load, then at each mkdir and
# rmdir.
# a: N memcgs with page cache made before the module is loaded: the pool
#    has an entry for each right after the load, and the pressure that then
#    meets them loses no decision.
# b: N more made while it is loaded: the pool grows to hold them within
#    10 s of the last mkdir, and the pressure loses no decision.
# Removing them shrinks the pool again.
# On 6.1 v1 (the classic LRU's loop over every memcg with pages, the v1
# hierarchy's count) and 6.12 MGLRU (its memcg LRU walk, cgroup v2's);
# it passed on the other two configurations as well when the pool was
# sized ahead.
N=500
cg_create S
cg_create burst
trap 'for s in a b; do rmdir "$(cg_path burst)/$s"/m[0-9]* 2>/dev/null; done; cg_remove burst; cg_remove S' EXIT
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

# meet SET: a stream, so that reclaim meets the set; the decisions it left
# untracked must be none
meet() {
	local t0 u0 p0 t1 u1 p1
	read -r t0 u0 _ _ p0 <<<"$(snapshot_totals)"
	stream_sparse S 512
	sleep 2
	read -r t1 u1 _ _ p1 <<<"$(snapshot_totals)"
	note "burst $1 ($N new memcgs): tracked $t0 -> $t1, untracked decisions +$((u1 - u0)), pooled $p0 -> $p1"
	assert_ge "$((t1 - t0))" "$((N / 5))" "memcgs of burst $1 tracked (reclaim met them)"
	assert_eq "$((u1 - u0))" 0 "untracked decisions in burst $1"
}
pooled() { snapshot_totals | cut -d' ' -f5; }

make_set a
msl_load
p=$(pooled)
note "burst a: $p entries pooled right after the load"
assert_ge "$p" "$N" "entries pooled at load, with $N memcgs already there"
meet a

make_set b
for _ in $(seq 10); do
	[ "$(pooled)" -ge "$N" ] && break
	sleep 1
done
p=$(pooled)
note "burst b: $p entries pooled after its mkdirs"
assert_ge "$p" "$N" "entries pooled within 10 s of $N mkdirs"
meet b

for s in a b; do
	rmdir "$(cg_path burst)/$s"/m[0-9]* || fail "removing the memcgs of burst/$s failed"
done
# The sweep (every 10 s) frees what the pool holds beyond its wanted size.
for _ in $(seq 40); do
	sleep 1
	[ "$(pooled)" -lt "$N" ] && break
done
p=$(pooled)
note "after the removal: $p entries pooled"
assert_lt "$p" "$N" "entries pooled 40 s after the memcgs were removed"
msl_unload
