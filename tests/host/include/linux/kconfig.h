/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: IS_ENABLED() and friends, which the kernel's build puts in
 * front of every file. A host build defines CONFIG_FOO=1 with -D for
 * what it links in; everything is one program, so what is enabled is
 * built in and reachable.
 */
#ifndef _HOST_LINUX_KCONFIG_H
#define _HOST_LINUX_KCONFIG_H

/* 1 if @x is a macro defined as 1, else 0: a defined option turns the
 * first argument into "junk," which moves the 1 into second place.
 */
#define __host_opt_1			junk,
#define __host_second(a, b, ...)	b
#define __host_pick(args)		__host_second(args 1, 0, 0)
#define __host_paste(x)			__host_pick(__host_opt_##x)
#define __host_is_set(x)		__host_paste(x)

#define IS_BUILTIN(option)	__host_is_set(option)
#define IS_MODULE(option)	0
#define IS_ENABLED(option)	IS_BUILTIN(option)
#define IS_REACHABLE(option)	IS_BUILTIN(option)

#endif /* _HOST_LINUX_KCONFIG_H */
