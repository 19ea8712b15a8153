#!/bin/bash
# configs: all
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
expect 2 "bad size 'lots': bytes with an optional K, M, G or T" set /P lots
expect 2 "bad size '1Q'" set /P 1Q
expect 2 "bad size '-5'" set /P -5
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
expect 2 "usage: memcg-softlimit set PATH SIZE" set /P
expect 2 "usage: memcg-softlimit set PATH SIZE" set
expect 2 "usage: memcg-softlimit set PATH SIZE" set /P 1G extra
expect 2 "usage: memcg-softlimit get" get
expect 2 "no command 'frobnicate'" frobnicate
expect 2 "usage: memcg-softlimit COMMAND" 
expect 2 "bad interval '0'" stat -i 0
expect 2 "bad interval 'soon'" stat -i soon
expect 2 "bad sort key 'bogus'" stat -s bogus
expect 2 "bad count" stat -i 1 -c 0
expect 2 "bad delay" top -d -1
expect 2 "bad kind 'bogus'" explain -k bogus /P
expect 1 "no such cgroup: /nope" explain /nope
expect 1 "no such cgroup: /nope" tree /nope
expect 1 "cannot read .*as a trace-cmd recording" report "$CTL"
expect 1 "cannot read .*as a trace-cmd recording" report /nonexistent.dat
printf '/P 20M\n/nope 1G\n' >"$MSL_SCRATCH/bad.conf"
before=$(state)
"$MSL_TOOL" apply "$MSL_SCRATCH/bad.conf" >/dev/null 2>"$MSL_SCRATCH/err"
assert_eq "$?" 1 "apply with a bad line"
assert_true "apply names the line" grep -q "bad.conf:2: no such cgroup: /nope" "$MSL_SCRATCH/err"
assert_eq "$("$MSL_TOOL" get /P)" 20M "the good line of the file was applied"
"$MSL_TOOL" set /P 10M || fail "set /P 10M"

# Without the module.
msl_unload
NL="module not loaded: run modprobe memcg_softlimit"
if [ "$MSL_CGROUP_VERSION" = 2 ]; then
	expect 1 "$NL" set /P 1G
	expect 1 "$NL" get /P
	expect 1 "$NL" unset /P
	expect 1 "$NL" apply "$MSL_SCRATCH/bad.conf"
else
	# v1 soft limits are the kernel's: no module needed.
	"$MSL_TOOL" set /P 30M || fail "v1 set without the module"
	assert_eq "$(cat "$(cg_path P)/memory.soft_limit_in_bytes")" 31457280 "v1 set without the module"
	"$MSL_TOOL" set /P 10M || fail "set /P 10M"
fi
expect 1 "$NL" stat
expect 1 "$NL" stat --json -i 1 -c 1
expect 1 "$NL" top -b -n 1 -d 0.2
out=$("$MSL_TOOL" status 2>&1)
assert_eq "$?" 1 "status without the module"
assert_true "status says what to do" grep -q "$NL" <<<"$out"
out=$("$MSL_TOOL" tree 2>&1) || fail "tree without the module: $out"
assert_true "tree says the module is not loaded" grep -q "$NL" <<<"$out"
out=$("$MSL_TOOL" explain /P 2>&1) || fail "explain without the module: $out"
assert_true "explain says it uses the defaults" grep -q "$NL (showing its defaults)" <<<"$out"
assert_eq "$(ls "$MSL_TRACEFS/instances")" "" "tracefs instances left behind"
