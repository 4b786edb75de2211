#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Device-tree checks: the binding, its examples, the overlays, and the
# overlays merged onto the upstream DTBs of the boards they are for.
#
#  - binding: dt-doc-validate, as make dt_binding_check does
#  - examples: dt-extract-example | cpp | dtc | dt-validate against the
#    kernel's schemas plus ours (processed once, cached by hash)
#  - negatives: nodes the binding must reject, and why
#  - overlays: dtc -@, warning free
#  - boards: bcm2837-rpi-3-b, bcm2836-rpi-2-b, bcm2711-rpi-4-b,
#    am335x-boneblack built from the kernel tree the way Kbuild does
#    (tests/dt/board-dtb.sh), cached
#  - merge: fdtoverlay, then fdtget on what the overlay must have made
#  - overrides: the firmware applies dtparams to the overlay before
#    merging; tests/dt/overrides.py does the same with fdtput, then the
#    merged tree is checked again (both the GPIO cell and brcm,pins)
#  - schema on the merged trees: nothing from our binding, and no error
#    the board's own tree did not already have
#
# Prints one line per check and ends with "dt: N passed, N failed".

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
src=$("$top/scripts/ksrc.sh" src) || exit 1
out=${BUILD:-$top/build}/dt
mkdir -p "$out"
# What the kernel tree and the schema decide alone (the boards' DTBs, the
# processed schema, the errors a board's own tree already has) is kept
# under the cache, keyed by what made it; what this tree's files make
# goes to $out.
store=${VLC_CACHE:-/var/cache/linux-vlc}/dt
if ! mkdir -p "$store" 2>/dev/null || [ ! -w "$store" ]; then
	store=$out/cache
	mkdir -p "$store"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bindings=$src/Documentation/devicetree/bindings
ours=$top/Documentation/devicetree/bindings
binding=$ours/net/linux-vlc,vlc-gpio.yaml
ovl=$top/dts/overlays
passed=0
failed=0

ok() { passed=$((passed + 1)); echo "dt: ok   $*"; }
ko() { failed=$((failed + 1)); echo "dt: FAIL $*"; }
# check NAME COMMAND...: one line, with the command's output on failure
check() {
	name=$1
	shift
	if o=$("$@" 2>&1); then
		ok "$name"
	else
		ko "$name"
		echo "$o" | head -n 15 | sed 's/^/  | /'
	fi
}

cpp_dts() {
	cpp -nostdinc -I "$src/include" -I "$src/arch/arm/boot/dts" \
		-I "$src/scripts/dtc/include-prefixes" -undef -D__DTS__ \
		-x assembler-with-cpp "$1" -o "$2"
}

# Errors a dt-validate run reported, without the file name, one per line.
# It exits 0 whatever it finds, so its output is what counts.
schema_errors() {
	dt-validate -s "$schema" "$1" 2>&1 | sed -e 's|^[^ ]*\.dtb: ||' |
		awk '/^\t/ { l = l " " $0; next } { if (l != "") print l; l = $0 }
		     END { if (l != "") print l }' | sort -u
}

# ---- binding ----

# dt-doc-validate takes one search path, which must also be the prefix of
# the file checked ($id is matched against the path below it): give it
# the kernel's bindings with ours placed among them, as in a kernel tree.
farm=$tmp/bindings
mkdir -p "$farm/net"
for d in "$bindings"/*; do
	[ "$(basename "$d")" = net ] || ln -s "$d" "$farm/"
done
ln -s "$bindings"/net/* "$farm/net/"
ln -sf "$binding" "$farm/net/"

doc_validate() {
	o=$(dt-doc-validate -u "$farm" "$farm/net/$(basename "$binding")" 2>&1)
	[ -z "$o" ] || { echo "$o"; return 1; }
}
check "binding: dt-doc-validate $(basename "$binding")" doc_validate

key=$( (dt-validate -V; sed -n 's/^VERSION = //p' "$src/Makefile"
	cat "$binding") 2>/dev/null | sha256sum | cut -c1-12)
schema=$store/processed-schema-$key.json
mk_schema() {
	[ -s "$schema" ] && return 0
	dt-mk-schema -j "$bindings" "$binding" >"$schema.$$" &&
		mv "$schema.$$" "$schema"
}
check "binding: processed schema (kernel bindings + ours)" mk_schema

examples() {
	dt-extract-example "$binding" >"$tmp/ex.dts" &&
	cpp_dts "$tmp/ex.dts" "$tmp/ex.pp" &&
	dtc -q -O dtb -o "$tmp/ex.dtb" "$tmp/ex.pp" || return 1
	n=$(grep -c 'compatible = "linux-vlc,vlc-gpio"' "$tmp/ex.pp")
	[ "$n" -ge 4 ] || { echo "only $n examples"; return 1; }
	o=$(schema_errors "$tmp/ex.dtb")
	[ -z "$o" ] || { echo "$o"; return 1; }
	echo "$n examples valid"
}
check "binding: examples (led, comparator, adc, sense) validate" examples

# NAME EXPECTED-ERROR PROPERTIES: the binding must reject the node.
reject() {
	name=$1 want=$2 props=$3
	cat >"$tmp/neg.dts" <<-EOF
	/dts-v1/;
	/plugin/;
	/ { compatible = "foo"; model = "foo";
	    #address-cells = <1>; #size-cells = <1>;
	    vlc { compatible = "linux-vlc,vlc-gpio"; $props };
	};
	EOF
	dtc -q -O dtb -o "$tmp/neg.dtb" "$tmp/neg.dts" || return 1
	o=$(schema_errors "$tmp/neg.dtb")
	echo "$o" | grep -q -- "$want" ||
		{ echo "expected \"$want\", got:"; echo "$o"; return 1; }
}
tx='tx-gpios = <&gpio 17 0>;'
check "binding rejects: no receiver" reject "" \
	"'oneOf' conditional failed" "$tx"
check "binding rejects: two receivers without rx-mode" reject "" \
	"More than one condition true in oneOf" \
	"$tx rx-gpios = <&gpio 27 0>; io-channels = <&adc 0>; io-channel-names = \"rx\";"
check "binding rejects: rx-mode adc without io-channels" reject "" \
	"'io-channels' is a required property" \
	"$tx rx-mode = \"adc\"; rx-gpios = <&gpio 27 0>;"
check "binding rejects: led-cathode-gpios with sense-gpios" reject "" \
	"should not be valid under" \
	"$tx led-cathode-gpios = <&gpio 27 0>; sense-gpios = <&gpio 22 0>;"
check "binding rejects: brightness 2000" reject "" \
	"2000 is greater than the maximum of 1000" \
	"$tx rx-gpios = <&gpio 27 0>; brightness = <2000>;"
check "binding rejects: modulation \"8ppm\"" reject "" \
	"'8ppm' is not one of" "$tx rx-gpios = <&gpio 27 0>; modulation = \"8ppm\";"
# Why every property is unprefixed or linux-vlc-typed: an unknown vendor
# prefix on a property name fails vendor-prefixes.yaml, while the prefix
# of a compatible value is not checked (the examples above pass).
check "binding rejects: unknown vendor prefix on a property (vlc,phy-mode)" \
	reject "" "'vlc,phy-mode' does not match any of the regexes" \
	"$tx rx-gpios = <&gpio 27 0>; vlc,phy-mode = \"4ppm\";"

# ---- overlays ----

for f in "$ovl"/*-overlay.dts; do
	b=$(basename "$f" -overlay.dts)
	build_ovl() {
		o=$(dtc -@ -I dts -O dtb -o "$out/$b.dtbo" "$f" 2>&1) || \
			{ echo "$o"; return 1; }
		[ -z "$o" ] || { echo "$o"; return 1; }
	}
	check "overlay: dtc -@ $(basename "$f") (no warnings)" build_ovl
done

# ---- boards ----

boards="bcm2837-rpi-3-b bcm2836-rpi-2-b bcm2711-rpi-4-b am335x-boneblack"
for b in $boards; do
	check "board: $b.dtb from the kernel tree (cpp, dtc -@)" \
		"$top/tests/dt/board-dtb.sh" "$b" "$store"
done

# ---- merge and inspect ----

# want DTB NODE PROP [-t TYPE] EXPECTED
want() {
	dtb=$1 node=$2 prop=$3
	shift 3
	t=""
	if [ "$1" = -t ]; then t="-t $2"; shift 2; fi
	# shellcheck disable=SC2086
	got=$(fdtget $t "$dtb" "$node" "$prop" 2>&1)
	[ "$got" = "$1" ] || { echo "$node $prop: got '$got', want '$1'"; return 1; }
}

phandle_of() {	# DTB LABEL
	p=$(fdtget -t s "$1" /__symbols__ "$2") && fdtget "$1" "$p" phandle
}

rpi_checks() {	# DTB TX RX MODE FRAME BRIGHTNESS [MODULATION SYNC GUARD DATA TOL]
	m=$1
	g=$(phandle_of "$m" gpio) || return 1
	gp=$(fdtget -t s "$m" /__symbols__ gpio)
	pins=$(phandle_of "$m" vlc_pins) || return 1
	want "$m" /vlc compatible "linux-vlc,vlc-gpio" &&
	want "$m" /vlc tx-gpios "$g $2 0" &&
	want "$m" /vlc led-cathode-gpios "$g $3 0" &&
	want "$m" /vlc rx-gpios "$g $3 0" &&
	want "$m" /vlc rx-mode "$4" &&
	want "$m" /vlc frame-us "$5" &&
	want "$m" /vlc brightness "$6" &&
	want "$m" /vlc modulation "${7:-2slot}" &&
	want "$m" /vlc sync-us "${8:-40}" &&
	want "$m" /vlc guard-us "${9:-20}" &&
	want "$m" /vlc data-us "${10:-50}" &&
	want "$m" /vlc tolerance-us "${11:-20}" &&
	want "$m" /vlc pinctrl-0 "$pins" &&
	want "$m" "$gp/vlc_pins" brcm,pins "$2 $3" &&
	want "$m" "$gp/vlc_pins" brcm,function "1 0" &&
	want "$m" "$gp/vlc_pins" brcm,pull "0 0"
}

# base_errors DTB: schema_errors of a board's own tree, which it and the
# schema decide
base_errors() {
	e=$store/$(basename "$1" .dtb)-$key-$(sha256sum <"$1" | cut -c1-12).err
	[ -f "$e" ] || { schema_errors "$1" >"$e.$$" && mv "$e.$$" "$e"; }
	cat "$e"
}

schema_clean() {	# BASE MERGED
	base_errors "$1" >"$tmp/base.err"
	schema_errors "$2" >"$tmp/merged.err"
	ours_err=$(grep -E -e 'linux-vlc,vlc-gpio\.yaml' \
		-e '^(vlc|vlc_pins|pinmux_vlc_pins):' "$tmp/merged.err")
	new=$(comm -13 "$tmp/base.err" "$tmp/merged.err")
	[ -z "$ours_err$new" ] || { echo "$ours_err"; echo "$new"; return 1; }
}

for b in bcm2837-rpi-3-b bcm2711-rpi-4-b; do
	m=$out/$b+vlc.dtb
	check "merge: fdtoverlay vlc.dtbo onto $b" \
		fdtoverlay -i "$store/$b.dtb" -o "$m" "$out/vlc.dtbo"
	check "merge: $b /vlc and gpio/vlc_pins as the overlay says" \
		rpi_checks "$m" 17 27 led 500 200
	check "schema: $b+vlc: vlc node valid, no new errors" \
		schema_clean "$store/$b.dtb" "$m"
done

# The merged-tree check really applies our schema: spoil a copy.
spoiled() {
	cp "$out/bcm2837-rpi-3-b+vlc.dtb" "$tmp/spoiled.dtb"
	fdtput "$tmp/spoiled.dtb" /vlc brightness 2000 &&
	! schema_clean "$store/bcm2837-rpi-3-b.dtb" "$tmp/spoiled.dtb" >/dev/null
}
check "schema: merged-tree check catches brightness = 2000 put into /vlc" spoiled

# The parameter table itself: every entry names an existing property at
# a cell inside it; tx_pin and rx_pin patch the GPIO cell and brcm,pins.
override_table() {
	l=$(python3 "$top/tests/dt/overrides.py" list "$out/vlc.dtbo") || return 1
	for e in "tx_pin /fragment@0/__overlay__/vlc tx-gpios 4" \
		 "tx_pin /fragment@1/__overlay__/vlc_pins brcm,pins 0" \
		 "rx_pin /fragment@0/__overlay__/vlc led-cathode-gpios 4" \
		 "rx_pin /fragment@0/__overlay__/vlc rx-gpios 4" \
		 "rx_pin /fragment@1/__overlay__/vlc_pins brcm,pins 4" \
		 "rx_mode /fragment@0/__overlay__/vlc rx-mode " \
		 "modulation /fragment@0/__overlay__/vlc modulation " \
		 "frame_us /fragment@0/__overlay__/vlc frame-us 0" \
		 "sync_us /fragment@0/__overlay__/vlc sync-us 0" \
		 "guard_us /fragment@0/__overlay__/vlc guard-us 0" \
		 "data_us /fragment@0/__overlay__/vlc data-us 0" \
		 "tolerance_us /fragment@0/__overlay__/vlc tolerance-us 0" \
		 "brightness /fragment@0/__overlay__/vlc brightness 0" \
		 "mac_hi /fragment@0/__overlay__/vlc local-mac-address 0" \
		 "mac_lo /fragment@0/__overlay__/vlc local-mac-address 4"; do
		echo "$l" | grep -qxF -- "$e" || { echo "missing: $e"; return 1; }
	done
	echo "$l" | while read -r name path prop off; do
		# the firmware creates it: the overlay has no default address
		[ "$prop" = local-mac-address ] && continue
		n=$(fdtget -t x "$out/vlc.dtbo" "$path" "$prop" | wc -w) ||
			exit 1
		[ -z "$off" ] || [ $((off / 4)) -lt "$n" ] ||
			{ echo "$name: $prop:$off beyond $n cells"; exit 1; }
	done
}
check "overrides: __overrides__ targets (tx_pin, rx_pin, rx_mode, modulation, frame_us, sync_us, guard_us, data_us, tolerance_us, brightness, mac_hi, mac_lo)" \
	override_table

ovr=$tmp/vlc-params.dtbo
cp "$out/vlc.dtbo" "$ovr"
check "overrides: apply tx_pin=22 rx_pin=23 rx_mode=comparator frame_us=1000 brightness=300 modulation=4ppm sync_us=80 guard_us=40 data_us=100 tolerance_us=30 mac_hi=0x02564c43 mac_lo=0x0001" \
	python3 "$top/tests/dt/overrides.py" apply "$ovr" tx_pin=22 rx_pin=23 \
	rx_mode=comparator frame_us=1000 brightness=300 modulation=4ppm \
	sync_us=80 guard_us=40 data_us=100 tolerance_us=30 \
	mac_hi=0x02564c43 mac_lo=0x0001
m=$out/bcm2711-rpi-4-b+vlc-params.dtb
check "overrides: merge the parameterised overlay onto bcm2711-rpi-4-b" \
	fdtoverlay -i "$store/bcm2711-rpi-4-b.dtb" -o "$m" "$ovr"
check "overrides: tx-gpios/rx-gpios cells and brcm,pins = 22 23, rx-mode, frame-us, brightness, modulation and the slot timing" \
	rpi_checks "$m" 22 23 comparator 1000 300 4ppm 80 40 100 30
check "overrides: mac_hi and mac_lo make local-mac-address 02:56:4c:43:00:01" \
	want "$m" /vlc local-mac-address -t bx "2 56 4c 43 0 1"
check "schema: bcm2711-rpi-4-b+vlc with parameters: valid, no new errors" \
	schema_clean "$store/bcm2711-rpi-4-b.dtb" "$m"

bbb_checks() {
	m=$1
	g=$(phandle_of "$m" gpio1) || return 1
	adc=$(phandle_of "$m" am335x_adc) || return 1
	pins=$(phandle_of "$m" vlc_pins) || return 1
	ts=$(fdtget -t s "$m" /__symbols__ tscadc)
	ap=$(fdtget -t s "$m" /__symbols__ am335x_adc)
	pm=$(fdtget -t s "$m" /__symbols__ am33xx_pinmux)
	want "$m" /vlc compatible "linux-vlc,vlc-gpio" &&
	want "$m" /vlc tx-gpios "$g 28 0" &&
	want "$m" /vlc io-channels "$adc 0" &&
	want "$m" /vlc io-channel-names rx &&
	want "$m" /vlc pinctrl-0 "$pins" &&
	want "$m" "$ts" status okay &&
	want "$m" "$ts/tsc" status disabled &&
	want "$m" "$ap" ti,adc-channels 0 &&
	want "$m" "$ap" ti,chan-step-avg 1 &&
	want "$m" "$ap" ti,chan-step-opendelay 0 &&
	want "$m" "$ap" "#io-channel-cells" 1 &&
	want "$m" "$pm/pinmux_vlc_pins" pinctrl-single,pins -t x "78 0 7"
}
m=$out/am335x-boneblack+vlc-bbb.dtb
check "merge: fdtoverlay vlc-bbb.dtbo onto am335x-boneblack" \
	fdtoverlay -i "$store/am335x-boneblack.dtb" -o "$m" "$out/vlc-bbb.dtbo"
check "merge: am335x-boneblack /vlc on gpio1 28 + am335x_adc 0 (1 sample, no open delay), tscadc okay (tsc off), P9_12 mux" \
	bbb_checks "$m"
check "schema: am335x-boneblack+vlc-bbb: vlc node valid, no new errors" \
	schema_clean "$store/am335x-boneblack.dtb" "$m"

echo "dt: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
