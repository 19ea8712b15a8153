// SPDX-License-Identifier: GPL-2.0
/*
 * Addresses of unexported data symbols.
 *
 * kallsyms_lookup_name() is not exported, and calling it through a pointer
 * could fault on IBT kernels that sealed its ENDBR.  register_kprobe()
 * resolves a symbol name with kallsyms in the kernel itself and stores the
 * address in the probe before it refuses a probe on non-text, which is
 * all we need for a data symbol.
 */
#include <linux/kprobes.h>

#include "symbols.h"

unsigned long msl_lookup_data_symbol(const char *name)
{
	struct kprobe probe = { .symbol_name = name };
	int ret;

	ret = register_kprobe(&probe);
	if (!ret) {
		/* A text symbol: not what callers want. */
		unregister_kprobe(&probe);
		return 0;
	}
	return (unsigned long)probe.addr;
}
