/* UTF-8 decoding and escaping of untrusted text (internal). */
#ifndef TD_UTF8_H
#define TD_UTF8_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Length of the well-formed UTF-8 sequence at s (no overlong forms, no
 * surrogates, nothing above U+10FFFF) and its code point in *cp; 0 when the
 * bytes at s do not start one. len must be > 0. */
size_t td_utf8_next(const unsigned char *s, size_t len, uint32_t *cp);

/* 1 for code points that reports write escaped even though they are
 * well-formed: C0 and C1 controls, DEL, and the bidirectional formatting
 * characters and line separators that make a terminal show text other than
 * what is there (U+061C, U+200E-U+200F, U+2028-U+202E, U+2066-U+2069). */
int td_utf8_unsafe(uint32_t cp);

/* Receives one character of escaped text at a time (a byte), and writes it to
 * f escaped for its format (HTML entities, Markdown backslashes). */
typedef void (*td_escape_put_fn)(FILE *f, unsigned char c);

/* s with C escapes, as the HTML and Markdown reports show text: each byte
 * that is not well-formed UTF-8 and each byte of a code point that
 * td_utf8_unsafe() names as \ooo, a backslash as \\, tab,
 * newline and CR as \t \n \r, the rest as it is. Each byte of the result goes
 * to put(f, byte), in order: an escape's bytes are ASCII (a backslash,
 * digits, letters) and a safe character's bytes go as they are. */
void td_escape_walk(FILE *f, const char *s, size_t len, td_escape_put_fn put);

/* Write to f the bytes at the start of s that every format writes as they
 * are (printable ASCII but the backslash and the double quote), in one
 * call, and return how many: the writer escapes what follows character by
 * character. */
size_t td_utf8_put_plain(FILE *f, const unsigned char *s, size_t len);

/* 1 when all of s[0..len) is well-formed UTF-8. */
int td_utf8_valid(const char *s, size_t len);

#endif
