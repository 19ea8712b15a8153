#!/bin/bash
# tests/unit/units-check.sh: the packaged systemd units run the packaged
# command by its absolute path (never what PATH finds first), each in a
# sandbox (NoNewPrivileges, ProtectSystem=strict, a capability bounding
# set) whose exposure systemd-analyze security rates 3.5 or lower;
# memcg-softlimit.service stays active while the module is loaded
# (RemainAfterExit) and the udev rule stops it when the module goes.  One
# RESULT line per unit.
set -u -o pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
MAX_EXPOSURE=3.5
for u in "$TOP"/packaging/systemd/*.service; do
	name=$(basename "$u")
	why=
	while read -r exe; do
		exe=${exe#-}
		case $exe in /*) ;; *) why+="ExecStart '$exe' is not an absolute path; " ;; esac
	done < <(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$u")
	for want in NoNewPrivileges=yes ProtectSystem=strict; do
		grep -qx "$want" "$u" || why+="no $want; "
	done
	grep -q '^CapabilityBoundingSet=CAP_' "$u" || why+="no CapabilityBoundingSet; "
	if command -v systemd-analyze >/dev/null; then
		score=$(cd /tmp && systemd-analyze security --offline=yes "$u" 2>/dev/null |
			sed -n 's/.*Overall exposure level for .*: \([0-9.]*\) .*/\1/p')
		if [ -z "$score" ]; then
			why+="systemd-analyze security gave no score; "
		elif awk -v s="$score" -v m="$MAX_EXPOSURE" 'BEGIN { exit !(s > m) }'; then
			why+="exposure $score > $MAX_EXPOSURE; "
		fi
	fi
	if [ -z "$why" ]; then
		echo "RESULT PASS unit/units/$name${score:+ (exposure $score)}"
	else
		echo "RESULT FAIL unit/units/$name $why"
	fi
done
U=$TOP/packaging/systemd/memcg-softlimit.service R=$TOP/packaging/udev/60-memcg-softlimit.rules
if grep -qx RemainAfterExit=yes "$U" &&
	grep -q '^ACTION=="remove", SUBSYSTEM=="module", KERNEL=="memcg_softlimit", RUN+="/bin/systemctl stop memcg-softlimit.service"' "$R"; then
	echo "RESULT PASS unit/units/apply_unit_active_while_loaded"
else
	echo "RESULT FAIL unit/units/apply_unit_active_while_loaded RemainAfterExit=yes and the udev rule's stop on remove"
fi
