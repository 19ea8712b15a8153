/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MSL_TOOL_MODULE_H
#define MSL_TOOL_MODULE_H

#include <stdbool.h>
#include <stddef.h>

#include <memcg_softlimit/policy.h>

struct msl_cgfs;

/* module.c: the loaded module and its parameters */
struct msl_module {
	bool loaded;
	bool params_read;		/* else V8's defaults */
	char version[64];
	struct msl_params params;
	bool keep_v1_reclaim;
};
void msl_module_read(struct msl_module *m);
bool msl_module_loaded(void);
void msl_params_default(struct msl_params *p);
int msl_bool_word(const char *s, bool *out);
/* "auto" or the number. */
const char *msl_threshold_fmt(int threshold, char *buf, size_t len);
/* "enabled=Y priority_threshold=auto unset=inherit" */
const char *msl_params_fmt(const struct msl_params *p, char *buf, size_t len);

/* module.c: cgroup v2 needs the module: 0, or MSL_EXIT_ERR with why said. */
int msl_need_module(const struct msl_cgfs *fs);

#endif /* MSL_TOOL_MODULE_H */
