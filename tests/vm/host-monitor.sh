#!/usr/bin/env bash
# tests/vm/host-monitor.sh OUTFILE [INTERVAL]: until killed, every INTERVAL
# seconds (default 10) append one line to OUTFILE: the host's CPU use over
# the interval (user, system, idle, iowait, steal, in % of all CPUs), its
# load average, and each running guest's share of a CPU with its nice value.
#
# Why: a guest test that usually takes seconds sometimes takes minutes in a
# full make check.  This log tells afterwards whether its qemu was starved
# (the host busy with something else, or stolen from by the hypervisor),
# busy itself (the guest looping), or idle (the guest waiting).
#
#   t=1210 load=1.92 cpu: us 71 sy 4 id 25 wa 0 st 0 | 6.1-v1-classic 131% n0
set -u
out=${1:?usage: host-monitor.sh OUTFILE [INTERVAL]}
interval=${2:-10}
hz=$(getconf CLK_TCK)
t0=$SECONDS
declare -A prev_ticks=()
read -r _ pu pn ps pi pw pq psq pst _ </proc/stat
while sleep "$interval"; do
	read -r _ u n s i w q sq st _ </proc/stat
	line=$(awk -v u=$((u + n - pu - pn)) -v s=$((s + q + sq - ps - pq - psq)) \
		-v i=$((i - pi)) -v w=$((w - pw)) -v st=$((st - pst)) \
		'BEGIN { t = u + s + i + w + st; if (t == 0) t = 1;
			 printf "us %d sy %d id %d wa %d st %d", 100*u/t, 100*s/t, 100*i/t, 100*w/t, 100*st/t }')
	pu=$u pn=$n ps=$s pi=$i pw=$w pq=$q psq=$sq pst=$st
	guests=
	declare -A seen=()
	for pid in $(pgrep -x qemu-system-x86); do  # (comm is cut at 15 chars)
		[ -r "/proc/$pid/stat" ] || continue
		# the guest's name: its console log's, from the command line
		name=$(tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null |
			sed -n 's|^file:.*/\([^/]*\)\.console\.log$|\1|p' | head -n 1)
		# fields after the ")" of comm: 12 utime, 13 stime, 17 nice
		read -r ut stt ni < <(sed 's/^.*) //' "/proc/$pid/stat" | awk '{print $12, $13, $17}')
		ticks=$((ut + stt))
		if [ -n "${prev_ticks[$pid]:-}" ]; then
			pct=$(((ticks - prev_ticks[$pid]) * 100 / (hz * interval)))
			guests+=" ${name:-pid$pid} ${pct}% n$ni,"
		else
			guests+=" ${name:-pid$pid} new n$ni,"
		fi
		prev_ticks[$pid]=$ticks
		seen[$pid]=1
	done
	for pid in "${!prev_ticks[@]}"; do
		[ -n "${seen[$pid]:-}" ] || unset "prev_ticks[$pid]"
	done
	unset seen
	printf 't=%d load=%s cpu: %s |%s\n' "$((SECONDS - t0))" \
		"$(cut -d' ' -f1 /proc/loadavg)" "$line" "${guests%,}" >>"$out"
done
