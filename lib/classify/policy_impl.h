/* Sharing a policy (internal). */
#ifndef TD_POLICY_IMPL_H
#define TD_POLICY_IMPL_H

#include "treedrift/policy.h"

/* One more holder of p: each holder frees it with td_policy_free(), and the
 * last one frees it. An analysis holds the policy whose class names its
 * changes point at. Returns p. */
td_policy_t *td_policy_retain(const td_policy_t *p);

#endif
