/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The MAC's on-air format as fuzz_mac_rx.c writes and reads it, the
 * harness being the peer: frame types and header bits, short and long
 * addresses, the CRC, and DATA frames built from the fuzz input.
 */
#ifndef _VLC_FUZZ_MAC_AIR_H
#define _VLC_FUZZ_MAC_AIR_H

#include <linux/kernel.h>
#include <linux/crc-ccitt.h>
#include <linux/math.h>

#include "vlc_mac.h"
#include "fuzz.h"

/* The on-air format (the top of vlc_mac.c) */
#define AIR_SFD		0x97
#define AIR_T_DATA	1
#define AIR_T_ACK	2
#define AIR_T_RTS	3
#define AIR_T_CTS	4
#define AIR_T_BEACON	5
#define AIR_H_LAST	0x10
#define AIR_H_DFULL	0x02
#define AIR_H_SFULL	0x01
#define AIR_ET_FULL	3
#define AIR_ACK_LEN	7	/* SFD, type, dst, tx, seq/frag, CRC */
#define AIR_BEACON_LEN	5	/* SFD, type, tx, CRC */
#define AIR_RTS_LEN	8	/* SFD, type, dst, tx, duration (2), CRC */
#define AIR_CRC_GOOD	0xf0b8
/* Coded frames (vlc_mac_fec.c, DOC: Coded frames) */
#define AIR_T_CODED	7
#define AIR_CODED_HDR	4	/* 2 bytes and their 2 parity */
#define AIR_CODED_BODY_MIN	(AIR_BEACON_LEN - 1)
#define AIR_CTL_LEVEL	2	/* the most a frame other than DATA gets */
/* Dark symbols in a row that end a coded frame of known length (fewer
 * are erasures), where one without a hard decision ends any other
 */
#define AIR_DARK_CODED	16

static const u16 ethertypes[3] = { 0x0800, 0x0806, 0x86dd };

static inline void long_addr(u8 *a, u8 s)
{
	static const u8 prefix[5] = { 0x02, 0x56, 0x4c, 0x43, 0x00 };

	if (s == VLC_MAC_BCAST) {
		memset(a, 0xff, VLC_MAC_ALEN);
		return;
	}
	memcpy(a, prefix, sizeof(prefix));
	a[5] = s;
}

static inline unsigned int data_hlen(u8 h0)
{
	return 1 + (h0 & AIR_H_DFULL ? VLC_MAC_ALEN : 1) + 1 +
	       (h0 & AIR_H_SFULL ? VLC_MAC_ALEN : 0) + 2;
}

static inline bool crc_good(const u8 *b, unsigned int n)
{
	return crc_ccitt(0xffff, b, n) == AIR_CRC_GOOD;
}

static inline unsigned int put_crc(u8 *b, unsigned int n)
{
	u16 fcs = ~crc_ccitt(0xffff, b + 1, n - 1);

	b[n++] = fcs & 0xff;
	b[n++] = fcs >> 8;
	return n;
}

static inline u8 data_h0(u8 fl)
{
	return AIR_T_DATA << 5 | (fl & 1 ? AIR_H_LAST : 0) |
	       ((fl >> 1) & 3) << 2 | (fl & 8 ? AIR_H_DFULL : 0) |
	       (fl & 0x10 ? AIR_H_SFULL : 0);
}

/* A DATA frame: header fields as given, @len bytes of payload from the
 * input or, with @fill odd, a pattern (long payloads come cheap).
 */
static inline unsigned int build_data(struct fz *f, u8 *b, u8 h0, u8 dst,
				      const u8 *dfull, u8 tx,
				      const u8 *sfull, u8 sf, u8 len,
				      u8 fill)
{
	unsigned int n = 0, i;

	b[n++] = AIR_SFD;
	b[n++] = h0;
	if (h0 & AIR_H_DFULL) {
		memcpy(b + n, dfull, VLC_MAC_ALEN);
		n += VLC_MAC_ALEN;
	} else {
		b[n++] = dst;
	}
	b[n++] = tx;
	if (h0 & AIR_H_SFULL) {
		memcpy(b + n, sfull, VLC_MAC_ALEN);
		n += VLC_MAC_ALEN;
	}
	b[n++] = sf;
	b[n++] = len;
	for (i = 0; i < len && n < VLC_MAC_AIR_MAX - 2; i++)
		b[n++] = fill & 1 ? fill + i * 31 : fz_u8(f);
	return put_crc(b, n);
}

/* Codewords a coded body of @n bytes is cut into at @par parity, and
 * the data bytes of the @i-th of @c: the first n % c take one more.
 */
static inline unsigned int coded_words(unsigned int par, unsigned int n)
{
	return DIV_ROUND_UP(n, VLC_FEC_SYMBOLS_MAX - par);
}

static inline unsigned int coded_word_len(unsigned int n, unsigned int c,
					  unsigned int i)
{
	return n / c + (i < n % c);
}

/* The level whose codewords carry @fec parity bytes; 0 if none does. */
static inline unsigned int fixed_level(u8 fec)
{
	unsigned int l;

	for (l = 1; l < VLC_FEC_LEVELS; l++)
		if (vlc_fec_parity(l) == fec)
			return l;
	return 0;
}

/* Bytes after the delimiter of the plain frame of @n such bytes, coded
 * at @level.
 */
static inline unsigned int coded_len(unsigned int level, unsigned int n)
{
	unsigned int par = vlc_fec_parity(level);

	return AIR_CODED_HDR + n + coded_words(par, n) * par;
}

#endif /* _VLC_FUZZ_MAC_AIR_H */
