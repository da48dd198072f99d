#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh: run selftests inside the VM, kselftest style (TAP 13).
#
#   selftests/run.sh [TEST...]    default: every selftests/*.sh but lib.sh
#                                 and run.sh
#
# Each test runs under a time limit with the kernel log cleared before it;
# after it, scripts/dmesg-check reads the log and a report of any kind
# (WARN, BUG, Call Trace, lockdep, KASAN...) fails the test and is printed.
# Where the kernel has kmemleak (make check-debug), a scan after each test
# fails it on any suspected leak, and forgets them for the next test.
# A test's exit status: 0 pass, 4 skip (kselftest), anything else fail.
# The time limit is SELFTEST_TIMEOUT seconds (default 300), or what a
# "# selftest-timeout: S" line in the test asks for, if more; times
# SELFTEST_TIMEOUT_SCALE (make check-debug's slow kernel).

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
tmo=${SELFTEST_TIMEOUT:-300}

if [ $# -eq 0 ]; then
	set -- $(cd "$here" && ls -1 *.sh | grep -vx -e lib.sh -e run.sh)
fi

echo "TAP version 13"
echo "1..$#"
n=0
for t in "$@"; do
	n=$((n + 1))
	name=${t##*/}
	path=$t
	[ -f "$path" ] || path=$here/$t
	limit=$(sed -n 's/^# selftest-timeout: \([0-9][0-9]*\).*/\1/p' "$path" | head -n 1)
	[ -n "$limit" ] && [ "$limit" -gt "$tmo" ] || limit=$tmo
	limit=$((limit * ${SELFTEST_TIMEOUT_SCALE:-1}))
	dmesg -C
	start=$(date +%s)
	out=$(timeout --kill-after=10 "$limit" bash "$path" 2>&1)
	rc=$?
	secs=$(($(date +%s) - start))
	# the kernel's reports, then (a kernel with kmemleak) what it leaked
	for check in "dmesg-check --clear" kmemleak-check; do
		# shellcheck disable=SC2086 # the check and its option
		if ! report=$("$top"/scripts/$check); then
			out="$out
$report"
			rc=1
		fi
	done
	echo "# $name (${secs}s)"
	echo "$out" | sed 's/^/#   /'
	case $rc in
	0) echo "ok $n selftests: $name" ;;
	4) echo "ok $n selftests: $name # SKIP $(echo "$out" | sed -n 's/.*# SKIP //p' | tail -n 1)" ;;
	124|137) echo "not ok $n selftests: $name # TIMEOUT ${limit}s" ;;
	*) echo "not ok $n selftests: $name # exit=$rc" ;;
	esac
done
