#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""report_test.py: the experiment's verdicts (report.py) on made-up runs, TAP."""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import measure  # noqa: E402
import report  # noqa: E402
import train  # noqa: E402

n = 0
failed = 0


def ok(cond, what):
    global n, failed
    n += 1
    if not cond:
        failed += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, what))


def row(thr, p99, xoff=0):
    return {"thr_mbps": thr, "p99_ms": p99, "xoff": xoff, "runs": 1, "marks": 0}


def verdict(lo, hi, ai):
    t = {("s", "low"): lo, ("s", "high"): hi, ("s", "aiecnd"): ai}
    return report.verdict(t, "s")


# long flows: high wins on throughput; aiecnd as fast with a shorter queue
name, fails = verdict(row(15, 6), row(19, 50), row(18.5, 20))
ok(name == "high" and not fails, "throughput decides the better static setting")
# incast: throughputs within 5%, low wins on delay
name, fails = verdict(row(14, 10), row(14.3, 30), row(14, 11.5))
ok(name == "low" and not fails, "within 5% of throughput, the lower p99 decides")
name, fails = verdict(row(15, 6), row(19, 50), row(17.9, 20))
ok(fails and "throughput" in fails[0], "under 95% of the better throughput fails")
name, fails = verdict(row(14, 10), row(14.3, 30), row(14, 12.5))
ok(fails and "p99" in fails[0], "over 1.2 x the better p99 fails")
name, fails = verdict(row(15, 6, 0), row(19, 50, 0), row(19, 20, 1))
ok(any("XOFF" in f for f in fails), "more XOFF than the better setting fails")
name, fails = verdict(row(14, 10), row(14.3, 30), row(13.5, 11))
ok(any("both" in f for f in fails), "throughput below both (beyond 2%) fails")
name, fails = verdict(row(14, 10), row(14.3, 30), row(13.9, 11))
ok(not fails, "1% below both is within the measure's noise")

# quantiles of the log2 histogram, interpolated inside a bucket
h = [0] * 16
h[3] = 100
ok(measure.quantile([0] * 16, 0.99) == 0 and measure.quantile(h, 0.5) == 6144 and
   measure.quantile(h, 1.0) == 8192, "histogram quantiles: interpolated inside the bucket")
# the fine histogram: its edges, and the log2 one's when folded
ok([measure.qhist_fine.low(i) for i in (0, 1, 15, 16, 17, 23, 24, 49, 111, 112)] ==
   [0, 256, 3840, 4096, 4608, 7680, 8192, 73728, 15 << 20, 16 << 20],
   "fine histogram: 256-byte buckets to 4 KiB, then eighths of an octave, 16 MiB up")
folded = [0] * 16
for i in range(measure.qhist_fine.BUCKETS):
    lo, hi = measure.fine_range(i)
    blo, bhi = zip(*(measure.bucket_range(j) for j in range(16)))
    c = [j for j in range(16) if blo[j] <= lo and (j == 15 or hi <= bhi[j] and lo < bhi[j])]
    folded[c[0] if len(c) == 1 else 0] += 100
ok(folded == [400, 400, 800] + [800] * 12 + [100], "every fine bucket lies in one log2 bucket")
ok(all(measure.qhist_fine.bucket(measure.qhist_fine.low(i)) == i and
       measure.qhist_fine.fold(i) == measure.qhist_fine.log2_bucket(measure.qhist_fine.low(i))
       for i in range(113)),
   "a fine bucket's edge is in that bucket, and it folds into the log2 bucket of its edge")
parsed = measure.qhist_fine.parse("class lossless 1:1 root\n in 9 qhist 9 0 0 0 0 0 0 0 0 0 0"
                                  " 0 0 0 0 0 qhist_fine 0:5 4096:3 16777216:1\n")
ok(len(parsed) == 113 and parsed[0] == 5 and parsed[16] == 3 and parsed[112] == 1 and
   sum(parsed) == 9 and measure.qhist_fine.parse("class lossless 1:1 root\n") is None,
   "tc's text LOW:COUNT pairs read back into the 113 counts")
f = [0] * measure.qhist_fine.BUCKETS
f[49] = 100   # [72, 80) KiB
a = {"t": 0, "p": {"tx_bytes": 0, "qhist_fine": [0] * measure.qhist_fine.BUCKETS, "qhist": [0] * 16}}
b = {"t": 1, "p": {"tx_bytes": 10 ** 6, "qhist_fine": f, "qhist": [0] * 16}}
m = measure.measures(a, b, 8e6, "p", [])
ok(abs(m["p50_ms"] - 76 * 1024 / 1e6 * 1e3) < 1e-9 and abs(m["p99_ms"] - 79.92 * 1024 / 1e3) < 1e-6,
   "the fine histogram, when the snapshots have it, gives the quantiles")
# the port's own read times, not the snapshots' starts, make the interval
a = {"t": 0, "p": {"tx_bytes": 0, "t": 0.5, "t_spread": 0.2}}
b = {"t": 16, "p": {"tx_bytes": 4 * 10 ** 7, "t": 16.5, "t_spread": 0.4}}
m = measure.measures(a, b, 20e6, "p", [])
ok(m["seconds"] == 16 and abs(m["thr_mbps"] - 20) < 1e-9 and abs(m["t_err_ms"] - 300) < 1e-9,
   "throughput over the interval between the port's reads, with their uncertainty")
b["p"]["t"] = 17.3
ok(abs(measure.measures(a, b, 20e6, "p", [])["thr_mbps"] - 320 / 16.8) < 1e-9,
   "a read delayed in the second snapshot lengthens the interval, not the throughput")
with tempfile.TemporaryDirectory() as d:
    res = os.path.join(d, "results.txt")
    with open(res, "w") as f:
        for rep in range(3):
            f.write("scenario=long setting=low thr_mbps=15 p99_ms=6 xoff=0 marks=9\n")
            f.write("scenario=long setting=high thr_mbps=%d p99_ms=50 xoff=0 marks=1\n"
                    % (19 if rep else 5))
            f.write("scenario=long setting=aiecnd thr_mbps=18.5 p99_ms=20 xoff=0 marks=3\n")
        f.write("scenario=incast setting=low thr_mbps=14 p99_ms=10 xoff=0 marks=9\n")
    r = subprocess.run([sys.executable, os.path.join(HERE, "report.py"), res, d],
                       capture_output=True, text=True)
    out = r.stdout
    ok(r.returncode == 1 and "long: pass" in out and "incast: FAIL" in out,
       "medians of the runs; a scenario missing a setting fails the report")

# train.py's choice of thresholds
rows = [{"scenario": "x", "kmax": k, "thr_mbps": t, "p99_ms": p, "xoff": x}
        for k, t, p, x in (("4k", "10", "3", "0"), ("16k", "19.5", "12", "0"),
                           ("32k", "20", "9", "0"), ("64k", "20", "30", "0"),
                           ("128k", "20.5", "5", "3"))]
kmax, r, best = train.thresholds(rows, "x")
ok(kmax == 32 * 1024 and best == 20.5,
   "of the kmax that hold the throughput with PFC silent, the lowest p99")

# train.py's windows of a scenario: the sweep's, then the comparisons'
with tempfile.TemporaryDirectory() as d:
    for name in ("features-long.dat", "features-long-aiecnd.dat", "features-long-high.dat",
                 "features-longer.dat", "features-mixed-low.dat", "features-long-x.txt"):
        open(os.path.join(d, name), "w").close()
    got = [os.path.basename(p) for p in train.feature_files(d, "long")]
    ok(got == ["features-long.dat", "features-long-aiecnd.dat", "features-long-high.dat"],
       "a scenario's windows: its sweep's file first, then its comparison runs' only")

# train.py's recognition: scenarios sharing thresholds are one choice
# P = (0.16, 0.42, 0.42): b and c together pass the confidence (0.70), alone neither
w = [[0.0] + [0.0] * 6, [1.0] + [0.0] * 6, [1.0] + [0.0] * 6]
x = [0.0] * 6
ch = train.choices([8192, 131072, 131072])
ok(ch == [0, 1, 1] and train.recognise(w, x, ch) == 1 and
   train.recognise(w, x, [0, 1, 2]) is None,
   "two scenarios at the same thresholds add their probabilities")

# the committed model on the held-out runs (tools/aiecn/data/heldout,
# not fitted on): aiecn_replay -m, as aiecnd classifies
top = os.path.dirname(HERE)
held = os.path.join(top, "data", "heldout")
replay = os.path.join(top, "aiecn_replay")
files = sorted(os.path.join(held, f) for f in os.listdir(held) if f.startswith("samples-"))
if os.access(replay, os.X_OK):
    run = subprocess.run([replay, "-m", os.path.join(top, "model", "aiecn.model")] + files,
                         capture_output=True, text=True, check=False)
    out, rc = run.stdout, run.returncode
else:
    out, rc = "", "no %s (make -C tools/aiecn)" % replay
# "FILE DEV CLASS: N windows: CHOICE N, ... unknown N; idle N, taken for a choice N"
line_re = re.compile(r"samples-(\w+)-\w+\.dat \S+ \d+: (\d+) windows:((?: [\w/]+ \d+,)*) "
                     r"unknown (\d+); idle \d+, taken for a choice \d+$")
share = {}
for line in out.splitlines():
    m = line_re.search(line)
    if not m:
        continue
    scen, total = m.group(1), int(m.group(2))
    taken = dict((k, int(v)) for k, v in re.findall(r" ([\w/]+) (\d+),", m.group(3)))
    mine = "incast" if scen == "incast" else "long/mixed"
    # every other choice is deeper than incast's; none is deeper than long/mixed's
    deeper = sum(v for k, v in taken.items() if k != mine) if scen == "incast" else 0
    share[scen] = [a + b for a, b in zip(share.get(scen, [0, 0, 0]),
                                         (taken.get(mine, 0), deeper, total))]
ok(rc == 0 and len(files) == 9 and sorted(share) == ["incast", "long", "mixed"],
   "held-out runs: aiecn_replay -m reads all 9 (exit %s)" % rc)
ok(all(s in share and share[s][0] >= 0.9 * share[s][2] for s in ("long", "mixed")),
   "held-out runs: long and mixed windows taken for long/mixed (at least 90%%): %s" %
   ", ".join("%s %d of %d" % (s, share[s][0], share[s][2])
             for s in ("long", "mixed") if s in share))
inc = share.get("incast", [0, 0, 0])
ok(inc[2] > 0 and inc[0] >= 0.8 * inc[2] and inc[1] <= 0.05 * inc[2],
   "held-out runs: incast windows taken for incast (at least 80%%), for a deeper "
   "choice at most 5%%: %d of %d, deeper %d" % (inc[0], inc[2], inc[1]))

print("1..%d" % n)
sys.exit(1 if failed else 0)
