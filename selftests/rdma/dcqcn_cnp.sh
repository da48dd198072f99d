#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dcqcn_cnp.sh: one end of the CNP test over soft-RoCE between two VMs
# (selftests/rdma/dcqcn_cnp.topo; run_dcqcn_cnp.sh checks the result).
#
#   dcqcn_cnp.sh [server|client]      default: $VM_NAME
#
# Both ends: rxe0 on the link (server 192.0.2.1, client 192.0.2.2; with
# DCQCN_FAMILY=6 RoCE runs over IPv6 instead, 2001:db8::1 and ::2), a
# lossless root qdisc with trust dscp, pfc 3 and "dcqcn np 3 rp 3", and
# ib_write_bw with --tclass=96 (DSCP 24: priority 3). The client's
# port is shaped to 20 Mbit/s and marks ECN on class 1:4 above 8 KB: the
# congestion point. A QP with no limiter is paced at the port's rate, so
# it alone builds no queue there, and marks would come only when a late
# timer lets packets out together (the first CNP of a run came after a
# random delay, up to seconds): a 5 Mbit/s UDP flow of the client's in the
# same class (udpgen, not ECN-capable) keeps a queue standing while the QP
# sends at more than 15 Mbit/s, so that the marks come at once.
#
# Run 1: the client captures the CNPs that come in and the first 20 RoCE
# packets rxe sends (dumpcap), whose ICRCs check the host's ICRC check.
# Run 2: the client's QP is pinned at 4 Mbit/s from its first CNP on
# (rate-to-set-on-first-cnp and rpg-min-rate 4mbit, no increase): pacing
# must hold it there. Each end prints its bandwidth, QP number and
# dcqcn counters after each run, in lines "dcqcn_cnp.sh: ROLE: KEY VALUE"
# that run_dcqcn_cnp.sh reads.
set -u

. "$(dirname "$0")/rxe_lib.sh"

role=${1:-${VM_NAME:-}}
dev=to-${VM_PEERS%% *}
server=192.0.2.1
server6=2001:db8::1
# -u 18: a QP timeout of 4 us * 2^18 (1 s): a paced QP's packets wait
# longer than perftest's default 67 ms, and rxe must not resend them
perftest=(ib_write_bw -d rxe0 -s 65536 -D "$(scaled 8)" -u 18 --tclass=96)
# the second run: the QP's rate pinned at 4 Mbit/s from its first CNP on
PIN=(rate-to-set-on-first-cnp 4mbit rpg-min-rate 4mbit rpg-ai-rate 0 rpg-hai-rate 0)

fail() {
	echo "dcqcn_cnp.sh: $role: FAIL: $*"
	exit 1
}

say() {
	echo "dcqcn_cnp.sh: $role: $*"
}

case $role in
server) addr=$server addr6=$server6 ;;
client) addr=192.0.2.2 addr6=2001:db8::2 ;;
*) fail "role '$role' is neither server nor client" ;;
esac

ip addr add "$addr/24" dev "$dev" || fail "cannot address $dev"
roce=$(roce_addr "$dev" "$addr" "$addr6") || fail "cannot address $dev with $addr6"
say "family ${DCQCN_FAMILY:-4}, RoCE address $roce"
opts=(trust dscp pfc 3 dcqcn np 3 rp 3)
[ "$role" = client ] && opts+=(rate 20mbit)
tc qdisc add dev "$dev" root handle 1: lossless "${opts[@]}" || fail "tc qdisc add lossless ${opts[*]}"
if [ "$role" = client ]; then
	tc class change dev "$dev" classid 1:4 lossless ecn kmin 8k kmax 64k pmax 10 ||
		fail "tc class change 1:4 ecn"
fi
rxe_up "$dev" || fail "no rxe0 on $dev (crc32_generic, rdma_rxe, rdma link add)"
gid=$(gid_index "$roce") || fail "rxe0 has no RoCE v2 GID for $roce"
perftest+=(-x "$gid")

# run N: ib_write_bw, client or server; its bandwidth (MB/s) in "bwN"
run() {
	local log rc tpid gen
	log=$(mktemp)
	if [ "$role" = server ]; then
		timeout "$(scaled 300)" "${perftest[@]}" > "$log" 2>&1
		rc=$?
	else
		"$LOSSLESS_TOP/selftests/tools/udpgen" --dst "$server" --port 9 --size 1000 \
			--tos 0x60 --rate 5000000 --duration "$(scaled 200)" > /dev/null &
		gen=$!
		perftest_connect "$log" "$(scaled 60)" 2 timeout "$(scaled 120)" "${perftest[@]}" "$server"
		rc=$?
		kill "$gen" 2> /dev/null
		wait "$gen" 2> /dev/null
	fi
	cat "$log"
	[ "$rc" = 0 ] || fail "ib_write_bw (run $1) exited with $rc"
	# #bytes #iterations BW peak[MB/sec] BW average[MB/sec] MsgRate[Mpps]
	say "bw$1 $(perftest_bw "$log")"
	# " local address: LID 0000 QPN 0x0011 PSN ..."
	say "qpn$1 $(($(sed -n 's/.*local address:.*QPN \(0x[0-9a-fA-F]*\).*/\1/p' "$log" | head -n 1)))"
	rm -f "$log"
}

# counters N: the dcqcn counters and QPs, as "KEY VALUE" lines
counters() {
	# at once: a QP idle for 5 s is forgotten
	tc -s -j qdisc show dev "$dev" > "$VM_OUT/$role-qdisc$1.json"
	tc -s qdisc show dev "$dev"
	python3 - "$VM_OUT/$role-qdisc$1.json" "$role" "$1" <<'PY'
import json, os, sys
sys.path.insert(0, os.path.join(os.environ["LOSSLESS_TOP"], "selftests/tools"))
from tc_json import owner
# the DCQCN counters: the object that holds np_cnp_sent, wherever tc put it
d = owner(json.load(open(sys.argv[1])), "np_cnp_sent")
for k in ("np_ecn_marked_roce_packets", "np_cnp_sent", "np_cnp_no_peer",
          "rp_cnp_handled", "rp_cnp_ignored", "ect_set", "paced", "qps"):
    print("dcqcn_cnp.sh: %s: %s%s %s" % (sys.argv[2], k, sys.argv[3], d[k]))
for qp in d.get("qp", []):
    print("dcqcn_cnp.sh: %s: qp%s sport %d rate %d paced %d" %
          (sys.argv[2], sys.argv[3], qp["sport"], qp["rate"] * 8, qp["paced"]))
PY
}

# trace EVENTS...: only these dcqcn tracepoints on, the buffer emptied
T=/sys/kernel/tracing
mountpoint -q "$T" || mount -t tracefs nodev "$T" || fail "no tracefs"
trace() {
	local e
	echo 0 > "$T/events/dcqcn/enable"
	for e in "$@"; do
		echo 1 > "$T/events/dcqcn/$e/enable" || fail "no tracepoint dcqcn:$e"
	done
	echo > "$T/trace"
}

# 1. CNPs: the client captures those that come in
if [ "$role" = client ]; then
	trace dcqcn_cnp_handled
else
	trace dcqcn_cnp_sent
fi
if [ "$role" = client ]; then
	cap=$VM_OUT/cnp.pcap
	# UDP 4791 from the server whose BTH opcode (after 8 bytes of UDP) is
	# 0x81; and the first 20 RoCE packets to the server, rxe's
	if [ "${DCQCN_FAMILY:-4}" = 6 ]; then
		cnp="ip6 src host $server6 and udp dst port 4791 and ip6[48] = 0x81"
		data="ip6 dst host $server6 and udp dst port 4791"
	else
		cnp="src host $server and udp dst port 4791 and udp[8] = 0x81"
		data="dst host $server and udp dst port 4791"
	fi
	# dumpcap: tshark's capture engine, without its dissectors, which
	# take seconds to load in the VM
	dumpcap -q -i "$dev" -P -w "$cap" -f "$cnp" 2> "$VM_OUT/capture-cnp.err" &
	tpid=$!
	dumpcap -q -i "$dev" -P -w "$VM_OUT/rxe.pcap" -c 20 -f "$data" 2> "$VM_OUT/capture-rxe.err" &
	rpid=$!
	for _ in $(seq "$(scaled 100)"); do
		grep -q "Capturing on" "$VM_OUT/capture-cnp.err" &&
			grep -q "Capturing on" "$VM_OUT/capture-rxe.err" && break
		sleep 0.2
	done
fi
run 1
if [ "$role" = client ]; then
	sleep 2
	# bounded: in the debug kernel one tshark did not end in 15 minutes
	capture_stop "$tpid" "$(scaled 30)"
	capture_stop "$rpid" "$(scaled 30)"
	say "capture $cap"
	say "rxe_capture $VM_OUT/rxe.pcap"
fi
counters 1
say "trace_cnp_sent1 $(grep -c 'dcqcn_cnp_sent:' "$T/trace")"
say "trace_cnp_handled1 $(grep -c 'dcqcn_cnp_handled:' "$T/trace")"
trace dcqcn_rate

# 2. pacing: the client's new QP held at 4 Mbit/s from its first CNP
if [ "$role" = client ]; then
	tc qdisc change dev "$dev" root lossless dcqcn "${PIN[@]}" || fail "tc qdisc change dcqcn ${PIN[*]}"
	sleep 3		# the server listens again
fi
run 2
counters 2
# the rate changes traced: "... dcqcn_rate: ifindex=.. peer=.. sport=.. rate=4000000 ..."
say "trace_rate2 $(grep -c 'dcqcn_rate:' "$T/trace")"
say "trace_rate2_pinned $(grep -c 'dcqcn_rate:.* rate=4000000 ' "$T/trace")"
# the server's VM goes last (outlive, rxe_lib.sh)
[ "$role" = client ] || outlive 120 client || fail "the client did not end"
