#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make demo: two simulated boards, each in its own network namespace,
# ping each other over simulated light. Prints what happened.
. "$VLC_SRC/tests/qemu/lib.sh"

echo "== loading vlc.ko and vlc_sim.ko (simulated light, real time)"
sim_load speed=100
echo "== two boards: namespace a (10.0.0.1) and b (10.0.0.2), vlc0 in each"
echo "   vlcctl sim load tests/qemu/topologies/pair.topo"
sim load "$VLC_SRC/tests/qemu/topologies/pair.topo" ||
	fail "the topology did not load"
echo "== vlcctl sim show: the medium, its nodes and the light between them"
sim show
t0=$(date +%s)
wait_carrier a 20 || fail "no carrier on a"
wait_carrier b 20 || fail "no carrier on b"
echo "== carrier after $(($(date +%s) - t0)) s: the PHYs see each other"
ip -n a link show vlc0
echo "== ping -c 10 -i 3 10.0.0.2 from a, over light (2 kbit/s raw: a ping takes 0.8 s each way)"
ip netns exec a ping -c 10 -i 3 -W 10 10.0.0.2 | tail -n 3
echo "== ip -s link (a)"
ip -n a -s link show vlc0
txb=$(ip netns exec a cat /sys/class/net/vlc0/statistics/tx_bytes)
syms=$(stat a phy_symbols_tx)
echo "== on-air efficiency (a): $txb bytes from the stack in $syms symbols:" \
	"$(awk "BEGIN { printf \"%.0f%%\", 800 * $txb / $syms }") of the symbols carried packet bits" \
	"(the rest: preambles, headers, CRCs, ACKs and beacons)"
echo "== ethtool -S vlc0 (a), non-zero counters"
ip netns exec a ethtool -S vlc0 | awk '$2 != 0'
