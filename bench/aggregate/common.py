"""What the parts share: the records (load), the configurations' order
(tests/matrix's), the statistics (spread, a median's bootstrap interval),
how a figure is written (fmt, fmt_ci, fmt_spread; fgs and fgm for
function_graph's records, which the overhead and scale parts read), and
matplotlib.

Every figure is given with its spread: mean and [min-max] over repeated
runs, or median and [p10-p90] over traced calls.
"""
import glob
import json
import os
import random
import statistics
import sys
from collections import defaultdict

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TCG = "QEMU TCG guest: times are slow and noisy, compare within a config only"
# policies besides the default v8 that the bench measures when the module
# accepts them (bench/guest/bench-lib.sh, bench_policies)
POLICIES = ("walk", "excess")


def matrix_rows(path=None):
    """The row names of tests/matrix (MSL_MATRIX overrides the file, as for
    tests/vm/common.sh), in its order, which every table follows."""
    path = path or os.environ.get("MSL_MATRIX") or os.path.join(REPO, "tests", "matrix")
    rows = []
    try:
        with open(path) as fh:
            for line in fh:
                words = line.split("#", 1)[0].split()
                if words and words[0] != "set":
                    rows.append(words[0])
    except OSError as e:
        print("%s: configurations in the order the records give them" % e, file=sys.stderr)
    return rows


CONFIG_ORDER = matrix_rows()


def label_guest_sizes(recs):
    """A run may hold one configuration at several guest sizes (the
    machine-size part of the isolation bench): those records name their
    size in their config, e.g. "6.12-v2-mglru, 2 GiB"."""
    sizes = defaultdict(set)
    for r in recs:
        sizes[r.get("config")].add(guest_gib(r))
    for r in recs:
        if len(sizes[r.get("config")]) > 1:
            r["config"] = "%s, %s GiB" % (r["config"], guest_gib(r))
    return recs


def guest_gib(r):
    """The guest's size in GiB as booted (MemTotal is a little less)."""
    mem = r.get("mem_mib") or 0
    for gib in (0.5, 1, 2, 4, 8, 16):
        if mem <= gib * 1024:
            return ("%g" % gib)
    return "%d" % round(mem / 1024)


def load(d):
    recs = []
    for f in sorted(glob.glob(os.path.join(d, "*.jsonl"))):
        with open(f) as fh:
            for line in fh:
                line = line.strip()
                if not line.startswith("{"):
                    continue
                try:
                    recs.append(json.loads(line))
                except json.JSONDecodeError:
                    print("skipping a malformed record in %s: %.80s" % (f, line), file=sys.stderr)
    return label_guest_sizes(recs)


def cfg_key(c):
    base, _, gib = c.partition(", ")
    return (CONFIG_ORDER.index(base) if base in CONFIG_ORDER else 99,
            float(gib.split()[0]) if gib else 0)


def spread(vals):
    vals = [v for v in vals if v is not None]
    if not vals:
        return None
    return {"mean": statistics.fmean(vals), "min": min(vals), "max": max(vals), "n": len(vals),
            "median": statistics.median(vals)}


def fmt(s, digits=0, unit=""):
    if s is None:
        return "n/a"
    f = "%%.%df" % digits
    if s["n"] == 1:
        return (f % s["mean"]) + unit + " (n=1)"
    return "%s%s [%s-%s]" % (f % s["mean"], unit, f % s["min"], f % s["max"])


def first(recs, part, key, variant="file"):
    for r in recs:
        if r.get("part") == part and r.get("variant", variant) == variant and key in r:
            return r[key]
    return "?"


def pyplot():
    """matplotlib's pyplot, drawing to files, or None (no plots)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("python3-matplotlib missing: no plots", file=sys.stderr)
        return None
    return plt


# ------------------------------------------------- paired ratios' intervals
def bootstrap_median(vals, n=2000, seed=1):
    """The median of @vals and a 95% percentile-bootstrap interval of it."""
    if not vals:
        return None, None, None
    med = statistics.median(vals)
    if len(vals) < 2:
        return med, med, med
    rng = random.Random(seed)
    meds = sorted(statistics.median(rng.choices(vals, k=len(vals))) for _ in range(n))
    return med, meds[int(0.025 * n)], meds[int(0.975 * n) - 1]


def fmt_ci(t, digits=2):
    med, lo, hi = t
    if med is None:
        return "-"
    return "%.*f [%.*f-%.*f]" % (digits, med, digits, lo, digits, hi)


def fmt_spread(vals, digits=0, scale=1.0):
    if not vals:
        return "-"
    vals = [v * scale for v in vals]
    return "%.*f [%.*f-%.*f]" % (digits, statistics.median(vals), digits, min(vals), digits, max(vals))


# ------------------------------------------------ function_graph's records
def fg_index(recs):
    fg = {}
    for r in recs:
        if r.get("part") == "fgraph":
            fg[(r["config"], r["label"], r["func"])] = r
    return fg


# The names the functions had in each version of the module: records of
# older runs keep theirs (try_to_shrink_lruvec, the handlers that decided).
GATED = ("shrink_lruvec", "shrink_one", "try_to_shrink_lruvec")
HANDLERS = ("msl_gate_step", "shrink_lruvec_pre", "try_to_shrink_lruvec_pre")
ACCOUNT = ("account_entry_lruvec", "account_entry_one", "account_entry_classic", "account_entry_mglru")
STUBS = ("skip_shrink_lruvec", "skip_shrink_one", "skip_try_to_shrink_lruvec")


def pick(fg, cfg, label, names):
    for n in names:
        if (cfg, label, n) in fg:
            return fg[(cfg, label, n)]
    return None


def us(r, k="mean_ns"):
    return None if r is None else r[k] / 1000.0


def fgs(r):
    if r is None:
        return "n/a"
    return "%.1f [%.1f-%.1f] (%d calls)" % (r["median_ns"] / 1e3, r["p10_ns"] / 1e3, r["p90_ns"] / 1e3, r["calls"])


def fgm(r):
    return "n/a" if r is None else "%.1f" % (r["mean_ns"] / 1e3)
