#!/bin/bash
# tests/prom/live.sh DOWN.prom UP.prom RULES [PREFIX]: Debian's own
# prometheus-node-exporter serves a textfile memcg-softlimit wrote, and
# Debian's prometheus scrapes it and evaluates RULES: first UP.prom (the
# module loaded: the recording rules have values), then DOWN.prom (the
# module absent: MemcgSoftlimitModuleAbsent goes pending).  Both listen on
# loopback ports of their own and are stopped at the end.  RESULT lines,
# named PREFIX/... (default unit/prometheus/live).
set -u -o pipefail
DOWN=$1 UP=$2 RULES=$3
P=${4:-unit/prometheus/live}
# The recording rule counts the cgroups UP gives a soft limit.
LIMITED=$(grep -c '^memcg_softlimit_soft_limit_bytes{' "$UP")
W=$(mktemp -d)
NE_PID= PR_PID=
cleanup() {
	[ -z "$NE_PID" ] || kill "$NE_PID" 2>/dev/null
	[ -z "$PR_PID" ] || kill "$PR_PID" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
result() { # NAME OK [WHY]
	if [ "$2" = 1 ]; then echo "RESULT PASS $P/$1"; else echo "RESULT FAIL $P/$1 ${3:-}"; fi
}
port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# query EXPR: the first value of an instant query, empty if none
query() {
	curl -s --max-time 5 "http://127.0.0.1:$PR_PORT/api/v1/query" --data-urlencode "query=$1" |
		python3 -c 'import json, sys
r = json.load(sys.stdin)["data"]["result"]
print(r[0]["value"][1] if r else "")' 2>/dev/null
}
# wait_for SECONDS EXPR VALUE: until the query gives VALUE
wait_for() {
	local i
	for ((i = 0; i < $1 * 2; i++)); do
		[ "$(query "$2")" = "$3" ] && return 0
		sleep 0.5
	done
	return 1
}

mkdir "$W/textfile" "$W/data"
cp "$UP" "$W/textfile/memcg_softlimit.prom"
NE_PORT=$(port)
prometheus-node-exporter --web.listen-address="127.0.0.1:$NE_PORT" \
	--collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$W/textfile" >"$W/ne.log" 2>&1 &
NE_PID=$!
for i in $(seq 1 40); do
	curl -s --max-time 2 "http://127.0.0.1:$NE_PORT/metrics" >"$W/metrics" 2>/dev/null && break
	sleep 0.25
done
grep -qx 'memcg_softlimit_up 1' "$W/metrics" && grep -qx 'node_textfile_scrape_error 0' "$W/metrics"
result node_exporter_serves_the_textfile $((! $?)) "$(grep -m3 -E 'memcg_softlimit_up|textfile_scrape_error' "$W/metrics" | tr '\n' ' ') $(tail -n 2 "$W/ne.log" | tr '\n' ' ')"

PR_PORT=$(port)
cat >"$W/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $RULES
scrape_configs:
  - job_name: node
    static_configs:
      - targets: ['127.0.0.1:$NE_PORT']
YML
prometheus --config.file="$W/prometheus.yml" --storage.tsdb.path="$W/data" \
	--web.listen-address="127.0.0.1:$PR_PORT" >"$W/prom.log" 2>&1 &
PR_PID=$!
wait_for 60 'memcg_softlimit_up' 1
result prometheus_scrapes_it $((! $?)) "$(tail -n 3 "$W/prom.log" | tr '\n' ' ')"
wait_for 30 'instance:memcg_softlimit_limited_cgroups:count' "$LIMITED"
result recording_rules_evaluated $((! $?)) "instance:memcg_softlimit_limited_cgroups:count is '$(query 'instance:memcg_softlimit_limited_cgroups:count')', not $LIMITED"
cp "$DOWN" "$W/textfile/memcg_softlimit.prom.tmp" && mv "$W/textfile/memcg_softlimit.prom.tmp" "$W/textfile/memcg_softlimit.prom"
wait_for 30 'count(ALERTS{alertname="MemcgSoftlimitModuleAbsent",alertstate="pending"})' 1
result module_absent_alert_pending $((! $?)) "memcg_softlimit_up is '$(query memcg_softlimit_up)'; $(grep -m2 -i 'err' "$W/prom.log" | tr '\n' ' ')"
