// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: parameter checks of the MAC and the PHY, and what
 * accepted parameters do.
 *
 * The input is a struct vlc_mac_params, a PHY timing, mode and
 * brightness, all fields raw, then a packet length, a frame count and
 * run options. Checked (abort on violation):
 *  - vlc_mac_check_params() accepts exactly the ranges documented in
 *    vlc_mac.h (a reference check written from that text); a refusal
 *    says -EINVAL and names a field it violates ("field: ...");
 *  - the PHY's timing and brightness checks accept exactly the rules of
 *    vlc_phy.h and vlc_phy.c's brightness range; a refusal names, first
 *    thing, a field that vlc_nl.c can point at as the bad attribute;
 *  - accepted MAC parameters: two MACs (the second with another
 *    address) on a clean channel carry a unicast and a broadcast packet
 *    byte-exact, once each, acknowledged, within the frames the
 *    parameters' own airtime allows;
 *  - accepted PHY settings: two PHYs on a noiseless channel run the
 *    frames asked (ticks in the future, one report per frame), every
 *    frame lights the LED for exactly the brightness (or the data slot
 *    when that is longer), a symbol decided in a frame the node did not
 *    emit in is a slot that a data pulse of the other node lit. Run
 *    options: bit 0 the acquisition search, bit 1 no ambient light,
 *    bit 2 the MAC's resync, bit 3 the backend's smallest signal set
 *    (vlc_phy_set_rx_min_level(), the acquisition's noise floor).
 */

#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/bits.h>

#include "vlc_mac.h"
#include "vlc_phy.h"
#include "vlc_hsim.h"
#include "fuzz.h"

/* ---- MAC ---- */

enum {
	F_SHORT_ADDR, F_BITS, F_FRAG, F_RETRY, F_CW_MIN, F_CW_MAX, F_DIFS,
	F_SIFS, F_ACK, F_PREAMBLE, F_DEADBAND, F_BEACON, F_LOC, F_RTS,
	F_MAX_AGE, F_MAC_COUNT
};

static const char *const mac_fields[F_MAC_COUNT] = {
	"short_addr", "bits_per_symbol", "frag-size", "retry-limit",
	"cw-min", "cw-max", "difs", "sifs", "ack_timeout", "preamble",
	"sync_deadband_ns", "beacon-interval", "loc-interval", "rts-threshold",
	"max-age",
};

/* The ranges of the kernel-doc of struct vlc_mac_params; ack_timeout's
 * are not written there (see the report of this target): a timeout that
 * cannot see the ACK, and more than 4096 frames, are refused.
 */
static u32 mac_ref(const struct vlc_mac_params *p)
{
	u32 bad = 0, ack_syms;

	if (p->short_addr > 254)
		bad |= BIT(F_SHORT_ADDR);
	if (p->bits_per_symbol != 1 && p->bits_per_symbol != 2)
		bad |= BIT(F_BITS);
	if (p->frag_size < VLC_MAC_FRAG_MIN || p->frag_size > VLC_MAC_FRAG_MAX)
		bad |= BIT(F_FRAG);
	if (p->retry_limit > 15)
		bad |= BIT(F_RETRY);
	if (p->cw_min < 1 || p->cw_min > p->cw_max)
		bad |= BIT(F_CW_MIN);
	if (p->cw_max > 1024 || p->cw_max < 1)
		bad |= BIT(F_CW_MAX);
	if (p->difs <= p->sifs || p->difs > 64)
		bad |= BIT(F_DIFS);
	if (p->sifs < 1 || p->sifs > 15)
		bad |= BIT(F_SIFS);
	if (p->preamble < 2 || p->preamble > VLC_MAC_PREAMBLE_MAX)
		bad |= BIT(F_PREAMBLE);
	if (p->sync_deadband_ns > 1000000)
		bad |= BIT(F_DEADBAND);
	if (p->beacon_interval && p->beacon_interval < 64)
		bad |= BIT(F_BEACON);
	if (p->loc_interval && p->loc_interval < 64)
		bad |= BIT(F_LOC);
	if (p->rts_threshold > VLC_MAC_FRAME_MAX)
		bad |= BIT(F_RTS);
	if (p->max_age && p->max_age < 64)
		bad |= BIT(F_MAX_AGE);
	/* SFD, type, dst, tx, seq/frag, CRC: 7 bytes after the preamble */
	if (!(bad & (BIT(F_BITS) | BIT(F_PREAMBLE)))) {
		ack_syms = p->preamble + 7 * 8 / p->bits_per_symbol;
		if (p->ack_timeout &&
		    (p->ack_timeout < p->sifs + ack_syms ||
		     p->ack_timeout > 4096))
			bad |= BIT(F_ACK);
	} else if (p->ack_timeout > 4096) {
		bad |= BIT(F_ACK);
	}
	return bad;
}

/* The field a message names, "field: ...", or -1. */
static int mac_named(const char *why)
{
	size_t l;
	int i;

	for (i = 0; i < F_MAC_COUNT; i++) {
		l = strlen(mac_fields[i]);
		if (!strncmp(why, mac_fields[i], l) && why[l] == ':')
			return i;
	}
	return -1;
}

/* Two MACs on a clean channel, frame by frame. */
struct end {
	struct vlc_mac mac;
	u32 delivered, done_ok, done_bad;
	u8 last[VLC_MAC_FRAME_MAX];
	u32 last_len;
	const u8 *want[2];
	u32 want_len[2];
	u32 got[2];
};

static struct {
	struct end e[2];
	struct vlc_hsim ch;
	u8 pkt[2][VLC_MAC_FRAME_MAX];
	/* PHY run */
	struct vlc_phy_timing t;
	enum vlc_phy_mode mode;
	u32 bright;
	u32 reports[VLC_HSIM_NODES];
	u32 frames_checked;
	u32 decided;
	u64 fstart[VLC_HSIM_NODES][VLC_HSIM_SENT];
	bool resync;
	bool min_level;	/* run option bit 3 */
} S;

static void m_deliver(void *ctx, const u8 *frame, unsigned int len)
{
	struct end *e = ctx;
	int i;

	for (i = 0; i < 2; i++) {
		if (e->want[i] && len == e->want_len[i] &&
		    !memcmp(frame, e->want[i], len)) {
			FZ_CHECK(!e->got[i]++, "packet %d delivered twice", i);
			return;
		}
	}
	FZ_CHECK(0, "delivered %u bytes nobody sent", len);
}

static void m_tx_done(void *ctx, unsigned int len, bool ok)
{
	struct end *e = ctx;

	if (ok)
		e->done_ok++;
	else
		e->done_bad++;
}

static const struct vlc_mac_ops m_ops = {
	.deliver = m_deliver,
	.tx_done = m_tx_done,
};

static void mac_frame(u32 bits)
{
	int s[2], i;

	for (i = 0; i < 2; i++) {
		s[i] = vlc_mac_tx_symbol(&S.e[i].mac);
		FZ_CHECK(s[i] == VLC_SYM_IDLE ||
			 (s[i] >= 0 && s[i] < 1 << bits),
			 "emitted %d with %u bits", s[i], bits);
	}
	for (i = 0; i < 2; i++) {
		struct vlc_phy_rx rx = {
			.sym = s[!i],
			.bits = bits,
			.carrier = s[!i] >= 0,
			.sync = VLC_PHY_SYNC_IN,
		};

		if (s[i] >= 0)
			rx.flags = VLC_PHY_RX_OWN_TX;
		vlc_mac_rx_frame(&S.e[i].mac, &rx);
	}
}

/* Frames a packet of @len may take with parameters @p and no loss. */
static u32 mac_budget(const struct vlc_mac_params *p, u32 len)
{
	u32 nfrag = (len + p->frag_size - 1) / p->frag_size;
	u32 ack = vlc_mac_frame_symbols(p, 7);
	u32 data = vlc_mac_frame_symbols(p, 1 + VLC_MAC_HDR_MAX +
					 p->frag_size + 2);

	/* RTS and CTS (8 bytes each), if used */
	u32 rts = 2 * (vlc_mac_frame_symbols(p, 8) + p->sifs);
	u32 n = p->difs + p->cw_max + 4 + rts +
		nfrag * (data + 2 * p->sifs + ack + 4);

	/* location beacons due meanwhile: each may take a turn and make
	 * the packet contend again
	 */
	if (p->loc_interval)
		n += (n / p->loc_interval + 2) *
		     (vlc_mac_frame_symbols(p, 5) + p->sifs + p->difs +
		      p->cw_max + 4);
	return n;
}

static void mac_run(const struct vlc_mac_params *p, struct fz *f)
{
	struct vlc_mac_params q = *p;
	u32 len = min(15 + fz_u8(f) * 6U, (u32)VLC_MAC_FRAME_MAX), i, n;
	u32 blen = 15 + fz_u8(f) % 64;
	u8 et = fz_u8(f);
	struct end *a = &S.e[0], *b = &S.e[1];
	struct vlc_mac_params pa = *p;

	/* Delivery of both within the budget is checked below: a max_age
	 * shorter than that may rightly drop them, so it is left out then.
	 */
	n = mac_budget(p, len) + mac_budget(p, blen);
	if (pa.max_age < n)
		pa.max_age = 0;
	q.max_age = pa.max_age;
	/* B only answers: no beacon of its own to collide with A's data */
	q.short_addr = p->short_addr == 254 ? 0 : p->short_addr + 1;
	q.beacon_interval = 0;
	q.loc_interval = 0;
	vlc_mac_init(&a->mac, &pa, &m_ops, a);
	vlc_mac_init(&b->mac, &q, &m_ops, b);

	/* unicast A -> B, then a broadcast */
	memset(S.pkt, 0, sizeof(S.pkt));
	memcpy(S.pkt[0], "\x02\x56\x4c\x43\x00", 5);
	S.pkt[0][5] = q.short_addr;
	memcpy(S.pkt[0] + 6, "\x02\x56\x4c\x43\x00", 5);
	S.pkt[0][11] = p->short_addr;
	S.pkt[0][12] = et & 1 ? 0x88 : 0x08;
	S.pkt[0][13] = et & 1 ? 0xb5 : 0x00;
	for (i = 14; i < len; i++)
		S.pkt[0][i] = i * 7 + et;
	memcpy(S.pkt[1], S.pkt[0], VLC_MAC_FRAME_MAX);
	memset(S.pkt[1], 0xff, 6);
	b->want[0] = S.pkt[0];
	b->want_len[0] = len;
	b->want[1] = S.pkt[1];
	b->want_len[1] = blen;
	FZ_CHECK(!vlc_mac_xmit(&a->mac, S.pkt[0], len), "xmit refused");
	FZ_CHECK(!vlc_mac_xmit(&a->mac, S.pkt[1], blen), "xmit refused");

	for (i = 0; i < n && a->done_ok + a->done_bad < 2; i++)
		mac_frame(p->bits_per_symbol);
	FZ_CHECK(a->done_ok == 2 && !a->done_bad,
		 "%u ok, %u dropped after %u frames (budget %u; %u and %u bytes, frag %u, loc %u, rts %u, beacons %llu)",
		 a->done_ok, a->done_bad, i, n, len, blen, p->frag_size,
		 p->loc_interval, p->rts_threshold,
		 (unsigned long long)a->mac.stats.tx_beacons);
	/* the last fragment of the broadcast reaches B with its last symbol */
	FZ_CHECK(b->got[0] == 1 && b->got[1] == 1, "B got %u and %u",
		 b->got[0], b->got[1]);
	FZ_CHECK(!a->mac.stats.tx_retries && !b->mac.stats.rx_crc_errors &&
		 !b->mac.stats.rx_dup, "retries %llu, crc errors %llu",
		 (unsigned long long)a->mac.stats.tx_retries,
		 (unsigned long long)b->mac.stats.rx_crc_errors);
	if (fz_verbose())
		fprintf(stderr, "mac: %u + %u bytes in %u frames (budget %u)\n",
			len, blen, i, n);
	vlc_mac_flush(&a->mac);
	vlc_mac_flush(&b->mac);
}

/* ---- PHY ---- */

#define FRAMES_KEPT	VLC_HSIM_SENT	/* the host simulator's memory of symbols */

enum {
	P_MODE, P_SYNC, P_GUARD, P_DATA, P_FRAME, P_TOL, P_BRIGHT, P_COUNT
};

/* The attributes vlc_nl.c names from a message's first word. */
static const char *const phy_fields[P_COUNT] = {
	"modulation", "sync-us", "guard-us", "data-us", "frame-us",
	"tolerance-us", "brightness",
};

/* From vlc_phy.h: the measured part (S1, guards, data slots, S2, see the
 * drawing) must fit in frame_ns <= VLC_PHY_FRAME_NS_MAX, no slot may be
 * shorter than VLC_PHY_SLOT_NS_MIN, the guards absorb tolerance_ns, and
 * brightness may neither
 * exceed what the illumination part alone can light nor fall below one
 * data slot (vlc_phy_brightness_range).
 */
static u32 phy_ref(const struct vlc_phy_timing *t, u32 mode, u32 bright)
{
	u64 n = mode == VLC_PHY_MODE_4PPM ? 4 : 2, dark;
	u32 bad = 0;

	if (mode != VLC_PHY_MODE_2SLOT && mode != VLC_PHY_MODE_4PPM)
		return BIT(P_MODE);
	if (t->sync_ns < VLC_PHY_SLOT_NS_MIN)
		bad |= BIT(P_SYNC);
	if (t->guard_ns < VLC_PHY_SLOT_NS_MIN)
		bad |= BIT(P_GUARD);
	if (t->data_ns < VLC_PHY_SLOT_NS_MIN)
		bad |= BIT(P_DATA);
	if (t->frame_ns < VLC_PHY_FRAME_NS_MIN ||
	    t->frame_ns > VLC_PHY_FRAME_NS_MAX)
		bad |= BIT(P_FRAME);
	if (t->guard_ns < t->tolerance_ns)
		bad |= BIT(P_GUARD) | BIT(P_TOL);
	dark = 2 * (u64)t->sync_ns + (n + 1) * t->guard_ns + n * t->data_ns;
	if (t->frame_ns && dark > t->frame_ns)
		bad |= BIT(P_FRAME) | BIT(P_SYNC) | BIT(P_GUARD) | BIT(P_DATA);
	if (!bad && ((u64)bright * t->frame_ns > (t->frame_ns - dark) * 1000 ||
		     (u64)bright * t->frame_ns < (u64)t->data_ns * 1000))
		bad |= BIT(P_BRIGHT);
	return bad;
}

static int phy_named(const char *why)
{
	size_t l;
	int i;

	for (i = 0; i < P_COUNT; i++) {
		l = strlen(phy_fields[i]);
		if (!strncmp(why, phy_fields[i], l) &&
		    (why[l] == ' ' || why[l] == ':'))
			return i;
	}
	return -1;
}

static void p_on_frame(struct vlc_hsim *ch, struct vlc_hsim_node *n, int sym,
		       u64 on_ns, u64 len_ns)
{
	u64 target = (u64)S.bright * S.t.frame_ns / 1000;

	S.fstart[n->idx][n->tx_frames % FRAMES_KEPT] =
		vlc_phy_frame_start(&n->phy);
	if (!len_ns)
		return;		/* the first call: no frame yet */
	/* a phase correction stretches or shrinks the dark ID part only */
	FZ_CHECK(S.resync ? len_ns < 2 * (u64)S.t.frame_ns :
		 len_ns == S.t.frame_ns, "node %d: frame of %llu ns", n->idx,
		 (unsigned long long)len_ns);
	if (sym >= 0 && S.t.data_ns > target)
		target = S.t.data_ns;
	FZ_CHECK(on_ns == target, "node %d: lit %llu ns, want %llu (sym %d)",
		 n->idx, (unsigned long long)on_ns,
		 (unsigned long long)target, sym);
	S.frames_checked++;
}

/* Start of data slot @i in a frame: S1 G D1 G D2 ... (vlc_phy.h). */
static u64 data_slot(int i)
{
	return S.t.sync_ns + S.t.guard_ns +
	       (u64)i * (S.t.data_ns + S.t.guard_ns);
}

/* A decided symbol must be a slot that a data pulse of the other node
 * lit: its frame starts and symbols are recorded as they begin (the data
 * slots sit at fixed places in a frame; a phase correction only changes
 * the dark ID part). Frames where the node emitted itself do not count:
 * half duplex, the MAC drops them.
 */
static void p_on_rx(struct vlc_hsim *ch, struct vlc_hsim_node *n,
		    const struct vlc_phy_rx *rx)
{
	const struct vlc_hsim_node *r = &ch->node[!n->idx];
	u32 bits = vlc_phy_bits(S.mode), k = n->rx_frames, j;
	u64 a, b, fs = vlc_phy_frame_start(&n->phy);

	S.reports[n->idx]++;
	FZ_CHECK(rx->bits == bits && !rx->skipped &&
		 !(rx->flags & (VLC_PHY_RX_LATE | VLC_PHY_RX_OVERRUN)),
		 "bits %u, skipped %u, flags %#x", rx->bits, rx->skipped,
		 rx->flags);
	FZ_CHECK(rx->sym == VLC_SYM_IDLE || rx->sym == VLC_SYM_ERASURE ||
		 (rx->sym >= 0 && rx->sym < 1 << bits), "symbol %d", rx->sym);
	if (rx->sym < 0 || (rx->flags & VLC_PHY_RX_OWN_TX))
		return;
	S.decided++;
	a = fs + data_slot(rx->sym);
	b = a + S.t.data_ns;
	for (j = r->tx_frames > FRAMES_KEPT ? r->tx_frames - FRAMES_KEPT : 0;
	     j < r->tx_frames; j++) {
		int sent = r->sent[j % VLC_HSIM_SENT];
		u64 c = S.fstart[r->idx][j % FRAMES_KEPT];

		if (sent < 0)
			continue;
		c += data_slot(sent);
		if (c < b && c + S.t.data_ns > a)
			return;
	}
	/* known: a neighbour's illumination still passes for data now and
	 * then, after a lock on a wrong offset (K4, crashes/params-k4-*)
	 */
	if (FZ_AVOID(vlc_hsim_lit_ns(r, a, b) > 0))
		return;
	FZ_CHECK(0, "node %d frame %u: decided %d, no data pulse there (offset %d, sync %d)",
		 n->idx, k, rx->sym, rx->offset_ns, rx->sync);
}

static void phy_run(struct fz *f)
{
	struct vlc_hsim *ch = &S.ch;
	u8 opt = fz_u8(f);
	bool search = opt & 1;

	S.resync = opt & 4;
	S.min_level = opt & 8;
	u32 frames = search ? 8 + fz_u8(f) % 41 : 8 + fz_u8(f), i, steps;
	u64 off = (u64)fz_u32(f) % S.t.frame_ns;

	vlc_hsim_init(ch, 1);
	ch->on_frame = p_on_frame;
	ch->on_rx = p_on_rx;
	ch->gain[0][1] = 10000;
	ch->gain[1][0] = 10000;
	ch->ambient = opt & 2 ? 0 : 50000;
	for (i = 0; i < 2; i++) {
		struct vlc_hsim_node *n = &ch->node[i];

		FZ_CHECK(!vlc_phy_set_config(&n->phy, &S.t, S.mode, S.bright,
					     NULL), "accepted, then refused");
		/* as a backend tells its scale: a tenth of a lit LED */
		if (S.min_level)
			vlc_phy_set_rx_min_level(&n->phy, 1000);
		n->tx = VLC_HSIM_TX_RANDOM;
		n->idle_per256 = i ? 64 : 224;
		n->ref = !i;
		n->resync = S.resync ? VLC_HSIM_RESYNC_MAC :
				       VLC_HSIM_RESYNC_OFF;
	}
	vlc_hsim_start(ch, 0, 1000);
	vlc_hsim_start(ch, 1, 1000 + off);
	if (!search) {
		/* deferred, and nobody searches: the cheap path */
		vlc_phy_set_acq_defer(&ch->node[0].phy, true);
		vlc_phy_set_acq_defer(&ch->node[1].phy, true);
	}
	for (steps = 0; S.reports[0] < frames; steps++) {
		u64 now;

		FZ_CHECK(steps < (frames + 2) * 2 * 2 * VLC_PHY_MAX_SLOTS,
			 "%u reports in %u ticks", S.reports[0], steps);
		vlc_hsim_step(ch);
		now = ch->now;
		FZ_CHECK(vlc_phy_next_ns(&ch->node[0].phy) >= now &&
			 vlc_phy_next_ns(&ch->node[1].phy) >= now,
			 "a boundary in the past");
	}
	if (fz_verbose())
		fprintf(stderr,
			"phy: %u frames, %u on-times checked, locks %llu/%llu, %u decided\n",
			frames, S.frames_checked,
			(unsigned long long)ch->node[0].phy.stats.acq_locks,
			(unsigned long long)ch->node[1].phy.stats.acq_locks,
			S.decided);
}

int fz_one_input(const u8 *data, size_t size)
{
	struct fz f = { data, size };
	struct vlc_mac_params p = {};
	enum vlc_refusal why = VLC_REFUSE_COUNT;
	u32 bad, bmin, bmax;
	int ret, ret2, named;

	memset(&S, 0, sizeof(S));
	p.short_addr = fz_u8(&f);
	p.bits_per_symbol = fz_u8(&f);
	p.frag_size = fz_u16(&f);
	p.retry_limit = fz_u8(&f);
	p.cw_min = fz_u16(&f);
	p.cw_max = fz_u16(&f);
	p.difs = fz_u8(&f);
	p.sifs = fz_u8(&f);
	p.ack_timeout = fz_u16(&f);
	p.preamble = fz_u8(&f);
	p.sync_deadband_ns = fz_u32(&f);
	p.beacon_interval = fz_u16(&f);
	S.t.sync_ns = fz_u32(&f);
	S.t.guard_ns = fz_u32(&f);
	S.t.data_ns = fz_u32(&f);
	S.t.frame_ns = fz_u32(&f);
	S.t.tolerance_ns = fz_u32(&f);
	S.mode = fz_u8(&f);
	S.bright = fz_u32(&f);
	/* later fields last, so that older inputs keep their meaning */
	p.loc_interval = fz_u16(&f);
	p.rts_threshold = fz_u16(&f);
	p.max_age = fz_u16(&f);

	/* MAC */
	bad = mac_ref(&p);
	ret = vlc_mac_check_params(&p, &why);
	ret2 = vlc_mac_check_params(&p, NULL);
	FZ_CHECK(ret == ret2, "why changes the verdict");
	FZ_CHECK(!ret == !bad, "MAC check %d, documented ranges %#x", ret,
		 bad);
	if (ret) {
		FZ_CHECK(ret == -EINVAL && vlc_refusal_msg(why),
			 "refused with %d, %d", ret, (int)why);
		named = mac_named(vlc_refusal_msg(why));
		FZ_CHECK(named >= 0 && (bad & BIT(named)),
			 "MAC message \"%s\", bad fields %#x",
			 vlc_refusal_msg(why), bad);
	} else {
		FZ_CHECK(!why, "accepted with refusal %d", (int)why);
	}

	/* PHY */
	why = VLC_REFUSE_COUNT;
	bad = phy_ref(&S.t, S.mode, S.bright);
	ret = vlc_phy_timing_check(&S.t, S.mode, &why);
	FZ_CHECK(!ret == !(bad & ~BIT(P_BRIGHT)), "timing %d, rules %#x", ret,
		 bad);
	FZ_CHECK(!ret == !why, "timing %d with refusal %d", ret, (int)why);
	ret2 = vlc_phy_brightness_range(&S.t, S.mode, &bmin, &bmax);
	FZ_CHECK(!ret == !ret2, "range %d, timing check %d", ret2, ret);
	if (!ret)
		FZ_CHECK(bmax <= VLC_PHY_BRIGHTNESS_MAX,
			 "brightness max %u", bmax);
	why = VLC_REFUSE_COUNT;
	{
		struct vlc_phy phy;

		vlc_phy_init(&phy, NULL, NULL, NULL, NULL);
		ret = vlc_phy_set_config(&phy, &S.t, S.mode, S.bright, &why);
	}
	FZ_CHECK(!ret == !bad, "set_config %d, rules %#x", ret, bad);
	if (ret) {
		FZ_CHECK(ret == -EINVAL && vlc_refusal_msg(why),
			 "refused with %d, %d", ret, (int)why);
		named = phy_named(vlc_refusal_msg(why));
		FZ_CHECK(named >= 0 && (bad & BIT(named)),
			 "PHY message \"%s\", bad fields %#x",
			 vlc_refusal_msg(why), bad);
	}

	/* what accepted ones do */
	if (!vlc_mac_check_params(&p, NULL))
		mac_run(&p, &f);
	if (!bad)
		phy_run(&f);
	return 0;
}
