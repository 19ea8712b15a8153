#!/usr/bin/env bash
# tests/unit/debian-btf.sh OUTDIR VMLINUZ...: the raw BTF of each booted
# kernel, as OUTDIR/btf-<kver>, for test_btf's cases on real Debian blobs
# (MSL_BTF_DIR).  A bzImage holds the compressed vmlinux after its setup
# code: try each compressor's magic until a vmlinux with a .BTF section
# comes out (the kernel's scripts/extract-vmlinux does the same; Debian's
# headers packages do not ship it).
set -euo pipefail
out=$1
shift
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# from_magic IMAGE MAGIC DECOMPRESSOR...: 0 once $tmp/btf is written
from_magic() {
	local image=$1 magic=$2 off
	shift 2
	# shellcheck disable=SC2013 # offsets, one a word
	for off in $(LC_ALL=C grep -aboP "$magic" "$image" | cut -d: -f1); do
		tail -c +$((off + 1)) "$image" | "$@" >"$tmp/vmlinux" 2>/dev/null || true
		if objcopy -O binary --only-section=.BTF "$tmp/vmlinux" "$tmp/btf" 2>/dev/null &&
			[ -s "$tmp/btf" ]; then
			return 0
		fi
	done
	return 1
}

for image in "$@"; do
	kver=${image##*/vmlinuz-}
	if from_magic "$image" '\x28\xb5\x2f\xfd' zstd -dcq ||
		from_magic "$image" '\xfd\x37\x7a\x58\x5a\x00' xz -dcq ||
		from_magic "$image" '\x1f\x8b\x08' gzip -dcq; then
		mv "$tmp/btf" "$out/btf-$kver"
	else
		echo "debian-btf: no BTF found in $image" >&2
		exit 1
	fi
done
