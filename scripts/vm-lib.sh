# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Functions shared by scripts/vm (one VM) and scripts/vm-multi (several):
# writing the guest's script and starting qemu. Sourced, not run.

vm_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Load the project's modules, built in $LOSSLESS_MODDIR (VM_MODDIR on the
# host: the checkout, or a kernel's own build directory that make check
# makes): their dependencies from the guest kernel first (modprobe), then
# the modules (insmod).
vm_load_modules_snippet() {
	cat <<'EOS'
for ko in $LOSSLESS_MODULES; do
	[ -f "$LOSSLESS_MODDIR/$ko" ] || { echo "vm: $LOSSLESS_MODDIR/$ko is not built (run make)"; exit 1; }
	for dep in $(modinfo -F depends "$LOSSLESS_MODDIR/$ko" | tr , ' '); do
		# dcqcn_cc needs sch_lossless, loaded just before
		[ -d "/sys/module/$dep" ] || modprobe "$dep" || exit 1
	done
	insmod "$LOSSLESS_MODDIR/$ko" || { echo "vm: insmod $ko failed"; exit 1; }
done
EOS
}

# vm_guest_script NAME OUTDIR CWD CMD... : write OUTDIR/guest-NAME.sh, which
# the guest's /init runs in its chroot. It sets the guest up, runs CMD from
# CWD with its output in OUTDIR/NAME.out, checks the kernel log and leaves
# CMD's exit status (1 if the kernel reported a problem or, where the
# kernel has kmemleak, a leak) in OUTDIR/NAME.rc.
vm_guest_script() {
	local name=$1 out=$2 cwd=$3
	shift 3
	local img; img=$("$vm_top/scripts/vm-image")
	{
		echo '#!/bin/bash'
		echo 'export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
		echo 'export HOME=/root TERM=dumb LANG=C.UTF-8'
		printf 'export LOSSLESS_TOP=%q TC_LIB_DIR=%q/tc VM_NAME=%q\n' "$vm_top" "$vm_top" "$name"
		printf 'export LOSSLESS_MODDIR=%q\n' "$(cd "${VM_MODDIR:-$vm_top}" && pwd)"
		printf 'export LOSSLESS_MODULES=%q\n' "${VM_MODULES-sch_lossless/sch_lossless.ko dcqcn_cc/dcqcn_cc.ko}"
		printf 'export VM_OUT=%q\n' "$out"
		# a factor on the tests' time limits (a slow debug kernel)
		printf 'export SELFTEST_TIMEOUT_SCALE=%q\n' "${SELFTEST_TIMEOUT_SCALE:-1}"
		for v in ${VM_ENV:-}; do printf 'export %s=%q\n' "$v" "${!v}"; done
		printf 'exec > %q 2>&1\n' "$out/$name.out"
		printf 'hostname %q\n' "$name"
		printf 'kver=%q; mods=%q\n' "$(basename "$img")" "$img/root/lib/modules"
		cat <<'EOS'
mkdir -p "/lib/modules/$kver"
mount --bind "$mods/$kver" "/lib/modules/$kver"
ip link set lo up
# What the kernel reported while it booted, before any of the project's
# modules loaded, is shown but not held against the run (the debug kernel
# has been seen to report once in early interrupt handling); the checks
# that count start from an empty log.
if ! boot=$("$LOSSLESS_TOP/scripts/dmesg-check" --clear); then
	echo "vm: the kernel reported a problem while booting, before the project's modules loaded (not counted):"
	echo "$boot" | head -n 40
fi
"$LOSSLESS_TOP/scripts/kmemleak-check" --forget
EOS
		cat "$out/links-$name" 2>/dev/null
		echo '('
		vm_load_modules_snippet
		printf 'cd %q || exit 1\n' "$cwd"
		printf 'exec'; printf ' %q' "$@"; echo
		echo ')'
		cat <<'EOS'
rc=$?
"$LOSSLESS_TOP/scripts/dmesg-check" || { [ "$rc" = 0 ] && rc=1; }
"$LOSSLESS_TOP/scripts/kmemleak-check" || { [ "$rc" = 0 ] && rc=1; }
echo "$rc" > "$VM_OUT/$VM_NAME.rc"
EOS
	} > "$out/guest-$name.sh"
}

# vm_qemu NAME OUTDIR MEM SMP TIMEOUT [QEMU ARGS...]: boot the guest for
# NAME in the background; its PID is in $vm_pid.
vm_qemu() {
	local name=$1 out=$2 mem=$3 smp=$4 tmo=$5
	shift 5
	local img; img=$("$vm_top/scripts/vm-image")
	: > "$out/$name.out"
	# la57=off: 4-level paging, as on most machines. With LA57, a KASAN
	# kernel once reported a wild access in an interrupt that came while
	# the boot CPU's features were being detected again (0.01 s into the
	# boot, the paging mode misread): the kernel's, not ours, and a failed
	# test all the same.
	timeout --kill-after=5 "$tmo" qemu-system-x86_64 \
		-machine pc,accel=tcg -cpu max,la57=off -m "$mem" -smp "$smp" \
		-display none -monitor none -no-reboot \
		-serial "file:$out/$name.console" \
		-kernel "$img/vmlinuz" -initrd "$("$vm_top/scripts/vm-image" --initrd)" \
		-append "console=ttyS0 panic=-1 oops=panic loglevel=4 lossless.out=$out lossless.guest=$out/guest-$name.sh${VM_APPEND:+ $VM_APPEND}" \
		-fsdev "local,id=root,path=/,security_model=none,readonly=on" \
		-device virtio-9p-pci,fsdev=root,mount_tag=hostroot \
		-fsdev "local,id=out,path=$out,security_model=none" \
		-device virtio-9p-pci,fsdev=out,mount_tag=results \
		"$@" > "$out/$name.qemu" 2>&1 &
	# shellcheck disable=SC2034 # the caller's
	vm_pid=$!
}

# vm_result NAME OUTDIR QEMU_STATUS: the exit status of the guest's command;
# if it left none, say why and show the end of the console.
vm_result() {
	local name=$1 out=$2 qrc=$3
	if [ -s "$out/$name.rc" ]; then
		cat "$out/$name.rc"
		return
	fi
	{
		if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
			echo "vm[$name]: timed out"
		else
			echo "vm[$name]: the guest ended without a result (qemu status $qrc)"
		fi
		cat "$out/$name.qemu"
		echo "--- end of the console of $name ---"
		tail -n 60 "$out/$name.console"
	} >&2
	echo 1
}

# Links between guests (scripts/vm-multi): qemu socket netdevs on loopback.

# vm_mac LINK VM: the MAC of VM's end of link LINK (both 1-based). 02: a
# locally administered unicast address; the link and VM numbers in it make
# every MAC unique and tell, in a capture, which link and side it is.
vm_mac() {
	printf '02:00:00:%02x:%02x:%02x\n' $(($1 >> 8)) $(($1 & 255)) "$2"
}

# vm_port_listening PORT [PID]: true if something (process PID, if given)
# listens on TCP PORT.
vm_port_listening() {
	local l; l=$(ss -ltnpH "sport = :$1")
	[ -n "$l" ] && { [ $# -lt 2 ] || [[ $l == *"pid=$2,"* ]]; }
}

# vm_free_port: a TCP port nobody listens on, below the ephemeral range
# (32768 and up) so that no outgoing connection holds it either. The caller
# retries if qemu finds it taken after all (another process got there).
vm_free_port() {
	local port
	for _ in $(seq 100); do
		port=$((10000 + RANDOM % 22000))
		vm_port_listening "$port" || { echo "$port"; return 0; }
	done
	echo "vm: found no free TCP port" >&2
	return 1
}

# vm_wait_listening PID PIDFILE PORT...: wait until the qemu whose PID is
# in PIDFILE (qemu's -pidfile) listens on every PORT; PID is the process
# vm_qemu started. Checking the listener's PID, not just the port, tells
# a qemu that could not bind from one that did. Fails if PID ends first
# or after 60 s.
vm_wait_listening() {
	local pid=$1 pidfile=$2 port
	shift 2
	for port in "$@"; do
		for _ in $(seq 600); do
			[ -s "$pidfile" ] && vm_port_listening "$port" "$(cat "$pidfile")" && continue 2
			kill -0 "$pid" 2>/dev/null || return 1
			sleep 0.1
		done
		return 1
	done
}

# vm_links_head: the start of a guest's links-NAME snippet, a function the
# lines of vm_link_line call. It runs before the modules load and outside
# the command's subshell, so a failure leaves the result itself.
vm_links_head() {
	cat <<'EOS'
vm_link() { # MAC IFNAME: rename the interface with MAC to IFNAME, bring it up
	local dev
	for dev in /sys/class/net/*; do
		[ "$(cat "$dev/address")" = "$1" ] || continue
		ip link set dev "${dev##*/}" name "$2" && ip link set dev "$2" up && return 0
		break
	done
	echo "vm: cannot set up $2 (MAC $1):"
	ip -br link
	echo 1 > "$VM_OUT/$VM_NAME.rc"
	exit 1
}
EOS
}

# vm_link_line LINK VM IFNAME: the snippet's line for VM's end of LINK.
vm_link_line() {
	printf 'vm_link %s %q\n' "$(vm_mac "$1" "$2")" "$3"
}

# vm_stream NAME OUTDIR PID: copy NAME's output to stdout, each line
# prefixed with [NAME], until PID (its qemu) ends. In the background; the
# PID of the pipeline's end is in $vm_stream_pid.
vm_stream() {
	tail -n +1 -f --pid="$3" "$2/$1.out" | sed -u "s/^/[$1] /" &
	# shellcheck disable=SC2034 # the caller's
	vm_stream_pid=$!
}
