/* JSON string output shared by the reports and the CLI. */
#ifndef TREEDRIFT_JSON_H
#define TREEDRIFT_JSON_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Write s (len bytes, any bytes) as a quoted JSON string: control
 * characters as \u00XX, and each byte that is not part of valid UTF-8 as
 * U+FFFD (see td_utf8_valid to know when a lossless form is needed). */
void td_json_string(FILE *f, const char *s, size_t len);
/* 1 when s is valid UTF-8 (no overlongs, no surrogates). */
int td_utf8_valid(const char *s, size_t len);

#ifdef __cplusplus
}
#endif
#endif
