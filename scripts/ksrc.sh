#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Kernel trees built from Debian's kernel sources, cached outside the
# checkout under $VLC_CACHE (default /var/cache/linux-vlc), keyed by the
# source version and by a hash of the configuration, so reruns are
# incremental and a changed config gets a fresh tree.
#
# The kernel series is $VLC_KVER (default 6.1), one of scripts/kernels:
#   6.1   linux-source-6.1   Debian 12
#   6.12  linux-source-6.12  Debian 12's security suite (and Debian 13)
#   7.3   linux-source-7.3   Debian 13's trixie-backports (debfetch.sh)
#
#   ksrc.sh src           unpack the source once; print its path
#   ksrc.sh graft         copy this driver into that tree (for kunit.py);
#                         unchanged files keep their mtime
#   ksrc.sh cross ARCH    graft, then prepare an O= tree for ARCH (x86_64 |
#                         arm64 | arm) with modules_prepare; print its path
#   ksrc.sh tree ARCH     the tree to build modules against for ARCH: for
#                         x86_64, Debian's generic linux-headers of the
#                         series where Debian 12 has them, else as cross
#   ksrc.sh version       print the source package's version

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${VLC_CACHE:-/var/cache/linux-vlc}
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
	cache=${XDG_CACHE_HOME:-$HOME/.cache}/linux-vlc
	mkdir -p "$cache"
fi
# Kernel trees record the paths they were built from: reach the cache by
# its real path, so that one reached through a link is used, not rebuilt.
cache=$(cd "$cache" && pwd -P)
export VLC_CACHE="$cache"

series=${VLC_KVER:-6.1}
suite=$(sed -n "s/^$series[[:space:]]\+\([^[:space:]]*\).*/\1/p" "$top/scripts/kernels")
[ -n "$suite" ] || { echo "ksrc.sh: unknown kernel series '$series' (scripts/kernels)" >&2; exit 2; }
pkg=linux-source-$series

# The tarball and its package version: an installed Debian 12 package, or
# a .deb of another suite, unpacked once beside the trees.
if [ "$suite" = bookworm ]; then
	tarball=/usr/src/$pkg.tar.xz
	[ -f "$tarball" ] || { echo "ksrc.sh: $tarball missing (scripts/deps.sh kernels)" >&2; exit 1; }
	ver=$(dpkg-query -W -f='${Version}' "$pkg")
else
	deb=$("$top/scripts/debfetch.sh" "$suite" "$pkg")
	ver=$(dpkg-deb -f "$deb" Version)
	tarball=$cache/deb-$pkg-$ver/usr/src/$pkg.tar.xz
	# Unpacked aside and renamed: a tarball that exists is whole, and
	# two runs on an empty cache do not unpack over each other.
	if [ ! -f "$tarball" ]; then
		exec 8>"$cache/.lock-deb-$pkg"
		flock 8
		if [ ! -f "$tarball" ]; then
			rm -rf "$cache/deb-$pkg-$ver" "$cache/deb-$pkg-$ver.tmp"
			dpkg-deb -x "$deb" "$cache/deb-$pkg-$ver.tmp"
			mv "$cache/deb-$pkg-$ver.tmp" "$cache/deb-$pkg-$ver"
		fi
		exec 8>&-
	fi
fi
srcdir=$cache/src-$ver/$pkg

hash() { sha256sum | cut -c1-12; }

lock() {
	exec 9>"$cache/.lock-$series"
	flock 9
}

unpack() {
	[ -f "$srcdir/.unpacked" ] && return 0
	echo "ksrc.sh: unpacking $pkg $ver into $cache" >&2
	rm -rf "$cache/src-$ver"
	mkdir -p "$cache/src-$ver"
	tar -C "$cache/src-$ver" -xf "$tarball"
	touch "$srcdir/.unpacked"
}

# Put drivers/net/vlc and our headers into the tree, as a developer would
# when submitting upstream: one Kconfig source line, one Makefile line.
# Only what differs is written, with the time of the graft (no -t): a
# source of another checkout, older than the objects built from the last
# graft, must still be rebuilt.
graft() {
	rsync -rlpD --checksum --delete --exclude '*.o' --exclude '*.ko' \
		--exclude '.*.cmd' --exclude '*.mod*' --exclude 'modules.order' \
		"$top/drivers/net/vlc/" "$srcdir/drivers/net/vlc/"
	# (trace/events/vlc.h: where the trace header lived, for the trees
	# grafted before it moved beside the driver)
	for h in linux/vlc.h uapi/linux/vlc.h trace/events/vlc.h; do
		if [ -f "$top/include/$h" ]; then
			rsync -rlpD --checksum "$top/include/$h" "$srcdir/include/$h"
		else
			rm -f "$srcdir/include/$h"
		fi
	done
	grep -q 'drivers/net/vlc/Kconfig' "$srcdir/drivers/net/Kconfig" ||
		sed -i 's|^source "drivers/net/ieee802154/Kconfig"|&\nsource "drivers/net/vlc/Kconfig"|' \
			"$srcdir/drivers/net/Kconfig"
	grep -q 'drivers/net/vlc/Kconfig' "$srcdir/drivers/net/Kconfig" ||
		{ echo "ksrc.sh: could not hook drivers/net/Kconfig" >&2; exit 1; }
	grep -q 'CONFIG_VLC)' "$srcdir/drivers/net/Makefile" ||
		echo 'obj-$(CONFIG_VLC) += vlc/' >>"$srcdir/drivers/net/Makefile"
}

cross() {
	arch=$1
	case "$arch" in
	x86_64) cc="" defcfg=x86_64_defconfig ;;
	arm64) cc=aarch64-linux-gnu- defcfg=defconfig ;;
	arm) cc=arm-linux-gnueabihf- defcfg=multi_v7_defconfig ;;
	*) echo "ksrc.sh: unknown arch '$arch'" >&2; exit 2 ;;
	esac
	frag=$top/scripts/cross.config
	# what one series' tree of one arch adds (scripts/cross-7.3-arm64.config)
	[ ! -f "$top/scripts/cross-$series-$arch.config" ] ||
		frag="$frag $top/scripts/cross-$series-$arch.config"
	# shellcheck disable=SC2086
	key=$( (echo "$ver $arch $defcfg"; cat $frag) | hash)
	out=$cache/cross-$arch-$key
	if [ ! -f "$out/.prepared" ]; then
		echo "ksrc.sh: preparing $series $arch tree in $out" >&2
		rm -rf "$out"
		mkdir -p "$out"
		m="make -s -C $srcdir O=$out ARCH=$arch CROSS_COMPILE=$cc"
		$m $defcfg >/dev/null
		# shellcheck disable=SC2086
		(cd "$out" && "$srcdir/scripts/kconfig/merge_config.sh" -m -O "$out" \
			"$out/.config" $frag >/dev/null)
		$m olddefconfig >/dev/null
		# shellcheck disable=SC2086
		"$top/scripts/kconfig-verify.sh" $frag "$out/.config" || exit 1
		$m -j"$(nproc)" modules_prepare >/dev/null
		touch "$out/.prepared"
	fi
	echo "$out"
}

case "${1:-}" in
src) lock; unpack; echo "$srcdir" ;;
graft) lock; unpack; graft; echo "$srcdir" ;;
# The tree's include/ comes before ours in a module build: our headers
# (trace events above all) must be grafted before any cross build.
cross) lock; unpack; graft; cross "${2:?arch}" ;;
tree)
	if [ "$2" = x86_64 ] && d=$(KDIR= KDIR_QUIET=1 KERNEL=$series "$top/scripts/kdir.sh" 2>/dev/null); then
		echo "$d"
	else
		lock; unpack; graft; cross "$2"
	fi ;;
version) echo "$ver" ;;
*) echo "usage: [VLC_KVER=SERIES] ksrc.sh src | graft | cross ARCH | tree ARCH | version" >&2; exit 2 ;;
esac
