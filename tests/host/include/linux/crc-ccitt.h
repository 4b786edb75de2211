/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: the kernel's CRC-16/CCITT (lib/crc-ccitt.c), for the MAC. */
#ifndef _HOST_LINUX_CRC_CCITT_H
#define _HOST_LINUX_CRC_CCITT_H

#include <linux/types.h>

u16 crc_ccitt(u16 crc, const u8 *buffer, size_t len);

#endif /* _HOST_LINUX_CRC_CCITT_H */
