// SPDX-License-Identifier: GPL-2.0
/* VLC PHY core, acquisition: finding a neighbour's frame grid from its
 * light before the receiver can lock to it. Its state (struct
 * vlc_phy_acq, vlc_phy_acq.h) is this file's alone; the engine and the
 * receiver reach it through the hooks of vlc_phy_priv.h.
 *
 * Pure C, as vlc_phy.c.
 */

/**
 * DOC: Acquisition algorithm
 *
 * Two boards start their frame grids at arbitrary times. Until a
 * neighbour is locked (no signal scale yet, or lock lost) the PHY
 * acquires it from its light, data or not:
 *
 * Observation. Each frame's measured slots S1..S2 are kept, and our dark
 * ID part is measured too (our LED is off there), in up to 16 windows of
 * about guard_ns / 2, so that a neighbour's pulse in it covers whole
 * windows. Frames with our own data slot lit drop that slot; frames
 * that were late, overran or ran while our grid moved are not used.
 *
 * Model. The neighbour has our timing. In its own frame it lights IA on
 * [D, D + h) and IB on [F - h, F), D being the measured part, F the
 * frame and h half its on-time, plus at most one data slot k. Its frame
 * starts at our time x. For a candidate (x, h, k) the template p_i is
 * the lit fraction of our window i, and the levels are modelled as an
 * ambient line plus A * p_i. Its score is the energy it explains,
 * c^2 / q: c is the correlation of p with the levels off their line, q
 * the energy of p off that line (no division per candidate).
 *
 * Search. A grid of 64 offsets, each with 9 values of h (0 to the
 * largest) and every data slot or none; each offset keeps its best
 * (h, k). Per offset, c (in noise rms) and q are accumulated over frames
 * (weight 3/4), and scored as (sum c)^2 / sum q: one amplitude for all
 * frames. This rejects the aliases that explain one frame's pulse with
 * another amplitude (a lone data pulse fits any data slot, and a short
 * illumination pulse inside one window fits anything in that window).
 * The best offset must lead every offset more than a data slot away by
 * 64 noise variances and be near the best of the current frame (else
 * the neighbour moved and the history is dropped); it is then refined by
 * halving steps in x and h (8 neighbours, 6 levels). The search runs in
 * the ticks after the frame, a few offsets per tick, and finishes before
 * the next frame's report.
 *
 * Reports. An estimate is the neighbour's frame start modulo F; two in
 * a row within F / 128 make one coarse report: sync LATE/EARLY with
 * offset_ns in (-F/2, F/2] relative to the frame reported, rx->coarse
 * set, rx->acquiring set (symbols are withheld: erasure if a data slot
 * is lit, idle if not). After our grid moves, frames until the one after
 * next (when the neighbour's own move has settled) are not used, so a
 * report is never acted upon twice. An estimate in the data slot that
 * we lit and left out, less than half a data slot off our grid, rests on
 * the edges of the neighbour's pulse: it is reported and may lock, but
 * without rx->coarse, since an edge is too rough to move the grid on. While coarse reports
 * are being made, vlc_phy_adjust_phase() applies a correction in one
 * frame (an advance that the dark ID cannot absorb becomes a delay of F
 * minus it).
 *
 * Scale and lock. The amplitude A of a fit in which some window is at
 * least 7/8 lit is the level of a fully lit window: the signal scale the
 * fine estimator needs. The PHY locks (signal = A, noise relearnt) when a
 * report is within sync_ns, or when, after a report, two
 * frames show no light at all: the neighbour now hides in our own IA/IB,
 * i.e. it is aligned to better than the fine estimator's reach. Locked,
 * the S1/S2 estimator of before runs, and a fine offset above
 * sync_ns / 8 seen in two settled frames in a row is flagged coarse too.
 * Eight frames in a row of light the fine model cannot explain, or
 * VLC_PHY_SIGNAL_HOLD frames without a symbol or a spill (beside a lit
 * data slot, or in two frames in a row: noise alone crosses the spill's
 * threshold now and then, once), unlock.
 *
 * A report with rx->coarse set is to be acted on at once, even in a
 * frame the node lit; the other reports while rx->acquiring is set
 * are not. What the node does with them is the resync loop's
 * (vlc_sync.c).
 *
 * Limits. Only light in our measured part or our dark ID is seen (so
 * brightness has a floor of one data slot: a dimmer idle neighbour's
 * pulses pass for data), and two idle nodes
 * aligned to within their on-times from the start see nothing of each
 * other (sync NONE) until data flows. A neighbour whose light is data
 * pulses only is acquired once it has sent different symbols. Near
 * x = +-F/2 the sign is arbitrary (either converges). Offsets below
 * about 10 us are not resolved by acquisition at SNR 100; the fine
 * estimator needs illumination spill into S1/S2, so a corrector that
 * sees only data pulses (brightness near the minimum) does not converge
 * alone. vlc_phy_test_acquisition measures how many runs lock, and how
 * soon, over 32 offsets.
 *
 * Where the search runs, and what it costs: vlc.rst, "Acquisition".
 */
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/bits.h>
#include <linux/math.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/vlc.h>

#include "vlc_phy.h"
#include "vlc_phy_priv.h"

#define VLC_PHY_ACQ_LEVELS	6	/* refinement: step / 2 .. / 64 */
#define VLC_PHY_ACQ_FRAC	12	/* templates: lit fraction, Q12 */
#define VLC_PHY_ACQ_QMIN	BIT(16)	/* templates too flat to use */
#define VLC_PHY_ACQ_DETECT	64	/* accumulated noise variances */
#define VLC_PHY_ACQ_MARGIN	64	/* lead over offsets a slot away, ditto */
#define VLC_PHY_ACQ_EMPTY	16	/* below this, a frame shows nothing */
#define VLC_PHY_ACQ_HIDDEN	2	/* such frames, after a step, to lock */
#define VLC_PHY_ACQ_WARMUP	4	/* noise samples before detecting */
#define VLC_PHY_ACQ_MISSES	4	/* frames a lost neighbour is kept */
#define VLC_PHY_ACQ_COL_MAX	BIT(24)	/* score of one offset, one frame */
#define VLC_PHY_ACQ_CN_MAX	BIT(28)	/* its correlation in noise rms */
/* Floor of the noise the search scales by, so that a noiseless channel
 * does not saturate every correlation (K3): an eighth of the backend's
 * smallest signal (vlc_phy_set_rx_min_level()), in raw levels, so an LED
 * that senses (125 in vlc_sim) or a 10-bit ADC is not hidden under it;
 * without one, rms 128 of the search's levels (below 2^14). A floor
 * following the largest level of each frame instead gave weak frames the
 * confidence of strong ones: false locks again (fuzz_params).
 */
#define VLC_PHY_ACQ_FLOOR_DIV	8
#define VLC_PHY_ACQ_VAR_MIN	BIT(14)

/* (a * b) >> 32 without losing the top bits */
static u64 vlc_phy_mul_shr32(u64 a, u32 b)
{
	u64 lo = (u64)(u32)a * b;

	return (a >> 32) * b + (lo >> 32);
}

/* a * b > c * d, for b and d below 2^32 and a and c below 2^62 */
static bool vlc_phy_mul_gt(u64 a, u32 b, u64 c, u32 d)
{
	u64 l1 = (u64)(u32)a * b, h1 = (a >> 32) * b + (l1 >> 32);
	u64 l2 = (u64)(u32)c * d, h2 = (c >> 32) * d + (l2 >> 32);

	if (h1 != h2)
		return h1 > h2;
	return (u32)l1 > (u32)l2;
}

/* Wrap a phase difference into (-F/2, F/2]. */
static s32 vlc_phy_wrap(s64 d, u32 fns)
{
	while (d > fns / 2)
		d -= fns;
	while (d <= -(s64)(fns / 2))
		d += fns;
	return d;
}

static u32 vlc_phy_seg(u32 r, u32 a, u32 len)
{
	return r <= a ? 0 : min(r - a, len);
}

/* Edge @b of a window, for a neighbour frame starting at @x: whole
 * neighbour frames before it plus a rest.
 */
static void vlc_phy_acq_reduce(const struct vlc_phy_acq *a, u32 b, u32 x,
			       struct vlc_phy_acq_edge *e)
{
	u64 v = (u64)b + a->frame_ns - x;

	e->frames = 0;
	while (v >= a->frame_ns) {
		v -= a->frame_ns;
		e->frames++;
	}
	e->rest = v;
}

/* Neighbour light in [0, edge) of its frames: illumination, data slot. */
static u64 vlc_phy_acq_lit_i(const struct vlc_phy_acq *a,
			     const struct vlc_phy_acq_edge *e, u32 h)
{
	return (u64)e->frames * 2 * h + vlc_phy_seg(e->rest, a->meas_ns, h) +
	       vlc_phy_seg(e->rest, a->frame_ns - h, h);
}

static u64 vlc_phy_acq_lit_d(const struct vlc_phy_acq *a,
			     const struct vlc_phy_acq_edge *e, u32 k)
{
	return (u64)e->frames * a->data_ns +
	       vlc_phy_seg(e->rest, a->data_start[k], a->data_ns);
}

static u32 vlc_phy_acq_frac(const struct vlc_phy_acq *a, u32 i, u64 lit)
{
	return ((u64)min_t(u64, lit, U32_MAX) * a->inv_len[i]) >>
	       (32 - VLC_PHY_ACQ_FRAC);
}

static void vlc_phy_acq_sums(const struct vlc_phy_acq *a,
			     struct vlc_phy_acq_sums *m)
{
	u32 i;

	m->sum_p = 0;
	m->sum_tp = 0;
	m->sum_yp = 0;
	m->sum_pp = 0;
	for (i = 0; i < a->nbins; i++) {
		u32 p = m->frac[i];

		m->sum_p += p;
		m->sum_tp += (s64)a->time[i] * p;
		m->sum_yp += (s64)a->resid[i] * p;
		m->sum_pp += p * p;
	}
}

/* Score inputs of illumination @mi plus data @md (either may be NULL). */
static void vlc_phy_acq_combine(const struct vlc_phy_acq *a,
				const struct vlc_phy_acq_sums *mi,
				const struct vlc_phy_acq_sums *md,
				struct vlc_phy_acq_cand *c)
{
	s64 s = 0, t = 0, q;
	u64 p2 = 0;
	u32 i;

	c->c = 0;
	if (mi) {
		s += mi->sum_p;
		t += mi->sum_tp;
		c->c += mi->sum_yp;
		p2 += mi->sum_pp;
	}
	if (md) {
		s += md->sum_p;
		t += md->sum_tp;
		c->c += md->sum_yp;
		p2 += md->sum_pp;
	}
	if (mi && md)
		for (i = 0; i < a->nbins; i++)
			p2 += 2 * (u32)mi->frac[i] * md->frac[i];
	q = p2 - vlc_phy_mul_shr32((u64)(s * s), a->inv_nbins) -
	    (vlc_phy_mul_shr32((u64)(t * t), a->inv_stt) >> 16);
	c->q = clamp_t(s64, q, 0, U32_MAX);
}

static bool vlc_phy_acq_better(const struct vlc_phy_acq_cand *n,
			       const struct vlc_phy_acq_cand *b)
{
	if (n->c <= 0 || n->q < VLC_PHY_ACQ_QMIN)
		return false;
	if (b->c <= 0 || b->q < VLC_PHY_ACQ_QMIN)
		return true;
	return vlc_phy_mul_gt((u64)(n->c * n->c), b->q,
			      (u64)(b->c * b->c), n->q);
}

static u32 vlc_phy_acq_h(const struct vlc_phy_acq *a, u32 m)
{
	return div_u64((u64)a->half_on_max * m, VLC_PHY_ACQ_NH);
}

/* One candidate on its own, for the refinement; returns its largest
 * lit fraction.
 */
static u32 vlc_phy_acq_eval(struct vlc_phy_acq *a, struct vlc_phy_acq_cand *c)
{
	struct vlc_phy_acq_sums *mi = &a->tpl_illum[0], *md = &a->tpl_data[0];
	struct vlc_phy_acq_edge s, e;
	u32 i, pmax = 0;

	for (i = 0; i < a->nbins; i++) {
		vlc_phy_acq_reduce(a, a->win_start[i], c->x, &s);
		vlc_phy_acq_reduce(a, a->win_end[i], c->x, &e);
		mi->frac[i] = c->h ? vlc_phy_acq_frac(a, i,
					vlc_phy_acq_lit_i(a, &e, c->h) -
					vlc_phy_acq_lit_i(a, &s, c->h)) : 0;
		md->frac[i] = c->k >= 0 ? vlc_phy_acq_frac(a, i,
					vlc_phy_acq_lit_d(a, &e, c->k) -
					vlc_phy_acq_lit_d(a, &s, c->k)) : 0;
		pmax = max_t(u32, pmax, mi->frac[i] + md->frac[i]);
	}
	vlc_phy_acq_sums(a, mi);
	if (c->k >= 0)
		vlc_phy_acq_sums(a, md);
	vlc_phy_acq_combine(a, c->h ? mi : NULL, c->k >= 0 ? md : NULL, c);
	return pmax;
}

/* One grid column: offset @j * col_step, every h of the grid and every
 * data slot.
 */
static void vlc_phy_acq_col(struct vlc_phy_acq *a, u32 j)
{
	struct vlc_phy_acq_edge *s = a->edge_start, *e = a->edge_end;
	struct vlc_phy_acq_sums *mi = a->tpl_illum, *md = a->tpl_data;
	struct vlc_phy_acq_cand best = { 0 }, c;
	u32 i, m, x = j * a->col_step;
	int k;

	for (i = 0; i < a->nbins; i++) {
		vlc_phy_acq_reduce(a, a->win_start[i], x, &s[i]);
		vlc_phy_acq_reduce(a, a->win_end[i], x, &e[i]);
	}
	for (m = 1; m <= VLC_PHY_ACQ_NH; m++) {
		u32 h = vlc_phy_acq_h(a, m);

		for (i = 0; i < a->nbins; i++) {
			u64 lit = vlc_phy_acq_lit_i(a, &e[i], h) -
				  vlc_phy_acq_lit_i(a, &s[i], h);

			mi[m].frac[i] = vlc_phy_acq_frac(a, i, lit);
		}
		vlc_phy_acq_sums(a, &mi[m]);
	}
	for (k = 0; k < a->ndata; k++) {
		for (i = 0; i < a->nbins; i++) {
			u64 lit = vlc_phy_acq_lit_d(a, &e[i], k) -
				  vlc_phy_acq_lit_d(a, &s[i], k);

			md[k].frac[i] = vlc_phy_acq_frac(a, i, lit);
		}
		vlc_phy_acq_sums(a, &md[k]);
	}
	a->col_h[j] = 0;
	a->col_k[j] = -1;
	for (m = 0; m <= VLC_PHY_ACQ_NH; m++) {
		for (k = -1; k < a->ndata; k++) {
			if (!m && k < 0)
				continue;
			vlc_phy_acq_combine(a, m ? &mi[m] : NULL,
					    k >= 0 ? &md[k] : NULL, &c);
			if (vlc_phy_acq_better(&c, &best)) {
				best = c;
				a->col_h[j] = m;
				a->col_k[j] = k;
			}
		}
	}
	if (!j || vlc_phy_acq_better(&best, &a->grid_best))
		a->grid_best = best;
	a->col_score[j] = 0;
	a->col_cn[j] = 0;
	a->col_q[j] = 0;
	if (best.c > 0 && best.q >= VLC_PHY_ACQ_QMIN) {
		u64 c2 = (u64)(best.c * best.c), q = (u64)best.q * a->noise_var;

		a->col_score[j] = min_t(u64, div64_u64(c2, q),
					VLC_PHY_ACQ_COL_MAX);
		/* in noise rms * 16, for the amplitude shared over frames */
		a->col_cn[j] = min_t(u64, ((u64)best.c * a->inv_rms) >> 12,
				     VLC_PHY_ACQ_CN_MAX);
		a->col_q[j] = best.q;
	}
}

/* Forget the evidence; @all: also the scale and the coarse history. The
 * accumulators belong to the search: it zeroes them before its next
 * frame.
 */
static void vlc_phy_acq_reset(struct vlc_phy_acq *a, bool all)
{
	a->flush = true;
	a->agree = 0;
	a->fresh_est = false;
	a->have_est = false;
	a->misses = 0;
	a->empty = 0;
	if (all) {
		a->amp_known = 0;
		a->amp = 0;
		a->reported = false;
	}
}

/* Noise from neighbouring ID windows: equal but at a pulse's edges, so
 * with enough of them the median of their differences is 0.95 rms.
 */
static bool vlc_phy_acq_noise_id(const struct vlc_phy_acq *a, u64 *var)
{
	u32 d[VLC_PHY_ID_WINDOWS], i, j, n = 0, m;
	u32 first = a->nbins - a->id_bins;

	if (a->id_bins < 10)
		return false;
	for (i = first; i + 1 < a->nbins; i++) {
		u32 v = a->level[i + 1] > a->level[i] ?
			a->level[i + 1] - a->level[i] :
			a->level[i] - a->level[i + 1];

		/* insertion sort, at most 15 values */
		for (j = n++; j > 0 && d[j - 1] > v; j--)
			d[j] = d[j - 1];
		d[j] = v;
	}
	m = d[n / 2] + (d[n / 2] >> 4);
	*var = (u64)m * m;
	return true;
}

/* Noise from what the best candidate of the grid leaves unexplained. */
static u64 vlc_phy_acq_noise(const struct vlc_phy_acq *a)
{
	const struct vlc_phy_acq_cand *b = &a->grid_best;
	u64 e = 0, r;

	if (vlc_phy_acq_noise_id(a, &r))
		return r;
	if (b->c > 0 && b->q >= VLC_PHY_ACQ_QMIN)
		e = div64_u64((u64)(b->c * b->c), b->q);
	r = a->resid_sq > e ? a->resid_sq - e : 0;
	r = div_u64(r, a->nbins - 4);
	if (r >= (1ULL << (62 - 2 * a->resid_shift)))
		return U64_MAX >> 2;
	return r << (2 * a->resid_shift);
}

/* Accumulated score of column @j: (sum cn)^2 / sum q. */
static u64 vlc_phy_acq_acc(const struct vlc_phy_acq *a, u32 j)
{
	u64 c = a->acc_cn[j] > 0 ? a->acc_cn[j] : 0;

	return a->acc_q[j] ? div64_u64(c * c, a->acc_q[j]) : 0;
}

/* Column @i scores above column @j, without dividing. */
static bool vlc_phy_acq_acc_gt(const struct vlc_phy_acq *a, u32 i, u32 j)
{
	u64 ci = a->acc_cn[i] > 0 ? a->acc_cn[i] : 0;
	u64 cj = a->acc_cn[j] > 0 ? a->acc_cn[j] : 0;

	if (!ci || !a->acc_q[i])
		return false;
	if (!cj || !a->acc_q[j])
		return true;
	/* both q sums stay below 2^32, both c sums below 2^31 */
	return vlc_phy_mul_gt(ci * ci, a->acc_q[j], cj * cj, a->acc_q[i]);
}

static void vlc_phy_acq_forget(struct vlc_phy_acq *a)
{
	u32 j;

	for (j = 0; j < VLC_PHY_ACQ_NX; j++) {
		a->acc_cn[j] = 0;
		a->acc_q[j] = 0;
	}
}

/* The grid is done: pick the column to refine, or give up. Only the
 * search's own state changes; the outcome for the PHY (a noise sample,
 * an empty frame) is left in a->out_* for vlc_phy_acq_apply_select().
 */
static bool vlc_phy_acq_select(struct vlc_phy_acq *a)
{
	u32 j, b = 0, second = U32_MAX, colmax = 0, near, samples;
	u64 sb, ss;
	bool warm;

	a->detected = false;
	a->out_has_noise = false;
	a->out_empty = false;
	if (a->in_flush || a->in_stale)
		vlc_phy_acq_forget(a);
	if (a->in_stale)
		return false;	/* measured before our grid moved and settled */
	/* the frame's noise, from its best candidate */
	a->out_noise_var = vlc_phy_acq_noise(a);
	a->out_has_noise = true;
	samples = a->in_noise_samples;
	if (samples < BIT(VLC_PHY_NOISE_SHIFT))
		samples++;
	warm = samples >= VLC_PHY_ACQ_WARMUP;
	/* Each offset explains the frames with one amplitude: as the
	 * neighbour's symbols change, the aliases that explain one frame's
	 * pulse with another amplitude (a shorter pulse) fall behind.
	 * Score: (sum c / rms)^2 / sum q, the energy explained over the
	 * last few frames in noise variances (times 256).
	 */
	for (j = 0; j < VLC_PHY_ACQ_NX; j++) {
		a->acc_cn[j] += a->col_cn[j] - vlc_phy_sshr(a->acc_cn[j], 2);
		a->acc_q[j] += a->col_q[j] - (a->acc_q[j] >> 2);
		if (vlc_phy_acq_acc_gt(a, j, b))
			b = j;
		colmax = max(colmax, a->col_score[j]);
	}
	/* the neighbour moved: what was gathered before misleads */
	if ((u64)a->col_score[b] * 2 < colmax) {
		for (j = 0; j < VLC_PHY_ACQ_NX; j++) {
			a->acc_cn[j] = a->col_cn[j];
			a->acc_q[j] = a->col_q[j];
			if (vlc_phy_acq_acc_gt(a, j, b))
				b = j;
		}
	}
	/* no light at all: after a coarse step, the neighbour hides in
	 * our own on-time
	 */
	if (colmax < VLC_PHY_ACQ_EMPTY && warm)
		a->out_empty = true;
	/* the peak is about a data slot wide; aliases are further away */
	near = min_t(u64, div_u64(a->data_ns, a->col_step), VLC_PHY_ACQ_NX / 4);
	for (j = 0; j < VLC_PHY_ACQ_NX; j++) {
		u32 d = (j + VLC_PHY_ACQ_NX - b) % VLC_PHY_ACQ_NX;

		if (d > near && d < VLC_PHY_ACQ_NX - near &&
		    (second == U32_MAX || vlc_phy_acq_acc_gt(a, j, second)))
			second = j;
	}
	sb = vlc_phy_acq_acc(a, b);
	ss = second == U32_MAX ? 0 : vlc_phy_acq_acc(a, second);
	a->detected = warm &&
		      sb >= VLC_PHY_ACQ_DETECT * 256 &&
		      sb - ss >= VLC_PHY_ACQ_MARGIN * 256 &&
		      (u64)a->col_score[b] * 4 >= (u64)colmax * 3;
	if (!a->detected)
		return false;
	a->best = (struct vlc_phy_acq_cand){ .x = b * a->col_step,
		.h = vlc_phy_acq_h(a, a->col_h[b]), .k = a->col_k[b] };
	vlc_phy_acq_eval(a, &a->best);
	return true;
}

static void vlc_phy_acq_refine(struct vlc_phy_acq *a, u32 level)
{
	static const s8 dx[8] = { -1, 1, 0, 0, -1, 1, -1, 1 };
	static const s8 dh[8] = { 0, 0, -1, 1, -1, 1, 1, -1 };
	u32 sx = a->col_step >> (level + 1);
	u32 sh = div_u64(a->half_on_max, 2 * VLC_PHY_ACQ_NH) >> level;
	struct vlc_phy_acq_cand c, from = a->best;
	int d;

	/* the 8 neighbours: moving x and h together keeps one pulse edge */
	for (d = 0; d < 8; d++) {
		s64 h = (s64)from.h + dh[d] * (s64)sh;

		c = from;
		if ((dx[d] && !sx) || (dh[d] && !sh))
			continue;
		c.x = from.x + a->frame_ns + dx[d] * (s32)sx;
		while (c.x >= a->frame_ns)
			c.x -= a->frame_ns;
		c.h = clamp_t(s64, h, 0, a->half_on_max);
		if ((dh[d] && c.h == from.h) || (!c.h && c.k < 0))
			continue;
		vlc_phy_acq_eval(a, &c);
		if (vlc_phy_acq_better(&c, &a->best))
			a->best = c;
	}
}

static void vlc_phy_acq_miss(struct vlc_phy_acq *a, bool empty)
{
	a->empty = empty && a->empty < U8_MAX ? a->empty + 1 : 0;
	a->agree = 0;
	a->fresh_est = false;
	if (++a->misses > VLC_PHY_ACQ_MISSES)
		a->have_est = false;
}

/* The grid's outcome, into the PHY: a noise sample, or a frame that
 * showed nothing. Tick context (or the executor's lock held).
 */
static void vlc_phy_acq_apply_select(struct vlc_phy *phy)
{
	struct vlc_phy_acq *a = &phy->acq;

	if (a->in_stale) {
		vlc_phy_acq_reset(a, false);
		a->flush = false;	/* the search forgot already */
		return;
	}
	if (a->out_has_noise)
		vlc_phy_noise_add(phy, a->out_noise_var);
	/* vlc_phy_acq_miss() counts the empty frame: once, not twice */
	if (!a->out_empty)
		a->empty = 0;
	if (!a->detected)
		vlc_phy_acq_miss(a, a->out_empty);
}

/* The refined estimate of a frame: track it. Tick context (or the
 * executor's lock held).
 */
static void vlc_phy_acq_apply_finish(struct vlc_phy *phy)
{
	struct vlc_phy_acq *a = &phy->acq;
	struct vlc_phy_acq_cand *b = &a->best;
	u32 r, phase, amp, min_amp, pmax = a->out_lit_max;
	s64 amp64;
	s32 d;

	if (b->c <= 0 || b->q < VLC_PHY_ACQ_QMIN) {
		vlc_phy_acq_miss(a, false);
		return;
	}
	amp64 = div64_s64(b->c << VLC_PHY_ACQ_FRAC, b->q);
	amp = vlc_phy_sat_u32(amp64 << a->resid_shift);
	min_amp = max3(phy->rx_min_level, VLC_PHY_K_CARRIER * phy->noise, 1U);
	if (amp < min_amp) {
		vlc_phy_acq_miss(a, false);
		return;
	}
	/* the scale is only known when a window was wholly lit */
	if (pmax >= (7U << VLC_PHY_ACQ_FRAC) / 8)
		a->amp_known = a->amp_known ? a->amp_known -
			       (a->amp_known >> 2) + (amp >> 2) : amp;
	div_u64_rem(a->frame_start, a->frame_ns, &r);
	phase = r + b->x;
	if (phase >= a->frame_ns)
		phase -= a->frame_ns;
	d = vlc_phy_wrap((s64)phase - a->phase_ns, a->frame_ns);
	if (a->have_est && vlc_phy_abs(d) <= (a->frame_ns >> 7)) {
		if (a->agree < U8_MAX)
			a->agree++;
	} else {
		a->agree = 0;
	}
	a->phase_ns = phase;
	a->amp = amp;
	/* A neighbour that lit the data slot we lit (and left out), its
	 * pulse more than half behind ours, shows only its edges: its
	 * estimate is weak.
	 */
	a->edge_only = b->k >= 0 && b->k == a->own_data &&
		       (b->x < a->data_ns / 2 ||
			b->x > a->frame_ns - a->data_ns / 2);
	a->have_est = true;
	a->misses = 0;
	a->empty = 0;
	a->fresh_est = a->agree >= 1;
}

/* The frame's last measured window, slot @last (S2, or our last ID
 * window), just ended on time: copy the frame for a search, unless a
 * search is still in hand or the frame ran late. This runs before the
 * next slot starts, so it only copies. Return: the frame was taken.
 */
static bool vlc_phy_acq_capture(struct vlc_phy *phy, u32 last)
{
	struct vlc_phy_acq *a = &phy->acq;
	u32 i, nb = 0, own = U32_MAX;

	if (phy->locked || a->stage != VLC_PHY_ACQ_IDLE ||
	    (phy->frame_flags & (VLC_PHY_RX_LATE | VLC_PHY_RX_OVERRUN)))
		return false;
	/* our own data slot says nothing about the neighbour */
	if (phy->tx_sym >= 0)
		own = 2 + 2 * phy->tx_sym;
	a->id_bins = a->id_count;
	for (i = 0; i <= last; i++) {
		const struct vlc_phy_slot *sl = &phy->slot[i];

		if (i == own || (i >= phy->nmeas && i < a->id_first))
			continue;
		a->win_start[nb] = sl->start;
		a->win_end[nb] = sl->start + sl->len;
		a->centre[nb] = sl->centre;
		a->level[nb++] = phy->level[i];
	}
	a->nbins = nb;
	a->own_data = phy->tx_sym >= 0 ? phy->tx_sym : -1;
	a->frame_start = phy->frame_start;
	a->frame_ns = phy->timing.frame_ns;
	a->meas_ns = phy->slot[phy->nmeas - 1].start +
		     phy->slot[phy->nmeas - 1].len;
	a->data_ns = phy->timing.data_ns;
	a->ndata = vlc_phy_ndata(phy->mode);
	for (i = 0; i < a->ndata; i++)
		a->data_start[i] = phy->slot[2 + 2 * i].start;
	/* in the tick, done by the next frame's report */
	a->steps_per_tick = div_u64(VLC_PHY_ACQ_NX + VLC_PHY_ACQ_LEVELS +
				    phy->nmeas, phy->nmeas + 1);
	a->stage = VLC_PHY_ACQ_CAPTURED;
	return true;
}

/* Hand the captured frame to the search, with what it needs of the PHY. */
static void vlc_phy_acq_take(struct vlc_phy *phy)
{
	struct vlc_phy_acq *a = &phy->acq;

	a->in_flush = a->flush;
	a->flush = false;
	a->in_stale = a->frame_start < phy->settle_ns;
	a->in_noise_var = phy->noise_var;
	a->in_noise_samples = phy->noise_samples;
	a->in_min_level = phy->rx_min_level;
}

/* Prepare the captured frame for the search: the ambient line off the
 * levels, centred time, reciprocals.
 */
static void vlc_phy_acq_snapshot(struct vlc_phy_acq *a)
{
	s32 tc[VLC_PHY_ACQ_BINS];
	s64 sc = 0, st = 0, stt = 0, sy = 0, sty = 0, ybar, slope;
	s64 r[VLC_PHY_ACQ_BINS];
	u32 i, nb = a->nbins, sh = 0, mx = 0;
	u64 rmax = 0, fl;

	/* centred time, scaled below 2^10 */
	for (i = 0; i < nb; i++)
		sc += a->centre[i];
	for (i = 0; i < nb; i++) {
		tc[i] = (s32)(nb * a->centre[i]) - (s32)sc;
		mx = max_t(u32, mx, vlc_phy_abs(tc[i]));
	}
	while ((mx >> sh) >= 1024)
		sh++;
	for (i = 0; i < nb; i++) {
		a->time[i] = vlc_phy_sshr(tc[i], sh);
		st += a->time[i];
	}
	st = div_s64(st, nb);
	for (i = 0; i < nb; i++) {
		a->time[i] -= st;
		stt += (s64)a->time[i] * a->time[i];
		sy += a->level[i];
		sty += (s64)a->time[i] * a->level[i];
	}
	stt = max_t(s64, stt, 1);

	/* levels off their line, scaled below 2^14 */
	ybar = div_s64(sy * 256, nb);
	slope = div64_s64(sty * 256, stt);
	for (i = 0; i < nb; i++) {
		r[i] = vlc_phy_sshr((s64)a->level[i] * 256 - ybar -
				    slope * a->time[i] + 128, 8);
		rmax = max_t(u64, rmax, vlc_phy_abs(r[i]));
	}
	a->resid_shift = 0;
	while ((rmax >> a->resid_shift) >= (1U << 14))
		a->resid_shift++;
	a->resid_sq = 0;
	for (i = 0; i < nb; i++) {
		a->resid[i] = vlc_phy_sshr(r[i], a->resid_shift);
		a->resid_sq += (s64)a->resid[i] * a->resid[i];
		a->inv_len[i] = min_t(u64, div_u64(1ULL << 32, a->win_end[i] -
							   a->win_start[i]),
				      U32_MAX);
	}
	a->inv_nbins = div_u64(1ULL << 32, nb);
	a->inv_stt = min_t(u64, div64_u64(1ULL << 48, stt), U32_MAX);
	/* On a noiseless channel every column's correlation would
	 * saturate at VLC_PHY_ACQ_CN_MAX, and (sum c)^2 / sum q would then
	 * pick the smallest template, a lone data pulse anywhere: a
	 * neighbour's illumination pulse read as data (K3).
	 */
	if (a->in_min_level) {
		fl = a->in_min_level / VLC_PHY_ACQ_FLOOR_DIV;
		fl = max_t(u64, (fl * fl) >> (2 * a->resid_shift), 1);
	} else {
		fl = VLC_PHY_ACQ_VAR_MIN;
	}
	a->noise_var = max_t(u64, a->in_noise_var >> (2 * a->resid_shift), fl);
	a->inv_rms = div_u64(1ULL << 16, max(int_sqrt64(a->noise_var), 1U));

	a->half_on_max = (a->frame_ns - a->meas_ns + 1) / 2;
	a->col_step = div_u64(a->frame_ns, VLC_PHY_ACQ_NX);
	a->cursor = 0;
}

/* In the tick: a few steps of the search, after the pins. */
static void vlc_phy_acq_work(struct vlc_phy *phy)
{
	struct vlc_phy_acq *a = &phy->acq;
	u32 n = a->steps_per_tick;

	if (a->stage == VLC_PHY_ACQ_CAPTURED && !a->defer) {
		vlc_phy_acq_take(phy);
		vlc_phy_acq_snapshot(a);
		a->stage = VLC_PHY_ACQ_GRID;
	}
	while (n-- && a->stage >= VLC_PHY_ACQ_GRID) {
		if (a->stage == VLC_PHY_ACQ_GRID) {
			vlc_phy_acq_col(a, a->cursor++);
			if (a->cursor < VLC_PHY_ACQ_NX)
				continue;
			a->cursor = 0;
			/* what the tick did since the frame was taken */
			a->in_flush |= a->flush;
			a->flush = false;
			a->in_stale = a->frame_start < phy->settle_ns;
			a->stage = vlc_phy_acq_select(a) ?
				   VLC_PHY_ACQ_REFINE : VLC_PHY_ACQ_IDLE;
			vlc_phy_acq_apply_select(phy);
		} else {
			vlc_phy_acq_refine(a, a->cursor++);
			if (a->cursor < VLC_PHY_ACQ_LEVELS)
				continue;
			a->out_lit_max = vlc_phy_acq_eval(a, &a->best);
			vlc_phy_acq_apply_finish(phy);
			a->stage = VLC_PHY_ACQ_IDLE;
		}
	}
}

void vlc_phy_set_acq_defer(struct vlc_phy *phy, bool defer)
{
	phy->acq.defer = defer;
}

/* Under the executor's lock: a captured frame waits for a deferred
 * search.
 */
bool vlc_phy_acq_pending(const struct vlc_phy *phy)
{
	return phy->acq.defer && phy->acq.stage == VLC_PHY_ACQ_CAPTURED;
}

/* The search runs in the tick (not deferred) right now: for the channel
 * model of the tests, which counts such searches.
 */
bool vlc_phy_acq_in_tick(const struct vlc_phy *phy)
{
	return phy->acq.stage >= VLC_PHY_ACQ_GRID;
}

/**
 * vlc_phy_acq_begin - take a captured frame for a deferred search
 * @phy: PHY
 *
 * Context: the caller serialises with vlc_phy_tick() (executor lock).
 * Return: true if a frame was taken; then call vlc_phy_acq_search()
 * without the lock and vlc_phy_acq_end() with it.
 */
bool vlc_phy_acq_begin(struct vlc_phy *phy)
{
	if (!phy->acq.defer || phy->acq.stage != VLC_PHY_ACQ_CAPTURED)
		return false;
	vlc_phy_acq_take(phy);
	phy->acq.stage = VLC_PHY_ACQ_BUSY;
	return true;
}

/**
 * vlc_phy_acq_search - the whole search of the frame taken
 * @phy: PHY
 *
 * Not serialised with vlc_phy_tick(): it reads and writes only the
 * search's part of @phy->acq, which the tick leaves alone while the stage
 * is VLC_PHY_ACQ_BUSY. It yields between columns and between levels: on
 * a kernel without full preemption a board's executor thread, woken on
 * this CPU, would otherwise wait for the whole search.
 *
 * Context: process context, may sleep.
 */
void vlc_phy_acq_search(struct vlc_phy *phy)
{
	struct vlc_phy_acq *a = &phy->acq;
	u32 i;

	might_sleep();
	vlc_phy_acq_snapshot(a);
	for (i = 0; i < VLC_PHY_ACQ_NX; i++) {
		vlc_phy_acq_col(a, i);
		cond_resched();
	}
	if (!vlc_phy_acq_select(a))
		return;
	for (i = 0; i < VLC_PHY_ACQ_LEVELS; i++) {
		vlc_phy_acq_refine(a, i);
		cond_resched();
	}
	a->out_lit_max = vlc_phy_acq_eval(a, &a->best);
}

/**
 * vlc_phy_acq_end - apply the outcome of a deferred search
 * @phy: PHY
 *
 * Context: the caller serialises with vlc_phy_tick() (executor lock).
 */
void vlc_phy_acq_end(struct vlc_phy *phy)
{
	struct vlc_phy_acq *a = &phy->acq;

	if (a->stage != VLC_PHY_ACQ_BUSY)
		return;
	a->stage = VLC_PHY_ACQ_IDLE;
	/* locked, or reset, or the grid moved while the search ran */
	if (phy->locked || a->flush || a->frame_start < phy->settle_ns)
		return;
	vlc_phy_acq_apply_select(phy);
	if (a->detected)
		vlc_phy_acq_apply_finish(phy);
}

/* Acquisition is done: the signal scale for the receiver to lock to. */
static u32 vlc_phy_acq_lock(struct vlc_phy_acq *a)
{
	/* a fit with a window wholly lit, else the last one */
	u32 signal = a->amp_known ? a->amp_known : a->amp;

	a->coarse_mode = false;
	vlc_phy_acq_reset(a, true);
	return signal;
}

/* The report of a frame while acquiring. Return: the signal scale the
 * receiver locks to now, or 0 to go on acquiring.
 */
u32 vlc_phy_acq_report(struct vlc_phy *phy, struct vlc_phy_rx *rx)
{
	struct vlc_phy_acq *a = &phy->acq;
	u32 r;
	s32 x;

	rx->acquiring = true;
	if (a->reported && (a->amp_known || a->amp) &&
	    a->empty >= VLC_PHY_ACQ_HIDDEN) {
		/* seen, corrected, now hidden behind our own light */
		rx->sync = VLC_PHY_SYNC_IN;
		return vlc_phy_acq_lock(a);
	}
	if (!a->have_est)
		return 0;
	div_u64_rem(phy->frame_start, a->frame_ns, &r);
	x = vlc_phy_wrap((s64)a->phase_ns - r, a->frame_ns);
	rx->offset_ns = x;
	if (x > 0) {
		rx->sync = VLC_PHY_SYNC_LATE;
		phy->stats.sync_late++;
	} else if (x < 0) {
		rx->sync = VLC_PHY_SYNC_EARLY;
		phy->stats.sync_early++;
	} else {
		rx->sync = VLC_PHY_SYNC_IN;
	}
	if (!a->fresh_est)
		return 0;
	a->fresh_est = false;
	a->reported = true;
	if (!a->edge_only) {
		rx->coarse = true;
		phy->stats.acq_coarse++;
		a->coarse_mode = true;
	}
	/* within the reach of the fine estimator: lock */
	if (vlc_phy_abs(x) <= phy->timing.sync_ns && (a->amp_known || a->amp))
		return vlc_phy_acq_lock(a);
	return 0;
}

/* The hooks by which the engine and the receiver reach acquisition
 * (vlc_phy_priv.h), besides vlc_phy_acq_report() above.
 */

/* The PHY starts: a deferred search of the last run was cancelled with
 * its worker.
 */
void vlc_phy_acq_start(struct vlc_phy *phy)
{
	phy->acq.stage = VLC_PHY_ACQ_IDLE;
}

/* A frame is laid out with its dark ID part of @dark ns (stretched by a
 * phase step @adj) from slot @first. Return: the windows to measure it
 * in while acquiring, short enough for a neighbour's pulse to cover some
 * wholly; 0: one unmeasured slot.
 */
u32 vlc_phy_acq_id_windows(struct vlc_phy *phy, u32 first, u32 dark,
			   s32 adj)
{
	struct vlc_phy_acq *a = &phy->acq;
	u32 guard = phy->timing.guard_ns;

	a->id_first = first;
	a->id_count = 0;
	a->id_late = false;
	if (!phy->locked && !adj && dark >= guard)
		a->id_count = min(dark / max(guard / 2, 1U),
				  (u32)VLC_PHY_ID_WINDOWS);
	return a->id_count;
}

/* An ID window began late: the frame is not searched. */
void vlc_phy_acq_id_late(struct vlc_phy *phy)
{
	phy->acq.id_late = true;
}

/* Acquiring, a measured window just ended, @late: note a late ID window,
 * and once the frame's last measured window has ended on time, take the
 * frame for a search. Return: a frame was taken.
 */
bool vlc_phy_acq_window_end(struct vlc_phy *phy, bool late)
{
	struct vlc_phy_acq *a = &phy->acq;
	u32 last;

	if (phy->cur >= a->id_first && late)
		a->id_late = true;
	last = a->id_count ? a->id_first + a->id_count - 1 : phy->nmeas - 1;
	if (phy->cur != last || late || a->id_late)
		return false;
	return vlc_phy_acq_capture(phy, last);
}

/* In the tick, after the pins: a few steps of a search in progress.
 * Return: a frame is still in hand (captured, or being searched).
 */
bool vlc_phy_acq_tick(struct vlc_phy *phy)
{
	if (phy->acq.stage != VLC_PHY_ACQ_IDLE)
		vlc_phy_acq_work(phy);
	return phy->acq.stage != VLC_PHY_ACQ_IDLE;
}

/* Coarse reports are being made: a phase correction is due in one
 * frame (vlc_phy_adjust_phase()).
 */
bool vlc_phy_acq_coarse_due(const struct vlc_phy *phy)
{
	return phy->acq.coarse_mode;
}

/* Our grid moves, or will: the estimate at hand must not be reported
 * again, or it would be acted upon twice.
 */
void vlc_phy_acq_drop_report(struct vlc_phy *phy)
{
	phy->acq.agree = 0;
	phy->acq.fresh_est = false;
}

/* The receiver lost its lock: acquire afresh, scale and history too. */
void vlc_phy_acq_unlocked(struct vlc_phy *phy)
{
	vlc_phy_acq_reset(&phy->acq, true);
}
