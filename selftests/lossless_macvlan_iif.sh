#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A container cannot charge its traffic to a host's port (issue 37, point
# 1). The host H has a lossless port p (to its peer q0 in Q) and a device
# hdev (to R) whose qdisc is shaped far below what comes: packets wait
# there, charged to the port they came in by. The container C has a
# macvlan on hdev, as container runtimes give one, and a veth c1 to a
# source S; C made c1 with the index p has in H. S's datagrams on priority
# 3 come in by c1, C routes them out of mv, and macvlan hands them to
# hdev with skb_iif still c1's index: until 2026-12-07 hdev's qdisc charged
# them to p, which then paused its own peer q0 for traffic that never came
# by it. Now a packet routed in another namespace (its route is that
# namespace's) is charged to no port of H.
#
#   S: s0 --- c1 (index = p's) C: ip_forward, mv (macvlan on hdev)
#   Q: q0 --- p                 H: hdev (rate 1mbit) --- rdev R
#
# 1. Q's datagrams through p and out of hdev: p is charged and pauses q0
#    (the port works, so the check below can fail).
# 2. S's datagrams through C, mv and hdev: p is charged nothing and sends
#    no XOFF; hdev queued them.

. "$(dirname "$0")/lib.sh"
require_tools udpgen
scratch_dir

OPTS="trust dscp pfc 3 speed 10mbit response 20ms"
ns_create H R C S Q || exit 1
ns_no_ipv6 "$H" "$R" "$C" "$S" "$Q"
veth_connect "$H" hdev "$R" rdev &&
veth_connect "$H" p "$Q" q0 || { echo "# cannot build the topology"; exit 1; }
N=$(link_field "$H" p ifindex)
# c1 in C with p's index in H, its peer in S
ip -n "$C" link add c1 index "$N" type veth peer name s0 netns "$S" &&
ip -n "$C" link set c1 up && ip -n "$S" link set s0 up &&
ip -n "$H" link add mv link hdev type macvlan mode bridge &&
ip -n "$H" link set mv netns "$C" && ip -n "$C" link set mv up ||
	{ echo "# cannot build the container's devices"; exit 1; }
ip -n "$H" addr add 10.9.3.1/24 dev hdev
ip -n "$H" addr add 10.9.4.1/24 dev p
ip -n "$R" addr add 10.9.3.2/24 dev rdev
ip -n "$Q" addr add 10.9.4.2/24 dev q0
ip -n "$C" addr add 10.9.1.1/24 dev c1
ip -n "$C" addr add 10.9.3.3/24 dev mv
ip -n "$S" addr add 10.9.1.2/24 dev s0
ip -n "$S" route add default via 10.9.1.1
ip -n "$Q" route add default via 10.9.4.1
for ns in "$H" "$C"; do
	ip netns exec "$ns" sysctl -qw net.ipv4.ip_forward=1
done
rmac=$(link_mac "$R" rdev)
ip -n "$H" neigh replace 10.9.3.2 lladdr "$rmac" dev hdev nud permanent
ip -n "$C" neigh replace 10.9.3.2 lladdr "$rmac" dev mv nud permanent
tc -n "$H" qdisc add dev p root handle 1: lossless $OPTS &&
tc -n "$H" class change dev p classid 1:4 lossless xoff 8k xon 4k &&
tc -n "$H" qdisc add dev hdev root handle 1: lossless $OPTS rate 1mbit buffer 1m &&
tc -n "$Q" qdisc add dev q0 root handle 1: lossless $OPTS
check_err $? "cannot set the qdiscs up"
echo "# p is ifindex $N in H; c1 in C: $(link_field "$C" c1 ifindex)"

# send NS: 2 s of datagrams of 1000 bytes at 4 Mbit/s on priority 3 to R
send() {
	ip netns exec "$1" "$TOOLS/udpgen" --dst 10.9.3.2 --port 9000 --size 1000 \
		--duration 2 --rate 4000000 --tos 0x60 > "$out/tx.json"
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["sent"])' "$out/tx.json"
}

# drain: hdev's queue empty again (1 Mbit/s: seconds)
hdev_empty() {
	[ "$(xstat "$H" hdev 3 backlog_bytes)" = 0 ]
}
drain() {
	wait_for 300 hdev_empty
}

RET=0
sent=$(send "$Q")
xoff=$(xstat "$H" p 3 pfc_tx_xoff)
echo "# from Q through p: $sent sent; p's XOFF frames $xoff, headroom peak $(xstat "$H" p 3 headroom_peak)"
[ "${xoff:-0}" -gt 0 ]
check_err $? "p sent no XOFF for its own peer's traffic (xoff $xoff): the test cannot tell"
drain
log_test "the host's port is charged for what came in by it, and pauses its peer"

RET=0
xoff0=$(xstat "$H" p 3 pfc_tx_xoff)
in0=$(xstat "$H" hdev 3 in)
sent=$(send "$S")
xoff=$(xstat "$H" p 3 pfc_tx_xoff)
ingress=$(xstat "$H" p 3 ingress_bytes)
queued=$(( $(xstat "$H" hdev 3 in) - in0 ))
echo "# from S through C's macvlan: $sent sent, $queued queued at hdev; p's XOFF frames $xoff0 -> $xoff, its ingress bytes now $ingress"
[ "$queued" -gt 0 ]
check_err $? "nothing from the container reached hdev's qdisc ($queued): the test cannot tell"
[ "$xoff" = "$xoff0" ] && [ "$ingress" = 0 ]
check_err $? "the container's traffic was charged to the host's port p: XOFF $xoff0 -> $xoff, ingress $ingress"
drain
log_test "a container's routed traffic is charged to no port of the host"

exit "$EXIT_STATUS"
