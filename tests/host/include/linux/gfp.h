/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: allocation flags, which the host's allocator ignores. */
#ifndef _HOST_LINUX_GFP_H
#define _HOST_LINUX_GFP_H

#include <linux/types.h>

#define GFP_KERNEL	((gfp_t)0x1)
#define GFP_ATOMIC	((gfp_t)0x2)

#endif /* _HOST_LINUX_GFP_H */
