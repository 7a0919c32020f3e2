/* Origins of changed files: other versions of the same path (a
 * multi-version database), identical content at another path (moved), and
 * the nearest upstream file by TLSH distance (copied). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "treedrift/origin.h"
#include "tlsh_spec.h"
#include "tlsh_impl.h"
#include "internal.h"
#include "pairs.h"

/* The header terms of the TLSH distance bound it from below: lvalues d
 * apart (circularly) add d when d <= 1, else d * TLSH_LENGTH_MULT; quartile
 * ratios d apart add (d - 1) * TLSH_QRATIO_MULT when d > 1. So the index
 * keeps the digests in cells by (lvalue, q1 ratio, q2 ratio) and visits
 * only the cells whose bound is within the search's. */
#define NCELLS (TLSH_RANGE_LVALUE * TLSH_RANGE_QRATIO * TLSH_RANGE_QRATIO)

/* Verified copies also diff, beyond TLSH's candidates, up to this many
 * upstream files named like the added file: in its directory with the same
 * extension and the most similar name (stm32mp157d-ev1.dts for
 * stm32mp157f-ev1.dts), and with its very name elsewhere (stm32mp2/cpu.c for
 * cpu.c). Templated files sit near many look-alikes by TLSH, so that their
 * real origin is often not among the nearest few; their names say it. */
#define TD_NAME_CANDIDATES 2

/* Below this many queries one thread does all: starting more costs more. */
#define MIN_QUERIES_PER_THREAD 16
/* Search threads at most, whatever the options say. */
#define SEARCH_THREADS_MAX 256

static int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

void td_origin_opts_init(td_origin_opts_t *o)
{
	memset(o, 0, sizeof(*o));
	o->copy_threshold = TD_DEFAULT_COPY_THRESHOLD;
	o->verify = 1;
	o->copy_bound = TD_DEFAULT_COPY_BOUND;
	o->copy_candidates = TD_DEFAULT_COPY_CANDIDATES;
	o->copy_similarity = TD_DEFAULT_COPY_SIMILARITY;
}

int td_version_label_cmp(const char *a, const char *b)
{
	const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;

	while (*p && *q) {
		if (is_digit(*p) && is_digit(*q)) {
			const unsigned char *ps, *qs;
			size_t pn, qn;
			while (*p == '0' && is_digit(p[1]))
				p++;
			while (*q == '0' && is_digit(q[1]))
				q++;
			for (ps = p; is_digit(*p); p++)
				;
			for (qs = q; is_digit(*q); q++)
				;
			pn = (size_t)(p - ps);
			qn = (size_t)(q - qs);
			if (pn != qn)
				return pn < qn ? -1 : 1;
			int c = memcmp(ps, qs, pn);
			if (c)
				return c;
			continue;
		}
		if (*p != *q)
			return *p < *q ? -1 : 1;
		p++, q++;
	}
	return (*p != 0) - (*q != 0);
}

/* ---- The nearest-neighbour index ---- */

/* Within a cell every digest has the same header terms but the checksum's:
 * the index keeps each digest's checksum and index, and its body word by
 * word (tlsh_impl.h), so that a cell's body distances are computed
 * together, several digests per instruction. */
typedef struct ix_entry {
	uint32_t index;  /* into the caller's digests */
	uint8_t checksum;
	uint8_t q2;      /* q2 ratio: the cell within its row */
} ix_entry_t;

struct td_tlsh_index {
	ix_entry_t *e;            /* sorted by (cell, index) */
	td_tlsh_bodies_t bodies;  /* in the order of e */
	size_t n;
	uint32_t *start;          /* [NCELLS + 1]: cell c is e[start[c] .. start[c + 1]) */
	int len_diff;
};

/* Body distances computed at a time, on the stack. */
#define CELL_CHUNK 256

static size_t cell_of(const td_tlsh_t *h)
{
	return ((size_t)h->lvalue * TLSH_RANGE_QRATIO + (h->q1_ratio & 0xf)) * TLSH_RANGE_QRATIO +
	       (h->q2_ratio & 0xf);
}

int td_tlsh_index_new(td_tlsh_index_t **out, const td_tlsh_t *digests, size_t n, int len_diff,
		      td_error_t *err)
{
	td_tlsh_index_t *ix;
	uint32_t *fill = NULL;

	*out = NULL;
	if (n >= UINT32_MAX)
		return td_error_set(err, TD_ENOMEM, "too many digests to index: %zu", n);
	ix = calloc(1, sizeof(*ix));
	if (!ix || !(ix->e = td_malloc_array(n ? n : 1, sizeof(*ix->e))) || td_tlsh_bodies_init(&ix->bodies, n) ||
	    !(ix->start = calloc(NCELLS + 1, sizeof(*ix->start))) ||
	    !(fill = calloc(NCELLS, sizeof(*fill)))) {
		td_tlsh_index_free(ix);
		return td_error_set(err, TD_ENOMEM, "out of memory indexing %zu digests", n);
	}
	ix->n = n;
	ix->len_diff = len_diff;
	for (size_t i = 0; i < n; i++)
		ix->start[cell_of(&digests[i]) + 1]++;
	for (size_t c = 0; c < NCELLS; c++)
		ix->start[c + 1] += ix->start[c];
	/* A counting sort: stable, so each cell stays in index order. */
	for (size_t i = 0; i < n; i++) {
		size_t c = cell_of(&digests[i]);
		size_t at = ix->start[c] + fill[c]++;
		ix->e[at].index = (uint32_t)i;
		ix->e[at].checksum = digests[i].checksum;
		ix->e[at].q2 = digests[i].q2_ratio & 0xf;
		td_tlsh_bodies_set(&ix->bodies, at, &digests[i]);
	}
	free(fill);
	*out = ix;
	return TD_OK;
}

void td_tlsh_index_free(td_tlsh_index_t *ix)
{
	if (!ix)
		return;
	free(ix->e);
	td_tlsh_bodies_release(&ix->bodies);
	free(ix->start);
	free(ix);
}

/* The k best so far, by (distance, index). */
typedef struct nn_best {
	size_t k, n;
	int dist[TD_COPY_CANDIDATES_MAX];
	size_t index[TD_COPY_CANDIDATES_MAX];
	uint64_t distances;
} nn_best_t;

/* The bound a digest must meet to enter: the limit until k are found,
 * then the k-th distance (an equal one enters with a lower index). */
static int bound_now(const nn_best_t *b, int limit)
{
	return b->n < b->k || b->dist[b->k - 1] > limit ? limit : b->dist[b->k - 1];
}

static void nn_insert(nn_best_t *b, int d, size_t index)
{
	size_t at = b->n;

	while (at > 0 && (d < b->dist[at - 1] || (d == b->dist[at - 1] && index < b->index[at - 1])))
		at--;
	if (at >= b->k)
		return;
	for (size_t i = b->n < b->k ? b->n : b->k - 1; i > at; i--) {
		b->dist[i] = b->dist[i - 1];
		b->index[i] = b->index[i - 1];
	}
	b->dist[at] = d;
	b->index[at] = index;
	if (b->n < b->k)
		b->n++;
}

static int circular(int x, int y, int range)
{
	int d = x > y ? x - y : y - x;
	return d < range - d ? d : range - d;
}

static int length_bound(int dl)
{
	return dl <= 1 ? dl : dl * TLSH_LENGTH_MULT;
}

static int ratio_bound(int dq)
{
	return dq <= 1 ? dq : (dq - 1) * TLSH_QRATIO_MULT;
}

/* The quartile ratio terms of a query's distance to each cell's ratios. */
typedef struct ratio_terms {
	int q1[TLSH_RANGE_QRATIO], q2[TLSH_RANGE_QRATIO];
} ratio_terms_t;

/* Entries from..end of one row (an lvalue and q1 ratio), whose header
 * terms but the q2 ratio's and the checksum's add up to head, with their
 * body distances in body[0 .. end - from). Returns the bound after them. */
static int visit_range(const td_tlsh_index_t *ix, size_t from, size_t end, int head, const uint16_t *body,
		       const ratio_terms_t *rt, const td_tlsh_t *q, int limit, size_t skip, nn_best_t *b)
{
	/* the largest body and q2 terms that can still enter: nearly all
	 * entries are turned down on them alone */
	int most = bound_now(b, limit) - head;

	b->distances += (uint64_t)(end - from);
	for (size_t i = from; i < end; i++) {
		const ix_entry_t *e = &ix->e[i];
		int t = body[i - from] + rt->q2[e->q2], d;
		if (t > most)
			continue;
		d = head + t + (e->checksum != q->checksum);
		if (d > bound_now(b, limit) || e->index == skip)
			continue;
		nn_insert(b, d, e->index);
		most = bound_now(b, limit) - head;
	}
	return bound_now(b, limit);
}

/* Entries from..end of one row, their body distances CELL_CHUNK at a time. */
static int visit_entries(const td_tlsh_index_t *ix, size_t from, size_t end, int head, const ratio_terms_t *rt,
			 const td_tlsh_t *q, int limit, size_t skip, nn_best_t *b)
{
	uint16_t body[CELL_CHUNK];
	int bound = bound_now(b, limit);

	for (size_t i = from; i < end && head <= bound; i += CELL_CHUNK) {
		size_t n = end - i < CELL_CHUNK ? end - i : CELL_CHUNK;
		td_tlsh_body_distances(q, &ix->bodies, i, n, body);
		bound = visit_range(ix, i, i + n, head, body, rt, q, limit, skip, b);
	}
	return bound;
}

/* Visit the cells of one lvalue whose ratio bounds, added to base, stay
 * within the search's bound. The cells of a row (lvalue and q1 ratio) are
 * in q2 order, and those within the bound are the q2 ratios nearest the
 * query's, circularly: one range of entries, or two where it wraps round. */
static void visit_lvalue(const td_tlsh_index_t *ix, int lv, int base, const ratio_terms_t *rt,
			 const td_tlsh_t *q, int limit, size_t skip, nn_best_t *b)
{
	int bound = bound_now(b, limit), q2 = q->q2_ratio & 0xf;

	for (int q1 = 0; q1 < TLSH_RANGE_QRATIO; q1++) {
		int b1 = base + rt->q1[q1], reach = 0;
		size_t row = ((size_t)lv * TLSH_RANGE_QRATIO + (size_t)q1) * TLSH_RANGE_QRATIO;
		const uint32_t *start = &ix->start[row];
		if (b1 > bound || start[0] == start[TLSH_RANGE_QRATIO])
			continue;
		/* the q2 ratios within reach: q2 - reach .. q2 + reach */
		while (reach < TLSH_RANGE_QRATIO / 2 && b1 + ratio_bound(reach + 1) <= bound)
			reach++;
		if (2 * reach + 1 >= TLSH_RANGE_QRATIO) {
			bound = visit_entries(ix, start[0], start[TLSH_RANGE_QRATIO], b1, rt, q, limit, skip, b);
			continue;
		}
		int lo = q2 - reach, hi = q2 + reach + 1;
		if (lo < 0) {
			bound = visit_entries(ix, start[lo + TLSH_RANGE_QRATIO], start[TLSH_RANGE_QRATIO], b1, rt, q,
					      limit, skip, b);
			lo = 0;
		}
		if (hi > TLSH_RANGE_QRATIO) {
			bound = visit_entries(ix, start[0], start[hi - TLSH_RANGE_QRATIO], b1, rt, q, limit, skip, b);
			hi = TLSH_RANGE_QRATIO;
		}
		bound = visit_entries(ix, start[lo], start[hi], b1, rt, q, limit, skip, b);
	}
}

static void nn_search(const td_tlsh_index_t *ix, const td_tlsh_t *q, int limit, size_t skip, nn_best_t *b)
{
	ratio_terms_t rt;

	for (int r = 0; r < TLSH_RANGE_QRATIO; r++) {
		rt.q1[r] = ratio_bound(circular(r, q->q1_ratio & 0xf, TLSH_RANGE_QRATIO));
		rt.q2[r] = ratio_bound(circular(r, q->q2_ratio & 0xf, TLSH_RANGE_QRATIO));
	}
	if (limit >= 0 && !ix->len_diff) {
		for (int lv = 0; lv < TLSH_RANGE_LVALUE; lv++)
			visit_lvalue(ix, lv, 0, &rt, q, limit, skip, b);
	} else if (limit >= 0) {
		/* Nearest lvalues first, so that the bound tightens early; one
		 * whose length term alone exceeds it ends the search. */
		for (int dl = 0; dl <= TLSH_RANGE_LVALUE / 2; dl++) {
			int base = length_bound(dl);
			if (base > bound_now(b, limit))
				break;
			visit_lvalue(ix, (q->lvalue + dl) % TLSH_RANGE_LVALUE, base, &rt, q, limit, skip, b);
			if (dl && dl != TLSH_RANGE_LVALUE / 2)
				visit_lvalue(ix, (q->lvalue + TLSH_RANGE_LVALUE - dl) % TLSH_RANGE_LVALUE, base, &rt,
					     q, limit, skip, b);
		}
	}
}

size_t td_tlsh_index_nearest_k(const td_tlsh_index_t *ix, const td_tlsh_t *q, int limit, size_t skip,
			       size_t k, size_t *found, int *dist, uint64_t *distances)
{
	nn_best_t b;

	memset(&b, 0, sizeof(b));
	b.k = k < 1 ? 1 : k > TD_COPY_CANDIDATES_MAX ? TD_COPY_CANDIDATES_MAX : k;
	nn_search(ix, q, limit, skip, &b);
	if (distances)
		*distances += b.distances;
	for (size_t i = 0; i < b.n; i++) {
		found[i] = b.index[i];
		dist[i] = b.dist[i];
	}
	return b.n;
}

int td_tlsh_index_nearest(const td_tlsh_index_t *ix, const td_tlsh_t *q, int limit, size_t skip,
			  size_t *found, uint64_t *distances)
{
	size_t idx;
	int d;

	if (!td_tlsh_index_nearest_k(ix, q, limit, skip, 1, &idx, &d, distances)) {
		*found = SIZE_MAX;
		return limit + 1;
	}
	*found = idx;
	return d;
}

/* ---- td_origin_find ---- */

static int is_full_file(const td_file_t *f)
{
	return f && f->type == TD_ENTRY_FILE && f->has_digest;
}

static int has_tlsh(const td_file_t *f)
{
	return is_full_file(f) && !f->digest.sha_only && f->digest.tlsh_status == TD_TLSH_OK;
}

/* Upstream files by content, for exact matches: those the target no
 * longer has first (a move leaves its old path behind), then path order. */
typedef struct by_sha {
	uint64_t key; /* the SHA-256's first 8 bytes, big-endian: its order, in the entry */
	const td_file_t *f;
	int kept;     /* 1: the target still has this path */
} by_sha_t;

static uint64_t sha_key(const td_file_t *f)
{
	uint64_t k = 0;

	for (int i = 0; i < 8; i++)
		k = k << 8 | f->digest.sha256[i];
	return k;
}

/* By content: the key, then the rest of the SHA-256 (only for equal keys). */
static int sha_cmp(uint64_t ka, const td_file_t *a, uint64_t kb, const td_file_t *b)
{
	if (ka != kb)
		return ka < kb ? -1 : 1;
	return memcmp(a->digest.sha256, b->digest.sha256, TD_SHA256_BYTES);
}

static int by_sha_cmp(const void *pa, const void *pb)
{
	const by_sha_t *a = pa, *b = pb;
	int c = sha_cmp(a->key, a->f, b->key, b->f);

	if (c)
		return c;
	if (a->kept != b->kept)
		return a->kept - b->kept;
	return td_path_cmp(a->f->path, a->f->path_len, b->f->path, b->f->path_len);
}

/* The first upstream file with f's content at another path, or NULL. */
static const td_file_t *find_same_content(const by_sha_t *v, size_t n, const td_file_t *f)
{
	uint64_t key = sha_key(f);
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sha_cmp(v[mid].key, v[mid].f, key, f) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && !sha_cmp(v[lo].key, v[lo].f, key, f); lo++)
		if (td_path_cmp(v[lo].f->path, v[lo].f->path_len, f->path, f->path_len))
			return v[lo].f;
	return NULL;
}

/* One TLSH search: the change, its limit, the candidate to skip (its own
 * path), and the answer. */
typedef struct query {
	td_change_t *c;
	int limit;
	size_t skip;
	size_t k;                 /* candidates wanted */
	size_t n;                 /* found */
	size_t found[TD_COPY_CANDIDATES_MAX + 2 * TD_NAME_CANDIDATES];
	int dist[TD_COPY_CANDIDATES_MAX + 2 * TD_NAME_CANDIDATES];
	int verify;               /* 1: the candidates are diffed */
} query_t;

static void set_origin(td_change_t *c, td_origin_kind_t kind, const td_file_t *from, int dist,
		       const td_thresholds_t *t)
{
	c->origin_kind = kind;
	c->origin = from;
	c->distance = dist;
	c->fallback = 0;
	c->scored_by_lines = 0;
	c->has_similarity = kind == TD_ORIGIN_MOVED;
	c->similarity = kind == TD_ORIGIN_MOVED ? 1.0 : 0.0;
	c->cls = td_classify(dist, t);
	c->risk = dist * c->weight;
}

static int wants_origin(const td_change_t *c, const td_origin_opts_t *o)
{
	if (c->matches_version || !is_full_file(c->target) || c->cosmetic == TD_COSMETIC_YES)
		return 0;
	return c->status == TD_STATUS_ADDED || (o->find_copies && c->status == TD_STATUS_MODIFIED);
}

/* The upstream side: candidates for TLSH (digests and the files they
 * belong to, in path order) and every digested file by content. */
typedef struct upstream_set {
	td_tlsh_t *digests;
	const td_file_t **files;
	size_t n;
	by_sha_t *by_sha;
	size_t nsha;
} upstream_set_t;

static void upstream_set_release(upstream_set_t *u)
{
	free(u->digests);
	free(u->files);
	free(u->by_sha);
}

static int upstream_set_build(upstream_set_t *u, const td_result_t *r, td_error_t *err)
{
	const td_tree_t *up = r->upstream;
	size_t n = up->count ? up->count : 1;

	memset(u, 0, sizeof(*u));
	u->digests = td_malloc_array(n, sizeof(*u->digests));
	u->files = td_malloc_array(n, sizeof(*u->files));
	u->by_sha = td_malloc_array(n, sizeof(*u->by_sha));
	if (!u->digests || !u->files || !u->by_sha)
		return td_error_set(err, TD_ENOMEM, "out of memory finding origins");
	for (size_t i = 0; i < up->count; i++) {
		const td_file_t *f = &up->files[i];
		if (!is_full_file(f))
			continue;
		u->by_sha[u->nsha].key = sha_key(f);
		u->by_sha[u->nsha].f = f;
		u->by_sha[u->nsha++].kept = td_tree_find(r->target, f->path, f->path_len) != NULL;
		if (has_tlsh(f)) {
			u->digests[u->n] = f->digest.tlsh;
			u->files[u->n++] = f;
		}
	}
	qsort(u->by_sha, u->nsha, sizeof(*u->by_sha), by_sha_cmp);
	return TD_OK;
}

/* ---- candidates by name ---- */

typedef struct by_name {
	const char *name;   /* the basename */
	size_t len;
	size_t index;       /* into the upstream set */
} by_name_t;

/* The last c in p[0..n), or NULL. */
static const char *last_byte(const char *p, int c, size_t n)
{
	while (n--)
		if (p[n] == c)
			return p + n;
	return NULL;
}

static const char *base_name(const td_file_t *f, size_t *len)
{
	const char *slash = last_byte(f->path, '/', f->path_len);
	const char *b = slash ? slash + 1 : f->path;

	*len = f->path_len - (size_t)(b - f->path);
	return b;
}

static int by_name_cmp(const void *pa, const void *pb)
{
	const by_name_t *a = pa, *b = pb;
	int c = memcmp(a->name, b->name, a->len < b->len ? a->len : b->len);

	if (c)
		return c;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

static size_t common_prefix(const char *a, size_t an, const char *b, size_t bn)
{
	size_t n = 0;

	while (n < an && n < bn && a[n] == b[n])
		n++;
	return n;
}

static size_t common_suffix(const char *a, size_t an, const char *b, size_t bn)
{
	size_t n = 0;

	while (n < an && n < bn && a[an - 1 - n] == b[bn - 1 - n])
		n++;
	return n;
}

static const char *extension(const char *name, size_t len, size_t *elen)
{
	const char *dot = last_byte(name, '.', len);

	*elen = dot ? len - (size_t)(dot - name) : 0;
	return dot ? dot : name + len;
}

static int has_candidate(const query_t *q, size_t index)
{
	for (size_t i = 0; i < q->n; i++)
		if (q->found[i] == index)
			return 1;
	return 0;
}

static void add_candidate(query_t *q, const upstream_set_t *u, size_t index, int len_diff)
{
	if (has_candidate(q, index))
		return;
	q->found[q->n] = index;
	q->dist[q->n++] = td_tlsh_distance(&q->c->target->digest.tlsh, &u->digests[index], len_diff);
}

/* The TD_NAME_CANDIDATES upstream files with the highest scores so far,
 * the highest first (ties: the first offered). */
typedef struct best_names {
	size_t index[TD_NAME_CANDIDATES];
	size_t score[TD_NAME_CANDIDATES];
	size_t n;
} best_names_t;

static void best_names_offer(best_names_t *b, size_t index, size_t score)
{
	size_t at = b->n;

	while (at > 0 && score > b->score[at - 1])
		at--;
	if (at >= TD_NAME_CANDIDATES)
		return;
	for (size_t k = b->n < TD_NAME_CANDIDATES ? b->n : TD_NAME_CANDIDATES - 1; k > at; k--) {
		b->index[k] = b->index[k - 1];
		b->score[k] = b->score[k - 1];
	}
	b->index[at] = index;
	b->score[at] = score;
	if (b->n < TD_NAME_CANDIDATES)
		b->n++;
}

static void add_best_names(query_t *q, const upstream_set_t *u, const best_names_t *b, int len_diff)
{
	for (size_t k = 0; k < b->n; k++)
		add_candidate(q, u, b->index[k], len_diff);
}

/* The TD_NAME_CANDIDATES files of t's directory with t's extension whose
 * names share the longest start and end with t's (at least half the shorter
 * name's length; ties: path order). */
static void same_dir_candidates(query_t *q, const upstream_set_t *u, int len_diff)
{
	const td_file_t *t = q->c->target;
	best_names_t best = { .n = 0 };
	size_t tn, dn, te;
	const char *tb = base_name(t, &tn), *tx = extension(tb, tn, &te);
	size_t lo = 0, hi = u->n;

	dn = (size_t)(tb - t->path);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (td_path_cmp(u->files[mid]->path, u->files[mid]->path_len, t->path, dn) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < u->n; i++) {
		const td_file_t *f = u->files[i];
		size_t fn, fe, sc, shorter;
		const char *fb, *fx;
		if (f->path_len < dn || memcmp(f->path, t->path, dn))
			break;
		if (memchr(f->path + dn, '/', f->path_len - dn))
			continue;
		fb = base_name(f, &fn);
		fx = extension(fb, fn, &fe);
		if (fe != te || memcmp(fx, tx, te))
			continue;
		shorter = fn < tn ? fn : tn;
		sc = common_prefix(fb, fn, tb, tn);
		sc += common_suffix(fb + sc, fn - sc, tb + sc, tn - sc);
		if (2 * sc >= shorter)
			best_names_offer(&best, i, sc);
	}
	add_best_names(q, u, &best, len_diff);
}

/* The TD_NAME_CANDIDATES files elsewhere with t's very name, those whose
 * directories share the most with t's first. */
static void same_name_candidates(query_t *q, const upstream_set_t *u, const by_name_t *names, int len_diff)
{
	const td_file_t *t = q->c->target;
	best_names_t best = { .n = 0 };
	by_name_t key;
	size_t lo = 0, hi = u->n;

	key.name = base_name(t, &key.len);
	key.index = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (by_name_cmp(&names[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < u->n && names[i].len == key.len && !memcmp(names[i].name, key.name, key.len); i++) {
		const td_file_t *f = u->files[names[i].index];
		best_names_offer(&best, names[i].index, common_prefix(f->path, f->path_len, t->path, t->path_len) + 1);
	}
	add_best_names(q, u, &best, len_diff);
}

/* The upstream files by basename, for same_name_candidates; NULL when
 * out of memory. */
static by_name_t *names_build(const upstream_set_t *u)
{
	by_name_t *names = td_malloc_array(u->n ? u->n : 1, sizeof(*names));

	if (!names)
		return NULL;
	for (size_t i = 0; i < u->n; i++) {
		names[i].name = base_name(u->files[i], &names[i].len);
		names[i].index = i;
	}
	qsort(names, u->n, sizeof(*names), by_name_cmp);
	return names;
}

/* ---- the queries, on threads ---- */

/* Queries a thread takes at a time. */
#define SEARCH_CHUNK 16

typedef struct search {
	const td_tlsh_index_t *ix;
	const upstream_set_t *u;
	const by_name_t *names;
	int len_diff;
	query_t *q;
	size_t nq;
	atomic_size_t *next;
	uint64_t distances;
} search_t;

/* Each query: its TLSH candidates, then for a verified one its name
 * candidates (names is NULL when no query is verified). */
static void *search_run(void *arg)
{
	search_t *s = arg;
	size_t begin;

	while ((begin = atomic_fetch_add(s->next, SEARCH_CHUNK)) < s->nq) {
		size_t end = s->nq - begin < SEARCH_CHUNK ? s->nq : begin + SEARCH_CHUNK;
		for (size_t i = begin; i < end; i++) {
			query_t *q = &s->q[i];
			q->n = td_tlsh_index_nearest_k(s->ix, &q->c->target->digest.tlsh, q->limit, q->skip, q->k,
						       q->found, q->dist, &s->distances);
			if (q->verify && s->names) {
				same_dir_candidates(q, s->u, s->len_diff);
				same_name_candidates(q, s->u, s->names, s->len_diff);
			}
		}
	}
	return NULL;
}

/* 1 to SEARCH_THREADS_MAX, which run_queries' arrays rely on. */
static unsigned search_threads(const td_origin_opts_t *o, size_t nq)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	size_t t = o->threads ? o->threads : online > 0 ? (size_t)online : 1;
	size_t most = nq / MIN_QUERIES_PER_THREAD;

	if (t > most)
		t = most;
	if (t > SEARCH_THREADS_MAX)
		t = SEARCH_THREADS_MAX;
	return t ? (unsigned)t : 1;
}

/* Run the queries on search_threads threads, a chunk at a time; the
 * answers land in the queries, so the outcome does not depend on the
 * thread count. Adds the TLSH distances computed to *distances. 0 or
 * TD_ENOMEM. */
static int run_queries(const td_tlsh_index_t *ix, const upstream_set_t *u, int len_diff, query_t *q, size_t nq,
		       const td_origin_opts_t *o, uint64_t *distances)
{
	unsigned threads = search_threads(o, nq);
	search_t s[SEARCH_THREADS_MAX];
	pthread_t tid[SEARCH_THREADS_MAX];
	int started[SEARCH_THREADS_MAX] = { 0 };
	atomic_size_t next = 0;
	by_name_t *names = NULL;
	size_t verified = 0;

	/* the name candidates are for verified queries only */
	while (verified < nq && !q[verified].verify)
		verified++;
	if (verified < nq && !(names = names_build(u)))
		return TD_ENOMEM;
	for (unsigned t = 0; t < threads; t++)
		s[t] = (search_t){ .ix = ix, .u = u, .names = names, .len_diff = len_diff, .q = q, .nq = nq,
				   .next = &next };
	for (unsigned t = 1; t < threads; t++)
		started[t] = !pthread_create(&tid[t], NULL, search_run, &s[t]);
	search_run(&s[0]);
	for (unsigned t = 1; t < threads; t++)
		if (started[t])
			pthread_join(tid[t], NULL);
	for (unsigned t = 0; t < threads; t++)
		*distances += s[t].distances;
	free(names);
	return TD_OK;
}

/* The candidate index of upstream file f, or SIZE_MAX when it is none. */
static size_t candidate_of(const upstream_set_t *u, const td_file_t *f)
{
	size_t lo = 0, hi = u->n;

	while (f && lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = td_path_cmp(u->files[mid]->path, u->files[mid]->path_len, f->path, f->path_len);
		if (!c)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return SIZE_MAX;
}

/* The verified queries: diff each with its candidates and keep the most
 * similar one at copy_similarity or more (ties: the nearer, as found). With
 * no candidate content to diff, the nearest within copy_threshold, as
 * without verification. */
static int verify_candidates(td_result_t *r, const td_origin_opts_t *o, const upstream_set_t *u, query_t *q,
			     size_t nq, td_origin_stats_t *st, td_error_t *err)
{
	td_lines_opts_t lo;
	td_pair_t *p = NULL;
	size_t np = 0, at = 0;
	const char *why = NULL;
	int rc;

	for (size_t i = 0; i < nq; i++)
		np += q[i].verify ? q[i].n : 0;
	if (!np)
		return TD_OK;
	if (!(p = td_malloc_array(np, sizeof(*p))))
		return td_error_set(err, TD_ENOMEM, "out of memory verifying copies");
	for (size_t i = 0; i < nq; i++)
		for (size_t j = 0; q[i].verify && j < q[i].n; j++, at++) {
			memset(&p[at], 0, sizeof(p[at]));
			p[at].up = u->files[q[i].found[j]];
			p[at].tg = q[i].c->target;
			p[at].mode = TD_PAIR_SIMILARITY;
			p[at].floor = o->copy_similarity;
		}
	td_lines_opts_init(&lo);
	lo.jobs = o->threads;
	if ((rc = td_pairs_diff(r, p, np, &lo, &why, err)))
		goto out;
	at = 0;
	for (size_t i = 0; i < nq; i++) {
		size_t best = SIZE_MAX, measured = 0, diffed = 0;
		if (!q[i].verify)
			continue;
		for (size_t j = 0; j < q[i].n; j++, at++) {
			const td_pair_t *pj = &p[at];
			if (pj->missing || pj->sim.binary)
				continue;
			measured++;
			if (pj->sim.bounded)
				continue;
			diffed++;
			if (pj->sim.value >= o->copy_similarity &&
			    (best == SIZE_MAX || pj->sim.value > p[at - j + best].sim.value))
				best = j;
		}
		st->verified += measured;
		st->diffed += diffed;
		if (best != SIZE_MAX) {
			td_change_t *c = q[i].c;
			set_origin(c, TD_ORIGIN_COPIED, u->files[q[i].found[best]], q[i].dist[best], &r->thresholds);
			c->has_similarity = 1;
			c->similarity = p[at - q[i].n + best].sim.value;
			st->copied++;
		} else if (!measured && q[i].n && q[i].dist[0] <= o->copy_threshold) {
			set_origin(q[i].c, TD_ORIGIN_COPIED, u->files[q[i].found[0]], q[i].dist[0], &r->thresholds);
			st->copied++;
			st->unverified++;
		}
	}
	if (st->unverified && why && !r->copies_unverified)
		r->copies_unverified = why;
	rc = TD_OK;
out:
	free(p);
	return rc;
}

int td_origin_find(td_result_t *r, const td_origin_opts_t *o, td_origin_stats_t *stats, td_error_t *err)
{
	td_origin_opts_t defaults;
	td_origin_stats_t st = { 0 };
	upstream_set_t u;
	td_tlsh_index_t *ix = NULL;
	query_t *q = NULL;
	size_t nq = 0;
	int rc;

	if (!o) {
		td_origin_opts_init(&defaults);
		o = &defaults;
	}
	if ((rc = upstream_set_build(&u, r, err)))
		goto out;
	st.candidates = u.n;
	if (!(q = td_malloc_array(r->count ? r->count : 1, sizeof(*q)))) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory finding origins");
		goto out;
	}
	for (size_t i = 0; i < r->count; i++) {
		td_change_t *c = &r->changes[i];
		const td_file_t *same;
		if (!wants_origin(c, o))
			continue;
		st.searched++;
		if ((same = find_same_content(u.by_sha, u.nsha, c->target))) {
			int moved = c->status == TD_STATUS_ADDED;
			set_origin(c, moved ? TD_ORIGIN_MOVED : TD_ORIGIN_COPIED, same, 0, &r->thresholds);
			st.moved += moved;
			st.copied += !moved;
			continue;
		}
		if (!has_tlsh(c->target) || o->copy_threshold < 0)
			continue;
		q[nq].c = c;
		q[nq].limit = o->copy_threshold;
		q[nq].skip = SIZE_MAX;
		q[nq].k = 1;
		q[nq].verify = o->verify && c->status == TD_STATUS_ADDED;
		if (q[nq].verify) {
			q[nq].limit = o->copy_bound;
			q[nq].k = o->copy_candidates ? o->copy_candidates : TD_DEFAULT_COPY_CANDIDATES;
			if (q[nq].k > TD_COPY_CANDIDATES_MAX)
				q[nq].k = TD_COPY_CANDIDATES_MAX;
		}
		if (c->status == TD_STATUS_MODIFIED) {
			/* Only an origin nearer than its own path's file is news. */
			if (c->distance - 1 < q[nq].limit)
				q[nq].limit = c->distance - 1;
			q[nq].skip = candidate_of(&u, c->upstream);
			if (q[nq].limit < 0)
				continue;
		}
		nq++;
	}
	if (nq) {
		if ((rc = td_tlsh_index_new(&ix, u.digests, u.n, r->len_diff, err)))
			goto out;
		if (run_queries(ix, &u, r->len_diff, q, nq, o, &st.distances)) {
			rc = td_error_set(err, TD_ENOMEM, "out of memory finding origins");
			goto out;
		}
	}
	if ((rc = verify_candidates(r, o, &u, q, nq, &st, err)))
		goto out;
	for (size_t i = 0; i < nq; i++) {
		if (q[i].verify || !q[i].n)
			continue;
		set_origin(q[i].c, TD_ORIGIN_COPIED, u.files[q[i].found[0]], q[i].dist[0], &r->thresholds);
		st.copied++;
	}
	td_result_update_totals(r);
	rc = TD_OK;
out:
	if (stats)
		*stats = st;
	td_tlsh_index_free(ix);
	free(q);
	upstream_set_release(&u);
	return rc;
}

/* ---- td_origin_versions ---- */

typedef struct ranked {
	const char *label;
	size_t index;
} ranked_t;

static int by_label_then_index(const void *pa, const void *pb)
{
	const ranked_t *a = pa, *b = pb;
	int c = td_version_label_cmp(a->label, b->label);

	if (c)
		return c;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* Rank of each version in label order (0 = lowest; equal labels by
 * index): one sort, O(V log V). */
static int label_ranks(size_t **out, const td_version_t *v, size_t nv)
{
	size_t *rank = td_malloc_array(nv ? nv : 1, sizeof(*rank));
	ranked_t *order = td_malloc_array(nv ? nv : 1, sizeof(*order));

	*out = rank;
	if (!rank || !order) {
		free(order);
		return TD_ENOMEM;
	}
	for (size_t i = 0; i < nv; i++) {
		order[i].label = v[i].meta.label ? v[i].meta.label : "";
		order[i].index = i;
	}
	qsort(order, nv, sizeof(*order), by_label_then_index);
	for (size_t k = 0; k < nv; k++)
		rank[order[k].index] = k;
	free(order);
	return TD_OK;
}

/* Of the versions holding a file, the newer one nearest to base in label
 * order, else the older one nearest to it; SIZE_MAX when only base holds
 * it. */
static size_t nearest_version(const uint32_t *vs, size_t n, size_t base, const size_t *rank)
{
	size_t newer = SIZE_MAX, older = SIZE_MAX;

	for (size_t k = 0; k < n; k++) {
		size_t v = vs[k];
		if (v == base)
			continue;
		if (rank[v] > rank[base] && (newer == SIZE_MAX || rank[v] < rank[newer]))
			newer = v;
		else if (rank[v] < rank[base] && (older == SIZE_MAX || rank[v] > rank[older]))
			older = v;
	}
	return newer != SIZE_MAX ? newer : older;
}

int td_origin_versions(td_result_t *r, td_db_t *db, size_t *marked, td_error_t *err)
{
	td_version_t *v = NULL;
	size_t nv = 0, base = SIZE_MAX, *rank = NULL, count = 0;
	const char **labels = NULL;
	td_db_matches_t *m = NULL;
	int rc;

	if (marked)
		*marked = 0;
	if (!r->base_version)
		return TD_OK;
	if ((rc = td_db_versions(&v, &nv, db, err)))
		return rc;
	for (size_t i = 0; i < nv; i++)
		if (v[i].meta.label && !strcmp(v[i].meta.label, r->base_version))
			base = i;
	if (base == SIZE_MAX) {
		rc = td_error_set(err, TD_ENOTFOUND, "version '%s' is not in the database", r->base_version);
		goto out;
	}
	if (nv < 2)
		goto out;
	if (label_ranks(&rank, v, nv) || !(labels = calloc(nv, sizeof(*labels)))) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory matching versions");
		goto out;
	}
	if ((rc = td_db_match(&m, db, r->target, err)))
		goto out;
	for (size_t i = 0; i < r->count; i++) {
		td_change_t *c = &r->changes[i];
		size_t ti, best;
		if ((c->status != TD_STATUS_MODIFIED && c->status != TD_STATUS_ADDED) || !c->target)
			continue;
		ti = (size_t)(c->target - r->target->files);
		if (ti >= m->file_count)
			continue;
		best = nearest_version(m->version + m->start[ti], m->start[ti + 1] - m->start[ti], base, rank);
		if (best == SIZE_MAX)
			continue;
		if (!labels[best] && td_result_keep_string(r, v[best].meta.label ? v[best].meta.label : "",
							   &labels[best])) {
			rc = td_error_set(err, TD_ENOMEM, "out of memory matching versions");
			goto out;
		}
		c->matches_version = labels[best];
		c->version_match = rank[best] > rank[base] ? TD_VERSION_MATCH_BACKPORT : TD_VERSION_MATCH_ROLLBACK;
		count++;
	}
	td_result_update_totals(r);
out:
	if (marked)
		*marked = count;
	td_db_matches_free(m);
	free(labels);
	free(rank);
	td_versions_free(v, nv);
	return rc;
}

void td_origin_count(td_origin_counts_t *out, const td_result_t *r)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < r->count; i++) {
		const td_change_t *c = &r->changes[i];
		if (c->matches_version) {
			out->matches_version++;
			if (c->version_match == TD_VERSION_MATCH_BACKPORT) {
				out->backport++;
				out->backport_distance += (uint64_t)c->distance;
			} else {
				out->rollback++;
				out->rollback_distance += (uint64_t)c->distance;
			}
		} else if (c->origin && c->origin_kind == TD_ORIGIN_MOVED)
			out->moved++;
		else if (c->origin && c->origin_kind == TD_ORIGIN_COPIED)
			out->copied++;
	}
}
