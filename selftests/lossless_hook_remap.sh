#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftest-timeout: 900
# selftest-group: timing (a deadlock forms only when PFC reacts as set up)
#
# Deadlock prevention by moving hook flows to another priority. Two
# leaves and two spines, routed; two hosts on each leaf. The routes are
# those of a fabric in the middle of reconverging after the L2-DA and
# L1-DB links (DA and DB are dual-homed) failed: a stale route on the
# spines and an ECMP choice on the leaves send each flow down to the leaf
# that lost its link, which sends it back up through the other spine.
#
#   flow A  HA -> L1 -> S1 -> L2 -> S2 -> L1 -> DA   bounces at L2
#   flow B  HB -> L2 -> S2 -> L1 -> S1 -> L2 -> DB   bounces at L1
#
# (the leaves route by ingress port where the same destination takes two
# ways). Together the flows make the buffer dependency cycle
# L1->S1 -> S1->L2 -> L2->S2 -> S2->L1 -> L1->S1 on priority 3. Fabric
# links and host links 10 Mbit/s, leaf ports to DA and DB 1 Mbit/s, each
# flow 6 Mbit/s offered in datagrams of 1000 bytes. The deadlock needs
# the leaf ports to DA and DB overrun: with 64-byte datagrams a 1-CPU VM
# beside another sent each flow at only 1.8 Mbit/s (everything forwards
# on its one CPU), under the 2 Mbit/s these ports had then, and the fabric
# never paused.
#
# 1. The leaves' spine ports are uplinks, no hook-remap: the fabric
#    deadlocks; the four links of the cycle stay stuck after the senders
#    stop.
# 2. hook-remap 3:4 on the uplinks: a bounced packet (in through an
#    uplink, out through an uplink) moves to priority 4 and its DSCP is
#    rewritten, so its way down to DA or DB never waits on priority 3:
#    no deadlock, every datagram arrives, nothing is dropped, and the
#    hook_remapped counters of both leaves show the two hook flows.

. "$(dirname "$0")/lib.sh"
require_tools udpgen udpsink
scratch_dir

FABRIC_OPTS="trust dscp pfc 3,4 rate 10mbit response 100ms"
SLOW_OPTS="trust dscp pfc 3,4 rate 1mbit speed 10mbit response 100ms"
HOST_OPTS="trust dscp pfc 3,4 rate 10mbit"
CLASS_OPTS="xoff 8k xon 4k"
SECS=3

long_wire || { echo "# cannot lengthen the receive backlog"; exit 1; }
ns_create L1 L2 S1 S2 HA DA HB DB || exit 1
ns_no_ipv6 "$L1" "$L2" "$S1" "$S2" "$HA" "$DA" "$HB" "$DB"
for r in "$L1" "$L2" "$S1" "$S2"; do
	ip netns exec "$r" sysctl -qw net.ipv4.ip_forward=1
done
p2p "$L1" l1s1 10.3.1.1 "$S1" s1l1 10.3.1.2 &&
p2p "$L1" l1s2 10.3.2.1 "$S2" s2l1 10.3.2.2 &&
p2p "$L2" l2s1 10.3.3.1 "$S1" s1l2 10.3.3.2 &&
p2p "$L2" l2s2 10.3.4.1 "$S2" s2l2 10.3.4.2 &&
p2p "$HA" eth0 10.2.1.2 "$L1" l1ha 10.2.1.1 &&
p2p "$DA" eth0 10.2.2.2 "$L1" l1da 10.2.2.1 &&
p2p "$HB" eth0 10.2.3.2 "$L2" l2hb 10.2.3.1 &&
p2p "$DB" eth0 10.2.4.2 "$L2" l2db 10.2.4.1 || { echo "# cannot build the fabric"; exit 1; }
ip -n "$HA" route add default via 10.2.1.1
ip -n "$DA" route add default via 10.2.2.1
ip -n "$HB" route add default via 10.2.3.1
ip -n "$DB" route add default via 10.2.4.1
# flow A: L1 sends what HA sends for DA up to S1; what comes back from S2 goes to DA
ip -n "$L1" rule add iif l1ha table 100
ip -n "$L1" route add 10.2.2.0/24 via 10.3.1.2 table 100
ip -n "$L1" route add 10.2.4.0/24 via 10.3.1.2
ip -n "$S1" route add 10.2.2.0/24 via 10.3.3.1
ip -n "$S1" route add 10.2.4.0/24 via 10.3.3.1
ip -n "$L2" route add 10.2.2.0/24 via 10.3.4.2
# flow B: L2 sends what HB sends for DB up to S2
ip -n "$L2" rule add iif l2hb table 100
ip -n "$L2" route add 10.2.4.0/24 via 10.3.4.2 table 100
ip -n "$S2" route add 10.2.2.0/24 via 10.3.2.1
ip -n "$S2" route add 10.2.4.0/24 via 10.3.2.1

CYCLE=("$L1:l1s1" "$S1:s1l2" "$L2:l2s2" "$S2:s2l1")
PORTS=("${CYCLE[@]}" "$S1:s1l1" "$S2:s2l2" "$L1:l1s2" "$L2:l2s1"
       "$L1:l1ha" "$L1:l1da" "$L2:l2hb" "$L2:l2db"
       "$HA:eth0" "$DA:eth0" "$HB:eth0" "$DB:eth0")

# qdiscs UPLINK_OPTS: fresh lossless qdiscs everywhere; the leaves' spine
# ports get UPLINK_OPTS
qdiscs() {
	local p ns dev opts
	for p in "${PORTS[@]}"; do
		ns=${p%:*}
		dev=${p##*:}
		case $dev in
		eth0) opts=$HOST_OPTS ;;
		l1da|l2db) opts=$SLOW_OPTS ;;
		l1s1|l1s2|l2s1|l2s2) opts="$FABRIC_OPTS $1" ;;
		*) opts=$FABRIC_OPTS ;;
		esac
		tc -n "$ns" qdisc del dev "$dev" root 2>/dev/null
		# shellcheck disable=SC2086
		tc -n "$ns" qdisc add dev "$dev" root handle 1: lossless $opts || return 1
		[ "$dev" = eth0 ] && continue
		tc -n "$ns" class change dev "$dev" classid 1:4 lossless $CLASS_OPTS &&
		tc -n "$ns" class change dev "$dev" classid 1:5 lossless $CLASS_OPTS || return 1
	done
}

# run: both flows for SECS (a paused sender is stopped by a signal)
SINKS=()
run() {
	local pids=()
	SINKS=()
	ip netns exec "$DA" "$TOOLS/udpsink" --port 9000 --idle 0 > "$out/rxA.json" &
	SINKS+=($!)
	ip netns exec "$DB" "$TOOLS/udpsink" --port 9000 --idle 0 > "$out/rxB.json" &
	SINKS+=($!)
	sleep 1
	ip netns exec "$HA" taskset -c 0 "$TOOLS/udpgen" --dst 10.2.2.2 --port 9000 --size 1000 \
		--duration "$SECS" --rate 6000000 --tos 0x60 --flow 1 --recverr > "$out/txA.json" &
	pids+=($!)
	ip netns exec "$HB" taskset -c 0 "$TOOLS/udpgen" --dst 10.2.4.2 --port 9000 --size 1000 \
		--duration "$SECS" --rate 6000000 --tos 0x60 --flow 2 --recverr > "$out/txB.json" &
	pids+=($!)
	sleep $((SECS + 1))
	kill -TERM "${pids[@]}" 2>/dev/null
	wait "${pids[@]}"
}

# stop_sinks: once every queue is empty (or after 30 s)
stop_sinks() {
	wait_empty "$out" 3,4 "${PORTS[@]}"
	kill -TERM "${SINKS[@]}" 2>/dev/null
	wait "${SINKS[@]}" 2>/dev/null
}

# 1. no hook-remap: deadlock
qdiscs "uplink"
check_err $? "the qdiscs could not be set"
run
sleep 2
python3 "$TOOLS/port_snapshot.py" 3 "${CYCLE[@]}" > "$out/a"
sleep 5
python3 "$TOOLS/port_snapshot.py" 3 "${CYCLE[@]}" > "$out/b"
python3 - "$out/a" "$out/b" > "$out/dl" <<'PY'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
ok = True
for k in a:
    stuck = (a[k].get("backlog", 0) > 0 and a[k].get("backlog") == b[k].get("backlog")
             and a[k].get("sent_packets") == b[k].get("sent_packets"))
    grew = b[k].get("pause_us", 0) - a[k].get("pause_us", 0)
    print("# %s: priority 3 backlog %s -> %s B, sent %s -> %s, paused %.1f s of 5" %
          (k.split(":")[1], a[k].get("backlog"), b[k].get("backlog"),
           a[k].get("sent_packets"), b[k].get("sent_packets"), grew / 1e6))
    ok = ok and stuck and grew >= 4.5e6
print("ok" if ok else "moving")
PY
grep '^#' "$out/dl"
[ "$(tail -n 1 "$out/dl")" = ok ]
check_err $? "no deadlock without hook-remap: the test cannot tell"
kill -TERM "${SINKS[@]}" 2>/dev/null
wait "${SINKS[@]}" 2>/dev/null
log_test "hook flows, no remap: the leaf-spine fabric deadlocks"

# 2. hook-remap 3:4
qdiscs "uplink hook-remap 3:4"
check_err $? "the qdiscs with hook-remap could not be set"
python3 "$TOOLS/port_snapshot.py" 0 "${PORTS[@]}" > "$out/l0"
run
stop_sinks
python3 - "$out" > "$out/hr" <<'PY'
import json, sys
o = sys.argv[1]
sent = sum(json.load(open(f"{o}/tx{f}.json"))["sent"] for f in "AB")
rcvd = sum(json.load(open(f"{o}/rx{f}.json"))["total"]["packets"] for f in "AB")
lost = sum(json.load(open(f"{o}/rx{f}.json"))["total"]["lost"] for f in "AB")
s3, s4 = json.load(open(f"{o}/s3")), json.load(open(f"{o}/s4"))
drops = sum(v.get("qdisc_drops", 10**9) for v in s3.values())
backlog = sum(v.get("backlog", 10**9) for v in s3.values()) + \
    sum(v.get("backlog", 10**9) for v in s4.values())
l1 = [v.get("hook_remapped", 0) for k, v in s4.items() if k.endswith(":l1s1")][0]
l2 = [v.get("hook_remapped", 0) for k, v in s4.items() if k.endswith(":l2s2")][0]
other = sum(v.get("hook_remapped", 0) for k, v in s4.items()
            if not k.endswith(":l1s1") and not k.endswith(":l2s2"))
l0 = json.load(open(f"{o}/l0"))
link = sum(v.get("link_drops", 10**9) for v in s3.values()) - \
    sum(v.get("link_drops", 0) for v in l0.values())
sock = sum(json.load(open(f"{o}/rx{f}.json"))["socket_drops"] for f in "AB")
print(sent, rcvd, lost, drops, backlog, l1, l2, other, link, sock)
PY
read -r sent rcvd lost drops backlog l1 l2 other link sock < "$out/hr"
echo "# hook-remap 3:4: sent $sent, received $rcvd (lost $lost); drops $drops (link $link," \
	"socket $sock), backlog left $backlog B; remapped at L1 (flow B) $l1, at L2 (flow A) $l2," \
	"elsewhere $other"
[ "$backlog" -eq 0 ]
check_err $? "the fabric did not drain: $backlog B left (deadlock?)"
[ "$rcvd" -eq "$sent" ] && [ "$lost" -eq 0 ] && [ "$drops" -eq 0 ] && [ "$link" -eq 0 ] &&
	[ "$sock" -eq 0 ]
check_err $? "sent $sent, received $rcvd, lost $lost, dropped $drops (link $link, socket $sock)"
[ "$l1" -gt 0 ] && [ "$l2" -gt 0 ] && [ "$other" -eq 0 ]
check_err $? "remap counters: L1 $l1, L2 $l2, elsewhere $other"
log_test "hook flows, hook-remap 3:4: no deadlock, no loss, both hook flows remapped"

exit $EXIT_STATUS
