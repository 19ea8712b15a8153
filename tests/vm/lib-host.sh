# shellcheck shell=bash
# tests/vm/lib-host.sh: the host side of the harness, shared by tests/run,
# tests/demo and bench/run.  Sourced; expects `set -euo pipefail` and REPO.
#
#   run_setup [ROW...]        tests/vm/setup.sh: MSL_KVERS, MSL_ROOTFS_DIR
#   row_kver ROW              the kernel release ROW boots
#   pkg_image ROW             the package image a pkg row boots
#   build_module KVER         memcg_softlimit.ko, W=1, in build/kmod/KVER/
#   build_tools               tools/ into build/tools-bin/
#   expected_tests ROW [TCG] [FILE...]
#                             the tests that run on ROW (discovery)
#   make_payload ROW DIR LIST the payload disk's tree of one boot
#   add_result, parse_results, collect_results, print_report
#                             the one result format and the report

: "${REPO:?REPO must be set}"
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$REPO/tests/vm/common.sh"
BUILD=$REPO/build
LOG_DIR=${MSL_LOG_DIR:-$BUILD/vm-logs}
export MSL_LOG_DIR=$LOG_DIR
# What the module build copies from the tree (see the top-level Kbuild).
KMOD_SOURCES=(Kbuild VERSION module lib include)

T_START=$SECONDS
PHASE_NAME=
PHASE_T0=0
TIMINGS=()
msg() { printf '[%s %4ds] %s\n' "${MSG_TAG:-run}" "$((SECONDS - T_START))" "$*" >&2; }
phase() { # phase NAME: ends the current phase (recording its time), starts NAME
	phase_end
	PHASE_NAME=$1
	PHASE_T0=$SECONDS
	printf '\n==== %s ====\n' "$1" >&2
}
phase_end() {
	if [ -n "$PHASE_NAME" ]; then
		TIMINGS+=("$(printf '%-50s %5ds' "$PHASE_NAME" "$((SECONDS - PHASE_T0))")")
		msg "$PHASE_NAME: $((SECONDS - PHASE_T0)) s"
	fi
	PHASE_NAME=
}
print_timings() {
	phase_end
	printf '\n==== timings ====\n'
	[ ${#TIMINGS[@]} -eq 0 ] || printf '  %s\n' "${TIMINGS[@]}"
	printf '  %-50s %5ds\n' total "$((SECONDS - T_START))"
}

# bg_start CMD...: run CMD in the background (its pid in BG_PID), so that a
# SIGTERM/SIGINT to this script is handled at once: the handler stops CMD
# (boot.sh then kills its qemu, setup.sh unmounts its chroot).  bg_wait PID
# waits for it; bg_wait_any VAR waits for any and sets VAR to its pid;
# run_bg CMD... starts and waits.  All return CMD's status.
BG_PIDS=()
bg_start() {
	"$@" &
	BG_PID=$!
	BG_PIDS+=("$BG_PID")
}
bg_wait() {
	local rc=0 p keep=()
	wait "$1" || rc=$?
	for p in "${BG_PIDS[@]}"; do [ "$p" = "$1" ] || keep+=("$p"); done
	BG_PIDS=(${keep[@]+"${keep[@]}"})
	return "$rc"
}
bg_wait_any() {
	local -n bg_done_pid=$1
	local p
	# (wait -n forgets a child that ended before it was called)
	while :; do
		for p in "${BG_PIDS[@]}"; do
			if ! kill -0 "$p" 2>/dev/null; then
				# shellcheck disable=SC2034 # a nameref: the caller's VAR
				bg_done_pid=$p
				bg_wait "$p"
				return
			fi
		done
		sleep 1
	done
}
run_bg() {
	bg_start "$@"
	bg_wait "$BG_PID"
}
# shellcheck disable=SC2317 # invoked by the trap
on_signal() {
	local p
	trap - INT TERM
	for p in ${BG_PIDS[@]+"${BG_PIDS[@]}"}; do kill -TERM "$p" 2>/dev/null || true; done
	for p in ${BG_PIDS[@]+"${BG_PIDS[@]}"}; do wait "$p" 2>/dev/null || true; done
	msg "interrupted"
	exit 130
}
trap on_signal INT TERM

mkdir -p "$BUILD"
# build/ is never committed.
[ -e "$BUILD/.gitignore" ] || echo '*' >"$BUILD/.gitignore"
# One run at a time per build dir.
exec 8>"$BUILD/.run.lock"
if ! flock -n 8; then
	msg "another run is using $BUILD; waiting for it ..."
	flock 8
fi

matrix_load

# valid_configs "ROWS": every name is a row of the table (else a message)
valid_configs() {
	local c
	for c in $1; do
		[ -n "${M_BOOT[$c]:-}" ] && continue
		msg "unknown config '$c' (tests/matrix has: ${M_ROWS[*]})"
		return 1
	done
}

# --------------------------------------------------------------------------
# Setup
# --------------------------------------------------------------------------
# run_setup [--minimal] [ROW...]: tests/vm/setup.sh for those rows
# (default: MSL_CONFIGS, else every row); sets MSL_KVERS (the Debian 12
# rows' kernels, resolved), MSL_ROOTFS_DIR (their rootfs) and, with Debian
# 13 rows, MSL_KVERS_13, MSL_ROOTFS_DIR_13 and MSL_TRIXIE_CHROOT.
run_setup() {
	local k v
	MSL_KVERS='' MSL_ROOTFS_DIR='' MSL_KVERS_13='' MSL_ROOTFS_DIR_13='' MSL_TRIXIE_CHROOT=''
	run_bg "$REPO/tests/vm/setup.sh" "$@" >"$BUILD/setup.env" || { msg "tests/vm/setup.sh failed"; return 1; }
	while IFS='=' read -r k v; do
		case $k in
		MSL_KVERS | MSL_ROOTFS_DIR | MSL_KVERS_13 | MSL_ROOTFS_DIR_13 | MSL_TRIXIE_CHROOT)
			printf -v "$k" '%s' "$v" ;;
		esac
	done <"$BUILD/setup.env"
	if [ -z "$MSL_KVERS$MSL_KVERS_13" ] || { [ -n "$MSL_KVERS" ] && [ -z "$MSL_ROOTFS_DIR" ]; }; then
		msg "setup.sh gave no kernels or rootfs: $(tr '\n' ' ' <"$BUILD/setup.env")"
		return 1
	fi
	export MSL_ROOTFS_DIR MSL_KVERS MSL_KVERS_13 MSL_ROOTFS_DIR_13 MSL_TRIXIE_CHROOT
}

row_kver() { matrix_kver "$1" "$MSL_KVERS $MSL_KVERS_13"; }
# row_rootfs ROW: the cached rootfs a test row boots (its Debian's)
row_rootfs() {
	case ${M_DEBIAN[$1]} in
	13) echo "$MSL_ROOTFS_DIR_13" ;;
	*) echo "$MSL_ROOTFS_DIR" ;;
	esac
}
# pkg_image ROW: the package image (tests/pkg/host.sh's) of ROW's Debian
pkg_image() {
	case ${M_DEBIAN[$1]} in
	13) echo "$BUILD/pkg/image13" ;;
	*) echo "$BUILD/pkg/image" ;;
	esac
}

# --------------------------------------------------------------------------
# Builds
# --------------------------------------------------------------------------
# build_module KVER: memcg_softlimit.ko for KVER in a private copy of the
# sources, build/kmod/<kver>/ (log build/kmod/<kver>.log), and the
# test-only modules of tests/kmod in build/kmod-test/<kver>/.
build_module() {
	local kver=$1 dir=$BUILD/kmod/$1 log=$BUILD/kmod/$1.log s rc=0 nwarn
	local kdir=/lib/modules/$kver/build kmake=(make)
	# Debian 13's kernels build in tests/vm/trixie.sh's chroot (their
	# kbuild binaries need trixie's libc), where their headers are.
	if [[ $kver == *+deb13-* ]]; then
		kmake=("$REPO/tests/vm/trixie.sh" make "$BUILD")
		[ -e "${MSL_TRIXIE_CHROOT:?}$kdir/Makefile" ] ||
			{ msg "no kernel headers at $MSL_TRIXIE_CHROOT$kdir"; return 1; }
	else
		[ -e "$kdir/Makefile" ] || { msg "no kernel headers at $kdir"; return 1; }
	fi
	rm -rf "$dir"
	mkdir -p "$dir"
	for s in "${KMOD_SOURCES[@]}"; do
		[ -e "$REPO/$s" ] || continue
		rsync -a --exclude='*.o' --exclude='*.ko' --exclude='*.ko.*' --exclude='.*.cmd' \
			--exclude='*.mod' --exclude='*.mod.c' --exclude='modules.order' \
			--exclude='Module.symvers' --exclude='.tmp_*' "$REPO/$s" "$dir/"
	done
	msg "make -C $kdir M=build/kmod/$kver W=1 modules"
	"${kmake[@]}" -C "$kdir" M="$dir" W=1 -j"$(nproc)" modules >"$log" 2>&1 || rc=$?
	nwarn=$(grep -c 'warning:' "$log" || true)
	if [ "$rc" != 0 ] || [ ! -f "$dir/memcg_softlimit.ko" ]; then
		printf '\n---- module build for %s FAILED (exit %s), log %s ----\n' "$kver" "$rc" "${log#"$REPO"/}" >&2
		tail -n 60 "$log" >&2
		printf -- '---- end of log ----\n\n' >&2
		return 1
	fi
	if [ "$nwarn" -gt 0 ]; then
		msg "module for $kver built with $nwarn warnings (W=1):"
		grep -A3 'warning:' "$log" | head -n 40 >&2
		return 2
	fi
	msg "module for $kver built: build/kmod/$kver/memcg_softlimit.ko"
	if [ -f "$REPO/tests/kmod/Kbuild" ]; then
		rm -rf "$BUILD/kmod-test/$kver"
		mkdir -p "$BUILD/kmod-test/$kver"
		cp "$REPO"/tests/kmod/Kbuild "$REPO"/tests/kmod/*.c "$BUILD/kmod-test/$kver/"
		"${kmake[@]}" -C "$kdir" M="$BUILD/kmod-test/$kver" W=1 modules >"$BUILD/kmod-test/$kver.log" 2>&1 ||
			{ msg "test modules for $kver failed to build (log build/kmod-test/$kver.log)"; return 1; }
	fi
}

# build_tools: `make -C tools`; the ELF executables it made go to
# build/tools-bin/.
build_tools() {
	local log=$BUILD/tools.log f
	rm -rf "$BUILD/tools-bin"
	mkdir -p "$BUILD/tools-bin"
	msg "make -C tools"
	if ! make -C "$REPO/tools" -j"$(nproc)" >"$log" 2>&1; then
		printf '\n---- tools build FAILED, log %s ----\n' "${log#"$REPO"/}" >&2
		tail -n 40 "$log" >&2
		return 1
	fi
	while IFS= read -r -d '' f; do
		if [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ]; then
			cp -a "$f" "$BUILD/tools-bin/"
		fi
	done < <(find "$REPO/tools" -maxdepth 3 -type f -perm -u+x -print0)
	msg "tools built: $(find "$BUILD/tools-bin" -type f -printf '%f ' | sed 's/ $//')"
}

# snapshot_guest: tests/guest/ (the guest runner and its library),
# tests/cases/ (the guest tests) and bench/guest/ (the benchmarks'
# scenarios, which t-28 and t-60 run too) copied once per run
# (build/guest-src/, build/cases-src/, build/bench-src/), so that every
# boot runs the same tests even while someone edits them.  cp, not rsync:
# this runs before tests/vm/setup.sh has installed anything on a fresh
# host.
GUEST_SRC=$BUILD/guest-src
CASES_SRC=$BUILD/cases-src
BENCH_SRC=$BUILD/bench-src
snapshot_guest() {
	rm -rf "$GUEST_SRC" "$CASES_SRC" "$BENCH_SRC"
	mkdir -p "$GUEST_SRC" "$CASES_SRC" "$BENCH_SRC"
	cp -a "$REPO/tests/guest/." "$GUEST_SRC/"
	cp -a "$REPO/tests/cases/." "$CASES_SRC/"
	cp -a "$REPO/bench/guest/." "$BENCH_SRC/"
}
# snapshot_ready: the run's copies are there (else snapshot_guest makes them)
snapshot_ready() { [ -d "$GUEST_SRC" ] && [ -d "$CASES_SRC" ] && [ -d "$BENCH_SRC" ]; }

# --------------------------------------------------------------------------
# Discovery: tests/cases/t-*.sh (or the FILEs given: bench/run's parts,
# bench/guest/bench-*.sh),
# with the headers
#   # configs: all | <glob of rows> ...   where the test can run
#   # timeout: SECONDS                    (default 300)
#   # timeout-long: SECONDS               the timeout with MSL_LONG=1
#   # tcg: single                         boot it with single-threaded TCG
#   # tcg: icount                         (bench parts) with QEMU counting
#                                         instructions (tests/vm/boot.sh)
# expected_tests ROW [TCG] [FILE...]: "<name> <timeout>" lines, in order,
# of the tests that run on ROW: selected by the row's tests column (not for
# FILEs), admitted by their "# configs:" header, matching MSL_TESTS; with
# TCG (multi or single) only those whose "# tcg:" (default multi) says so.
# --------------------------------------------------------------------------
expected_tests() {
	local row=$1 want_tcg=${2:-} f name to long_to tcg files=("${@:3}") select=1
	snapshot_ready || snapshot_guest
	if [ ${#files[@]} -eq 0 ]; then
		files=("$CASES_SRC"/t-*.sh)
	else
		select=0
	fi
	for f in "${files[@]}"; do
		[ -e "$f" ] || continue
		name=$(basename "$f" .sh)
		[ "$select" = 0 ] || matrix_selects "$row" "$name" || continue
		header_admits "$row" "$(test_configs "$f")" || continue
		[ "$select" = 0 ] || name_matches "$name" "${MSL_TESTS:-}" || continue
		tcg=$(test_header "$f" tcg)
		[ -z "$want_tcg" ] || [ "${tcg:-multi}" = "$want_tcg" ] || continue
		to=$(test_header "$f" timeout)
		if [ "${MSL_LONG:-0}" = 1 ]; then
			long_to=$(test_header "$f" timeout-long)
			to=${long_to:-$to}
		fi
		echo "$name ${to:-300}"
	done
	return 0
}

# make_payload ROW DIR LIST [RUNNER-MODE]: the payload disk's tree for a
# boot of ROW running the tests of LIST ("<name> <timeout>" lines):
# config.env (the row, for tests/guest/init.sh), the module and the test
# modules built for its kernel, the guest runner and its library (guest/),
# the guest tests (cases/) and the benchmarks' scripts (bench/), the tools, the module DKMS built
# (t-40-dkms-modprobe), the kernel's selftests when a listed test needs
# them.
make_payload() {
	local row=$1 dir=$2 list=$3 kver
	kver=$(row_kver "$row")
	rm -rf "$dir"
	mkdir -p "$dir/module" "$dir/bin"
	{
		echo "MSL_CONFIG=$row"
		echo "MSL_KSERIES=${M_SERIES[$row]}"
		echo "MSL_FLAVOUR=${M_FLAVOUR[$row]}"
		echo "MSL_DEBIAN=${M_DEBIAN[$row]}"
		echo "MSL_CGROUP_VERSION=${M_CGROUP[$row]}"
		echo "MSL_LRU=${M_LRU[$row]}"
	} >"$dir/config.env"
	if [ -f "$BUILD/kmod/$kver/memcg_softlimit.ko" ]; then cp "$BUILD/kmod/$kver/memcg_softlimit.ko" "$dir/module/"; fi
	if [ -d "$BUILD/kmod-test/$kver" ]; then cp "$BUILD/kmod-test/$kver"/*.ko "$dir/module/"; fi
	snapshot_ready || snapshot_guest
	rsync -a "$GUEST_SRC/" "$dir/guest/"
	rsync -a "$CASES_SRC/" "$dir/cases/"
	rsync -a "$BENCH_SRC/" "$dir/bench/"
	if [ -d "$BUILD/tools-bin" ]; then cp -a "$BUILD/tools-bin/." "$dir/bin/"; fi
	if [ -d "$REPO/tools/bpftrace" ]; then cp -a "$REPO/tools/bpftrace" "$dir/bpftrace"; fi
	# README's command lines (t-59 runs them as written).
	cp "$REPO/README.md" "$REPO/tests/readme-commands" "$dir/"
	# The units the tool's package installs (t-57 runs what they run).
	if [ -d "$REPO/packaging/systemd" ]; then cp -a "$REPO/packaging/systemd" "$dir/systemd"; fi
	if [ -d "$BUILD/pkg/payload/$kver" ]; then cp -a "$BUILD/pkg/payload/$kver" "$dir/dkms"; fi
	if [ -f "$(pkg_image "$row")/expect" ]; then mkdir -p "$dir/pkg" && cp "$(pkg_image "$row")/expect" "$dir/pkg/"; fi
	if grep -q '^t-[0-9]*-kselftest' <<<"$list"; then
		run_bg "$REPO/tests/vm/selftests.sh" "$kver" "$dir/selftests" ||
			msg "kernel selftests for $kver not built (build/selftests/$kver.log); the kselftest tests will fail"
	fi
	printf '%s\n' "$list" >"$dir/tests.list"
}

# --------------------------------------------------------------------------
# Results.  Every part speaks one format, a line each:
#   BEGIN <test>
#   RESULT PASS|FAIL|SKIP <test> [reason]
#   INFO <test> <text>       (duration_s=N: its time; "out| ", "dmesg| ":
#                            a failed test's last lines)
#   DONE
# the guest runner on the verdict channel, tests/pkg/host.sh on its stdout,
# tests/unit's `make run`.
# --------------------------------------------------------------------------
R_CONFIG=() R_TEST=() R_VERDICT=() R_TIME=() R_REASON=() NOTES=() FAIL_DETAILS=()
add_result() { # add_result CONFIG TEST VERDICT TIME REASON
	R_CONFIG+=("$1") R_TEST+=("$2") R_VERDICT+=("$3") R_TIME+=("$4") R_REASON+=("$5")
}

# parse_results FILE: P_VERDICT[test] P_REASON P_DUR P_BEGUN, P_ORDER (the
# tests with a result, in order), P_LAST_BEGUN, P_DONE, P_NOTES (INFO text
# other than durations and output), P_OUT[test] (its output lines)
parse_results() {
	local line v n r
	P_VERDICT=() P_REASON=() P_DUR=() P_BEGUN=() P_OUT=() P_ORDER=() P_NOTES=()
	P_LAST_BEGUN='' P_DONE=0
	[ -f "$1" ] || return 0
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line//$'\r'/}
		case $line in
		"BEGIN "*) n=${line#BEGIN } && P_BEGUN[$n]=1 && P_LAST_BEGUN=$n ;;
		"RESULT "*)
			read -r _ v n r <<<"$line"
			[ -n "${n:-}" ] || continue
			case $v in PASS | FAIL | SKIP) ;; *) r="malformed RESULT line: $line" v=FAIL ;; esac
			[ -n "${P_VERDICT[$n]:-}" ] || P_ORDER+=("$n")
			P_VERDICT[$n]=$v P_REASON[$n]=${r:-}
			;;
		"INFO "*)
			read -r _ n r <<<"$line"
			case $r in
			duration_s=*) P_DUR[$n]=${r#duration_s=}s ;;
			"out| "* | "dmesg| "*) P_OUT[$n]+="${r}"$'\n' ;;
			*) P_NOTES+=("$n: $r") ;;
			esac
			;;
		DONE) P_DONE=1 ;;
		"ERROR "*) P_NOTES+=("$line") ;;
		esac
	done <"$1"
}
declare -A P_VERDICT=() P_REASON=() P_DUR=() P_BEGUN=() P_OUT=()

# add_results CONFIG FILE: every result of FILE, as it is (the host's
# packaging tests, the unit tests)
add_results() {
	local n
	parse_results "$2"
	for n in "${P_NOTES[@]}"; do NOTES+=("[$1] $n"); done
	for n in "${P_ORDER[@]}"; do
		add_result "$1" "$n" "${P_VERDICT[$n]}" "${P_DUR[$n]:-}" "${P_REASON[$n]}"
		fail_details "$1" "$n"
	done
}
fail_details() { # fail_details CONFIG TEST: its output lines, if it failed
	[ "${P_VERDICT[$2]:-}" = FAIL ] && [ -n "${P_OUT[$2]:-}" ] || return 0
	FAIL_DETAILS+=("---- [$1] $2 ----")
	mapfile -t -O "${#FAIL_DETAILS[@]}" FAIL_DETAILS < <(printf '%s' "${P_OUT[$2]}")
}

# collect_results CONFIG QEMU_RC "<expected names>" LOG_NAME: a boot's
# results: every expected test has one (a test begun and not finished is a
# crash, one never begun was not run: both FAIL with the reason), and the
# guest must have said DONE and powered off.
collect_results() {
	local config=$1 qrc=$2 expected=$3 log_name=$4 n all_done=1
	local console=${LOG_DIR#"$REPO"/}/$log_name.console.log clog=$LOG_DIR/$log_name.console.log
	local panic cause why
	parse_results "$LOG_DIR/$log_name.results.txt"
	for n in "${P_NOTES[@]}"; do NOTES+=("[$config] $n"); done
	panic=$(grep -aE 'Kernel panic' "$clog" 2>/dev/null | tail -n 1 | tr -d '\r' | sed 's/^\[[ 0-9.]*\] //' | head -c 120 || true)
	cause=$(grep -aE 'BUG:|WARNING:|Oops|general protection|RCU stall|soft lockup|blocked for more than' \
		"$clog" 2>/dev/null | tail -n 1 | tr -d '\r' | sed 's/^\[[ 0-9.]*\] //' | head -c 160 || true)
	case $qrc in
	0) why="qemu exited normally (guest poweroff, or reboot after a panic)" ;;
	124 | 137) why="the guest was killed by the ${MSL_BOOT_TIMEOUT_USED:-?}s boot timeout" ;;
	*) why="qemu exited with status $qrc" ;;
	esac
	[ -z "$cause$panic" ] || why="$why; console: ${cause:+$cause; }$panic"
	for n in $expected; do
		if [ -n "${P_VERDICT[$n]:-}" ]; then
			add_result "$config" "$n" "${P_VERDICT[$n]}" "${P_DUR[$n]:-}" "${P_REASON[$n]}"
			fail_details "$config" "$n"
		else
			all_done=0
			if [ -n "${P_BEGUN[$n]:-}" ]; then
				add_result "$config" "$n" FAIL "" "guest crashed or hung during this test ($why; see $console)"
			else
				add_result "$config" "$n" FAIL "" "not run: the guest stopped before it${P_LAST_BEGUN:+ (last test begun: $P_LAST_BEGUN)} ($why; see $console)"
			fi
		fi
	done
	for n in "${P_ORDER[@]}"; do
		case " $expected " in *" $n "*) continue ;; esac
		add_result "$config" "$n" "${P_VERDICT[$n]}" "${P_DUR[$n]:-}" "${P_REASON[$n]} (not expected by the host)"
	done
	if [ "$P_DONE" != 1 ] && [ "$all_done" = 1 ]; then
		add_result "$config" "(vm)" FAIL "" "no DONE from the guest ($why; see $console)"
	elif [ "$P_DONE" = 1 ] && [ "$qrc" != 0 ]; then
		add_result "$config" "(vm)" FAIL "" "the guest sent DONE but did not power off cleanly ($why)"
	fi
	# The JSON documents the guest tests sent (lib.sh's json_doc), against
	# the schema: one result per test and document kind.  (Last: its
	# parse_results replaces the boot's P_* above.)
	if grep -q '^JSON ' "$LOG_DIR/$log_name.results.txt" 2>/dev/null; then
		/usr/bin/python3 "$REPO/tests/json-check.py" --results json \
			"$LOG_DIR/$log_name.results.txt" >"$LOG_DIR/$log_name.json-check.txt" 2>&1 ||
			echo "RESULT FAIL json/check tests/json-check.py failed: ${LOG_DIR#"$REPO"/}/$log_name.json-check.txt" \
				>>"$LOG_DIR/$log_name.json-check.txt"
		add_results "$config" "$LOG_DIR/$log_name.json-check.txt"
	fi
	# The metrics files they sent (lib.sh's prom_doc), through promtool and
	# Debian's node_exporter and Prometheus with the shipped rules.
	if grep -q '^PROM ' "$LOG_DIR/$log_name.results.txt" 2>/dev/null; then
		"$REPO/tests/prom/guest.sh" "$LOG_DIR/$log_name.results.txt" prom \
			>"$LOG_DIR/$log_name.prom-check.txt" 2>&1 ||
			echo "RESULT FAIL prom/check tests/prom/guest.sh failed: ${LOG_DIR#"$REPO"/}/$log_name.prom-check.txt" \
				>>"$LOG_DIR/$log_name.prom-check.txt"
		add_results "$config" "$LOG_DIR/$log_name.prom-check.txt"
	fi
}

# crashed_before_tests LOG_NAME: the boot's kernel died before the runner
# began its first test, with the module never mentioned on the console
# (test rows load it only in tests).  Under QEMU's multi-threaded TCG the
# kernel's own boot-time text patching can do that ("Oops: int3" in
# sched_clock_idle_wakeup_event as sched_clock is marked stable, seen
# here on 6.12): a fault of the emulator, not of anything under test.
crashed_before_tests() {
	local clog=$LOG_DIR/$1.console.log
	! grep -aq '^BEGIN ' "$LOG_DIR/$1.results.txt" 2>/dev/null &&
		grep -aqE 'Oops|Kernel panic|BUG:|general protection' "$clog" 2>/dev/null &&
		! grep -aq memcg_softlimit "$clog" 2>/dev/null
}

# print_report: the table, the notes, failed tests' output, the timings
# and the closing line "N passed, N failed[, N skipped]".  Returns 1 if
# anything failed or nothing ran.
print_report() {
	local i pass=0 failc=0 skipc=0 line w=20 cw=15
	for i in "${!R_TEST[@]}"; do
		[ "${#R_TEST[i]}" -le "$w" ] || w=${#R_TEST[i]}
		[ "${#R_CONFIG[i]}" -le "$cw" ] || cw=${#R_CONFIG[i]}
	done
	printf '\n==== results ====\n'
	printf "%-${cw}s %-${w}s %-6s %7s  %s\n" CONFIG TEST RESULT TIME REASON
	for i in "${!R_TEST[@]}"; do
		printf "%-${cw}s %-${w}s %-6s %7s  %s\n" "${R_CONFIG[i]}" "${R_TEST[i]}" "${R_VERDICT[i]}" "${R_TIME[i]}" "${R_REASON[i]}"
		case ${R_VERDICT[i]} in
		PASS) pass=$((pass + 1)) ;;
		SKIP) skipc=$((skipc + 1)) ;;
		*) failc=$((failc + 1)) ;;
		esac
	done
	if [ ${#NOTES[@]} -gt 0 ]; then
		printf '\n==== notes (INFO) ====\n'
		printf '%s\n' "${NOTES[@]}"
	fi
	if [ ${#FAIL_DETAILS[@]} -gt 0 ]; then
		printf '\n==== output of failed tests (last lines) ====\n'
		printf '%s\n' "${FAIL_DETAILS[@]}"
	fi
	print_timings
	printf '\nlogs: %s/\n' "${LOG_DIR#"$REPO"/}"
	# Again, last: a CI log that keeps only its tail still names what failed.
	if [ "$failc" != 0 ]; then
		printf '\nfailed:\n'
		for i in "${!R_TEST[@]}"; do
			case ${R_VERDICT[i]} in PASS | SKIP) continue ;; esac
			printf '  %s %s: %.160s\n' "${R_CONFIG[i]}" "${R_TEST[i]}" "${R_REASON[i]}"
		done
	fi
	echo
	line="$pass passed, $failc failed"
	[ "$skipc" = 0 ] || line+=", $skipc skipped"
	echo "$line"
	[ "$failc" = 0 ] && [ $((pass + skipc)) -gt 0 ]
}
