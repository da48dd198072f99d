#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""class_stats.py: per-class counters of lossless root qdiscs, many at once.

    class_stats.py NS TC FIELD[,FIELD...] DEV [DEV...]

For traffic class TC of the lossless root qdisc of each DEV in network
namespace NS (from `tc -s -j qdisc show`), prints one line per FIELD:
"FIELD SUM MAX", the sum and the largest value over the devices. A missing
qdisc or field prints -1 for both, so that a comparison fails.
"""
import json
import subprocess
import sys

from tc_json import find


def classes(ns, dev):
    out = subprocess.run(["ip", "netns", "exec", ns, "tc", "-s", "-j", "qdisc", "show",
                          "dev", dev, "root"], capture_output=True, text=True, check=False)
    try:
        return find(json.loads(out.stdout), "classes") or []
    except ValueError:
        return []


def main():
    ns, tc, fields, devs = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(","), sys.argv[4:]
    per_dev = [[c for c in classes(ns, d) if c.get("tc") == tc] for d in devs]
    for f in fields:
        vals = [c[0].get(f) for c in per_dev if c]
        if len(vals) != len(devs) or any(v is None for v in vals):
            print(f, -1, -1)
        else:
            print(f, sum(vals), max(vals))


if __name__ == "__main__":
    main()
