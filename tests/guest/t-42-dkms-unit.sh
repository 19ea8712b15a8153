#!/bin/bash
# configs: pkg-*
# timeout: 120
#
# Runs in the package image booted with systemd (see t-41-dkms-boot): the
# memcg-softlimit package's unit applied /etc/memcg-softlimit.conf at boot
# (the image adds "/system.slice 1G" to it) after the module was loaded,
# and `systemctl reload` applies it again.
[ "$(cat /proc/1/comm)" = systemd ] || fail "PID 1 is $(cat /proc/1/comm), not systemd: this test is for the package image"
[ -f /lib/systemd/system/memcg-softlimit.service ] ||
	skip "the memcg-softlimit package (tool, unit) is not in the image: tools/Makefile did not exist when the packages were built"
declare -A exp=()
while IFS='=' read -r k v; do exp[$k]=$v; done <"$MSL_PKG_EXPECT"
read -r cg size <<<"${exp[softlimit]}"

assert_eq "$(systemctl is-enabled memcg-softlimit.service)" enabled "unit enabled by the package"
systemctl status --no-pager memcg-softlimit.service
assert_eq "$(systemctl is-active memcg-softlimit.service)" active "unit ran at boot"
assert_eq "$(systemctl show -p ExecMainStatus --value memcg-softlimit.service)" 0 "exit status"
assert_true "ordered after systemd-modules-load" grep -qw systemd-modules-load.service \
	<(systemctl show -p After --value memcg-softlimit.service)
cat /proc/memcg_softlimit/limits
assert_true "the soft limit of $cg is set" grep -qE "^[0-9]+ 1073741824 $cg\$" /proc/memcg_softlimit/limits
echo "unset $cg" >/proc/memcg_softlimit/limits || fail "cannot unset $cg"
assert_false "unset" grep -qE " $cg\$" /proc/memcg_softlimit/limits
systemctl reload memcg-softlimit.service || fail "systemctl reload failed"
assert_true "reload applied it again" grep -qE "^[0-9]+ 1073741824 $cg\$" /proc/memcg_softlimit/limits
note "memcg-softlimit.service set $cg $size at boot"

# The metrics timer: enabled by the package, idle where node_exporter's
# textfile directory is missing; its service writes the file there.
TF=/var/lib/prometheus/node-exporter
assert_eq "$(systemctl is-enabled memcg-softlimit-metrics.timer)" enabled "metrics timer enabled by the package"
if [ ! -d "$TF" ]; then
	systemctl start memcg-softlimit-metrics.service
	assert_eq "$(systemctl show -p ConditionResult --value memcg-softlimit-metrics.service)" no "skipped without $TF"
	mkdir -p "$TF"
	made_tf=1
fi
systemctl start memcg-softlimit-metrics.service || fail "memcg-softlimit-metrics.service failed: $(journalctl -u memcg-softlimit-metrics.service --no-pager | tail -n 3)"
assert_eq "$(systemctl show -p ExecMainStatus --value memcg-softlimit-metrics.service)" 0 "metrics service's exit status"
assert_true "memcg_softlimit_up 1" grep -qx "memcg_softlimit_up 1" "$TF/memcg_softlimit.prom"
head -n 5 "$TF/memcg_softlimit.prom"
[ -z "${made_tf:-}" ] || rm -rf /var/lib/prometheus
