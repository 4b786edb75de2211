/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: cond_resched(), a no-op in a single-threaded program. */
#ifndef _HOST_LINUX_SCHED_H
#define _HOST_LINUX_SCHED_H

#define cond_resched()	do { } while (0)

#endif /* _HOST_LINUX_SCHED_H */
