/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: the few <linux/kernel.h> helpers the pure cores use. */
#ifndef _HOST_LINUX_KERNEL_H
#define _HOST_LINUX_KERNEL_H

#include <linux/types.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/math64.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif /* _HOST_LINUX_KERNEL_H */
