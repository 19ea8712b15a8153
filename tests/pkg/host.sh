#!/usr/bin/env bash
# tests/pkg/host.sh: the host side of the packaging tests (DKMS, the Debian
# packages, the package images).  tests/run runs it after the module builds
# and boots the package images it makes (the pkg rows, Debian 12's and
# 13's); it can also run alone:
#
#   MSL_KVERS="6.1.0-57-amd64 6.12.118+deb12-amd64" \
#   MSL_ROOTFS_DIR=/var/cache/memcg-softlimit/rootfs-<key> tests/pkg/host.sh
#
# stdout: the harness's result lines (tests/vm/lib-host.sh), "RESULT
# PASS|FAIL|SKIP <name> [reason]" and "INFO <name> <text>" ("INFO <name>
# duration_s=<seconds>" its time); progress and logs on
# stderr and in build/pkg/*.log.  It never touches the host's own DKMS tree,
# /usr/src or /lib/modules: DKMS runs with a private tree under build/pkg/dkms/
# and --no-depmod; the package is installed in a chroot.
#
#  1. dkms/*   `make dkms-install` for every kernel from its headers
#              (host), the module is signed with the MOK key, `make
#              dkms-uninstall`; dkms.conf's BUILD_EXCLUSIVE_* exclude (dkms
#              build: 77, dkms's own message, nothing compiled) releases
#              outside the tested kernels and a headers tree without
#              CONFIG_DEBUG_INFO_BTF, and not 7.3; `dkms autoinstall` (what
#              dkms's kernel hook runs) leaves the module alone: status 0.
#              The DKMS-built modules go to build/pkg/payload/ for the
#              guest test t-40-dkms-modprobe.
#  2. make/install  `make install DESTDIR=...` in a copy of the sources.
#  3. deb/build, deb/lintian, deb/build-chroot  `make deb`
#              (dpkg-buildpackage), lintian -I --pedantic (no tag but the
#              overridden ones), and the source package built again in a
#              clean bookworm chroot (debootstrap --variant=buildd, cached)
#              with only its Build-Depends installed (apt-get build-dep).
#  4. deb/*    in a chroot of the guest rootfs with the headers of the
#              package image's kernels (tests/matrix's pkg rows), dkms,
#              systemd and udev (cached, keyed by the rootfs, those kernels
#              and the recipe below): dpkg -i, DKMS builds and installs
#              for each of them (signed); `apt-get install` of a kernel (image and
#              headers packages, made here from the 6.12 ones, with Debian's
#              maintainer scripts) outside the tested kernels and of one
#              inside them whose build fails: apt-get exits 0, no module;
#              the image build/pkg/image/rootfs.img is made (booted by
#              tests/run with systemd as init for t-41..t-43), then
#              dpkg --purge leaves nothing behind.
#    deb13/image/*  the same for Debian 13 when the run has Debian 13
#              pkg rows: a chroot of the Debian 13 guest rootfs with Debian
#              13's dkms and systemd and its pkg rows' kernels' headers,
#              the image build/pkg/image13/rootfs.img (but no kernels
#              installed later: those packages are made from the host's
#              Debian 12 kernel).
#
#  5. deb13/*  with Debian 13 rows in the table: in a throwaway overlay on
#              tests/vm/trixie.sh's chroot (Debian 13 with the headers of
#              trixie's 6.12 and trixie-backports' kernel, every flavour),
#              apt-get install of the packages built in 3 and of Debian 13's
#              dkms: DKMS builds and installs the module for each of those
#              kernels (signed, version, vermagic), and the tool runs.
#
# Environment: MSL_KVERS (required: the kernels of tests/matrix's Debian 12
# rows, as tests/vm/setup.sh resolved them), MSL_ROOTFS_DIR (for 4),
# MSL_ROOTFS_DIR_13 (for 4's Debian 13 image),
# MSL_CACHE (default /var/cache/memcg-softlimit), MSL_MIRROR (debootstrap's,
# default: the mirror the host's apt sources give for bookworm), MSL_PKG_OUT (default build/pkg),
# MSL_PKG_ONLY="dkms make deb image deb13" (default: all parts),
# MSL_TRIXIE_CHROOT and MSL_KVERS_13 (for 5 and 4's Debian 13 image;
# tests/vm/setup.sh's).
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source-path=SCRIPTDIR source=../vm/common.sh
. "$REPO/tests/vm/common.sh"
OUT=${MSL_PKG_OUT:-$REPO/build/pkg}
MSL_CACHE=${MSL_CACHE:-/var/cache/memcg-softlimit}
read -ra KERNELS <<<"${MSL_KVERS:?MSL_KVERS must name the kernels}"
# The oldest and the newest generic kernels stand in where one will do.
K_OLD=$(printf '%s\n' "${KERNELS[@]}" | grep -E -- '-[0-9]+-amd64$|\+deb[0-9]+-amd64$' | sort -V | head -n 1)
K_NEW=$(printf '%s\n' "${KERNELS[@]}" | grep -E -- '-[0-9]+-amd64$|\+deb[0-9]+-amd64$' | sort -V | tail -n 1)
# The package images' kernels: those of tests/matrix's pkg rows of each
# Debian (an image boots no other; the host's DKMS part builds for all of
# KERNELS).  pkg_row_kernels DEBIAN "KVERS": those of KVERS, one a line.
matrix_load
pkg_row_kernels() {
	local r k seen=' '
	for r in "${M_ROWS[@]}"; do
		{ [ "${M_BOOT[$r]}" = pkg ] && [ "${M_DEBIAN[$r]}" = "$1" ]; } || continue
		k=$(matrix_kver "$r" "$2") || continue
		case $seen in *" $k "*) ;; *) echo "$k" && seen+="$k " ;; esac
	done
}
mapfile -t IMG_KERNELS_12 < <(pkg_row_kernels 12 "${KERNELS[*]}")
[ ${#IMG_KERNELS_12[@]} -gt 0 ] || IMG_KERNELS_12=("${KERNELS[@]}")
# Debian 13's: none (no image) without Debian 13 rows in the run.
mapfile -t IMG_KERNELS_13 < <(pkg_row_kernels 13 "${MSL_KVERS_13:-}")
VERSION=$(tr -d ' \t\n' <"$REPO/VERSION")
PARTS=${MSL_PKG_ONLY:-dkms make deb image deb13}
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8

T0=$SECONDS
log() { printf '[pkg %4ds] %s\n' "$((SECONDS - T0))" "$*" >&2; }
want() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }

mkdir -p "$OUT"
RESULTS=$OUT/results.txt
: >"$RESULTS"
emit() { printf '%s\n' "$*" | tee -a "$RESULTS"; }
# result VERDICT NAME [REASON...]
result() {
	local v=$1 n=$2
	shift 2
	local r="$*"
	r=${r//$'\n'/ }
	emit "RESULT $v $n${r:+ $r}"
	log "$v $n${r:+: $r}"
}
info() { emit "INFO $1 ${*:2}"; }
# Per-test timing: tstart; ...; tend NAME
TSTART=0
tstart() { TSTART=$SECONDS; }
tend() { emit "INFO $1 duration_s=$((SECONDS - TSTART))"; }

# check NAME: collects failures in CHECK_FAILS for the test being run.
CHECK_FAILS=()
cfail() { CHECK_FAILS+=("$*"); log "  check failed: $*"; }
cverdict() { # cverdict NAME [note on success]
	if [ ${#CHECK_FAILS[@]} -eq 0 ]; then
		result PASS "$1" "${2:-}"
	else
		local IFS=';'
		result FAIL "$1" "${CHECK_FAILS[*]}"
	fi
	CHECK_FAILS=()
}

# modinfo_field FILE FIELD: one field of a module file (.ko or .ko.xz).
modinfo_field() { modinfo -F "$2" "$1" 2>/dev/null | head -n 1; }
# The serial of a DER or PEM certificate, as modinfo prints sig_key.
cert_serial() {
	local s
	s=$(openssl x509 -inform DER -in "$1" -noout -serial 2>/dev/null ||
		openssl x509 -in "$1" -noout -serial 2>/dev/null) || return 1
	s=${s#serial=}
	# modinfo: upper-case hex pairs joined by ':', leading zero bytes kept
	[ $((${#s} % 2)) -eq 0 ] || s=0$s
	sed 's/../&:/g; s/:$//' <<<"${s^^}"
}
cert_cn() { openssl x509 -inform DER -in "$1" -noout -subject -nameopt multiline 2>/dev/null | sed -n 's/^ *commonName *= *//p'; }
config_value() { sed -n "s/^$2=\"\\{0,1\\}\\([^\"]*\\)\"\\{0,1\\}\$/\\1/p" "$1" | head -n 1; }

# ---------------------------------------------------------------------------
# Mounts (tests/vm/common.sh's chroot helpers) and their cleanup
# ---------------------------------------------------------------------------
mount_add() { # mount_add TARGET MOUNT-ARGS...
	local t=$1
	shift
	mount "$@" "$t" || return 1
	CHROOT_MOUNTS+=("$t")
}
# umount_one TARGET: a mount of mount_add's, and none below it.
umount_one() {
	local i kept=()
	umount_chroot "$1"
	for ((i = 0; i < ${#CHROOT_MOUNTS[@]}; i++)); do
		if [ "${CHROOT_MOUNTS[i]}" = "$1" ]; then
			umount -l "$1" 2>/dev/null || true
		else
			kept+=("${CHROOT_MOUNTS[i]}")
		fi
	done
	CHROOT_MOUNTS=(${kept[@]+"${kept[@]}"})
}
umount_all() { umount_chroot ""; }
trap umount_all EXIT
trap 'exit 130' INT TERM

# fake_headers SRC-KVER DEST-DIR SED-EXPR: a copy of SRC-KVER's headers dir
# (its own files; the symlinks into -common and kbuild made absolute) with
# SED-EXPR applied to its .config.
fake_headers() {
	local src dest=$2 l t
	src=$(readlink -f "/lib/modules/$1/build") || return 1
	rm -rf "$dest"
	cp -a "$src" "$dest" || return 1
	while IFS= read -r l; do
		t=$(readlink "$l")
		case $t in /*) ;; *) ln -sfn "$(readlink -f "$src/${l#"$dest"/}")" "$l" ;; esac
	done < <(find "$dest" -maxdepth 1 -type l)
	sed -i "$3" "$dest/.config"
}

# ===========================================================================
# 1. DKMS on the host, private tree
# ===========================================================================
DK=$OUT/dkms
DKF=()
# With the test's MOK key: preparing a build, dkms would otherwise create
# /var/lib/dkms/mok.key on the host.
dkms_private() {
	mok_signing_key=$DK/mok.key mok_certificate=$DK/mok.pub dkms "$1" "${DKF[@]}" "${@:2}"
}

part_dkms() {
	local k log=$OUT/dkms-host.log f ver vm signer key want_key cert keyfile hash want_hash
	safe_rm "$DK"
	rm -rf "$OUT/payload"
	mkdir -p "$DK/src" "$DK/tree" "$DK/lib" "$OUT/payload"
	for k in "${KERNELS[@]}"; do mkdir -p "$DK/lib/$k"; done
	DKF=(--dkmstree "$DK/tree" --sourcetree "$DK/src" --installtree "$DK/lib" --no-depmod)
	# A MOK key of our own (what dkms would create in /var/lib/dkms).
	openssl req -new -x509 -nodes -days 36500 -subj "/CN=memcg-softlimit test MOK" \
		-newkey rsa:2048 -keyout "$DK/mok.key" -outform DER -out "$DK/mok.pub" >/dev/null 2>&1 ||
		log "cannot create a MOK key with openssl"

	log "make dkms-install KVER='${KERNELS[*]}' (private DKMS tree $DK)"
	tstart
	local rc=0
	mok_signing_key=$DK/mok.key mok_certificate=$DK/mok.pub \
		make -C "$REPO" --no-print-directory dkms-install KVER="${KERNELS[*]}" \
		DKMS_SOURCETREE="$DK/src" DKMS_FLAGS="${DKF[*]}" >"$log" 2>&1 || rc=$?
	local dt=$((SECONDS - TSTART))
	[ "$rc" = 0 ] || { log "make dkms-install exited $rc; log $log:"; tail -n 30 "$log" >&2; }
	# The certificate dkms says it signed with (framework.conf may name another).
	cert=$(sed -n 's/^Public certificate (MOK): //p' "$log" | tail -n 1)
	keyfile=$(sed -n 's/^Signing key: //p' "$log" | tail -n 1)
	for k in "${KERNELS[@]}"; do
		f=$(find "$DK/lib/$k/updates/dkms" -name 'memcg_softlimit.ko*' 2>/dev/null | head -n 1 || true)
		if [ -z "$f" ]; then
			cfail "no memcg_softlimit.ko* in the install tree $DK/lib/$k/updates/dkms (make dkms-install exit $rc, log ${log#"$REPO"/})"
		else
			dkms_private status -m memcg-softlimit -v "$VERSION" -k "$k" 2>/dev/null | grep -q ': installed' ||
				cfail "dkms status does not say installed: $(dkms_private status -m memcg-softlimit -v "$VERSION" -k "$k" 2>&1 | head -n 1)"
			ver=$(modinfo_field "$f" version)
			[ "$ver" = "$VERSION" ] || cfail "modinfo version '$ver', VERSION says '$VERSION'"
			vm=$(modinfo_field "$f" vermagic)
			[ "${vm%% *}" = "$k" ] || cfail "vermagic '$vm' is not for $k"
		fi
		emit "INFO dkms/build+install/$k duration_s=$dt"
		cverdict "dkms/build+install/$k" "${f:+${f#"$DK/lib/"}, $(stat -c %s "$f") bytes}"

		# Signed with the MOK key?
		if [ -n "$f" ]; then
			signer=$(modinfo_field "$f" signer)
			key=$(modinfo_field "$f" sig_key)
			hash=$(modinfo_field "$f" sig_hashalgo)
			want_hash=$(config_value "/lib/modules/$k/build/.config" CONFIG_MODULE_SIG_HASH)
			[ -n "$signer" ] || cfail "modinfo shows no signer (dkms log: $(grep -m1 -E "won't be signed|sign" "$log" || echo nothing about signing))"
			if [ -n "$cert" ] && [ -r "$cert" ]; then
				want_key=$(cert_serial "$cert")
				[ "$key" = "$want_key" ] || cfail "sig_key '$key' is not the serial of $cert ('$want_key')"
				[ "$signer" = "$(cert_cn "$cert")" ] || cfail "signer '$signer' is not the CN of $cert ('$(cert_cn "$cert")')"
			else
				cfail "dkms named no MOK certificate in its log"
			fi
			[ -z "$want_hash" ] || [ "$hash" = "$want_hash" ] || cfail "sig_hashalgo '$hash', the kernel wants '$want_hash'"
			emit "INFO dkms/signed/$k duration_s=0"
			cverdict "dkms/signed/$k" "signer '$signer', key $keyfile, sig_key ${key:0:11}..., $hash"
			# For the guest test t-40-dkms-modprobe.
			mkdir -p "$OUT/payload/$k"
			cp "$f" "$OUT/payload/$k/"
			{
				echo "version=$VERSION"
				echo "signer=$signer"
				echo "sig_key=$key"
				echo "file=$(basename "$f")"
			} >"$OUT/payload/$k/expect"
		else
			result FAIL "dkms/signed/$k" "no module was built"
		fi
	done

	# Exclusion: releases outside the tested kernels, fabricated headers.
	part_dkms_exclude

	# make dkms-uninstall takes everything away again.
	tstart
	local u=$OUT/dkms-uninstall.log
	make -C "$REPO" --no-print-directory dkms-uninstall DKMS_SOURCETREE="$DK/src" DKMS_FLAGS="${DKF[*]}" >"$u" 2>&1 ||
		cfail "make dkms-uninstall failed: $(tail -n 3 "$u" | tr '\n' ' ')"
	[ -z "$(dkms_private status -m memcg-softlimit 2>/dev/null)" ] || cfail "dkms status still lists: $(dkms_private status -m memcg-softlimit 2>&1 | head -n 2 | tr '\n' ' ')"
	[ ! -e "$DK/src/memcg-softlimit-$VERSION" ] || cfail "the sources are still in $DK/src"
	[ -z "$(find "$DK/lib" -name 'memcg_softlimit*' | head -n 1)" ] || cfail "module files left: $(find "$DK/lib" -name 'memcg_softlimit*' | tr '\n' ' ')"
	[ ! -e "$DK/tree/memcg-softlimit" ] || cfail "$DK/tree/memcg-softlimit left behind"
	tend dkms/make-dkms-uninstall
	cverdict dkms/make-dkms-uninstall
}

# dkms.conf's BUILD_EXCLUSIVE_*: releases outside the tested kernels and a
# kernel without an option the module needs are excluded by dkms itself
# (status 77, its own message, nothing compiled); a 7.3 release is not.
EXCLUDED_MSG='BUILD_EXCLUSIVE directive which does not match this kernel'
part_dkms_exclude() {
	local name kver src rc out log
	# The source must be registered (dkms-install did it; re-add if not).
	dkms_private status -m memcg-softlimit -v "$VERSION" 2>/dev/null | grep -q . ||
		dkms_private add -m memcg-softlimit -v "$VERSION" >/dev/null 2>&1 || true
	for name in older-5.10 between-6.10 newer-7.4 no-btf; do
		tstart
		src=$(readlink -f "/lib/modules/$K_NEW/build")
		case $name in
		older-5.10) kver=5.10.0-99-amd64 src=$(readlink -f "/lib/modules/$K_OLD/build") ;;
		between-6.10) kver=6.10.0-99-amd64 ;;
		newer-7.4) kver=7.4.0-99-amd64 ;;
		no-btf)
			# A tested release whose configuration lacks BTF.
			kver=${K_NEW%-amd64}-no-btf
			src=$DK/headers-$name
			fake_headers "$K_NEW" "$src" 's/^CONFIG_DEBUG_INFO_BTF=y$/# CONFIG_DEBUG_INFO_BTF is not set/' ||
				cfail "cannot fabricate $src"
			;;
		esac
		log=$OUT/dkms-exclude-$name.log
		mkdir -p "$DK/lib/$kver"
		rc=0
		out=$(dkms_private build -m memcg-softlimit -v "$VERSION" -k "$kver" --kernelsourcedir "$src" 2>&1) || rc=$?
		printf '%s\n' "$out" >"$log"
		[ "$rc" = 77 ] || cfail "dkms build -k $kver exited $rc, expected 77 (excluded)"
		grep -qF "$EXCLUDED_MSG" <<<"$out" || cfail "no '$EXCLUDED_MSG' from dkms for $kver"
		! grep -q '^Building module' <<<"$out" || cfail "dkms started a build for $kver"
		[ ! -e "$DK/tree/memcg-softlimit/$VERSION/$kver" ] || cfail "dkms left $DK/tree/memcg-softlimit/$VERSION/$kver"
		# What dkms's own kernel hook runs: no AUTOINSTALL, so it leaves the
		# module alone and succeeds (dkms 3.0.10 exits 11 for an excluded
		# module with AUTOINSTALL=yes: dkms issue #302).
		rc=0
		out=$(dkms_private autoinstall -k "$kver" --kernelsourcedir "$src" 2>&1) || rc=$?
		printf '%s\n' "$out" >>"$log"
		[ "$rc" = 0 ] || cfail "dkms autoinstall -k $kver exited $rc (dkms's kernel hook would fail the kernel's installation)"
		[ -z "$(find "$DK/lib/$kver" -name 'memcg_softlimit*' | head -n 1)" ] || cfail "a module was installed for $kver"
		tend "dkms/exclude/$name"
		cverdict "dkms/exclude/$name" "$kver: dkms build 77, $(grep -m1 -oF "$EXCLUDED_MSG" "$log" || true)"
		[ "$name" != no-btf ] || rm -rf "${src:?}"
		rm -rf "${DK:?}/lib/${kver:?}"
	done

	# 7.3 is declared: dkms goes on to compile (whether the 6.12 headers
	# standing in for it build the module does not matter here).
	tstart
	kver=7.3.0-99-amd64
	log=$OUT/dkms-exclude-not-7.3.log
	rc=0
	out=$(dkms_private build -m memcg-softlimit -v "$VERSION" -k "$kver" \
		--kernelsourcedir "$(readlink -f "/lib/modules/$K_NEW/build")" 2>&1) || rc=$?
	printf '%s\n' "$out" >"$log"
	[ "$rc" != 77 ] || cfail "dkms excluded $kver (exit 77), a kernel dkms.conf declares"
	! grep -qF "$EXCLUDED_MSG" <<<"$out" || cfail "dkms says '$EXCLUDED_MSG' for $kver"
	grep -q '^Building module' <<<"$out" || cfail "dkms did not start a build for $kver"
	dkms_private unbuild -m memcg-softlimit -v "$VERSION" -k "$kver" >/dev/null 2>&1 || true
	tend dkms/exclude/not-7.3
	cverdict dkms/exclude/not-7.3 "dkms build -k $kver went on to compile (exit $rc)"
}

# ===========================================================================
# 2. make install (no DKMS), DESTDIR, in a copy of the sources
# ===========================================================================
part_make() {
	local k=$K_NEW d=$OUT/make-install f ver
	tstart
	safe_rm "$d"
	mkdir -p "$d/src" "$d/root"
	(cd "$REPO" && cp -a Makefile Kbuild VERSION dkms.conf module lib include tools "$d/src/")
	make -C "$d/src/tools" --no-print-directory clean >/dev/null 2>&1
	find "$d/src" \( -name '*.o' -o -name '*.ko' -o -name '.*.cmd' -o -name '*.mod*' \) -delete
	[ -s "$DK/mok.key" ] || { mkdir -p "$DK" && openssl req -new -x509 -nodes -days 36500 -subj "/CN=memcg-softlimit test MOK" \
		-newkey rsa:2048 -keyout "$DK/mok.key" -outform DER -out "$DK/mok.pub" >/dev/null 2>&1; }
	if ! make -C "$d/src" --no-print-directory install KVER="$k" DESTDIR="$d/root" \
		MOK_KEY="$DK/mok.key" MOK_CERT="$DK/mok.pub" >"$OUT/make-install.log" 2>&1; then
		cfail "make install failed: $(tail -n 3 "$OUT/make-install.log" | tr '\n' ' ')"
	fi
	f=$(find "$d/root/lib/modules/$k/updates" -name 'memcg_softlimit.ko*' 2>/dev/null | head -n 1 || true)
	if [ -z "$f" ]; then
		cfail "no memcg_softlimit.ko* under DESTDIR/lib/modules/$k/updates"
	else
		ver=$(modinfo_field "$f" version)
		[ "$ver" = "$VERSION" ] || cfail "version '$ver' != '$VERSION'"
		[ "$(modinfo_field "$f" sig_key)" = "$(cert_serial "$DK/mok.pub")" ] ||
			cfail "not signed with MOK_KEY (sig_key '$(modinfo_field "$f" sig_key)')"
	fi
	grep -q 'SSL error' "$OUT/make-install.log" && cfail "sign-file errors in the log"
	[ -x "$d/root/usr/local/sbin/memcg-softlimit" ] || cfail "no DESTDIR/usr/local/sbin/memcg-softlimit"
	[ -f "$d/root/usr/local/share/man/man8/memcg-softlimit.8" ] || cfail "no DESTDIR/usr/local/share/man/man8/memcg-softlimit.8"
	tend "make/install/$k"
	cverdict "make/install/$k" "${f:+${f#"$d/root"}}"
	safe_rm "$d"
}

# ===========================================================================
# 3. The Debian packages and lintian
# ===========================================================================
DEB_DIR=$OUT/deb
deb_sizes() {
	local d sizes=""
	for d in "$DEB_DIR"/*.deb; do
		sizes+="${sizes:+, }$(basename "$d") $(stat -c %s "$d") bytes (installed $(dpkg-deb -f "$d" Installed-Size) KiB)"
	done
	echo "$sizes"
}
part_deb() {
	local rc=0 tags
	tstart
	safe_rm "$DEB_DIR"
	"$REPO/packaging/build-deb" "$DEB_DIR" >"$OUT/deb-build.log" 2>&1 || rc=$?
	tend deb/build
	if [ "$rc" != 0 ] || ! ls "$DEB_DIR"/memcg-softlimit-dkms_*.deb >/dev/null 2>&1; then
		result FAIL deb/build "packaging/build-deb failed (exit $rc): $(tail -n 2 "$OUT/deb-build.log" | tr '\n' ' ') (log ${OUT#"$REPO"/}/deb-build-failed.log)"
		cp "$DEB_DIR/build.log" "$OUT/deb-build-failed.log" 2>/dev/null || true
		return 1
	fi
	result PASS deb/build "$(deb_sizes)"

	# lintian: info (-I) and pedantic tags shown; the package must have none
	# but those it overrides (debian/*.lintian-overrides, with reasons).
	tstart
	rc=0
	lintian -I --pedantic --show-overrides \
		"$DEB_DIR"/memcg-softlimit_*.changes >"$OUT/lintian.log" 2>&1 || rc=$?
	grep -v 'running with root privileges' "$OUT/lintian.log" >&2 || true
	tags=$(grep -E '^[EWIPX]: ' "$OUT/lintian.log" || true)
	tend deb/lintian
	if [ -n "$tags" ]; then
		result FAIL deb/lintian "$(wc -l <<<"$tags") tags (lintian -I --pedantic): $(head -n 5 <<<"$tags" | tr '\n' ';')"
	elif [ "$rc" != 0 ]; then
		result FAIL deb/lintian "lintian exited $rc: $(tail -n 3 "$OUT/lintian.log" | tr '\n' ' ')"
	elif ! grep -q '^memcg-softlimit-dkms_.*_all\.deb$' < <(sed -n '/^Files:/,$p' "$DEB_DIR"/memcg-softlimit_*.changes | awk '{print $5}'); then
		result FAIL deb/lintian "the .changes lintian read lists no memcg-softlimit-dkms package"
	else
		result PASS deb/lintian "lintian -I --pedantic on $(cd "$DEB_DIR" && echo *.deb): no tags; $(grep -c '^O: ' "$OUT/lintian.log") overridden (log ${OUT#"$REPO"/}/lintian.log)"
	fi

	part_deb_chroot
}

# ---------------------------------------------------------------------------
# The source package built in a clean bookworm chroot: debootstrap
# --variant=buildd (essential and build-essential only, cached in
# $MSL_CACHE/buildchroot-<key>/), then, in a throwaway overlay, apt-get
# build-dep of the source package (its Build-Depends and nothing else) and
# dpkg-buildpackage.  Downloaded packages are kept in
# $MSL_CACHE/buildchroot-archives/.
# ---------------------------------------------------------------------------
BUILD_SUITE=bookworm
# Debian's mirror: the host's own, as apt has it (tests/vm/common.sh).
MIRROR=${MSL_MIRROR:-$(apt_mirror "$BUILD_SUITE")}
buildchroot_recipe() {
	local root=$1
	debootstrap --variant=buildd "$BUILD_SUITE" "$root" "$MIRROR" >"$OUT/buildchroot-debootstrap.log" 2>&1 || return 1
	printf 'deb %s %s main\n' "$MIRROR" "$BUILD_SUITE" >"$root/etc/apt/sources.list"
	rm -rf "$root/var/cache/apt/archives/"*.deb
}
buildchroot_key() {
	{
		echo "suite=$BUILD_SUITE mirror=$MIRROR"
		declare -f buildchroot_recipe
	} | sha256sum | cut -c1-16
}
ensure_buildchroot() { # sets BUILDCHROOT
	local dir tmp
	dir=$MSL_CACHE/buildchroot-$(buildchroot_key)
	exec 8>"$MSL_CACHE/.buildchroot.lock"
	flock 8
	if [ -f "$dir/.complete" ] && [ -d "$dir/root/usr" ]; then
		log "clean build chroot cached: $dir"
		touch "$dir/.complete"
	else
		if [ -z "$MIRROR" ]; then
			log "the host's apt sources name no Debian mirror for $BUILD_SUITE (set MSL_MIRROR)"
			flock -u 8
			return 1
		fi
		log "debootstrap --variant=buildd $BUILD_SUITE into $dir (a few minutes, once)"
		tmp=$(mktemp -d "$MSL_CACHE/.buildchroot-build-XXXXXX")
		chmod 0755 "$tmp"
		if ! buildchroot_recipe "$tmp/root"; then
			tail -n 20 "$OUT/buildchroot-debootstrap.log" >&2 || true
			safe_rm "$tmp" || true
			flock -u 8
			return 1
		fi
		touch "$tmp/.complete"
		local d
		for d in "$MSL_CACHE"/buildchroot-*/; do
			d=${d%/}
			case $d in */buildchroot-archives) continue ;; esac
			[ "$d" = "$dir" ] || safe_rm "$d" || true
		done
		safe_rm "$dir"
		mv "$tmp" "$dir"
	fi
	flock -u 8
	BUILDCHROOT=$dir/root
}

part_deb_chroot() {
	local root=$OUT/buildroot upper=$OUT/buildroot.ovl dsc log=$OUT/deb-build-chroot.log rc=0 debs=() f
	tstart
	for dsc in "$DEB_DIR"/memcg-softlimit_*.dsc; do [ -e "$dsc" ] && break; done
	if [ ! -e "$dsc" ]; then
		tend deb/build-chroot
		result FAIL deb/build-chroot "no source package (deb/build failed)"
		return 1
	fi
	if ! ensure_buildchroot; then
		tend deb/build-chroot
		result FAIL deb/build-chroot "debootstrap of the clean chroot failed (log ${OUT#"$REPO"/}/buildchroot-debootstrap.log)"
		return 1
	fi
	safe_rm "$root" && safe_rm "$upper" || return 1
	mkdir -p "$root" "$upper/u" "$upper/w" "$MSL_CACHE/buildchroot-archives/partial"
	if ! mount_add "$root" -t overlay overlay -o "lowerdir=$BUILDCHROOT,upperdir=$upper/u,workdir=$upper/w" 2>/dev/null; then
		log "no overlayfs: copying the clean chroot"
		cp -a "$BUILDCHROOT/." "$root/"
	fi
	if ! mount_chroot "$root" || ! mount_add "$root/var/cache/apt/archives" --bind "$MSL_CACHE/buildchroot-archives"; then
		result FAIL deb/build-chroot "cannot mount /proc, /sys, /dev or the apt cache in the chroot"
		umount_one "$root"
		return 1
	fi
	cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
	mkdir -p "$root/build"
	cp "$dsc" "$DEB_DIR"/memcg-softlimit_*.tar.* "$root/build/"
	log "clean chroot: apt-get build-dep, dpkg-buildpackage (log ${log#"$REPO"/})"
	# shellcheck disable=SC2016 # expanded in the chroot
	in_chroot "$root" sh -ec '
		cd /build
		echo "== packages before build-dep: $(dpkg-query -W | wc -l)"
		apt-get update -q
		dpkg-source -x ./*.dsc src
		apt-get build-dep -y -q --no-install-recommends ./src
		cd src
		dpkg-buildpackage -us -uc -b
	' >"$log" 2>&1 || rc=$?
	for f in "$root"/build/*.deb; do
		[ -e "$f" ] && debs+=("$(basename "$f")")
	done
	umount_one "$root"
	tend deb/build-chroot
	if [ "$rc" != 0 ]; then
		result FAIL deb/build-chroot "exit $rc in the clean chroot: $(grep -E 'error:|Unmet|^E: |unable to|cannot' "$log" | head -n 3 | tr '\n' ' ') (log ${log#"$REPO"/})"
	elif ! printf '%s\n' "${debs[@]}" | grep -q '^memcg-softlimit-dkms_' ||
		! printf '%s\n' "${debs[@]}" | grep -q '^memcg-softlimit_'; then
		result FAIL deb/build-chroot "built only: ${debs[*]:-nothing} (log ${log#"$REPO"/})"
	else
		result PASS deb/build-chroot "bookworm buildd chroot + Build-Depends only: ${debs[*]}"
	fi
	safe_rm "$root" || true
	safe_rm "$upper" || true
}

# ===========================================================================
# 4. The package images, Debian 12's and 13's: chroot install, DKMS for
#    each kernel, the image, purge
# ===========================================================================
# image_release 12|13: the Debian release whose package image the
# functions below make: REL, S (the suffix of its files and cache
# entries: "" or 13, as setup.sh's rootfs and rootfs13), IRES (the prefix
# of its results) and IMG_RES (the image's result), IMG (the image's dir,
# which tests/run boots),
# IMG_KERNELS (the kernels of its pkg rows), ROOTFS_DIR (the guest rootfs
# it starts from, setup.sh's) and IBPO (the backports suite its kernels'
# headers may come from).
image_release() {
	REL=$1
	case $REL in
	12) S='' IRES=deb IMG_RES=deb/image ROOTFS_DIR=${MSL_ROOTFS_DIR:-} IBPO=bookworm-backports
		IMG_KERNELS=("${IMG_KERNELS_12[@]}") ;;
	13) S=13 IRES=deb13/image IMG_RES=deb13/image ROOTFS_DIR=${MSL_ROOTFS_DIR_13:-} IBPO=trixie-backports
		IMG_KERNELS=(${IMG_KERNELS_13[@]+"${IMG_KERNELS_13[@]}"}) ;;
	esac
	IMG=$OUT/image$S
}
# Packages added to the guest rootfs for the package tests (the Debian
# release's own dkms and systemd).
PKGBASE_PACKAGES=(dkms systemd udev openssl)

# pkgbase_recipe DIR: everything in this function is part of the cache key.
pkgbase_recipe() {
	local root=$1 mnt=$1.mnt k rc=0
	mkdir -p "$root" "$mnt"
	log "copying the guest rootfs ($ROOTFS_DIR/rootfs.img) ..."
	if mount -o loop,ro,noload "$ROOTFS_DIR/rootfs.img" "$mnt" 2>/dev/null; then
		CHROOT_MOUNTS+=("$mnt")
		cp -a "$mnt/." "$root/" || rc=$?
		umount "$mnt"
		unset 'CHROOT_MOUNTS[-1]'
		CHROOT_MOUNTS=(${CHROOT_MOUNTS[@]+"${CHROOT_MOUNTS[@]}"})
	else
		log "no loop mount here; extracting with debugfs rdump"
		debugfs -R "rdump / $root" "$ROOTFS_DIR/rootfs.img" >/dev/null 2>&1 || rc=$?
	fi
	rmdir "$mnt"
	[ "$rc" = 0 ] || { log "copying the rootfs failed"; return 1; }

	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod +x "$root/usr/sbin/policy-rc.d"
	mount_chroot "$root" || return 1
	log "chroot: apt-get update; install ${PKGBASE_PACKAGES[*]} and the headers of ${IMG_KERNELS[*]} ..."
	in_chroot "$root" apt-get update -q >"$OUT/pkgbase$S-apt.log" 2>&1 || { umount_chroot "$root"; return 1; }
	in_chroot "$root" apt-get install -y -q --no-install-recommends \
		-o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
		"${PKGBASE_PACKAGES[@]}" >>"$OUT/pkgbase$S-apt.log" 2>&1 || { umount_chroot "$root"; return 1; }
	for k in "${IMG_KERNELS[@]}"; do
		in_chroot "$root" apt-get install -y -q --no-install-recommends "linux-headers-$k" >>"$OUT/pkgbase$S-apt.log" 2>&1 ||
			in_chroot "$root" apt-get install -y -q --no-install-recommends -t "$IBPO" "linux-headers-$k" \
				>>"$OUT/pkgbase$S-apt.log" 2>&1 || { umount_chroot "$root"; return 1; }
		[ -e "$root/lib/modules/$k/build/.config" ] || { log "no headers for $k in the chroot"; umount_chroot "$root"; return 1; }
	done
	in_chroot "$root" apt-get clean
	umount_chroot "$root"
	rm -rf "$root/var/lib/apt/lists/"* "$root/var/cache/apt/"*.bin "$root/usr/sbin/policy-rc.d"

	# The test runner: systemd boots to msl-pkg.target (kernel argument
	# systemd.unit=msl-pkg.target), which runs the tests from the payload
	# disk after multi-user.target.
	cat >"$root/etc/systemd/system/msl-pkg.target" <<'EOF'
[Unit]
Description=memcg-softlimit package tests
Requires=multi-user.target msl-pkg-runner.service
After=multi-user.target
AllowIsolate=yes
EOF
	cat >"$root/etc/systemd/system/msl-pkg-runner.service" <<'EOF'
[Unit]
Description=memcg-softlimit package test runner (/payload/guest/init.sh)
After=multi-user.target
[Service]
Type=oneshot
ExecStart=/bin/sh -c 'mkdir -p /payload && mount -o ro /dev/vdb /payload && exec /bin/bash /payload/guest/init.sh'
StandardOutput=journal+console
StandardError=journal+console
TimeoutStartSec=infinity
FailureAction=poweroff-force
EOF
	# Debian's serial getty on the console would only print a login prompt.
	ln -sf /dev/null "$root/etc/systemd/system/serial-getty@ttyS0.service"
}

pkgbase_key() {
	{
		echo "rootfs=$(basename "$ROOTFS_DIR") kernels=${IMG_KERNELS[*]} packages=${PKGBASE_PACKAGES[*]} backports=$IBPO"
		declare -f pkgbase_recipe mount_chroot in_chroot
	} | sha256sum | cut -c1-16
}

# ensure_pkgbase: sets PKGBASE (a directory tree) for the release of
# image_release, builds it if missing.
ensure_pkgbase() {
	local key dir tmp
	key=$(pkgbase_key)
	dir=$MSL_CACHE/pkgbase$S-$key
	exec 7>"$MSL_CACHE/.pkgbase.lock"
	flock 7
	if [ -f "$dir/.complete" ] && [ -d "$dir/root/usr" ]; then
		log "package base cached: $dir"
		touch "$dir/.complete"
	else
		log "building the package base $dir (guest rootfs + headers + dkms + systemd; a few minutes, once)"
		tmp=$(mktemp -d "$MSL_CACHE/.pkgbase-build-XXXXXX")
		chmod 0755 "$tmp"
		if ! pkgbase_recipe "$tmp/root"; then
			umount_chroot "$tmp/root"
			tail -n 20 "$OUT/pkgbase$S-apt.log" >&2 || true
			safe_rm "$tmp" || true
			flock -u 7
			return 1
		fi
		touch "$tmp/.complete"
		safe_rm "$dir"
		mv "$tmp" "$dir"
		# Keep only the newest other entry of this release.
		local d n=0
		# shellcheck disable=SC2012 # our own dir names
		while read -r d; do
			[ "$d" = "$dir" ] && continue
			n=$((n + 1))
			[ $n -lt 2 ] || safe_rm "$d" || true
		done < <(ls -dt "$MSL_CACHE"/pkgbase"$S"-*/ 2>/dev/null | sed 's:/$::')
		log "package base built: $dir ($(du -sh "$dir" | cut -f1))"
	fi
	flock -u 7
	PKGBASE=$dir/root
}

# The files of the chroot that matter for "purge leaves nothing behind".
# dpkg's own records, logs and caches change by design; /var/lib/dkms/mok.*
# is the machine's MOK key, created by dkms on its first signing and kept.
# One sorted list (comm reads it).
tree_list() {
	{
		in_chroot "$1" find / -xdev \
			\( -path /proc -o -path /sys -o -path /dev -o -path /run -o -path /tmp -o -path /var/tmp \
			-o -path /var/log -o -path /var/cache -o -path /var/lib/apt -o -path /payload \) -prune -o \
			\( -path /var/lib/dpkg -prune -o -print \) 2>/dev/null |
			grep -vxE '/var/lib/dkms/mok\.(key|pub)|/etc/ld\.so\.cache'
		# dpkg's per-package records must go too.
		find "$1/var/lib/dpkg/info" -mindepth 1 -maxdepth 1 -printf '/var/lib/dpkg/info/%f\n'
	} | LC_ALL=C sort
}

# dkms_module_checks ROOT KVER FILE: what DKMS installed in the chroot
# ROOT for kernel KVER, FILE being the module it installed (a path in ROOT,
# empty when none was found): dkms status says installed, and the module
# is this version, built for KVER, signed with the chroot's MOK key
# (/var/lib/dkms/mok.pub, which DKMS makes).  M_VER, M_MAGIC, M_SIGNER
# for the verdict.
dkms_module_checks() {
	local root=$1 k=$2 f=$3 mokserial sig
	M_VER='' M_MAGIC='' M_SIGNER=''
	in_chroot "$root" dkms status -m memcg-softlimit -v "$VERSION" -k "$k" 2>/dev/null | grep -q ': installed' ||
		cfail "dkms status: '$(in_chroot "$root" dkms status -m memcg-softlimit -k "$k" 2>&1 | head -n 1)'"
	{ [ -n "$f" ] && [ -e "$root$f" ]; } || return 0
	M_VER=$(modinfo_field "$root$f" version)
	M_MAGIC=$(modinfo_field "$root$f" vermagic)
	M_SIGNER=$(modinfo_field "$root$f" signer)
	sig=$(modinfo_field "$root$f" sig_key)
	mokserial=$(cert_serial "$root/var/lib/dkms/mok.pub" 2>/dev/null || true)
	[ "$M_VER" = "$VERSION" ] || cfail "version '$M_VER'"
	[ "${M_MAGIC%% *}" = "$k" ] || cfail "vermagic '$M_MAGIC' is not $k's"
	[ -n "$M_SIGNER" ] || cfail "not signed"
	if [ -z "$mokserial" ]; then
		cfail "dkms made no /var/lib/dkms/mok.pub"
	elif [ "$sig" != "$mokserial" ]; then
		cfail "sig_key $sig is not /var/lib/dkms/mok.pub's serial $mokserial"
	fi
}

# part_image 12|13: that Debian's package image (image_release): the
# packages installed with dpkg in an overlay on its package base, DKMS's
# module for each of its kernels, the image tests/run boots, dpkg --purge.
# Debian 13's is made only when the run has its pkg rows' kernels.
part_image() {
	image_release "$1"
	[ ${#IMG_KERNELS[@]} -gt 0 ] || return 0
	image_chroot || return 1
	image_install
	# Kernels installed later with apt-get: one outside the tested kernels,
	# one inside whose build fails.  Neither installation may fail.  (Debian
	# 12's: their packages are made from the host's Debian 12 kernel.)
	[ "$REL" != 12 ] || part_image_kernels "$I_ROOT"
	image_make
	image_purge
}

# image_chroot: I_ROOT, the package chroot, mounted: an overlay on the
# cached package base (a copy if overlayfs is not available), thrown away
# at the end (I_UPPER); the listing of its files before the install.
image_chroot() {
	I_ROOT=$OUT/root$S I_UPPER=$OUT/ovl$S
	if [ -z "$ROOTFS_DIR" ] || [ ! -s "$ROOTFS_DIR/rootfs.img" ]; then
		result FAIL "$IRES/chroot-install" "no Debian $REL guest rootfs (MSL_ROOTFS_DIR${S:+_$S})"
		return 1
	fi
	ls "$DEB_DIR"/*.deb >/dev/null 2>&1 || { result FAIL "$IRES/chroot-install" "no .deb (deb/build failed)"; return 1; }
	tstart
	if ! ensure_pkgbase; then
		tend "$IRES/chroot-base"
		result FAIL "$IRES/chroot-base" "could not build the Debian $REL package base (log ${OUT#"$REPO"/}/pkgbase$S-apt.log)"
		return 1
	fi
	[ $((SECONDS - TSTART)) -lt 5 ] || info "$IRES/chroot-base" "built the package base ${PKGBASE%/root} in $((SECONDS - TSTART)) s (cached from now on)"
	safe_rm "$I_ROOT" && safe_rm "$I_UPPER" || return 1
	mkdir -p "$I_ROOT" "$I_UPPER/u" "$I_UPPER/w"
	if ! mount_add "$I_ROOT" -t overlay overlay -o "lowerdir=$PKGBASE,upperdir=$I_UPPER/u,workdir=$I_UPPER/w" 2>/dev/null; then
		log "no overlayfs: copying the package base"
		cp -a "$PKGBASE/." "$I_ROOT/"
	fi
	mount_chroot "$I_ROOT" || { result FAIL "$IRES/chroot-install" "cannot mount /proc, /sys, /dev in the chroot"; return 1; }
	printf '#!/bin/sh\nexit 101\n' >"$I_ROOT/usr/sbin/policy-rc.d"
	chmod +x "$I_ROOT/usr/sbin/policy-rc.d"
	tree_list "$I_ROOT" >"$OUT/tree$S-before.txt"
}

# image_install: dpkg -i (the dkms package's postinst registers the
# source and builds and installs the module for every kernel with
# headers); I_PKGS, the packages installed.
image_install() {
	local root=$I_ROOT f k rc=0 debs=() log=$OUT/chroot$S-dpkg-i.log
	I_PKGS=()
	tstart
	mkdir -p "$root/tmp/debs"
	cp "$DEB_DIR"/*.deb "$root/tmp/debs/"
	for f in "$root"/tmp/debs/*.deb; do
		debs+=("/tmp/debs/$(basename "$f")")
		I_PKGS+=("$(dpkg-deb -f "$f" Package)")
	done
	log "Debian $REL chroot: dpkg -i ${I_PKGS[*]} (DKMS builds for ${IMG_KERNELS[*]}) ..."
	in_chroot "$root" dpkg -i "${debs[@]}" >"$log" 2>&1 || rc=$?
	tend "$IRES/chroot-install"
	if [ "$rc" = 0 ]; then
		# shellcheck disable=SC2016 # dpkg-query's format
		# (what built the modules: Debian 12's dkms postinst, Debian 13's
		# the package's own hook)
		result PASS "$IRES/chroot-install" "dpkg -i ${I_PKGS[*]} with dkms $(in_chroot "$root" dpkg-query -W -f '${Version}' dkms): $(grep -E '^(Building for|memcg-softlimit: building)' "$log" | head -n 3 | tr '\n' ';')"
	else
		result FAIL "$IRES/chroot-install" "dpkg -i exited $rc: $(grep -iE 'error|fail' "$log" | head -n 3 | tr '\n' ' ') (log ${log#"$REPO"/})"
	fi

	tree_list "$root" >"$OUT/tree$S-installed.txt"
	# Per kernel: built, installed, depmod'ed, signed by the chroot's MOK key.
	for k in "${IMG_KERNELS[@]}"; do
		tstart
		f=$(in_chroot "$root" modinfo -k "$k" -n memcg_softlimit 2>/dev/null || true)
		case $f in
		/lib/modules/"$k"/updates/dkms/memcg_softlimit.ko*) ;;
		*) cfail "modinfo -k $k -n memcg_softlimit gives '$f', not updates/dkms/ (depmod?)" ;;
		esac
		dkms_module_checks "$root" "$k" "$f"
		tend "$IRES/dkms/$k"
		cverdict "$IRES/dkms/$k" "$f, version $M_VER, vermagic ${M_MAGIC%% *}, signer '$M_SIGNER'"
	done
}

# image_make: the boot image IMG (rootfs.img, the kernels and initrds,
# expect: what the guest tests t-41..t-43 check).  Fixtures for them:
# module parameters in modprobe.d, and, with the tool package, soft limits
# to apply at boot (one for a cgroup that does not exist then; one in a
# drop-in, as configuration management would add it) and the package
# itself, for t-42 to reinstall.
image_make() {
	local root=$I_ROOT f k tooldeb='' mokserial
	tstart
	rm -rf "$root/tmp/debs"
	echo "options memcg_softlimit priority_threshold=11" >"$root/etc/modprobe.d/zz-msl-test.conf"
	if [ -f "$root/etc/memcg-softlimit.conf" ]; then
		cp -a "$root/etc/memcg-softlimit.conf" "$OUT/memcg-softlimit$S.conf.orig"
		printf '%s\n' "/system.slice 1G" "/msl-t42-later.slice 256M" >>"$root/etc/memcg-softlimit.conf"
		printf '%s\n' "/msl-t42-dropin.slice 128Mi" >"$root/etc/memcg-softlimit.conf.d/50-msl-test.conf"
		for f in "$DEB_DIR"/memcg-softlimit_*.deb; do
			[ -e "$f" ] || continue
			mkdir -p "$root/var/cache/msl-test"
			cp "$f" "$root/var/cache/msl-test/"
			tooldeb=/var/cache/msl-test/$(basename "$f")
		done
	fi
	rm -f "$root/usr/sbin/policy-rc.d"
	umount_chroot "$root"
	safe_rm "$IMG"
	mkdir -p "$IMG"
	for k in "${IMG_KERNELS[@]}"; do
		cp "$root/boot/vmlinuz-$k" "$root/boot/initrd.img-$k" "$IMG/"
	done
	printf '%s\n' "${IMG_KERNELS[@]}" >"$IMG/kernels"
	mokserial=$(cert_serial "$root/var/lib/dkms/mok.pub" 2>/dev/null || true)
	{
		echo "version=$VERSION"
		echo "mok_serial=$mokserial"
		echo "tool=$([ -f "$root/lib/systemd/system/memcg-softlimit.service" ] && echo yes || echo no)"
		echo "softlimit=/system.slice 1G"
		echo "later=/msl-t42-later.slice 256M"
		echo "dropin=/msl-t42-dropin.slice 128Mi"
		echo "tool_deb=$tooldeb"
		echo "priority_threshold=11"
	} >"$IMG/expect"
	log "mke2fs the Debian $REL package image ($(du -sh --apparent-size "$root" 2>/dev/null | cut -f1)) ..."
	truncate -s 6G "$IMG/rootfs.img"
	if mke2fs -q -t ext4 -L mslroot -d "$root" -F "$IMG/rootfs.img" >"$OUT/mke2fs$S.log" 2>&1; then
		touch "$IMG/.complete"
		tend "$IMG_RES"
		result PASS "$IMG_RES" "${IMG#"$REPO"/}/rootfs.img ($(du -sh "$IMG/rootfs.img" | cut -f1) used of 6G)"
	else
		tend "$IMG_RES"
		result FAIL "$IMG_RES" "mke2fs failed: $(tail -n 2 "$OUT/mke2fs$S.log" | tr '\n' ' ')"
	fi
}

# image_purge: the fixtures away, dpkg --purge: nothing of ours may
# remain; then the chroot goes.
image_purge() {
	local root=$I_ROOT f k rc=0 added before=$OUT/tree$S-before.txt installed=$OUT/tree$S-installed.txt
	local after=$OUT/tree$S-after.txt diffs=$OUT/tree$S-diff.txt log=$OUT/chroot$S-dpkg-purge.log
	tstart
	rm -f "$root/etc/modprobe.d/zz-msl-test.conf"
	rm -rf "$root/var/cache/msl-test"
	rm -f "$root/etc/memcg-softlimit.conf.d/50-msl-test.conf"
	[ ! -f "$OUT/memcg-softlimit$S.conf.orig" ] || cp -a "$OUT/memcg-softlimit$S.conf.orig" "$root/etc/memcg-softlimit.conf"
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod +x "$root/usr/sbin/policy-rc.d"
	mount_chroot "$root" || cfail "cannot mount the chroot again"
	in_chroot "$root" dpkg --purge "${I_PKGS[@]}" >"$log" 2>&1 || rc=$?
	[ "$rc" = 0 ] || cfail "dpkg --purge exited $rc: $(tail -n 3 "$log" | tr '\n' ' ')"
	tree_list "$root" >"$after"
	# The listing sees what the install added (else the comparison proves nothing).
	added=$(LC_ALL=C comm -13 "$before" "$installed" | wc -l)
	for f in "/usr/src/memcg-softlimit-$VERSION/dkms.conf" /var/lib/dkms/memcg-softlimit \
		/usr/lib/systemd/system/memcg-softlimit-load.service /etc/modprobe.d/memcg-softlimit.conf \
		/etc/kernel/postinst.d/memcg-softlimit /etc/kernel/header_postinst.d/memcg-softlimit \
		"/var/lib/dpkg/info/memcg-softlimit-dkms.list"; do
		grep -qxF "$f" "$installed" || cfail "the listing after dpkg -i lacks $f"
	done
	if ! diff "$before" "$after" >"$diffs"; then
		cfail "files differ from before the install: $(grep '^[<>]' "$diffs" | head -n 6 | tr '\n' ' ') (${diffs#"$REPO"/})"
	fi
	[ ! -e "$root/var/lib/dkms/memcg-softlimit" ] || cfail "/var/lib/dkms/memcg-softlimit left"
	[ -z "$(in_chroot "$root" dkms status 2>/dev/null)" ] || cfail "dkms status: $(in_chroot "$root" dkms status 2>&1 | head -n 2 | tr '\n' ' ')"
	for k in "${IMG_KERNELS[@]}"; do
		! grep -q memcg_softlimit "$root/lib/modules/$k/modules.dep" 2>/dev/null || cfail "modules.dep of $k still lists memcg_softlimit"
		[ -z "$(find "$root/lib/modules/$k" -name 'memcg_softlimit*' | head -n 1)" ] || cfail "module files left for $k"
	done
	[ ! -e "$root/usr/src/memcg-softlimit-$VERSION" ] || cfail "/usr/src/memcg-softlimit-$VERSION left"
	[ -z "$(in_chroot "$root" dpkg -l 'memcg-softlimit*' 2>/dev/null | grep '^[a-z][a-z] ' | grep -v '^un' || true)" ] ||
		cfail "dpkg still knows: $(in_chroot "$root" dpkg -l 'memcg-softlimit*' 2>/dev/null | grep '^[a-z][a-z] ' | grep -v '^un' | tr '\n' ' ')"
	tend "$IRES/purge"
	cverdict "$IRES/purge" "the install added $added paths; after dpkg --purge all $(grep -c . "$before") paths are as before"
	umount_all
	safe_rm "$root" || true
	safe_rm "$I_UPPER" || true
}

# fake_kernel_debs KVER MODE DIR: linux-image-KVER and linux-headers-KVER
# packages in DIR, made from the 6.12 kernel's: the headers are a copy of
# its headers tree (fake_headers), the image a placeholder vmlinuz with its
# config and module lists, and the maintainer scripts are Debian's own (the
# chroot's, the version replaced), so installing them runs the kernel hooks
# exactly as a kernel upgrade does (run-parts --exit-on-error).  MODE
# "fail": the headers' autoconf.h ends in #error, so that any module build
# for KVER fails.
FAIL_MARK='memcg-softlimit package test: these headers fail every build'
fake_kernel_debs() {
	local kver=$1 mode=$2 dir=$3 root=$4 p t f re=${K_NEW//./\\.}
	for t in image headers; do
		p=$dir/linux-$t-$kver
		rm -rf "$p"
		mkdir -p "$p/DEBIAN"
		cat >"$p/DEBIAN/control" <<-EOF
			Package: linux-$t-$kver
			Version: 1
			Architecture: amd64
			Maintainer: memcg-softlimit tests <memcg-softlimit@lists.example.org>
			Section: kernel
			Priority: optional
			Description: fake Linux $kver $t (memcg-softlimit package test)
		EOF
		for f in "$root/var/lib/dpkg/info/linux-$t-$K_NEW".{preinst,postinst,prerm,postrm}; do
			[ -e "$f" ] || continue
			sed "s/$re/$kver/g" "$f" >"$p/DEBIAN/${f##*.}"
			chmod 0755 "$p/DEBIAN/${f##*.}"
		done
	done
	p=$dir/linux-image-$kver
	mkdir -p "$p/boot" "$p/lib/modules/$kver"
	echo "not a kernel: memcg-softlimit package test" >"$p/boot/vmlinuz-$kver"
	cp "/boot/config-$K_NEW" "$p/boot/config-$kver"
	cp "/lib/modules/$K_NEW"/modules.{order,builtin,builtin.modinfo} "$p/lib/modules/$kver/"
	p=$dir/linux-headers-$kver
	mkdir -p "$p/usr/src" "$p/lib/modules/$kver"
	fake_headers "$K_NEW" "$p/usr/src/linux-headers-$kver" 's/^CONFIG_LOCALVERSION=.*$/&/' || return 1
	ln -s "/usr/src/linux-headers-$kver" "$p/lib/modules/$kver/build"
	[ "$mode" != fail ] || printf '#error "%s"\n' "$FAIL_MARK" >>"$p/usr/src/linux-headers-$kver/include/generated/autoconf.h"
	for t in image headers; do
		dpkg-deb --root-owner-group -Zgzip -z1 --build "$dir/linux-$t-$kver" "$dir/linux-$t-${kver}_1_amd64.deb" >/dev/null || return 1
		rm -rf "${dir:?}/linux-$t-$kver"
	done
}

# shellcheck disable=SC2016 # dpkg-query's format
pkg_status() { in_chroot "$1" dpkg-query -W -f '${Status}' "$2" 2>&1; }

part_image_kernels() {
	local root=$1 name kver mode rc out log f dir=$OUT/fake-kernels
	for name in excluded build-fails; do
		tstart
		case $name in
		excluded) kver=7.4.0-99-amd64 mode=ok ;;
		build-fails) kver=6.12.999+msltest-amd64 mode=fail ;;
		esac
		log=$OUT/chroot-kernel-$name.log
		safe_rm "$dir" && mkdir -p "$dir" || return 1
		if ! fake_kernel_debs "$kver" "$mode" "$dir" "$root"; then
			tend "deb/kernel/$name"
			result FAIL "deb/kernel/$name" "cannot make the fake kernel packages for $kver"
			continue
		fi
		mkdir -p "$root/tmp/kernels"
		cp "$dir"/*.deb "$root/tmp/kernels/"
		log "chroot: apt-get install linux-image-$kver linux-headers-$kver ($name) ..."
		# INITRD=No: initramfs-tools' hook makes no initramfs for this
		# kernel with no modules (its hook documents the variable).
		rc=0
		in_chroot "$root" env INITRD=No apt-get install -y -q --no-install-recommends \
			"/tmp/kernels/linux-image-${kver}_1_amd64.deb" "/tmp/kernels/linux-headers-${kver}_1_amd64.deb" \
			>"$log" 2>&1 || rc=$?
		out=$(cat "$log")
		[ "$rc" = 0 ] || cfail "apt-get install exited $rc: $(grep -E '^E: |rror processing|exited with' "$log" | head -n 3 | tr '\n' ' ')"
		for t in image headers; do
			[ "$(pkg_status "$root" "linux-$t-$kver")" = "install ok installed" ] ||
				cfail "linux-$t-$kver is not configured: '$(pkg_status "$root" "linux-$t-$kver")'"
		done
		grep -q "^memcg-softlimit: building memcg_softlimit $VERSION for kernel $kver" <<<"$out" ||
			cfail "the kernel hook did not run for $kver"
		case $name in
		excluded)
			grep -qF "$EXCLUDED_MSG" <<<"$out" || cfail "no '$EXCLUDED_MSG' from dkms"
			grep -qF "memcg-softlimit: dkms.conf excludes kernel $kver" <<<"$out" || cfail "the hook did not report the exclusion"
			! grep -q 'Bad return status for module build' <<<"$out" || cfail "dkms tried to build"
			;;
		build-fails)
			grep -qF "Bad return status for module build on kernel: $kver" <<<"$out" || cfail "no build failure from dkms"
			grep -qF "memcg-softlimit: WARNING: building or installing memcg_softlimit $VERSION for kernel $kver failed" <<<"$out" ||
				cfail "the hook did not report the failed build"
			grep -qF "$FAIL_MARK" "$root/var/lib/dkms/memcg-softlimit/$VERSION/build/make.log" 2>/dev/null ||
				cfail "make.log does not show the build failing on the fake headers' #error"
			# The package itself configured again (an upgrade does) with
			# this kernel the newest: Debian 12's dkms common.postinst
			# builds for it and exits with the build's status, which must
			# not leave the package half-configured.
			rc=0
			f=$(cd "$root/tmp/debs" && ls memcg-softlimit-dkms_*.deb)
			in_chroot "$root" dpkg -i "/tmp/debs/$f" >>"$log" 2>&1 || rc=$?
			[ "$rc" = 0 ] || cfail "dpkg -i memcg-softlimit-dkms with $kver the newest kernel exited $rc: $(grep -E 'rror|exited' "$log" | tail -n 2 | tr '\n' ' ')"
			[ "$(pkg_status "$root" memcg-softlimit-dkms)" = "install ok installed" ] ||
				cfail "memcg-softlimit-dkms is '$(pkg_status "$root" memcg-softlimit-dkms)' after a failed build at its configuration"
			grep -qF "memcg-softlimit: WARNING: dkms's common.postinst exited" "$log" ||
				info "deb/kernel/$name" "dkms's common.postinst did not fail at the reinstallation (it built nothing for $kver?)"
			;;
		esac
		[ -z "$(find "$root/lib/modules/$kver" -name 'memcg_softlimit*' 2>/dev/null | head -n 1)" ] ||
			cfail "a module was installed for $kver"
		! in_chroot "$root" dkms status -m memcg-softlimit -k "$kver" 2>/dev/null | grep -q ': installed' ||
			cfail "dkms status says installed for $kver"
		# And away again (the kernel's prerm runs dkms's prerm hook).
		rc=0
		in_chroot "$root" apt-get purge -y -q "linux-image-$kver" "linux-headers-$kver" >>"$log" 2>&1 || rc=$?
		[ "$rc" = 0 ] || cfail "apt-get purge of the $kver packages exited $rc"
		if [ -e "$root/usr/src/linux-headers-$kver" ] || [ -e "$root/lib/modules/$kver" ]; then
			cfail "files of $kver left after apt-get purge"
		fi
		rm -rf "$root/tmp/kernels"
		tend "deb/kernel/$name"
		cverdict "deb/kernel/$name" "apt-get install linux-image-$kver linux-headers-$kver: exit 0; $(grep -m1 -F "memcg-softlimit: " "$log" | tail -n 1 | cut -c1-60)...; $(grep -m1 -E "dkms.conf excludes|WARNING: building" "$log" | cut -c1-110)..."
	done
	safe_rm "$dir" || true
}

# ---------------------------------------------------------------------------
log "parts: $PARTS; kernels: ${KERNELS[*]} (package images: Debian 12 ${IMG_KERNELS_12[*]}, Debian 13 ${IMG_KERNELS_13[*]:-none}); version $VERSION"
# ===========================================================================
# 5. Debian 13: the packages built here, installed with Debian 13's dkms
# ===========================================================================
part_deb13() {
	local root=$OUT/root13 upper=$OUT/ovl13 k f rc=0 debs=() out
	read -ra K13 <<<"${MSL_KVERS_13:-}"
	{ [ ${#K13[@]} -gt 0 ] && [ -n "${MSL_TRIXIE_CHROOT:-}" ]; } || return 0
	ls "$DEB_DIR"/memcg-softlimit-dkms_*.deb >/dev/null 2>&1 ||
		{ result FAIL deb13/install "no .deb (deb/build failed)"; return 1; }
	tstart
	safe_rm "$root" && safe_rm "$upper" || return 1
	mkdir -p "$root" "$upper/u" "$upper/w"
	mount_add "$root" -t overlay overlay -o "lowerdir=$MSL_TRIXIE_CHROOT,upperdir=$upper/u,workdir=$upper/w" ||
		{ result FAIL deb13/install "cannot mount an overlay on $MSL_TRIXIE_CHROOT"; return 1; }
	mount_chroot "$root" || { result FAIL deb13/install "cannot mount /proc, /sys, /dev in the chroot"; return 1; }
	mkdir -p "$root/tmp/debs"
	cp "$DEB_DIR"/memcg-softlimit-dkms_*.deb "$root/tmp/debs/"
	cp "$DEB_DIR"/memcg-softlimit_*.deb "$root/tmp/debs/" 2>/dev/null || true
	for f in "$root"/tmp/debs/*.deb; do debs+=("/tmp/debs/$(basename "$f")"); done
	log "Debian 13 chroot: apt-get install dkms ${debs[*]##*/} (DKMS builds for ${K13[*]}) ..."
	in_chroot "$root" apt-get install -y -q --no-install-recommends \
		-o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
		dkms "${debs[@]}" >"$OUT/deb13-install.log" 2>&1 || rc=$?
	tend deb13/install
	if [ "$rc" = 0 ]; then
		# shellcheck disable=SC2016 # dpkg-query's format
		result PASS deb13/install "apt-get install dkms $(in_chroot "$root" dpkg-query -W -f '${Version}' dkms) and ${debs[*]##*/} in Debian 13"
	else
		result FAIL deb13/install "apt-get install exited $rc: $(grep -iE 'error|fail|depends' "$OUT/deb13-install.log" | head -n 3 | tr '\n' ' ') (log ${OUT#"$REPO"/}/deb13-install.log)"
	fi
	for k in "${K13[@]}"; do
		tstart
		# The chroot has the kernels' headers, not their images (7.x's
		# headers bring no modules.dep, and dkms 3.2 then runs no depmod):
		# the module is looked for where DKMS installs it.
		f=$(cd "$root" && compgen -G "lib/modules/$k/updates/dkms/memcg_softlimit.ko*" | head -n 1) || f=''
		f=${f:+/$f}
		[ -n "$f" ] || cfail "no /lib/modules/$k/updates/dkms/memcg_softlimit.ko*"
		dkms_module_checks "$root" "$k" "$f"
		tend "deb13/dkms/$k"
		cverdict "deb13/dkms/$k" "$f, version $M_VER, vermagic ${M_MAGIC%% *}, signer '$M_SIGNER'"
	done
	# The tool, built on Debian 12, runs against Debian 13's libraries.
	if compgen -G "$DEB_DIR/memcg-softlimit_*.deb" >/dev/null; then
		tstart
		out=$(in_chroot "$root" /usr/sbin/memcg-softlimit --version 2>&1) || cfail "memcg-softlimit --version: $out"
		[[ $out == *"$VERSION"* ]] || cfail "memcg-softlimit --version says '$out', not $VERSION"
		tend deb13/tool
		cverdict deb13/tool "$out"
	fi
	umount_one "$root"
	safe_rm "$root" && safe_rm "$upper"
}

want dkms && part_dkms
want make && part_make
if want deb; then part_deb || true; fi
if want image; then
	part_image 12 || true
	part_image 13 || true
fi
if want deb13; then part_deb13 || true; fi
log "done in $((SECONDS - T0)) s"
