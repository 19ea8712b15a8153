#!/bin/bash
# configs: all
# timeout: 5400
# A part of `make bench` (bench/run lists it; not a test of make check):
# what protection costs the unprotected side.  See
# bench/guest/bench-cost-lib.sh.
. "$MSL_PAYLOAD/bench/bench-lib.sh"
. "$MSL_PAYLOAD/bench/bench-cost-lib.sh"
bench_cost
