# SPDX-License-Identifier: GPL-2.0
# Helpers for QEMU scenarios; sourced, runs in the guest under sh -eu.

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# expect DESCRIPTION COMMAND...: run, fail the scenario if it fails
expect() {
	d=$1
	shift
	if "$@"; then
		echo "ok - $d"
	else
		fail "$d"
	fi
}

# wait_until SECONDS CMD...: run CMD every 0.1 s until it succeeds;
# returns 1 once SECONDS of wall time have gone by without that.
wait_until() {
	wu_end=$(($(date +%s) + $1))
	shift
	until "$@"; do
		[ "$(date +%s)" -lt "$wu_end" ] || return 1
		sleep 0.1
	done
}

# sim_load [PARAM=VALUE...]: vlc.ko, and vlc_sim.ko with the PARAMs; the
# simulator runs as fast as the guest can (virtual time) unless speed=
# is among them.
sim_load() {
	vlc_load
	insmod "$VLC_MOD/vlc_sim.ko" speed=0 "$@"
}

# vlc_load: vlc.ko, after what insmod does not load for it: the kernel's
# Reed-Solomon library where it is a module (FEC off where it is absent)
vlc_load() {
	modprobe -q reed_solomon 2>/dev/null || :
	insmod "$VLC_MOD/vlc.ko"
}

# sim_unload: both again
sim_unload() {
	rmmod vlc_sim
	rmmod vlc
}

# vlc_pair [RX]: two simulated boards, vlc0 in namespaces a (10.0.0.1)
# and b (10.0.0.2), both up; with RX ("pd" or "led") both sense with it,
# set before the interfaces go up.
vlc_pair() {
	ip netns add a
	ip netns add b
	ip link add vlca type vlc
	ip link add vlcb type vlc
	if [ $# -gt 0 ]; then
		for d in vlca vlcb; do
			sim node "$d" rx "$1"
		done
	fi
	ip link set vlca netns a name vlc0
	ip link set vlcb netns b name vlc0
	ip -n a addr add 10.0.0.1/24 dev vlc0
	ip -n b addr add 10.0.0.2/24 dev vlc0
	ip -n a link set vlc0 up
	ip -n b link set vlc0 up
}

# wait_carrier NS SECONDS: until vlc0 in NS reports LOWER_UP
wait_carrier() {
	wait_until "$2" has_carrier "$1"
}

# has_carrier NS: vlc0 in NS reports LOWER_UP
has_carrier() {
	ip -n "$1" link show vlc0 | grep -q LOWER_UP
}

# ping_ok NS ADDR [TRIES]: an echo from NS to ADDR answered within TRIES
# pings (default 3) of 30 s each. ARP and ping time out on the guest's
# clock, and a loaded host's simulator may run behind it; a link that
# answers none gets its counters printed.
ping_ok() {
	po_t=${3:-3}
	while [ "$po_t" -gt 0 ]; do
		ip netns exec "$1" ping -c 1 -W 30 "$2" >/dev/null && return 0
		po_t=$((po_t - 1))
	done
	link_report >&2
	return 1
}

# link_report: vlc0's state, neighbours and non-zero counters in every
# netns, to tell a dead link from a slow one in a failed scenario's log
link_report() {
	for ns in $(ip netns list | cut -d' ' -f1); do
		echo "== $ns (virtual time $(vtime_s 2>/dev/null) s)"
		ip -n "$ns" -s link show vlc0 || :
		ip -n "$ns" neigh show dev vlc0 || :
		ip netns exec "$ns" ethtool -S vlc0 | grep -v ': 0$' || :
	done 2>&1 | sed 's/^/  | /'
}

# stat NS NAME: one counter of vlc0 in NS: ethtool -S's (phy_*, mac_*),
# or the interface's (ip -s link: rx_crc_errors, collisions...)
stat() {
	case "$2" in
	phy_* | mac_*)
		ip netns exec "$1" ethtool -S vlc0 | sed -n "s/^ *$2: //p" ;;
	*)
		ip netns exec "$1" cat "/sys/class/net/vlc0/statistics/$2" ;;
	esac
}

# sim ARGS...: vlcctl sim ARGS, in the initial netns (the medium's
# commands need CAP_NET_ADMIN there; they are the machine's)
sim() {
	"$(vlcctl_bin)" sim "$@"
}

# vtime_us: the simulator's virtual time in us; vtime_s: in seconds
vtime_us() {
	sim time
}

vtime_s() {
	echo $(($(sim time) / 1000000))
}

# tcp_transfer BYTES: send BYTES random bytes from a to b over TCP and
# compare sha256 on both sides; fails the scenario on a mismatch.
tcp_transfer() {
	# Both ends locked and ARP resolved first: on a loaded TCG host the
	# simulator may run slower than the wall clock TCP's timers use.
	wait_carrier a 60 || fail "no carrier on a"
	wait_carrier b 60 || fail "no carrier on b"
	ping_ok a 10.0.0.2 || fail "no ping before the transfer"
	head -c "$1" /dev/urandom >/tmp/tx.bin
	rm -f /tmp/rx.bin
	ip netns exec b socat -u TCP-LISTEN:5001,reuseaddr OPEN:/tmp/rx.bin,creat,trunc &
	lpid=$!
	# listening before a connects (a fixed sleep lost the race on a
	# loaded host: "Connection refused")
	wait_until 30 listening b 5001 || fail "socat not listening on b after 30 s"
	ip netns exec a socat -u OPEN:/tmp/tx.bin TCP:10.0.0.2:5001,connect-timeout=120 &
	spid=$!
	# bounded: a stalled stream fails with the sockets' and the link's
	# state, not at the scenario's timeout
	if ! wait_until 300 gone "$spid" || ! wait_until 60 gone "$lpid"; then
		for ns in a b; do
			echo "== TCP in $ns"
			ip netns exec "$ns" ss -tnio
		done 2>&1 | sed 's/^/  | /' >&2
		link_report >&2
		kill "$spid" "$lpid" 2>/dev/null || :
		fail "tcp transfer of $1 bytes stalled: not done after 300 s"
	fi
	wait "$spid" || fail "tcp transfer of $1 bytes: the sender failed"
	wait "$lpid" || fail "tcp transfer of $1 bytes: the receiver failed"
	tx=$(sha256sum </tmp/tx.bin)
	rx=$(sha256sum </tmp/rx.bin)
	[ "$tx" = "$rx" ] || fail "tcp transfer of $1 bytes corrupt or short ($(wc -c </tmp/rx.bin) bytes)"
	echo "ok - $1 bytes over TCP, sha256 matches"
}

# gone PID: background job PID has ended
gone() {
	! kill -0 "$1" 2>/dev/null
}

# listening NS PORT: a TCP socket in NS listens on PORT
listening() {
	ip netns exec "$1" ss -ltn | grep -q ":$2 "
}

# sim_dev_id DEV: the simulator's number of the node behind DEV
sim_dev_id() {
	ethtool -i "$1" | sed -n 's/^bus-info: vlc_sim\.//p'
}

# sim_id NS: the same for vlc0 in NS
sim_id() {
	ip netns exec "$1" ethtool -i vlc0 | sed -n 's/^bus-info: vlc_sim\.//p'
}

# sim_stat NS KEY: KEY of the node of vlc0 in NS, as vlcctl -j sim show
# reports it (bursts, rx_lit, rx, skew_ppm, ...)
sim_stat() {
	"$(vlcctl_bin)" -j sim show | python3 -c '
import json, sys
nodes = json.load(sys.stdin)["nodes"]
n = [n for n in nodes if n["netns"] == sys.argv[1] and n["dev"] == "vlc0"]
if len(n) != 1:
    sys.exit("%d nodes as vlc0 in %s" % (len(n), sys.argv[1]))
print(n[0][sys.argv[2]])' "$1" "$2"
}

# sim_gone ID: node ID is no longer on the medium
sim_gone() {
	"$(vlcctl_bin)" -j sim show | python3 -c '
import json, sys
sys.exit(int(sys.argv[1]) in [n["id"] for n in json.load(sys.stdin)["nodes"]])' "$1"
}

# sim_count: the nodes on the medium
sim_count() {
	"$(vlcctl_bin)" -j sim show | python3 -c '
import json, sys
print(len(json.load(sys.stdin)["nodes"]))'
}

# sim_empty: no node is left on the medium
sim_empty() {
	[ "$(sim_count)" -eq 0 ]
}

# wait_vtime_ms MS: until the simulator's virtual time has gone MS ms on;
# fails the scenario after 120 s of wall time.
wait_vtime_ms() {
	wait_until 120 vtime_past $(($(sim time) + $1 * 1000)) ||
		fail "virtual time stuck"
}

# phy_frames MS: the vlc:vlc_phy_frame tracepoint of every node over MS
# ms of virtual time, as the trace prints it
phy_frames() {
	tr=/sys/kernel/tracing
	echo >$tr/trace
	echo 1 >$tr/events/vlc/vlc_phy_frame/enable
	wait_vtime_ms "$1"
	echo 0 >$tr/events/vlc/vlc_phy_frame/enable
	cat $tr/trace
}

# vtime_past US: the simulator's virtual time is at US or later
vtime_past() {
	[ "$(sim time)" -ge "$1" ]
}

# udp_flood NS ADDR: in the background, 200 UDP datagrams a second of 16
# bytes (58-byte frames) from NS to ADDR, port 9. ping -f adapts to the
# replies and rarely fills the queues; this does, until the qdisc refuses
# (ENOBUFS, ignored). Its pid in $flood_pid.
udp_flood() {
	ip netns exec "$1" python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
while True:
    try:
        s.sendto(bytes(16), (sys.argv[1], 9))
    except OSError:
        pass
    time.sleep(0.005)
' "$2" &
	flood_pid=$!
}

# vlc_net N: N simulated boards, vlc0 in namespaces n1..nN with
# 10.0.0.1..N/24, all up and in view of each other.
vlc_net() {
	i=1
	while [ "$i" -le "$1" ]; do
		ip netns add "n$i"
		ip link add "vlcn$i" type vlc
		ip link set "vlcn$i" netns "n$i" name vlc0
		ip -n "n$i" addr add "10.0.0.$i/24" dev vlc0
		ip -n "n$i" link set vlc0 up
		i=$((i + 1))
	done
}

# vlcctl_bin: path of vlcctl; the host builds it into build/<arch>/tools
# (make tools); with BUILD= outside the checkout it is built here.
vlcctl_bin() {
	b=$VLC_SRC/build/$(uname -m)/tools/vlcctl
	if [ ! -x "$b" ]; then
		b=/tmp/vlcctl
		[ -x "$b" ] || cc -O2 -I"$VLC_SRC/include/uapi" -o "$b" \
			"$VLC_SRC"/tools/vlcctl/*.c -lmnl ||
			fail "no vlcctl: run make tools on the host"
	fi
	echo "$b"
}

# ctl NS ARGS...: vlcctl (the path in $vlcctl, see vlcctl_bin) in netns
# NS ("-" for the initial one); nsenter, lighter than ip netns exec (no
# mount namespace, no sysfs to mount)
ctl() {
	ns=$1
	shift
	if [ "$ns" = - ]; then
		"$vlcctl" "$@"
	else
		nsenter --net="/run/netns/$ns" "$vlcctl" "$@"
	fi
}

# sim_nodes NS...: one simulated board per name, its vlc0 in a new
# namespace NS, down and without addresses. Every node sees every other
# until edges say otherwise.
sim_nodes() {
	for sn_ns in "$@"; do
		ip netns add "$sn_ns"
		ip link add "vlc_$sn_ns" type vlc
		ip link set "vlc_$sn_ns" netns "$sn_ns" name vlc0
	done
}

# sim_line NS...: sim_nodes, then the edges cut both ways between nodes
# that are not next to each other in the list: each sees only its
# neighbours, NS1 - NS2 - ... - NSn.
sim_line() {
	sim_nodes "$@"
	sl_i=0
	for sl_x in "$@"; do
		sl_i=$((sl_i + 1))
		sl_j=0
		for sl_y in "$@"; do
			sl_j=$((sl_j + 1))
			[ $sl_j -gt $((sl_i + 1)) ] || continue
			sim edge "$sl_x/vlc0" "$sl_y/vlc0" gain 0 both
		done
	done
}
