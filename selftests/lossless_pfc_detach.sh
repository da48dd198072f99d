#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A lossless port that goes away tells the peer it paused to resume. One
# sender into a switch port shaped far below its rate (8 kbit/s: the
# queue takes seconds to drain from XOFF to XON, so the port stays
# congested): the switch's port to the sender (p1) pauses it with XOFFs of
# 65535 quanta, 3.4 s at 10 Mbit/s, refreshed every 1.7 s. Then p1's qdisc
# is deleted while the sender is paused: p1 sends one XON and the sender
# resumes at once. Until 2026-12-07 no XON went out and the sender stayed
# paused for 1.7 to 3.4 s more, with nobody left to resume it.
#
#   s1 --- p1 [ sw: bridge br0 ] prx --- rx
#   eth0: lossless pfc 3          prx: rate 8kbit
#   rate 10mbit

. "$(dirname "$0")/lib.sh"
require_tools udpgen
scratch_dir

SW_OPTS="trust dscp pfc 3 speed 10mbit response 20ms"
HOST_OPTS="trust dscp pfc 3 rate 10mbit"
RX_OPTS="rate 8kbit buffer 1m"

fabric 1 || { echo "# cannot build the fabric"; exit 1; }
fabric_qdiscs "$SW_OPTS" "$RX_OPTS" "$HOST_OPTS" "xoff 16k xon 8k"
check_err $? "cannot set the qdiscs up"

ip netns exec "$s1" "$TOOLS/udpgen" --dst 192.0.2.100 --port 9000 --size 200 \
	--duration 30 --tos 0x60 > /dev/null &
CLEANUP_HOOKS+=("kill $! 2>/dev/null")
wait_for 100 xstat_ge "$s1" eth0 3 pfc_rx 1
sleep 0.5
xoff=$(xstat "$sw" p1 3 pfc_tx_xoff)
pausing=$(xstat "$sw" p1 3 pausing)
echo "# before: p1 sent $xoff XOFF, pausing $pausing"
[ "$xoff" -ge 1 ] && [ "$pausing" = 1 ]
check_err $? "the switch does not pause the sender: XOFF $xoff, pausing $pausing"
log_test "the switch's port pauses the sender"

# The port goes; the sender must not stay paused.
ip netns exec "$sw" tc qdisc del dev p1 root
check_err $? "cannot delete p1's qdisc"
t0=$(date +%s.%N)
a=$(xstat "$s1" eth0 3 pause_us)
sleep 1
b=$(xstat "$s1" eth0 3 pause_us)
t1=$(date +%s.%N)
echo "# after the delete: s1 paused $(((b - a) / 1000)) ms" \
	"of the next $(python3 -c "print(round(($t1 - $t0) * 1000))") ms"
[ $((b - a)) -le 100000 ]
check_err $? "the sender stayed paused $(((b - a) / 1000)) ms after its switch port went"
log_test "a port that goes away resumes the peer it paused (XON)"

exit "$EXIT_STATUS"
