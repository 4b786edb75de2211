/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: the kernel's own <linux/rslib.h>, from the kernel source
 * that scripts/ksrc.sh unpacked (tests/host/rslib.mk passes its path as
 * VLC_KSRC_RSLIB_H); no copy of it lives here.
 */
#ifndef VLC_KSRC_RSLIB_H
#error "VLC_KSRC_RSLIB_H: build with tests/host/rslib.mk"
#endif
#include VLC_KSRC_RSLIB_H
