"""The isolation part (bench-iso.sh): P's working set, protected by the
row's mechanism, while S streams page cache; P's page cache read through
mmap ("file") or with read(2) ("file-read", the reference scenario).  The
rows' names and order, and the table, serve the anon and sweep parts too
(the same records, another variant or label)."""
import os
import statistics
from collections import OrderedDict, defaultdict

from .common import cfg_key, first, fmt, spread

MODE_NAMES = OrderedDict([
    ("none", "no protection"),
    ("v1soft", "stock v1 soft limit (P 150M, S 0)"),
    ("low", "memory.low=150M"),
    ("msl", "memcg_softlimit (defaults, P soft 150M)"),
    ("msl-walk", "memcg_softlimit policy=walk (P soft 150M)"),
    ("msl-excess", "memcg_softlimit policy=excess (P soft 150M)"),
] + [("msl-t%d" % t, "memcg_softlimit priority_threshold=%d (P soft 150M)" % t) for t in range(12, -1, -1)])


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


def by_reader(iso):
    """The rows of the named modes read through mmap and with read(2)."""
    return ({k: v for k, v in iso.items() if k[1] == "file" and k[2] in MODE_NAMES},
            {k: v for k, v in iso.items() if k[1] == "file-read" and k[2] in MODE_NAMES})


def sections(recs, iso_file, iso_read, made):
    md = []
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
    return md


def bars(d, plt, data, variant, fname, title):
    """P kept per configuration, a bar per protection (mean, min-max):
    [fname], or [] when no row has the variant."""
    cfgs = sorted({k[0] for k in data if k[1] == variant}, key=cfg_key)
    if not cfgs:
        return []
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
    return [fname]


def plots(d, plt, iso_file, iso_read):
    return (bars(d, plt, iso_file, "file", "isolation-file.png",
                 "P (100 MiB page cache, soft limit/low 150M) while S streams page cache\n"
                 "mean and min-max over repeats; 512 MiB TCG guest") +
            bars(d, plt, iso_read, "file-read", "isolation-file-read.png",
                 "P (100 MiB page cache read with read(2), soft limit/low 150M) while S streams page cache\n"
                 "mean and min-max over repeats; 512 MiB TCG guest"))


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


def targets(iso):
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
    return out
