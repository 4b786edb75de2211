#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Goodput and latency of the MAC over the simulator on a clean channel.
# Runs in the QEMU guest (tools/bench/run.sh starts it with
#   tests/qemu/run.sh --show tools/bench/net-bench.sh [UDP_COUNT TCP_BYTES
#   [MTU...]]
# ) and prints "BENCH key value" lines for run.sh to put in the doc.
# UDP and TCP run at each MTU (default 1500 576; keys udp_*, tcp_* for
# 1500, udpMTU_*, tcpMTU_* for the others); pings with 56 and 1000 bytes
# of data; then the CPU time of the guest with the link idle and loaded.
#
# Throughput is measured in virtual time (vlc_sim speed=0, read over
# netlink: tests/qemu/simtime.py, "vlcctl sim time"), so
# the guest's speed under TCG does not enter: goodput = payload bits
# delivered / virtual seconds / raw PHY bit rate (2000 bit/s in 2-slot
# mode). Echo RTT is taken in virtual time at speed=0 and at speed=100
# (real time): at speed=0 the virtual clock runs on while the guest's
# stack turns the echo around, at speed=100 that costs what it costs on a
# board. ping's own (wall clock) figures at speed=100 and the virtual/wall
# clock ratio of that run are printed too.
. "$VLC_SRC/tests/qemu/lib.sh"

udp_n=${1:-12}
tcp_bytes=${2:-32768}
shift 2 2>/dev/null || shift $#
mtus=${*:-1500 576}
# vtime_ns: the simulator's virtual time, ns
vtime_ns() { echo $(($(sim time) * 1000)); }
raw_bps=2000

# Counters of both nodes: "NAME_a NAME_b" pairs, for the breakdown.
counters() {
	for c in phy_frames phy_symbols_tx mac_tx_fragments mac_tx_retries \
		mac_tx_frames mac_tx_bytes_air mac_backoffs collisions \
		mac_tx_beacons rx_crc_errors mac_rx_erasure_aborts; do
		echo "$c $(stat a $c) $(stat b $c)"
	done
}

# delta FILE_BEFORE FILE_AFTER PREFIX: print "BENCH PREFIX_NAME_a|b delta"
delta() {
	paste "$1" "$2" | awk -v p="$3" \
		'{ printf "BENCH %s_%s_a %d\nBENCH %s_%s_b %d\n", p, $1, $5 - $2, p, $1, $6 - $3 }'
}

cat >/tmp/nb.py <<'PY'
import os, socket, sys, time

sys.path.insert(0, os.path.join(os.environ["VLC_SRC"], "tests/qemu"))
import simtime

vtime = simtime.Clock().ns


def udp_recv(port, count, timeout):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0", port))
    s.settimeout(timeout)
    times, nbytes = [], []
    try:
        while len(times) < count:
            d = s.recv(65536)
            times.append(vtime())
            nbytes.append(len(d))
    except socket.timeout:
        pass
    # Steady state: from the first datagram's arrival to the last one's,
    # so the payload of datagrams 2..n is what crossed in that time.
    print("BENCH udp_received %d" % len(times))
    if len(times) >= 2:
        gaps = [b - a for a, b in zip(times, times[1:])]
        print("BENCH udp_bytes %d" % sum(nbytes[1:]))
        print("BENCH udp_vns %d" % (times[-1] - times[0]))
        # inter-arrival times in PHY frames of 500 us
        print("BENCH udp_gap_min %d" % (min(gaps) // 500000))
        print("BENCH udp_gap_max %d" % (max(gaps) // 500000))


def udp_send(host, port, count, size):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    # A small send buffer blocks the sender instead of overflowing the
    # qdisc: a few datagrams wait in the stack, none is dropped.
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8192)
    for i in range(count):
        s.sendto(bytes([i & 0xff]) * size, (host, port))


def csum(b):
    s = sum(int.from_bytes(b[i:i + 2], "big") for i in range(0, len(b), 2))
    s = (s >> 16) + (s & 0xffff)
    s += s >> 16
    return ~s & 0xffff


def echo(host, count, interval, tag, size):
    # ICMP echo with SIZE bytes of data, as ping -s sends (56: 64-byte
    # ICMP message, 84-byte IPv4 packet, 98-byte Ethernet frame). The RTT
    # is taken in virtual time, from sendto() to the reply's arrival.
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
    s.settimeout(30)
    ident, rtts = os.getpid() & 0xffff, []
    for seq in range(1, count + 1):
        body = bytes(size)
        hdr = bytes([8, 0, 0, 0]) + ident.to_bytes(2, "big") + \
            seq.to_bytes(2, "big")
        c = csum(hdr + body)
        msg = hdr[:2] + c.to_bytes(2, "big") + hdr[4:] + body
        t0 = vtime()
        s.sendto(msg, (host, 0))
        try:
            while True:
                d = s.recv(4096)
                ihl = (d[0] & 15) * 4
                if d[ihl] == 0 and \
                   int.from_bytes(d[ihl + 4:ihl + 6], "big") == ident and \
                   int.from_bytes(d[ihl + 6:ihl + 8], "big") == seq:
                    rtts.append(vtime() - t0)
                    break
        except socket.timeout:
            pass
        time.sleep(interval)
    print("BENCH %s_received %d" % (tag, len(rtts)))
    if rtts:
        print("BENCH %s_min_us %d" % (tag, min(rtts) // 1000))
        print("BENCH %s_avg_us %d" % (tag, sum(rtts) // len(rtts) // 1000))
        print("BENCH %s_max_us %d" % (tag, max(rtts) // 1000))


if sys.argv[1] == "recv":
    udp_recv(int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]))
elif sys.argv[1] == "echo":
    echo(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), sys.argv[5],
         int(sys.argv[6]) if len(sys.argv) > 6 else 56)
else:
    udp_send(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
PY

echo "== clean channel, virtual time (vlc_sim speed=0)"
sim_load
vlc_pair
wait_carrier a 60 || fail "no carrier on a"
wait_carrier b 60 || fail "no carrier on b"
ip netns exec a ping -c 1 -W 60 10.0.0.2 >/dev/null || fail "no first ping"
# Static neighbours from here on: ARP refreshes (a unicast probe every
# half minute or so, each waiting behind the MTU frames queued in the
# driver) would otherwise share the air with what is measured.
lladdr() {
	ip -n "$1" link show vlc0 | sed -n 's|.*link/ether \([0-9a-f:]*\).*|\1|p'
}
ip -n a neigh replace 10.0.0.2 lladdr "$(lladdr b)" dev vlc0 nud permanent
ip -n b neigh replace 10.0.0.1 lladdr "$(lladdr a)" dev vlc0 nud permanent
echo "BENCH raw_bps $raw_bps"
echo "BENCH mtu $(ip -n a link show vlc0 | sed -n 's/.* mtu \([0-9]*\).*/\1/p')"

# UDP bulk, MTU - 28 bytes of payload per datagram, then TCP: bytes over
# the virtual time from connect to the receiver's close.
for mtu in $mtus; do
	u=udp t=tcp
	[ "$mtu" = 1500 ] || u=udp$mtu t=tcp$mtu
	ip -n a link set vlc0 mtu "$mtu"
	ip -n b link set vlc0 mtu "$mtu"
	echo "BENCH ${u}_mtu $(ip -n a link show vlc0 | sed -n 's/.* mtu \([0-9]*\).*/\1/p')"
	counters >/tmp/c0
	ip netns exec b python3 /tmp/nb.py recv 5003 "$udp_n" 120 \
		>/tmp/udp.out &
	rpid=$!
	sleep 0.5
	ip netns exec a python3 /tmp/nb.py send 10.0.0.2 5003 "$udp_n" $((mtu - 28))
	wait $rpid
	counters >/tmp/c1
	sed "s/^BENCH udp_/BENCH ${u}_/" /tmp/udp.out
	delta /tmp/c0 /tmp/c1 "$u"
	grep -q "BENCH udp_vns" /tmp/udp.out ||
		fail "UDP at MTU $mtu: fewer than 2 datagrams arrived"

	ip netns exec a ping -c 1 -W 60 10.0.0.2 >/dev/null ||
		fail "no ping before TCP"
	head -c "$tcp_bytes" /dev/urandom >/tmp/tx.bin
	rm -f /tmp/rx.bin
	ip netns exec b socat -u TCP-LISTEN:5001,reuseaddr \
		OPEN:/tmp/rx.bin,creat,trunc &
	lpid=$!
	sleep 0.5
	counters >/tmp/c0
	v0=$(vtime_ns)
	ip netns exec a socat -u OPEN:/tmp/tx.bin \
		TCP:10.0.0.2:5001,connect-timeout=120
	wait $lpid
	v1=$(vtime_ns)
	counters >/tmp/c1
	[ "$(sha256sum </tmp/tx.bin)" = "$(sha256sum </tmp/rx.bin)" ] ||
		fail "TCP transfer at MTU $mtu corrupt or short"
	echo "BENCH ${t}_bytes $tcp_bytes"
	echo "BENCH ${t}_vns $((v1 - v0))"
	delta /tmp/c0 /tmp/c1 "$t"
done
ip -n a link set vlc0 mtu 1500
ip -n b link set vlc0 mtu 1500

# Echo RTT in virtual time at speed=0: includes the virtual time that runs
# on while the guest's stack turns the echo around.
ip netns exec a python3 /tmp/nb.py echo 10.0.0.2 10 0.2 rtt0 56

# Ping at real-time pacing: 64-byte ICMP payload, 98-byte Ethernet frame.
echo "== ping at real time (vlc_sim speed=100)"
sim set speed 100
sleep 2
ip netns exec a python3 /tmp/nb.py echo 10.0.0.2 10 1 rtt100 56
# 1000 bytes of data: 1028-byte IPv4 packet, 1042-byte Ethernet frame
ip netns exec a python3 /tmp/nb.py echo 10.0.0.2 5 1 rtt1000 1000
counters >/tmp/c0
v0=$(vtime_ns)
w0=$(date +%s%N)
ip netns exec a ping -c 10 -i 2 -W 10 -s 56 10.0.0.2 >/tmp/ping.out || true
w1=$(date +%s%N)
v1=$(vtime_ns)
counters >/tmp/c1
tail -n 2 /tmp/ping.out
delta /tmp/c0 /tmp/c1 ping
echo "BENCH ping_received $(sed -n 's/.* \([0-9]*\) received.*/\1/p' /tmp/ping.out)"
sed -n 's|^rtt min/avg/max/mdev = \([0-9.]*\)/\([0-9.]*\)/\([0-9.]*\)/.*|BENCH ping_min_ms \1\nBENCH ping_avg_ms \2\nBENCH ping_max_ms \3|p' /tmp/ping.out
echo "BENCH ping_pace_permille $(((v1 - v0) / ((w1 - w0) / 1000)))"

# CPU time of the guest at real-time pacing: all cores from /proc/stat
# (user nice system idle iowait irq softirq), and the simulator's thread
# (it runs every node's PHY and MAC), over 10 s idle, then 10 s of UDP.
cpu_busy() {
	awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat
}
sim_ticks() {
	p=$(pgrep -x vlc_sim | head -1)
	awk '{ print $14 + $15 }' "/proc/$p/stat"
}
cpu_window() {	# TAG: print busy and sim shares of one core, per mille
	tag=$1
	set -- $(cpu_busy) $(sim_ticks)
	b0=$1 t0=$2 s0=$3
	w0=$(date +%s%N)
	sleep 10
	set -- $(cpu_busy) $(sim_ticks)
	w1=$(date +%s%N)
	hz=$(getconf CLK_TCK)
	ms=$(((w1 - w0) / 1000000))
	echo "BENCH cpu_${tag}_busy_permille $(( ($1 - b0) * 1000000 / hz / ms ))"
	echo "BENCH cpu_${tag}_sim_permille $(( ($3 - s0) * 1000000 / hz / ms ))"
	echo "BENCH cpu_${tag}_total_permille $(( ($2 - t0) * 1000000 / hz / ms ))"
}
echo "BENCH cpu_ncpu $(nproc)"
cpu_window idle
ip netns exec b python3 /tmp/nb.py recv 5009 1000 30 >/dev/null &
rpid=$!
ip netns exec a python3 /tmp/nb.py send 10.0.0.2 5009 200 1472 &
spid=$!
sleep 2
cpu_window udp
kill $spid $rpid 2>/dev/null || true
wait $spid $rpid 2>/dev/null || true
