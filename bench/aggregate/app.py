"""The app part (bench-app.sh, bench/guest/bench-app-lib.sh): PostgreSQL
under pgbench at a fixed rate while a batch job runs beside it, one record
per run; the service's latency and throughput before, during and after
the batch job, per protection."""
import os
import statistics
import textwrap
from collections import OrderedDict, defaultdict

from .common import cfg_key, fmt, spread

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
