#!/bin/bash
# tests/guest/init.sh: the guest side of the harness, for every boot: the
# test rootfs (PID 1, exec'd by /sbin/msl-init from the payload disk) and
# the package image (run by msl-pkg-runner.service once systemd's boot is
# done).  It runs the tests listed in /payload/tests.list (written by the
# host: tests/vm/lib-host.sh's expected_tests) for the row described by
# /payload/config.env, and powers the machine off.
#
# As PID 1 it sets the machine up for the row (cgroup v1 or v2, lru_gen)
# and restores it after each test (below, run_test).  Under systemd the
# machine is as the boot left it, which is what those tests look at: no
# setup, no cleanup.
#
# Verdict channel: /dev/ttyS1, one line each:
#   BEGIN <test>
#   RESULT PASS|FAIL|SKIP <test> [reason]
#   INFO <test> <text>          (notes; <test> is "init" for the runner's own)
#   DONE                        (all tests ran; the guest powers off next)
# (/sbin/msl-init may write "ERROR msl-init: <text>" instead.)
# The console (ttyS0, /dev/console) gets the tests' output and the kernel log.
#
# Kernel command line: msl.config=<config> [msl.long=1] [msl.demo=1]
# [msl.swap=/dev/vdc]
#
# This script must never exit without powering off: returning from PID 1
# panics the kernel.  Hence no `set -e` here.
set -u -o pipefail
export PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 HOME=/root TERM=${TERM:-linux}
umask 022

GUEST_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export MSL_PAYLOAD=${GUEST_DIR%/guest}
export MSL_LIB=$GUEST_DIR/lib.sh
# The tests: tests/cases/, the payload's cases/ (the runner and its
# library, tests/guest/, are the payload's guest/).
CASES_DIR=$MSL_PAYLOAD/cases
export MSL_RESULTS=/dev/ttyS1
[ -c "$MSL_RESULTS" ] || MSL_RESULTS=/dev/console
PID1=0
[ $$ != 1 ] || PID1=1
RUN=/run/msl
mkdir -p "$RUN"

# Kernel messages that fail the test during which they appear.
KERNEL_BAD='BUG:|WARNING:|Oops|general protection|RCU stall|rcu_sched detected|scheduling while atomic|lockdep|possible circular|list_add corruption|KASAN|kmemleak'

emit() { printf '%s\n' "$*" >>"$MSL_RESULTS" 2>/dev/null || printf '%s\n' "$*" >/dev/console; }
info() { emit "INFO init $*"; echo "msl: $*"; }

power_off() {
	trap - EXIT
	sync
	[ "$PID1" = 1 ] || systemctl poweroff --force --force 2>/dev/null
	poweroff -f 2>/dev/null
	busybox poweroff -f 2>/dev/null
	echo o >/proc/sysrq-trigger 2>/dev/null
	while :; do sleep 10; done
}
trap power_off EXIT

# --------------------------------------------------------------------------
# Configuration: the row (config.env), the command line's options
# --------------------------------------------------------------------------
MSL_CONFIG='' MSL_KSERIES=unknown MSL_FLAVOUR='' MSL_DEBIAN='' MSL_CGROUP_VERSION=2 MSL_LRU=classic
# shellcheck disable=SC1091 # written by the host (make_payload)
[ -r "$MSL_PAYLOAD/config.env" ] && . "$MSL_PAYLOAD/config.env"
LONG=0 DEMO=0 SWAP=''
# shellcheck disable=SC2013 # words, not lines
for w in $(cat /proc/cmdline); do
	case $w in
	msl.long=*) LONG=${w#*=} ;;
	msl.demo=*) DEMO=${w#*=} ;;
	msl.swap=*) SWAP=${w#*=} ;;
	esac
done
CONFIG=$MSL_CONFIG CGV=$MSL_CGROUP_VERSION LRU=$MSL_LRU

stty -F "$MSL_RESULTS" raw -echo 115200 2>/dev/null
info "boot: kernel $(uname -r), config '${CONFIG:-?}', PID 1 $(cat /proc/1/comm), uptime $(cut -d' ' -f1 /proc/uptime)s, $(awk '/MemTotal/ {print int($2/1024)}' /proc/meminfo) MiB, $(nproc) cpus"
[ -n "$CONFIG" ] || info "ERROR: no $MSL_PAYLOAD/config.env"

LRU_GEN_FILE=/sys/kernel/mm/lru_gen/enabled
lru_gen_apply() {
	[ -e "$LRU_GEN_FILE" ] || return 0
	if [ "$LRU" = mglru ]; then echo y >"$LRU_GEN_FILE"; else echo n >"$LRU_GEN_FILE"; fi
}
# Mounted as systemd mounts them, sources included ("tmpfs", "cgroup",
# "cgroup2"): tools such as bpftrace's cgroup_path() find the hierarchies
# in /proc/mounts by their source.
setup_cgroups() {
	if [ "$CGV" = 1 ]; then
		mount -t tmpfs -o mode=0755 tmpfs /sys/fs/cgroup || return 1
		mkdir -p /sys/fs/cgroup/memory
		mount -t cgroup -o memory cgroup /sys/fs/cgroup/memory || return 1
		CGROOT=/sys/fs/cgroup/memory
	else
		mount -t cgroup2 cgroup2 /sys/fs/cgroup || return 1
		echo +memory >/sys/fs/cgroup/cgroup.subtree_control || return 1
		CGROOT=/sys/fs/cgroup
	fi
}
CGROOT=
if [ "$PID1" = 1 ]; then
	setup_cgroups || info "ERROR: cgroup v$CGV setup failed"
	lru_gen_apply || info "ERROR: cannot write $LRU_GEN_FILE"
	mountpoint -q /sys/kernel/tracing || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	mountpoint -q /sys/kernel/debug || mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
else
	# systemd mounted cgroup2 and left lru_gen at the kernel's default:
	# say so if the row expects otherwise.
	CGROOT=/sys/fs/cgroup
	[ "$(stat -f -c %T /sys/fs/cgroup 2>/dev/null)" = cgroup2fs ] || CGV=1
	case $(cat "$LRU_GEN_FILE" 2>/dev/null || echo none) in none | 0x0000) LRU=classic ;; *) LRU=mglru ;; esac
	[ "$CGV/$LRU" = "$MSL_CGROUP_VERSION/$MSL_LRU" ] ||
		info "ERROR: the boot left cgroup v$CGV and the $LRU LRU, tests/matrix says v$MSL_CGROUP_VERSION and $MSL_LRU"
	mu=$(systemctl show -p ActiveEnterTimestampMonotonic --value multi-user.target 2>/dev/null)
	info "boot: $(systemctl --version | head -n 1), multi-user.target reached $(awk -v u="${mu:-0}" 'BEGIN {printf "%.1f", u / 1e6}') s after boot, system $(systemctl is-system-running 2>/dev/null)"
	failed=$(systemctl --failed --no-legend --plain 2>/dev/null | awk '{print $1}' | tr '\n' ' ')
	[ -z "$failed" ] || info "boot: failed units: $failed"
fi
LRU_GEN=none
[ -e "$LRU_GEN_FILE" ] && LRU_GEN=$(cat "$LRU_GEN_FILE")
TRACEFS=/sys/kernel/tracing
[ -e "$TRACEFS/trace" ] || TRACEFS=/sys/kernel/debug/tracing

SCRATCH=/var/tmp/msl
mkdir -p "$SCRATCH"

export MSL_CONFIG=$CONFIG MSL_KSERIES MSL_FLAVOUR MSL_DEBIAN MSL_CGROUP_VERSION=$CGV MSL_CGROUP_ROOT=$CGROOT
export MSL_LRU=$LRU MSL_LRU_GEN=$LRU_GEN MSL_LONG=$LONG MSL_SCRATCH=$SCRATCH MSL_TRACEFS=$TRACEFS
export MSL_MODULE=memcg_softlimit
MSL_KO=$MSL_PAYLOAD/module/memcg_softlimit.ko
[ "$PID1" = 1 ] || MSL_KO=''
MSL_TOOL=
[ "$PID1" = 1 ] && [ -x "$MSL_PAYLOAD/bin/memcg-softlimit" ] && MSL_TOOL=$MSL_PAYLOAD/bin/memcg-softlimit
MSL_SWAP_DEV=
[ -n "$SWAP" ] && [ -b "$SWAP" ] && MSL_SWAP_DEV=$SWAP
export MSL_KO MSL_TOOL MSL_SWAP_DEV MSL_PKG_EXPECT=$MSL_PAYLOAD/pkg/expect
[ "$PID1" = 1 ] && [ -d "$MSL_PAYLOAD/bin" ] && export PATH=$MSL_PAYLOAD/bin:$PATH

info "setup: cgroup v$CGV at ${CGROOT:-?}, lru=$LRU lru_gen=$LRU_GEN, long=$LONG, module=$([ -f "$MSL_KO" ] && echo present || echo none), tool=${MSL_TOOL:-none}, swap=${MSL_SWAP_DEV:-none}"

# --------------------------------------------------------------------------
# Between tests: restore a clean machine
# --------------------------------------------------------------------------

# Kill every process except PID 1 and kernel threads (children of kthreadd).
kill_strays() {
	local p pid k v ppid n=0
	for p in /proc/[0-9]*; do
		pid=${p#/proc/}
		[ "$pid" = 1 ] || [ "$pid" = 2 ] || [ "$pid" = "$BASHPID" ] && continue
		ppid=
		{
			while read -r k v; do
				if [ "$k" = PPid: ]; then ppid=$v; break; fi
			done <"$p/status"
		} 2>/dev/null
		if [ -z "$ppid" ] || [ "$ppid" = 2 ] || [ "$ppid" = 0 ]; then continue; fi
		kill -KILL "$pid" 2>/dev/null && n=$((n + 1))
	done
	[ $n -eq 0 ] || sleep 0.3
	echo $n
}

# Remove a cgroup and its descendants, deepest first, moving tasks out.
cgroup_rm() {
	local d pid _
	while read -r d; do
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			while read -r pid; do
				[ -n "$pid" ] && echo "$pid" >"$CGROOT/cgroup.procs"
			done <"$d/cgroup.procs" 2>/dev/null
			rmdir "$d" 2>/dev/null && break
			sleep 0.2
		done
		[ ! -d "$d" ] || return 1
	done < <(find "$1" -depth -type d 2>/dev/null)
}

reset_tracing() {
	[ -e "$TRACEFS/trace" ] || return 0
	echo 0 >"$TRACEFS/tracing_on"
	echo 0 >"$TRACEFS/events/enable"
	echo nop >"$TRACEFS/current_tracer"
	# record-cmd (on by default) hooks sched_switch and sched_wakeup while
	# any event is enabled, so every first enable and last disable of an
	# event (and the removal of an enabled module's events at rmmod)
	# live-patches __schedule and try_to_wake_up.  Under QEMU's TCG a vCPU
	# can still execute the int3 of such a patch after it is complete:
	# "Oops: int3" in __schedule, seen on 6.12 at rmmod.  Comms are not
	# needed by any test, so no hot kernel text is patched for tracing.
	echo 0 >"$TRACEFS/options/record-cmd"
	echo 0 >"$TRACEFS/options/record-tgid"
	: >"$TRACEFS/set_ftrace_filter" 2>/dev/null
	: >"$TRACEFS/set_event_pid" 2>/dev/null
	: >"$TRACEFS/kprobe_events" 2>/dev/null
	: >"$TRACEFS/uprobe_events" 2>/dev/null
	local i
	for i in "$TRACEFS"/instances/*/; do
		[ -d "$i" ] && rmdir "$i" 2>/dev/null
	done
	: >"$TRACEFS/trace"
	echo 1 >"$TRACEFS/tracing_on"
} 2>/dev/null

cgroups_list() { [ -n "$CGROOT" ] && find "$CGROOT" -mindepth 1 -maxdepth 1 -type d | sort; }

# --------------------------------------------------------------------------
# Running one test
# --------------------------------------------------------------------------

# hang_report PGID LOG: what a test about to run out of time is doing, in
# one line for its verdict (the only line CI shows): the last thing it
# said, each of its processes' state, kernel wait channel and, in
# reclaim or an allocation, the innermost frame of interest, then the
# machine's memory pressure.  A task looping in the page allocator looks
# runnable to a hung-task detector: its stack says where it is.
hang_report() {
	local pg=$1 log=$2 pid pgid stat wchan comm frame procs=
	while read -r pid pgid stat wchan comm; do
		[ "$pgid" = "$pg" ] || continue
		case $comm in bash | sleep | timeout | tail) continue ;; esac
		frame=$(grep -m 1 -oE '(__alloc_pages|shrink_[a-z_]+|try_to_free_pages|reclaim_throttle|folio_wait_[a-z_]+|synchronize_[a-z_]+|mutex_lock[a-z_]*|msl_[a-z_]+)' \
			"/proc/$pid/stack" 2>/dev/null)
		procs+=" $comm:$stat:$wchan${frame:+:$frame}"
		# The whole stack goes to the console (stderr).
		{ echo "msl: hang: $pid $comm $stat"; cat "/proc/$pid/stack"; } >&2 2>/dev/null
	done < <(ps -e -o pid=,pgid=,stat=,wchan:32=,comm= 2>/dev/null)
	printf 'last: %s; tasks:%s; %s\n' \
		"$(grep -E '^(note|ok):' "$log" | tail -n 1 | cut -c 1-100)" "${procs:- none}" \
		"$(awk '/^full/ {print "psi full " $2}' /proc/pressure/memory 2>/dev/null) $(awk '/^MemFree/ {print "free " int($2 / 1024) " MiB"}' /proc/meminfo)"
}

run_test() {
	local name=$1 to=$2 path=$CASES_DIR/$1.sh
	local log=$RUN/$name.log reason_file=$RUN/$name.reason
	local verdict reason rc tpid fpid hpid t0 t0s dt cg_before

	# bench/run's parts: bench/guest/, the payload's bench/
	[ -r "$path" ] || [ ! -r "$MSL_PAYLOAD/bench/$name.sh" ] || path=$MSL_PAYLOAD/bench/$name.sh
	emit "BEGIN $name"
	if [ ! -r "$path" ]; then
		emit "RESULT FAIL $name test file $name.sh missing from the payload"
		return
	fi
	[ "$PID1" = 1 ] && dmesg -c >/dev/null 2>&1
	cg_before=$(cgroups_list)
	rm -f "$reason_file"
	echo "===== msl: $name (timeout ${to}s) ====="
	t0=$EPOCHREALTIME t0s=$SECONDS
	# shellcheck disable=SC2016 # expanded by the inner bash
	# timeout(1) runs the test in its own process group and kills the whole
	# group when the time is up.
	MSL_TEST=$name MSL_REASON_FILE=$reason_file \
		timeout -k 10 "$to" bash -c 'set -u -o pipefail; . "$MSL_LIB"; . "$0"' "$path" \
		</dev/null >"$log" 2>&1 &
	tpid=$!
	tail -n +1 -s 0.2 --pid="$tpid" -F "$log" 2>/dev/null &
	fpid=$!
	rm -f "$RUN/$name.hang"
	# Ten seconds before timeout(1) kills it: where it is.  (Polled, so
	# that no sleep outlives the test.)
	{
		while kill -0 "$tpid" 2>/dev/null; do
			if [ $SECONDS -ge $((t0s + to - 10)) ]; then
				hang_report "$tpid" "$log" >"$RUN/$name.hang"
				break
			fi
			sleep 1
		done
	} &
	hpid=$!
	rc=0
	wait "$tpid" || rc=$?
	wait "$fpid" 2>/dev/null
	wait "$hpid" 2>/dev/null
	dt=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.1f", b - a}')
	echo "===== msl: $name exited with status $rc after ${dt}s ====="

	reason=
	[ -s "$reason_file" ] && reason=$(head -n 1 "$reason_file")
	case $rc in
	0) verdict=PASS reason= ;;
	77) verdict=SKIP ;;
	124 | 137)
		verdict=FAIL reason="timed out after ${to}s${reason:+ ($reason)}"
		[ -s "$RUN/$name.hang" ] && reason+=" ($(head -n 1 "$RUN/$name.hang"))"
		;;
	*) verdict=FAIL reason=${reason:-exit status $rc} ;;
	esac

	# Clean up after the test (as PID 1); problems found here fail it.
	[ "$PID1" = 1 ] && cleanup_after "$name" "$cg_before"
	if [ "$verdict" = FAIL ]; then
		tail -n 20 "$log" | while IFS= read -r l; do emit "INFO $name out| $l"; done
	fi
	emit "INFO $name duration_s=$dt"
	reason=${reason//$'\n'/ }
	emit "RESULT $verdict $name${reason:+ $reason}"
}

# cleanup_after NAME CGROUPS-BEFORE: the machine as it was before the test;
# what cannot be restored, or a kernel message of KERNEL_BAD, fails it
# (verdict, reason).
cleanup_after() {
	local name=$1 cg_before=$2 n d p problems=()
	n=$(kill_strays)
	[ "$n" = 0 ] || echo "msl: killed $n leftover processes"
	swapoff -a 2>/dev/null
	# The tests' own modules (tests/kmod), left loaded by a failed test,
	# would skew every test after it (an IPMODIFY holder, say).
	for p in "$MSL_PAYLOAD"/module/*.ko; do
		p=$(basename "$p" .ko)
		{ [ "$p" != "$MSL_MODULE" ] && [ -d "/sys/module/$p" ]; } || continue
		if rmmod "$p" 2>/dev/null; then
			emit "INFO $name the test left $p loaded; the runner unloaded it"
		else
			problems+=("test module $p left loaded and rmmod failed")
		fi
	done
	if [ -d "/sys/module/$MSL_MODULE" ]; then
		if rmmod "$MSL_MODULE" 2>"$RUN/rmmod.err"; then
			emit "INFO $name the test left $MSL_MODULE loaded; the runner unloaded it"
		else
			problems+=("$MSL_MODULE left loaded and rmmod failed: $(head -c 200 "$RUN/rmmod.err")")
		fi
	fi
	if lsmod | grep -qw "^$MSL_MODULE"; then
		problems+=("lsmod still lists $MSL_MODULE")
	fi
	if [ -n "$CGROOT" ]; then
		while read -r d; do
			[ -n "$d" ] || continue
			if cgroup_rm "$d"; then
				emit "INFO $name the runner removed the leftover cgroup ${d#"$CGROOT"/}"
			else
				problems+=("cannot remove leftover cgroup ${d#"$CGROOT"/}")
			fi
		done < <(comm -13 <(echo "$cg_before") <(cgroups_list))
	fi
	reset_tracing
	if [ -e "$LRU_GEN_FILE" ] && [ "$(cat "$LRU_GEN_FILE")" != "$LRU_GEN" ]; then
		lru_gen_apply 2>/dev/null
		emit "INFO $name the test changed lru_gen/enabled; the runner restored $LRU_GEN"
	fi
	rm -rf "${SCRATCH:?}"/* 2>/dev/null
	sync
	echo 3 >/proc/sys/vm/drop_caches

	dmesg -c >"$RUN/$name.dmesg" 2>/dev/null
	if grep -qE "$KERNEL_BAD" "$RUN/$name.dmesg"; then
		problems+=("kernel: $(grep -m1 -E "$KERNEL_BAD" "$RUN/$name.dmesg" | sed 's/^\[[ 0-9.]*\] //' | head -c 200)")
		grep -E -A3 "$KERNEL_BAD" "$RUN/$name.dmesg" | head -n 20 | while IFS= read -r l; do
			emit "INFO $name dmesg| $l"
		done
	fi

	if [ ${#problems[@]} -gt 0 ]; then
		verdict=FAIL
		for p in "${problems[@]}"; do
			reason="${reason:+$reason; }$p"
		done
	fi
}

# --------------------------------------------------------------------------
# The tests: /payload/tests.list, "<name> <timeout>" a line
# --------------------------------------------------------------------------
[ "$PID1" = 1 ] && reset_tracing
if [ "$DEMO" = 1 ]; then
	info "demo: running $GUEST_DIR/demo.sh"
	emit "BEGIN demo"
	# shellcheck disable=SC2016 # expanded by the inner bash
	MSL_TEST=demo MSL_REASON_FILE=$RUN/demo.reason \
		timeout -k 10 1200 bash -c 'set -u -o pipefail; . "$MSL_LIB"; . "$0"' "$GUEST_DIR/demo.sh" </dev/null 2>&1 |
		while IFS= read -r l; do
			echo "$l"
			emit "INFO demo $l"
		done
	rc=${PIPESTATUS[0]}
	if [ "$rc" = 0 ]; then emit "RESULT PASS demo"; else emit "RESULT FAIL demo exit status $rc"; fi
else
	mapfile -t TESTS < <(grep -v '^[[:space:]]*\(#\|$\)' "$MSL_PAYLOAD/tests.list" 2>/dev/null)
	info "running ${#TESTS[@]} tests"
	for t in "${TESTS[@]}"; do
		read -r name to <<<"$t"
		[ -n "$name" ] || continue
		run_test "$name" "${to:-300}"
	done
fi

info "done: uptime $(cut -d' ' -f1 /proc/uptime)s"
emit DONE
power_off
