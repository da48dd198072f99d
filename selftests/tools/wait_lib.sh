# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# wait_lib.sh: bounded waits that stretch with a slow kernel. Sourced by
# selftests/lib.sh and selftests/rdma/rxe_lib.sh.

# scaled N: N (seconds, or tries of a wait) times the factor a slow kernel
# puts on the tests' time limits (SELFTEST_TIMEOUT_SCALE, make check-debug)
scaled() {
	echo $(($1 * ${SELFTEST_TIMEOUT_SCALE:-1}))
}

# wait_for TRIES CMD...: run CMD every 0.1 s until it succeeds, at most
# TRIES times; its last status (the caller decides what a timeout means)
wait_for() {
	local tries=$1
	shift
	until "$@"; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || return 1
		sleep 0.1
	done
}

# capture_stop PID SECONDS: SIGINT, on which a capture writes out what it
# has and exits; still running SECONDS later (a debug kernel under
# emulation has kept tshark busy for minutes), SIGKILL and say so. Returns
# the capture's status, or 1 when it had to be killed (its file may be
# short).
capture_stop() {
	local pid=$1 secs=$2 tries

	tries=$((secs * 5))
	kill -INT "$pid" 2>/dev/null
	while [ "$tries" -gt 0 ] && kill -0 "$pid" 2>/dev/null; do
		sleep 0.2
		tries=$((tries - 1))
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo "# capture (pid $pid) still running $secs s after SIGINT: killed, its file may be short"
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		return 1
	fi
	wait "$pid"
}
