#!/bin/bash
# tests/prom/guest.sh RESULTS PREFIX: the metrics files memcg-softlimit
# wrote in a guest (lib.sh's prom_doc: "PROM <test> <label> <base64>"
# lines in the boot's RESULTS), checked on the host: each parses as
# node_exporter's textfile collector reads it (prom-check.pl) and as
# Prometheus' exposition format (promtool check metrics, which also
# lints names and help texts); where a test sent an "up" and a "down"
# file, Debian's own prometheus-node-exporter serves them and Debian's
# prometheus scrapes them and evaluates the shipped rules on them
# (live.sh).  RESULT lines named PREFIX/<test>/...
set -u -o pipefail
RESULTS=$1 PREFIX=$2
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
RULES=$TOP/packaging/prometheus/memcg-softlimit.rules.yml
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
result() { # NAME OK [WHY]
	if [ "$2" = 1 ]; then echo "RESULT PASS $PREFIX/$1"; else echo "RESULT FAIL $PREFIX/$1 ${3:-}"; fi
}

tests=()
while read -r tag test label data; do
	[ "$tag" = PROM ] || continue
	mkdir -p "$W/$test"
	[ -d "$W/$test/.seen" ] || { mkdir "$W/$test/.seen"; tests+=("$test"); }
	if ! base64 -d <<<"$data" >"$W/$test/$label.prom" 2>/dev/null; then
		result "$test/$label/decoded" 0 "the PROM line's file is not base64"
		rm -f "$W/$test/$label.prom"
	fi
done <"$RESULTS"

for test in "${tests[@]}"; do
	for f in "$W/$test"/*.prom; do
		[ -e "$f" ] || continue
		label=$(basename "$f" .prom)
		perl "$TOP/tests/guest/prom-check.pl" "$f" >"$W/pc" 2>&1
		result "$test/$label/textfile_parses" $((! $?)) "$(head -n 2 "$W/pc" | tr '\n' ' ')"
		if command -v promtool >/dev/null; then
			promtool check metrics <"$f" >"$W/pm" 2>&1
			result "$test/$label/promtool_check_metrics" $((! $?)) "$(head -n 4 "$W/pm" | tr '\n' ' ')"
		else
			result "$test/$label/promtool_check_metrics" 0 "promtool is not installed (apt-get install prometheus)"
		fi
	done
	if [ ! -s "$W/$test/up.prom" ] || [ ! -s "$W/$test/down.prom" ]; then
		continue
	fi
	if command -v prometheus >/dev/null && command -v prometheus-node-exporter >/dev/null; then
		"$HERE/live.sh" "$W/$test/down.prom" "$W/$test/up.prom" "$RULES" "$PREFIX/$test/live"
	else
		result "$test/live" 0 "no prometheus and prometheus-node-exporter here (apt-get install prometheus prometheus-node-exporter)"
	fi
done
