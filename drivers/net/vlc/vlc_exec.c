// SPDX-License-Identifier: GPL-2.0
/* VLC executors. See vlc_exec.h for what each is for and
 * Documentation/networking/vlc.rst for the late-callback policy, which
 * lives in the PHY: an executor only reports the time it really ran.
 */

#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>

#include "vlc_compat.h"
#include "vlc_exec.h"

const char *vlc_exec_kind_name(enum vlc_exec_kind kind)
{
	switch (kind) {
	case VLC_EXEC_HRTIMER:
		return "hrtimer";
	case VLC_EXEC_THREAD:
		return "thread";
	default:
		return "external";
	}
}

/* Hard-IRQ context: never sleeps, so neither may run() nor the pins. */
static enum hrtimer_restart vlc_exec_timer_fn(struct hrtimer *timer)
{
	struct vlc_exec *ex = container_of(timer, struct vlc_exec, timer);
	u64 next;

	raw_spin_lock(&ex->rlock);
	next = ex->run(ex->ctx, ktime_get_ns());
	raw_spin_unlock(&ex->rlock);

	/* Anchored to absolute time: run() returns the next boundary of the
	 * schedule, never "now + period", so lateness does not accumulate.
	 */
	hrtimer_set_expires(timer, ns_to_ktime(next));
	return HRTIMER_RESTART;
}

static int vlc_exec_thread_fn(void *data)
{
	struct vlc_exec *ex = data;
	u64 next = ex->next_ns, now;
	unsigned int behind = 0;

	sched_set_fifo(current);
	while (!kthread_should_stop()) {
		ktime_t expires = ns_to_ktime(next);

		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop()) {
			__set_current_state(TASK_RUNNING);
			break;
		}
		schedule_hrtimeout_range(&expires, 0, HRTIMER_MODE_ABS);
		if (kthread_should_stop())
			break;

		mutex_lock(&ex->mlock);
		next = ex->run(ex->ctx, ktime_get_ns());
		mutex_unlock(&ex->mlock);

		now = ktime_get_ns();
		if (next > now) {
			behind = 0;
			continue;
		}
		if (++behind < VLC_EXEC_BEHIND_MAX)
			continue;
		behind = 0;
		WRITE_ONCE(ex->yields, ex->yields + 1);
		pr_warn_ratelimited("vlc/%s: %u slot boundaries in a row passed before the thread was done: sleeping %lu us (timing too fast for this board?)\n",
				    ex->name, VLC_EXEC_BEHIND_MAX,
				    VLC_EXEC_YIELD_NS / NSEC_PER_USEC);
		next = now + VLC_EXEC_YIELD_NS;
	}
	return 0;
}

/**
 * vlc_exec_check_timing - whether an executor of @kind can run a timing
 * @kind: the executor
 * @frame_ns: frame
 * @sync_ns: sync slot
 * @guard_ns: guard
 * @data_ns: data slot
 * @why: set to the refusal, naming the field; or NULL
 *
 * A timer runs every slot boundary: a real clock cannot follow what the
 * simulator's virtual one can. The hrtimer and thread executors refuse
 * frames shorter than VLC_EXEC_FRAME_NS_MIN and slots shorter than
 * VLC_EXEC_SLOT_NS_MIN; an external one takes any.
 *
 * Return: 0 or -EINVAL.
 */
int vlc_exec_check_timing(enum vlc_exec_kind kind, u32 frame_ns,
			  u32 sync_ns, u32 guard_ns, u32 data_ns,
			  enum vlc_refusal *why)
{
	enum vlc_refusal r = VLC_REFUSE_NONE;

	if (kind == VLC_EXEC_EXTERNAL)
		r = VLC_REFUSE_NONE;
	else if (frame_ns < VLC_EXEC_FRAME_NS_MIN)
		r = VLC_REFUSE_EXEC_FRAME;
	else if (sync_ns < VLC_EXEC_SLOT_NS_MIN)
		r = VLC_REFUSE_EXEC_SYNC;
	else if (guard_ns < VLC_EXEC_SLOT_NS_MIN)
		r = VLC_REFUSE_EXEC_GUARD;
	else if (data_ns < VLC_EXEC_SLOT_NS_MIN)
		r = VLC_REFUSE_EXEC_DATA;
	if (why)
		*why = r;
	return r ? -EINVAL : 0;
}

void vlc_exec_init(struct vlc_exec *ex, enum vlc_exec_kind kind,
		   u64 (*run)(void *ctx, u64 now_ns), void *ctx,
		   const char *name)
{
	ex->kind = kind;
	ex->run = run;
	ex->ctx = ctx;
	ex->name = name;
	ex->task = NULL;
	ex->running = false;
	ex->yields = 0;
	ex->clock = NULL;
	raw_spin_lock_init(&ex->rlock);
	mutex_init(&ex->mlock);
	hrtimer_setup(&ex->timer, vlc_exec_timer_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_ABS_HARD);
}

/**
 * vlc_exec_set_clock - give an external executor its own clock
 * @ex: executor of kind VLC_EXEC_EXTERNAL
 * @clock: returns the current time on the external executor's clock
 * @ctx: passed to @clock
 */
void vlc_exec_set_clock(struct vlc_exec *ex, u64 (*clock)(void *ctx),
			void *ctx)
{
	ex->clock = clock;
	ex->clock_ctx = ctx;
}
EXPORT_SYMBOL_GPL(vlc_exec_set_clock);

/* The time run() is given: monotonic, or the external executor's. */
u64 vlc_exec_now(struct vlc_exec *ex)
{
	if (ex->clock)
		return ex->clock(ex->clock_ctx);
	return ktime_get_ns();
}

/**
 * vlc_exec_start - start calling run() from @first_ns on
 * @ex: executor
 * @first_ns: absolute CLOCK_MONOTONIC time of the first call
 *
 * Context: process context, may sleep (creates a kthread).
 * Return: 0 or a negative errno.
 */
int vlc_exec_start(struct vlc_exec *ex, u64 first_ns)
{
	might_sleep();
	ex->next_ns = first_ns;
	WRITE_ONCE(ex->running, true);
	switch (ex->kind) {
	case VLC_EXEC_HRTIMER:
		hrtimer_start(&ex->timer, ns_to_ktime(first_ns),
			      HRTIMER_MODE_ABS_HARD);
		return 0;
	case VLC_EXEC_THREAD:
		ex->task = kthread_run(vlc_exec_thread_fn, ex, "vlc/%s",
				       ex->name);
		if (IS_ERR(ex->task)) {
			int err = PTR_ERR(ex->task);

			ex->task = NULL;
			return err;
		}
		return 0;
	default:
		return 0;
	}
}

/**
 * vlc_exec_stop - stop calling run(); returns after the last call ended
 * @ex: executor
 *
 * Context: process context, may sleep; must not hold the executor lock.
 */
void vlc_exec_stop(struct vlc_exec *ex)
{
	might_sleep();
	switch (ex->kind) {
	case VLC_EXEC_HRTIMER:
		hrtimer_cancel(&ex->timer);
		break;
	case VLC_EXEC_THREAD:
		if (ex->task) {
			kthread_stop(ex->task);
			ex->task = NULL;
		}
		break;
	default:
		/* The external runner checks this under the mutex. */
		mutex_lock(&ex->mlock);
		WRITE_ONCE(ex->running, false);
		mutex_unlock(&ex->mlock);
		return;
	}
	WRITE_ONCE(ex->running, false);
}
