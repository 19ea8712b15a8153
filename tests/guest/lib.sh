# shellcheck shell=bash
# tests/guest/lib.sh: helpers for the guest tests (tests/cases/t-*.sh).
#
# The guest runner (init.sh) sources this file before each test; a test may
# source it again (". "$MSL_PAYLOAD/guest/lib.sh"), that is harmless.
# Tests run as root in bash with `set -u -o pipefail` (not -e: use the
# assertions).  A test PASSes when it exits 0, FAILs on any other status,
# and is SKIPped by `skip "reason"` (exit 77).
#
# Environment set by init.sh:
#   MSL_CONFIG          the row of tests/matrix (6.1-v1-classic, 6.12-v2-mglru, ...)
#   MSL_KSERIES         its kernel series (6.1, 6.12, ...)
#   MSL_FLAVOUR         its kernel flavour (amd64, rt-amd64, ...)
#   MSL_DEBIAN          the Debian release of its kernel (12, 13)
#   MSL_CGROUP_VERSION  1 | 2
#   MSL_CGROUP_ROOT     /sys/fs/cgroup (v2) | /sys/fs/cgroup/memory (v1)
#   MSL_LRU             classic | mglru
#   MSL_LRU_GEN         what /sys/kernel/mm/lru_gen/enabled read back (or "none")
#   MSL_KO              /payload/module/memcg_softlimit.ko
#   MSL_MODULE          memcg_softlimit (the module's name)
#   MSL_PAYLOAD         /payload (read-only)
#   MSL_TOOL            /payload/bin/memcg-softlimit if present, else empty
#   MSL_SCRATCH         /var/tmp/msl: a dir on the guest's ext4 disk, emptied
#                       after each test (page cache of files here is real
#                       file cache; /tmp is tmpfs, i.e. shmem)
#   MSL_TRACEFS         /sys/kernel/tracing
#   MSL_LONG            1 for the long variants (msl.long=1), else 0
#   MSL_SWAP_DEV        /dev/vdc if the host gave a swap disk, else empty
#   MSL_TEST            the running test's name (e.g. t-00-smoke)
#   MSL_RESULTS         the verdict channel (/dev/ttyS1)
#   MSL_PKG_EXPECT      the package image's facts (package image rows)

[ -n "${MSL_LIB_SOURCED:-}" ] && return 0
MSL_LIB_SOURCED=1

: "${MSL_CGROUP_ROOT:=/sys/fs/cgroup}"
: "${MSL_CGROUP_VERSION:=2}"
: "${MSL_KO:=/payload/module/memcg_softlimit.ko}"
: "${MSL_MODULE:=memcg_softlimit}"
: "${MSL_SCRATCH:=/var/tmp/msl}"
: "${MSL_TRACEFS:=/sys/kernel/tracing}"
: "${MSL_TEST:=$(basename "${0%.sh}")}"
: "${MSL_RESULTS:=/dev/stdout}"
: "${MSL_LONG:=0}"

# ---------------------------------------------------------------------------
# Verdicts and notes
# ---------------------------------------------------------------------------

# note TEXT...: an INFO line for the report (verdict channel), also on stdout.
note() {
	local msg="$*"
	msg=${msg//$'\n'/ }
	echo "note: $msg"
	printf 'INFO %s %s\n' "$MSL_TEST" "$msg" >>"$MSL_RESULTS" 2>/dev/null || true
}

# json_doc LABEL FILE: the tool's JSON documents in FILE (one or more) to
# the host, one line each, where tests/run validates them against
# docs/memcg-softlimit.schema.json (result json/<test>/<label>).
json_doc() {
	[ -s "$2" ] || fail "json_doc $1: $2 is empty"
	printf 'JSON %s %s %s\n' "$MSL_TEST" "$1" "$(tr '\n' ' ' <"$2")" >>"$MSL_RESULTS" 2>/dev/null || true
}

# prom_doc LABEL FILE: a metrics file the tool wrote, to the host, where
# tests/run has promtool check it and, for a test's "up" and "down" files,
# Debian's node_exporter serve them to Debian's Prometheus evaluating the
# shipped rules (tests/prom/guest.sh; results prom/<test>/<label>/...).
prom_doc() {
	[ -s "$2" ] || fail "prom_doc $1: $2 is empty"
	printf 'PROM %s %s %s\n' "$MSL_TEST" "$1" "$(base64 -w 0 <"$2")" >>"$MSL_RESULTS" 2>/dev/null || true
}

# fail MSG: fail the test now (exit 1) with MSG as the reason.
# Careful: inside $(...) or a pipeline, exit only leaves that subshell.
fail() {
	local msg="${*:-failed}"
	msg=${msg//$'\n'/ }
	echo "FAIL: $msg" >&2
	[ -n "${MSL_REASON_FILE:-}" ] && printf '%s\n' "$msg" >"$MSL_REASON_FILE"
	exit 1
}

# skip REASON: the test does not apply here (exit 77, reported as SKIP).
skip() {
	local msg="${*:-skipped}"
	msg=${msg//$'\n'/ }
	echo "SKIP $msg"
	[ -n "${MSL_REASON_FILE:-}" ] && printf '%s\n' "$msg" >"$MSL_REASON_FILE"
	exit 77
}

_num() { [[ $1 =~ ^-?[0-9]+$ ]] || fail "not an integer: '$1'${2:+ ($2)}"; }

# assert_eq ACTUAL EXPECTED [DESC]   (string comparison)
assert_eq() {
	[ "$1" = "$2" ] || fail "${3:-assert_eq}: got '$1', expected '$2'"
	echo "ok: ${3:-assert_eq} ('$1' = '$2')"
}
# assert_ne ACTUAL UNEXPECTED [DESC]
assert_ne() {
	[ "$1" != "$2" ] || fail "${3:-assert_ne}: got '$1', expected anything else"
	echo "ok: ${3:-assert_ne} ('$1' != '$2')"
}
# assert_ge A B [DESC]   integer A >= B
assert_ge() {
	_num "$1" "${3:-}"; _num "$2" "${3:-}"
	[ "$1" -ge "$2" ] || fail "${3:-assert_ge}: $1 < $2 (expected >= $2)"
	echo "ok: ${3:-assert_ge} ($1 >= $2)"
}
# assert_le A B [DESC]   integer A <= B
assert_le() {
	_num "$1" "${3:-}"; _num "$2" "${3:-}"
	[ "$1" -le "$2" ] || fail "${3:-assert_le}: $1 > $2 (expected <= $2)"
	echo "ok: ${3:-assert_le} ($1 <= $2)"
}
# assert_gt A B [DESC]   integer A > B
assert_gt() {
	_num "$1" "${3:-}"; _num "$2" "${3:-}"
	[ "$1" -gt "$2" ] || fail "${3:-assert_gt}: $1 <= $2 (expected > $2)"
	echo "ok: ${3:-assert_gt} ($1 > $2)"
}
# assert_lt A B [DESC]   integer A < B
assert_lt() {
	_num "$1" "${3:-}"; _num "$2" "${3:-}"
	[ "$1" -lt "$2" ] || fail "${3:-assert_lt}: $1 >= $2 (expected < $2)"
	echo "ok: ${3:-assert_lt} ($1 < $2)"
}
# assert_true DESC CMD...   CMD must exit 0
assert_true() {
	local desc=$1
	shift
	"$@" || fail "$desc (command failed with status $?: $*)"
	echo "ok: $desc"
}
# assert_false DESC CMD...  CMD must exit non-zero
assert_false() {
	local desc=$1
	shift
	if "$@"; then fail "$desc (command unexpectedly succeeded: $*)"; fi
	echo "ok: $desc"
}

# wait_until SECONDS CMD...: poll CMD every 0.2 s until it succeeds;
# returns 1 on timeout (does not fail the test by itself).
wait_until() {
	local deadline=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -lt $deadline ] || return 1
		sleep 0.2
	done
}
# wait_started PID CMD...: until CMD succeeds while process PID runs;
# status 1, with WAIT_WHY set, once PID has exited without it or after
# 300 s.  A process that is starting is waited for as long as it lives,
# not for a guess of how long it takes: a single-threaded boot at nice 10
# beside the others gets a twentieth of a host CPU at times (t-53's top
# was still starting after 20 s in a full run).
wait_started() {
	local pid=$1 deadline=$((SECONDS + 300))
	shift
	until "$@"; do
		if ! kill -0 "$pid" 2>/dev/null; then
			"$@" && return 0
			WAIT_WHY="it exited first"
			return 1
		fi
		if [ $SECONDS -ge $deadline ]; then
			WAIT_WHY="not in 300 s"
			return 1
		fi
		sleep 0.2
	done
}

# ---------------------------------------------------------------------------
# The module
# ---------------------------------------------------------------------------

msl_loaded() { [ -d "/sys/module/$MSL_MODULE" ]; }

# msl_load [PARAM=VALUE...]: insmod $MSL_KO; fails the test (with the tail of
# dmesg) if insmod fails.
msl_load() {
	[ -f "$MSL_KO" ] || fail "module not found: $MSL_KO"
	local out
	if ! out=$(insmod "$MSL_KO" "$@" 2>&1); then
		echo "insmod $MSL_KO $*: $out" >&2
		echo "--- dmesg tail ---" >&2
		dmesg | tail -n 25 >&2
		fail "insmod $(basename "$MSL_KO") $* failed: $out; dmesg: $(dmesg | tail -n 3 | tr '\n' ' ')"
	fi
	msl_loaded || fail "insmod succeeded but /sys/module/$MSL_MODULE is missing"
	echo "loaded $MSL_MODULE $*"
}

# msl_unload: rmmod the module; fails the test if that fails, saying how
# (rmmod's status: 128 + N when signal N killed it, as an oops in the
# module's exit would) and with the kernel's last words.
msl_unload() {
	local out rc=0
	msl_loaded || { echo "msl_unload: $MSL_MODULE not loaded"; return 0; }
	out=$(rmmod "$MSL_MODULE" 2>&1) || rc=$?
	if [ "$rc" != 0 ]; then
		dmesg | tail -n 25 >&2
		fail "rmmod $MSL_MODULE failed (status $rc${out:+: $out}); module $(cat "/sys/module/$MSL_MODULE/initstate" 2>/dev/null || echo gone), refcnt $(cat "/sys/module/$MSL_MODULE/refcnt" 2>/dev/null || echo -); dmesg: $(dmesg | tail -n 4 | tr '\n' ' ')"
	fi
	echo "unloaded $MSL_MODULE"
}

# msl_param NAME: print /sys/module/memcg_softlimit/parameters/NAME
msl_param() { cat "/sys/module/$MSL_MODULE/parameters/$1"; }

# ---------------------------------------------------------------------------
# Cgroups.  A CGROUP argument is a path relative to $MSL_CGROUP_ROOT
# ("P", "a/b") or an absolute path below it.
# ---------------------------------------------------------------------------

cg_path() {
	case $1 in
	/*) echo "$1" ;;
	*) echo "$MSL_CGROUP_ROOT/$1" ;;
	esac
}

# cg_create PATH: mkdir -p the cgroup; on v2 also enables +memory in the
# subtree_control of each ancestor below the root (so nested cgroups get
# the memory controller; an ancestor that has tasks of its own cannot).
cg_create() {
	local p rel d part
	p=$(cg_path "$1")
	rel=${p#"$MSL_CGROUP_ROOT"}
	rel=${rel#/}
	if [ "$MSL_CGROUP_VERSION" = 2 ]; then
		d=$MSL_CGROUP_ROOT
		local IFS=/
		for part in $rel; do
			if ! grep -qw memory "$d/cgroup.subtree_control" 2>/dev/null; then
				echo +memory >"$d/cgroup.subtree_control" ||
					fail "cannot enable +memory in $d/cgroup.subtree_control"
			fi
			d=$d/$part
			[ -d "$d" ] || mkdir "$d" || fail "mkdir $d failed"
		done
	else
		mkdir -p "$p" || fail "mkdir -p $p failed"
	fi
	[ -d "$p" ] || fail "cg_create $1: $p missing"
}

# cg_remove PATH: remove the cgroup and its descendants, moving their tasks
# to the root cgroup first (tasks that stay, e.g. zombies, are killed).
cg_remove() {
	local p d pid try
	p=$(cg_path "$1")
	[ -d "$p" ] || return 0
	[ "$p" != "$MSL_CGROUP_ROOT" ] || fail "cg_remove: refusing to remove the root cgroup"
	# deepest first
	while read -r d; do
		for try in 1 2 3 4 5 6 7 8 9 10; do
			while read -r pid; do
				[ -n "$pid" ] && echo "$pid" >"$MSL_CGROUP_ROOT/cgroup.procs" 2>/dev/null
			done <"$d/cgroup.procs"
			rmdir "$d" 2>/dev/null && break
			if [ $try -ge 5 ]; then
				while read -r pid; do
					[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
				done <"$d/cgroup.procs"
			fi
			sleep 0.2
		done
		[ ! -d "$d" ] || { echo "cg_remove: cannot remove $d" >&2; return 1; }
	done < <(find "$p" -depth -type d)
}

# cg_run PATH CMD...: run CMD inside the cgroup (in the foreground; add & to
# background it).  A subshell moves itself into the cgroup, then execs CMD.
cg_run() {
	local p
	p=$(cg_path "$1")
	shift
	[ -d "$p" ] || fail "cg_run: no cgroup $p"
	(
		echo "$BASHPID" >"$p/cgroup.procs" || { echo "cg_run: cannot join $p" >&2; exit 126; }
		exec "$@"
	)
}

# cg_pids PATH: the tasks in the cgroup (not its descendants)
cg_pids() { cat "$(cg_path "$1")/cgroup.procs"; }

# memstat CGROUP KEY: print KEY's value from CGROUP's memory.stat (empty
# and status 1 if absent).  v1 and v2 name keys differently (see below).
memstat() {
	local f
	f=$(cg_path "$1")/memory.stat
	[ -r "$f" ] || fail "memstat: $f not readable"
	awk -v k="$2" '$1 == k {print $2; found = 1} END {exit !found}' "$f"
}

# cg_file_bytes CGROUP: bytes of file (page cache) memory charged to the
# cgroup and its descendants: v2 `file`, v1 `total_cache`.
cg_file_bytes() {
	if [ "$MSL_CGROUP_VERSION" = 1 ]; then
		memstat "$1" total_cache
	else
		memstat "$1" file
	fi
}
# cg_file_mib CGROUP: the same in MiB (rounded down)
cg_file_mib() {
	local b
	b=$(cg_file_bytes "$1") || return 1
	echo $((b / 1048576))
}

# cg_usage_bytes CGROUP: memory.current (v2) / memory.usage_in_bytes (v1)
cg_usage_bytes() {
	local p
	p=$(cg_path "$1")
	if [ "$MSL_CGROUP_VERSION" = 1 ]; then cat "$p/memory.usage_in_bytes"; else cat "$p/memory.current"; fi
}

# cg_set CGROUP FILE VALUE: write VALUE to a cgroup control file, failing
# the test on error (e.g. cg_set P memory.low 150M).
cg_set() {
	local f
	f=$(cg_path "$1")/$2
	echo "$3" >"$f" || fail "cannot write '$3' to $f"
}

# set_soft_limit CGROUP MIB|max: the cgroup's soft limit, failing the test on
# error: on cgroup v1 memory.soft_limit_in_bytes (a huge value for "max",
# since v1's default max reads as unset), on v2 the module's
# /proc/memcg_softlimit/limits (the module must be loaded).
set_soft_limit() {
	local cg=$1 mib=$2
	if [ "$MSL_CGROUP_VERSION" = 1 ]; then
		[ "$mib" = max ] && mib=$((1 << 30))
		cg_set "$cg" memory.soft_limit_in_bytes "$((mib * 1048576))"
	else
		[ "$mib" = max ] || mib="${mib}M"
		echo "set /$cg $mib" >/proc/memcg_softlimit/limits ||
			fail "cannot set the soft limit of $cg to $mib"
	fi
}

# ---------------------------------------------------------------------------
# Page-cache workloads
# ---------------------------------------------------------------------------

drop_caches() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

# fill_pagecache CGROUP FILE MIB: write a MIB MiB file of real (non-sparse)
# data outside the cgroup, drop caches, then read it inside CGROUP so that
# its page cache is charged there.  A relative FILE is made in $MSL_SCRATCH.
fill_pagecache() {
	local cg=$1 file=$2 mib=$3 seed
	case $file in /*) ;; *) file=$MSL_SCRATCH/$file ;; esac
	mkdir -p "$(dirname "$file")"
	# A random 4 KiB line repeated: real blocks on disk, cheap to make.
	seed=$(head -c 3072 /dev/urandom | base64 -w 0)
	{ yes "$seed" || true; } | head -c "$((mib * 1048576))" >"$file" || fail "writing $file failed"
	drop_caches
	cg_run "$cg" dd if="$file" of=/dev/null bs=1M status=none ||
		fail "reading $file in $cg failed"
}

# shm_mount DIR MIB: a tmpfs of MIB MiB at DIR for the test's shmem,
# unmounted (its memory freed) when the test exits, passed or failed: the
# runner cleans up cgroups and scratch files, not mounts, and a tmpfs left
# behind holds its pages for the rest of the boot.
shm_mount() {
	mkdir -p "$1"
	mount -t tmpfs -o "size=${2}M" none "$1" || fail "mount tmpfs at $1"
	SHM_MOUNTS+=("$1")
	trap shm_unmount_all EXIT
}
SHM_MOUNTS=()
shm_unmount_all() {
	local d
	for d in "${SHM_MOUNTS[@]}"; do
		rm -rf "${d:?}"/* 2>/dev/null
		umount "$d" 2>/dev/null
	done
}

# tool RC ARGS...: run memcg-softlimit ($MSL_TOOL), expect exit status RC; OUT, ERR are its output
tool() {
	local want=$1
	shift
	OUT=$("$MSL_TOOL" "$@" 2>"$MSL_SCRATCH/tool.err")
	RC=$?
	ERR=$(cat "$MSL_SCRATCH/tool.err")
	[ "$RC" = "$want" ] || fail "memcg-softlimit $*: exit $RC, expected $want; stderr: $ERR; stdout: ${OUT:0:300}"
	echo "ok: memcg-softlimit $* -> $RC"
}

# shmem_write CGROUP FILE MIB: MIB MiB written into FILE (on a tmpfs) by a
# process in CGROUP, its shmem charged there; not zeros, which 6.12's swap
# keeps without writing them and zswap stores in nothing.  Its status is
# the writer's (an OOM kill is the caller's to judge).
shmem_write() {
	local seed
	seed=$(head -c 3072 /dev/urandom | base64 -w 0)
	cg_run "$1" sh -c "yes '$seed' | head -c $(($3 << 20)) >'$2'"
}

# fill_pagecaches CGROUP FILE MIB [CGROUP FILE MIB]...: fill_pagecache for
# each, with one drop_caches before the reads, so that no fill evicts
# another's page cache.
fill_pagecaches() {
	local -a args=("$@")
	local i cg file mib seed
	for ((i = 0; i < ${#args[@]}; i += 3)); do
		file=${args[i + 1]} mib=${args[i + 2]}
		case $file in /*) ;; *) file=$MSL_SCRATCH/$file ;; esac
		mkdir -p "$(dirname "$file")"
		seed=$(head -c 3072 /dev/urandom | base64 -w 0)
		{ yes "$seed" || true; } | head -c "$((mib * 1048576))" >"$file" || fail "writing $file failed"
	done
	drop_caches
	for ((i = 0; i < ${#args[@]}; i += 3)); do
		cg=${args[i]} file=${args[i + 1]}
		case $file in /*) ;; *) file=$MSL_SCRATCH/$file ;; esac
		cg_run "$cg" dd if="$file" of=/dev/null bs=1M status=none ||
			fail "reading $file in $cg failed"
	done
}

# stream_sparse CGROUP MIB [FILE]: read a MIB MiB sparse file inside CGROUP:
# lots of page cache (global memory pressure) at almost no disk cost.  The
# file stays (its cache stays charged) until the test removes it or ends.
stream_sparse() {
	local cg=$1 mib=$2 file=${3:-$MSL_SCRATCH/sparse.$$.$RANDOM}
	case $file in /*) ;; *) file=$MSL_SCRATCH/$file ;; esac
	mkdir -p "$(dirname "$file")"
	rm -f "$file"
	truncate -s "${mib}M" "$file" || fail "truncate $file failed"
	cg_run "$cg" dd if="$file" of=/dev/null bs=1M status=none ||
		fail "streaming $file in $cg failed"
}

# ---------------------------------------------------------------------------
# Tracing (tracefs at $MSL_TRACEFS; the runner resets it after each test)
# ---------------------------------------------------------------------------

# trace_enable SYSTEM/EVENT (or SYSTEM to enable a whole system)
trace_enable() {
	local f=$MSL_TRACEFS/events/$1/enable
	[ -e "$f" ] || fail "no trace event $1 ($f)"
	echo 1 >"$f" || fail "cannot enable trace event $1"
	echo 1 >"$MSL_TRACEFS/tracing_on"
}
trace_disable() { echo 0 >"$MSL_TRACEFS/events/$1/enable"; }
trace_clear() { : >"$MSL_TRACEFS/trace"; }
trace_dump() { cat "$MSL_TRACEFS/trace"; }
# trace_count PATTERN: lines of the trace buffer matching an ERE
trace_count() { grep -cE -- "$1" "$MSL_TRACEFS/trace" || true; }

# ---------------------------------------------------------------------------
# Misc
# ---------------------------------------------------------------------------

# msl_swap_on: mkswap + swapon the host's swap disk (MSL_GUEST_SWAP); skips
# the test when there is none.  The runner swaps it off after each test.
msl_swap_on() {
	if [ -z "${MSL_SWAP_DEV:-}" ] || [ ! -b "$MSL_SWAP_DEV" ]; then
		skip "no swap disk (set MSL_GUEST_SWAP=1 on the host)"
	fi
	mkswap -f "$MSL_SWAP_DEV" >/dev/null || fail "mkswap $MSL_SWAP_DEV failed"
	swapon "$MSL_SWAP_DEV" || fail "swapon $MSL_SWAP_DEV failed"
}

# swap_file_on MIB: a swap file of MIB MiB on the scratch disk, for tests
# of make check that need swap (the host's swap disk is bench's); the
# runner swaps it off and empties $MSL_SCRATCH after each test.
swap_file_on() {
	local f=$MSL_SCRATCH/swapfile
	dd if=/dev/zero of="$f" bs=1M count="$1" status=none || fail "writing $f failed"
	chmod 600 "$f"
	mkswap "$f" >/dev/null || fail "mkswap $f failed"
	swapon "$f" || fail "swapon $f failed"
}

# is_long: true for the long variants (MSL_LONG=1 on the host)
is_long() { [ "${MSL_LONG:-0}" = 1 ]; }

# mem_free_mib: MemAvailable in MiB
mem_free_mib() { awk '/^MemAvailable:/ {print int($2 / 1024)}' /proc/meminfo; }

# reclaim_quiet: reclaim has stopped (no page scanned or stolen for 2 s), so
# that a snapshot taken now races with no decision: a decision counts
# before its event is emitted, and a snapshot between the two would hold
# a decision whose event falls after it.
reclaim_quiet() {
	local a b
	a=$(grep -E '^pgscan|^pgsteal' /proc/vmstat)
	sleep 2
	b=$(grep -E '^pgscan|^pgsteal' /proc/vmstat)
	[ "$a" = "$b" ]
}

# root_pressure MIB: global reclaim of about MIB: proactive reclaim of the
# root on cgroup v2, a 512 MiB stream from cgroup S on v1 (no
# memory.reclaim there).
root_pressure() {
	if [ "$MSL_CGROUP_VERSION" = 2 ]; then
		echo "$1M" >"$MSL_CGROUP_ROOT/memory.reclaim" 2>/dev/null
	else
		stream_sparse S 512
	fi
}

# snapshot_totals: "nr_tracked untracked missed dying pooled" from one
# snapshot
snapshot_totals() {
	local tf=$MSL_TRACEFS
	trace_clear
	echo 1 >"$tf/events/memcg_softlimit/snapshot_done/enable"
	echo 1 >"$tf/tracing_on"
	echo 1 >/proc/memcg_softlimit/snapshot || { echo "0 0 0 0 0"; return; }
	echo 0 >"$tf/events/memcg_softlimit/snapshot_done/enable"
	sed -nE 's/.*snapshot_done: seq=[0-9]+ nr_tracked=([0-9]+) untracked=([0-9]+) dying=([0-9]+) missed=([0-9]+)( pooled=([0-9]+))?.*/\1 \2 \4 \3 \6/p' "$tf/trace" | tail -n 1
}

# decided ID ERE: the live top-level trace buffer holds a decision event
# about cgroup ID whose later fields match ERE, e.g.
# 'effective_priority=12 kind=(kswapd|direct) verdict=skip reason=under'.
decided() { grep -qE "decision: cgroup_id=$1 .*$2" "$MSL_TRACEFS/trace"; }

# GATED: the fields of a decision of global reclaim that the default
# (progress) gate takes at any priority, for decided(); FIRST_PASS: the
# same at effective priority 12, what the priority gate at 12 decides.
GATED='kind=(kswapd|direct)'
FIRST_PASS='effective_priority=12 kind=(kswapd|direct)'

# wait_reclaim_quiet: reclaim_quiet within 120 s, or fail
wait_reclaim_quiet() {
	wait_until 120 reclaim_quiet || fail "reclaim did not stop within 120 s"
}
