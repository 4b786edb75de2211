#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vlc-timeout: 600
# Bad configuration: every module parameter of vlc_sim, at load time and
# through sysfs, the simulator's netlink settings (vlcctl sim), and the
# device's netlink settings the vlcctl scenario leaves out, at, below and
# above their limits. A bad value is refused with -EINVAL (EINVAL for
# sysfs writes, vlcctl's "Invalid argument" or its own usage error; what
# vlcctl refuses itself is also sent raw, by nlset.py), the message names
# the parameter, and the previous value stays; a value at a limit is
# taken. Counts the bad inputs tried ("bad inputs: N").
. "$VLC_SRC/tests/qemu/lib.sh"

bad=0
p=/sys/module/vlc_sim/parameters

# said PATTERN: the kernel's last lines name it (grep -E)
said() {
	dmesg | tail -n 3 | grep -Eq "$1"
}

# refused_write FILE VALUE PATTERN: writing VALUE to FILE fails with
# EINVAL, the kernel says PATTERN, and FILE reads as before
refused_write() {
	before=$(cat "$1")
	dmesg -C
	# coreutils' echo says why a write failed (dash's: I/O error)
	if out=$(/bin/echo "$2" 2>&1 >"$1"); then
		echo "write $2 to $1 succeeded" >&2
		return 1
	fi
	bad=$((bad + 1))
	case "$out" in
	*"Invalid argument"*) ;;
	*) echo "write $2 to $1: $out, not EINVAL" >&2; return 1 ;;
	esac
	said "$3" || { echo "no \"$3\" in:" >&2; dmesg | tail -n 3 >&2; return 1; }
	[ "$(cat "$1")" = "$before" ] ||
		{ echo "$1 changed: $before -> $(cat "$1")" >&2; return 1; }
}

# taken FILE VALUE: writing VALUE to FILE works and reads back
taken() {
	echo "$2" >"$1" && [ "$(cat "$1")" = "$2" ]
}

# ---- module parameters of vlc_sim: NAME MIN MAX ----
vlc_load
expect "vlc has no module parameters" test ! -e /sys/module/vlc/parameters
params="speed 0 100000
ambient 0 1000000
flicker 0 1000000
flicker_hz 1 10000
noise 0 1000000
ser_ppm 0 1000000
late_ppm 0 1000000
late_us 0 1000000
burst_ppm 0 1000000
burst_us 0 10000000"

# At load time: out of range or no number, the module does not load and
# the message names the parameter. boards is read-only after load.
printf '%s\nboards 0 64\n' "$params" | while read -r name min max; do
	for v in $((max + 1)) x; do
		dmesg -C
		if insmod "$VLC_MOD/vlc_sim.ko" "$name=$v" 2>/dev/null; then
			fail "insmod vlc_sim $name=$v loaded"
		fi
		said "vlc_sim: $name: expected $min\.\.$max" ||
			fail "insmod vlc_sim $name=$v: no message naming it"
		echo "ok - insmod vlc_sim $name=$v refused, named"
	done
done
bad=$((bad + 2 * ($(echo "$params" | wc -l) + 1)))
dmesg -C
insmod "$VLC_MOD/vlc_sim.ko" seed=x 2>/dev/null && fail "seed=x loaded"
expect "insmod vlc_sim seed=x refused, named" said "invalid for parameter .seed"
bad=$((bad + 1))

# At run time, through sysfs: the limits are taken, one past them, a
# negative number and a word are refused and change nothing.
insmod "$VLC_MOD/vlc_sim.ko" speed=100
echo "$params" | {
	n=0
	while read -r name min max; do
		f=$p/$name
		old=$(cat "$f")
		expect "$name: $max taken" taken "$f" "$max"
		expect "$name: $min taken" taken "$f" "$min"
		echo "$old" >"$f"
		expect "$name: $((max + 1)) refused" \
			refused_write "$f" $((max + 1)) "vlc_sim: $name: expected $min\.\.$max"
		n=$((n + 1))
		if [ "$min" -gt 0 ]; then
			expect "$name: $((min - 1)) refused" \
				refused_write "$f" $((min - 1)) "vlc_sim: $name: expected"
			n=$((n + 1))
		fi
		expect "$name: -1 refused" refused_write "$f" -1 "vlc_sim: $name: expected"
		expect "$name: 4294967296 refused" \
			refused_write "$f" 4294967296 "vlc_sim: $name: expected"
		expect "$name: x refused" refused_write "$f" x "vlc_sim: $name: expected"
		n=$((n + 3))
		expect "$name: still $old" test "$(cat "$f")" = "$old"
	done
	echo "$n" >/tmp/bad.sysfs
}
bad=$((bad + $(cat /tmp/bad.sysfs)))
expect "seed is read-only" sh -c "! echo 5 >$p/seed 2>/dev/null"
expect "boards is read-only" sh -c "! echo 5 >$p/boards 2>/dev/null"

# ---- the simulator over netlink: vlcctl sim ----
ip link add vlca type vlc
ip link add vlcb type vlc
vlcctl=$(vlcctl_bin)
# sim_refused PATTERN ARGS...: vlcctl sim ARGS fails with status 1 (2:
# refused by vlcctl itself), its message matches PATTERN, and what sim
# show prints is as before
sim_refused() {
	pat=$1
	shift
	before=$(sim show)
	rc=0
	sim "$@" 2>/tmp/sim.err || rc=$?
	if [ $rc = 0 ]; then
		echo "vlcctl sim $* succeeded" >&2
		return 1
	fi
	bad=$((bad + 1))
	sed 's/^/  | /' /tmp/sim.err
	grep -Eq "$pat" /tmp/sim.err || return 1
	[ "$(sim show)" = "$before" ] ||
		{ echo "the medium changed" >&2; return 1; }
}
# sim_shows PATTERN: a line of sim show matches PATTERN
sim_shows() {
	sim show | grep -Eq "$1"
}
# The medium's settings: the module parameters' ranges, by their names
# in vlcctl.
echo "$params" | {
	n=0
	while read -r name min max; do
		key=$(echo "$name" | tr _ -)
		old=$(sim show | sed -n "s/^medium.* $key \([0-9]*\).*/\1/p")
		sim set "$key" "$max"
		expect "sim set $key $max taken" sim_shows "^medium.* $key $max( |\$)"
		sim set "$key" "$min"
		expect "sim set $key $min taken" sim_shows "^medium.* $key $min( |\$)"
		sim set "$key" "$old"
		expect "sim set $key $((max + 1)) refused" \
			sim_refused "\\[$key: $min\\.\\.$max\\]" set "$key" $((max + 1))
		n=$((n + 1))
	done
	echo "$n" >/tmp/bad.nl
}
bad=$((bad + $(cat /tmp/bad.nl)))
expect "sim set flicker-hz 0 refused" \
	sim_refused "\\[flicker-hz: 1\\.\\.10000\\]" set flicker-hz 0
# A node's clock, by the node's name
expect "skew-ppm 100000 taken" sim node vlca skew-ppm 100000 phase-us 0
expect "  ... shown" sim_shows "^node vlca .*skew-ppm 100000( |\$)"
expect "skew-ppm -100000 taken" sim node vlca skew-ppm -100000 phase-us 0
expect "  ... shown" sim_shows "^node vlca .*skew-ppm -100000( |\$)"
sim node vlca skew-ppm 0 phase-us 0
expect "skew-ppm 100001 refused" \
	sim_refused "\\[skew-ppm: -100000\\.\\.100000\\]" node vlca skew-ppm 100001
expect "skew-ppm -100001 refused" \
	sim_refused "\\[skew-ppm: -100000\\.\\.100000\\]" node vlca skew-ppm -100001
expect "skew-ppm x refused by vlcctl" sim_refused "skew-ppm" node vlca skew-ppm x
expect "phase-us 10000000 taken" sim node vlca phase-us 10000000
expect "  ... shown" sim_shows "^node vlca .*phase-us 10000000( |\$)"
expect "phase-us -10000000 taken" sim node vlca phase-us -10000000
sim node vlca phase-us 0
expect "phase-us 10000001 refused" \
	sim_refused "\\[phase-us: -10000000\\.\\.10000000\\]" node vlca phase-us 10000001
expect "phase-us -10000001 refused" \
	sim_refused "\\[phase-us: -10000000\\.\\.10000000\\]" node vlca phase-us -10000001
expect "rx xx refused by vlcctl" sim_refused "rx" node vlca rx xx
expect "a node that does not exist refused" \
	sim_refused "no such node|not a simulated node|no node" node 63 skew-ppm 1
# Edges: gain 0..1000, between two nodes that exist
expect "edge gain 1000 taken" sim edge vlca vlcb gain 1000
expect "edge gain 0 taken" sim edge vlca vlcb gain 0
expect "  ... shown: no edge vlca -> vlcb" sh -c "! $vlcctl sim show | grep -q '^edge vlca vlcb '"
sim edge vlca vlcb gain 700 both
expect "edge gain 700 both ways taken" sim_shows "^edge vlcb vlca 700$"
expect "edge gain 1001 refused" \
	sim_refused "\\[gain: 0\\.\\.1000\\]" edge vlca vlcb gain 1001
expect "edge gain -1 refused by vlcctl" sim_refused "gain" edge vlca vlcb gain -1
expect "an edge from a node to itself refused" \
	sim_refused "does not see its own light" edge vlca vlca gain 500
expect "an edge to a node that does not exist refused" \
	sim_refused "no such node|no node" edge vlca 63 gain 500
expect "an edge to node 64 refused" sim_refused "64|0\\.\\.63" edge vlca 64 gain 500
expect "an edge with no gain and no cover refused" sim_refused "." edge vlca vlcb

# ---- netlink: what vlcctl.sh leaves out ----
# nl_refused PATTERN ARGS...: vlcctl set vlca fails, its message (the
# kernel's extack) matches PATTERN, and show is as before
nl_refused() {
	pat=$1
	shift
	before=$(ctl - show vlca | grep -v '^ *stats\|signal\|frames')
	if ctl - set vlca "$@" 2>/tmp/ctl.err; then
		echo "vlcctl set vlca $* succeeded" >&2
		return 1
	fi
	bad=$((bad + 1))
	sed 's/^/  | /' /tmp/ctl.err
	grep -Eq "$pat" /tmp/ctl.err || return 1
	[ "$(ctl - show vlca | grep -v '^ *stats\|signal\|frames')" = "$before" ] ||
		{ echo "settings changed" >&2; return 1; }
}
# nl_taken ARGS... -- PATTERN: vlcctl set vlca ARGS works and show
# matches PATTERN
nl_taken() {
	ctl - set vlca "$@" && ctl - show vlca | tr -s '\n\t' '  ' | grep -Eq "$nl_want"
}
# Each limit itself is taken and shown as set (0: off, where it means so).
for v in "rts-threshold 1518" "rts-threshold 0" "retry-limit 15" \
	"retry-limit 0" "cw-min 1 cw-max 1024" "frag-size 48" "frag-size 240" \
	"beacon-interval 64" "beacon-interval 65535" "beacon-interval 0" \
	"loc-interval 65535" "loc-interval 64" "max-age 64" "max-age 65535" \
	"max-age 0"; do
	nl_want="$v "
	# shellcheck disable=SC2086 # $v is the setting and its value
	expect "$v taken" nl_taken $v
done
nl_want="cw-min 1024 cw-max 1024 "
expect "cw-min = cw-max 1024 taken" nl_taken cw-min 1024
ctl - set vlca rts-threshold 200 retry-limit 7 cw-min 32 cw-max 256 \
	frag-size 240 beacon-interval 1000 loc-interval 0
expect "max-age 63 refused" nl_refused "max-age: must be 0 \(off\) or 64\.\.65535 frames \[max-age\]" max-age 63
expect "max-age 65536 refused" nl_refused "\[max-age: 0\.\.65535\]" max-age 65536
# fec: off, auto or a parity count. vlcctl refuses any other word itself;
# past it, raw over netlink (nlset.py), the kernel refuses the values no
# frame header can name, pointing at the attribute, and those above the
# field by the policy.
nlset=$VLC_SRC/tests/qemu/nlset.py
# the host's root is read-only here: no __pycache__
export PYTHONDONTWRITEBYTECODE=1
# nl_raw_refused PATTERN NAME=VALUE...: nlset.py's SET of vlca is refused
# by the kernel (exit 1), its message matches PATTERN, and show is as
# before
nl_raw_refused() {
	pat=$1
	shift
	before=$(ctl - show vlca | grep -v '^ *stats\|signal\|frames')
	rc=0
	python3 "$nlset" vlca "$@" 2>/tmp/nl.err || rc=$?
	[ $rc = 1 ] || { echo "nlset.py vlca $*: exit $rc, not 1" >&2; return 1; }
	bad=$((bad + 1))
	sed 's/^/  | /' /tmp/nl.err
	grep -Eq "$pat" /tmp/nl.err || return 1
	[ "$(ctl - show vlca | grep -v '^ *stats\|signal\|frames')" = "$before" ] ||
		{ echo "settings changed" >&2; return 1; }
}
# nl_shows: show vlca, its lines joined, matches $nl_want
nl_shows() {
	ctl - show vlca | tr -s '\n\t' '  ' | grep -Eq "$nl_want"
}
for v in auto 16 off; do
	nl_want="fec $v nav "
	expect "fec $v taken" nl_taken fec $v
done
nl_want="fec auto nav "
expect "fec 255 over netlink taken" python3 "$nlset" vlca FEC=255
expect "  ... shown as auto" nl_shows
nl_want="fec 32 nav "
expect "fec 32 over netlink taken" python3 "$nlset" vlca FEC=32
expect "  ... shown as 32" nl_shows
ctl - set vlca fec off
for v in 1 3 5 33 254; do
	expect "fec $v refused by vlcctl" nl_refused "fec: '$v' is not off, auto" fec $v
	expect "fec $v over netlink refused by the kernel, naming fec" \
		nl_raw_refused "fec: must be off, auto, or 2, 4, 8, 16 or 32 parity symbols \[FEC\] \(Invalid argument\)" FEC=$v
done
expect "fec 256 over netlink refused by the policy, at fec" \
	nl_raw_refused "\[FEC\] \(Numerical result out of range\)" FEC=256
expect "cw-max 0 refused" nl_refused "cw-max: must be 1\.\.1024 \[cw-max\]" cw-max 0
expect "beacon-interval 65536 refused" nl_refused "\[beacon-interval: 0\.\.65535\]" beacon-interval 65536
expect "frag-size 65536 refused" nl_refused "\[frag-size: 0\.\.65535\]" frag-size 65536
expect "cw-min 65536 refused" nl_refused "\[cw-min: 0\.\.65535\]" cw-min 65536
expect "cw-max 65536 refused" nl_refused "\[cw-max: 0\.\.65535\]" cw-max 65536
# PHY timing (us): at the limits, then past them
nl_want="brightness 520 "
expect "brightness 520 (the maximum at 500 us 2-slot) taken" nl_taken brightness 520
nl_want="brightness 100 "
expect "brightness 100 (the minimum: one 50 us data slot in 500 us) taken" \
	nl_taken brightness 100
expect "brightness 99 refused" nl_refused "brightness below the minimum" brightness 99
expect "brightness 0 refused" nl_refused "brightness below the minimum" brightness 0
ctl - set vlca brightness 200
expect "brightness 521 refused" nl_refused "brightness above the maximum" brightness 521
expect "brightness 1001 refused" nl_refused "\[brightness: 0\.\.1000\]" brightness 1001
expect "sync-us 0 refused" nl_refused "\[sync-us: 1\.\.100000\]" sync-us 0
expect "sync-us 0.001 (a 1 ns slot) refused" \
	nl_refused "\[sync-us: 1\.\.100000\]" sync-us 0.001
expect "guard-us 0.999 refused" nl_refused "\[guard-us: 1\.\.100000\]" \
	guard-us 0.999 tolerance-us 0
expect "tolerance-us above guard-us refused" \
	nl_refused "guard-us shorter than tolerance-us" tolerance-us 21
nl_want="guard-us 20 data-us 50 tolerance-us 0 "
expect "tolerance-us 0 taken" nl_taken tolerance-us 0
nl_want="guard-us 20 data-us 50 tolerance-us 20 "
expect "tolerance-us 20 = guard-us taken" nl_taken tolerance-us 20
expect "frame-us 100001 (above 100 ms) refused" \
	nl_refused "\[frame-us: 10\.\.100000\]" frame-us 100001
expect "tolerance-us 100001 refused" \
	nl_refused "\[tolerance-us: 0\.\.100000\]" tolerance-us 100001
nl_want="frame-us 100000 "
expect "frame-us 100000 (100 ms) taken" nl_taken frame-us 100000
# 2 sync + 3 guard + 2 data slots: 240 us, no light left to illuminate
expect "frame-us 239 refused" nl_refused "frame-us too short.*\[frame-us\]" frame-us 239
# At 240 us no brightness fits: at least one data slot (209 per-mille),
# at most the illumination part (none). At 300 us: 167..200.
expect "frame-us 240 (the slots alone) refused at brightness 0" \
	nl_refused "brightness below the minimum" frame-us 240 brightness 0
expect "frame-us 240 refused at brightness 209" \
	nl_refused "brightness above the maximum" frame-us 240 brightness 209
nl_want="brightness 167 .*frame-us 300 "
expect "frame-us 300 taken at brightness 167 (its minimum)" \
	nl_taken frame-us 300 brightness 167
expect "brightness 166 at frame-us 300 refused" \
	nl_refused "brightness below the minimum" brightness 166
expect "brightness 201 at frame-us 300 refused" \
	nl_refused "brightness above the maximum" brightness 201
ctl - set vlca frame-us 500 brightness 200
expect "frame-us 4294968 (no u32 of ns) refused by vlcctl, named" \
	nl_refused "frame-us|frame_ns|out of range|Invalid" frame-us 4294968
ctl - set nosuch brightness 1 2>/tmp/ctl.err && fail "set nosuch taken"
bad=$((bad + 1))
expect "a device that does not exist: named" grep -q "ifname: no such device" /tmp/ctl.err

# ---- the interface: MTU and address (the core's checks) ----
expect "mtu 1500 taken" ip link set vlca mtu 1500
expect "mtu 68 taken" ip link set vlca mtu 68
for m in 1501 67; do
	ip link set vlca mtu $m 2>/tmp/ip.err && fail "mtu $m taken"
	bad=$((bad + 1))
	cat /tmp/ip.err
	expect "mtu $m refused, named" grep -q "mtu" /tmp/ip.err
done
ip link set vlca mtu 1500
expect "mtu still 1500" sh -c "ip link show vlca | grep -q 'mtu 1500 '"
a0=$(cat /sys/class/net/vlca/address)
for a in 01:00:5e:00:00:01 00:00:00:00:00:00; do
	ip link set vlca address $a 2>/tmp/ip.err && fail "address $a taken"
	bad=$((bad + 1))
	cat /tmp/ip.err
done
expect "address kept" test "$(cat /sys/class/net/vlca/address)" = "$a0"

ip link del vlca
ip link del vlcb
sim_unload
echo "bad inputs: $bad"
echo "$bad" >"$VLC_OUT/bad-inputs.txt"
