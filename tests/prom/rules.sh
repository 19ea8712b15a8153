#!/bin/bash
# tests/prom/rules.sh SCENARIO: the shipped Prometheus rules and dashboard
# (packaging/prometheus/), checked with Debian's promtool and tested
# against what the tool wrote: SCENARIO (built from tests/unit/prom_scenario.c) writes
# a node's textfiles, one a minute, with the tool's own code;
# tests/prom/series.py turns them into promtool's input series; the
# alerts and recording rules of rules-test.yml.in must come out as it
# says.  Then, where Debian's prometheus and prometheus-node-exporter are
# installed, live.sh serves a textfile the tool wrote with the real
# node_exporter, has the real Prometheus scrape it and evaluate the rules.
# One RESULT line per check.
set -u -o pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
RULES=$TOP/packaging/prometheus/memcg-softlimit.rules.yml
DASH=$TOP/packaging/prometheus/memcg-softlimit.dashboard.json
P=unit/prometheus
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
result() { # NAME OK [WHY]
	if [ "$2" = 1 ]; then echo "RESULT PASS $P/$1"; else echo "RESULT FAIL $P/$1 ${3:-}"; fi
}
if ! command -v promtool >/dev/null; then
	result promtool 0 "promtool is not installed (apt-get install prometheus)"
	exit 0
fi

promtool check rules "$RULES" >"$W/check" 2>&1
result check_rules $((! $?)) "$(tail -n 3 "$W/check" | tr '\n' ' ')"

# The dashboard: JSON, and every expression in it parses as PromQL
# (promtool has no PromQL parser of its own: each goes into a recording
# rule that promtool checks).
if python3 - "$DASH" "$W/dash-rules.yml" <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
exprs = [t["expr"] for p in d["panels"] for t in p.get("targets", [])]
assert exprs, "no expression"
with open(sys.argv[2], "w") as f:
    f.write("groups:\n  - name: dashboard\n    rules:\n")
    for i, e in enumerate(exprs):
        f.write("      - record: dashboard:expr_%d\n        expr: %s\n" % (i, json.dumps(e)))
PY
	promtool check rules "$W/dash-rules.yml" >"$W/dcheck" 2>&1
	result dashboard_queries_parse $((! $?)) "$(grep -m2 -i error "$W/dcheck" | tr '\n' ' ')"
else
	result dashboard_queries_parse 0 "$DASH is not a dashboard with panels and targets"
fi

mkdir "$W/files"
if ! "$1" "$W/files" 2>"$W/scenario.err"; then
	result scenario_written 0 "$(head -c 200 "$W/scenario.err")"
	exit 0
fi
"$HERE/series.py" node1 "$W"/files/*.prom >"$W/series" || { result input_series 0 "series.py failed"; exit 0; }
# Every file the format node_exporter reads.
bad=
for f in "$W"/files/*.prom; do
	perl "$TOP/tests/guest/prom-check.pl" "$f" >/dev/null 2>"$W/pc" || bad+="$(basename "$f"): $(head -n 1 "$W/pc") "
done
result scenario_files_parse "$([ -z "$bad" ] && echo 1 || echo 0)" "$bad"
awk -v rules="$RULES" -v series="$W/series" '
	/#INPUT_SERIES#/ { while ((getline l < series) > 0) print l; next }
	{ gsub(/#RULES#/, rules); print }' "$HERE/rules-test.yml.in" >"$W/test.yml"
(cd "$W" && promtool test rules test.yml) >"$W/test.out" 2>&1
result alerts_and_records_on_the_tool_s_series $((! $?)) "$(grep -v '^ *$' "$W/test.out" | head -n 12 | tr '\n' ' ' | head -c 1500)"

if command -v prometheus >/dev/null && command -v prometheus-node-exporter >/dev/null; then
	"$HERE/live.sh" "$W/files/049.prom" "$W/files/020.prom" "$RULES"
else
	echo "RESULT SKIP $P/live no prometheus and prometheus-node-exporter here (apt-get install prometheus prometheus-node-exporter)"
fi
