#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ib_write_bw.sh: one end of an RDMA WRITE bandwidth test over soft-RoCE
# (rdma_rxe) between two VMs. Run in each guest by
# scripts/vm-multi selftests/rdma/ib_write_bw.topo.
#
#   ib_write_bw.sh [server|client]      default: $VM_NAME
#
# Each end addresses its link to-PEER (server 192.0.2.1, client 192.0.2.2:
# TEST-NET-1, the traffic never leaves qemu), puts the rxe device rxe0 on
# it and runs ib_write_bw; the client retries until the server listens,
# since the server's VM may not be up yet. Each end checks the measured
# bandwidth is above 0 where perftest reports one, and that rxe sent and
# received packets, and prints rdma link and the rxe counters.
set -u

. "$(dirname "$0")/rxe_lib.sh"

role=${1:-${VM_NAME:-}}
dev=to-${VM_PEERS%% *}
server=192.0.2.1
# -u 18: an ACK timeout of 4 us * 2^18 (1 s), not perftest's 67 ms: in the
# debug kernel ACKs came later than that, and the client sent every
# message again and again (completer_retry_err 40, the server's
# duplicate_request 2827) and completed none in 20 s. A count of
# messages, not a duration (-D): with the timeout right, perftest's
# duration mode still measured nothing there (0 iterations in its window
# though 145 messages were written and acknowledged): 500 messages of
# 64 KiB, 50 in a slow kernel.
iters=500
[ "${SELFTEST_TIMEOUT_SCALE:-1}" -gt 1 ] && iters=50
perftest=(ib_write_bw -d rxe0 -i 1 -s 65536 -n "$iters" -u 18 --report_gbits)

fail() {
	echo "ib_write_bw.sh: $role: FAIL: $*"
	exit 1
}

case $role in
server) addr=$server ;;
client) addr=192.0.2.2 ;;
*) fail "role '$role' is neither server nor client" ;;
esac

# counter NAME: one of rxe0's counters (sent_pkts, rcvd_pkts...).
counter() {
	cat "/sys/class/infiniband/rxe0/ports/1/hw_counters/$1"
}

ip addr add "$addr/24" dev "$dev" || fail "cannot address $dev"
rxe_up "$dev" || fail "no rxe0 on $dev (crc32_generic, rdma_rxe, rdma link add)"
rdma link show
gid=$(gid_index "$addr") || fail "rxe0 has no RoCE v2 GID for $addr"
echo "ib_write_bw.sh: $role: rxe0 on $dev, $addr, RoCE v2 GID index $gid"
perftest+=(-x "$gid")

log=$(mktemp)
if [ "$role" = server ]; then
	timeout "$(scaled 300)" "${perftest[@]}" > "$log" 2>&1
	rc=$?
else
	perftest_connect "$log" "$(scaled 60)" 2 timeout "$(scaled 120)" "${perftest[@]}" "$server"
	rc=$?
	echo "ib_write_bw.sh: client: $PERFTEST_TRIES attempt(s) to reach the server"
fi
cat "$log"
echo "--- rdma statistic (rxe0 counters) ---"
rdma statistic show link rxe0/1
[ "$rc" = 0 ] || fail "ib_write_bw exited with $rc"

# The result row follows perftest's header line:
#  #bytes #iterations BW peak[Gb/sec] BW average[Gb/sec] MsgRate[Mpps]
bw=$(perftest_bw "$log")
if [ -n "$bw" ]; then
	if ! [[ $bw =~ ^[0-9.]+$ ]] || ! awk -v b="$bw" 'BEGIN { exit !(b > 0) }'; then
		fail "measured bandwidth '$bw' Gb/s is not above 0"
	fi
	echo "ib_write_bw.sh: $role: bandwidth $bw Gb/s ($(awk -v b="$bw" 'BEGIN { printf "%.1f", b * 125 }') MB/s)"
elif [ "$role" = client ]; then
	fail "no bandwidth in ib_write_bw's output"
fi
for c in sent_pkts rcvd_pkts; do
	[ "$(counter $c)" -gt 0 ] || fail "rxe0's $c is $(counter $c): no RDMA traffic over rxe"
done
echo "ib_write_bw.sh: $role: rxe0 sent $(counter sent_pkts) and received $(counter rcvd_pkts) packets"
# the server's VM goes last (outlive, rxe_lib.sh)
[ "$role" = client ] || outlive 120 client || fail "the client did not end"
