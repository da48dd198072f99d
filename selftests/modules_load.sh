#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The modules load and unload cleanly; neither can be unloaded while a
# qdisc uses it (sch_lossless: a lossless qdisc; dcqcn_cc: one with
# dcqcn), and each can be afterwards.

. "$(dirname "$0")/lib.sh"

# the modules the VM loaded: the checkout's, or a kernel's build directory
top=${LOSSLESS_MODDIR:-$LOSSLESS_TOP}

for i in 1 2 3; do
	rmmod dcqcn_cc 2>/dev/null
	insmod "$top/dcqcn_cc/dcqcn_cc.ko"
	check_err $? "insmod dcqcn_cc failed (cycle $i)"
	rmmod dcqcn_cc
	check_err $? "rmmod dcqcn_cc failed (cycle $i)"
done
insmod "$top/dcqcn_cc/dcqcn_cc.ko"
check_err $? "insmod dcqcn_cc failed"
log_test "dcqcn_cc loads and unloads"

ns_create h1
ip -n "$h1" link add d0 type dummy
ip -n "$h1" link set d0 up
ip netns exec "$h1" tc qdisc add dev d0 root lossless pfc 3 dcqcn np 3 rp 3
check_err $? "tc qdisc add ... dcqcn failed"
rmmod dcqcn_cc 2>/dev/null
check_fail $? "dcqcn_cc unloaded while a qdisc has dcqcn"
ip netns exec "$h1" tc qdisc del dev d0 root
rmmod dcqcn_cc
check_err $? "rmmod dcqcn_cc failed once the qdisc was gone"
out=$(ip netns exec "$h1" tc qdisc add dev d0 root lossless dcqcn np 3 2>&1)
check_fail $? "a qdisc with dcqcn was made without dcqcn_cc"
echo "# without dcqcn_cc: $out"
grep -qF "dcqcn needs the module dcqcn_cc" <<< "$out"
check_err $? "the refusal does not say dcqcn_cc is needed"
ip netns exec "$h1" tc qdisc show dev d0 | grep -q lossless
check_fail $? "the refused qdisc exists"
log_test "dcqcn_cc held while a qdisc has dcqcn; without it the kernel says what is missing"

# dcqcn_cc is unloaded: nothing else uses sch_lossless
ip netns exec "$h1" tc qdisc add dev d0 root lossless
check_err $? "tc qdisc add failed"
rmmod sch_lossless 2>/dev/null
check_fail $? "sch_lossless unloaded while a lossless qdisc exists"
ip netns exec "$h1" tc qdisc del dev d0 root
rmmod sch_lossless
check_err $? "rmmod sch_lossless failed once the qdisc was gone"
insmod "$top/sch_lossless/sch_lossless.ko"
check_err $? "insmod sch_lossless failed"
insmod "$top/dcqcn_cc/dcqcn_cc.ko"
check_err $? "insmod dcqcn_cc failed"
log_test "sch_lossless held while in use, unloads after"

exit $EXIT_STATUS
