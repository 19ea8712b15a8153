# shellcheck shell=bash
# tests/vm/common.sh: what the host-side scripts share (sourced; no side
# effects): the configuration table (tests/matrix), the tests' headers, the
# host's Debian mirror, and chroot helpers.
#
# The table (tests/matrix; MSL_MATRIX overrides the file):
#   matrix_load                    reads it: M_ROWS (names, in order),
#                                  M_DEBIAN[row] M_SERIES M_FLAVOUR M_CGROUP
#                                  M_LRU M_BOOT M_TESTS, M_SET[name]
#   matrix_kver_re ROW             the ERE a kernel release of ROW matches
#   matrix_kver ROW "KVERS"        the release of KVERS that ROW boots
#   matrix_selects ROW TEST        the row's tests column selects TEST
# Tests (tests/cases/t-*.sh and bench/guest/bench-*.sh):
#   test_header FILE FIELD         a "# FIELD: value" header line's value
#   header_admits ROW "PATTERNS"   a "# configs:" header admits ROW
#   name_matches NAME "GLOBS"      NAME matches one of GLOBS (MSL_TESTS)

: "${REPO:?REPO must be set}"
MATRIX=${MSL_MATRIX:-$REPO/tests/matrix}

# --------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------
M_ROWS=()
# shellcheck disable=SC2034 # read by the scripts that source this
declare -A M_DEBIAN=() M_SERIES=() M_FLAVOUR=() M_CGROUP=() M_LRU=() M_BOOT=() M_TESTS=() M_SET=()
matrix_load() {
	local - line name debian series flavour cgroup lru boot tests n=0
	set -f
	M_ROWS=() M_DEBIAN=() M_SERIES=() M_FLAVOUR=() M_CGROUP=() M_LRU=() M_BOOT=() M_TESTS=() M_SET=()
	[ -r "$MATRIX" ] || { echo "no configuration table $MATRIX" >&2; return 1; }
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		line=${line%%#*}
		[ -n "${line//[[:space:]]/}" ] || continue
		read -r name debian series flavour cgroup lru boot tests <<<"$line"
		if [ "$name" = set ]; then
			M_SET[$debian]="$series $flavour $cgroup $lru $boot $tests"
			continue
		fi
		if [ -z "$tests" ] || ! [[ $debian =~ ^[0-9]+$ ]] || ! [[ $cgroup =~ ^[12]$ ]] ||
			! [[ $lru =~ ^(classic|mglru)$ ]] || ! [[ $boot =~ ^(test|pkg|build)$ ]] ||
			[ -n "${M_BOOT[$name]:-}" ]; then
			echo "$MATRIX:$n: malformed or repeated row: $line" >&2
			return 1
		fi
		if [ "$debian" != 12 ] && [ "$debian" != 13 ]; then
			echo "$MATRIX:$n: $name: Debian $debian: the harness knows Debian 12 (the host's apt) and 13 (tests/vm/trixie.sh)" >&2
			return 1
		fi
		M_ROWS+=("$name")
		M_DEBIAN[$name]=$debian M_SERIES[$name]=$series M_FLAVOUR[$name]=$flavour
		# shellcheck disable=SC2034 # read by the scripts that source this
		M_CGROUP[$name]=$cgroup M_LRU[$name]=$lru M_BOOT[$name]=$boot M_TESTS[$name]=$tests
	done <"$MATRIX"
}

# matrix_kver_re ROW: Debian's kernel releases are <series>.<n>[-<abi>]
# [+deb<N>]-<flavour> (6.1.0-57-amd64, 6.12.118+deb12-rt-amd64).
matrix_kver_re() {
	local s=${M_SERIES[$1]//./\\.}
	echo "^$s\\.[0-9]+(-[0-9]+)?(\\+deb${M_DEBIAN[$1]})?-${M_FLAVOUR[$1]}\$"
}

# matrix_kver ROW "KVERS": the one of KVERS for ROW (status 1: none)
matrix_kver() {
	local re k
	re=$(matrix_kver_re "$1")
	for k in $2; do
		[[ $k =~ $re ]] && { echo "$k"; return 0; }
	done
	return 1
}

# matrix_selects ROW TEST: the row's tests column selects TEST (the last
# glob that matches decides; "!" leaves out).  MSL_LONG=1 selects every
# test on every booted row (the tests' own "# configs:" still decide).
matrix_selects() {
	local - row=$1 t=$2 w g hit=1 words=()
	set -f
	[ "${MSL_LONG:-0}" != 1 ] || [ "${M_TESTS[$row]}" = - ] || return 0
	for w in ${M_TESTS[$row]}; do
		case $w in
		@* | !@*)
			local neg=${w%%@*} s=${w#*@}
			[ -n "${M_SET[$s]+x}" ] || { echo "$MATRIX: no set @$s" >&2; return 1; }
			for g in ${M_SET[$s]}; do words+=("$neg$g"); done
			;;
		*) words+=("$w") ;;
		esac
	done
	for w in "${words[@]}"; do
		g=${w#!}
		[ "$g" != all ] || g='*'
		# shellcheck disable=SC2053 # glob match intended
		if [[ $t == $g ]]; then
			if [ "$w" = "$g" ] || [ "$w" = all ]; then hit=0; else hit=1; fi
		fi
	done
	return "$hit"
}

# --------------------------------------------------------------------------
# Tests' headers
# --------------------------------------------------------------------------
# test_header FILE FIELD: the value of a "# FIELD: value" line among the
# first 30 (its first word)
test_header() {
	sed -n "1,30s/^#[[:space:]]*$2:[[:space:]]*\([^[:space:]]*\).*/\1/p" "$1" | head -n 1
}
# test_configs FILE: the whole "# configs:" value ("all" when missing)
test_configs() {
	local c
	c=$(sed -n '1,30s/^#[[:space:]]*configs:[[:space:]]*//p' "$1" | head -n 1)
	echo "${c:-all}"
}

# header_admits ROW "PATTERNS": "all" admits every row that boots the test
# rootfs; other patterns are globs of row names (the package image runs
# only the tests that name it: pkg-*).
header_admits() {
	local - pat
	set -f
	for pat in $2; do
		[ "$pat" != all ] || pat='*'
		[ "$pat" = '*' ] && [ "${M_BOOT[$1]}" != test ] && continue
		# shellcheck disable=SC2053 # glob match intended
		[[ $1 == $pat ]] && return 0
	done
	return 1
}

# name_matches NAME "GLOBS": empty GLOBS match everything
name_matches() {
	local - g
	set -f
	[ -n "$2" ] || return 0
	for g in $2; do
		g=${g%.sh}
		# shellcheck disable=SC2053 # glob match intended
		[[ $1 == $g ]] && return 0
	done
	return 1
}

# --------------------------------------------------------------------------
# The host's Debian mirror, as apt has it
# --------------------------------------------------------------------------
# apt_mirror SUITE: the URI the host's apt sources give for SUITE
# (deb822 files in /etc/apt/sources.list.d/ and one-line sources.list
# entries), empty if none.  MSL_APT_SOURCES overrides the files read.
apt_mirror() {
	local f files=()
	if [ -n "${MSL_APT_SOURCES:-}" ]; then
		read -ra files <<<"$MSL_APT_SOURCES"
	else
		files=(/etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources)
	fi
	for f in "${files[@]}"; do
		[ -r "$f" ] || continue
		case $f in
		*.sources)
			awk -v want="$1" '
				function flush() { if (uri != "" && hit && on) { print uri; exit } uri = ""; hit = 0; on = 1 }
				BEGIN { on = 1 }
				/^[ \t]*$/ { flush(); next }
				/^[ \t]*#/ { next }
				/^Enabled:[ \t]*no/ { on = 0 }
				/^Types:/ && !/deb([ \t]|$)/ { on = 0 }
				/^URIs:/ { uri = $2 }
				/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == want) hit = 1 }
				END { flush() }' "$f"
			;;
		*)
			awk -v want="$1" '$1 == "deb" {
				i = 2; if ($i ~ /^\[/) while ($i !~ /\]$/) i++; if ($i ~ /^\[/ || $i ~ /\]$/) i++
				if ($(i + 1) == want) { print $i; exit } }' "$f"
			;;
		esac
	done | head -n 1
}

# --------------------------------------------------------------------------
# Chroots
# --------------------------------------------------------------------------
# mount_chroot ROOT: /proc, /sys, /dev, /dev/pts in ROOT, remembered in
# CHROOT_MOUNTS; umount_chroot [ROOT] takes them (those below ROOT) away.
CHROOT_MOUNTS=()
mount_chroot() {
	local r=$1 m
	for m in proc sys dev dev/pts; do
		case $m in
		proc) mount -t proc proc "$r/proc" ;;
		sys) mount -t sysfs sysfs "$r/sys" ;;
		*) mount --bind "/$m" "$r/$m" ;;
		esac || { echo "cannot mount $r/$m" >&2; return 1; }
		CHROOT_MOUNTS+=("$r/$m")
	done
}
umount_chroot() {
	local i kept=()
	for ((i = ${#CHROOT_MOUNTS[@]} - 1; i >= 0; i--)); do
		case ${CHROOT_MOUNTS[i]} in
		"${1:-}"/*) umount -l "${CHROOT_MOUNTS[i]}" 2>/dev/null || true ;;
		*) kept=("${CHROOT_MOUNTS[i]}" ${kept[@]+"${kept[@]}"}) ;;
		esac
	done
	CHROOT_MOUNTS=(${kept[@]+"${kept[@]}"})
}
in_chroot() {
	local r=$1
	shift
	chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 HOME=/root "$@"
}
# Never rm -rf through a live mount (a chroot binds the host's /dev).
mounts_below() { awk -v d="$1/" 'index($2, d) == 1 {print $2}' /proc/mounts; }
safe_rm() {
	[ -e "$1" ] || return 0
	if [ -n "$(mounts_below "$1")" ]; then
		printf 'refusing to remove %s: mounts below it: %s\n' "$1" "$(mounts_below "$1" | tr '\n' ' ')" >&2
		return 1
	fi
	rm -rf "$1"
}
