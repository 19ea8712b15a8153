#!/usr/bin/env bash
# tests/vm/setup.sh [--minimal] [ROW...]: prepare a Debian 12 host for the
# QEMU test harness, for the rows of tests/matrix given (default: those of
# MSL_CONFIGS, else every row).
#
# Idempotent.  It
#   1. adds the bookworm-backports apt source if it is missing (from the
#      mirror the host's own apt sources name), runs apt-get update and
#      installs the host packages: those that boot a guest and build the
#      module and the tool, and, without --minimal (make demo's), those of
#      the packaging tests and the benchmarks' plots;
#   2. resolves the kernel of each Debian 12 row given from apt at run time
#      (MSL_KERNELS="<kver> ..." pins releases: a row takes the one that
#      fits its series and flavour) and installs their linux-headers
#      packages on the host;
#   3. finds in the cache, or builds, a guest root filesystem image with
#      those kernels installed, plus each kernel's vmlinuz and initrd: an
#      image with every kernel wanted and perhaps more (what make check
#      built serves make demo), else a new one made from the cached base
#      tree (debootstrap and packages, no kernel: what make demo built
#      serves make check), in which only the kernels are installed;
#   4. when Debian 13 rows are given: runs tests/vm/trixie.sh (the Debian
#      13 chroot with their headers, their image packages downloaded) and
#      finds or builds a Debian 13 rootfs the same way, with the kernels of
#      the Debian 13 rows that boot.
#
# Everything is logged to stderr.  stdout carries only KEY=VALUE lines for
# the callers (tests/vm/lib-host.sh's run_setup, tests/vm/boot.sh):
#   MSL_KVERS=6.1.0-57-amd64 6.12.118+deb12-amd64 ...   (the Debian 12 rows')
#   MSL_ROOTFS_DIR=/var/cache/memcg-softlimit/rootfs-<key>
# and with Debian 13 rows:
#   MSL_KVERS_13=7.3.4+deb13-amd64 ...   (every Debian 13 row's kernel)
#   MSL_ROOTFS_DIR_13=/var/cache/memcg-softlimit/rootfs13-<key>
#   MSL_TRIXIE_CHROOT=/var/cache/memcg-softlimit/trixie-chroot
# The rootfs dir holds rootfs.img, vmlinuz-<kver>, initrd.img-<kver>,
# config-<kver> and kernels (one kver per line; it may have more kernels
# than were asked for).  Without Debian 12 rows MSL_KVERS and
# MSL_ROOTFS_DIR are empty.
#
# Environment:
#   MSL_CONFIGS      the rows when none are given
#   MSL_CACHE        cache dir (default /var/cache/memcg-softlimit)
#   MSL_KERNELS      kernel releases instead of resolving them from apt
#   MSL_MIRROR, MSL_SECURITY_MIRROR
#                    Debian mirrors for debootstrap and the guest (default:
#                    the host's apt sources' for bookworm, bookworm-security)
#   MSL_SKIP_APT=1   skip apt-get update/install (offline debugging only)
#   MSL_REBUILD=1    rebuild the rootfs (base and image) even if cached
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$HERE/common.sh"
MSL_CACHE=${MSL_CACHE:-/var/cache/memcg-softlimit}
SUITE=bookworm
# Debian's mirror is the one the host's apt uses, as apt itself does.
MIRROR=${MSL_MIRROR:-$(apt_mirror "$SUITE")}
SECURITY_MIRROR=${MSL_SECURITY_MIRROR:-$(apt_mirror "$SUITE-security")}
BACKPORTS_SOURCES=/etc/apt/sources.list.d/bookworm-backports.sources
export DEBIAN_FRONTEND=noninteractive
# Bump to force a rootfs rebuild when something outside the hashed recipe
# (build_base, build_image, ROOTFS_PACKAGES, msl-init) changes.
RECIPE_VERSION=1

# What booting a guest and building the module and the tool need (make
# demo: --minimal) ...
HOST_PACKAGES=(
	qemu-system-x86 qemu-utils debootstrap debian-archive-keyring e2fsprogs
	cpio build-essential gcc make dwarves libelf-dev pkg-config
	libtracefs-dev libtraceevent-dev libtracecmd-dev libsmartcols-dev trace-cmd
	rsync kmod coreutils util-linux xz-utils zstd
)
# ... and what make check's packaging tests and make bench's plots add.
CHECK_HOST_PACKAGES=(
	dkms dh-dkms debhelper dpkg-dev lintian openssl
	python3-matplotlib python3-jsonschema prometheus prometheus-node-exporter
)
MINIMAL=
if [ "${1:-}" = --minimal ]; then
	MINIMAL=1
	shift
fi
# The rows to serve.
read -ra ROWS <<<"${*:-${MSL_CONFIGS:-}}"

# Installed into the guest rootfs (stress-ng only if the archive has it;
# PostgreSQL, with pgbench, for make bench's app part: Debian 12's 15,
# Debian 13's 17).
ROOTFS_PACKAGES=(
	kmod procps util-linux mount e2fsprogs initramfs-tools zstd linux-base
	busybox bash coreutils mawk gawk grep sed findutils psmisc
	trace-cmd bpftrace libtracefs1 libtraceevent1 libtracecmd1
	tmux iproute2 less
	postgresql
)
ROOTFS_OPTIONAL_PACKAGES=(stress-ng)

T0=$SECONDS
log() { printf '[setup %4ds] %s\n' "$((SECONDS - T0))" "$*" >&2; }
die() { printf '[setup] ERROR: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "must run as root"
[ -n "$MIRROR" ] || die "the host's apt sources name no mirror for $SUITE (set MSL_MIRROR)"

# --------------------------------------------------------------------------
# 1. Host packages
# --------------------------------------------------------------------------
ensure_backports_source() {
	if grep -rqsE '^[^#]*bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
		return 0
	fi
	log "adding $BACKPORTS_SOURCES"
	printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
		"$MIRROR" "$SUITE-backports" /usr/share/keyrings/debian-archive-keyring.gpg >"$BACKPORTS_SOURCES"
}

pkg_installed() {
	[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

# apt_install [-t release] pkgs...: output goes to $MSL_CACHE/host-apt.log
apt_install() {
	if ! apt-get install -y -q --no-install-recommends \
		-o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "$@" \
		>>"$MSL_CACHE/host-apt.log" 2>&1; then
		tail -n 25 "$MSL_CACHE/host-apt.log" >&2
		log "apt-get install $* failed (log: $MSL_CACHE/host-apt.log)"
		return 1
	fi
}

install_host_packages() {
	local missing=() p pkgs=("${HOST_PACKAGES[@]}")
	[ -n "$MINIMAL" ] || pkgs+=("${CHECK_HOST_PACKAGES[@]}")
	for p in "${pkgs[@]}"; do
		pkg_installed "$p" || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		log "installing host packages: ${missing[*]}"
		apt_install "${missing[@]}" || die "cannot install host packages"
	else
		log "host packages already installed"
	fi
}

# --------------------------------------------------------------------------
# 2. Kernels
# --------------------------------------------------------------------------
# Image package for a kernel release: the signed one if it exists, else the
# -unsigned one (the newest bookworm-backports kernels come only unsigned).
image_pkg() {
	local kver=$1 p
	for p in "linux-image-$kver" "linux-image-$kver-unsigned"; do
		if has_pkg "$p"; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

# Does apt have an installable version of this (real) package?
has_pkg() {
	local v
	v=$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2; exit}')
	[ -n "$v" ] && [ "$v" != "(none)" ]
}

# newest_kernel RE: the newest release matching RE whose image and headers
# apt has.
newest_kernel() {
	local k
	for k in $(apt-cache pkgnames linux-image- 2>/dev/null |
		sed -n 's/^linux-image-\(.*\)$/\1/p' | sed 's/-unsigned$//' | grep -E "$1" | sort -u | sort -rV); do
		if has_pkg "linux-headers-$k" && image_pkg "$k" >/dev/null; then
			echo "$k"
			return 0
		fi
	done
	return 1
}

# resolve_kernels: KVERS, one kernel per (series, flavour) of the Debian 12
# rows given: pinned by MSL_KERNELS, or the newest apt has.
resolve_kernels() {
	local row re k
	KVERS=()
	for row in "${ROWS[@]}"; do
		[ "${M_DEBIAN[$row]}" = 12 ] || continue
		matrix_kver "$row" "${KVERS[*]}" >/dev/null && continue
		re=$(matrix_kver_re "$row")
		if ! k=$(matrix_kver "$row" "${MSL_KERNELS:-}"); then
			k=$(newest_kernel "$re") ||
				die "no kernel for $row in apt: no linux-image and linux-headers matching $re (apt-get update done? bookworm-backports enabled?)"
		fi
		KVERS+=("$k")
	done
	[ ${#KVERS[@]} -gt 0 ] || return 0
	log "kernels${MSL_KERNELS:+ (MSL_KERNELS pins some)}: ${KVERS[*]}"
}

install_headers() {
	local k
	for k in "${KVERS[@]}"; do
		if pkg_installed "linux-headers-$k" && [ -e "/lib/modules/$k/build/Makefile" ]; then
			continue
		fi
		log "installing linux-headers-$k"
		apt_install "linux-headers-$k" ||
			apt_install -t bookworm-backports "linux-headers-$k" ||
			die "cannot install linux-headers-$k"
		[ -e "/lib/modules/$k/build/Makefile" ] || die "/lib/modules/$k/build is missing after installing headers"
	done
}

# --------------------------------------------------------------------------
# 3. Guest rootfs (cached)
# --------------------------------------------------------------------------
# The rootfs being built: R_SUITE, its kernels R_KVERS, and R_DEBS, the
# directory of their image packages (empty: apt-get download on the host).
# It is made in two cached steps: the base, a directory tree with
# everything but the kernels (base-<prefix>-<key>/root, ~3/4 of the
# time), then the image of that tree with the kernels installed
# (<prefix>-<key>/rootfs.img), so that another set of kernels costs only
# their installation.
R_SUITE=$SUITE R_DEBS='' R_KVERS=() R_PREFIX=rootfs

# build_base OUTDIR: OUTDIR/root; everything in this function is part of
# the base's cache key.
build_base() {
	local out=$1 root=$1/root pkg
	mkdir -p "$root"

	log "debootstrap --variant=minbase $R_SUITE (takes a few minutes) ..."
	debootstrap --variant=minbase "$R_SUITE" "$root" "$MIRROR" \
		>"$out/debootstrap.log" 2>&1 ||
		{ tail -n 30 "$out/debootstrap.log" >&2; die "debootstrap failed (log: $out/debootstrap.log)"; }
	log "debootstrap done"

	# Same suites as the host: bookworm, -updates, -security, -backports.
	rm -f "$root/etc/apt/sources.list"
	{
		printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
			"$MIRROR" "$R_SUITE $R_SUITE-updates $R_SUITE-backports" /usr/share/keyrings/debian-archive-keyring.gpg
		[ -z "$SECURITY_MIRROR" ] ||
			printf '\nTypes: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
				"$SECURITY_MIRROR" "$R_SUITE-security" /usr/share/keyrings/debian-archive-keyring.gpg
	} >"$root/etc/apt/sources.list.d/debian.sources"
	# No daemons may start inside the chroot (build_image removes this).
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod +x "$root/usr/sbin/policy-rc.d"
	echo msl-guest >"$root/etc/hostname"
	printf '127.0.0.1\tlocalhost\n127.0.1.1\tmsl-guest\n' >"$root/etc/hosts"

	mount_chroot "$root" || die "cannot mount /proc, /sys, /dev in $root"
	log "chroot: apt-get update"
	in_chroot "$root" apt-get update -q >"$out/chroot-apt.log" 2>&1 ||
		{ tail -n 30 "$out/chroot-apt.log" >&2; die "chroot apt-get update failed"; }
	local pkgs=("${ROOTFS_PACKAGES[@]}")
	# trixie-backports' kernels pre-depend on its linux-base; trixie moved
	# fincore (bench-lib.sh) from util-linux to util-linux-extra
	[ "$R_SUITE" = bookworm ] ||
		pkgs=("${pkgs[@]/#linux-base/linux-base/$R_SUITE-backports}" util-linux-extra)
	for pkg in "${ROOTFS_OPTIONAL_PACKAGES[@]}"; do
		if in_chroot "$root" apt-cache show "$pkg" >/dev/null 2>&1; then
			pkgs+=("$pkg")
		else
			log "optional package $pkg not available, skipped"
		fi
	done
	log "chroot: installing ${#pkgs[@]} packages: ${pkgs[*]}"
	in_chroot "$root" apt-get install -y -q --no-install-recommends \
		-o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
		"${pkgs[@]}" >>"$out/chroot-apt.log" 2>&1 ||
		{ tail -n 30 "$out/chroot-apt.log" >&2; die "chroot apt-get install failed (log: $out/chroot-apt.log)"; }

	# A small initramfs: the guest's root is ext4 on virtio-blk and its
	# init loads the rest from there.  Debian's MODULES=most took
	# update-initramfs 70 s per kernel and gave each boot 30 MB to unpack
	# under TCG.
	mkdir -p "$root/etc/initramfs-tools/conf.d"
	echo MODULES=list >"$root/etc/initramfs-tools/conf.d/msl-guest.conf"
	printf '%s\n' virtio_pci virtio_blk ext4 crc32c_generic crc32c_intel \
		>>"$root/etc/initramfs-tools/modules"

	# poweroff/reboot/halt come from busybox (minbase has no init system).
	local a
	for a in poweroff reboot halt; do
		[ -e "$root/sbin/$a" ] || [ -e "$root/usr/sbin/$a" ] || ln -s /bin/busybox "$root/usr/sbin/$a"
	done
	install -m 0755 "$HERE/msl-init" "$root/sbin/msl-init"
	# Empty root password; a serial getty is never started, but keep login
	# possible for whoever boots the image by hand with init=/bin/bash.
	in_chroot "$root" passwd -d root >/dev/null
	mkdir -p "$root/payload" "$root/var/tmp/msl"

	in_chroot "$root" apt-get clean
	umount_chroot "$root"
	# The apt lists stay for build_image's apt-get -f install.
	rm -rf "$root/usr/share/doc/"* "$root/usr/share/man/"*
	[ -z "$(mounts_below "$root")" ] || die "mounts left below $root"
}

# build_image OUTDIR BASE: OUTDIR/rootfs.img, the tree BASE (build_base's)
# with the kernels R_KVERS installed, in an overlay thrown away after
# (a copy where overlayfs is missing); everything in this function is
# part of the image's cache key.
build_image() {
	local out=$1 base=$2 root=$1/root k pkg f
	mkdir -p "$root" "$out/upper" "$out/work"
	if mount -t overlay overlay -o "lowerdir=$base,upperdir=$out/upper,workdir=$out/work" "$root" 2>/dev/null; then
		CHROOT_MOUNTS+=("$root")
	else
		log "no overlayfs: copying the base"
		cp -a "$base/." "$root/"
	fi
	mount_chroot "$root" || die "cannot mount /proc, /sys, /dev in $root"

	# The kernels: apt-get download the image .debs on the host (Debian
	# 13's: tests/vm/trixie.sh downloaded them), dpkg -i in the chroot
	# (which runs update-initramfs for each).
	mkdir -p "$root/tmp/kdebs"
	for k in "${R_KVERS[@]}"; do
		if [ -n "$R_DEBS" ]; then
			# linux-image-<k> and, from 7.x, the linux-{base,binary,modules}-<k> it depends on
			for f in "$R_DEBS"/*-"$k"_*.deb "$R_DEBS"/*-"$k"-unsigned_*.deb; do
				[ -e "$f" ] && cp "$f" "$root/tmp/kdebs/"
			done
			compgen -G "$root/tmp/kdebs/linux-image-$k*.deb" >/dev/null ||
				die "no linux-image-$k package in $R_DEBS"
			continue
		fi
		pkg=$(image_pkg "$k") || die "no image package for kernel $k"
		log "downloading $pkg"
		(cd "$root/tmp/kdebs" && apt-get download -q "$pkg" >>"$out/chroot-kernels.log" 2>&1) ||
			{ tail -n 20 "$out/chroot-kernels.log" >&2; die "apt-get download $pkg failed"; }
	done
	log "chroot: dpkg -i the kernel images (update-initramfs) ..."
	# shellcheck disable=SC2016
	in_chroot "$root" sh -c 'dpkg -i /tmp/kdebs/*.deb || apt-get -f install -y -q --no-install-recommends' \
		>>"$out/chroot-kernels.log" 2>&1 ||
		{ tail -n 30 "$out/chroot-kernels.log" >&2; die "kernel install failed (log: $out/chroot-kernels.log)"; }
	rm -rf "$root/tmp/kdebs"
	for k in "${R_KVERS[@]}"; do
		for f in "vmlinuz-$k" "initrd.img-$k"; do
			[ -s "$root/boot/$f" ] || die "rootfs lacks /boot/$f after the kernel install"
		done
		[ -d "$root/lib/modules/$k" ] || die "rootfs lacks /lib/modules/$k"
	done

	in_chroot "$root" apt-get clean
	umount_chroot "$root"
	rm -rf "$root/var/lib/apt/lists/"* "$root/usr/share/doc/"* "$root/usr/share/man/"* \
		"$root/var/cache/apt/"*.bin "$root/usr/sbin/policy-rc.d"

	for k in "${R_KVERS[@]}"; do
		cp "$root/boot/vmlinuz-$k" "$root/boot/initrd.img-$k" "$out/"
		cp "$root/boot/config-$k" "$out/" 2>/dev/null || true
	done
	printf '%s\n' "${R_KVERS[@]}" >"$out/kernels"

	[ -z "$(mounts_below "$root")" ] || die "mounts left below $root"
	log "mke2fs rootfs.img (4G sparse, $(du -sh "$root" | cut -f1) of files) ..."
	truncate -s 4G "$out/rootfs.img"
	mke2fs -q -t ext4 -L mslroot -d "$root" -F "$out/rootfs.img" >&2 ||
		die "mke2fs failed"
	umount_chroot "$out"
	[ -z "$(mounts_below "$out")" ] || die "mounts left below $out"
	safe_rm "$root"
	safe_rm "$out/upper"
	safe_rm "$out/work"
}

base_key() {
	{
		echo "recipe=$RECIPE_VERSION suite=$R_SUITE mirror=$MIRROR security=$SECURITY_MIRROR"
		echo "packages=${ROOTFS_PACKAGES[*]} optional=${ROOTFS_OPTIONAL_PACKAGES[*]}"
		declare -f build_base mount_chroot in_chroot
		cat "$HERE/msl-init"
	} | sha256sum | cut -c1-16
}
# image_recipe: what an image is made of but its kernels
image_recipe() {
	{
		echo "base=$(base_key)"
		declare -f build_image mount_chroot in_chroot image_pkg has_pkg
	} | sha256sum | cut -c1-16
}

# cache_dir PREFIX KEY BUILDER [ARGS...]: $MSL_CACHE/PREFIX-KEY, built by
# "BUILDER TMPDIR ARGS..." unless it is complete (or MSL_REBUILD is set);
# the two most recently used others of PREFIX are kept.  Sets CACHE_DIR.
cache_dir() {
	local prefix=$1 key=$2 builder=$3 dir tmp
	shift 3
	dir=$MSL_CACHE/$prefix-$key
	if [ -z "${MSL_REBUILD:-}" ] && [ -f "$dir/.complete" ]; then
		log "cached: $dir"
	else
		log "building $dir ..."
		tmp=$(mktemp -d "$MSL_CACHE/.build-XXXXXX")
		chmod 0755 "$tmp" # apt-get download runs as _apt
		BUILD_TMP=$tmp
		"$builder" "$tmp" "$@"
		touch "$tmp/.complete"
		safe_rm "$dir"
		mv "$tmp" "$dir"
		BUILD_TMP=
		log "built: $dir ($(du -sh "$dir" | cut -f1) on disk)"
	fi
	touch "$dir/.complete"
	prune_cache "$prefix" "$dir"
	CACHE_DIR=$dir
}

# find_image RECIPE: the most recently used complete image of RECIPE
# whose kernels include every one of R_KVERS (status 1: none)
find_image() {
	local d k
	# shellcheck disable=SC2012 # our own dir names, no odd characters
	for d in $(ls -dt "$MSL_CACHE/$R_PREFIX"-*/ 2>/dev/null | sed 's:/$::'); do
		{ [ -f "$d/.complete" ] && [ -s "$d/rootfs.img" ]; } || continue
		[ "$(cat "$d/recipe" 2>/dev/null)" = "$1" ] || continue
		for k in "${R_KVERS[@]}"; do
			grep -qxF "$k" "$d/kernels" || continue 2
		done
		echo "$d"
		return 0
	done
	return 1
}

# ensure_rootfs: ROOTFS_DIR, an image with every kernel of R_KVERS
ensure_rootfs() {
	local recipe key base
	recipe=$(image_recipe)
	if [ -z "${MSL_REBUILD:-}" ] && ROOTFS_DIR=$(find_image "$recipe"); then
		log "rootfs cached: $ROOTFS_DIR ($(tr '\n' ' ' <"$ROOTFS_DIR/kernels" | sed 's/ $//'))"
		touch "$ROOTFS_DIR/.complete"
		prune_cache "$R_PREFIX" "$ROOTFS_DIR"
		return 0
	fi
	cache_dir "base-$R_PREFIX" "$(base_key)" build_base
	base=$CACHE_DIR/root
	key=$(printf '%s %s\n' "$recipe" "${R_KVERS[*]}" | sha256sum | cut -c1-16)
	log "rootfs with ${R_KVERS[*]}"
	cache_dir "$R_PREFIX" "$key" build_image_entry "$base" "$recipe"
	ROOTFS_DIR=$CACHE_DIR
}
build_image_entry() { # TMPDIR BASE RECIPE
	build_image "$1" "$2"
	echo "$3" >"$1/recipe"
}

# prune_cache PREFIX KEEP: the two most recently used entries of PREFIX
# (KEEP and one other) stay.
prune_cache() {
	local prefix=$1 keep=$2 d n=0
	# shellcheck disable=SC2012 # our own dir names, no odd characters
	while read -r d; do
		[ "$d" = "$keep" ] && continue
		n=$((n + 1))
		if [ $n -ge 2 ]; then
			log "pruning old cache entry $d"
			safe_rm "$d" || true
		fi
	done < <(ls -dt "$MSL_CACHE/$prefix"-*/ 2>/dev/null | sed 's:/$::')
	# Leftovers of interrupted builds.
	for d in "$MSL_CACHE"/.build-*; do
		if [ -d "$d" ] && [ -n "$(find "$d" -maxdepth 0 -mmin +240)" ]; then
			safe_rm "$d" || true
		fi
	done
}

# --------------------------------------------------------------------------
# 4. Debian 13
# --------------------------------------------------------------------------
# start_trixie: tests/vm/trixie.sh in the background (TRIXIE_PID, its
# stdout in TRIXIE_OUT) when Debian 13 rows are given, so that the Debian 13
# chroot is made while the Debian 12 kernels and rootfs are (each waits on
# the mirror and on dpkg much of the time, and uses a CPU at most).
ROWS_13=() TRIXIE_PID='' TRIXIE_OUT=''
start_trixie() {
	local row
	for row in "${ROWS[@]}"; do
		[ "${M_DEBIAN[$row]}" = 13 ] && ROWS_13+=("$row")
	done
	[ ${#ROWS_13[@]} -gt 0 ] || return 0
	TRIXIE_OUT=$(mktemp "$MSL_CACHE/.trixie-out-XXXXXX")
	log "Debian 13 rows ${ROWS_13[*]}: tests/vm/trixie.sh, beside the Debian 12 setup ..."
	"$HERE/trixie.sh" >"$TRIXIE_OUT" &
	TRIXIE_PID=$!
}

# debian13: KVERS_13 (the kernels of the Debian 13 rows given, from
# tests/vm/trixie.sh) and, if one of those rows boots, ROOTFS_DIR (the
# Debian 13 rootfs with their kernels; tests/pkg/host.sh makes the Debian
# 13 package image of the pkg rows' from it).  Nothing when no Debian 13
# row is given.
KVERS_13=() TRIXIE_CHROOT=''
debian13() {
	local row k v debs='' all='' boot=() rc=0
	[ -n "$TRIXIE_PID" ] || return 0
	wait "$TRIXIE_PID" || rc=$?
	TRIXIE_PID=
	[ "$rc" = 0 ] || die "tests/vm/trixie.sh failed (status $rc)"
	while IFS='=' read -r k v; do
		v=${v//\"/}
		case $k in
		MSL_TRIXIE_CHROOT) TRIXIE_CHROOT=$v ;;
		MSL_TRIXIE_DEBS) debs=$v ;;
		MSL_KVERS_DEB13) all=$v ;;
		esac
	done <"$TRIXIE_OUT"
	rm -f "$TRIXIE_OUT"
	{ [ -n "$all" ] && [ -n "$debs" ]; } || die "tests/vm/trixie.sh gave no kernels"
	for row in "${ROWS_13[@]}"; do
		# trixie-backports keeps only its newest kernel: a row whose series
		# it no longer has fails alone (tests/run: no kernel for the row)
		if ! k=$(matrix_kver "$row" "$all"); then
			log "WARNING: no Debian 13 kernel for $row among $all (a newer series to qualify?)"
			continue
		fi
		[[ " ${KVERS_13[*]} " == *" $k "* ]] || KVERS_13+=("$k")
		[ "${M_BOOT[$row]}" != build ] && [[ " ${boot[*]} " != *" $k "* ]] && boot+=("$k")
	done
	log "Debian 13 kernels: ${KVERS_13[*]} (booted: ${boot[*]:-none})"
	[ ${#boot[@]} -gt 0 ] || return 0
	R_SUITE=trixie R_DEBS=$debs R_KVERS=("${boot[@]}") R_PREFIX=rootfs13
	ensure_rootfs
}

BUILD_TMP=
cleanup() {
	if [ -n "$TRIXIE_PID" ]; then
		kill "$TRIXIE_PID" 2>/dev/null || true
		wait "$TRIXIE_PID" 2>/dev/null || true
	fi
	[ -z "$TRIXIE_OUT" ] || rm -f "$TRIXIE_OUT"
	umount_chroot ""
	if [ -n "$BUILD_TMP" ] && [ -d "$BUILD_TMP" ]; then
		safe_rm "$BUILD_TMP" || true
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

main() {
	mkdir -p "$MSL_CACHE"
	# One setup at a time per cache (CI and a developer may share a machine).
	exec 9>"$MSL_CACHE/.lock"
	if ! flock -n 9; then
		log "waiting for another setup.sh holding $MSL_CACHE/.lock ..."
		flock 9
	fi

	matrix_load
	[ ${#ROWS[@]} -gt 0 ] || ROWS=("${M_ROWS[@]}")
	local row
	for row in "${ROWS[@]}"; do
		[ -n "${M_BOOT[$row]:-}" ] || die "no row $row in tests/matrix"
	done
	log "rows: ${ROWS[*]}${MINIMAL:+ (--minimal)}"

	if [ -z "${MSL_SKIP_APT:-}" ]; then
		ensure_backports_source
		log "apt-get update"
		apt-get update -q >"$MSL_CACHE/host-apt-update.log" 2>&1 ||
			{ cat "$MSL_CACHE/host-apt-update.log" >&2; die "apt-get update failed"; }
		install_host_packages
	fi
	start_trixie
	resolve_kernels
	local rootfs12=
	if [ ${#KVERS[@]} -gt 0 ]; then
		[ -n "${MSL_SKIP_APT:-}" ] || install_headers
		R_KVERS=("${KVERS[@]}")
		ensure_rootfs
		rootfs12=$ROOTFS_DIR
	fi
	debian13

	log "done in $((SECONDS - T0)) s"
	echo "MSL_KVERS=${KVERS[*]:-}"
	echo "MSL_ROOTFS_DIR=$rootfs12"
	if [ ${#KVERS_13[@]} -gt 0 ]; then
		echo "MSL_KVERS_13=${KVERS_13[*]}"
		echo "MSL_ROOTFS_DIR_13=$ROOTFS_DIR"
		echo "MSL_TRIXIE_CHROOT=$TRIXIE_CHROOT"
	fi
}

main "$@"
