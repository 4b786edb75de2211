// SPDX-License-Identifier: GPL-2.0
/*
 * VLC MAC core, coded frames: the parity a frame gets, the coded frame
 * built around a plain one, its header, and the decode of a received
 * one with where it runs. The arithmetic is vlc_fec.c's.
 */

/**
 * DOC: Coded frames
 *
 * A coded frame carries a plain frame, everything after its delimiter
 * (the "body": header, payload, CRC), with Reed-Solomon parity::
 *
 *   preamble, SFD  as a plain frame's
 *   coded header   byte 0: type 7 [7:5], level [4:2], 0 [1], bit 8 of
 *                  the body's length [0]; byte 1: its bits 7:0;
 *                  then 2 parity bytes of these two (level 1), so that
 *                  any two of the four may be lost
 *   body           n bytes, the plain frame's, CRC included
 *   parity         the level's 2, 4, 8, 16 or 32 bytes for each of the
 *                  c = DIV_ROUND_UP(n, 255 - parity) codewords the body
 *                  is cut into, in order; the first n % c codewords
 *                  take one byte more than the others
 *
 * Type 7 is reserved in plain frames, so byte 0 says which a frame is.
 * A symbol the PHY could not decide costs its byte, which the decoder
 * is told is erased (its hard decision, if any, stays in the word). In
 * byte 0 an undecided symbol reads as ones: a coded frame's type bits
 * still read 7, and a plain frame that lost one there is dropped, as
 * every plain frame that loses a symbol without a hard decision is.
 * Once the coded header is decoded the frame's length is known, and up
 * to 15 dark symbols in a row (a burst of late callbacks at the sender)
 * are erasures too, where two end a plain frame.
 *
 * The receiver decodes at the level the header names, whatever its own
 * setting, and without codecs (no REED_SOLOMON) it still takes a coded
 * frame that arrived whole. The body's CRC has the last word: a word
 * decoded into the wrong data fails it, is counted (fec_uncorrectable,
 * rx_crc_errors) and never delivered. Lengths come from the coded
 * header only once its parity agrees, and are bounded.
 */

/**
 * DOC: Parity
 *
 * struct vlc_mac_params.fec picks the parity of the frames a node sends:
 * off, a fixed level (the parity bytes of each codeword), or auto. DATA
 * frames take the level; ACK, RTS, CTS and beacons, a handful of bytes,
 * at most level 2 (4 parity bytes).
 *
 * Auto follows the erasures the node sees in what it receives: a moving
 * average over about 4096 bytes of the bytes that lost a symbol (plain
 * and coded frames alike). It picks the smallest level whose parity
 * covers three times a codeword's mean erasures and four more (the
 * margin was chosen with link_bench goodput, vlc-benchmarks.rst), and no
 * parity
 * at all while the average stays under one erased byte in 16000: a
 * clean link sends plain frames. Each DATA that gets no ACK, and each
 * DATA that comes again because our ACK was lost, adds a level (up to
 * the strongest); 16 fragments through at their first attempt take one
 * back. The erasures a board's late timer causes are its own as much as
 * its neighbour's, so what a node receives is a fair guess at what its
 * frames meet; the lost frames cover a link that is worse one way than
 * the other (an LED that senses its neighbour badly).
 *
 * A coded DATA frame's body is one codeword: the fragment is cut to fit
 * it. Cut in two, the body would carry twice the parity, and under
 * erasures as rare as a late timer's the second half buys little
 * (vlc-benchmarks.rst, "Goodput under lateness").
 */

/**
 * DOC: Where the decode runs
 *
 * A coded frame that arrives whole and passes its CRC needs no decoder.
 * Any other is copied, with its erasures, for the decoder: the owner
 * sees vlc_mac_fec_pending(), takes the frame with vlc_mac_fec_begin()
 * under its lock, decodes it with vlc_mac_fec_decode() without the lock
 * (the tick goes on meanwhile; the decode touches nothing else of the
 * MAC), and hands it back with vlc_mac_fec_end() under the lock, which
 * delivers, acknowledges and counts. A coded frame that needs the
 * decoder while it is busy is dropped (fec_busy). An owner that does not
 * defer (vlc_mac_set_fec()) gets all of this done in the call that
 * completed the frame: the simulator, in virtual time.
 */

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/math.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "vlc_mac_priv.h"

#define VLC_MAC_FEC_EST_SHIFT	12	/* the average spans 4096 bytes */
#define VLC_MAC_FEC_EST_ONE	65536	/* every byte erased */
/* Below this, under 1/64 of an erased byte per 255: no parity. */
#define VLC_MAC_FEC_EST_MIN	4
#define VLC_MAC_FEC_CLEAN	16	/* fragments through that undo a bump */

static bool vlc_mac_fec_codecs(const struct vlc_mac *mac)
{
	return mac->fec && vlc_fec_ready(mac->fec);
}

static bool vlc_mac_eras_test(const u32 *map, unsigned int pos)
{
	return map[pos / 32] & (1U << (pos % 32));
}

/* The level whose codewords carry @fec parity bytes; 0 if none does. */
unsigned int vlc_mac_fec_fixed(u8 fec)
{
	unsigned int l;

	for (l = 1; l < VLC_FEC_LEVELS; l++)
		if (vlc_fec_parity(l) == fec)
			return l;
	return 0;
}

static unsigned int vlc_mac_fec_words(unsigned int par, unsigned int n)
{
	return DIV_ROUND_UP(n, VLC_FEC_SYMBOLS_MAX - par);
}

/* Data bytes of codeword @i of @c that cut a body of @n bytes. */
static unsigned int vlc_mac_fec_word_len(unsigned int n, unsigned int c,
					 unsigned int i)
{
	return n / c + (i < n % c);
}

/* Where in the body codeword @i of @c starts. */
static unsigned int vlc_mac_fec_word_off(unsigned int n, unsigned int c,
					 unsigned int i)
{
	return i * (n / c) + min(i, n % c);
}

static unsigned int vlc_mac_fec_auto(const struct vlc_mac *mac,
				     unsigned int n)
{
	u32 est = mac->coding.est;
	unsigned int l = 0, par, w;

	if (est >= VLC_MAC_FEC_EST_MIN) {
		for (l = 1; l < VLC_FEC_LEVELS - 1; l++) {
			par = vlc_fec_parity(l);
			w = min(n, VLC_FEC_SYMBOLS_MAX - par) + par;
			if (par * VLC_MAC_FEC_EST_ONE >=
			    3 * est * w + 4 * VLC_MAC_FEC_EST_ONE)
				break;
		}
	}
	return min_t(unsigned int, l + mac->coding.bump, VLC_FEC_LEVELS - 1);
}

/**
 * vlc_mac_fec_level - the parity level of a frame we send
 * @mac: the MAC
 * @type: the frame's VLC_MAC_T_*
 * @n: bytes of the frame after its delimiter
 *
 * Return: 0 (a plain frame) .. VLC_FEC_LEVELS - 1; 0 without codecs.
 */
unsigned int vlc_mac_fec_level(const struct vlc_mac *mac, u8 type,
			       unsigned int n)
{
	unsigned int l;

	if (!vlc_mac_fec_codecs(mac) || mac->p.fec == VLC_MAC_FEC_OFF)
		return 0;
	if (mac->p.fec == VLC_MAC_FEC_AUTO)
		l = vlc_mac_fec_auto(mac, n);
	else
		l = vlc_mac_fec_fixed(mac->p.fec);
	if (type != VLC_MAC_T_DATA)
		l = min_t(unsigned int, l, VLC_MAC_FEC_CTL_LEVEL);
	return l;
}

/**
 * vlc_mac_fec_len - bytes after the delimiter of a frame at a level
 * @level: 0 (plain) .. VLC_FEC_LEVELS - 1
 * @n: bytes after the delimiter of the plain frame
 */
unsigned int vlc_mac_fec_len(unsigned int level, unsigned int n)
{
	int par = vlc_fec_parity(level);

	if (par <= 0)
		return n;
	return VLC_MAC_FEC_HDR + n + vlc_mac_fec_words(par, n) * par;
}

/* Bytes after the preamble that take as long on air as the longest plain
 * frame in 2-slot mode, at @bits per symbol.
 */
static unsigned int vlc_mac_fec_air(unsigned int bits)
{
	return VLC_MAC_AIR_MAX << (bits - 1);
}

/**
 * vlc_mac_fec_fit - the strongest level up to @level that keeps a frame
 *	within the airtime of the longest plain one
 * @level: the level wanted
 * @n: bytes of the plain frame after its delimiter
 * @bits: bits per symbol, 1 or 2
 *
 * The PHY gives its lock up when it has heard no neighbour for
 * VLC_PHY_SIGNAL_HOLD frames, and a node hears nobody while it sends:
 * no frame may take longer than the plain ones it was sized for.
 */
unsigned int vlc_mac_fec_fit(unsigned int level, unsigned int n,
			     unsigned int bits)
{
	while (level && 1 + vlc_mac_fec_len(level, n) > vlc_mac_fec_air(bits))
		level--;
	return level;
}

/**
 * vlc_mac_fec_room - payload bytes a DATA frame coded at @level may carry
 * @level: 0 (plain) .. VLC_FEC_LEVELS - 1
 * @hlen: its header bytes
 * @bits: bits per symbol, 1 or 2
 *
 * Return: at most VLC_MAC_FRAG_MAX; coded, no more than fills one codeword
 * and keeps the frame within the airtime of the longest plain one
 * (vlc_mac_fec_fit()).
 */
unsigned int vlc_mac_fec_room(unsigned int level, unsigned int hlen,
			      unsigned int bits)
{
	int par = vlc_fec_parity(level);
	unsigned int f = VLC_MAC_FRAG_MAX;

	/* a second codeword would bring parity of its own */
	if (par > 0)
		f = min(f, VLC_FEC_SYMBOLS_MAX - par - hlen - 2);

	while (f > VLC_MAC_FRAG_MIN && 1 + vlc_mac_fec_len(level, hlen + f + 2) >
	       vlc_mac_fec_air(bits))
		f--;
	return f;
}

/**
 * vlc_mac_fec_encode - code the plain frame in the emit buffer
 * @mac: the MAC
 * @n: bytes of the frame after its delimiter, at buf[1]
 * @level: 1..VLC_FEC_LEVELS - 1, from vlc_mac_fec_level()
 *
 * Writes the coded header and moves the body behind it; the parity
 * follows as the body goes out (vlc_mac_fec_emit()).
 *
 * Return: bytes of the frame to send, delimiter included: the coded
 * frame, or the plain one if it cannot be coded.
 */
unsigned int vlc_mac_fec_encode(struct vlc_mac *mac, unsigned int n,
				unsigned int level)
{
	struct vlc_mac_emit *e = &mac->tx.emit;
	u8 *b = e->buf + 1, *body = b + VLC_MAC_FEC_HDR;
	int par = vlc_fec_parity(level);
	unsigned int c, i;

	e->level = 0;
	if (par <= 0 || !vlc_mac_fec_codecs(mac) || n < VLC_MAC_BODY_MIN ||
	    n > VLC_MAC_BODY_MAX)
		return 1 + n;
	c = vlc_mac_fec_words(par, n);
	for (i = 0; i < c; i++)
		if (vlc_fec_check(level, vlc_mac_fec_word_len(n, c, i),
				  NULL, 0) < 0)
			return 1 + n;
	memmove(body, b, n);
	b[0] = VLC_MAC_T_CODED << VLC_MAC_TYPE_SHIFT | level << 2 | n >> 8;
	b[1] = n & 0xff;
	if (vlc_fec_encode(mac->fec, VLC_MAC_FEC_HDR_LEVEL, b, 2, b + 2) < 0) {
		memmove(b, body, n);
		return 1 + n;
	}
	e->level = level;
	e->words = c;
	e->word = 0;
	e->body = n;
	e->fed = 0;
	mac->stats.fec_tx_frames++;
	return 1 + vlc_mac_fec_len(level, n);
}

/**
 * vlc_mac_fec_emit - the coded frame on air reaches byte @k
 * @mac: the MAC
 * @k: the byte of the emit buffer whose first symbol goes out now
 *
 * The encoder takes the body up to byte @k, and the last byte of a
 * codeword writes its parity, which goes on air after the whole body: a
 * tick pays for one byte's encode, not the frame's.
 */
void vlc_mac_fec_emit(struct vlc_mac *mac, unsigned int k)
{
	struct vlc_mac_emit *e = &mac->tx.emit;
	u8 *body = e->buf + 1 + VLC_MAC_FEC_HDR;
	unsigned int par = vlc_fec_parity(e->level), off, len;

	while (e->fed < e->body && e->fed + 1U + VLC_MAC_FEC_HDR <= k) {
		off = vlc_mac_fec_word_off(e->body, e->words, e->word);
		len = vlc_mac_fec_word_len(e->body, e->words, e->word);
		if (e->fed == off)
			vlc_fec_encode_begin(mac->fec, e->level, len);
		vlc_fec_encode_more(mac->fec, body + e->fed++, 1);
		if (e->fed == off + len)
			vlc_fec_encode_end(mac->fec,
					   body + e->body + e->word++ * par);
	}
}

/**
 * vlc_mac_fec_header - the coded header in rx.buf is complete
 * @mac: the MAC
 *
 * Corrects it with its parity and the erasures known, then bounds what
 * it says. Sets rx.level and rx.body.
 *
 * Return: the bytes of the whole coded frame after its delimiter;
 * -EBADMSG when the header cannot be corrected, -EINVAL when it says
 * what no sender sends.
 */
int vlc_mac_fec_header(struct vlc_mac *mac)
{
	u8 *b = mac->rx.buf, eras[VLC_MAC_FEC_HDR];
	unsigned int i, ne = 0, level, n;

	for (i = 0; i < VLC_MAC_FEC_HDR; i++)
		if (vlc_mac_eras_test(mac->rx.eras, i))
			eras[ne++] = i;
	if (mac->fec_hdr && vlc_fec_ready(mac->fec_hdr)) {
		if (vlc_fec_decode(mac->fec_hdr, VLC_MAC_FEC_HDR_LEVEL, b, 2,
				   b + 2, eras, ne) < 0)
			return -EBADMSG;
	} else if (ne) {
		return -EBADMSG;
	}
	level = (b[0] >> 2) & 7;
	n = (b[0] & 1) << 8 | b[1];
	if (b[0] >> VLC_MAC_TYPE_SHIFT != VLC_MAC_T_CODED || (b[0] & 0x02) ||
	    level < 1 || level >= VLC_FEC_LEVELS || n < VLC_MAC_BODY_MIN ||
	    n > VLC_MAC_BODY_MAX)
		return -EINVAL;
	mac->rx.level = level;
	mac->rx.body = n;
	return vlc_mac_fec_len(level, n);
}

/**
 * vlc_mac_fec_note - bytes received, of which some lost a symbol
 * @mac: the MAC
 * @bytes: bytes of a frame received (or as far as it came)
 * @erased: those of them that lost a symbol
 */
void vlc_mac_fec_note(struct vlc_mac *mac, unsigned int bytes,
		      unsigned int erased)
{
	u32 est = mac->coding.est;

	bytes = min_t(unsigned int, bytes, 1U << VLC_MAC_FEC_EST_SHIFT);
	erased = min(erased, bytes);
	/* rounded up, so that it does reach 0 */
	est -= (est * bytes + (1U << VLC_MAC_FEC_EST_SHIFT) - 1) >>
	       VLC_MAC_FEC_EST_SHIFT;
	est += (erased * VLC_MAC_FEC_EST_ONE) >> VLC_MAC_FEC_EST_SHIFT;
	mac->coding.est = min_t(u32, est, VLC_MAC_FEC_EST_ONE);
}

/* A frame of ours was lost, our DATA (no ACK came) or our ACK (the DATA
 * came again): auto adds a level for the next frames.
 */
void vlc_mac_fec_lost(struct vlc_mac *mac)
{
	if (mac->p.fec != VLC_MAC_FEC_AUTO)
		return;
	if (mac->coding.bump < VLC_FEC_LEVELS - 1)
		mac->coding.bump++;
	mac->coding.clean = 0;
}

/* Our DATA got its ACK at the first attempt. */
void vlc_mac_fec_through(struct vlc_mac *mac)
{
	if (mac->coding.bump && ++mac->coding.clean >= VLC_MAC_FEC_CLEAN) {
		mac->coding.bump--;
		mac->coding.clean = 0;
	}
}

/**
 * vlc_mac_fec_rx_done - a coded frame is complete in rx.buf
 * @mac: the MAC
 *
 * Takes it at once if it arrived whole with a good CRC, else hands it
 * to the decoder (DOC: Where the decode runs).
 */
void vlc_mac_fec_rx_done(struct vlc_mac *mac)
{
	struct vlc_mac_dec *d = &mac->coding.dec;
	unsigned int n = mac->rx.body, len = mac->rx.pos, i;
	u8 *body = mac->rx.buf + VLC_MAC_FEC_HDR;
	bool whole = true;

	vlc_mac_fec_note(mac, len, mac->rx.neras);
	for (i = VLC_MAC_FEC_HDR; i < len && whole; i++)
		whole = !vlc_mac_eras_test(mac->rx.eras, i);
	if ((whole && vlc_mac_crc_good(body, n)) || !vlc_mac_fec_codecs(mac)) {
		if (!whole)
			mac->stats.fec_uncorrectable++;
		vlc_mac_rx_body(mac, body, n, 1 + len);
		return;
	}
	if (d->stage != VLC_MAC_DEC_IDLE) {
		mac->stats.fec_busy++;
		return;
	}
	d->level = mac->rx.level;
	d->n = n;
	d->len = len;
	memcpy(d->eras, mac->rx.eras, sizeof(d->eras));
	memcpy(d->buf, mac->rx.buf, len);
	d->stage = VLC_MAC_DEC_PENDING;
	if (mac->coding.defer) {
		mac->stats.fec_deferred++;
		return;
	}
	vlc_mac_fec_begin(mac);
	vlc_mac_fec_decode(mac);
	vlc_mac_fec_end(mac);
}

/**
 * vlc_mac_fec_pending - a coded frame waits for the owner's decode
 * @mac: the MAC
 *
 * Context: under the owner's lock, as every call into the MAC.
 */
bool vlc_mac_fec_pending(const struct vlc_mac *mac)
{
	return mac->coding.dec.stage == VLC_MAC_DEC_PENDING;
}

/**
 * vlc_mac_fec_begin - take the waiting coded frame for a decode
 * @mac: the MAC
 *
 * Context: under the owner's lock.
 * Return: true if there was one: vlc_mac_fec_decode() then
 * vlc_mac_fec_end() must follow.
 */
bool vlc_mac_fec_begin(struct vlc_mac *mac)
{
	if (mac->coding.dec.stage != VLC_MAC_DEC_PENDING)
		return false;
	mac->coding.dec.stage = VLC_MAC_DEC_BUSY;
	return true;
}

/**
 * vlc_mac_fec_decode - decode the frame vlc_mac_fec_begin() took
 * @mac: the MAC
 *
 * Touches only that frame and the decoder's codecs, so it runs without
 * the owner's lock while the MAC goes on; heavy (vlc-benchmarks.rst,
 * "FEC cost"). Every codeword is decoded with its erasures, or, when
 * it lost more bytes than it has parity, as if none were known (the
 * hard decisions may still be right); the CRC then judges the body.
 *
 * Context: any that may take a few hundred microseconds; never two at
 * once on one MAC.
 */
void vlc_mac_fec_decode(struct vlc_mac *mac)
{
	struct vlc_mac_dec *d = &mac->coding.dec;
	unsigned int par = vlc_fec_parity(d->level), n = d->n, c, i, k;
	unsigned int off = 0, len, ne, pos;
	u8 *body = d->buf + VLC_MAC_FEC_HDR, eras[VLC_FEC_PARITY_MAX];
	int r;

	d->fixed = 0;
	c = vlc_mac_fec_words(par, n);
	for (i = 0; i < c; i++) {
		len = vlc_mac_fec_word_len(n, c, i);
		ne = 0;
		for (k = 0; k < len + par; k++) {
			pos = k < len ? VLC_MAC_FEC_HDR + off + k :
			      VLC_MAC_FEC_HDR + n + i * par + k - len;
			if (!vlc_mac_eras_test(d->eras, pos))
				continue;
			if (ne < par)
				eras[ne] = k;
			ne++;
		}
		r = vlc_fec_decode(mac->fec, d->level, body + off, len,
				   body + n + i * par, eras, ne <= par ? ne : 0);
		if (r > 0)
			d->fixed += r;
		off += len;
	}
	d->ok = vlc_mac_crc_good(body, n);
}

/**
 * vlc_mac_fec_end - take back the decoded frame, deliver and count it
 * @mac: the MAC
 *
 * Context: under the owner's lock.
 */
void vlc_mac_fec_end(struct vlc_mac *mac)
{
	struct vlc_mac_dec *d = &mac->coding.dec;

	if (d->stage != VLC_MAC_DEC_BUSY)
		return;
	d->stage = VLC_MAC_DEC_IDLE;
	if (d->ok) {
		mac->stats.fec_corrected_frames++;
		mac->stats.fec_corrected_symbols += d->fixed;
	} else {
		mac->stats.fec_uncorrectable++;
	}
	vlc_mac_rx_body(mac, d->buf + VLC_MAC_FEC_HDR, d->n, 1 + d->len);
}
