#!/bin/bash
# configs: all
# timeout: 1800
# tcg: icount
# Booted with QEMU counting instructions (bench/run): the guest's clock
# follows the instructions its vCPUs ran, so that the times below compare
# instructions, which the host's load does not move.
# A part of `make bench` (bench/run lists it; not a test of make check).
# See bench/guest/bench-lib.sh.
. "$MSL_PAYLOAD/bench/bench-lib.sh"
bench_overhead
