#!/bin/bash
# tests/pkg/guest-runner.sh: runs the guest tests of the package image
# (configs pkg-6.1, pkg-6.12: tests/guest/t-4*-dkms-* with "# configs:
# pkg-*").  tests/pkg/lib.sh boots that image with systemd as PID 1 and
# systemd.unit=msl-pkg.target; msl-pkg-runner.service (baked into the image
# by tests/pkg/host.sh) mounts the payload disk at /payload and runs this,
# after multi-user.target, i.e. after the boot the tests are about.
#
# Same verdict protocol as tests/guest/init.sh, on /dev/ttyS1 (BEGIN,
# RESULT, INFO, DONE), same environment for the tests (lib.sh), but no
# cleanup between tests: they look at the state the boot left.  Powers the
# machine off at the end.
set -u -o pipefail
export PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 HOME=/root TERM=${TERM:-linux}
umask 022

export MSL_PAYLOAD=/payload
export MSL_GUEST_DIR=$MSL_PAYLOAD/guest
export MSL_LIB=$MSL_GUEST_DIR/lib.sh
export MSL_RESULTS=/dev/ttyS1
[ -c "$MSL_RESULTS" ] || MSL_RESULTS=/dev/console
stty -F "$MSL_RESULTS" raw -echo 115200 2>/dev/null
RUN=/run/msl-pkg
mkdir -p "$RUN"

emit() { printf '%s\n' "$*" >>"$MSL_RESULTS" 2>/dev/null || printf '%s\n' "$*" >/dev/console; }
info() { emit "INFO init $*"; echo "msl: $*"; }
power_off() {
	sync
	systemctl poweroff --force --force 2>/dev/null
	poweroff -f 2>/dev/null
	echo o >/proc/sysrq-trigger 2>/dev/null
}
trap power_off EXIT

CONFIG=$(cat "$MSL_PAYLOAD/config" 2>/dev/null)
case $CONFIG in
pkg-6.1) KSERIES=6.1 ;;
pkg-6.12) KSERIES=6.12 ;;
*) KSERIES=unknown ;;
esac
LRU_GEN=none
[ -e /sys/kernel/mm/lru_gen/enabled ] && LRU_GEN=$(cat /sys/kernel/mm/lru_gen/enabled)
case $LRU_GEN in none | 0x0000) LRU=classic ;; *) LRU=mglru ;; esac
CGV=2
[ "$(stat -f -c %T /sys/fs/cgroup 2>/dev/null)" = cgroup2fs ] || CGV=1
mkdir -p /var/tmp/msl
export MSL_CONFIG=$CONFIG MSL_KSERIES=$KSERIES MSL_CGROUP_VERSION=$CGV MSL_CGROUP_ROOT=/sys/fs/cgroup
export MSL_LRU=$LRU MSL_LRU_GEN=$LRU_GEN MSL_LONG=0 MSL_SCRATCH=/var/tmp/msl MSL_TRACEFS=/sys/kernel/tracing
export MSL_MODULE=memcg_softlimit MSL_KO='' MSL_TOOL='' MSL_SWAP_DEV=''
export MSL_PKG_EXPECT=$MSL_PAYLOAD/pkg/expect

info "boot: kernel $(uname -r), config '$CONFIG', PID 1 $(cat /proc/1/comm), $(systemctl --version | head -n 1), uptime $(cut -d' ' -f1 /proc/uptime)s, system $(systemctl is-system-running 2>/dev/null)"
mu=$(systemctl show -p ActiveEnterTimestampMonotonic --value multi-user.target 2>/dev/null)
info "boot: multi-user.target reached $(awk -v u="${mu:-0}" 'BEGIN {printf "%.1f", u / 1e6}') s after boot"
failed=$(systemctl --failed --no-legend --plain 2>/dev/null | awk '{print $1}' | tr '\n' ' ')
[ -z "$failed" ] || info "boot: failed units: $failed"

run_test() {
	local name=$1 to=$2 path=$MSL_GUEST_DIR/$1.sh log=$RUN/$1.log reason_file=$RUN/$1.reason
	local rc=0 t0 dt verdict reason=
	emit "BEGIN $name"
	[ -r "$path" ] || { emit "RESULT FAIL $name test file $name.sh missing from the payload"; return; }
	echo "===== msl: $name (timeout ${to}s) ====="
	t0=$EPOCHREALTIME
	# shellcheck disable=SC2016 # expanded by the inner bash
	MSL_TEST=$name MSL_REASON_FILE=$reason_file \
		timeout -k 10 "$to" bash -c 'set -u -o pipefail; . "$MSL_LIB"; . "$0"' "$path" </dev/null >"$log" 2>&1 || rc=$?
	cat "$log"
	dt=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.1f", b - a}')
	[ -s "$reason_file" ] && reason=$(head -n 1 "$reason_file")
	case $rc in
	0) verdict=PASS reason= ;;
	77) verdict=SKIP ;;
	124 | 137) verdict=FAIL reason="timed out after ${to}s${reason:+ ($reason)}" ;;
	*) verdict=FAIL reason=${reason:-exit status $rc} ;;
	esac
	if [ "$verdict" = FAIL ]; then
		tail -n 20 "$log" | while IFS= read -r l; do emit "INFO $name out| $l"; done
	fi
	emit "INFO $name duration_s=$dt"
	emit "RESULT $verdict $name${reason:+ ${reason//$'\n'/ }}"
}

mapfile -t TESTS < <(grep -v '^[[:space:]]*\(#\|$\)' "$MSL_PAYLOAD/tests.list" 2>/dev/null)
info "running ${#TESTS[@]} tests"
for t in "${TESTS[@]}"; do
	read -r name to <<<"$t"
	[ -n "$name" ] && run_test "$name" "${to:-300}"
done
info "done: uptime $(cut -d' ' -f1 /proc/uptime)s"
emit DONE
