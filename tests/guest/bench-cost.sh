#!/bin/bash
# configs: all
# timeout: 5400
# A part of `make bench` (bench/run lists it; not a test of make check):
# what protection costs the unprotected side.  See
# tests/guest/bench-cost-lib.sh.
. "$MSL_PAYLOAD/guest/bench-lib.sh"
. "$MSL_PAYLOAD/guest/bench-cost-lib.sh"
bench_cost
