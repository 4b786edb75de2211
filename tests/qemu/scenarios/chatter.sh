#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Background chatter: what two freshly booted boards send on vlc0 in the
# first SECONDS (default 180) after carrier with nothing asked of them,
# running the daemons Raspberry Pi OS starts at boot (NetworkManager,
# avahi-daemon, their D-Bus), Debian 12's builds of them from
# scripts/daemons.sh, and NetworkManager's connectivity check turned on
# as Debian's network-manager-config-connectivity-debian turns it on.
# First with the daemons' and the kernel's defaults, then with what
# linux-vlc ships: tools/network/90-linux-vlc.conf in NetworkManager's
# conf.d, and vlc0 set up as tools/network/vlc0.network does (no IPv6
# link-local address, no router advertisements, multicast off), which
# must leave the light silent. What each kernel sends is counted by kind,
# in all and minute by minute, from captures of vlc0's outgoing frames
# in a and b, with the simulator in real time; captures and daemon logs
# stay in the results folder.
#
# The connectivity check sends nothing on vlc0. By default NetworkManager
# checks vlc0 but skips IPv4, which has no address (DHCP gets no lease
# over the light); the IPv6 check, once vlc0 has its link-local address,
# fails to resolve the check's name: the guest's name server is beyond
# any route of a or b, so neither the DNS query nor the HTTP request
# goes out. With 90-linux-vlc.conf it does not check vlc0 at all.
#
# vlc-timeout: 800
# vlc-pace: wall
#
# A shorter run for a quick look:
#
#   tests/qemu/run.sh tests/qemu/scenarios/chatter.sh 30
. "$VLC_SRC/tests/qemu/lib.sh"

secs=${1:-180}
dmn=$VLC_SRC/build/x86_64/daemons
[ -x "$dmn/usr/sbin/NetworkManager" ] ||
	fail "$dmn missing: make daemons (BUILD= outside the checkout is not supported here)"
lib=$(dirname "$(find "$dmn/usr/lib" -name 'libnm.so.0' | head -n 1)")


# avahi-daemon looks its user up even when it keeps root.
(cat /etc/passwd; echo 'avahi:x:0:0::/run/avahi-daemon:/usr/sbin/nologin') >/tmp/passwd
(cat /etc/group; echo 'avahi:x:0:') >/tmp/group
mkdir -p /run/avahi-daemon

# daemons NS CONFDIR: in NS, a system bus of its own, NetworkManager with
# Debian's NetworkManager.conf and conf.d CONFDIR, logging its
# connectivity checks, and avahi-daemon with Debian's
# avahi-daemon.conf. NetworkManager gets a private /var/lib and a
# read-only /sys, which tells it not to wait for udev.
daemons() {
	d=/tmp/daemons-$1
	mkdir -p "$d/lib/NetworkManager" "$d/avahi"
	cat >"$d/bus.conf" <<-EOF
	<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
	 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
	<busconfig>
	  <type>system</type>
	  <listen>unix:path=$d/bus</listen>
	  <auth>EXTERNAL</auth>
	  <policy context="default">
	    <allow user="*"/>
	    <allow own="*"/>
	    <allow send_destination="*"/>
	    <allow receive_sender="*"/>
	  </policy>
	</busconfig>
	EOF
	LD_LIBRARY_PATH=$lib "$dmn/usr/bin/dbus-daemon" \
		--config-file="$d/bus.conf" --fork --print-pid >"$d/pids"
	export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$d/bus"
	# shellcheck disable=SC2016
	LD_LIBRARY_PATH=$lib ip netns exec "$1" unshare -m sh -c '
		mount --bind "$1/lib" /var/lib
		mount -o remount,ro /sys
		exec "$2/usr/sbin/NetworkManager" --debug \
			--log-domains=DEFAULT,CONCHECK:TRACE --config="$2/etc/NetworkManager/NetworkManager.conf" \
			--config-dir="$3" --state-file="$1/nm.state"' \
		sh "$d" "$dmn" "$2" >"$VLC_OUT/nm-$1-$conf.log" 2>&1 &
	echo $! >>"$d/pids"
	# shellcheck disable=SC2016
	LD_LIBRARY_PATH=$lib ip netns exec "$1" unshare -m sh -c '
		mount --bind /tmp/passwd /etc/passwd
		mount --bind /tmp/group /etc/group
		mount --bind "$1/avahi" /run/avahi-daemon
		exec "$2/usr/sbin/avahi-daemon" --no-drop-root --no-chroot \
			--no-rlimits -f "$2/etc/avahi/avahi-daemon.conf"' \
		sh "$d" "$dmn" >"$VLC_OUT/avahi-$1-$conf.log" 2>&1 &
	echo $! >>"$d/pids"
	unset DBUS_SYSTEM_BUS_ADDRESS
}

# is_up NS: vlc0 in NS is administratively up
is_up() {
	ip -n "$1" link show vlc0 | grep -q '[<,]UP[,>]'
}

# boards CONF: namespaces a and b, each with a simulated board's vlc0 and
# the daemons. The nodes are vlc_sim's boards=, registered as vlc_gpio
# registers a board's vlc0 (NetworkManager sees an Ethernet port, where
# "ip link add type vlc" makes a device of an unknown kind that it leaves
# alone), and the light runs in real time, as the kernels' timers do; with CONF "default" NetworkManager brings vlc0 up as it
# does any Ethernet port, with "shipped" it leaves it alone and vlc0 is
# set up as vlc0.network would. Then capture what a and b send until
# $secs s after both have carrier.
boards() {
	conf=$1
	sim_load speed=100 boards=2
	ip netns add a
	ip netns add b
	ip link set vlc0 netns a
	ip link set vlc1 netns b name vlc0
	mkdir -p "/tmp/conf.d-$conf"
	# The connectivity check as Debian's package turns it on (its uri,
	# NetworkManager's default interval), in both phases: the shipped one
	# must keep it off the light too.
	cat >"/tmp/conf.d-$conf/20-connectivity-debian.conf" <<-EOF
	[connectivity]
	uri=http://network-test.debian.org/nm
	interval=300
	EOF
	if [ "$conf" = shipped ]; then
		cp "$VLC_SRC/tools/network/90-linux-vlc.conf" "/tmp/conf.d-$conf/"
		ip -n a addr add 10.0.0.1/24 dev vlc0
		ip -n b addr add 10.0.0.2/24 dev vlc0
		for n in a b; do
			ip -n $n link set vlc0 addrgenmode none multicast off
			ip netns exec $n sh -c \
				'echo 0 >/proc/sys/net/ipv6/conf/vlc0/accept_ra'
		done
	fi
	daemons a "/tmp/conf.d-$conf"
	daemons b "/tmp/conf.d-$conf"
	if [ "$conf" = shipped ]; then
		# Wait until the daemons have seen vlc0, then bring it up.
		sleep 5
		ip -n a link set vlc0 up
		ip -n b link set vlc0 up
	fi
	expect "a's vlc0 is up ($conf)" wait_until 60 is_up a
	expect "b's vlc0 is up ($conf)" wait_until 60 is_up b
	# Nothing goes out before the carrier, which comes with the lock.
	ip netns exec a tcpdump -i vlc0 -Q out -n -U -w "/tmp/a-$conf.pcap" 2>/dev/null &
	ta=$!
	ip netns exec b tcpdump -i vlc0 -Q out -n -U -w "/tmp/b-$conf.pcap" 2>/dev/null &
	tb=$!
	expect "a locks to b ($conf)" wait_carrier a 60
	expect "b locks to a ($conf)" wait_carrier b 60
	date +%s >"/tmp/t0-$conf"
	sleep "$secs"
	kill $ta $tb
	wait $ta $tb 2>/dev/null || true
	for n in a b; do
		xargs kill <"/tmp/daemons-$n/pids" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	rm -rf /tmp/daemons-a /tmp/daemons-b
	cp "/tmp/a-$conf.pcap" "/tmp/b-$conf.pcap" "$VLC_OUT/"
	sim_unload
	ip netns del a
	ip netns del b
}

# text CONF: the frames a and b sent, one line each, after the time
text() {
	for n in a b; do
		tcpdump -r "/tmp/$n-$1.pcap" -n -e -tt 2>/dev/null
	done
}

# kind CONF PATTERN: how many of them match PATTERN
kind() {
	text "$1" | grep -c -E "$2" || true
}

# The kinds a report counts: a name, a tab, the pattern of its frames.
cat >/tmp/kinds <<-'EOF'
	DHCP	BOOTP/DHCP
	mDNS	\.5353 >
	IGMP	igmp
	neighbour solicitations	neighbor solicitation
	router solicitations	router solicitation
	multicast listener reports	multicast listener report
	ARP	ARP
	DNS	\.53: [0-9]
	TCP	Flags \[
EOF

# report CONF: frames, bytes and frames of each kind (others: of none)
# in all, then in each minute after both had carrier
report() {
	text "$1" | awk -v conf="$1" -v secs="$secs" -v t0="$(cat "/tmp/t0-$1")" '
	function line(what, m,    s, k, o) {
		s = what ": " fr[m] + 0 " frames, " by[m] + 0 " bytes" \
			(m == "all" ? " in " secs " s after carrier" : "") ":"
		o = fr[m]
		for (k = 1; k <= n; k++) {
			s = s " " c[m, k] + 0 " " name[k] ","
			o -= c[m, k]
		}
		print s " " o + 0 " others"
	}
	FNR == NR { split($0, f, "\t"); n++; name[n] = f[1]; re[n] = f[2]; next }
	{
		m = int(($1 - t0) / 60)
		if (m < 0)
			m = 0
		if (m > int((secs - 1) / 60))
			m = int((secs - 1) / 60)
		b = 0
		if (match($0, /, length [0-9]+:/))
			b = substr($0, RSTART + 9, RLENGTH - 10)
		for (x = 0; x < 2; x++) {
			k = x ? "all" : m
			fr[k]++
			by[k] += b
			for (i = 1; i <= n; i++)
				if ($0 ~ re[i])
					c[k, i]++
		}
	}
	END {
		line(conf, "all")
		for (m = 0; m <= int((secs - 1) / 60); m++)
			line(conf ", minute " m + 1, m)
	}' /tmp/kinds -
}

boards default
report default
# What goes out when depends on how soon IPv6 has its link-local address
# (duplicate address detection over the light): the frames are counted
# above, and asserted only where the first comes with the carrier.
expect "by default, NetworkManager's DHCP is on the air" \
	test "$(kind default 'BOOTP/DHCP')" -ge 1
expect "by default, IPv6 autoconfiguration is on the air" \
	test "$(kind default 'router solicitation|multicast listener report|neighbor solicitation')" -ge 1
expect "NetworkManager took vlc0 by default" \
	grep -q "vlc0.*Activation: starting connection" "$VLC_OUT/nm-a-default.log"
expect "avahi-daemon took vlc0 by default" \
	grep -q "New relevant interface vlc0" "$VLC_OUT/avahi-a-default.log"
expect "NetworkManager checks vlc0's connectivity by default" \
	grep -q "(vlc0): connectivity: \[IPv.\] start check" "$VLC_OUT/nm-a-default.log"
boards shipped
report shipped
expect "NetworkManager leaves vlc0 alone with 90-linux-vlc.conf" \
	sh -c "! grep -q 'vlc0.*Activation' '$VLC_OUT/nm-a-shipped.log'"
expect "avahi-daemon ignores vlc0 with multicast off" \
	sh -c "! grep -q 'on interface vlc0' '$VLC_OUT/avahi-a-shipped.log'"
expect "NetworkManager's connectivity check is on with 90-linux-vlc.conf" \
	grep -q "Read config: .*20-connectivity-debian.conf" "$VLC_OUT/nm-a-shipped.log"
expect "NetworkManager does not check vlc0's connectivity with 90-linux-vlc.conf" \
	sh -c "! grep -q '(vlc0): connectivity' '$VLC_OUT/nm-a-shipped.log'"
expect "with the shipped settings, no DNS or TCP on the air" \
	test "$(kind shipped '\.53: [0-9]|Flags \[')" = 0
expect "with the shipped settings, nothing is on the air" \
	test "$(kind shipped '.')" = 0
