#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The wiring check tools/hwtest/vlc-hwtest against a gpio-sim chip made
# through configfs: the RX line is pulled by this script, either constant
# (a dead receiver) or following the TX line from a loop (a receiver that
# sees the LED), and the verdicts and exit codes are asserted. Bad
# arguments must exit 2 naming the argument. Needs `make hwtest gpio-sim`
# (qemu-test builds both) in the default build folder.
. "$VLC_SRC/tests/qemu/lib.sh"

bin=$VLC_SRC/build/x86_64/tools/vlc-hwtest
ko=$VLC_SRC/build/x86_64/gpio-sim/gpio-sim.ko
[ -x "$bin" ] || fail "$bin missing: make hwtest (BUILD= outside the checkout is not supported here)"
[ -f "$ko" ] || fail "$ko missing: make gpio-sim"

modprobe configfs
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
insmod "$ko"
cfg=/sys/kernel/config/gpio-sim/vlc
mkdir "$cfg" "$cfg/bank0"
echo 32 >"$cfg/bank0/num_lines"
echo 1 >"$cfg/live"
chip=$(cat "$cfg/bank0/chip_name")
sim=/sys/devices/platform/$(cat "$cfg/dev_name")/$chip
echo "gpio-sim: $chip at $sim"
TX=17
RX=27

pull() {
	echo "pull-$2" >"$sim/sim_gpio$1/pull"
}

# light MODE: a background loop that pulls RX as a receiver would read it:
#   follow  comparator, high while the TX line is high
#   invert  comparator, low while the TX line is high
#   led     LED sensor: low (discharged) while TX is high, else held high
#   room    LED sensor in steady light: always pulled low
# sysfs writes are rewritten every turn: gpio-sim only moves an input
# line's value when its pull is written, and a released LED cathode keeps
# the high it was charged to until then.
light() {
	(
		while :; do
			read -r v <"$sim/sim_gpio$TX/value"
			case $1 in
			follow) [ "$v" = 1 ] && p=up || p=down ;;
			invert|led) [ "$v" = 1 ] && p=down || p=up ;;
			room) p=down ;;
			esac
			echo "pull-$p" >"$sim/sim_gpio$RX/pull" || :
		done
	) &
	lpid=$!
}

dark() {
	kill "$lpid"
	wait "$lpid" 2>/dev/null || :
}

# hw EXPECTED_RC ARGS...: run vlc-hwtest on the sim chip, output in
# /tmp/hw.out; fail unless it exits EXPECTED_RC.
hw() {
	want=$1
	shift
	rc=0
	"$bin" --chip "$chip" "$@" >/tmp/hw.out 2>&1 || rc=$?
	sed 's/^/    | /' /tmp/hw.out
	[ "$rc" = "$want" ] || fail "vlc-hwtest $*: exit $rc, expected $want"
}

says() {
	grep -qF -- "$1" /tmp/hw.out || fail "vlc-hwtest output lacks: $1"
	echo "ok - $2"
}

# hws: hw with a slow blink, which the TCG guest's loop can follow
hws() {
	hw "$@" --period-ms 1000 --cycles 3 --max-us 100000
}

# --- bad arguments: exit 2, naming the argument
hw 2 --tx $TX
says "--rx: missing" "missing --rx named"
hw 2 --tx abc --rx $RX
says '--tx: "abc" is not a number' "non-numeric --tx named"
hw 2 --tx $TX --rx 40
says "--rx: $chip has 32 lines (0..31), not 40" "line past the chip named"
hw 2 --tx $TX --rx $TX
says "--rx: line $TX is the TX line too" "same line twice named"
hw 2 --tx $TX --rx $RX --mode photo
says '--mode: "photo" is neither led nor comparator' "bad --mode named"
hw 2 --tx $TX --rx $RX --active-low
says "--active-low: only with --mode comparator" "--active-low in led mode named"
hw 2 --tx $TX --rx $RX --period-ms 100 --max-us 50000
says "--max-us:" "--max-us too long for the period named"
hw 2 --tx $TX --rx $RX --frobnicate
says "--frobnicate: unknown option" "unknown option named"
rc=0
"$bin" --chip no-such-chip --tx $TX --rx $RX >/tmp/hw.out 2>&1 || rc=$?
cat /tmp/hw.out
[ $rc = 2 ] || fail "unknown chip: exit $rc"
says '--chip: cannot open "no-such-chip"' "unknown chip named"

# --- comparator
pull $RX down
hws 1 --tx $TX --rx $RX --mode comparator
says "RX never changes (line $RX always reads low)" "comparator stuck low"
pull $RX up
hws 1 --tx $TX --rx $RX --mode comparator
says "RX never changes (line $RX always reads high)" "comparator stuck high"

light follow
hws 0 --tx $TX --rx $RX --mode comparator
says "TX->RX: OK, sees its own LED" "comparator following the LED"
expect "TX LED left dark" grep -qx 0 "$sim/sim_gpio$TX/value"
dark

light invert
hws 1 --tx $TX --rx $RX --mode comparator
says "TX->RX: inverted" "inverted comparator"
says "pass --active-low (overlay: rx_active_low=1)" "inverted: advice"
hws 0 --tx $TX --rx $RX --mode comparator --active-low
says "TX->RX: OK, sees its own LED" "active-low comparator"
dark

# --- LED as a sensor
pull $RX up
hws 1 --tx $TX --rx $RX
says "RX never changes (line $RX never reads low within 100000 us)" \
	"LED sensor that never discharges"

light led
hws 0 --tx $TX --rx $RX --mode led
says "TX->RX: OK, sees its own LED" "LED sensor facing the LED"
says "RX while TX dark: discharges in more than 100000 us" "dark: timed out"
hws 0 --tx $TX --rx $RX --anode 22
says "TX->RX: OK, sees its own LED" "two-pin LED sensor"
dark

light room
hws 1 --tx $TX --rx $RX
says "TX->RX: FAIL, RX does not see the TX LED" "LED sensor blind to the LED"
hws 0 --tx $TX --rx $RX --shared
says "RX: OK, the LED holds a charge" "shared LED discharges in room light"
dark
pull $RX up
hws 1 --tx $TX --rx $RX --shared
says "RX never changes" "shared LED that never discharges"

# --- a line in use (here by a second vlc-hwtest)
"$bin" --chip "$chip" --tx $TX --rx $RX --mode comparator --period-ms 1000 \
	--cycles 3 >/dev/null 2>&1 &
bpid=$!
sleep 1
hw 3 --tx $TX --rx $RX --mode comparator
says 'in use by "vlc-hwtest": unload the driver' "busy line names its user"
wait $bpid || :

echo 0 >"$cfg/live"
rmdir "$cfg/bank0" "$cfg"
rmmod gpio_sim
echo "hwtest: all passed"
