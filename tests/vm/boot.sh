#!/usr/bin/env bash
# tests/vm/boot.sh: boot one matrix configuration under QEMU (TCG).
#
#   tests/vm/boot.sh KVER CONFIG PAYLOAD_DIR [EXTRA_KERNEL_ARGS...]
#   (or the env KVER, CONFIG, PAYLOAD_DIR)
#
# PAYLOAD_DIR becomes a small read-only ext4 disk (/dev/vdb, mounted at
# /payload by the guest's /sbin/msl-init, which execs
# /payload/guest/init.sh).  The guest's console (ttyS0) is kept in
# $MSL_LOG_DIR/<CONFIG>.console.log; its second serial port (ttyS1) is the
# verdict channel, written to $MSL_LOG_DIR/<CONFIG>.results.txt.
#
# Exit status: qemu's (0 after the guest powered itself off), 124 if the
# outer timeout killed a hung guest.  Parsing the results is the caller's job
# (tests/vm/lib-host.sh).
#
# Environment:
#   MSL_ROOTFS_DIR    cache entry from setup.sh (default: run setup.sh for
#                     CONFIG)
#   MSL_ROOTFS_DIR_13 the Debian 13 one, booted when MSL_ROOTFS_DIR does
#                     not have KVER (Debian 13's kernels)
#   MSL_LOG_DIR       default <repo>/build/vm-logs
#   MSL_GUEST_MEM     guest memory (default 512M)
#   MSL_GUEST_CPUS    guest vCPUs (default 2)
#   MSL_QEMU_CPU      the guest's CPU model (default max,-erms,-fsrm; see
#                     below)
#   MSL_QEMU_ICOUNT   if set (a shift, e.g. 0), QEMU counts instructions
#                     (-icount shift=N,sleep=off, single-threaded TCG): the
#                     guest's clock then advances by the instructions its
#                     vCPUs ran, not by the host's time, so that what it
#                     times is instructions (make bench's overhead part)
#   MSL_TCG_THREAD    multi (default: a host thread per vCPU) or single (the
#                     vCPUs take turns on one thread; see README.md)
#   MSL_LOG_NAME      base name of the log files (default: CONFIG)
#   MSL_BOOT_TIMEOUT  seconds before a hung guest is killed (default 1500)
#   MSL_QEMU_NICE     nice value for qemu (default 0; tests/run runs a
#                     single-threaded guest at 10 beside a multi-threaded
#                     one: tests/vm/schedule.sh)
#   MSL_GUEST_SWAP    if set, a blank 512M disk /dev/vdc for swap
#                     (a size like 1G may be given instead of 1)
#   MSL_GUEST_DATA    if set (a size like 4G), a blank data disk with the
#                     serial msl-data (the app bench finds it in
#                     /sys/block/vd*/serial), after the swap disk
#   MSL_GUEST_DATA_THROTTLE  "BPS IOPS": QEMU's throttling of the data disk
#                     (throttling.bps-total, throttling.iops-total; default
#                     none)
#   MSL_LIVE          what to echo while the guest runs: results (default:
#                     the verdict channel), info (INFO text only, for the
#                     demo), console (the whole console), none
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)

KVER=${1:-${KVER:-}}
CONFIG=${2:-${CONFIG:-}}
PAYLOAD_DIR=${3:-${PAYLOAD_DIR:-}}
if [ $# -gt 3 ]; then shift 3; else shift $#; fi
EXTRA_ARGS=("$@")

die() { printf 'boot.sh: ERROR: %s\n' "$*" >&2; exit 2; }
if [ -z "$KVER" ] || [ -z "$CONFIG" ] || [ -z "$PAYLOAD_DIR" ]; then
	die "usage: boot.sh KVER CONFIG PAYLOAD_DIR [kernel args...]"
fi
[ -r "$PAYLOAD_DIR/guest/init.sh" ] || die "$PAYLOAD_DIR/guest/init.sh missing"

if [ -z "${MSL_ROOTFS_DIR:-}" ]; then
	while IFS='=' read -r k v; do
		case $k in MSL_ROOTFS_DIR | MSL_ROOTFS_DIR_13) printf -v "$k" '%s' "$v" ;; esac
	done < <("$HERE/setup.sh" "$CONFIG")
fi
if [ -n "${MSL_ROOTFS_DIR_13:-}" ] && ! grep -qxF "$KVER" "$MSL_ROOTFS_DIR/kernels" 2>/dev/null &&
	grep -qxF "$KVER" "$MSL_ROOTFS_DIR_13/kernels" 2>/dev/null; then
	MSL_ROOTFS_DIR=$MSL_ROOTFS_DIR_13
fi
ROOTFS=$MSL_ROOTFS_DIR/rootfs.img
KERNEL=$MSL_ROOTFS_DIR/vmlinuz-$KVER
INITRD=$MSL_ROOTFS_DIR/initrd.img-$KVER
for f in "$ROOTFS" "$KERNEL" "$INITRD"; do
	[ -s "$f" ] || die "$f missing (run tests/vm/setup.sh; is $KVER one of $(tr '\n' ' ' <"$MSL_ROOTFS_DIR/kernels" 2>/dev/null)?)"
done

LOG_DIR=${MSL_LOG_DIR:-$REPO/build/vm-logs}
mkdir -p "$LOG_DIR"
# A config booted twice (tests/run: once per TCG threading mode) keeps
# each boot's logs apart.
LOG_NAME=${MSL_LOG_NAME:-$CONFIG}
CONSOLE_LOG=$LOG_DIR/$LOG_NAME.console.log
RESULTS=$LOG_DIR/$LOG_NAME.results.txt
: >"$CONSOLE_LOG"
: >"$RESULTS"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/msl-boot.XXXXXX")
QPID=
FPID=
# shellcheck disable=SC2317 # invoked by the trap
cleanup() {
	local rc=$?
	if [ -n "$QPID" ] && kill -0 "$QPID" 2>/dev/null; then
		# timeout(1) forwards the signal to qemu
		kill -TERM "$QPID" 2>/dev/null || true
		sleep 1
		kill -KILL "$QPID" 2>/dev/null || true
		pkill -KILL -P "$QPID" 2>/dev/null || true
	fi
	if [ -n "$FPID" ]; then
		kill "$FPID" 2>/dev/null || true
		wait "$FPID" 2>/dev/null || true
	fi
	rm -rf "$WORK"
	return "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Payload disk: ext4 of the payload dir, sized to fit.
mib=$(du -sm "$PAYLOAD_DIR" | cut -f1)
size=$((mib * 2 + 32))
[ $size -ge 64 ] || size=64
truncate -s "${size}M" "$WORK/payload.img"
mke2fs -q -t ext4 -O ^has_journal -L mslpayload -d "$PAYLOAD_DIR" -F "$WORK/payload.img" >&2 ||
	die "mke2fs of the payload failed"

DRIVES=(
	-drive "file=$ROOTFS,if=virtio,format=raw,snapshot=on"
	-drive "file=$WORK/payload.img,if=virtio,format=raw,readonly=on"
)
if [ -n "${MSL_GUEST_SWAP:-}" ]; then
	swap_size=$MSL_GUEST_SWAP
	[[ $swap_size =~ ^[0-9]+[KMGkmg]$ ]] || swap_size=512M
	truncate -s "$swap_size" "$WORK/swap.img"
	DRIVES+=(-drive "file=$WORK/swap.img,if=virtio,format=raw")
	EXTRA_ARGS+=(msl.swap=/dev/vdc)
fi
if [ -n "${MSL_GUEST_DATA:-}" ]; then
	[[ $MSL_GUEST_DATA =~ ^[0-9]+[KMGkmg]$ ]] || die "MSL_GUEST_DATA must be a size like 4G"
	truncate -s "$MSL_GUEST_DATA" "$WORK/data.img"
	data_opts=
	if [ -n "${MSL_GUEST_DATA_THROTTLE:-}" ]; then
		read -r bps iops <<<"$MSL_GUEST_DATA_THROTTLE"
		[[ $bps =~ ^[0-9]+$ && $iops =~ ^[0-9]+$ ]] || die "MSL_GUEST_DATA_THROTTLE must be \"BPS IOPS\""
		data_opts=",throttling.bps-total=$bps,throttling.iops-total=$iops"
	fi
	# -drive has no serial= any more, hence the device of its own; in the
	# last PCI slot so that the guest finds it after the if=virtio disks
	# (vda, the root, stays vda)
	DRIVES+=(-drive "file=$WORK/data.img,if=none,id=msldata,format=raw$data_opts"
		-device "virtio-blk-pci,drive=msldata,serial=msl-data,addr=0x1f")
fi

# TCG vCPUs are host threads: on a loaded host they stop for tens of
# seconds, which the guest's lockup and RCU stall detectors (20 s) report as
# lockups of their own.  Real ones still show, past 120 s.
CMDLINE="root=/dev/vda rw console=ttyS0 panic=-1 panic_on_warn=1 init=/sbin/msl-init msl.config=$CONFIG"
CMDLINE+=" watchdog_thresh=60 rcupdate.rcu_cpu_stall_timeout=120"
[ ${#EXTRA_ARGS[@]} -eq 0 ] || CMDLINE+=" ${EXTRA_ARGS[*]}"

TIMEOUT=${MSL_BOOT_TIMEOUT:-1500}
# The guest's CPU is TCG's "max" without ERMS and FSRM: with them the
# kernel clears and copies pages with byte-wise "rep stosb"/"rep movsb",
# which QEMU 7.2's TCG runs an iteration at a time; without them it takes
# the quadword string ops (REP_GOOD).  Streaming 512 MiB of page cache
# through a cgroup took 2.4 s instead of 4.7 s (6.12, a thread per vCPU),
# and the tests spend most of their time doing that.
ICOUNT=()
if [ -n "${MSL_QEMU_ICOUNT:-}" ]; then
	[[ $MSL_QEMU_ICOUNT =~ ^[0-9]+$ ]] || die "MSL_QEMU_ICOUNT must be a shift (0..10), not '$MSL_QEMU_ICOUNT'"
	ICOUNT=(-icount "shift=$MSL_QEMU_ICOUNT,sleep=off")
	MSL_TCG_THREAD=single
fi
QEMU=(
	qemu-system-x86_64 -accel "tcg,thread=${MSL_TCG_THREAD:-multi}" "${ICOUNT[@]}" -cpu "${MSL_QEMU_CPU:-max,-erms,-fsrm}"
	-m "${MSL_GUEST_MEM:-512M}" -smp "${MSL_GUEST_CPUS:-2}"
	-nographic -nodefaults -no-reboot -monitor none
	-serial "file:$CONSOLE_LOG" -serial "file:$RESULTS"
	-device virtio-rng-pci
	-kernel "$KERNEL" -initrd "$INITRD"
	"${DRIVES[@]}"
	-append "$CMDLINE"
)
printf '%s\n' "${QEMU[*]}" >"$LOG_DIR/$LOG_NAME.qemu-cmdline"

NICE=${MSL_QEMU_NICE:-0}
[[ $NICE =~ ^-?[0-9]+$ ]] || die "MSL_QEMU_NICE must be a number, not '$NICE'"
nice_note=
[ "$NICE" = 0 ] || nice_note=", nice $NICE"
echo "[$LOG_NAME] booting $KVER (timeout ${TIMEOUT}s$nice_note; console: ${CONSOLE_LOG#"$REPO"/})" >&2
start=$SECONDS
# -k: qemu ignoring SIGTERM is killed 10 s later.
nice -n "$NICE" timeout -k 10 "$TIMEOUT" "${QEMU[@]}" </dev/null >"$LOG_DIR/$LOG_NAME.qemu.log" 2>&1 &
QPID=$!

# Echo progress while the guest runs; the follower ends with qemu.
follow() { tail -n +1 -s 0.5 --pid="$QPID" -F "$1" 2>/dev/null | tr -d '\r'; }
case ${MSL_LIVE:-results} in
results) follow "$RESULTS" | grep --line-buffered -vE '^(INFO [^ ]+ (out\||dmesg\||duration_s=|sample\|)|JSON )' |
	sed -u "s/^/[$LOG_NAME] /" >&2 & FPID=$! ;;
info) follow "$RESULTS" | sed -un 's/^INFO [^ ]* //p; s/^ERROR /ERROR: /p' & FPID=$! ;;
console) follow "$CONSOLE_LOG" >&2 & FPID=$! ;;
none) ;;
*) die "MSL_LIVE must be results, info, console or none" ;;
esac

rc=0
wait "$QPID" || rc=$?
QPID=
if [ -n "$FPID" ]; then
	wait "$FPID" 2>/dev/null || true
	FPID=
fi
elapsed=$((SECONDS - start))
echo "$elapsed" >"$LOG_DIR/$LOG_NAME.boot-seconds"
case $rc in
0) echo "[$LOG_NAME] guest powered off after ${elapsed}s" >&2 ;;
124 | 137) echo "[$LOG_NAME] guest killed after ${elapsed}s: no poweroff within MSL_BOOT_TIMEOUT=${TIMEOUT}s (hung?)" >&2 ;;
*)
	echo "[$LOG_NAME] qemu exited with status $rc after ${elapsed}s:" >&2
	tail -n 20 "$LOG_DIR/$LOG_NAME.qemu.log" >&2 || true
	;;
esac
exit $rc
