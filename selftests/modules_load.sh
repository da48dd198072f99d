#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The modules load and unload cleanly; sch_lossless cannot be unloaded
# while a lossless qdisc exists, and can be afterwards.

. "$(dirname "$0")/lib.sh"

top=$LOSSLESS_TOP

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
grep -q '^sch_lossless ' /proc/modules || insmod "$top/sch_lossless/sch_lossless.ko"
ip netns exec "$h1" tc qdisc add dev d0 root lossless
check_err $? "tc qdisc add failed"
rmmod sch_lossless 2>/dev/null
check_fail $? "sch_lossless unloaded while a lossless qdisc exists"
ip netns exec "$h1" tc qdisc del dev d0 root
rmmod sch_lossless
check_err $? "rmmod sch_lossless failed once the qdisc was gone"
insmod "$top/sch_lossless/sch_lossless.ko"
check_err $? "insmod sch_lossless failed"
log_test "sch_lossless held while in use, unloads after"

exit $EXIT_STATUS
