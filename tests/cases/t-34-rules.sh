#!/bin/bash
# configs: *-v2-*
# timeout: 480
# Rules give cgroups their soft limits by path pattern as they are
# created (/proc/memcg_softlimit/rules; control.h): a systemd-like tree
# made after the rules are written finds each new cgroup's limit in place
# at its first reclaim decision; cgroups already there get theirs when
# the rules are written; the first matching rule wins; bad rules are
# refused with the line named and change nothing.
. "$MSL_PAYLOAD/guest/patch-cases.sh"
R=/proc/memcg_softlimit/rules
# write_rules TEXT: the whole set in one write(), as the rules file wants
# (a shell's printf writes line by line)
write_rules() { printf '%s' "$1" | dd of="$R" bs=1M count=1 iflag=fullblock status=none 2>/dev/null; }
L=/proc/memcg_softlimit/limits
msl_load
cg_create early.slice/old.service
rules='# comment and blank lines are fine

/system.slice/skip.service unset
/system.slice/*.service 64M
/kubepods.slice/** max
/early.slice/*.service 32M
'
write_rules "$rules" || fail "writing the rules failed"
assert_eq "$(grep -c . "$R")" 4 "rules in force"
assert_true "rules listed as written" grep -qx '/system.slice/\*.service 67108864' "$R"
assert_true "status counts the rules" grep -qx 'rules: 4' /proc/memcg_softlimit/status
# A cgroup that was there before the rules got its limit when they came.
assert_true "early.slice/old.service limited at the write" grep -qE " 33554432 /early.slice/old.service$" "$L"

echo 4096 >"$MSL_TRACEFS/buffer_size_kb"
trace_clear
trace_enable memcg_softlimit/decision
# A stream keeps reclaim going while the tree is made.
cg_create S
stream_sparse S 1024 &
streamer=$!
for cg in system.slice/a.service system.slice/b.service \
	system.slice/skip.service system.slice/c.scope \
	kubepods.slice/pod1/c1 kubepods.slice/pod2/c2; do
	cg_create "$cg"
	cg_run "$cg" dd if=/dev/zero of="$MSL_SCRATCH/${cg//\//_}" bs=1M count=8 status=none
done
wait "$streamer"
trace_disable memcg_softlimit/decision
trace_dump >"$MSL_SCRATCH/trace"
cat "$L" >"$MSL_SCRATCH/limits"
note "limits: $(tr '\n' ';' <"$MSL_SCRATCH/limits")"

limit_of() { awk -v p="/$1" '$3 == p {print $2}' "$MSL_SCRATCH/limits"; }
assert_eq "$(limit_of system.slice/a.service)" 67108864 "a.service"
assert_eq "$(limit_of system.slice/b.service)" 67108864 "b.service"
assert_eq "$(limit_of system.slice/skip.service)" "" "skip.service (first rule: unset)"
assert_eq "$(limit_of system.slice/c.scope)" "" "c.scope (no rule)"
assert_eq "$(limit_of system.slice)" "" "system.slice (no rule)"
for cg in kubepods.slice kubepods.slice/pod1 kubepods.slice/pod1/c1 \
	kubepods.slice/pod2/c2; do
	assert_eq "$(limit_of "$cg")" max "$cg ('**' matches any depth)"
done

# The first decision about each new cgroup that could take anything from
# it already had its limit.  cgroup_mkdir() brings the memcg online
# (cgroup_apply_control_enable()), where reclaim's walk can reach it,
# before it fires the cgroup_mkdir tracepoint, where the module applies
# the rule, and makes the directory visible (kernfs_activate()) only
# after: a decision in between finds the memcg empty, with no task able
# to join it yet (seen once in a full run here, with the stream
# reclaiming).  From the first page charged to it on, its limit must be
# in place.
for cg in system.slice/a.service kubepods.slice/pod1/c1; do
	id=$(cg_id "$cg")
	first=$(grep "decision: cgroup_id=$id " "$MSL_SCRATCH/trace" | grep -m1 -v ' usage=0 ' || true)
	empty=$(grep "decision: cgroup_id=$id " "$MSL_SCRATCH/trace" | grep -c ' usage=0 ' || true)
	if [ -z "$first" ]; then
		note "$cg: no decision during the stream while it had memory ($empty while empty)"
		continue
	fi
	note "$cg first decision with memory: $(sed -E 's/.*(limit=[a-z]+).*/\1/' <<<"$first") ($empty decisions while empty)"
	assert_false "$cg decided with memory before its limit was set" grep -q 'limit=unset' <<<"$first"
done

# Bad rules: refused, the line named, nothing changed.
before=$(cat "$R")
for bad in '/a** 1G' '/ 1G' 'system.slice 1G' '/a 1Q' '/a' '/a//b 1G'; do
	n=$(dmesg | wc -l)
	if write_rules "$(printf '/ok 1G\n%s\n' "$bad")"; then
		fail "rules accepted '$bad'"
	fi
	assert_eq "$(cat "$R")" "$before" "rules unchanged after '$bad'"
	assert_true "dmesg names line 2 for '$bad'" grep -q 'rules: line 2: ' <(dmesg | tail -n +"$((n + 1))")
done
# A set of no rule (a blank line) clears them; the limits they gave stay.
write_rules $'\n' || fail "clearing the rules"
assert_eq "$(grep -c . "$R")" 0 "rules after an empty write"
cg_create system.slice/later.service
assert_eq "$(awk '$3 == "/system.slice/later.service"' "$L")" "" "no limit for a cgroup made after the clear"
assert_true "limits given before stay" grep -q '/system.slice/a.service$' "$L"
# Only root may write them.
if setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "echo '/x 1G' > $R" 2>/dev/null; then
	fail "nobody could write the rules"
fi
msl_unload
