#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run_dcqcn_fabric.sh: the DCQCN experiment (dcqcn_fabric.topo): two
# senders into one receiver through a switch whose port to the receiver
# is the bottleneck, PFC on, once without DCQCN and once with it. Prints,
# for each run, the switch's XOFF frames, drops, each sender's rate over
# the time both sent (the switch's view), Jain's fairness index and the
# bottleneck's utilization, then checks the issue's targets: with DCQCN
# XOFF frames at most 5% of the run without, nothing lost, fairness at
# least 0.95 and utilization at least 90%.
#
# make check runs it (scripts/check runs every selftests/rdma/run_*.sh);
# make demo runs it with DCQCN_RESULTS=results/demo. With DCQCN_FAMILY=6
# RoCE runs over IPv6 (the switch and perftest's own exchange stay the
# same).
#
# With DCQCN_RESULTS=DIR, the results (dcqcn_fabric.txt), the samples
# and their plot (dcqcn_fabric.png: each sender's rate and the switch's
# queue over time, DCQCN off and on) are also written to DIR.
#
#   selftests/rdma/run_dcqcn_fabric.sh [scripts/vm-multi options]
#
# selftest-group: timing (scripts/check runs it alone)
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
# FABRIC_* (see dcqcn_fabric.sh) and DCQCN_FAMILY (6: RoCE over IPv6) go
# to the guests
for v in $(compgen -v FABRIC_) $(compgen -v DCQCN_FAMILY); do
	VM_ENV="${VM_ENV:-} $v"
done
export VM_ENV
VM_KEEP=1 TMPDIR=$out scripts/vm-multi --timeout 900 "$@" selftests/rdma/dcqcn_fabric.topo 2>&1 |
	tee "$log" | sed -u 's/^/# /'
rc=${PIPESTATUS[0]}

# the guests' shared directory, where the samples are
run=$(dirname "$(find "$out" -name sw-on.dat -print -quit 2>/dev/null || true)")
python3 selftests/rdma/dcqcn_fabric_report.py "$log" "$run" > "$out/result"
if [ -n "${DCQCN_RESULTS:-}" ]; then
	mkdir -p "$DCQCN_RESULTS"
	cp "$out/result" "$DCQCN_RESULTS/dcqcn_fabric.txt"
	cp "$run"/plot-*.dat "$run"/rate-*.dat "$DCQCN_RESULTS"/ 2>/dev/null
	selftests/rdma/dcqcn_fabric_plot.sh "$DCQCN_RESULTS" || true
fi
sed 's/^/# /' "$out/result"
if [ "$rc" = 0 ] && [ "$(tail -n 1 "$out/result")" = pass ]; then
	echo "ok 1 dcqcn fabric: with DCQCN few XOFF, no loss, fair and full"
else
	# the whole run, so that the failure explains itself: each guest's
	# console and output, the samples, the flight recorders' records
	keep=${DCQCN_FAILED_DIR:-$top/results/failed}/dcqcn_fabric-$(date +%Y%m%d-%H%M%S)
	mkdir -p "$keep" && cp -a "$out"/. "$keep"/ && echo "# the failed run is kept in $keep"
	echo "not ok 1 dcqcn fabric: with DCQCN few XOFF, no loss, fair and full"
	exit 1
fi
