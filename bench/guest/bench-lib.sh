# shellcheck shell=bash
# bench/guest/bench-lib.sh: the guest side of the benchmarks (bench/run,
# `make bench`; the smallest size also runs in `make check` as
# t-60-bench-smoke).  Sourced after lib.sh by bench/guest/bench-*.sh.
#
# Every measurement is one JSON object sent on the verdict channel as
#   INFO <test> BENCH {"part":"iso","config":"6.12-v2-mglru",...}
# which bench/run collects into build/bench/records/<config>.jsonl and
# bench/aggregate/ turns into the results table and plots.
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
	B_WS=32 B_SEG=512 B_NSEG=1 B_REPEATS=1 B_SWEEP="auto 12" B_SWEEP_REPEATS=1
	B_ANON_WS=32 B_RING_PASSES=1
	B_OVH_PAIRS=1 B_OVH_STREAM=512 B_FG_STREAM=512 B_SCALE="10" B_SCALE_STREAM=512
	# the defaults: the progress gate
	B_TREES="c" B_TREE_THRESHOLDS="auto" B_TREE_STREAM=512 B_TREE_REPEATS=1 ;;
full)
	B_WS=100 B_SEG=2048 B_NSEG=3 B_REPEATS=5 B_SWEEP="auto 12 11 10 9 8 7 6 5 4 3 2 1 0" B_SWEEP_REPEATS=3
	B_ANON_WS=100 B_RING_PASSES=2
	B_OVH_PAIRS=10 B_OVH_STREAM=2048 B_FG_STREAM=1024 B_SCALE="10 100 1000 10000" B_SCALE_STREAM=1024
	B_TREES="case1 case2 a b c d e" B_TREE_THRESHOLDS="auto 12" B_TREE_STREAM=2048 B_TREE_REPEATS=3 ;;
*)
	# about 45 minutes a configuration on a 2-core host under TCG
	B_WS=100 B_SEG=768 B_NSEG=2 B_REPEATS=2 B_SWEEP="auto 12 6 0" B_SWEEP_REPEATS=1
	B_ANON_WS=100 B_RING_PASSES=1
	B_OVH_PAIRS=3 B_OVH_STREAM=1024 B_FG_STREAM=512 B_SCALE="10 100 1000 10000" B_SCALE_STREAM=512
	B_TREES="case1 case2 a b c d e" B_TREE_THRESHOLDS="auto 12" B_TREE_STREAM=768 B_TREE_REPEATS=1 ;;
esac
[ -z "${MSL_BENCH_SWEEP:-}" ] || B_SWEEP=$MSL_BENCH_SWEEP
# S's stream in all, in times the guest's RAM, over the same segments.
if [ -n "${MSL_BENCH_STREAM_X:-}" ]; then
	B_SEG=$(awk -v x="$MSL_BENCH_STREAM_X" -v n="$B_NSEG" '/^MemTotal:/ {print int($2 / 1024 * x / n)}' /proc/meminfo)
fi
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
	[ -z "${MSL_BENCH_CLOCK:-}" ] || set -- "$@" "clock=$MSL_BENCH_CLOCK"
	if msl_loaded; then
		local f params=""
		for f in enabled policy priority_threshold unset; do
			params+="$f=$(cat "/sys/module/$MSL_MODULE/parameters/$f" 2>/dev/null) "
		done
		set -- "$@" "msl_params=${params% }"
	fi
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
# mode_applies MODE: is the mode meaningful on this config?
#   none      no protection, module not loaded
#   v1soft    stock cgroup v1 soft limits (P 150M, S 0), module not loaded
#   low       memory.low=150M on P (v2), module not loaded
#   msl       the module, P soft 150M (S unset on v2, 0 on v1); params below
#   msl-POL   the same with policy=POL (walk, excess): where the module
#             accepts that policy
#   msl-tN    the same with priority_threshold=N, the priority gate (12:
#             the patch's rule as written)
mode_applies() {
	case $1 in
	v1soft) [ "$MSL_CGROUP_VERSION" = 1 ] ;;
	low) [ "$MSL_CGROUP_VERSION" = 2 ] ;;
	msl-t[0-9]*) [ "${1#msl-t}" -le 12 ] 2>/dev/null ;;
	msl-*) policy_supported "${1#msl-}" ;;
	*) return 0 ;;
	esac
}

# bench_policies: the policies besides v8 (MSL_BENCH_POLICIES, default
# "walk excess") that the module accepts here; each gets its own rows.
bench_policies() {
	local p
	for p in ${MSL_BENCH_POLICIES-walk excess}; do
		policy_supported "$p" && echo "$p"
	done
}

set_policy() { echo "$1" >"/sys/module/$MSL_MODULE/parameters/policy" || fail "cannot set policy=$1"; }

# policy_supported POLICY: does this build of the module accept it here?
policy_supported() {
	local ok=1 was=0
	msl_loaded && was=1
	[ $was = 1 ] || msl_load >/dev/null
	echo "$1" >"/sys/module/$MSL_MODULE/parameters/policy" 2>/dev/null && ok=0
	echo v8 >"/sys/module/$MSL_MODULE/parameters/policy"
	[ $was = 1 ] || msl_unload >/dev/null
	return $ok
}

# msl_defaults [NAME=VALUE...]: the module loaded, every parameter at its
# default, then these (later ones win); a parameter this build lacks is
# skipped.
msl_defaults() {
	local p
	msl_loaded || msl_load >/dev/null
	for p in enabled=Y policy=v8 priority_threshold=auto unset=inherit keep_v1_reclaim=N count_targeted=N "$@"; do
		[ -e "/sys/module/$MSL_MODULE/parameters/${p%%=*}" ] || continue
		echo "${p#*=}" >"/sys/module/$MSL_MODULE/parameters/${p%%=*}" || fail "cannot set $p"
	done
}

# apply_mode MODE "PARAMS": load the module (for msl) and protect P.
apply_mode() {
	local mode=$1 params=$2
	case $mode in
	msl-t[0-9]*) params="priority_threshold=${mode#msl-t} $params" mode=msl ;;
	msl-*) params="policy=${mode#msl-} $params" mode=msl ;;
	*) if msl_loaded; then msl_unload >/dev/null; fi ;;
	esac
	case $mode in
	none) ;;
	v1soft)
		cg_set P memory.soft_limit_in_bytes $((B_PROT << 20))
		cg_set S memory.soft_limit_in_bytes 0 ;;
	low) cg_set P memory.low "${B_PROT}M" ;;
	msl)
		msl_defaults $params
		set_soft_limit P "$B_PROT"
		[ "$MSL_CGROUP_VERSION" = 1 ] && cg_set S memory.soft_limit_in_bytes 0
		;;
	*) fail "unknown mode $mode" ;;
	esac
}

# Reasons that skip a memcg (the others reclaim it), as the snapshot names
# them (lib/policy.c, msl_reason_skips()).
B_SKIP_REASONS="under sibling_over excess_share"

# snapshot_verdicts LINE: "skips reclaims" summed over the decision reasons
# of one snapshot line (the fields between cgroup_id and the page counts)
snapshot_verdicts() {
	awk -v skip=" $B_SKIP_REASONS " '{
		on = 0; s = 0; r = 0
		for (i = 1; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "cgroup_id") { on = 1; continue }
			if (kv[1] ~ /^(scanned|reclaimed)_/) break
			if (!on || kv[2] !~ /^[0-9]+$/) continue
			if (index(skip, " " kv[1] " ")) s += kv[2]; else r += kv[2]
		}
		print s, r
	}' <<<"$1"
}

# decisions_of CGID: "skips reclaims" from the module's snapshot (tracefs)
snapshot_of() {
	local tf=$MSL_TRACEFS
	trace_clear
	echo 1 >"$tf/events/memcg_softlimit/snapshot/enable"
	echo 1 >/proc/memcg_softlimit/snapshot || return
	echo 0 >"$tf/events/memcg_softlimit/snapshot/enable"
	grep -E "snapshot: seq=[0-9]+ cgroup_id=$1 " "$tf/trace" | tail -n 1
}

# p_read FILE: P reads its set once, "<ns> <majflt>" (B_READER)
p_read() {
	local t0 t1
	if [ "$B_READER" = read ]; then
		t0=$(now_ns)
		cg_run P dd if="$1" of=/dev/null bs=1M status=none || return 1
		t1=$(now_ns)
		echo "$((t1 - t0)) 0"
	else
		cg_run P perl -e "$B_PERL_MMAP_TOUCH" "$1"
	fi
}

# ---------------------------------------------------------------------------
# One isolation run
# ---------------------------------------------------------------------------
# iso_run VARIANT MODE "PARAMS" REP LABEL: P holds a working set under its
# protection; S streams B_NSEG segments of B_SEG MiB each (file: sparse-file
# page cache; anon: writes an anonymous ring of MemAvailable + half P's set
# B_RING_PASSES times per segment, through swap).  Before S's first segment P is idle (the
# reference scenario); after each segment P's residency is read and P
# re-reads its set (time, major faults).  Emits one "iso" record.
# kprio_start / kprio_stop: the pages kswapd scanned in inactive lists at
# each priority during a row, from a histogram trigger on the kernel's own
# vmscan:mm_vmscan_lru_shrink_inactive (which MGLRU's eviction fires too);
# kprio_stop prints "PRIORITY:PAGES,..." (empty where the event is missing).
KPRIO_EV=vmscan/mm_vmscan_lru_shrink_inactive
KPRIO_TRIGGER='hist:keys=priority:vals=nr_scanned:sort=priority if comm ~ "kswapd*"'
kprio_start() {
	echo "$KPRIO_TRIGGER" >"$MSL_TRACEFS/events/$KPRIO_EV/trigger" 2>/dev/null || true
}
kprio_stop() {
	local f=$MSL_TRACEFS/events/$KPRIO_EV
	[ -r "$f/hist" ] || return 0
	awk '/^\{ priority:/ {
		for (i = 1; i <= NF; i++) if ($i == "nr_scanned:") n = $(i + 1)
		printf "%s%d:%d", sep, $3, n; sep = ","
	}' "$f/hist"
	echo "!$KPRIO_TRIGGER" >"$f/trigger" 2>/dev/null || true
}

iso_run() {
	local variant=$1 mode=$2 params=$3 rep=$4 label=$5 kprio
	local ws=$B_WS before kept=() pfile=() rr_ns=() rr_mf=() s_ns=() s_mf=() i r ns mf
	local ring=0 sparse=$MSL_SCRATCH/stream.sparse wsf=$MSL_SCRATCH/ws.data hold_pid= skips=0 reclaims=0 low_ev=0
	cg_remove P
	cg_remove S
	cg_create P
	cg_create S
	apply_mode "$mode" "$params"
	drop_caches
	if [ "$variant" = file ]; then
		make_ws "$wsf" "$ws"
		drop_caches
		p_read "$wsf" >/dev/null || fail "P's first read failed"
		before=$(ws_kib "$wsf")
		rm -f "$sparse"
		truncate -s "${B_SEG}M" "$sparse"
	else
		ws=$B_ANON_WS
		coproc HOLD { cg_run P perl -e "$B_PERL_ANON_HOLD" "$ws"; }
		hold_pid=$HOLD_PID
		read -r r <&"${HOLD[0]}" || fail "P's anon holder did not start"
		[ "$r" = ready ] || fail "P's anon holder said '$r'"
		before=$(cg_anon_kib P)
		# S's ring: all that is available now plus half of P's set, so
		# that reclaim must take at least that much from S or from P.
		ring=$(($(mem_free_mib) + ws / 2))
	fi
	local mf0 t_total=0
	mf0=$(cg_majflt P)
	kprio_start
	for ((i = 0; i < B_NSEG; i++)); do
		if [ "$variant" = file ]; then
			# a fresh sparse file each segment: nothing of S stays hot
			rm -f "$sparse"
			truncate -s "${B_SEG}M" "$sparse"
			ns=$(stream_timed S "$sparse")
			s_ns+=("$ns")
			kept+=("$(ws_kib "$wsf")")
			pfile+=("$(cg_file_kib P)")
			read -r ns mf < <(p_read "$wsf") || fail "P's re-read failed"
		else
			read -r ns mf < <(cg_run S perl -e "$B_PERL_ANON_RING" "$ring" "$B_RING_PASSES") || fail "S's ring failed"
			s_ns+=("$ns")
			s_mf+=("$mf")
			kept+=("$(cg_anon_kib P)")
			echo touch >&"${HOLD[1]}"
			read -r ns mf <&"${HOLD[0]}" || fail "P's anon holder died"
		fi
		rr_ns+=("$ns")
		rr_mf+=("$mf")
	done
	kprio=$(kprio_stop)
	if [ "$mode" = low ] && [ -r "$(cg_path P)/memory.events" ]; then
		low_ev=$(awk '$1 == "low" {print $2}' "$(cg_path P)/memory.events")
	fi
	if [[ $mode == msl* ]]; then
		local snap
		snap=$(snapshot_of "$(stat -c %i "$(cg_path P)")")
		read -r skips reclaims < <(snapshot_verdicts "$snap")
	fi
	if [ -n "$hold_pid" ]; then
		exec {HOLD[1]}>&-
		wait "$hold_pid" 2>/dev/null
	fi
	local seg_mib=$B_SEG
	[ "$variant" = anon ] && seg_mib=$((ring * B_RING_PASSES))
	[ "$variant" = file ] && [ "$B_READER" = read ] && variant=file-read
	bench_emit iso variant="$variant" mode="$mode" label="$label" params="$params" rep="$rep" \
		ws_mib="$ws" prot_mib="$B_PROT" seg_mib="$seg_mib" nseg="$B_NSEG" \
		before_kib="$before" kept_kib="$(join_csv "${kept[@]}")" p_file_kib="$(join_csv "${pfile[@]}")" \
		reread_ns="$(join_csv "${rr_ns[@]}")" reread_majflt="$(join_csv "${rr_mf[@]}")" \
		stream_ns="$(join_csv "${s_ns[@]}")" stream_majflt="$(join_csv "${s_mf[@]}")" \
		p_majflt_total=$(($(cg_majflt P) - mf0)) low_events="${low_ev:-0}" \
		msl_skips="${skips:-0}" msl_reclaims="${reclaims:-0}" kswapd_scanned_by_priority="$kprio"
	if msl_loaded; then
		[ "$MSL_CGROUP_VERSION" = 2 ] && echo "unset /P" >/proc/memcg_softlimit/limits 2>/dev/null
	fi
	cg_remove P
	cg_remove S
	rm -f "$sparse"
}

# ---------------------------------------------------------------------------
# function_graph timing of the hooks (per-decision cost)
# ---------------------------------------------------------------------------
# fg_filter_add PATTERN...: add the functions of available_filter_functions
# that match (whole name, module suffix or .isra/.constprop clones allowed)
# to set_ftrace_filter; prints what was added.
fg_filter_add() {
	local pat f
	for pat in "$@"; do
		while read -r f; do
			echo "$f" >>"$MSL_TRACEFS/set_ftrace_filter" 2>/dev/null && echo "$f"
		done < <(awk -v p="$pat" '{ n = $1; sub(/\.(isra|constprop|part|cold)\.[0-9.]*$/, "", n); if (n == p) print $1 }' \
			"$MSL_TRACEFS/available_filter_functions" | sort -u)
	done
}

# fg_start FUNCS...: function_graph on exactly these functions
fg_start() {
	local tf=$MSL_TRACEFS
	echo 0 >"$tf/tracing_on"
	echo nop >"$tf/current_tracer"
	: >"$tf/set_ftrace_filter"
	: >"$tf/set_graph_function" 2>/dev/null
	echo 8192 >"$tf/buffer_size_kb"
	FG_FUNCS=$(fg_filter_add "$@" | tr '\n' ' ')
	[ -n "$FG_FUNCS" ] || return 1
	echo 0 >"$tf/options/funcgraph-irqs" 2>/dev/null
	echo 1 >"$tf/options/funcgraph-tail" 2>/dev/null
	echo 0 >"$tf/options/funcgraph-overhead" 2>/dev/null
	echo 1 >"$tf/options/funcgraph-proc" 2>/dev/null
	echo 0 >"$tf/tracing_thresh" 2>/dev/null
	echo function_graph >"$tf/current_tracer" || return 1
	: >"$tf/trace"
	echo 1 >"$tf/tracing_on"
}

# fg_stop OUT: stop, save the trace, and restore the nop tracer
fg_stop() {
	local tf=$MSL_TRACEFS
	echo 0 >"$tf/tracing_on"
	cat "$tf/trace" >"$1"
	echo nop >"$tf/current_tracer"
	: >"$tf/set_ftrace_filter"
	: >"$tf/trace"
	echo 1 >"$tf/tracing_on"
}

# fg_stats FILE: per function "name calls mean_ns median_ns p10_ns p90_ns"
# from function_graph's durations (leaf "name();" and "} /* name */").
fg_stats() {
	awk '
	/ us +\|/ {
		if (!match($0, /[0-9]+\.[0-9]+ us/)) next
		d = substr($0, RSTART, RLENGTH - 3) * 1000
		rest = substr($0, index($0, "|") + 1)
		name = ""
		if (match(rest, /\/\* [A-Za-z0-9_.]+/)) name = substr(rest, RSTART + 3, RLENGTH - 3)
		else if (match(rest, /[A-Za-z0-9_.]+( \[[a-z_]+\])?\(\);/)) { name = substr(rest, RSTART, RLENGTH); sub(/( \[[a-z_]+\])?\(\);$/, "", name) }
		if (name == "") next
		sub(/\.(isra|constprop|part|cold)\.[0-9.]*$/, "", name)
		print name, d
	}' "$1" | sort -k1,1 -k2,2n | awk '
	function flush() {
		if (n == 0) return
		hi = int(n * 0.9); if (hi < 1) hi = 1
		printf("%s %d %.0f %.0f %.0f %.0f\n", cur, n, sum / n, v[int((n + 1) / 2)], v[int(n * 0.1) + 1], v[hi])
	}
	$1 != cur { flush(); cur = $1; n = 0; sum = 0; delete v }
	{ n++; v[n] = $2; sum += $2 }
	END { flush() }'
}

# The module's handlers and the gated calls, by series.
# The gated call (MGLRU's memcg LRU on 6.12: shrink_one), the decision
# (msl_gate_step, whichever probe takes it) and the accounting entry.
fg_gated() { if [ "$MSL_KSERIES" != 6.1 ] && [ "$MSL_LRU" = mglru ]; then echo shrink_one; else echo shrink_lruvec; fi; }
fg_handler() { echo msl_gate_step; }
fg_account() { if [ "$(fg_gated)" = shrink_one ]; then echo account_entry_one; else echo account_entry_lruvec; fi; }

# ---------------------------------------------------------------------------
# Pages kept per policy on the three trees (README "Policies")
# ---------------------------------------------------------------------------
# The seed patch's case 1 and case 2 (tests/guest/patch-cases.sh: 1 unit = 8 MiB)
# and the KS2012 article's tree, cases a-e (t-27-policies.sh, sizes x4 so
# that the pages kept are measurable against a stream).  Soft limits in
# MiB ("max": none, as the patch's "unlimited"); every cgroup of the tree
# has one, so only S, the streamer outside the tree (no soft limit and
# none above it: eligible, and "over" for walk), is unset.
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
# Parts (each a bench/guest/bench-<part>.sh; t-60-bench-smoke runs them at
# the smoke size)
# ---------------------------------------------------------------------------
# The comparison rows of the isolation table, for this config, and a row
# of the module at each priority_threshold of MSL_BENCH_THRESHOLD_ROWS
# (default 12, the patch's rule as written; "" for none).
iso_modes() {
	local m t rows=
	for t in ${MSL_BENCH_THRESHOLD_ROWS-12}; do rows+=" msl-t$t"; done
	for m in ${MSL_BENCH_ISO_MODES:-none v1soft low msl $(bench_policies | sed 's/^/msl-/') $rows}; do
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
		iso_run file msl "unset=max" "$r" "unset=max"
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
	fg_measure handlers "$B_FG_STREAM" "$h" shrink_node_pre msl_supply_kick \
		shrink_slab_pre skip_shrink_lruvec skip_shrink_one skip_shrink_slab
	# Each policy's decision in a run of its own, v8's too: the run above
	# traces six more functions, and its figure for the decision came out
	# up to twice this one's under TCG.
	for pol in v8 $(bench_policies); do
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
