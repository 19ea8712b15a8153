#!/bin/bash
# tests/guest/demo.sh: what `make demo` shows (runs in the guest, sourced
# after lib.sh).  The patch's case 1 under global pressure, once on the
# stock kernel and once with the module, then the module's decisions.
. "$MSL_PAYLOAD/guest/patch-cases.sh"
STREAM_MIB=768
say() { printf '%s\n' "$*"; }
# The rounds' notes would repeat the tables below.
note() { :; }
table() {
	local label=$1 cg
	for cg in $LEAVES; do
		printf '  %-6s soft %-6s page cache %4s MiB -> %4s MiB (%s%% reclaimed)\n' \
			"$cg" "$(soft_limit_of 1 "$cg")" "${BEFORE[$label:$cg]}" "${KEPT[$label:$cg]}" \
			"$(lost_pct "$label" "$cg")"
	done
}

say "kernel $(uname -r), cgroup v$MSL_CGROUP_VERSION, LRU: $MSL_LRU (lru_gen $MSL_LRU_GEN), 512 MiB guest"
say ""
say "The seed patch's case 1 (soft limits in MiB, 1 unit = 8 MiB):"
say "  A: max (immune)   A/A1: 80, holds 136   A/A2: 48, holds 40   B: 128, holds 80"
say "S, which has no soft limit, streams ${STREAM_MIB} MiB of file cache."
say ""
build_tree
[ "$MSL_CGROUP_VERSION" = 1 ] && apply_limits 1
run_round stock >/dev/null
say "Stock kernel (module not loaded):"
table stock
msl_load >/dev/null
reset_tree
apply_limits 1
declare -A NAME=([1]=root)
for cg in A A/A1 A/A2 B S; do
	NAME[$(cg_id "$cg")]=$cg
done
echo 4096 >"$MSL_TRACEFS/buffer_size_kb"
trace_clear
trace_enable memcg_softlimit/decision
run_round module >/dev/null
trace_disable memcg_softlimit/decision
say ""
say "With memcg_softlimit loaded, as modprobe loads it (policy v8, the progress gate):"
table module
say ""
say "A few of its decisions (trace system memcg_softlimit, event decision):"
ids=$(for id in "${!NAME[@]}"; do printf 'cgroup_id=%s |' "$id"; done)
grep -E 'kind=(kswapd|direct)' "$MSL_TRACEFS/trace" | grep -E "${ids%|}" |
	grep -E 'verdict=skip|reason=(over|ancestor_over)' | head -n 6 |
	sed -E 's/^ +//; s/ +/ /g' | cut -c1-230 | sed 's/^/  /'
say ""
say "Decisions per cgroup (kswapd and direct reclaim, every pass; \"removed\""
say "are the stock round's cgroups, still holding pages):"
grep -E 'kind=(kswapd|direct)' "$MSL_TRACEFS/trace" |
	sed -E 's/.*cgroup_id=([0-9]+) .* verdict=([a-z_]+) reason=([a-z_]+) .*/\1 \2\/\3/' |
	sort | uniq -c | while read -r n id what; do
		printf '  %-14s %-22s %6d\n' "${NAME[$id]:-(removed) $id}" "$what" "$n"
	done
say ""
say "Priorities reclaim went down to: $(grep -E 'kind=(kswapd|direct)' "$MSL_TRACEFS/trace" |
	sed -nE 's/.* priority=([0-9]+) .*/\1/p' | sort -n | uniq -c | awk '{printf "%s%s at %s", sep, $1, $2; sep = ", "}')"
say "A1 went down to its limit (80 MiB) and no further; A2 and B, under theirs,"
say "kept their pages, at every priority."
if [ -n "${MSL_TOOL:-}" ]; then
	say ""
	say "The same, as the memcg-softlimit command shows it (memcg-softlimit tree):"
	"$MSL_TOOL" tree 2>&1 | sed 's/^/  /'
fi
msl_unload >/dev/null
