#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dcqcn_fabric.sh: one VM of the DCQCN experiment (dcqcn_fabric.topo;
# run_dcqcn_fabric.sh and dcqcn_fabric_report.py read the results).
#
#   dcqcn_fabric.sh rx|s1|s2      default: $VM_NAME
#
# Two runs of RDMA WRITEs (ib_write_bw, DSCP 24: priority 3) from s1 and
# s2 at once to rx: "off" without DCQCN, "on" with it. rx's VM holds the
# switch (netns sw: a bridge of to-s1, to-s2 and sw-rx, a veth to rx0 in
# rx's namespace). Every 100 ms (qdisc_sampler.py, on the guest's wall
# clock) the switch records its queue to rx and the bytes in and out of
# each port (sw-RUN.dat in $VM_OUT) and each sender its QP's DCQCN rate
# (SENDER-RUN.dat); clock-ROLE-I let the host put them on one clock. The
# switch's PFC and drop counters are printed as "dcqcn_fabric.sh: ROLE:
# KEY VALUE" lines.
set -u

. "$(dirname "$0")/rxe_lib.sh"

role=${1:-${VM_NAME:-}}
RATE=8mbit		# every link, and the bottleneck
RATE_BPS=8000000
MTU=${FABRIC_MTU:-1500}	# rxe's packets: 1 KiB of payload
# The shapers' bucket: a VM's timers fire milliseconds late, and a shaper
# whose bucket is smaller than that loses link time (the default, two
# packets, gave 87-90% of the rate): 16 KiB, 16 ms at the rate
read -r -a BURST <<< "${FABRIC_BURST:-burst 16k}"
# The knobs: the paper's (Zhu et al. 2015, at 40 Gbit/s; a CNP loop of
# tens of microseconds) scaled to this testbed (8 Mbit/s; a CNP loop of
# about ten milliseconds between VMs): rates divided by 5000 (the link
# speeds), times multiplied by 500 (the loops), so knobs in bytes (a rate
# times a time) divided by 10. Documentation/dcqcn_cc.rst, section 6, has
# the table. FABRIC_* override them, to explore; the targets are checked
# for these values.
#
# PFC's bit time: a pause is counted in quanta of 512 bit times of the
# port's speed. At 40 Gbit/s the longest pause (65535 quanta) is 0.84 ms;
# times 500 it is 0.42 s, the pause of an 80 Mbit/s port: every qdisc of
# the fabric times pauses at that speed
SPEED=${FABRIC_SPEED:-80mbit}
SECS=${FABRIC_SECS:-40}	# each sender's run
RX=192.0.2.10
RX6=2001:db8::10	# with DCQCN_FAMILY=6, RoCE runs over IPv6 (rxe_lib.sh)
# the switch's congestion point (sw-rx, class 1:4): Kmin 5 KB -> 512 B,
# Kmax 200 KB -> 20 KB, Pmax 1%
read -r -d "" -a ECN <<< "${FABRIC_ECN:-ecn kmin 512 kmax 20k pmax 1}"
# the switch's ingress thresholds for priority 3 (to-s1, to-s2):
# sch_lossless's defaults. rxe keeps at most 128 packets of a QP unacked,
# about 135 KB: without DCQCN each sender fills more than XOFF
read -r -d "" -a INGRESS <<< "${FABRIC_INGRESS:-xoff 64k xon 32k}"
# RP: T = K = 55 us -> 27.5 ms, F = 5, R_AI = 40 Mbit/s -> 8 kbit/s,
# g = 1/256 (dce-tcp-g 1020), B = 10 MB -> 1 MB; R_HAI = 10 R_AI, the
# monitor period (4 us -> 2 ms) and the minimum rate (1 Mbit/s -> 200
# bit/s) are mlx5's
read -r -d "" -a DCQCN_RP <<< "${FABRIC_RP:-dcqcn rp 3 rpg-time-reset 27500us dce-tcp-rtt 27500us
	rpg-threshold 5 rpg-ai-rate 8kbit rpg-hai-rate 80kbit dce-tcp-g 1020
	rpg-byte-reset 1mb rate-reduce-monitor-period 2ms rpg-min-rate 200bit}"
# NP: at most one CNP per QP every 50 us -> 25 ms
read -r -d "" -a DCQCN_NP <<< "${FABRIC_NP:-dcqcn np none min-time-between-cnps 25ms}"
# 4 KiB messages: rxe asks for an ACK at the end of each message, and the
# receiver's NP learns a sender's QP from the first packet back (a NIC
# knows it from the QP's context): with 64 KiB messages a sender that
# started late got no CNP for its first 64 packets
perftest=(ib_write_bw -d rxe0 -s 4096 -D "$SECS" -u 18 --tclass=96)
# the scene's phases (barrier, rxe_lib.sh): every VM up; per run, both
# servers listening and both senders' samplers going, then every VM done
# with the run. Limits, in seconds (scaled): coming up (rxe, the GID
# table), one phase, one run (perftest's own time and its setup)
ROLES=(rx s1 s2)
UP_SECS=300
STEP_SECS=120
RUN_SECS=$((SECS + 120))
SAMPLER=$LOSSLESS_TOP/selftests/tools/qdisc_sampler.py
RECORDER=$LOSSLESS_TOP/selftests/tools/flight_recorder.py

fail() {
	echo "dcqcn_fabric.sh: $role: FAIL: $*"
	exit 1
}

say() {
	echo "dcqcn_fabric.sh: $role: $*"
}

# sw_stats TAG: the switch's counters, "TAG_KEY VALUE"
sw_stats() {
	local p
	for p in to-s1 to-s2 sw-rx; do
		ip netns exec sw tc -s -j qdisc show dev "$p" > "$VM_OUT/sw-$1-$p.json"
	done
	python3 - "$VM_OUT" "$1" <<'PY'
import json, os, sys
sys.path.insert(0, os.path.join(os.environ["LOSSLESS_TOP"], "selftests/tools"))
from tc_json import find
out, tag = sys.argv[1], sys.argv[2]
tot = {"xoff": 0, "drops": 0, "headroom_drops": 0}
for p in ("to-s1", "to-s2", "sw-rx"):
    q = json.load(open("%s/sw-%s-%s.json" % (out, tag, p)))[0]
    tot["drops"] += find(q, "drops") or 0
    for c in find(q, "classes") or []:
        if c.get("tc") == 3:
            tot["xoff"] += c.get("pfc_tx_xoff", 0)
            tot["headroom_drops"] += c.get("headroom_drops", 0)
for k, v in tot.items():
    print("dcqcn_fabric.sh: rx: %s_%s %d" % (tag, k, v))
PY
}

# ets NS DEV: classes 1:1 (priority 0: perftest's TCP) and 1:4 (RDMA) share
# the port by ETS, so that a saturated RDMA class does not starve the TCP
# connection perftest sets up and ends with (strict priority would)
ets() {
	local c
	for c in 1:1 1:4; do
		if [ -n "$1" ]; then
			ip netns exec "$1" tc class change dev "$2" classid "$c" lossless quantum 1514
		else
			tc class change dev "$2" classid "$c" lossless quantum 1514
		fi || fail "ets on $2 $c"
	done
}

# clock: this guest's wall clock against the host's, which stamps the
# files of the shared directory: five files, each holding the guest's time
# just before the host stamped it (dcqcn_fabric_report.py takes the
# smallest difference)
clock() {
	local i
	for i in 1 2 3 4 5; do
		date +%s.%N > "$VM_OUT/clock-$role-$i"
		sleep 0.05
	done
}

# the recorders and samplers end with the script
trap 'kill $(jobs -p) 2>/dev/null' EXIT

case $role in
rx)
	ip netns add sw
	ip link set to-s1 netns sw
	ip link set to-s2 netns sw
	ip link add sw-rx netns sw type veth peer name rx0
	ip -n sw link add br0 type bridge
	for p in to-s1 to-s2 sw-rx; do
		ip -n sw link set "$p" mtu "$MTU" master br0 up
	done
	ip -n sw link set br0 up
	ip link set rx0 mtu "$MTU" up
	ip addr add "$RX/24" dev rx0
	roce=$(roce_addr rx0 "$RX" "$RX6") || fail "cannot address rx0 with $RX6"
	# the senders are VMs behind qemu sockets: they act on a pause late,
	# so the switch's ports to them get the headroom of a 100 ms response
	for p in to-s1 to-s2; do
		ip netns exec sw tc qdisc add dev "$p" root handle 1: lossless trust dscp pfc 3 \
			rate "$RATE" "${BURST[@]}" speed "$SPEED" response 100ms || fail "tc on $p"
	done
	say "bottleneck_bps $RATE_BPS"
	say "secs $SECS"
	ip netns exec sw tc qdisc add dev sw-rx root handle 1: lossless trust dscp pfc 3 \
		rate "$RATE" "${BURST[@]}" speed "$SPEED" || fail "tc on sw-rx"
	ip netns exec sw tc class change dev sw-rx classid 1:4 lossless "${ECN[@]}" || fail "ecn"
	for p in to-s1 to-s2; do
		ip netns exec sw tc class change dev "$p" classid 1:4 lossless "${INGRESS[@]}" ||
			fail "ingress thresholds on $p"
	done
	ets sw sw-rx
	tc qdisc add dev rx0 root handle 1: lossless trust dscp pfc 3 speed "$SPEED" "${DCQCN_NP[@]}" ||
		fail "tc on rx0"
	rxe_up rx0 || fail "no rxe0 on rx0"
	# every second, everything that would explain a stall (kept when the
	# scene fails): the switch's ports, rx0 and rxe's counters
	ip netns exec sw python3 "$RECORDER" 1 3 to-s1 to-s2 sw-rx > "$VM_OUT/record-sw.txt" 2>&1 &
	python3 "$RECORDER" --rdma 1 3 rx0 > "$VM_OUT/record-rx.txt" 2>&1 &
	clock
	gid=$(gid_index "$roce") || fail "no GID for $roce"
	perftest+=(-x "$gid")
	barrier up "$UP_SECS" "${ROLES[@]}" || fail "the VMs did not all come up"
	for run in ${FABRIC_RUNS:-off on}; do
		[ "$run" = on ] && { tc qdisc change dev rx0 root lossless dcqcn np 3 || fail "np on"; }
		sw_stats "${run}0"
		# the queue of sw-rx and the bytes in and out of every switch port
		ip netns exec sw python3 "$SAMPLER" --wall --bytes 0.1 3 sw-rx to-s1 to-s2 \
			> "$VM_OUT/sw-$run.dat" &
		spid=$!
		timeout "$(scaled "$RUN_SECS")" "${perftest[@]}" -p 18515 > "$VM_OUT/rx-$run-1.log" 2>&1 &
		p1=$!
		timeout "$(scaled "$RUN_SECS")" "${perftest[@]}" -p 18516 > "$VM_OUT/rx-$run-2.log" 2>&1 &
		p2=$!
		# both servers listen before either sender connects
		listening 18515 18516 || fail "run $run: perftest's servers do not listen"
		barrier "listen-$run" "$STEP_SECS" "${ROLES[@]}" || fail "run $run: the senders are not ready"
		wait "$p1" || say "run $run: server 1 exited $?"
		wait "$p2" || say "run $run: server 2 exited $?"
		kill "$spid" 2>/dev/null
		wait "$spid" 2>/dev/null
		sw_stats "${run}1"
		say "samples_$run $VM_OUT/sw-$run.dat"
		say "seq_err_$run $(cat /sys/class/infiniband/rxe0/ports/1/hw_counters/rcvd_seq_err)"
		tc -s qdisc show dev rx0 | grep dcqcn
		barrier "done-$run" "$RUN_SECS" "${ROLES[@]}" || fail "run $run: a sender did not finish"
	done
	# the switch goes last: see outlive
	outlive "$STEP_SECS" s1 s2 || fail "the senders did not end"
	;;
s1|s2)
	addr=192.0.2.${role#s}
	port=$((18514 + ${role#s}))
	dev=to-rx
	ip link set "$dev" mtu "$MTU"
	ip addr add "$addr/24" dev "$dev"
	roce=$(roce_addr "$dev" "$addr" "2001:db8::${role#s}") || fail "cannot address $dev"
	tc qdisc add dev "$dev" root handle 1: lossless trust dscp pfc 3 rate "$RATE" "${BURST[@]}" \
		speed "$SPEED" || fail "tc"
	ets "" "$dev"
	rxe_up "$dev" || fail "no rxe0 on $dev"
	python3 "$RECORDER" --rdma 1 3 "$dev" > "$VM_OUT/record-$role.txt" 2>&1 &
	clock
	gid=$(gid_index "$roce") || fail "no GID for $roce"
	perftest+=(-x "$gid" -p "$port")
	barrier up "$UP_SECS" "${ROLES[@]}" || fail "the VMs did not all come up"
	for run in ${FABRIC_RUNS:-off on}; do
		if [ "$run" = on ]; then
			tc qdisc change dev "$dev" root lossless "${DCQCN_RP[@]}" || fail "rp on"
		fi
		# this QP's rate and target every 100 ms
		python3 "$SAMPLER" --wall --dcqcn 0.1 3 "$dev" > "$VM_OUT/$role-$run.dat" &
		spid=$!
		barrier "listen-$run" "$STEP_SECS" "${ROLES[@]}" || fail "run $run: not every VM is ready"
		# the server listens: a refused connection is retried a few times
		# only (a TCP handshake lost on a paused link)
		perftest_connect "$VM_OUT/$role-$run.log" 25 0.2 \
			timeout "$(scaled "$RUN_SECS")" "${perftest[@]}" "$RX" ||
			say "run $run: ib_write_bw exited $? after $PERFTEST_TRIES tries"
		kill "$spid" 2>/dev/null
		wait "$spid" 2>/dev/null
		say "bw_$run $(perftest_bw "$VM_OUT/$role-$run.log")"
		tc -s qdisc show dev "$dev" | grep -A3 dcqcn
		barrier "done-$run" "$RUN_SECS" "${ROLES[@]}" || fail "run $run: the other VMs did not finish"
	done
	;;
*) fail "role '$role' is not rx, s1 or s2" ;;
esac
