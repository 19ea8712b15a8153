#!/usr/bin/env python3
"""bench/annotate.py: adds to each benchmark record (JSON lines on stdin)
what it was measured with: the commit, QEMU's version, and the host's
load while the configuration's guest ran (tests/vm/host-monitor.sh's
samples of the boot: the load average, the idle share of the host's CPUs,
and whether another guest ran beside it).  Writes the records to stdout.
"""
import argparse
import json
import re
import sys

SAMPLE = re.compile(r"load=([0-9.]+) cpu: us \d+ sy \d+ id (\d+) .*\| (.*)$")


def host_load(path, config):
    loads, idles, others = [], [], 0
    try:
        with open(path) as fh:
            for line in fh:
                m = SAMPLE.search(line)
                if not m or config not in m.group(3):
                    continue
                loads.append(float(m.group(1)))
                idles.append(int(m.group(2)))
                guests = [g for g in m.group(3).split(",") if g.strip()]
                others += any(config not in g for g in guests)
    except OSError:
        return None
    if not loads:
        return None
    return {"samples": len(loads), "load_mean": round(sum(loads) / len(loads), 2),
            "idle_pct_mean": round(sum(idles) / len(idles), 1), "samples_with_other_guests": others}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--commit", required=True)
    ap.add_argument("--qemu", default="")
    ap.add_argument("--host-load", default="")
    ap.add_argument("--config", required=True)
    a = ap.parse_args()
    load = host_load(a.host_load, a.config) if a.host_load else None
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            print("annotate.py: skipping a record that is not JSON: %s" % line[:80], file=sys.stderr)
            continue
        rec.setdefault("commit", a.commit)
        rec.setdefault("qemu", a.qemu)
        if load is not None:
            rec.setdefault("host_load", load)
        print(json.dumps(rec, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
