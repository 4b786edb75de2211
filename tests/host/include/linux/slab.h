/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: the kernel's allocators on the C library's (host programs
 * only: the cores themselves never allocate). Every allocation is
 * zeroed, which the kernel promises for the kz* ones alone.
 */
#ifndef _HOST_LINUX_SLAB_H
#define _HOST_LINUX_SLAB_H

#include <stdlib.h>

#include <linux/gfp.h>
#include <linux/string.h>

static inline void *kzalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	return calloc(1, size);
}

static inline void *kmalloc_array(size_t n, size_t size, gfp_t gfp)
{
	(void)gfp;
	return calloc(n, size);
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

/* 7.x: an allocation the size of what @obj names */
#define kzalloc_obj(obj, gfp)	kzalloc(sizeof(obj), gfp)

#endif /* _HOST_LINUX_SLAB_H */
