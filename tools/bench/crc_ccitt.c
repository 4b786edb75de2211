// SPDX-License-Identifier: GPL-2.0
/*
 * The benches' CRC-16/CCITT: a table lookup a byte, as the kernel's
 * lib/crc-ccitt.c computes it, so that the MAC's instruction counts are
 * those of a kernel build (tests/host/crc_ccitt.c, bit by bit, takes
 * ten times more). The table is built from the polynomial at start-up
 * and checked against the standard check value.
 */
#include <stdlib.h>

#include <linux/crc-ccitt.h>

static u16 crc_ccitt_tab[256];

__attribute__((constructor)) static void crc_ccitt_tab_init(void)
{
	unsigned int i, k;
	u16 c;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0x8408 : c >> 1;
		crc_ccitt_tab[i] = c;
	}
	/* CRC-16/X.25 of "123456789", 0x906e, before its complement */
	if (crc_ccitt(0xffff, (const u8 *)"123456789", 9) != 0x6f91)
		abort();
}

u16 crc_ccitt(u16 crc, const u8 *buffer, size_t len)
{
	while (len--)
		crc = (crc >> 8) ^ crc_ccitt_tab[(crc ^ *buffer++) & 0xff];
	return crc;
}
