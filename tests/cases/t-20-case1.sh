#!/bin/bash
# configs: all
# timeout: 900
# The patch's case 1 (trusted administrator, A immune): at the first pass
# global reclaim takes pages only from A1, the one cgroup over its limit.
. "$MSL_PAYLOAD/guest/patch-cases.sh"
CASE=1
POLICY_ROUNDS=0  # stock and the defaults; t-3[89] add the other rules
. "$MSL_PAYLOAD/guest/case-run.sh"
