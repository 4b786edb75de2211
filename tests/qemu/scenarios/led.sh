#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vlc-timeout: 300
# The LED class device of each VLC device, /sys/class/leds/IF::illumination
# (vlc_led.c): brightness written there is what vlcctl shows and the other
# way round; a neighbour measures the light it sets (ambient + brightness,
# within 3%); max_brightness is the most the mode allows and follows it; the
# LED core clamps larger writes to it; a value the PHY refuses changes
# nothing; a rename re-registers it under the new name, a netns move
# keeps it (a clash gets the LED core's "_1"); it goes with the device (ip link
# del, with the netdev trigger attached: no RTNL deadlock) and with the
# module, without a kernel report (the runner checks dmesg).
. "$VLC_SRC/tests/qemu/lib.sh"

vlcctl=$(vlcctl_bin)
leds=/sys/class/leds

# vlcctl_bright NS DEV: the brightness vlcctl shows for DEV
vlcctl_bright() {
	ctl "$1" show "$2" | tr -s '\n\t' '  ' |
		sed -n 's/.* brightness \([0-9]*\) .*/\1/p'
}

# led_is LED VALUE: the LED's brightness reads VALUE
led_is() {
	v=$(cat "$leds/$1/brightness")
	[ "$v" = "$2" ] || { echo "$1: brightness $v, not $2" >&2; return 1; }
}

# same NS DEV VALUE: LED of DEV and vlcctl both show VALUE
same() {
	led_is "$3::illumination" "$4" || return 1
	v=$(vlcctl_bright "$1" "$2")
	[ "$v" = "$4" ] || { echo "vlcctl: brightness $v, not $4" >&2; return 1; }
}

# gone_within SECONDS PATH: PATH disappears (LEDs go in a work item)
gone_within() {
	wait_until "$1" test ! -e "$2"
}

# there_within SECONDS PATH
there_within() {
	wait_until "$1" test -e "$2"
}

sim_load
ip link add vlc0 type vlc
ip link add vlc1 type vlc
l0=$leds/vlc0::illumination
expect "LED vlc0::illumination registered" there_within 10 "$l0"
expect "LED vlc1::illumination registered" there_within 10 \
	"$leds/vlc1::illumination"
expect "no parent device: under /sys/devices/virtual/leds" \
	test -d /sys/devices/virtual/leds/vlc0::illumination
expect "max_brightness 520, the 2-slot maximum" \
	test "$(cat "$l0/max_brightness")" = 520
expect "default brightness 200 on both sides" same - vlc0 vlc0 200

echo 350 >"$l0/brightness"
expect "LED write 350: vlcctl shows 350" same - vlc0 vlc0 350
expect "vlc1 kept 200" same - vlc1 vlc1 200
expect "vlcctl set brightness 123" ctl - set vlc0 brightness 123
expect "vlcctl 123: the LED reads 123" same - vlc0 vlc0 123

# Larger than max_brightness: the LED core clamps to it (no error).
echo 5000 >"$l0/brightness"
expect "LED write 5000 clamped to max_brightness 520" same - vlc0 vlc0 520
if echo -1 >"$l0/brightness" 2>/dev/null; then
	fail "LED write -1 accepted"
fi
echo "ok - LED write -1 refused (not a number for the LED core)"
expect "still 520" same - vlc0 vlc0 520
# Below the minimum (one data slot, 100 per-mille here), 0 included: the
# LED sets the minimum; netlink refuses it and keeps the setting.
echo 0 >"$l0/brightness"
expect "LED write 0 (off) sets the minimum 100" same - vlc0 vlc0 100
echo 520 >"$l0/brightness"
echo 99 >"$l0/brightness"
expect "LED write 99 sets the minimum 100" same - vlc0 vlc0 100
if ctl - set vlc0 brightness 0 2>/dev/null; then
	fail "vlcctl set brightness 0 accepted"
fi
expect "vlcctl refuses 0: still 100" same - vlc0 vlc0 100

# 4-PPM allows at most 240: max_brightness follows the mode.
echo 300 >"$l0/brightness"
if ctl - set vlc0 modulation 4ppm 2>/dev/null; then
	fail "4ppm accepted at brightness 300"
fi
expect "4ppm refused at 300: max_brightness still 520" \
	test "$(cat "$l0/max_brightness")" = 520
echo 200 >"$l0/brightness"
expect "vlcctl set modulation 4ppm at 200" ctl - set vlc0 modulation 4ppm
expect "4-PPM: max_brightness 240" test "$(cat "$l0/max_brightness")" = 240
echo 1000 >"$l0/brightness"
expect "LED write 1000 in 4-PPM clamped to 240" same - vlc0 vlc0 240
expect "vlcctl set modulation 2slot" ctl - set vlc0 modulation 2slot
expect "2-slot again: max_brightness 520" \
	test "$(cat "$l0/max_brightness")" = 520
expect "brightness kept across the mode switches" same - vlc0 vlc0 240

# The light a neighbour measures follows the LED's brightness. vlc1 is
# the meter: with a 450 us frame it never locks to vlc0's 500 us, so its
# measured windows slide over all of vlc0's frame, and the mean of every
# level it measures (vlc_phy_frame) is the ambient light plus vlc0's mean
# light: the brightness, a lit LED at gain 1000 being 1000 units.
tr=/sys/kernel/tracing
expect "meter: vlc1 frame-us 450" ctl - set vlc1 frame-us 450
m=$(ctl - show vlc1 | tr -s '\n\t' '  ' | sed -n 's/.* short-addr \([0-9]*\) .*/\1/p')
ip link set vlc0 up
ip link set vlc1 up
echo 8192 >$tr/buffer_size_kb
echo "node == $m" >$tr/events/vlc/vlc_phy_frame/filter
# measured MS: the meter's mean level over MS ms of virtual time
measured() {
	wait_vtime_ms 100
	phy_frames "$1" | python3 -c '
import re, sys
v = [int(x, 0) for m in re.finditer(r"levels=\{([^}]*)\}", sys.stdin.read())
     for x in m.group(1).split(",") if x]
print(sum(v) // len(v) if v else -1)'
}
for b in 100 450 250; do
	echo $b >"$l0/brightness"
	got=$(measured 2000)
	want=$((2000 + b))
	echo "brightness $b: the meter measures $got, ambient 2000 + $b = $want"
	expect "measured light within 3% of the brightness' share" \
		test $((got - want)) -le $((b * 3 / 100 + 10)) -a \
		$((want - got)) -le $((b * 3 / 100 + 10))
done
ip link set vlc0 down
ip link set vlc1 down
ctl - set vlc1 frame-us 500 >/dev/null
echo 240 >"$l0/brightness"

# Above the maximum through vlcctl: refused, the LED keeps its value.
if ctl - set vlc0 brightness 600 2>/dev/null; then
	fail "vlcctl brightness 600 accepted"
fi
expect "refused vlcctl 600: LED still 240" same - vlc0 vlc0 240

# Rename: the LED follows the interface's name, the setting stays.
ip link set vlc1 name vlcx
expect "rename: vlc1::illumination gone" gone_within 10 \
	"$leds/vlc1::illumination"
expect "rename: vlcx::illumination there" there_within 10 \
	"$leds/vlcx::illumination"
expect "rename: vlcx kept 200" same - vlcx vlcx 200

# Netns move: LEDs have no netns, the LED stays as it is (same sysfs
# node). A move that renames re-registers it. A second vlc0 (netns b)
# clashes: the LED core names its LED with "_1".
ip netns add a
ip netns add b
ino=$(command stat -c %i /sys/devices/virtual/leds/vlc0::illumination)
ip link set vlc0 netns a
expect "moved to netns a: the same vlc0::illumination" test \
	"$(command stat -c %i /sys/devices/virtual/leds/vlc0::illumination)" = "$ino"
expect "netns a: LED and vlcctl agree, 240 kept" same a vlc0 vlc0 240
ip link add vlcb type vlc
expect "vlcb::illumination" there_within 10 "$leds/vlcb::illumination"
ip link set vlcb netns b name vlc0
expect "moved and renamed: vlcb::illumination gone" gone_within 10 \
	"$leds/vlcb::illumination"
expect "clash: vlc0::illumination_1 for b's vlc0" there_within 10 \
	"$leds/vlc0::illumination_1"
echo 177 >"$leds/vlc0::illumination_1/brightness"
expect "b's vlc0 has 177" test "$(vlcctl_bright b vlc0)" = 177
expect "a's vlc0 kept 240" same a vlc0 vlc0 240

# The netdev trigger on a's LED: removing the device deactivates the
# trigger, which takes RTNL; the LED goes outside RTNL, so no deadlock.
modprobe ledtrig-netdev || fail "no ledtrig-netdev"
echo netdev >"$l0/trigger"
echo vlcx >"$l0/device_name"
echo 1 >"$l0/link"
expect "netdev trigger active on vlc0::illumination" \
	grep -q '\[netdev\]' "$l0/trigger"
timeout 60 ip -n a link del vlc0 || fail "ip link del hung or failed"
expect "ip link del: vlc0::illumination gone" gone_within 10 "$l0"
expect "b's LED stays" test -e "$leds/vlc0::illumination_1"

# The same with netns deletion and module unload, which hold
# pernet_ops_rwsem while they wait for the devices to be freed, and the
# netdev trigger's deactivation takes it too: the LEDs must not hold
# the devices.
l1=$leds/vlc0::illumination_1
echo netdev >"$l1/trigger"
echo vlcx >"$l1/device_name"
ip netns del b
expect "netns b deleted: vlc0::illumination_1 gone" gone_within 30 "$l1"
lx=$leds/vlcx::illumination
echo netdev >"$lx/trigger"
echo vlcx >"$lx/device_name"
expect "netdev trigger active on vlcx::illumination" \
	grep -q '\[netdev\]' "$lx/trigger"

# Devices go with the module, and their LEDs with them.
rmmod vlc_sim
expect "rmmod vlc_sim: no ::illumination LED left" \
	sh -c "! ls -d $leds/*::illumination* 2>/dev/null"
rmmod vlc
rmmod ledtrig_netdev
expect "modules gone" test ! -e /sys/module/vlc -a ! -e /sys/module/vlc_sim
if dmesg | grep -q "Setting an LED's brightness failed"; then
	dmesg | grep "LED" >&2
	fail "the LED core logged a failed brightness set"
fi
echo "ok - no failed LED brightness set logged"

# A fresh start registers them again.
sim_load
ip link add vlc0 type vlc
expect "reload: vlc0::illumination" there_within 10 "$l0"
ip link del vlc0
expect "ip link del: LED gone" gone_within 10 "$l0"
sim_unload
