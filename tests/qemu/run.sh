#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Boot Debian's stock kernel in QEMU (TCG), with the host's root filesystem
# read-only over 9p, load the freshly built modules, run one scenario
# script in the guest and return its exit status.
#
#   run.sh [--show] [--timeout SEC] [--smp N] [--out DIR] [--kernel DIR]
#          SCENARIO [ARGS...]
#
# --smp N gives the guest N CPUs (default 2).
#
# --kernel DIR (or $VLC_KERNEL) boots DIR/arch/x86/boot/bzImage, a tree
# built by scripts/stress-kernel.sh, with the modules built against it
# ($VLC_KMOD, default $BUILD/stress/drivers/net/vlc). Without it, the
# modules are $VLC_MODDIR (default $BUILD/x86_64/drivers/net/vlc; the
# Makefile sets it from KERNEL=) and the kernel booted is the Debian one
# they were built for, /boot/vmlinuz-<their vermagic>.
#
# In the guest the checkout is at /run/vlc/src (read-only), the modules at
# /run/vlc/mod and a writable results folder at /run/vlc/out; the scenario
# runs as root with $VLC_SRC, $VLC_MOD and $VLC_OUT set. The run fails if
# the scenario fails, times out, or the kernel logs a WARNING, BUG, Oops,
# KASAN, UBSAN or lockdep report. Console and dmesg are kept in --out.

set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
timeout=300
smp=2
show=0
out=""
kdir=${VLC_KERNEL:-}
while [ $# -gt 0 ]; do
	case "$1" in
	--show) show=1; shift ;;
	--timeout) timeout=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--kernel) kdir=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { echo "usage: run.sh [--show] [--timeout S] [--smp N] [--out DIR] [--kernel DIR] SCENARIO [ARGS]" >&2; exit 2; }
scen=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
name=$(basename "$scen" .sh)
if [ -n "$kdir" ]; then
	moddir=${VLC_KMOD:-$build/stress/drivers/net/vlc}
	[ -f "$moddir/vlc.ko" ] || { echo "run.sh: $moddir/vlc.ko missing: run scripts/stress-kernel.sh" >&2; exit 2; }
	kernel=$kdir/arch/x86/boot/bzImage
	[ -r "$kernel" ] || { echo "run.sh: $kernel missing" >&2; exit 2; }
	krel=$(cat "$kdir/include/config/kernel.release")
	kmods=$kdir
	vm=$(modinfo -F vermagic "$moddir/vlc.ko" | cut -d' ' -f1)
	[ "$vm" = "$krel" ] || { echo "run.sh: $moddir/vlc.ko is for $vm, not $krel" >&2; exit 2; }
else
	moddir=${VLC_MODDIR:-$build/x86_64/drivers/net/vlc}
	[ -f "$moddir/vlc.ko" ] || { echo "run.sh: $moddir/vlc.ko missing: run make" >&2; exit 2; }
	# Boot the kernel the modules were built for.
	krel=$(modinfo -F vermagic "$moddir/vlc.ko" | cut -d' ' -f1)
	kernel=/boot/vmlinuz-$krel
	kmods=/lib/modules/$krel/kernel
	[ -r "$kernel" ] || { echo "run.sh: $kernel missing (apt-get install linux-image-$krel)" >&2; exit 2; }
fi
[ -n "$out" ] || out=$build/qemu/$name${VLC_QEMU_NAME:+-${VLC_QEMU_NAME#qemu-}}
echo "qemu $name: booting $kernel ($krel), $smp CPU(s), with $moddir" >&2
rm -rf "$out"
mkdir -p "$out"

# The initramfs only has busybox and the 9p stack; it is cached per kernel.
cache=${VLC_CACHE:-/var/cache/linux-vlc}
mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ] || cache=$build/cache
mkdir -p "$cache"
key=$( (echo "$krel"; [ -z "$kdir" ] || cat "$kdir/.config"
       cat "$top/tests/qemu/initramfs-init") | sha256sum | cut -c1-12)
initrd=$cache/initramfs-$krel-$key.cpio.gz
if [ ! -f "$initrd" ]; then
	tmp=$(mktemp -d)
	mkdir -p "$tmp/bin" "$tmp/mods" "$tmp/proc" "$tmp/sys" "$tmp/dev" "$tmp/mnt"
	cp /bin/busybox "$tmp/bin/busybox"
	for m in virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev \
		 virtio_pci netfs fscache 9pnet 9pnet_virtio 9p; do
		f=$(find "$kmods" -name "$m.ko*" | head -n 1)
		[ -n "$f" ] || continue	# built in
		cp "$f" "$tmp/mods/"
		echo "$m" >>"$tmp/mods/order"
	done
	cp "$top/tests/qemu/initramfs-init" "$tmp/init"
	chmod +x "$tmp/init"
	# guests boot side by side (run-all.sh): each writes its own copy
	(cd "$tmp" && find . | cpio -o -H newc --quiet | gzip -1) >"$initrd.$$"
	mv -f "$initrd.$$" "$initrd"
	rm -rf "$tmp"
fi

args=$(printf '%s ' "$@")
cmdline="console=ttyS0 panic=-1 oops=panic loglevel=4 vlc.scenario=$name"
case "$scen" in "$top"/*) ;; *) echo "run.sh: scenario must be inside $top" >&2; exit 2 ;; esac
printf '%s\n' "${scen#"$top"/}" >"$out/.scenario"
printf '%s\n' "$args" >"$out/.args"

# guest: run the VM; 124 when the whole run times out, 125 when the
# guest never reached its init: a TCG boot that hangs, or one that ends
# in an oops before init while the kernel patches its own code (Debian's
# 6.12, an int3 in sched_clock_cpu()). Then none of this project's code
# ran, and the scenario is run again, once.
boot_timeout=${VLC_BOOT_TIMEOUT:-180}
# KASAN's shadow and quarantine and kmemleak's metadata need room.
mem=1024
[ -z "$kdir" ] || mem=2048
guest() {
	timeout --foreground "$timeout" qemu-system-x86_64 \
		-machine q35 -accel tcg -cpu max -smp "$smp" -m "$mem" \
		-nographic -no-reboot -nic none \
		-kernel "$kernel" -initrd "$initrd" -append "$cmdline" \
		-virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap \
		-virtfs local,path="$top",mount_tag=vlcsrc,security_model=none,readonly=on \
		-virtfs local,path="$moddir",mount_tag=vlcmod,security_model=none,readonly=on \
		-virtfs local,path="$out",mount_tag=vlcout,security_model=none \
		</dev/null >"$out/console.log" 2>&1 &
	gpid=$!
	t=0
	while kill -0 $gpid 2>/dev/null; do
		grep -q VLC-OUT-BEGIN "$out/console.log" && break
		if [ $t -ge $((boot_timeout * 5)) ]; then
			kill $gpid 2>/dev/null
			wait $gpid
			return 125
		fi
		sleep 0.2
		t=$((t + 1))
	done
	wait $gpid
	r=$?
	grep -q VLC-OUT-BEGIN "$out/console.log" || [ $r -eq 124 ] || return 125
	return $r
}

set +e
guest
qrc=$?
if [ $qrc -eq 125 ]; then
	echo "qemu $name: the guest did not reach its init (hung ${boot_timeout}s or ended before it); booting it again" >&2
	cp "$out/console.log" "$out/console-boot-hang.log"
	guest
	qrc=$?
fi
set -e

fail=""
[ $qrc -eq 124 ] && fail="timed out after ${timeout}s"
[ $qrc -eq 125 ] && fail="the guest did not reach its init twice"
rc=$(sed -n 's/^VLC-SCENARIO-EXIT=\([0-9]*\).*/\1/p' "$out/console.log" | tail -n 1)
[ -n "$rc" ] || { [ -n "$fail" ] || fail="guest ended without a result (qemu rc $qrc)"; rc=1; }
[ "$rc" = 0 ] || [ -n "$fail" ] || fail="scenario exited $rc"
. "$top/tests/kreports.sh"
bad=$kreports
for f in "$out/console.log" "$out/dmesg.txt"; do
	[ -f "$f" ] || continue
	if grep -Eq "$bad" "$f"; then
		fail="${fail:+$fail; }kernel report in $(basename "$f"): $(grep -Em1 "$bad" "$f")"
	fi
done

if [ $show = 1 ]; then
	# The console may put escape sequences before the marker.
	tr -d '\r' <"$out/console.log" |
		sed -n '/VLC-OUT-BEGIN/,/^VLC-OUT-END/{/VLC-OUT-/d;p}'
fi
if [ -n "$fail" ]; then
	echo "qemu $name: FAIL: $fail (logs: $out)"
	[ $show = 1 ] || tail -n 30 "$out/console.log" | tr -d '\r' | sed 's/^/  | /'
	exit 1
fi
echo "qemu $name: ok"
