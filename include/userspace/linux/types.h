/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace builds of lib/ and its headers (the tool, the unit tests): the
 * kernel's type names over the UAPI header's __u64 and the like, as the
 * kernel's own tools/include/linux/types.h.  The module gets the kernel's
 * header: include/userspace/ is on no path of its build.
 */
#ifndef MSL_USER_LINUX_TYPES_H
#define MSL_USER_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

#endif /* MSL_USER_LINUX_TYPES_H */
