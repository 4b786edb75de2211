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
#    am335x-boneblack built from the 6.1 tree the way Kbuild does
#    (tests/dt/board-dtb.sh), cached, and bcm2712-rpi-5-b from the 7.3
#    tree, the first with the Raspberry Pi 5 and RP1 in it
#  - merge: fdtoverlay, then fdtget on what the overlay must have made
#  - overrides: the firmware applies dtparams to the overlay before
#    merging; tests/dt/overrides.py does the same with fdtput, then the
#    merged tree is checked again (both the GPIO cell and brcm,pins)
#  - schema on the merged trees: nothing from our binding, and no error
#    the board's own tree did not already have (the Pi 5's against 7.3's
#    bindings, RP1's among them)
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

# schema_errors DTB [SCHEMA]: the errors a dt-validate run reported,
# without the file name, one per line. It exits 0 whatever it finds, so
# its output is what counts.
schema_errors() {
	dt-validate -s "${2:-$schema}" "$1" 2>&1 | sed -e 's|^[^ ]*\.dtb: ||' |
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
# mk_schema SCHEMA BINDINGS: the kernel's bindings and ours, processed
mk_schema() {
	[ -s "$1" ] && return 0
	dt-mk-schema -j "$2" "$binding" >"$1.$$" && mv "$1.$$" "$1"
}
check "binding: processed schema (6.1's bindings + ours)" \
	mk_schema "$schema" "$bindings"
# The Raspberry Pi 5's tree and RP1's pin-controller binding are 7.3's.
src73=$(VLC_KVER=7.3 "$top/scripts/ksrc.sh" src) || exit 1
key73=$( (dt-validate -V; echo "$src73"; cat "$binding") 2>/dev/null |
	sha256sum | cut -c1-12)
schema73=$store/processed-schema-$key73.json
check "binding: processed schema (7.3's bindings + ours)" \
	mk_schema "$schema73" "$src73/Documentation/devicetree/bindings"

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
	check "board: $b.dtb from the 6.1 tree (cpp, dtc -@)" \
		"$top/tests/dt/board-dtb.sh" "$b" "$store"
done
check "board: bcm2712-rpi-5-b.dtb from the 7.3 tree (cpp, dtc -@)" \
	"$top/tests/dt/board-dtb.sh" broadcom/bcm2712-rpi-5-b "$store" 7.3

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

# vlc_props DTB MODE FRAME BRIGHTNESS [MODULATION SYNC GUARD DATA TOL]
vlc_props() {
	want "$1" /vlc compatible "linux-vlc,vlc-gpio" &&
	want "$1" /vlc rx-mode "$2" &&
	want "$1" /vlc frame-us "$3" &&
	want "$1" /vlc brightness "$4" &&
	want "$1" /vlc modulation "${5:-2slot}" &&
	want "$1" /vlc sync-us "${6:-40}" &&
	want "$1" /vlc guard-us "${7:-20}" &&
	want "$1" /vlc data-us "${8:-50}" &&
	want "$1" /vlc tolerance-us "${9:-20}"
}

# RX is the receiver's pin, or PIN:FLAGS when rx-gpios has flags
rpi_checks() {	# DTB TX RX MODE FRAME BRIGHTNESS [MODULATION SYNC GUARD DATA TOL]
	m=$1 tx=$2 rx=${3%%:*} rf=0
	case "$3" in *:*) rf=${3#*:} ;; esac
	shift 3
	g=$(phandle_of "$m" gpio) || return 1
	gp=$(fdtget -t s "$m" /__symbols__ gpio)
	pins=$(phandle_of "$m" vlc_pins) || return 1
	want "$m" /vlc tx-gpios "$g $tx 0" &&
	want "$m" /vlc led-cathode-gpios "$g $rx 0" &&
	want "$m" /vlc rx-gpios "$g $rx $rf" &&
	vlc_props "$m" "$@" &&
	want "$m" /vlc pinctrl-0 "$pins" &&
	want "$m" "$gp/vlc_pins" brcm,pins "$tx $rx" &&
	want "$m" "$gp/vlc_pins" brcm,function "1 0" &&
	want "$m" "$gp/vlc_pins" brcm,pull "0 0"
}

# The Pi 5's lines are RP1's; the cathode's flags switch its pull off
# (GPIO_PULL_DISABLE, as the kernel's dt-bindings header defines it),
# and there is no pin-configuration node.
pull_off=$(sed -n 's/^#define GPIO_PULL_DISABLE[[:space:]]*\([0-9]*\).*/\1/p' \
	"$src73/include/dt-bindings/gpio/gpio.h")
pi5_checks() {	# DTB TX RX MODE FRAME BRIGHTNESS [MODULATION SYNC GUARD DATA TOL]
	m=$1 tx=$2 rx=${3%%:*} rf=0
	case "$3" in *:*) rf=${3#*:} ;; esac
	shift 3
	g=$(phandle_of "$m" rp1_gpio) || return 1
	want "$m" "$(fdtget -t s "$m" /__symbols__ rp1_gpio)" compatible \
		raspberrypi,rp1-gpio &&
	want "$m" /vlc tx-gpios "$g $tx 0" &&
	want "$m" /vlc led-cathode-gpios "$g $rx ${pull_off:?}" &&
	want "$m" /vlc rx-gpios "$g $rx $rf" &&
	vlc_props "$m" "$@" &&
	{ ! fdtget "$m" /vlc pinctrl-0 >/dev/null 2>&1 ||
	  { echo "/vlc pinctrl-0: present"; return 1; }; }
}

# base_errors DTB [SCHEMA KEY]: schema_errors of a board's own tree,
# which it and the schema decide
base_errors() {
	e=$store/$(basename "$1" .dtb)-${3:-$key}-$(sha256sum <"$1" | cut -c1-12).err
	[ -f "$e" ] || { schema_errors "$1" "${2:-}" >"$e.$$" && mv "$e.$$" "$e"; }
	cat "$e"
}

schema_clean() {	# BASE MERGED [SCHEMA KEY]
	base_errors "$1" "${3:-}" "${4:-}" >"$tmp/base.err"
	schema_errors "$2" "${3:-}" >"$tmp/merged.err"
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

# The parameters both Raspberry Pi overlays have, with the same targets
# in the vlc node (NAME PROPERTY BYTE-OFFSET), and the list of names.
v=/fragment@0/__overlay__/vlc
vlc_params="rx_pin $v led-cathode-gpios 4
rx_pin $v rx-gpios 4
rx_mode $v rx-mode 
rx_active_low $v rx-gpios 8
modulation $v modulation 
frame_us $v frame-us 0
sync_us $v sync-us 0
guard_us $v guard-us 0
data_us $v data-us 0
tolerance_us $v tolerance-us 0
brightness $v brightness 0
mac_hi $v local-mac-address 0
mac_lo $v local-mac-address 4"
names="tx_pin, $(echo "$vlc_params" | cut -d' ' -f1 | uniq | paste -sd, - |
	sed 's/,/, /g')"

# override_table DTBO ENTRIES: the overlay's parameter table has every
# entry of ENTRIES (lines "NAME PATH PROPERTY BYTE-OFFSET"), and each of
# its entries names an existing property at a cell inside it.
override_table() {
	l=$(python3 "$top/tests/dt/overrides.py" list "$1") || return 1
	echo "$l" | while read -r name path prop off; do
		# the firmware creates it: the overlay has no default address
		[ "$prop" = local-mac-address ] && continue
		n=$(fdtget -t x "$1" "$path" "$prop" 2>/dev/null | wc -w)
		[ "$n" -gt 0 ] ||
			{ echo "$name: no property $prop in $path"; exit 1; }
		[ -z "$off" ] || [ $((off / 4)) -lt "$n" ] ||
			{ echo "$name: $prop:$off beyond its $n cells"; exit 1; }
	done || return 1
	printf '%s\n' "$2" | while IFS= read -r e; do
		echo "$l" | grep -qxF -- "$e" || { echo "missing: $e"; exit 1; }
	done
}
# On the Pi 1 to 4, tx_pin and rx_pin patch the GPIO cell and brcm,pins.
check "overrides: vlc: __overrides__ targets ($names)" \
	override_table "$out/vlc.dtbo" "$vlc_params
tx_pin $v tx-gpios 4
tx_pin /fragment@1/__overlay__/vlc_pins brcm,pins 0
rx_pin /fragment@1/__overlay__/vlc_pins brcm,pins 4"

# every parameter, as the firmware applies them, on both Pi overlays
params="tx_pin=22 rx_pin=23 rx_mode=comparator rx_active_low=1 frame_us=1000 brightness=300 modulation=4ppm sync_us=80 guard_us=40 data_us=100 tolerance_us=30 mac_hi=0x02564c43 mac_lo=0x0001"
ovr=$tmp/vlc-params.dtbo
cp "$out/vlc.dtbo" "$ovr"
check "overrides: apply $params" \
	# shellcheck disable=SC2086
	python3 "$top/tests/dt/overrides.py" apply "$ovr" $params
m=$out/bcm2711-rpi-4-b+vlc-params.dtb
check "overrides: merge the parameterised overlay onto bcm2711-rpi-4-b" \
	fdtoverlay -i "$store/bcm2711-rpi-4-b.dtb" -o "$m" "$ovr"
check "overrides: tx-gpios/rx-gpios cells and brcm,pins = 22 23, rx-gpios active low, rx-mode, frame-us, brightness, modulation and the slot timing" \
	rpi_checks "$m" 22 23:1 comparator 1000 300 4ppm 80 40 100 30
check "overrides: mac_hi and mac_lo make local-mac-address 02:56:4c:43:00:01" \
	want "$m" /vlc local-mac-address -t bx "2 56 4c 43 0 1"
check "schema: bcm2711-rpi-4-b+vlc with parameters: valid, no new errors" \
	schema_clean "$store/bcm2711-rpi-4-b.dtb" "$m"

# The Raspberry Pi 5: its own overlay, on RP1's GPIO. The label it
# targets, rp1_gpio, is the same in Raspberry Pi's tree of the board.
p5=$store/bcm2712-rpi-5-b.dtb
m=$out/bcm2712-rpi-5-b+vlc-pi5.dtb
check "merge: fdtoverlay vlc-pi5.dtbo onto bcm2712-rpi-5-b" \
	fdtoverlay -i "$p5" -o "$m" "$out/vlc-pi5.dtbo"
check "merge: bcm2712-rpi-5-b /vlc on rp1_gpio 17 and 27 (cathode without pull) as the overlay says" \
	pi5_checks "$m" 17 27 led 500 200
check "schema: bcm2712-rpi-5-b+vlc-pi5 (7.3's bindings, RP1's among them): vlc node valid, no new errors" \
	schema_clean "$p5" "$m" "$schema73" "$key73"
check "overrides: vlc-pi5: __overrides__ targets ($names)" \
	override_table "$out/vlc-pi5.dtbo" "$vlc_params
tx_pin $v tx-gpios 4"
ovr=$tmp/vlc-pi5-params.dtbo
cp "$out/vlc-pi5.dtbo" "$ovr"
check "overrides: vlc-pi5: apply $params" \
	# shellcheck disable=SC2086
	python3 "$top/tests/dt/overrides.py" apply "$ovr" $params
m=$out/bcm2712-rpi-5-b+vlc-pi5-params.dtb
check "overrides: vlc-pi5: merge the parameterised overlay onto bcm2712-rpi-5-b" \
	fdtoverlay -i "$p5" -o "$m" "$ovr"
pi5_params() {
	pi5_checks "$1" 22 23:1 comparator 1000 300 4ppm 80 40 100 30 &&
	want "$1" /vlc local-mac-address -t bx "2 56 4c 43 0 1"
}
check "overrides: vlc-pi5: rp1_gpio cells 22 23, rx-gpios active low, rx-mode, frame-us, brightness, modulation, the slot timing and local-mac-address 02:56:4c:43:00:01" \
	pi5_params "$m"
check "schema: bcm2712-rpi-5-b+vlc-pi5 with parameters: valid, no new errors" \
	schema_clean "$p5" "$m" "$schema73" "$key73"

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
