#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The vlc-gpio driver probing from a real device tree, in an arm64 QEMU
# "virt" guest: gpio-sim (compatible "gpio-simulator") provides gpiolib
# lines from DT, the vlc node uses them, and a static /init
# (tests/dt/probe-init.c) checks that vlc0 appears, goes up, toggles the TX
# line (read back through gpio-sim's sysfs), and that unbind removes it and
# leaves the LED dark and the lines free.
#
# The kernel is the arm64 KUnit kernel of 6.12 (tests/kunit/run.sh --build:
# KASAN, UBSAN, lockdep and atomic-sleep checks, and tests/dt/probe.config
# among its fragments, which run.sh --configs lists), booted with no KUnit
# suite selected; kunit.py refuses a .config that lost an option any of
# those files asks for, and this checks it again. Ends with "probe: N passed, N failed".

set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/kreports.sh"
cc=aarch64-linux-gnu-
bd=$("$top/tests/kunit/run.sh" --build arm64@6.12) ||
	{ echo "probe: FAIL building the arm64 KUnit kernel"; echo "probe: 0 passed, 1 failed"; exit 1; }
if ! "$top/scripts/kconfig-verify.sh" \
	$("$top/tests/kunit/run.sh" --configs arm64@6.12) "$bd/.config"; then
	echo "probe: FAIL config: an option asked for is not in $bd/.config"
	echo "probe: 0 passed, 1 failed"
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The guest's device tree: QEMU's own, plus gpio-sim and the vlc node.
# acpi=off: the power button is then PL061 line 3, an edge for the RX
# interrupt of the second device
q="qemu-system-aarch64 -M virt,acpi=off -cpu cortex-a57 -smp 2 -m 1024 -nographic -no-reboot"
$q -machine dumpdtb="$tmp/virt.dtb" >/dev/null 2>&1
dtc -q -I dtb -O dts -o "$tmp/virt.dts" "$tmp/virt.dtb"
# both devices: TCG runs 20 ms frames comfortably
timing='frame-us = <20000>; sync-us = <2000>; guard-us = <1000>;
		data-us = <2000>; tolerance-us = <1000>; brightness = <300>;'
cat >>"$tmp/virt.dts" <<EOF
/ {
	gpio-sim {
		compatible = "gpio-simulator";

		sim_bank: bank0 {
			gpio-controller;
			#gpio-cells = <2>;
			ngpios = <32>;
			gpio-line-names = "LED-A", "LED-K";
		};
	};

	vlc {
		compatible = "linux-vlc,vlc-gpio";
		tx-gpios = <&sim_bank 0 0>;
		led-cathode-gpios = <&sim_bank 1 0>;
		$timing
		local-mac-address = [02 56 4c 43 00 2a];
	};

	/* lines that never sleep: hrtimer executor, RX edge interrupt */
	/delete-node/ gpio-keys;
	vlc-hard {
		compatible = "linux-vlc,vlc-gpio";
		tx-gpios = <&{/pl061@9030000} 4 0>;
		rx-gpios = <&{/pl061@9030000} 3 0>;
		$timing
		local-mac-address = [02 56 4c 43 00 2b];
	};
};
EOF
# Bad configuration: each node below has one property out of its limits
# (or of the wrong type) and must not probe; the kernel names it. Lines
# 2 and up of the gpio-sim bank, two per node: the driver takes them
# before it reads the timing. "NAME|PROPERTIES|MESSAGE" per line.
bad_nodes='frame-long|frame-us = <100001>;|frame-us above 100 ms
frame-u32|frame-us = <4294968>;|frame-us: 4294968 us is too long
frame-short|frame-us = <300>; sync-us = <100>; guard-us = <20>; data-us = <50>; tolerance-us = <20>;|frame-us too short
frame-type|frame-us = [01 02];|frame-us: not a u32
sync-zero|sync-us = <0>;|sync-us below 10 us
frame-fast|frame-us = <200>; sync-us = <16>; guard-us = <8>; data-us = <20>; tolerance-us = <8>;|frame-us below 250 us
guard-tol|guard-us = <1000>; tolerance-us = <1001>;|guard-us shorter than tolerance-us
bright-1001|brightness = <1001>;|brightness: 1001 is above 1000 per mille
bright-max|brightness = <900>;|brightness: brightness above the maximum
modulation|modulation = "8ppm";|modulation: "8ppm" is neither
rx-mode|rx-mode = "photo";|rx-mode: not one of led, comparator, adc
min-level|rx-min-level = "x";|rx-min-level: not a u32
mac-short|local-mac-address = [02 56 4c 43];|local-mac-address: not 6 bytes'
i=0
echo "$bad_nodes" | while IFS='|' read -r name props msg; do
	cat >>"$tmp/virt.dts" <<EOF
/ {
	vlc-bad-$name {
		compatible = "linux-vlc,vlc-gpio";
		tx-gpios = <&sim_bank $((2 + 2 * i)) 0>;
		led-cathode-gpios = <&sim_bank $((3 + 2 * i)) 0>;
		$props
	};
};
EOF
	i=$((i + 1))
done
dtc -q -I dts -O dtb -o "$tmp/vlc-virt.dtb" "$tmp/virt.dts"

${cc}gcc -static -O2 -Wall -o "$tmp/init" "$top/tests/dt/probe-init.c" \
	"$top/tests/dt/guest.c"
(cd "$tmp" && mkdir -p root/proc root/sys root/dev && cp init root/ &&
	cp "$bd/drivers/net/vlc/vlc_gpio.ko" root/ &&
	cd root && find . | cpio -o -H newc 2>/dev/null | gzip >"$tmp/initrd")

log=$tmp/console.log
timeout 300 $q -kernel "$bd/arch/arm64/boot/Image" -initrd "$tmp/initrd" \
	-dtb "$tmp/vlc-virt.dtb" \
	-monitor unix:"$tmp/mon",server,nowait \
	-append "console=ttyAMA0 rdinit=/init panic=-1 loglevel=7 kunit.filter_glob=no-suite" \
	>"$log" 2>&1 &
qpid=$!
# the guest asks for an edge: press QEMU's power button (PL061 line 3)
i=0
while [ $i -lt 2400 ] && kill -0 $qpid 2>/dev/null; do
	if grep -q '^probe: press' "$log" 2>/dev/null; then
		echo system_powerdown | socat - UNIX-CONNECT:"$tmp/mon" >/dev/null 2>&1 || true
		break
	fi
	sleep 0.1
	i=$((i + 1))
done
wait $qpid || true
tr -d '\r' <"$log" >"$log.txt"
grep -E 'vlc|gpio-sim|BUG|WARNING|probe:' "$log.txt" | grep -v '^probe: [0-9]' || true

# Kernel-side checks from the console, then the guest's own verdict.
p=$(sed -n 's/^probe: \([0-9]*\) passed, \([0-9]*\) failed.*/\1/p' "$log.txt")
f=$(sed -n 's/^probe: \([0-9]*\) passed, \([0-9]*\) failed.*/\2/p' "$log.txt")
p=${p:-0}
f=${f:-1}
echo "probe: ok   config: every option asked for survived olddefconfig"
p=$((p + 1))
# console present|absent PATTERN OK FAIL: one check of the console
console() {
	if grep -qE "$2" "$log.txt"; then c=present; else c=absent; fi
	if [ "$c" = "$1" ]; then
		echo "probe: ok   $3"
		p=$((p + 1))
	else
		echo "probe: FAIL $4"
		f=$((f + 1))
	fi
}
console present 'vlc-gpio vlc: vlc[01]: rx led \(shared TX LED\), polled, thread executor' \
	"dev_info: rx led (shared), polled, thread executor (gpio-sim sleeps)" \
	"dev_info line with receiver and executor"
console present 'vlc-gpio vlc-hard: vlc[01]: rx comparator, edge irq, hrtimer executor' \
	"dev_info: rx comparator, edge irq, hrtimer executor (PL061)" \
	"dev_info line of the PL061 device"
# every bad node refused, named, and no device for it
nbad=0
while IFS='|' read -r name props msg; do
	if grep -F "vlc-gpio vlc-bad-$name: " "$log.txt" | grep -qF "$msg" &&
	   ! grep -qE "vlc-gpio vlc-bad-$name: vlc[0-9]+: rx" "$log.txt"; then
		echo "probe: ok   bad DT $name ($props): not probed, \"$msg\""
		p=$((p + 1))
	else
		echo "probe: FAIL bad DT $name ($props): no \"$msg\" or probed"
		f=$((f + 1))
	fi
	nbad=$((nbad + 1))
done <<EOF
$bad_nodes
EOF
echo "probe: $nbad bad DT nodes tried"
console absent "$kreports" \
	"no kernel BUG/WARNING/lockdep splat" "kernel warnings (see above)"
echo "probe: $p passed, $f failed"
[ "$f" -eq 0 ]
