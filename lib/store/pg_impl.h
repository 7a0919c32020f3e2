/* What the PostgreSQL backend's files share (pg_schema.c, pg_read.c,
 * pg_write.c); not part of the public API. */
#ifndef TD_PG_IMPL_H
#define TD_PG_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include <libpq-fe.h>

#include "treedrift/common.h"

/* The first key of treedrift's advisory locks: "TDr1", the application id
 * of its SQLite files. The second is 0 for the schema lock (making or
 * migrating it) and hashtext(label) for a version being written (or
 * deleted). */
#define PG_LOCK_KEY "1413772849"
/* The first key of the writers' lock (second key 0): every writer holds it
 * shared from its first version to its commit, as it may be about to refer
 * to content and paths no version refers to yet; dropping the unreferenced
 * ones takes it alone. */
#define PG_WRITERS_KEY "1413772850"

/* Connect to uri; shown is the name messages use (no password). With
 * read_only, every transaction of the connection is read-only. libpq's
 * notices are dropped (the library never prints). */
int td_pg_connect(PGconn **out, const char *uri, const char *shown, int read_only, td_error_t *err);
/* Set err to "unable to WHAT 'SHOWN': the server's message"; returns the code. */
int td_pg_fail(td_error_t *err, PGconn *c, const PGresult *r, const char *what, const char *shown);
/* Run SQL that yields no rows we need (several statements may be given). */
int td_pg_exec(PGconn *c, const char *sql, const char *what, const char *shown, td_error_t *err);
/* 1 when r failed for a deadlock or a serialization failure: try again. */
int td_pg_retryable(const PGresult *r);
/* The schema number of the database (0 when it has none of treedrift's
 * tables yet); TD_EFORMAT when it is someone else's, TD_ENEWER when a
 * newer build made it. */
int td_pg_schema_version(PGconn *c, const char *shown, int *version, td_error_t *err);
/* Make the schema (an empty database) or migrate it to this build's. */
int td_pg_schema_ready(PGconn *c, const char *shown, td_error_t *err);

/* A growable byte buffer for binary parameters (arrays) and COPY data,
 * capped at TD_PG_BUF_MAX. */
#define TD_PG_BUF_MAX ((size_t)1 << 30)
typedef struct td_pg_buf {
	uint8_t *p;
	size_t len, cap;
	int failed; /* out of memory or over the cap: the content is void */
} td_pg_buf_t;

void td_pg_buf_release(td_pg_buf_t *b);
void td_pg_buf_bytes(td_pg_buf_t *b, const void *p, size_t n);
void td_pg_buf_u16(td_pg_buf_t *b, uint16_t v);
void td_pg_buf_u32(td_pg_buf_t *b, uint32_t v);
void td_pg_buf_u64(td_pg_buf_t *b, uint64_t v);

/* A one-dimensional array of elem_oid in binary form: start it, put each
 * element (NULL as a NULL), then finish with the element count. */
#define TD_PG_OID_BYTEA 17
#define TD_PG_OID_INT8 20
#define TD_PG_OID_INT4 23
void td_pg_array_start(td_pg_buf_t *b, uint32_t elem_oid);
void td_pg_array_bytes(td_pg_buf_t *b, const void *p, size_t n);
void td_pg_array_i64(td_pg_buf_t *b, int64_t v);
void td_pg_array_i32(td_pg_buf_t *b, int32_t v);
void td_pg_array_finish(td_pg_buf_t *b, uint32_t count);

/* Binary result values. */
int64_t td_pg_i64(const PGresult *r, int row, int col);
int32_t td_pg_i32(const PGresult *r, int row, int col);
/* A one-dimensional int8[] value without NULLs: *count elements, the k-th
 * read by td_pg_i64_at(*elems, k). TD_EFORMAT when it is anything else. */
int td_pg_i64_array(const PGresult *r, int row, int col, const uint8_t **elems, size_t *count);
int64_t td_pg_i64_at(const uint8_t *elems, size_t k);

#endif
