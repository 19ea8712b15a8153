#!/bin/bash
# tests/unit/cli-check.sh TOOL: what the command line promises on any
# host, with or without the module: --help lists every command with a
# summary; output that cannot be written (a full disk, a closed
# descriptor) fails with a message; -c that matches nothing in a recording
# is an error; every command line of README's examples parses (the guest's
# t-59 runs them for real); suggest refuses bad input as a usage error and
# never replaces a file it did not write.  One RESULT line per check.
set -u -o pipefail
TOOL=$1
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SAMPLE=$HERE/data/sample.dat
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
result() { # NAME OK [WHY]
	if [ "$2" = 1 ]; then echo "RESULT PASS unit/tool_cli/$1"; else echo "RESULT FAIL unit/tool_cli/$1 ${3:-}"; fi
}

# --help: "  NAME  SUMMARY" for each command, every summary one line.
"$TOOL" --help >"$W/help"
bad=$(awk '/^commands:/ { on = 1; next } on && NF == 0 { exit } on && NF < 3 { print $1 }' "$W/help")
n=$(awk '/^commands:/ { on = 1; next } on && NF == 0 { exit } on { n++ } END { print n + 0 }' "$W/help")
result help_lists_commands_with_a_summary "$([ -z "$bad" ] && [ "$n" -ge 10 ] && echo 1 || echo 0)" \
	"$n commands; without a summary: $bad"
long=$(awk 'length > 79' "$W/help")
result help_fits_80_columns "$([ -z "$long" ] && echo 1 || echo 0)" "$long"

# Standard output full, or closed: exit 1 and a message, never 0.
for how in full closed; do
	if [ $how = full ]; then
		"$TOOL" --help >/dev/full 2>"$W/err"
	else
		"$TOOL" --help >&- 2>"$W/err"
	fi
	st=$?
	result "stdout_${how}_fails" "$([ $st = 1 ] && grep -q 'write error on standard output' "$W/err" && echo 1 || echo 0)" \
		"exit $st: $(head -c 200 "$W/err")"
done
"$TOOL" report --json --ids "$SAMPLE" >/dev/full 2>"$W/err"
st=$?
result report_to_full_stdout_fails "$([ $st = 1 ] && echo 1 || echo 0)" "exit $st: $(head -c 200 "$W/err")"
# A usage error stays one (2), whatever became of stdout.
"$TOOL" report --bogus "$SAMPLE" >&- 2>/dev/null
st=$?
result usage_error_keeps_status_2 "$([ $st = 2 ] && echo 1 || echo 0)" "exit $st"

# suggest: a bad duration, percentage, interval or count is a usage error
# (exit 2, what was wrong and the usage), before anything is read.
bad=
for args in "--age 5x" "--age 0" "--age -5s" "--age 1e3" "--age 31d" \
	"--headroom 1001" "--headroom 1.5" "--headroom x" "0" "/ soon" \
	"/ 1 0" "1 2 3" "--write=" "/ /"; do
	# shellcheck disable=SC2086 # the words of each case
	"$TOOL" suggest $args >/dev/null 2>"$W/err"
	st=$?
	[ $st = 2 ] && grep -q 'usage: memcg-softlimit suggest' "$W/err" ||
		bad+="'suggest $args': exit $st, $(head -n 1 "$W/err"); "
done
result suggest_bad_input_is_a_usage_error "$([ -z "$bad" ] && echo 1 || echo 0)" "$bad"
# --write FILE: a file suggest did not write is never replaced (exit 1,
# said, the file as it was), whatever the readings would have been.
printf '/x 1G\n' >"$W/mine.conf"
"$TOOL" suggest --write "$W/mine.conf" >/dev/null 2>"$W/err"
st=$?
result suggest_write_keeps_a_file_it_did_not_write \
	"$([ $st = 1 ] && grep -q 'suggest did not write it: not replaced' "$W/err" &&
		[ "$(cat "$W/mine.conf")" = '/x 1G' ] && echo 1 || echo 0)" \
	"exit $st: $(head -c 200 "$W/err"); file: $(head -c 100 "$W/mine.conf")"

# report -c: a path from the root ("A" is "/A"), and one that names no
# cgroup of the recording is an error, not an empty table.
"$TOOL" report -c no/such/cgroup --ids "$SAMPLE" >"$W/out" 2>"$W/err"
st=$?
result report_c_matching_nothing_fails "$([ $st = 1 ] && grep -q 'no cgroup of the recording is /no/such/cgroup' "$W/err" && echo 1 || echo 0)" \
	"exit $st: $(head -c 200 "$W/err")"

# README's command lines: each parses (--help at the end answers only once
# every option before it was taken).
bad=
while IFS= read -r line; do
	read -ra words <<<"$line"
	"$TOOL" "${words[@]:1}" --help >/dev/null 2>"$W/err" || bad+="'$line': $(head -n 1 "$W/err"); "
done < <("$HERE/../readme-commands")
n=$("$HERE/../readme-commands" | wc -l)
result readme_command_lines_parse "$([ -z "$bad" ] && [ "$n" -gt 5 ] && echo 1 || echo 0)" "$n lines; $bad"

# report INTERVAL: the intervals' counts add up to the whole recording's;
# --since/--until keep a part of it.
"$TOOL" report --json -a --ids "$SAMPLE" >"$W/whole.json" 2>/dev/null
"$TOOL" report --json -a --ids "$SAMPLE" 2 >"$W/parts.json" 2>/dev/null
"$TOOL" report --json -a --ids --since 1 --until 3 "$SAMPLE" >"$W/window.json" 2>/dev/null
why=$(python3 - "$W/whole.json" "$W/parts.json" "$W/window.json" <<'PY'
import json, sys
def docs(path):
    text, dec, i, out = open(path).read(), json.JSONDecoder(), 0, []
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return out
        d, i = dec.raw_decode(text, i)
        out.append(d)
def total(ds):
    t = {}
    for d in ds:
        for c in d["cgroups"]:
            t[c["id"]] = t.get(c["id"], 0) + c["reclaims"] + c["skips"]
    return t
whole, parts, window = docs(sys.argv[1]), docs(sys.argv[2]), docs(sys.argv[3])
w, p, s = total(whole), total(parts), total(window)
if len(parts) < 2:
    print("%d interval documents" % len(parts))
elif any(x["until"] - x["since"] != 2 for x in parts):
    print("intervals are not 2 s long")
elif w != p:
    print("intervals add up to %s, the whole to %s" % (p, w))
elif not (0 < sum(s.values()) < sum(w.values())):
    print("window 1-3 s: %d decisions of %d" % (sum(s.values()), sum(w.values())))
elif window[0]["since"] != 1 or window[0]["until"] != 3:
    print("window says %s-%s" % (window[0]["since"], window[0]["until"]))
PY
)
result report_intervals_add_up "$([ -z "$why" ] && echo 1 || echo 0)" "$why"

# The sample was recorded in a guest whose cgroups this host has not:
# report names them by the paths the recording holds (sample.txt says
# which cgroup each id was there), not by whatever has that id here.
"$TOOL" report --json -a "$SAMPLE" >"$W/named.json" 2>"$W/err"
bad=
while read -r id path; do
	grep -qE "^\{\"id\":$id,\"path\":\"$path\"," "$W/named.json" || bad+="$id $path; "
done < <(sed -nE 's/^  ([0-9]+) (\/.*)$/\1 \2/p' "$HERE/data/sample.txt")
n=$(grep -cE '^  [0-9]+ /' "$HERE/data/sample.txt")
result report_names_another_machine_s_cgroups "$([ -z "$bad" ] && [ "$n" -ge 5 ] && echo 1 || echo 0)" \
	"$n ids in sample.txt; not named as recorded: $bad $(head -c 200 "$W/err")"
