#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftest-group: timing (rates and queues are measured: run it on a quiet VM)
#
# Scheduling under saturation: strict priority starves the lower class;
# ETS splits the bottleneck by the classes' quanta.
#
#   ns h1: two udpgen flows, skb->priority 0 and 1 (classes 1:1, 1:2),
#          30 Mbit/s each, into v1: root lossless rate 20mbit
#   ns h2: the sink (port 9 discard; the counters are the qdisc's)
#
# Each class may queue 300 kB (120 ms at 20 Mbit/s), so that both stay
# backlogged through the senders' scheduling hiccups; the split is read
# from the classes' byte counters over 3 s in the middle of the run.

. "$(dirname "$0")/lib.sh"
require_tools udpgen


two_hosts

# run: both flows for 7 s, flow 1 at priority 0 (class 1:1), flow 2 at
# priority 1 (class 1:2); prints class 1:1's share of the bytes the port
# sent between 2 s and 5 s.
run() {
	local a1 a2 b1 b2
	ip netns exec "$h1" "$TOOLS/udpgen" --dst 192.0.2.2 --port 9 --size 1472 \
		--duration 7 --rate 30M --priority 0 --flow 1 > /dev/null &
	ip netns exec "$h1" "$TOOLS/udpgen" --dst 192.0.2.2 --port 9 --size 1472 \
		--duration 7 --rate 30M --priority 1 --flow 2 > /dev/null &
	sleep 2
	a1=$(class_stat "$h1" v1 1:1 bytes)
	a2=$(class_stat "$h1" v1 1:2 bytes)
	sleep 3
	b1=$(class_stat "$h1" v1 1:1 bytes)
	b2=$(class_stat "$h1" v1 1:2 bytes)
	wait
	python3 -c "print(($b1 - $a1) / max($b1 - $a1 + $b2 - $a2, 1))"
}

setup() {
	ip netns exec "$h1" tc qdisc del dev v1 root 2>/dev/null
	ip netns exec "$h1" tc qdisc add dev v1 root handle 1: lossless rate 20mbit &&
		ip netns exec "$h1" tc class change dev v1 classid 1:1 lossless $1 limit 300000 &&
		ip netns exec "$h1" tc class change dev v1 classid 1:2 lossless $2 limit 300000
}

setup strict strict
check_err $? "configuring strict classes failed"
low=$(run)
echo "# strict: class 1:1 got $low of the port, class 1:2 the rest"
python3 -c "import sys; sys.exit(not $low < 0.02)"
check_err $? "strict: the lower class got $low of the port, expected under 0.02"
log_test "strict priority starves the lower class under saturation"

for q in "3000 1500" "1514 4542"; do
	set -- $q
	setup "quantum $1" "quantum $2"
	check_err $? "configuring ETS classes failed"
	s1=$(run)
	expect=$(python3 -c "print($1 / ($1 + $2))")
	echo "# ETS quanta $1:$2: class 1:1 got $s1 of the port, the quanta give $expect"
	python3 -c "import sys; sys.exit(abs($s1 - $expect) > 0.05 * $expect)"
	check_err $? "ETS $1:$2: class 1:1's share $s1 is not within 5% of $expect"
	log_test "ETS quanta $1:$2 split the bottleneck within 5%"
done

exit $EXIT_STATUS
