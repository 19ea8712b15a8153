/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace builds of lib/ (see linux/types.h): READ_ONCE and WRITE_ONCE
 * as one volatile access each, and __printf.
 */
#ifndef MSL_USER_LINUX_COMPILER_H
#define MSL_USER_LINUX_COMPILER_H

#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val)	(*(volatile __typeof__(x) *)&(x) = (val))

#define __printf(a, b)		__attribute__((format(printf, a, b)))

#endif /* MSL_USER_LINUX_COMPILER_H */
