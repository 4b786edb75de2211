#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# With injected errors (spurious light, about 1e-3 per symbol) transfers
# still complete byte-exact, retransmissions are counted, and no corrupt
# datagram is ever delivered: each UDP payload carries its own sha256.
# The datagrams go out as a burst of 40, queued in a pfifo: the kernel's
# default fq_codel drops what waits longer than its 5 ms target, and on
# this link every queued packet does (vlc.rst, "Queueing and neighbour
# resolution"); losses to the queue are not what this counts.
. "$VLC_SRC/tests/qemu/lib.sh"

# A 2-slot frame has 7 measured windows: 143 ppm per window is ~1e-3 per
# frame that one of them gets a spurious pulse.
sim_load ser_ppm=143
vlc_pair
expect "link up" wait_carrier a 60
tcp_transfer 16384
ip netns exec a tc qdisc replace dev vlc0 root pfifo limit 64
ip netns exec b python3 "$VLC_SRC/tests/qemu/udpcheck.py" recv 5002 60 >/tmp/udp.out &
rpid=$!
sleep 0.5
ip netns exec a python3 "$VLC_SRC/tests/qemu/udpcheck.py" send 10.0.0.2 5002 40 300
wait $rpid
cat /tmp/udp.out
expect "no corrupt datagram delivered" grep -q " bad 0 " /tmp/udp.out
expect "most datagrams delivered" \
	sh -c '[ "$(sed -n "s/.*distinct \([0-9]*\).*/\1/p" /tmp/udp.out)" -ge 30 ]'
expect "retransmissions counted" test "$(stat a mac_tx_retries)" -gt 0
expect "CRC or erasure drops counted on b" \
	test $(($(stat b rx_crc_errors) + $(stat b mac_rx_erasure_aborts))) -gt 0
# A spurious pulse in the other data slot is an erasure; inside a frame
# the MAC takes the hard decision instead, and the CRC judges the frame.
expect "hard decisions inside frames counted on b" \
	test "$(stat b mac_rx_hard_symbols)" -gt 0
