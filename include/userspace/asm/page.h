/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace builds of lib/ (see linux/types.h): PAGE_SIZE, the running
 * system's, as the module's is the size of the kernel it runs in.
 */
#ifndef MSL_USER_ASM_PAGE_H
#define MSL_USER_ASM_PAGE_H

#include <unistd.h>

#define PAGE_SIZE		((unsigned long)sysconf(_SC_PAGESIZE))

#endif /* MSL_USER_ASM_PAGE_H */
