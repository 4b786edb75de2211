#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vlc-smp: 2
# A 64 KiB TCP transfer arrives byte-exact.
. "$VLC_SRC/tests/qemu/lib.sh"

sim_load
vlc_pair
expect "link up" wait_carrier a 60
tcp_transfer 65536
# 64 KiB need at least 274 fragments of at most 240 bytes (VLC_MAC_FRAG_MAX)
expect "b received fragments" test "$(stat b mac_rx_frames_ok)" -ge 274
