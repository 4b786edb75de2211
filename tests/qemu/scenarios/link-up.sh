#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A vlc net_device can be created, brought up and down, and removed; the
# modules unload cleanly afterwards.
# vlc-pace: wall
. "$VLC_SRC/tests/qemu/lib.sh"

sim_load speed=100
expect "modules loaded" test -e /sys/module/vlc -a -e /sys/module/vlc_sim
ip link add vlc0 type vlc
expect "vlc0 exists" ip link show vlc0
expect "vlc0 is an Ethernet-type device" \
	sh -c 'ip -d link show vlc0 | grep -q "link/ether"'
expect "vlc0 has MTU 1500" sh -c 'ip link show vlc0 | grep -q "mtu 1500"'
expect "ARP retries after 4 s, not 1 s (slow link)" \
	test "$(cat /proc/sys/net/ipv4/neigh/vlc0/retrans_time_ms)" = 4000
expect "ND retries after 4 s too" \
	test "$(cat /proc/sys/net/ipv6/neigh/vlc0/retrans_time_ms)" = 4000
ip link set vlc0 up
expect "vlc0 is up" sh -c 'ip link show vlc0 | grep -q "[<,]UP[,>]"'
expect "ethtool -i names the driver" \
	sh -c 'ethtool -i vlc0 | grep -q "^driver: vlc$"'
ip link set vlc0 down
expect "vlc0 is down" sh -c 'ip link show vlc0 | grep -q "state DOWN"'
ip link del vlc0
expect "vlc0 is gone" test ! -e /sys/class/net/vlc0
sim_unload
expect "modules unloaded" test ! -e /sys/module/vlc_sim -a ! -e /sys/module/vlc
