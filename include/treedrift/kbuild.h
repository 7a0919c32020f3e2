/* Kbuild evaluation: which .c/.S/.rs files of a kernel tree a configuration
 * builds, worked out from the tree's Kbuild files with a small make-subset
 * evaluator of its own (no make, no filesystem access: the tree comes
 * through callbacks, so a directory, a git revision or an archive will do).
 * doc/kbuild.md describes what is understood, what is not, and the measured
 * agreement with real builds.
 *
 * What counts as built: every object that `make vmlinux modules` compiles
 * with the target compiler from a Kbuild directory: obj-y (in directories
 * linked into vmlinux), obj-m (when CONFIG_MODULES is set: y and m both count
 * as built), lib-y/lib-m, extra-y, always-y/always-m, and the .o names in
 * `targets`, with composite objects (foo-y, foo-objs, foo-m, foo-) replaced by
 * their parts; plus what the arch Makefile's prepare targets build
 * (e.g. arm64's vDSO), scripts/mod/empty.o (with modules) and the link
 * stage's init/version-timestamp.o. Host programs (hostprogs, userprogs), arch
 * boot images (bzImage, Image, dtbs) and objects compiled from sources the
 * build generates at link time (*.mod.o, .vmlinux.export.o) are not included.
 */
#ifndef TREEDRIFT_KBUILD_H
#define TREEDRIFT_KBUILD_H

#include <stddef.h>

#include "treedrift/common.h"
#include "treedrift/kconfig.h"
#include "treedrift/source.h"
#include "treedrift/tree.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Hard limits; going past one stops that file (or branch) with a warning. */
#define TD_KBUILD_MAX_FILE_BYTES (4u << 20)    /* one Makefile/Kbuild */
#define TD_KBUILD_MAX_VALUE_BYTES (4u << 20)   /* one expansion's text */
#define TD_KBUILD_MAX_EXPAND_DEPTH 64          /* nested references and calls */
#define TD_KBUILD_MAX_DIR_DEPTH 32             /* directory recursion */
#define TD_KBUILD_MAX_INCLUDE_DEPTH 16         /* include and $(eval) nesting */
#define TD_KBUILD_MAX_INCLUDES 1000            /* includes and $(eval)s per directory */
#define TD_KBUILD_MAX_COND_DEPTH 64            /* nested ifeq/ifdef */
#define TD_KBUILD_MAX_DIRS 50000               /* directories visited */
#define TD_KBUILD_MAX_WARNINGS 10000           /* warnings kept (all are counted) */
#define TD_KBUILD_WORK_BUDGET (32u << 20)      /* bytes expanded per directory */
#define TD_KBUILD_MAX_STATEMENTS 200000        /* statements run per directory,
						* includes and $(eval) included */

/* Access to the tree. Paths are relative to the tree root, '/'-separated,
 * without "./" and NUL-terminated. */
typedef struct td_kbuild_io {
	void *ctx;
	/* The whole content of a file: 0 and a malloc'd buffer in *data_out
	 * (the evaluator frees it) with its length in *len_out; TD_ENOTFOUND
	 * when there is no such file; another negative code stops td_kbuild_eval
	 * with that code. */
	int (*read_file)(void *ctx, const char *path, char **data_out, size_t *len_out);
	/* 1 when path is a file of the tree, 0 when not. */
	int (*exists)(void *ctx, const char *path);
} td_kbuild_io_t;

/* A construct the evaluator did not understand, or a limit it hit, at
 * file:line (line 0 when not tied to a line). */
typedef struct td_kbuild_warning {
	const char *file;
	unsigned line;
	const char *msg;
} td_kbuild_warning_t;

typedef struct td_kbuild_result td_kbuild_result_t;

/* Evaluate the tree for cfg and arch (any name td_arch_canonical() knows,
 * e.g. "x86_64"). The start is the top-level Kbuild evaluated as the kernel's
 * Makefile.build evaluates it (obj=., need-builtin=1, need-modorder=1), with
 * ARCH_CORE, ARCH_LIB and ARCH_DRIVERS taken from core-y, libs-y and
 * drivers-y after evaluating arch/$(SRCARCH)/Makefile, as the top Makefile
 * does (and the $(build)=dir recipes its prepare targets reach); trees
 * without a top-level Kbuild (before 5.x) use the list of roots in
 * doc/kbuild.md. On success *out holds the result (caller frees with
 * td_kbuild_result_free()); unknown constructs are warnings in the result,
 * not errors. Fails with TD_EINVAL for an unknown arch, TD_ENOTFOUND when the
 * tree has neither Kbuild nor Makefile at its root, TD_ENOMEM, or the code a
 * callback returned. */
TD_EXTERN int td_kbuild_eval(td_kbuild_result_t **out, const td_kconfig_t *cfg, const char *arch,
		   const td_kbuild_io_t *io, td_error_t *err);

TD_EXTERN void td_kbuild_result_free(td_kbuild_result_t *r);

/* The source files built, sorted (strcmp order), borrowed until the result is
 * freed: for each object, the first of stem.c, stem.S, stem.rs that exists. */
TD_EXTERN size_t td_kbuild_source_count(const td_kbuild_result_t *r);
TD_EXTERN const char *td_kbuild_source(const td_kbuild_result_t *r, size_t i);

/* Sources not compiled on their own but #included by a built .c/.S file
 * (quoted includes of .c/.S names, relative to the including file,
 * followed transitively, kept inside the tree), sorted, borrowed as above;
 * none of them is among td_kbuild_source(). */
TD_EXTERN size_t td_kbuild_included_count(const td_kbuild_result_t *r);
TD_EXTERN const char *td_kbuild_included(const td_kbuild_result_t *r, size_t i);

/* Every object compiled, sorted, including those whose source is generated
 * during the build (e.g. x509.asn1.o) and so has no file in the tree. */
TD_EXTERN size_t td_kbuild_object_count(const td_kbuild_result_t *r);
TD_EXTERN const char *td_kbuild_object(const td_kbuild_result_t *r, size_t i);

/* The Kbuild directories visited, sorted ("." for the root). */
TD_EXTERN size_t td_kbuild_dir_count(const td_kbuild_result_t *r);
TD_EXTERN const char *td_kbuild_dir(const td_kbuild_result_t *r, size_t i);

/* Warnings in the order found; td_kbuild_warning_total() also counts those
 * past TD_KBUILD_MAX_WARNINGS that were not kept. */
TD_EXTERN size_t td_kbuild_warning_count(const td_kbuild_result_t *r);
TD_EXTERN const td_kbuild_warning_t *td_kbuild_warning(const td_kbuild_result_t *r, size_t i);
TD_EXTERN size_t td_kbuild_warning_total(const td_kbuild_result_t *r);

/* Classification used by compare --config. */
enum {
	TD_KBUILD_NOT_BUILT = 0, /* a .c, .S or .rs file this configuration does not compile */
	TD_KBUILD_BUILT = 1,     /* a .c, .S or .rs file it compiles */
	TD_KBUILD_SUPPORT = 2    /* any other file: headers, Makefile, Kbuild, Kconfig,
				  * linker scripts, .asn1, scripts, docs, ... */
};

/* TD_KBUILD_BUILT, TD_KBUILD_NOT_BUILT or TD_KBUILD_SUPPORT for path (tree
 * relative, len bytes). The suffix alone decides between source and support.
 * A source among td_kbuild_source() or td_kbuild_included() (e.g.
 * lib/decompress_*.c in a boot stub) is TD_KBUILD_BUILT; one built only as
 * a host tool is TD_KBUILD_NOT_BUILT. */
TD_EXTERN int td_kbuild_is_built(const td_kbuild_result_t *r, const char *path, size_t len);

/* The parser alone: a Makefile's text split into logical statements, with no
 * evaluation. Pure (no I/O, bounded by TD_KBUILD_MAX_FILE_BYTES); syntax it
 * cannot place is kept as TD_KB_STMT_ERROR statements, so it fails only on
 * limits or memory. Caller frees with td_kbuild_makefile_free(). */
typedef enum td_kbuild_stmt_kind {
	TD_KB_STMT_ASSIGN = 1,  /* name op value: op is '=' ':' (:= ::=) '+' '?' '!' */
	TD_KB_STMT_DEFINE,      /* define name [op] ... endef: text is the body */
	TD_KB_STMT_UNDEFINE,    /* undefine name */
	TD_KB_STMT_EXPORT,      /* export/unexport of names without a value (op 'u' for unexport) */
	TD_KB_STMT_IFDEF,       /* name: the variable text; op 'n' for ifndef */
	TD_KB_STMT_IFEQ,        /* name and text: the two arguments; op 'n' for ifneq */
	TD_KB_STMT_ELSE,        /* plain else, or else followed by a condition in cond */
	TD_KB_STMT_ENDIF,
	TD_KB_STMT_INCLUDE,     /* text: the file names; op '-' for -include / sinclude */
	TD_KB_STMT_RULE,        /* name: targets; text: the rest after ':' */
	TD_KB_STMT_RECIPE,      /* text: a command line of the rule before it */
	TD_KB_STMT_EXPR,        /* a line that is only an expansion, e.g. $(eval ...) */
	TD_KB_STMT_OTHER,       /* vpath and similar directives: ignored */
	TD_KB_STMT_ERROR        /* text: what could not be parsed */
} td_kbuild_stmt_kind_t;

typedef struct td_kbuild_stmt {
	td_kbuild_stmt_kind_t kind;
	unsigned line;          /* first physical line, from 1 */
	int op;
	int exported;           /* assignment or define preceded by export */
	int override;           /* ... by override */
	td_kbuild_stmt_kind_t cond; /* ELSE: TD_KB_STMT_IFDEF/IFEQ for "else ifxxx", else 0 */
	const char *name;       /* NUL-terminated, never NULL ("" when absent) */
	const char *text;
} td_kbuild_stmt_t;

typedef struct td_kbuild_makefile td_kbuild_makefile_t;

TD_EXTERN int td_kbuild_parse_makefile(td_kbuild_makefile_t **out, const char *data, size_t len,
			     td_error_t *err);
TD_EXTERN void td_kbuild_makefile_free(td_kbuild_makefile_t *mf);
TD_EXTERN size_t td_kbuild_makefile_count(const td_kbuild_makefile_t *mf);
TD_EXTERN const td_kbuild_stmt_t *td_kbuild_makefile_stmt(const td_kbuild_makefile_t *mf, size_t i);

/* Evaluate the Kbuild files of tree (as loaded from spec, with the same
 * source options) for cfg and arch: td_kbuild_eval() with the files read
 * from the tree's source. A directory or git:REPO@REV is read file by file
 * as the evaluator asks; an archive is read through once more first,
 * keeping in memory every member Kbuild may read (all but sources, headers,
 * documentation and data, by name; members over TD_KBUILD_MAX_FILE_BYTES
 * are left out). Fails with TD_EUNSUPPORTED for a database (it holds
 * digests, not content). Caller frees *out with td_kbuild_result_free(). */
TD_EXTERN int td_kbuild_eval_tree(td_kbuild_result_t **out, const td_tree_t *tree, const char *spec,
			const td_source_opts_t *source_opts, const td_kconfig_t *cfg,
			const char *arch, td_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
