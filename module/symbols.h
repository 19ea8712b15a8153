/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MSL_SYMBOLS_H
#define MSL_SYMBOLS_H

/* The address of an unexported data symbol, or 0. */
unsigned long msl_lookup_data_symbol(const char *name);

#endif /* MSL_SYMBOLS_H */
