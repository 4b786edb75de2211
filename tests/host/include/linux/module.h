/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: module metadata and exports, for kernel library code linked
 * into a host program. Each expands to a declaration that costs nothing,
 * so the semicolon after it stays valid C at file scope.
 */
#ifndef _HOST_LINUX_MODULE_H
#define _HOST_LINUX_MODULE_H

#define __host_module_nothing(x)	_Static_assert(1, #x)

#define EXPORT_SYMBOL(sym)		__host_module_nothing(sym)
#define EXPORT_SYMBOL_GPL(sym)		__host_module_nothing(sym)
#define MODULE_LICENSE(s)		__host_module_nothing(s)
#define MODULE_DESCRIPTION(s)		__host_module_nothing(s)
#define MODULE_AUTHOR(s)		__host_module_nothing(s)

#endif /* _HOST_LINUX_MODULE_H */
