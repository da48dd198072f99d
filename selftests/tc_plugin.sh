#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The tc plug-in loads in the stock tc with every symbol bound at load time
# (LD_BIND_NOW=1: a missing helper fails loudly instead of turning into
# "Unknown qdisc"), explains itself, names bad arguments, and works end to
# end: add, show, -s, -j (valid JSON), del.

. "$(dirname "$0")/lib.sh"

out=$(tc qdisc add dev lo root lossless help 2>&1)
echo "$out" | grep -q "Usage: .* lossless"
check_err $? "no usage from 'lossless help': $out"
echo "$out" | grep -qi "unknown qdisc\|symbol"
check_fail $? "the plug-in did not load: $out"
log_test "plug-in loads with LD_BIND_NOW=1 and explains"

out=$(tc qdisc add dev lo root lossless buffer foo 2>&1)
check_fail $? "'buffer foo' was accepted"
echo "$out" | grep -q '"foo".*buffer\|buffer.*"foo"'
check_err $? "the error does not name buffer and foo: $out"
out=$(tc qdisc add dev lo root lossless frobnicate 2>&1)
check_fail $? "'frobnicate' was accepted"
echo "$out" | grep -q 'What is "frobnicate"'
check_err $? "the error does not name the option: $out"
log_test "bad arguments are named"

ns_create h1
ns_no_ipv6 "$h1"
ip -n "$h1" link add d0 type dummy
ip -n "$h1" link set d0 up
ip netns exec "$h1" tc qdisc add dev d0 root handle 1: lossless buffer 2m
check_err $? "tc qdisc add failed"
ip netns exec "$h1" tc qdisc show dev d0 | grep -q "^qdisc lossless 1: root .*buffer 2Mb"
check_err $? "tc qdisc show: $(ip netns exec "$h1" tc qdisc show dev d0)"
ip netns exec "$h1" tc -s qdisc show dev d0 | grep -q "Sent 0 bytes 0 pkt"
check_err $? "tc -s qdisc show has no statistics"
ip netns exec "$h1" tc -s -j qdisc show dev d0 | python3 -c '
import json, sys
q = json.load(sys.stdin)[0]
assert q["kind"] == "lossless" and q["options"]["buffer"] == 2 << 20, q
assert q["packets"] == 0 and q["drops"] == 0, q'
check_err $? "tc -s -j qdisc show is not the expected JSON"
ip netns exec "$h1" tc qdisc del dev d0 root
check_err $? "tc qdisc del failed"
log_test "add, show, -s, -j, del"

exit $EXIT_STATUS
