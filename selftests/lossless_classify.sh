#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Classification: the PCP of a VLAN tag, else skb->priority 0..7, else a
# direct classid selects the traffic class; the strict scheduler serves
# them all when the link is not congested.
#
#   ns h1: v1 (root lossless 1:) -------- v2 :ns h2
#          v1.10 VLAN 10, egress-qos-map 0:3 5:6
#
# Counts are read from `tc -s class show` after each burst.

. "$(dirname "$0")/lib.sh"

ns_create h1 h2
ns_no_ipv6 "$h1" "$h2"
veth_connect "$h1" v1 "$h2" v2
ip -n "$h1" addr add 192.0.2.1/24 dev v1
ip -n "$h2" addr add 192.0.2.2/24 dev v2
ip -n "$h1" link add link v1 name v1.10 type vlan id 10 egress-qos-map 0:3 5:6
ip -n "$h2" link add link v2 name v2.10 type vlan id 10
ip -n "$h1" addr add 198.51.100.1/24 dev v1.10
ip -n "$h2" addr add 198.51.100.2/24 dev v2.10
ip -n "$h1" link set v1.10 up
ip -n "$h2" link set v2.10 up
# Static neighbours on both sides: no ARP request or reply (to the ICMP
# errors h2 sends back) lands in a class under test.
mac1=$(link_mac "$h1" v1)
mac2=$(link_mac "$h2" v2)
ip -n "$h1" neigh add 192.0.2.2 lladdr "$mac2" dev v1
ip -n "$h1" neigh add 198.51.100.2 lladdr "$mac2" dev v1.10
ip -n "$h2" neigh add 192.0.2.1 lladdr "$mac1" dev v2
ip -n "$h2" neigh add 198.51.100.1 lladdr "$mac1" dev v2.10

ip netns exec "$h1" tc qdisc add dev v1 root handle 1: lossless
check_err $? "tc qdisc add failed"
log_test "qdisc add"

# expect_class CLASSID BEFORE COUNT: class CLASSID counted COUNT more.
expect_class() {
	local now
	now=$(class_stat "$h1" v1 "$1" packets)
	[ "$now" -eq $(($2 + $3)) ]
	check_err $? "class $1 counted $((now - $2)) packets, expected $3"
}

for prio in 0 2 5 7; do
	cl="1:$((prio + 1))"
	before=$(class_stat "$h1" v1 "$cl" packets)
	udp_send "$h1" 192.0.2.2 9 50 "$prio"
	expect_class "$cl" "$before" 50
	log_test "untagged, skb->priority $prio -> class $cl"
done

before=$(class_stat "$h1" v1 1:1 packets)
udp_send "$h1" 192.0.2.2 9 50 9
expect_class 1:1 "$before" 50
log_test "untagged, skb->priority 9 (not 802.1Q) -> class 1:1"

before=$(class_stat "$h1" v1 1:7 packets)
udp_send "$h1" 192.0.2.2 9 50 0x10007
expect_class 1:7 "$before" 50
log_test "skb->priority 1:7 (this qdisc's handle) -> class 1:7"

# egress-qos-map turns skb->priority 0 into PCP 3 and 5 into PCP 6.
before=$(class_stat "$h1" v1 1:4 packets)
udp_send "$h1" 198.51.100.2 9 50 0
expect_class 1:4 "$before" 50
log_test "VLAN tag PCP 3 -> class 1:4"

before=$(class_stat "$h1" v1 1:7 packets)
udp_send "$h1" 198.51.100.2 9 50 5
expect_class 1:7 "$before" 50
log_test "VLAN tag PCP 6 wins over skb->priority 5 -> class 1:7"

# The same with the tag in the frame itself: a raw 802.1Q frame from a packet
# socket reaches the qdisc with the tag in its header, not offloaded.
before=$(class_stat "$h1" v1 1:4 packets)
ip netns exec "$h1" python3 - "$mac2" <<'PY'
import socket, sys
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("v1", 0))
dst = bytes.fromhex(sys.argv[1].replace(":", ""))
tci = (3 << 13) | 10
# 802.1Q tag, then the local experimental EtherType 0x88b5 and a payload
frame = dst + s.getsockname()[4] + b"\x81\x00" + tci.to_bytes(2, "big") + b"\x88\xb5" + bytes(60)
for _ in range(50):
    s.send(frame)
PY
expect_class 1:4 "$before" 50
log_test "in-frame VLAN tag PCP 3 -> class 1:4"

# trust dscp: the DSCP picks the priority, DSCP / 8 by default; the VLAN
# tag's PCP and skb->priority no longer count for IP packets.
ip netns exec "$h1" tc qdisc change dev v1 root handle 1: lossless trust dscp
check_err $? "tc qdisc change ... trust dscp failed"
log_test "trust dscp"

for case in "0x00 0 1:1" "0xb8 0 1:6" "0x68 0 1:4" "0x6a 5 1:4" "0xc0 2 1:7" "0x23 0 1:2"; do
	set -- $case
	before=$(class_stat "$h1" v1 "$3" packets)
	udp_send "$h1" 192.0.2.2 9 50 "$2" "$1"
	expect_class "$3" "$before" 50
	log_test "trust dscp: TOS $1 (DSCP $(($1 >> 2))), skb->priority $2 -> class $3"
done

before=$(class_stat "$h1" v1 1:2 packets)
udp_send "$h1" 198.51.100.2 9 50 5 0x20
expect_class 1:2 "$before" 50
log_test "trust dscp: VLAN PCP 6 tag ignored, DSCP 8 -> class 1:2"

# A DSCP map and a priority map: DSCP 46 -> priority 3 -> traffic class 5.
ip netns exec "$h1" tc qdisc change dev v1 root handle 1: lossless trust dscp \
	dscp-prio 46:3 prio-tc 3:5
check_err $? "setting the maps failed"
before=$(class_stat "$h1" v1 1:6 packets)
udp_send "$h1" 192.0.2.2 9 50 0 0xb8
expect_class 1:6 "$before" 50
before=$(class_stat "$h1" v1 1:5 packets)
udp_send "$h1" 192.0.2.2 9 50 0 0x88
expect_class 1:5 "$before" 50
log_test "dscp-prio 46:3 prio-tc 3:5: DSCP 46 -> class 1:6, DSCP 34 -> 1:5"

# Back to trust pcp with the priority map: PCP 3 -> traffic class 5.
ip netns exec "$h1" tc qdisc change dev v1 root handle 1: lossless trust pcp
before=$(class_stat "$h1" v1 1:6 packets)
udp_send "$h1" 198.51.100.2 9 50 0 0xb8
expect_class 1:6 "$before" 50
log_test "trust pcp, prio-tc 3:5: VLAN PCP 3 -> class 1:6"

exit $EXIT_STATUS
