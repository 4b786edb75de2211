/* SPDX-License-Identifier: GPL-2.0 */
/* What differs between the kernels linux-vlc builds against, 6.1 and up
 * (README.md, "Supported kernels"). Each entry names the version that
 * changed an interface, and gives the driver one spelling that every
 * supported kernel accepts: the newer API itself where it can be
 * backported, else a wrapper. No other file tests the kernel version.
 */
#ifndef _VLC_COMPAT_H
#define _VLC_COMPAT_H

#include <linux/hrtimer.h>
#include <linux/version.h>

/* 6.2 added formatted extended-ACK messages. Before it the extended ACK
 * points at the message, as NL_SET_ERR_MSG() makes it do: a string of the
 * module's read-only data outlives the request.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define vlc_nl_err_msg(extack, msg)	NL_SET_ERR_MSG_FMT(extack, "%s", msg)
#else
#define vlc_nl_err_msg(extack, msg)					\
do {									\
	struct netlink_ext_ack *__e = (extack);				\
									\
	if (__e)							\
		__e->_msg = (msg);					\
} while (0)
#endif

/* 6.6 added KUnit test attributes; before it a slow case is just a case. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 6, 0) && defined(KUNIT_CASE)
#define KUNIT_CASE_SLOW(test_name)	KUNIT_CASE(test_name)
#endif

/* 6.10 took __assign_str()'s source: __string() already names it. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define vlc_assign_str(dst, src)	__assign_str(dst)
#else
#define vlc_assign_str(dst, src)	__assign_str(dst, src)
#endif

/* 6.11 made platform_driver::remove return void. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define VLC_PLATFORM_REMOVE(name, fn)					\
static void name(struct platform_device *pdev) { fn(pdev); }
#else
#define VLC_PLATFORM_REMOVE(name, fn)					\
static int name(struct platform_device *pdev) { fn(pdev); return 0; }
#endif

/* 6.13 added hrtimer_setup(), which later kernels require. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
static inline void hrtimer_setup(struct hrtimer *timer,
				 enum hrtimer_restart (*fn)(struct hrtimer *),
				 clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = fn;
}
#endif

/* 6.15 packed rtnl_link_ops::newlink()'s arguments into a struct. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 15, 0)
#define VLC_RTNL_NEWLINK(name, fn)					\
static int name(struct net_device *dev,					\
		struct rtnl_newlink_params *params,			\
		struct netlink_ext_ack *extack)				\
{									\
	return fn(dev, params->tb, params->data, extack);		\
}
#else
#define VLC_RTNL_NEWLINK(name, fn)					\
static int name(struct net *net, struct net_device *dev,		\
		struct nlattr *tb[], struct nlattr *data[],		\
		struct netlink_ext_ack *extack)				\
{									\
	return fn(dev, tb, data, extack);				\
}
#endif

/* 6.17 added system_dfl_wq for system_unbound_wq, which later kernels
 * warn about.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 17, 0)
#define system_dfl_wq system_unbound_wq
#endif

/* 6.17 made gpio_chip::set() return int (the tests' GPIO chip only). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
#define VLC_GPIO_CHIP_SET(name, fn)					\
static int name(struct gpio_chip *gc, unsigned int off, int v)		\
{ fn(gc, off, v); return 0; }
#else
#define VLC_GPIO_CHIP_SET(name, fn)					\
static void name(struct gpio_chip *gc, unsigned int off, int v)		\
{ fn(gc, off, v); }
#endif

#endif /* _VLC_COMPAT_H */
