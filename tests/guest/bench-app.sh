#!/bin/bash
# configs: all
# timeout: 5400
# A part of `make bench` (bench/run lists it; not a test of make check):
# PostgreSQL and pgbench beside a batch job, tests/guest/bench-app-lib.sh.
# shellcheck disable=SC1091 # the payload, in the guest
. "$MSL_PAYLOAD/guest/bench-lib.sh"
# shellcheck disable=SC1091
. "$MSL_PAYLOAD/guest/bench-app-lib.sh"
bench_app
