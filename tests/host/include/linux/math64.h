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

/* a * b / c with a 128-bit product, as on x86_64 in the kernel */
static inline u64 mul_u64_u64_div_u64(u64 a, u64 b, u64 c)
{
#if __SIZEOF_INT128__
	return (u64)((__uint128_t)a * b / c);
#else
	u64 q = 0, r = 0, hi, lo;
	int i;

	/* 64x64 product in two halves, then shift-and-subtract */
	hi = (a >> 32) * (b >> 32);
	lo = (a & 0xffffffffULL) * (b & 0xffffffffULL);
	{
		u64 m1 = (a >> 32) * (b & 0xffffffffULL);
		u64 m2 = (a & 0xffffffffULL) * (b >> 32);
		u64 mid = (lo >> 32) + (m1 & 0xffffffffULL) +
			  (m2 & 0xffffffffULL);

		hi += (m1 >> 32) + (m2 >> 32) + (mid >> 32);
		lo = (lo & 0xffffffffULL) | (mid << 32);
	}
	for (i = 127; i >= 0; i--) {
		u64 bit = i >= 64 ? (hi >> (i - 64)) & 1 : (lo >> i) & 1;
		bool carry = r >> 63;

		r = (r << 1) | bit;
		if (carry || r >= c) {
			r -= c;
			if (i < 64)
				q |= 1ULL << i;
		}
	}
	return q;
#endif
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
