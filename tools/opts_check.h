/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MSL_TOOL_OPTS_CHECK_H
#define MSL_TOOL_OPTS_CHECK_H

#include "opts.h"

/*
 * opts_check.c: @cl once its options and arguments are taken: -1 to go on,
 * else the exit status (usage error said: 2).
 */
int msl_cmdline_check(const struct msl_cmd *cmd, const struct msl_cmdline *cl);

#endif /* MSL_TOOL_OPTS_CHECK_H */
