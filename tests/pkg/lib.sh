# shellcheck shell=bash
# tests/pkg/lib.sh: the packaging tests' part of tests/run (sourced after
# tests/vm/lib-host.sh, whose helpers it uses).
#
#   pkg_host_stage     after the module builds: tests/pkg/host.sh (DKMS on the
#                      host, make install, the .deb, lintian, the package
#                      image); its results go in the table as config "pkg"
#   pkg_boot_stage CONFIGS
#                      after the matrix: boots the package image with systemd
#                      as PID 1 (configs pkg-6.1, pkg-6.12: one for each
#                      kernel series in CONFIGS) and runs the guest tests
#                      whose header says "# configs: pkg-*"
#
# Both do nothing when MSL_NO_PKG is set, or when MSL_TESTS selects none of
# t-40-dkms-modprobe, t-41-dkms-boot, t-42-dkms-unit, "dkms", "deb".

PKG_OUT=$BUILD/pkg

pkg_wanted() {
	[ -z "${MSL_NO_PKG:-}" ] || return 1
	local n
	for n in t-40-dkms-modprobe t-41-dkms-boot t-42-dkms-unit dkms deb; do
		test_matches_filter "$n" && return 0
	done
	return 1
}

# pkg_host_stage: run tests/pkg/host.sh, add its results.
pkg_host_stage() {
	# The guest test t-40 takes the DKMS-built module from here: never a
	# stale one.
	rm -rf "$PKG_OUT/payload" "$PKG_OUT/image"
	pkg_wanted || return 0
	phase "packaging: DKMS, .deb, lintian, package image (tests/pkg/host.sh)"
	mkdir -p "$PKG_OUT"
	local rc=0 line v n r
	local -A t=()
	MSL_KVER_61=$MSL_KVER_61 MSL_KVER_612=$MSL_KVER_612 MSL_ROOTFS_DIR=$MSL_ROOTFS_DIR MSL_PKG_OUT=$PKG_OUT \
		run_bg "$REPO/tests/pkg/host.sh" >"$PKG_OUT/host.out" || rc=$?
	while IFS= read -r line; do
		case $line in
		"TIME "*) read -r _ n v <<<"$line" && t[$n]=${v}s ;;
		esac
	done <"$PKG_OUT/host.out"
	while IFS= read -r line; do
		case $line in
		"RESULT "*)
			read -r _ v n r <<<"$line"
			add_result pkg "$n" "$v" "${t[$n]:-}" "${r:-}"
			;;
		"INFO "*)
			read -r _ n r <<<"$line"
			NOTES+=("[pkg] $n: $r")
			;;
		esac
	done <"$PKG_OUT/host.out"
	if [ "$rc" != 0 ]; then
		add_result pkg tests/pkg/host.sh FAIL "" "exited with status $rc (see its output above; build/pkg/)"
	fi
	return 0
}

# pkg_expected_tests CONFIG: "<name> <timeout>" of the guest tests whose
# "# configs:" header names CONFIG by a pattern other than "all" (the
# package image runs only the tests written for it).
pkg_expected_tests() {
	local config=$1 f name cfgs to pat
	[ -d "$GUEST_SRC" ] || snapshot_guest
	for f in "$GUEST_SRC"/t-*.sh; do
		[ -e "$f" ] || continue
		name=$(basename "$f" .sh)
		test_matches_filter "$name" || continue
		cfgs=$(sed -n '1,30s/^#[[:space:]]*configs:[[:space:]]*//p' "$f" | head -n 1)
		to=$(sed -n '1,30s/^#[[:space:]]*timeout:[[:space:]]*\([0-9][0-9]*\).*/\1/p' "$f" | head -n 1)
		for pat in $cfgs; do
			# shellcheck disable=SC2053 # glob match intended
			if [ "$pat" != all ] && [[ $config == $pat ]]; then
				echo "$name ${to:-300}"
				break
			fi
		done
	done
	return 0
}

# pkg_boot_stage "CONFIGS": boot the package image once per kernel series.
pkg_boot_stage() {
	pkg_wanted || return 0
	local configs=$1 c k series list names payload bt left qrc img=$PKG_OUT/image
	local pkgcfgs=()
	for series in 6.1 6.12; do
		case " $configs " in *" $series-"*) pkgcfgs+=("pkg-$series") ;; esac
	done
	for c in "${pkgcfgs[@]}"; do
		case $c in pkg-6.1) k=$MSL_KVER_61 ;; *) k=$MSL_KVER_612 ;; esac
		list=$(pkg_expected_tests "$c")
		names=$(awk '{print $1}' <<<"$list" | tr '\n' ' ' | sed 's/ $//')
		[ -n "$names" ] || continue
		if [ ! -f "$img/.complete" ]; then
			for n in $names; do add_result "$c" "$n" FAIL "" "not run: no package image (see the pkg results: deb/*)"; done
			continue
		fi
		phase "boot $c ($k, package image, systemd)"
		payload=$BUILD/payload/$c
		rm -rf "$payload"
		mkdir -p "$payload/pkg"
		[ -d "$GUEST_SRC" ] || snapshot_guest
		rsync -a "$GUEST_SRC/" "$payload/guest/"
		cp "$REPO/tests/pkg/guest-runner.sh" "$img/expect" "$payload/pkg/"
		printf '%s\n' "$c" >"$payload/config"
		printf '%s\n' "$list" >"$payload/tests.list"
		# systemd's boot under TCG (~1 min) + the tests + a margin
		bt=$(awk '{s += $2 + 30} END {print s + 300}' <<<"$list")
		left=$((T_START + ${MSL_RUN_BUDGET:-4800} - SECONDS - 30))
		if [ "$left" -lt 120 ]; then
			for n in $names; do add_result "$c" "$n" FAIL "" "not run: the run's time budget was spent"; done
			continue
		fi
		[ "$bt" -le "$left" ] || bt=$left
		msg "$c: booting the package image with systemd: $names"
		qrc=0
		MSL_ROOTFS_DIR=$img MSL_BOOT_TIMEOUT=$bt run_bg "$REPO/tests/vm/boot.sh" "$k" "$c" "$payload" \
			init=/lib/systemd/systemd systemd.unit=msl-pkg.target systemd.show_status=auto || qrc=$?
		MSL_BOOT_TIMEOUT_USED=$bt collect_results "$c" "$qrc" "$names"
	done
}
