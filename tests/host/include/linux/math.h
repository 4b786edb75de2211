/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in for the kernel's <linux/math.h>: DIV_ROUND_UP(), and
 * int_sqrt64() as lib/math/int_sqrt.c computes it.
 */
#ifndef _HOST_LINUX_MATH_H
#define _HOST_LINUX_MATH_H

#include <linux/types.h>

#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))

/* floor(sqrt(x)), bit by bit, as the kernel computes it */
static inline u32 int_sqrt64(u64 x)
{
	u64 r = 0, bit = 1ULL << 62;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

#endif
