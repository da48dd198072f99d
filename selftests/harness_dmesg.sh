#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The harness itself: scripts/dmesg-check finds a kernel report and
# passes a clean log. (Runs inside the VM; leaves the log clean.)

. "$(dirname "$0")/lib.sh"

check="$LOSSLESS_TOP/scripts/dmesg-check"

dmesg -C
"$check" >/dev/null
check_err $? "dmesg-check failed on a clean log"
log_test "a clean kernel log passes"

for report in "WARNING: CPU: 0 PID: 1 at net/sched/x.c:1 f+0x0/0x10" \
	      "BUG: KASAN: slab-out-of-bounds in f+0x0/0x10" \
	      "Call Trace:" "WARNING: possible circular locking dependency detected"; do
	dmesg -C
	echo "<4>selftest: $report" > /dev/kmsg
	out=$("$check" --clear)
	check_fail $? "dmesg-check missed: $report"
	echo "$out" | grep -qF "$report"
	check_err $? "dmesg-check did not print the report: $report"
done
dmesg -C
log_test "reports are caught and printed"

exit $EXIT_STATUS
