#!/bin/bash
# configs: *-v2-*
# timeout: 300
# Every memcg-softlimit command line of README.md's examples, as written
# (tests/readme-commands lists them), exits 0 with the module loaded, on a
# machine that has what they name: the cgroups, /etc/memcg-softlimit.conf
# with README's rule, node_exporter's textfile directory.  `top 1` runs
# until interrupted: it must still be running after 5 s, and stop cleanly
# on SIGTERM (a script's & job ignores SIGINT, and top keeps it so).
[ -n "${MSL_TOOL:-}" ] || skip "no memcg-softlimit in the payload (tools/ not built)"
README=$MSL_PAYLOAD/README.md
LIST=$MSL_PAYLOAD/readme-commands
[ -f "$README" ] && [ -x "$LIST" ] || fail "no README.md or readme-commands in the payload"
mapfile -t lines < <("$LIST" "$README")
assert_ge "${#lines[@]}" 6 "README's command lines"
msl_load
for cg in workload.slice system.slice system.slice/a.service A A/A1 A/A2; do
	cg_create "$cg"
done
CONF=/etc/memcg-softlimit.conf
[ -e "$CONF" ] || [ -e "$CONF.d" ] && fail "$CONF or $CONF.d exists in the test rootfs"
trap 'rm -rf "$CONF" "$CONF.d"' EXIT
# README: "rules: /system.slice/*.service 512M"
echo '/system.slice/*.service 512M' >"$CONF"
mkdir -p /var/lib/prometheus/node-exporter
for line in "${lines[@]}"; do
	read -ra words <<<"$line"
	words[0]=$MSL_TOOL
	if [ "${words[1]}" = top ]; then
		"${words[@]}" >"$MSL_SCRATCH/out" 2>&1 </dev/null &
		pid=$!
		sleep 5
		assert_true "'$line' is still running" kill -0 "$pid"
		kill -TERM "$pid"
		wait "$pid"
		st=$?
	else
		"${words[@]}" >"$MSL_SCRATCH/out" 2>&1 </dev/null
		st=$?
	fi
	echo "---- $line (exit $st)"; head -n 20 "$MSL_SCRATCH/out"
	assert_eq "$st" 0 "'$line' exits 0: $(head -c 300 "$MSL_SCRATCH/out" | tr '\n' ' ')"
done
assert_eq "$("$MSL_TOOL" get /system.slice/a.service)" 512M "the README's rule gave a.service its limit"
