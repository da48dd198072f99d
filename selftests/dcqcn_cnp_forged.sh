#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Forged and malformed CNPs, over IPv4 and IPv6, and a QP table that fills
# up. A QP of h1's
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

# FAM: the family of the RoCEv2 packets and CNPs below, 4 or 6
FAM=4

# roce_out COUNT SPORT STEP [TOS]: COUNT RoCEv2 packets from h1 (an RDMA
# SEND to QP 0x22) over IPv$FAM, from UDP port SPORT, the next STEP
# further each time, with TOS (traffic class) 0x60 unless given
roce_out() {
	ip netns exec "$h1" python3 - "$FAM" "$1" "$2" "$3" "$RQPN" "${4:-0x60}" <<'PY'
import socket, struct, sys
fam, n, first, step, rqpn = (int(a) for a in sys.argv[1:6])
tos = int(sys.argv[6], 0)
if fam == 6:
    s = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_UDP)
    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_TCLASS, tos)
    dst = ("2001:db8::2", 0)
else:
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_UDP)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, tos)
    dst = ("192.0.2.2", 0)
for i in range(n):
    port = first + i * step
    bth = struct.pack("!BBHII", 0x04, 0, 0xffff, rqpn, i)
    payload = bth + bytes(64) + bytes(4)
    udp = struct.pack("!HHHH", port, 4791, 8 + len(payload), 0) + payload
    s.sendto(udp, dst)
PY
}

# cnp KIND: one CNP over IPv$FAM from h2 to h1's QP, well-formed or
# spoilt as KIND says (a packet of the QP first: it is forgotten after 5 s
# without one)
cnp() {
	roce_out 1 "$SPORT" 0
	ip netns exec "$h2" python3 - "$1" "$mac1" "$mac2" "$SPORT" "$LQPN" "$FAM" <<'PY'
import os, socket, struct, sys
sys.path.insert(0, os.path.join(os.environ["LOSSLESS_TOP"], "selftests/tools"))
from roce import csum, icrc
kind, mac1, mac2, sport, lqpn, fam = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
qpn = lqpn + 1 if kind == "other-qp" else lqpn
port = sport + 1 if kind == "other-port" else sport
flags = 0 if kind == "no-becn" else 0x40
reserved = bytes(8 if kind == "short" else 16)
bth = struct.pack("!BBHBBHI", 0x81, 0, 0xffff, flags, qpn >> 16, qpn & 0xffff, 0)
ulen = 8 + len(bth) + len(reserved) + 4
if fam == 6:
    src, dst = socket.inet_pton(socket.AF_INET6, "2001:db8::2"), socket.inet_pton(socket.AF_INET6, "2001:db8::1")
    ip = struct.pack("!IHBB", 6 << 28 | 0xc0 << 20, ulen, 17, 64) + src + dst
    pseudo = src + dst + struct.pack("!IxxxB", ulen, 17)
    ethertype = b"\x86\xdd"
else:
    src, dst = bytes([192, 0, 2, 2]), bytes([192, 0, 2, 1])
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0xc0, 20 + ulen, 7, 0x4000, 64, 17, 0, src, dst)
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    pseudo = src + dst + struct.pack("!BBH", 0, 17, ulen)
    ethertype = b"\x08\x00"
udp = struct.pack("!HHHH", port, 4791, ulen, 0)
c = icrc(ip + udp + bth + reserved + bytes(4))
if kind == "bad-icrc":
    c ^= 1
body = bth + reserved + struct.pack("<I", c)
if kind in ("bad-csum", "good-csum"):
    c = csum(pseudo + udp + body) or 0xffff
    if kind == "bad-csum":
        c ^= 0x0100
    udp = udp[:6] + struct.pack("!H", c)
frame = bytes.fromhex(mac1.replace(":", "")) + bytes.fromhex(mac2.replace(":", "")) + \
    ethertype + ip + udp + body
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

# IPv6: the same QP over IPv6 (rxe's IPv6 GIDs). Its packets out make it
# known and ECT(0); its CNPs are taken or refused as over IPv4; and a
# CE-marked RoCEv2 packet for it from h2 gets an IPv6 CNP back (the NP),
# captured on h2 and checked byte by byte: traffic class DSCP 48, UDP from
# the QP's port with a right checksum, BTH 0x81 with BECN to QP 0x22, and
# the ICRC over the IPv6 fields.
FAM=6
RET=0
ip -n "$h1" -6 addr add 2001:db8::1/64 dev v1 nodad
ip -n "$h2" -6 addr add 2001:db8::2/64 dev v2 nodad
ip -n "$h1" -6 neigh replace 2001:db8::2 lladdr "$mac2" dev v1 nud permanent
ip -n "$h2" -6 neigh replace 2001:db8::1 lladdr "$mac1" dev v2 nud permanent
ect0=$(dstat ect_set)
roce_out 3 "$SPORT" 0
ect=$(dstat ect_set)
# the QP's peer as tc shows it
peer=$(ip netns exec "$h1" tc -s -j qdisc show dev v1 root | python3 -c '
import json, os, sys
sys.path.insert(0, os.path.join(os.environ["LOSSLESS_TOP"], "selftests/tools"))
from tc_json import owner
d = owner(json.load(sys.stdin), "np_cnp_sent")
print(" ".join(q["peer"] for q in d.get("qp", []) if q.get("sport") == int(sys.argv[1])))' "$SPORT")
echo "# IPv6: ect_set $ect0 -> $ect after 3 packets out; the QPs of port $SPORT by peer: $peer"
[ "$ect" = $((ect0 + 3)) ] && [ "$peer" != "${peer/2001:db8::2/}" ]
check_err $? "IPv6 packets out: ect_set $ect0 -> $ect, peers of port $SPORT: $peer"
expect good rp_cnp_handled
expect good-csum rp_cnp_handled
expect bad-icrc cnp_bad_icrc
expect bad-csum cnp_bad_csum
expect no-becn cnp_no_becn
expect short cnp_malformed
expect other-qp cnp_no_qp
log_test "IPv6: a QP learnt from its packets out, its CNPs taken or ignored by reason"

RET=0
sent0=$(dstat np_cnp_sent)
marked0=$(dstat np_ecn_marked_roce_packets)
ip netns exec "$h2" timeout 10 python3 - "$SPORT" "$RQPN" > "$out/cnp6" 2>&1 <<'PY' &
import os, socket, struct, sys
sys.path.insert(0, os.path.join(os.environ["LOSSLESS_TOP"], "selftests/tools"))
from roce import csum, icrc
sport, rqpn = int(sys.argv[1]), int(sys.argv[2])
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x86dd))
s.bind(("v2", 0))
print("listening", flush=True)
while True:
    f = s.recv(2048)[14:]
    if len(f) < 48 or f[6] != 17 or struct.unpack("!H", f[42:44])[0] != 4791 or f[48] != 0x81:
        continue
    udp = f[40:80]
    why = []
    if len(f) != 80: why.append("length %d" % len(f))
    if ((f[0] & 0xf) << 4 | f[1] >> 4) >> 2 != 48: why.append("DSCP")
    if struct.unpack("!H", udp[0:2])[0] != sport: why.append("UDP source port")
    if csum(f[8:40] + struct.pack("!IxxxB", len(udp), 17) + udp) != 0: why.append("UDP checksum")
    if not f[52] & 0x40: why.append("no BECN")
    if struct.unpack("!I", f[52:56])[0] & 0xffffff != rqpn: why.append("DestQP")
    if struct.unpack("<I", f[76:80])[0] != icrc(f): why.append("ICRC")
    print("cnp " + (", ".join(why) or "ok"))
    break
PY
cap=$!
wait_for 50 grep -q listening "$out/cnp6"
roce_out 1 "$SPORT" 0
# from h2, the peer: a CE-marked RoCEv2 packet (DSCP 24) for h1's QP 0x11
ip netns exec "$h2" python3 - "$SPORT" "$LQPN" <<'PY'
import socket, struct, sys
sport, lqpn = int(sys.argv[1]), int(sys.argv[2])
s = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_UDP)
s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_TCLASS, 0x63)
payload = struct.pack("!BBHII", 0x04, 0, 0xffff, lqpn, 1) + bytes(68)
s.sendto(struct.pack("!HHHH", sport, 4791, 8 + len(payload), 0) + payload, ("2001:db8::1", 0))
PY
wait "$cap"
sent=$(dstat np_cnp_sent)
marked=$(dstat np_ecn_marked_roce_packets)
got=$(sed -n 's/^cnp //p' "$out/cnp6")
echo "# IPv6 NP: np_ecn_marked_roce_packets $marked0 -> $marked, np_cnp_sent $sent0 -> $sent; the CNP on h2: ${got:-none}"
[ "$marked" = $((marked0 + 1)) ] && [ "$sent" = $((sent0 + 1)) ] && [ "$got" = ok ]
check_err $? "IPv6 NP: marked $marked0 -> $marked, sent $sent0 -> $sent, CNP ${got:-none}"
log_test "IPv6: a CE-marked packet gets an IPv6 CNP back, checksum and ICRC right"
FAM=4

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
