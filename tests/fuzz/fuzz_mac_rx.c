// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the MAC under any sequence of PHY reports.
 *
 * The input is a small program (see the OP_* below): raw PHY reports with
 * any field values, whole frames from a peer (DATA, ACK, BEACON or any
 * header bytes) with a good CRC and optional damage, the same coded with
 * Reed-Solomon parity and bytes damaged or erased, packets queued with
 * vlc_mac_xmit(), parameter changes and flushes. Every PHY frame runs
 * vlc_mac_tx_symbol() then vlc_mac_rx_frame(), as an executor does; the
 * MAC decodes a coded frame in the call that completed it.
 *
 * Independently of the MAC's code, the harness keeps what the air carried
 * and checks (abort on violation):
 *  - every frame the MAC counts as received with a good CRC ends with the
 *    last symbol given, and is a well-formed frame with a good CRC, or
 *    is the frame inside a coded one that ends there (whatever its
 *    header: the coded header gave its length); a coded frame
 *    damaged within its parity's reach counts as what it carried, one
 *    damaged beyond (which may decode into anything that passes the CRC)
 *    ends what the harness can verify;
 *  - every delivered Ethernet frame is 15..VLC_MAC_FRAME_MAX bytes and is
 *    exactly what a chain of good DATA fragments (frag 0 to one with the
 *    last bit, same sender and sequence, in order, the last one received
 *    now) carried, with the addresses and ethertype they describe;
 *  - every frame the MAC emits is preamble, SFD, header and a good CRC;
 *    a DATA carries bytes of the packet at the head of its queue, an ACK
 *    acknowledges a good unicast DATA frame received for us;
 *  - a coded frame it emits has parity the decoder finds clean in its
 *    header and every codeword, a level its fec setting allows, one
 *    codeword for a DATA (but for a retransmission, which keeps the
 *    bytes it was cut with), no more airtime than the longest plain
 *    frame, and a plain frame inside that meets the above;
 *  - tx_done comes once per accepted packet, in queue order, with its
 *    length; vlc_mac_xmit() refuses exactly when it should;
 *  - counters never decrease; phase corrections are non-zero, counted,
 *    at most one a frame, and at most half the largest offset reported
 *    plus what the resync rate gathered (3048 ns).
 */

#include <linux/kernel.h>
#include <linux/errno.h>

#include "fuzz_mac_rx.h"

struct fz_mac_rx S;
struct vlc_fec FEC, MAC_FEC;

/* ---- callbacks ---- */

static void cb_deliver(void *ctx, const u8 *frame, unsigned int len)
{
	FZ_CHECK(len >= VLC_MAC_ETH_HLEN + 1 && len <= VLC_MAC_FRAME_MAX,
		 "delivered %u bytes", len);
	FZ_CHECK(++S.ndeliv == 1, "two deliveries in one frame");
	memcpy(S.deliv, frame, len);
	S.deliv_len = len;
}

static void cb_tx_done(void *ctx, unsigned int len, bool ok)
{
	FZ_CHECK(S.qcount > 0, "tx_done with nothing queued");
	FZ_CHECK(len == S.q[S.qhead].len, "tx_done len %u, head %u", len,
		 S.q[S.qhead].len);
	S.qhead = (S.qhead + 1) % VLC_MAC_TXQ_LEN;
	S.qcount--;
	S.done++;
}

/* A move is at most 4/7 of the largest offset reported plus what the
 * resync rate gathered: under a 1000 ns step and one frame's share, at
 * most 2048 ns (vlc_sync_frame()). A coarse report moves half of
 * itself, a window a quarter of its mean; the whole of a report goes
 * only when it is within an eighth of itself of what the last one and
 * our half move for it predict, so at most 8/7 of that half. The window
 * may be spread over any number of frames, hence the largest offset of
 * the whole run.
 */
static void cb_phase(void *ctx, s32 ns)
{
	u64 mag = ns < 0 ? -(s64)ns : ns;

	FZ_CHECK(ns != 0, "zero phase correction");
	FZ_CHECK(mag <= S.maxoff * 4 / 7 + 3048, "phase %d, largest offset %llu",
		 ns, (unsigned long long)S.maxoff);
	S.nphase++;
}

/* Backoffs from the input would only slow the search down. */
const struct vlc_mac_ops ops = {
	.deliver = cb_deliver,
	.tx_done = cb_tx_done,
	.phase = cb_phase,
};

/* ---- what the MAC emits ---- */

static bool good_ackable(u8 tx, u8 sf)
{
	u32 i;

	for (i = 0; i < S.ngood; i++) {
		const struct good *g = &S.good[i];

		if (g->tx == tx && g->sf == sf && !(g->h0 & AIR_H_DFULL) &&
		    g->dst != VLC_MAC_BCAST && g->dst == g->me)
			return true;
	}
	return false;
}

/* Air payload of a queued packet: [ethertype] + data, as documented. */
static void pkt_air(const struct pkt *k, const u8 **pl, unsigned int *len,
		    unsigned int *et)
{
	u16 type = k->data[12] << 8 | k->data[13];
	unsigned int off = VLC_MAC_ETH_HLEN;

	for (*et = 0; *et < AIR_ET_FULL; (*et)++)
		if (ethertypes[*et] == type)
			break;
	if (*et == AIR_ET_FULL)
		off -= 2;
	*pl = k->data + off;
	*len = k->len - off;
}

/* A DATA the MAC emitted, its body in @words codewords (0: plain). */
static void emit_data_check(const u8 *b, unsigned int n, unsigned int words)
{
	unsigned int p = 2, et, plen, len, i;
	u8 src[VLC_MAC_ALEN];
	const u8 *pl;
	u8 h0 = b[1], dst;
	int sdst;

	FZ_CHECK(n >= 1 + data_hlen(h0) + 2, "DATA of %u bytes", n);
	if (h0 & AIR_H_DFULL) {
		dst = VLC_MAC_BCAST;
		FZ_CHECK(!S.run_head || !memcmp(b + p, S.head.data, 6),
			 "DATA dst differs from the packet's");
		p += VLC_MAC_ALEN;
	} else {
		dst = b[p++];
	}
	FZ_CHECK(b[p] == S.run_me, "DATA tx %u, we are %u", b[p], S.run_me);
	p++;
	long_addr(src, S.run_me);
	FZ_CHECK(!S.run_head ||
		 !memcmp(h0 & AIR_H_SFULL ? b + p : src, S.head.data + 6, 6),
		 "DATA src differs from the packet's");
	if (h0 & AIR_H_SFULL)
		p += VLC_MAC_ALEN;
	/* one codeword, unless a retransmission of bytes first cut for a
	 * weaker level
	 */
	FZ_CHECK(words <= 1 || (S.last_data && b[p] == S.last_sf),
		 "coded DATA in %u codewords", words);
	S.last_sf = b[p++];
	len = b[p++];
	FZ_CHECK(len >= 1 && len <= VLC_MAC_FRAG_MAX && p + len + 2 == n,
		 "DATA len %u in %u bytes", len, n);
	S.last_data = true;
	S.last_dst = dst;
	FZ_CHECK(S.run_head, "DATA emitted with nothing queued");
	pkt_air(&S.head, &pl, &plen, &et);
	FZ_CHECK(((h0 >> 2) & 3) == et, "DATA ethertype code");
	sdst = vlc_mac_short_addr(S.head.data);
	FZ_CHECK((h0 & AIR_H_DFULL) ? sdst < 0 : sdst == dst,
		 "DATA dst %u for packet dst %d", dst, sdst);
	for (i = 0; i + len <= plen; i++)
		if (!memcmp(pl + i, b + p, len))
			return;
	FZ_CHECK(0, "DATA payload (%u bytes) not in the queued packet", len);
}

/* The coded frame of @n bytes at @b (delimiter first) the MAC emitted:
 * the plain frame inside goes to @plain (delimiter first), the number
 * of its codewords to @words.
 *
 * Return: the plain frame's bytes.
 */
static unsigned int emit_coded(const u8 *b, unsigned int n, u8 *plain,
			       unsigned int *words)
{
	unsigned int level = (b[1] >> 2) & 7, len, par, c, i, off, wl, most;
	u8 hdr[AIR_CODED_HDR], word[VLC_FEC_SYMBOLS_MAX];
	const u8 *body = b + 1 + AIR_CODED_HDR;
	int r;

	FZ_CHECK(S.run_codecs && S.run_fec != VLC_MAC_FEC_OFF,
		 "coded frame emitted with fec %#x, codecs %d", S.run_fec,
		 S.run_codecs);
	FZ_CHECK(n >= 1 + AIR_CODED_HDR, "coded frame of %u bytes", n);
	memcpy(hdr, b + 1, sizeof(hdr));
	r = vlc_fec_decode(&FEC, 1, hdr, 2, hdr + 2, NULL, 0);
	FZ_CHECK(r == 0, "coded header %#x %#x: decode %d", b[1], b[2], r);
	FZ_CHECK(!(b[1] & 2) && level >= 1 && level < VLC_FEC_LEVELS,
		 "coded header %#x", b[1]);
	len = (b[1] & 1) << 8 | b[2];
	par = vlc_fec_parity(level);
	c = coded_words(par, len);
	FZ_CHECK(len >= AIR_CODED_BODY_MIN && len < VLC_MAC_AIR_MAX &&
		 n == 1 + coded_len(level, len),
		 "coded body of %u bytes in %u", len, n);
	FZ_CHECK(n <= (unsigned int)VLC_MAC_AIR_MAX << (S.run_bits - 1),
		 "coded frame of %u bytes outlasts a plain one", n);
	for (i = 0, off = 0; i < c; i++, off += wl) {
		wl = coded_word_len(len, c, i);
		memcpy(word, body + off, wl);
		memcpy(word + wl, body + len + i * par, par);
		r = vlc_fec_decode(&FEC, level, word, wl, word + wl, NULL, 0);
		FZ_CHECK(r == 0, "codeword %u of %u at level %u: decode %d",
			 i, c, level, r);
	}
	plain[0] = AIR_SFD;
	memcpy(plain + 1, body, len);
	most = (plain[1] >> 5) == AIR_T_DATA ? VLC_FEC_LEVELS - 1 :
	       AIR_CTL_LEVEL;
	if (S.run_fec != VLC_MAC_FEC_AUTO)
		most = min(most, fixed_level(S.run_fec));
	FZ_CHECK(level <= most, "type %u coded at level %u, fec %#x",
		 plain[1] >> 5, level, S.run_fec);
	*words = c;
	return 1 + len;
}

static void emit_end(void)
{
	unsigned int n = S.run_nbits / 8, words = 0;
	u8 plain[VLC_MAC_AIR_MAX];
	const u8 *b = S.ebuf;

	S.run = false;
	if (S.run_cut)
		return;
	FZ_CHECK(S.run_len >= S.run_pre && !(S.run_nbits & 7) && n >= 5,
		 "emitted %u symbols, %u bits", S.run_len, S.run_nbits);
	FZ_CHECK(b[0] == AIR_SFD, "emitted delimiter %#x", b[0]);
	if (b[1] >> 5 == AIR_T_CODED) {
		n = emit_coded(b, n, plain, &words);
		b = plain;
	}
	FZ_CHECK(crc_good(b + 1, n - 1), "emitted a bad CRC");
	switch (b[1] >> 5) {
	case AIR_T_ACK:
		FZ_CHECK(b[1] == AIR_T_ACK << 5 && n == AIR_ACK_LEN,
			 "emitted ACK %#x of %u bytes", b[1], n);
		FZ_CHECK(b[3] == S.run_me, "ACK from %u", b[3]);
		FZ_CHECK(S.lost_track || good_ackable(b[2], b[4]),
			 "ACK to %u sf %#x acknowledges nothing received",
			 b[2], b[4]);
		break;
	case AIR_T_BEACON:
		FZ_CHECK(b[1] == AIR_T_BEACON << 5 && n == AIR_BEACON_LEN &&
			 b[2] == S.run_me, "emitted beacon");
		break;
	case AIR_T_DATA:
		emit_data_check(b, n, words);
		break;
	case AIR_T_RTS:
		/* for the queued packet, to its unicast destination */
		FZ_CHECK(b[1] == AIR_T_RTS << 5 && n == AIR_RTS_LEN &&
			 b[3] == S.run_me, "emitted RTS %#x of %u bytes",
			 b[1], n);
		FZ_CHECK(S.run_head &&
			 vlc_mac_short_addr(S.head.data) == b[2] &&
			 b[2] != VLC_MAC_BCAST, "RTS to %u for no packet", b[2]);
		break;
	case AIR_T_CTS:
		/* an answer: to a unicast address, never for longer than an
		 * exchange can take (vlc.rst: nav.max)
		 */
		FZ_CHECK(b[1] == AIR_T_CTS << 5 && n == AIR_RTS_LEN &&
			 b[3] == S.run_me && b[2] != VLC_MAC_BCAST &&
			 (b[4] << 8 | b[5]) <= 21823,
			 "emitted CTS %#x to %u", b[1], b[2]);
		break;
	default:
		FZ_CHECK(0, "emitted frame type %u", b[1] >> 5);
	}
}

static void emit_track(int sym)
{
	u32 i, mask;

	if (sym == VLC_SYM_IDLE) {
		if (S.run)
			emit_end();
		return;
	}
	if (!S.run) {
		S.run = true;
		S.run_cut = false;
		S.run_len = 0;
		S.run_nbits = 0;
		S.run_pre = S.p.preamble;
		S.run_bits = S.p.bits_per_symbol;
		S.run_me = S.p.short_addr;
		S.run_fec = S.p.fec;
		S.run_codecs = S.codecs;
		S.run_head = S.qcount > 0;
		if (S.run_head)
			S.head = S.q[S.qhead];
		memset(S.ebuf, 0, sizeof(S.ebuf));
	}
	mask = (1U << S.run_bits) - 1;
	FZ_CHECK(sym >= 0 && (u32)sym <= mask, "emitted symbol %d", sym);
	i = S.run_len++;
	if (i < S.run_pre) {
		FZ_CHECK((u32)sym == (i & mask), "preamble symbol %u is %d", i,
			 sym);
		return;
	}
	FZ_CHECK(S.run_nbits + S.run_bits <= 8 * VLC_MAC_CODED_MAX,
		 "emitted frame longer than VLC_MAC_CODED_MAX");
	S.ebuf[S.run_nbits >> 3] |= sym << (8 - S.run_bits -
					    (S.run_nbits & 7));
	S.run_nbits += S.run_bits;
}

/* ---- what the MAC received ---- */

/* The @n bytes ending at the last symbol, if all are data symbols. */
static bool hist_bytes(u8 *b, unsigned int n, unsigned int bits)
{
	u32 nsym = n * 8 / bits, i, bit;

	if (nsym > S.datarun)
		return false;
	memset(b, 0, n);
	for (i = 0; i < nsym; i++) {
		s8 sym = S.hist[(S.frames - nsym + i) % HIST];

		bit = i * bits;
		b[bit >> 3] |= sym << (8 - bits - (bit & 7));
	}
	return true;
}

static void good_add(const u8 *b)
{
	struct good *g;
	unsigned int p = 1;

	if (S.ngood == MAX_GOOD) {
		S.lost_track = true;	/* a limit of the harness */
		return;
	}
	g = &S.good[S.ngood++];
	memset(g, 0, sizeof(*g));
	g->h0 = b[0];
	g->me = S.p.short_addr;
	g->at = S.frames;
	if (g->h0 & AIR_H_DFULL) {
		memcpy(g->addr, b + p, VLC_MAC_ALEN);
		p += VLC_MAC_ALEN;
		g->dst = VLC_MAC_BCAST;
	} else {
		g->dst = b[p++];
	}
	g->tx = b[p++];
	if (g->h0 & AIR_H_SFULL) {
		memcpy(g->addr + VLC_MAC_ALEN, b + p, VLC_MAC_ALEN);
		p += VLC_MAC_ALEN;
	}
	g->sf = b[p++];
	g->len = b[p++];
	memcpy(g->payload, b + p, g->len);
}

/* Is the frame of @n bytes at @b (delimiter first, good CRC) one the
 * MAC may count as good? DATA frames are kept (good_add()).
 */
static bool good_frame(const u8 *b, unsigned int n)
{
	unsigned int hl, len;

	switch (b[1] >> 5) {
	case AIR_T_ACK:
		return b[1] == AIR_T_ACK << 5 && n == AIR_ACK_LEN;
	case AIR_T_BEACON:
		return b[1] == AIR_T_BEACON << 5 && n == AIR_BEACON_LEN;
	case AIR_T_RTS:
	case AIR_T_CTS:
		return !(b[1] & 0x1f) && n == AIR_RTS_LEN;
	case AIR_T_DATA:
		hl = data_hlen(b[1]);
		if (n < 1 + hl + 2)
			return false;
		len = b[hl];
		if (!len || len > VLC_MAC_FRAG_MAX || n != 1 + hl + len + 2)
			return false;
		good_add(b + 1);
		return true;
	}
	return false;
}

/* The MAC counted a good frame now: it must be on air, ending now, or
 * be the frame inside a coded one ending now. Every DATA frame that fits
 * is kept (one may hide in another's payload).
 */
static void rx_good(void)
{
	unsigned int bits = S.p.bits_per_symbol, n, i;
	u8 b[VLC_MAC_AIR_MAX];
	bool found = false;

	if (S.frames - S.bits_at < HIST) {
		/* bits per symbol changed during the frame: not modelled */
		S.lost_track = true;
		return;
	}
	/* a coded frame cut short may end in what came after it */
	for (i = 0; i < CODED_KEPT; i++) {
		const struct coded *cs = &S.coded[i];

		if (cs->end != S.frames)
			continue;
		if (!cs->ok) {
			S.lost_track = true;
			return;
		}
		/* its length came from the coded header: any header counts */
		good_frame(cs->inner, cs->n);
		found = true;
	}
	for (n = AIR_BEACON_LEN; n <= VLC_MAC_AIR_MAX; n++) {
		if (!hist_bytes(b, n, bits))
			break;
		if (b[0] == AIR_SFD && crc_good(b + 1, n - 1))
			found |= good_frame(b, n);
	}
	FZ_CHECK(found, "good CRC counted at frame %u, none on air", S.frames);
}

/* Does good frame @g describe Ethernet frame @f with payload at @base? */
static bool chain_first(const struct good *g, const u8 *f, u32 base)
{
	u8 a[VLC_MAC_ALEN], b[VLC_MAC_ALEN];
	u32 et = (g->h0 >> 2) & 3;

	if (et == AIR_ET_FULL ? base != VLC_MAC_ETH_HLEN - 2 :
	    base != VLC_MAC_ETH_HLEN || f[12] != ethertypes[et] >> 8 ||
	    f[13] != (ethertypes[et] & 0xff))
		return false;
	if (g->h0 & AIR_H_DFULL) {
		if (memcmp(f, g->addr, VLC_MAC_ALEN))
			return false;
	} else {
		long_addr(a, g->dst == VLC_MAC_BCAST ? VLC_MAC_BCAST : g->me);
		long_addr(b, S.p.short_addr);
		if (memcmp(f, a, VLC_MAC_ALEN) &&
		    (g->dst == VLC_MAC_BCAST || memcmp(f, b, VLC_MAC_ALEN)))
			return false;
	}
	if (g->h0 & AIR_H_SFULL)
		return !memcmp(f + VLC_MAC_ALEN, g->addr + VLC_MAC_ALEN,
			       VLC_MAC_ALEN);
	long_addr(a, g->tx);
	return !memcmp(f + VLC_MAC_ALEN, a, VLC_MAC_ALEN);
}

static bool is_group(const struct good *g)
{
	return g->dst == VLC_MAC_BCAST;
}

static bool for_us(const struct good *g)
{
	return g->tx != VLC_MAC_BCAST &&
	       (g->dst == VLC_MAC_BCAST || g->dst == g->me);
}

/* Fragments after good[@i], which brought the payload up to @off. */
static bool chain_rest(u32 i, u32 off, u32 base, u32 frag)
{
	const struct good *g = &S.good[i], *h;
	u32 j, k;

	if (g->h0 & AIR_H_LAST)
		return base + off == S.deliv_len && g->at == S.frames;
	for (j = i + 1; j < S.ngood; j++) {
		h = &S.good[j];
		/* the MAC keys reassemblies on sender and group */
		if (!for_us(h) || h->tx != g->tx ||
		    is_group(h) != is_group(g) ||
		    (h->sf >> 5) != (g->sf >> 5) || (h->sf & 0x1f) != frag ||
		    ((h->h0 ^ g->h0) & ~AIR_H_LAST) ||
		    memcmp(h->addr, g->addr, sizeof(h->addr)) ||
		    base + off + h->len > S.deliv_len ||
		    memcmp(h->payload, S.deliv + base + off, h->len))
			continue;
		/* the first of identical copies leaves the most behind */
		for (k = i + 1; k < j; k++)
			if (S.good[k].len == h->len && S.good[k].tx == h->tx &&
			    S.good[k].sf == h->sf && S.good[k].h0 == h->h0 &&
			    !memcmp(S.good[k].payload, h->payload, h->len))
				break;
		if (k < j)
			continue;
		if (chain_rest(j, off + h->len, base, frag + 1))
			return true;
	}
	return false;
}

static void check_delivery(void)
{
	u32 i, base;

	if (S.lost_track)
		return;
	for (base = VLC_MAC_ETH_HLEN - 2; base <= VLC_MAC_ETH_HLEN;
	     base += 2) {
		for (i = 0; i < S.ngood; i++) {
			const struct good *g = &S.good[i];

			if ((g->sf & 0x1f) || !for_us(g) ||
			    !chain_first(g, S.deliv, base) ||
			    base + g->len > S.deliv_len ||
			    memcmp(g->payload, S.deliv + base, g->len))
				continue;
			if (chain_rest(i, g->len, base, 1))
				return;
		}
	}
	FZ_CHECK(0, "delivered %u bytes that no good DATA frames carried",
		 S.deliv_len);
}

static void stats_check(const struct vlc_mac_stats *a,
			const struct vlc_mac_stats *b)
{
	const u64 *x = (const u64 *)a, *y = (const u64 *)b;
	unsigned int i;

	for (i = 0; i < sizeof(*a) / sizeof(u64); i++)
		FZ_CHECK(y[i] >= x[i], "counter %u went from %llu to %llu", i,
			 (unsigned long long)x[i], (unsigned long long)y[i]);
}

/* One PHY frame: @rx is what the PHY reports, @gen when it is generated
 * (then our own emission is flagged as the PHY would).
 */
void step(struct vlc_phy_rx *rx, bool gen)
{
	unsigned int bits = S.p.bits_per_symbol;
	u64 mag, ok0, del0, ph0;
	int tx, sym = rx->sym;

	S.before = S.mac.stats;
	ok0 = S.mac.stats.rx_frames_ok;
	del0 = S.mac.stats.rx_delivered;
	ph0 = S.mac.stats.phase_corrections;

	tx = vlc_mac_tx_symbol(&S.mac);
	emit_track(tx);
	S.last_tx = tx;
	if (tx >= 0)
		S.coded[S.coded_i].ok = false;
	if (gen && tx >= 0)
		rx->flags |= VLC_PHY_RX_OWN_TX;

	/* the MAC's documented view of the report */
	if (tx >= 0 || (rx->flags & VLC_PHY_RX_OWN_TX))
		sym = SYM_OWN;
	else if (sym >= 0 && (rx->bits != bits || sym >= 1 << bits))
		sym = VLC_SYM_ERASURE;
	else if (sym < 0 && sym != VLC_SYM_IDLE)
		sym = VLC_SYM_ERASURE;
	S.hist[S.frames % HIST] = sym;
	S.datarun = sym >= 0 ? S.datarun + 1 : 0;
	mag = rx->offset_ns < 0 ? -(s64)rx->offset_ns : rx->offset_ns;
	if (mag > S.maxoff)
		S.maxoff = mag;

	S.ndeliv = 0;
	vlc_mac_rx_frame(&S.mac, rx);
	S.frames++;

	stats_check(&S.before, &S.mac.stats);
	FZ_CHECK(S.mac.stats.rx_frames_ok - ok0 <= 1, "two frames at once");
	FZ_CHECK(S.mac.stats.rx_delivered - del0 == S.ndeliv,
		 "rx_delivered vs deliver()");
	FZ_CHECK(S.mac.stats.phase_corrections - ph0 <= 1 &&
		 S.mac.stats.phase_corrections == S.nphase,
		 "phase_corrections vs phase()");
	if (S.mac.stats.rx_frames_ok != ok0)
		rx_good();
	if (S.ndeliv) {
		FZ_CHECK(S.mac.stats.rx_frames_ok != ok0,
			 "delivery without a good frame");
		check_delivery();
	}
	FZ_CHECK(S.accepted - S.done == S.qcount &&
		 vlc_mac_tx_full(&S.mac) == (S.qcount == VLC_MAC_TXQ_LEN),
		 "queue: %u accepted, %u done, %u queued", S.accepted, S.done,
		 S.qcount);
}

void step_sym(int sym, unsigned int bits)
{
	struct vlc_phy_rx rx = S.tmpl;

	rx.sym = sym;
	rx.bits = bits;
	rx.carrier = rx.carrier || sym != VLC_SYM_IDLE;
	rx.coarse = S.coarse_once;
	S.coarse_once = false;
	step(&rx, true);
}

void wait_quiet(void)
{
	u32 i;

	for (i = 0; i < WAIT_MAX && S.last_tx >= 0; i++)
		step_sym(VLC_SYM_IDLE, S.p.bits_per_symbol);
}
