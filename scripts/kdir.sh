#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print the kernel build tree to build against: $KDIR if set, else the
# running kernel's (a Raspberry Pi with its headers package), else the
# newest Debian linux-headers-*-amd64. Fails if there is none.
if [ -n "${KDIR:-}" ]; then
	echo "$KDIR"
	exit 0
fi
r=/lib/modules/$(uname -r)/build
if [ -d "$r" ]; then
	echo "$r"
	exit 0
fi
d=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1)
[ -n "$d" ] || exit 1
echo "$d"
