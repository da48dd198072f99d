#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftest-group: timing (rates and queues are measured: run it on a quiet VM)
#
# ECN marking, the DCQCN congestion point, measured at the receiver.
#
#   +----------------------------+          +---------------------------+
#   | ns h1: udpgen              |   veth   | ns h2: udpsink            |
#   |  v1 192.0.2.1 2001:db8::1 -+----------+- v2 192.0.2.2 2001:db8::2 |
#   |  v1.10 198.51.100.1 (VLAN) |          |  v2.10 198.51.100.2       |
#   |  root lossless rate 20mbit |          |                           |
#   +----------------------------+          +---------------------------+
#
# The port is shaped to 20 Mbit/s and fed at 40 Mbit/s (or less), so that
# class 1:1's queue is where the test wants it. Every datagram the
# receiver counts went through the qdisc, so the receiver's CE count must
# equal the class's ecn_marked. IPv4 packets with a wrong header checksum
# would be dropped by the receiver's stack: receiving them all shows the
# checksums are right.

. "$(dirname "$0")/lib.sh"
require_tools udpgen udpsink

PAYLOAD=1472		# 1514-byte frames on IPv4
FRAME=1514
scratch_dir

ns_create h1 h2
ns_no_ipv6 "$h1" "$h2"
veth_connect "$h1" v1 "$h2" v2
ip netns exec "$h1" sysctl -qw net.ipv6.conf.v1.disable_ipv6=0
ip netns exec "$h2" sysctl -qw net.ipv6.conf.v2.disable_ipv6=0
ip -n "$h1" addr add 192.0.2.1/24 dev v1
ip -n "$h2" addr add 192.0.2.2/24 dev v2
ip -n "$h1" addr add 2001:db8::1/64 dev v1 nodad
ip -n "$h2" addr add 2001:db8::2/64 dev v2 nodad
ip -n "$h1" link add link v1 name v1.10 type vlan id 10
ip -n "$h2" link add link v2 name v2.10 type vlan id 10
for ns in "$h1" "$h2"; do
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=0
done
ip -n "$h1" addr add 198.51.100.1/24 dev v1.10
ip -n "$h2" addr add 198.51.100.2/24 dev v2.10
ip -n "$h1" addr add 2001:db8:10::1/64 dev v1.10 nodad
ip -n "$h2" addr add 2001:db8:10::2/64 dev v2.10 nodad
ip -n "$h1" link set v1.10 up
ip -n "$h2" link set v2.10 up
mac1=$(link_mac "$h1" v1)
mac2=$(link_mac "$h2" v2)
for a in 192.0.2.2 2001:db8::2; do ip -n "$h1" neigh add "$a" lladdr "$mac2" dev v1; done
for a in 198.51.100.2 2001:db8:10::2; do ip -n "$h1" neigh add "$a" lladdr "$mac2" dev v1.10; done
for a in 192.0.2.1 2001:db8::1; do ip -n "$h2" neigh add "$a" lladdr "$mac1" dev v2; done
for a in 198.51.100.1 2001:db8:10::1; do ip -n "$h2" neigh add "$a" lladdr "$mac1" dev v2.10; done

# port CLASS-OPTIONS...: a fresh lossless root (fresh counters), 20 Mbit/s,
# with these options on class 1:1.
port() {
	ip netns exec "$h1" tc qdisc del dev v1 root 2>/dev/null
	ip netns exec "$h1" tc qdisc add dev v1 root handle 1: lossless rate 20mbit &&
		ip netns exec "$h1" tc class change dev v1 classid 1:1 lossless "$@"
}

# flood NAME DST RATE [udpgen options]: 4 s of datagrams to DST at RATE,
# received into $out/NAME.json.
flood() {
	local name=$1 dst=$2 rate=$3 size=$PAYLOAD
	shift 3
	# 1500-byte IPv6 packets: larger ones would be fragmented, and each
	# fragment is a packet of its own to the qdisc.
	[[ $dst == *:* ]] && size=1452
	sink_start "$h2" "$out/$name.json" --port 5001 --idle 2
	ip netns exec "$h1" "$TOOLS/udpgen" --dst "$dst" --port 5001 --size "$size" \
		--duration 4 --rate "$rate" "$@" > "$out/$name.gen.json"
	sink_wait
}

# The receiver's CE count equals ecn_marked, for IPv4 and IPv6, tagged or
# not, ECT(0) and ECT(1). (The class also carries a few neighbour discovery
# packets: not ECT, so never marked, and not counted by the receiver.)
check_equal() {
	local name=$1 ce marked pkts
	ce=$(json "$out/$name.json" 'd["total"]["ce"]')
	pkts=$(json "$out/$name.json" 'd["total"]["packets"]')
	marked=$(xstat "$h1" v1 0 ecn_marked)
	echo "# $name: received $pkts, CE $ce; class 1:1 ecn_marked $marked;" \
		"receiver socket drops $(json "$out/$name.json" 'd["socket_drops"]')"
	[ "$ce" -eq "$marked" ]
	check_err $? "$name: the receiver counted $ce CE packets, the class marked $marked"
	[ "$marked" -gt 0 ] && [ "$marked" -lt "$pkts" ]
	check_err $? "$name: $marked of $pkts marked: the run did not mark some but not all"
}

port ecn kmin 15k kmax 60k pmax 20 limit 50000
check_err $? "configuring class 1:1 failed"
flood v4 192.0.2.2 40M --tos 0x02
check_equal v4
log_test "IPv4 ECT(0): CE at the receiver == ecn_marked"

port ecn kmin 15k kmax 60k pmax 20 limit 50000
flood v6 2001:db8::2 40M --tos 0x01
check_equal v6
log_test "IPv6 ECT(1): CE at the receiver == ecn_marked"

port ecn kmin 15k kmax 60k pmax 20 limit 50000
flood v4vlan 198.51.100.2 40M --tos 0x01
check_equal v4vlan
log_test "IPv4 on VLAN 10, ECT(1): CE at the receiver == ecn_marked"

port ecn kmin 15k kmax 60k pmax 20 limit 50000
flood v6vlan 2001:db8:10::2 40M --tos 0x02
check_equal v6vlan
log_test "IPv6 on VLAN 10, ECT(0): CE at the receiver == ecn_marked"

# Below kmin: 10 Mbit/s into the 20 Mbit/s port keeps the queue short.
port ecn kmin 200k kmax 400k pmax 100
flood below 192.0.2.2 10M --tos 0x02 --batch 1
peak=$(xstat "$h1" v1 0 peak_backlog)
marked=$(xstat "$h1" v1 0 ecn_marked)
ce=$(json "$out/below.json" 'd["total"]["ce"]')
pkts=$(json "$out/below.json" 'd["total"]["packets"]')
echo "# below kmin: peak backlog $peak bytes (kmin 204800), $pkts received, CE $ce, ecn_marked $marked"
[ "$pkts" -gt 1000 ]
check_err $? "only $pkts datagrams arrived"
[ "$peak" -lt 204800 ]
check_err $? "the queue reached $peak bytes, not below kmin: the test could not make its point"
[ "$marked" -eq 0 ] && [ "$ce" -eq 0 ]
check_err $? "marks while the queue stayed below kmin: ecn_marked $marked, CE $ce"
log_test "no marks while the queue stays below kmin"

# The line: with the class limit holding the queue at a known level q
# (a whole number of frames, the largest that fits below the limit less
# one frame), the marked fraction is pmax (q - kmin) / (kmax - kmin).
for limit in 40000 90000; do
	port ecn kmin 10000 kmax 110000 pmax 50 limit "$limit"
	flood "line$limit" 192.0.2.2 40M --tos 0x02
	q=$(( (limit - FRAME) / FRAME * FRAME ))
	expect=$(python3 -c "print(0.5 * ($q - 10000) / 100000)")
	ce=$(json "$out/line$limit.json" 'd["total"]["ce"]')
	pkts=$(json "$out/line$limit.json" 'd["total"]["packets"]')
	frac=$(python3 -c "print($ce / max($pkts, 1))")
	echo "# limit $limit: queue held at $q bytes, marked $ce of $pkts = $frac, line gives $expect"
	[ "$pkts" -gt 3000 ]
	check_err $? "only $pkts datagrams arrived"
	within "$frac" "$expect" 0.025
	check_err $? "marked fraction $frac is not within 0.025 of the line's $expect"
	log_test "queue held at $q bytes: marked fraction follows the line (tolerance 0.025)"
done

# Non-ECT packets are never marked, even where ECT ones all are.
port ecn kmin 0 kmax 0 pmax 100 limit 50000
sink_start "$h2" "$out/mixed.json" --port 5001 --idle 2
ip netns exec "$h1" "$TOOLS/udpgen" --dst 192.0.2.2 --port 5001 --size "$PAYLOAD" \
	--duration 4 --rate 20M --tos 0x02 --flow 1 > /dev/null &
ip netns exec "$h1" "$TOOLS/udpgen" --dst 192.0.2.2 --port 5001 --size "$PAYLOAD" \
	--duration 4 --rate 20M --tos 0x00 --flow 2 > /dev/null
wait $!
sink_wait
ect_ce=$(json "$out/mixed.json" '[f["ce"] for f in d["flows"] if f["flow"] == 1][0]')
plain=$(json "$out/mixed.json" '[f for f in d["flows"] if f["flow"] == 2][0]')
plain_ce=$(json "$out/mixed.json" '[f["ce"] for f in d["flows"] if f["flow"] == 2][0]')
plain_pkts=$(json "$out/mixed.json" '[f["packets"] for f in d["flows"] if f["flow"] == 2][0]')
plain_not_ect=$(json "$out/mixed.json" '[f["not_ect"] for f in d["flows"] if f["flow"] == 2][0]')
echo "# mixed: ECT flow CE $ect_ce; non-ECT flow $plain"
[ "$ect_ce" -gt 0 ]
check_err $? "the ECT flow was not marked: the queue never passed kmax"
[ "$plain_ce" -eq 0 ] && [ "$plain_not_ect" -eq "$plain_pkts" ] && [ "$plain_pkts" -gt 0 ]
check_err $? "the non-ECT flow: $plain_ce CE, $plain_not_ect not-ECT of $plain_pkts"
log_test "non-ECT packets are never marked"

exit $EXIT_STATUS
