#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftest-group: timing (rates and queues are measured: run it on a quiet VM)
#
# The port shaper holds its rate: a veth behaves as a link of that speed.
#
#   ns h1: udpgen, faster than the shaper -> v1: root lossless rate R
#   ns h2: udpsink measures the rate of what arrives (frame bytes)
#
# First the unshaped rate the VM reaches is measured; a point the VM cannot
# drive at 1.25 times its rate is skipped, with the reason printed. The
# bucket holds 10 ms at the rate: under TCG the qdisc's timer can fire
# milliseconds late, and a bucket shorter than that lateness loses credit.

. "$(dirname "$0")/lib.sh"
require_tools udpgen udpsink

scratch_dir

two_hosts

# measure NAME RATE: 5 s of 1514-byte frames offered at RATE (0: as fast as
# possible); prints the rate received, in bit/s of frame bytes, between the
# first and the last arrival.
measure() {
	sink_start "$h2" "$out/$1.json" --port 5001 --idle 2
	ip netns exec "$h1" "$TOOLS/udpgen" --dst 192.0.2.2 --port 5001 --size 1472 \
		--duration 5 --rate "$2" > /dev/null
	sink_wait
	json "$out/$1.json" \
		"(d['total']['packets'] - 1) * 1514 * 8e9 / max(d['total']['last_ns'] - d['total']['first_ns'], 1)"
}

ip netns exec "$h1" tc qdisc replace dev v1 root handle 1: lossless
max=$(measure unshaped 0)
echo "# unshaped, the VM reaches $(python3 -c "print(round($max / 1e6, 1))") Mbit/s"

for mbit in 10 50 100 1000; do
	rate=$((mbit * 1000000))
	if python3 -c "import sys; sys.exit($max >= 1.25 * $rate)"; then
		TEST_NUM=$((TEST_NUM + 1))
		echo "ok $TEST_NUM - shaper at $mbit Mbit/s # SKIP the VM sends only $(python3 -c "print(round($max / 1e6))") Mbit/s unshaped"
		continue
	fi
	ip netns exec "$h1" tc qdisc del dev v1 root
	ip netns exec "$h1" tc qdisc add dev v1 root handle 1: lossless rate "${mbit}mbit" \
		burst $((mbit * 1250))
	ip netns exec "$h1" tc class change dev v1 classid 1:1 lossless limit 200000
	offer=$(python3 -c "print(int(min($max, 1.5 * $rate)))")
	got=$(measure "r$mbit" "$offer")
	err=$(python3 -c "print(round(100 * ($got - $rate) / $rate, 2))")
	echo "# shaper $mbit Mbit/s: offered $offer bit/s, received $(python3 -c "print(round($got))") bit/s ($err %)"
	within "$got" "$rate" "$(python3 -c "print(0.02 * $rate)")"
	check_err $? "shaper $mbit Mbit/s: received $got bit/s, off by $err %"
	log_test "shaper holds $mbit Mbit/s within 2%"
done

exit $EXIT_STATUS
