/* SPDX-License-Identifier: GPL-2.0 */
/* VLC executors: what calls the PHY at its slot boundaries.
 *
 *  - hrtimer: HRTIMER_MODE_ABS_HARD, absolute expiries, runs in hard-IRQ
 *    context; for pins that never sleep (MMIO GPIO).
 *  - thread: an RT kthread sleeping on absolute hrtimer expiries; for pins
 *    that sleep (IIO ADCs, GPIO expanders on I2C/SPI).
 *  - external: somebody else calls the run function (the simulator runs
 *    all its nodes in virtual time).
 *
 * The executor knows nothing of the PHY: it calls run(ctx, now), which
 * returns the absolute time it wants to be called next, on the
 * executor's clock: CLOCK_MONOTONIC, or the simulator's virtual clock.
 * The same lock serialises run() and whoever changes the state run()
 * uses: a raw spinlock for the hrtimer executor, a mutex otherwise.
 */
#ifndef _VLC_EXEC_H
#define _VLC_EXEC_H

#include <linux/compiler_types.h>
#include <linux/hrtimer.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>

#include "vlc_refusal.h"

enum vlc_exec_kind {
	VLC_EXEC_HRTIMER,
	VLC_EXEC_THREAD,
	VLC_EXEC_EXTERNAL,
};

/* The shortest frame and slot the hrtimer and thread executors are asked
 * to run; vlc.rst, "Timing limits", says why. External executors run in
 * virtual time and keep the PHY's own limits.
 */
#define VLC_EXEC_FRAME_NS_MIN	250000U		/* 250 us */
#define VLC_EXEC_SLOT_NS_MIN	10000U		/* 10 us */

/* So many calls in a row that returned a boundary already passed, and the
 * thread sleeps VLC_EXEC_YIELD_NS anyway: a board too slow for its timing
 * loses those frames (the PHY counts them as overruns) but never the CPU,
 * whose RCU and timer threads run at lower RT priorities.
 */
#define VLC_EXEC_BEHIND_MAX	64
#define VLC_EXEC_YIELD_NS	NSEC_PER_MSEC

struct vlc_exec {
	enum vlc_exec_kind kind;
	u64 (*run)(void *ctx, u64 now_ns);
	void *ctx;
	raw_spinlock_t rlock;		/* run() of the hrtimer kind */
	struct mutex mlock;		/* run() of thread/external kinds */
	struct hrtimer timer;
	struct task_struct *task;
	u64 next_ns;
	bool running;
	u64 (*clock)(void *ctx);
	void *clock_ctx;
	const char *name;		/* the thread's is "vlc/" + this, at start */
	u64 yields;			/* thread: sleeps taken while behind */
};

void vlc_exec_init(struct vlc_exec *ex, enum vlc_exec_kind kind,
		   u64 (*run)(void *ctx, u64 now_ns), void *ctx,
		   const char *name);
int vlc_exec_check_timing(enum vlc_exec_kind kind, u32 frame_ns,
			  u32 sync_ns, u32 guard_ns, u32 data_ns,
			  enum vlc_refusal *why);
void vlc_exec_set_clock(struct vlc_exec *ex, u64 (*clock)(void *ctx),
			void *ctx);
u64 vlc_exec_now(struct vlc_exec *ex);
int vlc_exec_start(struct vlc_exec *ex, u64 first_ns);
void vlc_exec_stop(struct vlc_exec *ex);
const char *vlc_exec_kind_name(enum vlc_exec_kind kind);

/* Take the executor's lock from process context. The conditional locking
 * is balanced for sparse by __acquire()/__release() on the mutex side.
 */
static inline unsigned long vlc_exec_lock(struct vlc_exec *ex)
	__acquires(ex)
{
	unsigned long flags = 0;

	if (ex->kind == VLC_EXEC_HRTIMER) {
		raw_spin_lock_irqsave(&ex->rlock, flags);
		__release(&ex->rlock);
	} else {
		mutex_lock(&ex->mlock);
	}
	__acquire(ex);
	return flags;
}

static inline void vlc_exec_unlock(struct vlc_exec *ex, unsigned long flags)
	__releases(ex)
{
	__release(ex);
	if (ex->kind == VLC_EXEC_HRTIMER) {
		__acquire(&ex->rlock);
		raw_spin_unlock_irqrestore(&ex->rlock, flags);
	} else {
		mutex_unlock(&ex->mlock);
	}
}

static inline void vlc_exec_assert_held(struct vlc_exec *ex)
{
	if (ex->kind == VLC_EXEC_HRTIMER)
		lockdep_assert_held(&ex->rlock);
	else
		lockdep_assert_held(&ex->mlock);
}

#endif /* _VLC_EXEC_H */
