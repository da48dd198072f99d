#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""train.py: aiecnd's model from the experiment's sweep data.

    train.py SWEEPDIR MODEL

SWEEPDIR holds what `run-guest.sh --sweep` wrote: results.txt (one line
per run: scenario, the kmax swept, throughput, p99 queueing delay, XOFF
frames; the lines of every sweep so far, as scripts/aiecn-experiment
--train appends them) and features-SCENARIO.dat (aiecnd --features, of
the last sweep: one feature vector per 2 s window of every run, whatever
the thresholds were). Windows of comparison runs, which the experiment
writes as features-SCENARIO-SETTING.dat (results/aiecn), are training
data too when copied into SWEEPDIR: a window's label is its scenario,
whatever thresholds were in force.

1. Each scenario's thresholds, from the means over the sweeps of each
   kmax's throughput and p99 (one run varies by about 5%; the p99, read
   from a log2 histogram, by up to a factor 2): of the kmax whose throughput is at
   least KEEP of the scenario's best and whose XOFF count is the
   scenario's lowest, the one with the lowest p99 queueing delay (the
   experiment's order: throughput holds, then latency, then pauses); kmin
   is a quarter of it, pmax the sweep's.
2. The classifier: multinomial logistic regression on the standardised
   features (aiecn_model.c's inference), fitted by full-batch gradient
   descent with an L2 penalty; plain Python, no libraries. Every fifth
   window is held out to report the accuracy on unseen windows, then the
   model is fitted on all of them.

MODEL is written in aiecn_model.c's format, with the figures in comments.
"""
import math
import os
import re
import sys

FEATURES = ("util", "burst", "empty", "q99", "mark", "pause")
# throughput share that counts as "holds": above the experiment's 95%, a
# margin for the run-to-run spread (about 5% under emulation)
KEEP = 0.97
CONFIDENCE = 0.7     # the model's confidence threshold for aiecnd
# utilisation below which a window is no scenario's (aiecn.h's
# AIECN_MODEL_IDLE): aiecnd does not classify it, so the accuracy leaves it
# out. The fit keeps it: fitted without the idle windows, the model took
# 79 of 225 held-out incast windows (tools/aiecn/data/heldout, the low
# setting) for long/mixed and none for incast.
IDLE = 0.20
L2 = 1e-3
RATE = 0.5
EPOCHS = 3000


def read_results(path):
    rows = []
    with open(path) as f:
        for line in f:
            kv = dict(re.findall(r"(\w+)=(\S+)", line))
            if kv.get("setting") == "sweep":
                rows.append(kv)
    return rows


def feature_files(sweep, scen):
    """The sweep's windows of SCEN first, then any comparison run's"""
    names = sorted(n for n in os.listdir(sweep)
                   if re.fullmatch(r"features-%s-\w+\.dat" % re.escape(scen), n))
    return [os.path.join(sweep, n) for n in ["features-%s.dat" % scen] + names]


def read_features(path):
    xs, pmax = [], None
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            tok = line.split()
            xs.append([float(v) for v in tok[3:3 + len(FEATURES)]])
            pmax = int(tok[3 + len(FEATURES) + 2]) // 10000
    return xs, pmax


def mean_by_kmax(rows, scen):
    """A scenario's runs, one per kmax: throughput and p99 averaged over
    the sweeps that ran it, XOFF the most any of them saw"""
    by = {}
    for r in rows:
        if r["scenario"] == scen:
            by.setdefault(r["kmax"], []).append(r)
    out = []
    for k, rs in by.items():
        out.append({"scenario": scen, "kmax": k, "runs": len(rs),
                    "thr_mbps": sum(float(r["thr_mbps"]) for r in rs) / len(rs),
                    "p99_ms": sum(float(r["p99_ms"]) for r in rs) / len(rs),
                    "xoff": max(int(r["xoff"]) for r in rs)})
    return out


def thresholds(rows, scen):
    runs = sorted(mean_by_kmax(rows, scen), key=lambda r: kib(r["kmax"]))
    best = max(float(r["thr_mbps"]) for r in runs)
    least_xoff = min(int(r["xoff"]) for r in runs)
    held = [r for r in runs
            if float(r["thr_mbps"]) >= KEEP * best and int(r["xoff"]) == least_xoff]
    if not held:
        return kib(runs[-1]["kmax"]) * 1024, runs[-1], best
    r = min(held, key=lambda r: (float(r["p99_ms"]), kib(r["kmax"])))
    return kib(r["kmax"]) * 1024, r, best


def kib(s):
    return int(s.rstrip("k"))


def standardise(xs):
    n, d = len(xs), len(xs[0])
    mean = [sum(x[j] for x in xs) / n for j in range(d)]
    scale = [math.sqrt(sum((x[j] - mean[j]) ** 2 for x in xs) / n) or 1.0 for j in range(d)]
    return mean, scale


def softmax(z):
    m = max(z)
    e = [math.exp(v - m) for v in z]
    s = sum(e)
    return [v / s for v in e]


def scores(w, x):
    return [wk[0] + sum(a * b for a, b in zip(wk[1:], x)) for wk in w]


def fit(xs, ys, k):
    d = len(xs[0])
    w = [[0.0] * (d + 1) for _ in range(k)]
    n = len(xs)
    for _ in range(EPOCHS):
        g = [[0.0] * (d + 1) for _ in range(k)]
        for x, y in zip(xs, ys):
            p = softmax(scores(w, x))
            for c in range(k):
                err = p[c] - (1.0 if c == y else 0.0)
                g[c][0] += err
                for j in range(d):
                    g[c][j + 1] += err * x[j]
        for c in range(k):
            for j in range(d + 1):
                w[c][j] -= RATE * (g[c][j] / n + (L2 * w[c][j] if j else 0.0))
    return w


def choices(ts):
    """Each scenario's choice: the first scenario with the same thresholds
    (given by kmax: the kmin and pmax written follow from it)"""
    return [ts.index(t) for t in ts]


def recognise(w, x, choice):
    """The choice aiecnd would take window x for (aiecn_model_classify():
    scenarios sharing thresholds add their probabilities), or None below
    the confidence"""
    p = softmax(scores(w, x))
    by = {}
    for k, pk in enumerate(p):
        by[choice[k]] = by.get(choice[k], 0.0) + pk
    c = max(sorted(by), key=lambda k: by[k])
    return c if by[c] >= CONFIDENCE else None


def accuracy(w, xs, ys, choice):
    right = recognised = 0
    for x, y in zip(xs, ys):
        c = recognise(w, x, choice)
        if c is not None:
            recognised += 1
            right += c == choice[y]
    return right, recognised, len(xs)


def main():
    sweep, model = sys.argv[1], sys.argv[2]
    rows = read_results(os.path.join(sweep, "results.txt"))
    scens = sorted({r["scenario"] for r in rows})
    data, labels, chosen, pmax = [], [], {}, 20
    sources = []
    for k, scen in enumerate(scens):
        for i, path in enumerate(feature_files(sweep, scen)):
            xs, pm = read_features(path)
            if not i:
                pmax = pm or pmax
            data += xs
            labels += [k] * len(xs)
            sources.append((os.path.basename(path), len(data) - len(xs), len(data)))
        chosen[scen] = thresholds(rows, scen)
    mean, scale = standardise(data)
    zs = [[(v - m) / s for v, m, s in zip(x, mean, scale)] for x in data]
    choice = choices([chosen[scen][0] for scen in scens])
    names = ["/".join(s for j, s in enumerate(scens) if choice[j] == choice[k])
             for k in range(len(scens))]
    busy = [x[FEATURES.index("util")] >= IDLE for x in data]
    train = [i for i in range(len(zs)) if i % 5]
    held = [i for i in range(len(zs)) if not i % 5 and busy[i]]
    w = fit([zs[i] for i in train], [labels[i] for i in train], len(scens))
    right, rec, n = accuracy(w, [zs[i] for i in held], [labels[i] for i in held], choice)
    w = fit(zs, labels, len(scens))
    right_all, rec_all, n_all = accuracy(w, [z for z, b in zip(zs, busy) if b],
                                         [y for y, b in zip(labels, busy) if b], choice)

    out = []
    out.append("# aiecnd model (aiecn_model.c's format), written by")
    out.append("# tools/aiecn/experiment/train.py from the sweeps in tools/aiecn/data/")
    out.append("# (run-guest.sh --sweep: %d runs; %d windows of 2 s)" % (len(rows), len(data)))
    # what the final fit makes of each file's windows: a scenario taken
    # for another under thresholds it never saw in the sweep shows here
    for name, lo, hi in sources:
        got = {}
        for i in range(lo, hi):
            c = recognise(w, zs[i], choice)
            key = "idle" if not busy[i] else "unknown" if c is None else names[c]
            got[key] = got.get(key, 0) + 1
        idle = got.pop("idle", 0)
        out.append("#   %s: %d windows (%d idle), the others taken for %s" % (
            name, hi - lo, idle, ", ".join("%s %d" % kv for kv in sorted(got.items()))))
    out.append("# held-out windows (every fifth, not idle): %d of %d recognised (p >= %.2f), "
               "%d of them right" % (rec, n, CONFIDENCE, right))
    out.append("# (right: the thresholds of the window's scenario; scenarios sharing "
               "thresholds are one choice)")
    out.append("# all windows not idle, final fit: %d of %d recognised, %d right"
               % (rec_all, n_all, right_all))
    out.append("features %d" % len(FEATURES))
    out.append("classes %d" % len(scens))
    for k, scen in enumerate(scens):
        kmax, r, best = chosen[scen]
        out.append("# %s: best throughput %.2f Mbit/s; kmax %s holds %.2f Mbit/s, p99 %.4g ms, "
                   "xoff %d (means of %d runs)" % (scen, best, r["kmax"], r["thr_mbps"],
                                                  r["p99_ms"], r["xoff"], r["runs"]))
        out.append("class %s kmin %d kmax %d pmax %d" % (scen, kmax // 4, kmax, pmax))
        out.append("weights " + " ".join("%.6g" % v for v in w[k]))
    out.append("mean " + " ".join("%.6g" % v for v in mean))
    out.append("scale " + " ".join("%.6g" % v for v in scale))
    out.append("confidence %.2f" % CONFIDENCE)
    with open(model, "w") as f:
        f.write("\n".join(out) + "\n")
    print("\n".join(line for line in out if line.startswith(("#", "class"))))


if __name__ == "__main__":
    main()
