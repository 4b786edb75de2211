#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vlc-timeout: 1800
# How long a namespace outlives `ip netns del` when its vlc0 still holds
# packets for a peer that vanished: board 2 floods board 3 with UDP,
# board 3's namespace is deleted, the flood stops, then board 2's
# namespace is deleted. Board 2's queued skbs hold the sender's socket,
# the socket holds the namespace: it goes once the MAC has given every
# packet up (retry limit). Prints the wall and virtual time that took,
# and asserts the bound of the retry and queue limits
# (vlc_mac_test_vanished_peer: 48 packets in at most 172 s of virtual
# time). Arguments: flood=S seconds of flood (default 10), qdisc=NAME
# board 2's root qdisc (default pfifo_fast, the stress kernel's default;
# Debian's kernel defaults to fq_codel).
. "$VLC_SRC/tests/qemu/lib.sh"

flood=10 qdisc=pfifo_fast
for a in "$@"; do
	case "$a" in
	flood=[0-9]*) eval "$a" ;;
	qdisc=[a-z]*) eval "$a" ;;
	*) fail "unknown argument $a" ;;
	esac
done
vnow_ms() { echo $(($(sim time) / 1000)); }
now_ms() { echo $(($(date +%s%N) / 1000000)); }

sim_load
# board 1 stays: board 2 keeps its carrier (and its qdisc) after 3 goes
for k in 1 2 3; do
	ip netns add "n$k"
	ip link add "vlcn$k" type vlc
	ip link set "vlcn$k" netns "n$k" name vlc0
	ip -n "n$k" link set vlc0 addrgenmode none
	ip -n "n$k" addr add "10.0.0.$k/24" dev vlc0
	ip -n "n$k" link set vlc0 up
done
for k in 1 2 3; do
	expect "carrier on n$k" wait_carrier "n$k" 120
done
ping_ok n2 10.0.0.3 || fail "no first ping n2 -> n3"
ip netns exec n2 tc qdisc replace dev vlc0 root "$qdisc"
# 58-byte frames, as the stress scenario's pings
udp_flood n2 10.0.0.3
pp=$flood_pid
sleep "$flood"
ip netns del n3
# n3's device goes with its namespace, a moment later; the ping stops now,
# with the queues full towards it
kill $pp
wait $pp 2>/dev/null || true
ip netns exec n2 tc -s qdisc show dev vlc0
ip -n n2 -s link show vlc0
q=$(ip netns exec n2 tc -s qdisc show dev vlc0 | sed -n 's/.*backlog [^ ]* \([0-9]*\)p.*/\1/p' | head -n 1)
e0=$(ip netns exec n2 cat /sys/class/net/vlc0/statistics/tx_errors)
echo "n2: qdisc backlog ${q:-?} packets, tx_errors $e0 when its namespace is deleted"
i2=$(sim_id n2)
t0=$(now_ms)
v0=$(vnow_ms)
ip netns del n2
# n2's node goes with the namespace's exit
while ! sim_gone "$i2"; do
	[ $(($(vnow_ms) - v0)) -lt 400000 ] ||
		fail "n2 still there after 400 s of virtual time"
	sleep 0.5
done
t1=$(now_ms)
v1=$(vnow_ms)
echo "figure: netns n2 outlived ip netns del by $((t1 - t0)) ms wall, $((v1 - v0)) ms virtual (qdisc backlog ${q:-?})"
echo "$((t1 - t0)) ms wall, $((v1 - v0)) ms virtual, backlog ${q:-?}" >"$VLC_OUT/drain.txt"
expect "gone within the bound (172 s virtual)" test $((v1 - v0)) -le 172000
expect "n3's device gone" test "$(sim_count)" -eq 1
ip netns del n1
expect "all nodes gone" wait_until 60 sim_empty
sim_unload
