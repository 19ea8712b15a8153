/* SPDX-License-Identifier: GPL-2.0 */
/* A minimal unit-test reporter: one RESULT line per case, like the VM tests. */
#ifndef MSL_UNIT_H
#define MSL_UNIT_H

#include <stdio.h>

static int unit_failed_checks;

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: check failed: %s\n",		\
			__FILE__, __LINE__, #cond);			\
		unit_failed_checks++;					\
	}								\
} while (0)

#define RUN(suite, fn) do {						\
	int before = unit_failed_checks;				\
	fn();								\
	if (unit_failed_checks == before)				\
		printf("RESULT PASS unit/%s/%s\n", suite, #fn);		\
	else								\
		printf("RESULT FAIL unit/%s/%s %d failed checks\n",	\
		       suite, #fn, unit_failed_checks - before);	\
} while (0)

#endif /* MSL_UNIT_H */
