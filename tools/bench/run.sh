#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2046,SC2016 # fields split on purpose; awk in quotes
#
# make bench: measure, then write the tables and figures that the
# hand-written Documentation/networking/vlc-benchmarks.rst includes (the
# fragments in Documentation/networking/vlc-bench/) and its PNG plots.
# Benchmarks never fail the build; they are deterministic (seeded,
# virtual time) except the wall-clock latency of the host build.
#
# Per section NAME (phy, hard, net, contention, sync, jitter, goodput,
# maccost, feccost, ser, range, anchors) the fragments are
#   NAME.run.inc            when, on which tree and by which command
#   NAME.figures.inc        ".. |NAME_WHAT| replace:: VALUE" for the prose
#   NAME-WHAT.table.inc     a table
#   NAME-WHAT.literal.inc   a literal block (commands, raw rows)
# and a section's are replaced together, once it has measured all.

set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/bench
doc=$top/Documentation/networking
frag=$doc/vlc-bench
mkdir -p "$out" "$frag"
# BENCH_ONLY="sync jitter ...": run only those sections; the fragments
# of the others stay as they are.
want() {
	[ -z "${BENCH_ONLY:-}" ] && return 0
	case " $BENCH_ONLY " in *" $1 "*) return 0 ;; esac
	return 1
}
make -s -C "$top/tools/bench"
pb=$out/phy_bench
lb=$out/link_bench
mb=$out/mac_bench

# Provenance of every section written: a section measured alone must
# still say which tree it measured.
run_date=$(date -u +%Y-%m-%d)
run_tree=$(git -C "$top" describe --always --dirty 2>/dev/null || echo "no git")
run_cmd=
for v in BENCH_ONLY HARD_BEFORE BENCH_NET_TXT BENCH_SER_TXT; do
	eval "val=\${$v:-}"
	[ -z "$val" ] || run_cmd="$run_cmd$v=\"$val\" "
done
if [ -n "${MAKELEVEL:-}" ]; then
	run_cmd="${run_cmd}make bench"
else
	run_cmd="${run_cmd}tools/bench/run.sh"
fi

# begin NAME: collect section NAME's fragments apart, so that a run that
# stops half way leaves the old ones whole
begin() {
	sec=$1
	stage=$out/frag-$1
	rm -rf "$stage"
	mkdir -p "$stage"
	put "$sec.run.inc" <<EOF
Measured on $run_date ($(uname -m), $(nproc) cores), tree $run_tree, by \`\`$run_cmd\`\`.
EOF
	put "$sec.figures.inc" </dev/null
}
# put FILE: stdin as the fragment FILE
put() {
	{
		echo ".. Written by tools/bench/run.sh (make bench); do not edit."
		echo
		cat
	} >"$stage/$1"
}
# fig WHAT VALUE: the substitution |SECTION_WHAT|
fig() {
	printf '.. |%s_%s| replace:: %s\n' "$sec" "$1" "$2" >>"$stage/$sec.figures.inc"
}
# finish: the section's fragments replace the old ones
finish() {
	rm -f "$frag/$sec".*.inc "$frag/$sec"-*.inc
	mv "$stage"/* "$frag/"
	rmdir "$stage"
	echo "bench: $sec: fragments written"
}

cg_total() {
	f=$out/cg-$1
	rm -f "$f" "$f".*
	shift
	valgrind --tool=callgrind --callgrind-out-file="$f" "$@" \
		>"$f.txt" 2>"$f.log"
	# a dump (CALLGRIND_DUMP_STATS) goes to $f.1: the last totals
	sed -n 's/^totals: //p' "$f" "$f".* | tail -1
}

# ber_at FILE COLUMN-EXPR: the SNR (dB) at which a rate falls to
# $ber_want, interpolated in log10 between the table's points ("-" if it
# never does or starts below). Rates of 0 count as 1e-12.
ber_want=1e-5
ber_at() {
	awk -v want=$ber_want "!/^#/ { r = $2; if (r < 1e-12) r = 1e-12
		if (n && pr > want && r <= want) {
			f = (log(pr) - log(want)) / (log(pr) - log(r))
			printf \"%.1f\", ps + f * (\$1 - ps); done = 1; exit
		}
		ps = \$1; pr = r; n++ }
		END { if (!done) printf \"-\" }" "$1"
}

if want phy; then
begin phy
echo "bench: PHY cost (callgrind)"
# Instructions counted inside vlc_phy_tick() (or the deferred search),
# from the point the warm-up ends (the program zeroes callgrind's
# counters there); minus those of the host simulator's pins and of the
# emulated MAC, which a tick calls but which are not the PHY core.
pins="--toggle-collect=vlc_hsim_rx_begin --toggle-collect=vlc_hsim_rx_end
      --toggle-collect=vlc_hsim_emit --toggle-collect=vlc_hsim_tx_symbol
      --toggle-collect=vlc_hsim_rx_frame"
nf=2000
# set by eval, per state
cost_locked='' cost_deferred='' cost_acquire='' ev_locked='' ev_deferred='' ev_acquire=''
for st in locked deferred acquire; do
	all=$(cg_total "$st" --toggle-collect=vlc_phy_tick "$pb" cost $st $nf)
	# shellcheck disable=SC2086
	ext=$(cg_total "$st-pins" $pins "$pb" cost $st $nf)
	set -- $(cat "$out/cg-$st.txt")
	ev=$1 frames=$2 searches=$3
	eval "cost_$st=$(((all - ext) / ev))"
	eval "ev_$st=$((ev / frames / $6))"
	eval "state_$st=$5"
	if [ "$st" = deferred ]; then
		s=$(cg_total "$st-search" --toggle-collect=vlc_phy_acq_search \
			"$pb" cost $st $nf)
		search_cost=$((s / searches))
		search_share=$((searches * 100 / frames))
	fi
done

echo "bench: PHY callback latency (host wall clock)"
lat_n=1000000
set -- $("$pb" latency $lat_n)
lat_mean=$1 lat_p99=$2 lat_max=$3

echo "bench: BER against SNR"
for m in 2slot 4ppm; do
	"$pb" ber $m >"$out/ber-$m.txt"
done
if command -v gnuplot >/dev/null; then
	gnuplot <<GP
set terminal png size 800,500
set output "$doc/vlc-ber.png"
set logscale y
set format y "10^{%L}"
set yrange [1e-7:1]
set xlabel "SNR of a data slot (dB)"
set ylabel "rate per symbol"
set grid
set key bottom left
plot "$out/ber-2slot.txt" using 1:(\$2/\$5) with linespoints title "2-slot: wrong", \
     "$out/ber-2slot.txt" using 1:((\$3+\$4)/\$5) with linespoints title "2-slot: erased or missed", \
     "$out/ber-4ppm.txt" using 1:(\$2/\$5) with linespoints title "4-PPM: wrong", \
     "$out/ber-4ppm.txt" using 1:((\$3+\$4)/\$5) with linespoints title "4-PPM: erased or missed", \
     "$out/ber-2slot.txt" using 1:6 with lines dashtype 2 title "theory, hard-decision differential OOK", \
     "$out/ber-2slot.txt" using 1:7 with lines dashtype 3 title "bound with idle frames told apart"
GP
fi

ber_table() {
	awk '!/^#/ { printf "   %5s  %9.2e  %9.2e  %9.2e  %9.2e  %8d\n", $1, $2/$5, ($3+$4)/$5, $6, $7, $5 }' "$1"
}


b2=$(ber_at "$out/ber-2slot.txt" '($2 + $3 + $4) / $5')
t2=$(ber_at "$out/ber-2slot.txt" '$6')
o2=$(ber_at "$out/ber-2slot.txt" '$7')
b4=$(ber_at "$out/ber-4ppm.txt" '($2 + $3 + $4) / $5')
t4=$(ber_at "$out/ber-4ppm.txt" '$6')
o4=$(ber_at "$out/ber-4ppm.txt" '$7')
fig frames $nf
for st in locked deferred acquire; do
	eval "fig events_$st \$ev_$st"
	eval "fig cost_$st \$cost_$st"
	eval "fig state_$st \$state_$st"
done
fig search_cost "$search_cost"
fig search_share "$search_share%"
fig latency_command "\`\`phy_bench latency $lat_n\`\`"
fig latency_mean "$lat_mean"
fig latency_p99 "$lat_p99"
fig latency_max "$lat_max"
fig ser_goal $ber_want
put phy-cost-commands.literal.inc <<RST
::

  build/bench/phy_bench cost STATE $nf     # under valgrind --tool=callgrind,
                                         # see tools/bench/run.sh
RST
put phy-cost.table.inc <<RST
===============================================  ======  ============  =======
state                                            events  instructions  goal
                                                 /frame  /slot event
===============================================  ======  ============  =======
locked, both nodes sending random data           $ev_locked      $cost_locked           <= 300
acquiring, no neighbour; search deferred         $ev_deferred      $cost_deferred           <= 300
acquiring, no neighbour; search in the tick      $ev_acquire      $cost_acquire
===============================================  ======  ============  =======
RST
put phy-ber-commands.literal.inc <<RST
::

  build/bench/phy_bench ber 2slot; build/bench/phy_bench ber 4ppm
RST
put phy-ber.table.inc <<RST
====================  =========  =========  ========  =================
mode                  measured   theory     bound     from theory
====================  =========  =========  ========  =================
2-slot                $b2 dB    $t2 dB    $o2 dB   $(echo "$b2 $t2" | awk '{ if ($1 == "-") print "-"; else printf "%.1f dB", $1 - $2 }')
4-PPM                 $b4 dB    $t4 dB    $o4 dB   $(echo "$b4 $t4" | awk '{ if ($1 == "-") print "-"; else printf "%.1f dB", $1 - $2 }')
====================  =========  =========  ========  =================
RST
for m in 2slot 4ppm; do
	put phy-ber-$m.literal.inc <<RST
::

   SNR dB      wrong  erased+missed  theory     bound   symbols
$(ber_table "$out/ber-$m.txt")
RST
done
finish
fi
# Hard decisions inside frames: their error rate against SNR (PHY), and
# DATA frame loss on a two-node link with the MAC; with HARD_BEFORE=REV
# also the frame loss of the whole tree of REV (its PHY, MAC, test
# channel and link_bench, built by its own tools/bench/Makefile).
if want hard; then
begin hard
echo "bench: hard decisions (host)"
hn=400000
for m in 2slot 4ppm; do
	"$pb" hber $m $hn 15 18 0.5 >"$out/hber-$m.txt"
done
hb_table() {
	awk '!/^#/ { printf "   %5s  %9d  %6d  %9.2e  %9.2e  %7d\n", $1, $2, $3,
		$3 / ($2 - $4), $5, $4 }' "$1"
}
fl_n=100 fl_seed=1
fl_table() {	# BIN MODE: one line per SNR
	for db in 14 16 18 20 22 24; do "$1" floss "$2" $db $fl_n $fl_seed; done |
	awk -v m="$2" '{ printf "   %-5s  %5s  %6d  %6d  %7.3f  %9d  %8d  %5d\n", m, $1, $2, $3,
		$2 ? 1 - $3 / $2 : 1, $10, $5, $7 }'
}
fb=""
if [ -n "${HARD_BEFORE:-}" ]; then
	bt=$out/before
	rm -rf "$bt" "$out/before.tar"
	mkdir -p "$bt"
	if ! git -C "$top" archive -o "$out/before.tar" "$HARD_BEFORE"; then
		echo "bench: HARD_BEFORE=$HARD_BEFORE is not a revision; no table before" >&2
	elif ! tar -x -C "$bt" -f "$out/before.tar" ||
	     ! grep -q '"floss"' "$bt/tools/bench/link_bench.c" 2>/dev/null; then
		echo "bench: HARD_BEFORE=$HARD_BEFORE: its link_bench has no floss; no table before" >&2
	elif ! make -s -C "$bt/tools/bench" >"$out/before.log" 2>&1; then
		echo "bench: HARD_BEFORE=$HARD_BEFORE: its tools/bench does not build (see $out/before.log); no table before" >&2
	else
		fb=$bt/build/bench/link_bench
		before=$(git -C "$top" describe --always "$HARD_BEFORE")
	fi
fi
h2=$(ber_at "$out/hber-2slot.txt" '$3 / ($2 - $4)')
t2=$(ber_at "$out/hber-2slot.txt" '$5')
h4=$(ber_at "$out/hber-4ppm.txt" '$3 / ($2 - $4)')
t4=$(ber_at "$out/hber-4ppm.txt" '$5')
hb_gap() { echo "$1 $2" | awk '{ if ($1 == "-" || $2 == "-") print "-"
	else printf "%.1f dB", $1 - $2 }'; }
fig symbols $hn
fig ser_goal $ber_want
fig pings $fl_n
fig seed $fl_seed
put hard-commands.literal.inc <<RST
::

  build/bench/phy_bench hber 2slot|4ppm $hn 15 18 0.5
  build/bench/link_bench floss 2slot|4ppm SNR_DB $fl_n $fl_seed   # SNR_DB 14..24
RST
put hard-ser.table.inc <<RST
=======  ===============  =========  ===========
mode     hard, measured   theory     from theory
=======  ===============  =========  ===========
$(printf '%-7s  %-15s  %-9s  %s' 2-slot "$h2 dB" "$t2 dB" "$(hb_gap "$h2" "$t2")")
$(printf '%-7s  %-15s  %-9s  %s' 4-PPM "$h4 dB" "$t4 dB" "$(hb_gap "$h4" "$t4")")
=======  ===============  =========  ===========
RST
for m in 2slot 4ppm; do
	put hard-hber-$m.literal.inc <<RST
::

   SNR dB    symbols   wrong  hard rate     theory  no hard
$(hb_table "$out/hber-$m.txt")
RST
done
put hard-floss.literal.inc <<RST
::

   mode   SNR dB  frames  good     loss  delivered  bad CRC  trunc
$(fl_table "$lb" 2slot)
$(fl_table "$lb" 4ppm)
RST
# optional, so its sentence is written here; empty without HARD_BEFORE
if [ -n "$fb" ]; then
	put hard-floss-before.inc <<RST
The same with the whole tree of $before (its PHY, MAC, test channel and
link_bench, built by its own tools/bench/Makefile)::

   mode   SNR dB  frames  good     loss  delivered  bad CRC  trunc
$(fl_table "$fb" 2slot)
$(fl_table "$fb" 4ppm)
RST
else
	put hard-floss-before.inc </dev/null
fi
finish
fi

# Goodput and latency of the MAC: the real driver in a QEMU guest over the
# simulator (tools/bench/net-bench.sh).
if want net; then
begin net
echo "bench: goodput and latency (QEMU guest, vlc_sim)"
udp_n=12 tcp_b=32768
nb=$out/net-bench.txt
# BENCH_NET_TXT=FILE: the guest's output of an earlier run instead of
# booting the guest again. The output starts with the tree it ran, for
# the provenance of a later run that reads it.
net_run() {
	if [ -n "${BENCH_NET_TXT:-}" ]; then
		# through a copy: FILE may be $nb itself
		cp "$BENCH_NET_TXT" "$nb.in"
		mv "$nb.in" "$nb"
		grep -q "^qemu net-bench: ok" "$nb"
		return
	fi
	make -s -C "$top" modules >"$out/modules.log" 2>&1 &&
	{
		echo "bench: tree $run_tree, $run_date"
		"$top/tests/qemu/run.sh" --show --timeout 3600 --out "$out/qemu-net" \
			"$top/tools/bench/net-bench.sh" $udp_n $tcp_b
	} >"$nb" 2>&1
}
if net_run; then
	b() { sed -n "s/^BENCH $1 //p" "$nb"; }
	r() { awk "BEGIN { printf \"$1\", $2 }"; }
	raw=$(b raw_bps)
	# 2-slot mode, 500 us frames: one frame per bit. A 98-byte ping is
	# a DATA frame of 8 + 8 * (1 + 5 + 84 + 2) = 744 frames each way.
	bound_ms=$((2 * 744 / 2))
	udp_g=$(r %.3f "$(b udp_bytes) * 8 / ($(b udp_vns) / 1e9) / $raw")
	udp_fpp=$(r %.0f "$(b udp_vns) / 500000 / ($(b udp_received) - 1)")
	tcp_g=$(r %.3f "$(b tcp_bytes) * 8 / ($(b tcp_vns) / 1e9) / $raw")
	rtt0=$(r %.0f "$(b rtt0_avg_us) / 1000")
	rtt=$(r %.0f "$(b rtt100_avg_us) / 1000")
	rtt_min=$(r %.0f "$(b rtt100_min_us) / 1000")
	rtt_ratio=$(r %.3f "$(b rtt100_avg_us) / 1000 / $bound_ms")
	# A 1000-byte ping: 1028-byte IPv4 packet in 5 fragments (4 x 240
	# + 68), each 72 symbols of framing: 5 * 72 + 1028 * 8 = 8584 frames
	# each way.
	bound1k_ms=$((2 * 8584 / 2))
	rtt1k=$(r %.0f "$(b rtt1000_avg_us) / 1000")
	rtt1k_ratio=$(r %.3f "$(b rtt1000_avg_us) / 1000 / $bound1k_ms")
	# MTU 576: UDP payload 548, MSS 536; ceiling computed as for 1500
	# (mac_ceil IP_BYTES: frames of one packet after RTS/CTS, DIFS and
	# mean backoff: fragments of 240 bytes, 72 symbols of framing and a
	# 64-symbol ACK each, SIFS 2 between frames, RTS + CTS 148, 19.5)
	mac_ceil() {
		awk -v ip="$1" 'BEGIN { n = int((ip + 239) / 240);
			printf "%.1f", n * 72 + ip * 8 + n * 64 + (2 * n - 1) * 2 + 148 + 19.5 }'
	}
	f576=$(mac_ceil 576) f1500=$(mac_ceil 1500)
	udp576_ceil=$(r %.3f "548 * 8 / $f576")
	tcp576_ceil=$(r %.3f "536 * 8 / $f576")
	udp576_g=$(r %.3f "$(b udp576_bytes) * 8 / ($(b udp576_vns) / 1e9) / $raw")
	tcp576_g=$(r %.3f "$(b tcp576_bytes) * 8 / ($(b tcp576_vns) / 1e9) / $raw")
	udp_ceil=$(r %.3f "1472 * 8 / $f1500")
	tcp_ceil=$(r %.3f "1448 * 8 / $f1500")
	# /proc/stat's ticks: a share of one core, scaled by the ticks the
	# window should have had (TCG loses some); the thread's own time is
	# precise (scheduler clock) over the wall time
	pstat() {
		r %.1f "$(b "cpu_$1_busy_permille") * $(b cpu_ncpu) * 100 / $(b "cpu_$1_total_permille")"
	}
	psim() { r %.1f "$(b "cpu_$1_sim_permille") / 10"; }
	ptick() { r %.0f "$(b "cpu_$1_total_permille") / $(b cpu_ncpu) / 10"; }
	fig raw_rate "$raw"
	fig mtu "$(b mtu)"
	fig udp_count $udp_n
	fig udp_goodput "$udp_g"
	fig udp_frames_per_datagram "$udp_fpp"
	fig udp_retries_a "$(b udp_mac_tx_retries_a)"
	fig udp_collisions_a "$(b udp_collisions_a)"
	fig udp_fragments_b "$(b udp_mac_tx_fragments_b)"
	fig udp_gap_min "$(b udp_gap_min)"
	fig udp_gap_max "$(b udp_gap_max)"
	fig tcp_bytes $tcp_b
	fig tcp_goodput "$tcp_g"
	fig tcp_fragments_b "$(b tcp_mac_tx_fragments_b)"
	fig tcp_collisions_a "$(b tcp_collisions_a)"
	fig tcp_collisions_b "$(b tcp_collisions_b)"
	fig ping_bound_ms $bound_ms
	fig ping_rtt_ms "$rtt"
	fig ping_rtt_min_ms "$rtt_min"
	fig ping_rtt_ratio "$rtt_ratio"
	fig ping_received "$(b rtt100_received)"
	fig ping8_min_ms "$(b ping_min_ms)"
	fig ping8_avg_ms "$(b ping_avg_ms)"
	fig ping8_max_ms "$(b ping_max_ms)"
	fig ping8_received "$(b ping_received)"
	fig ping8_pace_permille "$(b ping_pace_permille)"
	fig ping_rtt_speed0_ms "$rtt0"
	fig mtu576_frames "$f576"
	fig mtu576_udp_ceiling "$udp576_ceil"
	fig mtu576_tcp_ceiling "$tcp576_ceil"
	fig mtu576_udp_goodput "$udp576_g"
	fig mtu576_tcp_goodput "$tcp576_g"
	fig mtu1500_frames "$f1500"
	fig udp_ceiling "$udp_ceil"
	fig tcp_ceiling "$tcp_ceil"
	fig ping1k_bound_ms $bound1k_ms
	fig ping1k_rtt_ms "$rtt1k"
	fig ping1k_received "$(b rtt1000_received)"
	fig ping1k_rtt_ratio "$rtt1k_ratio"
	fig cpus "$(b cpu_ncpu)"
	put net-commands.literal.inc <<RST
::

  make modules
  tests/qemu/run.sh --show tools/bench/net-bench.sh $udp_n $tcp_b
RST
	put net-goodput.table.inc <<RST
=========================================  =========  ==========  ==========
figure                                     measured   MAC limit   goal
=========================================  =========  ==========  ==========
$(printf '%-41s  %-9s  %-10s  %s' "UDP goodput / raw rate, MTU 1500" "$udp_g" "$udp_ceil" ">= 0.85")
$(printf '%-41s  %-9s  %s' "TCP goodput / raw rate, MTU 1500" "$tcp_g" "$tcp_ceil")
$(printf '%-41s  %-9s  %s' "UDP goodput / raw rate, MTU 576" "$udp576_g" "$udp576_ceil")
$(printf '%-41s  %-9s  %s' "TCP goodput / raw rate, MTU 576" "$tcp576_g" "$tcp576_ceil")
$(printf '%-41s  %-9s  %-10s  %s' "ping RTT / airtime bound, 56 bytes" "$rtt_ratio" 1.047 "<= 1.25")
$(printf '%-41s  %-9s  %-10s  %s' "ping RTT / airtime bound, 1000 bytes" "$rtt1k_ratio" 1.053 "<= 1.25")
=========================================  =========  ==========  ==========
RST
	put net-cpu.table.inc <<RST
===========  ===============  ===============  ===============
link         guest busy, %    vlc_sim, %       ticks seen, %
===========  ===============  ===============  ===============
$(printf '%-11s  %-15s  %-15s  %s' idle "$(pstat idle)" "$(psim idle)" "$(ptick idle)")
$(printf '%-11s  %-15s  %-15s  %s' "UDP" "$(pstat udp)" "$(psim udp)" "$(ptick udp)")
===========  ===============  ===============  ===============
RST
	if [ -n "${BENCH_NET_TXT:-}" ]; then
		was=$(sed -n 's/^bench: tree //p' "$nb")
		was=${was:+": tree $was"}
		put net.run.inc <<EOF
Written on $run_date ($(uname -m), $(nproc) cores), tree $run_tree, by \`\`$run_cmd\`\` from the guest's output of an earlier run${was:-", which does not say its tree"}.
EOF
	fi
else
	# keep the figures of the last run that had them, and say so
	echo "bench: the guest run failed (see $nb); net's figures are the last run's" >&2
	if [ ! -f "$frag/net.figures.inc" ]; then
		echo "bench: no earlier net figures to keep" >&2
		exit 1
	fi
	cp "$frag"/net.figures.inc "$frag"/net-*.inc "$stage/"
	{
		echo "Not measured on $run_date (tree $run_tree, \`\`$run_cmd\`\`): the guest run failed (see build/bench/net-bench.txt); the figures below are an earlier run's."
		sed 1,2d "$frag/net.run.inc" | grep -v '^Not measured on '
	} | put net.run.inc
fi
finish
fi

# Medium access under contention: the host build of the MAC core on the
# symbol channel of the MAC tests (tools/bench/mac_bench.c).
if want contention; then
begin contention
echo "bench: MAC contention (host)"
cf=2000000 csize=1514 crts=200
ct=$out/contend.txt
: >"$ct"
for topo in all hidden; do
	for k in 2 4 8; do
		for rts in 0 $crts; do
			set -- $("$mb" contend $((k + 1)) $topo "$rts" $csize $cf 1)
			echo "$topo $k $rts $2 $4 $6 $8 ${10}" >>"$ct"
		done
	done
done
st=$out/rts-sizes.txt
: >"$st"
for size in 98 200 300 500 1000 1514; do
	line=$size
	for topo in "5 all" "3 hidden"; do
		for rts in 0 1; do
			# shellcheck disable=SC2086
			set -- $("$mb" contend $topo $rts $size $cf 1)
			line="$line $2"
		done
	done
	echo "$line" >>"$st"
done
for topo in all hidden; do
	awk -v t=$topo '$1 == t && $3 == 0' "$ct" >"$out/contend-$topo-off.txt"
	awk -v t=$topo '$1 == t && $3 > 0' "$ct" >"$out/contend-$topo-on.txt"
done
if command -v gnuplot >/dev/null; then
	gnuplot <<GP
set terminal png size 800,500
set output "$doc/vlc-contention.png"
set xlabel "saturated senders"
set ylabel "aggregate goodput / raw rate"
set yrange [0:1]
set xtics (2, 4, 8)
set grid
set key bottom left
plot "$out/contend-all-off.txt" using 2:4 with linespoints title "in view, RTS/CTS off", \\
     "$out/contend-all-on.txt" using 2:4 with linespoints title "in view, RTS/CTS on", \\
     "$out/contend-hidden-off.txt" using 2:4 with linespoints title "hidden from each other, off", \\
     "$out/contend-hidden-on.txt" using 2:4 with linespoints title "hidden from each other, on"
GP
fi
fig frames $cf
fig seconds $((cf / 2000))
fig size $csize
fig rts $crts
put contention-commands.literal.inc <<RST
::

  build/bench/mac_bench contend NODES all|hidden RTS $csize $cf 1
RST
put contention.table.inc <<RST
========  =======  =====  ========  ========  ==========  =======  ============
topology  senders  RTS    goodput   fairness  collisions  retries  CTS timeouts
========  =======  =====  ========  ========  ==========  =======  ============
$(awk '{ printf "%-8s  %7d  %-5s  %8s  %8s  %10d  %7d  %12d\n", $1, $2, $3 ? "on" : "off", $4, $5, $6, $7, $8 }' "$ct")
========  =======  =====  ========  ========  ==========  =======  ============
RST
put contention-sizes-commands.literal.inc <<RST
::

  build/bench/mac_bench contend 5 all RTS SIZE $cf 1     # 4 senders in view
  build/bench/mac_bench contend 3 hidden RTS SIZE $cf 1  # 2 hidden senders
RST
put contention-sizes.table.inc <<RST
======  =============  ============  =============  ============
bytes   in view, off   in view, on   hidden, off    hidden, on
======  =============  ============  =============  ============
$(awk '{ printf "%6d  %13s  %12s  %13s  %12s\n", $1, $2, $3, $4, $5 }' "$st")
======  =============  ============  =============  ============
RST
finish
fi

# Synchronisation: cold-start lock and clock skew, both nodes' PHYs driven
# by the real MAC on the host simulator (tools/bench/link_bench.c).
if want sync; then
begin sync
echo "bench: synchronisation (host)"
lock_seed=1000 lock_runs=500 lock_max=2000
pct() {	# pct FILE COLUMN: "median p95 max" of a column
	sort -n -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c }
		END { printf "%d %d %d\n", v[int((NR + 1) / 2)],
			v[int(NR * 0.95 + 0.999)], v[NR] }'
}
for d in 26 0 13 50 75; do
	"$lb" lock $lock_seed $lock_runs $lock_max $d >"$out/lock-$d.txt"
	set -- $(pct "$out/lock-$d.txt" 3)
	eval "lock_med_$d=$1 lock_p95_$d=$2 lock_max_$d=$3"
	eval "lock_over_$d=$(awk '$3 > 64' "$out/lock-$d.txt" | wc -l)"
	eval "lock_never_$d=$(awk -v m=$lock_max '$3 > m' "$out/lock-$d.txt" | wc -l)"
done
# the runs over 64 frames, by where node 1 started in node 0's frame
lock_near=$(awk '$3 > 64 && ($2 < 20000 || $2 > 480000)' "$out/lock-26.txt" | wc -l)
skew_frames=1200000
sk=$out/skew.txt
: >"$sk"
for ppm in 1000 2000 3000 4000 5000 6000; do
	for sign in "" -; do
		for seed in 1 2 3; do
			"$lb" skew "$sign$ppm" $seed $skew_frames >>"$sk"
		done
	done
done
# held: every seed and both signs locked, ran all frames, no carrier loss,
# no unlock, grids within the guard (20 us) once settled
skew_ok=$(awk -v n=$skew_frames '{ p = $1 < 0 ? -$1 : $1;
	bad[p] += !($4 == n && $5 == 0 && $6 == 0 && $8 <= 20000) }
	END { best = 0; for (p in bad) if (!bad[p] && p + 0 > best) best = p;
	      print best }' "$sk")
lock_row() {	# LABEL TICKS [GOAL]: a row of the table
	eval "set -- \"\$1\" \"\${3:-}\" \$lock_med_$2 \$lock_p95_$2 \$lock_max_$2 \$lock_over_$2"
	if [ -n "$2" ]; then
		printf '%-38s  %-6s  %-4s  %-4s  %-10s  %s\n' "$1" "$3" "$4" "$5" "$6" "$2"
	else
		printf '%-38s  %-6s  %-4s  %-4s  %s\n' "$1" "$3" "$4" "$5" "$6"
	fi
}
fig runs $lock_runs
fig max_frames $lock_max
fig lock_command "\`\`build/bench/link_bench lock $lock_seed $lock_runs $lock_max TICKS\`\`"
for d in 26 0 13 50 75; do
	for v in med p95 max over never; do
		eval "fig lock_${v}_$d \$lock_${v}_$d"
	done
done
fig lock_near_26 "$lock_near"
fig skew_frames $skew_frames
fig skew_minutes $((skew_frames / 120000))
fig skew_held "**+-$skew_ok ppm**"
put sync-commands.literal.inc <<RST
::

  build/bench/link_bench lock $lock_seed $lock_runs $lock_max 26   # and 0, 13, 50, 75
  build/bench/link_bench skew PPM SEED $skew_frames    # PPM +-1000..6000, SEED 1..3
RST
put sync-lock.table.inc <<RST
======================================  ======  ====  ====  ==========  =====
search                                  median  p95   max   runs > 64   goal
======================================  ======  ====  ====  ==========  =====
$(lock_row "deferred, answered a frame later" 26 "<= 64")
$(lock_row "in the tick (vlc_sim)" 0)
$(lock_row "deferred, half a frame later" 13)
$(lock_row "deferred, two frames later" 50)
$(lock_row "deferred, three frames later" 75)
======================================  ======  ====  ====  ==========  =====
RST
put sync-skew.table.inc <<RST
========  ====  =====  =========  =======  =======  ===========  ===========
ppm       seed  lock   frames     carrier  unlocks  offset (us)  offset (us)
                                  losses            settling     settled
========  ====  =====  =========  =======  =======  ===========  ===========
$(awk '{ printf "%8d  %4d  %5d  %9d  %7d  %7d  %11.1f  %11.1f\n", $1, $2, $3, $4, $5, $6, $7 / 1000, $8 / 1000 }' "$sk")
========  ====  =====  =========  =======  =======  ===========  ===========
RST
finish
fi

# Timer lateness and speed: every PHY callback of both nodes late by a
# draw, on the host simulator (tools/bench/link_bench.c ber).
if want jitter; then
begin jitter
echo "bench: timer lateness and speed (host)"
jf=20000
# the jitter model (an assumption, see the doc): exponential with mean
# jm ns, and with probability jp per million a draw uniform up to jt ns
jm=2000 jp=100 jt=150000
jmodel=model:$jm:$jp:$jt
: >"$out/late-const.txt"
for l in 0 5 10 15 20 25 30 35 40; do
	echo "$l $("$lb" ber 2slot 500000 const:$((l * 1000)) $jf 1)" >>"$out/late-const.txt"
done
: >"$out/late-unif.txt"
for l in 0 2 4 6 8 10 12 14 16 18 20; do
	echo "$l $("$lb" ber 2slot 500000 unif:$((l * 1000)) $jf 1)" >>"$out/late-unif.txt"
done
# largest lateness (us) up to which every step lost no symbol / decided
# none wrongly
clean() {
	awk -v c="$2" 'BEGIN { ok = -1 } !stop && $3 > 0 && $c == 0 { ok = $1; next }
		{ stop = 1 } END { print ok }' "$1"
}
closs() {
	awk '{ $8 = $4 + $5 + $6; print }' "$1" >"$1.loss"
	clean "$1.loss" 8
}
const_ok=$(closs "$out/late-const.txt") const_wok=$(clean "$out/late-const.txt" 4)
unif_ok=$(closs "$out/late-unif.txt") unif_wok=$(clean "$out/late-unif.txt" 4)
frac() { awk "BEGIN { printf \"%.2f\", $1 / 20 }"; }
jb=200000
# the bursty model of "Goodput under lateness": the model's tail events
# hold the CPU for jblen ns, every callback due meanwhile late
jblen=1000000
jburst=burst:$jm:$jp:$jt:$jblen
for m in 2slot 4ppm; do
	"$lb" ber $m 500000 $jmodel $jb 1 >"$out/jitter-$m.txt"
	"$lb" ber $m 500000 $jburst $jb 1 >"$out/jitter-burst-$m.txt"
done
jrate() {	# FILE: "wrong_rate loss_rate late_callbacks_per_frame"
	awk '{ printf "%.1e %.1e %.3f", $3 / $2, ($3 + $4 + $5) / $2, $6 / $2 }' "$1"
}
# speed: all slots scaled with the frame, the same lateness in us; the
# goodput these rates leave is measured by the goodput section
sf=50000 jhalf=model:$((jm / 2)):$jp:$jt
: >"$out/speed.txt"
for m in 2slot 4ppm; do
	bits=1
	[ $m = 4ppm ] && bits=2
	for f in 1000 700 500 400 350 300 250 200 150 100; do
		for j in $jmodel model:$jm:0:0; do
			set -- $("$lb" ber $m $((f * 1000)) "$j" $sf 1)
			echo "$m $f $j $bits $*" >>"$out/speed.txt"
		done
	done
	# the model with its mean halved, at 300 us: what the ratio of
	# tolerance to lateness does
	set -- $("$lb" ber $m 300000 "$jhalf" $sf 1)
	echo "$m 300 $jhalf $bits $*" >>"$out/speed.txt"
done
# per symbol: wrong, lost (wrong, erased or missed); callbacks of both
# nodes later than the tolerance, per frame; bytes that lost a symbol,
# were the losses independent (8 / bits symbols a byte)
loss_goal=1e-5
speed_table() {
	awk -v j="$1" '$3 == j { w = $7 / $6; l = ($7 + $8 + $9) / $6;
		b = 1 - exp(8 / $4 * log(1 - l + 1e-300));
		printf "%-5s  %5d  %9.1e  %9.1e  %10.3f  %9.1e\n", $1, $2, w, l,
			$10 / $6, b }' "$out/speed.txt"
}
best() {	# shortest frame (us) of mode $1, model $2, loss rate < loss_goal
	awk -v m="$1" -v j="$2" -v goal=$loss_goal '$1 == m && $3 == j &&
		($7 + $8 + $9) / $6 < goal { f = $2 }
		END { print f ? f " us" : "none" }' \
		"$out/speed.txt"
}
# speed_fig MODE FRAME_US MODEL WHAT: lost per symbol (lost), late
# callbacks per frame (late) or lost per byte (byte)
speed_fig() {
	awk -v m="$1" -v f="$2" -v j="$3" -v w="$4" '$1 == m && $2 == f && $3 == j {
		l = ($7 + $8 + $9) / $6
		if (w == "lost") printf "%.1e", l
		else if (w == "late") printf "%.3f", $10 / $6
		else printf "%.2f", 1 - exp(8 / $4 * log(1 - l + 1e-300)) }' \
		"$out/speed.txt"
}
fig frames $jf
fig constant_clean_us "$const_ok"
fig uniform_clean_us "$unif_ok"
fig constant_right_us "$const_wok"
fig uniform_right_us "$unif_wok"
fig model "$jmodel"
fig model_notail "model:$jm:0:0"
fig mean_us $((jm / 1000))
# the exponential's median and 99.99th percentile
fig median_us "$(awk "BEGIN { printf \"%.1f\", $jm * log(2) / 1000 }")"
fig p9999_us "$(awk "BEGIN { printf \"%.1f\", $jm * log(1e4) / 1000 }")"
fig tail_ppm $jp
fig tail_max_us $((jt / 1000))
fig model_frames $jb
fig speed_frames $sf
fig loss_goal $loss_goal
fig shortest_2slot "$(best 2slot $jmodel)"
fig shortest_4ppm "$(best 4ppm $jmodel)"
fig shortest_2slot_notail "$(best 2slot model:$jm:0:0)"
fig shortest_4ppm_notail "$(best 4ppm model:$jm:0:0)"
fig model_half "$jhalf"
fig burst "$jburst"
fig burst_us $((jblen / 1000))
for m in 2slot 4ppm; do
	for f in 500 400 350 300; do
		for w in lost late byte; do
			fig "f${f}_${m}_$w" "$(speed_fig $m $f $jmodel $w)"
			fig "f${f}_${m}_${w}_notail" "$(speed_fig $m $f model:$jm:0:0 $w)"
		done
	done
	for w in lost late byte; do
		fig "f300_${m}_${w}_half" "$(speed_fig $m 300 "$jhalf" $w)"
	done
	set -- $(jrate "$out/jitter-$m.txt") $(jrate "$out/jitter-burst-$m.txt")
	fig "model_lost_$m" "$2"
	fig "model_late_$m" "$3"
	fig "burst_wrong_$m" "$4"
	fig "burst_lost_$m" "$5"
	fig "burst_late_$m" "$6"
done
put jitter-commands.literal.inc <<RST
::

  build/bench/link_bench ber 2slot 500000 const:NS $jf 1   # NS 0..40 us
  build/bench/link_bench ber 2slot 500000 unif:NS $jf 1    # NS 0..20 us
  build/bench/link_bench ber 2slot|4ppm 500000 $jmodel $jb 1
  build/bench/link_bench ber 2slot|4ppm 500000 $jburst $jb 1
RST
put jitter-clean.table.inc <<RST
=========================================================  ======  =========
lateness                                                   us      / guard
=========================================================  ======  =========
$(printf '%-57s  %-6s  %s' "constant, the sender's callbacks only (receiver on time," "$const_ok" "$(frac "$const_ok")")
not correcting: a steady offset)
$(printf '%-57s  %-6s  %s' "uniform in [0, peak], every callback of both nodes" "$unif_ok" "$(frac "$unif_ok")")
=========================================================  ======  =========
RST
put jitter-uniform.literal.inc <<RST
::

$(sed 's/^/  /' "$out/late-unif.txt")
RST
jrow() {	# MODE LATENESS FILE
	jrate "$3" | awk -v m="$1" -v l="$2" '{ printf "%-7s  %-37s  %-14s  %-13s  %s\n", m, l, $1, $2, $3 }'
}
put jitter-model.table.inc <<RST
=======  =====================================  ==============  =============  ============
mode     lateness                               wrong / symbol  lost / symbol  late / frame
=======  =====================================  ==============  =============  ============
$(jrow 2-slot "the model, $jmodel" "$out/jitter-2slot.txt")
$(jrow 4-PPM "the model" "$out/jitter-4ppm.txt")
$(jrow 2-slot "bursty, $jburst" "$out/jitter-burst-2slot.txt")
$(jrow 4-PPM "bursty" "$out/jitter-burst-4ppm.txt")
=======  =====================================  ==============  =============  ============
RST
put jitter-speed-commands.literal.inc <<RST
::

  build/bench/link_bench ber 2slot|4ppm FRAME_NS $jmodel $sf 1
  build/bench/link_bench ber 2slot|4ppm FRAME_NS model:$jm:0:0 $sf 1  # no tail
      # FRAME_NS 100000 to 1000000
  build/bench/link_bench ber 2slot|4ppm 300000 $jhalf $sf 1  # the mean halved
RST
for j in $jmodel model:$jm:0:0; do
	case $j in *:0:0) w=notail ;; *) w=model ;; esac
	put jitter-speed-$w.literal.inc <<RST
::

  mode   frame us  wrong/sym  lost/sym  late/frame  lost/byte
$(speed_table "$j" | sed 's/^/  /')
RST
done
finish
fi

# Goodput under lateness: UDP at MTU 1500 from one node to another, PHY
# and MAC, every callback of both late by a draw, FEC off and on
# (tools/bench/link_bench_goodput.c).
if want goodput; then
begin goodput
echo "bench: goodput under lateness (host)"
gp_start=$(date +%s)
gsize=1514 gn=20 ggoal=0.5
# seeds of 20 datagrams a point: more for the FEC goals (the model
# and its heavier tail with FEC auto, 500 us frames), fewer where
# nothing gets through (frames of 200 us and less)
gseeds="1 2 3 4" gseeds_goal=$(seq -s " " 1 40) gseeds_short="1 2"
gshort=200
# the jitter model of "Timer lateness"; its tail ten times as likely;
# and its tail events holding the CPU for gblen ns each (bursty)
gm=2000 gpp=100 gt=150000 gblen=1000000
gmodel=model:$gm:$gpp:$gt
gheavy=model:$gm:$((gpp * 10)):$gt
gburst=burst:$gm:$gpp:$gt:$gblen
gframes="1000 700 500 400 350 300 250 200 150 100"
gfecs="off auto 8 16" gsweep_fecs="off auto"
# the model with its mean halved, at short frames, FEC auto
ghalf=model:$((gm / 2)):$gpp:$gt ghalf_frames="300 250"
# the guards and the tolerance kept at the default's 20 us while the
# frame shrinks (2-slot: in 4-PPM the default brightness leaves no room
# for them below 500 us), FEC auto, under the model
gguard=20000 gguard_frames="400 350 300 250 200 150"
# 16 parity bytes a codeword, fragments that fit one (255 - 16 - 7 bytes
# of header and CRC), under the model at 500 us
gfit=232
gt_txt=$out/goodput.txt
: >"$gt_txt"
gp_jit() {
	case $1 in
	clean) echo none ;;
	model) echo "$gmodel" ;;
	heavy) echo "$gheavy" ;;
	burst) echo "$gburst" ;;
	half) echo "$ghalf" ;;
	fit) echo "$gmodel" ;;
	guard) echo "$gmodel" ;;
	esac
}
gp_seeds() {	# LABEL FRAME_US FEC: the seeds of a point
	if [ "$2" = 500 ] && [ "$3" = auto ] &&
	   { [ "$1" = model ] || [ "$1" = heavy ]; }; then
		echo "$gseeds_goal"
	elif [ "$2" -le $gshort ]; then
		echo "$gseeds_short"
	else
		echo "$gseeds"
	fi
}
# gp_point LABEL MODE FRAME_US FEC [FRAG]: a line a seed, "LABEL MODE
# FRAME_US FEC SEED" and what link_bench printed
gp_point() {
	for s in $(gp_seeds "$1" "$3" "$4"); do
		echo "$1 $2 $3 $4 $s $("$lb" goodput "$2" \
			"$(($3 * 1000))${gp_guard:+/$gp_guard}" \
			"$(gp_jit "$1")" "$4" $gsize $gn "$s" ${5:+"$5"})"
	done >>"$gt_txt"
}
for m in 2slot 4ppm; do
	for l in clean model heavy burst; do
		for e in $gfecs; do
			gp_point $l $m 500 "$e"
		done
	done
	for f in $gframes; do
		[ "$f" = 500 ] && continue
		for e in $gsweep_fecs; do
			gp_point model $m "$f" "$e"
		done
	done
	for f in $ghalf_frames; do
		gp_point half $m "$f" auto
	done
	gp_point fit $m 500 16 $gfit
done
for f in $gguard_frames; do
	gp_guard=$gguard gp_point guard 2slot "$f" auto
done
# gp_agg LABEL MODE FRAME_US FEC: the seeds pooled, "ratio goodput_bps
# delivered packets retries drops fec_frames fec_symbols uncorrectable
# unfinished corrupt duplicates tx_frames fec_tx_frames se seeds raw
# truncated no_delimiter": se the standard error of the seeds' ratios; a
# ratio "-" if no run printed
gp_agg() {
	awk -v l="$1" -v m="$2" -v f="$3" -v e="$4" '$1 == l && $2 == m &&
		$3 == f && $4 == e && NF >= 27 {
			bits += $11 * ($9 - 42) * 8; ns += $23; raw = $14; n++
			d += $11; p += $10; r += $16; dr += $17; ff += $18
			fs += $19; fu += $20; u += $21; c += $12; du += $22
			tf += $24; ft += $25; s += $15; q += $15 * $15
			tr += $26; nd += $27 }
		END { g = ns ? bits * 1e9 / ns : 0
		      v = n > 1 ? (q - s * s / n) / (n - 1) : 0
		      if (v < 0) v = 0
		      printf "%s %.0f %d %d %d %d %d %d %d %d %d %d %d %d %.3f %d %.0f %d %d\n",
			n ? sprintf("%.3f", g / raw) : "-", g, d, p, r, dr,
			ff, fs, fu, u, c, du, tf, ft, n ? sqrt(v / n) : 0, n,
			raw, tr, nd }' "$gt_txt"
}
gp_ratio() { gp_agg "$@" | cut -d' ' -f1; }
gp_cell() { gp_agg "$@" | awk '{ printf "%s %d/%d", $1, $3, $4 }'; }
# gp_shortest MODE FEC: from the longest frame down, the last with a
# ratio >= ggoal under the model before the first below it
gp_shortest() {
	for f in $gframes; do
		echo "$f $(gp_ratio model "$1" "$f" "$2")"
	done | awk -v g=$ggoal '!stop && $2 != "-" && $2 >= g { s = $1; next }
		{ stop = 1 } END { print s ? s " us" : "none" }'
}
gp_mode() { [ "$1" = 2slot ] && echo 2-slot || echo 4-PPM; }
gp_name() {
	case $1 in
	clean) echo "none" ;;
	model) echo "the model, $gmodel" ;;
	heavy) echo "the model's tail x10, $gheavy" ;;
	burst) echo "bursty, $gburst" ;;
	esac
}
# gp_rule LEAD FECS: a table's rule, LEAD then a column a FEC setting
gp_rule() {
	printf '%s' "$1"
	for e in $2; do printf '  =============='; done
	echo
}
gp_list() { echo "$1" | awk '{ print $1 == $NF ? $1 : $1 " to " $NF }'; }
fig packets $gn
fig seeds "$(echo "$gseeds" | wc -w)"
fig seeds_goal "$(echo "$gseeds_goal" | wc -w)"
fig seeds_short "$(echo "$gseeds_short" | wc -w)"
fig packets_point $((gn * $(echo "$gseeds" | wc -w)))
fig packets_goal $((gn * $(echo "$gseeds_goal" | wc -w)))
fig size $gsize
fig model "$gmodel"
fig heavy "$gheavy"
fig burst "$gburst"
fig burst_us $((gblen / 1000))
fig half "$ghalf"
fig fit $gfit
fig goal $ggoal
fig fec "$(echo "$gfecs" | sed 's/ /, /g')"
for m in 2slot 4ppm; do
	for l in clean model heavy burst; do
		for e in $gfecs; do
			fig "${l}_${m}_$e" "$(gp_ratio $l $m 500 "$e")"
		done
	done
	for e in $gsweep_fecs; do
		fig "shortest_${m}_$e" "$(gp_shortest $m "$e")"
		for f in $gframes; do
			fig "f${f}_${m}_$e" "$(gp_ratio model $m "$f" "$e")"
		done
	done
	for f in $ghalf_frames; do
		fig "half_f${f}_$m" "$(gp_ratio half $m "$f" auto)"
	done
	fig "fit_$m" "$(gp_ratio fit $m 500 16)"
done
fig guard_us $((gguard / 1000))
for f in $gguard_frames; do
	fig "guard_f${f}_2slot" "$(gp_ratio guard 2slot "$f" auto)"
done
# the shortest frame >= ggoal with the guards kept, from the longest down
gp_shortest_guard=$(for f in $gguard_frames; do
		echo "$f $(gp_ratio guard 2slot "$f" auto)"
	done | awk -v g=$ggoal '!stop && $2 != "-" && $2 >= g { s = $1; next }
		{ stop = 1 } END { print s ? s " us" : "none" }')
fig shortest_guard "$gp_shortest_guard"
fig corrupt "$(awk 'NF >= 27 { c += $12 } END { print c + 0 }' "$gt_txt")"
fig unfinished "$(awk 'NF >= 27 { u += $21 } END { print u + 0 }' "$gt_txt")"
fig runs "$(awk 'NF >= 27' "$gt_txt" | wc -l)"
# The FEC goals. yes/no: the pooled ratio against the goal; the
# standard error says how far the seeds spread.
gp_yes() { awk -v a="$1" -v b="$2" 'BEGIN { print (a != "-" && a + 0 >= b + 0) ? "yes" : "no" }'; }
gp_goal() {	# LABEL MODE GOAL TEXT
	g=$3 t=$4
	set -- $(gp_agg "$1" "$2" 500 auto)
	printf '%-52s  %-8s  %-6s  %-7s  %-8s  %s\n' "$t" "$1" "${15}" \
		"$4" ">= $g" "$(gp_yes "$1" "$g")"
}
gp_clean() {	# MODE: FEC auto over FEC off, no lateness
	awk -v a="$(gp_ratio clean "$1" 500 auto)" \
		-v o="$(gp_ratio clean "$1" 500 off)" \
		'BEGIN { printf "%.3f", (o > 0) ? a / o : 0 }'
}
gp_best() {	# the shortest frame of either mode with FEC auto
	for m in 2slot 4ppm; do gp_shortest $m auto; done |
	awk '$1 != "none" && (!b || $1 < b) { b = $1 } END { print b ? b : "none" }'
}
sh_best=$(gp_best) sh_met=no
if [ "$sh_best" != none ]; then
	[ "$sh_best" -le 300 ] && sh_met=yes
	sh_best="$sh_best us"
fi
for m in 2slot 4ppm; do
	fig "clean_cost_$m" "$(awk -v r="$(gp_clean $m)" 'BEGIN { printf "%.1f%%", (1 - r) * 100 }')"
done
fig shortest_auto "$sh_best"
fig shortest_met "$sh_met"
put goodput-goals.table.inc <<RST
====================================================  ========  ======  =======  ========  ====
goal (ratios of the raw rate, FEC auto)               measured  s.e.    packets  goal      met
====================================================  ========  ======  =======  ========  ====
$(gp_goal model 2slot 0.75 "UDP goodput, 500 us frames, the model, 2-slot")
$(gp_goal model 4ppm 0.75 "the same, 4-PPM")
$(gp_goal heavy 2slot 0.5 "the same with the tail x10, 2-slot")
$(gp_goal heavy 4ppm 0.5 "the same with the tail x10, 4-PPM")
$(for m in 2slot 4ppm; do printf '%-52s  %-8s  %-6s  %-7s  %-8s  %s\n' \
	"no lateness, FEC auto over FEC off, $(gp_mode $m)" "$(gp_clean $m)" - \
	"$(gp_agg clean $m 500 auto | cut -d' ' -f4)" ">= 0.97" \
	"$(gp_yes "$(gp_clean $m)" 0.97)"; done)
$(printf '%-52s  %-8s  %-6s  %-7s  %-8s  %s' \
	"shortest frame >= $ggoal under the model, any mode" "$sh_best" - - \
	"<= 300" "$sh_met")
$(printf '%-52s  %-8s  %-6s  %-7s  %-8s  %s' \
	"the same, guards and tolerance $((gguard / 1000)) us, 2-slot" "$gp_shortest_guard" - - \
	"<= 300" "$(echo "$gp_shortest_guard" | awk '{ print $1 != "none" && $1 <= 300 ? "yes" : "no" }')")
====================================================  ========  ======  =======  ========  ====
RST
put goodput-commands.literal.inc <<RST
::

  build/bench/link_bench goodput 2slot|4ppm 500000 JITTER FEC $gsize $gn SEED
      # JITTER none, $gmodel, $gheavy,
      # $gburst; FEC $(echo "$gfecs" | sed 's/ /, /g')
      # SEED $(gp_list "$gseeds"); $(gp_list "$gseeds_goal") for the model and its tail x10 with FEC auto
RST
put goodput-frames-commands.literal.inc <<RST
::

  build/bench/link_bench goodput 2slot|4ppm FRAME_NS $gmodel FEC $gsize $gn SEED
      # FRAME_NS $(echo "$gframes" | awk '{ print $NF "000 to " $1 "000" }'); FEC $(echo "$gsweep_fecs" | sed 's/ /, /g')
      # SEED $(gp_list "$gseeds") ($(gp_list "$gseeds_goal") at 500000 with FEC auto, $(gp_list "$gseeds_short") at ${gshort}000 and less)
  build/bench/link_bench goodput 2slot|4ppm FRAME_NS $ghalf auto $gsize $gn SEED
      # the mean halved: FRAME_NS $(echo "$ghalf_frames" | sed 's/[0-9][0-9]*/&000/g; s/ /, /g'); SEED $(gp_list "$gseeds")
  build/bench/link_bench goodput 2slot|4ppm 500000 $gmodel 16 $gsize $gn SEED $gfit
      # fragments that fit a codeword; SEED $(gp_list "$gseeds")
  build/bench/link_bench goodput 2slot FRAME_NS/$gguard $gmodel auto $gsize $gn SEED
      # guards and tolerance kept: FRAME_NS $(echo "$gguard_frames" | awk '{ print $NF "000 to " $1 "000" }'); SEED $(gp_list "$gseeds") ($(gp_list "$gseeds_short") at ${gshort}000 and less)
RST
lead="============================================  ======"
{
	gp_rule "$lead" "$gfecs"
	printf '%-44s  %-6s' "lateness" "mode"
	for e in $gfecs; do printf '  %-14s' "FEC $e"; done
	echo
	gp_rule "$lead" "$gfecs"
	for l in clean model heavy burst; do
		for m in 2slot 4ppm; do
			printf '%-44s  %-6s' "$(gp_name $l)" "$(gp_mode $m)"
			for e in $gfecs; do
				printf '  %-14s' "$(gp_cell $l $m 500 "$e")"
			done
			echo
		done
	done
	gp_rule "$lead" "$gfecs"
} | sed 's/ *$//' | put goodput.table.inc
# FEC at work at 500 us: node 0's frames, those coded, what both
# decoders did, and the frames both receivers lost otherwise
{
	r="========  ======  ====  ======  =====  =========  =========  =============  =========  =======  ======="
	echo "$r"
	echo "lateness  mode    FEC   frames  coded  corrected  corrected  uncorrectable  truncated  no SFD   retries"
	echo "                        sent           frames     bytes"
	echo "$r"
	for l in clean model heavy burst; do
		for m in 2slot 4ppm; do
			for e in auto 8 16; do
				set -- $(gp_agg $l $m 500 "$e")
				printf '%-8s  %-6s  %-4s  %6d  %5d  %9d  %9d  %13d  %9d  %7d  %7d\n' \
					$l "$(gp_mode $m)" "$e" "${13}" "${14}" "$7" "$8" "$9" "${18}" "${19}" "$5"
			done
		done
	done
	echo "$r"
} | put goodput-fec.table.inc
{
	r="========  ======  =====  =======  =====  =======  =======  =====  ======="
	echo "$r"
	echo "frame us  mode    raw    FEC off  bit/s  packets  FEC      bit/s  packets"
	echo "                  bit/s                           auto"
	echo "$r"
	for m in 2slot 4ppm; do
		for f in $gframes; do
			printf '%-8s  %-6s' "$f" "$(gp_mode $m)"
			set -- $(gp_agg model $m "$f" off)
			printf '  %5s  %-7s  %5s  %-7s' "${17}" "$1" "$2" "$3/$4"
			set -- $(gp_agg model $m "$f" auto)
			printf '  %-7s  %5s  %s\n' "$1" "$2" "$3/$4"
		done
	done
	echo "$r"
} | put goodput-frames.table.inc
{
	echo "::"
	echo
	echo "  lateness  mode   frame us  FEC   ratio  goodput b/s  delivered  retries  drops  unfinished  corrupt  dup  FEC frames  FEC symbols  uncorrectable  sent  coded  truncated  no SFD"
	for m in 2slot 4ppm; do
		for l in clean model heavy burst half fit guard; do
			[ $l = guard ] && [ $m = 4ppm ] && continue
			fs=500
			[ $l = model ] && fs=$gframes
			[ $l = half ] && fs=$ghalf_frames
			[ $l = guard ] && fs=$gguard_frames
			for f in $fs; do
				es=$gfecs
				[ "$f" = 500 ] || es=$gsweep_fecs
				[ $l = half ] && es=auto
				[ $l = fit ] && es=16
				[ $l = guard ] && es=auto
				for e in $es; do
					set -- $(gp_agg $l $m "$f" "$e")
					printf '  %-8s  %-5s  %8s  %-4s  %5s  %11s  %9s  %7s  %5s  %10s  %7s  %3s  %10s  %11s  %13s  %4s  %5s  %9s  %s\n' \
						$l $m "$f" "$e" "$1" "$2" "$3/$4" "$5" "$6" "${10}" "${11}" "${12}" "$7" "$8" "$9" "${13}" "${14}" "${18}" "${19}"
				done
			done
		done
	done
} | put goodput-runs.literal.inc
gp_secs=$(($(date +%s) - gp_start))
fig seconds $gp_secs
finish
echo "bench: goodput: $gp_secs s"
fi

# MAC cost: callgrind on the host build of the MAC core, one node
# receiving 1514-byte frames from another (tools/bench/mac_bench.c cost).
if want maccost; then
begin maccost
echo "bench: MAC cost (callgrind)"
mcf=200000 msize=1514
# set by eval, per bits a symbol
mrx_byte_1='' mrx_frame_1='' mtx_byte_1='' mtx_frame_1=''
mrx_byte_2='' mrx_frame_2='' mtx_byte_2='' mtx_frame_2=''
for bits in 1 2; do
	rx=$(cg_total "mac-rx-$bits" --toggle-collect='rx_measured*' \
		"$mb" cost $msize $mcf 1 $bits)
	tx=$(cg_total "mac-tx-$bits" --toggle-collect='tx_measured*' \
		"$mb" cost $msize $mcf 1 $bits)
	# the harness inside them: delivery, and the sender's callbacks
	hr=$(cg_total "mac-rxh-$bits" --toggle-collect=bench_deliver \
		"$mb" cost $msize $mcf 1 $bits)
	ht=$(cg_total "mac-txh-$bits" --toggle-collect=bench_random \
		--toggle-collect=bench_tx_done "$mb" cost $msize $mcf 1 $bits)
	set -- $(cat "$out/cg-mac-rx-$bits.txt")
	eval "mrx_byte_$bits=$(((rx - hr) / $1))"
	eval "mrx_frame_$bits=$(((rx - hr) / $2))"
	eval "mtx_byte_$bits=$(((tx - ht) / $1))"
	eval "mtx_frame_$bits=$(((tx - ht) / $2))"
	eval "mbytes_$bits=$1"
done
fig frames $mcf
fig size $msize
for bits in 1 2; do
	m=2slot
	[ $bits = 2 ] && m=4ppm
	for v in mrx_byte mrx_frame mtx_byte mtx_frame mbytes; do
		eval "fig ${v#m}_$m \$${v}_$bits"
	done
done
put maccost-commands.literal.inc <<RST
::

  build/bench/mac_bench cost $msize $mcf 1 BITS   # under valgrind --tool=callgrind,
                                              # see tools/bench/run.sh
RST
put maccost.table.inc <<RST
=========  ====================  ===================  ===================  ===================
mode       receive, per byte     receive, per frame   send, per byte       send, per frame
=========  ====================  ===================  ===================  ===================
$(printf '%-9s  %-20s  %-19s  %-19s  %s\n' 2-slot "$mrx_byte_1" "$mrx_frame_1" "$mtx_byte_1" "$mtx_frame_1")
$(printf '%-9s  %-20s  %-19s  %-19s  %s\n' 4-PPM "$mrx_byte_2" "$mrx_frame_2" "$mtx_byte_2" "$mtx_frame_2")
=========  ====================  ===================  ===================  ===================
RST
finish
fi

# FEC cost: callgrind on the host build of the MAC core with the kernel's
# lib/reed_solomon, node 1 sending node 0 coded frames of the longest
# body, bytes of each codeword erased or wrong (tools/bench/mac_bench.c
# fec); and the host wall time of the same calls.
if want feccost; then
begin feccost
echo "bench: FEC cost (callgrind)"
fc_n=20 fc_wall=400 fc_seed=1 fc_pars="2 4 8 16 32"
fc_txt=$out/feccost.txt
: >"$fc_txt"
# fc_cg PAR ERASED WRONG MODE FUNC: instructions per frame in FUNC
fc_cg() {
	t=$(cg_total "fec-$1-$2-$3-$4" --toggle-collect="$5" \
		"$mb" fec "$1" "$2" "$3" $fc_n $fc_seed "$4")
	echo $((t / fc_n))
}
# fc_point PAR ERASED WRONG: one line of $fc_txt, "par erased wrong body
# words good frames decode end complete_inline complete_deferred
# (instructions a frame) decode_ns end_ns complete_inline_ns
# complete_deferred_ns start_ns"
fc_point() {
	fc_dec=$(fc_cg "$1" "$2" "$3" defer 'dec_measured*')
	fc_end=$(fc_cg "$1" "$2" "$3" defer 'end_measured*')
	fc_ci=$(fc_cg "$1" "$2" "$3" inline 'rx_measured*')
	fc_cd=$(fc_cg "$1" "$2" "$3" defer 'rx_measured*')
	set -- $("$mb" fec "$1" "$2" "$3" $fc_wall $fc_seed inline) \
		$("$mb" fec "$1" "$2" "$3" $fc_wall $fc_seed defer)
	# inline: 1 par 2 body 3 words 4 erased 5 wrong 6 frames 7 good
	# 8 start_ns 9 complete_ns; defer: 12+ likewise, 20 complete_ns,
	# 21 decode_ns, 22 end_ns
	echo "$1 $4 $5 $2 $3 $(($7 + ${18})) $(($6 + ${17})) $fc_dec $fc_end $fc_ci $fc_cd ${21} ${22} $9 ${20} $8" >>"$fc_txt"
}
fc_point 0 0 0
for p in $fc_pars; do
	for c in "0 0" "$((p / 2)) 0" "$p 0" "0 $((p / 2))"; do
		# shellcheck disable=SC2086 # "ERASED WRONG"
		fc_point "$p" $c
	done
done
fc_enc=$out/feccost-encode.txt
: >"$fc_enc"
# "par start body words start_ns emit": instructions a frame in the
# call that starts it (vlc_mac_fec_encode) and in the calls that feed
# the encoder as the body goes out (vlc_mac_fec_emit)
for p in $fc_pars; do
	echo "$p $(fc_cg "$p" 0 0 inline vlc_mac_fec_encode) $(awk -v p="$p" '$1 == p && $2 == 0 && $3 == 0 { print $4, $5, $16 }' "$fc_txt") $(fc_cg "$p" 0 0 inline vlc_mac_fec_emit)" >>"$fc_enc"
done
# fc_v PAR ERASED WRONG COLUMN: a column of $fc_txt
fc_v() { awk -v p="$1" -v x="$2" -v e="$3" -v c="$4" '$1 == p && $2 == x && $3 == e { print $c }' "$fc_txt"; }
fc_us() { awk -v v="$1" 'BEGIN { printf "%.1f", v / 1000 }'; }
fig frames $fc_n
fig wall_frames $fc_wall
fig body "$(fc_v 32 0 0 4)"
fig words "$(fc_v 32 0 0 5)"
fig good "$(awk '{ d += $6; n += $7 } END { printf "%d of %d", d, n }' "$fc_txt")"
for p in $fc_pars; do
	fig "enc_$p" "$(awk -v p="$p" '$1 == p { print $2 }' "$fc_enc")"
	fig "emit_$p" "$(awk -v p="$p" '$1 == p { print $6 }' "$fc_enc")"
	fig "emit_byte_$p" "$(awk -v p="$p" '$1 == p { printf "%.0f", $6 / $3 }' "$fc_enc")"
	fig "start_us_$p" "$(fc_us "$(awk -v p="$p" '$1 == p { print $5 }' "$fc_enc")")"
	h=$((p / 2))
	for c in "$h 0 half" "$p 0 full" "0 $h wrong"; do
		# shellcheck disable=SC2086 # "ERASED WRONG NAME"
		set -- $c
		fig "dec_$3_$p" "$(fc_v "$p" "$1" "$2" 8)"
		fig "dec_byte_$3_$p" "$(fc_v "$p" "$1" "$2" 8 | awk -v n="$(fc_v "$p" "$1" "$2" 4)" '{ printf "%.0f", $1 / n }')"
		fig "dec_us_$3_$p" "$(fc_us "$(fc_v "$p" "$1" "$2" 12)")"
		fig "inline_$3_$p" "$(fc_v "$p" "$1" "$2" 10)"
		fig "inline_us_$3_$p" "$(fc_us "$(fc_v "$p" "$1" "$2" 14)")"
		fig "deferred_$3_$p" "$(fc_v "$p" "$1" "$2" 11)"
		fig "deferred_ns_$3_$p" "$(fc_v "$p" "$1" "$2" 15)"
	done
	fig "whole_$p" "$(fc_v "$p" 0 0 10)"
	fig "whole_ns_$p" "$(fc_v "$p" 0 0 14)"
done
fig plain "$(fc_v 0 0 0 10)"
fig plain_body "$(fc_v 0 0 0 4)"
fig plain_ns "$(fc_v 0 0 0 14)"
fig plain_start_ns "$(fc_v 0 0 0 16)"
# the deferred parts: the copy in the tick, the worker's part under the
# lock; the largest over every point that decoded
fig copy_max "$(awk '$8 > 0 && $11 > m { m = $11 } END { print m + 0 }' "$fc_txt")"
fig copy_ns_max "$(awk '$8 > 0 && $15 > m { m = $15 } END { print m + 0 }' "$fc_txt")"
fig end_max "$(awk '$8 > 0 && $9 > m { m = $9 } END { print m + 0 }' "$fc_txt")"
fig end_ns_max "$(awk '$8 > 0 && $13 > m { m = $13 } END { print m + 0 }' "$fc_txt")"
put feccost-commands.literal.inc <<RST
::

  build/bench/mac_bench fec PARITY ERASED WRONG $fc_n $fc_seed inline|defer    # under valgrind --tool=callgrind,
                                                          # see tools/bench/run.sh
  build/bench/mac_bench fec PARITY ERASED WRONG $fc_wall $fc_seed inline|defer   # host wall time
RST
put feccost-decode.table.inc <<RST
======  ======  =====  ============  ========  =======  ============  =======  ============  =======
parity  erased  wrong  decode        decode    decode   inline:       inline:  deferred:     deferred:
/word   /word   /word  instructions  per byte  host us  tick's call   host us  tick's call   host ns
======  ======  =====  ============  ========  =======  ============  =======  ============  =======
$(awk '{ d = $8 ? $8 : "-"; b = $8 ? sprintf("%.0f", $8 / $4) : "-"
	du = $8 ? sprintf("%.1f", $12 / 1000) : "-"
	printf "%-6s  %-6s  %-5s  %-12s  %-8s  %-7s  %-12s  %-7.1f  %-12s  %s\n",
		$1 ? $1 : "none", $2, $3, d, b, du, $10, $14 / 1000, $11, $15 }' "$fc_txt")
======  ======  =====  ============  ========  =======  ============  =======  ============  =======
RST
put feccost-encode.table.inc <<RST
======  ====  =========  ============  ============  ==========  ============
parity  body  codewords  frame start:  body going    body going  frame start:
/word                    instructions  out: instr.   out: per    host us
                                       a frame       byte
======  ====  =========  ============  ============  ==========  ============
$(awk '{ printf "%-6s  %-4s  %-9s  %-12s  %-12s  %-10.0f  %.1f\n", $1, $3, $4, $2, $6, $6 / $3, $5 / 1000 }' "$fc_enc")
======  ====  =========  ============  ============  ==========  ============
RST
finish
fi

# Symbol errors of one medium, measured twice: the host simulator with
# the PHY and MAC cores (link_bench simser) and vlc_sim under the driver
# in the QEMU guest (ser-sim.sh), with the same parameters and seeds.
if want ser; then
begin ser
echo "bench: symbol errors, host simulator and vlc_sim (QEMU guest)"
ser_amb=2000 ser_frames=100000 ser_seeds=16 ser_noise="100 63 40"
sh_txt=$out/ser-host.txt
sq_txt=$out/ser-sim.txt
: >"$sh_txt"
ser_runs=
for n in $ser_noise; do
	s=1
	while [ $s -le $ser_seeds ]; do
		echo "$s $n $("$lb" simser $ser_amb "$n" $ser_frames $s)" >>"$sh_txt"
		ser_runs="$ser_runs $s:$n"
		s=$((s + 1))
	done
done
# BENCH_SER_TXT=FILE: the guest's output of an earlier run instead of
# booting the guest again
if [ -n "${BENCH_SER_TXT:-}" ]; then
	cp "$BENCH_SER_TXT" "$sq_txt.in"
	mv "$sq_txt.in" "$sq_txt"
elif make -s -C "$top" modules >"$out/modules.log" 2>&1; then
	{
		echo "bench: tree $run_tree, $run_date"
		# shellcheck disable=SC2086 # one argument a run
		"$top/tests/qemu/run.sh" --show --timeout 7200 \
			--out "$out/qemu-ser" "$top/tools/bench/ser-sim.sh" \
			$ser_amb $ser_frames $ser_runs
	} >"$sq_txt" 2>&1 || true
fi
# the guest's output starts with the tree it ran
sed -n 's/^bench: tree \(.*\)/The guest ran on tree \1./p' "$sq_txt" |
	head -n 1 >>"$stage/ser.run.inc"
# ser_stats NOISE: "snr seeds symbols mean se zero" of the host's runs,
# then the guest's: the mean and standard error of the per-seed rates,
# and how many seeds saw no error
ser_stats() {
	awk -v n="$1" '$2 == n { r = $5 / $4; k++; s += r; q += r * r
			sym += $4; if (!$5) z++; snr = $3 }
		END { m = s / k; v = k > 1 ? (q - k * m * m) / (k - 1) : 0
			if (v < 0) v = 0
			printf "%.1f %d %d %.3f %.3f %d", snr, k, sym, m,
				sqrt(v / k), z }' "$sh_txt"
	echo
	sed -n 's/^BENCH ser //p' "$sq_txt" |
	awk -v n="$1" '$2 == n && $3 > 0 { r = $4 / $3; k++; s += r
			q += r * r; sym += $3; if (!$4) z++ }
		END { if (!k) { print "0 0 - - 0"; exit }
			m = s / k; v = k > 1 ? (q - k * m * m) / (k - 1) : 0
			if (v < 0) v = 0
			printf "%d %d %.3f %.3f %d\n", k, sym, m, sqrt(v / k), z }'
}
ser_row() {
	set -- $(ser_stats "$1" | tr '\n' ' ') "$1"
	# 1 snr 2 seeds 3 symbols 4 mean 5 se 6 zero | 7 seeds 8 symbols
	# 9 mean 10 se 11 zero | 12 noise
	z=$(awk -v a="$4" -v sa="$5" -v b="$9" -v sb="${10}" 'BEGIN {
		d = sqrt(sa * sa + sb * sb)
		if (b == "-" || !d) print "-"; else printf "%.1f", (b - a) / d }')
	printf '%-6s  %-5s  %-19s  %-5s  %-19s  %-5s  %s\n' "$1" "${12}" \
		"$4 +- $5" "$6/$2" "$9 +- ${10}" "${11}/$7" "$z"
	echo "$z" >>"$out/ser-z.txt"
}
: >"$out/ser-z.txt"
rows=$(for n in $ser_noise; do ser_row "$n"; done)
put ser.table.inc <<RST
======  =====  ===================  =====  ===================  =====  =====
SNR dB  noise  host simulator       no     vlc_sim in QEMU      no     z
               rate +- s.e.         error  rate +- s.e.         error
======  =====  ===================  =====  ===================  =====  =====
$rows
======  =====  ===================  =====  ===================  =====  =====
RST
put ser-commands.literal.inc <<RST
::

  build/bench/link_bench simser $ser_amb NOISE $ser_frames SEED
  tests/qemu/run.sh --show tools/bench/ser-sim.sh $ser_amb $ser_frames SEED:NOISE...
RST
fig amb "$ser_amb"
fig frames "$ser_frames"
fig seeds "$ser_seeds"
fig max_z "$(awk '$1 != "-" { v = $1 < 0 ? -$1 : $1; if (v > m) m = v }
	END { printf "%.1f", m }' "$out/ser-z.txt")"
fig guest_runs "$(sed -n 's/^BENCH ser //p' "$sq_txt" | awk '$3 > 0' | wc -l)"
finish
fi

# Range per receiver type: two nodes, PHY and MAC, on vlc_sim's medium
# at its defaults (tools/bench/link_bench.c range), the edge gain swept
# down: how far each receiver type reaches, as a ratio of distances
# (light ~ 1/d^2).
if want range; then
begin range
echo "bench: range per receiver type (host)"
rg_seeds="1 2 3 4" rg_pings=500 rg_loss=1e-3
rg_r0=0.5 rg_rmax=5 rg_coarse=0.25 rg_fine=0.05
rg_n=$(($(echo "$rg_seeds" | wc -w) * rg_pings))
# rg_point RX R: the gain that puts the neighbour at R times d_full, over
# every seed; one line "r gain frames ok delivered pings frame_loss
# ping_loss lock_max offset_us clean reach": clean (1) when every seed
# locked and at most rg_loss of the DATA frames on air were lost, reach
# (1) when every seed locked and at most rg_loss of the pings were lost
rg_point() {
	g=$(awk -v r="$2" 'BEGIN { printf "%d", 1000 / (r * r) + 0.5 }')
	for s in $rg_seeds; do
		"$lb" range "$1" "$g" $rg_pings "$s"
	done | awk -v r="$2" -v g="$g" -v want=$rg_loss -v n=$rg_n '
		{ f += $4; ok += $5; d += $6; bad += !$7
		  if ($3 > lm) lm = $3; if ($8 > om) om = $8 }
		END { fl = f ? 1 - ok / f : 1; pl = 1 - d / n
		      # in counts: 2 of 2000 is 1e-3, whatever the rounding
		      printf "%.2f %d %d %d %d %d %.2e %.2e %d %.1f %d %d\n",
			r, g, f, ok, d, n, fl, pl, lm, om / 1000,
			!bad && f && f - ok <= want * f + 1e-6,
			!bad && n - d <= want * n + 1e-6 }'
}
# rg_edge FILE COLUMN: the last point that passes on COLUMN before the
# first that fails, outwards ("none" if the first fails), and that one
rg_edge() {
	sort -n "$1" | awk -v c="$2" '!stop && $c { last = $1 }
		!stop && !$c { stop = $1 }
		END { print (last == "" ? "none" : last), (stop == "" ? "none" : stop) }'
}
# rg_sweep RX: outwards from rg_r0 by rg_coarse until the pings do not
# get through; then by rg_fine between each criterion's last coarse point
# that passed and its first that failed
rg_sweep() {
	x=$1 t=$out/range-$1.txt
	: >"$t"
	r=$rg_r0
	while awk -v r="$r" -v m=$rg_rmax 'BEGIN { exit !(r <= m) }'; do
		rg_point "$x" "$r" >>"$t"
		tail -n 1 "$t" | awk '{ exit !$12 }' || break
		r=$(awk -v r="$r" -v s=$rg_coarse 'BEGIN { printf "%.2f", r + s }')
	done
	for c in 11 12; do
		set -- $(rg_edge "$t" $c)
		if [ "$1" = none ] || [ "$2" = none ]; then
			continue
		fi
		r=$(awk -v r="$1" -v s=$rg_fine 'BEGIN { printf "%.2f", r + s }')
		while awk -v r="$r" -v m="$2" 'BEGIN { exit !(r < m - 1e-9) }'; do
			awk -v r="$r" '$1 == r { f = 1 } END { exit !f }' "$t" ||
				rg_point "$x" "$r" >>"$t"
			r=$(awk -v r="$r" -v s=$rg_fine 'BEGIN { printf "%.2f", r + s }')
		done
	done
}
# rg_fig RX NAME COLUMN: |range_NAME_RX| (the edge as a ratio of
# distances, from its gain) and |range_NAME_gain_RX|; "-" if none
rg_fig() {
	t=$out/range-$1.txt
	set -- "$1" "$2" $(rg_edge "$t" "$3")
	if [ "$3" = none ]; then
		fig "${2}_gain_$1" -
		fig "${2}_$1" -
		fig "${2}_frame_loss_$1" -
		return
	fi
	set -- "$1" "$2" $(awk -v r="$3" '$1 == r' "$t")
	fig "${2}_gain_$1" "$4"
	fig "${2}_$1" "$(awk -v g="$4" 'BEGIN { printf "%.2f", sqrt(1000 / g) }')"
	fig "${2}_frame_loss_$1" "$9"
}
for rx in pd led led2; do
	rg_sweep $rx
done
fig seeds "$(echo "$rg_seeds" | wc -w)"
fig pings $rg_pings
fig packets $rg_n
fig loss $rg_loss
fig coarse $rg_coarse
fig fine $rg_fine
for rx in pd led led2; do
	rg_fig $rx reach 12
	rg_fig $rx clean 11
done
# Centimetres, derived, not measured: vlc-hardware.rst computes that a red
# 5 mm LED at 6 mA gives a BPW34 "a few uA" (taken as 2 to 4) at 5 cm;
# on the BeagleBone's ADC (10 mV per uA, rx-min-level 10 mV) d_full is
# where one lit LED gives ten times rx-min-level, 10 uA
rg_cm() {	# FORMAT RATIO: "LO to HI", d_full's range times RATIO
	awk -v f="$1" -v k="$2" 'BEGIN { if (k == "-") { print "-"; exit }
		printf f " to " f, k * 5 * sqrt(2 / 10), k * 5 * sqrt(4 / 10) }'
}
rg_v() { sed -n "s/^\.\. |range_$1| replace:: //p" "$stage/range.figures.inc"; }
fig adc_dfull_cm "$(rg_cm %.1f 1)"
fig adc_reach_cm "$(rg_cm %.0f "$(rg_v reach_pd)")"
fig adc_clean_cm "$(rg_cm %.0f "$(rg_v clean_pd)")"
put range-commands.literal.inc <<RST
::

  build/bench/link_bench range pd|led|led2 GAIN $rg_pings SEED   # SEED $(echo "$rg_seeds" | tr ' ' ','), GAIN swept
RST
rg_row() {	# LABEL RX: a row of the table
	printf '%-33s  %-8s  %-8s  %-10s  %-8s  %s\n' "$1" \
		"$(rg_v "reach_gain_$2")" "$(rg_v "reach_$2")" \
		"$(rg_v "reach_frame_loss_$2")" "$(rg_v "clean_gain_$2")" \
		"$(rg_v "clean_$2")"
}
put range.table.inc <<RST
=================================  ========  ========  ==========  ========  ========
receiver                           reach:    reach:    DATA frame  clean:    clean:
                                   gain_min  d/d_full  loss there  gain_min  d/d_full
=================================  ========  ========  ==========  ========  ========
$(rg_row "photodiode (pd)" pd)
$(rg_row "one LED, sends and senses (led)" led)
$(rg_row "a second LED as the sensor (led2)" led2)
=================================  ========  ========  ==========  ========  ========
RST
for rx in pd led led2; do
	put range-$rx.literal.inc <<RST
::

  d/d_full  gain  DATA frames     ok  pings delivered  frame loss  ping loss  lock  offset us  clean  reach
$(sort -n "$out/range-$rx.txt" | awk '{ printf "  %8.2f  %4d  %11d  %5d  %5d  %9d  %10s  %9s  %4d  %9.1f  %5s  %s\n", $1, $2, $3, $4, $6, $5, $7, $8, $9, $10, $11 ? "yes" : "no", $12 ? "yes" : "no" }')
RST
done
finish
fi

# Published figures of the anchors, next to ours.
if want anchors; then
begin anchors
echo "bench: anchors"
# without net in this run: the UDP goodput the page shows, net's
if [ -z "${udp_g:-}" ] && [ -f "$frag/net.figures.inc" ]; then
	udp_g=$(sed -n 's/^\.\. |net_udp_goodput| replace:: //p' "$frag/net.figures.inc")
	[ -z "$udp_g" ] ||
		echo 'Our UDP goodput is that of "Goodput and latency".' >>"$stage/anchors.run.inc"
fi
ours_udp="(Goodput and latency not run)" udp_bps=
if [ -n "${udp_g:-}" ]; then
	udp_bps=$(awk "BEGIN { printf \"%.0f\", $udp_g * 2000 }")
	ours_udp="$udp_bps bit/s UDP goodput (MTU 1500)"
fi
# anchor_row NAME THEIRS OURS_TEXT OURS: one row, ours / theirs
anchor_row() {
	[ -n "$4" ] || return 0
	printf '%-36s  %-13s  %-28s  %s\n' "$1" "$2" "$3: $4" \
		"$(awk "BEGIN { printf \"%.3g\", $4 / $2 }")"
}
fig ours_udp "$ours_udp"
put anchors.table.inc <<RST
====================================  =============  ============================  ======
anchor, figure                        bit/s          ours, bit/s                   ours /
                                                                                   theirs
====================================  =============  ============================  ======
$(anchor_row "seed: \"about 1 Kbps\"" 1000 "2-slot raw rate" 2000)
$(anchor_row "seed: \"about 1 Kbps\"" 1000 "UDP goodput, MTU 1500" "$udp_bps")
$(anchor_row "PJON AnalogSampling mode 1" 1024 "2-slot raw rate" 2000)
$(anchor_row "PJON AnalogSampling mode 5" 12658 "4-PPM raw rate" 4000)
$(anchor_row "OpenVLC1.3, transport layer" 400000 "UDP goodput, MTU 1500" "$udp_bps")
$(anchor_row "802.15.7 PHY I, lowest (unverified)" 11670 "4-PPM raw rate" 4000)
====================================  =============  ============================  ======
RST
finish
fi
