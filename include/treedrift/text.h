/* Text from input (paths, link targets, labels, library messages that quote
 * them) made safe to print on a terminal. */
#ifndef TREEDRIFT_TEXT_H
#define TREEDRIFT_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "treedrift/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Write s[0..len) to f as the text report shows names: a backslash as \\,
 * tab, newline and CR as \t \n \r, other C0 and C1 controls, DEL, the
 * bidirectional formatting characters and line separators (U+061C,
 * U+200E-U+200F, U+2028-U+202E, U+2066-U+2069) and every byte that is not
 * well-formed UTF-8 as \ooo per byte; the rest as it is. Nothing written can
 * move the cursor, change colours or reorder what a terminal shows. */
TD_EXTERN void td_text_escape(FILE *f, const char *s, size_t len);

#ifdef __cplusplus
}
#endif
#endif
