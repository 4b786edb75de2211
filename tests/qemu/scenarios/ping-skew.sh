#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Two boards with 500 ppm relative clock skew, bright ambient light and
# 100 Hz mains flicker ping each other with no loss.
. "$VLC_SRC/tests/qemu/lib.sh"

sim_load ambient=20000 flicker=5000 flicker_hz=100 noise=20
vlc_pair
sim node a/vlc0 skew-ppm 250
sim node b/vlc0 skew-ppm -250
expect "a locks to b" wait_carrier a 60
expect "b locks to a" wait_carrier b 60
out=$(ip netns exec a ping -c 10 -i 0.2 -W 20 10.0.0.2)
echo "$out" | tail -n 2
expect "ping: 0% packet loss" sh -c "echo '$out' | grep -q ' 0% packet loss'"
expect "phase corrections were made" test "$(stat a mac_phase_corrections)" -gt 0
expect "carrier stayed up on a" sh -c "ip -n a link show vlc0 | grep -q LOWER_UP"
