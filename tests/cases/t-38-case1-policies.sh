#!/bin/bash
# configs: all
# timeout: 900
# The patch's case 1 under every rule the module has: the stock kernel,
# the defaults, the patch's rule as written (priority_threshold=12,
# unset=zero), and the policies walk and excess (README "Policies"), with
# the decisions each must take and the pages each keeps (t-20 runs the
# defaults alone on every row).
. "$MSL_PAYLOAD/guest/patch-cases.sh"
CASE=1
POLICY_ROUNDS=1
. "$MSL_PAYLOAD/guest/case-run.sh"
