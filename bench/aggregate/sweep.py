"""The sweep part (bench-sweep.sh): the isolation scenario at each
priority_threshold and other settings of the module, rows labelled
"threshold=N" or "<param>=<value>" among the isolation records."""
import os

from .common import cfg_key
from .iso import iso_table, threshold_value


def rows(iso):
    """(the variant the sweep ran with, its rows)"""
    # the sweep runs with the bench's reader: page cache read with read(2)
    # (file-read) by default, through mmap (file) with MSL_BENCH_READER=mmap
    sweep_variant = "file-read" if any(k[1] == "file-read" and k[2].startswith("threshold=") for k in iso) else "file"
    return sweep_variant, {k: v for k, v in iso.items() if k[1] == sweep_variant}


def sections(sweep, sweep_variant, made):
    md = []
    if any(k[2].startswith("threshold=") for k in sweep):
        md.append("## priority_threshold sweep and other settings (page cache)\n")
        md.append(iso_table(sweep, sweep_variant,
                            labels=[k[2] for k in sweep if k[2].startswith("threshold=") or "=" in k[2]]))
        md.append("")
        if "sweep.png" in made:
            md.append("![sweep](sweep.png)\n")
    return md


def plots(d, plt, sweep):
    cfgs = sorted({k[0] for k in sweep if k[2].startswith("threshold=")}, key=cfg_key)
    if not cfgs:
        return []
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
    return ["sweep.png"]
