/* SPDX-License-Identifier: GPL-2.0 */
/*
 * VLC light model: what a receiver measures over a window. vlc_sim.ko
 * and the host simulator (tests/vlc_hsim.c) both compute it here, so
 * that the benches and the QEMU runs measure the same physics. Pure C
 * and header-only: vlc_sim.ko and vlc.ko (its KUnit suites) both need
 * it, and kbuild links an object into one module only.
 */
#ifndef _VLC_LIGHT_H
#define _VLC_LIGHT_H

#include <linux/types.h>
#include <linux/math.h>
#include <linux/math64.h>
#include <linux/minmax.h>

/**
 * DOC: Light model
 *
 * A receiver measuring over a window of length T reads the mean over
 * that window of:
 *
 * - each neighbour's light: its gain (what its lit LED reads,
 *   VLC_LIGHT_FULL = 1000 at full gain) times the fraction of T its LED
 *   was lit;
 * - the ambient light, DC plus mains flicker averaged over the window;
 * - white Gaussian noise of rms noise * sqrt(ref / T), where noise is
 *   the rms of a window of ref = 50 us, the default timing's data slot:
 *   noise averaged over a longer window is smaller.
 *
 * An LED used as the receiver senses 1/8 of the light a photodiode
 * would, and none while it is lit itself; the noise of the measurement
 * stays.
 */

#define VLC_LIGHT_FULL		1000	/* what a lit LED at full gain reads */
#define VLC_LIGHT_LED_DIV	8	/* an LED receiver: 1/8 of a photodiode */
#define VLC_LIGHT_NOISE_REF_NS	50000	/* vlc_phy_default_timing.data_ns */

/* sin(2 pi phase / 2^32) * 2^30, odd polynomial over a quarter wave */
static inline s32 vlc_light_sin_q30(u32 phase)
{
	u32 q = phase >> 30;
	s64 z = phase & 0x3fffffff;
	s64 z2, p;

	if (q & 1)
		z = (1LL << 30) - z;
	z2 = (z * z) >> 30;
	p = 172272;				/* (pi/2)^9 / 9! */
	p = 5026995 - ((z2 * p) >> 30);		/* (pi/2)^7 / 7! */
	p = 85569306 - ((z2 * p) >> 30);	/* (pi/2)^5 / 5! */
	p = 693598668 - ((z2 * p) >> 30);	/* (pi/2)^3 / 3! */
	p = 1686629713 - ((z2 * p) >> 30);	/* pi/2 */
	p = (z * p) >> 30;
	return q >= 2 ? -p : p;
}

/* The phase at @t ns of a wave of @hz (1..10000), in 1/2^32 turns. */
static inline u32 vlc_light_phase(u64 t, u32 hz)
{
	u32 rem;

	div_u64_rem(t, 1000000000U, &rem);
	div_u64_rem((u64)rem * hz, 1000000000U, &rem);
	return div_u64((u64)rem << 32, 1000000000U);
}

static inline s64 vlc_light_flicker_at(u32 amp, u32 hz, u64 t)
{
	return ((s64)amp * vlc_light_sin_q30(vlc_light_phase(t, hz))) >> 30;
}

/**
 * vlc_light_flicker_mean - mean flicker over a window
 * @amp: amplitude
 * @hz: frequency, 1..10000
 * @a: start of the window, ns
 * @b: its end, ns
 *
 * Simpson's rule, exact to 1e-9 of @amp for windows under a tenth of the
 * period.
 *
 * Return: the mean over [@a, @b) of @amp * sin(2 pi @hz t).
 */
static inline s64 vlc_light_flicker_mean(u32 amp, u32 hz, u64 a, u64 b)
{
	if (!amp)
		return 0;
	return div_s64(vlc_light_flicker_at(amp, hz, a) +
		       4 * vlc_light_flicker_at(amp, hz, a + (b - a) / 2) +
		       vlc_light_flicker_at(amp, hz, b), 6);
}

/* rms of white noise of rms @noise over @ref_ns, averaged over @len ns */
static inline u32 vlc_light_noise_rms(u32 noise, u32 ref_ns, u64 len)
{
	if (!noise || !len)
		return noise;
	return ((u64)noise *
		int_sqrt64(div64_u64((u64)ref_ns << 32, len))) >> 16;
}

/* What an LED receiver senses of @light: a fraction, and nothing for the
 * @own ns of the @len ns window it was lit itself.
 */
static inline s64 vlc_light_led_sense(s64 light, u64 own, u64 len)
{
	own = min(own, len);
	return div64_s64(light * (s64)(len - own),
			 (s64)len * VLC_LIGHT_LED_DIV);
}

#endif /* _VLC_LIGHT_H */
