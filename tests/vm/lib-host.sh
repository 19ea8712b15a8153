# shellcheck shell=bash
# tests/vm/lib-host.sh: host-side helpers shared by tests/run and tests/demo.
# Sourced; expects `set -euo pipefail` and REPO set by the caller.

: "${REPO:?REPO must be set}"
BUILD=$REPO/build
LOG_DIR=${MSL_LOG_DIR:-$BUILD/vm-logs}
export MSL_LOG_DIR=$LOG_DIR
ALL_CONFIGS="6.1-v1-classic 6.1-v2-classic 6.12-v2-mglru 6.12-v2-classic"
# What the module build copies from the tree (see the top-level Kbuild).
KMOD_SOURCES=(Kbuild VERSION module include)

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
		TIMINGS+=("$(printf '%-46s %5ds' "$PHASE_NAME" "$((SECONDS - PHASE_T0))")")
		msg "$PHASE_NAME: $((SECONDS - PHASE_T0)) s"
	fi
	PHASE_NAME=
}
print_timings() {
	phase_end
	printf '\n==== timings ====\n'
	[ ${#TIMINGS[@]} -eq 0 ] || printf '  %s\n' "${TIMINGS[@]}"
	printf '  %-46s %5ds\n' total "$((SECONDS - T_START))"
}

# run_bg CMD...: run CMD in the background and wait for it, so that a
# SIGTERM/SIGINT to this script is handled at once: the handler stops CMD
# (boot.sh then kills its qemu, setup.sh unmounts its chroot).
# bg_start CMD...: start CMD so (its pid in BG_PID); bg_wait PID waits for
# it; bg_wait_any VAR waits for any of them and sets VAR to its pid.  All
# return CMD's status.
BG_PIDS=()
bg_start() {
	"$@" &
	BG_PID=$!
	BG_PIDS+=("$BG_PID")
}
bg_forget() { # bg_forget PID
	local p keep=()
	for p in "${BG_PIDS[@]}"; do [ "$p" = "$1" ] || keep+=("$p"); done
	BG_PIDS=(${keep[@]+"${keep[@]}"})
}
bg_wait() {
	local rc=0
	wait "$1" || rc=$?
	bg_forget "$1"
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
	for p in ${BG_PIDS[@]+"${BG_PIDS[@]}"}; do
		kill -TERM "$p" 2>/dev/null || true
	done
	for p in ${BG_PIDS[@]+"${BG_PIDS[@]}"}; do
		wait "$p" 2>/dev/null || true
	done
	msg "interrupted"
	exit 130
}
trap on_signal INT TERM

mkdir -p "$BUILD"
# build/ is never committed.
[ -e "$BUILD/.gitignore" ] || echo '*' >"$BUILD/.gitignore"
# One tests/run or tests/demo at a time per tree: they share build/.
exec 8>"$BUILD/.run.lock"
if ! flock -n 8; then
	msg "another tests/run or tests/demo is using $BUILD; waiting for it ..."
	flock 8
fi

# --------------------------------------------------------------------------
# Setup
# --------------------------------------------------------------------------
# run_setup: runs tests/vm/setup.sh, sets MSL_KVER_61, MSL_KVER_612,
# MSL_ROOTFS_DIR.
run_setup() {
	local out k v
	run_bg "$REPO/tests/vm/setup.sh" >"$BUILD/setup.env" || { msg "tests/vm/setup.sh failed"; return 1; }
	out=$(cat "$BUILD/setup.env")
	while IFS='=' read -r k v; do
		case $k in
		MSL_KVER_61 | MSL_KVER_612 | MSL_ROOTFS_DIR) printf -v "$k" '%s' "$v" ;;
		esac
	done <<<"$out"
	if [ -z "${MSL_KVER_61:-}" ] || [ -z "${MSL_KVER_612:-}" ] || [ -z "${MSL_ROOTFS_DIR:-}" ]; then
		msg "setup.sh gave no kernels/rootfs: $out"
		return 1
	fi
	export MSL_ROOTFS_DIR
}

config_kver() { # config_kver CONFIG -> the kernel release for it
	case $1 in
	6.1-*) echo "$MSL_KVER_61" ;;
	6.12-*) echo "$MSL_KVER_612" ;;
	*) return 1 ;;
	esac
}

valid_config() {
	local c
	for c in $ALL_CONFIGS; do [ "$c" = "$1" ] && return 0; done
	return 1
}

# --------------------------------------------------------------------------
# Builds
# --------------------------------------------------------------------------
# build_module KVER: builds memcg_softlimit.ko for KVER in a private copy of
# the sources, build/kmod/<kver>/.  The log is build/kmod/<kver>.log.
build_module() {
	local kver=$1 dir=$BUILD/kmod/$1 log=$BUILD/kmod/$1.log s rc=0 nwarn
	local kdir=/lib/modules/$kver/build
	[ -e "$kdir/Makefile" ] || { msg "no kernel headers at $kdir"; return 1; }
	rm -rf "$dir"
	mkdir -p "$dir"
	for s in "${KMOD_SOURCES[@]}"; do
		[ -e "$REPO/$s" ] || continue
		rsync -a --exclude='*.o' --exclude='*.ko' --exclude='*.ko.*' --exclude='.*.cmd' \
			--exclude='*.mod' --exclude='*.mod.c' --exclude='modules.order' \
			--exclude='Module.symvers' --exclude='.tmp_*' "$REPO/$s" "$dir/"
	done
	msg "make -C $kdir M=build/kmod/$kver W=1 modules"
	make -C "$kdir" M="$dir" W=1 -j"$(nproc)" modules >"$log" 2>&1 || rc=$?
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
	else
		msg "module for $kver built: build/kmod/$kver/memcg_softlimit.ko"
	fi
	# Test-only modules (tests/kmod), e.g. an IPMODIFY ftrace user.
	if [ -f "$REPO/tests/kmod/Kbuild" ]; then
		rm -rf "$BUILD/kmod-test/$kver"
		mkdir -p "$BUILD/kmod-test/$kver"
		cp "$REPO"/tests/kmod/Kbuild "$REPO"/tests/kmod/*.c "$BUILD/kmod-test/$kver/"
		make -C "$kdir" M="$BUILD/kmod-test/$kver" W=1 modules >"$BUILD/kmod-test/$kver.log" 2>&1 ||
			{ msg "test modules for $kver failed to build (log build/kmod-test/$kver.log)"; return 1; }
	fi
}

# build_tools: `make -C tools` if tools/Makefile exists; copies the ELF
# executables it made into build/tools-bin/.
build_tools() {
	local log=$BUILD/tools.log f
	rm -rf "$BUILD/tools-bin"
	mkdir -p "$BUILD/tools-bin"
	[ -f "$REPO/tools/Makefile" ] || { msg "no tools/Makefile: no userspace tools"; return 0; }
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

# snapshot_guest: copy tests/guest/ once per run (to build/guest-src/), so
# that every configuration runs the same tests even while someone edits them.
GUEST_SRC=$BUILD/guest-src
snapshot_guest() {
	mkdir -p "$GUEST_SRC"
	rsync -a --delete "$REPO/tests/guest/" "$GUEST_SRC/"
}

# --------------------------------------------------------------------------
# Test discovery: tests/guest/t-*.sh with a header
#   # configs: all | <config or glob> ...
#   # timeout: SECONDS        (default 300)
# MSL_TESTS="<glob> ..." filters by test name.
# --------------------------------------------------------------------------
test_matches_filter() {
	local name=$1 g
	[ -n "${MSL_TESTS:-}" ] || return 0
	for g in $MSL_TESTS; do
		g=${g%.sh}
		# shellcheck disable=SC2053 # glob match intended
		[[ $name == $g ]] && return 0
	done
	return 1
}

config_in_list() { # config_in_list CONFIG "patterns"
	local pat
	for pat in $2; do
		# shellcheck disable=SC2053
		if [ "$pat" = all ] || [[ $1 == $pat ]]; then return 0; fi
	done
	return 1
}

# test_header FILE FIELD: the value of a test's "# FIELD: value" header line
test_header() {
	sed -n "1,30s/^#[[:space:]]*$2:[[:space:]]*\([^[:space:]]*\).*/\1/p" "$1" | head -n 1
}

# expected_tests CONFIG [TCG]: "<name> <timeout>" lines, in file-name order;
# with TCG (multi or single), only the tests whose "# tcg:" header (default
# multi) names that threading mode.  With MSL_LONG=1, a "# timeout-long:"
# header replaces "# timeout:".
expected_tests() {
	local config=$1 want_tcg=${2:-} f name cfgs to long_to tcg
	[ -d "$GUEST_SRC" ] || snapshot_guest
	for f in "$GUEST_SRC"/t-*.sh; do
		[ -e "$f" ] || continue
		name=$(basename "$f" .sh)
		test_matches_filter "$name" || continue
		cfgs=$(sed -n '1,30s/^#[[:space:]]*configs:[[:space:]]*//p' "$f" | head -n 1)
		if [ -z "$cfgs" ]; then
			msg "warning: $name has no '# configs:' header; running it on all configs"
			cfgs=all
		fi
		to=$(test_header "$f" timeout)
		if [ "${MSL_LONG:-0}" = 1 ]; then
			long_to=$(test_header "$f" timeout-long)
			to=${long_to:-$to}
		fi
		tcg=$(test_header "$f" tcg)
		[ -z "$want_tcg" ] || [ "${tcg:-multi}" = "$want_tcg" ] || continue
		config_in_list "$config" "$cfgs" && echo "$name ${to:-300}"
	done
	return 0
}

# make_payload CONFIG KVER DIR [tests.list content]: the payload disk's tree
make_payload() {
	local config=$1 kver=$2 dir=$3 list=${4:-}
	rm -rf "$dir"
	mkdir -p "$dir/module" "$dir/bin"
	cp "$BUILD/kmod/$kver/memcg_softlimit.ko" "$dir/module/"
	if [ -d "$BUILD/kmod-test/$kver" ]; then cp "$BUILD/kmod-test/$kver"/*.ko "$dir/module/"; fi
	[ -d "$GUEST_SRC" ] || snapshot_guest
	rsync -a "$GUEST_SRC/" "$dir/guest/"
	if [ -d "$BUILD/tools-bin" ]; then cp -a "$BUILD/tools-bin/." "$dir/bin/"; fi
	if [ -d "$REPO/tools/bpftrace" ]; then cp -a "$REPO/tools/bpftrace" "$dir/bpftrace"; fi
	# The units the tool's package installs (t-57 runs what they run).
	if [ -d "$REPO/packaging/systemd" ]; then cp -a "$REPO/packaging/systemd" "$dir/systemd"; fi
	# The module DKMS built for this kernel (tests/pkg/host.sh), for t-40-dkms-modprobe.
	if [ -d "$BUILD/pkg/payload/$kver" ]; then cp -a "$BUILD/pkg/payload/$kver" "$dir/dkms"; fi
	# The kernel's own selftests (selftests/<series>/test_memcontrol), built
	# from this kernel's linux-source, only when a listed test needs them.
	if grep -q '^t-[0-9]*-kselftest' <<<"$list"; then
		run_bg "$REPO/tests/vm/selftests.sh" "$kver" "$dir/selftests" ||
			msg "kernel selftests for $kver not built (build/selftests/$kver.log); the kselftest tests will fail"
	fi
	printf '%s\n' "$config" >"$dir/config"
	if [ -n "$list" ]; then printf '%s\n' "$list" >"$dir/tests.list"; else : >"$dir/tests.list"; fi
}

# --------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------
R_CONFIG=()
R_TEST=()
R_VERDICT=()
R_TIME=()
R_REASON=()
NOTES=()
add_result() { # add_result CONFIG TEST VERDICT TIME REASON
	R_CONFIG+=("$1")
	R_TEST+=("$2")
	R_VERDICT+=("$3")
	R_TIME+=("$4")
	R_REASON+=("$5")
}

# collect_results CONFIG QEMU_RC "<expected names>" [LOG_NAME (default CONFIG)]
collect_results() {
	local config=$1 qrc=$2 expected=$3 log_name=${4:-$1}
	local file=$LOG_DIR/$log_name.results.txt
	local console=${LOG_DIR#"$REPO"/}/$log_name.console.log
	local line v n r done=0 last_begun='' crash
	local -A verdict=() reason=() dur=() begun=()
	local order=()
	if [ -f "$file" ]; then
		while IFS= read -r line || [ -n "$line" ]; do
			line=${line//$'\r'/}
			case $line in
			"BEGIN "*)
				n=${line#BEGIN }
				begun[$n]=1
				last_begun=$n
				;;
			"RESULT "*)
				read -r _ v n r <<<"$line"
				[ -n "${n:-}" ] || continue
				case $v in PASS | FAIL | SKIP) ;; *) r="malformed RESULT line: $line" v=FAIL ;; esac
				[ -n "${verdict[$n]:-}" ] || order+=("$n")
				verdict[$n]=$v
				reason[$n]=${r:-}
				;;
			"INFO "*)
				read -r _ n r <<<"$line"
				case $r in
				duration_s=*) dur[$n]=${r#duration_s=}s ;;
				"out| "* | "dmesg| "*) ;; # shown only with the failure, below
				*) NOTES+=("[$config] $n: $r") ;;
				esac
				;;
			DONE) done=1 ;;
			"ERROR "*) NOTES+=("[$config] $line") ;;
			esac
		done <"$file"
	fi

	# What the console says about a crash, if anything.
	local clog=$LOG_DIR/$log_name.console.log
	local panic cause
	panic=$(grep -aE 'Kernel panic' "$clog" 2>/dev/null | tail -n 1 | tr -d '\r' | sed 's/^\[[ 0-9.]*\] //' | head -c 120 || true)
	# what led to it (the WARNING behind "panic_on_warn set", an Oops, ...)
	cause=$(grep -aE 'BUG:|WARNING:|Oops|general protection|RCU stall|soft lockup|blocked for more than' \
		"$clog" 2>/dev/null | tail -n 1 | tr -d '\r' | sed 's/^\[[ 0-9.]*\] //' | head -c 160 || true)
	crash=$cause
	[ -z "$panic" ] || crash="${cause:+$cause; }$panic"
	local why
	case $qrc in
	0) why="qemu exited normally (guest poweroff, or reboot after a panic)" ;;
	124 | 137) why="the guest was killed by the ${MSL_BOOT_TIMEOUT_USED:-?}s boot timeout" ;;
	*) why="qemu exited with status $qrc" ;;
	esac
	[ -z "$crash" ] || why="$why; console: $crash"

	for n in $expected; do
		if [ -n "${verdict[$n]:-}" ]; then
			add_result "$config" "$n" "${verdict[$n]}" "${dur[$n]:-}" "${reason[$n]:-}"
		elif [ -n "${begun[$n]:-}" ]; then
			add_result "$config" "$n" FAIL "" "guest crashed or hung during this test ($why; see $console)"
		else
			add_result "$config" "$n" FAIL "" "not run: the guest stopped before it${last_begun:+ (last test begun: $last_begun)} ($why; see $console)"
		fi
	done
	# Results the host did not expect still count.
	for n in "${order[@]}"; do
		case " $expected " in *" $n "*) continue ;; esac
		add_result "$config" "$n" "${verdict[$n]}" "${dur[$n]:-}" "${reason[$n]:-} (not expected by the host)"
	done
	if [ "$done" != 1 ]; then
		# Every expected test may have a result and the guest still died.
		local all_done=1
		for n in $expected; do [ -n "${verdict[$n]:-}" ] || all_done=0; done
		if [ "$all_done" = 1 ]; then
			add_result "$config" "(vm)" FAIL "" "no DONE from the guest ($why; see $console)"
		fi
	elif [ "$qrc" != 0 ]; then
		add_result "$config" "(vm)" FAIL "" "the guest sent DONE but did not power off cleanly ($why)"
	fi
	# The output of failed tests, as the guest sent it.
	if [ -f "$file" ]; then
		for n in $expected; do
			[ "${verdict[$n]:-}" = FAIL ] || continue
			FAIL_DETAILS+=("---- [$config] $n ----")
			while IFS= read -r line; do
				FAIL_DETAILS+=("$line")
			done < <(tr -d '\r' <"$file" | sed -n "s/^INFO $n \(out\|dmesg\)| /\1| /p")
		done
	fi
}
FAIL_DETAILS=()

# add_unit_results LOGFILE: "RESULT PASS|FAIL|SKIP unit/<name> [reason]" lines
add_unit_results() {
	local line v n r
	while IFS= read -r line; do
		line=${line//$'\r'/}
		read -r _ v n r <<<"$line"
		add_result unit "$n" "$v" "" "${r:-}"
	done < <(grep -E '^RESULT (PASS|FAIL|SKIP) ' "$1" || true)
}

# print_report: the table, the notes, and the closing line.  Returns 1 if
# anything failed (or nothing ran).
print_report() {
	local i pass=0 failc=0 skipc=0 line w=20
	for i in "${!R_TEST[@]}"; do
		[ "${#R_TEST[i]}" -le "$w" ] || w=${#R_TEST[i]}
	done
	printf '\n==== results ====\n'
	printf "%-15s %-${w}s %-6s %7s  %s\n" CONFIG TEST RESULT TIME REASON
	for i in "${!R_TEST[@]}"; do
		printf "%-15s %-${w}s %-6s %7s  %s\n" "${R_CONFIG[i]}" "${R_TEST[i]}" "${R_VERDICT[i]}" "${R_TIME[i]}" "${R_REASON[i]}"
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
