#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Faults of the simulated medium: a pair of LED receivers (one LED both
# emits and senses) links and pings; TCP survives error bursts, which are
# counted and cost retransmissions or hard decisions; a covered edge drops the carrier and
# the link comes back once it is uncovered.
. "$VLC_SRC/tests/qemu/lib.sh"

# signal_max MS: the largest signal estimate of the PHYs (tracepoint
# vlc:vlc_phy_frame) over MS ms of virtual time
signal_max() {
	phy_frames "$1" | sed -n 's/.* signal=\([0-9]*\) .*/\1/p' |
		sort -n | tail -n 1
}

sim_load
t0=$(date +%s)

# ---- LED receivers ----
vlc_pair led
expect "a senses with its LED" test "$(sim_stat a rx)" = led
rc=0
sim node a/vlc0 rx apd 2>/dev/null || rc=$?
expect "rx refuses an unknown receiver (usage error)" test $rc = 2
rc=0
sim node a/vlc0 rx pd 2>/tmp/rx.err || rc=$?
expect "rx refused while the interface is up" test $rc = 1
expect "  ... saying why" grep -q "set it while the interface is down" \
	/tmp/rx.err
expect "a still senses with its LED" test "$(sim_stat a rx)" = led
expect "LED pair: carrier on a" wait_carrier a 60
expect "LED pair: carrier on b" wait_carrier b 60
ping_ok a 10.0.0.2 || fail "LED pair: no first ping"
ip netns exec a ping -c 5 -i 3 -W 20 10.0.0.2 >/tmp/ping.out || true
tail -n 2 /tmp/ping.out
# An LED receiver senses an eighth of the light: one loss is allowed.
expect "LED pair: 4 or more of 5 pings" \
	grep -Eq " (0|20)% packet loss" /tmp/ping.out
led_sig=$(signal_max 500)
expect "LED pair: a signal is seen" test "${led_sig:-0}" -gt 0
expect "LED a never measured while lit" test "$(sim_stat a rx_lit)" -eq 0
expect "LED b never measured while lit" test "$(sim_stat b rx_lit)" -eq 0
expect "no bursts while burst-ppm is 0" \
	test $(($(sim_stat a bursts) + $(sim_stat b bursts))) -eq 0
echo "LED pair done after $(($(date +%s) - t0)) s, virtual $(vtime_s) s"
ia=$(sim_id a)
ip netns del a
ip netns del b
wait_until 30 sim_gone "$ia" ||
	fail "LED pair not removed"

# ---- error bursts ----
vlc_pair
expect "photodiode pair: a senses with a photodiode" test "$(sim_stat a rx)" = pd
# 40 ppm per window, 7 windows a frame: a 2 ms burst every ~1.8 s at
# each receiver, some per 128-byte fragment (0.55 s on air) in either way.
expect "burst-us above 10 s refused" sh -c "! $(vlcctl_bin) sim set burst-us 10000001 2>/dev/null"
expect "burst-ppm above 1000000 refused" sh -c "! $(vlcctl_bin) sim set burst-ppm 1000001 2>/dev/null"
sim show | grep "^medium" >/tmp/medium
expect "burst-us kept" grep -Eq " burst-us 2000( |$)" /tmp/medium
sim set burst-us 2000 burst-ppm 40
tcp_transfer 8192
sim set burst-ppm 0
ba=$(sim_stat a bursts)
bb=$(sim_stat b bursts)
ra=$(stat a mac_tx_retries)
hb=$(($(stat a mac_rx_hard_symbols) + $(stat b mac_rx_hard_symbols)))
echo "bursts: a $ba b $bb; a mac_tx_retries $ra; hard decisions a+b $hb"
expect "bursts injected at a" test "$ba" -gt 0
expect "bursts injected at b" test "$bb" -gt 0
# A burst inside a frame costs a retransmission, or is decided by the
# hard decisions (which the CRC then judges): either is counted.
expect "retransmissions or hard decisions counted" test $((ra + hb)) -gt 0
expect "a photodiode measures while its LED is lit" \
	test "$(sim_stat a rx_lit)" -gt 0
echo "bursts done after $(($(date +%s) - t0)) s, virtual $(vtime_s) s"

# ---- a covered edge ----
expect "carrier before the cover" wait_carrier a 60
ip netns exec a ping -c 1 -W 20 10.0.0.2 >/dev/null || fail "no ping before the cover"
pd_sig=$(signal_max 500)
echo "signal: LED receivers $led_sig, photodiodes $pd_sig"
expect "an LED receiver sees under 1/4 of a photodiode's signal" \
	test $((led_sig * 4)) -lt "${pd_sig:-0}"
da=$(ip netns exec a cat /sys/class/net/vlc0/carrier_down_count)
db=$(ip netns exec b cat /sys/class/net/vlc0/carrier_down_count)
# 10 s of cover in real time: NAPI reports the loss only if it runs
# while the carrier is down, which 10 s of virtual time at full speed
# (under a second of the guest's) did not always give it.
sim set speed 100
sim edge a/vlc0 b/vlc0 cover 10000000 both
wait_vtime_ms 10000
sim set speed 0
expect "carrier dropped on a under the cover" \
	test "$(ip netns exec a cat /sys/class/net/vlc0/carrier_down_count)" -gt "$da"
expect "carrier dropped on b under the cover" \
	test "$(ip netns exec b cat /sys/class/net/vlc0/carrier_down_count)" -gt "$db"
expect "carrier back on a" wait_carrier a 60
expect "carrier back on b" wait_carrier b 60
ip netns exec a ping -c 3 -i 2 -W 20 10.0.0.2 >/tmp/ping.out || true
tail -n 2 /tmp/ping.out
expect "pings after the cover, 0% loss" grep -q " 0% packet loss" /tmp/ping.out
echo "done after $(($(date +%s) - t0)) s, virtual $(vtime_s) s"
