#!/usr/bin/env bash
# tests/vm/trixie.sh: a cached Debian 13 (trixie) chroot with the headers of
# Debian 13's kernels, to build the module for them on a Debian 12 host.
#
# trixie-backports' kbuild binaries need trixie's libc, so these kernels are
# built for in a chroot; trixie is never added to the host's apt sources.
#
# Idempotent.  It
#   1. debootstraps trixie (minbase) into $MSL_CACHE/trixie-chroot once, with
#      its own sources: trixie, trixie-updates, trixie-backports and
#      trixie-security, from the mirrors the host's apt sources name;
#   2. runs apt-get update in the chroot when its lists are older than a day
#      (MSL_TRIXIE_REFRESH=1 forces it);
#   3. resolves, with apt-cache at run time, trixie's own 6.12 kernel (the ABI
#      linux-image-amd64 depends on) and trixie-backports' newest kernel,
#      and installs the linux-headers of both, in the -amd64, -rt-amd64 and
#      -cloud-amd64 flavours;
#   4. downloads (does not install) the linux-image packages of those six
#      kernels and the linux-source of the backports kernel into
#      $MSL_CACHE/trixie-debs.
#
# Everything is logged to stderr; stdout carries only KEY=VALUE lines:
#   MSL_TRIXIE_CHROOT=/var/cache/memcg-softlimit/trixie-chroot
#   MSL_TRIXIE_DEBS=/var/cache/memcg-softlimit/trixie-debs
#   MSL_KVER_612_DEB13=6.12.<n>+deb13-amd64
#   MSL_KVER_BPO_DEB13=7.3.<n>+deb13-amd64
#   MSL_KVERS_DEB13="<the six kernels whose headers are in the chroot>"
#   MSL_LINUX_SOURCE_BPO_DEB=<path of the linux-source .deb>
#
# Building in the chroot needs /proc mounted (objtool reads it):
#   tests/vm/trixie.sh build SRC_DIR [KVER...]
# copies SRC_DIR (a module tree) into the chroot, runs
# "make -C /lib/modules/KVER/build M=... W=1 modules" for each kernel (all
# six by default) with /proc mounted, logs to stderr, and prints one
# MSL_TRIXIE_BUILD=<kver>:ok|fail:<warnings> line per kernel; it exits 1 if
# any build failed.
#
# To build elsewhere than a copy (the harness's build/kmod/<kver>/):
#   tests/vm/trixie.sh make DIR MAKE-ARGS...
# bind-mounts DIR at the same path in the chroot and runs make there with
# MAKE-ARGS (the chroot must exist: run the script once without arguments),
# so that the objects, the .ko and the paths in the log are the host's.
#
# Environment:
#   MSL_CACHE             cache dir (default /var/cache/memcg-softlimit)
#   MSL_MIRROR            Debian mirror (default: the one the host's apt
#                         sources give for its own suite)
#   MSL_SECURITY_MIRROR   Debian security mirror (default: the host's, if any)
#   MSL_TRIXIE_REFRESH=1  apt-get update in the chroot even if lists are fresh
#   MSL_REBUILD=1         debootstrap the chroot anew
set -euo pipefail

MSL_CACHE=${MSL_CACHE:-/var/cache/memcg-softlimit}
CHROOT=$MSL_CACHE/trixie-chroot
DEBS=$MSL_CACHE/trixie-debs
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$REPO/tests/vm/common.sh"
SUITE=trixie
FLAVOURS=(amd64 rt-amd64 cloud-amd64)
# Enough to run kbuild for an external module (6.12's W=1 runs the perl
# kernel-doc, which needs more than perl-base), and to read BTF.
CHROOT_PACKAGES=(make gcc libc6-dev libelf-dev dwarves binutils kmod perl
	xz-utils zstd bzip2 lz4 lzop ca-certificates bpftool)
export DEBIAN_FRONTEND=noninteractive

T0=$SECONDS
log() { printf '[trixie %4ds] %s\n' "$((SECONDS - T0))" "$*" >&2; }
die() { printf '[trixie] ERROR: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "must run as root"

# Debian's mirror is the one the host's apt sources give for the host's
# own suite (tests/vm/common.sh's apt_mirror, as setup.sh): the archive
# that serves bookworm serves trixie.  No mirror is ever assumed.
HOST_SUITE=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
MIRROR=${MSL_MIRROR:-$(apt_mirror "$HOST_SUITE")}
SECURITY_MIRROR=${MSL_SECURITY_MIRROR:-$(apt_mirror "$HOST_SUITE-security")}
[ -n "$MIRROR" ] || die "the host's apt sources name no Debian mirror for ${HOST_SUITE:-its suite} (set MSL_MIRROR)"

MOUNTS=()
umount_all() {
	local i
	for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
		umount -l "${MOUNTS[i]}" 2>/dev/null || true
	done
	MOUNTS=()
}

mount_chroot() {
	local root=$1
	mount -t proc proc "$root/proc" || die "mount $root/proc"
	MOUNTS+=("$root/proc")
	mount --bind /dev "$root/dev" || die "mount $root/dev"
	MOUNTS+=("$root/dev")
	mount --bind /dev/pts "$root/dev/pts" || die "mount $root/dev/pts"
	MOUNTS+=("$root/dev/pts")
}

# Never rm -rf through a live mount (the chroot binds the host's /dev).
mounts_below() { awk -v d="$1/" 'index($2, d) == 1 {print $2}' /proc/mounts; }
safe_rm() {
	local d=$1
	[ -e "$d" ] || return 0
	if [ -n "$(mounts_below "$d")" ]; then
		printf '[trixie] ERROR: refusing to remove %s: mounts below it:\n%s\n' \
			"$d" "$(mounts_below "$d")" >&2
		return 1
	fi
	rm -rf "$d"
}

in_chroot() {
	chroot "$CHROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 HOME=/root "$@"
}

# chroot_apt LOGNAME apt-get-args...: output goes to $MSL_CACHE/trixie-LOGNAME.log
chroot_apt() {
	local logf=$MSL_CACHE/trixie-$1.log
	shift
	if ! in_chroot apt-get -q -y -o Dpkg::Options::=--force-confdef \
		-o Dpkg::Options::=--force-confold "$@" >>"$logf" 2>&1; then
		tail -n 25 "$logf" >&2
		die "chroot: apt-get $* failed (log: $logf)"
	fi
}

write_sources() {
	local root=$1
	rm -f "$root/etc/apt/sources.list"
	cat >"$root/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $MIRROR
Suites: $SUITE $SUITE-updates $SUITE-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
	# (none when the host's sources have no security suite)
	[ -z "$SECURITY_MIRROR" ] || cat >>"$root/etc/apt/sources.list.d/debian.sources" <<EOF

Types: deb
URIs: $SECURITY_MIRROR
Suites: $SUITE-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
}

ensure_chroot() {
	local tmp
	if [ -z "${MSL_REBUILD:-}" ] && [ -f "$CHROOT/.complete" ]; then
		log "chroot cached: $CHROOT"
		write_sources "$CHROOT"
		return 0
	fi
	tmp=$(mktemp -d "$MSL_CACHE/.trixie-XXXXXX")
	chmod 0755 "$tmp"
	BUILD_TMP=$tmp
	log "debootstrap --variant=minbase $SUITE from $MIRROR (takes a few minutes) ..."
	debootstrap --variant=minbase \
		--keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
		"$SUITE" "$tmp" "$MIRROR" >"$MSL_CACHE/trixie-debootstrap.log" 2>&1 ||
		{ tail -n 30 "$MSL_CACHE/trixie-debootstrap.log" >&2; die "debootstrap failed (log: $MSL_CACHE/trixie-debootstrap.log)"; }
	write_sources "$tmp"
	# No daemons may start inside the chroot.
	printf '#!/bin/sh\nexit 101\n' >"$tmp/usr/sbin/policy-rc.d"
	chmod +x "$tmp/usr/sbin/policy-rc.d"
	touch "$tmp/.complete"
	safe_rm "$CHROOT"
	mv "$tmp" "$CHROOT"
	BUILD_TMP=
	log "chroot made: $CHROOT"
}

ensure_lists() {
	local stamp=$CHROOT/var/lib/apt/lists/.msl-updated
	if [ -z "${MSL_TRIXIE_REFRESH:-}" ] && [ -f "$stamp" ] &&
		[ -z "$(find "$stamp" -mmin +1440)" ]; then
		log "chroot apt lists fresh (less than a day old)"
		return 0
	fi
	log "chroot: apt-get update"
	: >"$MSL_CACHE/trixie-apt-update.log"
	chroot_apt apt-update update
	touch "$stamp"
}

chroot_installed() {
	# shellcheck disable=SC2016 # dpkg-query's format, not the shell's
	[ "$(in_chroot dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

# Does the chroot's apt have an installable version of this (real) package?
chroot_has() {
	local v
	v=$(in_chroot apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2; exit}')
	[ -n "$v" ] && [ "$v" != "(none)" ]
}

# abi_of [apt-cache options...]: the kernel release the amd64 metapackage
# depends on, as the given default release sees it.
abi_of() {
	in_chroot apt-cache "$@" depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: linux-image-\([0-9][^ ]*+deb13-amd64\)\(-unsigned\)\?$/\1/p' |
		head -n1
}

resolve_kernels() {
	local base f k
	# trixie-backports is NotAutomatic, so the plain candidate is trixie's
	# own (or trixie-security's) kernel.
	K612=$(abi_of)
	[ -n "$K612" ] || die "cannot resolve trixie's kernel from linux-image-amd64"
	case $K612 in 6.12.*) ;; *) die "trixie's linux-image-amd64 is $K612, not 6.12" ;; esac
	KBPO=$(abi_of -o APT::Default-Release="$SUITE-backports")
	[ -n "$KBPO" ] || die "cannot resolve trixie-backports' kernel from linux-image-amd64"
	[ "$KBPO" != "$K612" ] || die "trixie-backports has no kernel newer than $K612"
	KVERS=()
	for base in "$K612" "$KBPO"; do
		for f in "${FLAVOURS[@]}"; do
			k=${base%-amd64}-$f
			chroot_has "linux-headers-$k" || die "no linux-headers-$k in the chroot's apt"
			KVERS+=("$k")
		done
	done
	log "kernels resolved: trixie $K612, trixie-backports $KBPO (flavours: ${FLAVOURS[*]})"
}

install_packages() {
	local missing=() p k
	for p in "${CHROOT_PACKAGES[@]}"; do
		chroot_installed "$p" || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		log "chroot: installing ${missing[*]}"
		chroot_apt install install --no-install-recommends "${missing[@]}"
	fi
	missing=()
	for k in "${KVERS[@]}"; do
		if ! chroot_installed "linux-headers-$k" ||
			[ ! -e "$CHROOT/lib/modules/$k/build/Makefile" ]; then
			missing+=("linux-headers-$k")
		fi
	done
	if [ ${#missing[@]} -gt 0 ]; then
		log "chroot: installing ${missing[*]}"
		# Naming trixie-backports lets apt take the backports kernel's
		# kbuild and common headers from there; trixie's own come from trixie.
		chroot_apt install install --no-install-recommends \
			-t "$SUITE-backports" "${missing[@]}"
	fi
	for k in "${KVERS[@]}"; do
		[ -e "$CHROOT/lib/modules/$k/build/Makefile" ] ||
			die "chroot lacks /lib/modules/$k/build after installing its headers"
	done
	log "headers installed for ${KVERS[*]}"
}

# Image package for a kernel release: the signed one if it exists, else the
# -unsigned one.
image_pkg() {
	local p
	for p in "linux-image-$1" "linux-image-$1-unsigned"; do
		if chroot_has "$p"; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

# fetch PKG: apt-get download PKG into $DEBS unless a .deb of its candidate
# version is there already.
fetch() {
	local pkg=$1 ver file
	ver=$(in_chroot apt-cache -o APT::Default-Release="$SUITE-backports" policy "$pkg" |
		awk '/Candidate:/ {print $2; exit}')
	file=$DEBS/${pkg}_${ver//:/%3a}_
	if compgen -G "$file*.deb" >/dev/null; then
		FETCHED=$(compgen -G "$file*.deb" | head -n1)
		return 0
	fi
	log "downloading $pkg $ver"
	# apt-get download runs as _apt: the dir must be writable by it.
	mkdir -p "$CHROOT/var/tmp/msl-debs"
	chmod 0777 "$CHROOT/var/tmp/msl-debs"
	if ! (in_chroot sh -c "cd /var/tmp/msl-debs && apt-get download -q $pkg=$ver") \
		>>"$MSL_CACHE/trixie-download.log" 2>&1; then
		tail -n 20 "$MSL_CACHE/trixie-download.log" >&2
		die "apt-get download $pkg=$ver failed"
	fi
	mv "$CHROOT/var/tmp/msl-debs/"*.deb "$DEBS/"
	FETCHED=$(compgen -G "$file*.deb" | head -n1) ||
		die "apt-get download $pkg left no $file*.deb"
}

# kernel_parts KVER IMAGE_PKG: the packages of KVER that IMAGE_PKG depends on: from
# 7.x Debian splits the image into linux-base-, linux-binary- and
# linux-modules-<kver>, which linux-image-<kver> only depends on.
kernel_parts() {
	in_chroot apt-cache depends "$2" 2>/dev/null |
		awk -v k="$1" '$1 == "Depends:" && (index($2, "-" k) == length($2) - length(k) ||
			index($2, "-" k "-unsigned") == length($2) - length(k) - 9) {print $2}' |
		sort -u
}

download_debs() {
	local k pkg part major
	mkdir -p "$DEBS"
	for k in "${KVERS[@]}"; do
		pkg=$(image_pkg "$k") || die "no linux-image package for $k"
		fetch "$pkg"
		for part in $(kernel_parts "$k" "$pkg"); do
			fetch "$part"
		done
	done
	major=$(echo "$KBPO" | cut -d. -f1-2)
	fetch "linux-source-$major"
	SOURCE_DEB=$FETCHED
}

# build SRC [KVER...]
build() {
	local src=$1 k dst=/var/tmp/msl-build logf out warn rc=0
	shift
	[ -d "$src" ] || die "build: no directory $src"
	[ $# -gt 0 ] || set -- "${KVERS[@]}"
	mount_chroot "$CHROOT"
	mkdir -p "$MSL_CACHE/trixie-build-logs"
	for k in "$@"; do
		[ -e "$CHROOT/lib/modules/$k/build/Makefile" ] || die "build: no headers for $k in the chroot"
		rm -rf "${CHROOT:?}$dst"
		mkdir -p "$CHROOT$dst"
		cp -a "$src/." "$CHROOT$dst/"
		logf=$MSL_CACHE/trixie-build-logs/$k.log
		log "building $src for $k (log: $logf)"
		if in_chroot make -C "/lib/modules/$k/build" M="$dst" W=1 modules >"$logf" 2>&1; then
			out=ok
		else
			out=fail
			rc=1
		fi
		warn=$(grep -c -E 'warning:|error:' "$logf" || true)
		log "$k: $out, $warn warning/error lines"
		echo "MSL_TRIXIE_BUILD=$k:$out:$warn"
	done
	rm -rf "${CHROOT:?}$dst"
	umount_all
	return $rc
}

# chroot_make DIR MAKE-ARGS...: make in the chroot, DIR bound at its own path
chroot_make() {
	local dir rc=0
	dir=$(cd "${1:?usage: $0 make DIR MAKE-ARGS...}" && pwd)
	shift
	[ -f "$CHROOT/.complete" ] || die "no chroot at $CHROOT: run $0 first"
	mount_chroot "$CHROOT"
	mkdir -p "$CHROOT$dir"
	mount --bind "$dir" "$CHROOT$dir" || die "mount --bind $dir"
	MOUNTS+=("$CHROOT$dir")
	in_chroot make "$@" || rc=$?
	umount_all
	return $rc
}

BUILD_TMP=
cleanup() {
	umount_all
	if [ -n "$BUILD_TMP" ] && [ -d "$BUILD_TMP" ]; then
		safe_rm "$BUILD_TMP" || true
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

main() {
	mkdir -p "$MSL_CACHE"
	exec 9>"$MSL_CACHE/.trixie.lock"
	if ! flock -n 9; then
		log "waiting for another trixie.sh holding $MSL_CACHE/.trixie.lock ..."
		flock 9
	fi
	if [ "${1:-}" = make ]; then
		shift
		chroot_make "$@"
		return
	fi
	ensure_chroot
	mount_chroot "$CHROOT"
	ensure_lists
	resolve_kernels
	install_packages
	download_debs
	in_chroot apt-get clean
	umount_all
	[ -z "$(mounts_below "$CHROOT")" ] || die "mounts left below $CHROOT"

	if [ "${1:-}" = build ]; then
		shift
		[ $# -gt 0 ] || die "usage: $0 build SRC_DIR [KVER...]"
		build "$@"
		return
	fi
	log "done in $((SECONDS - T0)) s"
	echo "MSL_TRIXIE_CHROOT=$CHROOT"
	echo "MSL_TRIXIE_DEBS=$DEBS"
	echo "MSL_KVER_612_DEB13=$K612"
	echo "MSL_KVER_BPO_DEB13=$KBPO"
	echo "MSL_KVERS_DEB13=\"${KVERS[*]}\""
	echo "MSL_LINUX_SOURCE_BPO_DEB=$SOURCE_DEB"
}

main "$@"
