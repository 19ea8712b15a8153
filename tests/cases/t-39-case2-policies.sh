#!/bin/bash
# configs: all
# timeout: 900
# tcg: single
# The patch's case 2 under every rule the module has: the stock kernel,
# the defaults, the patch's rule as written (priority_threshold=12,
# unset=zero), and the policies walk and excess (README "Policies"), with
# the decisions each must take and the pages each keeps (t-21 runs the
# defaults alone on every row).
. "$MSL_PAYLOAD/guest/patch-cases.sh"
CASE=2
POLICY_ROUNDS=1
. "$MSL_PAYLOAD/guest/case-run.sh"
