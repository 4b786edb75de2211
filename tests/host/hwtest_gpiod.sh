#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vlc-hwtest from one source against both libgpiod APIs: `make hwtest`
# with the system's libgpiod (1.6 on Debian 12) and `make hwtest-gpiod2`
# with Debian 13's libgpiod 2 in the private prefix of
# scripts/libgpiod2.sh. Each build must link the library major version
# it was meant for (libgpiod 1.x is libgpiod.so.2, 2.x libgpiod.so.3),
# that one must be the one the loader finds, and both builds must answer
# the same, with the same exit code, where no GPIO chip is needed. The
# gpio-sim scenario of make qemu-test runs the 1.6 build on GPIO lines.
#
# Ends with "hwtest_gpiod: N passed, N failed".

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
arch=$(uname -m | sed -e 's/aarch64/arm64/' -e 's/armv.*/arm/')
bin1=$build/$arch/tools/vlc-hwtest
bin2=$build/$arch/tools/vlc-hwtest-gpiod2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

ok() { passed=$((passed + 1)); echo "hwtest_gpiod: ok   $*"; }
ko() { failed=$((failed + 1)); echo "hwtest_gpiod: FAIL $*"; }

# The soname of a libgpiod version: the 1.x API is libgpiod.so.2, 2.x
# is libgpiod.so.3 (Debian's libgpiod2 and libgpiod3 packages).
soname() {
	case "$1" in
	1.*) echo libgpiod.so.2 ;;
	2.*) echo libgpiod.so.3 ;;
	*) echo "libgpiod-$1-unknown" ;;
	esac
}

needed() {
	readelf -d "$1" 2>/dev/null |
		sed -n 's/.*(NEEDED).*\[\(libgpiod\.so[^]]*\)\].*/\1/p' | tr '\n' ' ' |
		sed 's/ $//'
}

# links BIN VERSION LIBDIR SYMBOL: BIN needs exactly the soname of
# VERSION, the loader takes it from LIBDIR, and BIN calls SYMBOL, which
# only that API has (so the gpio_v*.c of that API was compiled in).
links() {
	want=$(soname "$2")
	got=$(needed "$1")
	if [ "$got" = "$want" ]; then
		ok "$(basename "$1") needs $got (libgpiod $2)"
	else
		ko "$(basename "$1") needs '$got', not $want (libgpiod $2)"
	fi
	got=$(env -u LD_LIBRARY_PATH ldd "$1" 2>/dev/null |
	      sed -n "s/^[[:space:]]*$want => \([^ ]*\) .*/\1/p")
	if [ -n "$got" ] &&
	   [ "$(realpath "$(dirname "$got")")" = "$(realpath "$3")" ]; then
		ok "$(basename "$1") loads $got"
	else
		ko "$(basename "$1") loads '$got', not $want from $3"
	fi
	if nm -D --undefined-only "$1" 2>/dev/null | grep -qw "$4"; then
		ok "$(basename "$1") calls $4"
	else
		ko "$(basename "$1") does not call $4: the other gpio_v*.c"
	fi
}

# --- the system's libgpiod
v1=$(pkg-config --modversion libgpiod 2>/dev/null)
lib1=$(pkg-config --variable=libdir libgpiod 2>/dev/null)
case "$v1" in
1.*) sym1=gpiod_chip_open_lookup ;;
*) sym1=gpiod_chip_request_lines ;;
esac
built1=
if make -s -C "$top" hwtest >"$tmp/build1" 2>&1 && [ -x "$bin1" ]; then
	built1=yes
	ok "make hwtest: $bin1 (libgpiod $v1)"
	links "$bin1" "$v1" "$lib1" "$sym1"
else
	sed 's/^/  | /' "$tmp/build1"
	ko "make hwtest: no $bin1"
fi

# --- Debian 13's libgpiod 2
v2=
if prefix=$("$top/scripts/libgpiod2.sh" 2>"$tmp/prefix"); then
	pc=$(find "$prefix/usr/lib" -path '*/pkgconfig/libgpiod.pc' | head -n 1)
	lib2=$(dirname "$(dirname "$pc")")
	v2=$(PKG_CONFIG_LIBDIR=$(dirname "$pc") pkg-config --modversion libgpiod)
	case "$v2" in
	2.*) ok "scripts/libgpiod2.sh: libgpiod $v2 in $prefix" ;;
	*) ko "scripts/libgpiod2.sh: libgpiod '$v2' in $prefix, not 2.x" ;;
	esac
else
	sed 's/^/  | /' "$tmp/prefix"
	ko "scripts/libgpiod2.sh: no prefix"
fi
built=
if [ -n "$v2" ] &&
   make -s -C "$top" hwtest-gpiod2 GPIOD2_PREFIX="$prefix" >"$tmp/build2" 2>&1 &&
   [ -x "$bin2" ]; then
	ok "make hwtest-gpiod2: $bin2 (libgpiod $v2)"
	links "$bin2" "$v2" "$lib2" gpiod_chip_request_lines
	built=$built1
else
	[ ! -f "$tmp/build2" ] || sed 's/^/  | /' "$tmp/build2"
	ko "make hwtest-gpiod2: no $bin2"
fi

# --- both builds alike without GPIO chips
same() {
	"$bin1" "$@" >"$tmp/out1" 2>&1
	r1=$?
	"$bin2" "$@" >"$tmp/out2" 2>&1
	r2=$?
	if [ $r1 = $r2 ] && cmp -s "$tmp/out1" "$tmp/out2"; then
		ok "both builds: exit $r1, same output: $*"
	else
		ko "the builds differ on: $*: exit $r1 and $r2"
		diff "$tmp/out1" "$tmp/out2" | head -n 10 | sed 's/^/  | /'
	fi
}
if [ -n "$built" ]; then
	same --help
	if grep -q '^usage: vlc-hwtest --tx LINE --rx LINE' "$tmp/out2"; then
		ok "vlc-hwtest-gpiod2 --help prints the usage"
	else
		ko "vlc-hwtest-gpiod2 --help prints no usage"
	fi
	same --tx 17
	same --tx 17 --rx 27 --mode blink
	same --chip /nonexistent --tx 17 --rx 27
	same --chip 4095 --tx 17 --rx 27
	same --chip /dev/null --tx 17 --rx 27
fi

echo "hwtest_gpiod: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
