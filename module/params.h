/* SPDX-License-Identifier: GPL-2.0 */
/* The module parameters, read locklessly by the hooks. */
#ifndef MSL_PARAMS_H
#define MSL_PARAMS_H

#include <memcg_softlimit/policy.h>

void msl_current_params(struct msl_params *params);
bool msl_keep_v1_reclaim(void);
/* Pages of targeted (limit) reclaim are counted too (off the hot path unless asked). */
bool msl_count_targeted(void);
const char *msl_test_field(void);
/* Testing only: one more function to check in BTF, as shrink_lruvec. */
const char *msl_test_proto(void);
/* Testing only: the gate does not count the steps it sees (liveness). */
bool msl_test_blind(void);

#endif /* MSL_PARAMS_H */
