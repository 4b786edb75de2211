#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Resync across a network: five simulated boards, all in sight of each
# other, with clock skews of -1000, -500, 0, +500 and +1000 ppm, acquire
# each other and then hold a common frame phase for SECONDS of virtual
# time under light traffic (a ping every 10 s, each pair in turn): no
# node loses its carrier, no ping is lost, phase corrections keep being
# made, and every pair pings at the end.
#
# vlc-timeout: 1200
#
# SECONDS defaults to 300 virtual seconds, five minutes: each of the ten
# pairs pings three times. A shorter run
# for a quick look:
#
#   tests/qemu/run.sh tests/qemu/scenarios/sync-net.sh 120
. "$VLC_SRC/tests/qemu/lib.sh"

dur=${1:-300}
nodes="1 2 3 4 5"
skews="-1000 -500 0 500 1000"

# carrier_downs NS: how often vlc0 in NS lost its carrier
carrier_downs() {
	ip netns exec "$1" cat /sys/class/net/vlc0/carrier_down_count
}

# ping1 FROM TO: one ping from node FROM to node TO
ping1() {
	ip netns exec "n$1" ping -c 1 -W 30 "10.0.0.$2" >/dev/null 2>&1
}

# ping3 FROM TO: up to three pings, until one is answered
ping3() {
	ping1 "$1" "$2" || ping1 "$1" "$2" || ping1 "$1" "$2"
}

# offsets MS: over MS ms of virtual time, all nodes together (each is
# vlc0 in the trace): frames seen, frames without sync, frames with a
# neighbour early or late and the mean and largest |offset_ns| of those
# (tracepoint vlc:vlc_phy_frame); the largest also in /tmp/offset_max
offsets() {
	phy_frames "$1" | awk '/vlc_phy_frame:/ {
		n++
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^sync=/) s = substr($i, 6)
			if ($i ~ /^offset=/) o = substr($i, 8)
		}
		if (s == 0) none++
		if (s == 2 || s == 3) {
			k++
			sum += o < 0 ? -o : o
			if ((o < 0 ? -o : o) > max) max = o < 0 ? -o : o
		}
	} END {
		printf "frames %d, sync none %d, early/late %d, mean |offset| %d ns, max %d ns\n",
		       n, none, k, k ? sum / k : 0, max
		print max + 0 >"/tmp/offset_max"
	}'
}

sim_load
t0=$(date +%s)
i=0
for s in $skews; do
	i=$((i + 1))
	ip netns add "n$i"
	ip link add "vlc$i" type vlc
	sim node "vlc$i" skew-ppm "$s"
	ip link set "vlc$i" netns "n$i" name vlc0
	ip -n "n$i" addr add "10.0.0.$i/24" dev vlc0
done
for i in $nodes; do
	ip -n "n$i" link set vlc0 up
done
for i in $nodes; do
	expect "n$i has a carrier" wait_carrier "n$i" 120
done
echo "carrier everywhere after $(($(date +%s) - t0)) s, virtual $(vtime_s) s"
# Settle (the last node came up seconds after the first), then resolve
# the neighbours around a ring; ARP may take a try or two.
wait_vtime_ms 20000
for i in $nodes; do
	j=$((i % 5 + 1))
	expect "n$i pings n$j" ping3 "$i" "$j"
done
echo "at the start: $(offsets 1000)"

for i in $nodes; do
	carrier_downs "n$i" >"/tmp/down$i"
	stat "n$i" mac_phase_corrections >"/tmp/corr$i"
done
w0=$(date +%s)
v0=$(vtime_s)
fails=0
k=0
# One ping every 10 s of virtual time, the ten pairs in turn.
while [ $(($(vtime_s) - v0)) -lt "$dur" ]; do
	wait_vtime_ms 10000
	pair=$(echo "12 13 14 15 23 24 25 34 35 45" | cut -d' ' -f$((k % 10 + 1)))
	a=${pair%?}
	b=${pair#?}
	ping1 "$a" "$b" ||
		{ fails=$((fails + 1)); echo "ping n$a -> n$b lost at $(vtime_s) s"; }
	k=$((k + 1))
done
w1=$(date +%s)
echo "$(($(vtime_s) - v0)) s of virtual time in $((w1 - w0)) s of wall time; $k pings, $fails lost"
echo "at the end: $(offsets 1000)"
expect "no ping lost while holding the phase" test "$fails" -eq 0
# The PHY sees the sum of the neighbours' offsets on one side: 20 us is
# half its reach, and what a phase-only loop leaves two nodes apart at
# these skews.
expect "no neighbour seen more than 20 us off" \
	test "$(cat /tmp/offset_max)" -le 20000

for i in $nodes; do
	d0=$(cat "/tmp/down$i")
	c0=$(cat "/tmp/corr$i")
	d1=$(carrier_downs "n$i")
	c1=$(stat "n$i" mac_phase_corrections)
	echo "n$i: carrier downs $((d1 - d0)), phase corrections $((c1 - c0))"
	expect "n$i kept its carrier" test "$d1" -eq "$d0"
	expect "n$i made phase corrections" test "$c1" -gt "$c0"
done
for i in $nodes; do
	for j in $nodes; do
		[ "$i" -lt "$j" ] || continue
		expect "n$i pings n$j" ping3 "$i" "$j"
	done
done
echo "done after $(($(date +%s) - t0)) s, virtual $(vtime_s) s"
