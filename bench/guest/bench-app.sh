#!/bin/bash
# configs: all
# timeout: 5400
# A part of `make bench` (bench/run lists it; not a test of make check):
# PostgreSQL and pgbench beside a batch job, bench/guest/bench-app-lib.sh.
# shellcheck disable=SC1091 # the payload, in the guest
. "$MSL_PAYLOAD/bench/bench-lib.sh"
# shellcheck disable=SC1091
. "$MSL_PAYLOAD/bench/bench-app-lib.sh"
# MSL_BENCH_APP_RUNS (bench/run): the runs, e.g. "cpu:select:none,msl"
read -r -a runs <<<"${MSL_BENCH_APP_RUNS:-}"
for spec in ${runs[@]+"${runs[@]}"}; do
	[[ $spec =~ ^(file|anon|cpu):(select|tpcb)(:(none|v1soft|low|msl)(,(none|v1soft|low|msl))*)?$ ]] ||
		fail "MSL_BENCH_APP_RUNS: '$spec' is not ROUND:WORKLOAD[:MODE,...] (rounds file anon cpu, workloads select tpcb, modes none v1soft low msl)"
done
bench_app ${runs[@]+"${runs[@]}"}
