#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make board-test: the Raspberry Pi path on the Pi's own GPIO driver.
# QEMU raspi2b (armhf, BCM2836) boots the kernel of scripts/board-kernel.sh;
# QEMU raspi3b (arm64, BCM2837) the arm64 KUnit kernel of 6.12, which
# carries tests/board/arm64.config. Each gets the upstream board DTB
# built from the kernel source with dts/overlays/vlc-overlay.dts merged
# the way the firmware does it, parameters included
# (tests/dt/overrides.py, then fdtoverlay). For each receiver mode the
# overlay offers, the guest's /init (board-init.c) loads vlc_gpio.ko,
# brings vlc0 up, reads its TX line back from the GPIO controller, takes
# it down, unbinds and binds it, and removes the module with the link
# up; here the kernel log must name the executor and have no BUG,
# WARNING, lockdep or sleeping-function report.
#
# What this proves: one board's drivers (pinctrl-bcm2835, its clocks and
# interrupt controllers) under the driver, and the context rules, under
# lockdep and the atomic-sleep check. What it cannot: light between two
# boards (QEMU's GPIO model drives no input) or real timing (TCG).
#
#   run.sh [BOARD...]     raspi2b, raspi3b (default: both)
# Ends with "board: N passed, N failed".

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}/board
mkdir -p "$build"
cache=${VLC_CACHE:-/var/cache/linux-vlc}
[ -w "$cache" ] || cache=$build
boards=${*:-raspi2b raspi3b}
modes="led comparator"
# TCG: frames of 100 ms, so that a slot boundary a millisecond late moves
# the duty by 1 %; the guest has one CPU.
params="frame_us=100000 sync_us=10000 guard_us=5000 data_us=10000 tolerance_us=5000 brightness=300 mac_hi=0x02564c43 mac_lo=0x0001"
. "$top/tests/kreports.sh"
bad=$kreports
ok() { echo "board: ok   $*"; }
ko() { echo "board: FAIL $*"; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dtc -@ -q -I dts -O dtb -o "$tmp/vlc.dtbo" "$top/dts/overlays/vlc-overlay.dts" ||
	{ ko "overlay does not build"; echo "board: 0 passed, 1 failed"; exit 1; }

# run_mode BOARD MODE: one boot of BOARD with the overlay's receiver MODE
# ($kernel, $base, $qemu and the initramfs of that board set).
run_mode() {
	b=$1
	mode=$2
	name="$b rx_mode=$mode"
	cp "$tmp/vlc.dtbo" "$tmp/$b-$mode.dtbo"
	# shellcheck disable=SC2086
	python3 "$top/tests/dt/overrides.py" apply "$tmp/$b-$mode.dtbo" \
		rx_mode=$mode $params &&
	fdtoverlay -i "$base" -o "$tmp/$b-$mode.dtb" "$tmp/$b-$mode.dtbo" ||
		{ ko "$name: overlay with $params does not merge"; return; }
	log=$build/$b-$mode.log
	# The machine does not end on power-off: stop at the closing line.
	# It always has four cores, and the guest boots one (maxcpus=1):
	# with a host thread per core the other three spin in the firmware's
	# wait loop, so all four share one thread here.
	timeout 600 $qemu -M "$b" -accel tcg,thread=single -kernel "$kernel" -dtb "$tmp/$b-$mode.dtb" \
		-initrd "$tmp/initrd" -nographic -no-reboot \
		-append "console=ttyAMA0 maxcpus=1 rdinit=/init panic=-1 loglevel=7 kunit.filter_glob=no-suite vlc_board=$mode,300,20,02:56:4c:43:00:01" \
		</dev/null >"$log" 2>&1 &
	qpid=$!
	i=0
	while kill -0 $qpid 2>/dev/null && [ $i -lt 5400 ]; do
		grep -qE '^board: [0-9]+ passed|Kernel panic' "$log" && break
		sleep 0.1
		i=$((i + 1))
	done
	kill $qpid 2>/dev/null
	wait $qpid 2>/dev/null
	tr -d '\r' <"$log" >"$log.txt"
	grep -E '^board: (ok|FAIL|PHY)|vlc-gpio' "$log.txt" | sed 's/^/  | /'
	line=$(grep -E '^board: [0-9]+ passed, [0-9]+ failed' "$log.txt" | tail -n 1)
	gp=$(echo "$line" | sed -n 's/board: \([0-9]*\) passed.*/\1/p')
	gf=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed/\1/p')
	if [ -n "$line" ] && [ "$gf" = 0 ]; then
		ok "$name: the guest's $gp checks"
	else
		ko "$name: the guest's checks (${line:-no closing line}; log $log.txt)"
	fi
	if grep -qE "vlc-gpio vlc: vlc0: rx $mode.*, (thread|hrtimer) executor" "$log.txt"; then
		ok "$name: $(grep -oE "rx $mode.*executor" "$log.txt" | head -n 1)"
	else
		ko "$name: no dev_info line naming the receiver and the executor"
	fi
	if grep -qE "$bad" "$log.txt"; then
		ko "$name: kernel report: $(grep -Em1 "$bad" "$log.txt")"
		grep -E -A25 "$bad" "$log.txt" | head -n 40 | sed 's/^/  | /'
	else
		ok "$name: no BUG, WARNING, lockdep or sleeping-function report"
	fi
}

main() {
	for b in $boards; do
		case "$b" in
		raspi3b)
			qemu=qemu-system-aarch64 cc=aarch64-linux-gnu- dts=bcm2837-rpi-3-b
			if kd=$("$top/tests/kunit/run.sh" --build arm64@6.12) &&
			   "$top/scripts/kconfig-verify.sh" \
				$("$top/tests/kunit/run.sh" --configs arm64@6.12) \
				"$kd/.config"; then
				kernel=$kd/arch/arm64/boot/Image
			else
				kernel=""
			fi ;;
		raspi2b)
			qemu=qemu-system-arm cc=arm-linux-gnueabihf- dts=bcm2836-rpi-2-b
			if kd=$("$top/scripts/board-kernel.sh"); then
				kernel=$kd/arch/arm/boot/zImage
			else
				kernel=""
			fi ;;
		*) ko "unknown board $b"; continue ;;
		esac
		if [ -z "$kernel" ] || [ ! -f "$kernel" ]; then
			ko "$b: no kernel (its configuration or build failed, above)"
			continue
		fi
		ok "$b: kernel $kernel, every option asked for in its .config"
		base=$("$top/tests/dt/board-dtb.sh" "$dts" "$cache/dt") ||
			{ ko "$b: $dts.dtb"; continue; }
		${cc}gcc -static -O2 -Wall -Werror -I"$top/tests/dt" -o "$tmp/init" \
			"$top/tests/board/board-init.c" "$top/tests/dt/guest.c" ||
			{ ko "$b: board-init.c"; continue; }
		rm -rf "$tmp/root"
		mkdir -p "$tmp/root/proc" "$tmp/root/sys" "$tmp/root/dev"
		cp "$tmp/init" "$tmp/root/init"
		cp "$kd/drivers/net/vlc/vlc_gpio.ko" "$tmp/root/" ||
			{ ko "$b: no vlc_gpio.ko in $kd"; continue; }
		(cd "$tmp/root" && find . | cpio -o -H newc 2>/dev/null | gzip) >"$tmp/initrd"

		# the receiver modes of one board boot side by side, each guest
		# with one CPU
		for mode in $modes; do
			run_mode "$b" "$mode" >"$tmp/$b-$mode.out" 2>&1 &
		done
		wait
		for mode in $modes; do
			cat "$tmp/$b-$mode.out"
		done
	done
}

main | tee "$tmp/all.out"
passed=$(grep -c "^board: ok" "$tmp/all.out")
failed=$(grep -c "^board: FAIL" "$tmp/all.out")
echo "board: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
