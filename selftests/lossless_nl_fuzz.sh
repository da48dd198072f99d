#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftest-timeout: 1200
#
# Netlink fuzzing: random and boundary qdisc, class and DCQCN requests
# (tools/nl_fuzz.py) against a lossless qdisc while it carries traffic.
# No report in dmesg (the harness checks), every rejection with an extack
# message, no rejected request changing the dump, and the qdisc still
# passing traffic afterwards.
#
#   ns h1: v1 192.0.2.1 (root lossless, fuzzed) --- ns h2: v2 192.0.2.2
#
# NL_FUZZ_COUNT (default 20000, about 90 s in make check's VM; 100000
# took 464 s), NL_FUZZ_SEED (default: random, printed) and
# NL_FUZZ_CHECK_EVERY (default 1: the dump compared around every
# rejected request; N: around every Nth request, for a slow kernel)
# choose the run.

. "$(dirname "$0")/lib.sh"

COUNT=${NL_FUZZ_COUNT:-20000}
SEED=${NL_FUZZ_SEED:-$RANDOM$RANDOM}
EVERY=${NL_FUZZ_CHECK_EVERY:-1}
scratch_dir

ns_create h1 h2
veth_connect "$h1" v1 "$h2" v2
ip -n "$h1" addr add 192.0.2.1/24 dev v1
ip -n "$h2" addr add 192.0.2.2/24 dev v2
ip netns exec "$h1" tc qdisc add dev v1 root handle 1: lossless trust dscp pfc 3 \
	rate 100mbit
check_err $? "tc qdisc add failed"
log_test "a lossless qdisc to fuzz"

# traffic through the qdisc the whole time: pings of every DSCP class
pids=()
for tos in 0 0x60 0xb8; do
	ip netns exec "$h1" ping -q -i 0.01 -Q "$tos" 192.0.2.2 > /dev/null 2>&1 &
	pids+=($!)
done
before=$(qdisc_stat "$h1" v1 packets)
ip netns exec "$h1" python3 "$TOOLS/nl_fuzz.py" --seed "$SEED" --count "$COUNT" \
	--check-every "$EVERY" v1 \
	> "$out/fuzz" 2>&1
rc=$?
sed 's/^/# /' "$out/fuzz"
after=$(qdisc_stat "$h1" v1 packets)
kill "${pids[@]}" 2>/dev/null
wait "${pids[@]}" 2>/dev/null
[ "$rc" = 0 ]
check_err $? "nl_fuzz found rejections without extack or changes by rejected requests (seed $SEED)"
n=$(sed -n 's/^nl_fuzz: requests //p' "$out/fuzz")
[ "${n:-0}" -ge "$COUNT" ]
check_err $? "nl_fuzz sent ${n:-0} requests, not $COUNT"
checked=$(sed -n 's/^nl_fuzz: checked //p' "$out/fuzz")
[ "${checked:-0}" -gt 0 ]
check_err $? "nl_fuzz compared the dump around no rejected request"
[ "$after" -gt "$before" ]
check_err $? "the qdisc passed no packet during the run ($before then $after)"
log_test "$COUNT requests: each rejection with extack, none of ${checked:-0} checked changing the dump"

# where the fuzzing left it
ip netns exec "$h1" tc -s qdisc show dev v1 | sed 's/^/# /'
# the qdisc is still sound: every setting the fuzzing may have made
# restrictive back to the defaults, and traffic passes
ip netns exec "$h1" tc qdisc change dev v1 root lossless buffer 4m trust pcp \
	prio-tc 0:0,1:1,2:2,3:3,4:4,5:5,6:6,7:7 pfc none norate pfcwd off nouplink \
	hook-remap none
check_err $? "tc qdisc change to the defaults failed"
for c in 1 2 3 4 5 6 7 8; do
	ip netns exec "$h1" tc class change dev v1 classid "1:$c" lossless strict limit 4m noecn \
		xoff 64k xon 32k headroom auto || check_err 1 "tc class change 1:$c to the defaults failed"
done
ip netns exec "$h1" ping -c 5 -i 0.1 -W 2 192.0.2.2 > /dev/null
check_err $? "no traffic after the fuzzing"
log_test "the qdisc passes traffic after the fuzzing"

exit $EXIT_STATUS
