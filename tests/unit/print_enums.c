// SPDX-License-Identifier: GPL-2.0
/*
 * print_enums: the enums of policy.h that traces carry as numbers, one
 * "LIST NUMBER WORD CONSTANT" line per value, made from the lists
 * themselves.  enums-check.sh compares docs/reference.md's table and the
 * bpftrace scripts' enum declarations with it.
 */
#include <stdio.h>

#include <memcg_softlimit/policy.h>

#define EM(value, word)		printf("%s %d %s %s\n", list, value, #word, #value);
#define EMe(value, word)	EM(value, word)

int main(void)
{
	const char *list;

	list = "kind";
	MSL_KIND_LIST(EM, EMe)
	list = "verdict";
	MSL_VERDICT_LIST(EM, EMe)
	list = "reason";
	MSL_REASON_LIST(EM, EMe)
	list = "limit";
	MSL_LIMIT_SOURCE_LIST(EM, EMe)
	list = "policy";
	MSL_POLICY_LIST(EM, EMe)
	return 0;
}
