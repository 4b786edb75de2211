/* SPDX-License-Identifier: GPL-2.0 */
/*
 * VLC forward error correction: Reed-Solomon codewords over GF(2^8) from
 * the kernel's lib/reed_solomon, with the erasure positions the PHY
 * reports. vlc_fec.c says which context does what (DOC: Contexts);
 * Documentation/networking/vlc.rst ("Forward error correction") draws
 * the design.
 *
 * Pure C like the cores, shared by the kernel and the host tests, except
 * that vlc_fec_init() allocates (init_rs()): it runs in process context
 * when the device opens, never in the tick. A kernel built without
 * REED_SOLOMON (ENC8 and DEC8) leaves every call here refusing with
 * -EOPNOTSUPP: the MAC only sees "FEC unavailable".
 */
#ifndef _VLC_FEC_H
#define _VLC_FEC_H

#include <linux/types.h>

/* Symbols of one codeword, data and parity: the field has 255. */
#define VLC_FEC_SYMBOLS_MAX	255
/* Parity symbols of the strongest level (VLC_FEC_LEVELS - 1). */
#define VLC_FEC_PARITY_MAX	32
/* Parity levels a frame can name: 0 is none, 1..5 carry 2..32. */
#define VLC_FEC_LEVELS		6

struct rs_control;

/**
 * struct vlc_fec - the codecs of one device, and the decoder's scratch
 * @rs: one Reed-Solomon control per level that carries parity; @rs[0] is
 *	unused (level 0 carries none). All NULL while FEC is unavailable.
 * @enc: the encoder's parity, 16 bits a symbol
 * @enc_left: data symbols the codeword being encoded has still to come
 * @enc_level: its level; 0 when no encode is under way
 * @par: the decoder's parity, as lib/reed_solomon takes it
 * @pos: erasure positions in, positions of the corrections out
 * @corr: the corrections, XORed into the symbols at @pos
 *
 * One decode at a time per struct vlc_fec (lib/reed_solomon's controls
 * hold the decoder's buffers, and @par, @pos and @corr are the
 * decoder's), and one encode at a time (@enc); an encode may run while
 * a decode does: the tick encodes while a worker decodes. The callers
 * serialise each.
 */
struct vlc_fec {
	struct rs_control *rs[VLC_FEC_LEVELS];
	u16 enc[VLC_FEC_PARITY_MAX];
	u16 enc_left;
	u8 enc_level;
	u16 par[VLC_FEC_PARITY_MAX];
	int pos[VLC_FEC_PARITY_MAX];
	u16 corr[VLC_FEC_PARITY_MAX];
};

bool vlc_fec_available(void);
int vlc_fec_init(struct vlc_fec *fec);
void vlc_fec_exit(struct vlc_fec *fec);
bool vlc_fec_ready(const struct vlc_fec *fec);
int vlc_fec_parity(unsigned int level);
int vlc_fec_check(unsigned int level, unsigned int len, const u8 *eras,
		  unsigned int neras);
int vlc_fec_encode_begin(struct vlc_fec *fec, unsigned int level,
			 unsigned int len);
int vlc_fec_encode_more(struct vlc_fec *fec, const u8 *data,
			unsigned int len);
int vlc_fec_encode_end(struct vlc_fec *fec, u8 *parity);
int vlc_fec_encode(struct vlc_fec *fec, unsigned int level, const u8 *data,
		   unsigned int len, u8 *parity);
int vlc_fec_decode(struct vlc_fec *fec, unsigned int level, u8 *data,
		   unsigned int len, u8 *parity, const u8 *eras,
		   unsigned int neras);

#endif /* _VLC_FEC_H */
