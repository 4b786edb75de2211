#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vlc-timeout: 600
# vlc-pace: wall
# vlcctl and the "vlc" generic netlink family: both simulated devices are
# listed with their defaults (text and JSON), each netns only sees its own,
# PHY and MAC settings are read back, refused settings change nothing and
# the kernel's message names the value, only CAP_NET_ADMIN over the
# device's netns may set (root of a user namespace that owns it may, but
# not timing or modulation), a non-vlc device is refused, both ends
# switched to 4-PPM still ping without loss, then back to 2-slot;
# location beacons of a are listed by b with their count and age (and
# mapped to a room); RTS/CTS follows rts-threshold; vlcctl monitor sees
# a lose its lock and carrier when b goes dark, and find them again.
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

vlcctl=$(vlcctl_bin)

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
	while IFS= read -r line; do echo "  | $line"; done </tmp/ctl.err
	[ $rc = 1 ] || { echo "exit status $rc, not 1" >&2; return 1; }
	grep -Eq "$pat" /tmp/ctl.err
}

# shows NS DEV PATTERN: vlcctl show DEV, its lines joined by single spaces,
# matches PATTERN (grep -E)
shows() {
	ctl "$1" show "$2" | tr -s '\n\t' '  ' | grep -Eq "$3"
}

# json NS [DEV]: vlcctl -j show DEV is valid JSON (python3 -m json.tool)
json() {
	ctl "$1" -j show ${2-} >/tmp/show.json &&
		python3 -m json.tool /tmp/show.json >/dev/null ||
		{ cat /tmp/show.json >&2; return 1; }
}

# beacon NS ID: "FRAMES COUNT AGE_MS LEVEL" from one vlcctl -j show vlc0
# in NS: its PHY frame counter, and the beacons of ID it heard (how many,
# how long ago the last one). Empty if none was heard. (sed, not python3:
# virtual time runs on while a tool starts.)
beacon() {
	ctl "$1" -j show vlc0 | sed -n "s/.*\"frames\":\([0-9]*\),.*{\"id\":$2,\"level\":\([0-9]*\),\"count\":\([0-9]*\),\"age_ms\":\([0-9]*\)}.*/\1 \3 \4 \2/p"
}

# beacon_rate NS ID: beacons of ID heard per second (of 2000 frames) by
# vlc0 in NS over at least 2 s; frames and count come from the same
# snapshot, whatever the virtual time between the two.
beacon_rate() {
	set -- "$1" "$2" $(beacon "$1" "$2")
	f0=$3 n0=$4
	wait_vtime_ms 2000
	set -- "$1" "$2" $(beacon "$1" "$2")
	echo "  $(($4 - n0)) beacons of $2 in $(($3 - f0)) frames" >&2
	echo $((($4 - n0) * 2000 / ($3 - f0)))
}

# room NS ROOMS: the room of the strongest beacon heard in the last 2 s by
# vlc0 in NS, from a file of "id room" lines (the example of vlc.rst)
room() {
	ctl "$1" -j show vlc0 | tr '{' '\n' | awk -F '[:,}]' '
		NR == FNR { split($0, w, " "); sub(/^[^ ]+ +/, ""); room[w[1]] = $0; next }
		$1 == "\"id\"" && $8 < 2000 && $4 > best { best = $4; near = $2 }
		END {
			if (near == "") { print "no beacon heard"; exit 1 }
			print (near in room) ? room[near] : "unknown id " near
		}' "$2" -
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

defaults="modulation 2slot brightness 200 .*frame-us 500 sync-us 40 guard-us 20 data-us 50 tolerance-us 20 \(2000 bit/s raw\)"
mac_defaults="rts-threshold 200 retry-limit 7 cw-min 32 cw-max 256 frag-size 240 beacon-interval 1000 \(500 ms\) loc-interval 0 \(off\) max-age 0 \(off\)"

# Real time: vlcctl and the tools it is checked with need the CPU more
# than the light does (as fast as possible, every tool started costs
# seconds of virtual time, and scenario seconds).
sim_load speed=100
ip link add vlca type vlc
ip link add vlcb type vlc
ctl - show | tee /tmp/show.out
# fec's default is the MAC's choice: read, then expected alike everywhere
fec0=$(sed -n 's/.* fec \([a-z0-9]*\) nav .*/\1/p' /tmp/show.out | head -n 1)
expect "show prints fec, as vlcctl set takes it" \
	sh -c "echo '$fec0' | grep -Eqx 'off|auto|2|4|8|16|32'"
case $fec0 in
off | auto) fec0_json="\"$fec0\"" ;;
*) fec0_json=$fec0 ;;
esac
mac_defaults="$mac_defaults fec $fec0"
expect "vlcctl show lists both devices" \
	test "$(grep -Ec '^vlc[ab]: ifindex [0-9]+ modulation' /tmp/show.out)" = 2
expect "vlca has the default settings" shows - vlca "^vlca: ifindex [0-9]+ $defaults"
expect "vlcb has the default settings" shows - vlcb "^vlcb: ifindex [0-9]+ $defaults"
expect "a device that is down is neither up nor locked" \
	shows - vlca "link down carrier no locked no"
expect "vlca has the default MAC settings" shows - vlca "$mac_defaults nav 0 "
expect "vlcb has the default MAC settings" shows - vlcb "$mac_defaults nav 0 "
expect "a device that is down heard no beacons" \
	shows - vlca "nav 0 no beacons heard"
expect "show -j of both devices is valid JSON" json -
expect "  ... and lists both" test "$(grep -o '"ifname":' /tmp/show.json | wc -l)" = 2
expect "  ... with the MAC settings" \
	grep -q "\"rts_threshold\":200,\"retry_limit\":7,\"cw_min\":32,\"cw_max\":256,\"frag_size\":240,\"beacon_interval\":1000,\"loc_interval\":0,\"max_age\":0,\"fec\":$fec0_json,\"nav\":0,\"beacons\":\\[\\]" /tmp/show.json

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
expect "data-us 0 refused by the policy, with its range in us" \
	refused a "\[data-us: 1\.\.100000\] \(Numerical result out of range\)" \
	set vlc0 brightness 250 data-us 0
expect "frame-us 200 refused: the slots do not fit the frame" \
	refused a "frame-us too short.*\[frame-us\]" set vlc0 frame-us 200
expect "guard below tolerance refused" \
	refused a "guard-us shorter than tolerance-us" set vlc0 guard-us 10
expect "brightness 2000 refused by the policy, with its range" \
	refused a "\[brightness: 0\.\.1000\]" set vlc0 brightness 2000
expect "4ppm refused at brightness 300 (above its 240)" \
	refused a "brightness above the maximum" set vlc0 modulation 4ppm
expect "nothing changed by the refused settings" \
	shows a vlc0 "^vlc0: ifindex [0-9]+ modulation 2slot brightness 300 .*frame-us 500 sync-us 40 guard-us 20 data-us 50 tolerance-us 20"
rc=0
"$vlcctl" set vlc0 modulation 3ppm 2>/dev/null || rc=$?
expect "a usage error exits 2 before asking the kernel" test $rc = 2
rc=0
"$vlcctl" set vlc0 retry-limit many 2>/dev/null || rc=$?
expect "a MAC setting that is no number exits 2" test $rc = 2
for v in 0 1 3 33 255 x; do
	rc=0
	"$vlcctl" set vlc0 fec $v 2>/tmp/ctl.err || rc=$?
	expect "fec $v: a usage error, exit 2" test $rc = 2
	expect "  ... naming fec" grep -q "fec: '$v' is not off, auto" /tmp/ctl.err
done

# MAC settings, one at a time: all of them are read back (each set kept
# the others' values).
for kv in "rts-threshold 1000" "retry-limit 3" "cw-min 16" "cw-max 512" \
	"frag-size 128" "beacon-interval 1500" "loc-interval 64" \
	"max-age 4000" "fec 16"; do
	expect "set $kv" ctl a set vlc0 $kv
done
mac_new="rts-threshold 1000 retry-limit 3 cw-min 16 cw-max 512 frag-size 128 beacon-interval 1500 \(750 ms\) loc-interval 64 \(32 ms\) max-age 4000 \(2000 ms\) fec 16"
expect "the new MAC settings read back" shows a vlc0 "$mac_new"
ctl a -j show vlc0 >/tmp/show.json
expect "  ... and in JSON" grep -q \
	'"rts_threshold":1000,"retry_limit":3,"cw_min":16,"cw_max":512,"frag_size":128,"beacon_interval":1500,"loc_interval":64,"max_age":4000,"fec":16,' \
	/tmp/show.json
for v in auto off; do
	expect "set fec $v" ctl a set vlc0 fec $v
	expect "  ... read back" shows a vlc0 "max-age 4000 \(2000 ms\) fec $v nav"
	ctl a -j show vlc0 >/tmp/show.json
	expect "  ... and in JSON, as a string" grep -q "\"fec\":\"$v\"," /tmp/show.json
done
ctl a set vlc0 fec 16
expect "the PHY settings kept theirs" \
	shows a vlc0 "modulation 2slot brightness 300 .*frame-us 500 sync-us 40 guard-us 20 data-us 50 tolerance-us 20"
expect "b kept the default MAC settings" shows b vlc0 "$mac_defaults"

# Refused MAC settings name the field, alone or next to valid ones.
expect "rts-threshold 1519 refused" \
	refused a "rts-threshold: must be 0 \(off\) or 1\.\.1518 bytes \[rts-threshold\] \(Invalid argument\)" \
	set vlc0 rts-threshold 1519
expect "rts-threshold 65536 refused, not taken as 0" \
	refused a "\[rts-threshold: 0\.\.65535\]" set vlc0 rts-threshold 65536
expect "retry-limit 16 refused" \
	refused a "retry-limit: must be 0\.\.15 \[retry-limit\]" \
	set vlc0 retry-limit 16
expect "retry-limit 256 refused, not taken as 0" \
	refused a "\[retry-limit: 0\.\.255\]" set vlc0 retry-limit 256
expect "cw-min 0 refused" \
	refused a "cw-min: must be 1\.\.cw-max \[cw-min\]" set vlc0 cw-min 0
expect "cw-min above cw-max refused" \
	refused a "cw-min: must be 1\.\.cw-max \[cw-min\]" \
	set vlc0 cw-min 600 cw-max 512
expect "cw-max below cw-min refused" \
	refused a "cw-min: must be 1\.\.cw-max" set vlc0 cw-max 8
expect "cw-max 1025 refused" \
	refused a "cw-max: must be 1\.\.1024 \[cw-max\]" set vlc0 cw-max 1025
expect "frag-size 47 refused" \
	refused a "frag-size: must be 48\.\.240 .*\[frag-size\]" \
	set vlc0 frag-size 47
expect "frag-size 241 refused" \
	refused a "frag-size: must be 48\.\.240 .*\[frag-size\]" \
	set vlc0 frag-size 241
expect "beacon-interval 63 refused" \
	refused a "beacon-interval: must be 0 \(off\) or 64\.\.65535 frames \[beacon-interval\]" \
	set vlc0 beacon-interval 63
expect "loc-interval 10 refused" \
	refused a "loc-interval: must be 0 \(off\) or 64\.\.65535 frames \[loc-interval\]" \
	set vlc0 loc-interval 10
expect "loc-interval 65536 refused" \
	refused a "\[loc-interval: 0\.\.65535\]" set vlc0 loc-interval 65536
expect "a bad MAC setting refuses the valid PHY one with it" \
	refused a "rts-threshold: .*\[rts-threshold\]" \
	set vlc0 brightness 250 retry-limit 5 rts-threshold 2000
expect "a bad PHY setting refuses the valid MAC one with it" \
	refused a "guard-us shorter than tolerance-us \[guard-us\]" \
	set vlc0 retry-limit 5 guard-us 10
expect "nothing changed by the refused MAC settings" \
	shows a vlc0 "modulation 2slot brightness 300 .*data-us 50 .*$mac_new"
expect "MAC settings back to their defaults" \
	ctl a set vlc0 rts-threshold 200 retry-limit 7 cw-min 32 cw-max 256 \
	frag-size 240 beacon-interval 1000 loc-interval 0 max-age 0 fec "$fec0"
expect "  ... read back" shows a vlc0 "$mac_defaults"

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
rc=0
ip netns exec a $nobody "$vlcctl" set vlc0 retry-limit 2 2>/tmp/ctl.err ||
	rc=$?
sed 's/^/  | /' /tmp/ctl.err
expect "MAC set without CAP_NET_ADMIN refused, saying what it needs" \
	sh -c "[ $rc = 1 ] && grep -q 'Operation not permitted: changing settings needs CAP_NET_ADMIN' /tmp/ctl.err"
expect "  ... and nothing changed" shows a vlc0 "retry-limit 7 "

# CAP_NET_ADMIN counts over the user namespace that owns the device's
# netns. This script runs chrooted, where no user namespace can be
# created: a holder started from init's root creates one (uid 0 mapped to
# itself) with a netns of its own, and gets a vlc device. Root entered
# into that user namespace has no capability outside it.
rm -f /tmp/uns.pid
nsenter --target 1 --root /bin/busybox unshare -r -n /bin/busybox sh -c \
	'echo $$ >/mnt/tmp/uns.pid; exec /bin/busybox sleep 600' &
eventually 10 test -s /tmp/uns.pid || fail "no user namespace"
upid=$(cat /tmp/uns.pid)
ip link add vlcu type vlc
ip link set vlcu netns "$upid"
# uns COMMAND...: as root of the holder's user namespace, in its netns
uns() {
	nsenter --preserve-credentials --target "$upid" --user --net "$@"
}
rc=0
ip netns exec a nsenter --preserve-credentials --target "$upid" --user \
	"$vlcctl" set vlc0 retry-limit 2 2>/tmp/ctl.err || rc=$?
sed 's/^/  | /' /tmp/ctl.err
expect "root of a user namespace that does not own netns a refused" \
	sh -c "[ $rc = 1 ] && grep -q 'needs CAP_NET_ADMIN' /tmp/ctl.err"
expect "  ... and nothing changed" shows a vlc0 "retry-limit 7 "
expect "root of the user namespace that owns the netns may set" \
	uns "$vlcctl" set vlcu retry-limit 2 brightness 250
uns "$vlcctl" show vlcu | tr -s '\n\t' '  ' >/tmp/uns.out
expect "  ... and reads it back" \
	grep -q 'brightness 250 .*retry-limit 2 ' /tmp/uns.out
expect "  ... but not without CAP_NET_ADMIN" sh -c "! nsenter \
	--preserve-credentials --target $upid --user --net setpriv \
	--inh-caps=-net_admin --bounding-set=-net_admin \
	$vlcctl set vlcu retry-limit 3 2>/dev/null"
uns "$vlcctl" show vlcu | tr -s '\n\t' '  ' >/tmp/uns.out
expect "  ... and nothing changed" grep -q 'retry-limit 2 ' /tmp/uns.out
# Timing and modulation set how often the executor runs: they need
# CAP_NET_ADMIN in the initial user namespace.
for v in "frame-us 600" "sync-us 30" "modulation 4ppm"; do
	rc=0
	# shellcheck disable=SC2086 # $v is the setting and its value
	uns "$vlcctl" set vlcu retry-limit 3 $v 2>/tmp/ctl.err || rc=$?
	sed 's/^/  | /' /tmp/ctl.err
	expect "$v refused to the user namespace's root, named" sh -c \
		"[ $rc = 1 ] && grep -q 'needs CAP_NET_ADMIN in the initial user namespace \[${v% *}\] (Operation not permitted)' /tmp/ctl.err"
done
uns "$vlcctl" show vlcu | tr -s '\n\t' '  ' >/tmp/uns.out
expect "  ... and nothing changed" grep -q \
	'modulation 2slot .*frame-us 500 sync-us 40 .*retry-limit 2 ' /tmp/uns.out
expect "  ... which root of the initial namespace may change" \
	nsenter --target "$upid" --net "$vlcctl" set vlcu frame-us 600
# The simulator is one medium for the whole machine: a node made in a
# user namespace would be seen by every other, and could take the IDs.
rc=0
uns ip link add vlcx type vlc 2>/tmp/ctl.err || rc=$?
sed 's/^/  | /' /tmp/ctl.err
expect "the user namespace's root cannot add a simulated node, told why" \
	sh -c "[ $rc != 0 ] && grep -q 'needs CAP_NET_ADMIN in the initial user namespace' /tmp/ctl.err"
expect "  ... and no node was made" sh -c \
	"! nsenter --target $upid --net ip link show vlcx 2>/dev/null"
uns ip link del vlcu
kill "$upid"

# A non-vlc device is refused.
expect "lo refused for set" \
	refused a "ifname: not a vlc device" set lo brightness 100
expect "lo refused for show" refused a "ifname: not a vlc device" show lo

# Both ends to 4-PPM (twice the bit rate) and ping, then back to 2-slot.
expect "a to 4ppm with brightness 200" \
	ctl a set vlc0 modulation 4ppm brightness 200
expect "b to 4ppm" ctl b set vlc0 modulation 4ppm
expect "a shows 4ppm and its brightness range" \
	shows a vlc0 "modulation 4ppm brightness 200 \(100\.\.240\)"
expect "b shows 4ppm at 4000 bit/s raw" \
	shows b vlc0 "modulation 4ppm .*\(4000 bit/s raw\)"
rx0=$(stat b phy_symbols_rx)
ping_after_switch 4ppm 5
expect "b received 4ppm symbols" test "$(stat b phy_symbols_rx)" -gt "$rx0"
expect "a locked in 4ppm" shows a vlc0 "locked yes"
expect "b locked in 4ppm" shows b vlc0 "locked yes"

expect "a back to 2slot" ctl a set vlc0 modulation 2slot
expect "b back to 2slot" ctl b set vlc0 modulation 2slot
ping_after_switch 2slot 3
expect "a shows 2slot at 2000 bit/s raw" \
	shows a vlc0 "modulation 2slot .*\(2000 bit/s raw\)"

# Location beacons: a's short address is the last byte of its MAC
# address; with loc-interval 200 (100 ms) b hears it about ten times a
# second whatever the traffic, against twice (idle beacons) without.
a_mac=$(ip -n a -o link show vlc0 | sed -n 's|.*link/ether \([0-9a-f:]*\) .*|\1|p')
b_mac=$(ip -n b -o link show vlc0 | sed -n 's|.*link/ether \([0-9a-f:]*\) .*|\1|p')
a_id=$(printf %d "0x${a_mac##*:}")
# Fixed neighbour entries from here on: no unicast ARP probe (some 400 ms
# on air) delays a beacon, or goes out after a counter was read.
ip -n a neigh replace 10.0.0.2 lladdr "$b_mac" nud permanent dev vlc0
ip -n b neigh replace 10.0.0.1 lladdr "$a_mac" nud permanent dev vlc0
expect "a's short address is the last byte of its MAC address ($a_mac)" \
	shows a vlc0 "short-addr $a_id "
expect "b lists a's idle beacons" eventually 30 shows b vlc0 \
	"beacon id $a_id level [1-9][0-9]* count [1-9][0-9]* age [0-9]+ ms"
rate=$(beacon_rate b "$a_id")
expect "  ... about twice a second ($rate/s)" test "$rate" -le 3
expect "loc-interval 200 on a" ctl a set vlc0 loc-interval 200
expect "  ... shown with its time" shows a vlc0 "loc-interval 200 \(100 ms\)"
rate=$(beacon_rate b "$a_id")
expect "  ... b hears a about ten times a second ($rate/s)" test "$rate" -ge 8
ages=""
for i in 1 2 3 4 5; do
	set -- $(beacon b "$a_id")
	ages="$ages $3"
	sleep 0.2
done
echo "  ages of a's last beacon on b (ms):$ages"
# Due every 200 frames, each sent after a backoff below cw_min (32), and
# after b's idle beacon (48 frames) and DIFS when the two meet: no more
# than 284 frames (142 ms) apart. Idle beacons alone spread ages over
# 0..540 ms. The age is guest time, which a stalled vCPU stretches, so
# the middle of the five samples is held to it, and every one to a
# second (a stale entry, or frames shown as ms, would pass neither).
mid=$(printf '%s\n' $ages | sort -n | sed -n 3p)
expect "  ... median age $mid ms below 100 ms (+ 50 ms)" test "$mid" -le 150
for age in $ages; do
	expect "  ... age $age ms below a second" test "$age" -lt 1000
done
ctl b show vlc0
expect "show -j on b is valid JSON" json b vlc0
expect "  ... and lists a's id" \
	grep -q "\"beacons\":\[.*{\"id\":$a_id,\"level\":[1-9]" /tmp/show.json
printf '%s kitchen\n%s hall upstairs\n' "$a_id" $((a_id % 254 + 1)) \
	>/tmp/rooms
expect "b maps a's id to its room" test "$(room b /tmp/rooms)" = kitchen
printf '%s hall upstairs\n' $((a_id % 254 + 1)) >/tmp/rooms
expect "  ... or says it does not know it" \
	test "$(room b /tmp/rooms)" = "unknown id $a_id"
expect "loc-interval back to 0" ctl a set vlc0 loc-interval 0

# RTS/CTS: with rts-threshold 1 every unicast frame of a reserves the
# medium first, and b answers; with 0 neither does.
expect "rts-threshold 1 on a" ctl a set vlc0 rts-threshold 1
rts0=$(stat a mac_tx_rts)
cts0=$(stat b mac_tx_cts)
expect "  ... a pings b" ip netns exec a ping -c 2 -i 1 -W 30 -q 10.0.0.2
rts1=$(stat a mac_tx_rts)
cts1=$(stat b mac_tx_cts)
echo "  a sent $((rts1 - rts0)) RTS, b $((cts1 - cts0)) CTS"
expect "  ... a sent RTS" test "$rts1" -gt "$rts0"
expect "  ... b answered with CTS" test "$cts1" -gt "$cts0"
expect "rts-threshold 0 on a" ctl a set vlc0 rts-threshold 0
rts1=$(stat a mac_tx_rts)
cts1=$(stat b mac_tx_cts)
expect "  ... a pings b" ip netns exec a ping -c 2 -i 1 -W 30 -q 10.0.0.2
expect "  ... a sent no RTS" test "$(stat a mac_tx_rts)" = "$rts1"
expect "  ... b sent no CTS" test "$(stat b mac_tx_cts)" = "$cts1"

# vlcctl monitor: a hears b go dark and come back
ctl a monitor vlc0 >/tmp/mon.txt 2>&1 &
mon=$!
sleep 2
ip -n b link set vlc0 down
expect "a loses its carrier with b down" wait_until 120 sh -c \
	'! ip -n a link show vlc0 | grep -q LOWER_UP'
ip -n b link set vlc0 up
expect "a has its carrier again" wait_carrier a 120
wait_until 60 grep -q "^vlc0: lock$" /tmp/mon.txt || true
kill "$mon"
sed 's/^/  | /' /tmp/mon.txt
for e in unlock "carrier off" lock "carrier on"; do
	expect "monitor saw $e" grep -q "^vlc0: $e$" /tmp/mon.txt
done

sim_unload
expect "modules unload with the family registered" \
	test ! -e /sys/module/vlc_sim -a ! -e /sys/module/vlc
