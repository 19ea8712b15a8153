#!/usr/bin/env bash
# tests/unit/checkpatch.sh: the kernel's coding style, judged by
# scripts/checkpatch.pl of Debian's linux-source-6.1 (fetched with apt-get
# download once, then cached), on every file of module/, lib/ and include/.
# Prints "RESULT PASS|FAIL unit/checkpatch/<file>" lines.
#
# Two headers hold the enum lists of the 9p.h pattern (EM()/EMe(), and the
# trace header's macros made from them), which checkpatch cannot tell from
# a misused macro: for those two only, the three macro rules are ignored.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
MSL_CACHE=${MSL_CACHE:-/var/cache/memcg-softlimit}
PKG=linux-source-6.1
LISTS="include/memcg_softlimit/policy.h module/msl_trace.h"
LIST_RULES=COMPLEX_MACRO,MULTISTATEMENT_MACRO_USE_DO_WHILE,TRAILING_SEMICOLON

version=$(apt-cache policy "$PKG" 2>/dev/null | awk '/Candidate:/ {print $2}')
cached=$(find "$MSL_CACHE/checkpatch" -mindepth 2 -maxdepth 2 -name checkpatch.pl 2>/dev/null | sort | tail -n 1 || true)
dir=$MSL_CACHE/checkpatch/${version:-none}
if [ -n "$version" ] && [ "$version" != "(none)" ] && [ ! -s "$dir/checkpatch.pl" ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	chmod 0755 "$tmp" # apt-get download runs as _apt
	if (cd "$tmp" && apt-get download -q "$PKG=$version") >"$tmp/log" 2>&1; then
		mkdir -p "$tmp/x"
		dpkg-deb --fsys-tarfile "$tmp"/"${PKG}"_*.deb | tar -xO "./usr/src/$PKG.tar.xz" |
			tar -xJ -C "$tmp/x" "$PKG/scripts/checkpatch.pl" "$PKG/scripts/spelling.txt" \
				"$PKG/scripts/const_structs.checkpatch"
		mkdir -p "$dir"
		cp "$tmp/x/$PKG/scripts/"* "$dir/"
	fi
fi
[ -s "$dir/checkpatch.pl" ] || dir=${cached%/checkpatch.pl}
if [ ! -s "$dir/checkpatch.pl" ]; then
	echo "RESULT FAIL unit/checkpatch no checkpatch.pl: apt-get download $PKG failed and nothing is cached"
	exit 0
fi

cd "$TOP"
# check FILE: one RESULT line (the files are checked a CPU each at a time)
check() {
	local f=$1 out args=(--no-tree --terse --show-types -f)
	case " $LISTS " in *" $f "*) args+=(--ignore "$LIST_RULES") ;; esac
	out=$(perl "$CHECKPATCH" "${args[@]}" "$f" 2>&1 | grep -v '^total:' || true)
	if [ -z "$out" ]; then
		echo "RESULT PASS unit/checkpatch/$f"
	else
		echo "$out" >&2
		echo "RESULT FAIL unit/checkpatch/$f $(echo "$out" | head -n 1)"
	fi
}
export -f check
export CHECKPATCH=$dir/checkpatch.pl LISTS LIST_RULES
# shellcheck disable=SC2016 # expanded by the inner bash
printf '%s\n' module/*.[ch] lib/*.c include/memcg_softlimit/*.h |
	xargs -P "$(nproc)" -I{} bash -c 'check "$1"' _ {}
