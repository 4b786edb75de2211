/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: min/max/clamp with the kernel's names. The kernel versions
 * also reject mixed signedness at compile time; the kernel build checks
 * that, so plain evaluated-once versions suffice here.
 */
#ifndef _HOST_LINUX_MINMAX_H
#define _HOST_LINUX_MINMAX_H

#define min(x, y)	({ __auto_type _x = (x); __auto_type _y = (y); \
			   _x < _y ? _x : _y; })
#define max(x, y)	({ __auto_type _x = (x); __auto_type _y = (y); \
			   _x > _y ? _x : _y; })
#define min3(x, y, z)	min(min(x, y), z)
#define max3(x, y, z)	max(max(x, y), z)
#define min_t(type, x, y)	({ type _a = (x); type _b = (y); \
				   _a < _b ? _a : _b; })
#define max_t(type, x, y)	({ type _a = (x); type _b = (y); \
				   _a > _b ? _a : _b; })
#define clamp_t(type, val, lo, hi) min_t(type, max_t(type, val, lo), hi)
#define clamp(val, lo, hi)	min(max(val, lo), hi)

#endif /* _HOST_LINUX_MINMAX_H */
