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

/* The leading identifier segments of a buffer and their uses, counted once
 * for the rename detection of the many pairs a file can be in. It points
 * into the buffer, which must outlive it. */
typedef struct td_segments {
	struct td_seg *slot;
	size_t mask, n;
	size_t frequent;   /* segments used TD_RENAME_MIN_USES times or more: 0, no rename */
} td_segments_t;

/* 0 or TD_ENOMEM (nothing to release then). */
int td_segments_init(td_segments_t *out, const char *buf, size_t len);
void td_segments_release(td_segments_t *s);

/* The prefix rename from old to new, if any: the leading identifier segment
 * (up to the first '_', as spelt) that starts most identifiers of old and
 * none of new, and the one that starts most of new and none of old, each at
 * least TD_RENAME_MIN_USES times. A second pair is taken only when it is the
 * first in another casing (e1000 -> acme, then E1000 -> ACME), so that
 * `sed s/e1000/acme/g`, which leaves E1000_ alone, and a rename of both
 * casings are both undone. Sets out->renamed, from and to. 0 or TD_ENOMEM. */
int td_rename_detect(td_similarity_t *out, const char *old_buf, size_t old_len, const char *new_buf,
		     size_t new_len);
/* The same from the two buffers' segments. */
void td_rename_detect_in(td_similarity_t *out, const td_segments_t *old_segs, const td_segments_t *new_segs);

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
 * multisets share. A bag made with table can be the second bag of
 * td_linebag_bound, which probes its hash table: no sorting. The table keys
 * a line by its hash folded to 32 bits (16 bytes a slot): lines whose keys
 * collide count as one, so that a bound can only be higher, and stays one. */
typedef struct td_lineslot {
	uint32_t key;      /* the line hash folded to 32 bits; 0: empty slot */
	uint32_t count;    /* lines with that key */
	uint32_t used;     /* matched by the current probe */
	uint32_t stamp;    /* which probe used is for */
} td_lineslot_t;

typedef struct td_lineset {
	td_lineslot_t *slot; /* one cache line's worth of a probe in one place */
	size_t mask;       /* slots - 1 */
	uint32_t now;
} td_lineset_t;

typedef struct td_linebag {
	uint64_t *hash;    /* per line; malloc'd */
	size_t n;          /* lines */
	int has_set;       /* made with table: set is built */
	td_lineset_t set;
} td_linebag_t;

/* 0 or TD_ENOMEM. */
int td_linebag_init(td_linebag_t *out, const char *buf, size_t len, int table);
void td_linebag_release(td_linebag_t *b);
/* 2 * shared lines / (lines of both); 1 for two empty bags. b must have
 * been made with table; it is updated (the probe's marks). */
double td_linebag_bound(const td_linebag_t *a, td_linebag_t *b);
/* Lines that b has more than this many of count for
 * td_linebag_order_bound as for td_linebag_bound, out of order. */
#define TD_ORDER_FREQUENT 8
/* Like td_linebag_bound, but keeping lines in order: the longest common
 * subsequence of the two bags' lines (b's lines that it has more than
 * TD_ORDER_FREQUENT of are counted out of order). A diff keeps no more, so
 * this is a bound too, far below td_linebag_bound's where blocks of lines
 * moved. b must have been made with table and is updated (the probe's
 * marks). -1 when out of memory. */
double td_linebag_order_bound(const td_linebag_t *a, td_linebag_t *b);
/* A file compared with many others: its line bag and identifier segments,
 * made when first wanted and kept for the next pair, and the lines the
 * last rename undone in it changes. buf must outlive it. */
typedef struct td_simfile {
	const char *buf;
	size_t len;
	int has_bag, has_segs;
	td_linebag_t bag;
	td_segments_t segs;
	size_t *line_at;   /* [bag.n + 1]: where each line starts, once a rename wanted it */
	size_t *touched;   /* the lines with a match of touched_to, ntouched of them (room for 2 * bag.n) */
	size_t ntouched;
	int touched_for;   /* how many names touched_to holds; 0: touched is not made */
	char touched_to[2][TD_RENAME_PREFIX_MAX + 1];
	char *line;        /* a line renamed, line_cap bytes */
	size_t line_cap;
	uint64_t *rest;    /* the other file's lines left for the renamed ones, rest_cap of them */
	size_t rest_cap;
	uint64_t *renamed_hash; /* the touched lines' hashes, renamed by the last rename bounded
				 * in full (room for renamed_cap) */
	size_t renamed_cap;
} td_simfile_t;

void td_simfile_init(td_simfile_t *f, const void *buf, size_t len);
void td_simfile_release(td_simfile_t *f);

/* td_linebag_bound(old, the bag of f renamed as s says), without
 * renaming f whole: f's table less the lines with a match of a renamed
 * name, and a table of those lines renamed. f's bag must be made, with
 * table; old_bag is the bag of any buffer. -1 when out of memory (or
 * without f's table). */
double td_linebag_renamed_bound(const td_linebag_t *old_bag, td_simfile_t *f, const td_similarity_t *s);
/* After td_linebag_renamed_bound(old_bag, f, s): the bag that
 * td_linebag_init would make, with table, of f renamed as s says, without
 * renaming f or hashing it again. 0 or TD_ENOMEM. */
int td_simfile_renamed_bag(td_linebag_t *out, const td_simfile_t *f);

/* The old side of pairs: what td_similarity_bound wants of it, made from
 * its buffer when first wanted, or all at once by td_simold_keep for a file
 * in many pairs, which then needs no buffer. A kept one is only read:
 * threads can share it. */
typedef struct td_simold {
	const char *buf;   /* NULL once kept */
	size_t len;
	int binary;        /* a NUL in its first 8,000 bytes: diffed whole, never kept */
	int has_lines, has_bag, has_segs;
	size_t lines;      /* td_line_count */
	td_linebag_t bag;  /* without table */
	td_segments_t segs;
	char *names;       /* the segments' names, once kept */
	size_t bytes;      /* what it holds, once kept */
} td_simold_t;

/* buf must outlive o, unless o is kept. */
void td_simold_init(td_simold_t *o, const void *buf, size_t len);
/* Make the whole of o and let go of its buffer. 0, TD_ENOMEM, or TD_EINVAL
 * for a binary file. */
int td_simold_keep(td_simold_t *o);
void td_simold_release(td_simold_t *o);

/* Whether the line bags let the similarity of new to old reach need (with
 * above, go above it): if not, out->bounded, and out->value a bound of the
 * similarity below that: from the two line counts, or the bags of old and
 * of new with the rename, if any, undone, the lines the diff sees (first
 * without renaming a line, then in order for big pairs). Otherwise out
 * holds the rename for td_similarity_measure. 0, or TD_ENOMEM with err
 * set. */
int td_similarity_bound(td_similarity_t *out, td_simold_t *old, td_simfile_t *new_file, double need, int above,
			td_error_t *err);
/* The similarity of a pair that td_similarity_bound(out, ...) left in,
 * from old's content: the diff of new with out's rename undone (a binary
 * side: td_similarity). 0, or TD_ENOMEM / TD_EGIT with err set. */
int td_similarity_measure(td_similarity_t *out, const void *old_buf, size_t old_len, const td_simfile_t *new_file,
			  td_error_t *err);
/* Both on a buffer: td_similarity(out, old, new) when the bounds let it
 * reach need, else out->bounded. */
int td_similarity_bounded(td_similarity_t *out, const void *old_buf, size_t old_len, td_simfile_t *new_file,
			  double need, int above, td_error_t *err);

#endif
