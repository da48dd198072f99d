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
LOSSLESS_TOP=${LOSSLESS_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
export TC_LIB_DIR=${TC_LIB_DIR:-$LOSSLESS_TOP/tc}
# A missing tc helper must fail loudly, not turn into "Unknown qdisc".
export LD_BIND_NOW=1

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

CLEANUP_HOOKS=()
on_exit() {
	local h
	for h in "${CLEANUP_HOOKS[@]}"; do
		eval "$h"
	done
	cleanup_namespaces
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

# link_mac NS DEV: the device's MAC address.
link_mac() {
	ip -n "$1" -j link show "$2" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["address"])'
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

# qdisc_stat NS DEV FIELD: a field of the root qdisc's statistics, from
# tc's JSON (bytes, packets, drops, overlimits, requeues, backlog, qlen).
qdisc_stat() {
	ip netns exec "$1" tc -s -j qdisc show dev "$2" root |
		python3 -c 'import json,sys; print(json.load(sys.stdin)[0][sys.argv[1]])' "$3" ||
		echo -1
}

# class_stat NS DEV CLASSID FIELD: a field of one class's statistics (the
# same names). iproute2 6.1's `tc class show` has no JSON output: this
# reads its text.
class_stat() {
	ip netns exec "$1" tc -s class show dev "$2" classid "$3" |
		python3 -c '
import re, sys
text = sys.stdin.read()
m = re.search(r"Sent (\d+) bytes (\d+) pkt \(dropped (\d+), overlimits (\d+) requeues (\d+)\)"
              r"\s+backlog (\d+)([KMG]?)b (\d+)p", text)
if not m:
    sys.exit("class_stat: no statistics in: " + text)
g = [int(x) for x in m.groups()[:6]] + [int(m.group(8))]
g[5] <<= {"": 0, "K": 10, "M": 20, "G": 30}[m.group(7)]  # tc rounds backlog to its unit
names = ("bytes", "packets", "drops", "overlimits", "requeues", "backlog", "qlen")
print(dict(zip(names, g))[sys.argv[1]])' "$4" || echo -1
}

# udp_send NS DST PORT COUNT [PRIORITY [TOS]]: COUNT UDP datagrams of 100
# bytes, each with SO_PRIORITY and IP TOS set when given.
udp_send() {
	ip netns exec "$1" python3 - "$2" "$3" "$4" "${5:-0}" "${6:-0}" <<'PY'
import socket, sys
dst, port, count, prio, tos = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4], 0), int(sys.argv[5], 0)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_PRIORITY, prio)
s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, tos)
for i in range(count):
    s.sendto(i.to_bytes(4, "big") + bytes(96), (dst, port))
PY
}
