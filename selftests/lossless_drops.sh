#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftest-group: timing (rates and queues are measured: run it on a quiet VM)
#
# Lossy classes tail-drop over their limit or when the shared buffer is
# full, and every drop is counted: what the sender sent = what the
# receiver got + the qdisc's drops, per reason.
#
#   ns h1: udpgen 40 Mbit/s -> v1: root lossless rate 20mbit
#   ns h2: udpsink

. "$(dirname "$0")/lib.sh"
require_tools udpgen udpsink

scratch_dir

two_hosts

# flood NAME: 3 s at 40 Mbit/s into the 20 Mbit/s port, class 1:1
flood() {
	sink_start "$h2" "$out/$1.json" --port 5001 --idle 2
	ip netns exec "$h1" "$TOOLS/udpgen" --dst 192.0.2.2 --port 5001 --size 1472 \
		--duration 3 --rate 40M > "$out/$1.gen.json"
	sink_wait
}

# check_conserved NAME REASON: sent == received + drops, all of REASON
check_conserved() {
	local sent got drops limit_drops buffer_drops qdrops
	sent=$(json "$out/$1.gen.json" 'd["sent"]')
	got=$(json "$out/$1.json" 'd["total"]["packets"]')
	drops=$(class_stat "$h1" v1 1:1 drops)
	qdrops=$(qdisc_stat "$h1" v1 drops)
	limit_drops=$(xstat "$h1" v1 0 limit_drops)
	buffer_drops=$(xstat "$h1" v1 0 buffer_drops)
	echo "# $1: sent $sent, received $got; class drops $drops (limit $limit_drops, buffer $buffer_drops), qdisc drops $qdrops"
	[ "$drops" -gt 0 ]
	check_err $? "$1: no drops: the port was not overloaded"
	[ "$sent" -eq $((got + drops)) ]
	check_err $? "$1: sent $sent != received $got + dropped $drops"
	[ "$qdrops" -eq "$drops" ]
	check_err $? "$1: the qdisc counted $qdrops drops, the class $drops"
	if [ "$2" = limit ]; then
		[ "$limit_drops" -eq "$drops" ] && [ "$buffer_drops" -eq 0 ]
	else
		[ "$buffer_drops" -eq "$drops" ] && [ "$limit_drops" -eq 0 ]
	fi
	check_err $? "$1: drops not all counted as $2 drops"
}

ip netns exec "$h1" tc qdisc add dev v1 root handle 1: lossless rate 20mbit
ip netns exec "$h1" tc class change dev v1 classid 1:1 lossless limit 30000
flood limit
check_conserved limit limit
peak=$(xstat "$h1" v1 0 peak_backlog)
[ "$peak" -le 30000 ] && [ "$peak" -gt 25000 ]
check_err $? "peak backlog $peak: not just under the 30000-byte limit"
log_test "over the class limit: tail drops counted as limit_drops"

ip netns exec "$h1" tc qdisc del dev v1 root
ip netns exec "$h1" tc qdisc add dev v1 root handle 1: lossless rate 20mbit buffer 30000
flood buffer
check_conserved buffer buffer
log_test "shared buffer full: tail drops counted as buffer_drops"

exit $EXIT_STATUS
