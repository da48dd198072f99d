# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Functions shared by scripts/vm (one VM) and scripts/vm-multi (several):
# writing the guest's script and starting qemu. Sourced, not run.

vm_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Load the project's modules built in the checkout: their dependencies
# from the guest kernel first (modprobe), then the modules (insmod).
vm_load_modules_snippet() {
	cat <<'EOS'
for ko in $LOSSLESS_MODULES; do
	[ -f "$LOSSLESS_TOP/$ko" ] || { echo "vm: $ko is not built (run make)"; exit 1; }
	for dep in $(modinfo -F depends "$LOSSLESS_TOP/$ko" | tr , ' '); do
		modprobe "$dep" || exit 1
	done
	insmod "$LOSSLESS_TOP/$ko" || { echo "vm: insmod $ko failed"; exit 1; }
done
EOS
}

# vm_guest_script NAME OUTDIR CWD CMD... : write OUTDIR/guest-NAME.sh, which
# the guest's /init runs in its chroot. It sets the guest up, runs CMD from
# CWD with its output in OUTDIR/NAME.out, checks the kernel log and leaves
# CMD's exit status (1 if the kernel reported a problem) in OUTDIR/NAME.rc.
vm_guest_script() {
	local name=$1 out=$2 cwd=$3
	shift 3
	local img; img=$("$vm_top/scripts/vm-image")
	{
		echo '#!/bin/bash'
		echo 'export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
		echo 'export HOME=/root TERM=dumb LANG=C.UTF-8'
		printf 'export LOSSLESS_TOP=%q TC_LIB_DIR=%q/tc VM_NAME=%q\n' "$vm_top" "$vm_top" "$name"
		printf 'export LOSSLESS_MODULES=%q\n' "${VM_MODULES-sch_lossless/sch_lossless.ko dcqcn_cc/dcqcn_cc.ko}"
		printf 'export VM_OUT=%q\n' "$out"
		for v in ${VM_ENV:-}; do printf 'export %s=%q\n' "$v" "${!v}"; done
		printf 'exec > %q 2>&1\n' "$out/$name.out"
		printf 'hostname %q\n' "$name"
		printf 'kver=%q; mods=%q\n' "$(basename "$img")" "$img/root/lib/modules"
		cat <<'EOS'
mkdir -p "/lib/modules/$kver"
mount --bind "$mods/$kver" "/lib/modules/$kver"
ip link set lo up
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
	timeout --kill-after=5 "$tmo" qemu-system-x86_64 \
		-machine pc,accel=tcg -cpu max -m "$mem" -smp "$smp" \
		-display none -monitor none -no-reboot \
		-serial "file:$out/$name.console" \
		-kernel "$img/vmlinuz" -initrd "$img/initrd.gz" \
		-append "console=ttyS0 panic=-1 oops=panic loglevel=4 lossless.out=$out lossless.guest=$out/guest-$name.sh" \
		-fsdev "local,id=root,path=/,security_model=none,readonly=on" \
		-device virtio-9p-pci,fsdev=root,mount_tag=hostroot \
		-fsdev "local,id=out,path=$out,security_model=none" \
		-device virtio-9p-pci,fsdev=out,mount_tag=results \
		"$@" > "$out/$name.qemu" 2>&1 &
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
