"""The anon part (bench-anon.sh): the isolation scenario with anonymous
memory and swap, variant "anon" of the isolation records."""
from .common import first
from .iso import MODE_NAMES, bars, iso_table


def rows(iso):
    return {k: v for k, v in iso.items() if k[1] == "anon"}


def sections(recs, anon):
    if not anon:
        return []
    return ["## Isolation, anonymous memory and swap\n",
            "P holds a %s MiB anonymous set; S writes a %s MiB anonymous ring (per segment) so that the "
            "guest swaps; kept = P's anonymous pages (memory.stat) after each segment."
            % (first(recs, "iso", "ws_mib", "anon"), first(recs, "iso", "seg_mib", "anon")),
            "", iso_table(anon, "anon", names=MODE_NAMES), ""]


def plots(d, plt, anon):
    return bars(d, plt, anon, "anon", "isolation-anon.png",
                "P (anonymous set, swap) while S writes an anonymous ring\nmean and min-max over repeats")
