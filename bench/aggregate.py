#!/usr/bin/python3
"""bench/aggregate.py DIR: turn the bench records (DIR/<config>.jsonl, one
JSON object per line, written by bench/guest/bench-lib.sh) into
DIR/results.md, DIR/results.json and DIR/*.png.

Every figure is given with its spread: mean and [min-max] over repeated
runs, or median and [p10-p90] over traced calls.  All timings come from a
QEMU TCG guest: slow, noisy, and not comparable with native hardware; ratios
are taken between runs of the same boot.
"""
import glob
import json
import os
import statistics
import sys
import textwrap
from collections import OrderedDict, defaultdict

import cost

CONFIG_ORDER = ["6.1-v1-classic", "6.1-v2-classic", "6.12-v2-mglru", "6.12-v2-classic"]
MODE_NAMES = OrderedDict([
    ("none", "no protection"),
    ("v1soft", "stock v1 soft limit (P 150M, S 0)"),
    ("low", "memory.low=150M"),
    ("msl", "memcg_softlimit (defaults, P soft 150M)"),
    ("msl-walk", "memcg_softlimit policy=walk (P soft 150M)"),
    ("msl-excess", "memcg_softlimit policy=excess (P soft 150M)"),
] + [("msl-t%d" % t, "memcg_softlimit priority_threshold=%d (P soft 150M)" % t) for t in range(12, -1, -1)])
# policies besides the default v8 that the bench measures when the module
# accepts them (bench/guest/bench-lib.sh, bench_policies)
POLICIES = ("walk", "excess")
TCG = "QEMU TCG guest: times are slow and noisy, compare within a config only"


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


# ---------------------------------------------------------------- isolation
def iso_metrics(r):
    before = r.get("before_kib") or 0
    kept = r.get("kept_kib") or []
    seg = r.get("seg_mib", 0) * r.get("nseg", 0)
    sns = sum(r.get("stream_ns") or []) or None
    rr = r.get("reread_ns") or []
    mf = r.get("reread_majflt") or []
    return {
        "kept_pct": 100.0 * statistics.fmean(kept) / before if before and kept else None,
        "kept_first_pct": 100.0 * kept[0] / before if before and kept else None,
        "kept_min_pct": 100.0 * min(kept) / before if before and kept else None,
        "reread_ms": statistics.median(rr) / 1e6 if rr else None,
        "majflt": statistics.fmean(mf) if mf else None,
        "s_mibps": seg / (sns / 1e9) if sns else None,
        "low_events": r.get("low_events"),
        "skips": r.get("msl_skips"),
    }


def kswapd_priorities(recs):
    """(config, variant, label) -> pages kswapd scanned by priority, summed
    over the runs, from the records' kswapd_scanned_by_priority."""
    out = defaultdict(lambda: defaultdict(int))
    for r in recs:
        if r.get("part") != "iso" or not r.get("kswapd_scanned_by_priority"):
            continue
        k = (r["config"], r["variant"], r.get("label", r["mode"]))
        for item in str(r["kswapd_scanned_by_priority"]).split(","):
            prio, _, pages = item.partition(":")
            out[k][int(prio)] += int(pages or 0)
    return out


def priority_summary(by_prio):
    """The priority below which half of kswapd's scanning happened, and the
    lowest priority that took 1% or more of it."""
    total = sum(by_prio.values())
    if not total:
        return None, None
    acc, median = 0, None
    for prio in sorted(by_prio, reverse=True):
        acc += by_prio[prio]
        if median is None and acc * 2 >= total:
            median = prio
    lowest = min(p for p, n in by_prio.items() if n * 100 >= total)
    return median, lowest


def kprio_md(kp):
    md = ["## kswapd's reclaim priorities\n",
          "Pages kswapd scanned in inactive lists during each isolation row, by reclaim priority (the kernel's "
          "vmscan:mm_vmscan_lru_shrink_inactive, which MGLRU's eviction fires too): the priority at or above "
          "which half of it was scanned, and the lowest priority that took 1% or more.  The classic LRU's first "
          "pass is priority 12; MGLRU's kswapd starts lower.\n",
          "| config | variant | P's protection | median priority | lowest (>= 1%) | pages scanned |",
          "|---|---|---|---|---|---|"]
    for k in sorted(kp, key=lambda k: (cfg_key(k[0]), k[1], label_order(k[2]))):
        median, lowest = priority_summary(kp[k])
        md.append("| %s | %s | %s | %s | %s | %d |" % (k[0], k[1], MODE_NAMES.get(k[2], k[2]), median, lowest,
                                                    sum(kp[k].values())))
    md.append("")
    return md


def group_iso(recs, part="iso"):
    g = defaultdict(list)
    for r in recs:
        if r.get("part") != part:
            continue
        g[(r["config"], r["variant"], r.get("label", r["mode"]))].append(iso_metrics(r))
    out = {}
    for k, ms in g.items():
        out[k] = {m: spread([x[m] for x in ms]) for m in ms[0]}
    return out


def iso_table(iso, variant, labels=None, names=None):
    rows = []
    keys = sorted([k for k in iso if k[1] == variant], key=lambda k: (cfg_key(k[0]), label_order(k[2])))
    for k in keys:
        if labels and k[2] not in labels:
            continue
        s = iso[k]
        name = (names or {}).get(k[2], k[2])
        rows.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            k[0], name, fmt(s["kept_pct"], 0, "%"), fmt(s["kept_first_pct"], 0, "%"),
            fmt(s["reread_ms"], 0), fmt(s["majflt"], 0), fmt(s["s_mibps"], 0),
            s["kept_pct"]["n"] if s["kept_pct"] else 0))
    head = ("| config | P's protection | P kept (mean of segments) | P kept after 1st segment (idle) "
            "| P re-read ms (median) | P major faults per re-read | S MiB/s | runs |\n"
            "|---|---|---|---|---|---|---|---|")
    return head + "\n" + "\n".join(rows)


def threshold_value(text):
    """priority_threshold as a number: "auto" (the progress gate) sorts
    and plots beside 12, as 13."""
    return 13 if text == "auto" else int(text)


def label_order(label):
    order = list(MODE_NAMES)
    if label in order:
        return (0, order.index(label))
    if label.startswith("threshold="):
        return (1, -threshold_value(label.split("=")[1]))
    return (2, label)


# ------------------------------------------------------------ overhead
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


def overhead_rows(recs):
    fg = fg_index(recs)
    thr = defaultdict(lambda: defaultdict(dict))
    for r in recs:
        if r.get("part") == "throughput":
            thr[r["config"]][r["pair"]][r["arm"]] = r["stream_mib"] / (r["stream_ns"] / 1e9)
    out = {}
    cfgs = sorted({k[0] for k in fg} | set(thr), key=cfg_key)
    for c in cfgs:
        g0 = pick(fg, c, "stock", GATED)
        g1 = pick(fg, c, "loaded", GATED)
        # The decision in a run of its own where there is one (runs since
        # 2026-12-06); older runs traced it beside the other handlers.
        h = pick(fg, c, "handlers-v8", HANDLERS) or pick(fg, c, "handlers", HANDLERS)
        pass_begin = pick(fg, c, "handlers", ("shrink_node_pre",))
        stub = pick(fg, c, "handlers", STUBS)
        a_in = pick(fg, c, "accounting", ACCOUNT)
        a_ret = pick(fg, c, "accounting", ("account_return",))
        ratios = [p["loaded"] / p["unloaded"] for p in thr[c].values() if "loaded" in p and "unloaded" in p]
        clocks = {r.get("clock", "host") for r in recs if r.get("config") == c and r.get("part") in ("throughput", "fgraph")}
        o = {
            "clock": "/".join(sorted(clocks)) or "host",
            "throughput_ratio_ci": cost.bootstrap_median(ratios),
            "gated_func": (g0 or g1 or {}).get("func"),
            "gated_stock": g0, "gated_loaded": g1, "handler": h, "pass_begin": pass_begin,
            "stub": stub, "account_entry": a_in, "account_return": a_ret,
            "throughput_ratios": ratios, "throughput_ratio": spread(ratios),
            "throughput_unloaded_mibps": spread([p["unloaded"] for p in thr[c].values() if "unloaded" in p]),
            "throughput_loaded_mibps": spread([p["loaded"] for p in thr[c].values() if "loaded" in p]),
        }
        if h and g0:
            # time share: every gated call has one decision, so the ratio of
            # the means is the decisions' share of the time in gated calls
            o["decision_pct_of_gated"] = 100.0 * h["mean_ns"] / g0["mean_ns"]
            # the typical call: ratio of the medians
            o["decision_median_pct_of_gated"] = 100.0 * h["median_ns"] / g0["median_ns"]
            if stub:
                # function_graph's own entry and exit cost most of what it
                # measures of a handler this small: the empty skip stub,
                # traced in the same run, has the same cost and no body.
                o["decision_net_pct_of_gated"] = 100.0 * (h["mean_ns"] - stub["mean_ns"]) / g0["mean_ns"]
        if a_in and a_ret and g0:
            o["accounting_pct_of_gated"] = 100.0 * (a_in["mean_ns"] + a_ret["mean_ns"]) / g0["mean_ns"]
            if h:
                o["hooks_pct_of_gated"] = o["decision_pct_of_gated"] + o["accounting_pct_of_gated"]
                if stub:
                    o["hooks_net_pct_of_gated"] = 100.0 * (
                        h["mean_ns"] + a_in["mean_ns"] + a_ret["mean_ns"] - 3 * stub["mean_ns"]) / g0["mean_ns"]
        o["handler_by_policy"] = {"v8": h}
        for pol in POLICIES:
            hp = pick(fg, c, "handlers-" + pol, HANDLERS)
            if hp:
                o["handler_by_policy"][pol] = hp
        out[c] = o
    return out


def fgs(r):
    if r is None:
        return "n/a"
    return "%.1f [%.1f-%.1f] (%d calls)" % (r["median_ns"] / 1e3, r["p10_ns"] / 1e3, r["p90_ns"] / 1e3, r["calls"])


def fgm(r):
    return "n/a" if r is None else "%.1f" % (r["mean_ns"] / 1e3)


# ---------------------------------------------------------------- scale
def scale_rows(recs):
    fg = fg_index(recs)
    rows = defaultdict(list)
    for r in recs:
        if r.get("part") != "scale":
            continue
        c, n = r["config"], r["memcgs"]
        h = pick(fg, c, "scale-%d" % n, HANDLERS)
        row = dict(r)
        row["handler"] = h
        row["handler_by_policy"] = {pol: pick(fg, c, "scale-%d-%s" % (n, pol), HANDLERS) for pol in POLICIES}
        if not r.get("failed") and r.get("nr_tracked"):
            # (entries in the pool, allocated ahead for memcgs not yet met,
            # are freed too: older records have no "pooled")
            owned = r["slab_freed"] - r.get("pooled", 0)
            row["bytes_per_tracked"] = 256.0 * owned / r["nr_tracked"] if owned > 0 else None
        rows[c].append(row)
    return rows


# ---------------------------------------------------------------- trees
TREE_TITLES = OrderedDict([
    ("case1", "the patch's case 1 (A max: A1 over at 136 of 80, A2 40 of 48, B 80 of 128)"),
    ("case2", "the patch's case 2 (A over: 176 of 128; A1 136 of 80, A2 40 of 8000, B 80 of 128)"),
    ("a", "article (a): A over (4), A1 A2 B C under"),
    ("b", "article (b): A and A1 over"),
    ("c", "article (c): A under, A1 over, B over"),
    ("d", "article (d): A's limit 60 below its children's 64 + 64, A (96) over"),
    ("e", "article (e): nobody in the tree over (S, unset, is)"),
])


def tree_rows(recs):
    """(tree, config, mode, threshold) -> {"leaves": [...], "kept": [spread per leaf], ...}"""
    g = defaultdict(list)
    for r in recs:
        if r.get("part") == "trees":
            g[(r["tree"], r["config"], r["mode"], r.get("threshold", ""))].append(r)
    out = {}
    for k, rs in g.items():
        leaves = rs[0]["leaves"].split(",")
        out[k] = {
            "leaves": leaves,
            "before": [spread([r["before_mib"][i] for r in rs]) for i in range(len(leaves))],
            "kept": [spread([r["kept_mib"][i] for r in rs]) for i in range(len(leaves))],
            "skips": [sum(r["skips"][i] for r in rs) for i in range(len(leaves))],
            "reclaims": [sum(r["reclaims"][i] for r in rs) for i in range(len(leaves))],
            "n": len(rs),
        }
    return out


def tree_mode_key(k):
    mode, thr = k[2], k[3]
    order = ["stock", "v8"] + list(POLICIES)
    return (cfg_key(k[1]), -(int(thr) if str(thr).isdigit() else 99), order.index(mode) if mode in order else 9)


def trees_md(trees):
    md = []
    for tree, title in TREE_TITLES.items():
        keys = sorted([k for k in trees if k[0] == tree], key=tree_mode_key)
        if not keys:
            continue
        leaves = trees[keys[0]]["leaves"]
        md.append("### %s\n" % title)
        md.append("| config | protection | " + " | ".join("%s kept of MiB" % l for l in leaves) +
                  " | first-pass skips (%s) | runs |" % " / ".join(l.split("/")[-1] for l in leaves))
        md.append("|---|---|" + "---|" * len(leaves) + "---|---|")
        for k in keys:
            t = trees[k]
            prot = "stock (module unloaded)" if k[2] == "stock" else "%s, threshold %s" % (k[2], k[3])
            cells = []
            for kept, before in zip(t["kept"], t["before"]):
                if kept is None or before is None:
                    cells.append("n/a")
                elif kept["n"] == 1:
                    cells.append("%.0f of %.0f" % (kept["mean"], before["mean"]))
                else:
                    cells.append("%.0f [%.0f-%.0f] of %.0f" % (kept["mean"], kept["min"], kept["max"], before["mean"]))
            md.append("| %s | %s | %s | %s | %d |" % (
                k[1], prot, " | ".join(cells),
                "-" if k[2] == "stock" else " / ".join(str(x) for x in t["skips"]), t["n"]))
        md.append("")
    return md


# ---------------------------------------------------------------- plots
def plots(d, iso, sweep, scale, anon, iso_read, app=None):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("python3-matplotlib missing: no plots", file=sys.stderr)
        return []
    made = []
    if app:
        made += app_plots(d, app, plt)

    def bars(data, variant, fname, title):
        cfgs = sorted({k[0] for k in data if k[1] == variant}, key=cfg_key)
        if not cfgs:
            return
        modes = [m for m in MODE_NAMES if any((c, variant, m) in data for c in cfgs)]
        fig, ax = plt.subplots(figsize=(9, 4.5))
        w = 0.8 / max(1, len(modes))
        for i, m in enumerate(modes):
            xs, ys, lo, hi = [], [], [], []
            for j, c in enumerate(cfgs):
                s = data.get((c, variant, m), {}).get("kept_pct")
                if not s:
                    continue
                xs.append(j + i * w)
                ys.append(s["mean"])
                lo.append(s["mean"] - s["min"])
                hi.append(s["max"] - s["mean"])
            ax.bar(xs, ys, w, yerr=[lo, hi], capsize=3, label=MODE_NAMES[m])
        ax.set_xticks([j + w * (len(modes) - 1) / 2 for j in range(len(cfgs))])
        ax.set_xticklabels(cfgs)
        ax.set_ylabel("P's working set kept (%)")
        ax.set_ylim(0, 110)
        ax.axhline(95, color="grey", lw=0.8, ls="--")
        ax.set_title(title, fontsize=10)
        ax.legend(fontsize=8, loc="upper left")
        fig.tight_layout()
        fig.savefig(os.path.join(d, fname), dpi=110)
        plt.close(fig)
        made.append(fname)

    bars(iso, "file", "isolation-file.png",
         "P (100 MiB page cache, soft limit/low 150M) while S streams page cache\n"
         "mean and min-max over repeats; 512 MiB TCG guest")
    bars(iso_read, "file-read", "isolation-file-read.png",
         "P (100 MiB page cache read with read(2), soft limit/low 150M) while S streams page cache\n"
         "mean and min-max over repeats; 512 MiB TCG guest")
    bars(anon, "anon", "isolation-anon.png",
         "P (anonymous set, swap) while S writes an anonymous ring\nmean and min-max over repeats")

    cfgs = sorted({k[0] for k in sweep if k[2].startswith("threshold=")}, key=cfg_key)
    if cfgs:
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.2))
        for c in cfgs:
            ts = sorted([k[2].split("=")[1] for k in sweep if k[0] == c and k[2].startswith("threshold=")],
                        key=threshold_value, reverse=True)
            k = next(k for k in sweep if k[0] == c)
            for ax, met in ((a1, "kept_pct"), (a2, "s_mibps")):
                ys = [sweep[(c, k[1], "threshold=" + t)][met] for t in ts]
                ax.errorbar([threshold_value(t) for t in ts], [s["mean"] for s in ys],
                            yerr=[[s["mean"] - s["min"] for s in ys], [s["max"] - s["mean"] for s in ys]],
                            marker="o", capsize=3, label=c)
        for ax in (a1, a2):
            ax.set_xticks(range(13, -1, -1))
            ax.set_xticklabels(["auto"] + [str(t) for t in range(12, -1, -1)])
        a1.set_xlabel("priority_threshold")
        a1.set_ylabel("P kept (%)")
        a1.set_ylim(0, 110)
        a1.invert_xaxis()
        a2.set_xlabel("priority_threshold")
        a2.set_ylabel("S streaming MiB/s (TCG)")
        a2.invert_xaxis()
        a1.legend(fontsize=8)
        fig.suptitle("priority_threshold sweep (auto = the progress gate, the default; 12 = V8's first pass only); mean, min-max over repeats", fontsize=10)
        fig.tight_layout()
        fig.savefig(os.path.join(d, "sweep.png"), dpi=110)
        plt.close(fig)
        made.append("sweep.png")

    if any(any(r.get("handler") for r in rows) for rows in scale.values()):
        fig, ax = plt.subplots(figsize=(7, 4.2))
        for c in sorted(scale, key=cfg_key):
            rows = [r for r in sorted(scale[c], key=lambda r: r["memcgs"]) if r.get("handler")]
            if not rows:
                continue
            ax.errorbar([r["memcgs"] for r in rows], [r["handler"]["median_ns"] / 1e3 for r in rows],
                        yerr=[[(r["handler"]["median_ns"] - r["handler"]["p10_ns"]) / 1e3 for r in rows],
                              [(r["handler"]["p90_ns"] - r["handler"]["median_ns"]) / 1e3 for r in rows]],
                        marker="o", capsize=3, label=c)
        ax.set_xscale("log")
        ax.set_xlabel("memcgs (nested 1-8 deep)")
        ax.set_ylabel("decision handler, us (median, p10-p90)")
        ax.set_title("per-decision cost vs memcg count (function_graph, TCG)", fontsize=10)
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(os.path.join(d, "scale.png"), dpi=110)
        plt.close(fig)
        made.append("scale.png")
    return made


# ---------------------------------------------------------------- app
# The app part (bench/guest/bench-app-lib.sh): PostgreSQL under pgbench at a
# fixed rate while a batch job runs beside it; one record per run.
APP_PHASES = ("before", "during", "after")
APP_MODES = OrderedDict([
    ("none", "no protection"),
    ("v1soft", "stock v1 soft limits (svc %s, batch 0)"),
    ("low", "memory.low=%s"),
    ("msl", "memcg_softlimit at its defaults (svc soft limit %s)"),
])
# (round, workload) -> (section title, summary name); the cpu round is a
# control (a CPU-only batch job), which the targets do not cover
APP_ROUNDS = OrderedDict([
    (("file", "select"), ("page cache, pgbench select-only, beside tar", "page cache, select-only")),
    (("file", "tpcb"), ("page cache, pgbench TPC-B-like, beside tar", "page cache, TPC-B-like")),
    (("anon", "select"), ("shared_buffers (swap-backed), pgbench select-only, beside stress-ng --vm",
                          "shared_buffers, select-only")),
    (("cpu", "select"), ("the control: page cache, pgbench select-only, beside stress-ng --cpu 2 (CPU only)",
                         "CPU only (control)")),
])
APP_CONTROL_ROUNDS = {("cpu", "select")}


def app_mode_name(mode, prot):
    name = APP_MODES.get(mode, mode)
    return name % ("%sM" % prot) if "%s" in name else name


def app_metrics(r):
    """The figures of one run: per phase, and the ratios of the batch
    job's phase to the quiet one before it."""
    m = {}
    for ph in APP_PHASES:
        for k in ("tps", "p50_ms", "p99_ms", "max_ms"):
            m["%s_%s" % (k, ph)] = r.get("%s_%s" % (k, ph))
        m["majflt_" + ph] = r.get("majflt_" + ph)
        rd = r.get("svc_read_kib_" + ph, r.get("dev_read_kib_" + ph))
        m["read_mib_" + ph] = rd / 1024.0 if rd is not None else None
    m["p99_ratio"] = (m["p99_ms_during"] / m["p99_ms_before"]
                      if m["p99_ms_during"] is not None and m["p99_ms_before"] else None)
    m["tps_ratio"] = (m["tps_during"] / m["tps_before"]
                      if m["tps_during"] is not None and m["tps_before"] else None)
    ns = r.get("batch_ns")
    m["batch_rate"] = r.get("batch_amount", 0) / (ns / 1e9) if ns else None
    m["batch_s"] = ns / 1e9 if ns else None
    return m


def group_app(recs):
    """(config, round, workload, mode) -> {"metrics": spread of each figure
    over the repeats, "runs": records}; batch_vs_none is each run's batch
    rate over the mean of no protection's"""
    g = defaultdict(list)
    for r in recs:
        if r.get("part") == "app":
            g[(r["config"], r["round"], r["workload"], r["mode"])].append(r)
    out = {}
    for k, rs in g.items():
        ms = [app_metrics(r) for r in rs]
        out[k] = {"metrics": {f: spread([x[f] for x in ms]) for f in ms[0]}, "runs": rs}
    for k, v in out.items():
        none = out.get(k[:3] + ("none",))
        b, b0 = v["metrics"]["batch_rate"], none["metrics"]["batch_rate"] if none else None
        v["metrics"]["batch_vs_none"] = ({"mean": b["mean"] / b0["mean"], "min": b["min"] / b0["mean"],
                                          "max": b["max"] / b0["mean"], "n": b["n"], "median": b["median"] / b0["mean"]}
                                         if b and b0 and b0["mean"] else None)
    return out


def app_key(k):
    rounds = list(APP_ROUNDS)
    modes = list(APP_MODES)
    return (cfg_key(k[0]), rounds.index(k[1:3]) if k[1:3] in rounds else 9,
            modes.index(k[3]) if k[3] in modes else 9, k)


def app_series(runs):
    """p99 (ms) per bucket, the median over the runs, by bucket start (s
    from the batch job's start)"""
    by = defaultdict(list)
    for r in runs:
        for t, p in zip(r.get("ts_t") or [], r.get("ts_p99_ms") or []):
            by[t].append(p)
    ts = sorted(by)
    return ts, [statistics.median(by[t]) for t in ts]


def app_summary_md(app):
    """One row per configuration and round: what each protection made of
    the service's p99 and reads during the batch job, and the module's
    ratios (README's table)."""
    md = ["### Summary\n",
          "Means over the runs.  \"stock\": memory.low on cgroup v2, the kernel's own soft limits on v1.  Reads "
          "are svc's on v2, the data disk's on v1 (swap included: in the shared_buffers round they are mostly "
          "the batch job's swap-ins there, and svc's major faults tell what it lost).\n",
          "| config | round | p99 ms during: none / stock / module | svc reads MiB during: none / stock / module "
          "| svc major faults during: none / stock / module "
          "| module: p99 during/before, TPS during/before | batch job, module vs none |",
          "|---|---|---|---|---|---|---|"]
    cfgs = sorted({k[0] for k in app}, key=cfg_key)
    for c in cfgs:
        for rw, (_, short) in APP_ROUNDS.items():
            msl = app.get((c,) + rw + ("msl",))
            if not msl:
                continue
            stock = app.get((c,) + rw + ("low",)) or app.get((c,) + rw + ("v1soft",))
            by = [app.get((c,) + rw + ("none",)), stock, msl]

            def cell(v, f, d):
                x = v["metrics"][f] if v else None
                return ("%%.%df" % d) % x["mean"] if x else "-"
            m = msl["metrics"]
            md.append("| %s | %s | %s | %s | %s | %s, %s | %s |" % (
                c, short, " / ".join(cell(v, "p99_ms_during", 0) for v in by),
                " / ".join(cell(v, "read_mib_during", 1) for v in by),
                " / ".join(cell(v, "majflt_during", 0) for v in by), cell(msl, "p99_ratio", 2),
                cell(msl, "tps_ratio", 2), "%.2f" % m["batch_vs_none"]["mean"] if m["batch_vs_none"] else "-"))
    md.append("")
    return md


def app_md(app, made):
    md = ["## Applications: PostgreSQL beside a batch job\n"]
    r0 = next(iter(app.values()))["runs"][0]
    md.append("PostgreSQL (Debian's `postgresql`: 15 on Debian 12, 17 on 13) in cgroup svc, pgbench scale %s "
              "(%s MiB) at a fixed rate "
              "(%s of what it reached alone, %s clients) from cgroup client; the batch job in cgroup batch (no "
              "protection, nice 10) between a quiet phase before it and one after it.  The service's files, the "
              "batch job's tree and the swap file are on the guest's %s.  Latencies are pgbench's per-transaction "
              "log, from each transaction's scheduled start (queueing included); reads are svc's io.stat (v2) or the "
              "data disk's (v1; the batch job's tree is sparse, so they are the service's and swap's).  Each cell: "
              "mean [min-max] over the runs; \"during/before\" is the ratio of the batch job's phase to the quiet "
              "one before it, per run." % (
                  r0.get("scale"), r0.get("db_mib"), r0.get("load", "?"), r0.get("clients"), r0.get("disk")))
    md.append("")
    md.extend(app_summary_md(app))
    for rw, (title, _) in APP_ROUNDS.items():
        keys = sorted([k for k in app if k[1:3] == rw], key=app_key)
        if not keys:
            continue
        r1 = app[keys[0]]["runs"][0]
        md.append("### %s\n" % title)
        md.append("Batch job: %s; shared_buffers %s MiB.\n" % (r1.get("batch"), r1.get("shared_buffers_mib")))
        md.append("| config | protection | TPS before / during / after | p50 ms before / during | p99 ms before | "
                  "p99 ms during | p99 ms after | max ms during | p99 during/before | TPS during/before | "
                  "major faults during | reads MiB during | batch job (%s/s) | batch vs none | runs |"
                  % r1.get("batch_unit", ""))
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for k in keys:
            m = app[k]["metrics"]
            prot = app[k]["runs"][0].get("prot_mib")

            def mean(f, d=0):
                return ("%%.%df" % d) % m[f]["mean"] if m[f] else "n/a"
            md.append("| %s | %s | %s / %s / %s | %s / %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d |" % (
                k[0], app_mode_name(k[3], prot), mean("tps_before"), mean("tps_during"), mean("tps_after"),
                mean("p50_ms_before", 1), mean("p50_ms_during", 1), fmt(m["p99_ms_before"], 1),
                fmt(m["p99_ms_during"], 1), fmt(m["p99_ms_after"], 1), mean("max_ms_during", 0),
                fmt(m["p99_ratio"], 2), fmt(m["tps_ratio"], 2), mean("majflt_during"), mean("read_mib_during", 1),
                fmt(m["batch_rate"], 1), fmt(m["batch_vs_none"], 2), len(app[k]["runs"])))
        md.append("")
        fname = "app-p99-%s-%s.png" % rw
        if fname in made:
            md.append("![p99 over time, %s](%s)\n" % (title, fname))
    return md


def app_targets(app):
    """Issue 22's targets for the module at its defaults: p99 during the
    batch job <= 1.25 x before and TPS >= 0.9 x (where no protection shows
    the loss); against memory.low (v2) or stock v1 soft limits: at least as
    good on the classic LRU (p99 during within 10% or the ranges overlap),
    better on MGLRU (p99 during below 0.9 x); the batch job >= 0.9 x its
    throughput with no protection."""
    out = []
    for k in sorted([k for k in app if k[3] == "msl" and k[1:3] not in APP_CONTROL_ROUNDS], key=app_key):
        m = app[k]["metrics"]
        none = app.get(k[:3] + ("none",))
        ref_mode = "low" if k[:3] + ("low",) in app else "v1soft"
        ref = app.get(k[:3] + (ref_mode,))
        if not m["p99_ratio"] or not m["tps_ratio"]:
            continue
        s = "- %s, %s %s: module p99 during/before %.2f [%.2f-%.2f] (<= 1.25: %s), TPS during/before %.2f (>= 0.9: %s)" % (
            k[0], k[1], k[2], m["p99_ratio"]["mean"], m["p99_ratio"]["min"], m["p99_ratio"]["max"],
            "met" if m["p99_ratio"]["mean"] <= 1.25 else "MISSED",
            m["tps_ratio"]["mean"], "met" if m["tps_ratio"]["mean"] >= 0.9 else "MISSED")
        if none and none["metrics"]["p99_ratio"] and none["metrics"]["tps_ratio"]:
            nm = none["metrics"]
            loss = nm["p99_ratio"]["mean"] > 1.25 or nm["tps_ratio"]["mean"] < 0.9
            s += "; no protection: %.2f, TPS %.2f (%s)" % (
                nm["p99_ratio"]["mean"], nm["tps_ratio"]["mean"],
                "shows the loss" if loss else "no loss to protect against here")
        if ref and ref["metrics"]["p99_ms_during"] and m["p99_ms_during"]:
            rm = ref["metrics"]
            rname = "memory.low" if ref_mode == "low" else "stock v1 soft limits"
            a, b = m["p99_ms_during"]["mean"], rm["p99_ms_during"]["mean"]
            if "mglru" in k[0]:
                verdict = "better than %s: %s" % (rname, "met" if a < 0.9 * b else "MISSED")
            else:
                ok = a <= 1.1 * b or m["p99_ms_during"]["min"] <= rm["p99_ms_during"]["max"]
                verdict = "at least as good as %s: %s" % (rname, "met" if ok else "MISSED")
            s += "; p99 during %.1f ms vs %s's %.1f ms (%s)" % (a, rname, b, verdict)
        bv = m["batch_vs_none"]
        if bv:
            s += "; batch job at %.2f of its rate with no protection (>= 0.9: %s)" % (
                bv["mean"], "met" if bv["mean"] >= 0.9 else "MISSED")
        out.append(s)
    return out


def app_plots(d, app, plt):
    """One PNG per round/workload: p99 per bucket over time, one panel per
    config, one line per protection (median over the runs)"""
    made = []
    for rw, (title, _) in APP_ROUNDS.items():
        cfgs = sorted({k[0] for k in app if k[1:3] == rw}, key=cfg_key)
        if not cfgs:
            continue
        fig, axes = plt.subplots(1, len(cfgs), figsize=(4.2 * len(cfgs), 3.8), squeeze=False, sharey=True)
        bucket = 2
        for ax, c in zip(axes[0], cfgs):
            spans = []
            for mode in APP_MODES:
                v = app.get((c,) + rw + (mode,))
                if not v:
                    continue
                bucket = v["runs"][0].get("bucket_s", bucket)
                ts, p99 = app_series(v["runs"])
                if ts:
                    ax.plot(ts, p99, marker=".", lw=1.2, label=app_mode_name(mode, v["runs"][0].get("prot_mib")))
                spans += [r["batch_ns"] / 1e9 for r in v["runs"] if r.get("batch_ns")]
            if spans:
                ax.axvspan(0, statistics.median(spans), color="grey", alpha=0.15, lw=0)
            ax.set_yscale("log")
            ax.set_title(c, fontsize=9)
            ax.set_xlabel("s from the batch job's start (shaded: its median run)", fontsize=8)
            ax.legend(fontsize=6, loc="upper right")
        axes[0][0].set_ylabel("pgbench p99 latency, ms (per %s s)" % bucket)
        # wrapped to the figure's width: one panel is narrower than the title
        fig.suptitle("\n".join(textwrap.wrap("PostgreSQL p99 latency over time: %s (median of the runs; QEMU TCG "
                                             "guest)" % title, 55 * len(cfgs))), fontsize=9)
        fig.tight_layout()
        fname = "app-p99-%s-%s.png" % rw
        fig.savefig(os.path.join(d, fname), dpi=110)
        plt.close(fig)
        made.append(fname)
    return made


# ---------------------------------------------------------------- report
def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "."
    recs = load(d)
    if not recs:
        print("no records in %s" % d, file=sys.stderr)
        return 1
    iso = group_iso(recs)
    anon = {k: v for k, v in iso.items() if k[1] == "anon"}
    iso_file = {k: v for k, v in iso.items() if k[1] == "file" and k[2] in MODE_NAMES}
    iso_read = {k: v for k, v in iso.items() if k[1] == "file-read" and k[2] in MODE_NAMES}
    # the sweep runs with the bench's reader: page cache read with read(2)
    # (file-read) by default, through mmap (file) with MSL_BENCH_READER=mmap
    sweep_variant = "file-read" if any(k[1] == "file-read" and k[2].startswith("threshold=") for k in iso) else "file"
    sweep = {k: v for k, v in iso.items() if k[1] == sweep_variant}
    ovh = overhead_rows(recs)
    scale = scale_rows(recs)
    app = group_app(recs)
    made = plots(d, iso_file, sweep, scale, anon, iso_read, app)

    kernels = sorted({(r["config"], r.get("kernel", "?"), r.get("mem_mib")) for r in recs}, key=lambda x: cfg_key(x[0]))
    size = sorted({r.get("size") or "" for r in recs})
    md = []
    md.append("# memcg_softlimit benchmarks\n")
    md.append("Run: %s, size %s, generated by `make bench` (bench/run, bench/aggregate.py)."
              % (os.path.basename(os.path.abspath(d)), "/".join(s for s in size if s)))
    md.append("Guests: QEMU TCG (no KVM), 2 vCPUs; kernels: " +
              "; ".join("%s = %s (MemTotal %s MiB)" % k for k in kernels) + ".")
    md.append("**%s.** Spread: mean [min-max] over repeated runs, or median [p10-p90] over traced calls.\n" % TCG)

    if iso_file:
        md.append("## Isolation, page cache read through mmap\n")
        md.append("P loads a %s MiB working set (real file on the guest's disk, read through mmap) and is protected "
              "by the row's mechanism at 150 MiB; S streams %s segments of %s MiB of sparse-file page cache. "
              "After each segment P's residency is read (fincore) and P re-reads its set (time, major faults). "
              "\"kept after 1st segment\" is the reference scenario (P idle since it loaded its set)."
                  % (first(recs, "iso", "ws_mib"), first(recs, "iso", "nseg"), first(recs, "iso", "seg_mib")))
        md.append("")
        md.append(iso_table(iso_file, "file", names=MODE_NAMES))
        md.append("")
        if made and "isolation-file.png" in made:
            md.append("![isolation, page cache](isolation-file.png)\n")
    if iso_read:
        md.append("## Isolation, page cache read with read(2) (the reference scenario)\n")
        md.append("P loads a %s MiB working set (a real file on the guest's disk) with dd (read(2)), as in the "
                  "reference runs of shared/kernel-facts.md, and is protected by the row's mechanism at 150 MiB; "
                  "S streams %s segments of %s MiB of sparse-file page cache.  After each segment P's residency "
                  "is read (fincore) and P re-reads its set.  \"kept after 1st segment\" is the reference "
                  "scenario (P idle since it loaded its set).  P's pages are never mapped, so the LRU sees them "
                  "as it sees S's (use-once cache).  Misses are not faults here: the pages P had to read back "
                  "are 100%% minus kept."
                  % (first(recs, "iso", "ws_mib", "file-read"), first(recs, "iso", "nseg", "file-read"),
                     first(recs, "iso", "seg_mib", "file-read")))
        md.append("")
        md.append(iso_table(iso_read, "file-read", names=MODE_NAMES))
        md.append("")
        if "isolation-file-read.png" in made:
            md.append("![isolation, page cache, read(2)](isolation-file-read.png)\n")
    if anon:
        md.append("## Isolation, anonymous memory and swap\n")
        md.append("P holds a %s MiB anonymous set; S writes a %s MiB anonymous ring (per segment) so that the "
                  "guest swaps; kept = P's anonymous pages (memory.stat) after each segment."
                  % (first(recs, "iso", "ws_mib", "anon"), first(recs, "iso", "seg_mib", "anon")))
        md.append("")
        md.append(iso_table(anon, "anon", names=MODE_NAMES))
        md.append("")
    if any(k[2].startswith("threshold=") for k in sweep):
        md.append("## priority_threshold sweep and other settings (page cache)\n")
        md.append(iso_table(sweep, sweep_variant,
                            labels=[k[2] for k in sweep if k[2].startswith("threshold=") or "=" in k[2]]))
        md.append("")
        if "sweep.png" in made:
            md.append("![sweep](sweep.png)\n")

    kp = kswapd_priorities(recs)
    if kp:
        md.extend(kprio_md(kp))

    trees = tree_rows(recs)
    if trees:
        md.append("## Pages kept per policy on the three trees\n")
        md.append("Each tree is built, given its soft limits (v1: the kernel's own file, so \"stock\" on v1 is "
                  "the kernel's soft-limit reclaim; v2: the module's control file, and stock has none), its "
                  "leaves fill their page cache, and S (outside the tree, no soft limit: eligible, and over "
                  "for walk) streams %s MiB of sparse file; MiB of page cache each leaf kept, mean [min-max] over "
                  "the runs, and the module's first-pass skips of each leaf (its snapshot counters).  Policies: "
                  "README \"Policies\"." % first(recs, "trees", "stream_mib"))
        md.append("")
        md.extend(trees_md(trees))
    if ovh:
        md.extend(overhead_md(ovh))
    if scale:
        md.extend(scale_md(scale, made))
    if app:
        md.extend(app_md(app, made))
    cost_targets = []
    for part_md in (cost.cost_md, cost.dying_md, cost.isoswap_md):
        lines, t = part_md(recs, cfg_key)
        md.extend(lines)
        cost_targets.extend(t)

    notes = os.path.join(d, "NOTES.md")
    if os.path.exists(notes):
        with open(notes) as fh:
            md.append("## Notes on this run\n")
            md.append(fh.read().strip() + "\n")

    md.append("## Targets\n")
    md.extend(targets({**iso_file, **iso_read, **anon}, ovh, scale))
    md.extend(app_targets(app))
    md.extend(cost_targets)
    md.append("")

    with open(os.path.join(d, "results.md"), "w") as fh:
        fh.write("\n".join(md) + "\n")
    summary = {
        "note": TCG,
        "trees": {"|".join(str(x) for x in k): v for k, v in tree_rows(recs).items()},
        "isolation": {"|".join(k): v for k, v in iso.items()},
        "overhead": ovh,
        "scale": scale,
        "app": {"|".join(k): v["metrics"] for k, v in app.items()},
        "plots": made,
        "records": recs,
    }
    with open(os.path.join(d, "results.json"), "w") as fh:
        json.dump(summary, fh, indent=1, sort_keys=True, default=str)
    print("wrote %s/results.md, results.json%s" % (d, "".join(", " + m for m in made)))
    return 0


def overhead_md(ovh):
    md = []
    md.append("## Overhead\n")
    md.append("Per-decision cost: ftrace function_graph durations, in one boot, of the gated call (%s) with the "
              "module unloaded and loaded, and, in separate runs, of the module's kprobe pre-handler (the whole "
              "decision: policy, hierarchy walk, counters, the disabled tracepoint) and its accounting kretprobe "
              "handlers.  function_graph adds its own cost to every traced call; its floor is shown, "
              "where P's protection made skips, by the empty skip stub.  The pass-begin handler "
              "(shrink_node_pre: kswapd's round, and the check that something is eligible) runs once per node "
              "and pass, not per memcg.  kprobe/kretprobe dispatch itself is not in these durations; it is in the "
              "throughput ratio.  Throughput ratio: S streaming sparse-file cache with the module loaded "
              "(defaults, no soft limit set: every step decided, no outcome changed) over unloaded, pairs run "
              "ABBA-interleaved in one boot: the median of the pairs' ratios and its 95%% bootstrap interval.  "
              "Runs marked \"instructions counted\" booted with QEMU's -icount: the guest's clock followed the "
              "instructions its vCPUs ran, so times compare instructions." % "/".join(GATED))
    md.append("")
    md.append("| config | gated call us, stock: median [p10-p90] (calls) | gated call us, module loaded | "
              "decision handler us | handler / gated call (stock): ratio of means (of medians) | pass begin us (shrink_node_pre) / floor us (stub) | "
              "accounting us (entry+return mean) | throughput loaded/unloaded |")
    md.append("|---|---|---|---|---|---|---|---|")
    for c, o in ovh.items():
        md.append("| %s | %s | %s | %s | %s | %s / %s | %s | %s |" % (
            c, fgs(o["gated_stock"]), fgs(o["gated_loaded"]), fgs(o["handler"]),
            ("%.2f%% (medians: %.1f%%)" % (o["decision_pct_of_gated"], o["decision_median_pct_of_gated"]))
            if "decision_pct_of_gated" in o else "n/a",
            fgm(o["pass_begin"]), fgm(o["stub"]),
            ("%.1f + %.1f" % (us(o["account_entry"]), us(o["account_return"])))
            if o["account_entry"] and o["account_return"] else "n/a",
            (cost.fmt_ci(o["throughput_ratio_ci"], 3) if o["throughput_ratios"] else "n/a") +
            (" (%d pairs%s)" % (len(o["throughput_ratios"]),
                                ", instructions counted" if o["clock"] == "icount" else ""))))
    md.append("")
    if any(len(o["handler_by_policy"]) > 1 for o in ovh.values()):
        md.append("Decision handler by policy (same boot, same stream, one function_graph run each; the "
                  "share is of the gated call's stock mean):\n")
        md.append("| config | policy | decision handler us: median [p10-p90] (calls) | mean us | share of gated call |")
        md.append("|---|---|---|---|---|")
        for c, o in ovh.items():
            for pol, hp in o["handler_by_policy"].items():
                share = ("%.2f%%" % (100.0 * hp["mean_ns"] / o["gated_stock"]["mean_ns"])
                         if hp and o["gated_stock"] else "n/a")
                md.append("| %s | %s | %s | %s | %s |" % (c, pol, fgs(hp), fgm(hp), share))
        md.append("")
    return md


def scale_md(scale, made):
    md = []
    md.append("## Scale\n")
    md.append("N memcgs in chains nested 1 to 8 deep, empty (every decision walks its whole chain); S streams "
              "page cache.  Handler: function_graph of the decision handler during one stream.  Memory: "
              "kmalloc-256 objects freed by unloading the module (sizeof(struct msl_memcg) = 216, so one "
              "256-byte object per entry), less the pool's entries allocated ahead for memcgs not yet met "
              "(snapshot_done pooled), over the entries it tracked (snapshot_done nr_tracked); the module "
              "also has a fixed 4096-bucket hash table (32 KiB) and 256 pass slots (2 KiB).")
    md.append("")
    md.append("| config | memcgs | decision handler us: median [p10-p90] (calls) | mean us | tracked | untracked "
              "| slab objects freed | bytes per tracked memcg | mkdir time s |")
    md.append("|---|---|---|---|---|---|---|---|---|")
    for c in sorted(scale, key=cfg_key):
        for r in sorted(scale[c], key=lambda r: r["memcgs"]):
            if r.get("failed"):
                md.append("| %s | %d | creating them failed (%s made) | | | | | | |" % (c, r["memcgs"], r.get("created")))
                continue
            md.append("| %s | %d | %s | %s | %s | %s | %s | %s | %.1f |" % (
                c, r["memcgs"], fgs(r["handler"]), fgm(r["handler"]), r["nr_tracked"], r["untracked"],
                r["slab_freed"], "%.0f" % r["bytes_per_tracked"] if r.get("bytes_per_tracked") else "n/a",
                r["create_ns"] / 1e9))
    md.append("")
    if any(any(r.get("handler_by_policy", {}).values()) for rows in scale.values() for r in rows):
        md.append("Decision handler by policy at each size (walk also reads the deciding level's siblings, "
                  "cached per parent for a jiffy):\n")
        md.append("| config | memcgs | " + " | ".join("%s: median us [p10-p90] (calls)" % p
                                                   for p in ("v8",) + POLICIES) + " |")
        md.append("|---|---|" + "---|" * (1 + len(POLICIES)))
        for c in sorted(scale, key=cfg_key):
            for r in sorted(scale[c], key=lambda r: r["memcgs"]):
                if r.get("failed"):
                    continue
                md.append("| %s | %d | %s | %s |" % (c, r["memcgs"], fgs(r["handler"]),
                                                    " | ".join(fgs(r["handler_by_policy"].get(p)) for p in POLICIES)))
        md.append("")
    if "scale.png" in made:
        md.append("![scale](scale.png)\n")
    return md


def first(recs, part, key, variant="file"):
    for r in recs:
        if r.get("part") == part and r.get("variant", variant) == variant and key in r:
            return r[key]
    return "?"


def s_rate_verdict(m, low, lname, none):
    """Is S's rate with the module (row m) no worse than with the
    reference protection (row low)?"""
    # only comparable when both kept P: a reference that let S take P's
    # memory gave S more room to work in
    if low["kept_pct"]["mean"] < m["kept_pct"]["mean"] - 10:
        return ("not comparable: %s kept %.0f%% of P, so S also had P's memory there; against no "
                "protection S ran at %s MiB/s" % (lname, low["kept_pct"]["mean"],
                                                 fmt(none["s_mibps"]) if none else "n/a"))
    if m["s_mibps"]["mean"] >= low["s_mibps"]["mean"] * 0.97:
        return "met"
    if m["s_mibps"]["max"] >= low["s_mibps"]["min"]:
        return "MISSED on the means, ranges overlap (TCG noise)"
    return "MISSED"


def targets(iso, ovh, scale):
    out = []
    for c, v in sorted({(k[0], k[1]) for k in iso}, key=lambda x: (cfg_key(x[0]), x[1])):
        low = iso.get((c, v, "low")) or iso.get((c, v, "v1soft"))
        # the module at its defaults, then at each threshold row
        mods = ["msl"] + sorted((k[2] for k in iso if k[:2] == (c, v) and k[2].startswith("msl-t")),
                                key=label_order)
        for label in mods:
            m = iso.get((c, v, label))
            if not m or not m["kept_pct"]:
                continue
            s = "- %s, %s: module %s kept %.0f%% [%.0f-%.0f] (target >= 95%%: %s)" % (
                c, v, "at its defaults" if label == "msl" else "at priority_threshold=" + label[len("msl-t"):],
                m["kept_pct"]["mean"], m["kept_pct"]["min"], m["kept_pct"]["max"],
                "met" if m["kept_pct"]["min"] >= 95 else "MISSED")
            if low and low["kept_pct"]:
                lname = "memory.low" if (c, v, "low") in iso else "stock v1 soft limits"
                s += "; %s kept %.0f%% (module at least as much: %s)" % (
                    lname, low["kept_pct"]["mean"],
                    "met" if m["kept_pct"]["mean"] >= low["kept_pct"]["mean"] - 1 else "MISSED")
                if m["s_mibps"] and low["s_mibps"]:
                    s += "; S %.0f vs %.0f MiB/s (no worse than %s: %s)" % (
                        m["s_mibps"]["mean"], low["s_mibps"]["mean"], lname,
                        s_rate_verdict(m, low, lname, iso.get((c, v, "none"))))
            out.append(s)
    for c, o in ovh.items():
        if "decision_pct_of_gated" in o:
            out.append("- %s: decision handler time = %.2f%% of the time in gated calls (ratio of means; "
                       "target <= 1%%: %s); a typical call (ratio of medians): %.1f%%; both include "
                       "function_graph's own per-call cost (the empty stub: %s us)" % (
                           c, o["decision_pct_of_gated"], "met" if o["decision_pct_of_gated"] <= 1 else "MISSED",
                           o["decision_median_pct_of_gated"], fgm(o["stub"])))
        if "decision_net_pct_of_gated" in o:
            out.append("- %s: the same less function_graph's cost of an empty function (the skip stub, traced in "
                       "the same run: %s us mean): %.2f%% of the time in gated calls (an estimate; target <= 1%%: "
                       "%s)" % (c, fgm(o["stub"]), o["decision_net_pct_of_gated"],
                               "met" if o["decision_net_pct_of_gated"] <= 1 else "MISSED"))
        if "hooks_pct_of_gated" in o:
            out.append("- %s: all hooks of a gated call (decision + accounting kretprobe entry and return) = %.2f%% "
                       "of the time in gated calls (ratio of means; against the 1%% target: %s)" % (
                           c, o["hooks_pct_of_gated"], "met" if o["hooks_pct_of_gated"] <= 1 else "MISSED"))
        if "hooks_net_pct_of_gated" in o:
            out.append("- %s: the same less function_graph's cost of three empty functions: %.2f%% (an estimate; "
                       "against the 1%% target: %s)" % (
                           c, o["hooks_net_pct_of_gated"], "met" if o["hooks_net_pct_of_gated"] <= 1 else "MISSED"))
        if o["throughput_ratio"]:
            out.append("- %s: throughput ratio loaded/unloaded %.3f [%.3f-%.3f] over %d pairs (target >= 0.99: %s)" % (
                c, o["throughput_ratio"]["median"], o["throughput_ratio"]["min"], o["throughput_ratio"]["max"],
                o["throughput_ratio"]["n"], "met" if o["throughput_ratio"]["median"] >= 0.99 else "MISSED"))
    for c in sorted(scale, key=cfg_key):
        rows = [r for r in scale[c] if r.get("handler")]
        if len(rows) >= 2:
            meds = [r["handler"]["median_ns"] for r in rows]
            out.append("- %s: decision median from %.1f to %.1f us over %s memcgs (max/min %.2f; target flat)" % (
                c, min(meds) / 1e3, max(meds) / 1e3, "/".join(str(r["memcgs"]) for r in rows), max(meds) / min(meds)))
        # the slab difference is noise at a few entries: take the row that
        # tracked the most
        b = [r for r in scale[c] if r.get("bytes_per_tracked")]
        if b:
            r = max(b, key=lambda r: r["nr_tracked"])
            out.append("- %s: %.0f bytes per tracked memcg at %d tracked (kmalloc-256 objects freed at unload "
                       "over entries; one entry is a 256-byte object; target <= 64: %s)" % (
                           c, r["bytes_per_tracked"], r["nr_tracked"],
                           "met" if r["bytes_per_tracked"] <= 64 else "MISSED"))
        u = [r for r in scale[c] if r.get("untracked")]
        if u:
            out.append("- %s: untracked decisions (no entry to count them in: the reclaim path only takes "
                       "entries from the pool a work item fills ahead, one per live memcg not yet met plus 64 "
                       "spare, up to 8,192) at %s memcgs" % (
                           c, ", ".join("%d: %d tracked, %d untracked" % (r["memcgs"], r["nr_tracked"], r["untracked"])
                                        for r in sorted(u, key=lambda r: r["memcgs"]))))
    return out


if __name__ == "__main__":
    sys.exit(main())
