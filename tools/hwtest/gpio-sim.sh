#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build gpio-sim.ko for the QEMU scenario tests/qemu/scenarios/hwtest.sh.
# Debian's stock kernel has neither CONFIG_GPIO_SIM nor CONFIG_IRQ_SIM, so
# the module is built out of tree from the kernel's own sources
# (drivers/gpio/gpio-sim.c with kernel/irq/irq_sim.c linked in), against
# the same build tree as the driver. One change: irq_sim calls
# irq_to_desc(), which modules cannot, so it uses generic_handle_irq(),
# which does the same for a handle_simple_irq line.
#
#   gpio-sim.sh KDIR OUTDIR     builds OUTDIR/gpio-sim.ko

set -eu
kdir=$1 out=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
src=$("$top/scripts/ksrc.sh" src)
krel=$(cat "$kdir/include/config/kernel.release")
case "$krel" in
6.1.*) ;;
*) echo "gpio-sim.sh: $kdir is $krel, the sources are 6.1" >&2; exit 1 ;;
esac

mkdir -p "$out"
tmp=$out/.src.$$
mkdir -p "$tmp"
cp "$src/drivers/gpio/gpio-sim.c" "$tmp/gpio-sim-main.c"
cp "$src/drivers/gpio/gpiolib.h" "$tmp/"
sed 's/handle_simple_irq(irq_to_desc(irqnum))/generic_handle_irq(irqnum)/' \
	"$src/kernel/irq/irq_sim.c" >"$tmp/irq_sim.c"
grep -q 'generic_handle_irq(irqnum)' "$tmp/irq_sim.c" ||
	{ echo "gpio-sim.sh: irq_sim.c changed, cannot patch it" >&2; exit 1; }
printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-main.o irq_sim.o\n' \
	>"$tmp/Kbuild"
# Only copy over what changed, so the module is rebuilt only then.
for f in Kbuild gpiolib.h gpio-sim-main.c irq_sim.c; do
	cmp -s "$tmp/$f" "$out/$f" || cp "$tmp/$f" "$out/$f"
done
rm -rf "$tmp"
make -s -C "$kdir" M="$out" modules
