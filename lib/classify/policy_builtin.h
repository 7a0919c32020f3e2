/* The built-in Linux policy: doc/policy-linux.policy, which lib/CMakeLists.txt
 * compiles in as bytes (policy_linux.c in the build tree). */
#ifndef TD_POLICY_BUILTIN_H
#define TD_POLICY_BUILTIN_H

#include <stddef.h>

extern const char td_policy_linux_text[];  /* NUL-terminated */
extern const size_t td_policy_linux_len;   /* without the NUL */

#endif
