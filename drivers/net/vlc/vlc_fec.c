// SPDX-License-Identifier: GPL-2.0
/*
 * VLC forward error correction: shortened Reed-Solomon codewords over
 * GF(2^8) (field polynomial 0x11d, first root 0, primitive element 1)
 * from the kernel's lib/reed_solomon, one codec per parity level. The
 * only caller of decode_rs8(): vlc_fec_decode() checks everything that
 * came from the air before it gets there.
 */

/**
 * DOC: Contexts
 *
 * vlc_fec_init() creates the codecs with init_rs(), which allocates with
 * GFP_KERNEL and takes lib/reed_solomon's list mutex: process context,
 * from ndo_open, never from the tick. vlc_fec_exit() frees them from
 * ndo_stop, once the executor has stopped.
 *
 * vlc_fec_encode*() and vlc_fec_decode() neither sleep nor allocate:
 * they may run in any context, hard IRQ included. lib/reed_solomon keeps
 * the decoder's buffers in each control and the wrapper's scratch is per
 * device, so there is one decode at a time per struct vlc_fec and one
 * encode at a time; the encoder only reads the codec's tables, so one of
 * each may run at once. The driver encodes in the tick, a byte at a time
 * as the frame goes out (vlc_fec_encode_begin()), and decodes off it, in
 * a work item (the MAC's "Where the decode runs", in
 * Documentation/networking/vlc.rst).
 *
 * What decode_rs8() does not check, the wrapper does: a length it would
 * BUG_ON (the data must be 1..255 - parity symbols), more erasures than
 * parity symbols (its locator would run past its buffers), positions
 * outside the codeword, the same position twice, a level the air names
 * that has no codec. Its answer is checked too: a correction outside the
 * codeword, or more errors besides the erasures than the parity can
 * correct, is a failure, not a correction. A wrong word that decodes
 * cleanly is still possible beyond the code's capacity: the MAC's CRC
 * drops it.
 */

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "vlc_fec.h"

/* An out-of-tree module cannot select REED_SOLOMON: use it if it is there
 * and this module can reach it (not built in while it is a module).
 */
#if IS_REACHABLE(CONFIG_REED_SOLOMON) && \
	IS_ENABLED(CONFIG_REED_SOLOMON_ENC8) && \
	IS_ENABLED(CONFIG_REED_SOLOMON_DEC8)
#define VLC_FEC_RS	1
#include <linux/rslib.h>
#else
#define VLC_FEC_RS	0
#endif

#define VLC_FEC_SYMSIZE		8
#define VLC_FEC_GFPOLY		0x11d
#define VLC_FEC_FCR		0
#define VLC_FEC_PRIM		1

/* Parity symbols per codeword of each level a frame header can name. */
static const u8 vlc_fec_level_parity[VLC_FEC_LEVELS] = {
	0, 2, 4, 8, 16, VLC_FEC_PARITY_MAX
};

/* One bit per position of a codeword. */
#define VLC_FEC_MAP_WORDS	((VLC_FEC_SYMBOLS_MAX + 32) / 32)

static bool vlc_fec_map_test_set(u32 *map, unsigned int pos)
{
	u32 bit = 1U << (pos % 32);
	bool was = map[pos / 32] & bit;

	map[pos / 32] |= bit;
	return was;
}

/**
 * vlc_fec_available - whether this build has Reed-Solomon at all
 *
 * Return: false when the kernel lacks REED_SOLOMON with its 8-bit encoder
 * and decoder (or has it built in reach of no module): FEC stays off.
 */
bool vlc_fec_available(void)
{
	return VLC_FEC_RS;
}

/**
 * vlc_fec_parity - parity symbols per codeword of a level
 * @level: the level a frame header names, untrusted
 *
 * Return: 0 (level 0: no FEC) .. VLC_FEC_PARITY_MAX, or -EINVAL for a
 * level that does not exist.
 */
int vlc_fec_parity(unsigned int level)
{
	if (level >= VLC_FEC_LEVELS)
		return -EINVAL;
	return vlc_fec_level_parity[level];
}

/* The checks of vlc_fec_check(), leaving the erased positions in @map. */
static int vlc_fec_check_map(unsigned int level, unsigned int len,
			     const u8 *eras, unsigned int neras, u32 *map)
{
	int par = vlc_fec_parity(level);
	unsigned int i, npar;

	memset(map, 0, VLC_FEC_MAP_WORDS * sizeof(*map));
	if (par <= 0)
		return -EINVAL;
	npar = par;
	if (!len || len > VLC_FEC_SYMBOLS_MAX - npar)
		return -EINVAL;
	if (neras > npar || (neras && !eras))
		return -EINVAL;
	for (i = 0; i < neras; i++) {
		if (eras[i] >= len + npar)
			return -EINVAL;
		if (vlc_fec_map_test_set(map, eras[i]))
			return -EINVAL;
	}
	return par;
}

/**
 * vlc_fec_check - is this a codeword the decoder may be given
 * @level: parity level, as the frame header says
 * @len: data symbols of the codeword
 * @eras: erased positions: 0..@len - 1 the data, @len.. the parity
 * @neras: entries in @eras
 *
 * Everything here may come from the air. Pure arithmetic: it answers
 * the same whether or not FEC is available.
 *
 * Return: the codeword's parity symbols (> 0), or -EINVAL: a level
 * without parity or unknown, @len outside 1..255 - parity, more
 * erasures than parity symbols, a position outside the codeword or
 * given twice.
 */
int vlc_fec_check(unsigned int level, unsigned int len, const u8 *eras,
		  unsigned int neras)
{
	u32 map[VLC_FEC_MAP_WORDS];

	return vlc_fec_check_map(level, len, eras, neras, map);
}

#if VLC_FEC_RS

/**
 * vlc_fec_init - create the codecs of every level
 * @fec: the device's FEC state, overwritten
 *
 * Context: process context; allocates (see DOC: Contexts).
 * Return: 0, -EOPNOTSUPP when FEC is unavailable (vlc_fec_available()),
 * -ENOMEM. On failure nothing is left allocated and @fec is not ready.
 */
int vlc_fec_init(struct vlc_fec *fec)
{
	unsigned int i;

	might_sleep();
	memset(fec, 0, sizeof(*fec));
	for (i = 1; i < VLC_FEC_LEVELS; i++) {
		fec->rs[i] = init_rs(VLC_FEC_SYMSIZE, VLC_FEC_GFPOLY,
				     VLC_FEC_FCR, VLC_FEC_PRIM,
				     vlc_fec_level_parity[i]);
		if (!fec->rs[i]) {
			vlc_fec_exit(fec);
			return -ENOMEM;
		}
	}
	return 0;
}

/**
 * vlc_fec_exit - free the codecs
 * @fec: the device's FEC state; not ready afterwards
 *
 * Context: process context. Safe on a state that never was ready.
 */
void vlc_fec_exit(struct vlc_fec *fec)
{
	unsigned int i;

	for (i = 0; i < VLC_FEC_LEVELS; i++) {
		free_rs(fec->rs[i]);
		fec->rs[i] = NULL;
	}
}

static void vlc_fec_rs_encode(struct vlc_fec *fec, unsigned int level,
			      const u8 *data, unsigned int len)
{
	/* encode_rs8() only reads the data; it just does not say so */
	encode_rs8(fec->rs[level], (u8 *)data, len, fec->enc, 0);
}

static int vlc_fec_rs_decode(struct vlc_fec *fec, unsigned int level,
			     u8 *data, unsigned int len, unsigned int neras)
{
	return decode_rs8(fec->rs[level], data, fec->par, len, NULL, neras,
			  fec->pos, 0, fec->corr);
}

#else /* !VLC_FEC_RS */

int vlc_fec_init(struct vlc_fec *fec)
{
	memset(fec, 0, sizeof(*fec));
	return -EOPNOTSUPP;
}

void vlc_fec_exit(struct vlc_fec *fec)
{
}

static void vlc_fec_rs_encode(struct vlc_fec *fec, unsigned int level,
			      const u8 *data, unsigned int len)
{
}

static int vlc_fec_rs_decode(struct vlc_fec *fec, unsigned int level,
			     u8 *data, unsigned int len, unsigned int neras)
{
	return -EOPNOTSUPP;
}

#endif /* VLC_FEC_RS */

/**
 * vlc_fec_ready - whether vlc_fec_init() succeeded on @fec
 * @fec: the device's FEC state
 */
bool vlc_fec_ready(const struct vlc_fec *fec)
{
	return fec->rs[VLC_FEC_LEVELS - 1];
}

/**
 * vlc_fec_encode_begin - start the parity of one codeword, fed in steps
 * @fec: the device's FEC state, ready
 * @level: parity level, 1..VLC_FEC_LEVELS - 1
 * @len: data symbols the codeword will have, 1..255 - the level's parity
 *
 * The encoder is a shift register over the data in order, so the data
 * may come a few symbols at a time (vlc_fec_encode_more()), as they go
 * on air; vlc_fec_encode_end() gives the parity once all @len came.
 *
 * Context: any; one encode at a time on @fec (DOC: Contexts).
 * Return: 0, -EOPNOTSUPP while @fec is not ready, -EINVAL for a level or
 * length the code does not have.
 */
int vlc_fec_encode_begin(struct vlc_fec *fec, unsigned int level,
			 unsigned int len)
{
	int npar;

	fec->enc_level = 0;
	fec->enc_left = 0;
	if (!vlc_fec_ready(fec))
		return -EOPNOTSUPP;
	npar = vlc_fec_check(level, len, NULL, 0);
	if (npar < 0)
		return npar;
	memset(fec->enc, 0, sizeof(fec->enc));
	fec->enc_level = level;
	fec->enc_left = len;
	return 0;
}

/**
 * vlc_fec_encode_more - the next data symbols of the codeword begun
 * @fec: the device's FEC state, with an encode begun
 * @data: @len data symbols
 * @len: no more than the codeword has still to come
 *
 * Context: any; one encode at a time on @fec (DOC: Contexts).
 * Return: 0, -EINVAL past the codeword's length or without one begun.
 */
int vlc_fec_encode_more(struct vlc_fec *fec, const u8 *data,
			unsigned int len)
{
	if (!fec->enc_level || len > fec->enc_left || !vlc_fec_ready(fec))
		return -EINVAL;
	vlc_fec_rs_encode(fec, fec->enc_level, data, len);
	fec->enc_left -= len;
	return 0;
}

/**
 * vlc_fec_encode_end - the parity of the codeword whose data all came
 * @fec: the device's FEC state, with an encode begun
 * @parity: receives vlc_fec_parity() of the level symbols
 *
 * Context: any; one encode at a time on @fec (DOC: Contexts).
 * Return: the parity symbols written, -EINVAL while data is still to
 * come or without an encode begun.
 */
int vlc_fec_encode_end(struct vlc_fec *fec, u8 *parity)
{
	int i, npar = vlc_fec_parity(fec->enc_level);

	if (fec->enc_left || npar <= 0 || !vlc_fec_ready(fec))
		return -EINVAL;
	for (i = 0; i < npar; i++)
		parity[i] = fec->enc[i];
	fec->enc_level = 0;
	return npar;
}

/**
 * vlc_fec_encode - the parity of one codeword
 * @fec: the device's FEC state, ready
 * @level: parity level, 1..VLC_FEC_LEVELS - 1
 * @data: @len data symbols
 * @len: 1..255 - the level's parity
 * @parity: receives vlc_fec_parity(@level) symbols
 *
 * Context: any; one encode at a time on @fec (DOC: Contexts).
 * Return: the parity symbols written, -EOPNOTSUPP while @fec is not
 * ready, -EINVAL for a level or length the code does not have.
 */
int vlc_fec_encode(struct vlc_fec *fec, unsigned int level, const u8 *data,
		   unsigned int len, u8 *parity)
{
	int ret = vlc_fec_encode_begin(fec, level, len);

	if (!ret)
		ret = vlc_fec_encode_more(fec, data, len);
	return ret ? ret : vlc_fec_encode_end(fec, parity);
}

/**
 * vlc_fec_decode - correct one codeword in place, erasures known
 * @fec: the device's FEC state, ready
 * @level: parity level, as the frame header says (untrusted)
 * @data: @len received data symbols, corrected in place
 * @len: data symbols, as the frame header implies (untrusted)
 * @parity: the level's parity symbols as received, corrected in place
 * @eras: positions the PHY could not decide: 0..@len - 1 in @data,
 *	@len.. in @parity; each at most once (untrusted)
 * @neras: entries in @eras, at most the level's parity symbols
 *
 * A symbol at an erased position may hold anything. Up to parity
 * erasures are corrected, or e erasures and (parity - e) / 2 errors
 * elsewhere. Nothing is changed unless the codeword decodes.
 *
 * Context: any; one decode at a time on @fec (DOC: Contexts).
 * Return: the symbols corrected (0: the word was clean), -EBADMSG when
 * the word cannot be decoded within the code's capacity, -EINVAL when
 * the arguments are refused (vlc_fec_check()), -EOPNOTSUPP while @fec
 * is not ready. -EINVAL and -EBADMSG alike mean: drop the frame.
 */
int vlc_fec_decode(struct vlc_fec *fec, unsigned int level, u8 *data,
		   unsigned int len, u8 *parity, const u8 *eras,
		   unsigned int neras)
{
	unsigned int i, pos, errors = 0, npar, ncorr;
	u32 map[VLC_FEC_MAP_WORDS];
	int n;

	if (!vlc_fec_ready(fec))
		return -EOPNOTSUPP;
	n = vlc_fec_check_map(level, len, eras, neras, map);
	if (n < 0)
		return n;
	npar = n;
	for (i = 0; i < npar; i++)
		fec->par[i] = parity[i];
	for (i = 0; i < neras; i++)
		fec->pos[i] = eras[i];

	n = vlc_fec_rs_decode(fec, level, data, len, neras);
	if (n < 0)
		return -EBADMSG;
	/* The decoder's answer is checked before anything is written. */
	ncorr = n;
	if (ncorr > npar)
		return -EBADMSG;
	for (i = 0; i < ncorr; i++) {
		if (fec->pos[i] < 0)
			return -EBADMSG;
		pos = fec->pos[i];
		if (pos >= len + npar)
			return -EBADMSG;
		if (!(map[pos / 32] & 1U << (pos % 32)))
			errors++;
	}
	if (2 * errors + neras > npar)
		return -EBADMSG;
	for (i = 0; i < ncorr; i++) {
		pos = fec->pos[i];
		if (pos < len)
			data[pos] ^= fec->corr[i];
		else
			parity[pos - len] ^= fec->corr[i];
	}
	return n;
}
