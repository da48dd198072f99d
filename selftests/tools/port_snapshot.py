#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""port_snapshot.py: one traffic class of many lossless ports, in one go.

    port_snapshot.py TC NS:DEV [NS:DEV...]

Prints one JSON object: for each "NS:DEV", the counters of traffic class
TC of the device's lossless root qdisc: those of `tc -s -j qdisc show`
(ecn_marked, pausing, wd_detected, ...) and, from `tc -s class show` of
class 1:(TC+1), "sent_packets", "class_drops" and "backlog" (bytes), plus
"qdisc_drops", the root qdisc's drops, and "link_drops", the device's
rx_dropped + tx_dropped (what a veth loses outside any qdisc: a full
receive backlog on its peer's side). A value that cannot be read is
missing, so that a test's lookup fails rather than reads 0. One process
for all the ports keeps a sample short in a slow VM.
"""
import json
import re
import subprocess
import sys

from tc_json import find

UNITS = {"": 1, "K": 1024, "M": 1024 ** 2, "G": 1024 ** 3}


def tc(ns, *args):
    out = subprocess.run(["ip", "netns", "exec", ns, "tc", *args],
                         capture_output=True, text=True, check=False)
    return out.stdout


def basic(text):
    """Sent packets, drops and backlog bytes of the first stats block."""
    r = {}
    m = re.search(r"Sent (\d+) bytes (\d+) pkt \(dropped (\d+)", text)
    if m:
        r["sent_packets"] = int(m.group(2))
        r["drops"] = int(m.group(3))
    m = re.search(r"backlog (\d+)([KMG]?)b (\d+)p", text)
    if m:
        r["backlog"] = int(m.group(1)) * UNITS[m.group(2)]
        r["qlen"] = int(m.group(3))
    return r


def links(ns):
    """Device statistics of a namespace, by name (one `ip` per namespace)."""
    out = subprocess.run(["ip", "-n", ns, "-s", "-j", "link", "show"],
                         capture_output=True, text=True, check=False).stdout
    try:
        return {l["ifname"]: l.get("stats64", {}) for l in json.loads(out)}
    except (ValueError, KeyError, TypeError):
        return {}


def snapshot(tcn, ns, dev, devstats):
    r = {}
    st = devstats.get(dev)
    if st and "rx" in st and "tx" in st:
        r["link_drops"] = st["rx"].get("dropped", 0) + st["tx"].get("dropped", 0)
    try:
        q = json.loads(tc(ns, "-s", "-j", "qdisc", "show", "dev", dev, "root"))
    except ValueError:
        q = None
    for c in find(q, "classes") or []:
        if c.get("tc") == tcn:
            r.update(c)
    d = find(q, "drops")
    if d is not None:
        r["qdisc_drops"] = d
    cl = basic(tc(ns, "-s", "class", "show", "dev", dev, "classid", "1:%d" % (tcn + 1)))
    if "drops" in cl:
        cl["class_drops"] = cl.pop("drops")
    r.update(cl)
    return r


def main():
    tcn = int(sys.argv[1])
    res, devstats = {}, {}
    for arg in sys.argv[2:]:
        ns, dev = arg.rsplit(":", 1)
        if ns not in devstats:
            devstats[ns] = links(ns)
        res[arg] = snapshot(tcn, ns, dev, devstats[ns])
    json.dump(res, sys.stdout)
    print()


if __name__ == "__main__":
    main()
