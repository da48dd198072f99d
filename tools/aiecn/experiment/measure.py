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

The histogram's buckets are powers of two (bucket 0 [0, 1 KiB), bucket i
[2^(i+9), 2^(i+10)) bytes, the last from 16 MiB up); a quantile is
interpolated linearly inside its bucket, so it is exact at the bucket
edges and within a factor of two everywhere.
"""
import json
import sys

BUCKETS = 16


def bucket_range(i):
    if i == 0:
        return 0.0, 1024.0
    lo = float(1 << (i + 9))
    return lo, (lo * 2 if i < BUCKETS - 1 else lo)


def quantile(hist, q):
    total = sum(hist)
    if total <= 0:
        return 0.0
    want = q * total
    seen = 0.0
    for i, n in enumerate(hist):
        if n and seen + n >= want:
            lo, hi = bucket_range(i)
            return lo + (hi - lo) * (want - seen) / n
        seen += n
    return bucket_range(BUCKETS - 1)[0]


def delta(a, b, key):
    return b.get(key, 0) - a.get(key, 0)


def measures(before, after, rate, port, ingress):
    dt = after["t"] - before["t"]
    a, b = before[port], after[port]
    tx = delta(a, b, "tx_bytes")
    hist = [y - x for x, y in zip(a.get("qhist", [0] * BUCKETS), b.get("qhist", [0] * BUCKETS))]
    bytes_per_s = rate / 8.0
    return {
        "thr_mbps": tx * 8 / dt / 1e6,
        "util": tx * 8 / dt / rate,
        "p99_ms": quantile(hist, 0.99) / bytes_per_s * 1e3,
        "p50_ms": quantile(hist, 0.50) / bytes_per_s * 1e3,
        "xoff": sum(delta(before[p], after[p], "pfc_tx_xoff") for p in ingress),
        "marks": delta(a, b, "ecn_marked"),
        "seconds": dt,
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
