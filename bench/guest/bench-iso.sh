#!/bin/bash
# configs: all
# timeout: 1800
# A part of `make bench` (bench/run lists it; not a test of make check).
# See bench/guest/bench-lib.sh.
. "$MSL_PAYLOAD/bench/bench-lib.sh"
bench_iso file
