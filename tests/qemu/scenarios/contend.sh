#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vlc-timeout: 900
# Medium access under saturation, measured in virtual time:
# - 4 saturated senders to one receiver, all in view: together they get
#   at least 0.7 of what one sender gets alone, each at least 15% of it;
# - hidden terminals A - B - C (A and C cannot see each other) saturating
#   B: with RTS/CTS at least twice the goodput without, each sender at
#   least 15% of it, and DATA retransmissions and corrupt frames at B
#   (per virtual second) drop accordingly.
# Goodput: UDP payload bytes per virtual second, counted from when every
# sender has delivered a datagram (tests/qemu/contend.py); 200-byte
# datagrams in view (242-byte frames, about 90 a sender in the run),
# 512-byte ones between hidden terminals; both go with RTS/CTS at the
# default threshold (200). Each phase ends with a line of counters per
# node (summary), so that a failure says where the airtime went.
. "$VLC_SRC/tests/qemu/lib.sh"

vlcctl=$(vlcctl_bin)
out=/tmp/contend.out

sim_load
sim load "$VLC_SRC/tests/qemu/topologies/five.topo" ||
	fail "the topology did not load"
for s in n1 n2 n3 n4 n5; do
	wait_carrier $s 60 || fail "no carrier on $s"
done
echo "5 nodes up at $(vtime_s) s virtual"
# static_neigh NS...: static neighbour entries. An ARP request is a
# broadcast, sent without RTS/CTS, and between hidden senders it does not
# get through the saturation; a link flap flushes them.
static_neigh() {
	for s in "$@"; do
		for a in 1 2 3 4 5; do
			ip -n "$s" neigh replace 10.0.0.$a \
				lladdr 02:56:4c:43:00:0$a dev vlc0 nud permanent
		done
	done
}
static_neigh n1 n2 n3 n4 n5

# contend VSECONDS SIZE THROUGH RECEIVER SENDER...: saturate RECEIVER with
# SIZE-byte datagrams from every SENDER and count VSECONDS of virtual time
# from when THROUGH senders have each delivered one (1: from the first
# datagram; see tests/qemu/contend.py); CONTEND lines go to $out. The
# senders' queues are emptied afterwards by a link flap.
contend() {
	w=$1
	size=$2
	through=$3
	r=$4
	shift 4
	ip netns exec "$r" python3 "$VLC_SRC/tests/qemu/contend.py" recv 5005 \
		"$w" "$through" >"$out" &
	rp=$!
	sleep 0.5
	pids=""
	for s in "$@"; do
		ip netns exec "$s" python3 "$VLC_SRC/tests/qemu/contend.py" \
			send "10.0.0.${r#n}" 5005 "$size" &
		pids="$pids $!"
	done
	wait $rp
	echo "run of $w s done at $(vtime_s) s virtual"
	kill $pids
	wait $pids 2>/dev/null || true
	for s in "$@"; do
		ip -n "$s" link set vlc0 down
		ip -n "$s" link set vlc0 up
	done
	for s in "$@"; do
		wait_carrier "$s" 120 || fail "no carrier on $s after the flap"
	done
	static_neigh "$@"
	cat "$out"
}

# Bps: goodput of the last run, bytes per virtual second
bps() {
	vns=$(sed -n 's/^CONTEND vns //p' "$out")
	tot=$(sed -n 's/^CONTEND total //p' "$out")
	[ "${vns:-0}" -gt 0 ] || { echo 0; return; }
	echo $((tot * 1000000000 / vns))
}

# src_bytes ADDR: bytes of one source in the last run (0 if none)
src_bytes() {
	b=$(sed -n "s/^CONTEND src $1 //p" "$out")
	echo "${b:-0}"
}

# summary NS...: per node, the counters that say where airtime went and
# the carrier's changes (for the log; a failure is explained by them)
summary() {
	for s in "$@"; do
		printf '%s:' "$s"
		for c in phy_erasures phy_late mac_tx_acked mac_tx_dropped \
			 mac_cts_timeouts collisions rx_crc_errors \
			 mac_tx_beacons; do
			printf ' %s %s' "${c#*_}" "$(stat "$s" "$c")"
		done
		echo " carrier_changes $(ip netns exec "$s" \
			cat /sys/class/net/vlc0/carrier_changes)"
	done
}

# sum_stat COUNTER NS...: a counter of ethtool -S summed over nodes
sum_stat() {
	c=$1
	shift
	t=0
	for s in "$@"; do
		t=$((t + $(stat "$s" "$c")))
	done
	echo $t
}

echo "# one sender alone"
contend 40 200 1 n5 n1
one=$(bps)
echo "one sender: $one B/s"
expect "a lone sender gets through" test "$one" -gt 100

echo "# four senders, all in view"
contend 400 200 4 n5 n1 n2 n3 n4
four=$(bps)
echo "four senders: $four B/s ($((four * 100 / one))% of one)"
summary n1 n2 n3 n4 n5
expect "4 senders get >= 0.7 of one sender's goodput" \
	test $((four * 10)) -ge $((one * 7))
tot=$(sed -n 's/^CONTEND total //p' "$out")
for a in 1 2 3 4; do
	b=$(src_bytes 10.0.0.$a)
	echo "n$a: $b bytes, $((b * 100 / tot))%"
	expect "n$a gets >= 15% of the aggregate" test $((b * 100)) -ge $((tot * 15))
done

echo "# hidden terminals: n1 and n3 cannot see each other, both to n2"
ip -n n4 link set vlc0 down
ip -n n5 link set vlc0 down
sim edge n1/vlc0 n3/vlc0 gain 0 both
# hidden RTS_THRESHOLD THROUGH VSECONDS: n1 and n3 saturate n2 (contend);
# retries, bad and dur are what the run cost and how long it took
hidden() {
	for s in n1 n2 n3; do
		ip netns exec $s "$vlcctl" set vlc0 rts-threshold "$1" ||
			fail "cannot set rts-threshold $1 on $s"
	done
	r0=$(sum_stat mac_tx_retries n1 n3)
	c0=$(sum_stat rx_crc_errors n2)
	e0=$(sum_stat mac_rx_erasure_aborts n2)
	t0=$(vtime_s)
	contend "$3" 512 "$2" n2 n1 n3
	dur=$(($(vtime_s) - t0))
	retries=$(($(sum_stat mac_tx_retries n1 n3) - r0))
	bad=$(($(sum_stat rx_crc_errors n2) - c0 +
	       $(sum_stat mac_rx_erasure_aborts n2) - e0))
	summary n1 n2 n3
}
# Without RTS/CTS, from the first datagram (if any gets through at all);
# with it, from when both senders are through: the second one's start-up
# can take 3 to 34 virtual seconds (a sender joining while the other's
# packet is on the air doubles its window at each unanswered RTS), and
# 120 s of steady state hold about 45 datagrams.
hidden 0 1 60
off=$(bps)
off_retries=$retries
off_bad=$bad
off_dur=$dur
echo "without RTS/CTS: $off B/s, $retries DATA retries, $bad corrupt frames at n2 in $dur s"
hidden 200 2 120
on=$(bps)
echo "with RTS/CTS: $on B/s, $retries DATA retries, $bad corrupt frames at n2 in $dur s, $(stat n1 mac_tx_rts) RTS from n1, start-up $(($(sed -n 's/^CONTEND start //p' "$out") / 1000000)) ms"
expect "RTS/CTS at least doubles hidden-terminal goodput" \
	test "$on" -ge $((off * 2))
tot=$(sed -n 's/^CONTEND total //p' "$out")
for a in 1 3; do
	b=$(src_bytes 10.0.0.$a)
	echo "n$a: $b bytes, $((b * 100 / (tot + 1)))%"
	expect "n$a gets >= 15% of it" test $((b * 100)) -ge $((tot * 15))
done
# per virtual second of each run (both include their start)
expect "DATA retries at most half of those without" \
	test $((retries * off_dur * 2)) -le $((off_retries * dur))
expect "corrupt frames at n2 at most half of those without" \
	test $((bad * off_dur * 2)) -le $((off_bad * dur))
expect "n2 answered with CTS" test "$(stat n2 mac_tx_cts)" -gt 0
