# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# lib.sh: helpers for the project's kselftest-style tests, in the manner of
# tools/testing/selftests/net/forwarding/lib.sh (written for this project).
#
# A test sources this file, builds its topology with ns_create and
# veth_connect (torn down on exit, whatever happens), checks with
# check_err / check_fail, closes each check with log_test, and ends with
# `exit $EXIT_STATUS`. Each log_test prints one TAP line; a test that cannot
# run calls skip "reason" (exit 4, kselftest's SKIP).

ksft_skip=4
EXIT_STATUS=0
RET=0
RET_MSG=""
TEST_NUM=0
export LOSSLESS_TOP=${LOSSLESS_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
export TC_LIB_DIR=${TC_LIB_DIR:-$LOSSLESS_TOP/tc}
# A missing tc helper must fail loudly, not turn into "Unknown qdisc".
export LD_BIND_NOW=1
# shellcheck source=selftests/tools/wait_lib.sh
. "$LOSSLESS_TOP/selftests/tools/wait_lib.sh"

NAMESPACES=()

# A per-run suffix keeps tests that run side by side apart.
NS_SUFFIX=${NS_SUFFIX:-$$}

cleanup_namespaces() {
	local ns
	for ns in "${NAMESPACES[@]}"; do
		ip netns del "$ns" 2>/dev/null
	done
	NAMESPACES=()
}

# conservation_check: on every lossless root qdisc left in the test's
# namespaces and the current one, every packet in is sent, dropped (by
# reason), flushed or queued, per class and for the port
# (tools/conservation.py). One result; none if there is no such qdisc.
# The drops of those namespaces at every point (qdiscs, devices, IP and
# UDP) are printed with it, for the record (tools/drop_points.py).
conservation_check() {
	local ns spaces=(-) out rc
	for ns in "${NAMESPACES[@]}"; do
		[ -e "/run/netns/$ns" ] && spaces+=("$ns")
	done
	out=$(python3 "$LOSSLESS_TOP/selftests/tools/conservation.py" "${spaces[@]}" 2>&1)
	rc=$?
	echo "$out" | grep -q '^conservation: 0 lossless ports' && return 0
	echo "$out" | sed 's/^/# /'
	# where what was lost went, between the sockets (tools/drop_points.py)
	python3 "$LOSSLESS_TOP/selftests/tools/drop_points.py" "${spaces[@]}" 2>&1 | sed 's/^/# /'
	check_err $rc "$(echo "$out" | grep -vE 'accounted for|ports checked' | head -n 1)"
	log_test "conservation: in = sent + drops by reason + flushed + queued, every lossless port and class"
}

CLEANUP_HOOKS=()
on_exit() {
	local h rc=$?
	for h in "${CLEANUP_HOOKS[@]}"; do
		eval "$h"
	done
	# after the hooks (which stop the traffic), before the namespaces go
	if [ "$rc" != "$ksft_skip" ]; then
		conservation_check
		[ "$EXIT_STATUS" = 0 ] || rc=1
	fi
	cleanup_namespaces
	exit "$rc"
}
trap on_exit EXIT

# ns_create VAR... : create a namespace for each VAR, its name in $VAR.
ns_create() {
	local var name
	for var in "$@"; do
		name="${var}-${NS_SUFFIX}"
		ip netns add "$name" || return 1
		NAMESPACES+=("$name")
		ip -n "$name" link set lo up
		printf -v "$var" '%s' "$name"
	done
}

# ns_no_ipv6 NS...: no IPv6 on the namespace's interfaces, so that no
# router or neighbour solicitation lands in a count. Call before adding them.
ns_no_ipv6() {
	local ns
	for ns in "$@"; do
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1
	done
}

# veth_connect NS1 IF1 NS2 IF2: a veth pair between two namespaces, up.
veth_connect() {
	ip link add "$2" netns "$1" type veth peer name "$4" netns "$3" || return 1
	ip -n "$1" link set "$2" up
	ip -n "$3" link set "$4" up
}

# two_hosts: namespaces $h1 and $h2 joined by a veth pair v1 -- v2,
# 192.0.2.1 and 192.0.2.2/24, no IPv6 and static neighbours both ways, so
# that no neighbour discovery packet lands in a count.
two_hosts() {
	ns_create h1 h2
	ns_no_ipv6 "$h1" "$h2"
	veth_connect "$h1" v1 "$h2" v2
	ip -n "$h1" addr add 192.0.2.1/24 dev v1
	ip -n "$h2" addr add 192.0.2.2/24 dev v2
	ip -n "$h1" neigh add 192.0.2.2 lladdr "$(link_mac "$h2" v2)" dev v1
	ip -n "$h2" neigh add 192.0.2.1 lladdr "$(link_mac "$h1" v1)" dev v2
}

# link_field NS DEV FIELD: a field of the device's `ip -j link show`.
link_field() {
	ip -n "$1" -j link show "$2" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)[0][sys.argv[1]])' "$3"
}

# link_mac NS DEV: the device's MAC address.
link_mac() {
	link_field "$1" "$2" address
}

require_cmd() {
	local cmd
	for cmd in "$@"; do
		command -v "$cmd" >/dev/null || skip "$cmd is not installed"
	done
}

skip() {
	echo "ok $((TEST_NUM + 1)) # SKIP $*"
	exit $ksft_skip
}

# check_err STATUS MSG: a check that must have succeeded.
check_err() {
	if [ "$1" -ne 0 ] && [ "$RET" -eq 0 ]; then
		RET=$1
		RET_MSG=$2
	fi
}

# check_fail STATUS MSG: a check that must have failed.
check_fail() {
	if [ "$1" -eq 0 ] && [ "$RET" -eq 0 ]; then
		RET=1
		RET_MSG=$2
	fi
}

# log_test NAME: report the checks since the last log_test as one result.
log_test() {
	TEST_NUM=$((TEST_NUM + 1))
	if [ "$RET" -ne 0 ]; then
		EXIT_STATUS=1
		echo "not ok $TEST_NUM - $1"
		echo "#   $RET_MSG"
	else
		echo "ok $TEST_NUM - $1"
	fi
	RET=0
	RET_MSG=""
}

# Statistics. A helper that cannot read its number prints -1 (and says why
# on stderr), so that a comparison fails instead of the test's arithmetic.

# tc_stats_field FIELD: from `tc -s` text on stdin, the first block's
# bytes, packets, drops, overlimits, requeues, backlog (bytes) or qlen.
# tc prints the backlog rounded to its unit (Kb, Mb) above 1 KiB.
tc_stats_field() {
	awk -v want="$1" '
	/^ *Sent [0-9]+ bytes [0-9]+ pkt/ && !done {
		gsub(/[(),]/, " ")
		v["bytes"] = $2; v["packets"] = $4; v["drops"] = $7
		v["overlimits"] = $9; v["requeues"] = $11
		sent = 1
		next
	}
	/^ *backlog / && sent && !done {
		b = $2; q = $3
		m = 1
		if (b ~ /Kb$/) m = 1024
		if (b ~ /Mb$/) m = 1048576
		if (b ~ /Gb$/) m = 1073741824
		sub(/[KMG]?b$/, "", b); sub(/p$/, "", q)
		v["backlog"] = b * m; v["qlen"] = q
		done = 1
	}
	END {
		if (!done || !(want in v)) { print "tc_stats_field: no " want > "/dev/stderr"; print -1; exit }
		print v[want]
	}'
}

# qdisc_stat NS DEV FIELD: a field of the root qdisc's statistics.
qdisc_stat() {
	ip netns exec "$1" tc -s qdisc show dev "$2" root | tc_stats_field "$3"
}

# class_stat NS DEV CLASSID FIELD: a field of one class's statistics.
# (iproute2 6.1's `tc class show` has no JSON output; this reads its text.)
class_stat() {
	ip netns exec "$1" tc -s class show dev "$2" classid "$3" | tc_stats_field "$4"
}

# The project's traffic tools (selftests/tools, built by make).
TOOLS=$LOSSLESS_TOP/selftests/tools

# require_tools TOOL...: skip unless these selftests/tools are built
require_tools() {
	local t
	require_cmd python3
	for t in "$@"; do
		[ -x "$TOOLS/$t" ] || skip "selftests/tools are not built (make)"
	done
}

# scratch_dir: a directory for the test's files in $out, removed on exit
scratch_dir() {
	out=$(mktemp -d)
	CLEANUP_HOOKS+=("rm -rf $out")
}

# long_wire: the per-CPU receive backlog (net.core.netdev_max_backlog,
# one for the whole VM) made long enough never to drop, until the test
# ends. A veth hands a frame to its peer through that backlog, which
# drops past 1000 frames when a paused port releases a burst faster than
# a slow VM's softirq forwards it: a loss of the emulated wire, not of the
# ports under test. Tests that claim "no loss" use it and still count
# each device's drops (port_snapshot.py's link_drops), which must stay 0.
long_wire() {
	local old
	old=$(sysctl -n net.core.netdev_max_backlog)
	sysctl -qw net.core.netdev_max_backlog=100000 || return 1
	CLEANUP_HOOKS+=("sysctl -qw net.core.netdev_max_backlog=$old")
}

# json FILE EXPR: a value from a JSON file, EXPR a Python expression on d.
json() {
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' \
		"$1" "$2" || echo -1
}

# sink_start NS OUT [udpsink options]: udpsink in NS, its JSON into OUT;
# returns once the socket is bound. sink_wait waits for it to finish.
# With SINK_CPU set, udpsink runs on that CPU only.
sink_start() {
	local ns=$1 out=$2 ready
	shift 2
	ready=$(mktemp -u "${TMPDIR:-/tmp}/sink-ready.XXXXXX")
	ip netns exec "$ns" ${SINK_CPU:+taskset -c "$SINK_CPU"} "$TOOLS/udpsink" \
		--ready "$ready" "$@" > "$out" &
	SINK_PID=$!
	wait_for 100 test -e "$ready"
	rm -f "$ready"
}

sink_wait() {
	wait "$SINK_PID"
}

# xstat NS DEV TC FIELD: a per-class counter of the lossless root qdisc of
# DEV from its statistics (tc -s -j qdisc show: every class is listed there,
# since iproute2 6.1 prints no JSON for classes); -1 when unreadable.
xstat() {
	class_sum "$1" "$3" "$4" "$2"
}

# xstat_ge NS DEV TC FIELD N: whether that counter is at least N
xstat_ge() {
	[ "$(xstat "$1" "$2" "$3" "$4")" -ge "$5" ]
}

# class_sum NS TC FIELD DEV...: FIELD of traffic class TC summed over the
# lossless root qdiscs of the DEVs; class_max: the largest (-1: unreadable)
class_sum() {
	python3 "$TOOLS/class_stats.py" "$1" "$2" "$3" "${@:4}" | awk '{ print $2 }'
}

class_max() {
	python3 "$TOOLS/class_stats.py" "$1" "$2" "$3" "${@:4}" | awk '{ print $3 }'
}

# within VALUE EXPECTED TOLERANCE: |VALUE - EXPECTED| <= TOLERANCE (floats)
within() {
	python3 -c 'import sys; v, e, t = map(float, sys.argv[1:]); sys.exit(abs(v - e) > t)' "$@"
}

# udp_send NS DST PORT COUNT [PRIORITY [TOS]]: COUNT UDP datagrams of 100
# bytes, each with SO_PRIORITY and IP TOS set when given.
udp_send() {
	ip netns exec "$1" python3 - "$2" "$3" "$4" "${5:-0}" "${6:-0}" <<'PY'
import socket, sys
dst, port, count, prio, tos = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4], 0), int(sys.argv[5], 0)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
# IP_TOS also sets the socket's priority: set SO_PRIORITY after it.
s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, tos)
s.setsockopt(socket.SOL_SOCKET, socket.SO_PRIORITY, prio)
for i in range(count):
    s.sendto(i.to_bytes(4, "big") + bytes(96), (dst, port))
PY
}

# fabric N: a software switch and N + 1 hosts, for the PFC tests.
#
#   $s1 .. $sN  senders, 192.0.2.1 .. N on eth0
#   $rx         the receiver, 192.0.2.100 on eth0
#   $sw         the switch: bridge br0 with ports p1 .. pN (to the
#               senders) and prx (to the receiver)
#
# No IPv6; the senders know the receiver's MAC and the bridge has it as a
# static entry, so nothing is flooded and no neighbour discovery runs.
# The caller puts the qdiscs on (fabric_qdiscs) and runs the traffic on
# CPU 0 (taskset -c 0): veth queues a packet on the backlog of the CPU
# that sends it, so a flow sent from two CPUs can be received out of
# order; one CPU keeps each flow in order, as one NIC queue would.
fabric() {
	local n=$1 i mac ns
	ns_create sw rx || return 1
	ns_no_ipv6 "$sw" "$rx"
	ip -n "$sw" link add br0 type bridge || return 1
	ip -n "$sw" link set br0 up
	veth_connect "$rx" eth0 "$sw" prx || return 1
	ip -n "$sw" link set prx master br0
	ip -n "$rx" addr add 192.0.2.100/24 dev eth0
	mac=$(link_mac "$rx" eth0)
	bridge -n "$sw" fdb add "$mac" dev prx master static
	for i in $(seq "$n"); do
		ns_create "s$i" || return 1
		eval "ns=\$s$i"
		# shellcheck disable=SC2154
		ns_no_ipv6 "$ns"
		veth_connect "$ns" eth0 "$sw" "p$i" || return 1
		ip -n "$sw" link set "p$i" master br0
		ip -n "$ns" addr add "192.0.2.$i/24" dev eth0
		ip -n "$ns" neigh add 192.0.2.100 lladdr "$mac" dev eth0
	done
	FABRIC_N=$n
}


# fabric_ns I: the namespace of sender I
fabric_ns() {
	eval "echo \$s$1"
}

# fabric_qdiscs SWITCH_OPTS RX_PORT_OPTS HOST_OPTS [CLASS_OPTS]: a new
# lossless root qdisc (counters at 0) on every port of the switch
# (SWITCH_OPTS; prx gets RX_PORT_OPTS too) and on every host's eth0
# (HOST_OPTS); CLASS_OPTS, if given, on class 1:4 (priority 3, the lossless
# one in the PFC tests) of every switch port.
fabric_qdiscs() {
	local i ns d
	tc -n "$sw" qdisc del dev prx root 2>/dev/null
	tc -n "$rx" qdisc del dev eth0 root 2>/dev/null
	for i in $(seq "$FABRIC_N"); do
		tc -n "$sw" qdisc del dev "p$i" root 2>/dev/null
		tc -n "$(fabric_ns "$i")" qdisc del dev eth0 root 2>/dev/null
	done
	# shellcheck disable=SC2086
	{
		tc -n "$sw" qdisc add dev prx root handle 1: lossless $1 $2 || return 1
		tc -n "$rx" qdisc add dev eth0 root handle 1: lossless $3 || return 1
		for i in $(seq "$FABRIC_N"); do
			ns=$(fabric_ns "$i")
			tc -n "$sw" qdisc add dev "p$i" root handle 1: lossless $1 || return 1
			tc -n "$ns" qdisc add dev eth0 root handle 1: lossless $3 || return 1
		done
		[ -n "${4:-}" ] || return 0
		for d in prx $(seq -f "p%g" "$FABRIC_N"); do
			tc -n "$sw" class change dev "$d" classid 1:4 lossless $4 || return 1
		done
	}
}

# send_prio3 COUNT SIZE NS...: from each NS (the I-th: flow I), COUNT
# udpgen datagrams of SIZE payload bytes to 192.0.2.100 port 9000 with
# DSCP 24 (priority 3), on CPU 0 (see fabric); udpgen's JSON in
# $out/txI.json. Returns when all are sent.
send_prio3() {
	local count=$1 size=$2 ns i=0 pids=()
	shift 2
	for ns in "$@"; do
		i=$((i + 1))
		ip netns exec "$ns" taskset -c 0 "$TOOLS/udpgen" --dst 192.0.2.100 --port 9000 \
			--size "$size" --count "$count" --tos 0x60 --flow "$i" --recverr \
			> "$out/tx$i.json" &
		pids+=($!)
	done
	wait "${pids[@]}"
}

# ring N: N routers in a ring, each with one host, for the deadlock tests.
#
#   $h0 .. $h(N-1)  hosts, 10.0.I.2/24 on eth0, gateway 10.0.I.1
#   $r0 .. $r(N-1)  routers: rIh (10.0.I.1) to host I, rIe (10.1.I.1) to
#                   the next router's r(I+1)w (10.1.I.2)
#
# Every router sends everything not for its own host east, so a flow from
# host I to host I-1 crosses N-1 ring links: the buffer dependency of the
# flows together is the cycle r0e -> r1e -> ... -> r0e. Device names are
# unique over the namespaces, so that trace events name their router.
# Neighbours are static (no ARP queue to lose the first packets), no IPv6.
ring() {
	local n=$1 i j nx ns r rn h
	RING_N=$n
	for i in $(seq 0 $((n - 1))); do
		ns_create "r$i" "h$i" || return 1
		eval "r=\$r$i h=\$h$i"
		ns_no_ipv6 "$r" "$h"
		ip netns exec "$r" sysctl -qw net.ipv4.ip_forward=1
		veth_connect "$h" eth0 "$r" "r${i}h" || return 1
		ip -n "$h" addr add "10.0.$i.2/24" dev eth0
		ip -n "$r" addr add "10.0.$i.1/24" dev "r${i}h"
		ip -n "$h" route add default via "10.0.$i.1"
	done
	for i in $(seq 0 $((n - 1))); do
		nx=$(((i + 1) % n))
		eval "r=\$r$i rn=\$r$nx"
		veth_connect "$r" "r${i}e" "$rn" "r${nx}w" || return 1
		ip -n "$r" addr add "10.1.$i.1/24" dev "r${i}e"
		ip -n "$rn" addr add "10.1.$i.2/24" dev "r${nx}w"
		ip -n "$r" neigh add "10.1.$i.2" lladdr "$(link_mac "$rn" "r${nx}w")" dev "r${i}e"
		ip -n "$rn" neigh add "10.1.$i.1" lladdr "$(link_mac "$r" "r${i}e")" dev "r${nx}w"
		for j in $(seq 0 $((n - 1))); do
			[ "$j" -eq "$i" ] || ip -n "$r" route add "10.0.$j.0/24" via "10.1.$i.2"
		done
	done
	for i in $(seq 0 $((n - 1))); do
		eval "r=\$r$i h=\$h$i"
		ip -n "$r" neigh add "10.0.$i.2" lladdr "$(link_mac "$h" eth0)" dev "r${i}h"
		ip -n "$h" neigh add "10.0.$i.1" lladdr "$(link_mac "$r" "r${i}h")" dev eth0
	done
}

# p2p NS1 DEV1 ADDR1 NS2 DEV2 ADDR2: a veth pair between two namespaces,
# ADDR1/24 and ADDR2/24 on it, each the other's static neighbour.
p2p() {
	veth_connect "$1" "$2" "$4" "$5" || return 1
	ip -n "$1" addr add "$3/24" dev "$2"
	ip -n "$4" addr add "$6/24" dev "$5"
	ip -n "$1" neigh add "$6" lladdr "$(link_mac "$4" "$5")" dev "$2"
	ip -n "$4" neigh add "$3" lladdr "$(link_mac "$1" "$2")" dev "$5"
}

# ring_ns r|h I: the namespace of router or host I
ring_ns() {
	eval "echo \$$1$2"
}

# tracefs: where the kernel's tracing directory is, mounted if need be
# (the VM mounts only proc, sys and dev); empty when there is none.
tracefs() {
	local t=/sys/kernel/tracing
	mountpoint -q "$t" || mount -t tracefs nodev "$t" 2>/dev/null
	[ -e "$t/trace" ] && echo "$t"
}

# wait_empty DIR TC[,TC...] NS:DEV...: wait up to 30 s for traffic classes
# TC of every port to have nothing queued at two samples in a row (queues
# elsewhere may refill them); the last samples are in DIR/sTC
# (port_snapshot.py). Fails when they never empty.
wait_empty() {
	local dir=$1 tcs=$2 i t busy empty=0
	shift 2
	for i in $(seq 30); do
		busy=0
		for t in ${tcs//,/ }; do
			python3 "$TOOLS/port_snapshot.py" "$t" "$@" > "$dir/s$t"
			[ "$(json "$dir/s$t" 'sum(v.get("backlog", 1) for v in d.values())')" = 0 ] ||
				busy=1
		done
		if [ "$busy" -eq 0 ]; then
			empty=$((empty + 1))
			[ "$empty" -ge 2 ] && return 0
		else
			empty=0
		fi
		sleep 1
	done
	return 1
}
