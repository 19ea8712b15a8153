# shellcheck shell=bash
# tests/guest/patch-cases.sh: the seed patch's two example trees, scaled to the
# guest (1 unit = 8 MiB of page cache), run under global pressure with and
# without the module.  Sourced by the case tests (t-20, t-21, t-38, t-39).
#
#   root
#   |-- A      case 1: soft max ("unlimited")  case 2: soft 16, usage 22
#   |   |-- A1 soft 10, usage 17
#   |   `-- A2 case 1: soft 6, usage 5         case 2: soft 1000, usage 5
#   `-- B      soft 16, usage 10
#
# Pressure comes from outside the tree: a reader in cgroup S, which has no
# soft limit (so it is always eligible, V8's default), streams a sparse file
# through the page cache.  Pressure from the root cgroup alone would leave
# nothing but the root eligible once A1 is back under its limit, and the
# module then reclaims as stock does (t-22-nothing-eligible tests that).

UNIT_MIB=8
LEAVES="A/A1 A/A2 B"
STREAM_MIB=${STREAM_MIB:-768}
is_long && STREAM_MIB=4096

usage_units() {
	case $1 in
	A/A1) echo 17 ;;
	A/A2) echo 5 ;;
	B) echo 10 ;;
	esac
}

# soft_limit_of CASE CGROUP: in MiB, or "max"
soft_limit_of() {
	case $1:$2 in
	1:A) echo max ;;
	2:A) echo $((16 * UNIT_MIB)) ;;
	*:A/A1) echo $((10 * UNIT_MIB)) ;;
	1:A/A2) echo $((6 * UNIT_MIB)) ;;
	2:A/A2) echo $((1000 * UNIT_MIB)) ;;
	*:B) echo $((16 * UNIT_MIB)) ;;
	esac
}

build_tree() {
	local cg
	for cg in A A/A1 A/A2 B S; do
		cg_create "$cg"
	done
}

apply_limits() {
	local case=$1 cg
	for cg in A A/A1 A/A2 B; do
		set_soft_limit "$cg" "$(soft_limit_of "$case" "$cg")"
	done
}

# fill_tree: every leaf gets its usage in page cache of its own file
# (sparse: reading a hole fills the page cache as data does, without
# writing it first).  Caches are dropped once, so no fill evicts another;
# then each leaf reads its file, oldest first.
fill_tree() {
	local cg f
	for cg in $LEAVES; do
		f=$MSL_SCRATCH/${cg//\//_}.data
		[ -f "$f" ] && continue
		truncate -s "$(($(usage_units "$cg") * UNIT_MIB))M" "$f" || fail "creating $f failed"
	done
	drop_caches
	for cg in $LEAVES; do
		cg_run "$cg" dd if="$MSL_SCRATCH/${cg//\//_}.data" of=/dev/null bs=1M status=none ||
			fail "reading in $cg failed"
	done
}

# pressure: stream from S, outside the tree.
pressure() {
	stream_sparse S "$STREAM_MIB"
}

# run_round LABEL: fill, pressure, and record each leaf's page cache in MiB
# before and after as KEPT_<label>_<leaf> / BEFORE_<label>_<leaf>.
declare -A BEFORE KEPT
run_round() {
	local label=$1 cg
	fill_tree
	for cg in $LEAVES; do
		BEFORE[$label:$cg]=$(cg_file_mib "$cg")
	done
	pressure
	for cg in $LEAVES; do
		KEPT[$label:$cg]=$(cg_file_mib "$cg")
	done
	note "$label: $(for cg in $LEAVES; do printf '%s %s->%s MiB; ' "$cg" "${BEFORE[$label:$cg]}" "${KEPT[$label:$cg]}"; done)"
}

# lost_pct LABEL CGROUP: share of the leaf's pages reclaimed, in percent
lost_pct() {
	local b=${BEFORE[$1:$2]} k=${KEPT[$1:$2]}
	[ "$b" -gt 0 ] || fail "$2 had no page cache in round $1"
	echo $(((b - k) * 100 / b))
}

cg_id() { stat -c %i "$(cg_path "$1")"; }

# gated_decisions FILE ID [ERE]: "verdict/reason" of every decision of
# global reclaim about that cgroup id (whose fields after the id also
# match ERE, default $GATED), one per line, counted.
gated_decisions() {
	grep -E "cgroup_id=$2 .*${3:-$GATED}" "$1" |
		sed -E 's/.* verdict=([a-z_]+) reason=([a-z_]+) .*/\1\/\2/' | sort | uniq -c
}

# first_pass_decisions FILE ID: the same at the priority gate's first pass.
first_pass_decisions() { gated_decisions "$1" "$2" "$FIRST_PASS"; }

# check_decision_consistency FILE: each "over"/"under" decision agrees with
# the usage and effective soft limit the event itself carries.
check_decision_consistency() {
	local bad
	bad=$(awk '
		/decision:/ {
			for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
			if (f["reason"] == "over" && !(f["usage"] + 0 > f["soft_limit"] + 0)) print
			if (f["reason"] == "under" && f["usage"] + 0 > f["soft_limit"] + 0 && f["limit"] != "unset") print
		}' "$1" | head -n 3)
	[ -z "$bad" ] || fail "decisions contradict their own usage/soft_limit: $bad"
}

# check_no_skip_below FILE THRESHOLD
check_no_skip_below() {
	local n
	n=$(awk -v t="$2" '/decision:/ && /verdict=skip/ {
		match($0, /effective_priority=-?[0-9]+/)
		p = substr($0, RSTART + 19, RLENGTH - 19) + 0
		if (p < t) n++ } END { print n + 0 }' "$1")
	assert_eq "$n" 0 "skips at effective priority below $2"
}

reset_tree() {
	cg_remove A
	cg_remove B
	cg_remove S
	build_tree
}
