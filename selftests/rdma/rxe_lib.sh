# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# rxe_lib.sh: what the soft-RoCE guests of selftests/rdma share. Sourced.

# shellcheck source=selftests/tools/wait_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../tools/wait_lib.sh"

# rxe_up DEV: rdma_rxe loaded and rxe0 on DEV. rxe computes its ICRC with
# the kernel's crc32 crypto; without crc32_generic loaded first, rdma link
# add fails with "failed to init crc32 algorithm err:-2".
rxe_up() {
	modprobe crc32_generic || return 1
	modprobe rdma_rxe || return 1
	rdma link add rxe0 type rxe netdev "$1"
}

# gid_index ADDR: the index of rxe0's RoCE v2 GID for ADDR: an IPv6
# address is its own GID, an IPv4 one's is the IPv4-mapped IPv6 address.
# rxe fills its GID table from the netdev's addresses through a workqueue:
# wait for it.
gid_index() {
	local want f i
	want=$(python3 -c 'import ipaddress, sys
a = ipaddress.ip_address(sys.argv[1])
if a.version == 4:
    a = ipaddress.IPv6Address("::ffff:" + str(a))
print(a.exploded)' "$1") || return 1
	for _ in $(seq "$(scaled 100)"); do
		for f in /sys/class/infiniband/rxe0/ports/1/gids/*; do
			i=${f##*/}
			[ "$(cat "$f")" = "$want" ] || continue
			[ "$(cat "/sys/class/infiniband/rxe0/ports/1/gid_attrs/types/$i" 2>/dev/null)" = "RoCE v2" ] || continue
			echo "$i"
			return 0
		done
		sleep 0.1
	done
	return 1
}

# roce_addr DEV IPV4 IPV6: the address RoCE uses on DEV, by $DCQCN_FAMILY
# (4, the default, or 6): IPV4, which DEV has already, or IPV6, added
# to DEV (no duplicate address detection: usable at once). perftest's
# own exchange and the test's other traffic stay on IPv4.
roce_addr() {
	if [ "${DCQCN_FAMILY:-4}" = 6 ]; then
		ip -6 addr add "$3/64" dev "$1" nodad || return 1
		echo "$3"
	else
		echo "$2"
	fi
}

# perftest_connect LOG TRIES PAUSE CMD...: run the perftest client CMD,
# its output in LOG, again every PAUSE seconds, at most TRIES times, while
# it fails with "Couldn't connect": perftest exchanges its QP numbers over
# TCP first, and fails at once until the server listens. Returns CMD's
# status; PERFTEST_TRIES says how many runs it took.
perftest_connect() {
	local log=$1 tries=$2 pause=$3 rc=0
	shift 3
	# shellcheck disable=SC2034 # the callers read it
	for PERFTEST_TRIES in $(seq "$tries"); do
		"$@" > "$log" 2>&1
		rc=$?
		grep -q "Couldn't connect" "$log" || break
		sleep "$pause"
	done
	return $rc
}

# perftest_bw LOG: the average bandwidth perftest reports, in its unit, from
# the row after its "#bytes ... BW average[...]" header
perftest_bw() {
	awk '/#bytes.*BW average/ { getline; print $4; exit }' "$1"
}

# wait_files SECONDS FILE...: wait until every FILE exists, at most
# SECONDS (scaled); returns 1 with the names of those still missing in
# $missing
wait_files() {
	local secs=$1 f tries
	shift
	tries=$(($(scaled "$secs") * 5))
	while :; do
		missing=""
		for f in "$@"; do
			[ -e "$f" ] || missing+=" ${f##*/}"
		done
		[ -n "$missing" ] || return 0
		[ "$tries" -gt 0 ] || return 1
		tries=$((tries - 1))
		sleep 0.2
	done
}

# barrier STEP SECONDS ROLE...: the multi-VM scenes' phases. This VM
# ($VM_NAME) says it reached STEP (a file in $VM_OUT, the directory every
# VM of a scene shares), then waits until every ROLE has, at most SECONDS
# (scaled). Returns 1 after saying which VMs never reached STEP; the
# scene's script then fails, and scripts/vm-multi stops the other VMs.
barrier() {
	local step=$1 secs=$2 r files=()
	shift 2
	touch "$VM_OUT/at-$step-$VM_NAME"
	for r in "$@"; do
		files+=("$VM_OUT/at-$step-$r")
	done
	wait_files "$secs" "${files[@]}" && return 0
	echo "barrier: $VM_NAME: step '$step': still waiting after $(scaled "$secs") s for:${missing//at-$step-/}"
	return 1
}

# outlive SECONDS ROLE...: wait until the VMs ROLE have ended their
# command (scripts/vm-multi's guests leave VM_OUT/NAME.rc just before they
# power off), at most SECONDS (scaled), so that a VM with links to them
# goes last: a guest whose peer's qemu went away while it still had
# packets for it logs transmit timeouts on that link until it ends.
outlive() {
	local secs=$1 r files=()
	shift
	for r in "$@"; do
		files+=("$VM_OUT/$r.rc")
	done
	wait_files "$secs" "${files[@]}" && { sleep 1; return 0; }
	echo "outlive: $VM_NAME: still waiting after $(scaled "$secs") s for the end of:${missing//.rc/}"
	return 1
}

# listening PORT...: wait until a TCP socket listens on each PORT (a
# perftest server has exchanged nothing before), at most 60 s (scaled)
listening() {
	local p tries=$(($(scaled 60) * 5))
	for p in "$@"; do
		until [ -n "$(ss -ltnH "sport = :$p")" ]; do
			[ "$tries" -gt 0 ] || { echo "listening: nothing listens on TCP port $p"; return 1; }
			tries=$((tries - 1))
			sleep 0.2
		done
	done
}
