/* Shared internals of the Kbuild evaluator (kbuild_parse.c, kbuild_expand.c,
 * kbuild.c); not part of the public API. */
#ifndef TD_KBUILD_IMPL_H
#define TD_KBUILD_IMPL_H

#include <stddef.h>

#include "treedrift/kbuild.h"
#include "kbuild_map.h"

/* Internal return code: a limit was hit; the current file stops with a
 * warning and the walk goes on. Never returned by the public API. */
#define KB_ELIMIT (-100)

struct td_kbuild_makefile {
	td_kbuild_stmt_t *stmts;
	size_t count, cap;
};

/* A growable text buffer with a hard limit (TD_KBUILD_MAX_VALUE_BYTES). */
typedef struct kb_buf {
	char *p;
	size_t len, cap;
} kb_buf_t;

void kb_buf_release(kb_buf_t *b);
/* 0, TD_ENOMEM, or KB_ELIMIT past the limit. */
int kb_buf_add(kb_buf_t *b, const char *s, size_t n);
int kb_buf_addc(kb_buf_t *b, char c);
/* NUL-terminated content ("" when empty); the buffer keeps ownership. */
const char *kb_buf_str(kb_buf_t *b);
/* Hands the content over (malloc'd, NUL-terminated) and resets b. */
char *kb_buf_detach(kb_buf_t *b);

/* Where unknown constructs were met: the first few of an expansion. */
#define KB_TAINT_MAX 4
typedef struct kb_taint_item {
	const char *file;
	unsigned line;
	char msg[160];
} kb_taint_item_t;

typedef struct kb_taint {
	int set;            /* number of items */
	kb_taint_item_t item[KB_TAINT_MAX];
} kb_taint_t;

enum { KB_UNDEFINED = 0, KB_RECURSIVE = 1, KB_SIMPLE = 2 };

typedef struct kb_var {
	char *value;
	size_t len;
	int flavor;
	int expanding;      /* set while a recursive value is being expanded */
	int exported;
	int from_config;    /* an auto.conf symbol (origin "file" all the same) */
	kb_taint_t taint;   /* simple variables: an unknown construct in the value */
} kb_var_t;

typedef struct kb_scope kb_scope_t;
struct kb_scope {
	td_kbmap_t vars;    /* name -> kb_var_t* */
	const kb_scope_t *parent; /* globals: read only, looked up when missing here */
};

void kb_scope_init(kb_scope_t *s, const kb_scope_t *parent);
void kb_scope_release(kb_scope_t *s);
/* The variable, here or in a parent; NULL when undefined. */
kb_var_t *kb_scope_get(const kb_scope_t *s, const char *name, size_t len);
/* The variable in s itself, created (undefined) when missing. */
kb_var_t *kb_scope_own(kb_scope_t *s, const char *name, size_t len);
int kb_var_set(kb_var_t *v, const char *value, size_t len, int flavor);
/* The taint an undefined variable carries (set in a skipped branch of a
 * conditional that used an unknown construct), or NULL. */
const kb_taint_t *kb_scope_undefined_taint(const kb_scope_t *s, const char *name, size_t len);

typedef struct kb_ctx kb_ctx_t;

/* Evaluation state of one file (and what it includes). */
typedef struct kb_frame_args {
	const char *const *argv; /* $(0) .. $(argc-1) of a $(call) */
	const size_t *argl;
	size_t argc;
} kb_frame_args_t;

struct kb_eval {
	kb_ctx_t *ctx;
	kb_scope_t *scope;
	const char *file;       /* current file, for warnings */
	unsigned line;          /* current statement */
	int depth;              /* expansion nesting */
	int include_depth;      /* include and $(eval) nesting */
	size_t work_left;       /* bytes that may still be expanded */
	size_t stmts_left;      /* statements that may still be run */
	size_t includes;        /* includes and $(eval)s run */
	const kb_frame_args_t *args; /* innermost $(call) */
	int fixed_line;         /* inside $(eval): keep the outer line for warnings */
	void *dir;              /* the directory being evaluated (kbuild.c) */
};
typedef struct kb_eval kb_eval_t;

/* Expand text into out, recording the first unknown construct in *taint.
 * Returns 0, TD_ENOMEM or KB_ELIMIT. */
int kb_expand(kb_eval_t *ev, const char *text, size_t len, kb_buf_t *out, kb_taint_t *taint);
/* Mark taint (if not set yet) with a message at the current file:line. */
void kb_taint_mark(kb_eval_t *ev, kb_taint_t *taint, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
void kb_taint_merge(kb_taint_t *into, const kb_taint_t *from);

/* Execute a parsed makefile in ev's scope (kbuild.c; used by include and
 * $(eval)). Returns 0, TD_ENOMEM, KB_ELIMIT or a callback's code. */
int kb_exec(kb_eval_t *ev, const td_kbuild_makefile_t *mf);
/* Record a warning at ev's file:line (kbuild.c). */
void kb_warn(kb_eval_t *ev, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
/* Whether a tree file exists (kbuild.c), for $(wildcard). */
int kb_exists(kb_eval_t *ev, const char *path);

/* Words: whitespace-separated. Returns the next word at *pos, 0 at the end. */
int kb_next_word(const char *s, size_t len, size_t *pos, const char **w, size_t *wlen);
/* Normalise a tree path in place: drop "./", "//", resolve "x/.."; a leading
 * ".." is kept. Returns the new length. */
size_t kb_path_normalize(char *p, size_t len);

#endif
