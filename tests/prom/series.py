#!/usr/bin/python3
"""tests/prom/series.py INSTANCE FILE...: the textfiles memcg-softlimit
wrote, one per minute in this order, as promtool's input_series (the
lines of a rule test's YAML), as a scrape of each would have given them:
every series gets the instance and job labels; a series missing from a
file is "_" (no sample) there.  An independent parser of the format (the
exposition's "name{labels} value" lines), not the tool's."""
import re
import sys

LINE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$')


def main(argv):
    instance, files = argv[1], argv[2:]
    series = {}
    order = []
    for step, path in enumerate(files):
        with open(path) as f:
            for line in f:
                line = line.rstrip("\n")
                if not line or line.startswith("#"):
                    continue
                m = LINE.match(line)
                if not m:
                    sys.exit("%s: not a sample: %r" % (path, line))
                name, labels, value = m.group(1), m.group(3), m.group(4)
                extra = 'instance="%s",job="node"' % instance
                key = "%s{%s}" % (name, labels + "," + extra if labels else extra)
                if key not in series:
                    series[key] = ["_"] * len(files)
                    order.append(key)
                series[key][step] = value
    for key in order:
        print("      - series: '%s'" % key.replace("'", "''"))
        print("        values: '%s'" % " ".join(series[key]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
