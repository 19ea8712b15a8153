"""The trees part (bench-trees.sh): the patch's two cases and the
article's trees a-e under stock and each policy; the MiB of page cache
each leaf kept."""
from collections import OrderedDict, defaultdict

from .common import POLICIES, cfg_key, first, spread

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


def sections(recs, trees):
    md = []
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
    return md
