#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftest-group: timing
#
# Hostile input at a lossless port: floods of malformed PFC frames, of
# valid XOFF/XON frames, of CNPs for QPs that do not exist and of RoCEv2
# garbage (tools/rawflood, as fast as the VM sends), while the port
# carries a priority-3 flow. Each flood is counted where it should be
# (pfc_rx_bad, pfc_rx, rp_cnp_ignored, np_cnp_no_peer) and ignored: the
# flow keeps most of its rate during a malformed flood and after
# a valid one; no report in dmesg (the harness checks).
#
#   ns h1: v1 192.0.2.1, root lossless pfc 3 [dcqcn np 3 rp 3]
#     |                   flow: udpgen, DSCP 24, 20 Mbit/s to h2
#   ns h2: v2 192.0.2.2, floods out of v2 into v1

. "$(dirname "$0")/lib.sh"
require_tools udpgen udpsink rawflood

SECS=3			# each flood
RATE=20000000		# the flow, bit/s
SIZE=500		# its payload
PPS=$((RATE / 8 / (SIZE + 42)))
scratch_dir
long_wire || { echo "# cannot lengthen the receive backlog"; exit 1; }

ns_create h1 h2
veth_connect "$h1" v1 "$h2" v2
ip -n "$h1" addr add 192.0.2.1/24 dev v1
ip -n "$h2" addr add 192.0.2.2/24 dev v2
dcqcn=()
[ -d /sys/module/dcqcn_cc ] && dcqcn=(dcqcn np 3 rp 3)
ip netns exec "$h1" tc qdisc add dev v1 root handle 1: lossless trust dscp pfc 3 "${dcqcn[@]}"
check_err $? "tc qdisc add failed"
log_test "a lossless port with PFC on priority 3${dcqcn:+ and DCQCN}"

mac1=$(link_mac "$h1" v1)
mac2=$(link_mac "$h2" v2)

# frames NAME...: the frames of a flood, in hex, one a line
frames() {
	python3 - "$mac1" "$mac2" "$@" <<'PY'
import os, random, struct, sys
sys.path.insert(0, os.path.join(os.environ["LOSSLESS_TOP"], "selftests/tools"))
from roce import csum
dst, src = (bytes.fromhex(m.replace(":", "")) for m in sys.argv[1:3])
PFC = bytes.fromhex("0180c2000001")
def pfc(vector, times, opcode=0x0101, dest=PFC, length=60):
    f = dest + src + struct.pack("!HHH8H", 0x8808, opcode, vector, *times)
    return (f + bytes(60))[:length]
def roce(payload, sport, tos=0):
    udp = struct.pack("!HHHH", sport, 4791, 8 + len(payload), 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, tos, 20 + len(udp), 0, 0x4000, 64, 17, 0,
                     bytes([192, 0, 2, 2]), bytes([192, 0, 2, 1]))
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    return dst + src + b"\x08\x00" + ip + udp
def bth(opcode, qpn):
    return struct.pack("!BBHII", opcode, 0, 0xffff, qpn & 0xffffff, 0)
rnd = random.Random(1)
out = []
for name in sys.argv[3:]:
    if name == "bad-pfc":
        out += [pfc(0x08, [0, 0, 0, 0xffff, 0, 0, 0, 0], length=59),	# short
                pfc(0x08, [0, 0, 0, 0xffff, 0, 0, 0, 0], opcode=0x0202),	# opcode
                pfc(0x0108, [0, 0, 0, 0xffff, 0, 0, 0, 0]),			# reserved bits
                pfc(0xffff, [0xffff] * 8, opcode=0x0001)]			# 802.3x PAUSE
    elif name == "xoff-xon":
        out += [pfc(0x08, [0, 0, 0, 0xffff, 0, 0, 0, 0]), pfc(0x08, [0] * 8)]
    elif name == "cnp":
        # CNPs for QPs nobody has (16 reserved bytes, an ICRC of zeros)
        out += [roce(bth(0x81, rnd.randrange(1 << 24)) + bytes(20), 0xc000 + i)
                for i in range(8)]
    elif name == "garbage":
        # RoCEv2 to 4791 that is not RoCE: short, random BTHs, CE-marked
        # on priority 3 (DSCP 24), where the NP would answer a known QP
        out += [roce(b"\x81", 0xc001), roce(bytes(11), 0xc002),
                roce(bytes(rnd.randrange(256) for _ in range(40)), 0xc003, tos=0x63),
                roce(bth(0x0a, 17) + bytes(100), 0xc004, tos=0x63),
                roce(bth(0xff, 0xffffff), 0xc005, tos=0x63)]
for f in out:
    print(f.hex())
PY
}

# stats: the root qdisc's statistics (tc -s -j) as "KEY VALUE" lines in
# $out/stats, the class statistics summed over the classes
stats() {
	ip netns exec "$h1" tc -s -j qdisc show dev v1 root > "$out/q.json"
	python3 - "$out/q.json" > "$out/stats" <<'PY'
import json, os, sys
sys.path.insert(0, os.path.join(os.environ["LOSSLESS_TOP"], "selftests/tools"))
from tc_json import find
q = json.load(open(sys.argv[1]))[0]
for k in ("pfc_rx_bad", "rp_cnp_ignored", "np_cnp_no_peer"):
    print(k, find(q, k) if find(q, k) is not None else -1)
print("pfc_rx", sum(c.get("pfc_rx", 0) for c in find(q, "classes") or []))
PY
	echo "rx_dropped $(ip netns exec "$h1" cat /sys/class/net/v1/statistics/rx_dropped)" \
		>> "$out/stats"
}

# stat KEY [FILE]: a value of the last stats, or of those saved in FILE
stat() {
	awk -v k="$1" '$1 == k { print $2 }' "${2:-$out/stats}"
}

flow_sent() {
	class_stat "$h1" v1 1:4 packets
}

# the flow: priority 3 from h1 to h2 for the whole test
sink_start "$h2" "$out/rx.json" --port 9000 --idle 5
ip netns exec "$h1" "$TOOLS/udpgen" --dst 192.0.2.2 --port 9000 --size "$SIZE" \
	--rate "$RATE" --tos 0x60 --duration 300 > "$out/tx.json" &
gen=$!
sleep 2

# flow: "TIME PACKETS" of the flow's class now
flow() {
	echo "$(date +%s.%N) $(class_stat "$h1" v1 1:4 packets)"
}

# pct "T0 P0" "T1 P1": the flow's rate between two flow samples, in % of
# its rate
pct() {
	python3 -c 'import sys; t0, p0 = map(float, sys.argv[1].split()); t1, p1 = map(float, sys.argv[2].split()); print(int((p1 - p0) / (t1 - t0) * 100 / float(sys.argv[3])))' \
		"$1" "$2" "$PPS"
}

# flood NAME...: one flood of SECS seconds; sets SENT, FPS, FLOW (the
# flow's rate during it, in % of its rate) and the deltas of BAD, PFCRX,
# IGN, NOPEER and DROPS (the device's receive drops)
flood() {
	local a f0 f1
	frames "$@" > "$out/frames" || return 1
	mapfile -t fr < "$out/frames"
	stats
	cp "$out/stats" "$out/stats0"
	f0=$(flow)
	ip netns exec "$h2" "$TOOLS/rawflood" v2 --seconds "$SECS" "${fr[@]}" > "$out/flood.json"
	f1=$(flow)
	SENT=$(json "$out/flood.json" 'd["sent"]')
	FPS=$(json "$out/flood.json" 'int(d["rate"])')
	FLOW=$(pct "$f0" "$f1")
	sleep 0.5
	stats
	for a in pfc_rx_bad:BAD pfc_rx:PFCRX rp_cnp_ignored:IGN np_cnp_no_peer:NOPEER \
		 rx_dropped:DROPS; do
		printf -v "${a#*:}" '%d' \
			$(( $(stat "${a%:*}") - $(stat "${a%:*}" "$out/stats0") ))
	done
}

# after: the flow's rate over the 3 s after a flood, in % of its rate
after() {
	local f0
	f0=$(flow)
	sleep 3
	pct "$f0" "$(flow)"
}

flood bad-pfc
echo "# malformed PFC: $SENT frames ($FPS/s), pfc_rx_bad +$BAD, pfc_rx +$PFCRX," \
	"device drops +$DROPS; the flow at $FLOW% of its rate during the flood"
[ "$SENT" -gt 0 ] && [ $((BAD + DROPS)) -eq "$SENT" ] && [ "$PFCRX" -eq 0 ]
check_err $? "malformed frames: sent $SENT, counted bad $BAD + dropped $DROPS, pfc_rx $PFCRX"
[ "$FLOW" -ge 50 ]
check_err $? "the flow got $FLOW% of its rate during the flood (50% at least)"
log_test "malformed PFC flood: every frame counted bad, none obeyed, the flow goes on"

flood xoff-xon
a=$(after)
echo "# XOFF/XON flood: $SENT frames ($FPS/s), pfc_rx +$PFCRX, device drops +$DROPS;" \
	"the flow at $FLOW% during, $a% in the 3 s after"
[ "$SENT" -gt 0 ] && [ $((PFCRX + DROPS)) -eq "$SENT" ]
check_err $? "XOFF/XON frames: sent $SENT, pfc_rx $PFCRX + dropped $DROPS"
# A pause left standing would hold the flow near 0; 80%, not 100%: the
# generator itself runs a few % slow at times under emulation (89% seen)
[ "$a" -ge 80 ]
check_err $? "the flow got $a% of its rate after the flood (80% at least)"
log_test "XOFF/XON flood: every frame counted, the flow resumes after it"

if [ ${#dcqcn[@]} -gt 0 ]; then
	flood cnp
	echo "# CNPs for unknown QPs: $SENT ($FPS/s), rp_cnp_ignored +$IGN, device drops" \
		"+$DROPS; the flow at $FLOW%"
	[ "$SENT" -gt 0 ] && [ $((IGN + DROPS)) -eq "$SENT" ]
	check_err $? "CNPs: sent $SENT, ignored $IGN + dropped $DROPS"
	[ "$FLOW" -ge 50 ]
	check_err $? "the flow got $FLOW% of its rate during the CNP flood"
	log_test "CNP flood for unknown QPs: every CNP counted ignored, the flow goes on"

	flood garbage
	echo "# RoCEv2 garbage: $SENT ($FPS/s), np_cnp_no_peer +$NOPEER, rp_cnp_ignored" \
		"+$IGN, device drops +$DROPS; the flow at $FLOW%"
	[ "$SENT" -gt 0 ] && [ "$NOPEER" -gt 0 ] && [ "$FLOW" -ge 50 ]
	check_err $? "garbage: sent $SENT, np_cnp_no_peer +$NOPEER, the flow at $FLOW%"
	log_test "RoCEv2 garbage flood: CE marks of unknown QPs counted, no CNP, the flow goes on"
else
	echo "# dcqcn_cc is not loaded: no CNP floods"
fi

kill "$gen" 2>/dev/null
wait "$gen" 2>/dev/null
sink_wait
exit $EXIT_STATUS
