/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace builds of lib/: the kernel's ARRAY_SIZE (see linux/types.h). */
#ifndef MSL_USER_LINUX_KERNEL_H
#define MSL_USER_LINUX_KERNEL_H

#include_next <linux/kernel.h>

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

#endif /* MSL_USER_LINUX_KERNEL_H */
