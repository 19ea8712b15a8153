#!/bin/bash
# tests/unit/enums-check.sh PRINT_ENUMS: the numbers that traces carry for
# kind, verdict, reason, limit and policy, as print_enums makes them from
# include/memcg_softlimit/policy.h's lists, are what docs/reference.md's
# table says and what the bpftrace scripts declare; no bpftrace script
# tests one of those fields against a bare number.  One RESULT line each.
set -u -o pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
want=$("$1") || { echo "RESULT FAIL unit/enums/print_enums runs"; exit 0; }
result() { # NAME OK [WHY]
	if [ "$2" = 1 ]; then echo "RESULT PASS unit/enums/$1"; else echo "RESULT FAIL unit/enums/$1 ${3:-}"; fi
}

# docs/reference.md: "| `reason` | 7 | `under` | ... |"
doc=$(sed -nE 's/^\| `([a-z]+)` \| ([0-9]+) \| `([a-z_0-9]+)` \|.*/\1 \2 \3/p' "$TOP/docs/reference.md")
diff=$(diff <(awk '{ print $1, $2, $3 }' <<<"$want") <(printf '%s\n' "$doc") | head -n 6 | tr '\n' ' ')
result reference_table_matches_policy_h "$([ -z "$diff" ] && echo 1 || echo 0)" "$diff"

# Each "enum msl_LIST { ... };" of a script: the list's constants, in order.
for bt in "$TOP"/tools/bpftrace/*.bt; do
	name=$(basename "$bt" .bt)
	ok=1 why=
	while read -r list consts; do
		expect=$(awk -v l="$list" '$1 == l { printf "%s ", $4 }' <<<"$want")
		if [ "$consts " != "$expect" ]; then
			ok=0 why+="enum msl_$list: '$consts' is not policy.h's '$expect'; "
		fi
	done < <(perl -0ne 'while (/enum msl_(\w+) \{([^}]*)\}/g) { my ($l, $c) = ($1, $2);
		$c =~ s/[\s,]+/ /g; $c =~ s/^ | $//g; print "$l $c\n" }' "$bt")
	# @reason_name[MSL_REASON_X] = "word";
	while read -r const word; do
		expect=$(awk -v c="$const" '$4 == c { print $3 }' <<<"$want")
		[ "$word" = "$expect" ] || ok=0 why+="$const is named '$word', policy.h says '$expect'; "
	done < <(sed -nE 's/.*@reason_name\[(MSL_[A-Z_]+)\] = "([a-z_]+)";.*/\1 \2/p' "$bt")
	if grep -nE 'args->(kind|verdict|reason|limit|policy) *[=!<>]=? *[0-9]' "$bt" >/dev/null; then
		ok=0 why+="a bare number: $(grep -nE 'args->(kind|verdict|reason|limit|policy) *[=!<>]=? *[0-9]' "$bt" | head -n 1)"
	fi
	result "bpftrace_$name" "$ok" "$why"
done
