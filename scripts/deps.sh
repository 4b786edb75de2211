#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian 12 packages a make target needs, and nothing else.
# As root: apt-get install exactly the missing ones (idempotent).
# Not root: print the one command to run, and fail.
#
# usage: scripts/deps.sh GROUP...   (build tools cross kunit qemu lint host dt
#                                    hwtest gpiod2 gpiosim daemons fuzz kernels
#                                    install board docs all)

set -eu

pkgs_build="make gcc kmod rsync"
pkgs_headers="linux-headers-amd64"
# The Debian 12 packages of every series in scripts/kernels (7.3 comes
# from Debian 13 through scripts/debfetch.sh, not installed) and the
# stock 6.12 kernel make qemu-smoke boots; debian-archive-keyring checks
# what debfetch.sh downloads.
pkgs_kernels="linux-source-6.1 linux-source-6.12 linux-headers-6.12-amd64 linux-image-6.12-amd64 debian-archive-keyring xz-utils"
pkgs_tools="make gcc libc6-dev libmnl-dev"
pkgs_cross="$pkgs_kernels gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf bc bison flex libssl-dev libelf-dev xz-utils rsync"
pkgs_kunit="$pkgs_kernels python3 qemu-system-x86 qemu-system-arm gcc-aarch64-linux-gnu bc bison flex libssl-dev libelf-dev xz-utils rsync"
# python3-yaml and python3-jsonschema: the kernel's YNL CLI (ynl scenario)
pkgs_qemu="linux-headers-amd64 qemu-system-x86 busybox-static linux-image-amd64 cpio gzip iproute2 iputils-ping ethtool tcpdump socat batctl python3 python3-yaml python3-jsonschema trace-cmd"
pkgs_lint="$pkgs_kernels linux-headers-amd64 sparse perl"
# linux-source-6.1: the kernel's lib/reed_solomon, which the FEC tests,
# fuzzer and benches compile from it (tests/host/rslib.mk)
pkgs_host="gcc make libcmocka-dev pkg-config linux-source-6.1 xz-utils"
# clang-14 with libFuzzer, ASan and UBSan (libclang_rt.fuzzer-x86_64.a);
# llvm-14 for the coverage report (llvm-cov-14)
pkgs_fuzz="make clang-14 libclang-rt-14-dev llvm-14 linux-source-6.1 xz-utils"
pkgs_dt="device-tree-compiler dt-schema linux-source-6.1 xz-utils"
pkgs_bench="valgrind gnuplot-nox"
# the YNL generator of the 7.3 source (scripts/ynl-check.sh, through
# debfetch.sh): PyYAML, jsonschema for its schema check
pkgs_docs="python3 python3-docutils python3-yaml python3-jsonschema debian-archive-keyring xz-utils"
pkgs_hwtest="gcc make pkg-config libgpiod-dev"
# vlc-hwtest against Debian 13's libgpiod 2 (scripts/libgpiod2.sh, through
# debfetch.sh), checked with readelf, nm and ldd
pkgs_gpiod2="$pkgs_hwtest debian-archive-keyring binutils"
# NetworkManager and avahi-daemon for the chatter scenario, fetched and
# unpacked by scripts/daemons.sh through debfetch.sh, not installed
pkgs_daemons="debian-archive-keyring libc-bin"
pkgs_gpiosim="linux-headers-amd64 linux-source-6.1 xz-utils make gcc"
pkgs_install="dkms man-db linux-headers-amd64"
pkgs_board="$pkgs_kernels qemu-system-arm gcc-arm-linux-gnueabihf libc6-dev-armhf-cross gcc-aarch64-linux-gnu libc6-dev-arm64-cross device-tree-compiler python3 cpio gzip bc bison flex libssl-dev"
pkgs_probe="gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm linux-source-6.1 bc bison flex libssl-dev libelf-dev device-tree-compiler cpio gzip socat"

# dkms builds during a kernel upgrade, while dpkg holds the apt lock: it
# sets VLC_NO_DEPS=1, and what it needs is listed in dkms.conf.
[ -z "${VLC_NO_DEPS:-}" ] || exit 0

want=""
for g in "$@"; do
	case "$g" in
	all) want="$want $pkgs_build $pkgs_tools $pkgs_cross $pkgs_kunit $pkgs_qemu $pkgs_lint $pkgs_host $pkgs_dt $pkgs_bench $pkgs_probe $pkgs_hwtest $pkgs_gpiod2 $pkgs_gpiosim $pkgs_daemons $pkgs_fuzz $pkgs_kernels $pkgs_install $pkgs_board $pkgs_docs" ;;
	build|headers|tools|cross|kunit|qemu|lint|host|dt|bench|probe|hwtest|gpiod2|gpiosim|daemons|fuzz|kernels|install|board|docs) eval "want=\"\$want \$pkgs_$g\"" ;;
	*) echo "deps.sh: unknown group '$g'" >&2; exit 2 ;;
	esac
done

missing=""
for p in $(printf '%s\n' $want | sort -u); do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done

[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: missing Debian packages. Run, as root:" >&2
	echo "  apt-get update && apt-get install -y --no-install-recommends$missing" >&2
	exit 1
fi

echo "deps.sh: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null
