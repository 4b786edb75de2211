/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: the few <linux/kernel.h> helpers the pure cores use. */
#ifndef _HOST_LINUX_KERNEL_H
#define _HOST_LINUX_KERNEL_H

#include <linux/types.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/math64.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

/* Host programs run from one thread, where anything may sleep. */
#define might_sleep()	do { } while (0)

/* A kernel BUG is a crash here too: the fuzzers report it. */
#define BUG_ON(cond)	do { if (cond) __builtin_trap(); } while (0)

#endif /* _HOST_LINUX_KERNEL_H */
