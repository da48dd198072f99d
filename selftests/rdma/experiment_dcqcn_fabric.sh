#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# experiment_dcqcn_fabric.sh: the DCQCN experiment (dcqcn_fabric.topo): two
# senders into one receiver through a switch whose port to the receiver
# is the bottleneck, PFC on, once without DCQCN and once with it. Prints,
# for each run, the switch's XOFF frames, drops, each sender's rate over
# the time both sent (the switch's view), Jain's fairness index and the
# bottleneck's utilization, then checks the issue's targets: with DCQCN
# XOFF frames at most 5% of the run without, nothing lost, fairness at
# least 0.95 and utilization at least 90%.
#
# Not part of make check yet (its name is not run_*.sh): in the runs so
# far the utilization target is not met (about 80% with DCQCN, 87-94%
# without), see Documentation/dcqcn_cc.rst.
#
#   selftests/rdma/experiment_dcqcn_fabric.sh [scripts/vm-multi options]
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
echo "TAP version 13"
echo "1..1"
for cmd in qemu-system-x86_64 ib_write_bw rdma; do
	if ! command -v "$cmd" > /dev/null; then
		echo "ok 1 dcqcn fabric # SKIP $cmd is not installed"
		exit 4
	fi
done
cd "$top" || exit 1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
log=$out/log
VM_KEEP=1 TMPDIR=$out scripts/vm-multi --timeout 900 "$@" selftests/rdma/dcqcn_fabric.topo 2>&1 |
	tee "$log" | sed -u 's/^/# /'
rc=${PIPESTATUS[0]}

python3 - "$log" > "$out/result" <<'PY'
import re, sys
log = open(sys.argv[1]).read()
def val(role, key):
    m = re.findall(r"^\[%s\] dcqcn_fabric.sh: %s: %s (\S+)$" % (role, role, key), log, re.M)
    return m[-1] if m else None
BOTTLENECK = float(val("rx", "bottleneck_bps") or 1)
res = {}
for run in ("off", "on"):
    r = {}
    for k in ("xoff", "drops", "headroom_drops"):
        a, b = val("rx", "%s0_%s" % (run, k)), val("rx", "%s1_%s" % (run, k))
        r[k] = int(b) - int(a) if a and b else None
    f = val("rx", "samples_%s" % run)
    rows = [list(map(float, l.split())) for l in open(f)] if f else []
    rates = []
    for p, q in zip(rows, rows[1:]):
        dt = q[0] - p[0]
        rates.append(((q[1] - p[1]) * 8 / dt, (q[2] - p[2]) * 8 / dt, dt))
    both = [x for x in rates if x[0] > 0.05 * BOTTLENECK and x[1] > 0.05 * BOTTLENECK]
    t = sum(x[2] for x in both)
    if t > 0:
        a = sum(x[0] * x[2] for x in both) / t
        b = sum(x[1] * x[2] for x in both) / t
        r["s1"], r["s2"], r["secs"] = a, b, t
        r["jain"] = (a + b) ** 2 / (2 * (a * a + b * b))
        r["util"] = (a + b) / BOTTLENECK
    r["seq_err"] = val("rx", "seq_err_%s" % run)
    res[run] = r
    print("%s: xoff %s drops %s headroom_drops %s; both sent for %.1f s: s1 %.2f Mbit/s s2 %.2f Mbit/s, jain %.3f, utilization %.1f%%" %
          (run, r["xoff"], r["drops"], r["headroom_drops"], r.get("secs", 0), r.get("s1", 0) / 1e6,
           r.get("s2", 0) / 1e6, r.get("jain", 0), 100 * r.get("util", 0)))
off, on = res["off"], res["on"]
ok = (on.get("xoff") is not None and off.get("xoff") and on["xoff"] <= 0.05 * off["xoff"]
      and on["drops"] == 0 and on["headroom_drops"] == 0 and off["drops"] == 0
      and on.get("jain", 0) >= 0.95 and on.get("util", 0) >= 0.90)
print("pass" if ok else "fail")
PY
sed 's/^/# /' "$out/result"
if [ "$rc" = 0 ] && [ "$(tail -n 1 "$out/result")" = pass ]; then
	echo "ok 1 dcqcn fabric: with DCQCN few XOFF, no loss, fair and full"
else
	echo "not ok 1 dcqcn fabric: with DCQCN few XOFF, no loss, fair and full"
	exit 1
fi
