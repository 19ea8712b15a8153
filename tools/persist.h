/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MSL_TOOL_PERSIST_H
#define MSL_TOOL_PERSIST_H
struct msl_cgfs;

/*
 * persist.c: set --persist, unset --persist: @arg's drop-in file written
 * (with SIZE as given) or removed.  An exit status, failures said.
 */
int msl_persist_set(const struct msl_cgfs *fs, const char *arg,
		    const char *size);
int msl_persist_unset(const struct msl_cgfs *fs, const char *arg);

#endif /* MSL_TOOL_PERSIST_H */
