#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftest-timeout: 600
# selftest-group: timing (PFC's reaction time decides the headroom used)
#
# Zero loss: 2, 4 and 8 senders into one receiver through a software
# switch that sends PFC. 100000 UDP datagrams on priority 3 (DSCP 24) per
# run, sequence-numbered per sender; the switch's port to the receiver is
# shaped to 3 Mbit/s, below what the senders offer together. With PFC
# nothing is lost or reordered and every sender was paused; the same run
# with "pfc none" on the switch loses datagrams at the shaped port.
#
#   s1 .. s8 --- p1 .. p8 [ sw: bridge br0 ] prx --- rx
#   eth0: lossless        lossless pfc 3 on   prx: rate 3mbit
#   pfc 3 rate 50mbit     every port          buffer 1m
#
# The senders are 50 Mbit/s NICs (pause times agree on both ends: the
# switch's ports to them say "speed 50mbit"). The headroom is automatic,
# with the response time of a software peer in this VM: "response 20ms"
# (from XOFF sent to pause taken, the trace events show up to a few ms
# when the peer's CPU is busy; Documentation/sch_lossless.rst, 4.4).
# Datagrams of 64 bytes on the wire keep the run short (17 s at 3 Mbit/s)
# while the senders, on CPU 0, still offer more than the port takes;
# udpsink runs on CPU 1 when there is one.

. "$(dirname "$0")/lib.sh"
require_tools udpgen udpsink
scratch_dir

TOTAL=${INCAST_TOTAL:-100000}
SIZE=${INCAST_SIZE:-22}
[ "$(nproc)" -gt 1 ] && SINK_CPU=1
SW_OPTS="trust dscp pfc 3 speed 50mbit response ${INCAST_RESPONSE:-20ms}"
HOST_OPTS="trust dscp pfc 3 rate 50mbit"
RX_OPTS="rate ${INCAST_RATE:-3mbit} buffer 1m"
# on every switch port, the lossless class 1:4
CLASS_OPTS="xoff 16k xon 8k"

fabric 8 || { echo "# cannot build the fabric"; exit 1; }

# run N PFC: N senders, TOTAL datagrams; the receiver's JSON in $out/rx.json
run() {
	local n=$1 pfc=$2 count
	fabric_qdiscs "${SW_OPTS/pfc 3/pfc $pfc}" "$RX_OPTS" "$HOST_OPTS" "$CLASS_OPTS" || return 1
	count=$((TOTAL / n))
	sink_start "$rx" "$out/rx.json" --port 9000 --idle 4 --count $((count * n)) \
		--rcvbuf 8388608
	# shellcheck disable=SC2046
	send_prio3 "$count" "$SIZE" $(for i in $(seq "$n"); do fabric_ns "$i"; done)
	sink_wait
}

for n in 2 4 8; do
	t0=$SECONDS
	run "$n" 3
	check_err $? "the run with $n senders could not be set up"
	ports=$(seq -f "p%g" "$n")
	rcv=$(json "$out/rx.json" 'd["total"]["packets"]')
	lost=$(json "$out/rx.json" 'd["total"]["lost"]')
	reord=$(json "$out/rx.json" 'd["total"]["reordered"]')
	sdrop=$(json "$out/rx.json" 'd["socket_drops"]')
	flows=$(json "$out/rx.json" 'len(d["flows"])')
	# shellcheck disable=SC2086
	python3 "$TOOLS/class_stats.py" "$sw" 3 \
		pfc_tx_xoff,pfc_tx_xon,headroom_drops,ingress_bytes,headroom_peak $ports > "$out/sw"
	xoff=$(awk '$1 == "pfc_tx_xoff" { print $2 }' "$out/sw")
	xon=$(awk '$1 == "pfc_tx_xon" { print $2 }' "$out/sw")
	hdrop=$(awk '$1 == "headroom_drops" { print $2 }' "$out/sw")
	left=$(awk '$1 == "ingress_bytes" { print $2 }' "$out/sw")
	peak=$(awk '$1 == "headroom_peak" { print $3 }' "$out/sw")
	drops=$(qdisc_stat "$sw" prx drops)
	paused=0
	for i in $(seq "$n"); do
		[ "$(xstat "$(fabric_ns "$i")" eth0 3 pfc_rx)" -gt 0 ] && paused=$((paused + 1))
	done
	echo "# $n senders: received $rcv of $TOTAL (lost $lost, reordered $reord," \
		"socket drops $sdrop) in $((SECONDS - t0)) s; switch: XOFF $xoff, XON $xon," \
		"headroom drops $hdrop, peak headroom $peak B, prx drops $drops;" \
		"$paused senders paused; sender 1 sent at $(json "$out/tx1.json" 'round(d["rate_bps"] / 1e6, 1)') Mbit/s"
	[ "$rcv" -eq "$TOTAL" ] && [ "$lost" -eq 0 ] && [ "$flows" -eq "$n" ]
	check_err $? "$n senders: received $rcv of $TOTAL, $lost lost, $flows flows"
	[ "$reord" -eq 0 ]
	check_err $? "$n senders: $reord datagrams reordered"
	[ "$hdrop" -eq 0 ] && [ "$drops" -eq 0 ]
	check_err $? "$n senders: the switch dropped (headroom $hdrop, prx $drops)"
	[ "$xoff" -gt 0 ] && [ "$xon" -gt 0 ] && [ "$paused" -eq "$n" ]
	check_err $? "$n senders: XOFF $xoff, XON $xon, $paused of $n senders paused"
	[ "$left" -eq 0 ]
	check_err $? "$n senders: $left bytes still charged to the ingress ports after the run"
	log_test "incast, $n senders: $TOTAL datagrams, none lost or reordered"
done

run 8 none
rcv=$(json "$out/rx.json" 'd["total"]["packets"]')
lost=$(json "$out/rx.json" 'd["total"]["lost"]')
drops=$(qdisc_stat "$sw" prx drops)
echo "# 8 senders, pfc none: received $rcv of $TOTAL (lost $lost); prx dropped $drops"
[ "$rcv" -lt "$TOTAL" ] && [ "$lost" -gt 0 ] && [ "$drops" -gt 0 ]
check_err $? "without PFC nothing was lost ($rcv received, prx drops $drops): the test cannot tell"
log_test "incast, 8 senders, pfc none: the shaped port drops"

exit $EXIT_STATUS
