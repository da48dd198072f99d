#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run_dcqcn_cnp.sh: on the host, boot the two VMs of dcqcn_cnp.topo and
# check the CNPs: every CNP the client captured decodes as a RoCEv2 BTH
# with opcode 0x81 (tshark), BECN set, P_Key 0xffff, DestQP the client's
# QP, 16 zero bytes, DSCP 48 and a valid ICRC (recomputed here from the
# IBA's definition, which finds the ICRCs of rxe's own packets right);
# the server sent as many as the client captured and
# handled (np_cnp_sent = captured = rp_cnp_handled), and CE marks and
# ECT(0) were there to start with; and a QP whose rate is pinned at
# 4 Mbit/s is paced to it. One TAP result per point.
#
#   selftests/rdma/run_dcqcn_cnp.sh [scripts/vm-multi options]
#
# RoCE runs over IPv4, or over IPv6 with DCQCN_FAMILY=6 (what
# run_dcqcn_cnp6.sh does).
#
# selftest-slow-kernel: advisory (CE marks, hence CNPs, need the client to
# fill its 20 Mbit/s port; in the debug kernel soft-RoCE did not)
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
echo "TAP version 13"
echo "1..3"
for cmd in qemu-system-x86_64 ib_write_bw rdma tshark; do
	if ! command -v "$cmd" > /dev/null; then
		echo "ok 1 dcqcn CNP format # SKIP $cmd is not installed"
		echo "ok 2 dcqcn CNP counters # SKIP $cmd is not installed"
		echo "ok 3 dcqcn pacing # SKIP $cmd is not installed"
		exit 4
	fi
done

cd "$top" || exit 1
# RoCE over IPv4 (the default) or IPv6 (DCQCN_FAMILY=6, run_dcqcn_cnp6.sh)
family=${DCQCN_FAMILY:-4}
fam=""
[ "$family" = 4 ] || fam=" (IPv$family)"
export DCQCN_FAMILY=$family
VM_ENV="${VM_ENV:-} DCQCN_FAMILY"
export VM_ENV
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
log=$out/log
start=$SECONDS
VM_KEEP=1 TMPDIR=$out scripts/vm-multi "$@" selftests/rdma/dcqcn_cnp.topo 2>&1 |
	tee "$log" | sed -u 's/^/# /'
rc=${PIPESTATUS[0]}
echo "# wall time $((SECONDS - start)) s, vm-multi exit $rc"

# val ROLE KEY: a value the guest printed
val() {
	sed -n "s/^\[$1\] dcqcn_cnp.sh: $1: $2 \([0-9]*\)$/\1/p" "$log" | tail -n 1
}
cap=$(sed -n 's/^\[client\] dcqcn_cnp.sh: client: capture \(.*\)$/\1/p' "$log")
rxecap=$(sed -n 's/^\[client\] dcqcn_cnp.sh: client: rxe_capture \(.*\)$/\1/p' "$log")
qpn=$(val client qpn1)
python3 - "$cap" "${qpn:--1}" "$family" "$rxecap" > "$out/format" <<'PY'
import struct, sys
sys.path.insert(0, "selftests/tools")
from roce import csum, icrc_ok
cap, qpn, family, rxecap = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]

def frames(path):
    """The IP packets of a pcap file (Ethernet frames)."""
    data = open(path, "rb").read()
    magic, = struct.unpack("<I", data[:4])
    end = "<" if magic == 0xa1b2c3d4 else ">"
    off = 24
    while off + 16 <= len(data):
        _, _, incl, _ = struct.unpack(end + "IIII", data[off:off + 16])
        yield data[off + 16 + 14:off + 16 + incl]
        off += 16 + incl

try:
    pkts = list(frames(cap))
except OSError as e:
    print("no capture: %s" % e)
    sys.exit(0)
n, bad = 0, []
for ip in pkts:
    n += 1
    v6 = ip[0] >> 4 == 6
    hl = 40 if v6 else (ip[0] & 0xf) * 4
    bth = ip[hl + 8:]
    why = []
    if v6 != (family == 6):
        why.append("IPv%d" % (ip[0] >> 4))
    if len(bth) < 32:
        why.append("short (%d bytes after UDP)" % len(bth))
    else:
        ds = ((ip[0] & 0xf) << 4 | ip[1] >> 4) if v6 else ip[1]
        if bth[0] != 0x81: why.append("opcode 0x%02x" % bth[0])
        if not bth[4] & 0x40: why.append("no BECN")
        if struct.unpack(">H", bth[2:4])[0] != 0xffff: why.append("P_Key")
        if struct.unpack(">I", bth[4:8])[0] & 0xffffff != qpn: why.append("DestQP %d, not %d" % (struct.unpack(">I", bth[4:8])[0] & 0xffffff, qpn))
        if any(bth[12:28]): why.append("reserved bytes not zero")
        if ds >> 2 != 48: why.append("DSCP %d" % (ds >> 2))
        if not icrc_ok(ip): why.append("ICRC")
        # IPv6 requires a UDP checksum: the CNPs carry a right one
        ulen = struct.unpack(">H", ip[hl + 4:hl + 6])[0]
        if v6 and (csum(ip[8:40] + struct.pack(">IxxxB", ulen, 17) + ip[40:40 + ulen]) or
                   ip[46:48] == b"\0\0"): why.append("UDP checksum")
    if why:
        bad.append("frame %d: %s" % (n, ", ".join(why)))
print("captured %d" % n)
for b in bad[:5]:
    print(b)
print("bad %d" % len(bad))
# rxe's own packets: the same ICRC check must find them right
try:
    rxe = list(frames(rxecap))
except OSError:
    rxe = []
print("rxe %d %d" % (len(rxe), sum(1 for ip in rxe if len(ip) > 64 and icrc_ok(ip) and (ip[0] >> 4) == family)))
PY
sed 's/^/# /' "$out/format"
captured=$(sed -n 's/^captured //p' "$out/format")
nbad=$(sed -n 's/^bad //p' "$out/format")
read -r nrxe rxeok <<< "$(sed -n 's/^rxe //p' "$out/format")"
echo "# rxe's first RoCE packets captured: ${nrxe:-none}, ${rxeok:-?} over IPv$family with an ICRC this check finds right"
# tshark's own decoding: RoCEv2 (UDP 4791) BTH, opcode 129 (0x81), DestQP
decoded=0
if [ -n "$cap" ] && [ -f "$cap" ]; then
	decoded=$(tshark -r "$cap" -Y "infiniband.bth.opcode == 0x81 && infiniband.bth.destqp == ${qpn:-0}" \
		-T fields -e frame.number 2> /dev/null | wc -l)
fi
echo "# client QP $qpn; CNPs captured ${captured:-none}, tshark decodes $decoded as opcode 0x81 to that QP, ${nbad:-?} malformed"
format_ok() {
	[ "$rc" = 0 ] && [ "${captured:-0}" -gt 0 ] && [ "$nbad" = 0 ] &&
		[ "$decoded" = "$captured" ] && [ "${nrxe:-0}" -gt 0 ] && [ "$rxeok" = "$nrxe" ]
}
if format_ok; then
	echo "ok 1 dcqcn CNP format$fam: every CNP captured is a RoCEv2 BTH 0x81 to the sender's QP with a valid ICRC"
else
	echo "not ok 1 dcqcn CNP format$fam: every CNP captured is a RoCEv2 BTH 0x81 to the sender's QP with a valid ICRC"
fi

sent=$(val server np_cnp_sent1)
marked=$(val server np_ecn_marked_roce_packets1)
handled=$(val client rp_cnp_handled1)
ignored=$(val client rp_cnp_ignored1)
ect=$(val client ect_set1)
echo "# client: ect_set $ect, rp_cnp_handled $handled, rp_cnp_ignored $ignored;" \
	"server: np_ecn_marked_roce_packets $marked, np_cnp_sent $sent; captured ${captured:-none}"
tsent=$(val server trace_cnp_sent1)
thandled=$(val client trace_cnp_handled1)
echo "# tracepoints: dcqcn_cnp_sent ${tsent:-?} (server), dcqcn_cnp_handled ${thandled:-?} (client)"
if [ "${ect:-0}" -gt 0 ] && [ "${marked:-0}" -gt 0 ] && [ "${sent:-0}" -gt 0 ] &&
	[ "$sent" = "$handled" ] && [ "$sent" = "${captured:-}" ] && [ "$ignored" = 0 ] &&
	[ "$tsent" = "$sent" ] && [ "$thandled" = "$handled" ]; then
	echo "ok 2 dcqcn CNP counters$fam: np_cnp_sent = CNPs captured = rp_cnp_handled, as traced"
else
	echo "not ok 2 dcqcn CNP counters$fam: np_cnp_sent = CNPs captured = rp_cnp_handled, as traced"
	rc=1
fi

# 3. pacing: run 2's QP pinned at 4 Mbit/s; ib_write_bw's payload rate
# must stay under it (headers make the wire rate higher) but not fall
# below half of it, and be well under run 1's, which only the 20 Mbit/s
# port and DCQCN limited
bw1=$(sed -n 's/^\[client\] dcqcn_cnp.sh: client: bw1 \([0-9.]*\)$/\1/p' "$log")
bw2=$(sed -n 's/^\[client\] dcqcn_cnp.sh: client: bw2 \([0-9.]*\)$/\1/p' "$log")
qp2=$(sed -n 's/^\[client\] dcqcn_cnp.sh: client: qp2 sport [0-9]* rate \([0-9]*\) paced \([0-9]*\)$/\1 \2/p' "$log" |
	sort -k2 -n | tail -n 1)
read -r rate2 paced2 <<< "${qp2:-0 0}"
trate=$(val client trace_rate2)
tpinned=$(val client trace_rate2_pinned)
echo "# tracepoint dcqcn_rate: ${trate:-?} rate changes in run 2, ${tpinned:-?} to 4000000 bit/s"
echo "# run 1: ${bw1:-?} MB/s; run 2 (pinned at 4 Mbit/s = 0.5 MB/s): ${bw2:-?} MB/s," \
	"its QP at ${rate2} bit/s, ${paced2} packets paced"
if python3 -c 'import sys; b1, b2 = float(sys.argv[1]), float(sys.argv[2]); sys.exit(not (0.25 <= b2 <= 0.5 and b1 >= 2 * b2))' \
	"${bw1:-0}" "${bw2:-0}" && [ "$rate2" = 4000000 ] && [ "$paced2" -gt 0 ] &&
	[ "${tpinned:-0}" -gt 0 ]; then
	echo "ok 3 dcqcn pacing$fam: a QP pinned at 4 Mbit/s sends 0.25 to 0.5 MB/s"
else
	echo "not ok 3 dcqcn pacing$fam: a QP pinned at 4 Mbit/s sends 0.25 to 0.5 MB/s"
	rc=1
fi
format_ok
