#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vlc-timeout: 600
# A vanished peer: a floods b with UDP until the queues are full, b's
# namespace is deleted. a loses its carrier, the driver drops what it
# held (counted), and a's namespace, whose sockets those packets held,
# goes within seconds of virtual time of its `ip netns del`. Byte queue
# limits keep most of the backlog in the qdisc while the link works.
. "$VLC_SRC/tests/qemu/lib.sh"

vnow_ms() { echo $(($(sim time) / 1000)); }
ip_stat() { ip netns exec "$1" cat "/sys/class/net/vlc0/statistics/$2"; }

sim_load
vlc_pair
for ns in a b; do
	ip -n "$ns" link set vlc0 down
	ip -n "$ns" link set vlc0 addrgenmode none
	ip -n "$ns" link set vlc0 up
done
expect "carrier on a" wait_carrier a 120
expect "carrier on b" wait_carrier b 120
ping_ok a 10.0.0.2 || fail "no first ping"

# more than the link carries: the qdisc and the driver fill up
udp_flood a 10.0.0.2
fp=$flood_pid
sleep 10
inflight=$(ip netns exec a cat /sys/class/net/vlc0/queues/tx-0/byte_queue_limits/inflight)
echo "a: $inflight bytes in the driver under byte queue limits"
ip netns exec a tc -s qdisc show dev vlc0 | sed 's/^/  | /'
expect "byte queue limits hold the driver's share" \
	test "$inflight" -gt 0 -a "$inflight" -lt $((16 * 58))

e0=$(ip_stat a tx_errors)
d0=$(ip_stat a tx_dropped)
ib=$(sim_id b)
ip netns del b
wait_until 60 sim_gone "$ib" ||
	fail "b's node still there 60 s after ip netns del"
v0=$(vnow_ms)
expect "a loses its carrier" wait_until 120 sh -c '! ip -n a link show vlc0 | grep -q LOWER_UP'
v1=$(vnow_ms)
echo "a lost its carrier $((v1 - v0)) ms of virtual time after b went"
kill $fp
wait $fp 2>/dev/null || true
ip -n a -s link show vlc0 | sed 's/^/  | /'
e1=$(ip_stat a tx_errors)
d1=$(ip_stat a tx_dropped)
echo "a: tx_errors +$((e1 - e0)), tx_dropped +$((d1 - d0)) since b went"
expect "what the driver held is counted" test $((e1 - e0 + d1 - d0)) -gt 0
expect "nothing left in the driver" test \
	"$(ip netns exec a cat /sys/class/net/vlc0/queues/tx-0/byte_queue_limits/inflight)" -eq 0

ia=$(sim_id a)
v0=$(vnow_ms)
ip netns del a
wait_until 120 sim_gone "$ia" ||
	fail "a's node still there 120 s after ip netns del"
v1=$(vnow_ms)
echo "figure: a's namespace outlived ip netns del by $((v1 - v0)) ms virtual"
expect "a's namespace gone within 10 s of virtual time" test $((v1 - v0)) -le 10000
sim_unload
