#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vlc-smp: 2
# vlc-timeout: 600
# Forward error correction: with late callbacks as a loaded board's timer
# gives them, a TCP transfer arrives byte-exact on coded frames and
# ethtool -S counts the corrections; one end off and the other auto still
# talk both ways. The simulator decodes in the tick that completed a
# frame: the board executors' decode in a work item is the wire test's.
. "$VLC_SRC/tests/qemu/lib.sh"

vlcctl=$(vlcctl_bin)
sim_load
vlc_pair
expect "link up" wait_carrier a 60
expect "fec auto on a" ctl a set vlc0 fec auto
expect "fec auto on b" ctl b set vlc0 fec auto
expect "a shows fec auto" sh -c "nsenter --net=/run/netns/a $vlcctl show vlc0 | grep -q 'fec auto'"

# coded frames, for each end: sent, corrected, not corrected
coded() {
	echo "$(stat "$1" mac_fec_tx_frames) $(stat "$1" mac_fec_corrected_frames) $(stat "$1" mac_fec_uncorrectable)"
}

tcp_transfer 2048
# What auto costs a clean link is link_bench's to measure: here TCP's
# data and ACKs collide now and then, and a collision's erasures count.
echo "clean link: coded sent, corrected, uncorrectable: a $(coded a), b $(coded b)"

# The jitter model's tail (vlc-benchmarks.rst, "Timer lateness"): some
# callbacks (100 per million) 150 us late, past the 20 us tolerance.
sim set late-ppm 100 late-us 150
tcp_transfer 8192
set -- $(coded a)
echo "a: coded sent $1, corrected $2, uncorrectable $3"
expect "late callbacks: a sent coded frames" test "$1" -gt 0
set -- $(coded b)
echo "b: coded sent $1, corrected $2, uncorrectable $3"
expect "late callbacks: b corrected frames" test "$2" -gt 0
expect "late callbacks: erasures seen" test "$(stat b phy_erasures)" -gt 0

# One end off, the other auto, through the same faults.
expect "fec off on a" ctl a set vlc0 fec off
a0=$(stat a mac_fec_tx_frames)
b0=$(stat b mac_fec_tx_frames)
ip netns exec a ping -c 6 -i 2 -W 30 10.0.0.2 >/tmp/ping.ab || true
ip netns exec b ping -c 6 -i 2 -W 30 10.0.0.1 >/tmp/ping.ba || true
tail -n 2 /tmp/ping.ab /tmp/ping.ba
expect "off -> auto: pings answered" grep -Eq " [1-6] received" /tmp/ping.ab
expect "auto -> off: pings answered" grep -Eq " [1-6] received" /tmp/ping.ba
expect "off: a sent no coded frame" test "$(stat a mac_fec_tx_frames)" = "$a0"
expect "auto: b sent coded frames" test "$(stat b mac_fec_tx_frames)" -gt "$b0"
tcp_transfer 4096
expect "the simulator decoded every frame in its tick" \
	test $(($(stat a mac_fec_deferred) + $(stat b mac_fec_deferred))) -eq 0
echo "virtual time $(vtime_s) s"
