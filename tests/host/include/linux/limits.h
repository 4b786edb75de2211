/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: the kernel's type limits, from compiler macros. */
#ifndef _HOST_LINUX_LIMITS_H
#define _HOST_LINUX_LIMITS_H

#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)
#define S32_MAX		((s32)__INT32_MAX__)
#define S32_MIN		((s32)(-S32_MAX - 1))
#define S64_MAX		((s64)__INT64_MAX__)
#define S64_MIN		((s64)(-S64_MAX - 1))

#endif /* _HOST_LINUX_LIMITS_H */
