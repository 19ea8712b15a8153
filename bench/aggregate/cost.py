"""The cost part (bench-cost.sh, bench/guest/bench-cost-lib.sh): the tables
of its parts cost, dying and isoswap: what protection costs the
unprotected side.

Ratios are taken against stock (mode none) within the same boot and the
same repeat: the rounds of a repeat run back to back in a rotated order,
so a ratio pairs rounds a few seconds apart.  Each cell gives the median
of those paired ratios and a 95% bootstrap interval of that median (2,000
resamples, a fixed seed: the same records give the same interval).
"""
import statistics

from .common import bootstrap_median, cfg_key, fmt_ci, fmt_spread

MODE_ORDER = ["none", "again", "v1soft", "low", "min", "msl"]
MODE_NAMES = {"none": "stock", "again": "stock again (A/A)", "v1soft": "v1 soft limits",
              "low": "memory.low", "min": "memory.min", "msl": "module"}
SHAPE_NAMES = {"t24": "anonymous, no swap (t-24)", "hot": "a hot working set",
               "swap": "anonymous, swap on"}
TARGET = 1.25


def group(recs, part):
    out = {}
    for r in recs:
        if r.get("part") != part:
            continue
        key = (r["config"], r.get("shape", ""), r["mode"])
        out.setdefault(key, []).append(r)
    return out


def paired_ratios(cells, cfg, shape, mode, metric):
    """metric(mode's round) / metric(stock's round of the same repeat)."""
    base = {r["run"]: r for r in cells.get((cfg, shape, "none"), [])}
    out = []
    for r in cells.get((cfg, shape, mode), []):
        b = base.get(r["run"])
        if b is None:
            continue
        num, den = metric(r), metric(b)
        if num is None or den is None or den <= 0:
            continue
        out.append(num / den)
    return out


def alloc_ms(r):
    return r.get("alloc_ms")


def psi_full(r):
    # A stall of under 10 ms in all is no stall: do not divide by noise.
    return max(r.get("psi_full_us", 0), 10000)


def kswapd_per_mib(r):
    mib = r.get("reclaimed_pages", 0) / 256.0
    if mib < 1:
        return None
    return max(r.get("kswapd_cpu_ms", 0), 10) / mib


def cost_md(recs):
    cells = group(recs, "cost")
    if not cells:
        return [], []
    md, targets = [], []
    md.append("## What protection costs the unprotected side\n")
    md.append("P1 and P2 hold 110 MiB of page cache each, protected by the row's mechanism; E, an eligible "
              "neighbour over its soft limit, holds 80 MiB of anonymous memory without swap (t24), re-reads a "
              "48 MiB file (hot) or holds the 80 MiB with a swap file on (swap); a writer in the root cgroup "
              "allocates 280 MiB of shmem.  Per mode: the allocation's time in ms, median [min-max] over the "
              "repeats; its ratio to stock's round of the same repeat, and the ratios of the guest's PSI memory "
              "`full` stall and of kswapd's CPU time per MiB reclaimed, each the median of the paired ratios "
              "with a 95% bootstrap interval; OOM kills in all; MiB of P's 220 kept, median.  \"stock again\" is "
              "stock run a second time in each repeat: its ratios are what a ratio of two identical rounds "
              "looks like in this boot (the A/A control).\n")
    configs = sorted({k[0] for k in cells}, key=cfg_key)
    for cfg in configs:
        md.append("### %s\n" % cfg)
        md.append("| shape | mode | runs | allocation ms | x stock | PSI full x stock | kswapd ms/MiB x stock | OOM kills | P kept MiB |")
        md.append("|---|---|---|---|---|---|---|---|---|")
        shapes = [s for s in ("t24", "hot", "swap") if any(k[0] == cfg and k[1] == s for k in cells)]
        for shape in shapes:
            for mode in MODE_ORDER:
                rs = cells.get((cfg, shape, mode))
                if not rs:
                    continue
                ratio = bootstrap_median(paired_ratios(cells, cfg, shape, mode, alloc_ms))
                psi = bootstrap_median(paired_ratios(cells, cfg, shape, mode, psi_full))
                ksw = bootstrap_median(paired_ratios(cells, cfg, shape, mode, kswapd_per_mib))
                ooms = sum(r.get("oom_kills", 0) for r in rs)
                stock_ooms = sum(r.get("oom_kills", 0) for r in cells.get((cfg, shape, "none"), []))
                md.append("| %s | %s | %d | %s | %s | %s | %s | %d | %s |" % (
                    SHAPE_NAMES.get(shape, shape), MODE_NAMES.get(mode, mode), len(rs),
                    fmt_spread([r["alloc_ms"] for r in rs]),
                    "1" if mode == "none" else fmt_ci(ratio),
                    "1" if mode == "none" else fmt_ci(psi),
                    "1" if mode == "none" else fmt_ci(ksw),
                    ooms, fmt_spread([r.get("p_kept_mib", 0) for r in rs])))
                if mode != "msl":
                    continue
                for name, t in (("allocation time", ratio), ("PSI memory full", psi),
                                ("kswapd CPU per MiB", ksw)):
                    if t[0] is None:
                        continue
                    verdict = "met" if t[0] <= TARGET else "missed"
                    targets.append("- %s, %s: %s %s x stock (target <= %.2f): %s"
                                   % (cfg, shape, name, fmt_ci(t), TARGET, verdict))
                targets.append("- %s, %s: OOM kills %d against stock's %d: %s"
                               % (cfg, shape, ooms, stock_ooms, "met" if ooms <= stock_ooms else "missed"))
        md.append("")
    return md, targets


def dying_md(recs):
    cells = group(recs, "dying")
    if not cells:
        return [], []
    md = ["## A removed cgroup under a protected parent\n",
          "web (protected by the row's mechanism) holds web/old's 64 MiB of page cache, charged to a dying "
          "memcg once web/old is removed, and web/live's 64 MiB; S streams 1.5 GiB.  The share of the dying "
          "memcg's page cache reclaimed and of web/live's kept, median [min-max].\n",
          "| config | mode | runs | dying memcg reclaimed % | live sibling kept % |", "|---|---|---|---|---|"]
    targets = []
    for cfg in sorted({k[0] for k in cells}, key=cfg_key):
        for mode in MODE_ORDER:
            rs = cells.get((cfg, "", mode))
            if not rs:
                continue
            gone = [100.0 * (1 - r["dying_after_mib"] / r["dying_before_mib"]) for r in rs if r.get("dying_before_mib")]
            kept = [100.0 * r["live_after_mib"] / r["live_before_mib"] for r in rs if r.get("live_before_mib")]
            md.append("| %s | %s | %d | %s | %s |" % (cfg, MODE_NAMES.get(mode, mode), len(rs),
                                                     fmt_spread(gone), fmt_spread(kept)))
            if mode == "msl" and gone and kept:
                ok = min(gone) >= 90 and min(kept) >= 95
                targets.append("- %s, dying: %.0f%% of the dying memcg reclaimed (least %.0f%%), live sibling kept "
                               "%.0f%% (least %.0f%%); target >= 90%% and >= 95%% in every run: %s"
                               % (cfg, statistics.median(gone), min(gone), statistics.median(kept), min(kept),
                                  "met" if ok else "missed"))
    md.append("")
    return md, targets


def isoswap_md(recs):
    cells = group(recs, "isoswap")
    if not cells:
        return [], []
    md = ["## Isolation with swap beside swappable neighbours\n",
          "P1 and P2 fill 100 MiB of page cache each beside N's 200 MiB of shmem, a swap file on; then W "
          "writes 120 MiB more shmem than the guest has room for and S streams 1 GiB.  % of P's 200 MiB kept "
          "as filled and at the end, median [min-max], and MiB swapped out (or stored by zswap).\n",
          "| config | mode | runs | kept as filled % | kept at the end % | swapped out MiB |", "|---|---|---|---|---|---|"]
    targets = []
    for cfg in sorted({k[0] for k in cells}, key=cfg_key):
        ends = {}
        for mode in MODE_ORDER:
            rs = cells.get((cfg, "", mode))
            if not rs:
                continue
            filled = [100.0 * r["kept_filled_mib"] / r["total_mib"] for r in rs]
            end = [100.0 * r["kept_mib"] / r["total_mib"] for r in rs]
            ends[mode] = end
            md.append("| %s | %s | %d | %s | %s | %s |" % (cfg, MODE_NAMES.get(mode, mode), len(rs),
                                                          fmt_spread(filled), fmt_spread(end),
                                                          fmt_spread([r["swapout_pages"] for r in rs], 0, 1 / 256.0)))
        if "msl" in ends:
            m = statistics.median(ends["msl"])
            ref = "low" if "low" in ends else "v1soft" if "v1soft" in ends else None
            ok = m >= 95 and (ref is None or m >= statistics.median(ends[ref]) - 1)
            targets.append("- %s, isolation with swap: module kept %.0f%%%s; target >= 95%% and at least %s's: %s"
                           % (cfg, m, "" if ref is None else ", %s %.0f%%" % (MODE_NAMES[ref], statistics.median(ends[ref])),
                              MODE_NAMES.get(ref, "the stock mechanism"), "met" if ok else "missed"))
    md.append("")
    return md, targets


def sections(recs):
    """The three parts' sections, and their targets."""
    md, targets = [], []
    for part_md in (cost_md, dying_md, isoswap_md):
        lines, t = part_md(recs)
        md.extend(lines)
        targets.extend(t)
    return md, targets
