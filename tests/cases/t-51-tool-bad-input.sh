#!/bin/bash
# configs: all
# tcg: single
# On one configuration per kernel and per cgroup version (6.1 v1, 6.12 v2):
# what it reads (tracefs, the module's events and counters) does not depend
# on the LRU; the policy itself is tested on all four (t-2x, t-30).
# memcg-softlimit on bad input: an unknown cgroup, the root, a garbage
# size, a path that is not a cgroup, the module not loaded: the documented
# message, exit status 2 (usage) or 1 (runtime), and nothing changed.
[ -n "${MSL_TOOL:-}" ] || skip "no memcg-softlimit in the payload (tools/ not built)"
CTL=/proc/memcg_softlimit/limits
msl_load
cg_create P
cg_create P/C
mkdir "$(cg_path P/C)/nomem" || fail "mkdir nomem"	# no +memory below C on v2
"$MSL_TOOL" set /P 10M || fail "set /P 10M"

# All soft limits as the kernel and the module keep them.
state() {
	local d
	[ "$MSL_CGROUP_VERSION" = 2 ] && msl_loaded && cat "$CTL"
	if [ "$MSL_CGROUP_VERSION" = 1 ]; then
		for d in "" P P/C P/C/nomem; do
			printf '%s %s\n' "$d" "$(cat "$MSL_CGROUP_ROOT/$d/memory.soft_limit_in_bytes")"
		done
	fi
	ls "$MSL_TRACEFS/instances"
}
# expect RC MESSAGE ARGS...: exit status RC, MESSAGE (ERE) on stderr, and
# no change to any soft limit.
expect() {
	local want=$1 msg=$2 before after err rc
	shift 2
	before=$(state)
	"$MSL_TOOL" "$@" >"$MSL_SCRATCH/out" 2>"$MSL_SCRATCH/err"
	rc=$?
	err=$(cat "$MSL_SCRATCH/err")
	[ "$rc" = "$want" ] || fail "memcg-softlimit $*: exit $rc, expected $want (stderr: $err)"
	grep -qE -- "$msg" <<<"$err" || fail "memcg-softlimit $*: stderr '$err' lacks '$msg'"
	after=$(state)
	[ "$before" = "$after" ] || fail "memcg-softlimit $* changed state: '$before' -> '$after'"
	echo "ok: memcg-softlimit $* -> $rc: $err"
}

ROOTMSG="the root cgroup cannot have a soft limit"
expect 2 "$ROOTMSG" set / 1G
expect 2 "$ROOTMSG" set "$MSL_CGROUP_ROOT" 1G
expect 2 "$ROOTMSG" set "$MSL_CGROUP_ROOT/" max
expect 2 "$ROOTMSG" unset /
expect 2 "$ROOTMSG" get /
expect 1 "no such cgroup: /nope \\(.*/nope does not exist\\)" set /nope 1G
expect 1 "no such cgroup: /nope" get /nope
expect 1 "no such cgroup: /P/nope/deeper" unset /P/nope/deeper
expect 2 "bad size 'lots': bytes with an optional K, M, G, T or Ki, Mi, Gi, Ti" set /P lots
expect 2 "bad size '1000': size below one page" set /P 1000
expect 2 "bad size '1Q'" set /P 1Q
expect 2 "unknown option '-5': no SIZE, INTERVAL or COUNT is negative" set /P -5
expect 2 "bad size '1.5G'" set /P 1.5G
expect 2 "bad size '99999999999999999999': out of range" set /P 99999999999999999999
expect 2 "bad size ''" set /P ""
expect 2 "bad cgroup path '/P/../P'" set /P/../P 1G
expect 2 "bad cgroup path .*control character" set "$(printf '/P\nQ')" 1G
if [ "$MSL_CGROUP_VERSION" = 1 ]; then
	expect 1 "not a cgroup: /P/memory.usage_in_bytes" set /P/memory.usage_in_bytes 1G
else
	expect 1 "not a cgroup: /P/memory.current" set /P/memory.current 1G
	expect 1 "cgroup /P/C/nomem has no memory controller of its own: echo \\+memory > .*/P/C/cgroup.subtree_control" set /P/C/nomem 1G
fi
expect 2 "set: missing SIZE" set /P
expect 2 "^usage: memcg-softlimit set \\[OPTIONS\\] PATH SIZE" set /P
expect 2 "set: missing PATH" set
expect 2 "set: unexpected argument 'extra'" set /P 1G extra
expect 2 "get: missing PATH" get
expect 2 "no command 'frobnicate'" frobnicate
expect 2 "no command given" 
expect 2 "stat: bad interval '0': seconds" stat 0
expect 2 "bad interval 'soon'" stat soon
expect 2 "stat: bad count '0'" stat 1 0
expect 2 "stat: unexpected argument '3' after INTERVAL and COUNT" stat 1 2 3
expect 2 "bad sort key 'bogus'" stat -s bogus
expect 2 "stat: option -s needs an argument" stat -s
expect 2 "stat: unknown option '-x'" stat -x
expect 2 "stat: unknown option '--dry-run'" stat --dry-run
expect 2 "--id-label goes with --prometheus" stat --id-label
expect 2 "-o bogus: unknown column 'bogus'" stat -o bogus
expect 2 "top: bad interval '0'" top 0
expect 2 "bad kind 'bogus'" explain -k bogus /P
expect 2 "bad policy 'bogus'" tree -p bogus
# Options after the arguments are options.
expect 1 "no such cgroup: /nope" explain /nope -k direct
expect 1 "no such cgroup: /nope" tree /nope --json
expect 1 "cannot read .*as a trace-cmd recording" report "$CTL"
expect 1 "cannot read .*as a trace-cmd recording" report /nonexistent.dat
# A file with a bad line changes nothing, and says which line.
printf '/P 20M\n/P lots\n/nope 1G\n' >"$MSL_SCRATCH/bad.conf"
expect 1 "bad.conf:2: /P: size must be" apply "$MSL_SCRATCH/bad.conf"
assert_eq "$("$MSL_TOOL" get /P)" 10M "nothing of the file was applied"
printf '/P 20M\n/nope 1G\n' >"$MSL_SCRATCH/good.conf"

# Without the module: every error that needs it says precisely why.  In
# the guest the module is insmod'ed from the payload, so /lib/modules has
# none for this kernel: "not built".
msl_unload
# (uname -r as a regular expression: 6.12's has a "+")
NL="no memcg_softlimit module for the running kernel $(uname -r | sed 's/[.+]/\\&/g') .*not built for it"
if [ "$MSL_CGROUP_VERSION" = 2 ]; then
	expect 1 "$NL" set /P 1G
	expect 1 "$NL" get /P
	expect 1 "$NL" unset /P
	expect 1 "$NL" apply "$MSL_SCRATCH/good.conf"
else
	# v1 soft limits are the kernel's: no module needed.
	"$MSL_TOOL" set /P 30M || fail "v1 set without the module"
	assert_eq "$(cat "$(cg_path P)/memory.soft_limit_in_bytes")" 31457280 "v1 set without the module"
	"$MSL_TOOL" set /P 10M || fail "set /P 10M"
fi
expect 1 "$NL" stat
expect 1 "$NL" stat --json 1 1
expect 1 "$NL" top --batch 0.2 1
out=$("$MSL_TOOL" status 2>&1)
assert_eq "$?" 1 "status without the module"
echo "---- memcg-softlimit status (no module for this kernel)"; echo "$out"
assert_true "status says why" grep -qE "^module: +absent \(not_built\): $NL" <<<"$out"
out=$("$MSL_TOOL" status --json 2>/dev/null)
assert_true "status --json says why" grep -q '^{"schema":1,"command":"status","loaded":false,"absent":"not_built","why":"no memcg_softlimit module' <<<"$out"
"$MSL_TOOL" status --json >"$MSL_SCRATCH/status.json" 2>/dev/null
json_doc status_without_module "$MSL_SCRATCH/status.json"
out=$("$MSL_TOOL" tree 2>&1) || fail "tree without the module: $out"
assert_true "tree says why" grep -qE "$NL" <<<"$out"
out=$("$MSL_TOOL" explain /P 2>&1) || fail "explain without the module: $out"
assert_true "explain says it uses the defaults" grep -qE "$NL.*\(showing its defaults\)" <<<"$out"
# --prometheus without the module: memcg_softlimit_up 0 over the old file,
# exit 0 (a timer's run that reports a state, not a failure).
PROM=$MSL_SCRATCH/msl.prom
printf 'memcg_softlimit_up 1\nmemcg_softlimit_decisions_total{cgroup="/P",reason="over"} 5\n' >"$PROM"
"$MSL_TOOL" stat -q --prometheus "$PROM" 2>"$MSL_SCRATCH/err"
assert_eq "$?" 0 "stat --prometheus without the module"
echo "---- stat -q --prometheus (no module)"; cat "$PROM"
assert_true "memcg_softlimit_up 0" grep -qx "memcg_softlimit_up 0" "$PROM"
assert_false "no stale counters" grep -q decisions_total "$PROM"
assert_true "the file says why" grep -qE "^# memcg-softlimit: $NL" "$PROM"
# --json with it: a document that says the module is absent, and why.
"$MSL_TOOL" stat --json --prometheus "$PROM" >"$MSL_SCRATCH/stat.json" 2>/dev/null
assert_eq "$?" 0 "stat --json --prometheus without the module"
assert_true "stat --json: module_loaded false" grep -q '^{"schema":1,"command":"stat","module_loaded":false,"why":"no memcg_softlimit module' "$MSL_SCRATCH/stat.json"
json_doc stat_prometheus_without_module "$MSL_SCRATCH/stat.json"

# Refused at load: the module's own line from the kernel log.
KDIR=/lib/modules/$(uname -r)/updates
mkdir -p "$KDIR" && cp "$MSL_KO" "$KDIR/" || fail "cannot copy the module under $KDIR"
insmod "$MSL_KO" test_field=no_such_field 2>/dev/null && fail "insmod with test_field=no_such_field loaded"
out=$("$MSL_TOOL" status 2>&1)
echo "---- memcg-softlimit status (refused at load)"; echo "$out"
note "status after a refusal: $(grep '^module:' <<<"$out")"
assert_true "status: refused, with the reason" grep -qE "^module: +absent \(refused\): memcg_softlimit refused to load on kernel .*no field no_such_field" <<<"$out"
expect 1 "refused to load .*no field no_such_field" stat
msl_load
msl_unload
out=$("$MSL_TOOL" status 2>&1)
KDIR_RE=$(sed 's/[.+]/\\&/g' <<<"$KDIR")
assert_true "status: merely not loaded" grep -qE "^module: +absent \(not_loaded\): module not loaded: run modprobe memcg_softlimit \($KDIR_RE/memcg_softlimit.ko" <<<"$out"
rm -f "$KDIR/memcg_softlimit.ko"
rmdir "$KDIR" 2>/dev/null
assert_eq "$(ls "$MSL_TRACEFS/instances")" "" "tracefs instances left behind"
