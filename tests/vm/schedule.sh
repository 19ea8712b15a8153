# shellcheck shell=bash
# tests/vm/schedule.sh: the boots of `make check` (tests/run's phase 5):
# which boots a run makes, in what order, how many at once and at what
# nice.  Sourced by tests/run after tests/vm/lib-host.sh; schedule_boots
# runs them all and returns once every boot and the host's tests are done.
#
# A row boots once for the tests that run with a host thread per vCPU and
# once more, if it has any, for those marked "# tcg: single" (patching
# kernel text both vCPUs run, which multi-threaded TCG cannot be trusted
# with: tests/vm/README.md, "Live patching under TCG").  The multi-threaded
# boots run one at a time at nice 0: a vCPU preempted by another guest
# would skew reclaim between kswapd and direct reclaim.  Such a guest keeps
# about 1.1 of the host's 2 CPUs busy, so the single-threaded boots run
# beside it, one at a time at nice MSL_SINGLE_NICE (10), on what it leaves
# (a single-threaded guest loses nothing but time by waiting: all its vCPUs
# stop at once); once the multi-threaded boots are done, the rest run
# MSL_PARALLEL_SINGLE at a time (the host's CPUs, at most 2) at nice 0.
# The package images (pkg rows: Debian 12's, Debian 13's) boot with systemd
# as PID 1, in the queue of the multi-threaded boots.  A boot whose kernel
# crashed before its first test boots once more (crashed_before_tests).
#
# What it takes from tests/run: CONFIGS (the rows), PKG_WANTED (the
# packaging tests run), KMOD_OK[kver] (the module built for kver), the
# host's tests' job (HOST_PID, empty when there is none or it is done;
# HOST_WHAT, what it runs; host_tests_done, called once it is done).  What
# it gives: each boot's results (collect_results), its time in TIMINGS, a
# rebooted crash in NOTES.
#
# Each running boot is one record, BOOTS[pid] (the pid of its
# tests/vm/boot.sh), "field=value" a line:
#   row      the row of tests/matrix
#   tcg      multi or single (MSL_TCG_THREAD)
#   nice     the nice it started at
#   names    its tests, a space between each
#   log      the base name of its logs in build/vm-logs/
#   timeout  its MSL_BOOT_TIMEOUT
#   t0       when it started (SECONDS)
#   label    what the messages and the timings call it
#   reniced  1 once it was set to nice 0 (the multi-threaded boots done)

declare -A BOOTS=()
# boot_record ID FIELD=VALUE...: boot ID's record
boot_record() {
	local id=$1
	shift
	BOOTS[$id]=$(printf '%s\n' "$@")
}
# boot_get ID FIELD: the FIELD of boot ID's record (empty if it has none)
boot_get() {
	local line
	while IFS= read -r line; do
		if [ "${line%%=*}" = "$2" ]; then
			printf '%s\n' "${line#*=}"
			return 0
		fi
	done <<<"${BOOTS[$1]}"
}
# boot_set ID FIELD VALUE: set the FIELD of boot ID's record
boot_set() {
	local line rec=()
	while IFS= read -r line; do
		[ "${line%%=*}" = "$2" ] || rec+=("$line")
	done <<<"${BOOTS[$1]}"
	boot_record "$1" ${rec[@]+"${rec[@]}"} "$2=$3"
}

# boot_prepare ROW TCG: B_* for a boot, its payload made; returns 1
# (results recorded where needed) when that boot does not happen.
boot_prepare() {
	local c=$1 tcg=$2 k list cap left n
	k=$(row_kver "$c")
	list=$(expected_tests "$c" "$tcg")
	B_NAMES=$(awk '{print $1}' <<<"$list" | tr '\n' ' ' | sed 's/ $//')
	[ -n "$B_NAMES" ] || return 1
	B_ROW=$c B_KVER=$k B_TCG=$tcg B_LABEL=$c B_LOG=$c B_ROOTFS=$(row_rootfs "$c") B_ARGS=("${EXTRA[@]}")
	[ "$tcg" = multi ] || B_LABEL="$c, single-threaded TCG" B_LOG=$c.tcg-single
	not_run() { for n in $B_NAMES; do add_result "$c" "$n" FAIL "" "not run: $1"; done; }
	if [ "${M_BOOT[$c]}" = pkg ]; then
		B_ROOTFS=$(pkg_image "$c") B_ARGS=(init=/lib/systemd/systemd systemd.unit=msl-pkg.target systemd.show_status=auto)
		[ -f "$B_ROOTFS/.complete" ] || { not_run "no package image (see the pkg results: deb/*, deb13/image/*)"; return 1; }
	elif [ -z "${KMOD_OK[$k]:-}" ]; then
		not_run "module build for $k failed"
		return 1
	fi
	if [ -n "${MSL_BOOT_TIMEOUT:-}" ]; then
		B_TIMEOUT=$MSL_BOOT_TIMEOUT
	else
		# boot (~30 s worst case, systemd's ~5 min) + the tests' own
		# timeouts + cleanup (at most 1500 s, 6000 s with MSL_LONG=1)
		cap=1500
		[ "${MSL_LONG:-0}" = 1 ] && cap=6000
		B_TIMEOUT=$(awk -v cap="$cap" -v boot="$([ "${M_BOOT[$c]}" = pkg ] && echo 300 || echo 120)" \
			'{s += $2 + 30} END {s += boot; print (s > cap ? cap : s)}' <<<"$list")
	fi
	left=$((T_START + ${MSL_RUN_BUDGET:-4800} - SECONDS - 30))
	if [ "$left" -lt 120 ]; then
		not_run "the run's time budget (MSL_RUN_BUDGET=${MSL_RUN_BUDGET:-4800}s) was spent"
		return 1
	fi
	[ "$B_TIMEOUT" -le "$left" ] || B_TIMEOUT=$left
	msg "$B_LABEL: $(wc -w <<<"$B_NAMES") tests: $B_NAMES"
	make_payload "$c" "$BUILD/payload/$B_LOG" "$list"
}

# renice_tree PID: PID, its threads and its descendants' to nice 0 and
# the best-effort I/O class (a process's nice is per thread: qemu's vCPU
# thread has its own)
renice_tree() {
	local t c
	for t in /proc/"$1"/task/*; do
		renice -n 0 -p "${t##*/}" >/dev/null 2>&1 || true
		ionice -c 2 -n 4 -p "${t##*/}" >/dev/null 2>&1 || true
	done
	for c in $(pgrep -P "$1" 2>/dev/null); do renice_tree "$c"; done
}

# boot_launch ROW TCG NICE: start a boot (its pid in BG_PID, its record in
# BOOTS)
boot_launch() {
	local t0
	boot_prepare "$1" "$2" || return 1
	MSL_QEMU_NICE=$3 MSL_TCG_THREAD=$B_TCG MSL_LOG_NAME=$B_LOG MSL_BOOT_TIMEOUT=$B_TIMEOUT MSL_ROOTFS_DIR=$B_ROOTFS \
		bg_start "$REPO/tests/vm/boot.sh" "$B_KVER" "$B_ROW" "$BUILD/payload/$B_LOG" ${B_ARGS[@]+"${B_ARGS[@]}"}
	t0=$SECONDS
	boot_record "$BG_PID" "row=$1" "tcg=$2" "nice=$3" "names=$B_NAMES" "log=$B_LOG" \
		"timeout=$B_TIMEOUT" "t0=$t0" "label=$B_LABEL"
}

# boot_reap: wait for any running boot and collect its results; a boot
# whose kernel crashed before the first test (crashed_before_tests) boots
# once more, and the report's notes say so.
declare -A REBOOTED=()
boot_reap() {
	local pid qrc=0 note='' log c nice label t0
	bg_wait_any pid || qrc=$?
	if [ "$pid" = "$HOST_PID" ]; then
		HOST_PID=
		host_tests_done
		return
	fi
	nice=$(boot_get "$pid" nice) label=$(boot_get "$pid" label) t0=$(boot_get "$pid" t0)
	[ "$nice" = 0 ] || note=" (started at nice $nice)"
	TIMINGS+=("$(printf '%-50s %5ds' "  $label$note" "$((SECONDS - t0))")")
	msg "boot $label: $((SECONDS - t0)) s$note"
	log=$(boot_get "$pid" log) c=$(boot_get "$pid" row)
	if [ -z "${REBOOTED[$log]:-}" ] && [ "${M_BOOT[$c]}" = test ] && crashed_before_tests "$log"; then
		REBOOTED[$log]=1
		mv "$LOG_DIR/$log.console.log" "$LOG_DIR/$log.crashed-boot.console.log"
		NOTES+=("[$c] the kernel crashed before the first test ($(grep -aEm1 'Oops|Kernel panic|BUG:|general protection' "$LOG_DIR/$log.crashed-boot.console.log" | tr -d '\r' | sed 's/^\[[ 0-9.]*\] //' | head -c 120)), with the module never loaded: booted again (build/vm-logs/$log.crashed-boot.console.log)")
		msg "boot $label: the kernel crashed before the first test; booting it again"
		if [ "$(boot_get "$pid" tcg)" = multi ]; then MULTI=("$c" ${MULTI[@]+"${MULTI[@]}"}); else SINGLE=("$c" ${SINGLE[@]+"${SINGLE[@]}"}); fi
		unset "BOOTS[$pid]"
		[ "$pid" != "$MULTI_PID" ] || MULTI_PID=
		return
	fi
	MSL_BOOT_TIMEOUT_USED=$(boot_get "$pid" timeout) collect_results "$c" "$qrc" "$(boot_get "$pid" names)" "$log"
	unset "BOOTS[$pid]"
	[ "$pid" != "$MULTI_PID" ] || MULTI_PID=
}

# needs_host ROW TCG: that boot waits for the host's tests: the package
# image (pkg rows) or the DKMS-built module (t-*-dkms-* tests)
needs_host() {
	local list
	[ "${M_BOOT[$1]}" != pkg ] || return 0
	list=$(expected_tests "$1" "$2")
	grep -q '^t-[0-9]*-dkms-' <<<"$list"
}
# next_boot QUEUE TCG: the index in QUEUE (MULTI or SINGLE) of the first
# row that can boot now (status 1: none)
next_boot() {
	local -n q=$1
	local i
	for i in "${!q[@]}"; do
		if [ -z "$HOST_PID" ] || ! needs_host "${q[i]}" "$2"; then
			NEXT=$i
			return 0
		fi
	done
	return 1
}
# take QUEUE I: remove the I-th row of QUEUE
take() {
	local -n q=$1
	q=("${q[@]:0:$2}" "${q[@]:$(($2 + 1))}")
}

# schedule_boots: every boot of the rows of CONFIGS, until they and the
# host's tests are done
schedule_boots() {
	local c p par single_nice cap nice_now what HOST_RENICED=
	EXTRA=()
	[ "${MSL_LONG:-0}" = 1 ] && EXTRA+=(msl.long=1)
	# tests/record-sample: t-58 sends its recording back (msl.record_sample=1).
	[ "${MSL_RECORD_SAMPLE:-0}" = 1 ] && EXTRA+=(msl.record_sample=1)
	# The queues: the rows with multi-threaded boots (the pkg rows last),
	# those with single-threaded ones.
	MULTI=() SINGLE=()
	local pkg=()
	for c in $CONFIGS; do
		case ${M_BOOT[$c]} in
		build) continue ;;
		pkg) [ -z "$PKG_WANTED" ] || [ -z "$(expected_tests "$c")" ] || pkg+=("$c") ;;
		*)
			[ -z "$(expected_tests "$c" multi)" ] || MULTI+=("$c")
			[ -z "$(expected_tests "$c" single)" ] || SINGLE+=("$c")
			;;
		esac
	done
	MULTI+=(${pkg[@]+"${pkg[@]}"})
	par=${MSL_PARALLEL_SINGLE:-$(nproc)}
	[ "$par" -le 2 ] || par=2
	[ "$par" -ge 1 ] || par=1
	single_nice=${MSL_SINGLE_NICE:-10}
	if ! [[ $single_nice =~ ^[0-9]+$ ]] || [ "$single_nice" -gt 19 ]; then
		msg "MSL_SINGLE_NICE must be 0..19, not '$single_nice'"
		exit 2
	fi
	MULTI_PID=
	what=
	[ ${#MULTI[@]} -eq 0 ] || what="${MULTI[*]}, one at a time"
	[ ${#SINGLE[@]} -eq 0 ] || what+="${what:+; }single-threaded TCG: ${SINGLE[*]}"
	[ -z "$HOST_PID" ] || what+="${what:+; }$HOST_WHAT beside them"
	[ -z "$what" ] || phase "boots: $what"
	while [ ${#MULTI[@]} -gt 0 ] || [ ${#SINGLE[@]} -gt 0 ] || [ ${#BOOTS[@]} -gt 0 ] || [ -n "$HOST_PID" ]; do
		if [ -z "$MULTI_PID" ] && [ ${#MULTI[@]} -gt 0 ] && next_boot MULTI multi; then
			c=${MULTI[NEXT]}
			take MULTI "$NEXT"
			! boot_launch "$c" multi 0 || MULTI_PID=$BG_PID
			continue
		fi
		if [ -z "$MULTI_PID" ] && [ -n "$HOST_PID" ] && [ -z "$HOST_RENICED" ]; then
			# the multi-threaded boots left wait for the host's tests, or none
			# is left: those run at nice 0 now
			renice_tree "$HOST_PID"
			HOST_RENICED=1
		fi
		if [ -z "$MULTI_PID" ] && [ ${#MULTI[@]} -eq 0 ]; then
			# the multi-threaded boots are done: what runs now runs at nice 0
			for p in "${!BOOTS[@]}"; do
				[ "$(boot_get "$p" nice)" = 0 ] || [ -n "$(boot_get "$p" reniced)" ] || renice_tree "$p"
				boot_set "$p" reniced 1
			done
		fi
		if [ -n "$MULTI_PID" ]; then
			cap=$((par > 1 ? 2 : 1)) nice_now=$single_nice # the multi boot and one
		elif [ ${#MULTI[@]} -gt 0 ]; then
			cap=$((par > 1 ? 1 : 0)) nice_now=$single_nice # one beside the host's tests
		else
			cap=$par nice_now=0
		fi
		if [ ${#BOOTS[@]} -lt "$cap" ] && [ ${#SINGLE[@]} -gt 0 ] && next_boot SINGLE single; then
			c=${SINGLE[NEXT]}
			take SINGLE "$NEXT"
			boot_launch "$c" single "$nice_now" || true
			continue
		fi
		[ ${#BOOTS[@]} -gt 0 ] || [ -n "$HOST_PID" ] || break
		boot_reap
	done
}
