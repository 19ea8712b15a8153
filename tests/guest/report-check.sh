#!/bin/bash
# tests/guest/report-check.sh TOOL FILE: memcg-softlimit report on a
# trace-cmd recording agrees with trace-cmd's own reading of it (an
# independent parser: libtraceevent's text output, summed by awk):
# decisions by cgroup and reason, pages reclaimed and scanned by cgroup
# and kind, and the last snapshot.  One "RESULT PASS|FAIL <name>" line per
# check, names prefixed by $REPORT_CHECK_PREFIX (default unit/tool_report).
# Run by tests/unit on the sample recording kept in tests/unit/data, and
# by t-58 in the guest on a fresh one.
set -u -o pipefail
TOOL=$1 FILE=$2
P=${REPORT_CHECK_PREFIX:-unit/tool_report}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
result() { # NAME OK [WHY]
	if [ "$2" = 1 ]; then echo "RESULT PASS $P/$1"; else echo "RESULT FAIL $P/$1 ${3:-}"; fi
}

if ! trace-cmd report -i "$FILE" >"$W/text" 2>"$W/text.err"; then
	result trace_cmd_reads_it 0 "$(head -c 200 "$W/text.err")"
	exit 0
fi
"$TOOL" report --json -a --ids "$FILE" >"$W/all.json" 2>"$W/err"
result report_runs $((! $?)) "$(head -c 200 "$W/err")"

# What trace-cmd says: "ID REASON N" and "ID KIND scanned reclaimed".
awk '/ decision: +cgroup_id=/ { id = ""; r = "";
		for (i = 1; i <= NF; i++) { split($i, kv, "=");
			if (kv[1] == "cgroup_id") id = kv[2]; if (kv[1] == "reason") r = kv[2] }
		n[id " " r]++ }
	END { for (k in n) print k, n[k] }' "$W/text" | sort >"$W/want.decisions"
awk '/ reclaimed: +cgroup_id=/ { id = ""; k = ""; s = 0; r = 0;
		for (i = 1; i <= NF; i++) { split($i, kv, "=");
			if (kv[1] == "cgroup_id") id = kv[2]; if (kv[1] == "kind") k = kv[2];
			if (kv[1] == "nr_scanned") s = kv[2]; if (kv[1] == "nr_reclaimed") r = kv[2] }
		sc[id " " k] += s; rc[id " " k] += r }
	END { for (x in sc) if (sc[x] || rc[x]) print x, sc[x], rc[x] }' "$W/text" | sort >"$W/want.pages"

# What the tool says, from its JSON (one cgroup a line).
perl -ne 'next unless /^\{"id":(\d+),/; my $id = $1;
	my ($d) = /"decisions":\{([^}]*)\}/;
	while ($d =~ /"(\w+)":(\d+)/g) { print "$id $1 $2\n" if $2 }' "$W/all.json" | sort >"$W/got.decisions"
# (pages as bytes in the document: its page_size turns them back)
perl -ne '$ps = $1 if /"page_size":(\d+)/; next unless /^\{"id":(\d+),/; my $id = $1;
	my ($s) = /"scanned_bytes":\{([^}]*)\}/; my ($r) = /"reclaimed_bytes":\{([^}]*)\}/;
	my %s = $s =~ /"(\w+)":(\d+)/g; my %r = $r =~ /"(\w+)":(\d+)/g;
	$_ /= $ps for values %s, values %r;
	for my $k (sort keys %s) { print "$id $k $s{$k} $r{$k}\n" if $s{$k} || $r{$k} }' "$W/all.json" | sort >"$W/got.pages"

# The recording names its cgroups (cgroup_path events): report gives each
# id the path recorded for it, whatever this machine's cgroups are.
sed -nE 's/.* cgroup_path: +seq=[0-9]+ cgroup_id=([0-9]+) path=(.*)$/\1 \2/p' "$W/text" |
	awk '{ p[$1] = $0 } END { for (i in p) print p[i] }' | sort >"$W/want.paths"
"$TOOL" report --json -a "$FILE" >"$W/named.json" 2>>"$W/err"
perl -ne 'next unless /^\{"id":(\d+),"path":"((?:[^"\\]|\\.)*)"/; print "$1 $2\n"' "$W/named.json" | sort >"$W/got.paths"
named=$(wc -l <"$W/got.paths")
extra=$(comm -13 "$W/want.paths" "$W/got.paths" | head -n 3 | tr '\n' ' ')
missing=$(join -v 1 <(perl -ne 'print "$1\n" if /^\{"id":(\d+),/ && !/"removed":true/' "$W/named.json" | sort) <(cut -d' ' -f1 "$W/want.paths") | head -n 3 | tr '\n' ' ')
result paths_are_the_recording_s "$([ "$named" -gt 0 ] && [ -z "$extra" ] && [ -z "$missing" ] && echo 1 || echo 0)" \
	"$named named; not as recorded: $extra; ids without a recorded path: $missing"

n=$(wc -l <"$W/want.decisions")
result has_decisions $((n > 0)) "no decision events in $FILE"
cmp -s "$W/want.decisions" "$W/got.decisions"
result decisions_by_cgroup_and_reason $((! $?)) "$(diff "$W/want.decisions" "$W/got.decisions" | head -n 6 | tr '\n' ' ')"
cmp -s "$W/want.pages" "$W/got.pages"
result pages_by_cgroup_and_kind $((! $?)) "$(diff "$W/want.pages" "$W/got.pages" | head -n 6 | tr '\n' ' ')"

# The last snapshot: every field of every row, as trace-cmd prints it.
# (trace-cmd pads event names: "snapshot_done:   seq=2 ...")
seq=$(sed -nE 's/.* snapshot_done: +seq=([0-9]+) .*/\1/p' "$W/text" | tail -n 1)
if [ -z "$seq" ]; then
	result last_snapshot 0 "no snapshot_done in $FILE"
	exit 0
fi
"$TOOL" report --snapshot --json -a --ids "$FILE" >"$W/snap.json" 2>>"$W/err"
grep -E " snapshot: +seq=$seq " "$W/text" | perl -ne 'my %f = /(\w+)=(\d+)/g;
	for my $k (sort keys %f) { print "$f{cgroup_id} $k $f{$k}\n" unless $k =~ /^(seq|cgroup_id)$/ }' |
	sort >"$W/want.snap"
perl -ne '$ps = $1 if /"page_size":(\d+)/; next unless /^\{"id":(\d+),/; my $id = $1;
	my ($d) = /"decisions":\{([^}]*)\}/; my ($s) = /"scanned_bytes":\{([^}]*)\}/;
	my ($r) = /"reclaimed_bytes":\{([^}]*)\}/;
	my %d = $d =~ /"(\w+)":(\d+)/g; print "$id $_ $d{$_}\n" for keys %d;
	my %s = $s =~ /"(\w+)":(\d+)/g; print "$id scanned_$_ ", $s{$_} / $ps, "\n" for keys %s;
	my %r = $r =~ /"(\w+)":(\d+)/g; print "$id reclaimed_$_ ", $r{$_} / $ps, "\n" for keys %r' "$W/snap.json" |
	sort >"$W/got.snap"
# Every field the recording has: one from a newer module (a reason added
# since) the tool reads as 0, and warns about, but it is in no event.
awk 'NR == FNR { have[$2] = 1; next } have[$2]' "$W/want.snap" "$W/got.snap" >"$W/got.snap.f" &&
	mv "$W/got.snap.f" "$W/got.snap"
rows=$(grep -cE " snapshot: +seq=$seq " "$W/text")
result last_snapshot_has_rows $((rows > 0)) "snapshot $seq has no rows"
# A recording made by an older module has no field for a reason added
# since; the tool reads those as 0, which is what they were.
fields=$(grep -E " snapshot: +seq=$seq " "$W/text" | head -n 1 | grep -oE '[a-z_]+=' | tr -d = | tr '\n' ' ')
awk -v known=" $fields " '$3 != 0 || index(known, " " $2 " ")' "$W/got.snap" >"$W/got.known"
mv "$W/got.known" "$W/got.snap"
cmp -s "$W/want.snap" "$W/got.snap"
result last_snapshot_every_field $((! $?)) "$(diff "$W/want.snap" "$W/got.snap" | head -n 6 | tr '\n' ' ')"
