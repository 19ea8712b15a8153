# shellcheck shell=bash
# bench/guest/bench-app-lib.sh: the app part of `make bench` (issue 22):
# programs from Debian's packages, not ours, beside a batch job.  Sourced
# after bench-lib.sh by bench-app.sh and t-60-bench-app-smoke.sh.
#
# The service is Debian's PostgreSQL (15 on Debian 12) in cgroup "svc",
# protected at A_PROT MiB by the run's mode (bench-lib.sh's names: none,
# v1soft, low, msl; msl is the module at its defaults, nothing but insmod
# and the service's soft limit).  pgbench, in cgroup "client", offers a
# fixed load (A_LOAD of the rate it reached unhindered, calibrated once per
# boot): the per-transaction log then gives latencies measured from each
# transaction's scheduled start, queueing included.  The neighbour, in
# cgroup "batch", without a soft limit or memory.low, at nice 10 (a batch
# job), runs once between a quiet "before" phase and a quiet "after" one:
#   round file: tar of a tree A_TREE_X times the guest's RAM (sparse files:
#               reading them costs page cache, not disk) to a pipe;
#               pgbench select-only (-S) and the TPC-B-like default, the
#               database in the page cache (shared_buffers A_SB_FILE);
#   round anon: stress-ng --vm (A_VM_PCT of MemTotal, --vm-keep) with a
#               swap file on the data disk; pgbench select-only with the
#               database in PostgreSQL's shared_buffers (shmem: swap-backed
#               like anonymous memory), the page cache dropped;
#   round cpu:  the control, not in the default set: stress-ng --cpu 2
#               for A_VM_SECS s, no memory to speak of, the database in
#               the page cache as in round file: what the batch job's CPU
#               alone costs the service's latency in this guest.
# Everything of the service lives on the data disk (serial msl-data),
# which the host throttles to a cloud volume's speed
# (MSL_BENCH_APP_THROTTLE): a miss costs what it costs there.  Without
# that disk (make check) it all goes to $MSL_SCRATCH, unthrottled.
#
# One "app" record per run: per phase (before, during, after) the TPS,
# latency p50/p99/max (ms), transactions, the service's major faults
# (memory.stat), reads (io.stat on v2; the data disk's own counter on
# both), the neighbour's throughput, and p99 and TPS per A_BUCKET seconds
# around the batch job (the plot).

case $MSL_BENCH_SIZE in
smoke)
	A_SCALE=1 A_SB_FILE=16 A_SB_ANON=24 A_PROT=96 A_TREE_X=0.5 A_VM_PCT=60 A_VM_SECS=8
	A_SETTLE=2 A_BEFORE=6 A_AFTER=5 A_CAL=3 A_REPEATS=1 A_SWAP=128 ;;
full)
	A_SCALE=5 A_SB_FILE=16 A_SB_ANON=96 A_PROT=192 A_TREE_X=4 A_VM_PCT=80 A_VM_SECS=40
	A_SETTLE=3 A_BEFORE=30 A_AFTER=30 A_CAL=8 A_REPEATS=3 A_SWAP=512 ;;
*)
	A_SCALE=5 A_SB_FILE=16 A_SB_ANON=96 A_PROT=192 A_TREE_X=3 A_VM_PCT=80 A_VM_SECS=30
	A_SETTLE=3 A_BEFORE=20 A_AFTER=15 A_CAL=6 A_REPEATS=2 A_SWAP=512 ;;
esac
[ -z "${MSL_BENCH_REPEATS:-}" ] || A_REPEATS=$MSL_BENCH_REPEATS
A_LOAD=0.3 A_CLIENTS=2 A_BUCKET=2
# MSL_BENCH_APP_SET="A_BEFORE=15 A_AFTER=10 ...": the size's values
# overridden one by one (bench/run passes it on; the records carry it)
app_set() {
	local kv k v
	for kv in ${MSL_BENCH_APP_SET:-}; do
		k=${kv%%=*} v=${kv#*=}
		case $k in
		A_SCALE | A_SB_FILE | A_SB_ANON | A_PROT | A_TREE_X | A_VM_PCT | A_VM_SECS | A_SETTLE | A_BEFORE | \
			A_AFTER | A_CAL | A_REPEATS | A_SWAP | A_LOAD | A_CLIENTS | A_BUCKET) ;;
		*) fail "MSL_BENCH_APP_SET: unknown setting '$k'" ;;
		esac
		[[ $v =~ ^[0-9]+(\.[0-9]+)?$ ]] || fail "MSL_BENCH_APP_SET: '$kv' is not a number"
		printf -v "$k" %s "$v"
	done
}
app_set
A_THROTTLE=${MSL_BENCH_APP_THROTTLE:-}
# Debian's PostgreSQL, the newest installed major (15 on Debian 12)
# shellcheck disable=SC2012 # its own dirs: majors, digits only
A_PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
A_PGBIN=${A_PGBIN:-/usr/lib/postgresql/15/bin}
A_SOCK=/tmp
A_LOGS=/tmp/app-logs
A_MNT=/mnt/msl-data

# ---------------------------------------------------------------------------
# The data disk
# ---------------------------------------------------------------------------
# app_data_dev: the block device whose serial is msl-data (empty if none)
app_data_dev() {
	local s
	for s in /sys/block/vd*/serial; do
		[ -r "$s" ] && [ "$(cat "$s")" = msl-data ] && { s=${s%/serial}; echo "${s##*/}"; return 0; }
	done
	return 0
}

# app_disk_setup: A_DIR (where the service's files go), A_DEV (the device
# whose reads are counted, "" if none)
app_disk_setup() {
	A_DEV=$(app_data_dev)
	if [ -n "$A_DEV" ]; then
		mkdir -p "$A_MNT"
		mountpoint -q "$A_MNT" || {
			mkfs.ext4 -q -F -E lazy_itable_init=1,lazy_journal_init=1 "/dev/$A_DEV" ||
				fail "mkfs.ext4 /dev/$A_DEV failed"
			mount "/dev/$A_DEV" "$A_MNT" || fail "mount /dev/$A_DEV failed"
		}
		A_DIR=$A_MNT
		A_DISK="data disk /dev/$A_DEV${A_THROTTLE:+, throttled: $A_THROTTLE}"
	else
		A_DIR=$MSL_SCRATCH/app
		A_DEV=$(lsblk -no PKNAME "$(findmnt -no SOURCE --target "$MSL_SCRATCH")" 2>/dev/null | head -n 1)
		[ -n "$A_DEV" ] || A_DEV=$(basename "$(findmnt -no SOURCE --target "$MSL_SCRATCH")")
		A_DISK="root disk /dev/$A_DEV ($MSL_SCRATCH; no data disk), unthrottled"
		A_THROTTLE=
	fi
	mkdir -p "$A_DIR" "$A_LOGS"
	A_DEVNO=$(cat "/sys/class/block/$A_DEV/dev" 2>/dev/null)
}

app_disk_teardown() {
	swapoff "$A_DIR/swapfile" 2>/dev/null
	if mountpoint -q "$A_MNT"; then
		umount "$A_MNT" || umount -l "$A_MNT"
	fi
	rm -rf "$A_LOGS"
}

# dev_read_kib: KiB read from A_DEV since boot (/sys/block/DEV/stat)
dev_read_kib() { awk '{print int($3 / 2)}' "/sys/class/block/$A_DEV/stat"; }

# io_read_kib CG: KiB the cgroup read from A_DEV (v2 io.stat; 0 without)
io_read_kib() {
	local f
	f=$(cg_path "$1")/io.stat
	[ -r "$f" ] || { echo 0; return 0; }
	awk -v d="$A_DEVNO" '$1 == d { for (i = 2; i <= NF; i++) if ($i ~ /^rbytes=/) { sub(/rbytes=/, "", $i); r = $i } }
		END { print int(r / 1024) }' "$f"
}

# ---------------------------------------------------------------------------
# PostgreSQL
# ---------------------------------------------------------------------------
A_PGDATA=
pg() { runuser -u postgres -- "$@"; }
psql_q() { "$A_PGBIN/psql" -h "$A_SOCK" -U postgres -d postgres -qAtX -v ON_ERROR_STOP=1 -c "$1"; }

# app_pg_init: a cluster on the data disk and pgbench's tables at A_SCALE
app_pg_init() {
	[ -x "$A_PGBIN/pgbench" ] || skip "PostgreSQL is not in the guest rootfs (tests/vm/setup.sh)"
	id postgres >/dev/null 2>&1 || skip "no postgres user in the guest rootfs"
	A_PGDATA=$A_DIR/pg
	rm -rf "$A_PGDATA"
	mkdir -p "$A_PGDATA"
	chown postgres: "$A_PGDATA" "$A_DIR"
	pg "$A_PGBIN/initdb" -D "$A_PGDATA" -A trust -U postgres -E UTF8 --no-locale --no-sync >"$A_LOGS/initdb.log" 2>&1 ||
		fail "initdb failed: $(tail -n 3 "$A_LOGS/initdb.log" | tr '\n' ' ')"
	cat >>"$A_PGDATA/postgresql.conf" <<-EOF
		listen_addresses = ''
		unix_socket_directories = '$A_SOCK'
		dynamic_shared_memory_type = sysv
		huge_pages = off
		jit = off
		max_connections = 20
		max_parallel_workers_per_gather = 0
		logging_collector = off
	EOF
	app_pg_start "$A_SB_FILE" ""
	local t0
	t0=$(now_ns)
	"$A_PGBIN/pgbench" -h "$A_SOCK" -U postgres -i -q -I dtGvp -s "$A_SCALE" postgres >"$A_LOGS/init.log" 2>&1 ||
		fail "pgbench -i failed: $(tail -n 3 "$A_LOGS/init.log" | tr '\n' ' ')"
	psql_q "CREATE EXTENSION IF NOT EXISTS pg_prewarm" || fail "CREATE EXTENSION pg_prewarm failed"
	A_DB_MIB=$(psql_q "SELECT pg_database_size('postgres') / 1048576")
	note "app: PostgreSQL $(psql_q 'SHOW server_version'), pgbench scale $A_SCALE ($A_DB_MIB MiB) in $((($(now_ns) - t0) / 1000000)) ms, on the $A_DISK"
	app_pg_stop
}

# app_pg_start SHARED_BUFFERS_MIB CGROUP: the server, in CGROUP (or where
# the caller is)
app_pg_start() {
	local sb=$1 cg=$2 cmd
	cmd=(runuser -u postgres -- "$A_PGBIN/pg_ctl" -D "$A_PGDATA" -l "$A_DIR/pg.log" -w -t 300
		-o "-c shared_buffers=${sb}MB" start)
	if [ -n "$cg" ]; then cg_run "$cg" "${cmd[@]}"; else "${cmd[@]}"; fi >/dev/null ||
		fail "pg_ctl start failed: $(tail -n 5 "$A_DIR/pg.log" | tr '\n' ' ')"
}

app_pg_stop() {
	[ -f "$A_PGDATA/postmaster.pid" ] || return 0
	pg "$A_PGBIN/pg_ctl" -D "$A_PGDATA" -m fast -w -t 120 stop >/dev/null ||
		fail "pg_ctl stop failed: $(tail -n 5 "$A_DIR/pg.log" | tr '\n' ' ')"
}

# pgbench_args WORKLOAD: select (-S) or tpcb (the default script)
pgbench_args() {
	local a=(-h "$A_SOCK" -U postgres -n -c "$A_CLIENTS" -j "$A_CLIENTS")
	[ "$1" = select ] && a+=(-S)
	echo "${a[*]}"
}

# app_warm ROUND: the database in memory, charged to svc: its files' page
# cache (file, cpu), or its tables in shared_buffers and the page cache
# dropped (anon)
app_warm() {
	local rel
	if [ "$1" != anon ]; then
		cg_run svc find "$A_PGDATA/base" -type f -exec cat {} + >/dev/null
	else
		# pg_prewarm runs in the backend, a child of the postmaster in svc
		for rel in pgbench_accounts pgbench_accounts_pkey pgbench_branches pgbench_tellers; do
			psql_q "SELECT pg_prewarm('$rel')" >/dev/null || fail "pg_prewarm($rel) failed"
		done
		sync
		echo 1 >/proc/sys/vm/drop_caches
	fi
}

# app_calibrate ROUND WORKLOAD: "RATE" = A_LOAD x the TPS pgbench reached
# unhindered for A_CAL s (warm, no neighbour, no protection)
app_calibrate() {
	local round=$1 wl=$2 sb tps
	sb=$A_SB_FILE
	[ "$round" = anon ] && sb=$A_SB_ANON
	cg_create svc
	app_pg_start "$sb" svc
	app_warm "$round"
	# shellcheck disable=SC2046 # words of pgbench_args
	tps=$("$A_PGBIN/pgbench" $(pgbench_args "$wl") -T "$A_CAL" postgres 2>/dev/null |
		awk '/^tps = / {print $3; exit}')
	app_pg_stop
	cg_remove svc
	[ -n "$tps" ] || fail "pgbench calibration ($round $wl) gave no tps"
	awk -v t="$tps" -v l="$A_LOAD" 'BEGIN { r = int(t * l); if (r < 1) r = 1; print r }'
}

# ---------------------------------------------------------------------------
# The neighbour
# ---------------------------------------------------------------------------
# app_tree: A_TREE_MIB of sparse files in 16 directories of 8 MiB files
app_tree() {
	local mem files d f
	mem=$(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo)
	A_TREE_MIB=$(awk -v m="$mem" -v x="$A_TREE_X" 'BEGIN { print int(m * x / 8) * 8 }')
	files=$((A_TREE_MIB / 8))
	rm -rf "$A_DIR/tree"
	for ((f = 0; f < files; f++)); do
		d=$A_DIR/tree/d$((f % 16))
		[ -d "$d" ] || mkdir -p "$d"
		truncate -s 8M "$d/f$f"
	done
}

# app_swap: a swap file of A_SWAP MiB on the data disk (the runner swaps
# off after the test)
app_swap() {
	swapoff -a 2>/dev/null
	if [ ! -f "$A_DIR/swapfile" ]; then
		dd if=/dev/zero of="$A_DIR/swapfile" bs=1M count="$A_SWAP" status=none || fail "writing the swap file failed"
		chmod 600 "$A_DIR/swapfile"
		mkswap "$A_DIR/swapfile" >/dev/null || fail "mkswap failed"
	fi
	swapon "$A_DIR/swapfile" || fail "swapon $A_DIR/swapfile failed"
}

# app_neighbour ROUND OUT: run the batch job in cgroup batch at nice 10;
# writes "<unit> <amount> <ns>" to OUT
app_neighbour() {
	local round=$1 out=$2 t0 t1
	t0=$(now_ns)
	if [ "$round" = file ]; then
		# shellcheck disable=SC2016 # $1 of the inner sh
		cg_run batch nice -n 10 sh -c 'tar -cf - -C "$1" . | cat >/dev/null' sh "$A_DIR/tree" ||
			fail "the batch job (tar) failed"
		t1=$(now_ns)
		echo "MiB $A_TREE_MIB $((t1 - t0))" >"$out"
	elif [ "$round" = cpu ]; then
		app_stress_ng "$out" "$t0" --cpu 2
	else
		app_stress_ng "$out" "$t0" --vm 1 --vm-bytes "${A_VM_MIB}M" --vm-keep --vm-method write64
	fi
}

# app_stress_ng OUT T0 STRESSOR-ARGS...: the batch job as stress-ng for
# A_VM_SECS s; "bogo-ops N NS" (NS since T0) into OUT
app_stress_ng() {
	local out=$1 t0=$2 y=$A_LOGS/stress.yaml t1
	shift 2
	rm -f "$y"
	cg_run batch nice -n 10 stress-ng "$@" --timeout "${A_VM_SECS}s" --metrics-brief --yaml "$y" \
		>"$A_LOGS/stress.out" 2>&1 ||
		fail "the batch job (stress-ng $1) failed: $(tail -n 3 "$A_LOGS/stress.out" | tr '\n' ' ')"
	t1=$(now_ns)
	echo "bogo-ops $(awk '$1 == "bogo-ops:" {print $2; exit}' "$y") $((t1 - t0))" >"$out"
}

# ---------------------------------------------------------------------------
# One run
# ---------------------------------------------------------------------------
# app_mode MODE: protect svc (bench-lib.sh's modes; msl: insmod and the
# soft limit, nothing else)
app_mode() {
	msl_loaded && msl_unload >/dev/null
	case $1 in
	none) ;;
	v1soft)
		cg_set svc memory.soft_limit_in_bytes $((A_PROT << 20))
		cg_set batch memory.soft_limit_in_bytes 0 ;;
	low) cg_set svc memory.low "${A_PROT}M" ;;
	msl)
		msl_load >/dev/null
		set_soft_limit svc "$A_PROT"
		# v1 has no unset limit (the kernel's default is "never over"):
		# the batch job gets 0, as under v1soft and in the isolation runs
		if [ "$MSL_CGROUP_VERSION" = 1 ]; then cg_set batch memory.soft_limit_in_bytes 0; fi ;;
	*) fail "unknown mode $1" ;;
	esac
}

# memory_stall_us CGROUP: the time (us) some of its tasks were stalled on
# memory (PSI "some": direct reclaim, refaults, swap-in; cgroup v2), 0
# where the kernel has no such file
memory_stall_us() {
	local f
	f="$(cg_path "$1")/memory.pressure"
	[ -r "$f" ] || { echo 0; return; }
	sed -nE 's/^some .*total=([0-9]+).*/\1/p' "$f"
}

# app_sample: "svc_majflt svc_read_kib dev_read_kib batch_majflt
# client_majflt svc_stall_us"
app_sample() {
	local a b c d e f
	a=$(cg_majflt svc) b=$(io_read_kib svc) c=$(dev_read_kib) d=$(cg_majflt batch) e=$(cg_majflt client)
	f=$(memory_stall_us svc)
	echo "${a:-0} ${b:-0} ${c:-0} ${d:-0} ${e:-0} ${f:-0}"
}

# app_stats T0 TB TE T1 LOGS...: from pgbench's per-transaction logs
# (client tx latency_us script epoch_s epoch_us [lag]), by completion time:
#   phase NAME N TPS P50_MS P99_MS MAX_MS     (before [T0,TB), during, after)
#   bucket START_S N P99_MS                   (A_BUCKET s, relative to TB)
app_stats() {
	local t0=$1 tb=$2 te=$3 t1=$4
	shift 4
	cat "$@" | gawk -v t0="$t0" -v tb="$tb" -v te="$te" -v t1="$t1" -v bk="$A_BUCKET" '
	function pct(arr, n, p,   k) { k = int(p / 100 * n); if (k < p / 100 * n) k++; if (k < 1) k = 1; return arr[k] }
	NF >= 6 && $3 ~ /^[0-9]+$/ {
		t = $5 + $6 / 1e6; lat = $3 / 1000.0
		if (t < t0 || t >= t1) next
		ph = t < tb ? "before" : (t < te ? "during" : "after")
		n[ph]++; L[ph][n[ph]] = lat
		b = (t - tb) / bk; fb = int(b); if (b < fb) fb--
		nb[fb]++; B[fb][nb[fb]] = lat
	}
	END {
		d["before"] = tb - t0; d["during"] = te - tb; d["after"] = t1 - te
		split("before during after", P, " ")
		for (i = 1; i <= 3; i++) {
			ph = P[i]
			if (!n[ph]) { printf "phase %s 0 0 0 0 0\n", ph; continue }
			m = asort(L[ph], v, "@val_num_asc")
			printf "phase %s %d %.2f %.3f %.3f %.3f\n", ph, m, m / d[ph], pct(v, m, 50), pct(v, m, 99), v[m]
			delete v
		}
		lo = int(-(tb - t0) / bk) - 1; hi = int((t1 - tb) / bk) + 1
		for (fb = lo; fb <= hi; fb++) {
			if (!nb[fb]) continue
			m = asort(B[fb], v, "@val_num_asc")
			printf "bucket %d %d %.3f\n", fb * bk, m, pct(v, m, 99)
			delete v
		}
	}'
}

# proc_gone PID: exited (or a zombie not yet reaped)
proc_gone() { [ ! -e "/proc/$1" ] || grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null; }

# app_batch_name ROUND: the batch job, as the records name it
app_batch_name() {
	case $1 in
	file) echo "tar of ${A_TREE_MIB} MiB" ;;
	cpu) echo "stress-ng --cpu 2" ;;
	*) echo "stress-ng --vm ${A_VM_MIB}M" ;;
	esac
}

# app_run ROUND WORKLOAD MODE REP RATE: one run; one "app" record
app_run() {
	local round=$1 wl=$2 mode=$3 rep=$4 rate=$5 sb pb t0 tb te t1 s0 sb_ s1 s2 unit amount ns
	local stats ph k a b c d e f ts_t=() ts_p99=() ts_n=() kv=() usage0 usage1 skips=0 reclaims=0 snap
	sb=$A_SB_FILE
	[ "$round" = anon ] && sb=$A_SB_ANON
	drop_caches
	for k in svc batch client; do cg_create "$k"; done
	[ "$MSL_CGROUP_VERSION" = 2 ] && echo +io >"$MSL_CGROUP_ROOT/cgroup.subtree_control" 2>/dev/null
	app_mode "$mode"
	app_pg_start "$sb" svc
	app_warm "$round"
	usage0=$(($(cg_usage_bytes svc) >> 10))
	rm -f "$A_LOGS"/tx.*
	# shellcheck disable=SC2046 # words of pgbench_args
	cg_run client "$A_PGBIN/pgbench" $(pgbench_args "$wl") -R "$rate" -T 3600 -l --log-prefix="$A_LOGS/tx" \
		postgres >"$A_LOGS/pgbench.out" 2>&1 &
	pb=$!
	sleep "$A_SETTLE"
	t0=$EPOCHREALTIME s0=$(app_sample)
	sleep "$A_BEFORE"
	tb=$EPOCHREALTIME sb_=$(app_sample)
	app_neighbour "$round" "$A_LOGS/nb"
	te=$EPOCHREALTIME s1=$(app_sample)
	sleep "$A_AFTER"
	t1=$EPOCHREALTIME s2=$(app_sample)
	usage1=$(($(cg_usage_bytes svc) >> 10))
	# pgbench ends (and closes its logs) once its connections are gone
	psql_q "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = 'pgbench'" >/dev/null
	wait_until 60 proc_gone "$pb" || { kill "$pb" 2>/dev/null; fail "pgbench did not end"; }
	wait "$pb" 2>/dev/null
	if [ "$mode" = msl ]; then
		snap=$(snapshot_of "$(stat -c %i "$(cg_path svc)")")
		[ -z "$snap" ] || read -r skips reclaims < <(snapshot_verdicts "$snap")
	fi
	app_pg_stop
	read -r unit amount ns <"$A_LOGS/nb"
	stats=$(app_stats "$t0" "$tb" "$te" "$t1" "$A_LOGS"/tx.*)
	while read -r k ph a b c d e f; do
		case $k in
		phase) kv+=("n_$ph=$a" "tps_$ph=$b" "p50_ms_$ph=$c" "p99_ms_$ph=$d" "max_ms_$ph=$e") ;;
		bucket) ts_t+=("$ph") ts_n+=("$a") ts_p99+=("$b") ;;
		esac
	done <<<"$stats"
	# the samples: s0 at T0, sb_ at TB, s1 at TE, s2 at T1
	local -a A B
	for ph in before during after; do
		case $ph in
		before) read -r -a A <<<"$s0"; read -r -a B <<<"$sb_" ;;
		during) read -r -a A <<<"$sb_"; read -r -a B <<<"$s1" ;;
		after) read -r -a A <<<"$s1"; read -r -a B <<<"$s2" ;;
		esac
		kv+=("majflt_$ph=$((B[0] - A[0]))" "dev_read_kib_$ph=$((B[2] - A[2]))" "batch_majflt_$ph=$((B[3] - A[3]))")
		# pgbench has no protection in any mode: its own faults are
		# latency the service's protection cannot remove
		kv+=("client_majflt_$ph=$((B[4] - A[4]))")
		# the service's own time stalled on memory (PSI "some": its
		# tasks reclaiming, refaulting, swapping in)
		[ "$MSL_CGROUP_VERSION" = 2 ] && kv+=("svc_mem_stall_ms_$ph=$(((B[5] - A[5]) / 1000))")
		# io.stat (v2 only)
		[ "$MSL_CGROUP_VERSION" = 2 ] && kv+=("svc_read_kib_$ph=$((B[1] - A[1]))")
	done
	d=$(awk -v a="$t0" -v b="$tb" -v c="$te" -v e="$t1" 'BEGIN { printf "%.3f %.3f %.3f", b - a, c - b, e - c }')
	read -r a b c <<<"$d"
	bench_emit app round="$round" workload="$wl" mode="$mode" rep="$rep" rate="$rate" clients="$A_CLIENTS" \
		scale="$A_SCALE" db_mib="$A_DB_MIB" shared_buffers_mib="$sb" prot_mib="$A_PROT" \
		disk="$A_DISK" throttle="${A_THROTTLE:-none}" \
		s_before="$a" s_during="$b" s_after="$c" "${kv[@]}" \
		batch="$(app_batch_name "$round")" \
		batch_unit="$unit" batch_amount="${amount:-0}" batch_ns="$ns" \
		svc_kib_start="$usage0" svc_kib_end="$usage1" msl_skips="$skips" msl_reclaims="$reclaims" \
		load="$A_LOAD" bucket_s="$A_BUCKET" app_set="${MSL_BENCH_APP_SET:-}" ts_t="$(join_csv "${ts_t[@]}")" ts_n="$(join_csv "${ts_n[@]}")" \
		ts_p99_ms="$(join_csv "${ts_p99[@]}")"
	if msl_loaded; then
		[ "$MSL_CGROUP_VERSION" = 2 ] && echo "unset /svc" >/proc/memcg_softlimit/limits 2>/dev/null
		msl_unload >/dev/null
	fi
	for k in svc batch client; do cg_remove "$k"; done
}

# app_modes: the protections measured here (bench-lib.sh's names)
app_modes() {
	local m
	for m in none v1soft low msl; do
		mode_applies "$m" && echo "$m"
	done
}

# bench_app [ROUND:WORKLOAD[:MODE,MODE...]...]: each round/workload under
# each mode (default: app_modes), A_REPEATS times, interleaved (rep 1 of
# every mode, then rep 2, ...).  Default: file:select file:tpcb anon:select.
bench_app() {
	local runs=("$@") modes=() spec rw r m rate
	[ ${#runs[@]} -gt 0 ] || runs=(file:select file:tpcb anon:select)
	msl_loaded && msl_unload >/dev/null
	app_disk_setup
	app_pg_init
	app_tree
	A_VM_MIB=$(awk -v p="$A_VM_PCT" '/MemTotal/ {print int($2 / 1024 * p / 100)}' /proc/meminfo)
	for spec in "${runs[@]}"; do
		[ "${spec%%:*}" = anon ] && { app_swap; break; }
	done
	for spec in "${runs[@]}"; do
		rw=${spec%:*}
		[[ $spec == *:*:* ]] || rw=$spec
		if [[ $spec == *:*:* ]]; then IFS=, read -r -a modes <<<"${spec##*:}"; else mapfile -t modes < <(app_modes); fi
		rate=$(app_calibrate "${rw%%:*}" "${rw#*:}")
		[[ $rate =~ ^[0-9]+$ ]] || fail "calibrating pgbench ($rw) failed"
		note "app: $rw: pgbench at $rate TPS ($A_LOAD of its unhindered rate), modes ${modes[*]}"
		for ((r = 1; r <= A_REPEATS; r++)); do
			for m in "${modes[@]}"; do
				app_run "${rw%%:*}" "${rw#*:}" "$m" "$r" "$rate"
			done
		done
	done
	swapoff -a 2>/dev/null
	app_disk_teardown
	true
}
