#!/usr/bin/env bash
# tests/vm/selftests.sh: build the kernel's own cgroup memory selftest,
# tools/testing/selftests/cgroup/test_memcontrol, from the Debian source of
# the exact kernel a matrix configuration boots, for the guest tests
# (tests/cases/t-40-kselftest-memcontrol.sh).
#
#   tests/vm/selftests.sh KVER [DEST]
#
# KVER is a kernel release of the matrix (6.1.0-57-amd64,
# 6.12.118+deb12-amd64).  Its Debian version (6.1.192-3,
# 6.12.118-1~deb12u1) is read from the version string of the kernel image
# the guest boots ($MSL_ROOTFS_DIR/vmlinuz-KVER) or, failing that, from apt
# (the linux-image-KVER[-unsigned] candidate).  The script then
#   1. fetches linux-source-<series>=<version> with apt-get download and
#      extracts only what test_memcontrol needs (selftests/cgroup,
#      kselftest.h, clone3/, pidfd/) into
#      ${MSL_CACHE:-/var/cache/memcg-softlimit}/selftests-src/<series>_<version>/
#      (a cache: it is rebuilt whenever it is missing or incomplete);
#   2. compiles test_memcontrol.c + cgroup_util.c with the flags of the
#      kernel's selftests Makefile, statically (the host and
#      the guest are both Debian 12, same glibc, so the one getaddrinfo
#      warning of a static link does not matter) into
#      build/selftests/<kver>/test_memcontrol, with stdout line-buffered so
#      that the TAP lines are not duplicated by the test's fork()s when
#      stdout is a file, and MSL_KSFT_ONLY="<subtest> ..." to run only some
#      subtests (see below; the subtests themselves are untouched);
#   3. if DEST is given, copies test_memcontrol and SOURCE (the package and
#      version it was built from) to DEST/<series>/ (make_payload passes
#      <payload>/selftests).
# Log: build/selftests/<kver>.log.  Exit status non-zero on any failure.
#
# Environment: MSL_CACHE, MSL_ROOTFS_DIR and MSL_ROOTFS_DIR_13 (see
# tests/vm/setup.sh),
# MSL_SELFTESTS_VERSION (force the Debian source version, e.g. to test a
# kernel whose exact source is no longer in the archive).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
MSL_CACHE=${MSL_CACHE:-/var/cache/memcg-softlimit}
KVER=${1:?usage: selftests.sh KVER [DEST]}
DEST=${2:-}
OUT=$REPO/build/selftests/$KVER
LOG=$REPO/build/selftests/$KVER.log
T0=$SECONDS

mkdir -p "$REPO/build/selftests"
: >"$LOG"
log() { printf '[selftests %3ds] %s\n' "$((SECONDS - T0))" "$*" | tee -a "$LOG" >&2; }
die() {
	log "ERROR: $*"
	exit 1
}

# debian_version KVER: the Debian version of that kernel's build.
debian_version() {
	local kver=$1 v='' p
	if [ -n "${MSL_SELFTESTS_VERSION:-}" ]; then
		echo "$MSL_SELFTESTS_VERSION"
		return 0
	fi
	# The bzImage's setup header holds the uname -v string (uncompressed):
	# "<kver> (debian-kernel@lists.debian.org) #1 SMP ... Debian 6.1.192-3 (date)"
	local d
	for d in "${MSL_ROOTFS_DIR:-}" "${MSL_ROOTFS_DIR_13:-}"; do
		{ [ -n "$d" ] && [ -s "$d/vmlinuz-$kver" ]; } || continue
		v=$(head -c 131072 "$d/vmlinuz-$kver" | tr '\0' '\n' |
			grep -a -m1 -F "$kver (" | grep -a -o 'Debian [0-9][^ ]*' | head -n1 | cut -d' ' -f2) || true
		if [ -n "$v" ]; then
			log "$kver: Debian $v (from $d/vmlinuz-$kver)"
			echo "$v"
			return 0
		fi
		log "no Debian version string in $d/vmlinuz-$kver; asking apt"
	done
	for p in "linux-image-$kver" "linux-image-$kver-unsigned"; do
		v=$(apt-cache policy "$p" 2>/dev/null | awk '/Installed:/ {i = $2} /Candidate:/ {c = $2} END {print (i != "" && i != "(none)") ? i : c}')
		if [ -n "$v" ] && [ "$v" != "(none)" ]; then
			log "$kver: Debian $v (apt: $p)"
			echo "$v"
			return 0
		fi
	done
	return 1
}

VERSION=$(debian_version "$KVER") || die "cannot tell the Debian version of kernel $KVER"
SERIES=$(sed -n 's/^\([0-9]*\.[0-9]*\)\..*/\1/p' <<<"$VERSION")
[ -n "$SERIES" ] || die "cannot tell the series of Debian version '$VERSION'"
PKG=linux-source-$SERIES
SRC_CACHE=$MSL_CACHE/selftests-src/${SERIES}_$VERSION
STAMP="$PKG=$VERSION script=$(sha256sum "$HERE/selftests.sh" | cut -c1-16)"

# --------------------------------------------------------------------------
# 1. The sources (cached; fetched when the cache entry is missing)
# --------------------------------------------------------------------------
MEMBERS=(
	tools/testing/selftests/cgroup
	tools/testing/selftests/clone3
	tools/testing/selftests/pidfd
	tools/testing/selftests/kselftest.h
	tools/testing/selftests/lib.mk
)
fetch_sources() {
	local tmp deb top m
	mkdir -p "$MSL_CACHE/selftests-src"
	tmp=$(mktemp -d "$MSL_CACHE/selftests-src/.fetch-XXXXXX")
	# shellcheck disable=SC2064 # expand now
	trap "rm -rf '$tmp'" EXIT
	chmod 0755 "$tmp" # apt-get download runs as _apt
	# Debian 13's sources are not in the host's apt: tests/vm/trixie.sh
	# downloads trixie-backports' into its cache.
	if compgen -G "$MSL_CACHE/trixie-debs/${PKG}_${VERSION//:/%3a}_all.deb" >/dev/null; then
		log "$PKG=$VERSION from $MSL_CACHE/trixie-debs"
		cp "$MSL_CACHE/trixie-debs/${PKG}_${VERSION//:/%3a}_all.deb" "$tmp/"
	elif log "apt-get download $PKG=$VERSION (~150 MB)" &&
		! (cd "$tmp" && apt-get download -q "$PKG=$VERSION") >>"$LOG" 2>&1; then
		tail -n 5 "$LOG" >&2
		die "apt-get download $PKG=$VERSION failed (is that version still in the archive? MSL_SELFTESTS_VERSION overrides it)"
	fi
	deb=$(find "$tmp" -maxdepth 1 -name "${PKG}_*.deb" | head -n1)
	[ -s "$deb" ] || die "apt-get download left no ${PKG}_*.deb"
	top=$PKG
	local want=()
	for m in "${MEMBERS[@]}"; do want+=("$top/$m"); done
	log "extracting ${MEMBERS[*]} from $(basename "$deb")"
	mkdir -p "$tmp/src"
	# The .deb holds usr/src/linux-source-X.Y.tar.xz; stream out of it.
	if ! dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$PKG.tar.xz" |
		tar -xJ -C "$tmp/src" "${want[@]}" 2>>"$LOG"; then
		die "extracting the selftests from $deb failed"
	fi
	for m in "${MEMBERS[@]}"; do
		[ -e "$tmp/src/$top/$m" ] || die "$PKG $VERSION has no $m"
	done
	printf '%s\n' "$PKG=$VERSION" >"$tmp/src/$top/SOURCE"
	touch "$tmp/src/$top/.complete"
	rm -rf "$SRC_CACHE"
	mv "$tmp/src/$top" "$SRC_CACHE"
	rm -rf "$tmp"
	trap - EXIT
}

# One fetch at a time per cache (runs in other trees may share it).
mkdir -p "$MSL_CACHE/selftests-src"
exec 7>"$MSL_CACHE/selftests-src/.lock"
flock 7
cached=1
[ -f "$SRC_CACHE/.complete" ] || cached=0
for m in "${MEMBERS[@]}"; do [ -e "$SRC_CACHE/$m" ] || cached=0; done
if [ "$cached" = 1 ]; then
	log "sources cached: $SRC_CACHE"
else
	fetch_sources
fi
flock -u 7

# --------------------------------------------------------------------------
# 2. Build (skipped when build/selftests/<kver>/ is from the same sources
#    and the same version of this script)
# --------------------------------------------------------------------------
if [ -x "$OUT/test_memcontrol" ] && [ "$(cat "$OUT/STAMP" 2>/dev/null)" = "$STAMP" ]; then
	log "up to date: build/selftests/$KVER/test_memcontrol ($PKG=$VERSION)"
else
	rm -rf "$OUT"
	mkdir -p "$OUT/src"
	cp -a "$SRC_CACHE/." "$OUT/src/"
	# Two additions in a file of our own, msl_ksft.c; no subtest changes:
	#  - line-buffered stdout: test_memcontrol printf()s its TAP lines and
	#    fork()s children that exit(); with a fully buffered stdout (a file
	#    or a pipe) unflushed lines would be printed again by every child;
	#  - MSL_KSFT_ONLY="test_memcg_min test_memcg_low": run only these
	#    subtests (one test inserted at the top of main()'s loop over
	#    tests[]; unset, the binary runs every subtest as upstream's does).
	#    The guest test uses it to repeat flaky subtests cheaply.
	cat >"$OUT/src/msl_ksft.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
__attribute__((constructor)) static void msl_linebuf(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	setvbuf(stderr, NULL, _IONBF, 0);
}
/* 1 if MSL_KSFT_ONLY is set and does not list @name (space-separated) */
int msl_ksft_skip(const char *name)
{
	const char *only = getenv("MSL_KSFT_ONLY"), *p;
	size_t len = strlen(name);

	if (!only)
		return 0;
	for (p = only; (p = strstr(p, name)); p += len)
		if ((p == only || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
			return 0;
	return 1;
}
EOF
	cg=$OUT/src/tools/testing/selftests/cgroup
	# The flags of the kernel's own build (cgroup/Makefile, ../lib.mk; no
	# -O: at -O2 gcc drops alloc_anon()'s malloc/memset/free, and the OOM
	# subtests then see no OOM), plus -static (lib.mk's USERLDFLAGS=-static).
	cflags=(-g -Wall -pthread)
	if grep -q -- '-D_GNU_SOURCE=' "$OUT/src/tools/testing/selftests/lib.mk"; then cflags+=(-D_GNU_SOURCE=); fi
	loop='for (i = 0; i < ARRAY_SIZE(tests); i++) {'
	if [ "$(grep -cF "$loop" "$cg/test_memcontrol.c")" != 1 ] || ! grep -q '^int main(' "$cg/test_memcontrol.c"; then
		die "test_memcontrol.c of $PKG=$VERSION: no single '$loop' / 'int main(' to hook MSL_KSFT_ONLY into"
	fi
	sed -i -e 's/^int main(/int msl_ksft_skip(const char *name);\n&/' \
		-e 's/^\([[:space:]]*\)for (i = 0; i < ARRAY_SIZE(tests); i++) {$/&\n\1\tif (msl_ksft_skip(tests[i].name))\n\1\t\tcontinue;/' \
		"$cg/test_memcontrol.c"
	grep -q 'if (msl_ksft_skip(tests\[i\].name))' "$cg/test_memcontrol.c" ||
		die "hooking MSL_KSFT_ONLY into test_memcontrol.c failed"
	# 7.x moved cgroup_util.c to cgroup/lib/, its header to cgroup/lib/include/,
	# and includes kselftest.h by the selftests dir
	util=cgroup_util.c
	if [ -e "$cg/lib/cgroup_util.c" ]; then
		util=lib/cgroup_util.c
		cflags+=(-Ilib/include -I..)
	fi
	log "cc -static test_memcontrol.c $util ($PKG=$VERSION)"
	if ! (cd "$cg" && gcc "${cflags[@]}" -static -o "$OUT/test_memcontrol" \
		test_memcontrol.c "$util" "$OUT/src/msl_ksft.c") >>"$LOG" 2>&1; then
		log "static link failed; linking dynamically"
		(cd "$cg" && gcc "${cflags[@]}" -o "$OUT/test_memcontrol" \
			test_memcontrol.c "$util" "$OUT/src/msl_ksft.c") >>"$LOG" 2>&1 ||
			{ tail -n 20 "$LOG" >&2; die "building test_memcontrol failed (log: ${LOG#"$REPO"/})"; }
	fi
	printf '%s\n' "$PKG=$VERSION" >"$OUT/SOURCE"
	printf '%s\n' "$STAMP" >"$OUT/STAMP"
	log "built build/selftests/$KVER/test_memcontrol ($(stat -c %s "$OUT/test_memcontrol") bytes)"
fi

# --------------------------------------------------------------------------
# 3. Into the payload
# --------------------------------------------------------------------------
if [ -n "$DEST" ]; then
	mkdir -p "$DEST/$SERIES"
	cp "$OUT/test_memcontrol" "$OUT/SOURCE" "$DEST/$SERIES/"
	log "payload: ${DEST#"$REPO"/}/$SERIES/test_memcontrol"
fi
