#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build the modules out of tree for one target.
#   kbuild.sh ARCH KDIR OUTDIR [extra make args]
# ARCH is x86_64, arm64 or arm; OUTDIR receives a copy of drivers/ and
# include/ and the objects.

set -eu
arch=$1 kdir=$2 out=$3
shift 3
top=$(cd "$(dirname "$0")/.." && pwd)

case "$arch" in
x86_64) xc="" ;;
arm64) xc="ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-" ;;
arm) xc="ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf-" ;;
*) echo "kbuild.sh: unknown arch $arch" >&2; exit 2 ;;
esac
# A native build on arm boards needs no CROSS_COMPILE.
[ "$arch" = "$(uname -m | sed -e 's/aarch64/arm64/' -e 's/armv.*/arm/')" ] && xc=""

mkdir -p "$out"
rsync -rlpD --checksum --delete --exclude '*.o' --exclude '*.ko' \
	--exclude '.*.cmd' --exclude '*.mod' --exclude '*.mod.c' \
	--exclude 'modules.order' --exclude 'Module.symvers' \
	"$top/drivers" "$top/include" "$out/"
# A tree prepared with modules_prepare has no Module.symvers: modpost
# cannot resolve the kernel's symbols there, which newer kernels make an
# error.
[ -f "$kdir/Module.symvers" ] || set -- KBUILD_MODPOST_WARN=1 "$@"
# shellcheck disable=SC2086
make -s -C "$kdir" M="$out/drivers/net/vlc" $xc \
	${VLC_CONFIG:-CONFIG_VLC=m CONFIG_VLC_SIM=m} -j"$(nproc)" "$@" modules
