// SPDX-License-Identifier: GPL-2.0
/* The one place that instantiates the memcg_softlimit tracepoints. */
#define CREATE_TRACE_POINTS
#include "msl_trace.h"
