#!/bin/bash
# tests/unit/json-docs.sh TOOL: every JSON document the tool prints on a
# host without the module, validated against docs/memcg-softlimit.schema.json
# (tests/json-check.py): status, get, tree, explain and suggest (one
# reading, and two) of a scratch cgroup (with a name that is not UTF-8),
# stat --json --prometheus, and report in
# its three modes on the sample recording.  What needs the module loaded
# (status, stat, tree with counters, top) is validated from the guests'
# documents (lib.sh's json_doc; tests/run checks them).  One RESULT line
# per document.
set -u -o pipefail
TOOL=$1
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CHECK=$HERE/../json-check.py
SAMPLE=$HERE/data/sample.dat
P=unit/json
W=$(mktemp -d)
CG=
cleanup() {
	[ -z "$CG" ] || find "$CG" -depth -type d -exec rmdir {} + 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
if ! /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
	echo "RESULT FAIL $P/jsonschema python3-jsonschema is not installed (apt-get install python3-jsonschema)"
	exit 0
fi
check() { # LABEL FILE
	/usr/bin/python3 "$CHECK" "$P" "$1" "$2"
}

"$TOOL" status --json >"$W/status" 2>/dev/null
check status_without_module "$W/status"
"$TOOL" stat --json --prometheus "$W/msl.prom" >"$W/stat" 2>/dev/null
check stat_prometheus_without_module "$W/stat"
for mode in "" --snapshot --between-snapshots --ids; do
	"$TOOL" report --json -a $mode "$SAMPLE" >"$W/report" 2>/dev/null
	check "report${mode:+_${mode#--}}" "$W/report"
done

# A scratch cgroup of this host's memory hierarchy, one name not UTF-8.
mnt=$(awk '$3 == "cgroup2" || ($3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/) { print $2; exit }' /proc/mounts)
if [ -z "$mnt" ] || ! mkdir "$mnt/msl-json-$$" 2>/dev/null; then
	echo "RESULT SKIP $P/cgroup_documents no writable memory cgroup hierarchy on this host"
	exit 0
fi
CG=$mnt/msl-json-$$
mkdir "$CG/a" "$CG/"$'b\xff\\x41' "$CG/a/c"
"$TOOL" get --json "/msl-json-$$/a" >"$W/get"
check get "$W/get"
"$TOOL" tree --json "/msl-json-$$" >"$W/tree"
check tree "$W/tree"
grep -q '"path_escaped":true' "$W/tree" &&
	echo "RESULT PASS $P/tree_escapes_a_name_that_is_not_utf8" ||
	echo "RESULT FAIL $P/tree_escapes_a_name_that_is_not_utf8 $(head -c 300 "$W/tree")"
"$TOOL" explain --json "/msl-json-$$/a/c" >"$W/explain" 2>/dev/null
check explain "$W/explain"
# suggest reads lru_gen on an MGLRU host: debugfs mounted, and root.
"$TOOL" suggest --json "/msl-json-$$" >"$W/suggest" 2>"$W/err"
st=$?
if [ $st = 0 ]; then
	check suggest "$W/suggest"
	grep -q '"path_escaped":true' "$W/suggest" &&
		echo "RESULT PASS $P/suggest_escapes_a_name_that_is_not_utf8" ||
		echo "RESULT FAIL $P/suggest_escapes_a_name_that_is_not_utf8 $(head -c 300 "$W/suggest")"
	"$TOOL" suggest --json "/msl-json-$$" 0.1 2 >"$W/suggest2" 2>/dev/null
	check suggest_sampling "$W/suggest2"
elif grep -qE 'debugfs|only root' "$W/err"; then
	echo "RESULT SKIP $P/suggest $(head -c 200 "$W/err")"
else
	echo "RESULT FAIL $P/suggest exit status $st: $(head -c 300 "$W/err")"
fi
