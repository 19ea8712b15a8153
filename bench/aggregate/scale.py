"""The scale part (bench-scale.sh): 10 to 10,000 memcgs nested 1 to 8
deep; the decision handler's cost at each count (function_graph) and the
memory each tracked memcg costs."""
import os
from collections import defaultdict

from .common import HANDLERS, POLICIES, cfg_key, fg_index, fgm, fgs, pick


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


def plots(d, plt, scale):
    if not any(any(r.get("handler") for r in rows) for rows in scale.values()):
        return []
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
    return ["scale.png"]


def targets(scale):
    out = []
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
