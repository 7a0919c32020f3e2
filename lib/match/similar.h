/* Line similarity of two files, for the verification of copies (origin.c):
 * a real line diff (linediff.c, libgit2), after undoing an identifier prefix
 * rename, so that a file copied and then renamed throughout (e1000_* ->
 * acme_*) still shows its copied lines. doc/formats.md ("similarity")
 * documents the measure. */
#ifndef TD_SIMILAR_H
#define TD_SIMILAR_H

#include <stddef.h>
#include <stdint.h>

#include "treedrift/common.h"

/* Longest identifier prefix that the rename detection considers. */
#define TD_RENAME_PREFIX_MAX 32
/* A prefix must start this many identifiers on its side to count as renamed. */
#define TD_RENAME_MIN_USES 3

typedef struct td_similarity {
	double value;     /* 2 * unchanged / (old_lines + new_lines), 0..1; 1 for two empty files */
	int binary;       /* git takes a side for binary: value is 0 and means nothing */
	int bounded;      /* 1: not diffed, value is only a bound of the similarity
			   * below what was asked for (pairs.h, floor) */
	int renamed;      /* renames undone in new, 0..2: to[i] was renamed back to from[i] */
	char from[2][TD_RENAME_PREFIX_MAX + 1];
	char to[2][TD_RENAME_PREFIX_MAX + 1];
} td_similarity_t;

/* The prefix rename from old to new, if any: the leading identifier segment
 * (up to the first '_', as spelt) that starts most identifiers of old and
 * none of new, and the one that starts most of new and none of old, each at
 * least TD_RENAME_MIN_USES times. A second pair is taken only when it is the
 * first in another casing (e1000 -> acme, then E1000 -> ACME), so that
 * `sed s/e1000/acme/g`, which leaves E1000_ alone, and a rename of both
 * casings are both undone. Sets out->renamed, from and to. 0 or TD_ENOMEM. */
int td_rename_detect(td_similarity_t *out, const char *old_buf, size_t old_len, const char *new_buf,
		     size_t new_len);

/* new with every occurrence of each s->to[i] replaced by s->from[i] (as
 * spelt: sed's s/to/from/g). *out is malloc'd; caller frees. 0 or TD_ENOMEM. */
int td_rename_apply(char **out, size_t *out_len, const td_similarity_t *s, const char *new_buf,
		    size_t new_len);

/* Similarity of new to old, with a detected prefix rename undone in new.
 * Thread-safe. 0, or TD_ENOMEM / TD_EGIT with err set. */
int td_similarity(td_similarity_t *out, const void *old_buf, size_t old_len, const void *new_buf,
		  size_t new_len, td_error_t *err);

/* The lines of a buffer as a multiset of hashes, to bound the similarity of
 * two buffers before diffing them: the diff keeps no more lines than the two
 * multisets share. raw hashes the lines as they are (the low bit of a
 * hash says whether the line has a '_'); masked with the leading
 * identifier segments blanked, so that a prefix rename does not hide what a
 * rename would bring back (an estimate then: a rename inside a word is not
 * masked). A bag made with table can be the second bag of
 * td_linebag_bound, which probes its hash tables: no sorting. */
typedef struct td_lineset {
	uint64_t *key;     /* 0: empty slot */
	uint32_t *count;   /* lines with that hash */
	uint32_t *used;    /* matched by the current probe */
	uint32_t *stamp;   /* which probe used is for */
	size_t mask;       /* slots - 1 */
	uint32_t now;
} td_lineset_t;

typedef struct td_linebag {
	uint64_t *raw;     /* per line; malloc'd */
	uint64_t *masked;  /* per line, once td_linebag_mask made them; malloc'd */
	size_t n;          /* lines */
	size_t underscored; /* lines with a '_' */
	int table;         /* made with table */
	int has_sets;      /* set[0] is built (and set[1] with has_masked) */
	int has_masked;
	td_lineset_t set[2]; /* with table: raw, masked */
} td_linebag_t;

/* The raw hashes (and their table, with table). td_linebag_mask adds the
 * masked ones of the same buffer (and their table) when they are wanted.
 * 0 or TD_ENOMEM. */
int td_linebag_init(td_linebag_t *out, const char *buf, size_t len, int table);
int td_linebag_mask(td_linebag_t *b, const char *buf, size_t len);
void td_linebag_release(td_linebag_t *b);
/* 2 * shared lines / (lines of both), raw or masked (both bags masked
 * then); 1 for two empty bags. b must have been made with table; it is
 * updated (the probe's marks). With raw, *plain (may be NULL) is set to
 * the shared lines without a '_'. */
double td_linebag_bound(const td_linebag_t *a, td_linebag_t *b, int masked, size_t *plain);
/* At least td_linebag_bound(a, b, 1), from a raw bound's plain count and
 * no masking: masking leaves a line without '_' as it is, and never
 * makes a line with one equal to a line without (a word it cuts keeps the
 * '_' it was cut at), so the masked bags share no more than the plain lines
 * the raw ones share and the fewer of the two sides' lines with a '_'. */
double td_linebag_masked_ceiling(const td_linebag_t *a, const td_linebag_t *b, size_t plain);

#endif
