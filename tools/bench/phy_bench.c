// SPDX-License-Identifier: GPL-2.0
/* Host benchmarks of the VLC PHY core, on the same host simulator as the
 * tests (drivers/net/vlc/tests/vlc_hsim.c), in virtual time:
 *
 *   phy_bench ber MODE       symbol outcomes against SNR, one line per SNR:
 *                            "snr_db wrong erased missed symbols theory
 *                            bound"
 *   phy_bench cost STATE N   N frames of a PHY in STATE, for callgrind:
 *                            "locked" (two nodes exchanging random data,
 *                            both locked), "acquire" (one node sending,
 *                            no neighbour in sight, noise and ambient
 *                            only, the search in the tick as under the
 *                            simulator) or "deferred" (the same, the
 *                            search deferred as under the kernel's
 *                            executors); counters are zeroed after
 *                            warm-up; prints "slot_events frames
 *                            searches locks state nodes" (events of
 *                            all nodes, frames of one)
 *   phy_bench hber MODE [MAXFRAMES DB0 DB1 STEP]
 *                            hard decisions (struct vlc_phy_rx.hard, what
 *                            the MAC takes inside a frame) against SNR,
 *                            DB0 to DB1 (default 14 to 18 in 1 dB
 *                            steps), until 100 wrong ones or MAXFRAMES
 *                            (default 2000000) symbols:
 *                            "snr_db symbols hard_wrong no_hard theory"
 *   phy_bench latency N      wall time of each of N vlc_phy_tick() calls
 *                            of a PHY without light (acquiring, the
 *                            search deferred as in the kernel):
 *                            "mean_ns p99_ns max_ns"
 *
 * SNR is the amplitude A of a lit data slot over the rms noise sigma of
 * one data-slot window (the host simulator's noise is given for a data_ns
 * window, and a lit slot measures SIG above ambient), so both columns
 * below use the SNR the receiver sees in D1..Dn.
 *
 * theory: hard-decision differential on-off keying, Q(SNR / sqrt(2)):
 * the error rate of deciding D1 > D2 with independent Gaussian noise on
 * each, a symbol in every frame, no erasures. It is a lower bound on
 * wrong + erased + missed, but not one a receiver that must also tell
 * an idle frame from a symbol can approach: hard decision turns every
 * idle frame into a symbol.
 *
 * bound: the same with idle frames told apart. A frame is a symbol when
 * its brightest data slot is lit, against a threshold at A / 2 (equal
 * rates of missed symbols and of noise taken for a symbol in idle
 * frames): Q(SNR / 2) missed, plus Q(SNR / sqrt(2)) wrong. At 1e-5 it
 * needs 18.6 dB where theory needs 15.6 dB. The receiver's own margins
 * (a symbol needs max(6 noise rms, signal / 2) between the two
 * brightest slots, and a lit slot 4 noise rms) buy it no wrong symbol in
 * data or idle frames at any SNR; they cost it about 3 dB against this
 * bound, and the bench sends in every frame, so only their cost shows.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <valgrind/callgrind.h>

#include "vlc_phy.h"
#include "vlc_hsim.h"

#define SIG	10000U
#define T0	1000000ULL

static struct vlc_hsim ch;

static void pair(unsigned long seed, enum vlc_phy_mode mode, double snr)
{
	int i;

	vlc_hsim_init(&ch, seed);
	ch.gain[0][1] = SIG;
	for (i = 0; i < VLC_HSIM_NODES; i++)
		vlc_phy_set_mode(&ch.node[i].phy, mode, NULL);
	vlc_phy_set_rx_min_level(&ch.node[1].phy, SIG / 10);
	ch.node[1].ref = 0;
	ch.node[0].tx = VLC_HSIM_TX_RANDOM;
	ch.noise = (u32)(SIG / snr);
	ch.noise_ref_ns = vlc_phy_default_timing.data_ns;
	vlc_hsim_start(&ch, 0, T0);
	vlc_hsim_start(&ch, 1, T0);
}

static int ber(enum vlc_phy_mode mode)
{
	double db;

	printf("# snr_db wrong erased missed symbols theory bound\n");
	for (db = 8; db <= 24.01; db += 2) {
		double snr = pow(10, db / 20);
		struct vlc_hsim_score *s = &ch.node[1].score;
		u32 frames = 0;

		pair(1000 + (unsigned long)(db * 10), mode, snr);
		vlc_hsim_run_frames(&ch, 1, 256);	/* acquire and settle */
		vlc_hsim_score_reset(&ch.node[1]);
		/* until 200 wrong decisions, or 100k symbols */
		while (s->wrong < 200 && frames < 100000) {
			vlc_hsim_run_frames(&ch, 1, 10000);
			frames += 10000;
		}
		/* Q(x) = erfc(x / sqrt(2)) / 2 */
		printf("%.1f %u %u %u %u %.3e %.3e\n", db, s->wrong,
		       s->erasures, s->missed, s->frames, 0.5 * erfc(snr / 2),
		       0.5 * erfc(snr / 2) + 0.5 * erfc(snr / (2 * M_SQRT2)));
	}
	return 0;
}

/* Hard decisions of node 1, matched with what node 0 sent in the same
 * frame the way vlc_hsim.c scores rx->sym.
 */
static struct {
	bool on;
	u32 symbols, wrong, none;
} hs;

static void hber_rx(struct vlc_hsim *c, struct vlc_hsim_node *n,
		    const struct vlc_phy_rx *rx)
{
	const struct vlc_hsim_node *r = &c->node[0];
	u32 k = n->rx_frames + rx->skipped;
	int sent;

	if (!hs.on || n->idx != 1 || r->tx_frames <= k ||
	    r->tx_frames - k > VLC_HSIM_SENT)
		return;
	sent = r->sent[k % VLC_HSIM_SENT];
	if (sent < 0)
		return;
	hs.symbols++;
	if (!(rx->flags & VLC_PHY_RX_HARD))
		hs.none++;
	else if (rx->hard != sent)
		hs.wrong++;
}

/* Symbol error rate of hard decisions among M slots, one lit at @snr
 * (in noise rms), Gaussian noise: 1 - integral of phi(x - snr) Phi(x)^(M-1).
 * M = 2 is Q(snr / sqrt(2)), the theory column of "ber".
 */
static double hard_theory(double snr, int m)
{
	double x, sum = 0, dx = 0.001;

	for (x = snr - 12; x < snr + 12; x += dx)
		sum += exp(-(x - snr) * (x - snr) / 2) *
		       pow(0.5 * erfc(-x / M_SQRT2), m - 1);
	return 1 - sum * dx / sqrt(2 * M_PI);
}

static int hber(enum vlc_phy_mode mode, u32 max, double db0, double db1,
		double step)
{
	int m = mode == VLC_PHY_MODE_4PPM ? 4 : 2;
	double db;

	printf("# snr_db symbols hard_wrong no_hard theory\n");
	for (db = db0; db <= db1 + 0.01; db += step) {
		double snr = pow(10, db / 20);

		pair(2000 + (unsigned long)(db * 10), mode, snr);
		ch.on_rx = hber_rx;
		vlc_hsim_run_frames(&ch, 1, 256);	/* acquire and settle */
		memset(&hs, 0, sizeof(hs));
		hs.on = true;
		while (hs.wrong < 100 && hs.symbols < max)
			vlc_hsim_run_frames(&ch, 1, 10000);
		hs.on = false;
		printf("%.1f %u %u %u %.3e\n", db, hs.symbols, hs.wrong,
		       hs.none, hard_theory(snr, m));
	}
	return 0;
}

/* Idle pins: what the PHY itself costs per slot event. */
static void nop_emit(void *ctx, bool on, u64 t) { }
static void nop_begin(void *ctx, u64 t) { }
static u32 nop_end(void *ctx, u64 t) { return 100 + (t & 7); }
static int nop_tx(void *ctx)
{
	static unsigned int n;

	return n++ & 1;		/* data in every frame: the costlier case */
}

static void nop_rx(void *ctx, const struct vlc_phy_rx *rx) { }

static const struct vlc_pin_ops nop_pins = {
	.emit = nop_emit, .rx_begin = nop_begin, .rx_end = nop_end,
};

static const struct vlc_phy_client_ops nop_client = {
	.tx_symbol = nop_tx, .rx_frame = nop_rx,
};

static struct vlc_phy phy;

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Wall time of each of @n ticks with idle pins. */
static int latency(long n)
{
	u64 t, *lat = calloc(n, sizeof(*lat));
	double sum = 0;
	long i;

	if (!lat)
		return 1;
	vlc_phy_init(&phy, &nop_pins, NULL, &nop_client, NULL);
	/* no light: acquiring, the search deferred as the kernel defers it
	 * out of the hard-IRQ tick (no worker runs it here)
	 */
	vlc_phy_set_acq_defer(&phy, true);
	t = vlc_phy_start(&phy, T0);
	for (i = 0; i < n; i++) {
		u64 a = now_ns();

		t = vlc_phy_tick(&phy, t);
		lat[i] = now_ns() - a;
		sum += lat[i];
	}
	qsort(lat, n, sizeof(*lat), cmp_u64);
	printf("%.0f %llu %llu\n", sum / n,
	       (unsigned long long)lat[n * 99 / 100],
	       (unsigned long long)lat[n - 1]);
	free(lat);
	return 0;
}

/* The PHY in one state, callgrind counting only the measured part. */
static int cost(const char *state, long frames)
{
	bool locked = !strcmp(state, "locked");
	bool deferred = !strcmp(state, "deferred");
	struct vlc_hsim_node *n = &ch.node[1];
	u32 steps, searches;
	int i;

	if (!locked && !deferred && strcmp(state, "acquire"))
		return 2;
	vlc_hsim_init(&ch, 7);
	/* locked: deferred too, so that a profile of the whole run (its
	 * counters not zeroed) shows the decode, not the warm-up's search
	 */
	n->defer_ticks = deferred || locked ? 26 : 0;
	ch.node[0].defer_ticks = n->defer_ticks;
	ch.ambient = 20 * SIG;
	ch.noise = SIG / 100;
	ch.noise_ref_ns = vlc_phy_default_timing.data_ns;
	for (i = 0; i < 2; i++) {
		ch.node[i].tx = VLC_HSIM_TX_RANDOM;
		/* Half duplex: a node hears its neighbour's symbols only in
		 * the frames it does not send in itself; without them (and
		 * without spill) the lock expires after VLC_PHY_SIGNAL_HOLD
		 * frames, which the run is long enough to reach.
		 */
		ch.node[i].idle_per256 = locked ? 32 : 0;
		ch.node[i].ref = locked ? 1 - i : -1;
		ch.node[i].resync = VLC_HSIM_RESYNC_MAC;
	}
	if (locked) {
		ch.gain[0][1] = SIG;
		ch.gain[1][0] = SIG;
		vlc_hsim_start(&ch, 0, T0);
	}
	vlc_hsim_start(&ch, 1, T0 + 123457);
	vlc_hsim_run_frames(&ch, 1, 512);	/* acquire and settle */
	if (n->phy.locked != locked) {
		fprintf(stderr, "phy_bench: node not %s after warm-up\n",
			state);
		return 1;
	}
	steps = ch.steps;
	searches = n->searches;
	n->phy.stats.frames = 0;
	n->phy.stats.acq_locks = 0;
	CALLGRIND_ZERO_STATS;
	vlc_hsim_run_frames(&ch, 1, frames);
	CALLGRIND_DUMP_STATS;
	printf("%u %llu %u %llu %s %d\n", ch.steps - steps,
	       (unsigned long long)n->phy.stats.frames, n->searches - searches,
	       (unsigned long long)n->phy.stats.acq_locks,
	       n->phy.locked ? "locked" : "acquiring", locked ? 2 : 1);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "ber"))
		return ber(!strcmp(argv[2], "4ppm") ? VLC_PHY_MODE_4PPM :
			   VLC_PHY_MODE_2SLOT);
	if ((argc == 3 || argc == 7) && !strcmp(argv[1], "hber"))
		return hber(!strcmp(argv[2], "4ppm") ? VLC_PHY_MODE_4PPM :
			    VLC_PHY_MODE_2SLOT,
			    argc == 7 ? atol(argv[3]) : 2000000,
			    argc == 7 ? atof(argv[4]) : 14,
			    argc == 7 ? atof(argv[5]) : 18,
			    argc == 7 ? atof(argv[6]) : 1);
	if (argc == 4 && !strcmp(argv[1], "cost"))
		return cost(argv[2], atol(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "latency"))
		return latency(atol(argv[2]));
	fprintf(stderr, "usage: phy_bench ber|hber 2slot|4ppm | latency N\n"
		"       phy_bench cost locked|acquire|deferred N\n");
	return 2;
}
