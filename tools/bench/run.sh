#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench: measure, then write Documentation/networking/vlc-benchmarks.rst
# (and its PNG plots) with the command behind every figure. Benchmarks
# never fail the build; they are deterministic (seeded, virtual time)
# except the wall-clock latency of the host build.

set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/bench
doc=$top/Documentation/networking
mkdir -p "$out"
make -s -C "$top/tools/bench"
pb=$out/phy_bench

echo "bench: PHY cost (callgrind)"
n=100000
valgrind --tool=callgrind --toggle-collect=vlc_phy_tick \
	--callgrind-out-file="$out/cg.out" "$pb" ticks $n >"$out/ticks.txt" 2>"$out/cg.log"
ir=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out/cg.log")
frames=$(cut -d' ' -f1 "$out/ticks.txt")
per_slot=$((ir / n))
per_frame=$((ir / frames))

echo "bench: PHY callback latency (host wall clock)"
set -- $("$pb" latency 1000000)
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
     "$out/ber-2slot.txt" using 1:6 with lines dashtype 2 title "theory, hard-decision differential OOK"
GP
fi

ber_table() {
	awk '!/^#/ { printf "   %5s  %9.2e  %9.2e  %9.2e  %8d\n", $1, $2/$5, ($3+$4)/$5, $6, $5 }' "$1"
}

cat >"$doc/vlc-benchmarks.rst" <<RST
.. SPDX-License-Identifier: GPL-2.0

=====================
VLC driver benchmarks
=====================

Written by \`\`make bench\`\` (tools/bench/run.sh) on $(date -u +%Y-%m-%d);
every figure names the command that produced it. Host: $(uname -m),
$(nproc) cores. The PHY figures come from the host build of the pure PHY
core (the same source the kernel compiles) on the channel model of the
tests (drivers/net/vlc/tests/vlc_test_chan.c), in virtual time.

PHY cost
========

::

  valgrind --tool=callgrind --toggle-collect=vlc_phy_tick \\
      build/bench/phy_bench ticks $n

================================  =========  ========
figure                            measured   goal
================================  =========  ========
instructions per slot event       $per_slot        <= 300
instructions per frame            $per_frame
================================  =========  ========

A slot event is one vlc_phy_tick() call, with pins that return a constant
level and a MAC that sends data every frame. No neighbour is ever seen,
so the PHY stays in acquisition, its costliest state: the ID windows are
measured (about 26 slot events per frame instead of 10) and the
acquisition search runs, spread over the ticks; the per-frame decode is
included, amortised. Once locked, neither happens.

Wall time of one vlc_phy_tick() on the host (\`\`phy_bench latency
1000000\`\`): mean $lat_mean ns, 99th percentile $lat_p99 ns, maximum
$lat_max ns (the maximum includes the host's own scheduling noise).

Bit errors against SNR
======================

::

  build/bench/phy_bench ber 2slot; build/bench/phy_bench ber 4ppm

SNR is the amplitude of a lit data slot over the rms noise of one data
window. The receiver does not guess: below its margin a symbol is an
erasure, which the MAC turns into a retransmission; so "wrong" decisions
stay far below the hard-decision curve, at the cost of erasures.

.. image:: vlc-ber.png

2-slot mode::

   SNR dB      wrong  erased+missed  theory   symbols
$(ber_table "$out/ber-2slot.txt")

4-PPM mode::

   SNR dB      wrong  erased+missed  theory   symbols
$(ber_table "$out/ber-4ppm.txt")
RST
echo "bench: wrote $doc/vlc-benchmarks.rst"
