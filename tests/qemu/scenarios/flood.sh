#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vlc-smp: 2
# The transmit ring under a flood: a broadcasts 512-byte datagrams and b
# sends them to a, each from a socket with a small send buffer, so that
# the ring between the stack and the MAC stays nearly full and the queue
# stops and wakes around every packet the MAC takes, while the frames
# are traced. No kernel report (a wake while the ring was full again let
# the stack overwrite a slot, and the MAC freed its skb twice), and every
# packet the qdisc handed to a driver is accounted for once, within
# 120 s of virtual time of the flood's end: sent, failed or dropped.
. "$VLC_SRC/tests/qemu/lib.sh"

sim_load
vlc_pair
wait_carrier a 60 || fail "no carrier on a"
wait_carrier b 60 || fail "no carrier on b"
ping_ok a 10.0.0.2 || fail "no first ping"

cat >/tmp/flood.py <<'PY'
import os, socket, sys

s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
# A small send buffer blocks the sender with the ring nearly full: the
# queue then stops and wakes around every packet the MAC takes.
s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8192)
while True:
    try:
        s.sendto(os.urandom(int(sys.argv[2])), (sys.argv[1], 9))
    except OSError:
        pass	# ENOBUFS while the qdisc is full: try again
PY

# qdisc NS: "sent backlog" of vlc0's root qdisc, in packets
qdisc() {
	ip netns exec "$1" tc -s qdisc show dev vlc0 |
		sed -n 's/.*Sent [0-9]* bytes \([0-9]*\) pkt.*/\1/p
			s/.*backlog [0-9]*b \([0-9]*\)p.*/\1/p' | tr '\n' ' '
}

# link NS: tx_packets + tx_errors + tx_dropped of vlc0 (ip -s link)
link() {
	ip -n "$1" -s link show vlc0 | awk '/TX:/ { getline; print $2 + $3 + $4 }'
}

# sent NS: packets the qdisc handed to vlc0's driver
sent() {
	q=$(qdisc "$1")
	echo "${q%% *}"
}

flooded() {
	[ "$(sent a)" -ge 200 ] && [ "$(sent b)" -ge 200 ]
}

# conserved NS: the qdisc is empty and the driver accounted for all it
# was handed
conserved() {
	q=$(qdisc "$1")
	[ "${q#* }" = "0 " ] && [ "$(link "$1")" -eq "${q%% *}" ]
}

# with the frames traced, as one would watch a loaded link: the reader
# is load the executor and NAPI share the CPUs with
tr=/sys/kernel/tracing
echo 1 >$tr/events/vlc/vlc_phy_frame/enable
cat $tr/trace_pipe >/dev/null &
cp=$!
ip netns exec a python3 /tmp/flood.py 10.0.0.255 512 &
fa=$!
ip netns exec b python3 /tmp/flood.py 10.0.0.1 512 &
fb=$!
# until each side has handed 200 packets to its driver, for 60 s at
# most: a loaded host gets through a fraction of that
wait_until 60 flooded || true
kill $fa $fb
echo 0 >$tr/events/vlc/vlc_phy_frame/enable
kill $cp
wait 2>/dev/null || true
for ns in a b; do
	echo "$ns: qdisc sent/backlog $(qdisc $ns), driver $(link $ns)"
	expect "$ns: the flood reached the driver" test "$(sent $ns)" -ge 20
done
# The rings drain in seconds of virtual time, on a loaded host in more
# of wall time: the wait is in virtual time (120 s), within 600 s of
# wall time. Every packet is then accounted for, none held, and none
# counted twice (a slot written twice was sent twice).
# The driver's count is read first: the stack still sends now and then
# (neighbour refreshes), and a packet reaches the qdisc's count before
# the driver's, so a later driver count could take one the earlier
# qdisc count had not.
# drained NS V0: conserved, or 120 s of virtual time past V0
drained() {
	conserved "$1" || [ $(($(vtime_s) - $2)) -ge 120 ]
}
for ns in a b; do
	v0=$(vtime_s)
	wait_until 600 drained $ns "$v0" || true
	# a packet the stack sends meanwhile is counted by the qdisc and by
	# the driver a moment apart: a look between them is no leak
	expect "$ns: every packet handed to the driver accounted for within 120 s of virtual time ($(($(vtime_s) - v0)) s)" \
		wait_until 10 conserved $ns
	d=$(link $ns)
	q=$(qdisc $ns)
	echo "$ns: qdisc sent/backlog $q, driver $d"
	expect "$ns: no packet accounted for twice" test "$d" -le "${q%% *}"
done
ip -n a -s link show vlc0
