#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftest-group: timing (rates and queues are measured: run it on a quiet VM)
#
# A pause on one ETS class must not slow the others. Two ETS classes with
# a quantum smaller than their packets (300 bytes against 1514: a class
# needs several rounds of deficit for each packet), 15 Mbit/s offered to
# each through a 20 Mbit/s port, and the peer pausing priority 3 (class
# 1:4) with XOFF refreshed every 100 ms: class 1:1 must get what it is
# offered. (The scheduler used to give up as soon as the paused class came
# round again, even though 1:1 only needed more deficit: 1:1 then sent one
# packet for every few dequeues the traffic set off.)
#
#   ns h1: udpgen prio 0 (1:1) and prio 3 (1:4), 15 Mbit/s each
#     |     v1: root lossless rate 20mbit pfc 3, 1:1 and 1:4 quantum 300
#   ns h2: pfc_send.py: XOFF for priority 3

. "$(dirname "$0")/lib.sh"
require_tools udpgen

two_hosts
ip netns exec "$h1" tc qdisc add dev v1 root handle 1: lossless rate 20mbit pfc 3 &&
	ip netns exec "$h1" tc class change dev v1 classid 1:1 lossless quantum 300 &&
	ip netns exec "$h1" tc class change dev v1 classid 1:4 lossless quantum 300
check_err $? "setting up the port and its ETS classes failed"
log_test "two ETS classes of quantum 300 on a 20 Mbit/s port with PFC on priority 3"

for prio in 3 0; do
	ip netns exec "$h1" "$TOOLS/udpgen" --dst 192.0.2.2 --port 9 --size 1472 \
		--duration 30 --rate 15M --priority "$prio" --flow "$prio" > /dev/null &
	CLEANUP_HOOKS+=("kill $! 2>/dev/null")
done
sleep 1

RET=0
ip netns exec "$h2" python3 "$TOOLS/pfc_send.py" v2 --prio 3:65535 --count 80 \
	--interval 0.1 > /dev/null &
pfc_pid=$!
CLEANUP_HOOKS+=("kill $pfc_pid 2>/dev/null")
wait_for 50 xstat_ge "$h1" v1 3 pfc_rx 2
sleep 0.3
a4=$(class_stat "$h1" v1 1:4 bytes)
a1=$(class_stat "$h1" v1 1:1 bytes)
t0=$(date +%s.%N)
sleep 3
b4=$(class_stat "$h1" v1 1:4 bytes)
b1=$(class_stat "$h1" v1 1:1 bytes)
t1=$(date +%s.%N)
kill -0 $pfc_pid 2> /dev/null
check_err $? "the XOFF refresher ended before the window did: the test could not make its point"
rate1=$(python3 -c "print(round(($b1 - $a1) * 8 / ($t1 - $t0) / 1e6, 2))")
echo "# 1:4 paused: it sent $((b4 - a4)) bytes in 3 s; 1:1 got $rate1 Mbit/s of the 15 offered"
[ $((b4 - a4)) -le 1514 ]
check_err $? "the paused class 1:4 sent $((b4 - a4)) bytes"
python3 -c "import sys; sys.exit(not $rate1 >= 13.5)"
check_err $? "class 1:1 got $rate1 Mbit/s while 1:4 was paused (13.5 at least: 90% of 15)"
log_test "one paused ETS class leaves the other its rate (quantum below the packet size)"

exit "$EXIT_STATUS"
