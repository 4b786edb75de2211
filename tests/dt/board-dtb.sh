#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build an upstream board DTB from the 6.1 kernel tree the way Kbuild
# does (cpp, then dtc -@ so that overlays can be merged), cached.
#
#   board-dtb.sh BOARD OUTDIR    prints OUTDIR/BOARD.dtb

set -eu
b=$1 out=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
src=$("$top/scripts/ksrc.sh" src)
dts=$src/arch/arm/boot/dts
d=$out/$b.dtb
if ! { [ -s "$d" ] && [ "$d" -nt "$dts/$b.dts" ]; }; then
	mkdir -p "$out"
	cpp -nostdinc -I "$src/include" -I "$dts" \
		-I "$src/scripts/dtc/include-prefixes" -undef -D__DTS__ \
		-x assembler-with-cpp "$dts/$b.dts" -o "$d.pp"
	dtc -@ -q -I dts -O dtb -i "$dts" -o "$d.tmp" "$d.pp"
	rm -f "$d.pp"
	mv "$d.tmp" "$d"
fi
echo "$d"
