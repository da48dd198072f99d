#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run_ib_write_bw.sh: on the host, boot the two VMs of ib_write_bw.topo
# (soft-RoCE ib_write_bw from client to server) and report one TAP result.
#
#   selftests/rdma/run_ib_write_bw.sh [scripts/vm-multi options]
#
# The VMs' output goes to stdout as TAP comments. Exit status: 0 pass,
# 1 fail, 4 skip (kselftest's) when a tool is missing.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
name="rdma: ib_write_bw over soft-RoCE between two VMs"
echo "TAP version 13"
echo "1..1"
for cmd in qemu-system-x86_64 ib_write_bw rdma; do
	if ! command -v "$cmd" > /dev/null; then
		echo "ok 1 $name # SKIP $cmd is not installed"
		exit 4
	fi
done

# The topology's commands are relative to the top of the checkout.
cd "$top" || exit 1
log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$SECONDS
scripts/vm-multi "$@" selftests/rdma/ib_write_bw.topo 2>&1 | tee "$log" | sed -u 's/^/# /'
rc=${PIPESTATUS[0]}
bw=$(sed -n 's/^\[client\] ib_write_bw.sh: client: bandwidth \([0-9.]*\) Gb\/s.*/\1/p' "$log")
echo "# bandwidth ${bw:-none} Gb/s, wall time $((SECONDS - start)) s"
if [ "$rc" = 0 ]; then
	echo "ok 1 $name"
else
	echo "not ok 1 $name # exit=$rc"
fi
exit $((rc != 0))
