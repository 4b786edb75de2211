// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target fuzz_mac_rx, its input: the program of PHY reports,
 * frames from a peer and packets queued that drives the MAC under the
 * harness of fuzz_mac_rx.c.
 */

#include <stdio.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/errno.h>

#include "fuzz_mac_rx.h"

/* ---- input ---- */

static u8 pick_addr(struct fz *f, u8 sel)
{
	u8 peer = S.p.short_addr == 2 ? 1 : 2;

	switch (sel & 7) {
	case 4:
		return VLC_MAC_BCAST;
	case 5:
		return peer;
	case 6:
	case 7:
		return fz_u8(f);
	default:
		return S.p.short_addr;
	}
}

/* Send @n bytes (SFD first) as a peer would, with the damage and
 * framing options @opt, and the first symbol of each byte @eras names
 * (if not NULL) erased. The frame count at the last symbol goes to
 * @end, if not NULL, before the first: a frame cut short may still end
 * there in a receiver that takes what follows for its missing symbols.
 */
static void air_send_raw(struct fz *f, const u8 *b, unsigned int n, u8 opt,
			 const bool *eras, u32 *end)
{
	static const u8 pres[8] = { 8, 2, 4, 16, 32, 0, 1, 3 };
	u8 pre = pres[(opt >> 2) & 7];
	unsigned int bits = S.p.bits_per_symbol, rbits = bits, i, bit, nsym;
	unsigned int mask = (1U << bits) - 1, hit = U32_MAX;
	u8 buf[VLC_MAC_CODED_MAX];
	int sym;

	memcpy(buf, b, n);
	nsym = n * 8 / bits;
	switch (opt & 3) {
	case 1:
		i = fz_u16(f) % (8 * n);
		buf[i / 8] ^= 0x80 >> (i % 8);
		break;
	case 2:
	case 3:
		hit = fz_u16(f) % nsym;
		break;
	}
	if (opt & 0x20)
		rbits = 3 - bits;
	if (!(opt & 0x40))
		step_sym(VLC_SYM_IDLE, bits);
	for (i = 0; i < pre; i++)
		step_sym(i & mask, rbits);
	if (end)
		*end = S.frames + nsym;
	for (i = 0; i < nsym; i++) {
		bit = i * bits;
		sym = (buf[bit >> 3] >> (8 - bits - (bit & 7))) & mask;
		if (eras && eras[bit >> 3] && !(bit & 7))
			sym = VLC_SYM_ERASURE;
		if (i == hit) {
			sym = (opt & 3) == 2 ? VLC_SYM_ERASURE : VLC_SYM_IDLE;
			if (sym == VLC_SYM_IDLE)
				break;
		}
		step_sym(sym, rbits);
	}
	if (!(opt & 0x80))
		step_sym(VLC_SYM_IDLE, bits);
}

static void air_send_opt(struct fz *f, const u8 *b, unsigned int n, u8 opt)
{
	air_send_raw(f, b, n, opt, NULL, NULL);
}

/* ... and the options from the input */
static void air_send(struct fz *f, const u8 *b, unsigned int n)
{
	air_send_opt(f, b, n, fz_u8(f));
}

/* A DATA frame from a peer, every field from the input, into @b. */
static unsigned int input_data(struct fz *f, u8 *b)
{
	u8 fl = fz_u8(f), h0 = data_h0(fl);
	u8 dfull[VLC_MAC_ALEN], sfull[VLC_MAC_ALEN], dst, tx, sf, len;
	unsigned int i;

	for (i = 0; i < VLC_MAC_ALEN; i++)
		dfull[i] = h0 & AIR_H_DFULL ? fz_u8(f) : 0;
	dst = pick_addr(f, fl >> 5);
	tx = pick_addr(f, fz_u8(f) & 0x80 ? 5 : 6);
	for (i = 0; i < VLC_MAC_ALEN; i++)
		sfull[i] = h0 & AIR_H_SFULL ? fz_u8(f) : 0;
	sf = fz_u8(f);
	len = fz_u8(f);
	return build_data(f, b, h0, dst, dfull, tx, sfull, sf, len, fz_u8(f));
}

static void op_data(struct fz *f)
{
	u8 b[VLC_MAC_AIR_MAX];

	air_send(f, b, input_data(f, b));
}

/* A whole packet: fragments 0..n-1 of one sequence number, each sent
 * when the MAC's ACK of the previous one is over; one fragment may be
 * sent twice, left out, or carry another header.
 */
static void op_packet(struct fz *f)
{
	static const u8 dfull[VLC_MAC_ALEN] = { 0x33, 0x33, 0, 0, 0, 1 };
	static const u8 sfull[VLC_MAC_ALEN] = { 0, 0x11, 0x22, 0x33, 0x44, 5 };
	u8 b[VLC_MAC_AIR_MAX], mode = fz_u8(f), fl = fz_u8(f), h0, h, dst, tx;
	u8 seq = fz_u8(f) << 5, len = fz_u8(f), fill = fz_u8(f) | 1;
	unsigned int nfrag = 1 + (mode & 31), which = fz_u8(f) % nfrag, i, j, k;

	h0 = data_h0(fl) & ~AIR_H_LAST;
	dst = pick_addr(f, fl >> 5);
	tx = pick_addr(f, fz_u8(f) & 0x80 ? 5 : 6);
	for (i = 0; i < nfrag; i++) {
		h = h0 | (i + 1 == nfrag ? AIR_H_LAST : 0);
		k = 1;
		if (i == which) {
			switch (mode >> 5 & 3) {
			case 1:
				k = 2;
				break;
			case 2:
				k = 0;
				break;
			case 3:
				h ^= 1 << 2;
				break;
			}
		}
		while (k--) {
			air_send_opt(f, b, build_data(f, b, h, dst, dfull, tx,
						      sfull, seq | i, len,
						      fill + 2 * i), 0);
			for (j = 0; j < S.p.sifs + 2U; j++)
				step_sym(VLC_SYM_IDLE, S.p.bits_per_symbol);
			wait_quiet();
		}
	}
}

static void op_ack(struct fz *f)
{
	u8 b[VLC_MAC_AIR_MAX], sel = fz_u8(f);
	unsigned int n = 0;

	wait_quiet();
	b[n++] = AIR_SFD;
	b[n++] = AIR_T_ACK << 5;
	if ((sel & 1) && S.last_data) {
		b[n++] = S.p.short_addr;
		b[n++] = S.last_dst;
		b[n++] = S.last_sf;
	} else {
		b[n++] = pick_addr(f, sel >> 1);
		b[n++] = pick_addr(f, sel >> 4);
		b[n++] = fz_u8(f);
	}
	air_send(f, b, put_crc(b, n));
}

static void op_beacon(struct fz *f)
{
	u8 b[VLC_MAC_AIR_MAX];
	unsigned int n = 0;

	b[n++] = AIR_SFD;
	b[n++] = AIR_T_BEACON << 5;
	b[n++] = pick_addr(f, fz_u8(f));
	air_send(f, b, put_crc(b, n));
}

/* Any header bytes from the input, with a good CRC, into @b. */
static unsigned int input_frame(struct fz *f, u8 *b)
{
	unsigned int n = 0, len = 1 + fz_u8(f) % (VLC_MAC_AIR_MAX - 3);

	b[n++] = AIR_SFD;
	while (len--)
		b[n++] = fz_u8(f);
	return put_crc(b, n);
}

static void op_frame(struct fz *f)
{
	u8 b[VLC_MAC_AIR_MAX];

	air_send(f, b, input_frame(f, b));
}

/* Does codeword damage of @errors bytes changed and @erased bytes
 * erased stay within @par parity?
 */
static bool in_reach(unsigned int errors, unsigned int erased,
		     unsigned int par)
{
	return 2 * errors + erased <= par;
}

/* A coded frame from a peer around a DATA frame or any header bytes, at
 * a level from the input, with up to 7 bytes after the delimiter changed
 * or erased, and the framing options of air_send().
 */
static void op_coded(struct fz *f)
{
	u8 sel = fz_u8(f), b[VLC_MAC_CODED_MAX], sent[VLC_MAC_CODED_MAX], opt;
	unsigned int n, len, level, par, c, i, off, wl, k, pos, e, x;
	u64 uncorr, crc;
	bool eras[VLC_MAC_CODED_MAX] = { false };
	u8 *body = b + 1 + AIR_CODED_HDR;
	struct coded *cs;

	S.coded_i = (S.coded_i + 1) % CODED_KEPT;
	cs = &S.coded[S.coded_i];
	cs->end = 0;
	n = sel & 0x80 ? input_data(f, cs->inner) : input_frame(f, cs->inner);
	len = n - 1;
	level = 1 + (sel & 7) % (VLC_FEC_LEVELS - 1);
	par = vlc_fec_parity(level);
	c = coded_words(par, len);
	b[0] = AIR_SFD;
	b[1] = AIR_T_CODED << 5 | level << 2 | len >> 8;
	b[2] = len & 0xff;
	FZ_CHECK(vlc_fec_encode(&FEC, 1, b + 1, 2, b + 3) == 2, "header code");
	memcpy(body, cs->inner + 1, len);
	for (i = 0, off = 0; i < c; i++, off += wl) {
		wl = coded_word_len(len, c, i);
		FZ_CHECK(vlc_fec_encode(&FEC, level, body + off, wl,
					body + len + i * par) == (int)par, "code");
	}
	n = 1 + coded_len(level, len);
	memcpy(sent, b, n);
	for (k = (sel >> 3) & 7; k; k--) {
		pos = 1 + fz_u16(f) % (n - 1);
		x = fz_u8(f);
		if (x & 1)
			eras[pos] = true;
		else
			b[pos] ^= x;
	}
	/* Within reach, the MAC must decode it into what it carries: the
	 * header's type bits unchanged (an erased symbol there reads as
	 * ones), no damage from the framing options, and each codeword
	 * within its parity. The MAC sending meanwhile spoils it (step()).
	 */
	opt = fz_u8(f);
	/* framed as a peer frames it: after any coded frame the MAC may
	 * still be in, were one cut short
	 */
	for (i = 0; !opt && i < AIR_DARK_CODED; i++)
		step_sym(VLC_SYM_IDLE, S.p.bits_per_symbol);
	cs->ok = !(opt & 0x23) && (eras[1] || b[1] == sent[1]);
	for (i = 0, e = 0, x = 0; i < AIR_CODED_HDR; i++) {
		e += eras[1 + i];
		x += !eras[1 + i] && b[1 + i] != sent[1 + i];
	}
	cs->ok &= in_reach(x, e, 2);
	for (i = 0, off = 0; i < c; i++, off += wl) {
		wl = coded_word_len(len, c, i);
		for (k = 0, e = 0, x = 0; k < wl + par; k++) {
			pos = k < wl ? 1 + AIR_CODED_HDR + off + k :
			      1 + AIR_CODED_HDR + len + i * par + k - wl;
			e += eras[pos];
			x += !eras[pos] && b[pos] != sent[pos];
		}
		cs->ok &= in_reach(x, e, par);
	}
	cs->n = len + 1;
	uncorr = S.mac.stats.fec_uncorrectable;
	crc = S.mac.stats.rx_crc_errors;
	air_send_raw(f, b, n, opt, eras, &cs->end);
	/* framed as a peer frames it, at the bits per symbol the MAC has
	 * had for a while, the MAC with codecs must not drop it
	 */
	if (cs->ok && !opt && S.codecs && S.frames - S.bits_at >= HIST)
		FZ_CHECK(S.mac.stats.fec_uncorrectable == uncorr &&
			 S.mac.stats.rx_crc_errors == crc,
			 "coded frame within its parity's reach dropped");
}

static void op_report(struct fz *f)
{
	struct vlc_phy_rx rx = { 0 };
	u8 s = fz_u8(f), fl = fz_u8(f);

	rx.sym = s < 0xf0 ? (int)(s % 7) - 3 : (s32)fz_u32(f);
	rx.bits = fl & 3;
	rx.carrier = fl & 4;
	rx.sync = (fl >> 3) & 3;
	rx.coarse = fl & 0x20;
	rx.acquiring = fl & 0x40;
	rx.offset_ns = fl & 0x80 ? (s32)fz_u32(f) : (s8)fz_u8(f) * 1000;
	rx.flags = fz_u8(f) & 0xf;
	step(&rx, false);
}

static void op_xmit(struct fz *f)
{
	static const u8 full[6] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55 };
	static const u8 mcast[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 };
	static const u16 types[4] = { 0x0800, 0x0806, 0x86dd, 0x88b5 };
	u16 l = fz_u16(f);
	u8 sel = fz_u8(f), fill = fz_u8(f);
	unsigned int len = l & 0x8000 ? l & 0x7ff : 15 + l % 200, i;
	u8 d[VLC_MAC_FRAME_MAX + 1];
	int ret, want;

	memset(d, 0, sizeof(d));
	switch (sel & 7) {
	case 0:
	case 5:
		long_addr(d, S.p.short_addr == 2 ? 1 : 2);
		break;
	case 1:
		long_addr(d, VLC_MAC_BCAST);
		break;
	case 2:
		memcpy(d, full, 6);
		break;
	case 3:
		memcpy(d, mcast, 6);
		break;
	default:
		long_addr(d, S.p.short_addr);
	}
	if (sel & 8)
		memcpy(d + 6, full, 6);
	else
		long_addr(d + 6, S.p.short_addr);
	d[12] = types[(sel >> 4) & 3] >> 8;
	d[13] = types[(sel >> 4) & 3] & 0xff;
	for (i = 14; i < sizeof(d); i++)
		d[i] = fill + i;

	if (len <= VLC_MAC_ETH_HLEN || len > VLC_MAC_FRAME_MAX)
		want = -EINVAL;
	else if (S.qcount == VLC_MAC_TXQ_LEN)
		want = -ENOSPC;
	else
		want = 0;
	if (!want) {
		/* tx_done may come from inside vlc_mac_xmit() one day */
		struct pkt *k = &S.q[(S.qhead + S.qcount) % VLC_MAC_TXQ_LEN];

		k->len = len;
		memcpy(k->data, d, len);
		S.qcount++;
		S.accepted++;
	}
	ret = vlc_mac_xmit(&S.mac, d, len);
	FZ_CHECK(ret == want, "xmit of %u bytes: %d, expected %d", len, ret,
		 want);
}

static void op_param(struct fz *f)
{
	struct vlc_mac_params p = S.p;
	enum vlc_refusal why = VLC_REFUSE_NONE;
	u8 which = fz_u8(f) % 13;
	u16 v = fz_u16(f);
	int ret;

	switch (which) {
	case 0:
		p.short_addr = v;
		break;
	case 1:
		p.bits_per_symbol = v;
		break;
	case 2:
		p.frag_size = v;
		break;
	case 3:
		p.retry_limit = v;
		break;
	case 4:
		p.cw_min = v;
		break;
	case 5:
		p.cw_max = v;
		break;
	case 6:
		p.difs = v;
		break;
	case 7:
		p.sifs = v;
		break;
	case 8:
		p.ack_timeout = v;
		break;
	case 9:
		p.preamble = v;
		break;
	case 10:
		p.sync_deadband_ns = v * 16;
		break;
	case 11:
		p.beacon_interval = v;
		break;
	default:
		p.fec = v;
		break;
	}
	ret = vlc_mac_set_params(&S.mac, &p, &why);
	FZ_CHECK(ret == 0 || (ret == -EINVAL && why), "set_params %d", ret);
	if (ret)
		return;
	if (p.bits_per_symbol != S.p.bits_per_symbol)
		S.bits_at = S.frames;
	S.p = p;
}

static void op_template(struct fz *f)
{
	u8 fl = fz_u8(f);

	S.tmpl.carrier = fl & 1;
	S.tmpl.acquiring = fl & 2;
	S.tmpl.sync = (fl >> 2) & 3;
	S.coarse_once = fl & 0x10;
	S.tmpl.offset_ns = fl & 0x20 ? (s32)fz_u32(f) : (s8)fz_u8(f) * 500;
}

static void setup(struct fz *f)
{
	static const u8 addrs[4] = { 1, 2, 0, 254 };
	struct vlc_mac_params p;
	u8 b0 = fz_u8(f), b1 = fz_u8(f), b2 = fz_u8(f), b3 = fz_u8(f);

	memset(&S, 0, sizeof(S));
	vlc_mac_default_params(&p);
	p.bits_per_symbol = 1 + (b0 & 1);
	p.short_addr = addrs[(b0 >> 1) & 3];
	p.beacon_interval = b0 & 8 ? 64 : 0;
	p.retry_limit = b0 & 0x10 ? 1 : 7;
	if (b0 & 0x20) {
		p.cw_min = 1;
		p.cw_max = 4;
	}
	p.preamble = 2 + b1 % 31;
	p.sifs = 1 + (b2 & 3);
	p.difs = p.sifs + 1 + ((b2 >> 2) & 7);
	p.frag_size = VLC_MAC_FRAG_MIN + b3 % (VLC_MAC_FRAG_MAX -
					       VLC_MAC_FRAG_MIN + 1);
	/* FEC: off, auto, a fixed level, or auto without codecs */
	if ((b0 >> 6) == 1 || (b0 >> 6) == 3)
		p.fec = VLC_MAC_FEC_AUTO;
	else if ((b0 >> 6) == 2)
		p.fec = vlc_fec_parity(1 + (b2 >> 5) % (VLC_FEC_LEVELS - 1));
	FZ_CHECK(!vlc_mac_check_params(&p, NULL), "initial params refused");
	S.p = p;
	S.bits_at = 0;
	S.last_tx = VLC_SYM_IDLE;
	vlc_mac_init(&S.mac, &p, &ops, NULL);
	if (!vlc_fec_ready(&FEC))
		FZ_CHECK(!vlc_fec_init(&FEC) && !vlc_fec_init(&MAC_FEC),
			 "vlc_fec_init");
	S.codecs = (b0 >> 6) != 3;
	if (S.codecs)
		vlc_mac_set_fec(&S.mac, &MAC_FEC, &MAC_FEC, false);
}

int fz_one_input(const u8 *data, size_t size)
{
	struct fz f = { data, size };
	u32 i, n;

	setup(&f);
	/* a frame received at the very start would be unverifiable */
	S.frames = HIST;
	S.bits_at = 0;
	while (fz_left(&f) && S.frames < MAX_FRAMES) {
		switch (fz_u8(&f) % OP_COUNT) {
		case OP_REPORT:
			op_report(&f);
			break;
		case OP_IDLE:
			/* up to 240 frames, or 1024 to 16384 (expiry) */
			n = fz_u8(&f);
			n = n < 0xf0 ? n + 1 : (n - 0xef) * 1024;
			for (i = 0; i < n; i++)
				step_sym(VLC_SYM_IDLE, S.p.bits_per_symbol);
			break;
		case OP_DATA:
			op_data(&f);
			break;
		case OP_ACK:
			op_ack(&f);
			break;
		case OP_BEACON:
			op_beacon(&f);
			break;
		case OP_FRAME:
			op_frame(&f);
			break;
		case OP_XMIT:
			op_xmit(&f);
			break;
		case OP_WAIT:
			wait_quiet();
			n = fz_u8(&f);
			for (i = 0; i < n; i++)
				step_sym(VLC_SYM_IDLE, S.p.bits_per_symbol);
			break;
		case OP_PARAM:
			op_param(&f);
			break;
		case OP_FLUSH:
			S.run_cut = true;
			vlc_mac_flush(&S.mac);
			FZ_CHECK(!S.qcount, "flush left %u queued", S.qcount);
			break;
		case OP_TEMPLATE:
			op_template(&f);
			break;
		case OP_PACKET:
			op_packet(&f);
			break;
		case OP_CODED:
			op_coded(&f);
			break;
		}
	}
	if (fz_verbose())
		fprintf(stderr,
			"frames %u good %u ok %llu crc %llu delivered %llu tx_frames %llu acked %llu retries %llu dropped %llu beacons %llu/%llu phase %llu fec %llu/%llu/%llu lost_track %d\n",
			S.frames - HIST, S.ngood,
			(unsigned long long)S.mac.stats.rx_frames_ok,
			(unsigned long long)S.mac.stats.rx_crc_errors,
			(unsigned long long)S.mac.stats.rx_delivered,
			(unsigned long long)S.mac.stats.tx_frames,
			(unsigned long long)S.mac.stats.tx_acked,
			(unsigned long long)S.mac.stats.tx_retries,
			(unsigned long long)S.mac.stats.tx_dropped,
			(unsigned long long)S.mac.stats.rx_beacons,
			(unsigned long long)S.mac.stats.tx_beacons,
			(unsigned long long)S.mac.stats.phase_corrections,
			(unsigned long long)S.mac.stats.fec_tx_frames,
			(unsigned long long)S.mac.stats.fec_corrected_frames,
			(unsigned long long)S.mac.stats.fec_uncorrectable,
			S.lost_track);
	S.run_cut = true;
	vlc_mac_flush(&S.mac);
	FZ_CHECK(S.accepted == S.done, "%u accepted, %u tx_done", S.accepted,
		 S.done);
	return 0;
}
