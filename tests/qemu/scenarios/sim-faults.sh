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
rx=$(sim_node a rx)
expect "a senses with its LED" grep -qx led "$rx"
expect "rx refuses an unknown receiver" sh -c "! echo apd >$rx 2>/dev/null"
expect "rx refused while the interface is up" \
	sh -c "! echo pd >$rx 2>/dev/null"
expect "a still senses with its LED" grep -qx led "$rx"
expect "LED pair: carrier on a" wait_carrier a 60
expect "LED pair: carrier on b" wait_carrier b 60
ip netns exec a ping -c 1 -W 60 10.0.0.2 >/dev/null || fail "LED pair: no first ping"
ip netns exec a ping -c 5 -i 3 -W 20 10.0.0.2 >/tmp/ping.out || true
tail -n 2 /tmp/ping.out
# An LED receiver senses an eighth of the light: one loss is allowed.
expect "LED pair: 4 or more of 5 pings" \
	grep -Eq " (0|20)% packet loss" /tmp/ping.out
led_sig=$(signal_max 500)
expect "LED pair: a signal is seen" test "${led_sig:-0}" -gt 0
expect "LED a never measured while lit" test "$(cat "$(sim_node a rx_lit)")" -eq 0
expect "LED b never measured while lit" test "$(cat "$(sim_node b rx_lit)")" -eq 0
expect "no bursts while burst_ppm=0" \
	test $(($(cat "$(sim_node a bursts)") + $(cat "$(sim_node b bursts)"))) -eq 0
echo "LED pair done after $(($(date +%s) - t0)) s, virtual $(vtime_s) s"
ia=$(sim_id a)
ip netns del a
ip netns del b
wait_until 30 test ! -e "/sys/kernel/debug/vlc_sim/$ia" ||
	fail "LED pair not removed"

# ---- error bursts ----
vlc_pair
expect "photodiode pair: a senses with a photodiode" grep -qx pd "$(sim_node a rx)"
# 40 ppm per window, 7 windows a frame: a 2 ms burst every ~1.8 s at
# each receiver, some per 128-byte fragment (0.55 s on air) in either way.
p=/sys/module/vlc_sim/parameters
expect "burst_us above 10 s refused" sh -c "! echo 10000001 >$p/burst_us 2>/dev/null"
expect "burst_ppm above 1000000 refused" sh -c "! echo 1000001 >$p/burst_ppm 2>/dev/null"
expect "burst_us kept" grep -qx 2000 $p/burst_us
echo 2000 >/sys/module/vlc_sim/parameters/burst_us
echo 40 >/sys/module/vlc_sim/parameters/burst_ppm
tcp_transfer 8192
echo 0 >/sys/module/vlc_sim/parameters/burst_ppm
ba=$(cat "$(sim_node a bursts)")
bb=$(cat "$(sim_node b bursts)")
ra=$(stat a mac_tx_retries)
hb=$(($(stat a mac_rx_hard_symbols) + $(stat b mac_rx_hard_symbols)))
echo "bursts: a $ba b $bb; a mac_tx_retries $ra; hard decisions a+b $hb"
expect "bursts injected at a" test "$ba" -gt 0
expect "bursts injected at b" test "$bb" -gt 0
# A burst inside a frame costs a retransmission, or is decided by the
# hard decisions (which the CRC then judges): either is counted.
expect "retransmissions or hard decisions counted" test $((ra + hb)) -gt 0
expect "a photodiode measures while its LED is lit" \
	test "$(cat "$(sim_node a rx_lit)")" -gt 0
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
echo 100 >/sys/module/vlc_sim/parameters/speed
echo "cover $(sim_id a) $(sim_id b) 10000" >/sys/kernel/debug/vlc_sim/edges
wait_vtime_ms 10000
echo 0 >/sys/module/vlc_sim/parameters/speed
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
