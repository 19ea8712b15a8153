#!/bin/bash
# configs: all
# timeout: 900
# The patch's case 1 (trusted administrator, A immune): at the first pass
# global reclaim takes pages only from A1, the one cgroup over its limit.
. "$MSL_PAYLOAD/guest/cases.sh"
CASE=1
. "$MSL_PAYLOAD/guest/case-run.sh"
