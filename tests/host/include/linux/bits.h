/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: BIT() as the kernel defines it. */
#ifndef _HOST_LINUX_BITS_H
#define _HOST_LINUX_BITS_H

#define BIT(nr)		(1UL << (nr))
#define BIT_ULL(nr)	(1ULL << (nr))

#endif /* _HOST_LINUX_BITS_H */
