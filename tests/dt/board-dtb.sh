#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build an upstream board DTB from a kernel tree the way Kbuild does
# (cpp, then dtc -@ so that overlays can be merged), cached.
#
#   board-dtb.sh BOARD OUTDIR [SERIES]    prints OUTDIR/BOARD.dtb
#
# BOARD is a file of arch/arm/boot/dts, or of arch/arm64/boot/dts when it
# names its folder (broadcom/bcm2712-rpi-5-b); SERIES is the kernel
# series whose tree it comes from (default: scripts/ksrc.sh's).

set -eu
b=$1 out=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
src=$(VLC_KVER=${3:-${VLC_KVER:-}} "$top/scripts/ksrc.sh" src)
case "$b" in
*/*) dts=$src/arch/arm64/boot/dts ;;
*) dts=$src/arch/arm/boot/dts ;;
esac
d=$out/$(basename "$b").dtb
if ! { [ -s "$d" ] && [ "$d" -nt "$dts/$b.dts" ]; }; then
	mkdir -p "$out"
	cpp -nostdinc -I "$src/include" -I "$dts" \
		-I "$src/scripts/dtc/include-prefixes" -undef -D__DTS__ \
		-x assembler-with-cpp "$dts/$b.dts" -o "$d.pp"
	dtc -@ -q -I dts -O dtb -i "$(dirname "$dts/$b")" -o "$d.tmp" "$d.pp"
	rm -f "$d.pp"
	mv "$d.tmp" "$d"
fi
echo "$d"
