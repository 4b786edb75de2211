#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Symbol error rate of vlc_sim's medium under the driver's own PHY and
# MAC, in the QEMU guest; the host counterpart is link_bench simser, with
# the same parameters. tools/bench/run.sh starts it with
#   tests/qemu/run.sh --show tools/bench/ser-sim.sh AMBIENT FRAMES \
#	SEED:NOISE...
# For each SEED:NOISE, vlc_sim is loaded with that seed and AMBIENT; two
# nodes lock at the default noise, the noise is raised, and a floods b
# with broadcast UDP of random bytes (group frames: no RTS, no ACK, so a
# sends in most frames and idles between them). For FRAMES frames of
# virtual time the vlc:vlc_phy_frame tracepoint pairs each symbol a sent
# (tx=) with b's decision in the same frame (sym=), as link_bench pairs
# them on the host simulator. Prints "BENCH ser SEED NOISE symbols errors
# frames": symbols a sent that b could hear, how many b decided wrong,
# and b's frames in the trace.
. "$VLC_SRC/tests/qemu/lib.sh"

amb=$1
frames=$2
shift 2
tr=/sys/kernel/tracing
ev=$tr/events/vlc/vlc_phy_frame

cat >/tmp/flood.py <<'PY'
import os, socket

s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
# a small send buffer blocks the sender instead of dropping datagrams
s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8192)
s.sendto(os.urandom(512), ("10.0.0.255", 9))
open("/tmp/flood.on", "w").close()
while True:
    s.sendto(os.urandom(512), ("10.0.0.255", 9))
PY

# Pair the two nodes' frames: the transmitter is the node that sent the
# most; a frame of the other (which did not send in it) is matched with
# the transmitter's frame that starts within half a frame of it.
cat >/tmp/ser.py <<'PY'
import re, sys

frame_ns = int(sys.argv[1])
ev = re.compile(r"vlc_phy_frame: \S+/(\d+) start=(\d+) sym=(-?\d+) tx=(-?\d+)")
frames = {}
for line in sys.stdin:
    m = ev.search(line)
    if m:
        node, start, sym, tx = (int(g) for g in m.groups())
        frames.setdefault(node, []).append((start, sym, tx))
sent = {n: sum(1 for f in fr if f[2] >= 0) for n, fr in frames.items()}
if len(sent) != 2:
    print("0 0 0")
    sys.exit(0)
a, b = sorted(sent, key=lambda n: -sent[n])
t0 = frames[a][0][0]
tx = {(s - t0 + frame_ns // 2) // frame_ns: (s, t) for s, _, t in frames[a]}
symbols = errors = 0
for s, sym, own in frames[b]:
    k = (s - t0 + frame_ns // 2) // frame_ns
    if own >= 0 or k not in tx or abs(tx[k][0] - s) >= frame_ns // 2:
        continue
    if tx[k][1] < 0:
        continue
    symbols += 1
    errors += sym != tx[k][1]
print("%d %d %d" % (symbols, errors, len(frames[b])))
PY

for run; do
	seed=${run%%:*}
	noise=${run#*:}
	sim_load ambient="$amb" seed="$seed"
	vlc_pair
	wait_carrier a 300 || fail "no carrier on a"
	wait_carrier b 300 || fail "no carrier on b"
	sim set noise "$noise"
	rm -f /tmp/flood.on
	ip netns exec a python3 /tmp/flood.py &
	fpid=$!
	# python starts slower than the simulator runs: the flood's first
	# datagram, then a second of virtual time for the queue to fill
	wait_until 120 test -e /tmp/flood.on || fail "no flood"
	wait_vtime_ms 1000
	echo >$tr/trace
	echo 1 >$ev/enable
	cat $tr/trace_pipe >/tmp/ser.trace &
	cpid=$!
	end=$(($(sim time) + frames * 500))
	wait_until 3600 vtime_past $end || fail "virtual time stuck"
	echo 0 >$ev/enable
	kill $fpid
	sleep 1
	kill $cpid
	wait 2>/dev/null || true
	echo "BENCH ser $seed $noise $(python3 /tmp/ser.py 500000 </tmp/ser.trace)"
	# down first: the queues a flood leaves would hold the devices
	ip -n a link set vlc0 down
	ip -n b link set vlc0 down
	ip netns del a
	ip netns del b
	wait_until 120 sim_empty ||
		fail "nodes not removed"
	sim_unload
done
