#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Background chatter: what two boards send on vlc0 in the first 30 s after
# it comes up with an IPv4 address and nothing asked of them. First as
# the kernel configures a new interface by default (an IPv6 link-local
# address: duplicate address detection, router solicitations, multicast
# listener reports), then with what tools/network/vlc0.network sets
# (LinkLocalAddressing=no, IPv6AcceptRA=no: addrgenmode none, accept_ra
# 0), which must leave the light silent. What each kernel sends is counted
# by kind from captures of vlc0's outgoing frames in a and b, with the
# simulator in real time; the captures stay in the results folder.
# vlc-timeout: 400
. "$VLC_SRC/tests/qemu/lib.sh"

secs=30
sim_load
# The kernels' timers run in real time: so does the light here.
echo 100 >/sys/module/vlc_sim/parameters/speed

# boards QUIET: namespaces a and b, each with a simulated board's vlc0,
# the shipped settings first if QUIET is 1; up, then capture what a and b
# send until $secs s after both have carrier.
boards() {
	sim_nodes a b
	ip -n a addr add 10.0.0.1/24 dev vlc0
	ip -n b addr add 10.0.0.2/24 dev vlc0
	for n in a b; do
		[ "$1" = 0 ] && continue
		ip -n $n link set vlc0 addrgenmode none
		ip netns exec $n sh -c \
			'echo 0 >/proc/sys/net/ipv6/conf/vlc0/accept_ra'
	done
	# IPv6 waits for the carrier, which comes with the lock: nothing is
	# sent before the captures start.
	ip -n a link set vlc0 up
	ip -n b link set vlc0 up
	ip netns exec a tcpdump -i vlc0 -Q out -n -U -w "/tmp/a-$1.pcap" 2>/dev/null &
	ta=$!
	ip netns exec b tcpdump -i vlc0 -Q out -n -U -w "/tmp/b-$1.pcap" 2>/dev/null &
	tb=$!
	expect "a locks to b" wait_carrier a 60
	expect "b locks to a" wait_carrier b 60
	sleep $secs
	kill $ta $tb
	wait $ta $tb 2>/dev/null || true
	cp "/tmp/a-$1.pcap" "/tmp/b-$1.pcap" "$VLC_OUT/"
	ip netns del a
	ip netns del b
	# the namespaces go away in the background, their boards with them
	i=0
	while ls -d /sys/kernel/debug/vlc_sim/[0-9]* >/dev/null 2>&1; do
		[ $i -lt 300 ] || fail "simulated boards left after ip netns del"
		sleep 0.1
		i=$((i + 1))
	done
}

# text QUIET: the frames a and b sent, one line each
text() {
	for n in a b; do
		tcpdump -r "/tmp/$n-$1.pcap" -n -e 2>/dev/null
	done
}

# kind QUIET PATTERN: how many of them match PATTERN
kind() {
	text "$1" | grep -c -E "$2" || true
}

report() {
	all=$(kind "$1" '.')
	bytes=$(text "$1" |
		sed -n 's/.*, length \([0-9]*\):.*/\1/p' |
		awk '{ s += $1 } END { print s + 0 }')
	echo "$2: $all frames, $bytes bytes in ${secs} s after carrier:" \
		"$(kind "$1" 'neighbor solicitation') neighbour solicitations," \
		"$(kind "$1" 'router solicitation') router solicitations," \
		"$(kind "$1" 'multicast listener report') multicast listener reports," \
		"$(kind "$1" 'ARP') ARP"
}

boards 0
report 0 "default"
expect "by default, the kernel's IPv6 autoconfiguration is on the air" \
	test "$(kind 0 'router solicitation')" -ge 1 -a \
	"$(kind 0 'multicast listener report')" -ge 1
boards 1
report 1 "with vlc0.network's settings"
expect "with vlc0.network's settings, nothing is on the air" \
	test "$(kind 1 '.')" = 0
