// SPDX-License-Identifier: GPL-2.0
/* KUnit tests of the executors: what a board's thread executor does when
 * its run() cannot keep up.
 */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/ktime.h>

#include "vlc_exec.h"

struct vlc_exec_test {
	atomic_t calls;
};

/* Every boundary it asks for has passed by the time it returns. */
static u64 vlc_exec_test_behind(void *ctx, u64 now_ns)
{
	struct vlc_exec_test *t = ctx;

	atomic_inc(&t->calls);
	return now_ns;
}

/* A run() that is always behind gets the RT thread's CPU for at most
 * VLC_EXEC_BEHIND_MAX calls at a time: between them the thread sleeps,
 * and the test's own thread, which may share that CPU, gets to run.
 */
static void vlc_exec_test_thread_yields(struct kunit *test)
{
	struct vlc_exec_test t = { .calls = ATOMIC_INIT(0) };
	struct vlc_exec *ex;
	u64 yields;
	int calls, i;

	/* not on the stack: it holds an hrtimer */
	ex = kunit_kzalloc(test, sizeof(*ex), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ex);
	vlc_exec_init(ex, VLC_EXEC_THREAD, vlc_exec_test_behind, &t, "kunit");
	KUNIT_ASSERT_EQ(test, vlc_exec_start(ex, ktime_get_ns()), 0);
	/* counted in calls, not in time: a guest on a busy host may not
	 * run the thread at all for tens of milliseconds
	 */
	for (i = 0; i < 500 && atomic_read(&t.calls) < 4 * VLC_EXEC_BEHIND_MAX;
	     i++)
		msleep(20);
	vlc_exec_stop(ex);

	yields = READ_ONCE(ex->yields);
	calls = atomic_read(&t.calls);
	kunit_info(test, "%d calls, %llu sleeps while behind", calls, yields);
	KUNIT_EXPECT_GT(test, yields, 0ULL);
	KUNIT_EXPECT_LE(test, (u64)calls, (yields + 1) * VLC_EXEC_BEHIND_MAX);
}

static struct kunit_case vlc_exec_test_cases[] = {
	KUNIT_CASE(vlc_exec_test_thread_yields),
	{}
};

static struct kunit_suite vlc_exec_test_suite = {
	.name = "vlc_exec",
	.test_cases = vlc_exec_test_cases,
};

kunit_test_suite(vlc_exec_test_suite);
