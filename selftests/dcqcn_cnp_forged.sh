#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Forged and malformed CNPs, and a QP table that fills up. A QP of h1's
# (local QP 0x11 to the peer's 0x22, from the UDP port rxe gives that pair)
# sends a few RoCEv2 packets; then h2 sends CNPs for it, one at a time,
# from a raw socket: only the well-formed ones that name the QP by its
# peer, port and QP number are taken (rp_cnp_handled); a bad ICRC, BECN
# unset, a wrong UDP checksum, a CNP too short, another QP number or
# another port are each ignored and counted by reason. Then 4200 new QPs
# (distinct source ports) in a burst: the table stops at 4096, the rest
# are counted (qp_refused), and the QP's packets still go.
#
#   ns h1: v1 192.0.2.1, root lossless trust dscp pfc 3 dcqcn np 3 rp 3
#     |     RoCEv2 out: DSCP 24, BTH DestQP 0x22
#   ns h2: v2 192.0.2.2, CNPs in (AF_PACKET)

. "$(dirname "$0")/lib.sh"
require_cmd python3
[ -d /sys/module/dcqcn_cc ] || skip "dcqcn_cc is not loaded"

scratch_dir
ns_create h1 h2
veth_connect "$h1" v1 "$h2" v2
ip -n "$h1" addr add 192.0.2.1/24 dev v1
ip -n "$h2" addr add 192.0.2.2/24 dev v2
mac1=$(link_mac "$h1" v1)
mac2=$(link_mac "$h2" v2)
ip -n "$h1" neigh replace 192.0.2.2 lladdr "$mac2" dev v1 nud permanent
# a CNP taken pins the QP at 4 Mbit/s (no increase), where it can be seen
ip netns exec "$h1" tc qdisc add dev v1 root handle 1: lossless trust dscp pfc 3 \
	dcqcn np 3 rp 3 rate-to-set-on-first-cnp 4mbit rpg-min-rate 4mbit rpg-ai-rate 0 \
	rpg-hai-rate 0
check_err $? "tc qdisc add lossless ... dcqcn np 3 rp 3 failed"

# rxe's port for QPs 0x11 and 0x22: rdma_get_udp_sport() without a flow label
LQPN=$((0x11))
RQPN=$((0x22))
SPORT=$(python3 -c '
v = 0x11 * 0x22
v ^= v >> 20
v ^= v >> 40
fl = v & 0xfffff
print(((fl & 0x3fff) ^ ((fl & 0xfc000) >> 14)) | 0xc000)')

# roce_out COUNT SPORT STEP: COUNT RoCEv2 packets from h1 (an RDMA SEND
# to QP 0x22), from UDP port SPORT, the next STEP further each time
roce_out() {
	ip netns exec "$h1" python3 - "$1" "$2" "$3" "$RQPN" <<'PY'
import socket, struct, sys
n, first, step, rqpn = (int(a) for a in sys.argv[1:])
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_UDP)
s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, 0x60)
for i in range(n):
    port = first + i * step
    bth = struct.pack("!BBHII", 0x04, 0, 0xffff, rqpn, i)
    payload = bth + bytes(64) + bytes(4)
    udp = struct.pack("!HHHH", port, 4791, 8 + len(payload), 0) + payload
    s.sendto(udp, ("192.0.2.2", 0))
PY
}

# cnp KIND: one CNP from h2 to h1's QP, well-formed or spoilt as KIND says
# (a packet of the QP first: it is forgotten after 5 s without one)
cnp() {
	roce_out 1 "$SPORT" 0
	ip netns exec "$h2" python3 - "$1" "$mac1" "$mac2" "$SPORT" "$LQPN" <<'PY'
import socket, struct, sys, zlib
kind, mac1, mac2, sport, lqpn = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff
src, dst = bytes([192, 0, 2, 2]), bytes([192, 0, 2, 1])
qpn = lqpn + 1 if kind == "other-qp" else lqpn
port = sport + 1 if kind == "other-port" else sport
flags = 0 if kind == "no-becn" else 0x40
reserved = bytes(8 if kind == "short" else 16)
bth = struct.pack("!BBHBBHI", 0x81, 0, 0xffff, flags, qpn >> 16, qpn & 0xffff, 0)
ulen = 8 + len(bth) + len(reserved) + 4
ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0xc0, 20 + ulen, 7, 0x4000, 64, 17, 0, src, dst)
ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
udp = struct.pack("!HHHH", port, 4791, ulen, 0)
# the ICRC: CRC-32 of 8 bytes of ones and the packet, TOS, TTL, the IP and
# UDP checksums and the BTH's resv8a masked to ones, least significant first
masked = bytearray(ip + udp + bth)
for i in (1, 8, 10, 11, 26, 27, 32):
    masked[i] = 0xff
icrc = zlib.crc32(b"\xff" * 8 + bytes(masked) + reserved)
if kind == "bad-icrc":
    icrc ^= 1
body = bth + reserved + struct.pack("<I", icrc)
if kind in ("bad-csum", "good-csum"):
    c = csum(src + dst + struct.pack("!BBH", 0, 17, ulen) + udp + body) or 0xffff
    if kind == "bad-csum":
        c ^= 0x0100
    udp = udp[:6] + struct.pack("!H", c)
frame = bytes.fromhex(mac1.replace(":", "")) + bytes.fromhex(mac2.replace(":", "")) + \
    b"\x08\x00" + ip + udp + body
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("v2", 0))
s.send(frame)
PY
}

# dstat NAME: a dcqcn counter of h1's qdisc
dstat() {
	ip netns exec "$h1" tc -s qdisc show dev v1 root |
		sed -n "/^ dcqcn /s/.* $1 \([0-9]*\).*/\1/p"
}

roce_out 3 "$SPORT" 0
qps=$(dstat qps)
[ "$qps" = 1 ]
check_err $? "h1 knows $qps QPs after its QP's packets out (1 expected)"
log_test "a QP learnt from its packets out"

# expect KIND COUNTER: one CNP of KIND; COUNTER must be the one that grows
expect() {
	local c before after h0 h1_
	before=()
	for c in rp_cnp_handled cnp_malformed cnp_no_becn cnp_bad_csum cnp_bad_icrc cnp_no_qp \
		 rp_cnp_ignored; do
		before+=("$(dstat $c)")
	done
	cnp "$1"
	sleep 0.2
	local i=0 want bad=""
	for c in rp_cnp_handled cnp_malformed cnp_no_becn cnp_bad_csum cnp_bad_icrc cnp_no_qp \
		 rp_cnp_ignored; do
		after=$(dstat $c)
		want=0
		[ "$c" = "$2" ] && want=1
		[ "$c" = rp_cnp_ignored ] && [ "$2" != rp_cnp_handled ] && want=1
		[ "$((after - before[i]))" = "$want" ] || bad="$bad $c+$((after - before[i]))"
		i=$((i + 1))
	done
	echo "# CNP $1: ${bad:-only $2 grew}"
	[ -z "$bad" ]
	check_err $? "CNP $1: counters$bad (only $2 should grow by 1)"
}

RET=0
expect good rp_cnp_handled
expect good-csum rp_cnp_handled
rate=$(ip netns exec "$h1" tc -s -j qdisc show dev v1 root | python3 -c '
import json, sys
q = json.load(sys.stdin)[0]
def find(o):
    if isinstance(o, dict):
        if "qp" in o:
            return o["qp"]
        for v in o.values():
            r = find(v)
            if r is not None:
                return r
    return None
print(" ".join("%s:%s" % (p.get("cnp_handled"), p.get("rate")) for p in find(q) or []))')
# (the QP may have been forgotten and learnt again between the CNPs: 5 s)
echo "# the QP: cnp_handled:rate (bytes/s) $rate"
[ "$rate" != "${rate%:500000}" ] && [ "$rate" = "${rate#0:}" ]
check_err $? "the QP did not take the CNPs: cnp_handled:rate $rate"
log_test "well-formed CNPs that name the QP are taken, with or without a UDP checksum"

RET=0
expect bad-icrc cnp_bad_icrc
expect no-becn cnp_no_becn
expect bad-csum cnp_bad_csum
expect short cnp_malformed
expect other-qp cnp_no_qp
expect other-port cnp_no_qp
log_test "forged and malformed CNPs are ignored, each counted by its reason"

RET=0
roce_out 4200 20000 1
qps=$(dstat qps)
refused=$(dstat qp_refused)
echo "# 4200 new QPs in a burst: $qps known, $refused packets of new QPs refused"
[ "$qps" = 4096 ] && [ "${refused:-0}" -ge $((4200 - 4096)) ]
check_err $? "after 4200 new QPs: $qps known, $refused refused"
before=$(class_stat "$h1" v1 1:4 packets)
roce_out 1 "$SPORT" 0
sleep 0.2
after=$(class_stat "$h1" v1 1:4 packets)
[ "$after" -gt "$before" ]
check_err $? "the QP's packet did not go with the table full ($before -> $after)"
log_test "the QP table stops at 4096, refusals counted, packets still go"

exit "$EXIT_STATUS"
