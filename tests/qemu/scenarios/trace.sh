#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Tracepoints: a ping between two simulated boards whose clocks are
# 500 ppm apart, recorded with trace-cmd, shows the MAC's exchange (a
# backoff and a DATA from a, the DATA received by b, its ACK back), PHY
# frames that carry the levels their decisions were made on, and phase
# corrections that follow the offsets the frames reported; a ping the
# other way, read from tracefs directly, shows the same; tools/vlc-plot
# draws both captures. Captures and pictures stay in the results folder
# (build/qemu/trace/).
. "$VLC_SRC/tests/qemu/lib.sh"

command -v trace-cmd >/dev/null || fail "no trace-cmd: scripts/deps.sh qemu"
tr=/sys/kernel/tracing
sim_load
[ -d $tr/events/vlc ] || fail "no vlc events in $tr"
vlc_pair
# No IPv6 on vlc0: its router and multicast listener chatter would share
# the air with the traced pings, and may collide with them.
for n in a b; do
	ip netns exec $n sh -c 'echo 1 >/proc/sys/net/ipv6/conf/vlc0/disable_ipv6'
done
sim node a/vlc0 skew-ppm 250
sim node b/vlc0 skew-ppm -250
expect "a locks to b" wait_carrier a 60
expect "b locks to a" wait_carrier b 60
# ARP first: the traced pings are then one DATA each way.
ping_ok a 10.0.0.2 || fail "no first ping"

# short NS: the node's short address on air (last byte of its MAC address)
short() {
	printf '%d' "0x$(ip -n "$1" link show vlc0 |
		sed -n 's/.*link\/ether ..:..:..:..:..:\(..\) .*/\1/p')"
}
sa=$(short a)
sb=$(short b)
echo "short addresses: a=$sa b=$sb"

# A quarter of real time while tracing: fewer idle frames are recorded
# while the commands start (and the text is slow to sift under TCG).
sim set speed 25
trace-cmd start -b 8192 -e vlc >/dev/null
ip netns exec a ping -c 1 -W 60 10.0.0.2 >/dev/null || fail "traced ping failed"
trace-cmd stop
trace-cmd extract -o /tmp/trace.dat >/dev/null 2>&1
trace-cmd reset >/dev/null 2>&1
cp /tmp/trace.dat "$VLC_OUT/trace.dat"
t=/tmp/trace.txt
trace-cmd report -i /tmp/trace.dat >$t 2>/dev/null
echo "trace-cmd: $(wc -l <"$t") events"

# after LINE REGEX FILE: number of the first line after LINE matching
after() {
	grep -n -E "$2" "$3" | awk -F: -v l="$1" '$1 > l { print $1; exit }'
}

# The exchange, in this order, for one sequence number.
l=$(after 0 "vlc_mac_tx: +vlc0/$sa DATA ok src=$sa dst=$sb " "$t")
expect "a sends a DATA to b" test -n "$l"
seq=$(sed -n "${l}s/.* seq=\([0-9]*\) .*/\1/p" "$t")
lb=$(grep -n -E "vlc_mac_backoff: +vlc0/$sa backoff=[0-9]+ cw=[0-9]+" "$t" |
	head -n 1 | cut -d: -f1)
expect "a drew a backoff before it" test -n "$lb" -a "${lb:-0}" -lt "$l"
l=$(after "$l" "vlc_mac_rx: +vlc0/$sb DATA ok src=$sa dst=$sb .* seq=$seq frag=0" "$t")
expect "b receives it (ok)" test -n "$l"
l=$(after "${l:-0}" "vlc_mac_tx: +vlc0/$sb ACK ok src=$sb dst=$sa .* seq=$seq frag=0" "$t")
expect "b sends the ACK" test -n "$l"
l=$(after "${l:-0}" "vlc_mac_rx: +vlc0/$sa ACK ok src=$sb dst=$sa .* seq=$seq frag=0" "$t")
expect "a receives the ACK" test -n "$l"
expect "b answers with a DATA, acknowledged by a" sh -c "
	grep -q -E 'vlc_mac_tx: +vlc0/$sb DATA ok src=$sb dst=$sa ' '$t' &&
	grep -q -E 'vlc_mac_tx: +vlc0/$sa ACK ok src=$sa dst=$sb ' '$t'"
grep -E 'vlc_mac_(rx|retry): .* (crc|truncated|erasure|bad_header|retry|drop) ' "$t" |
	head -n 5 >/tmp/bad.txt
cat /tmp/bad.txt
expect "no MAC drop or retry in a clean ping" test ! -s /tmp/bad.txt

# levels NODE FILE: the frames of NODE that decided a symbol while it
# was not sending, as "sym D1 D2" (2-slot: S1 G D1 G D2 G S2). trace-cmd
# prints levels=1985 1991 ..., tracefs levels={0x7c1,0x7c7,...}; awk is
# mawk here: hexadecimal by hand.
levels() {
	grep -E "vlc_phy_frame: +vlc0/$1 " "$2" |
		sed -n 's/.* sym=\([0-9]*\) .*flags=\([0-9a-fx]*\) levels=[{]*\([^}]*\)[}]*$/\1 \2 \3/p' |
		tr ',' ' ' |
		awk 'function num(s,  i, v) {
			if (s !~ /^0x/)
				return s + 0
			v = 0
			for (i = 3; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v
		}
		{
			if (int(num($2) / 4) % 2)
				next	# VLC_PHY_RX_OWN_TX
			if (NF != 9) { print "bad " NF - 2; next }
			print $1, num($5), num($7)
		}'
}
levels "$sb" "$t" >/tmp/lv.txt
n=$(wc -l </tmp/lv.txt)
echo "b decided $n symbols from a"
expect "vlc_phy_frame carries 7 slot levels" sh -c '! grep -q "^bad" /tmp/lv.txt'
expect "b decided all 736 symbols of the DATA after its preamble" test "$n" -ge 736
wrong=$(awk '($1 == 0 && $2 <= $3) || ($1 == 1 && $3 <= $2)' /tmp/lv.txt | wc -l)
expect "the decided slot is the brighter one in every frame" test "$wrong" = 0

# Sync: both nodes correct their grids; a's frames report offsets; a
# coarse correction is half the offset its frame reported, or all of it
# (the neighbour stood still: vlc_mac_acq_still()); and the
# corrections account for the skew: a's less b's add up to 500 ppm of
# the time traced (the offsets they leave are bounded).
for n in "$sa" "$sb"; do
	expect "vlc_phase: node $n corrects its grid" \
		grep -q -E "vlc_phase: +vlc0/$n move frame grid by -?[1-9]" "$t"
done
expect "a's frames report the neighbour early or late" \
	grep -q -E "vlc_phy_frame: +vlc0/$sa .* sync=[23] offset=-?[1-9]" "$t"
bad=$(awk '/vlc_phase:/ && / coarse=1 / {
		for (i = 1; i <= NF; i++) {
			if ($i == "by")
				ns = $(i + 1)
			if ($i ~ /^offset=/)
				off = substr($i, 8) + 0
		}
		n++
		if (ns != int(off / 2) && ns != off)
			bad++
	}
	END { print n + 0, bad + 0 }' "$t")
echo "coarse corrections, wrong ones: $bad"
expect "every coarse correction is half or all of its frame's offset" \
	test "${bad#* }" = 0
skew=$(awk -v a="$sa" -v b="$sb" '
	/vlc_phase:/ {
		for (i = 1; i <= NF; i++)
			if ($i == "by")
				ns = $(i + 1)
		if ($0 ~ "vlc0/" a " ")
			sum += ns
		if ($0 ~ "vlc0/" b " ")
			sum -= ns
	}
	$0 ~ "vlc_phy_frame: +vlc0/" a " " {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^start=/)
				t = substr($i, 7) + 0
		if (!t0)
			t0 = t
	}
	END { printf "%d %d\n", sum, (t - t0) * 500 / 1000000 }' "$t")
echo "corrections of a less b's, 500 ppm of the time traced (ns): $skew"
expect "the corrections add up to the skew (10% + 20 us)" sh -c "echo $skew |
	awk '{ d = \$1 - \$2; if (d < 0) d = -d; exit !(d <= \$2 / 10 + 20000) }'"

# The other way, from tracefs: b pings a; a's events only (a filter
# on the node field all vlc events have).
echo 8192 >$tr/buffer_size_kb
echo >$tr/trace
echo "node == $sa" >$tr/events/vlc/filter
echo 1 >$tr/events/vlc/enable
ip netns exec b ping -c 1 -W 60 10.0.0.1 >/dev/null || fail "second ping failed"
echo 0 >$tr/events/vlc/enable
echo 0 >$tr/events/vlc/filter
f=/tmp/trace-tracefs.txt
cat $tr/trace >"$f"
cp "$f" "$VLC_OUT/"
echo "tracefs: $(grep -c vlc_ "$f") events"
expect "tracefs: the filter kept a's events only" sh -c \
	"! grep -q -E 'vlc_[a-z_]+: +vlc0/$sb ' '$f'"
l=$(after 0 "vlc_mac_rx: +vlc0/$sa DATA ok src=$sb dst=$sa " "$f")
expect "tracefs: a receives a DATA from b" test -n "$l"
l=$(after "${l:-0}" "vlc_mac_tx: +vlc0/$sa ACK ok src=$sa dst=$sb " "$f")
expect "tracefs: a acknowledges it" test -n "$l"
levels "$sa" "$f" >/tmp/lv2.txt
expect "tracefs: levels={0x..} parse, 7 per frame" sh -c \
	'[ -s /tmp/lv2.txt ] && ! grep -q "^bad" /tmp/lv2.txt'
wrong=$(awk '($1 == 0 && $2 <= $3) || ($1 == 1 && $3 <= $2)' /tmp/lv2.txt | wc -l)
expect "tracefs: the decided slot is the brighter one" test "$wrong" = 0

# tools/vlc-plot on the frames around that DATA (python and gnuplot are
# slow under TCG): an idle frame, then the first symbols received. The
# window starts at a's first idle frame followed by a symbol (a fixed
# count of lines before the DATA may fall inside a frame, or before the
# trace).
k=$(awk -v n="vlc_phy_frame: +vlc0/$sa " '
	$0 ~ n { if ($0 ~ / sym=-1 /) idle = NR; else if (idle) { print idle; exit } }
	' "$f")
expect "tracefs: an idle frame, then a symbol" test "${k:-0}" -gt 0
awk -v k="$k" 'NR >= k && NR < k + 1000' "$f" >/tmp/small.txt
plot="python3 $VLC_SRC/tools/vlc-plot/vlc-plot /tmp/small.txt --keep /tmp/vp"
if command -v gnuplot >/dev/null; then
	$plot -o "$VLC_OUT/trace-tracefs.png"
	expect "vlc-plot draws a PNG" sh -c \
		"head -c 4 '$VLC_OUT/trace-tracefs.png' | od -An -c | grep -q 'P   N   G'"
else
	echo "no gnuplot: the data and script only"
	$plot --no-render
fi
expect "vlc-plot: 6 frames of 7 slots" test "$(grep -vc '^#' /tmp/vp/slots.dat)" = 42
expect "vlc-plot: an idle frame, then symbols" sh -c \
	"sed -n 2p /tmp/vp/frames.dat | grep -q idle &&
	 sed -n 3p /tmp/vp/frames.dat | grep -q 'sym [01]'"
