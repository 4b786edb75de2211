/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: the kernel error numbers the pure cores return, with the
 * values of asm-generic/errno-base.h (libc's <errno.h> would lead back
 * here through <linux/errno.h>).
 */
#ifndef _HOST_LINUX_ERRNO_H
#define _HOST_LINUX_ERRNO_H

#ifndef EINVAL
#define ENOENT		2
#define EIO		5
#define E2BIG		7
#define EAGAIN		11
#define ENOMEM		12
#define EBUSY		16
#define EINVAL		22
#define ENOSPC		28
#define ERANGE		34
#define EBADMSG		74
#define EOPNOTSUPP	95
#endif

#endif /* _HOST_LINUX_ERRNO_H */
