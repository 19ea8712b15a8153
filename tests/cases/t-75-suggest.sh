#!/bin/bash
# configs: all
# timeout: 300
# memcg-softlimit suggest against a cgroup whose reuse is known.  W maps
# a 24 MiB file and touches every page of it, and reads it with read(2),
# without pause (the hot set), beside 64 MiB it read once (the cold set);
# U read 8 MiB once and nothing since.  W has a soft limit of 200M.
#
# MGLRU: the reuse suggest reports is what the kernel's agings found in
# use (lru_gen names a memcg by its private id on 6.12, by its cgroup id
# from 7.x; the aging command takes the id the file shows on both).  The
# kernel ages a memcg under reclaim only once its oldest generation is
# spent, and W's oldest holds the cold set: pressure would evict the cold
# set before W's first aging.  So W is aged here through lru_gen's own
# command ("+ memcg node seq": the aging reclaim runs, with its page-table
# walk), twice, the hot set touched in between; then suggest --age (a
# window that holds both agings, not W's creation) must find 24 MiB
# within 25%, well below W's usage, and U, never aged, not known.  Its page-table walk is how MGLRU sees a reuse: a page read with
# read(2) alone moves up one generation at a time when reclaim finds it
# in use (fleet-install.md, "Choosing a number").
# Classic LRU: memory.stat's active lists (v1: total_active_*), an upper
# bound: at least the hot set (read twice, so active), and said to be a
# bound; the refaults (v1: total_workingset_refault_*) shown.
# Both: suggested = (reused + other) + 10%, rounded up to a MiB;
# --write's file passes apply --dry-run and nothing is applied; suggest
# changes nothing (no aging, no reclaim, no limit).
# MGLRU, last: W, protected by its soft limit, is skipped by the reclaim
# a stream in S causes, so it is not aged, and reads unknown for a window
# since the stream began (the reason is asserted: skip decisions about W,
# none to reclaim it, its max_seq unchanged).
[ -n "${MSL_TOOL:-}" ] || skip "no memcg-softlimit in the payload (tools/ not built)"
HOT=24 COLD=64 ONCE=8 HEADROOM=10
MIB=1048576
LRU_GEN=/sys/kernel/debug/lru_gen
msl_load

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# The file of MIB MiB, real blocks on disk (not cached once dropped).
make_file() {
	local seed
	seed=$(head -c 3072 /dev/urandom | base64 -w 0)
	{ yes "$seed" || true; } | head -c "$(($2 * MIB))" >"$MSL_SCRATCH/$1" || fail "writing $1"
}
make_file hot.data "$HOT"
make_file cold.data "$COLD"
make_file once.data "$ONCE"
# The toucher: maps the file (mmap(2), syscall 9) and reads one byte of
# each page through the mapping, then reads it all with read(2); again
# every 0.2 s.  $0 counts the rounds.
cat >"$MSL_SCRATCH/toucher.pl" <<'EOF'
use strict;
use warnings;
my ($file) = @ARGV;
open(my $fh, '<', $file) or die "$file: $!\n";
my $len = -s $fh;
my $addr = syscall(9, 0, $len, 1, 1, fileno($fh), 0);
die "mmap $file: $!\n" if $addr == -1;
my ($round, $buf, $sum) = (0, '', 0);
for (;;) {
	for (my $off = 0; $off < $len; $off += 4096) {
		$sum += ord(unpack('P1', pack('Q', $addr + $off)));
	}
	sysseek($fh, 0, 0);
	1 while sysread($fh, $buf, 1 << 20);
	$round++;
	$0 = "toucher round $round";
	select(undef, undef, undef, 0.2);
}
EOF
drop_caches
# perl's own files charged here, outside W: W's pages are its files'.
perl -c "$MSL_SCRATCH/toucher.pl" 2>/dev/null || fail "the toucher does not compile"

cg_create U
cg_run U dd if="$MSL_SCRATCH/once.data" of=/dev/null bs=1M status=none || fail "U's read"
cg_create W
w_born=$(now_ms)
set_soft_limit W 200
cg_run W dd if="$MSL_SCRATCH/cold.data" of=/dev/null bs=1M status=none || fail "W's cold read"
cg_run W perl "$MSL_SCRATCH/toucher.pl" "$MSL_SCRATCH/hot.data" &
job=$!
# (cg_run's subshell forks the one that joins W and becomes perl)
toucher=
find_toucher() { toucher=$(cg_pids W); [ -n "$toucher" ]; }
wait_until 30 find_toucher || fail "no toucher in W"
trap 'kill "$toucher" 2>/dev/null' EXIT
round() { tr '\0' ' ' <"/proc/$toucher/cmdline" 2>/dev/null | sed -n 's/^toucher round \([0-9]*\).*/\1/p'; }
past_round() { local r; r=$(round); [ -n "$r" ] && [ "$r" -ge "$1" ]; }
wait_until 60 past_round 2 || fail "the toucher did not read its file twice within 60 s (round '$(round)')"

# lru_gen's "ID MAX_SEQ" of memcg PATH on node 0 (empty if not listed).
lru_gen_of() {
	awk -v p="$1" '$1 == "memcg" { on = ($3 == p); if (on) id = $2; next }
		$1 == "node" { node = $2; next }
		on && node == 0 && NF >= 4 { seq = $1 }
		END { if (id != "") print id, seq }' "$LRU_GEN"
}
# The kernel's aging of W on node 0, as reclaim runs it: max_seq + 1.
age_w() {
	local id seq after
	read -r id seq < <(lru_gen_of /W)
	[ -n "$seq" ] || fail "W is not in $LRU_GEN"
	echo "+ $id 0 $seq" >"$LRU_GEN" || fail "the aging command '+ $id 0 $seq' failed"
	read -r _ after < <(lru_gen_of /W)
	assert_eq "$after" "$((seq + 1))" "W's max_seq after an aging"
}
# Field KEY of cgroup PATH's object in a suggest --json document.
field() {
	grep -F "\"path\":\"$2\"," "$3" | sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" | tr -d '"'
}
# msl_suggest_limit(): BYTES and HEADROOM percent, rounded up to a MiB.
limit_of() {
	# shellcheck disable=SC2017 # its order, which cannot overflow
	local want=$(($1 + $1 / 100 * $2 + $1 % 100 * $2 / 100))
	[ "$want" -lt "$MIB" ] && want=$MIB
	echo $(((want + MIB - 1) / MIB * MIB))
}

if [ "$MSL_LRU" = mglru ]; then
	[ -r "$LRU_GEN" ] || fail "MGLRU is on and $LRU_GEN is not there"
	read -r _ u_seq < <(lru_gen_of /U)
	# The window must leave W's creation (the cold set's generation) out,
	# and hold the first aging for as long as suggest runs below.
	wait_ms=$((w_born + 25000 - $(now_ms)))
	[ "$wait_ms" -le 0 ] || sleep "$((wait_ms / 1000)).$(printf '%03d' $((wait_ms % 1000)))"
	r=$(round)
	age_w
	aged=$(now_ms)
	wait_until 30 past_round $((r + 2)) || fail "the toucher stopped"
	age_w
	# Both agings within the window, W's creation before it.
	age_s=$((($(now_ms) - aged) / 1000 + 12))
	before_ms=$(($(now_ms) - w_born))
	note "W created $((before_ms / 1000)) s ago, first aging $((($(now_ms) - aged) / 1000)) s ago: --age ${age_s}s"
	assert_lt "$((age_s * 1000))" "$before_ms" "the window, against W's age (ms)"
	grep -A 12 -E '^memcg +[0-9]+ /(W|U)$' "$LRU_GEN"
else
	age_s=10
fi
read -r _ w_seq < <([ "$MSL_LRU" = mglru ] && lru_gen_of /W || echo "- -")
usage_before=$(cg_usage_bytes W)
limits_before=$(cat /proc/memcg_softlimit/limits /proc/memcg_softlimit/rules 2>/dev/null)
OUT=$MSL_SCRATCH/suggest.json
"$MSL_TOOL" suggest --age "${age_s}s" --json >"$OUT" 2>"$MSL_SCRATCH/err" ||
	fail "suggest --json: exit $?: $(head -c 300 "$MSL_SCRATCH/err")"
json_doc suggest "$OUT"
"$MSL_TOOL" suggest --age "${age_s}s" /W >"$MSL_SCRATCH/table" 2>&1 || fail "suggest /W (table)"
cat "$MSL_SCRATCH/table"
"$MSL_TOOL" suggest --age "${age_s}s" --json /W 0.5 3 >"$MSL_SCRATCH/sampled.json" ||
	fail "suggest /W 0.5 3 (readings)"
json_doc suggest_readings "$MSL_SCRATCH/sampled.json"

usage=$(field usage_bytes /W "$OUT")
reused=$(field reused_bytes /W "$OUT")
other=$(field other_bytes /W "$OUT")
suggested=$(field suggested_bytes /W "$OUT")
reuse=$(field reuse /W "$OUT")
note "W on $MSL_LRU: hot set $HOT MiB, cold $COLD MiB; usage $((usage / MIB)) MiB, reused $((reused / 1024)) KiB ($reuse), other $((other / 1024)) KiB, suggested $((suggested / MIB)) MiB, soft limit $(field soft_limit_bytes /W "$OUT")"
assert_eq "$(field soft_limit_bytes /W "$OUT")" "$((200 * MIB))" "W's soft limit as suggest read it"
assert_eq "$(field protected_bytes /W "$OUT")" "$usage" "what W's 200M keeps of its usage now: all of it"
assert_ge "$usage" "$(((HOT + COLD) * MIB))" "W's usage: the hot and the cold set"
if [ "$MSL_LRU" = mglru ]; then
	assert_eq "$reuse" window "W's reuse: measured within the window"
	assert_ge "$((reused * 100))" "$((HOT * MIB * 75))" "W's reused memory, at least 75% of the hot set"
	assert_le "$((reused * 100))" "$((HOT * MIB * 125))" "W's reused memory, at most 125% of the hot set"
	assert_lt "$((reused * 2))" "$usage" "W's reused memory, well below its usage"
	assert_eq "$(field unaged_bytes /W "$OUT")" 0 "W's memory not aged within the window"
	read -r _ u_now < <(lru_gen_of /U)
	if [ "$u_now" = "$u_seq" ]; then
		assert_eq "$(field reuse /U "$OUT")" unknown "U, never aged: its reuse"
		assert_eq "$(field suggested_bytes /U "$OUT")" null "U, never aged: no suggestion"
	else
		note "U was aged meanwhile (max_seq $u_seq -> $u_now): its reuse is not checked"
	fi
	# Read only: no aging, no reclaim.
	read -r _ w_after < <(lru_gen_of /W)
	assert_eq "$w_after" "$w_seq" "W's max_seq after suggest ran 5 times"
else
	assert_eq "$reuse" upper_bound "W's reuse on the classic LRU: an upper bound"
	# (activations wait in per-CPU batches: 1 MiB of slack)
	assert_ge "$reused" "$(((HOT - 1) * MIB))" "W's active lists: the hot set at least"
	assert_eq "$(field unaged_bytes /W "$OUT")" null "no unaged memory on the classic LRU"
	assert_true "the table says REUSED is an upper bound" grep -q 'REUSED is an upper bound' "$MSL_SCRATCH/table"
	grep -E '^(total_)?((in)?active_|workingset_refault)' "$(cg_path W)/memory.stat"
	assert_true "the refaults are shown" grep -qE '"refaults":[0-9]+' "$OUT"
fi
assert_eq "$suggested" "$(limit_of $((reused + other)) "$HEADROOM")" "W's suggestion: (reused + other) + ${HEADROOM}%, rounded up to a MiB"
samples=$(sed -n 's/.*"samples":\([0-9]*\).*/\1/p' "$MSL_SCRATCH/sampled.json")
assert_eq "$samples" 3 "readings of suggest /W 0.5 3"
s_reused=$(field reused_bytes /W "$MSL_SCRATCH/sampled.json")
assert_ge "$((s_reused * 100))" "$((reused * 95))" "the largest of three readings, against one reading"

# --write: the suggestions as rules that apply takes, applied to nothing.
RULES=$MSL_SCRATCH/suggest.conf
"$MSL_TOOL" suggest --age "${age_s}s" --write "$RULES" >"$MSL_SCRATCH/out" 2>&1 ||
	fail "suggest --write: $(head -c 300 "$MSL_SCRATCH/out")"
cat "$RULES"
# (its own reading: the kernel memory may have moved by a MiB)
w_rule=$(sed -n 's|^/W \([0-9]*\)M$|\1|p' "$RULES")
assert_ge "${w_rule:-0}" "$((suggested / MIB - 1))" "W's rule in the file (MiB)"
assert_le "${w_rule:-0}" "$((suggested / MIB + 1))" "W's rule in the file (MiB)"
if [ "$MSL_LRU" = mglru ] && [ "$u_now" = "$u_seq" ]; then
	assert_true "U is a comment: no suggestion" grep -q '^# /U: no suggestion' "$RULES"
fi
"$MSL_TOOL" apply --dry-run "$RULES" >"$MSL_SCRATCH/dry" 2>&1 ||
	fail "apply --dry-run of suggest's file: exit $?: $(head -c 300 "$MSL_SCRATCH/dry")"
cat "$MSL_SCRATCH/dry"
assert_true "apply --dry-run reads W's rule" grep -q '/W ' "$MSL_SCRATCH/dry"
# A second --write replaces suggest's own file; a file of someone's is kept.
"$MSL_TOOL" suggest --age "${age_s}s" --write "$RULES" >/dev/null 2>&1 ||
	fail "suggest --write over the file it wrote"
echo '/W 1G' >"$MSL_SCRATCH/mine.conf"
"$MSL_TOOL" suggest --write "$MSL_SCRATCH/mine.conf" >/dev/null 2>&1
assert_eq "$?" 1 "suggest --write over a file it did not write"
assert_eq "$(cat "$MSL_SCRATCH/mine.conf")" "/W 1G" "that file, as it was"
assert_eq "$("$MSL_TOOL" get /W)" 200M "W's soft limit after suggest and apply --dry-run"
assert_eq "$(cat /proc/memcg_softlimit/limits /proc/memcg_softlimit/rules 2>/dev/null)" "$limits_before" \
	"the module's limits and rules after suggest and apply --dry-run"
usage_after=$(cg_usage_bytes W)
assert_ge "$((usage_after * 100))" "$((usage_before * 97))" "W's usage after suggest ran: nothing reclaimed"

# MGLRU: protected under pressure, W is not aged, so its reuse since the
# pressure began is unknown (fleet-install.md, "What it cannot see").
# The kernel ages a memcg in the reclaim of it (try_to_shrink_lruvec()'s
# aging): reclaim that the module skips for W does not age it.  S streams
# a sparse file until the module's decisions show W skipped under it
# (MGLRU's memcg LRU may serve S alone for a while: t-26).  What this
# shows is the skip and the aging that did not follow it, not that an
# unprotected W would have been aged by so short a stream: reclaim of W
# would first evict its oldest generation, the cold set, without aging.
if [ "$MSL_LRU" = mglru ]; then
	w_id=$(stat -c %i "$(cg_path W)")
	read -r _ w_seq < <(lru_gen_of /W)
	w_kept=$(cg_usage_bytes W)
	cg_create S
	p_start=$(now_ms)
	skips=0
	for try in 1 2 3; do
		trace_enable memcg_softlimit/decision
		stream_sparse S 512
		trace_disable memcg_softlimit/decision
		skips=$(trace_count "decision: cgroup_id=$w_id .*verdict=skip ")
		[ "$skips" -gt 0 ] && break
		note "stream $try of S: no decision about W yet"
	done
	reclaims=$(trace_count "decision: cgroup_id=$w_id .*verdict=reclaim ")
	read -r _ w_now < <(lru_gen_of /W)
	p_s=$((($(now_ms) - p_start) / 1000 + 2))
	note "under S's streams ($((p_s - 2)) s): W skipped $skips times, reclaimed $reclaims; max_seq $w_seq -> $w_now; usage $((w_kept / MIB)) -> $(($(cg_usage_bytes W) / MIB)) MiB"
	assert_gt "$skips" 0 "reclaim's decisions to skip W under S's streams"
	assert_eq "$reclaims" 0 "reclaim's decisions to reclaim W under S's streams"
	assert_eq "$w_now" "$w_seq" "W's max_seq under S's streams: skipped, not aged"
	# (the window: since the streams began, not back to W's first aging)
	assert_lt "$((p_s * 1000))" "$(($(now_ms) - aged))" "the window, against W's first aging (ms)"
	"$MSL_TOOL" suggest --age "${p_s}s" --json /W >"$MSL_SCRATCH/protected.json" ||
		fail "suggest --age ${p_s}s --json /W: exit $?"
	json_doc suggest_protected "$MSL_SCRATCH/protected.json"
	"$MSL_TOOL" suggest --age "${p_s}s" /W
	P=$MSL_SCRATCH/protected.json
	assert_eq "$(field reuse /W "$P")" unknown "W's reuse since S's streams began, protected and not aged: unknown"
	assert_eq "$(field reused_bytes /W "$P")" null "W's reused memory: not known"
	assert_eq "$(field suggested_bytes /W "$P")" null "W: no suggestion"
	assert_ge "$(field unaged_bytes /W "$P")" "$(((HOT + COLD) * MIB * 9 / 10))" "W's unaged memory: the hot and the cold set, kept"
fi
kill "$toucher" 2>/dev/null
wait "$job" 2>/dev/null
msl_unload
