/* treedrift: error codes and the error record shared by every module. */
#ifndef TREEDRIFT_COMMON_H
#define TREEDRIFT_COMMON_H

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the functions of the public API: libtreedrift.so is built with
 * hidden visibility, so these are the only symbols it exports. */
#if defined(__GNUC__) || defined(__clang__)
#define TD_EXTERN __attribute__((visibility("default")))
#else
#define TD_EXTERN
#endif

/* Return codes: 0 on success, one of these (negative) on failure. */
enum {
	TD_OK = 0,
	TD_EINVAL = -1,      /* bad argument or malformed input */
	TD_ENOMEM = -2,      /* allocation failed or a size limit was hit */
	TD_EIO = -3,         /* a read, write or directory walk failed */
	TD_EDB = -4,         /* SQLite reported an error */
	TD_EFORMAT = -5,     /* not a treedrift database, or a corrupt archive */
	TD_ENOTFOUND = -6,   /* no such file, revision or version label */
	TD_EUNSUPPORTED = -7,/* a valid input this build cannot handle */
	TD_ELOCKED = -8,     /* another writer holds the output */
	TD_ENEWER = -9,      /* database written by a newer schema */
	TD_EGIT = -10,       /* libgit2 reported an error */
	TD_EARCHIVE = -11,   /* libarchive reported an error */
	TD_ECANCELED = -12   /* stopped on request */
};

/* Human text for an error: the operation, its subject and the underlying
 * library's own message, e.g. "unable to open 'x.db': file is not a database".
 * Embedded by value in every handle; the CLI may embed one on the stack. */
typedef struct td_error {
	int code;
	char msg[1024];
} td_error_t;

/* Short generic name of a return code ("invalid argument", ...). */
TD_EXTERN const char *td_strerror(int code);

/* The library's version string, e.g. "0.1.0". */
TD_EXTERN const char *td_version(void);

#ifdef __cplusplus
}
#endif
#endif
