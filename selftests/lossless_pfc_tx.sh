#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftest-timeout: 400
# selftest-group: timing (PFC's reaction time decides the headroom used)
#
# PFC transmit, on the wire and hop by hop:
#
#  1. frames: two senders into a switch port shaped below their sum
#     (fabric, as lossless_pfc_incast.sh); tshark captures what the
#     switch sends to sender 1 and must decode every frame as MAC Control
#     class-based flow control (opcode 0x0101) from the port's MAC to
#     01:80:c2:00:00:01 for priority 3 only, XOFF with 65535 quanta and
#     XON with 0, XON after XOFF, no expert warning, and as many frames
#     of each kind as the port's pfc_tx_xoff and pfc_tx_xon counters;
#  2. headroom: the same with "headroom 1514" (one MTU) on the switch's
#     ports: the senders cannot stop within one packet, so headroom_drops
#     count and the receiver misses exactly those; with "headroom auto"
#     (part 1) nothing is dropped;
#  3. propagation over two switch hops:
#
#       h1 --+
#            a1 [ A ] aup ---- bdn [ B ] brx --- r      brx: rate 3mbit
#       h2 --+a2
#
#     B's shaped port congests; B pauses A (bdn sends XOFF, aup receives
#     it); A's queue to B grows and A pauses the hosts (a1, a2 send XOFF);
#     nothing is lost.

. "$(dirname "$0")/lib.sh"
require_tools udpgen udpsink
require_cmd tshark dumpcap
scratch_dir

COUNT=20000
SIZE=22
[ "$(nproc)" -gt 1 ] && SINK_CPU=1
SW_OPTS="trust dscp pfc 3 speed 50mbit response 20ms"
HOST_OPTS="trust dscp pfc 3 rate 50mbit"
RX_OPTS="rate 3mbit buffer 1m"

fabric 2 || { echo "# cannot build the fabric"; exit 1; }
fabric_qdiscs "$SW_OPTS" "$RX_OPTS" "$HOST_OPTS" "xoff 16k xon 8k"
check_err $? "cannot set the qdiscs up"

# --- 1. the frames on the wire ---------------------------------------
ip netns exec "$s1" dumpcap -q -i eth0 -f "ether proto 0x8808" -w "$out/pfc.pcapng" \
	2> "$out/dumpcap.err" &
cap=$!
CLEANUP_HOOKS+=("kill $cap 2>/dev/null")
wait_for 100 grep -q "Capturing on" "$out/dumpcap.err" 2>/dev/null
sink_start "$rx" "$out/rx.json" --port 9000 --idle 4 --count $((2 * COUNT)) --rcvbuf 8388608
send_prio3 $COUNT $SIZE "$s1" "$s2"
sink_wait
sleep 0.5
capture_stop $cap "$(scaled 30)"
xoff=$(class_sum "$sw" 3 pfc_tx_xoff p1)
xon=$(class_sum "$sw" 3 pfc_tx_xon p1)
hdrop=$(class_sum "$sw" 3 headroom_drops p1 p2)
mac=$(link_mac "$sw" p1)
tshark -r "$out/pfc.pcapng" -T fields -E separator=, -e eth.src -e eth.dst \
	-e macc.opcode -e macc.cbfc.enbv -e macc.cbfc.pause_time.c3 > "$out/frames.csv" \
	2> "$out/tshark.err"
python3 - "$out/frames.csv" "$mac" "$xoff" "$xon" <<'PY' > "$out/verdict"
import sys
rows = [l.strip().split(",") for l in open(sys.argv[1]) if l.strip()]
mac, xoff_n, xon_n = sys.argv[2].lower(), int(sys.argv[3]), int(sys.argv[4])
bad = [r for r in rows if len(r) != 5 or r[0].lower() != mac or r[1] != "01:80:c2:00:00:01"
       or int(r[2], 0) != 0x0101 or int(r[3], 0) != 0x08]
xoffs = [i for i, r in enumerate(rows) if len(r) == 5 and r[4] == "65535"]
xons = [i for i, r in enumerate(rows) if len(r) == 5 and r[4] == "0"]
ok = (rows and not bad and len(xoffs) == xoff_n and len(xons) == xon_n and
      len(xoffs) + len(xons) == len(rows) and xoffs[0] < xons[0])
print("frames %d, XOFF %d (counter %d), XON %d (counter %d), malformed %d, first XON after first XOFF %s"
      % (len(rows), len(xoffs), xoff_n, len(xons), xon_n, len(bad),
         bool(xoffs and xons and xoffs[0] < xons[0])))
sys.exit(0 if ok else 1)
PY
check_err $? "the captured frames do not match: $(cat "$out/verdict"); first rows: $(head -3 "$out/frames.csv" | tr '\n' ' ')"
echo "# captured on s1: $(cat "$out/verdict")"
tshark -r "$out/pfc.pcapng" -q -z expert > "$out/expert" 2> "$out/tshark.err"
# tshark -z expert lists "Errors (N)" and "Warns (N)" sections when it has any
! grep -qE "^(Errors|Warns) \(" "$out/expert"
check_err $? "tshark reports expert warnings: $(tr '\n' ' ' < "$out/expert")"
log_test "PFC frames decode as class-based flow control for priority 3; XON follows XOFF; frames = counters"

rcv=$(json "$out/rx.json" 'd["total"]["packets"]')
echo "# headroom auto: received $rcv of $((2 * COUNT)), headroom drops $hdrop"
[ "$rcv" -eq $((2 * COUNT)) ] && [ "$hdrop" -eq 0 ]
check_err $? "headroom auto: received $rcv of $((2 * COUNT)), $hdrop headroom drops"
log_test "headroom auto: no headroom drop, nothing lost"

# --- 2. a headroom of one MTU ------------------------------------------
for d in p1 p2; do
	tc -n "$sw" class change dev "$d" classid 1:4 lossless headroom 1514
	check_err $? "cannot set headroom 1514 on $d"
done
sink_start "$rx" "$out/rx.json" --port 9000 --idle 4 --count $((2 * COUNT)) --rcvbuf 8388608
send_prio3 $COUNT $SIZE "$s1" "$s2"
sink_wait
hdrop2=$(class_sum "$sw" 3 headroom_drops p1 p2)
rcv=$(json "$out/rx.json" 'd["total"]["packets"]')
prx=$(qdisc_stat "$sw" prx drops)
echo "# headroom 1514: received $rcv of $((2 * COUNT)); headroom drops $((hdrop2 - hdrop)), prx drops $prx"
[ $((hdrop2 - hdrop)) -gt 0 ] && [ $((rcv + hdrop2 - hdrop)) -eq $((2 * COUNT)) ]
check_err $? "headroom 1514: $((hdrop2 - hdrop)) headroom drops, $rcv received of $((2 * COUNT))"
log_test "headroom of one MTU: headroom drops counted, and they are exactly what is lost"

# --- 3. two hops -------------------------------------------------------
cleanup_namespaces
ns_create h1 h2 A B r
ns_no_ipv6 "$h1" "$h2" "$A" "$B" "$r"
veth_connect "$h1" eth0 "$A" a1 && veth_connect "$h2" eth0 "$A" a2 &&
	veth_connect "$A" aup "$B" bdn && veth_connect "$B" brx "$r" eth0
check_err $? "cannot build the two-hop topology"
ip -n "$r" addr add 192.0.2.100/24 dev eth0
rmac=$(link_mac "$r" eth0)
for sw_ns in "$A" "$B"; do
	ip -n "$sw_ns" link add br0 type bridge
	ip -n "$sw_ns" link set br0 up
done
for d in a1 a2 aup; do ip -n "$A" link set "$d" master br0; done
for d in bdn brx; do ip -n "$B" link set "$d" master br0; done
bridge -n "$A" fdb add "$rmac" dev aup master static
bridge -n "$B" fdb add "$rmac" dev brx master static
i=0
for h in "$h1" "$h2"; do
	i=$((i + 1))
	ip -n "$h" addr add "192.0.2.$i/24" dev eth0
	ip -n "$h" neigh add 192.0.2.100 lladdr "$rmac" dev eth0
	# shellcheck disable=SC2086
	tc -n "$h" qdisc add dev eth0 root handle 1: lossless $HOST_OPTS
done
# shellcheck disable=SC2086
tc -n "$r" qdisc add dev eth0 root handle 1: lossless $HOST_OPTS
for d in "$A a1" "$A a2" "$A aup" "$B bdn" "$B brx"; do
	read -r n dev <<< "$d"
	# shellcheck disable=SC2086
	tc -n "$n" qdisc add dev "$dev" root handle 1: lossless $SW_OPTS \
		$([ "$dev" = brx ] && echo "$RX_OPTS") &&
		tc -n "$n" class change dev "$dev" classid 1:4 lossless xoff 16k xon 8k
	check_err $? "cannot set the qdisc of $dev up"
done
sink_start "$r" "$out/rx.json" --port 9000 --idle 4 --count $((2 * COUNT)) --rcvbuf 8388608
send_prio3 $COUNT $SIZE "$h1" "$h2"
sink_wait
rcv=$(json "$out/rx.json" 'd["total"]["packets"]')
b_xoff=$(class_sum "$B" 3 pfc_tx_xoff bdn)
a_rx=$(class_sum "$A" 3 pfc_rx aup)
a_pause=$(class_sum "$A" 3 pause_us aup)
a_xoff=$(class_sum "$A" 3 pfc_tx_xoff a1 a2)
h_rx=$(( $(class_sum "$h1" 3 pfc_rx eth0) + $(class_sum "$h2" 3 pfc_rx eth0) ))
drops=$(( $(class_sum "$A" 3 headroom_drops a1 a2 aup) + $(class_sum "$B" 3 headroom_drops bdn brx) ))
echo "# two hops: B's bdn sent $b_xoff XOFF; A's aup received $a_rx frames, paused $a_pause us;" \
	"A's a1+a2 sent $a_xoff XOFF; the hosts received $h_rx; received $rcv of $((2 * COUNT)), headroom drops $drops"
[ "$b_xoff" -gt 0 ] && [ "$a_rx" -gt 0 ] && [ "$a_pause" -gt 0 ]
check_err $? "hop B -> A: bdn XOFF $b_xoff, aup pfc_rx $a_rx, pause_us $a_pause"
[ "$a_xoff" -gt 0 ] && [ "$h_rx" -gt 0 ]
check_err $? "hop A -> hosts: a1+a2 XOFF $a_xoff, hosts pfc_rx $h_rx"
[ "$rcv" -eq $((2 * COUNT)) ] && [ "$drops" -eq 0 ]
check_err $? "two hops: received $rcv of $((2 * COUNT)), $drops headroom drops"
log_test "two hops: the pause spreads from B to A to the hosts, nothing lost"

exit $EXIT_STATUS
