#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftest-timeout: 900
# selftest-group: timing (a deadlock forms only when PFC reacts as set up)
#
# A real PFC deadlock and the watchdog's recovery from it. Four routers in
# a ring, one host on each; every host sends a UDP flow on priority 3
# (DSCP 24) to the host three ring hops away, so the buffer dependency of
# the four flows is the cycle r0e -> r1e -> r2e -> r3e -> r0e. The ports
# to the hosts are slow (2 Mbit/s), the ring links 10 Mbit/s: the queues
# to the hosts fill, their routers pause the ring link they come in on,
# the pauses spread round the ring, and each router's buffer ends up held
# by packets waiting for the next, paused, ring link.
#
#   h0     h1     h2     h3          rIh: rate 2mbit
#   |      |      |      |           rIe, rIw: rate 10mbit
#   r0 --> r1 --> r2 --> r3 --+      lossless pfc 3 everywhere,
#   ^-------------------------+      class 1:4 xoff 8k xon 4k
#
# 1. PFC on, no watchdog: after the senders stop, every ring link is still
#    paused and the ring's backlog does not move for 5 s. (A run can get
#    through before the pauses close the cycle: the senders run again, up
#    to 3 times, until the ring is stuck; so before step 3 too.)
# 2. The watchdog turned on (detect 200ms restore 400ms action forward) on
#    each ring port in turn: a port detects within detect plus one
#    polling period of being turned on (kprobe on the commit, tracepoint
#    on the detection); one detection breaks the cycle, so the ports
#    turned on later may never see a stall. The backlog drains, every
#    datagram arrives, nothing is dropped anywhere, and each detection is
#    followed by a restore once no pause is in force.
# 3. The same deadlock again with action drop: detected, the backlog
#    drains, and datagrams sent = received + dropped by the watchdog.

. "$(dirname "$0")/lib.sh"
require_tools udpgen udpsink
require_cmd python3
scratch_dir

N=4
# response 100ms: a headroom that holds what a busy VM lets through
# before a pause takes effect, so that no packet is lost on the way; and
# on the ring ports' class 1:4 an ample headroom (1 MiB) for what a port
# that forwards in spite of pauses sends to a neighbour still congested
RING_OPTS="trust dscp pfc 3 rate 10mbit response 100ms buffer 8m"
# the hosts' links run at 20 Mbit/s; the routers send to them at 2
HOSTPORT_OPTS="trust dscp pfc 3 rate 2mbit speed 20mbit response 100ms"
HOST_OPTS="trust dscp pfc 3 rate 20mbit"
CLASS_OPTS="xoff 8k xon 4k"
SECS=3
# each host sends at most COUNT datagrams of 1042 bytes on the wire: all
# four flows together (834 kB) fit in one ring ingress's headroom (1 MiB),
# so a port that forwards in spite of pauses cannot overflow its neighbour
# whatever part of the ring's data it holds; a deadlock forms with far
# less. Large datagrams keep the packet rate, the VM's work, low: with
# 64-byte ones the senders of a 1-CPU VM beside another could not fill
# the 2 Mbit/s host ports (the four flows cross four routers on the one
# CPU), and the ring never paused in 3 tries
SIZE=1000
COUNT=200
DETECT=200
RESTORE=400
# A detection is due within detect + one poll (detect / 4) of the commit;
# the bound adds SLACK for the VM's timers, which fire late while the
# other routers' tc commands and the hosts' senders run (qemu TCG):
# 310 ms was seen once where 220-225 ms is usual
SLACK=100
BOUND=$((DETECT + DETECT / 4 + SLACK))

long_wire || { echo "# cannot lengthen the receive backlog"; exit 1; }
ring $N || { echo "# cannot build the ring"; exit 1; }
T=$(tracefs)

ports=()	# every router port and host, NS:DEV
east=()		# the ring ports that carry the cycle
for i in $(seq 0 $((N - 1))); do
	r=$(ring_ns r "$i")
	ports+=("$r:r${i}e" "$r:r${i}w" "$r:r${i}h" "$(ring_ns h "$i"):eth0")
	east+=("$r:r${i}e")
done

ring_qdiscs() {
	local i r h d
	for i in $(seq 0 $((N - 1))); do
		r=$(ring_ns r "$i")
		h=$(ring_ns h "$i")
		for d in "r${i}e" "r${i}w" "r${i}h"; do
			tc -n "$r" qdisc del dev "$d" root 2>/dev/null
		done
		tc -n "$h" qdisc del dev eth0 root 2>/dev/null
		# shellcheck disable=SC2086
		{
			tc -n "$h" qdisc add dev eth0 root handle 1: lossless $HOST_OPTS &&
			tc -n "$r" qdisc add dev "r${i}h" root handle 1: lossless $HOSTPORT_OPTS &&
			tc -n "$r" qdisc add dev "r${i}e" root handle 1: lossless $RING_OPTS &&
			tc -n "$r" qdisc add dev "r${i}w" root handle 1: lossless $RING_OPTS
		} || return 1
		for d in "r${i}e" "r${i}w" "r${i}h"; do
			tc -n "$r" class change dev "$d" classid 1:4 lossless $CLASS_OPTS || return 1
		done
		tc -n "$r" class change dev "r${i}w" classid 1:4 lossless headroom 1m || return 1
	done
}

# snap FILE: traffic class 3 of every router port
snap() {
	python3 "$TOOLS/port_snapshot.py" 3 "${ports[@]}" > "$1"
	json "$1" '" ".join(k for k, v in d.items() if "tc" not in v or "backlog" not in v)' |
		grep -v '^$' | sed 's/^/# unreadable: /'
}

# deadlock: fresh qdiscs, receivers up, every host sends for SECS
SINKS=()
deadlock() {
	local i d pids=()
	ring_qdiscs || return 1
	LINKDROPS0=$(linkdrops)
	SINKS=()
	for i in $(seq 0 $((N - 1))); do
		ip netns exec "$(ring_ns h "$i")" "$TOOLS/udpsink" --port 9000 --idle 0 \
			--rcvbuf 8388608 > "$out/rx$i.json" &
		SINKS+=($!)
	done
	sleep 1
	for i in $(seq 0 $((N - 1))); do
		d=$(((i + N - 1) % N))
		ip netns exec "$(ring_ns h "$i")" taskset -c 0 "$TOOLS/udpgen" --dst "10.0.$d.2" \
			--port 9000 --size "$SIZE" --count "$COUNT" --duration "$SECS" --rate 6000000 --tos 0x60 \
			--flow "$i" --recverr > "$out/tx$i.json" &
		pids+=($!)
	done
	# a paused host blocks udpgen in send(): end it after SECS
	sleep $((SECS + 1))
	kill -TERM "${pids[@]}" 2>/dev/null
	wait "${pids[@]}"
	return 0
}

# linkdrops: packets the ring's devices dropped outside any qdisc so far
linkdrops() {
	python3 "$TOOLS/port_snapshot.py" 0 "${ports[@]}" |
		python3 -c 'import json, sys; print(sum(v.get("link_drops", 0) for v in json.load(sys.stdin).values()))'
}

# drain: wait for every queue to be empty; stop the sinks
drain() {
	wait_empty "$out" 3 "${ports[@]}"
	DRAINED=$(date +%s.%N)
	kill -TERM "${SINKS[@]}" 2>/dev/null
	wait "${SINKS[@]}" 2>/dev/null
}

# since T0: seconds from T0 to DRAINED
since() {
	python3 -c "import sys; print('%.1f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$1" "$DRAINED"
}

# wd_on ACTION: the watchdog on every ring port, one commit after another;
# with tracing, record each commit (kprobe) and each detection
wd_on() {
	local i
	if [ -n "$T" ]; then
		echo 0 > "$T/tracing_on"
		echo > "$T/trace"
		[ -e "$T/events/kprobes/enable" ] && echo 0 > "$T/events/kprobes/enable"
		echo > "$T/kprobe_events"
		echo 'p:wdcommit lossless_pfcwd_start' >> "$T/kprobe_events" 2>/dev/null
		echo 1 > "$T/events/kprobes/enable" 2>/dev/null
		echo 1 > "$T/events/lossless/lossless_wd_detected/enable"
		echo 1 > "$T/events/lossless/lossless_wd_restored/enable"
		echo 1 > "$T/tracing_on"
	fi
	for i in $(seq 0 $((N - 1))); do
		tc -n "$(ring_ns r "$i")" qdisc change dev "r${i}e" root lossless \
			pfcwd detect ${DETECT}ms restore ${RESTORE}ms action "$1" || return 1
	done
}

# detection_ms: for each ring port in turn, ms from its commit to its
# detection, from the trace ("-1" when not found)
detection_ms() {
	[ -n "$T" ] || { echo "-1"; return; }
	echo 0 > "$T/tracing_on"
	python3 - "$T/trace" "$N" <<'PY'
import re, sys
commits, detects = [], {}
for line in open(sys.argv[1]):
    m = re.search(r"\s(\d+\.\d+): (\w+):", line)
    if not m:
        continue
    t, ev = float(m.group(1)), m.group(2)
    if ev == "wdcommit":
        commits.append(t)
    elif ev == "lossless_wd_detected":
        dev = re.search(r"dev=(\S+)", line).group(1)
        detects.setdefault(dev, t)
out = []
for i in range(int(sys.argv[2])):
    dev = "r%de" % i
    if i < len(commits) and dev in detects:
        out.append("%.0f" % ((detects[dev] - commits[i]) * 1000))
if not out:
    out.append("-1")
print(" ".join(out))
PY
	echo 0 > "$T/events/kprobes/enable"
	echo > "$T/kprobe_events"
}

# stuck SECONDS: whether the ring stays deadlocked for SECONDS (the
# report in $out/dl)
stuck() {
	snap "$out/a"
	sleep "$1"
	snap "$out/b"
	python3 - "$out/a" "$out/b" "$N" "$1" > "$out/dl" <<'PY'
import json, sys
a, b, n = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
ok = True
for i in range(n):
    e = [k for k in a if k.endswith(":r%de" % i)][0]
    w = [k for k in a if k.endswith(":r%dw" % ((i + 1) % n))][0]
    stuck = (a[e].get("backlog", 0) > 0 and a[e].get("backlog") == b[e].get("backlog")
             and a[e].get("sent_packets") == b[e].get("sent_packets"))
    paused = a[w].get("pausing") is True and b[w].get("pausing") is True
    grew = b[e].get("pause_us", 0) - a[e].get("pause_us", 0)
    print("# r%de: backlog %s -> %s B, sent %s -> %s, paused by r%d: %s, paused %.1f s over samples %s s or more apart" %
          (i, a[e].get("backlog"), b[e].get("backlog"), a[e].get("sent_packets"),
           b[e].get("sent_packets"), (i + 1) % n, paused, grew / 1e6, sys.argv[4]))
    ok = ok and stuck and paused and grew >= 0.9e6 * float(sys.argv[4])
print("ok" if ok else "stuck-not")
PY
	[ "$(tail -n 1 "$out/dl")" = ok ]
}

# deadlocked: send until the ring deadlocks (a run may get through before
# the pauses close the cycle; up to 3 tries)
deadlocked() {
	local try
	for try in 1 2 3; do
		deadlock || return 1
		sleep 2
		stuck 2 && return 0
		echo "# try $try: the ring drained, no deadlock; again"
		kill -TERM "${SINKS[@]}" 2>/dev/null
		wait "${SINKS[@]}" 2>/dev/null
	done
	return 1
}

# 1. the deadlock
deadlocked
check_err $? "the ring did not deadlock in 3 tries"
stuck 5
grep '^#' "$out/dl"
[ "$(tail -n 1 "$out/dl")" = ok ]
check_err $? "the ring is not deadlocked: some link was not paused or its backlog moved"
log_test "deadlock: PFC on, no watchdog: every ring link paused, backlog stuck for 5 s"

# recover ACTION: the watchdog on (ACTION) on the deadlocked ring; once
# drained, "sent received detected restored wd_drops drops headroom_drops
# backlog link_drops socket_drops" in $out/rec (the drain's last sample:
# every port, empty; link drops since the send began) and the
# detection times in $lat, the time to drain in $took
recover() {
	local t_on
	t_on=$(date +%s.%N)
	wd_on "$1" || return 1
	sleep 3
	lat=$(detection_ms)
	drain
	took=$(since "$t_on")
	python3 - "$out" "$N" "$LINKDROPS0" > "$out/rec" <<'PY'
import json, sys
out, n = sys.argv[1], int(sys.argv[2])
tx = sum(json.load(open(f"{out}/tx{i}.json"))["sent"] for i in range(n))
rxs = [json.load(open(f"{out}/rx{i}.json")) for i in range(n)]
rx = sum(r["total"]["packets"] for r in rxs)
c = json.load(open(f"{out}/s3"))
def s(f, suffix=""):
    return sum(v.get(f, 10**9) for k, v in c.items() if k.endswith(suffix))
print(tx, rx, s("wd_detected", "e"), s("wd_restored", "e"), s("wd_dropped"),
      s("qdisc_drops"), s("headroom_drops"), s("backlog"),
      s("link_drops") - int(sys.argv[3]), sum(r["socket_drops"] for r in rxs))
PY
}

# 2. recovery: forward
recover forward
check_err $? "tc refused the watchdog"
read -r sent rcvd det rest wdrop qdrop hdrop backlog ldrop sdrop < "$out/rec"
echo "# forward: detection ${lat// / ms, } ms after the watchdog's commit (detect ${DETECT} ms," \
	"poll $((DETECT / 4)) ms); sent $sent, received $rcvd; detected $det, restored $rest," \
	"watchdog drops $wdrop, qdisc drops $qdrop, headroom drops $hdrop, link drops $ldrop," \
	"socket drops $sdrop, backlog $backlog B;" \
	"all queues empty $took s after the first commit"
for l in $lat; do
	[ "$l" -ge 0 ] && [ "$l" -le "$BOUND" ]
	check_err $? "detection took $l ms, more than detect + one poll + $SLACK ms ($BOUND ms)"
done
[ "$det" -ge 1 ] && [ "$backlog" -eq 0 ]
check_err $? "no ring port detected ($det) or the backlog ($backlog B) stayed"
[ "$rcvd" -eq "$sent" ] && [ "$wdrop" -eq 0 ] && [ "$qdrop" -eq 0 ] && [ "$hdrop" -eq 0 ] &&
	[ "$ldrop" -eq 0 ] && [ "$sdrop" -eq 0 ]
check_err $? "forward lost datagrams: sent $sent, received $rcvd, drops watchdog/qdisc/headroom/link/socket $wdrop/$qdrop/$hdrop/$ldrop/$sdrop"
[ "$rest" -eq "$det" ]
check_err $? "$det detections but $rest restores"
log_test "recovery, action forward: detected in time, drained, nothing dropped, restored"

# 3. recovery: drop
deadlocked
check_err $? "the ring did not deadlock again in 3 tries"
recover drop
check_err $? "tc refused the watchdog"
read -r sent rcvd det rest wdrop qdrop hdrop backlog ldrop sdrop < "$out/rec"
echo "# drop: detection ${lat// / ms, } ms after the commit; sent $sent, received $rcvd, watchdog drops" \
	"$wdrop, qdisc drops $qdrop (headroom $hdrop), link drops $ldrop, socket drops $sdrop," \
	"backlog $backlog B; all queues empty" \
	"$took s after the first commit"
for l in $lat; do
	[ "$l" -ge 0 ] && [ "$l" -le "$BOUND" ]
	check_err $? "detection took $l ms, more than detect + one poll"
done
[ "$det" -ge 1 ] && [ "$wdrop" -gt 0 ] && [ "$backlog" -eq 0 ]
check_err $? "detected $det, dropped $wdrop, backlog $backlog B"
[ "$sent" -eq $((rcvd + qdrop)) ] && [ "$qdrop" -eq "$wdrop" ] && [ "$ldrop" -eq 0 ] &&
	[ "$sdrop" -eq 0 ]
check_err $? "counters disagree: sent $sent != received $rcvd + dropped $qdrop (watchdog $wdrop, link $ldrop, socket $sdrop)"
log_test "recovery, action drop: detected in time, drained, sent = received + dropped"

exit $EXIT_STATUS
