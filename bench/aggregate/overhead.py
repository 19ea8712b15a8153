"""The overhead part (bench-overhead.sh): function_graph's durations of
the gated call, stock and with the module loaded, of the decision handler
(each policy in a run of its own) and of the accounting kretprobe; the
throughput of a stream loaded over unloaded, ABBA pairs in one boot."""
from collections import defaultdict

from .common import (ACCOUNT, GATED, HANDLERS, POLICIES, STUBS, bootstrap_median, cfg_key, fg_index, fgm, fgs,
                     fmt_ci, pick, spread, us)


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
            "throughput_ratio_ci": bootstrap_median(ratios),
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
            (fmt_ci(o["throughput_ratio_ci"], 3) if o["throughput_ratios"] else "n/a") +
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


def targets(ovh):
    out = []
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
    return out
