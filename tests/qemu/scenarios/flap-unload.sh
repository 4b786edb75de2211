#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vlc-smp: 2
# Link down/up and module unload while a transfer runs: no kernel report
# (the runner checks dmesg), nothing left behind, and the peer recovers.
. "$VLC_SRC/tests/qemu/lib.sh"

sim_load
vlc_pair
expect "link up" wait_carrier a 60
head -c 200000 /dev/urandom >/tmp/big.bin
ip netns exec b socat -u TCP-LISTEN:5003,reuseaddr OPEN:/dev/null &
ip netns exec a socat -u OPEN:/tmp/big.bin TCP:10.0.0.2:5003 &
for i in 1 2 3 4 5; do
	sleep 1
	ip -n a link set vlc0 down
	ip -n a link set vlc0 up
	ip -n b link set vlc0 down
	ip -n b link set vlc0 up
done
expect "link back after flaps" wait_carrier a 60
ip netns exec a ping -c 2 -W 20 10.0.0.2 >/dev/null || fail "no ping after flaps"
echo "ok - ping after 5 link flaps"
# Unload with the transfer still running: devices go with the module.
ip netns exec a ping -f -c 1000 10.0.0.2 >/dev/null 2>&1 &
sleep 1
sim_unload
expect "modules gone" test ! -e /sys/module/vlc -a ! -e /sys/module/vlc_sim
expect "devices gone" sh -c '! ip -n a link show vlc0 2>/dev/null'
kill %1 %2 %3 2>/dev/null || true
# And a fresh start works.
ip netns del a
ip netns del b
sim_load
vlc_pair
expect "link up after reload" wait_carrier a 60
ip netns exec a ping -c 2 -W 20 10.0.0.2 >/dev/null || fail "no ping after reload"
echo "ok - ping after reload"
