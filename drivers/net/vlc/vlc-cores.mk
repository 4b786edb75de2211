# SPDX-License-Identifier: GPL-2.0
#
# The pure-C cores, which build in the kernel and on the host alike (see
# vlc.rst, "Layers"), and the host simulator the tests and benches run
# them on. One list, included by this directory's Makefile and by
# tests/host, tests/fuzz and tools/bench; names relative to this
# directory. The resync loop (vlc_sync.c) is in the MAC's list and the
# host simulator's: a build with both takes $(sort) of the two.

VLC_PHY_SRCS	:= vlc_phy.c vlc_phy_rx.c vlc_phy_noise.c vlc_phy_acq.c
VLC_PHY_HDRS	:= vlc_phy.h vlc_phy_acq.h vlc_phy_priv.h vlc_refusal.h \
		   vlc_refusal_list.h
# Reed-Solomon FEC on the kernel's lib/reed_solomon; host builds add
# tests/host/rslib.mk for the library itself (or build without it: FEC
# unavailable, as in a kernel without REED_SOLOMON).
VLC_FEC_SRCS	:= vlc_fec.c
VLC_FEC_HDRS	:= vlc_fec.h
VLC_MAC_SRCS	:= vlc_mac.c vlc_mac_tx.c vlc_mac_rx.c vlc_mac_fec.c vlc_sync.c \
		   $(VLC_FEC_SRCS)
VLC_MAC_HDRS	:= vlc_mac.h vlc_mac_priv.h vlc_phy.h vlc_phy_acq.h vlc_sync.h \
		   vlc_refusal.h vlc_refusal_list.h $(VLC_FEC_HDRS)
VLC_HSIM_SRCS	:= tests/vlc_hsim.c vlc_sync.c
VLC_HSIM_HDRS	:= tests/vlc_hsim.h vlc_light.h vlc_sync.h
