/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: mutexes as no-ops. The host tests, fuzzers and benches run
 * kernel code from one thread.
 */
#ifndef _HOST_LINUX_MUTEX_H
#define _HOST_LINUX_MUTEX_H

#include <linux/list.h>

struct mutex {
	int unused;
};

#define DEFINE_MUTEX(name)	struct mutex name = { 0 }

static inline void mutex_lock(struct mutex *m)
{
	(void)m;
}

static inline void mutex_unlock(struct mutex *m)
{
	(void)m;
}

#endif /* _HOST_LINUX_MUTEX_H */
