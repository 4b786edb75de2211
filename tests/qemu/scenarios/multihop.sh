#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Multi-hop over a line of four simulated boards a - b - c - d, each seeing
# only its neighbours, with the kernel's own machinery: plain IPv4
# forwarding with host routes, and batman-adv meshing the vlc0s as bat0
# (started during the forwarding test: it takes minutes to converge).
# vlc-timeout: 900
. "$VLC_SRC/tests/qemu/lib.sh"

# now_ms: wall clock; vnow_ms: the simulator's virtual time; both in ms
now_ms() { echo $(($(date +%s%N) / 1000000)); }
vnow_ms() { echo $(($(sim time) / 1000)); }
mac() { ip netns exec "$1" cat /sys/class/net/vlc0/address; }

# Pings are short (ping -s 16: 44 bytes, the least that carries a
# timestamp) and one at a time: see "Multi-hop" in vlc.rst.
# reach NS DST: one echo request at a time, each with 8 s to come back,
# until one is answered, for 150 s at most: the first contact, neighbour
# resolution included. Not ping -i: the requests queued while ARP
# resolves would go out together and collide with each other on the line.
reach() {
	wait_until 150 ip netns exec "$1" ping -n -c 1 -s 16 -W 8 "$2" \
		>/dev/null
}

# pings NS DST N: N echo requests from NS, each with 8 s to come back;
# the replies in /tmp/pings.out, how many in $got.
pings() {
	: >/tmp/pings.out
	pi=0
	while [ $pi -lt "$3" ]; do
		ip netns exec "$1" ping -n -c 1 -s 16 -W 8 "$2" |
			grep ' bytes from ' >>/tmp/pings.out || true
		pi=$((pi + 1))
	done
	got=$(grep -c . /tmp/pings.out || true)
	rtt=$(sed -n 's/.*time=\([0-9.]*\) ms/\1/p' /tmp/pings.out | sort -n |
	      tr '\n' ' ')
	echo "$1 -> $2: $got of $3 replies, rtt (ms, sorted) $rtt"
}

# counters: the MAC counters that tell hidden-terminal losses
counters() {
	for ns in a b c d; do
		echo "$ns: tx_fragments $(stat $ns mac_tx_fragments) tx_retries $(stat $ns mac_tx_retries) tx_dropped $(stat $ns mac_tx_dropped) collisions $(stat $ns collisions) tx_beacons $(stat $ns mac_tx_beacons)"
	done
}

sim_load
t0=$(now_ms)
expect "the line a - b - c - d loads" \
	sim load "$VLC_SRC/tests/qemu/topologies/line4.topo"
edges=$(sim show | grep '^edge ')
echo "$edges" | sed 's/^/  | /'
expect "edges a-b, b-c, c-d both ways, and no others" \
	test "$(echo "$edges" | wc -l)" -eq 6
expect "no edge between a and d" \
	sh -c "! echo '$edges' | grep -Eq '^edge (a/vlc0 d/vlc0|d/vlc0 a/vlc0) '"
ma=$(mac a)
mb=$(mac b)
mc=$(mac c)
md=$(mac d)

# IPv6 stays off vlc0 and bat0 (addrgenmode none): its autoconfiguration
# would be seconds of airtime (see vlc.rst, "Queueing and neighbour
# resolution").
for ns in a b c d; do
	ip -n $ns link set vlc0 addrgenmode none
	ip -n $ns link set vlc0 up
done
for ns in a b c d; do
	expect "carrier on $ns" wait_carrier $ns 120
done
# Every unicast frame with RTS/CTS (rts-threshold 1, not the default 200):
# the CTS of b tells c to keep quiet while a's frame comes in, which c
# cannot hear. See "Hidden terminals" in vlc.rst.
vlcctl=$(vlcctl_bin)
for ns in a b c d; do
	ip netns exec $ns "$vlcctl" set vlc0 rts-threshold 1 ||
		fail "cannot set rts-threshold on $ns"
done
echo "carrier after $(($(now_ms) - t0)) ms, virtual $(vnow_ms) ms"

# ---- IPv4 forwarding ----
# One subnet, 10.0.0.0/24, with host routes to the nodes out of sight via
# the neighbour towards them. b and c forward out of vlc0, the interface
# the packet came in on; they would then send ICMP redirects telling a to
# use c directly (or d to use b), which it cannot see. The kernel sends
# redirects if conf/all or conf/vlc0 asks for them: both are cleared.
for ns in b c; do
	ip netns exec $ns sysctl -qw net.ipv4.ip_forward=1
	ip netns exec $ns sysctl -qw net.ipv4.conf.all.send_redirects=0
	ip netns exec $ns sysctl -qw net.ipv4.conf.vlc0.send_redirects=0
done
ip -n a route add 10.0.0.3/32 via 10.0.0.2
ip -n a route add 10.0.0.4/32 via 10.0.0.2
ip -n b route add 10.0.0.4/32 via 10.0.0.3
ip -n c route add 10.0.0.1/32 via 10.0.0.2
ip -n d route add 10.0.0.1/32 via 10.0.0.3
ip -n d route add 10.0.0.2/32 via 10.0.0.3

# What the stacks of b and d receive, and from whom.
ip netns exec b tcpdump -i vlc0 -Q in -U -w /tmp/b.pcap 2>/dev/null &
tdb=$!
ip netns exec d tcpdump -i vlc0 -Q in -U -w /tmp/d.pcap 2>/dev/null &
tdd=$!
sleep 2
# Broadcasts from a (nobody answers them): b must get them, d must not.
ip netns exec a ping -b -c 2 -i 2 -W 1 10.0.0.255 >/dev/null 2>&1 || true

# First contact resolves three neighbours.
w0=$(now_ms)
v0=$(vnow_ms)
reach a 10.0.0.4 || fail "a never reached d"
echo "first ping a -> d after $(($(now_ms) - w0)) ms, virtual $(($(vnow_ms) - v0)) ms"

# Round trips per hop at real-time pacing, where the times ping
# reports are those of the simulated link.
sim set speed 100
w0=$(now_ms)
v0=$(vnow_ms)
for n in 2 3 4; do
	pings a 10.0.0.$n 2
done
echo "pacing: $(($(vnow_ms) - v0)) ms virtual in $(($(now_ms) - w0)) ms"
sim set speed 0

# ---- batman-adv: the mesh starts ----
# Its routes and tables take minutes to cross the line (see vlc.rst), so
# the mesh starts now and the forwarding test goes on over the same vlc0s
# in the meantime (batman-adv only takes its own ethertype from them).
modprobe batman-adv
# B.A.T.M.A.N. V: a route needs only the originator's OGMs to come
# through. IV also wants every node's own OGMs echoed by its neighbours,
# and the middle node's echoes are lost: a and c rebroadcast b's OGM at
# the same moment, hidden from each other.
batctl routing_algo BATMAN_V
# OGMs every 3 to 4.2 s and ELP every 2 s, not 1 s and 0.5 s: an OGM is
# 0.25 s on air and every node forwards every other's; ELP (0.12 s) comes
# sooner so that neighbours and their link metric are known when the
# first OGMs, which carry the translation tables, come by. The intervals
# differ by 0.4 s from node to node so that no two stay in step (batman's
# jitter, 20 ms, is far less than an OGM on air): OGMs of two hidden nodes
# that overlap once at the node between them would overlap every time.
# No aggregation: an aggregate of several OGMs is longer than the hidden
# node's beacon interval, and sure to be hit. No distributed ARP table:
# it sends an ARP request only to the three nodes whose hash is nearest
# the address, not necessarily its owner, and they know nothing of it
# before the owner has sent ARP itself.
n=1
for ns in a b c d; do
	ip netns exec $ns batctl meshif bat0 interface add vlc0
	ip netns exec $ns batctl meshif bat0 orig_interval $((2600 + 400 * n))
	ip netns exec $ns batctl meshif bat0 aggregation 0
	ip netns exec $ns batctl meshif bat0 distributed_arp_table 0
	ip netns exec $ns batctl hardif vlc0 elp_interval 2000
	ip -n $ns link set bat0 addrgenmode none
	ip -n $ns addr add 10.1.0.$n/24 dev bat0
	ip -n $ns link set bat0 up
	n=$((n + 1))
done
wb=$(now_ms)
vb=$(vnow_ms)
# batman-adv wants room for its header on vlc0 (it says how much) and
# meanwhile fragments what does not fit: bat0 keeps 1500 bytes.
dmesg | grep -o 'Setting the MTU to [0-9]*' | tail -n 1
expect "bat0 carries 1500-byte packets over vlc0's 1500" test \
	"$(ip netns exec a cat /sys/class/net/bat0/mtu) $(ip netns exec a cat /sys/class/net/vlc0/mtu) $(ip netns exec a batctl meshif bat0 fragmentation)" = "1500 1500 enabled"

# ---- IPv4 forwarding, with the mesh starting ----
pings a 10.0.0.4 10
expect "a -> d through b and c: 6 or more of 10 pings" test "$got" -ge 6
expect "every reply from d forwarded twice (ttl=62)" \
	test "$(grep -c ' ttl=62 ' /tmp/pings.out)" -eq "$got"
kill $tdb $tdd
wait $tdb $tdd || true
# senders PCAP: the source addresses in a capture
senders() {
	tcpdump -r "$1" -nn -e 2>/dev/null |
		awk '$1 ~ /^[0-9]+:[0-9]+:/ { print $2 }' | sort -u
}
heard_b=$(senders /tmp/b.pcap)
heard_d=$(senders /tmp/d.pcap)
printf 'senders heard by b: %s; by d: %s\n' "$(echo "$heard_b" | xargs)" \
	"$(echo "$heard_d" | xargs)"
expect "b hears a" sh -c "echo '$heard_b' | grep -qx $ma"
expect "d hears c and nobody else" test "$heard_d" = "$mc"
counters
echo "forwarding done after $(($(now_ms) - t0)) ms, virtual $(vnow_ms) ms"

# ---- batman-adv: the mesh found ----
# orig NS ORIG VIA: NS's best route to originator ORIG goes via VIA
orig() {
	ip netns exec "$1" batctl meshif bat0 originators -H |
		grep -Eq "^ *\* +$2 .* $3 \[ *vlc0\]"
}
# tt NS MAC: NS knows which originator the client MAC is behind
tt() {
	ip netns exec "$1" batctl meshif bat0 transglobal -H | grep -q "$2"
}
ba=$(ip netns exec a cat /sys/class/net/bat0/address)
bd=$(ip netns exec d cat /sys/class/net/bat0/address)
# Every route checked below: OGMs are broadcasts, never acknowledged, and
# one lost on air leaves a route out until the next (seen: a knew d via b
# but not yet c).
until orig a "$md" "$mb" && orig a "$mc" "$mb" && orig a "$mb" "$mb" &&
      orig d "$ma" "$mc" && tt a "$bd" && tt d "$ba"; do
	[ $(($(now_ms) - wb)) -lt 300000 ] || break
	sleep 0.5
done
echo "routes and translation tables a <-> d after $(($(now_ms) - wb)) ms, virtual $(($(vnow_ms) - vb)) ms"
for ns in a d; do
	echo "originators of $ns:"
	ip netns exec $ns batctl meshif bat0 originators -H
done
expect "a reaches d via b" orig a "$md" "$mb"
expect "a reaches c via b" orig a "$mc" "$mb"
expect "a reaches b directly" orig a "$mb" "$mb"
expect "d reaches a via c" orig d "$ma" "$mc"
expect "a finds d's bat0 behind originator d" sh -c \
	"ip netns exec a batctl meshif bat0 transglobal -H | grep '$bd' | grep -q '$md'"
expect "a's only neighbour is b" \
	test "$(ip netns exec a batctl meshif bat0 neighbors -H |
		grep -Eo '([0-9a-f]{2}:){5}[0-9a-f]{2}' | sort -u)" = "$mb"

w0=$(now_ms)
v0=$(vnow_ms)
reach a 10.1.0.4 || fail "a never reached d over bat0"
echo "first ping a -> d over bat0 after $(($(now_ms) - w0)) ms, virtual $(($(vnow_ms) - v0)) ms"
pings a 10.1.0.4 5
expect "a -> d over bat0: 3 or more of 5 pings" test "$got" -ge 3
expect "bat0 replies bridged, not routed (ttl=64)" \
	test "$(grep -c ' ttl=64 ' /tmp/pings.out)" -eq "$got"
counters
echo "done after $(($(now_ms) - t0)) ms, virtual $(vnow_ms) ms"
