#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# libgpiod 2 for building vlc-hwtest against its API on Debian 12, which
# has only 1.6: Debian 13's libgpiod-dev and the library package it
# depends on (libgpiod3), fetched by debfetch.sh and unpacked once into a
# private prefix under $VLC_CACHE. Nothing is installed; the system's
# libgpiod stays as it is.
#
#   libgpiod2.sh    print the prefix: PREFIX/usr/include/gpiod.h,
#                   PREFIX/usr/lib/<multiarch>/libgpiod.so and its
#                   pkgconfig/libgpiod.pc

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
suite=trixie
cache=${VLC_CACHE:-/var/cache/linux-vlc}
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
	cache=${XDG_CACHE_HOME:-$HOME/.cache}/linux-vlc
	mkdir -p "$cache"
fi
export VLC_CACHE="$cache"

dev=$("$top/scripts/debfetch.sh" "$suite" libgpiod-dev)
ver=$(dpkg-deb -f "$dev" Version)
# The library's package is named after its soname (libgpiod3 for 2.x):
# take the name from what libgpiod-dev depends on, at the same version.
lib=$(dpkg-deb -f "$dev" Depends | tr ',' '\n' |
      sed -n 's/^[[:space:]]*\(libgpiod[0-9][^[:space:]]*\)[[:space:]]*(= .*/\1/p' |
      head -n 1)
[ -n "$lib" ] || { echo "libgpiod2.sh: libgpiod-dev $ver depends on no libgpiodN (=)" >&2; exit 1; }
libdeb=$("$top/scripts/debfetch.sh" "$suite" "$lib")
[ "$(dpkg-deb -f "$libdeb" Version)" = "$ver" ] ||
	{ echo "libgpiod2.sh: $suite has $lib $(dpkg-deb -f "$libdeb" Version), libgpiod-dev $ver" >&2; exit 1; }

prefix=$cache/libgpiod2-$ver
exec 9>"$cache/.lock-libgpiod2"
flock 9
if [ ! -f "$prefix/.unpacked" ]; then
	echo "libgpiod2.sh: unpacking libgpiod-dev and $lib $ver into $prefix" >&2
	rm -rf "$prefix"
	dpkg-deb -x "$dev" "$prefix"
	dpkg-deb -x "$libdeb" "$prefix"
	pc=$(find "$prefix/usr/lib" -path '*/pkgconfig/libgpiod.pc' | head -n 1)
	if [ ! -f "$prefix/usr/include/gpiod.h" ] || [ -z "$pc" ]; then
		echo "libgpiod2.sh: no gpiod.h or libgpiod.pc in $prefix" >&2
		exit 1
	fi
	[ -e "$(dirname "$(dirname "$pc")")/libgpiod.so" ] ||
		{ echo "libgpiod2.sh: libgpiod.so in $prefix points nowhere" >&2; exit 1; }
	# gpio_v2.c is for the 2.x API; a 3.x would need a look first.
	v=$(sed -n 's/^Version:[[:space:]]*//p' "$pc")
	case "$v" in
	2.*) ;;
	*) echo "libgpiod2.sh: $suite's libgpiod is $v, not 2.x" >&2; exit 1 ;;
	esac
	touch "$prefix/.unpacked"
fi
echo "$prefix"
