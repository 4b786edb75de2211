#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vlcctl and the "vlc" generic netlink family: both simulated devices are
# listed with their defaults, each netns only sees its own, a setting is
# read back, refused settings change nothing and the kernel's message says
# why, only CAP_NET_ADMIN may set, a non-vlc device is refused, and both
# ends switched to 4-PPM still ping without loss, then back to 2-slot.
. "$VLC_SRC/tests/qemu/lib.sh"

# ping_after_switch MODE COUNT: a reaches b again (the link relocks), then
# COUNT pings 3 s apart lose nothing
ping_after_switch() {
	ip netns exec a ping -c 1 -W 60 10.0.0.2 >/dev/null ||
		ip netns exec a ping -c 1 -W 60 10.0.0.2 >/dev/null ||
		fail "no ping after the switch to $1"
	out=$(ip netns exec a ping -c "$2" -i 3 -W 30 10.0.0.2) || true
	echo "$out" | tail -n 2
	expect "$1 ping: 0% packet loss" \
		sh -c "echo '$out' | grep -q ' 0% packet loss'"
}

# The host builds vlcctl into build/<arch>/tools/ (make tools); with
# BUILD= outside the checkout, build it here.
vlcctl=$VLC_SRC/build/$(uname -m)/tools/vlcctl
if [ ! -x "$vlcctl" ]; then
	cc -O2 -I"$VLC_SRC/include/uapi" -o /tmp/vlcctl \
		"$VLC_SRC/tools/vlcctl/vlcctl.c" -lmnl ||
		fail "no vlcctl: run make tools on the host"
	vlcctl=/tmp/vlcctl
fi

# ctl NS ARGS...: vlcctl in netns NS ("-" for the initial one)
ctl() {
	ns=$1
	shift
	if [ "$ns" = - ]; then
		"$vlcctl" "$@"
	else
		ip netns exec "$ns" "$vlcctl" "$@"
	fi
}

# refused NS PATTERN ARGS...: vlcctl fails with status 1 and a message
# matching PATTERN (grep -E)
refused() {
	ns=$1 pat=$2
	shift 2
	if ctl "$ns" "$@" >/tmp/ctl.out 2>/tmp/ctl.err; then
		echo "vlcctl $* succeeded:" >&2
		cat /tmp/ctl.out >&2
		return 1
	else
		rc=$?
	fi
	sed 's/^/  | /' /tmp/ctl.err
	[ $rc = 1 ] || { echo "exit status $rc, not 1" >&2; return 1; }
	grep -Eq "$pat" /tmp/ctl.err
}

# shows NS DEV PATTERN: vlcctl show DEV matches PATTERN (grep -E)
shows() {
	ctl "$1" show "$2" | tr '\n\t' '  ' | grep -Eq "$3"
}

# eventually SECONDS COMMAND...: COMMAND succeeds within SECONDS
eventually() {
	n=$(($1 * 10))
	shift
	while ! "$@"; do
		n=$((n - 1))
		[ $n -gt 0 ] || return 1
		sleep 0.1
	done
}

defaults="mode 2slot brightness 200 .*frame-us 500 sync-us 40 guard-us 20 data-us 50 tolerance-us 20 \(2000 bit/s raw\)"

sim_load
ip link add vlca type vlc
ip link add vlcb type vlc
ctl - show | tee /tmp/show.out
expect "vlcctl show lists both devices" \
	test "$(grep -Ec '^vlc[ab]: ifindex [0-9]+ mode' /tmp/show.out)" = 2
expect "vlca has the default settings" shows - vlca "^vlca: ifindex [0-9]+ $defaults"
expect "vlcb has the default settings" shows - vlcb "^vlcb: ifindex [0-9]+ $defaults"
expect "a device that is down is neither up nor locked" \
	shows - vlca "link down carrier no locked no"

ip netns add a
ip netns add b
ip link set vlca netns a name vlc0
ip link set vlcb netns b name vlc0
expect "the initial netns no longer lists them" test -z "$(ctl - show)"
expect "netns a lists its vlc0 only" \
	test "$(ctl a show | grep -c ifindex)" = 1
expect "a device of another netns is not found" \
	refused - "ifname: no such device" show vlc0
ip -n a addr add 10.0.0.1/24 dev vlc0
ip -n b addr add 10.0.0.2/24 dev vlc0
ip -n a link set vlc0 up
ip -n b link set vlc0 up
expect "a locks to b" wait_carrier a 60
expect "b locks to a" wait_carrier b 60
expect "vlcctl reports carrier and lock" \
	eventually 60 shows a vlc0 "link up carrier yes locked yes signal [1-9]"
ctl a show vlc0

# A setting is read back; the others keep their values.
expect "set brightness 300" ctl a set vlc0 brightness 300
expect "brightness 300 read back, timing unchanged" \
	shows a vlc0 "brightness 300 \(100\.\.520\).*frame-us 500 sync-us 40 guard-us 20 data-us 50"
expect "b kept its brightness" shows b vlc0 "brightness 200 "

# Refused settings name the value and change nothing.
expect "data-us 0 refused: data_ns is zero" \
	refused a "data_ns is zero \[data-us\] \(Invalid argument\)" \
	set vlc0 brightness 250 data-us 0
expect "frame-us 200 refused: the slots do not fit the frame" \
	refused a "frame_ns too short.*\[frame-us\]" set vlc0 frame-us 200
expect "guard below tolerance refused" \
	refused a "guard_ns shorter than tolerance_ns" set vlc0 guard-us 10
expect "brightness 2000 refused by the policy, with its range" \
	refused a "\[brightness: 0\.\.1000\]" set vlc0 brightness 2000
expect "4ppm refused at brightness 300 (above its 240)" \
	refused a "brightness above the maximum" set vlc0 mode 4ppm
expect "nothing changed by the refused settings" \
	shows a vlc0 "^vlc0: ifindex [0-9]+ mode 2slot brightness 300 .*frame-us 500 sync-us 40 guard-us 20 data-us 50 tolerance-us 20"
rc=0
"$vlcctl" set vlc0 mode 3ppm 2>/dev/null || rc=$?
expect "a usage error exits 2 before asking the kernel" test $rc = 2

# Anybody may read; only CAP_NET_ADMIN may set.
nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
expect "show works without privilege" sh -c \
	"ip netns exec a $nobody $vlcctl show vlc0 | grep -q 'brightness 300 '"
rc=0
ip netns exec a setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$vlcctl" set vlc0 brightness 100 2>/tmp/ctl.err ||
	rc=$?
sed 's/^/  | /' /tmp/ctl.err
expect "set without CAP_NET_ADMIN refused" \
	sh -c "[ $rc = 1 ] && grep -q 'Operation not permitted' /tmp/ctl.err"
expect "  ... and nothing changed" shows a vlc0 "brightness 300 "

# A non-vlc device is refused.
expect "lo refused for set" \
	refused a "ifname: not a vlc device" set lo brightness 100
expect "lo refused for show" refused a "ifname: not a vlc device" show lo

# Both ends to 4-PPM (twice the bit rate) and ping, then back to 2-slot.
expect "a to 4ppm with brightness 200" \
	ctl a set vlc0 mode 4ppm brightness 200
expect "b to 4ppm" ctl b set vlc0 mode 4ppm
expect "a shows 4ppm and its brightness range" \
	shows a vlc0 "mode 4ppm brightness 200 \(100\.\.240\)"
expect "b shows 4ppm at 4000 bit/s raw" \
	shows b vlc0 "mode 4ppm .*\(4000 bit/s raw\)"
rx0=$(stat b phy_symbols_rx)
ping_after_switch 4ppm 5
expect "b received 4ppm symbols" test "$(stat b phy_symbols_rx)" -gt "$rx0"
expect "a locked in 4ppm" shows a vlc0 "locked yes"
expect "b locked in 4ppm" shows b vlc0 "locked yes"

expect "a back to 2slot" ctl a set vlc0 mode 2slot
expect "b back to 2slot" ctl b set vlc0 mode 2slot
ping_after_switch 2slot 3
expect "a shows 2slot at 2000 bit/s raw" \
	shows a vlc0 "mode 2slot .*\(2000 bit/s raw\)"

vlc_unload
expect "modules unload with the family registered" \
	test ! -e /sys/module/vlc_sim -a ! -e /sys/module/vlc
