// SPDX-License-Identifier: GPL-2.0
/*
 * Host stand-in for lib/crc-ccitt.c: the reflected CRC-16/CCITT
 * (polynomial x^16 + x^12 + x^5 + 1, 0x8408 LSB first) that the kernel's
 * crc_ccitt() computes, bit by bit; the tests check it against the
 * standard check value, so it cannot silently differ from the table.
 */
#include <linux/crc-ccitt.h>

u16 crc_ccitt(u16 crc, const u8 *buffer, size_t len)
{
	unsigned int i;

	while (len--) {
		crc ^= *buffer++;
		for (i = 0; i < 8; i++)
			crc = crc & 1 ? (crc >> 1) ^ 0x8408 : crc >> 1;
	}
	return crc;
}
