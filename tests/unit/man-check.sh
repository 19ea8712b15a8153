#!/bin/bash
# tests/unit/man-check.sh TOOL MANPAGE: every option every command's help
# lists, long and short, is in the man page (its OPTIONS and SYNOPSIS), so
# that the two cannot drift apart.  One RESULT line per command.
set -u -o pipefail
TOOL=$1 MAN=$2
text=$(MANWIDTH=200 man -l "$MAN" 2>/dev/null) || { echo "RESULT FAIL unit/tool_man/renders (man -l $MAN)"; exit 0; }
for cmd in $("$TOOL" --help | awk '/^commands:/ { on = 1; next } on && NF == 0 { exit } on { print $1 }'); do
	missing=
	while read -r opt; do
		grep -qF -- "$opt" <<<"$text" || missing+=" $opt"
	done < <("$TOOL" help "$cmd" | sed -n '/^options:/,$p' | grep -oE -- '(^|[ ,])--?[a-zA-Z][-a-zA-Z]*' | tr -d ' ,' | sort -u)
	grep -qE -- "memcg-softlimit $cmd( |$)" <<<"$text" || missing+=" (no synopsis)"
	if [ -z "$missing" ]; then
		echo "RESULT PASS unit/tool_man/$cmd"
	else
		echo "RESULT FAIL unit/tool_man/$cmd not in the man page:$missing"
	fi
done
