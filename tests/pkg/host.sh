#!/usr/bin/env bash
# tests/pkg/host.sh: the host side of the packaging tests (DKMS, the Debian
# packages, the package image).  tests/run runs it (through tests/pkg/lib.sh)
# after the module builds; it can also run alone:
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
#              dkms-uninstall`; refusal of fabricated headers trees without
#              CONFIG_DEBUG_INFO_BTF / ftrace with regs or args, and of a
#              kernel older than 6.1; `dkms autoinstall` skips them with
#              status 0.  The DKMS-built modules go to build/pkg/payload/
#              for the guest test t-40-dkms-modprobe.
#  2. make/install  `make install DESTDIR=...` in a copy of the sources.
#  3. deb/build, deb/lintian  `make deb` (dpkg-buildpackage), lintian.
#  4. deb/*    in a chroot of the guest rootfs with every kernel's headers,
#              dkms, systemd and udev (cached, keyed by the rootfs and the
#              recipe below): dpkg -i, DKMS builds and installs for each
#              kernel (signed), the kernel hook skips an unsupported kernel,
#              the image build/pkg/image/rootfs.img is made (booted by
#              tests/pkg/lib.sh with systemd as init for t-41/t-42), then
#              dpkg --purge leaves nothing behind.
#
# Environment: MSL_KVERS (required: the kernels of tests/matrix's Debian 12
# rows, as tests/vm/setup.sh resolved them), MSL_ROOTFS_DIR (for 4),
# MSL_CACHE (default /var/cache/memcg-softlimit), MSL_PKG_OUT (default
# build/pkg), MSL_PKG_ONLY="dkms make deb image" (default: all parts).
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
VERSION=$(tr -d ' \t\n' <"$REPO/VERSION")
PARTS=${MSL_PKG_ONLY:-dkms make deb image}
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
dkms_private() { dkms "$1" "${DKF[@]}" "${@:2}"; }

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
		f=$(find "$DK/lib/$k/updates/dkms" -name 'memcg_softlimit.ko*' 2>/dev/null | head -n 1)
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

	# Refusal: fabricated headers trees and an old kernel release.
	part_dkms_refuse

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

part_dkms_refuse() {
	local name fake kver rc out expect cfg_expr
	# The source must be registered (dkms-install did it; re-add if not).
	dkms_private status -m memcg-softlimit -v "$VERSION" 2>/dev/null | grep -q . ||
		dkms_private add -m memcg-softlimit -v "$VERSION" >/dev/null 2>&1 || true
	for name in no-btf no-ftrace-regs-args; do
		tstart
		case $name in
		no-btf)
			cfg_expr='s/^CONFIG_DEBUG_INFO_BTF=y$/# CONFIG_DEBUG_INFO_BTF is not set/'
			expect='does not set CONFIG_DEBUG_INFO_BTF;'
			;;
		no-ftrace-regs-args)
			cfg_expr='s/^\(CONFIG_DYNAMIC_FTRACE_WITH_\(REGS\|ARGS\)\|CONFIG_KPROBES_ON_FTRACE\)=y$/# \1 is not set/'
			expect='does not set CONFIG_KPROBES_ON_FTRACE, CONFIG_DYNAMIC_FTRACE_WITH_REGS or CONFIG_DYNAMIC_FTRACE_WITH_ARGS;'
			;;
		esac
		fake=$DK/headers-$name
		kver=${K_NEW%-amd64}-$name
		fake_headers "$K_NEW" "$fake" "$cfg_expr" || cfail "cannot fabricate $fake"
		mkdir -p "$DK/lib/$kver"
		rc=0
		out=$(dkms_private build -m memcg-softlimit -v "$VERSION" -k "$kver" --kernelsourcedir "$fake" 2>&1) || rc=$?
		printf '%s\n' "$out" >"$OUT/dkms-refuse-$name.log"
		[ "$rc" = 77 ] || cfail "dkms build exited $rc, expected 77 (not built)"
		grep -qF "memcg-softlimit: not building for kernel $kver: " <<<"$out" || cfail "no refusal message for $kver"
		grep -qF -- "$expect" <<<"$out" || cfail "the message does not say '$expect'"
		[ ! -e "$DK/tree/memcg-softlimit/$VERSION/$kver" ] || cfail "dkms left $DK/tree/memcg-softlimit/$VERSION/$kver"
		! grep -q '^make ' <<<"$out" || cfail "dkms started a build"
		# What the kernel packages' hooks run: autoinstall must skip it, not fail.
		rc=0
		out=$(dkms_private autoinstall -k "$kver" --kernelsourcedir "$fake" 2>&1) || rc=$?
		printf '%s\n' "$out" >>"$OUT/dkms-refuse-$name.log"
		[ "$rc" = 0 ] || cfail "dkms autoinstall exited $rc (the kernel hook would fail the package install)"
		grep -qF "(autoinstall skips it)" <<<"$out" || cfail "autoinstall printed no refusal"
		[ -z "$(find "$DK/lib/$kver" -name 'memcg_softlimit*' | head -n 1)" ] || cfail "autoinstall installed a module for $kver"
		tend "dkms/refuse/$name"
		cverdict "dkms/refuse/$name" "$(grep -m1 -F 'memcg-softlimit: not building' "$OUT/dkms-refuse-$name.log" | cut -c1-150)..."
		rm -rf "${fake:?}" "${DK:?}/lib/${kver:?}"
	done
	# A release older than 6.1 (the real 6.1 headers stand in).
	tstart
	kver=5.10.0-99-amd64
	rc=0
	out=$(dkms_private build -m memcg-softlimit -v "$VERSION" -k "$kver" \
		--kernelsourcedir "$(readlink -f "/lib/modules/$K_OLD/build")" 2>&1) || rc=$?
	printf '%s\n' "$out" >"$OUT/dkms-refuse-old.log"
	[ "$rc" = 77 ] || cfail "dkms build exited $rc, expected 77"
	grep -qF "memcg-softlimit: not building for kernel $kver: it is older than 6.1" <<<"$out" || cfail "no 'older than 6.1' message"
	tend dkms/refuse/old-kernel
	cverdict dkms/refuse/old-kernel
}

# ===========================================================================
# 2. make install (no DKMS), DESTDIR, in a copy of the sources
# ===========================================================================
part_make() {
	local k=$K_NEW d=$OUT/make-install f ver
	tstart
	safe_rm "$d"
	mkdir -p "$d/src" "$d/root"
	(cd "$REPO" && cp -a Makefile Kbuild VERSION dkms.conf module include tools "$d/src/")
	make -C "$d/src/tools" --no-print-directory clean >/dev/null 2>&1
	find "$d/src" \( -name '*.o' -o -name '*.ko' -o -name '.*.cmd' -o -name '*.mod*' \) -delete
	[ -s "$DK/mok.key" ] || { mkdir -p "$DK" && openssl req -new -x509 -nodes -days 36500 -subj "/CN=memcg-softlimit test MOK" \
		-newkey rsa:2048 -keyout "$DK/mok.key" -outform DER -out "$DK/mok.pub" >/dev/null 2>&1; }
	if ! make -C "$d/src" --no-print-directory install KVER="$k" DESTDIR="$d/root" \
		MOK_KEY="$DK/mok.key" MOK_CERT="$DK/mok.pub" >"$OUT/make-install.log" 2>&1; then
		cfail "make install failed: $(tail -n 3 "$OUT/make-install.log" | tr '\n' ' ')"
	fi
	f=$(find "$d/root/lib/modules/$k/updates" -name 'memcg_softlimit.ko*' 2>/dev/null | head -n 1)
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
		# Go on with the DKMS package alone, so that its tests still run.
		grep -q 'pkg.memcg-softlimit.notool' "$OUT/deb-build.log" && return 1
		log "retrying without the tool package (profile pkg.memcg-softlimit.notool)"
		safe_rm "$DEB_DIR"
		DEB_BUILD_PROFILES=pkg.memcg-softlimit.notool "$REPO/packaging/build-deb" "$DEB_DIR" >>"$OUT/deb-build.log" 2>&1 || return 1
		info deb/build "built memcg-softlimit-dkms alone after that failure: the package image has no tool"
	else
		result PASS deb/build "$(deb_sizes)"
	fi
	grep -q 'pkg.memcg-softlimit.notool' "$OUT/deb-build.log" &&
		info deb/build "memcg-softlimit (tool, man page, unit) not built (profile pkg.memcg-softlimit.notool: no tools/Makefile, or its build failed)"

	tstart
	rc=0
	lintian --info --pedantic --display-experimental --show-overrides \
		"$DEB_DIR"/memcg-softlimit_*.changes >"$OUT/lintian.log" 2>&1 || rc=$?
	grep -v 'running with root privileges' "$OUT/lintian.log" >&2 || true
	tags=$(grep -E '^[EWIPXO]: ' "$OUT/lintian.log" || true)
	tend deb/lintian
	if grep -qE '^[EW]: ' <<<"$tags"; then
		result FAIL deb/lintian "$(grep -cE '^[EW]: ' <<<"$tags") errors/warnings: $(grep -E '^[EW]: ' <<<"$tags" | head -n 5 | tr '\n' ';')"
	elif [ "$rc" != 0 ] && [ "$rc" != 2 ]; then
		result FAIL deb/lintian "lintian exited $rc: $(tail -n 3 "$OUT/lintian.log" | tr '\n' ' ')"
	else
		result PASS deb/lintian "$( [ -n "$tags" ] && echo "$(wc -l <<<"$tags") info/pedantic/overridden tags (log ${OUT#"$REPO"/}/lintian.log)" || echo "no tags (--pedantic --info --display-experimental)")"
	fi
}

# ===========================================================================
# 4. The package image: chroot install, DKMS for each kernel, purge
# ===========================================================================
# Packages added to the guest rootfs for the package tests.
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
	log "chroot: apt-get update; install ${PKGBASE_PACKAGES[*]} and the headers of ${KERNELS[*]} ..."
	in_chroot "$root" apt-get update -q >"$OUT/pkgbase-apt.log" 2>&1 || { umount_chroot "$root"; return 1; }
	in_chroot "$root" apt-get install -y -q --no-install-recommends \
		-o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
		"${PKGBASE_PACKAGES[@]}" >>"$OUT/pkgbase-apt.log" 2>&1 || { umount_chroot "$root"; return 1; }
	for k in "${KERNELS[@]}"; do
		in_chroot "$root" apt-get install -y -q --no-install-recommends "linux-headers-$k" >>"$OUT/pkgbase-apt.log" 2>&1 ||
			in_chroot "$root" apt-get install -y -q --no-install-recommends -t bookworm-backports "linux-headers-$k" \
				>>"$OUT/pkgbase-apt.log" 2>&1 || { umount_chroot "$root"; return 1; }
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
		echo "rootfs=$(basename "$ROOTFS_DIR") kernels=${KERNELS[*]} packages=${PKGBASE_PACKAGES[*]}"
		declare -f pkgbase_recipe mount_chroot in_chroot
	} | sha256sum | cut -c1-16
}

# ensure_pkgbase: sets PKGBASE (a directory tree), builds it if missing.
ensure_pkgbase() {
	local key dir tmp
	key=$(pkgbase_key)
	dir=$MSL_CACHE/pkgbase-$key
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
			tail -n 20 "$OUT/pkgbase-apt.log" >&2 || true
			safe_rm "$tmp" || true
			flock -u 7
			return 1
		fi
		touch "$tmp/.complete"
		safe_rm "$dir"
		mv "$tmp" "$dir"
		# Keep only the newest other entry.
		local d n=0
		# shellcheck disable=SC2012 # our own dir names
		while read -r d; do
			[ "$d" = "$dir" ] && continue
			n=$((n + 1))
			[ $n -lt 2 ] || safe_rm "$d" || true
		done < <(ls -dt "$MSL_CACHE"/pkgbase-*/ 2>/dev/null | sed 's:/$::')
		log "package base built: $dir ($(du -sh "$dir" | cut -f1))"
	fi
	flock -u 7
	PKGBASE=$dir/root
}

# The files of the chroot that matter for "purge leaves nothing behind".
# dpkg's own records, logs and caches change by design; /var/lib/dkms/mok.*
# is the machine's MOK key, created by dkms on its first signing and kept.
tree_list() {
	in_chroot "$1" find / -xdev \
		\( -path /proc -o -path /sys -o -path /dev -o -path /run -o -path /tmp -o -path /var/tmp \
		-o -path /var/log -o -path /var/cache -o -path /var/lib/apt -o -path /payload \) -prune -o \
		\( -path /var/lib/dpkg -prune -o -print \) 2>/dev/null |
		grep -vxE '/var/lib/dkms/mok\.(key|pub)|/etc/ld\.so\.cache' | LC_ALL=C sort
	# dpkg's per-package records must go too.
	find "$1/var/lib/dpkg/info" -mindepth 1 -maxdepth 1 -printf '/var/lib/dpkg/info/%f\n' | LC_ALL=C sort
}

IMG=$OUT/image
part_image() {
	local root=$OUT/root upper=$OUT/ovl lower k f rc out debs=() pkgs=() mokserial sig signer ver
	if [ -z "${MSL_ROOTFS_DIR:-}" ] || [ ! -s "$MSL_ROOTFS_DIR/rootfs.img" ]; then
		result FAIL deb/chroot-install "no guest rootfs (MSL_ROOTFS_DIR)"
		return 1
	fi
	ROOTFS_DIR=$MSL_ROOTFS_DIR
	ls "$DEB_DIR"/*.deb >/dev/null 2>&1 || { result FAIL deb/chroot-install "no .deb (deb/build failed)"; return 1; }
	tstart
	if ! ensure_pkgbase; then
		tend deb/chroot-base
		result FAIL deb/chroot-base "could not build the package base (log ${OUT#"$REPO"/}/pkgbase-apt.log)"
		return 1
	fi
	[ $((SECONDS - TSTART)) -lt 5 ] || info deb/chroot-base "built the package base ${PKGBASE%/root} in $((SECONDS - TSTART)) s (cached from now on)"
	lower=$PKGBASE
	tstart

	# The package chroot: an overlay on the cached base (a copy if overlayfs
	# is not available), thrown away at the end.
	safe_rm "$root" && safe_rm "$upper" || return 1
	mkdir -p "$root" "$upper/u" "$upper/w"
	if ! mount_add "$root" -t overlay overlay -o "lowerdir=$lower,upperdir=$upper/u,workdir=$upper/w" 2>/dev/null; then
		log "no overlayfs: copying the package base"
		cp -a "$lower/." "$root/"
	fi
	mount_chroot "$root" || { result FAIL deb/chroot-install "cannot mount /proc, /sys, /dev in the chroot"; return 1; }
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod +x "$root/usr/sbin/policy-rc.d"
	tree_list "$root" >"$OUT/tree-before.txt"

	# dpkg -i: the dkms package's postinst registers the source and builds
	# and installs the module for every kernel with headers.
	mkdir -p "$root/tmp/debs"
	cp "$DEB_DIR"/*.deb "$root/tmp/debs/"
	for f in "$root"/tmp/debs/*.deb; do
		debs+=("/tmp/debs/$(basename "$f")")
		pkgs+=("$(dpkg-deb -f "$f" Package)")
	done
	log "chroot: dpkg -i ${pkgs[*]} (DKMS builds for ${KERNELS[*]}) ..."
	rc=0
	in_chroot "$root" dpkg -i "${debs[@]}" >"$OUT/chroot-dpkg-i.log" 2>&1 || rc=$?
	tend deb/chroot-install
	if [ "$rc" = 0 ]; then
		result PASS deb/chroot-install "dpkg -i ${pkgs[*]}: $(grep -m1 '^Building for' "$OUT/chroot-dpkg-i.log" || true)"
	else
		result FAIL deb/chroot-install "dpkg -i exited $rc: $(grep -iE 'error|fail' "$OUT/chroot-dpkg-i.log" | head -n 3 | tr '\n' ' ') (log ${OUT#"$REPO"/}/chroot-dpkg-i.log)"
	fi

	tree_list "$root" >"$OUT/tree-installed.txt"
	# Per kernel: built, installed, depmod'ed, signed by the chroot's MOK key.
	mokserial=$(cert_serial "$root/var/lib/dkms/mok.pub" 2>/dev/null || true)
	for k in "${KERNELS[@]}"; do
		tstart
		in_chroot "$root" dkms status -m memcg-softlimit -v "$VERSION" -k "$k" 2>/dev/null | grep -q ': installed' ||
			cfail "dkms status: '$(in_chroot "$root" dkms status -m memcg-softlimit -k "$k" 2>&1 | head -n 1)'"
		f=$(in_chroot "$root" modinfo -k "$k" -n memcg_softlimit 2>/dev/null || true)
		case $f in
		/lib/modules/"$k"/updates/dkms/memcg_softlimit.ko*) ;;
		*) cfail "modinfo -k $k -n memcg_softlimit gives '$f', not updates/dkms/ (depmod?)" ;;
		esac
		if [ -n "$f" ] && [ -e "$root$f" ]; then
			ver=$(modinfo_field "$root$f" version)
			signer=$(modinfo_field "$root$f" signer)
			sig=$(modinfo_field "$root$f" sig_key)
			[ "$ver" = "$VERSION" ] || cfail "version '$ver'"
			[ -n "$signer" ] || cfail "not signed"
			[ -z "$mokserial" ] || [ "$sig" = "$mokserial" ] || cfail "sig_key $sig is not /var/lib/dkms/mok.pub's serial $mokserial"
			[ -n "$mokserial" ] || cfail "dkms made no /var/lib/dkms/mok.pub"
		fi
		tend "deb/dkms/$k"
		cverdict "deb/dkms/$k" "$f, version $ver, signer '$signer'"
	done

	# A kernel the module does not support, installed later: the headers
	# package's hook (dkms autoinstall) must skip the module and succeed.
	part_image_hook "$root"

	# The boot image.  Fixtures for the guest tests: module parameters in
	# modprobe.d, and, with the tool package, a soft limit to apply at boot.
	tstart
	rm -rf "$root/tmp/debs"
	echo "options memcg_softlimit priority_threshold=11" >"$root/etc/modprobe.d/zz-msl-test.conf"
	if [ -f "$root/etc/memcg-softlimit.conf" ]; then
		cp -a "$root/etc/memcg-softlimit.conf" "$OUT/memcg-softlimit.conf.orig"
		echo "/system.slice 1G" >>"$root/etc/memcg-softlimit.conf"
	fi
	rm -f "$root/usr/sbin/policy-rc.d"
	umount_chroot "$root"
	safe_rm "$IMG"
	mkdir -p "$IMG"
	for k in "${KERNELS[@]}"; do
		cp "$root/boot/vmlinuz-$k" "$root/boot/initrd.img-$k" "$IMG/"
	done
	printf '%s\n' "${KERNELS[@]}" >"$IMG/kernels"
	{
		echo "version=$VERSION"
		echo "mok_serial=$mokserial"
		echo "tool=$([ -f "$root/lib/systemd/system/memcg-softlimit.service" ] && echo yes || echo no)"
		echo "softlimit=/system.slice 1G"
		echo "priority_threshold=11"
	} >"$IMG/expect"
	log "mke2fs the package image ($(du -sh --apparent-size "$root" 2>/dev/null | cut -f1)) ..."
	truncate -s 6G "$IMG/rootfs.img"
	if mke2fs -q -t ext4 -L mslroot -d "$root" -F "$IMG/rootfs.img" >"$OUT/mke2fs.log" 2>&1; then
		touch "$IMG/.complete"
		tend deb/image
		result PASS deb/image "${IMG#"$REPO"/}/rootfs.img ($(du -sh "$IMG/rootfs.img" | cut -f1) used of 6G)"
	else
		tend deb/image
		result FAIL deb/image "mke2fs failed: $(tail -n 2 "$OUT/mke2fs.log" | tr '\n' ' ')"
	fi

	# Purge: nothing of ours may remain.
	tstart
	rm -f "$root/etc/modprobe.d/zz-msl-test.conf"
	[ ! -f "$OUT/memcg-softlimit.conf.orig" ] || cp -a "$OUT/memcg-softlimit.conf.orig" "$root/etc/memcg-softlimit.conf"
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod +x "$root/usr/sbin/policy-rc.d"
	mount_chroot "$root" || cfail "cannot mount the chroot again"
	rc=0
	in_chroot "$root" dpkg --purge "${pkgs[@]}" >"$OUT/chroot-dpkg-purge.log" 2>&1 || rc=$?
	[ "$rc" = 0 ] || cfail "dpkg --purge exited $rc: $(tail -n 3 "$OUT/chroot-dpkg-purge.log" | tr '\n' ' ')"
	tree_list "$root" >"$OUT/tree-after.txt"
	# The listing sees what the install added (else the comparison proves nothing).
	local added
	added=$(comm -13 "$OUT/tree-before.txt" "$OUT/tree-installed.txt" | wc -l)
	for f in "/usr/src/memcg-softlimit-$VERSION/dkms.conf" /var/lib/dkms/memcg-softlimit \
		/usr/lib/modules-load.d/memcg-softlimit.conf /etc/modprobe.d/memcg-softlimit.conf \
		"/var/lib/dpkg/info/memcg-softlimit-dkms.list"; do
		grep -qxF "$f" "$OUT/tree-installed.txt" || cfail "the listing after dpkg -i lacks $f"
	done
	if ! diff "$OUT/tree-before.txt" "$OUT/tree-after.txt" >"$OUT/tree-diff.txt"; then
		cfail "files differ from before the install: $(grep '^[<>]' "$OUT/tree-diff.txt" | head -n 6 | tr '\n' ' ') (${OUT#"$REPO"/}/tree-diff.txt)"
	fi
	[ ! -e "$root/var/lib/dkms/memcg-softlimit" ] || cfail "/var/lib/dkms/memcg-softlimit left"
	[ -z "$(in_chroot "$root" dkms status 2>/dev/null)" ] || cfail "dkms status: $(in_chroot "$root" dkms status 2>&1 | head -n 2 | tr '\n' ' ')"
	for k in "${KERNELS[@]}"; do
		! grep -q memcg_softlimit "$root/lib/modules/$k/modules.dep" 2>/dev/null || cfail "modules.dep of $k still lists memcg_softlimit"
		[ -z "$(find "$root/lib/modules/$k" -name 'memcg_softlimit*' | head -n 1)" ] || cfail "module files left for $k"
	done
	[ ! -e "$root/usr/src/memcg-softlimit-$VERSION" ] || cfail "/usr/src/memcg-softlimit-$VERSION left"
	[ -z "$(in_chroot "$root" dpkg -l 'memcg-softlimit*' 2>/dev/null | grep '^[a-z][a-z] ' | grep -v '^un' || true)" ] ||
		cfail "dpkg still knows: $(in_chroot "$root" dpkg -l 'memcg-softlimit*' 2>/dev/null | grep '^[a-z][a-z] ' | grep -v '^un' | tr '\n' ' ')"
	tend deb/purge
	cverdict deb/purge "the install added $added paths; after dpkg --purge all $(grep -c . "$OUT/tree-before.txt") paths are as before"
	umount_all
	safe_rm "$root" || true
	safe_rm "$upper" || true
}

part_image_hook() {
	local root=$1 kver=${K_NEW%-amd64}-nobtf rc=0 out
	tstart
	fake_headers "$K_NEW" "$root/usr/src/linux-headers-$kver" \
		's/^CONFIG_DEBUG_INFO_BTF=y$/# CONFIG_DEBUG_INFO_BTF is not set/' || cfail "cannot fabricate headers"
	mkdir -p "$root/lib/modules/$kver"
	ln -sfn "/usr/src/linux-headers-$kver" "$root/lib/modules/$kver/build"
	out=$(in_chroot "$root" /etc/kernel/header_postinst.d/dkms "$kver" 2>&1) || rc=$?
	printf '%s\n' "$out" >"$OUT/chroot-hook-nobtf.log"
	[ "$rc" = 0 ] || cfail "/etc/kernel/header_postinst.d/dkms $kver exited $rc (the headers package would fail to install)"
	grep -qF "memcg-softlimit: not building for kernel $kver: its configuration" <<<"$out" || cfail "no refusal message"
	grep -qF "does not set CONFIG_DEBUG_INFO_BTF;" <<<"$out" || cfail "the message does not name CONFIG_DEBUG_INFO_BTF"
	[ -z "$(find "$root/lib/modules/$kver" -name 'memcg_softlimit*' | head -n 1)" ] || cfail "a module was installed for $kver"
	! in_chroot "$root" dkms status -k "$kver" 2>/dev/null | grep -q "$kver" || cfail "dkms status lists $kver"
	rm -rf "$root/usr/src/linux-headers-$kver" "$root/lib/modules/$kver"
	tend deb/kernel-hook-skips-unsupported
	cverdict deb/kernel-hook-skips-unsupported "$(grep -m1 -F 'memcg-softlimit: not building' <<<"$out" | cut -c1-120)..."
}

# ---------------------------------------------------------------------------
log "parts: $PARTS; kernels: ${KERNELS[*]}; version $VERSION"
want dkms && part_dkms
want make && part_make
if want deb; then part_deb || true; fi
if want image; then part_image || true; fi
log "done in $((SECONDS - T0)) s"
