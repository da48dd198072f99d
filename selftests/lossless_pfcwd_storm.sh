#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftest-timeout: 600
# selftest-group: timing (pauses and the watchdog's polls are timed)
#
# A pause storm: a host that keeps sending XOFF frames. s1 sends two UDP
# flows on priority 3 (DSCP 24), one to the receiver rx and one to s2; s2
# then storms its switch port p2 with PFC frames (priority 3, 65535
# quanta, 100 a second). The packets for s2 wait in p2's queue, charged to
# p1, so the switch pauses s1, and s1's flow to rx stops too: the storm
# spreads to an innocent host.
#
#   s1 ---- p1 [ sw: br0 ] p2 ---- s2  (storms)
#                         prx ---- rx
#
# 1. No watchdog: during the storm rx gets (almost) nothing from s1.
# 2. pfcwd detect 200ms restore 400ms action drop on the switch ports:
#    p2's watchdog detects the storm, drops what waits for s2 (counted),
#    and s1's flow to rx resumes during the storm (at least half its rate
#    before it); after the storm, PFC is restored on p2.
# 3. pfcwd-limit 3 window 60s: the third storm turns PFC off for priority
#    3 on p2 (wd_state pfc_off, pfcwd-off 3, pfc none in the dump); a
#    fourth storm no longer stops anything; `pfc 3` turns it on again.

. "$(dirname "$0")/lib.sh"
require_tools udpgen udpsink
scratch_dir

SW_OPTS="trust dscp pfc 3 speed 50mbit response 20ms"
HOST_OPTS="trust dscp pfc 3 rate 50mbit"
WD="pfcwd detect 200ms restore 400ms action drop"

fabric 2 || { echo "# cannot build the fabric"; exit 1; }
s1=$(fabric_ns 1)
s2=$(fabric_ns 2)
# s1 also sends to s2 (192.0.2.2): static neighbour and bridge entry
mac2=$(link_mac "$s2" eth0)
ip -n "$s1" neigh add 192.0.2.2 lladdr "$mac2" dev eth0
bridge -n "$sw" fdb add "$mac2" dev p2 master static
PORTS=("$sw:p1" "$sw:p2" "$sw:prx")

# storm SECONDS: s2 sends XOFF for priority 3, 100 frames a second
storm() {
	ip netns exec "$s2" python3 "$TOOLS/pfc_send.py" eth0 --prio 3:65535 \
		--count $(($1 * 100)) --interval 0.01
}

# sent_to_rx: packets of class 3 sent out of prx so far
sent_to_rx() {
	python3 "$TOOLS/port_snapshot.py" 3 "$sw:prx" > "$out/p"
	json "$out/p" 'd["'"$sw:prx"'"]["sent_packets"]'
}

# traffic SECONDS: s1's two flows, 2 Mbit/s each, in the background,
# started at $TRAFFIC_T0; the callers stop them (GEN) when done, and give
# them time to spare: in a 1-CPU VM beside another, part 3 once took more
# than its 30 s of traffic before its last measure, which then saw none
traffic() {
	local t
	TRAFFIC_T0=$SECONDS
	for t in 192.0.2.100 192.0.2.2; do
		ip netns exec "$s1" taskset -c 0 "$TOOLS/udpgen" --dst "$t" --port 9000 \
			--size 64 --duration "$1" --rate 2000000 --tos 0x60 > /dev/null &
		GEN+=($!)
	done
}

# rate_since T0 N0: packets per second out of prx since time T0 (count N0)
rate_since() {
	local n t
	n=$(sent_to_rx)
	t=$(date +%s.%N)
	python3 -c 'import sys; t0, n0, t1, n1 = map(float, sys.argv[1:]); print(int((n1 - n0) / (t1 - t0)))' \
		"$1" "$2" "$t" "$n"
}

# storm_started: wait (up to 10 s) for p2 to take its first storm frame
storm_started() {
	local i
	for i in $(seq 50); do
		python3 "$TOOLS/port_snapshot.py" 3 "$sw:p2" > "$out/p2"
		[ "$(json "$out/p2" 'd["'"$sw:p2"'"].get("pfc_rx", 0)')" -gt 0 ] && return 0
		sleep 0.2
	done
	return 1
}

# run WD_OPTS: the rate (packets/s) of s1's flow to rx in 2 s before a
# storm ("base") and in 2 s from 1 s after the storm's first frame
# ("storm"), while it goes on (a sample takes a while in the VM: the storm
# lasts until the measure is done)
run() {
	local t0 n0 base st pid
	fabric_qdiscs "$SW_OPTS $1" "" "$HOST_OPTS" "xoff 16k xon 8k" || return 1
	GEN=()
	traffic 120
	sleep 1
	n0=$(sent_to_rx)
	t0=$(date +%s.%N)
	sleep 2
	base=$(rate_since "$t0" "$n0")
	# in the background, its pid that of pfc_send.py (ip execs it)
	ip netns exec "$s2" python3 "$TOOLS/pfc_send.py" eth0 --prio 3:65535 \
		--count 3000 --interval 0.01 &
	pid=$!
	storm_started || echo "# the storm did not start" >&2
	sleep 1
	n0=$(sent_to_rx)
	t0=$(date +%s.%N)
	sleep 2
	st=$(rate_since "$t0" "$n0")
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	kill -TERM "${GEN[@]}" 2>/dev/null
	wait "${GEN[@]}" 2>/dev/null
	echo "$base $st"
}

# 1. no watchdog
read -r base st <<< "$(run "")"
echo "# no watchdog: s1's flow to rx: $base packets/s before the storm, $st during it"
[ "$base" -gt 100 ] && [ "$st" -lt $((base / 5)) ]
check_err $? "the storm did not stop s1's flow to rx ($st packets/s vs $base before)"
log_test "pause storm, no watchdog: the storm spreads to another host's flow"

# 2. watchdog, action drop
read -r base st <<< "$(run "$WD")"
sleep 2
python3 "$TOOLS/port_snapshot.py" 3 "${PORTS[@]}" > "$out/s"
det=$(json "$out/s" 'd["'"$sw:p2"'"]["wd_detected"]')
rest=$(json "$out/s" 'd["'"$sw:p2"'"]["wd_restored"]')
wdrop=$(json "$out/s" 'd["'"$sw:p2"'"]["wd_dropped"]')
state=$(json "$out/s" 'd["'"$sw:p2"'"]["wd_state"]')
other=$(json "$out/s" 'd["'"$sw:p1"'"]["wd_detected"] + d["'"$sw:prx"'"]["wd_detected"]')
echo "# watchdog: s1's flow to rx: $base packets/s before the storm, $st during it;" \
	"p2 detected $det, restored $rest, dropped $wdrop, now $state; other ports detected $other"
[ "$st" -ge $((base / 2)) ]
check_err $? "s1's flow to rx did not resume during the storm ($st packets/s vs $base before)"
[ "$det" -ge 1 ] && [ "$wdrop" -gt 0 ] && [ "$rest" -eq "$det" ] && [ "$state" = watching ]
check_err $? "p2: detected $det, dropped $wdrop, restored $rest, state $state"
[ "$other" -eq 0 ]
check_err $? "the watchdog fired on ports that were not stormed ($other)"
log_test "pause storm, action drop: detected on the victim port, other traffic resumes, restored"

# 3. the limit
fabric_qdiscs "$SW_OPTS $WD pfcwd-limit 3 window 60s" "" "$HOST_OPTS" "xoff 16k xon 8k"
check_err $? "the qdiscs with pfcwd-limit could not be set"
GEN=()
traffic 120
sleep 1
for k in 1 2 3; do
	storm 1
	sleep 1.5
done
python3 "$TOOLS/port_snapshot.py" 3 "$sw:p2" > "$out/l"
det=$(json "$out/l" 'd["'"$sw:p2"'"]["wd_detected"]')
state=$(json "$out/l" 'd["'"$sw:p2"'"]["wd_state"]')
dump=$(tc -n "$sw" qdisc show dev p2 root)
echo "# after 3 storms: p2 detected $det, state $state; dump: $(echo "$dump" | grep -o 'pfc [^ ]*\|pfcwd-off [^ ]*' | tr '\n' ' ')"
[ "$det" -eq 3 ] && [ "$state" = pfc_off ]
check_err $? "3 storms: detected $det, state $state"
echo "$dump" | grep -q 'pfcwd-off 3' && echo "$dump" | grep -q 'pfc none'
check_err $? "the dump does not show PFC off for priority 3: $dump"
r0=$(sent_to_rx)
storm 2
r1=$(sent_to_rx)
python3 "$TOOLS/port_snapshot.py" 3 "$sw:p2" > "$out/l"
det4=$(json "$out/l" 'd["'"$sw:p2"'"]["wd_detected"]')
echo "# a 4th storm with PFC off: rx got $((r1 - r0)) packets from s1 in its 2 s," \
	"$((SECONDS - TRAFFIC_T0)) s after s1's flows started; p2 detected $det4"
[ "$det4" -eq 3 ] && [ $((r1 - r0)) -gt 100 ]
check_err $? "with PFC off p2 still obeyed the storm (detected $det4, rx got $((r1 - r0)))"
tc -n "$sw" qdisc change dev p2 root lossless pfc 3
check_err $? "tc refused pfc 3"
dump=$(tc -n "$sw" qdisc show dev p2 root)
python3 "$TOOLS/port_snapshot.py" 3 "$sw:p2" > "$out/l"
state=$(json "$out/l" 'd["'"$sw:p2"'"]["wd_state"]')
echo "$dump" | grep -q 'pfc 3' && ! echo "$dump" | grep -q 'pfcwd-off' && [ "$state" = watching ]
check_err $? "pfc 3 did not turn PFC on again: state $state, $dump"
kill -TERM "${GEN[@]}" 2>/dev/null
wait "${GEN[@]}" 2>/dev/null
log_test "pfcwd-limit 3: the third storm turns PFC off on the port until pfc 3"

exit $EXIT_STATUS
