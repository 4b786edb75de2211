#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The board stack carrying IP: two vlc-gpio devices on vlc_wire.ko's GPIO
# chips, which join them with the light of the shared light model
# (drivers/net/vlc/vlc_light.h, as vlc_sim.ko; tests/wire/vlc_wire.c),
# ping each other and carry a TCP stream, with the hrtimer executor, the
# real MAC, vlc_gpio's TX and both receivers on edge interrupts. The
# chips run at their defaults: full gain, ambient 2 (a lit LED reads
# 1000), no flicker, the comparator at half a lit LED and the sensing
# LED emptied in 100 us by one. Each arch boots its debug kernel of
# tests/kunit/run.sh with no KUnit suite selected:
#
#   x86_64  7.3 with PREEMPT_RT, lockdep and raw-lock nesting; the boards
#           are software nodes the test module creates (devices=2)
#   arm64   6.12 with KASAN, lockdep and raw-lock nesting (the DT probe's
#           and Raspberry Pi 3B's kernel); the boards are DT nodes; one
#           CPU (a second, with B's thread pinned to it, did not make
#           B's LED receiver erase less); pings both ways, no TCP stream:
#           B's LED receiver erases far more symbols on this guest than
#           on x86_64, which makes a connection there a matter of luck
#
# Then both boards code their frames with forward error correction,
# parity 8 and then auto, and A pings B with coded bodies arriving
# with symbols erased: B's thread
# executor must have handed their decode to its work item
# (mac_fec_deferred), as on a board that senses with its LED. For that
# phase a shadow passes (vlc_wire.ko's shadow_us, shadow_ARCH us every
# shadow_ms, shadowms_ARCH): a frame long, so that the symbol under it
# reads dark, and seldom enough for the parity to repair a frame.
#
# With two CPUs, one a board, as two real boards have: /init pins itself
# and A's board to CPU 0 and B's executor thread, found by its name
# vlc/<ifname>, to CPU 1 (wire-init.c).
#
# The guest is a static /init (tests/wire/wire-init.c). The run fails if
# it does, or if the console has a lockdep, sleeping-function, BUG,
# WARNING, RCU stall or hung-task report.
#
#   run.sh [ARCH...]      default: x86_64 arm64
#
# Frame timing for TCG running debug kernels: x86_64 10 ms frames (sync
# 1000 us, guard 500, data 1000, tolerance 500), twenty times the default;
# arm64, whose KASAN kernel ran its thread executor late too often at
# 10 ms, 20 ms (2000, 1000, 2000, 1000), as in the DT probe. Ends with
# "wire: N passed, N failed".

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
logs=${BUILD:-$top/build}/wire
mkdir -p "$logs"
us_x86_64="10000 1000 500 1000 500"
us_arm64="20000 2000 1000 2000 1000"
shadow_x86_64=10000
shadowms_x86_64=3000
shadow_arm64=20000
shadowms_arm64=4000
# The guest's clock follows its instructions (1 ns each), so lateness
# comes from the code, not from the load of the machine; idle time is
# skipped.
icount="-icount shift=0,sleep=off"
. "$top/tests/kreports.sh"
stall=$kstalls
bad=$kreports

passed=0
failed=0
ok() { echo "wire $arch: ok   $1"; passed=$((passed + 1)); }
fail() { echo "wire $arch: FAIL $1"; failed=$((failed + 1)); }

# guest LOG CMD...: CMD, its console in LOG, for 1500 s at most; an RCU
# stall or a hung task ends it 30 s after the first report (what the
# kernel prints about it meanwhile is kept), not at the timeout
guest() {
	g_log=$1
	shift
	timeout 1500 "$@" </dev/null >"$g_log" 2>&1 &
	g_pid=$!
	while kill -0 $g_pid 2>/dev/null; do
		sleep 5
		if grep -qE "$stall" "$g_log"; then
			sleep 30
			kill $g_pid 2>/dev/null
			break
		fi
	done
	wait $g_pid
}

# QEMU virt's own tree gets two boards on vlc_wire chips
dts_boards() {
	set -- $us_arm64
	t="frame-us = <$1>; sync-us = <$2>; guard-us = <$3>; data-us = <$4>; tolerance-us = <$5>;"
	cat <<EOF
/ {
	wire_a: vlc-wire-0 {
		compatible = "linux-vlc,test-wire";
		gpio-controller;
		#gpio-cells = <2>;
	};

	wire_b: vlc-wire-1 {
		compatible = "linux-vlc,test-wire";
		gpio-controller;
		#gpio-cells = <2>;
	};

	vlc-a {
		compatible = "linux-vlc,vlc-gpio";
		tx-gpios = <&wire_a 0 0>;
		rx-gpios = <&wire_a 1 0>;
		$t
		local-mac-address = [02 56 4c 43 00 0a];
	};

	vlc-b {
		compatible = "linux-vlc,vlc-gpio";
		tx-gpios = <&wire_b 0 0>;
		led-cathode-gpios = <&wire_b 2 0>;
		$t
		local-mac-address = [02 56 4c 43 00 0b];
	};
};
EOF
}

run_arch() {
	arch=$1
	case "$arch" in
	x86_64) spec=x86_64@7.3:rt; cc=""; karch=x86_64
		image=arch/x86/boot/bzImage ;;
	arm64) spec=arm64@6.12; cc=aarch64-linux-gnu-; karch=arm64
	       image=arch/arm64/boot/Image ;;
	*) fail "unknown arch"; return ;;
	esac
	bd=$("$top/tests/kunit/run.sh" --build "$spec") ||
		{ fail "building the $spec kernel"; return; }
	echo "wire $arch: kernel $bd ($(cat "$bd/include/config/kernel.release"))"
	# every option asked for survived olddefconfig
	if "$top/scripts/kconfig-verify.sh" $("$top/tests/kunit/run.sh" --configs "$spec") "$bd/.config"; then
		ok "config: every option of $(echo $("$top/tests/kunit/run.sh" --configs "$spec" | xargs -n1 basename)) is set"
	else
		fail "config: an option asked for is not in $bd/.config"
		return
	fi

	tmp=$(mktemp -d)
	mkdir -p "$tmp/mod" "$tmp/root/proc" "$tmp/root/sys" "$tmp/root/dev"
	cp "$top/tests/wire/vlc_wire.c" "$tmp/mod/"
	printf 'obj-m := vlc_wire.o\nccflags-y := -I%s/drivers/net/vlc\n' "$top" >"$tmp/mod/Kbuild"
	if ! make -s -C "$bd" ARCH=$karch ${cc:+CROSS_COMPILE=$cc} M="$tmp/mod" W=1 \
		modules >"$logs/$arch-module.log" 2>&1 || [ -s "$logs/$arch-module.log" ]; then
		fail "vlc_wire.ko builds without a warning (W=1):"
		sed 's/^/  | /' "$logs/$arch-module.log" | head -n 20
		rm -rf "$tmp"
		return
	fi
	ok "vlc_wire.ko builds without a warning (W=1)"
	${cc}gcc -static -O2 -Wall -o "$tmp/root/init" \
		"$top/tests/wire/wire-init.c" "$top/tests/dt/guest.c"
	cp "$tmp/mod/vlc_wire.ko" "$bd/drivers/net/vlc/vlc_gpio.ko" "$tmp/root/"
	eval "echo \$shadow_$arch" >"$tmp/root/wire.shadow"
	eval "shadowms=\$shadowms_$arch"

	log=$logs/$arch-console.log
	append="rdinit=/init panic=-1 loglevel=7 printk.time=1 kunit.filter_glob=no-suite"
	case "$arch" in
	x86_64)
		echo "devices=2 timing=$(echo $us_x86_64 | tr ' ' ,) shadow_ms=$shadowms" >"$tmp/root/wire.args"
		(cd "$tmp/root" && find . | cpio -o -H newc --quiet | gzip -1) >"$tmp/initrd"
		guest "$log" qemu-system-x86_64 -M q35 -accel tcg -cpu max -smp 2 \
			$icount -m 1024 -nographic -no-reboot -kernel "$bd/$image" \
			-initrd "$tmp/initrd" -append "console=ttyS0 $append" ;;
	arm64)
		echo "shadow_ms=$shadowms" >"$tmp/root/wire.args"
		: >"$tmp/root/wire.notcp"
		(cd "$tmp/root" && find . | cpio -o -H newc --quiet | gzip -1) >"$tmp/initrd"
		q="qemu-system-aarch64 -M virt,acpi=off -cpu cortex-a57 -smp 1 -m 1024 -nographic -no-reboot $icount"
		$q -machine dumpdtb="$tmp/virt.dtb" >/dev/null 2>&1
		dtc -q -I dtb -O dts -o "$tmp/virt.dts" "$tmp/virt.dtb"
		dts_boards >>"$tmp/virt.dts"
		dtc -q -I dts -O dtb -o "$tmp/wire.dtb" "$tmp/virt.dts"
		guest "$log" $q -kernel "$bd/$image" -initrd "$tmp/initrd" \
			-dtb "$tmp/wire.dtb" -append "console=ttyAMA0 $append" ;;
	esac
	rm -rf "$tmp"
	tr -d '\r' <"$log" >"$log.txt"
	grep -E '^wire: |vlc-gpio|vlc_wire|vlc-wire' "$log.txt" |
		grep -vE '^wire: [0-9]+ passed' | sed "s/^/  /"

	for want in 'rx comparator, edge irq, hrtimer executor' \
		    'rx led \(shared TX LED\), edge irq, thread executor'; do
		if grep -qE "vlc-gpio [^ ]+: vlc[0-9]+: $want" "$log.txt"; then
			ok "dev_info: $(echo "$want" | tr -d '\\')"
		else
			fail "no dev_info line \"$(echo "$want" | tr -d '\\')\""
		fi
	done
	p=$(sed -n 's/^wire: \([0-9]*\) passed, \([0-9]*\) failed.*/\1/p' "$log.txt")
	f=$(sed -n 's/^wire: \([0-9]*\) passed, \([0-9]*\) failed.*/\2/p' "$log.txt")
	if [ -z "$p" ]; then
		fail "the guest ended without a result (console: $log)"
		tail -n 20 "$log.txt" | sed 's/^/  | /'
	else
		passed=$((passed + p))
		failed=$((failed + f))
	fi
	if grep -qE "$bad" "$log.txt"; then
		fail "kernel report: $(grep -Em1 "$bad" "$log.txt")"
		grep -E -A12 "$bad" "$log.txt" | head -n 40 | sed 's/^/  | /'
	else
		ok "no lockdep, sleeping-function, BUG, WARNING or stall report"
	fi
}

# Each guest runs on one host thread (-icount is single-threaded TCG):
# the arches run side by side, each reporting into a file of its own.
for a in ${*:-x86_64 arm64}; do
	(passed=0 failed=0
	 run_arch "$a" >"$logs/$a.out" 2>&1
	 echo "wire $a: $passed passed, $failed failed" >>"$logs/$a.out") &
done
wait
for a in ${*:-x86_64 arm64}; do
	cat "$logs/$a.out"
	line=$(grep -E "^wire $a: [0-9]+ passed, [0-9]+ failed" "$logs/$a.out" | tail -n 1)
	p=$(echo "$line" | sed -n 's/.*: \([0-9]*\) passed.*/\1/p')
	f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
	[ -n "$line" ] || { echo "wire $a: ended without a result"; f=1; }
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
done
echo "wire: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
