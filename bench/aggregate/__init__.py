"""bench/aggregate DIR: turn the bench records (DIR/<config>.jsonl, one
JSON object per line, written by bench/guest/bench-lib.sh) into
DIR/results.md, DIR/results.json and DIR/*.png.

A module per part of make bench (iso, cost, trees, overhead, scale,
sweep, anon, app: its rows, sections, plots and targets), what they share
in common.py (the records, the configurations in tests/matrix's order,
the statistics and how a figure is written), and report.py, which puts
them together.

Every figure is given with its spread: mean and [min-max] over repeated
runs, or median and [p10-p90] over traced calls.  All timings come from a
QEMU TCG guest: slow, noisy, and not comparable with native hardware; ratios
are taken between runs of the same boot.
"""
