/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: <linux/init.h>, whose section markers mean nothing here. */
#ifndef _HOST_LINUX_INIT_H
#define _HOST_LINUX_INIT_H

#define __init
#define __exit

#endif /* _HOST_LINUX_INIT_H */
