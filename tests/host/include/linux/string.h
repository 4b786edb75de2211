/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: the mem* functions the pure cores use. Declared here rather
 * than taken from <string.h> so a cross compiler without a libc works.
 */
#ifndef _HOST_LINUX_STRING_H
#define _HOST_LINUX_STRING_H

#include <linux/types.h>

void *memcpy(void *dest, const void *src, size_t n);
void *memmove(void *dest, const void *src, size_t n);
void *memset(void *s, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

#endif /* _HOST_LINUX_STRING_H */
