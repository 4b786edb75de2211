#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make cross: build the modules for arm64 (Raspberry Pi 3/4; on the newest
# series with 16 KiB pages, as for the Pi 5) and armhf
# (BeagleBone Black, Raspberry Pi 2) against trees prepared from Debian's
# sources of every series in scripts/kernels, and check that each .ko
# carries the vermagic of the tree it was built for.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
passed=0
failed=0

series=$(sed -n 's/^\([0-9][0-9.]*\)[[:space:]].*/\1/p' "$top/scripts/kernels")
for v in $series; do
for arch in arm64 arm; do
	case "$arch" in
	arm64) tag=aarch64 ;;
	arm) tag=ARMv7 ;;
	esac
	log=$build/cross-$v-$arch.log
	out=$build/$arch-$v
	mkdir -p "$build"
	# make lint's W=1 build of the same tree, if no source is newer, is
	# the same object code: checked as it is rather than built again
	lint=$build/lint-$v-$arch
	if [ -f "$lint/drivers/net/vlc/vlc.ko" ] &&
	   [ -z "$(cd "$top" && find drivers include -type f -newer "$lint/drivers/net/vlc/vlc.ko" | head -n 1)" ]; then
		out=$lint
		echo "cross $v $arch: the modules of make lint's build ($out)"
	fi
	if ! kd=$(VLC_KVER=$v "$top/scripts/ksrc.sh" cross "$arch") ||
	   { [ "$out" != "$lint" ] &&
	     ! "$top/scripts/kbuild.sh" "$arch" "$kd" "$out" >"$log" 2>&1; }; then
		echo "cross $v $arch: FAIL: build (log: $log)"
		tail -n 20 "$log"
		failed=$((failed + 1))
		continue
	fi
	# The trees have no vmlinux, so modpost cannot list what a module
	# needs from the kernel; 64-bit division helpers that the kernel
	# does not export are checked here instead.
	[ "$arch" = arm64 ] && nm=aarch64-linux-gnu-nm || nm=arm-linux-gnueabihf-nm
	bad=$($nm -u "$out"/drivers/net/vlc/*.ko |
	      grep -E '__aeabi_[ul]*divmod|__(u)?divdi3|__(u)?moddi3' || true)
	if [ -n "$bad" ]; then
		echo "cross $v $arch: FAIL: libgcc division helpers used: $bad"
		failed=$((failed + 1))
	fi
	rel=$(cat "$kd/include/config/kernel.release")
	for ko in "$out"/drivers/net/vlc/*.ko; do
		vm=$(modinfo -F vermagic "$ko")
		case "$vm" in
		"$rel "*"$tag"*)
			echo "cross $v $arch: $(basename "$ko"): $vm"
			passed=$((passed + 1)) ;;
		*)
			echo "cross $v $arch: FAIL: $(basename "$ko") vermagic '$vm', want '$rel ... $tag'"
			failed=$((failed + 1)) ;;
		esac
	done
done
done
echo "cross: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
