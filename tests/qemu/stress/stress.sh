#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Stress: load, module reloads, link flaps, device and namespace removal
# under traffic, then no leak (kmemleak) and consistent counters. Meant
# for the sanitizer kernel (make stress: KASAN, UBSAN, lockdep, kmemleak);
# run.sh fails the run on any kernel report. Figures go to
# $VLC_OUT/figures.txt. Arguments NAME=VALUE set the sizes:
#
#   nodes=8      simulated boards in view of each other for the load step
#   pings=100    flood-ping echoes each pinging pair must get back
#   tcp=4000     bytes per TCP transfer
#   reload=100   module unload/load cycles under traffic
#   flaps=1000   link down/up cycles under traffic
#   removals=10  device removals with frames in flight
#   netns=10     namespace deletions with a live device inside
#   kmemleak=1   0: skip the leak check (a kernel without kmemleak)
# vlc-timeout: 10800
. "$VLC_SRC/tests/qemu/lib.sh"
. "$VLC_SRC/tests/kreports.sh"

nodes=8 pings=100 tcp=4000 reload=100 flaps=1000 removals=10 netns=10
kmemleak=1
for a in "$@"; do
	case "$a" in
	nodes=* | pings=* | tcp=* | reload=* | flaps=* | removals=* | \
	netns=* | kmemleak=*) ;;
	*) fail "unknown argument $a" ;;
	esac
	case "${a#*=}" in
	'' | *[!0-9]*) fail "not a number: $a" ;;
	esac
	eval "$a"
done
[ "$nodes" -ge 2 ] && [ $((nodes % 2)) -eq 0 ] || fail "nodes must be even"

kl=/sys/kernel/debug/kmemleak
fig=$VLC_OUT/figures.txt
: >"$fig"
now_ms() { echo $(($(date +%s%N) / 1000000)); }
vnow_ms() { echo $(($(sim time) / 1000)); }
# figure NAME VALUE: one result line, kept for vlc-stress.rst
figure() {
	echo "figure: $1: $2"
	echo "$1: $2" >>"$fig"
}
# step NAME: start a timed step; step_end reports its wall time
step() {
	st_name=$1
	st_t0=$(now_ms)
	echo "== $1"
}
step_end() {
	figure "$st_name wall time" "$(($(now_ms) - st_t0)) ms"
	splat_check "$st_name"
}
# splat_check STEP: stop at the step that caused a kernel report
splat_check() {
	if dmesg | grep -Eq "$kreports"; then
		dmesg | grep -E -A 20 "$kreports" | head -n 60
		fail "kernel report during $1"
	fi
}

# node K: board nK in namespace nI, 10.0.0.K/24, up; no IPv6
# autoconfiguration (seconds of airtime, see vlc.rst); odd K with
# forward error correction (fec auto), even K without. The namespace
# is made if missing. A sender's socket outlives socat as an orphan,
# which the kernel kills after tcp_orphan_retries retransmissions (a
# reset the listener sees, or a connection gone before it was accepted):
# on a link that two flood pings keep full, the most it allows.
node() {
	if [ ! -e "/run/netns/n$1" ]; then
		ip netns add "n$1"
		ip netns exec "n$1" sysctl -qw net.ipv4.tcp_orphan_retries=15
	fi
	ip link add "vlcn$1" type vlc
	ip link set "vlcn$1" netns "n$1" name vlc0
	ip -n "n$1" link set vlc0 addrgenmode none
	ip -n "n$1" addr add "10.0.0.$1/24" dev vlc0
	if [ $(($1 % 2)) -eq 1 ]; then
		ip netns exec "n$1" "$(vlcctl_bin)" set vlc0 fec auto ||
			fail "n$1: fec auto refused"
	fi
	ip -n "n$1" link set vlc0 up
}
# sim_has N: the simulator has N nodes
sim_has() {
	[ "$(sim_count)" -eq "$1" ]
}
# wait_sim_count N: until the simulator has N nodes, 30 s at most
wait_sim_count() {
	wait_until 30 sim_has "$1"
}
# ping_summary FILE: "transmitted received" of a ping output
ping_summary() {
	sed -n 's/^\([0-9]*\) packets transmitted, \([0-9]*\) received.*/\1 \2/p' "$1"
}
# sysstat NS NAME: a counter of /sys/class/net/vlc0/statistics in NS
sysstat() {
	ip netns exec "$1" cat "/sys/class/net/vlc0/statistics/$2"
}

if [ "$kmemleak" = 1 ]; then
	[ -w $kl ] || fail "no $kl: boot the stress kernel (make stress)"
	# Leak suspects from boot are not ours: report them, then forget.
	echo scan >$kl
	cat $kl >"$VLC_OUT/kmemleak-boot.txt"
	echo clear >$kl
	figure "kmemleak suspects at start (boot, cleared)" \
		"$(grep -c '^unreferenced object' "$VLC_OUT/kmemleak-boot.txt" || true)"
fi
t_all=$(now_ms)
# Should the guest hang: the kernel log as it comes, and every 60 s the
# tasks with where they wait.
dmesg -w >"$VLC_OUT/dmesg-live.txt" 2>&1 &
(
	while sleep 60; do
		ps -eo pid,stat,wchan:32,args >"$VLC_OUT/ps.txt"
	done
) &

# ---- 1. load: flood ping and TCP between pairs of $nodes boards ----
step "load"
sim_load
k=1
while [ $k -le "$nodes" ]; do
	node $k
	k=$((k + 1))
done
k=1
while [ $k -le "$nodes" ]; do
	expect "carrier on n$k" wait_carrier "n$k" 120
	k=$((k + 1))
done
# Neighbours first, one pair at a time: the ARP broadcasts of all pairs
# at once only collide.
p=1
while [ $p -le $((nodes / 2)) ]; do
	s=$((2 * p - 1))
	d=$((2 * p))
	ping_ok "n$s" "10.0.0.$d" || fail "no first ping n$s -> n$d"
	p=$((p + 1))
done
v0=$(vnow_ms)
# Odd pairs send TCP, even pairs flood-ping, all at once, all in view.
pids=""
lpids=""
p=1
while [ $p -le $((nodes / 2)) ]; do
	s=$((2 * p - 1))
	d=$((2 * p))
	if [ $((p % 2)) = 1 ]; then
		head -c "$tcp" /dev/urandom >"/tmp/tx.$s"
		rm -f "/tmp/rx.$d"
		# A sender that gave up must not leave the receiver waiting
		# forever: -T while connected, accept-timeout before.
		ip netns exec "n$d" socat -d -d -u -T 1800 \
			TCP-LISTEN:5000,reuseaddr,accept-timeout=3600 \
			"OPEN:/tmp/rx.$d,creat,trunc" 2>"/tmp/socat.$d" &
		lpids="$lpids $!:listener-n$d"
		wait_until 60 listening "n$d" 5000 ||
			fail "socat not listening in n$d after 60 s"
	fi
	p=$((p + 1))
done
p=1
while [ $p -le $((nodes / 2)) ]; do
	s=$((2 * p - 1))
	d=$((2 * p))
	if [ $((p % 2)) = 1 ]; then
		# Under KASAN the link runs at a fifth of the wall clock and
		# two flood pings share it: a SYN may go unanswered for the
		# whole of tcp_syn_retries (about 2 minutes), so connect
		# again.
		ip netns exec "n$s" socat -d -d -u "OPEN:/tmp/tx.$s" \
			"TCP:10.0.0.$d:5000,connect-timeout=300,retry=5,interval=1" \
			2>"/tmp/socat.$s" &
		pids="$pids $!:sender-n$s"
	else
		# -f sends 100/s whatever comes back: the queues stay full.
		ip netns exec "n$s" ping -f -q -s 16 -c "$pings" -w 3600 \
			"10.0.0.$d" >"/tmp/ping.$s" 2>&1 &
		pids="$pids $!:ping-n$s"
	fi
	p=$((p + 1))
done
# socat_report: what the TCP ends said and saw, when one goes wrong
socat_report() {
	tail -n 5 /tmp/socat.* /tmp/ping.* 2>/dev/null || :
	for n in $(seq 1 "$nodes"); do
		echo "n$n: $(ip netns exec "n$n" ss -tan | tail -n +2 | tr '\n' ';')"
	done
}
# unacked NS: NS still has data or a FIN to port 5000 the peer has not
# acknowledged. socat exits at the end of its input, acknowledged or not
# (linger= does not hold it): the kernel sends the rest as an orphan.
unacked() {
	[ -n "$(ip netns exec "$1" ss -Htn state established \
		state fin-wait-1 state closing state last-ack \
		'( dport = :5000 )')" ]
}
# tcp_aborts NS: connections NS's kernel gave up on after retransmitting
tcp_aborts() {
	ip netns exec "$1" awk '
		$1 == "TcpExt:" && !h { for (i = 2; i <= NF; i++) c[$i] = i;
					 h = 1; next }
		$1 == "TcpExt:" { print $c["TCPAbortOnTimeout"] }' \
		/proc/net/netstat
}
# Senders and pings first: a failed sender is reported, not waited on;
# nor is a receiver whose sender's kernel gave up on the data. An
# orphan stops retransmitting after tcp_orphan_retries (about 15
# minutes of backoff): 1200 s bounds the wait. Aborts from before the
# sender exited are its SYNs that timed out, which it retried.
for job in $pids $lpids; do
	rc=0
	wait "${job%%:*}" || rc=$?
	[ "$rc" = 0 ] || { socat_report; fail "load: ${job#*:} exited $rc"; }
	case "${job#*:}" in
	sender-*)
		ns=${job#*:sender-}
		a0=$(tcp_aborts "$ns")
		t=0
		while unacked "$ns" && [ $t -lt 1200 ]; do
			sleep 5
			t=$((t + 5))
		done
		a=$(tcp_aborts "$ns")
		if unacked "$ns" || [ "$a" != "$a0" ]; then
			socat_report
			fail "load: $ns's data unacknowledged $t s after its socat exited ($((a - a0)) connections given up since)"
		fi
		;;
	esac
done
p=1
tcps=0
got=0
while [ $p -le $((nodes / 2)) ]; do
	s=$((2 * p - 1))
	d=$((2 * p))
	if [ $((p % 2)) = 1 ]; then
		[ "$(sha256sum <"/tmp/tx.$s")" = "$(sha256sum <"/tmp/rx.$d")" ] ||
			{
				socat_report
				fail "TCP n$s -> n$d: corrupt or short ($(wc -c <"/tmp/rx.$d" 2>&1) bytes)"
			}
		tcps=$((tcps + 1))
	else
		set -- $(ping_summary "/tmp/ping.$s")
		echo "flood ping n$s -> n$d: $1 sent, $2 back"
		[ "${2:-0}" -ge "$pings" ] || fail "flood ping n$s -> n$d: ${2:-0} of $pings"
		got=$((got + $2))
	fi
	p=$((p + 1))
done
figure "load: nodes in view" "$nodes"
figure "load: TCP transfers of $tcp bytes, sha256 equal" "$tcps"
figure "load: flood-ping echoes answered" "$got"
figure "load: virtual time" "$(($(vnow_ms) - v0)) ms"
c=0
k=1
while [ $k -le "$nodes" ]; do
	c=$((c + $(stat "n$k" collisions)))
	k=$((k + 1))
done
figure "load: MAC collisions, all nodes" "$c"
c=0
d=0
k=1
while [ $k -le "$nodes" ]; do
	c=$((c + $(stat "n$k" mac_fec_tx_frames)))
	d=$((d + $(stat "n$k" mac_fec_corrected_frames)))
	k=$((k + 1))
done
figure "load: coded frames sent (fec auto on odd nodes), corrected" "$c, $d"
step_end

# ---- 2. namespace deletion with the devices inside ----
# vlc_sim's devices have rtnl_link_ops without netns_refund: the
# namespace's exit destroys them (dellink), nothing comes back to init_net.
step "netns deletion of the load step's namespaces"
# The flood pings' senders, whose peers go too, may still hold requests
# for them (a sender on fec auto fell far behind its pings): each would
# be tried retry_limit + 1 times before its socket, and so its
# namespace, could go. Down first ends that (vlc-stress.rst,
# "Namespaces"); the other devices go up.
p=2
while [ $p -le $((nodes / 2)) ]; do
	ip -n "n$((2 * p - 1))" link set vlc0 down
	p=$((p + 2))
done
k=3
while [ $k -le "$nodes" ]; do
	ip netns del "n$k"
	k=$((k + 1))
done
expect "the simulator has 2 nodes left" wait_sim_count 2
expect "no vlc device in init_net" sh -c '! ip -o link show type vlc | grep -q .'
step_end

# ---- 3. counters, on the quiet pair n1 - n2 ----
# Static neighbours and no IPv6: only the pings cross the light. A
# packet counts as sent (tx_packets) once every fragment is acknowledged,
# so the receiver's MAC delivered it (mac_rx_delivered); it may also
# deliver a packet whose last ACK was lost and that the sender then
# counts as tx_errors. Each delivered packet is either passed up
# (rx_packets), or dropped on a full ring (rx_dropped) or for want of
# an skb (rx_missed_errors).
step "counters"
ip -n n1 neigh replace 10.0.0.2 lladdr "$(ip netns exec n2 cat /sys/class/net/vlc0/address)" nud permanent dev vlc0
ip -n n2 neigh replace 10.0.0.1 lladdr "$(ip netns exec n1 cat /sys/class/net/vlc0/address)" nud permanent dev vlc0
# snap NS: the counters, as "tx_packets tx_errors tx_dropped delivered
# rx_packets rx_dropped rx_missed"
snap() {
	echo "$(sysstat "$1" tx_packets) $(sysstat "$1" tx_errors)" \
	     "$(sysstat "$1" tx_dropped) $(stat "$1" mac_rx_delivered)" \
	     "$(sysstat "$1" rx_packets) $(sysstat "$1" rx_dropped)" \
	     "$(sysstat "$1" rx_missed_errors)"
}
# settle: until neither node's counters move over 500 ms of virtual time
settle() {
	s_prev=""
	s_i=0
	while :; do
		s_now="$(snap n1) $(snap n2)"
		[ "$s_now" = "$s_prev" ] && return 0
		[ $s_i -lt 60 ] || fail "counters never settle"
		s_prev=$s_now
		wait_vtime_ms 500
		s_i=$((s_i + 1))
	done
}
settle
set -- $(snap n1) $(snap n2)
a0="$*"
ip netns exec n1 ping -f -q -s 16 -c "$pings" -w 3600 10.0.0.2 >/tmp/ping.c 2>&1 ||
	{ cat /tmp/ping.c; fail "counters: flood ping"; }
settle
set -- $(snap n1) $(snap n2)
a1="$*"
# d K: the change of the K-th counter (1-7 n1, 8-14 n2)
d() {
	echo $(($(echo "$a1" | cut -d' ' -f"$1") - $(echo "$a0" | cut -d' ' -f"$1")))
}
set -- $(ping_summary /tmp/ping.c)
echo "counters: ping $1 sent, $2 back"
for n in 1 2; do
	b=$(((n - 1) * 7))
	echo "n$n: tx_packets $(d $((b + 1))) tx_errors $(d $((b + 2)))" \
	     "tx_dropped $(d $((b + 3))) delivered $(d $((b + 4)))" \
	     "rx_packets $(d $((b + 5))) rx_dropped $(d $((b + 6)))" \
	     "rx_missed $(d $((b + 7)))"
done
# consistent TX RX: the sender's counters from field TX, the
# receiver's from field RX (its delivered)
consistent() {
	tx=$(d "$1")
	er=$(d $(($1 + 1)))
	dl=$(d "$2")
	up=$(($(d $(($2 + 1))) + $(d $(($2 + 2))) + $(d $(($2 + 3)))))
	[ "$tx" -le "$dl" ] && [ "$dl" -le $((tx + er)) ] && [ "$dl" -eq "$up" ]
}
expect "n1 -> n2: tx_packets <= delivered <= tx_packets + tx_errors = rx_packets + rx_dropped + rx_missed" consistent 1 11
expect "n2 -> n1: the same" consistent 8 4
# ping counts a request sent once the qdisc took it (a full qdisc is
# ENOBUFS): the driver then sent it, gave up on it or dropped it.
expect "each request ping sent: tx_packets + tx_errors + tx_dropped at n1" \
	test "$1" -eq $(($(d 1) + $(d 2) + $(d 3)))
expect "every echo reply counted" test "$(d 5)" -ge "$2"
figure "counters: requests sent by ping / tx_packets n1 / delivered n2 / rx_packets n2" "$1 / $(d 1) / $(d 11) / $(d 12)"
step_end

# ---- 4. link down/up under traffic ----
step "link flaps"
ip netns exec n2 ping -f -q -s 16 -w 100000 10.0.0.1 >/dev/null 2>&1 &
fp=$!
: >/tmp/flaps
k=0
while [ $k -lt "$flaps" ]; do
	echo "link set vlc0 down" >>/tmp/flaps
	echo "link set vlc0 up" >>/tmp/flaps
	k=$((k + 1))
done
t0=$(now_ms)
ip -n n1 -batch /tmp/flaps
t1=$(now_ms)
kill $fp
wait $fp 2>/dev/null || true
expect "carrier back on n1 after $flaps flaps" wait_carrier n1 120
# n2's queue is still full of the flood's requests: the answer waits
# behind them (a minute of wall time under KASAN).
k=0
until ip netns exec n1 ping -c 1 -W 30 10.0.0.2 >/dev/null; do
	k=$((k + 1))
	[ $k -lt 10 ] || fail "no ping after the flaps"
done
figure "flaps: link down/up cycles survived" "$flaps"
figure "flaps: time per cycle" "$(((t1 - t0) * 1000 / (flaps > 0 ? flaps : 1))) us"
step_end

# ---- 5. device removal with frames in flight ----
# A third and fourth board join, a TCP transfer and a flood ping start
# between them, then the receiver is deleted, then the sender.
step "device removal"
k=0
while [ $k -lt "$removals" ]; do
	node 3
	node 4
	wait_carrier n3 60 || fail "removal $k: no carrier on n3"
	head -c "$tcp" /dev/urandom >/tmp/tx.3
	ip netns exec n4 socat -u TCP-LISTEN:5000,reuseaddr OPEN:/dev/null &
	lp=$!
	sleep 0.5
	ip netns exec n3 socat -u OPEN:/tmp/tx.3 TCP:10.0.0.4:5000,connect-timeout=60 \
		>/dev/null 2>&1 &
	sp=$!
	ip netns exec n4 ping -f -q -s 16 -w 60 10.0.0.3 >/dev/null 2>&1 &
	pp=$!
	# let frames be on air: n3's MAC sends fragments
	f0=$(stat n3 mac_tx_frames)
	j=0
	while [ "$(stat n3 mac_tx_frames)" -le "$((f0 + 2))" ] && [ $j -lt 200 ]; do
		sleep 0.1
		j=$((j + 1))
	done
	ip -n n4 link del vlc0
	sleep 0.3
	ip -n n3 link del vlc0
	kill $lp $sp $pp 2>/dev/null || true
	wait $lp $sp $pp 2>/dev/null || true
	expect "removal $k: the simulator has 2 nodes left" wait_sim_count 2
	k=$((k + 1))
done
ip netns exec n1 ping -c 2 -W 60 10.0.0.2 >/dev/null || fail "n1 - n2 broken by the removals"
figure "removals: device removals with frames in flight" "$removals"
step_end

# ---- 6. namespace deletion with a live device, traffic towards it ----
step "netns deletion under traffic"
k=0
while [ $k -lt "$netns" ]; do
	ip netns add x
	ip link add vlcx type vlc
	ip link set vlcx netns x name vlc0
	ip -n x link set vlc0 addrgenmode none
	ip -n x addr add 10.0.0.9/24 dev vlc0
	ip -n x link set vlc0 up
	wait_carrier x 60 || fail "netns $k: no carrier in x"
	# from n2, so that no process keeps x alive
	ip netns exec n2 ping -f -q -s 16 -w 60 10.0.0.9 >/dev/null 2>&1 &
	pp=$!
	sleep 1
	ip netns del x
	expect "netns $k: x's device destroyed" wait_sim_count 2
	expect "netns $k: nothing back in init_net" sh -c '! ip -o link show type vlc | grep -q .'
	kill $pp 2>/dev/null || true
	wait $pp 2>/dev/null || true
	k=$((k + 1))
done
figure "netns: deletions with a live device under traffic" "$netns"
# n2 may still have requests for x queued (qdisc, the driver's ring of
# 16 skbs), each retried on the air up to the retry limit; their skbs
# hold the ping's socket, the socket holds n2's namespace. Deleted now,
# n2 lived on for minutes (seen under TCG). Link down drops them.
q=$(ip netns exec n2 tc -s qdisc show dev vlc0 2>/dev/null |
	sed -n 's/.*backlog [^ ]* \([0-9]*\)p.*/\1/p' | head -n 1)
figure "netns: qdisc backlog at n2 after the last x went" \
	"${q:-unknown (no tc qdisc dump in this kernel)}"
figure "netns: bytes in n2's ring after the last x went (BQL)" \
	"$(ip netns exec n2 cat /sys/class/net/vlc0/queues/tx-0/byte_queue_limits/inflight 2>/dev/null || echo unknown)"
ip -n n2 link set vlc0 down
ip -n n2 link set vlc0 up
expect "carrier on n2 again" wait_carrier n2 120
step_end

# ---- 7. module unload/load under traffic ----
step "module reload"
ip netns del n1
ip netns del n2
# The namespaces' exit runs from a workqueue, seconds later under TCG.
wait_sim_count 0 || {
	sim show
	ip -o link show type vlc
	lsns -t net
	fail "nodes left after deleting their namespaces"
}
sim_unload
ip netns add n1
ip netns add n2
k=0
carriers=0
t0=$(now_ms)
while [ $k -lt "$reload" ]; do
	sim_load
	node 1
	node 2
	# Traffic while the carrier is still coming; on every tenth cycle
	# once it is there.
	if [ $((k % 10)) = 9 ] && wait_carrier n1 30; then
		carriers=$((carriers + 1))
	fi
	ip netns exec n1 ping -f -q -s 16 -w 60 10.0.0.2 >/dev/null 2>&1 &
	pp=$!
	sleep 0.5
	sim_unload
	[ ! -e /sys/module/vlc ] && [ ! -e /sys/module/vlc_sim ] ||
		fail "reload $k: modules still there"
	ip -n n1 link show vlc0 >/dev/null 2>&1 && fail "reload $k: device survived"
	kill $pp 2>/dev/null || true
	wait $pp 2>/dev/null || true
	k=$((k + 1))
done
t1=$(now_ms)
sim_load
node 1
node 2
expect "carrier after the reloads" wait_carrier n1 120
ip netns exec n1 ping -c 2 -W 60 10.0.0.2 >/dev/null || fail "no ping after the reloads"
figure "reload: unload/load cycles survived" "$reload ($carriers with carrier up)"
figure "reload: time per cycle" "$(((t1 - t0) / (reload > 0 ? reload : 1))) ms"
step_end

# ---- 8. everything gone, no leak ----
step "teardown and kmemleak"
ip netns del n1
ip netns del n2
expect "all nodes gone" wait_sim_count 0
sim_unload
if [ "$kmemleak" = 1 ]; then
	# Objects younger than 5 s are never reported; two scans apart.
	sleep 6
	echo scan >$kl
	sleep 6
	echo scan >$kl
	cat $kl >"$VLC_OUT/kmemleak.txt"
	n=$(grep -c '^unreferenced object' "$VLC_OUT/kmemleak.txt" || true)
	figure "kmemleak: suspects after the run" "$n"
	[ "$n" -eq 0 ] || { head -n 60 "$VLC_OUT/kmemleak.txt"; fail "kmemleak: $n leaks"; }
	echo "ok - kmemleak: no leak"
fi
step_end
figure "total wall time" "$(($(now_ms) - t_all)) ms"
