#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Print the kernel build tree to build against, and say on stderr which
# one and why:
#   1. $KDIR, if set;
#   2. with $KERNEL set (a series of scripts/kernels, e.g. 6.12): the
#      newest Debian linux-headers-SERIES.*-amd64 of the generic flavour;
#   3. the running kernel's /lib/modules/$(uname -r)/build (a board with
#      its headers package);
#   4. the generic flavour of Debian's oldest supported series that is
#      installed (6.1 on Debian 12).
# Flavours (-rt-amd64, -cloud-amd64) are never picked by a pattern: only
# by KDIR. Fails, naming what to install, if there is none.
set -eu
say() { [ -n "${KDIR_QUIET:-}" ] || echo "kernel: $*" >&2; }

if [ -n "${KDIR:-}" ]; then
	say "building against $KDIR (KDIR)"
	echo "$KDIR"
	exit 0
fi

# linux-headers-6.1.0-57-amd64, linux-headers-6.12.118+deb12-amd64
generic() {
	ls -d /usr/src/linux-headers-"$1".*-amd64 2>/dev/null |
		grep -E "/linux-headers-$(echo "$1" | sed 's/\./\\./g')\.[0-9]+(-[0-9]+)?(\+deb[0-9]+)?-amd64$" |
		sort -V | tail -n 1
}

top=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${KERNEL:-}" ]; then
	grep -q "^$KERNEL[[:space:]]" "$top/scripts/kernels" ||
		{ echo "kdir.sh: KERNEL=$KERNEL is not a series of scripts/kernels" >&2; exit 2; }
	d=$(generic "$KERNEL")
	if [ -z "$d" ]; then
		echo "kdir.sh: no linux-headers-$KERNEL.*-amd64: apt-get install linux-headers-$KERNEL-amd64," >&2
		echo "  or, where Debian 12 has none, build against a prepared tree:" >&2
		echo "  make KDIR=\$(VLC_KVER=$KERNEL scripts/ksrc.sh cross x86_64)" >&2
		exit 1
	fi
	say "building against $d (KERNEL=$KERNEL)"
	echo "$d"
	exit 0
fi

r=/lib/modules/$(uname -r)/build
if [ -d "$r" ]; then
	say "building against $r (the running kernel)"
	echo "$r"
	exit 0
fi
for s in $(sed -n 's/^\([0-9][0-9.]*\)[[:space:]].*/\1/p' "$top/scripts/kernels"); do
	d=$(generic "$s")
	if [ -n "$d" ]; then
		say "building against $d (Debian's $s; KERNEL= or KDIR= for another)"
		echo "$d"
		exit 0
	fi
done
exit 1
