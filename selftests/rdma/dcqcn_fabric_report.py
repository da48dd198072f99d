#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""dcqcn_fabric_report.py: the results of the DCQCN experiment.

    dcqcn_fabric_report.py LOG DIR

LOG is the output of scripts/vm-multi for dcqcn_fabric.topo, DIR the run's
shared directory ($VM_OUT): sw-RUN.dat (the switch, every 100 ms: the
backlog, ingress bytes and pausing of sw-rx, to-s1 and to-s2, then each
one's rx and tx bytes), s1-RUN.dat and s2-RUN.dat (each sender's QP: rate,
target, alpha) and clock-ROLE-I (a guest's wall clock just before the host
stamped the file). For RUN in off and on it prints the switch's XOFF
frames and drops, each sender's rate and the bottleneck's utilization over
the time both sent, Jain's index and the switch queue's mean and 99th
percentile, then "pass" or "fail" against the issue's targets: in both
runs both senders sending for at least 80% of perftest's time and nothing
lost; with DCQCN XOFF frames at most 5% of the run without, Jain at least
0.95 and utilization at least 90%. Each target missed is a "why: " line
before the verdict.

It also writes, for the plot, DIR/plot-RUN.dat: "t s1 s2 queue" (seconds
from the start of the time both sent, each sender's Mbit/s at the switch
over 200 ms, the queue in KiB) and DIR/rate-SENDER-RUN.dat: "t rate target
alpha" (Mbit/s, alpha in 0..1) on the same clock.
"""
import glob
import os
import re
import sys

# columns of sw-RUN.dat: t, then per port (sw-rx, to-s1, to-s2)
# backlog ingress pausing rx_bytes tx_bytes
QUEUE, TX_BOTTLENECK, RX_S1, RX_S2 = 1, 5, 9, 14
# columns of SENDER-RUN.dat: t backlog ingress pausing rate target alpha
RATE, TARGET, ALPHA = 4, 5, 6
ACTIVE = 0.05		# a sender sends: above 5% of the bottleneck
OVERLAP = 0.8		# of perftest's time, both senders send
BIN = 0.5		# s, to find the time both sent
PLOT_BIN = 0.2		# s, the plot's rates


def val(log, role, key):
    m = re.findall(r"^\[%s\] dcqcn_fabric.sh: %s: %s (\S+)$" % (role, role, key), log, re.M)
    return m[-1] if m else None


def offset(d, role):
    """host clock - role's clock, from the stamped clock files"""
    best = None
    for f in glob.glob(os.path.join(d, "clock-%s-*" % role)):
        try:
            guest = float(open(f).read())
        except ValueError:
            continue
        diff = os.stat(f).st_mtime - guest
        best = diff if best is None else min(best, diff)
    return best or 0.0


def rows(path, shift):
    res = []
    if not os.path.exists(path):
        return res
    for line in open(path):
        f = line.split()
        try:
            r = [float(x) for x in f]
        except ValueError:
            continue
        r[0] += shift
        res.append(r)
    return res


def at(samples, t):
    """the last sample at or before t"""
    last = samples[0]
    for s in samples:
        if s[0] > t:
            break
        last = s
    return last


def rates(samples, col, step):
    """(t, bit/s) of column col over steps of about step seconds"""
    out = []
    i = 0
    while i < len(samples):
        j = i + 1
        while j < len(samples) and samples[j][0] - samples[i][0] < step - 0.01:
            j += 1
        if j >= len(samples):
            break
        dt = samples[j][0] - samples[i][0]
        out.append((samples[i][0], samples[j][0], (samples[j][col] - samples[i][col]) * 8 / dt))
        i = j
    return out


def percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0


def run_report(log, d, run, bottleneck, off_rx):
    r = {}
    for k in ("xoff", "drops", "headroom_drops"):
        a, b = val(log, "rx", "%s0_%s" % (run, k)), val(log, "rx", "%s1_%s" % (run, k))
        r[k] = int(b) - int(a) if a and b else None
    sw = rows(os.path.join(d, "sw-%s.dat" % run), off_rx)
    if len(sw) < 3:
        return r
    s1, s2 = rates(sw, RX_S1, BIN), rates(sw, RX_S2, BIN)
    both = [(a[0], a[1]) for a, b in zip(s1, s2)
            if a[2] > ACTIVE * bottleneck and b[2] > ACTIVE * bottleneck]
    if not both:
        return r
    t0, t1 = both[0][0], both[-1][1]
    a, b = at(sw, t0), at(sw, t1)
    secs = b[0] - a[0]
    r["secs"] = secs
    r["s1"] = (b[RX_S1] - a[RX_S1]) * 8 / secs
    r["s2"] = (b[RX_S2] - a[RX_S2]) * 8 / secs
    r["util"] = (b[TX_BOTTLENECK] - a[TX_BOTTLENECK]) * 8 / secs / bottleneck
    r["jain"] = (r["s1"] + r["s2"]) ** 2 / (2 * (r["s1"] ** 2 + r["s2"] ** 2))
    q = [s[QUEUE] for s in sw if t0 <= s[0] <= t1]
    r["q_mean"] = sum(q) / len(q) / 1024 if q else 0
    r["q_p99"] = percentile(q, 0.99) / 1024
    # the plot's files, t from the start of the time both sent
    p1, p2 = rates(sw, RX_S1, PLOT_BIN), rates(sw, RX_S2, PLOT_BIN)
    with open(os.path.join(d, "plot-%s.dat" % run), "w") as f:
        for x, y in zip(p1, p2):
            f.write("%.3f %.3f %.3f %.2f\n" % (x[0] - t0, x[2] / 1e6, y[2] / 1e6,
                                              at(sw, x[0])[QUEUE] / 1024))
    for s in ("s1", "s2"):
        with open(os.path.join(d, "rate-%s-%s.dat" % (s, run)), "w") as f:
            for x in rows(os.path.join(d, "%s-%s.dat" % (s, run)), offset(d, s)):
                if len(x) > ALPHA and x[RATE] >= 0:
                    f.write("%.3f %.4f %.4f %.4f\n" % (x[0] - t0, x[RATE] / 1e6,
                                                       x[TARGET] / 1e6, x[ALPHA] / 1024))
    return r


def main():
    log = open(sys.argv[1]).read()
    d = sys.argv[2]
    bottleneck = float(val(log, "rx", "bottleneck_bps") or 1)
    res = {}
    for run in ("off", "on"):
        r = run_report(log, d, run, bottleneck, offset(d, "rx"))
        res[run] = r
        print("%s: xoff %s drops %s headroom_drops %s; both sent for %.1f s: "
              "s1 %.2f Mbit/s s2 %.2f Mbit/s, jain %.3f, utilization %.1f%%, "
              "queue mean %.1f KiB p99 %.1f KiB" %
              (run, r["xoff"], r["drops"], r["headroom_drops"], r.get("secs", 0),
               r.get("s1", 0) / 1e6, r.get("s2", 0) / 1e6, r.get("jain", 0),
               100 * r.get("util", 0), r.get("q_mean", 0), r.get("q_p99", 0)))
    off, on = res["off"], res["on"]
    why = []
    # a sender that stops in a lossless fabric is the failure it exists to
    # prevent: in each run both send for most of perftest's time
    secs = float(val(log, "rx", "secs") or 0)
    for run, r in res.items():
        if r.get("secs", 0) < OVERLAP * secs:
            why.append("%s: both senders sent for %.1f s of %.0f (at least %.0f%% asked)"
                       % (run, r.get("secs", 0), secs, 100 * OVERLAP))
        for k in ("drops", "headroom_drops"):
            if r.get(k) != 0:
                why.append("%s: %s %s" % (run, k, r.get(k)))
    if not off.get("xoff"):
        why.append("off: no XOFF without DCQCN (the experiment did not congest)")
    elif on.get("xoff") is None or on["xoff"] > 0.05 * off["xoff"]:
        why.append("on: xoff %s > 5%% of off's %d" % (on.get("xoff"), off["xoff"]))
    if on.get("jain", 0) < 0.95:
        why.append("on: jain %.3f < 0.95" % on.get("jain", 0))
    if on.get("util", 0) < 0.90:
        why.append("on: utilization %.1f%% < 90%%" % (100 * on.get("util", 0)))
    for w in why:
        print("why: " + w)
    print("fail" if why else "pass")


if __name__ == "__main__":
    main()
