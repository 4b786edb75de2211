// SPDX-License-Identifier: GPL-2.0
/* VLC PHY core, the noise estimate: the variance of the light the fits
 * leave unexplained, fed by the receiver (from in-sync frames) and by
 * acquisition (from its search), and its rms, which the thresholds of
 * both scale with.
 *
 * Pure C, as vlc_phy.c.
 */

#include <linux/types.h>
#include <linux/bits.h>
#include <linux/math.h>
#include <linux/math64.h>

#include "vlc_phy.h"
#include "vlc_phy_priv.h"

/* floor(sqrt(@v)), from @r near it: the estimate moves by 1/16 at a
 * time, so a Newton step or two replaces a bit-by-bit root each frame.
 */
static u32 vlc_phy_sqrt_near(u64 v, u32 r)
{
	u32 i;

	if (!r || r >= BIT(31) || v >= (1ULL << 62))
		return int_sqrt64(v);
	for (i = 0; i < 4; i++) {
		u64 nr = ((u64)r + div64_u64(v, r)) >> 1;

		if (nr == r || !nr || nr >= BIT(31))
			break;
		r = nr;
	}
	if ((u64)r * r > v)
		r--;
	else if ((u64)(r + 1) * (r + 1) <= v)
		r++;
	/* still off: the estimate jumped */
	if ((u64)r * r > v || (u64)(r + 1) * (r + 1) <= v)
		return int_sqrt64(v);
	return r;
}

/* One variance sample into the noise estimate. */
void vlc_phy_noise_add(struct vlc_phy *phy, u64 var)
{
	u32 shift;

	/* Plain mean while warming up, then an EWMA. */
	if (phy->noise_samples < BIT(VLC_PHY_NOISE_SHIFT))
		phy->noise_samples++;
	shift = phy->noise_samples < BIT(VLC_PHY_NOISE_SHIFT) ?
		0 : VLC_PHY_NOISE_SHIFT;
	if (shift == 0) {
		/* var_k = var_{k-1} + (x - var_{k-1}) / k */
		if (var >= phy->noise_var)
			phy->noise_var += div_u64(var - phy->noise_var,
						  phy->noise_samples);
		else
			phy->noise_var -= div_u64(phy->noise_var - var,
						  phy->noise_samples);
	} else if (var >= phy->noise_var) {
		phy->noise_var += (var - phy->noise_var) >> shift;
	} else {
		phy->noise_var -= (phy->noise_var - var) >> shift;
	}
	phy->noise = vlc_phy_sqrt_near(phy->noise_var, phy->noise);
}
