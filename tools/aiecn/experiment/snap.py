#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""snap.py: one snapshot of a traffic class on lossless ports, as JSON.

    snap.py NS TC DEV [DEV...]

Prints {"t": seconds (CLOCK_MONOTONIC), "DEV": {counter: value, ...}, ...}
with the counters of traffic class TC of the lossless root qdisc of each
DEV in namespace NS (`tc -s -j qdisc show`, one call per device). The
experiment takes one before and one after the measured interval.
"""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "selftests", "tools"))
from tc_json import find  # noqa: E402


def main():
    ns, tc, devs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    snap = {"t": time.monotonic()}
    for dev in devs:
        out = subprocess.run(["ip", "netns", "exec", ns, "tc", "-s", "-j", "qdisc", "show",
                              "dev", dev, "root"], capture_output=True, text=True, check=True)
        cls = [c for c in find(json.loads(out.stdout), "classes") or [] if c.get("tc") == tc]
        if not cls:
            sys.exit("snap.py: %s: no traffic class %d" % (dev, tc))
        snap[dev] = cls[0]
    json.dump(snap, sys.stdout)
    print()


if __name__ == "__main__":
    main()
