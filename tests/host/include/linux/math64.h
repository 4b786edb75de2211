/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: the 64-bit division helpers of <linux/math64.h>. On 32-bit
 * targets they divide by shift and subtract, as the kernel has no libgcc
 * division there: a stray 64-bit '/' in shared code then shows up as an
 * __aeabi_uldivmod reference when it is cross-compiled with this shim.
 */
#ifndef _HOST_LINUX_MATH64_H
#define _HOST_LINUX_MATH64_H

#include <linux/types.h>

#if __SIZEOF_LONG__ >= 8
static inline u64 vlc_shim_div64(u64 n, u64 d, u64 *rem)
{
	*rem = n % d;
	return n / d;
}
#else
static inline u64 vlc_shim_div64(u64 n, u64 d, u64 *rem)
{
	u64 q = 0, r = 0;
	int i;

	for (i = 63; i >= 0; i--) {
		r = (r << 1) | ((n >> i) & 1);
		if (r >= d) {
			r -= d;
			q |= 1ULL << i;
		}
	}
	*rem = r;
	return q;
}
#endif

static inline u64 div64_u64_rem(u64 dividend, u64 divisor, u64 *remainder)
{
	return vlc_shim_div64(dividend, divisor, remainder);
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	u64 r;

	return vlc_shim_div64(dividend, divisor, &r);
}

static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	u64 r, q = vlc_shim_div64(dividend, divisor, &r);

	*remainder = r;
	return q;
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return div64_u64(dividend, divisor);
}

static inline s64 div64_s64(s64 dividend, s64 divisor)
{
	u64 n = dividend < 0 ? -(u64)dividend : (u64)dividend;
	u64 d = divisor < 0 ? -(u64)divisor : (u64)divisor;
	u64 q = div64_u64(n, d);

	return (dividend < 0) != (divisor < 0) ? -(s64)q : (s64)q;
}

static inline s64 div_s64(s64 dividend, s32 divisor)
{
	return div64_s64(dividend, divisor);
}

static inline u64 mul_u32_u32(u32 a, u32 b)
{
	return (u64)a * b;
}

#endif /* _HOST_LINUX_MATH64_H */
