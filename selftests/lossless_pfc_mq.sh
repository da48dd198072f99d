#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PFC frames reach every lossless qdisc of a device. On a multi-queue
# device each transmit queue has its own qdisc (the children of mq); a
# pause stops the port's priority whichever queue its packets are in, so
# each of them must hear every frame. Until 2026-12-07 each qdisc hooked
# the device's ingress on its own and the first hook consumed the frame:
# one child counted every frame, the other none (and was never paused).
#
#   ns h1: v1 (2 tx queues): root mq 1:, 1:1 -> lossless 10:, 1:2 -> lossless 20:
#     |
#   ns h2: v2: pfc_send.py sends XOFF, XON and broken frames for priority 3
#
# Then one child goes (replaced by pfifo): the other still hears frames;
# then both go, and the device takes frames with no hook left.

. "$(dirname "$0")/lib.sh"
require_cmd python3

ns_create h1 h2
ns_no_ipv6 "$h1" "$h2"
ip link add v1 netns "$h1" numtxqueues 2 numrxqueues 2 type veth \
	peer name v2 netns "$h2" numtxqueues 2 numrxqueues 2 || skip "no multi-queue veth"
ip -n "$h1" link set v1 up
ip -n "$h2" link set v2 up
PFC="ip netns exec $h2 python3 $TOOLS/pfc_send.py v2"
OPTS="pfc 3 speed 10mbit"

# child_stat HANDLE FIELD: FIELD of traffic class 3 of the lossless child
# HANDLE (10: or 20:) of v1's mq; pfc_rx_bad: the qdisc's own; -1 when
# not found
child_stat() {
	ip netns exec "$h1" tc -s -j qdisc show dev v1 | python3 -c '
import json, sys
sys.path.insert(0, sys.argv[3])
from tc_json import find
for q in json.load(sys.stdin):
    if q.get("kind") != "lossless" or q.get("handle") != sys.argv[1]:
        continue
    if sys.argv[2] == "pfc_rx_bad":
        print(find(q, "pfc_rx_bad"))
        sys.exit(0)
    for c in find(q, "classes") or []:
        if c.get("tc") == 3:
            print(c.get(sys.argv[2], -1))
            sys.exit(0)
print(-1)' "$1" "$2" "$TOOLS"
}

# shellcheck disable=SC2086 # the options are words
ip netns exec "$h1" tc qdisc add dev v1 root handle 1: mq &&
	ip netns exec "$h1" tc qdisc replace dev v1 parent 1:1 handle 10: lossless $OPTS &&
	ip netns exec "$h1" tc qdisc replace dev v1 parent 1:2 handle 20: lossless $OPTS
check_err $? "cannot set up mq with two lossless children"
[ "$(child_stat 10: pfc_rx)" -eq 0 ] && [ "$(child_stat 20: pfc_rx)" -eq 0 ]
check_err $? "the children do not show pfc_rx 0 for priority 3"
log_test "mq with two lossless children (one per transmit queue)"

# Three XOFFs of 65535 quanta (3.4 s each at 10 Mbit/s), then an XON.
$PFC --prio 3:65535 --count 3 --interval 0.1
sleep 0.5
$PFC --prio 3:0
sleep 0.3
for h in 10: 20:; do
	eval "rx_${h%:}=$(child_stat $h pfc_rx) pause_${h%:}=$(child_stat $h pause_us)"
done
# shellcheck disable=SC2154 # set by the eval
echo "# 10: pfc_rx $rx_10, pause_us $pause_10; 20: pfc_rx $rx_20, pause_us $pause_20"
[ "$rx_10" -eq 4 ] && [ "$rx_20" -eq 4 ]
check_err $? "each child should have taken the 4 frames: 10: $rx_10, 20: $rx_20"
# paused from the first XOFF to the XON, about 0.7 s of the 3.4 s asked
[ "$pause_10" -ge 300000 ] && [ "$pause_10" -le 3000000 ] &&
	[ "$pause_20" -ge 300000 ] && [ "$pause_20" -le 3000000 ]
check_err $? "each child should have been paused until the XON: 10: $pause_10 us, 20: $pause_20 us"
log_test "every child hears each XOFF and XON and is paused by it"

$PFC --prio 3:65535 --kind short --count 2
sleep 0.3
b10=$(child_stat 10: pfc_rx_bad)
b20=$(child_stat 20: pfc_rx_bad)
echo "# broken frames: 10: $b10, 20: $b20"
[ "$b10" -eq 2 ] && [ "$b20" -eq 2 ]
check_err $? "each child should count the 2 broken frames: 10: $b10, 20: $b20"
log_test "every child counts a broken frame"

# One child goes: the other keeps hearing frames (the hook stays).
ip netns exec "$h1" tc qdisc replace dev v1 parent 1:1 handle 11: pfifo
check_err $? "cannot replace child 10:"
$PFC --prio 3:0 --count 2
sleep 0.3
rx=$(child_stat 20: pfc_rx)
echo "# after 10: went: 20: pfc_rx $rx"
[ "$rx" -eq 6 ]
check_err $? "child 20: should have taken 2 more frames: pfc_rx $rx, 6 expected"
log_test "the remaining child hears frames after the other went"

# Both gone: frames go nowhere, nothing breaks; a new child hears again.
ip netns exec "$h1" tc qdisc replace dev v1 parent 1:2 handle 21: pfifo
check_err $? "cannot replace child 20:"
$PFC --prio 3:65535 --count 2
ip netns exec "$h1" tc qdisc replace dev v1 parent 1:2 handle 20: lossless $OPTS
check_err $? "cannot add a lossless child again"
$PFC --prio 3:0
sleep 0.3
rx=$(child_stat 20: pfc_rx)
[ "$rx" -eq 1 ]
check_err $? "the new child should count 1 frame: pfc_rx $rx"
log_test "with no lossless child left frames pass; a new child hears them"

exit "$EXIT_STATUS"
