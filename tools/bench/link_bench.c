// SPDX-License-Identifier: GPL-2.0
/* Host benchmarks of a two-node link: the PHY core on the host simulator
 * of the tests (drivers/net/vlc/tests/vlc_hsim.c), in virtual time,
 * with clock skew and timer lateness that the host simulator itself does
 * not apply. Seeded and deterministic.
 *
 *   link_bench lock SEED0 RUNS MAXFRAMES DEFER
 *	RUNS cold starts (seeds SEED0..): node 0 runs, node 1 starts at a
 *	random point of node 0's frame; both PHYs are driven by the real
 *	MAC (vlc_sync.c: its resync loop moves the grids). One line a run:
 *	"seed offset_ns frames" (frames: node 1's frames from its start to
 *	the lock, MAXFRAMES + 1 if none). DEFER: ticks a deferred search
 *	takes (0: in the tick, as under vlc_sim; 26: as the kernel's
 *	executors run it, a worker answering about a frame later).
 *   link_bench skew PPM SEED FRAMES
 *	The same start, node 1's clock PPM (parts per million, signed) fast
 *	against node 0's; once both PHYs are fine-locked (32 frames in a row,
 *	the grids anywhere), FRAMES more frames. Prints "ppm seed
 *	lock_frames frames carrier_losses unlocks settle_ns offset_ns": the
 *	largest true offset between the grids in the first SKEW_SETTLE
 *	frames after the lock and after them. A carrier loss, or an offset
 *	over SKEW_SLIP after them, ends the run (frames then says when).
 *   link_bench ber MODE FRAME_NS JITTER FRAMES SEED
 *	Node 0 sends random symbols to node 1 (MODE 2slot or 4ppm), all
 *	slots scaled with FRAME_NS, every callback of both nodes late by a
 *	draw from JITTER. Prints "frame_ns symbols wrong erased missed
 *	late_callbacks".
 *
 *   link_bench floss MODE SNR_DB PACKETS SEED
 *	The lock's two nodes, PHY and MAC, without ambient light and with
 *	SNR_DB on a data slot (phy_bench ber's channel); once locked,
 *	node 0 sends PACKETS 98-byte pings (one DATA frame of 744 symbols
 *	in 2-slot mode) to node 1, back to back.
 *	Prints "snr_db data_frames data_ok hard_ok hard_crc crc truncated
 *	erasure_aborts no_delimiter delivered lock_frames": DATA frames
 *	node 0 put on air, and what node 1's MAC made of its frames.
 *
 *   link_bench simser AMBIENT NOISE FRAMES SEED
 *	The lock's two nodes, PHY and MAC, on vlc_sim's medium: each sees
 *	the other at 1000 (a lit LED at full gain), AMBIENT, rx_min_level
 *	100, the search in the tick. Locked at vlc_sim's default noise,
 *	the noise is raised to NOISE; then node 0's MAC sends group frames
 *	of random bytes, back to back, for FRAMES frames, and each symbol it
 *	sent is paired with node 1's decision of the same frame (frames node
 *	1 sent in are left out), as tools/bench/ser-sim.sh does with the
 *	driver in the QEMU guest. Prints "snr_db symbols errors".
 *
 *   link_bench range RX GAIN PACKETS SEED
 *	The lock's two nodes, PHY and MAC, on vlc_sim's medium at its
 *	defaults (ambient 2000, no flicker, noise 10, the search in the
 *	tick), each seeing the other's lit LED at GAIN (1000: full gain)
 *	and sensing with RX: "pd", a photodiode (rx_min_level 100); "led",
 *	its own LED, as vlc_sim's led receiver; "led2", a second LED beside
 *	the TX LED, sensing as the light model's LED does but never blind
 *	(both rx_min_level 12, as vlc_sim sets it for an LED). Once locked,
 *	node 0 sends PACKETS pings as floss does. Prints "rx gain
 *	lock_frames data_frames data_ok delivered through offset_ns":
 *	lock_frames 20001 if no lock within 20000 frames (and nothing
 *	sent), through 0 if the pings did not all get through node 0's MAC
 *	(delivered or given up) within 4000 frames each, offset_ns the
 *	largest offset between the two grids meanwhile (every 64 frames).
 *
 *   link_bench goodput ...
 *	UDP goodput under lateness: link_bench_goodput.c.
 *
 * JITTER: "none", "const:NS" (every callback of node 0 late by NS, node
 * 1 on time and not correcting: a steady offset the guards must absorb),
 * "unif:NS" (every callback of both nodes late by a uniform draw in
 * [0, NS]), "model:M:P:T" (every callback of both nodes: exponential
 * with mean M ns, except with probability P per million callbacks uniform
 * in [0, T] ns) or "burst:M:P:T:L" (the model, but its tail event starts
 * a run of L ns in which every callback of that node is late by a
 * uniform draw in [0, T] ns: a busy SD card or USB interrupt holding
 * the CPU, not one late callback).
 *
 * "Lock": both PHYs fine-locked (deciding symbols) with their grids
 * within 5 us (guard / 4) of each other, and staying so for 32 frames.
 * "Carrier": what vlc_dev.c reports, a frame whose rx->sync is not
 * VLC_PHY_SYNC_NONE; a carrier loss is a frame without it once locked.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link_bench.h"

static u32 lb_offset_max;	/* pings(): largest grid offset seen, ns */

static int lock(int argc, char **argv)
{
	u64 seed0 = strtoull(argv[2], NULL, 0);
	u32 runs = atoi(argv[3]), max = atoi(argv[4]), defer = atoi(argv[5]);
	u32 r, off;

	for (r = 0; r < runs; r++) {
		if (mac_pair(seed0 + r, 0, defer, &off))
			return 1;
		printf("%llu %u %u\n", (unsigned long long)(seed0 + r), off,
		       mac_lock(max, LOCK_TOL));
	}
	return 0;
}

static int skew(int argc, char **argv)
{
	s32 ppm = atoi(argv[2]);
	u64 seed = strtoull(argv[3], NULL, 0);
	u32 frames = atoi(argv[4]), at, off, start, lost0 = 0, i;
	s32 worst[2] = { 0, 0 };

	if (mac_pair(seed, ppm, 26, &off))
		return 1;
	/* fine-locked, wherever the grids are: the skew shows as offset */
	at = mac_lock(4000, S32_MAX);
	if (at > 4000) {
		printf("%d %llu %u 0 -1 -1 -1 -1\n", ppm,
		       (unsigned long long)seed, at);
		return 0;
	}
	for (i = 0; i < 2; i++) {
		ln[i].counting = true;
		lost0 += ch.node[i].phy.stats.acq_lost;
	}
	start = ln[1].frames;
	while (ln[1].frames - start < frames) {
		bool settled = ln[1].frames - start >= SKEW_SETTLE;
		s32 d;

		lb_run_frames(1, frames1);
		d = vlc_hsim_offset(&ch, 0, 1);
		if (d < 0)
			d = -d;
		if (d > worst[settled])
			worst[settled] = d;
		/* a loss or a slip ends the run: acquisition is a thousand
		 * times dearer to simulate than a locked link
		 */
		if (ln[0].carrier_losses || ln[1].carrier_losses ||
		    worst[1] > SKEW_SLIP)
			break;
	}
	printf("%d %llu %u %u %u %llu %d %d\n", ppm, (unsigned long long)seed,
	       at, ln[1].frames - start,
	       ln[0].carrier_losses + ln[1].carrier_losses,
	       (unsigned long long)(ch.node[0].phy.stats.acq_lost +
				    ch.node[1].phy.stats.acq_lost - lost0),
	       worst[0], worst[1]);
	return 0;
}

/* ---- symbol errors under lateness, PHY level ----------------------- */

static u32 rx_frames1(void)
{
	return ch.node[1].rx_frames;
}

/* Symbols are scored by time, not by count: node 0 never moves its grid,
 * so its frame k starts at T0 + k * frame_ns (a callback late by more
 * than a frame skips whole frames: a count would lose step), and node
 * 1's report goes with the frame of node 0 that starts nearest to its own
 * frame (a grid that slipped a whole frame still decodes, as a MAC would
 * see it).
 */
#define BER_RING	64

static struct {
	bool on;
	u32 txf;		/* node 0's tx_frames last seen */
	u64 k[BER_RING];	/* frame index of each entry */
	int sym[BER_RING];
	u32 symbols, wrong, erased, missed;
} sc;

static u64 ber_frame(u64 t)
{
	u64 fns = ch.node[0].phy.timing.frame_ns;

	return t + fns / 2 < T0 ? U64_MAX : (t + fns / 2 - T0) / fns;
}

/* After each tick of node 0: the symbol of the frame it just began. */
static void ber_tx(void)
{
	const struct vlc_hsim_node *t = &ch.node[0];
	u64 k;

	if (t->tx_frames == sc.txf)
		return;
	sc.txf = t->tx_frames;
	k = ber_frame(t->fr_start);
	sc.k[k % BER_RING] = k;
	sc.sym[k % BER_RING] = t->sent[(t->tx_frames - 1) % VLC_HSIM_SENT];
}

static void ber_rx(struct vlc_hsim *c, struct vlc_hsim_node *n,
		   const struct vlc_phy_rx *rx)
{
	u64 k = ber_frame(vlc_phy_frame_start(&n->phy));
	int sent;

	if (!sc.on || n->idx != 1 || sc.k[k % BER_RING] != k)
		return;
	sent = sc.sym[k % BER_RING];
	if (sent < 0)
		return;
	sc.symbols++;
	if (rx->sym == VLC_SYM_ERASURE)
		sc.erased++;
	else if (rx->sym == VLC_SYM_IDLE)
		sc.missed++;
	else if (rx->sym != sent)
		sc.wrong++;
}

static int ber(int argc, char **argv)
{
	enum vlc_phy_mode mode = strcmp(argv[2], "4ppm") ?
		VLC_PHY_MODE_2SLOT : VLC_PHY_MODE_4PPM;
	u32 fns = atoi(argv[3]), frames = atoi(argv[5]);
	u64 seed = strtoull(argv[6], NULL, 0);
	struct vlc_phy_timing t = lb_timing(fns,
					    vlc_phy_default_timing.frame_ns,
					    0);
	enum vlc_refusal why;
	int i;

	if (jit_parse(argv[4]))
		return 2;
	vlc_hsim_init(&ch, seed);
	memset(ln, 0, sizeof(ln));
	jrng = seed ^ 0x1a7e;
	memset(&sc, 0, sizeof(sc));
	memset(sc.k, 0xff, sizeof(sc.k));
	/* one way, 0 to 1; ambient 5 SIG, SNR 100 on a default data slot
	 * (white noise: shorter slots are noisier)
	 */
	ch.gain[0][1] = SIG;
	ch.ambient = 5 * SIG;
	ch.noise = SIG / 100;
	ch.noise_ref_ns = vlc_phy_default_timing.data_ns;
	for (i = 0; i < 2; i++) {
		struct vlc_phy *phy = &ch.node[i].phy;

		ln[i].cn = &ch.node[i];
		if (vlc_phy_set_timing(phy, &t, &why) ||
		    vlc_phy_set_mode(phy, mode, &why)) {
			fprintf(stderr, "link_bench: %s\n",
				vlc_refusal_msg(why));
			return 1;
		}
		vlc_phy_set_rx_min_level(phy, SIG / 10);
	}
	ch.node[0].tx = VLC_HSIM_TX_RANDOM;
	ch.on_rx = ber_rx;
	lb_tick0 = ber_tx;
	/* a steady offset is what the guards absorb: do not correct it */
	ch.node[1].resync = jit.kind == JIT_CONST ? VLC_HSIM_RESYNC_OFF :
						    VLC_HSIM_RESYNC_MAC;
	vlc_hsim_start(&ch, 0, T0);
	vlc_hsim_start(&ch, 1, T0);
	lb_run_frames(256, rx_frames1);
	sc.on = true;
	ln[0].late_calls = 0;
	ln[1].late_calls = 0;
	ch.node[0].phy.stats.late = 0;
	ch.node[1].phy.stats.late = 0;
	lb_run_frames(frames, rx_frames1);
	printf("%u %u %u %u %u %llu\n", t.frame_ns, sc.symbols, sc.wrong,
	       sc.erased, sc.missed,
	       (unsigned long long)(ch.node[0].phy.stats.late +
				    ch.node[1].phy.stats.late));
	return 0;
}

/* ---- frame loss against SNR, with the MAC -------------------------- */

/* Node 0 sends @packets 98-byte pings to node 1, back to back, with the
 * MAC's counters of both nodes from zero (what the beacons of the lock
 * left behind is out). False if they are not all through node 0's MAC
 * (delivered, or given up) within @max frames of node 1. Notes the
 * largest offset between the grids, every 64 frames.
 */
static bool pings(u32 packets, u32 max)
{
	u32 queued = 0, start = ln[1].frames, i;
	u8 f[98];
	s32 d;

	memset(&ln[1].mac.stats, 0, sizeof(ln[1].mac.stats));
	memset(&ln[0].mac.stats, 0, sizeof(ln[0].mac.stats));
	lb_delivered = 0;
	lb_offset_max = 0;
	memset(f, 0, sizeof(f));
	memcpy(f, "\x02\x56\x4c\x43\x00\x02\x02\x56\x4c\x43\x00\x01"
	       "\x08\x00", 14);
	while (queued < packets || ln[0].mac.tx.q_count ||
	       ln[0].mac.tx.state != VLC_MAC_TX_IDLE) {
		if (ln[1].frames - start >= max)
			return false;
		while (queued < packets && !vlc_mac_tx_full(&ln[0].mac)) {
			for (i = 14; i < sizeof(f); i++)
				f[i] = (u8)(queued * 31 + i);
			vlc_mac_xmit(&ln[0].mac, f, sizeof(f));
			queued++;
		}
		lb_run_frames(64, frames1);
		d = vlc_hsim_offset(&ch, 0, 1);
		lb_offset_max = max_t(u32, lb_offset_max, d < 0 ? -d : d);
	}
	return true;
}

static int floss(int argc, char **argv)
{
	enum vlc_phy_mode mode = strcmp(argv[2], "4ppm") ?
		VLC_PHY_MODE_2SLOT : VLC_PHY_MODE_4PPM;
	double db = atof(argv[3]);
	u32 packets = atoi(argv[4]), at, off, i;
	u64 seed = strtoull(argv[5], NULL, 0), ok0 = 0;
	struct vlc_mac_params p;
	const struct vlc_mac_stats *s = &ln[1].mac.stats;

	lb_med.noise = (u32)(SIG / pow(10, db / 20));
	lb_med.ambient = 0;
	lb_med.flicker = 0;
	if (mac_pair(seed, 0, 26, &off))
		return 1;
	for (i = 0; i < 2; i++) {
		vlc_phy_set_mode(&ch.node[i].phy, mode, NULL);
		p = ln[i].mac.p;
		p.bits_per_symbol = mode == VLC_PHY_MODE_4PPM ? 2 : 1;
		vlc_mac_set_params(&ln[i].mac, &p, NULL);
	}
	at = mac_lock(20000, S32_MAX);
	if (at > 20000) {
		printf("%.1f 0 0 0 0 0 0 0 0 0 %u\n", db, at);
		return 0;
	}
	pings(packets, U32_MAX);
	ok0 = s->rx_frames_ok - s->rx_beacons;
	printf("%.1f %llu %llu %llu %llu %llu %llu %llu %llu %u %u\n", db,
	       (unsigned long long)ln[0].mac.stats.tx_fragments,
	       (unsigned long long)ok0,
	       (unsigned long long)s->rx_hard_frames_ok,
	       (unsigned long long)s->rx_hard_crc_errors,
	       (unsigned long long)s->rx_crc_errors,
	       (unsigned long long)s->rx_truncated,
	       (unsigned long long)s->rx_erasure_aborts,
	       (unsigned long long)s->rx_no_delimiter, lb_delivered, at);
	return 0;
}

/* ---- symbol errors on vlc_sim's medium, with the MAC --------------- */

#define SIM_FULL	1000U	/* vlc_sim: a lit LED at full gain reads this */
#define SIM_NOISE	10U	/* vlc_sim's default noise */
#define SIM_PAYLOAD	554	/* a 512-byte UDP datagram's Ethernet frame */

/* Per node, what each frame carried: its start, the symbol sent, the
 * symbol decided.
 */
static struct ser_log {
	u64 *start;
	int *tx, *rx;
	u32 n, max;
} slog[2];

static void ser_record(void *ctx, const struct vlc_phy_rx *rx)
{
	struct lnode *l = ctx;
	struct ser_log *g = &slog[l->cn->idx];

	if (g->n < g->max) {
		g->start[g->n] = vlc_phy_frame_start(&l->cn->phy);
		g->tx[g->n] = l->cn->phy.tx_sym;
		g->rx[g->n] = rx->sym;
		g->n++;
	}
	lb_rx_frame(ctx, rx);
}

static const struct vlc_phy_client_ops ser_client = {
	.tx_symbol = lb_tx_symbol,
	.rx_frame = ser_record,
};

static int simser(int argc, char **argv)
{
	u32 ambient = atoi(argv[2]), noise = atoi(argv[3]);
	u32 frames = atoi(argv[4]), i, j, symbols = 0, errors = 0, off;
	u64 seed = strtoull(argv[5], NULL, 0), half;
	u8 f[SIM_PAYLOAD];

	if (!noise || mac_pair(seed, 0, 0, &off))
		return 1;
	ch.gain[0][1] = SIM_FULL;
	ch.gain[1][0] = SIM_FULL;
	ch.ambient = ambient;
	ch.flicker100 = 0;
	ch.noise = SIM_NOISE;
	for (i = 0; i < 2; i++) {
		vlc_phy_set_rx_min_level(&ch.node[i].phy, SIM_FULL / 10);
		ch.node[i].phy.client = &ser_client;
		slog[i].max = frames + 1024;
		slog[i].start = calloc(slog[i].max, sizeof(u64));
		slog[i].tx = calloc(slog[i].max, sizeof(int));
		slog[i].rx = calloc(slog[i].max, sizeof(int));
		if (!slog[i].start || !slog[i].tx || !slog[i].rx)
			return 1;
	}
	if (mac_lock(20000, S32_MAX) > 20000) {
		fprintf(stderr, "link_bench: no lock\n");
		return 1;
	}
	ch.noise = noise;
	lb_run_frames(256, frames1);	/* settle */
	slog[0].n = 0;
	slog[1].n = 0;
	memset(f, 0xff, 6);		/* to everyone: no RTS, no ACK */
	memcpy(f + 6, "\x02\x56\x4c\x43\x00\x01\x08\x00", 8);
	while (slog[1].n < frames) {
		while (!vlc_mac_tx_full(&ln[0].mac)) {
			for (i = 14; i < sizeof(f); i++)
				f[i] = (u8)vlc_hsim_rand(&ch);
			vlc_mac_xmit(&ln[0].mac, f, sizeof(f));
		}
		lb_run_frames(64, frames1);
	}
	/* node 1's frame j is node 0's frame i that starts within half a
	 * frame of it; both logs are in time order
	 */
	half = vlc_phy_default_timing.frame_ns / 2;
	for (i = 0, j = 0; j < slog[1].n; j++) {
		u64 t = slog[1].start[j];

		while (i < slog[0].n && slog[0].start[i] + half <= t)
			i++;
		if (i == slog[0].n)
			break;
		if (slog[0].start[i] >= t + half || slog[0].tx[i] < 0 ||
		    slog[1].tx[j] >= 0)
			continue;
		symbols++;
		errors += slog[1].rx[j] != slog[0].tx[i];
	}
	printf("%.2f %u %u\n", 20 * log10((double)SIM_FULL / noise), symbols,
	       errors);
	for (i = 0; i < 2; i++) {
		free(slog[i].start);
		free(slog[i].tx);
		free(slog[i].rx);
	}
	return 0;
}

/* ---- reach of each receiver type on vlc_sim's medium --------------- */

#define SIM_AMBIENT	2000U	/* vlc_sim's default ambient light */
#define RANGE_LOCK_MAX	20000	/* frames: no lock within 10 s, no link */
#define RANGE_PING_MAX	4000	/* frames of node 1 a ping may take */

static int range(int argc, char **argv)
{
	static const char * const rx_name[] = {
		[LB_RX_PD] = "pd", [LB_RX_LED] = "led", [LB_RX_LED2] = "led2",
	};
	u32 gain = atoi(argv[3]), packets = atoi(argv[4]), at, off;
	u64 seed = strtoull(argv[5], NULL, 0);
	const struct vlc_mac_stats *s = &ln[1].mac.stats;
	enum lb_rx rx = LB_RX_PD;
	bool through;

	while (strcmp(argv[2], rx_name[rx]))
		if (++rx > LB_RX_LED2)
			return 2;
	/* vlc_sim's medium at its defaults, and its rx_min_level: a tenth
	 * of a lit LED at full gain, as the receiver senses it
	 */
	lb_med = (struct lb_medium){
		.gain = gain,
		.ambient = SIM_AMBIENT,
		.noise = SIM_NOISE,
		.rx_min = SIM_FULL / 10 /
			  (rx == LB_RX_PD ? 1 : VLC_LIGHT_LED_DIV),
		.rx = rx,
	};
	if (mac_pair(seed, 0, 0, &off))
		return 1;
	at = mac_lock(RANGE_LOCK_MAX, S32_MAX);
	if (at > RANGE_LOCK_MAX) {
		printf("%s %u %u 0 0 0 0 0\n", rx_name[rx], gain, at);
		return 0;
	}
	through = pings(packets, packets * RANGE_PING_MAX);
	printf("%s %u %u %llu %llu %u %d %u\n", rx_name[rx], gain, at,
	       (unsigned long long)ln[0].mac.stats.tx_fragments,
	       (unsigned long long)(s->rx_frames_ok - s->rx_beacons),
	       lb_delivered, through, lb_offset_max);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "lock"))
		return lock(argc, argv);
	if (argc == 5 && !strcmp(argv[1], "skew"))
		return skew(argc, argv);
	if (argc == 7 && !strcmp(argv[1], "ber"))
		return ber(argc, argv);
	if (argc == 6 && !strcmp(argv[1], "floss"))
		return floss(argc, argv);
	if (argc == 6 && !strcmp(argv[1], "simser"))
		return simser(argc, argv);
	if (argc == 6 && !strcmp(argv[1], "range"))
		return range(argc, argv);
	if ((argc == 9 || argc == 10) && !strcmp(argv[1], "goodput"))
		return goodput(argc, argv);
	fprintf(stderr,
		"usage: link_bench lock SEED0 RUNS MAXFRAMES DEFER\n"
		"       link_bench skew PPM SEED FRAMES\n"
		"       link_bench ber 2slot|4ppm FRAME_NS JITTER FRAMES SEED\n"
		"       link_bench simser AMBIENT NOISE FRAMES SEED\n"
		"       link_bench range pd|led|led2 GAIN PACKETS SEED\n"
		"       link_bench goodput 2slot|4ppm FRAME_NS JITTER FEC\n"
		"                          SIZE PACKETS SEED [FRAG]\n"
		"JITTER: none | const:NS | unif:NS | model:M:P:T |\n"
		"        burst:M:P:T:L\n"
		"FEC: off | auto | 2 | 4 | 8 | 16 | 32\n");
	return 2;
}
