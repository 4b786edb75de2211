#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The armhf kernel of the Raspberry Pi 2B board test: Debian's 6.12
# sources (the series of Raspberry Pi OS, and the first whose printk
# lets a legacy console take a spinlock_t under lockdep's raw-lock
# nesting check) with this driver grafted in (ksrc.sh), allnoconfig plus
# tests/board/armhf.config, every option of which must survive
# olddefconfig. Cached as $VLC_CACHE/board-arm-<hash of source version and
# fragment>; a rerun rebuilds what the driver's sources changed.
#
#   board-kernel.sh   build what is missing; print the tree (its
#                     arch/arm/boot/zImage, drivers/net/vlc/vlc_gpio.ko)

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
frag=$top/tests/board/armhf.config
src=$(VLC_KVER=6.12 "$top/scripts/ksrc.sh" graft)
cache=$(dirname "$(dirname "$src")")
ver=$(basename "$(dirname "$src")")
key=$( (echo "$ver arm allnoconfig"; cat "$frag") | sha256sum | cut -c1-12)
kd=$cache/board-arm-$key
m="make -s -C $src O=$kd ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf-"

exec 8>"$cache/.board-arm-$key.lock"
flock 8
if [ ! -f "$kd/.config" ]; then
	echo "board-kernel: configuring $kd" >&2
	mkdir -p "$kd"
	$m allnoconfig >/dev/null
	(cd "$kd" && "$src/scripts/kconfig/merge_config.sh" -m -O "$kd" \
		"$kd/.config" "$frag" >/dev/null)
	$m olddefconfig >/dev/null
fi
"$top/scripts/kconfig-verify.sh" "$frag" "$kd/.config" || exit 1
echo "board-kernel: building $kd (log: $kd/build.log)" >&2
$m -j"$(nproc)" zImage modules >"$kd/build.log" 2>&1 ||
	{ tail -n 30 "$kd/build.log" >&2; exit 1; }
echo "$kd"
