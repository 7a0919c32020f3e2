/* JSON string output shared by the reports and the CLI. */
#ifndef TREEDRIFT_JSON_H
#define TREEDRIFT_JSON_H

#include <stddef.h>
#include <stdio.h>

#include "treedrift/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Write s (len bytes, any bytes) as a quoted JSON string: controls and
 * bidirectional formatting characters as \uXXXX, and each byte that is not
 * part of well-formed UTF-8 as U+FFFD. */
TD_EXTERN void td_json_string(FILE *f, const char *s, size_t len);

#ifdef __cplusplus
}
#endif
#endif
