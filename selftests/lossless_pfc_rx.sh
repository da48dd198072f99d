#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftest-group: timing (rates and queues are measured: run it on a quiet VM)
#
# Received PFC frames pause the lossless priorities they name, and only
# those; XON resumes at once; a pause runs out by itself; broken frames
# are counted and ignored.
#
#   +-------------------------------+        +-------------------------+
#   | ns h1                          |  veth  | ns h2                   |
#   | udpgen prio 3 (1:4), 15 Mbit/s |        | udpsink                 |
#   | udpgen prio 0 (1:1), 15 Mbit/s |        | pfc_send.py: PFC frames |
#   | v1: root lossless rate 20mbit -+--------+- v2                     |
#   |     pfc 3                      |        |                         |
#   +-------------------------------+        +-------------------------+

. "$(dirname "$0")/lib.sh"
require_tools udpgen

two_hosts
PFC="ip netns exec $h2 python3 $TOOLS/pfc_send.py v2"

ip netns exec "$h1" tc qdisc add dev v1 root handle 1: lossless rate 20mbit pfc 3
check_err $? "tc qdisc add ... pfc 3 failed"
ip netns exec "$h1" tc qdisc show dev v1 | grep -q "pfc 3 "
check_err $? "the dump does not show pfc 3: $(ip netns exec "$h1" tc qdisc show dev v1)"
log_test "pfc 3 is set and shown"

# Both flows until the end of the test; class 1:4 is served first (strict,
# tc 3 > tc 0).
for prio in 3 0; do
	ip netns exec "$h1" "$TOOLS/udpgen" --dst 192.0.2.2 --port 9 --size 1472 \
		--duration 60 --rate 15M --priority "$prio" --flow "$prio" > /dev/null &
	CLEANUP_HOOKS+=("kill $! 2>/dev/null")
done
sleep 1

# XOFF for priority 3, refreshed every 100 ms for 8 s (65535 quanta at
# 20 Mbit/s: 1.7 s each). The window measured starts once the port has
# taken the first frames.
$PFC --prio 3:65535 --count 80 --interval 0.1 &
pfc_pid=$!
wait_for 50 xstat_ge "$h1" v1 3 pfc_rx 2
sleep 0.2
a4=$(class_stat "$h1" v1 1:4 bytes)
a1=$(class_stat "$h1" v1 1:1 bytes)
t0=$(date +%s.%N)
sleep 1.5
b4=$(class_stat "$h1" v1 1:4 bytes)
b1=$(class_stat "$h1" v1 1:1 bytes)
t1=$(date +%s.%N)
kill -0 $pfc_pid 2>/dev/null
check_err $? "the XOFF refresher ended before the window did: the test could not make its point"
wait $pfc_pid
rate1=$(python3 -c "print(($b1 - $a1) * 8 / ($t1 - $t0))")
echo "# paused: class 1:4 sent $((b4 - a4)) bytes; class 1:1 $(python3 -c "print(round($rate1 / 1e6, 2))") Mbit/s of the 20"
[ $((b4 - a4)) -le 1514 ]
check_err $? "class 1:4 sent $((b4 - a4)) bytes while priority 3 was paused"
log_test "XOFF stops priority 3"
# Its share: what it gets with priority 3 idle, all it offers (15 of the
# port's 20 Mbit/s); while priority 3 is paused it must keep 90% of that.
python3 -c "import sys; sys.exit($rate1 < 0.9 * 15e6)"
check_err $? "class 1:1 got $rate1 bit/s while 1:4 was paused, under 90% of the 15 Mbit/s it offers"
log_test "isolation: priority 0 keeps at least 90% of its share while 3 is paused"

# XON: priority 3 resumes at once (long before the last XOFF would end).
$PFC --prio 3:0
c4=$(class_stat "$h1" v1 1:4 bytes)
t0=$(date +%s.%N)
sleep 0.5
d4=$(class_stat "$h1" v1 1:4 bytes)
t1=$(date +%s.%N)
echo "# after XON: class 1:4 sent $((d4 - c4)) bytes in $(python3 -c "print(round($t1 - $t0, 2))") s"
[ $((d4 - c4)) -gt 100000 ]
check_err $? "class 1:4 did not resume after XON: $((d4 - c4)) bytes"
rx=$(xstat "$h1" v1 3 pfc_rx)
pause=$(xstat "$h1" v1 3 pause_us)
echo "# class 1:4: pfc_rx $rx, pause_us $pause"
[ "$rx" -eq 81 ] && [ "$pause" -gt 7000000 ] && [ "$pause" -lt 12000000 ]
check_err $? "counters: pfc_rx $rx (81 expected), pause_us $pause (8 s and more expected)"
log_test "XON resumes at once; pfc_rx and pause_us count"

# A pause runs out by itself: 39063 quanta at speed 10mbit (the slowest
# speed there is) is 2 s.
ip netns exec "$h1" tc qdisc change dev v1 root handle 1: lossless speed 10mbit
rx0=$(xstat "$h1" v1 3 pfc_rx)
$PFC --prio 3:39063
e4=$(class_stat "$h1" v1 1:4 bytes)
sleep 0.5
f4=$(class_stat "$h1" v1 1:4 bytes)
sleep 2.5
g4=$(class_stat "$h1" v1 1:4 bytes)
sleep 0.5
h4=$(class_stat "$h1" v1 1:4 bytes)
echo "# 2 s pause: class 1:4 sent $((f4 - e4)) bytes early in the pause, $((h4 - g4)) after it"
[ "$(xstat "$h1" v1 3 pfc_rx)" -eq $((rx0 + 1)) ]
check_err $? "the frame was not taken"
[ $((f4 - e4)) -le 1514 ] && [ $((h4 - g4)) -gt 100000 ]
check_err $? "a 2 s pause: $((f4 - e4)) bytes during it, $((h4 - g4)) after"
log_test "a pause of 39063 quanta at 10 Mbit/s ends by itself"

# Frames for priorities that are not lossless, broken frames and 802.3x
# PAUSE frames pause nothing; the broken ones are counted.
bad0=$(xstat "$h1" v1 0 pfc_rx)
$PFC --prio 0:65535 --count 3
for kind in pause short opcode reserved unicast; do
	$PFC --prio 3:65535 --kind "$kind" --count 2
done
sleep 0.3
h4=$(class_stat "$h1" v1 1:4 bytes)
sleep 0.5
i4=$(class_stat "$h1" v1 1:4 bytes)
bad=$(ip netns exec "$h1" tc -s -j qdisc show dev v1 root |
	python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["pfc_rx_bad"])')
echo "# broken frames counted: $bad; class 1:1 pfc_rx $(xstat "$h1" v1 0 pfc_rx); class 1:4 sent $((i4 - h4)) bytes"
[ "$bad" -eq 10 ]
check_err $? "pfc_rx_bad is $bad, 10 expected"
[ "$(xstat "$h1" v1 0 pfc_rx)" -eq "$bad0" ]
check_err $? "a PFC frame for priority 0, not lossless, was taken"
[ $((i4 - h4)) -gt 100000 ]
check_err $? "class 1:4 stopped after broken frames"
log_test "broken frames and non-lossless priorities pause nothing"

exit $EXIT_STATUS
