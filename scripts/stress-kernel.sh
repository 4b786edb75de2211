#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The stress test kernel: x86_64 from Debian's linux-source-6.1 (see
# ksrc.sh), tinyconfig plus tests/qemu/stress.config (what the QEMU guest
# needs, built in, and KASAN, UBSAN, lockdep, kmemleak, atomic-sleep and
# debug-objects checks), then vlc.ko and vlc_sim.ko built against it.
# The tree is cached as $VLC_CACHE/stress-x86_64-<hash of source version,
# tinyconfig and fragment>, so a rerun only rebuilds the modules.
#
#   stress-kernel.sh [OUTDIR]   build what is missing; modules go to
#                               OUTDIR (default $BUILD/stress); print the
#                               kernel tree (its arch/x86/boot/bzImage)
#   stress-kernel.sh --dir      print the kernel tree's path only
#
# The kernel build runs under nice -n 19 with $VLC_JOBS jobs (default 2).

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
frag=$top/tests/qemu/stress.config
src=$("$top/scripts/ksrc.sh" src)
cache=$(dirname "$(dirname "$src")")
ver=$(basename "$(dirname "$src")")
base=$src/kernel/configs/tiny.config
key=$( (echo "$ver x86_64 tinyconfig"; cat "$base" "$src/arch/x86/configs/tiny.config" "$frag") |
	sha256sum | cut -c1-12)
kd=$cache/stress-x86_64-$key
if [ "${1:-}" = --dir ]; then
	echo "$kd"
	exit 0
fi
out=${1:-${BUILD:-$top/build}/stress}

# One build of a given tree at a time; other trees are not held up.
exec 8>"$cache/.stress-$key.lock"
flock 8
if [ ! -f "$kd/.built" ]; then
	echo "stress-kernel: building $kd (log: $kd/build.log)" >&2
	t0=$(date +%s)
	rm -rf "$kd"
	mkdir -p "$kd"
	m="make -s -C $src O=$kd ARCH=x86_64"
	$m tinyconfig >/dev/null
	(cd "$kd" && "$src/scripts/kconfig/merge_config.sh" -m -O "$kd" \
		"$kd/.config" "$frag" >/dev/null)
	$m olddefconfig >/dev/null
	# Every option of the fragment must have survived olddefconfig: a
	# missing dependency would otherwise drop it silently.
	"$top/scripts/kconfig-verify.sh" "$frag" "$kd/.config" || exit 1
	nice -n 19 $m -j"${VLC_JOBS:-2}" bzImage modules >"$kd/build.log" 2>&1 ||
		{ tail -n 30 "$kd/build.log" >&2; exit 1; }
	echo "$(($(date +%s) - t0))" >"$kd/.build-seconds"
	touch "$kd/.built"
	echo "stress-kernel: built in $(cat "$kd/.build-seconds") s" >&2
fi
"$top/scripts/kbuild.sh" x86_64 "$kd" "$out" >&2
echo "$kd"
