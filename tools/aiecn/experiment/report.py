#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""report.py: the adaptive ECN experiment's table, verdicts and plot.

    report.py RESULTS.txt OUTDIR

RESULTS.txt is run-guest.sh's: one line per run (scenario, setting low,
high or aiecnd, and the measures); with several runs of one scenario and
setting, each measure is their median. Writes OUTDIR/aiecn.txt (the
table and a verdict per scenario, also printed), OUTDIR/aiecn.dat and,
with gnuplot, OUTDIR/aiecn.png.

Per scenario the better static setting is the one with the higher
throughput; when the two are within 5% of each other, the one with the
lower p99 queueing delay (then the fewer XOFF frames). aiecnd passes a
scenario when
  throughput  >= 0.95 x the better static setting's,
  p99 delay   <= 1.2 x the better static setting's,
  XOFF frames <= the better static setting's,
and on none of the three it is worse than both static settings, where
worse means by more than what the measure tells apart: 2% of throughput
(run-to-run noise of a load-bound scenario in the VM), 10% of p99 delay
(read off log2 histogram buckets), one XOFF frame.
Exit status 1 when a scenario fails or is missing a setting.
"""
import os
import re
import statistics
import subprocess
import sys

SETTINGS = ("low", "high", "aiecnd")
MEASURES = ("thr_mbps", "p99_ms", "xoff")


def load(path):
    runs = {}
    order = []
    with open(path) as f:
        for line in f:
            kv = dict(re.findall(r"(\w+)=(\S+)", line))
            if kv.get("setting") not in SETTINGS:
                continue
            key = (kv["scenario"], kv["setting"])
            if kv["scenario"] not in order:
                order.append(kv["scenario"])
            runs.setdefault(key, []).append(kv)
    table = {}
    for key, rs in runs.items():
        table[key] = {m: statistics.median(float(r[m]) for r in rs) for m in MEASURES}
        table[key]["runs"] = len(rs)
        table[key]["marks"] = statistics.median(float(r["marks"]) for r in rs)
    return order, table


def better(lo, hi):
    if abs(lo["thr_mbps"] - hi["thr_mbps"]) <= 0.05 * max(lo["thr_mbps"], hi["thr_mbps"]):
        if lo["p99_ms"] != hi["p99_ms"]:
            return "low" if lo["p99_ms"] < hi["p99_ms"] else "high"
        return "low" if lo["xoff"] <= hi["xoff"] else "high"
    return "low" if lo["thr_mbps"] > hi["thr_mbps"] else "high"


def verdict(t, scen):
    lo, hi, ai = (t[(scen, s)] for s in SETTINGS)
    name = better(lo, hi)
    b = t[(scen, name)]
    fails = []
    if ai["thr_mbps"] < 0.95 * b["thr_mbps"]:
        fails.append("throughput %.2f < 0.95 x %.2f" % (ai["thr_mbps"], b["thr_mbps"]))
    if ai["p99_ms"] > 1.2 * b["p99_ms"]:
        fails.append("p99 %.1f ms > 1.2 x %.1f ms" % (ai["p99_ms"], b["p99_ms"]))
    if ai["xoff"] > b["xoff"]:
        fails.append("XOFF %d > %d" % (ai["xoff"], b["xoff"]))
    if ai["thr_mbps"] < 0.98 * min(lo["thr_mbps"], hi["thr_mbps"]):
        fails.append("throughput below both static settings")
    if ai["p99_ms"] > 1.1 * max(lo["p99_ms"], hi["p99_ms"]):
        fails.append("p99 above both static settings")
    if ai["xoff"] > max(lo["xoff"], hi["xoff"]):
        fails.append("XOFF above both static settings")
    return name, fails


def plot(outdir, order):
    script = """
set terminal pngcairo size 1000,420 font ",10"
set output "{out}/aiecn.png"
set multiplot layout 1,2 title "Adaptive ECN: static low, static high and aiecnd per scenario"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key top left
set grid ytics
set yrange [0:*]
set title "throughput at the bottleneck (Mbit/s)"
plot "{out}/aiecn.dat" using 2:xtic(1) title "low", "" using 3 title "high", \\
     "" using 4 title "aiecnd"
set title "99th percentile queueing delay (ms)"
plot "{out}/aiecn.dat" using 5:xtic(1) title "low", "" using 6 title "high", \\
     "" using 7 title "aiecnd"
unset multiplot
""".format(out=outdir)
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True,
                       capture_output=True)
        return True
    except (OSError, subprocess.CalledProcessError):
        return False


def main():
    results, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    order, t = load(results)
    lines, ok = [], True
    lines.append("%-8s %-7s %5s %10s %9s %6s %8s  %s" % (
        "scenario", "setting", "runs", "thr Mbit/s", "p99 ms", "XOFF", "marks", ""))
    verdicts = []
    with open(os.path.join(outdir, "aiecn.dat"), "w") as dat:
        dat.write("# scenario thr_low thr_high thr_aiecnd p99_low p99_high p99_aiecnd\n")
        for scen in order:
            if any((scen, s) not in t for s in SETTINGS):
                ok = False
                verdicts.append("%s: FAIL: a setting did not run" % scen)
                continue
            name, fails = verdict(t, scen)
            for s in SETTINGS:
                r = t[(scen, s)]
                lines.append("%-8s %-7s %5d %10.2f %9.2f %6d %8d  %s" % (
                    scen, s, r["runs"], r["thr_mbps"], r["p99_ms"], r["xoff"], r["marks"],
                    "(better static)" if s == name else ""))
            dat.write("%s %s %s\n" % (
                scen, " ".join("%.3f" % t[(scen, s)]["thr_mbps"] for s in SETTINGS),
                " ".join("%.3f" % t[(scen, s)]["p99_ms"] for s in SETTINGS)))
            ok = ok and not fails
            verdicts.append("%s: %s" % (scen, "pass" if not fails else
                                        "FAIL: " + "; ".join(fails)))
    if not order:
        ok = False
        verdicts.append("no runs in %s" % results)
    text = "\n".join(lines + [""] + verdicts) + "\n"
    if plot(outdir, order):
        text += "Plot: %s/aiecn.png\n" % outdir
    with open(os.path.join(outdir, "aiecn.txt"), "w") as f:
        f.write(text)
    sys.stdout.write(text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
