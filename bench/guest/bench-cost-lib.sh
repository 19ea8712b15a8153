# shellcheck shell=bash
# bench/guest/bench-cost-lib.sh: what protection costs the unprotected
# side (make bench's part "cost"; docs/benchmarks.md).  Sourced after
# bench-lib.sh by bench/guest/bench-cost.sh.
#
# Shapes (P1 and P2 hold 110 MiB of page cache each and are protected by
# the round's mode; E is an eligible neighbour, over its soft limit):
#   t24   E holds 80 MiB of anonymous memory, no swap: it gives nothing
#   hot   E re-reads a 48 MiB file in a loop: it gives hot pages
#   swap  as t24 with a swap file on: E's memory can go to swap
# In each, a writer in the root cgroup allocates 280 MiB of shmem (no
# swap but in "swap"), the allocation t-24 times.  Per round: the
# allocating task's time, OOM kills, the guest's PSI memory stall (some,
# full) during the allocation, kswapd's CPU time, pages reclaimed and
# swapped out, P1 and P2's page cache kept.
# Parts "dying" and "isoswap": a removed cgroup under a protected parent
# (t-70's shape) and protected page cache beside neighbours whose memory is
# shmem with swap on and a writer that needs more (t-71's); per round the
# pages kept or left.
#
# Modes: none (stock, nothing set), again (stock a second time: the A/A
# control, whose ratio to none is the noise of a ratio in this boot),
# v1soft (v1: the kernel's soft limits), low (v2: memory.low), min (v2:
# memory.min, protection with no fallback), msl (the module at its
# defaults).  Within each repeat the modes run in an
# order rotated by the repeat's index, so that no mode always follows the
# same one.

B_COST_SHAPES=${MSL_BENCH_COST_SHAPES:-t24 hot swap}
B_COST_PARTS=${MSL_BENCH_COST_PARTS:-cost dying isoswap}
case $MSL_BENCH_SIZE in
smoke) B_COST_REPEATS=1 ;;
full) B_COST_REPEATS=9 ;;
*) B_COST_REPEATS=5 ;;
esac
[ -z "${MSL_BENCH_REPEATS:-}" ] || B_COST_REPEATS=$MSL_BENCH_REPEATS
B_COST_SHM=/run/msl-cost-shm

cost_modes() {
	local m out=""
	for m in ${MSL_BENCH_COST_MODES:-none again v1soft low min msl}; do
		case $m in
		v1soft) [ "$MSL_CGROUP_VERSION" = 1 ] || continue ;;
		low | min) [ "$MSL_CGROUP_VERSION" = 2 ] || continue ;;
		esac
		out+=" $m"
	done
	echo $out
}

# rotated N WORDS...: the words, starting at the N-th (mod their count)
rotated() {
	local n=$1 i
	shift
	local -a w=("$@")
	for ((i = 0; i < ${#w[@]}; i++)); do
		printf '%s ' "${w[$(((n + i) % ${#w[@]}))]}"
	done
}

vmstat_of() { awk -v k="$1" '$1 == k {print $2}' /proc/vmstat; }
# pages written to swap or stored by zswap (on in Debian's 6.12)
swapped_out() { awk '$1 == "pswpout" || $1 == "zswpout" || $1 == "swpout_zero" {n += $2} END {print n + 0}' /proc/vmstat; }
# psi_total some|full: the guest's memory stall, microseconds since boot
psi_total() { awk -v k="$1" '$1 == k {sub("total=", "", $5); print $5}' /proc/pressure/memory; }
kswapd_ms() {
	local p t=0
	for p in $(pgrep -x 'kswapd[0-9]*'); do
		t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat")))
	done
	echo $((t * 1000 / $(getconf CLK_TCK)))
}

# cost_protect MODE CG...: protect the cgroups by MODE, E eligible
cost_protect() {
	local mode=$1 cg
	shift
	case $mode in
	msl) msl_load
	     for cg in "$@"; do set_soft_limit "$cg" max; done
	     [ -d "$(cg_path E)" ] && set_soft_limit E 1 ;;
	v1soft) for cg in "$@"; do cg_set "$cg" memory.soft_limit_in_bytes $((1 << 40)); done
		[ -d "$(cg_path E)" ] && cg_set E memory.soft_limit_in_bytes 0 ;;
	low) for cg in "$@"; do cg_set "$cg" memory.low max; done ;;
	min) for cg in "$@"; do cg_set "$cg" memory.min max; done ;;
	esac
}

# cost_unprotect MODE CG...: back to nothing set
cost_unprotect() {
	local mode=$1 cg
	shift
	case $mode in
	msl) msl_unload ;;
	v1soft) for cg in "$@" E; do
			[ -d "$(cg_path "$cg")" ] && cg_set "$cg" memory.soft_limit_in_bytes -1
		done ;;
	low) for cg in "$@"; do cg_set "$cg" memory.low 0; done ;;
	min) for cg in "$@"; do cg_set "$cg" memory.min 0; done ;;
	esac
}

# cost_start_e SHAPE: E's load (its swap file for "swap")
cost_start_e() {
	swapoff -a 2>/dev/null
	rm -f "$MSL_SCRATCH/swapfile"
	[ "$1" = swap ] && swap_file_on 512
	cost_load_e "$1"
}

# cost_load_e SHAPE: E's processes, again if an OOM kill took them
cost_load_e() {
	local p
	for p in $(cg_pids E); do kill -KILL "$p" 2>/dev/null; done
	case $1 in
	t24 | swap)
		# shellcheck disable=SC2016 # perl's own variable
		cg_run E "${B_KILLABLE[@]}" perl -e '$x = "e" x (40 << 20); sleep 100000' &
		wait_until 30 cost_e_holds 36 || fail "E holds only $(($(cg_usage_bytes E) >> 20)) MiB" ;;
	hot)
		make_ws "$MSL_SCRATCH/e.data" 48
		# Written here, its page cache is charged to the writer's cgroup
		# and E's reads would find it cached: dropped, E's reads charge E.
		dd if="$MSL_SCRATCH/e.data" iflag=nocache count=0 status=none
		cg_run E "${B_KILLABLE[@]}" sh -c "while :; do cat $MSL_SCRATCH/e.data >/dev/null; done" &
		wait_until 30 cost_e_holds 40 || fail "E holds only $(($(cg_usage_bytes E) >> 20)) MiB" ;;
	esac
}
# B_KILLABLE CMD...: CMD, first in line for the OOM killer
# shellcheck disable=SC2016 # sh's own "$@"
B_KILLABLE=(sh -c 'echo 1000 >/proc/self/oom_score_adj; exec "$@"' killable)
cost_e_holds() { [ "$(cg_usage_bytes E)" -ge $(($1 << 20)) ]; }

cost_stop_e() {
	local p
	for p in $(cg_pids E); do kill -KILL "$p" 2>/dev/null; done
	wait 2>/dev/null
	swapoff -a 2>/dev/null
	rm -f "$MSL_SCRATCH/swapfile"
}

# cost_round SHAPE MODE RUN: one allocation under MODE, one record
cost_round() {
	local shape=$1 mode=$2 run=$3 t0 t1 oom0 some0 full0 ks0 st0 sw0 p1 p2
	cost_protect "$mode" P1 P2
	fill_pagecaches P1 p1.data 110 P2 p2.data 110
	oom0=$(vmstat_of oom_kill) some0=$(psi_total some) full0=$(psi_total full)
	ks0=$(kswapd_ms) sw0=$(swapped_out)
	st0=$(($(vmstat_of pgsteal_kswapd) + $(vmstat_of pgsteal_direct)))
	t0=$(now_ns)
	(
		echo 1000 >/proc/self/oom_score_adj
		shmem_write "$MSL_CGROUP_ROOT" "$B_COST_SHM/fill" 280 2>/dev/null
	)
	local ok=$?
	t1=$(now_ns)
	p1=$(cg_file_mib P1) p2=$(cg_file_mib P2)
	bench_emit cost shape="$shape" mode="$mode" run="$run" ok=$((ok == 0)) \
		alloc_ms=$(((t1 - t0) / 1000000)) \
		oom_kills=$(($(vmstat_of oom_kill) - oom0)) \
		psi_some_us=$(($(psi_total some) - some0)) \
		psi_full_us=$(($(psi_total full) - full0)) \
		kswapd_cpu_ms=$(($(kswapd_ms) - ks0)) \
		reclaimed_pages=$(($(vmstat_of pgsteal_kswapd) + $(vmstat_of pgsteal_direct) - st0)) \
		swapout_pages=$(($(swapped_out) - sw0)) \
		p_kept_mib=$((p1 + p2)) p_total_mib=220 \
		e_mib=$(($(cg_usage_bytes E) >> 20))
	rm -f "$B_COST_SHM/fill"
	cost_unprotect "$mode" P1 P2
	# memory.min has no fallback: its OOM kill may have taken E's load
	[ "$(($(vmstat_of oom_kill) - oom0))" = 0 ] || cost_load_e "$shape"
	drop_caches
}

bench_cost_part() {
	local shape run mode modes
	modes=$(cost_modes)
	shm_mount "$B_COST_SHM" 400
	for cg in P1 P2 E; do cg_create "$cg"; done
	for shape in $B_COST_SHAPES; do
		cost_start_e "$shape"
		for ((run = 1; run <= B_COST_REPEATS; run++)); do
			# shellcheck disable=SC2046 # words
			for mode in $(rotated "$run" $modes); do
				# memory.min with nothing swappable deadlocks the
				# guest: the OOM killer takes E and the writer, and
				# the writer's shmem and P's 220 MiB still leave no
				# page for the bench's own code (kernel panic, "no
				# killable processes", 6.12 MGLRU in a 462 MiB guest)
				[ "$mode" = min ] && [ "$shape" != swap ] && continue
				cost_round "$shape" "$mode" "$run"
			done
		done
		cost_stop_e
	done
	shm_unmount_all
	SHM_MOUNTS=()
	cg_remove P1
	cg_remove P2
	cg_remove E
}

# The dying part: a removed child's 64 MiB under a protected parent, a live
# sibling's 64 MiB, S streams 1.5 GiB; what is left of each.
dying_round() {
	local mode=$1 run=$2 before live0 live1 after
	cg_create web
	cg_create web/old
	cg_create web/live
	cg_create S
	cost_protect "$mode" web
	fill_pagecaches web/old old.data 64 web/live live.data 64
	rmdir "$(cg_path web/old)" || fail "rmdir web/old"
	live0=$(cg_file_mib web/live)
	before=$(($(cg_file_mib web) - live0))
	stream_sparse S 1536
	live1=$(cg_file_mib web/live)
	after=$(($(cg_file_mib web) - live1))
	bench_emit dying mode="$mode" run="$run" dying_before_mib="$before" \
		dying_after_mib="$after" live_before_mib="$live0" live_after_mib="$live1"
	cost_unprotect "$mode" web
	cg_remove web
	cg_remove S
	drop_caches
}

# The isoswap part (t-71's shape): P1, P2 (100 MiB of page cache each)
# filled beside N's 200 MiB of shmem, then W writes 120 MiB more shmem
# than the guest has room for and S streams 1 GiB, a swap file on.
isoswap_round() {
	local mode=$1 run=$2 p0 p1 sw0
	for cg in P1 P2 N W S E; do cg_create "$cg"; done
	swap_file_on 320
	shm_mount "$B_COST_SHM" 400
	cost_protect "$mode" P1 P2
	shmem_write N "$B_COST_SHM/n" 200
	sw0=$(swapped_out)
	fill_pagecaches P1 p1.data 100 P2 p2.data 100
	p0=$(($(cg_file_mib P1) + $(cg_file_mib P2)))
	shmem_write W "$B_COST_SHM/w" 120
	stream_sparse S 1024
	p1=$(($(cg_file_mib P1) + $(cg_file_mib P2)))
	bench_emit isoswap mode="$mode" run="$run" kept_filled_mib="$p0" \
		kept_mib="$p1" total_mib=200 swapout_pages=$(($(swapped_out) - sw0))
	cost_unprotect "$mode" P1 P2
	shm_unmount_all
	SHM_MOUNTS=()
	swapoff -a
	rm -f "$MSL_SCRATCH/swapfile"
	for cg in P1 P2 N W S E; do cg_remove "$cg"; done
	drop_caches
}

bench_cost() {
	local part run mode modes
	# memory.min has no fallback, so its rounds may OOM-kill: the killer
	# must take the load (E, the writer: cost_killable), never the bench
	# itself, which then records the kill.  Before, it took E, then the
	# bench's shell, then everything else and panicked, with the writer's
	# shmem still growing (6.12 MGLRU, shape t24).
	echo -1000 >/proc/self/oom_score_adj
	modes=$(cost_modes)
	for part in $B_COST_PARTS; do
		case $part in
		cost) bench_cost_part ;;
		dying | isoswap)
			for ((run = 1; run <= B_COST_REPEATS; run++)); do
				# shellcheck disable=SC2046 # words
				for mode in $(rotated "$run" $modes); do
					[ "$mode" = min ] && continue
					"${part}_round" "$mode" "$run"
				done
			done ;;
		esac
	done
}
