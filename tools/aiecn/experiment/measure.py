#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""measure.py: the measures of one experiment run, from two snapshots.

    measure.py BEFORE.json AFTER.json RATE_BPS PORT INGRESS...

BEFORE and AFTER are snap.py's output around the measured interval; PORT
is the bottleneck (the switch's port to the receiver, shaped to RATE_BPS
bits/s) and INGRESS the switch's ports from the senders, which send the
PFC pauses. Prints one line of "name=value" pairs:

  thr_mbps   bits the bottleneck class sent per second, in Mbit/s
  util       the same over RATE_BPS
  p99_ms     99th percentile queueing delay: the backlog each packet found
             on enqueue (the class's queue histogram), at the shaped rate
  p50_ms     the median, the same way
  xoff       PFC XOFF frames the switch sent for the class (all INGRESS)
  marks      packets the bottleneck class ECN-marked
  seconds    the interval between the two reads of PORT's counters
  t_err_ms   how far off "seconds" can be: the reads took time

The histogram is the class's fine one ("qhist_fine", eight buckets to the
octave: 256-byte buckets up to 4 KiB, then each octave to 16 MiB in eight,
the last from 16 MiB up), or, in snapshots without it, the log2 one
("qhist": bucket 0 [0, 1 KiB), bucket i [2^(i+9), 2^(i+10)) bytes, the
last from 16 MiB up). A quantile is interpolated linearly inside its
bucket: exact at the bucket edges, and within an eighth of an octave of
the truth with the fine histogram (a factor of two with the log2 one).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "selftests", "tools"))
import qhist_fine  # noqa: E402

BUCKETS = 16


def bucket_range(i):
    if i == 0:
        return 0.0, 1024.0
    lo = float(1 << (i + 9))
    return lo, (lo * 2 if i < BUCKETS - 1 else lo)


def fine_range(i):
    lo = float(qhist_fine.low(i))
    return lo, (float(qhist_fine.low(i + 1)) if i < qhist_fine.BUCKETS - 1 else lo)


def quantile(hist, q, ranges=bucket_range):
    total = sum(hist)
    if total <= 0:
        return 0.0
    want = q * total
    seen = 0.0
    for i, n in enumerate(hist):
        if n and seen + n >= want:
            lo, hi = ranges(i)
            return lo + (hi - lo) * (want - seen) / n
        seen += n
    return ranges(len(hist) - 1)[0]


def histogram(a, b):
    """The queue histogram between snapshots A and B, and its buckets' ranges."""
    if "qhist_fine" in a and "qhist_fine" in b:
        return [y - x for x, y in zip(a["qhist_fine"], b["qhist_fine"])], fine_range
    return ([y - x for x, y in zip(a.get("qhist", [0] * BUCKETS), b.get("qhist", [0] * BUCKETS))],
            bucket_range)


def delta(a, b, key):
    return b.get(key, 0) - a.get(key, 0)


def measures(before, after, rate, port, ingress):
    a, b = before[port], after[port]
    # the port's own read times where the snapshots have them: the
    # snapshot's start can be a second before the port's counters
    dt = b.get("t", after["t"]) - a.get("t", before["t"])
    spread = (a.get("t_spread", 0.0) + b.get("t_spread", 0.0)) / 2
    tx = delta(a, b, "tx_bytes")
    hist, ranges = histogram(a, b)
    bytes_per_s = rate / 8.0
    return {
        "thr_mbps": tx * 8 / dt / 1e6,
        "util": tx * 8 / dt / rate,
        "p99_ms": quantile(hist, 0.99, ranges) / bytes_per_s * 1e3,
        "p50_ms": quantile(hist, 0.50, ranges) / bytes_per_s * 1e3,
        "xoff": sum(delta(before[p], after[p], "pfc_tx_xoff") for p in ingress),
        "marks": delta(a, b, "ecn_marked"),
        "seconds": dt,
        # at most this much of "seconds" is uncertain: half of each read's length
        "t_err_ms": spread * 1e3,
    }


def main():
    with open(sys.argv[1]) as f:
        before = json.load(f)
    with open(sys.argv[2]) as f:
        after = json.load(f)
    m = measures(before, after, float(sys.argv[3]), sys.argv[4], sys.argv[5:])
    print(" ".join("%s=%s" % (k, ("%.4g" % v) if isinstance(v, float) else v)
                   for k, v in m.items()))


if __name__ == "__main__":
    main()
