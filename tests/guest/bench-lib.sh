# shellcheck shell=bash
# tests/guest/bench-lib.sh: the guest side of the benchmarks (bench/run,
# `make bench`; the smallest size also runs in `make check` as
# t-60-bench-smoke).  Sourced after lib.sh by tests/guest/bench-*.sh.
#
# Every measurement is one JSON object sent on the verdict channel as
#   INFO <test> BENCH {"part":"iso","config":"6.12-v2-mglru",...}
# which bench/run collects into build/bench/records/<config>.jsonl and
# bench/aggregate.py turns into the results table and plots.
#
# Timing under QEMU TCG is slow and noisy (and the host may be shared):
# records carry raw samples, the aggregation shows the spread of repeats,
# and ratios are taken between runs of the same boot.

# Sizes: smoke (make check) | default | full.  bench/run writes
# $MSL_PAYLOAD/bench.env; a test may set MSL_BENCH_SIZE before sourcing.
if [ -z "${MSL_BENCH_SIZE:-}" ] && [ -r "$MSL_PAYLOAD/bench.env" ]; then
	# shellcheck disable=SC1091
	. "$MSL_PAYLOAD/bench.env"
fi
MSL_BENCH_SIZE=${MSL_BENCH_SIZE:-default}
case $MSL_BENCH_SIZE in
smoke)
	B_WS=32 B_SEG=512 B_NSEG=1 B_REPEATS=1 B_SWEEP="12 6" B_SWEEP_REPEATS=1
	B_ANON_WS=32 B_RING_PASSES=1
	B_OVH_PAIRS=1 B_OVH_STREAM=512 B_FG_STREAM=512 B_SCALE="10" B_SCALE_STREAM=512
	# the threshold README gives for each LRU: 12 on MGLRU, 6 on the classic
	B_TREES="c" B_TREE_THRESHOLDS="12" B_TREE_STREAM=512 B_TREE_REPEATS=1
	[ "${MSL_LRU:-}" = mglru ] || B_TREE_THRESHOLDS=6 ;;
full)
	B_WS=100 B_SEG=2048 B_NSEG=3 B_REPEATS=5 B_SWEEP="12 11 10 9 8 7 6 5 4 3 2 1 0" B_SWEEP_REPEATS=3
	B_ANON_WS=100 B_RING_PASSES=2
	B_OVH_PAIRS=10 B_OVH_STREAM=2048 B_FG_STREAM=1024 B_SCALE="10 100 1000 10000" B_SCALE_STREAM=1024
	B_TREES="case1 case2 a b c d e" B_TREE_THRESHOLDS="12 6" B_TREE_STREAM=2048 B_TREE_REPEATS=3 ;;
*)
	# about 45 minutes a configuration on a 2-core host under TCG
	B_WS=100 B_SEG=768 B_NSEG=2 B_REPEATS=2 B_SWEEP="12 9 6 3 0" B_SWEEP_REPEATS=1
	B_ANON_WS=100 B_RING_PASSES=1
	B_OVH_PAIRS=3 B_OVH_STREAM=1024 B_FG_STREAM=512 B_SCALE="10 100 1000 10000" B_SCALE_STREAM=512
	B_TREES="case1 case2 a b c d e" B_TREE_THRESHOLDS="12 6" B_TREE_STREAM=768 B_TREE_REPEATS=1 ;;
esac
[ -z "${MSL_BENCH_SWEEP:-}" ] || B_SWEEP=$MSL_BENCH_SWEEP
if [ -n "${MSL_BENCH_REPEATS:-}" ]; then
	B_REPEATS=$MSL_BENCH_REPEATS B_SWEEP_REPEATS=$MSL_BENCH_REPEATS B_TREE_REPEATS=$MSL_BENCH_REPEATS
fi
[ -z "${MSL_BENCH_TREES:-}" ] || B_TREES=$MSL_BENCH_TREES
[ -z "${MSL_BENCH_SCALE:-}" ] || B_SCALE=$MSL_BENCH_SCALE
# P's protection: soft limit / memory.low (MiB), as in the reference runs.
B_PROT=150
# How P reads its page-cache set: mmap (re-reads count major faults; the
# pages were accessed through page tables, which both LRUs favour over a
# use-once stream) or read (read(2) through dd, as in the reference runs of
# shared/kernel-facts.md; misses are not faults, see the pages kept).
B_READER=${MSL_BENCH_READER:-read}

# ---------------------------------------------------------------------------
# Records
# ---------------------------------------------------------------------------
B_RECORDS=${B_RECORDS:-$MSL_SCRATCH/bench-records.jsonl}

# bench_emit PART key=value...: one JSON record; values that look like
# numbers (or number lists "[...]") are written bare, others quoted.
bench_emit() {
	local part=$1 kv k v json
	shift
	json="{\"part\":\"$part\",\"config\":\"$MSL_CONFIG\",\"kernel\":\"$(uname -r)\",\"size\":\"$MSL_BENCH_SIZE\",\"mem_mib\":$(awk '/MemTotal/ {print int($2/1024)}' /proc/meminfo)"
	for kv in "$@"; do
		k=${kv%%=*} v=${kv#*=}
		if [[ $v =~ ^-?[0-9]+(\.[0-9]+)?$ ]] || [[ $v =~ ^\[[-0-9.,]*\]$ ]]; then
			json+=",\"$k\":$v"
		else
			v=${v//\\/\\\\}
			json+=",\"$k\":\"${v//\"/\\\"}\""
		fi
	done
	json+="}"
	printf '%s\n' "$json" >>"$B_RECORDS"
	printf 'INFO %s BENCH %s\n' "$MSL_TEST" "$json" >>"$MSL_RESULTS" 2>/dev/null || true
	echo "BENCH $json"
}

# join_csv WORDS...: "[a,b,c]"
join_csv() { local IFS=,; echo "[$*]"; }

now_ns() { local t=$EPOCHREALTIME; echo "${t/./}000"; }

# ---------------------------------------------------------------------------
# Workload helpers (perl from perl-base: no compiler in the guest)
# ---------------------------------------------------------------------------
# Each prints "<ns> <majflt>" per pass: the pass's time (CLOCK_MONOTONIC) and
# the major faults the process took during it.
B_PERL_COMMON='
sub now { my $t = "\0" x 16; syscall(228, 1, $t); my ($s, $n) = unpack("q q", $t); return $s * 1000000000 + $n; }
sub majflt { open(my $f, "<", "/proc/self/stat") or return 0; my $l = <$f>; $l =~ s/^.*\) //; my @a = split / /, $l; return $a[9]; }
$| = 1;
'
# mmap FILE and read every page once (a reader of the working set: page
# cache misses are major faults); the mapping goes when the process exits.
B_PERL_MMAP_TOUCH=$B_PERL_COMMON'
my $file = shift; my $len = -s $file; open(my $fh, "<", $file) or die "$file: $!";
my $t0 = now(); my $m0 = majflt();
my $addr = syscall(9, 0, $len, 1, 1, fileno($fh), 0);
die "mmap: $!" if $addr == -1 || $addr < 0;
my $sum = 0;
for (my $o = 0; $o < $len; $o += 65536) {
	my $n = $len - $o < 65536 ? $len - $o : 65536;
	my $s = unpack("P$n", pack("J", $addr + $o));
	for (my $i = 0; $i < $n; $i += 4096) { $sum += ord(substr($s, $i, 1)); }
}
printf "%d %d\n", now() - $t0, majflt() - $m0;
'
# Hold MIB of anonymous memory; on each line from stdin read every page
# (swapped-out pages come back as major faults) and print "<ns> <majflt>".
B_PERL_ANON_HOLD=$B_PERL_COMMON'
my $mib = shift; my $len = $mib << 20; my $x = "\1" x $len;
for (my $i = 0; $i < $len; $i += 4096) { vec($x, $i, 8) = ($i >> 12) & 255 | 1; }
print "ready\n";
while (my $cmd = <STDIN>) {
	my $t0 = now(); my $m0 = majflt(); my $sum = 0;
	for (my $i = 0; $i < $len; $i += 4096) { $sum += vec($x, $i, 8); }
	printf "%d %d\n", now() - $t0, majflt() - $m0;
}
'
# Allocate MIB of anonymous memory and write every page PASSES times (the
# anonymous "streamer"); print "<ns> <majflt>" for the whole run.
B_PERL_ANON_RING=$B_PERL_COMMON'
my ($mib, $passes) = @ARGV; my $len = $mib << 20;
my $t0 = now(); my $m0 = majflt(); my $x = "\2" x $len;
for (my $p = 0; $p < $passes; $p++) {
	for (my $i = 0; $i < $len; $i += 4096) { vec($x, $i, 8) = $p + 3; }
}
printf "%d %d\n", now() - $t0, majflt() - $m0;
'

# ws_kib FILE: the file's pages in the page cache (KiB), whoever they are
# charged to; cg_file_kib CG: the cgroup's file pages (memory.stat, KiB);
# cg_anon_kib CG: its anonymous pages.
ws_kib() { echo $(($(fincore -b -n -o RES "$1" | tr -d ' ') / 1024)); }
cg_file_kib() { echo $(($(cg_file_bytes "$1") / 1024)); }
cg_anon_kib() {
	local b
	if [ "$MSL_CGROUP_VERSION" = 1 ]; then b=$(memstat "$1" total_rss); else b=$(memstat "$1" anon); fi
	echo $((b / 1024))
}
cg_majflt() {
	if [ "$MSL_CGROUP_VERSION" = 1 ]; then memstat "$1" total_pgmajfault; else memstat "$1" pgmajfault; fi
}
# MiB of a sparse file streamed by CG (one dd), "<ns>"
stream_timed() {
	local cg=$1 file=$2 t0 t1
	t0=$(now_ns)
	cg_run "$cg" dd if="$file" of=/dev/null bs=1M status=none || fail "streaming $file in $cg failed"
	t1=$(now_ns)
	echo $((t1 - t0))
}

# make_ws FILE MIB: real data on the guest's disk (once per test)
make_ws() {
	local file=$1 mib=$2 seed
	[ -f "$file" ] && [ "$(stat -c %s "$file")" = $((mib << 20)) ] && return 0
	seed=$(head -c 3072 /dev/urandom | base64 -w 0)
	{ yes "$seed" || true; } | head -c "$((mib << 20))" >"$file" || fail "writing $file failed"
	sync
}

# ---------------------------------------------------------------------------
# Protection modes
# ---------------------------------------------------------------------------
# The seed patch's case 1 and case 2 (tests/guest/cases.sh: 1 unit = 8 MiB)
# and the KS2012 article's tree, cases a-e (t-27-policies.sh, sizes x4 so
# that the pages kept are measurable against a stream).  Soft limits in
# MiB ("max": none, as the patch's "unlimited"); every cgroup of the tree
# has one, so only S, the streamer outside the tree (no soft limit, the
# default unset_eligible=Y: eligible, and "over" for walk), is unset.
tree_limits() {
	case $1 in
	case1) echo "A:max A/A1:80 A/A2:48 B:128" ;;
	case2) echo "A:128 A/A1:80 A/A2:8000 B:128" ;;
	a) echo "A:4 A/A1:1000 A/A2:1000 B:1000 C:1000" ;;
	b) echo "A:4 A/A1:4 A/A2:1000 B:1000 C:1000" ;;
	c) echo "A:1000 A/A1:4 A/A2:1000 B:4 C:1000" ;;
	d) echo "A:60 A/A1:64 A/A2:64 B:1000 C:1000" ;;
	e) echo "A:1000 A/A1:1000 A/A2:1000 B:1000 C:1000" ;;
	*) fail "unknown tree $1" ;;
	esac
}
# tree_usage TREE: the leaves and their page cache in MiB
tree_usage() {
	case $1 in
	case1 | case2) echo "A/A1:136 A/A2:40 B:80" ;;
	*) echo "A/A1:48 A/A2:48 B:32 C:16" ;;
	esac
}

# tree_run TREE MODE THRESHOLD REP: build the tree, protect it by MODE
# (stock: the module unloaded, the kernel's own v1 soft limits on v1;
# otherwise the module with policy=MODE at THRESHOLD), fill the leaves,
# stream B_TREE_STREAM MiB from S, and emit one "trees" record: each leaf's
# page cache before and after, and the module's skips/reclaims per leaf.
tree_run() {
	local tree=$1 mode=$2 thr=$3 rep=$4 cg lim leaves=() before=() kept=() skips=() recl=() u snap s r
	for cg in A B C S; do cg_remove "$cg"; done
	if [ "$mode" = stock ]; then
		msl_loaded && msl_unload >/dev/null
	else
		msl_defaults "policy=$mode" "priority_threshold=$thr"
	fi
	for lim in $(tree_limits "$tree"); do cg_create "${lim%%:*}"; done
	cg_create S
	if [ "$mode" != stock ] || [ "$MSL_CGROUP_VERSION" = 1 ]; then
		for lim in $(tree_limits "$tree"); do set_soft_limit "${lim%%:*}" "${lim#*:}"; done
	fi
	for u in $(tree_usage "$tree"); do
		cg=${u%%:*}
		leaves+=("$cg")
		make_ws "$MSL_SCRATCH/tree.${cg//\//_}.${u#*:}M" "${u#*:}"
	done
	drop_caches
	for u in $(tree_usage "$tree"); do
		cg=${u%%:*}
		cg_run "$cg" dd if="$MSL_SCRATCH/tree.${cg//\//_}.${u#*:}M" of=/dev/null bs=1M status=none ||
			fail "filling $cg failed"
	done
	for cg in "${leaves[@]}"; do before+=("$(cg_file_mib "$cg")"); done
	stream_sparse S "$B_TREE_STREAM"
	for cg in "${leaves[@]}"; do
		kept+=("$(cg_file_mib "$cg")")
		s=0 r=0
		if [ "$mode" != stock ]; then
			snap=$(snapshot_of "$(stat -c %i "$(cg_path "$cg")")")
			[ -z "$snap" ] || read -r s r < <(snapshot_verdicts "$snap")
		fi
		skips+=("$s") recl+=("$r")
	done
	bench_emit trees tree="$tree" mode="$mode" threshold="$thr" rep="$rep" leaves="$(tr ' ' , <<<"${leaves[*]}")" \
		before_mib="$(join_csv "${before[@]}")" kept_mib="$(join_csv "${kept[@]}")" \
		skips="$(join_csv "${skips[@]}")" reclaims="$(join_csv "${recl[@]}")" \
		stream_mib="$B_TREE_STREAM" limits="$(tree_limits "$tree")"
	for cg in A B C S; do cg_remove "$cg"; done
}

# bench_trees: every tree of B_TREES under stock and each policy (v8 and
# bench_policies) at each threshold of B_TREE_THRESHOLDS, interleaved.
bench_trees() {
	local r tree pol thr
	for ((r = 1; r <= B_TREE_REPEATS; r++)); do
		for tree in $B_TREES; do
			tree_run "$tree" stock "" "$r"
			for pol in v8 $(bench_policies); do
				for thr in $B_TREE_THRESHOLDS; do
					tree_run "$tree" "$pol" "$thr" "$r"
				done
			done
		done
	done
	msl_loaded && msl_unload >/dev/null
	true
}

# ---------------------------------------------------------------------------
# Parts (each a tests/guest/bench-<part>.sh; t-60-bench-smoke runs them at
# the smoke size)
# ---------------------------------------------------------------------------
# The comparison rows of the isolation table, for this config, and a row
# of the module at each priority_threshold of MSL_BENCH_THRESHOLD_ROWS
# (default 6, the setting README gives for the classic LRU; "" for none).
iso_modes() {
	local m t rows=
	for t in ${MSL_BENCH_THRESHOLD_ROWS-6}; do rows+=" msl-t$t"; done
	for m in none v1soft low msl $(bench_policies | sed 's/^/msl-/') $rows; do
		mode_applies "$m" && echo "$m"
	done
}

# bench_iso VARIANT [MODES...]: every mode, B_REPEATS times, interleaved
# (rep 1 of every mode, then rep 2, ...) so that drift hits all alike.
bench_iso() {
	local variant=$1 r m modes
	shift
	modes=${*:-$(iso_modes)}
	if [ "$variant" = anon ]; then
		swapon --show=NAME --noheadings | grep -q . || msl_swap_on
	fi
	for ((r = 1; r <= B_REPEATS; r++)); do
		for m in $modes; do
			iso_run "$variant" "$m" "" "$r" "$m"
		done
	done
	msl_loaded && msl_unload
	true
}

# bench_sweep: the module with each priority_threshold of B_SWEEP, and the
# policy's other settings, file variant.
bench_sweep() {
	local r t
	for ((r = 1; r <= B_SWEEP_REPEATS; r++)); do
		for t in $B_SWEEP; do
			iso_run file msl "priority_threshold=$t" "$r" "threshold=$t"
		done
		iso_run file msl "unset_eligible=N" "$r" "unset_eligible=N"
		[ "$MSL_CGROUP_VERSION" = 1 ] && iso_run file msl "keep_v1_reclaim=Y" "$r" "keep_v1_reclaim=Y"
		iso_run file msl "enabled=N" "$r" "enabled=N"
	done
	msl_loaded && msl_unload
	true
}

# Idle cgroups holding some page cache, so that each reclaim pass decides
# on several memcgs: I1..I4, 8 MiB each.
idle_setup() {
	local i
	for i in 1 2 3 4; do
		cg_create "I$i"
		make_ws "$MSL_SCRATCH/idle$i.data" 8
	done
}
idle_fill() {
	local i
	for i in 1 2 3 4; do
		[ -d "$(cg_path "I$i")" ] || continue
		cg_run "I$i" dd if="$MSL_SCRATCH/idle$i.data" of=/dev/null bs=1M status=none
	done
}

# overhead_stream MIB: one streaming run of S after a fresh fill; "<ns>"
overhead_stream() {
	local sparse=$MSL_SCRATCH/ovh.sparse
	drop_caches
	idle_fill
	rm -f "$sparse"
	truncate -s "${1}M" "$sparse"
	stream_timed S "$sparse"
	rm -f "$sparse"
}

# fg_measure LABEL MIB FUNCS...: function_graph on FUNCS during one stream;
# one "fgraph" record per function.
fg_measure() {
	local label=$1 mib=$2 out=$MSL_SCRATCH/fg.$1.txt ns line name calls mean med p10 p90 lost
	shift 2
	fg_start "$@" || { note "function_graph: none of '$*' traceable"; return 1; }
	ns=$(overhead_stream "$mib")
	fg_stop "$out"
	lost=$(grep -c 'LOST' "$out" || true)
	while read -r name calls mean med p10 p90; do
		bench_emit fgraph label="$label" func="$name" calls="$calls" mean_ns="$mean" median_ns="$med" \
			p10_ns="$p10" p90_ns="$p90" stream_mib="$mib" stream_ns="$ns" lost_lines="$lost" traced="$FG_FUNCS"
	done < <(fg_stats "$out")
	grep -q "\"label\":\"$label\"" "$B_RECORDS" ||
		bench_emit fgraph label="$label" func=none calls=0 stream_mib="$mib" stream_ns="$ns" traced="$FG_FUNCS"
}

# bench_overhead: (1) function_graph durations of the gated call with the
# module unloaded and loaded, and of the module's handlers (each in its own
# run: a function traced inside a traced kprobe'd call is not traced, ftrace
# refuses the recursion); (2) S's streaming throughput with the module
# loaded vs not, interleaved ABBA in this boot, no soft limit set (so the
# module decides every step but changes no outcome).
bench_overhead() {
	local g h a r i order ns pol
	g=$(fg_gated) h=$(fg_handler) a=$(fg_account)
	cg_create S
	idle_setup
	fg_measure stock "$B_FG_STREAM" "$g"
	msl_load
	set_soft_limit I1 max
	fg_measure loaded "$B_FG_STREAM" "$g"
	fg_measure handlers "$B_FG_STREAM" "$h" shrink_node_pre skip_shrink_lruvec skip_try_to_shrink_lruvec
	for pol in $(bench_policies); do
		set_policy "$pol"
		fg_measure "handlers-$pol" "$B_FG_STREAM" "$h"
		set_policy v8
	done
	fg_measure accounting "$B_FG_STREAM" "$a" account_return
	[ "$MSL_CGROUP_VERSION" = 2 ] && echo "unset /I1" >/proc/memcg_softlimit/limits
	[ "$MSL_CGROUP_VERSION" = 1 ] && cg_set I1 memory.soft_limit_in_bytes -1
	msl_unload
	for ((r = 1; r <= B_OVH_PAIRS; r++)); do
		if ((r % 2)); then order="unloaded loaded"; else order="loaded unloaded"; fi
		for i in $order; do
			if [ "$i" = loaded ]; then msl_loaded || msl_load; else msl_loaded && msl_unload; fi
			ns=$(overhead_stream "$B_OVH_STREAM")
			bench_emit throughput arm="$i" pair="$r" stream_mib="$B_OVH_STREAM" stream_ns="$ns"
		done
	done
	msl_loaded && msl_unload
	for i in S I1 I2 I3 I4; do cg_remove "$i"; done
	true
}

# scale_tree N: N memcgs under /scale, in chains c<k>/l2/.../l8 so that
# depths run 1..8 below /scale (2..9 below the root).  One perl process
# makes them all: a mkdir(1) each took 10 minutes for 10,000 under TCG.
scale_tree() {
	perl -e '
		use strict;
		my ($root, $n, $v2) = @ARGV;
		sub enable { open(my $f, ">", "$_[0]/cgroup.subtree_control") or return 0;
			     print $f "+memory\n" or return 0; close($f) or return 0; 1 }
		mkdir $root or $!{EEXIST} or die "mkdir $root: $!\n";
		!$v2 or enable($root) or die "+memory in $root: $!\n";
		my ($made, $k) = (0, 0);
		while ($made < $n) {
			my $path = "$root/c$k";
			for (my $d = 1; $d <= 8 && $made < $n; $d++) {
				$path .= "/l$d" if $d > 1;
				mkdir $path or die "mkdir $path: $!\n";
				$made++;
				!$v2 || $d == 8 || $made == $n || enable($path) or
					die "+memory in $path: $!\n";
			}
			$k++;
		}' "$(cg_path scale)" "$1" "$([ "$MSL_CGROUP_VERSION" = 2 ] && echo 1 || echo 0)"
}

# scale_remove: rmdir /scale's memcgs, deepest first, in one perl process
# (they hold no task); cg_remove for what that leaves.
scale_remove() {
	perl -MFile::Find -e '
		finddepth({ wanted => sub { rmdir $_ if -d $_ }, no_chdir => 1 }, $ARGV[0]);
	' "$(cg_path scale)" 2>/dev/null
	cg_remove scale
}

slab_active() { awk -v c="$1" '$1 == c {print $2}' /proc/slabinfo; }

# bench_scale: for each N of B_SCALE, N memcgs nested 1..8 deep, pressure
# from S; function_graph of the decision handler; the module's tracked
# entries and the kmalloc-256 objects its unload frees (sizeof(struct msl_memcg) = 216).
bench_scale() {
	local n t0 t1 h tracked untracked missed dying pooled s0 s1 modsize cache=kmalloc-256 ok pol
	h=$(fg_handler)
	cg_create S
	for n in $B_SCALE; do
		drop_caches
		msl_load
		t0=$(now_ns)
		ok=1
		scale_tree "$n" || ok=0
		t1=$(now_ns)
		if [ "$ok" = 0 ]; then
			note "scale: creating $n memcgs failed ($(find "$(cg_path scale)" -type d | wc -l) made; MemAvailable $(mem_free_mib) MiB)"
			bench_emit scale memcgs="$n" failed=1 created="$(($(find "$(cg_path scale)" -type d | wc -l) - 1))"
			msl_unload
			scale_remove
			continue
		fi
		# first pressure: every memcg gets its entry; then the measured one
		[ "$MSL_BENCH_SIZE" = smoke ] || overhead_stream "$B_SCALE_STREAM" >/dev/null
		fg_measure "scale-$n" "$B_SCALE_STREAM" "$h"
		for pol in $(bench_policies); do
			set_policy "$pol"
			fg_measure "scale-$n-$pol" "$B_SCALE_STREAM" "$h"
			set_policy v8
		done
		read -r tracked untracked missed dying pooled < <(snapshot_totals)
		modsize=$(awk -v m="$MSL_MODULE" '$1 == m {print $2}' /proc/modules)
		sleep 1
		s0=$(slab_active $cache)
		msl_unload
		sleep 3
		s1=$(slab_active $cache)
		bench_emit scale memcgs="$n" depth_max=8 create_ns=$((t1 - t0)) nr_tracked="${tracked:-0}" \
			untracked="${untracked:-0}" missed="${missed:-0}" dying="${dying:-0}" pooled="${pooled:-0}" \
			slab_cache="$cache" slab_freed=$((s0 - s1)) \
			module_bytes="${modsize:-0}" mem_available_mib="$(mem_free_mib)"
		scale_remove
	done
	cg_remove S
	true
}
