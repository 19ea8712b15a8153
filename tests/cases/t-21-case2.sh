#!/bin/bash
# configs: all
# timeout: 900
# The patch's case 2 (untrusted): A is over its limit, so its whole subtree
# is reclaimed, A2 included although A2's own limit is far above its usage.
. "$MSL_PAYLOAD/guest/patch-cases.sh"
CASE=2
POLICY_ROUNDS=0  # stock and the defaults; t-3[89] add the other rules
. "$MSL_PAYLOAD/guest/case-run.sh"
