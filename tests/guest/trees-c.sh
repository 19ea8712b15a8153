# shellcheck shell=bash
# tests/guest/trees-c.sh: the article's case c (README "Policies") under
# stock, v8, walk and excess at the smoke size of the trees part (bench-lib:
# bench_trees), and the direction of each policy's effect on the pages each
# leaf keeps.  Sourced after bench-lib.sh (MSL_BENCH_SIZE=smoke, B_RECORDS)
# by t-60-bench-smoke (6.12 MGLRU; every row in make check-long) and t-28-article-pages (the two
# classic-LRU cgroup v2 configurations).

# field RECORD KEY: a scalar or list value of a flat JSON record
field() { sed -nE "s/.*\"$2\":(\"[^\"]*\"|\[[^]]*\]|[-0-9.]+).*/\1/p" <<<"$1" | tr -d '"[]'; }
# records PART: this run's records of that part
records() { grep -F "\"part\":\"$1\"" "$B_RECORDS"; }

trees_c_check() {
	local r mode i leaf leaves before kept skips
	bench_trees
	assert_eq "$(records trees | wc -l)" $((2 + $(bench_policies | wc -l))) "trees records (stock, v8 and each policy)"
	assert_eq "$(records trees | grep -c '"mode":"excess"')" 1 "a trees record under excess"
	declare -A KEPT FILL
	while read -r r; do
		mode=$(field "$r" mode)
		IFS=, read -ra leaves <<<"$(field "$r" leaves)"
		IFS=, read -ra before <<<"$(field "$r" before_mib)"
		IFS=, read -ra kept <<<"$(field "$r" kept_mib)"
		IFS=, read -ra skips <<<"$(field "$r" skips)"
		assert_eq "${#leaves[@]}" 4 "$mode: four leaves"
		assert_eq "${#kept[@]}" 4 "$mode: one residency per leaf"
		for i in 0 1 2 3; do
			assert_gt "${before[i]}" 0 "$mode: ${leaves[i]} was filled"
			assert_le "${kept[i]}" $((before[i] + 1)) "$mode: ${leaves[i]} kept at most its fill"
		done
		[ "$mode" = stock ] || assert_gt "$((skips[0] + skips[1] + skips[2] + skips[3]))" 0 "$mode: skips in the tree"
		note "smoke trees c $mode: kept ${kept[*]} of ${before[*]} MiB (${leaves[*]}), skips ${skips[*]}"
		for i in 0 1 2 3; do
			KEPT[$mode:${leaves[i]}]=${kept[i]} FILL[$mode:${leaves[i]}]=${before[i]}
		done
	done < <(records trees)

	# The direction of each policy's effect on case c (A under with A1 over, B
	# over, A2 and C under; S streaming, no limit anywhere above it, so
	# eligible), the rules of docs/policies.md at the defaults.  Stock cgroup v1
	# has soft limits of its own: there the module must only do no worse.
	# lost MODE LEAF: share of its pages the leaf lost, in percent
	lost() {
		local fill=${FILL[$1:$2]} left=${KEPT[$1:$2]}
		echo $(((fill - left) * 100 / fill))
	}
	# spared MODE LEAF: the leaf, skipped at every gated pass, keeps more than stock
	spared() {
		if [ "$MSL_CGROUP_VERSION" = 1 ]; then
			assert_ge "${KEPT[$1:$2]}" "${KEPT[stock:$2]}" "trees c $1: $2 keeps at least as much as with stock v1 soft limits"
		else
			assert_gt "${KEPT[$1:$2]}" "${KEPT[stock:$2]}" "trees c $1: $2 keeps more than stock"
		fi
	}
	# (MGLRU may take nothing from a cgroup the rule lets it reclaim: <= there)
	less_lost() { # less_lost MODE SPARED RECLAIMED
		if [ "$MSL_LRU" = mglru ]; then
			assert_le "$(lost "$1" "$2")" "$(lost "$1" "$3")" "trees c $1: $2 loses no larger a share than $3"
		else
			assert_lt "$(lost "$1" "$2")" "$(lost "$1" "$3")" "trees c $1: $2 loses a smaller share than $3"
		fi
	}
	# v8: A1 and B (over) are reclaimed, A2 and C spared.
	for leaf in A/A2 C; do
		spared v8 "$leaf"
		less_lost v8 "$leaf" A/A1
	done
	# walk: B and S are over at the top, so A's whole subtree (A1 too) and C
	# are skipped: A1 keeps at least as much as under v8, and loses no larger
	# a share than B.
	for leaf in A/A1 A/A2 C; do spared walk "$leaf"; done
	assert_ge "${KEPT[walk:A/A1]}" "${KEPT[v8:A/A1]}" "trees c walk: A1 keeps at least as much as under v8"
	less_lost walk A/A1 B
	# excess: eligible as v8, but A1 and B only at their excess's share of
	# S's (S's usage is all excess): A2 and C spared as under v8, and A1 and B
	# together keep at least as much as under v8.
	for leaf in A/A2 C; do
		spared excess "$leaf"
		less_lost excess "$leaf" A/A1
	done
	assert_ge "$((${KEPT[excess:A/A1]} + ${KEPT[excess:B]}))" "$((${KEPT[v8:A/A1]} + ${KEPT[v8:B]}))" \
		"trees c excess: A1 and B (over, at a share) keep at least as much as under v8"
	true
}
