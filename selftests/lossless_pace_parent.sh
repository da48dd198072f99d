#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DCQCN's pacing inside a lossless qdisc that is the leaf of a classful
# qdisc (drr, ets, hfsc, htb). A paced packet waits inside the lossless
# qdisc, so the leaf's qlen and backlog are what its parent counts. For
# each parent: 200 RoCEv2 datagrams of one QP (UDP 4791, DSCP 24, a BTH)
# through `lossless trust dscp rate 1mbit dcqcn rp 3`, which paces the QP
# at 1 Mbit/s: while they drain, the parent's backlog is the leaf's, most
# of it paced; then both are empty, every datagram sent and none dropped.
# Then 200 more, and the class (ets: the leaf) deleted while they wait, as
# a user would: the parent's counts fall to 0 (the old design kept paced
# packets outside the qdisc: the parent counted 199 packets forever).
#
#   ns h1: v1 192.0.2.1, root PARENT 1:, class 1:1 (matchall) -> lossless 10:
#     |     200 x 1024 bytes from UDP port 49153 to 192.0.2.2:4791, TOS 0x60
#   ns h2: v2 192.0.2.2

. "$(dirname "$0")/lib.sh"
require_tools udpgen
[ -d /sys/module/dcqcn_cc ] || skip "dcqcn_cc is not loaded: nothing paces"

N=200
scratch_dir
ns_create h1 h2
# nothing else out of v1 (IPv6 neighbour discovery) for the counts
ns_no_ipv6 "$h1" "$h2"
veth_connect "$h1" v1 "$h2" v2
ip -n "$h1" addr add 192.0.2.1/24 dev v1
ip -n "$h2" addr add 192.0.2.2/24 dev v2
# no ARP: a neighbour's queue of unresolved packets would drop some
ip -n "$h1" neigh replace 192.0.2.2 lladdr "$(link_mac "$h2" v2)" dev v1 nud permanent
# (nor an ARP reply for h2's ICMP port unreachables)
ip -n "$h2" neigh replace 192.0.2.1 lladdr "$(link_mac "$h1" v1)" dev v2 nud permanent

# send: N RoCEv2 datagrams of one QP, DSCP 24, as fast as the socket's
# send buffer lets them go (udpgen's header is taken for a BTH: opcode
# 0x55, not a CNP). It returns with up to ~90 of them still queued.
send() {
	ip netns exec "$h1" "$TOOLS/udpgen" --dst 192.0.2.2 --port 4791 --size 1024 \
		--tos 0x60 --count "$N" > /dev/null
}

# counts: "QLEN BACKLOG QLEN BACKLOG" of the root qdisc and of the leaf,
# from one reading (packets leave every 8.5 ms)
counts() {
	local w f
	ip netns exec "$h1" tc -s qdisc show dev v1 > "$out/q"
	for w in " root " " parent 1:1 "; do
		for f in qlen backlog; do
			awk -v w="$w" '/^qdisc / { p = index($0, w) > 0 } p' "$out/q" |
				tc_stats_field "$f" 2> /dev/null
		done
	done | xargs
}

# balance: "IN OUT DROPS FLUSHED QUEUED" of the leaf, from one reading
balance() {
	ip netns exec "$h1" tc -s qdisc show dev v1 parent 1:1 > "$out/l"
	echo "$(sed -n '/^ throttled /s/.* in \([0-9]*\).*/\1/p' "$out/l")" \
	     "$(sed -n '/^ throttled /s/.* out \([0-9]*\).*/\1/p' "$out/l")" \
	     "$(tc_stats_field drops < "$out/l")" \
	     "$(sed -n '/^ throttled /s/.* flushed \([0-9]*\).*/\1/p' "$out/l")" \
	     "$(tc_stats_field qlen < "$out/l")"
}

# leaf_stat NAME: a counter of the leaf's qdisc (the line of its own)
leaf_stat() {
	ip netns exec "$h1" tc -s qdisc show dev v1 parent 1:1 |
		sed -n "/^ throttled /s/.* $1 \([0-9]*\).*/\1/p"
}

# setup PARENT [RATE]: the parent, its class 1:1 with a matchall filter
# to it, and the lossless leaf, its port's rate RATE (1mbit)
setup() {
	local t="ip netns exec $h1 tc"
	$t qdisc del dev v1 root 2>/dev/null
	case $1 in
	drr)
		$t qdisc add dev v1 root handle 1: drr &&
		$t class add dev v1 parent 1: classid 1:1 drr ;;
	ets)
		$t qdisc add dev v1 root handle 1: ets strict 1 ;;
	hfsc)
		$t qdisc add dev v1 root handle 1: hfsc &&
		$t class add dev v1 parent 1: classid 1:1 hfsc sc rate 100mbit ul rate 100mbit ;;
	htb)
		$t qdisc add dev v1 root handle 1: htb &&
		$t class add dev v1 parent 1: classid 1:1 htb rate 100mbit ;;
	esac &&
	$t filter add dev v1 parent 1: protocol all prio 1 matchall classid 1:1 &&
	$t qdisc add dev v1 parent 1:1 handle 10: lossless trust dscp rate "${2:-1mbit}" dcqcn rp 3
}

# same A B: whether two "QLEN BACKLOG" readings agree, within the one
# packet that may leave while the core dumps a qdisc (it reads the qlen
# before the qdisc's own statistics, the backlog after) or between the
# parent's dump and the leaf's
same() {
	local q1 b1 q2 b2
	read -r q1 b1 <<< "$1"
	read -r q2 b2 <<< "$2"
	[ $((q1 - q2)) -ge -1 ] && [ $((q1 - q2)) -le 1 ] &&
		[ $((b1 - b2)) -ge -1066 ] && [ $((b1 - b2)) -le 1066 ]
}

# remove PARENT: what a user deletes to get rid of the leaf's traffic
remove() {
	local t="ip netns exec $h1 tc"
	if [ "$1" = ets ]; then
		$t qdisc del dev v1 parent 1:1 handle 10:
	else
		$t filter del dev v1 parent 1: && $t class del dev v1 classid 1:1
	fi
}

for parent in drr ets hfsc htb; do
	RET=0
	setup "$parent"
	check_err $? "$parent: setting up the parent and the lossless leaf failed"
	send
	read -r rq rb lq lb <<< "$(counts)"
	# the leaf's class 10:4 (traffic class 3), in the same reading
	paced=$(awk '/^qdisc / { p = index($0, " parent 1:1 ") > 0 } p' "$out/q" |
		sed -n 's/^  tc 3 .* paced_packets \([0-9]*\).*/\1/p')
	echo "# $parent: just after sending, the root holds ${rq}p ${rb}b, the leaf ${lq}p ${lb}b," \
		"${paced:-?} of them paced"
	same "$rq $rb" "$lq $lb" && [ "$rq" -gt 10 ]
	check_err $? "$parent holds ${rq}p ${rb}b, its lossless leaf ${lq}p ${lb}b"
	[ "${paced:-0}" -gt 0 ]
	check_err $? "no packet of the leaf's class 10:4 is paced: $(grep -E '^  tc 3 ' "$out/q")"
	for _ in $(seq 40); do
		read -r rq rb lq lb <<< "$(counts)"
		[ "$rq" = 0 ] && break
		sleep 0.5
	done
	out_=$(leaf_stat out)
	in_=$(leaf_stat in)
	drops=$(ip netns exec "$h1" tc -s qdisc show dev v1 parent 1:1 | tc_stats_field drops)
	echo "# $parent: drained: root ${rq}p ${rb}b, leaf ${lq}p ${lb}b; the leaf took in $in_," \
		"sent $out_, dropped $drops"
	[ "$rq" = 0 ] && [ "$rb" = 0 ] && [ "$lq" = 0 ] && [ "$lb" = 0 ]
	check_err $? "$parent: not drained after 20 s: root ${rq}p ${rb}b, leaf ${lq}p ${lb}b"
	[ "$in_" = "$N" ] && [ "$out_" = "$N" ] && [ "$drops" = 0 ]
	check_err $? "$parent: the leaf took in $in_, sent $out_, dropped $drops of $N"
	log_test "$parent parent: the paced packets are in the leaf's counts, all $N sent"

	RET=0
	send
	read -r q0 _ <<< "$(counts)"
	remove "$parent"
	check_err $? "$parent: deleting the leaf's class failed"
	read -r rq rb _ <<< "$(counts)"
	echo "# $parent: leaf deleted with ${q0}p waiting: the root holds ${rq}p ${rb}b"
	[ "$q0" -gt 10 ] && [ "$rq" = 0 ] && [ "$rb" = 0 ]
	check_err $? "$parent still counts ${rq}p ${rb}b once its only class is gone"
	log_test "$parent parent: deleting the paced leaf leaves nothing counted"
done

# What takes paced packets away inside the leaf, under a drr parent: a
# smaller buffer (buffer drops, paced packets first) and a reset (the
# device down: flushed); the parent's counts follow and every packet is
# accounted for.
# (the port at 100 kbit/s: what the socket lets queue, about 40 packets,
# takes 3 s to drain)
setup drr 100kbit
check_err $? "drr: setting up the parent and the lossless leaf failed"
send
ip netns exec "$h1" tc qdisc change dev v1 parent 1:1 handle 10: lossless buffer 16k
check_err $? "tc qdisc change ... lossless buffer 16k failed"
read -r rq rb lq lb <<< "$(counts)"
read -r in_ out_ drops flushed queued <<< "$(balance)"
echo "# buffer 16k with packets waiting: root ${rq}p ${rb}b, leaf ${lq}p ${lb}b;" \
	"the leaf took in $in_: sent $out_, dropped $drops, flushed $flushed, holds $queued"
same "$rq $rb" "$lq $lb" && [ "$lb" -le 16384 ] && [ "$drops" -gt 0 ] &&
	[ "$in_" = $((out_ + drops + flushed + queued)) ]
check_err $? "after the buffer shrank: root ${rq}p ${rb}b, leaf ${lq}p ${lb}b, in $in_ !=" \
	"out $out_ + drops $drops + flushed $flushed + queued $queued?"
log_test "a smaller buffer drops paced packets: counted, and the parent follows"

ip netns exec "$h1" tc qdisc change dev v1 parent 1:1 handle 10: lossless buffer 4m
send
ip -n "$h1" link set v1 down
read -r rq rb lq lb <<< "$(counts)"
read -r in_ out_ drops flushed queued <<< "$(balance)"
ip -n "$h1" link set v1 up
echo "# device down with packets waiting: root ${rq}p ${rb}b, leaf ${lq}p ${lb}b;" \
	"the leaf took in $in_: sent $out_, dropped $drops, flushed $flushed, holds $queued"
[ "$rq" = 0 ] && [ "$lq" = 0 ] && [ "$flushed" -gt 0 ] &&
	[ "$in_" = $((out_ + drops + flushed + queued)) ]
check_err $? "after a reset: root ${rq}p, leaf ${lq}p, in $in_ != out $out_ + drops $drops" \
	"+ flushed $flushed + queued $queued?"
log_test "a reset frees paced packets: counted flushed, nothing left counted"

exit "$EXIT_STATUS"
