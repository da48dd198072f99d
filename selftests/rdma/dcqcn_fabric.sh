#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dcqcn_fabric.sh: one VM of the DCQCN experiment (dcqcn_fabric.topo;
# experiment_dcqcn_fabric.sh reads the results).
#
#   dcqcn_fabric.sh rx|s1|s2      default: $VM_NAME
#
# Two runs of RDMA WRITEs (ib_write_bw, DSCP 24: priority 3) from s1 and
# s2 at once to rx: "off" without DCQCN, "on" with it. rx's VM holds the
# switch (netns sw: a bridge of to-s1, to-s2 and sw-rx, a veth to rx0 in
# rx's namespace); the switch samples the bytes each sender put in every
# half second and its PFC and drop counters. Everything is printed as
# "dcqcn_fabric.sh: ROLE: KEY VALUE" lines.
set -u

. "$(dirname "$0")/rxe_lib.sh"

role=${1:-${VM_NAME:-}}
RATE=8mbit		# every link, and the bottleneck
RATE_BPS=8000000
SECS=20			# each sender's run
RX=192.0.2.10
# the switch's congestion point (sw-rx, class 1:4)
ECN=(ecn kmin 4k kmax 16k pmax 50)
# DCQCN at 20 Mbit/s: mlx5's knobs scaled from their 25-100 Gbit/s
# defaults by the rate, with the timers at the VM's millisecond scale
DCQCN_RP=(dcqcn rp 3 rpg-ai-rate 400kbit rpg-hai-rate 400kbit rpg-min-rate 200kbit
	  rpg-time-reset 10ms rpg-byte-reset 16k rpg-threshold 5
	  dce-tcp-rtt 5ms dce-tcp-g 1019 rate-reduce-monitor-period 5ms)
DCQCN_NP=(dcqcn np none min-time-between-cnps 2ms)
perftest=(ib_write_bw -d rxe0 -s 65536 -D "$SECS" -u 18 --tclass=96)

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

# sample TAG: every 0.5 s, bytes in from each sender (the switch's view)
sample() {
	local t
	: > "$VM_OUT/samples-$1"
	for _ in $(seq $((SECS * 2 + 20))); do
		t=$(date +%s.%N)
		echo "$t $(ip netns exec sw cat /sys/class/net/to-s1/statistics/rx_bytes)" \
			"$(ip netns exec sw cat /sys/class/net/to-s2/statistics/rx_bytes)" >> "$VM_OUT/samples-$1"
		sleep 0.5
	done
}

case $role in
rx)
	ip netns add sw
	ip link set to-s1 netns sw
	ip link set to-s2 netns sw
	ip link add sw-rx netns sw type veth peer name rx0
	ip -n sw link add br0 type bridge
	for p in to-s1 to-s2 sw-rx; do
		ip -n sw link set "$p" master br0 up
	done
	ip -n sw link set br0 up
	ip link set rx0 up
	ip addr add "$RX/24" dev rx0
	# the senders are VMs behind qemu sockets: they act on a pause late,
	# so the switch's ports to them get the headroom of a 100 ms response
	for p in to-s1 to-s2; do
		ip netns exec sw tc qdisc add dev "$p" root handle 1: lossless trust dscp pfc 3 \
			rate "$RATE" response 100ms || fail "tc on $p"
	done
	say "bottleneck_bps $RATE_BPS"
	ip netns exec sw tc qdisc add dev sw-rx root handle 1: lossless trust dscp pfc 3 \
		rate "$RATE" || fail "tc on sw-rx"
	ip netns exec sw tc class change dev sw-rx classid 1:4 lossless "${ECN[@]}" || fail "ecn"
	ets sw sw-rx
	tc qdisc add dev rx0 root handle 1: lossless trust dscp pfc 3 "${DCQCN_NP[@]}" ||
		fail "tc on rx0"
	rxe_up rx0 || fail "no rxe0 on rx0"
	gid=$(gid_index "$RX") || fail "no GID for $RX"
	perftest+=(-x "$gid")
	for run in off on; do
		[ "$run" = on ] && { tc qdisc change dev rx0 root lossless dcqcn np 3 || fail "np on"; }
		# both senders at once: listen only when both wait to connect
		# (they say so in the output directory all the VMs share)
		for _ in $(seq 600); do
			[ -e "$VM_OUT/ready-s1-$run" ] && [ -e "$VM_OUT/ready-s2-$run" ] && break
			sleep 0.5
		done
		sw_stats "${run}0"
		sample "$run" &
		spid=$!
		timeout 300 "${perftest[@]}" -p 18515 > "$VM_OUT/rx-$run-1.log" 2>&1 &
		p1=$!
		timeout 300 "${perftest[@]}" -p 18516 > "$VM_OUT/rx-$run-2.log" 2>&1
		wait "$p1"
		kill "$spid" 2>/dev/null
		wait "$spid" 2>/dev/null
		sw_stats "${run}1"
		say "samples_$run $VM_OUT/samples-$run"
		say "seq_err_$run $(cat /sys/class/infiniband/rxe0/ports/1/hw_counters/rcvd_seq_err)"
		tc -s qdisc show dev rx0 | grep dcqcn
	done
	;;
s1|s2)
	addr=192.0.2.${role#s}
	port=$((18514 + ${role#s}))
	dev=to-rx
	ip addr add "$addr/24" dev "$dev"
	tc qdisc add dev "$dev" root handle 1: lossless trust dscp pfc 3 rate "$RATE" || fail "tc"
	ets "" "$dev"
	rxe_up "$dev" || fail "no rxe0 on $dev"
	gid=$(gid_index "$addr") || fail "no GID for $addr"
	perftest+=(-x "$gid" -p "$port")
	for run in off on; do
		if [ "$run" = on ]; then
			tc qdisc change dev "$dev" root lossless "${DCQCN_RP[@]}" || fail "rp on"
		fi
		touch "$VM_OUT/ready-$role-$run"
		perftest_connect "$VM_OUT/$role-$run.log" 300 1 timeout 200 "${perftest[@]}" "$RX"
		say "bw_$run $(perftest_bw "$VM_OUT/$role-$run.log")"
		tc -s qdisc show dev "$dev" | grep -A3 dcqcn
	done
	;;
*) fail "role '$role' is not rx, s1 or s2" ;;
esac
