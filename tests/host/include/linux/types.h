/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: the kernel's fixed-width types for the pure cores. Built from
 * compiler macros only, so a cross compiler without a libc (the armhf
 * division check) can use it too.
 */
#ifndef _HOST_LINUX_TYPES_H
#define _HOST_LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>

typedef __UINT8_TYPE__ u8;
typedef __UINT16_TYPE__ u16;
typedef __UINT32_TYPE__ u32;
typedef __UINT64_TYPE__ u64;
typedef __INT8_TYPE__ s8;
typedef __INT16_TYPE__ s16;
typedef __INT32_TYPE__ s32;
typedef __INT64_TYPE__ s64;

/* the C99 names, which kernel libraries (lib/reed_solomon) use too */
typedef __UINT8_TYPE__ uint8_t;
typedef __UINT16_TYPE__ uint16_t;

typedef unsigned int gfp_t;

struct list_head {
	struct list_head *next, *prev;
};

#endif /* _HOST_LINUX_TYPES_H */
