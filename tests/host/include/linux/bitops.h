/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: the bit search helpers of <linux/bitops.h>. */
#ifndef _HOST_LINUX_BITOPS_H
#define _HOST_LINUX_BITOPS_H

#include <linux/bits.h>

/* index of the lowest set bit; undefined for 0, as in the kernel */
static inline unsigned long __ffs(unsigned long word)
{
	return __builtin_ctzl(word);
}

#endif
