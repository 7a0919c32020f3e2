/* C preprocessor conditionals (#if, #ifdef, #elif, #else, #endif) of a
 * source file, as far as a kernel .config decides them: which lines a
 * build with that configuration compiles. Used to follow only the
 * #includes of .c files that the configuration keeps. Not public. */
#ifndef TD_KBUILD_CPP_H
#define TD_KBUILD_CPP_H

#include <stddef.h>

#include "treedrift/kconfig.h"

/* What a condition is under the configuration. */
enum { KB_FALSE = 0, KB_TRUE = 1, KB_UNKNOWN = 2 };

/* Nesting beyond this is followed for its #endif but not evaluated. */
#define KB_CPP_MAX_DEPTH 64

typedef struct kb_cpp_frame {
	unsigned char live;   /* the enclosing lines may be compiled */
	unsigned char branch; /* this branch: KB_FALSE, KB_TRUE or KB_UNKNOWN */
	unsigned char done;   /* an earlier branch is known taken */
	unsigned char maybe;  /* an earlier branch may have been taken */
} kb_cpp_frame_t;

typedef struct kb_cpp {
	const td_kconfig_t *cfg; /* NULL: every condition is unknown */
	kb_cpp_frame_t stack[KB_CPP_MAX_DEPTH];
	size_t depth;            /* frames in stack */
	size_t overflow;         /* frames past KB_CPP_MAX_DEPTH */
	int in_comment;          /* the next line starts inside a comment */
} kb_cpp_t;

void kb_cpp_init(kb_cpp_t *c, const td_kconfig_t *cfg);

/* Take the line s[0..len): a conditional directive updates the state,
 * and a block comment left open hides the lines that follow it, their
 * directives included. Returns where the line's code starts: 0, or past
 * the end of a comment open since an earlier line (len: none). */
size_t kb_cpp_line(kb_cpp_t *c, const char *s, size_t len);

/* 0 when the lines from here are ruled out by the configuration (a branch
 * whose condition is known false, or after one known true); 1 when they
 * are compiled or cannot be told. */
int kb_cpp_live(const kb_cpp_t *c);

#endif
