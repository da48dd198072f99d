#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""snap.py: one snapshot of a traffic class on lossless ports, as JSON.

    snap.py NS TC DEV [DEV...]

Prints {"t": seconds (CLOCK_MONOTONIC), "DEV": {counter: value, ...}, ...};
each DEV's own "t" is the middle of the tc call that read its counters,
"t_spread" that call's length (the counters were read somewhere inside).
with the counters of traffic class TC of the lossless root qdisc of each
DEV in namespace NS (`tc -s -j qdisc show`, one call per device), and the
class's fine queue histogram, "qhist_fine", which only its own dump has
(`tc -s class show ... classid 1:TC+1`, text: tc 6.1 has no JSON for
classes). The experiment takes one before and one after the measured
interval.
"""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "selftests", "tools"))
import qhist_fine  # noqa: E402
from tc_json import find  # noqa: E402


def tc(ns, *args):
    return subprocess.run(["ip", "netns", "exec", ns, "tc", "-s"] + list(args),
                          capture_output=True, text=True, check=True).stdout


def main():
    ns, tclass, devs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    snap = {"t": time.monotonic()}
    for dev in devs:
        # when the counters were read: inside the tc call, whose start
        # (a process or two, in a busy VM) can take a second
        t0 = time.monotonic()
        out = tc(ns, "-j", "qdisc", "show", "dev", dev, "root")
        t1 = time.monotonic()
        cls = [c for c in find(json.loads(out), "classes") or []
               if c.get("tc") == tclass]
        if not cls:
            sys.exit("snap.py: %s: no traffic class %d" % (dev, tclass))
        snap[dev] = cls[0]
        snap[dev]["t"] = (t0 + t1) / 2
        snap[dev]["t_spread"] = t1 - t0
        fine = qhist_fine.parse(tc(ns, "class", "show", "dev", dev,
                                   "classid", "1:%x" % (tclass + 1)))
        if fine:
            snap[dev]["qhist_fine"] = fine
    json.dump(snap, sys.stdout)
    print()


if __name__ == "__main__":
    main()
