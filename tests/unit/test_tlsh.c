/* TLSH: reproduce every line of tests/data/tlsh (the reference's outputs),
 * and check what the reference data cannot: that the digest does not depend
 * on how the input is split, that the counting loops agree, parsing, the
 * bounded distance, the length cap and counter saturation. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "treedrift/tlsh.h"
#include "tlsh_impl.h"
#include "tlsh_spec.h"
#include "check.h"

#define DATA TD_TEST_DATA "/tlsh/"
#define MAX_ITEMS 128

typedef struct item {
	char name[256];          /* as the expected files spell it */
	uint8_t *data;
	size_t len;
	td_tlsh_status_t status;
	td_tlsh_t digest;
} item_t;

typedef struct item_set {
	item_t items[MAX_ITEMS];
	int n;
} item_set_t;

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		fprintf(stderr, "out of memory\n");
		exit(2);
	}
	return p;
}

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f) {
		perror(path);
		return NULL;
	}
	do {
		if (n == cap) {
			cap = cap ? 2 * cap : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				exit(2);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	fclose(f);
	*len = n;
	return buf;
}

/* Lines of a text file, split at tabs into at most 3 fields. */
typedef struct tsv {
	char *text;
	char **field[3];
	int n;
} tsv_t;

static int tsv_load(tsv_t *t, const char *path)
{
	size_t len;
	int cap = 0;
	char *p;

	memset(t, 0, sizeof(*t));
	t->text = (char *)read_file(path, &len);
	if (!t->text)
		return -1;
	t->text = realloc(t->text, len + 1);
	t->text[len] = '\0';
	for (p = t->text; *p;) {
		char *eol = strchr(p, '\n');
		if (eol)
			*eol = '\0';
		if (t->n == cap) {
			cap = cap ? 2 * cap : 256;
			for (int k = 0; k < 3; k++)
				t->field[k] = realloc(t->field[k], cap * sizeof(char *));
		}
		for (int k = 0; k < 3; k++) {
			t->field[k][t->n] = p;
			if (k < 2) {
				char *tab = p ? strchr(p, '\t') : NULL;
				if (tab)
					*tab = '\0';
				p = tab ? tab + 1 : NULL;
			}
		}
		t->n++;
		if (!eol)
			break;
		p = eol + 1;
	}
	return 0;
}

static void tsv_free(tsv_t *t)
{
	free(t->text);
	for (int k = 0; k < 3; k++)
		free(t->field[k]);
}

static item_t *find_item(item_set_t *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->items[i].name, name))
			return &s->items[i];
	return NULL;
}

static item_t *add_item(item_set_t *s, const char *name, uint8_t *data, size_t len)
{
	item_t *it = &s->items[s->n++];

	if (s->n > MAX_ITEMS) {
		fprintf(stderr, "too many items\n");
		exit(2);
	}
	snprintf(it->name, sizeof(it->name), "%s", name);
	it->data = data;
	it->len = len;
	it->status = td_tlsh_hash(&it->digest, data, len);
	return it;
}

static void free_items(item_set_t *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->items[i].data);
	s->n = 0;
}

/* ---- the reference's example data ---- */

static void load_examples(item_set_t *s)
{
	tsv_t t;

	if (tsv_load(&t, DATA "expected/len.out")) {
		CHECK(!"expected/len.out readable");
		return;
	}
	for (int i = 0; i < t.n; i++) {
		char path[512];
		uint8_t *data;
		size_t len;

		if (!t.field[0][i] || !*t.field[0][i])
			continue;
		snprintf(path, sizeof(path), DATA "%s", t.field[1][i]);
		data = read_file(path, &len);
		CHECK(data != NULL);
		if (data)
			add_item(s, t.field[1][i], data, len);
	}
	tsv_free(&t);
	CHECK_INT(s->n, 80);
}

/* Every HASH<TAB>PATH line of path is reproduced, and parses back. */
static void check_hash_file(item_set_t *s, const char *path, int want_lines)
{
	tsv_t t;
	int n = 0;

	if (tsv_load(&t, path)) {
		CHECK(!"hash file readable");
		return;
	}
	for (int i = 0; i < t.n; i++) {
		item_t *it;
		char hex[TD_TLSH_HEX_CHARS + 1];
		td_tlsh_t parsed;

		if (!*t.field[0][i])
			continue;
		n++;
		it = find_item(s, t.field[1][i]);
		CHECK(it != NULL);
		if (!it)
			continue;
		CHECK_INT(it->status, TD_TLSH_OK);
		td_tlsh_format(hex, &it->digest);
		if (strcmp(hex, t.field[0][i]))
			fprintf(stderr, "digest of %s\n", it->name);
		CHECK_STR(hex, t.field[0][i]);
		CHECK_INT(td_tlsh_parse(&parsed, t.field[0][i], strlen(t.field[0][i])), 0);
		CHECK(!memcmp(&parsed, &it->digest, sizeof(parsed)));
	}
	CHECK_INT(n, want_lines);
	tsv_free(&t);
}

/* Every A<TAB>B<TAB>DISTANCE line of path is reproduced, and the bounded
 * distance agrees at and around it. */
static void check_score_file(item_set_t *s, const char *path, int len_diff, int want_lines)
{
	tsv_t t;
	int n = 0;

	if (tsv_load(&t, path)) {
		CHECK(!"score file readable");
		return;
	}
	for (int i = 0; i < t.n; i++) {
		item_t *a, *b;
		int want, got;

		if (!*t.field[0][i])
			continue;
		n++;
		a = find_item(s, t.field[0][i]);
		b = find_item(s, t.field[1][i]);
		CHECK(a && b);
		if (!a || !b)
			continue;
		want = atoi(t.field[2][i]);
		got = td_tlsh_distance(&a->digest, &b->digest, len_diff);
		if (got != want)
			fprintf(stderr, "distance %s %s\n", a->name, b->name);
		CHECK_INT(got, want);
		CHECK_INT(td_tlsh_distance(&b->digest, &a->digest, len_diff), want);
		CHECK_INT(td_tlsh_distance_bounded(&a->digest, &b->digest, len_diff, want), want);
		CHECK_INT(td_tlsh_distance_bounded(&a->digest, &b->digest, len_diff, 100000), want);
		CHECK(td_tlsh_distance_bounded(&a->digest, &b->digest, len_diff, want - 1) > want - 1);
		if (want > 0)
			CHECK(td_tlsh_distance_bounded(&a->digest, &b->digest, len_diff, want / 2) > want / 2);
	}
	CHECK_INT(n, want_lines);
	tsv_free(&t);
}

/* ---- the edge cases: a port of edge/make_inputs.py ---- */

typedef struct xorshift {
	uint64_t x;
} xorshift_t;

static unsigned xorshift_next(xorshift_t *g)
{
	g->x ^= g->x << 13;
	g->x ^= g->x >> 7;
	g->x ^= g->x << 17;
	return (unsigned)(g->x & 0xff);
}

static uint8_t *rand_bytes(size_t n, uint64_t seed)
{
	uint8_t *p = xmalloc(n);
	xorshift_t g = { seed };

	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)xorshift_next(&g);
	return p;
}

static uint8_t *text_bytes(size_t n, uint64_t seed)
{
	static const char *const words[] = {
		"static", "int", "return", "struct", "void", "if", "else", "for",
		"(", ")", "{", "}", ";", "\n", "  ", "dev", "->", "err", "=", "0"
	};
	uint8_t *p = xmalloc(n + 16);
	xorshift_t g = { seed };
	size_t len = 0;

	while (len < n) {
		const char *w = words[xorshift_next(&g) % (sizeof(words) / sizeof(words[0]))];
		size_t wl = strlen(w);
		size_t take = wl + 1 <= n - len ? wl + 1 : n - len;

		memcpy(p + len, w, take < wl ? take : wl);
		if (take > wl)
			p[len + wl] = ' ';
		len += take;
	}
	return p;
}

static uint8_t *repeat(const char *unit, size_t times, const char *tail, size_t *len)
{
	size_t ul = strlen(unit), tl = strlen(tail);
	uint8_t *p = xmalloc(ul * times + tl);

	for (size_t i = 0; i < times; i++)
		memcpy(p + i * ul, unit, ul);
	memcpy(p + ul * times, tail, tl);
	*len = ul * times + tl;
	return p;
}

static void load_edge(item_set_t *s)
{
	static const struct { const char *name; size_t len; uint64_t seed; } rnd[] = {
		{ "rand_49.bin", 49, 1 }, { "rand_50.bin", 50, 2 }, { "rand_51.bin", 51, 3 },
		{ "rand_255.bin", 255, 4 }, { "rand_256.bin", 256, 5 }, { "rand_4096.bin", 4096, 6 },
		{ "rand_65536.bin", 65536, 7 }, { "rand_1048576.bin", 1048576, 8 },
		{ "rand_3000017.bin", 3000017, 9 },
	};
	static const struct { const char *name; size_t len; uint64_t seed; } txt[] = {
		{ "text_50.c", 50, 10 }, { "text_300.c", 300, 11 }, { "text_20000.c", 20000, 12 },
		{ "text_500000.c", 500000, 13 },
	};
	static const char line[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890!@#$%^&*()\n";
	static const char hack[] = "/* vendor hack */\n";
	uint8_t *p, *a, *b, *first;
	size_t len, alen, blen;
	char name[64];

	add_item(s, "inputs/empty.bin", xmalloc(0), 0);
	for (size_t i = 0; i < sizeof(rnd) / sizeof(rnd[0]); i++) {
		snprintf(name, sizeof(name), "inputs/%s", rnd[i].name);
		add_item(s, name, rand_bytes(rnd[i].len, rnd[i].seed), rnd[i].len);
	}
	p = xmalloc(1000);
	memset(p, 0, 1000);
	add_item(s, "inputs/zeros_1000.bin", p, 1000);
	p = repeat("ab", 500, "", &len);
	add_item(s, "inputs/ab_1000.bin", p, len);
	p = repeat("abc", 333, "a", &len);
	add_item(s, "inputs/abc_1000.bin", p, len);
	p = repeat("abcdefgh", 512, "", &len);
	add_item(s, "inputs/abcdefgh_4096.bin", p, len);
	for (size_t i = 0; i < sizeof(txt) / sizeof(txt[0]); i++) {
		snprintf(name, sizeof(name), "inputs/%s", txt[i].name);
		add_item(s, name, text_bytes(txt[i].len, txt[i].seed), txt[i].len);
	}
	/* text(20000, 12)[:9000] + hack + text(20000, 12)[9000:19000] */
	a = text_bytes(20000, 12);
	p = xmalloc(19000 + sizeof(hack) - 1);
	memcpy(p, a, 9000);
	memcpy(p + 9000, hack, sizeof(hack) - 1);
	memcpy(p + 9000 + sizeof(hack) - 1, a + 9000, 10000);
	free(a);
	add_item(s, "inputs/text_20000_edit.c", p, 19000 + sizeof(hack) - 1);

	/* a = LINE * 2, b = a + a; then, 22 times: b is an input, a, b = b, a + b */
	first = repeat(line, 2, "", &alen);
	a = first;
	b = xmalloc(2 * alen);
	memcpy(b, a, alen);
	memcpy(b + alen, a, alen);
	blen = 2 * alen;
	for (int i = 1; i <= 22; i++) {
		size_t nlen = alen + blen;
		uint8_t *next = xmalloc(nlen);

		memcpy(next, a, alen);
		memcpy(next + alen, b, blen);
		snprintf(name, sizeof(name), "inputs/fib_%02d.txt", i);
		add_item(s, name, b, blen);  /* the item owns b; a borrows it */
		a = b;
		alen = blen;
		b = next;
		blen = nlen;
	}
	free(first);
	free(b);
}

static void check_rejects(item_set_t *s, const char *path, int want_lines)
{
	tsv_t t;
	int n = 0;

	if (tsv_load(&t, path)) {
		CHECK(!"rejects file readable");
		return;
	}
	for (int i = 0; i < t.n; i++) {
		item_t *it;

		if (!*t.field[0][i])
			continue;
		n++;
		it = find_item(s, t.field[0][i]);
		CHECK(it != NULL);
		if (!it)
			continue;
		if (!strcmp(t.field[1][i], "too_small"))
			CHECK_INT(it->status, TD_TLSH_TOO_SHORT);
		else if (!strcmp(t.field[1][i], "cannot_hash"))
			CHECK_INT(it->status, TD_TLSH_TOO_UNIFORM);
		else
			CHECK(!"known reason");
	}
	CHECK_INT(n, want_lines);
	tsv_free(&t);
}

/* ---- streaming and the counting loops ---- */

/* The state that decides the digest (bucket[128..255] do not). */
static int same_state(const td_tlsh_ctx_t *a, const td_tlsh_ctx_t *b)
{
	return !memcmp(a->bucket, b->bucket, TLSH_EFF_BUCKETS * sizeof(a->bucket[0])) &&
	       a->len_bytes == b->len_bytes && !memcmp(a->window, b->window, sizeof(a->window)) &&
	       a->checksum == b->checksum;
}

enum split { SPLIT_ONES, SPLIT_RANDOM, SPLIT_HEAD, SPLIT_EDGES };

/* Feed it in pieces as split says; head is the first piece for SPLIT_HEAD. */
static void feed(td_tlsh_ctx_t *ctx, const item_t *it, enum split split, size_t head,
		 uint64_t seed, td_tlsh_impl_t impl)
{
	static const size_t edges[] = { 1, 3, 4, 5, 63, 64, 65, 127, 511, 512, 513, 4097, 70000 };
	xorshift_t g = { seed };
	size_t off = 0, k = 0;

	td_tlsh_init(ctx);
	while (off < it->len) {
		size_t n;

		switch (split) {
		case SPLIT_ONES:
			n = 1;
			break;
		case SPLIT_RANDOM:
			n = xorshift_next(&g) & 1 ? 1 + xorshift_next(&g) % 16
						  : 1 + (xorshift_next(&g) << 8 | xorshift_next(&g)) % 20000;
			break;
		case SPLIT_HEAD:
			n = off ? it->len - off : head;
			break;
		default:
			n = edges[k++ % (sizeof(edges) / sizeof(edges[0]))];
			break;
		}
		if (n > it->len - off)
			n = it->len - off;
		td_tlsh_update_impl(ctx, it->data + off, n, impl);
		off += n;
	}
}

static void check_split(const item_t *it, enum split split, size_t head, td_tlsh_impl_t impl)
{
	td_tlsh_ctx_t whole, parts;
	td_tlsh_t d;
	td_tlsh_status_t st;

	td_tlsh_init(&whole);
	td_tlsh_update_impl(&whole, it->data, it->len, TD_TLSH_IMPL_SCALAR);
	feed(&parts, it, split, head, 0x9e3779b97f4a7c15u ^ it->len, impl);
	if (!same_state(&whole, &parts))
		fprintf(stderr, "split %d (head %zu, impl %d) of %s\n", (int)split, head, (int)impl,
			it->name);
	CHECK(same_state(&whole, &parts));
	st = td_tlsh_final(&d, &parts);
	CHECK_INT(st, it->status);
	if (st == TD_TLSH_OK)
		CHECK(!memcmp(&d, &it->digest, sizeof(d)));
}

static void check_streaming(item_set_t *s)
{
	for (int i = 0; i < s->n; i++) {
		const item_t *it = &s->items[i];

		if (it->len <= 1100000)
			check_split(it, SPLIT_ONES, 0, TD_TLSH_IMPL_AUTO);
		check_split(it, SPLIT_RANDOM, 0, TD_TLSH_IMPL_AUTO);
		check_split(it, SPLIT_EDGES, 0, TD_TLSH_IMPL_AUTO);
		for (size_t head = 1; head <= 6; head++)
			check_split(it, SPLIT_HEAD, head, TD_TLSH_IMPL_AUTO);
	}
}

/* The loops, each checked against the scalar one where this CPU runs it. */
static const td_tlsh_impl_t all_impls[] = { TD_TLSH_IMPL_SCALAR, TD_TLSH_IMPL_PAIR, TD_TLSH_IMPL_AVX2,
					     TD_TLSH_IMPL_AVX512 };
#define N_IMPLS (sizeof(all_impls) / sizeof(all_impls[0]))

/* Every loop must count exactly what the scalar one does, whole and in
 * pieces of every awkward size. */
static void check_impls(item_set_t *s, td_tlsh_impl_t impl)
{
	for (int i = 0; i < s->n; i++) {
		const item_t *it = &s->items[i];

		check_split(it, SPLIT_HEAD, it->len, impl);
		check_split(it, SPLIT_RANDOM, 0, impl);
		check_split(it, SPLIT_EDGES, 0, impl);
		for (size_t head = 1; head <= 6; head++)
			check_split(it, SPLIT_HEAD, head, impl);
	}
}

/* The reference's digests of path, made by one loop alone. */
static void check_hash_file_impl(item_set_t *s, const char *path, td_tlsh_impl_t impl, int want_lines)
{
	tsv_t t;
	int n = 0;

	if (tsv_load(&t, path)) {
		CHECK(!"hash file readable");
		return;
	}
	for (int i = 0; i < t.n; i++) {
		item_t *it;
		td_tlsh_ctx_t ctx;
		td_tlsh_t d;
		char hex[TD_TLSH_HEX_CHARS + 1];

		if (!*t.field[0][i])
			continue;
		n++;
		it = find_item(s, t.field[1][i]);
		CHECK(it != NULL);
		if (!it)
			continue;
		td_tlsh_init(&ctx);
		td_tlsh_update_impl(&ctx, it->data, it->len, impl);
		CHECK_INT(td_tlsh_final(&d, &ctx), TD_TLSH_OK);
		td_tlsh_format(hex, &d);
		if (strcmp(hex, t.field[0][i]))
			fprintf(stderr, "digest of %s by %s\n", it->name, td_tlsh_impl_name(impl));
		CHECK_STR(hex, t.field[0][i]);
	}
	CHECK_INT(n, want_lines);
	tsv_free(&t);
}

/* Two streams at once count what each counts alone: every pair of items,
 * fed in the same random pieces to both, with a head that leaves one
 * window unfilled at times. */
static void check_pairs(item_set_t *s, td_tlsh_impl_t impl)
{
	if (!td_tlsh_impl_supported(impl))
		return;
	for (int i = 0; i < s->n; i++) {
		for (int j = i % 5; j < s->n; j += 5) {
			const item_t *x = &s->items[i], *y = &s->items[j];
			xorshift_t g = { 0x243f6a8885a308d3u ^ (uint64_t)(i * 131 + j) };
			td_tlsh_ctx_t ax, ay, bx, by;
			size_t ox = 0, oy = 0;
			int step = 0;

			td_tlsh_init(&ax);
			td_tlsh_init(&ay);
			td_tlsh_update_impl(&ax, x->data, x->len, TD_TLSH_IMPL_SCALAR);
			td_tlsh_update_impl(&ay, y->data, y->len, TD_TLSH_IMPL_SCALAR);
			td_tlsh_init(&bx);
			td_tlsh_init(&by);
			while (ox < x->len || oy < y->len) {
				size_t n = step++ ? 1 + (xorshift_next(&g) << 8 | xorshift_next(&g)) % 70000
						  : xorshift_next(&g) % 6;
				size_t nx = n < x->len - ox ? n : x->len - ox;
				size_t ny = n < y->len - oy ? n : y->len - oy;

				if (xorshift_next(&g) % 4 == 0 && ny > 3)
					ny -= xorshift_next(&g) % 4;
				td_tlsh_update2_impl(&bx, x->data + ox, nx, &by, y->data + oy, ny, impl);
				ox += nx;
				oy += ny;
			}
			if (!same_state(&ax, &bx) || !same_state(&ay, &by))
				fprintf(stderr, "pair %s, %s (impl %d)\n", x->name, y->name, (int)impl);
			CHECK(same_state(&ax, &bx));
			CHECK(same_state(&ay, &by));
		}
	}
}

/* final does not change the context, and more input may follow. */
static void check_final_midstream(const item_t *it)
{
	td_tlsh_ctx_t ctx, copy;
	td_tlsh_t mid, end;
	size_t half = it->len / 2;

	td_tlsh_init(&ctx);
	td_tlsh_update(&ctx, it->data, half);
	copy = ctx;
	(void)td_tlsh_final(&mid, &ctx);
	CHECK(!memcmp(&copy, &ctx, sizeof(ctx)));
	td_tlsh_update(&ctx, it->data + half, it->len - half);
	CHECK_INT(td_tlsh_final(&end, &ctx), TD_TLSH_OK);
	CHECK(!memcmp(&end, &it->digest, sizeof(end)));
}

/* ---- parsing and formatting ---- */

static void check_parse(const item_t *it)
{
	char hex[TD_TLSH_HEX_CHARS + 1], buf[TD_TLSH_HEX_CHARS + 8];
	td_tlsh_t d;

	td_tlsh_format(hex, &it->digest);
	CHECK_INT(strlen(hex), TD_TLSH_HEX_CHARS);
	CHECK(hex[0] == 'T' && hex[1] == '1');

	/* With and without the prefix, either case of hex. */
	memset(&d, 0xa5, sizeof(d));
	CHECK_INT(td_tlsh_parse(&d, hex, TD_TLSH_HEX_CHARS), 0);
	CHECK(!memcmp(&d, &it->digest, sizeof(d)));
	memset(&d, 0xa5, sizeof(d));
	CHECK_INT(td_tlsh_parse(&d, hex + 2, TD_TLSH_HEX_CHARS - 2), 0);
	CHECK(!memcmp(&d, &it->digest, sizeof(d)));
	memcpy(buf, hex, sizeof(hex));
	for (char *c = buf + 2; *c; c++)
		if (*c >= 'A' && *c <= 'F')
			*c = (char)(*c - 'A' + 'a');
	CHECK_INT(td_tlsh_parse(&d, buf, TD_TLSH_HEX_CHARS), 0);
	CHECK(!memcmp(&d, &it->digest, sizeof(d)));

	/* Only the text given counts: a longer buffer is fine. */
	memcpy(buf, hex, sizeof(hex));
	memcpy(buf + TD_TLSH_HEX_CHARS, "00", 3);
	CHECK_INT(td_tlsh_parse(&d, buf, TD_TLSH_HEX_CHARS), 0);

	/* Wrong lengths. */
	CHECK_INT(td_tlsh_parse(&d, hex, 0), -1);
	CHECK_INT(td_tlsh_parse(&d, hex, 2), -1);
	CHECK_INT(td_tlsh_parse(&d, hex, TD_TLSH_HEX_CHARS - 1), -1);
	CHECK_INT(td_tlsh_parse(&d, hex + 2, TD_TLSH_HEX_CHARS - 3), -1);
	CHECK_INT(td_tlsh_parse(&d, hex + 2, TD_TLSH_HEX_CHARS - 1), -1);
	CHECK_INT(td_tlsh_parse(&d, buf, TD_TLSH_HEX_CHARS + 2), -1);
	CHECK_INT(td_tlsh_parse(&d, buf + 2, TD_TLSH_HEX_CHARS), -1);  /* 72 digits */

	/* Wrong prefix, and a non-hex character anywhere. */
	memcpy(buf, hex, sizeof(hex));
	buf[0] = 't';
	CHECK_INT(td_tlsh_parse(&d, buf, TD_TLSH_HEX_CHARS), -1);
	buf[0] = 'T';
	buf[1] = '2';
	CHECK_INT(td_tlsh_parse(&d, buf, TD_TLSH_HEX_CHARS), -1);
	for (size_t i = 2; i < TD_TLSH_HEX_CHARS; i += 7) {
		static const char bad[] = "gG -x\n:@";
		memcpy(buf, hex, sizeof(hex));
		buf[i] = bad[i % (sizeof(bad) - 1)];
		CHECK_INT(td_tlsh_parse(&d, buf, TD_TLSH_HEX_CHARS), -1);
		CHECK_INT(td_tlsh_parse(&d, buf + 2, TD_TLSH_HEX_CHARS - 2), -1);
	}
}

/* ---- things the reference data does not reach ---- */

/* The length value: first entry >= len, capped at the last for longer
 * inputs, which the reference never returns for. */
static void check_length_value(const item_t *it)
{
	td_tlsh_ctx_t ctx;
	td_tlsh_t d;

	td_tlsh_init(&ctx);
	td_tlsh_update(&ctx, it->data, it->len);
	for (int i = 0; i < TLSH_NTOPVAL; i++) {
		ctx.len_bytes = tlsh_topval[i];
		if (ctx.len_bytes < TD_TLSH_MIN_INPUT_BYTES)
			continue;
		CHECK_INT(td_tlsh_final(&d, &ctx), TD_TLSH_OK);
		CHECK_INT(d.lvalue, i);
		ctx.len_bytes = (uint64_t)tlsh_topval[i] + 1;
		CHECK_INT(td_tlsh_final(&d, &ctx), TD_TLSH_OK);
		CHECK_INT(d.lvalue, i + 1 < TLSH_NTOPVAL ? i + 1 : TLSH_NTOPVAL - 1);
	}
	ctx.len_bytes = (uint64_t)5 << 30;
	CHECK_INT(td_tlsh_final(&d, &ctx), TD_TLSH_OK);
	CHECK_INT(d.lvalue, 169);
	ctx.len_bytes = UINT64_MAX;
	CHECK_INT(td_tlsh_final(&d, &ctx), TD_TLSH_OK);
	CHECK_INT(d.lvalue, 169);
	ctx.len_bytes = 49;
	CHECK_INT(td_tlsh_final(&d, &ctx), TD_TLSH_TOO_SHORT);
}

/* Counts saturate instead of wrapping, on both update paths. */
static void check_saturation(const item_t *it)
{
	td_tlsh_ctx_t ctx;

	for (size_t chunk = 100; chunk <= 100000; chunk *= 1000) {
		td_tlsh_init(&ctx);
		td_tlsh_update(&ctx, it->data, 4);
		for (int i = 0; i < TLSH_BUCKETS; i++)
			ctx.bucket[i] = UINT32_MAX - 3;
		for (size_t off = 4; off < it->len; off += chunk)
			td_tlsh_update(&ctx, it->data + off, it->len - off < chunk ? it->len - off : chunk);
		for (int i = 0; i < TLSH_EFF_BUCKETS; i++)
			CHECK(ctx.bucket[i] >= UINT32_MAX - 3);
	}
}

/* The body score of every pair of bytes, from the definition. */
static void check_body_scores(void)
{
	td_tlsh_t a, b;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	for (int x = 0; x < 256; x++) {
		for (int y = 0; y < 256; y++) {
			int want = 0, pos = (x + y) % TD_TLSH_BODY_BYTES;

			for (int k = 0; k < 8; k += 2) {
				int dx = (x >> k) & 3, dy = (y >> k) & 3;
				int diff = dx > dy ? dx - dy : dy - dx;
				want += diff == 3 ? 6 : diff;
			}
			a.body[pos] = (uint8_t)x;
			b.body[pos] = (uint8_t)y;
			CHECK_INT(td_tlsh_distance(&a, &b, 1), want);
			a.body[pos] = b.body[pos] = 0;
		}
	}
	/* All codes at the extremes: 128 codes differing by 3. */
	memset(a.body, 0x00, sizeof(a.body));
	memset(b.body, 0xff, sizeof(b.body));
	CHECK_INT(td_tlsh_distance(&a, &b, 0), 128 * 6);
	CHECK_INT(td_tlsh_distance_bounded(&a, &b, 0, 10000), 128 * 6);
}

/* td_tlsh_body_distances with impl's build: each of n bodies (some equal
 * to the query, some at the extremes, the rest random) against the query,
 * from several offsets and counts (whole vectors and tails), equals
 * td_tlsh_distance of digests whose headers are the same. */
static void check_body_distances(td_tlsh_impl_t impl)
{
	enum { N = 300 };
	td_tlsh_bodies_t b;
	td_tlsh_t q, h[N];
	uint16_t out[N];
	uint8_t *bytes = rand_bytes((N + 1) * TD_TLSH_BODY_BYTES, 31);

	CHECK_INT(td_tlsh_bodies_init(&b, N), 0);
	memset(&q, 0, sizeof(q));
	q.lvalue = 7;
	memcpy(q.body, bytes + N * TD_TLSH_BODY_BYTES, TD_TLSH_BODY_BYTES);
	for (size_t i = 0; i < N; i++) {
		h[i] = q;
		if (i % 11 == 3)
			memset(h[i].body, i % 2 ? 0xff : 0x00, TD_TLSH_BODY_BYTES);
		else if (i % 13 != 5)
			memcpy(h[i].body, bytes + i * TD_TLSH_BODY_BYTES, TD_TLSH_BODY_BYTES);
		td_tlsh_bodies_set(&b, i, &h[i]);
	}
	for (size_t from = 0; from < 20; from += 3) {
		for (size_t n = 0; from + n <= N; n += n < 20 ? 1 : 37) {
			memset(out, 0xee, sizeof(out));
			td_tlsh_body_distances_impl(&q, &b, from, n, out, impl);
			for (size_t i = 0; i < n; i++)
				CHECK_INT(out[i], td_tlsh_distance(&q, &h[from + i], 1));
			if (n < N)
				CHECK_INT(out[n], 0xeeee);
		}
	}
	td_tlsh_bodies_release(&b);
	free(bytes);
}

/* The header terms, with their circular differences. */
static void check_header_terms(void)
{
	td_tlsh_t a, b;

	memset(&a, 0, sizeof(a));
	b = a;
	b.lvalue = 1;
	CHECK_INT(td_tlsh_distance(&a, &b, 1), 1);
	CHECK_INT(td_tlsh_distance(&a, &b, 0), 0);
	b.lvalue = 2;
	CHECK_INT(td_tlsh_distance(&a, &b, 1), 24);
	b.lvalue = 255;   /* circular: 1 away */
	CHECK_INT(td_tlsh_distance(&a, &b, 1), 1);
	b.lvalue = 128;
	CHECK_INT(td_tlsh_distance(&a, &b, 1), 128 * 12);
	b = a;
	b.q1_ratio = 1;
	CHECK_INT(td_tlsh_distance(&a, &b, 1), 1);
	b.q1_ratio = 3;
	CHECK_INT(td_tlsh_distance(&a, &b, 1), 24);
	b.q1_ratio = 15;
	CHECK_INT(td_tlsh_distance(&a, &b, 1), 1);
	b.q2_ratio = 8;
	CHECK_INT(td_tlsh_distance(&a, &b, 1), 1 + 7 * 12);
	b = a;
	b.checksum = 7;
	CHECK_INT(td_tlsh_distance(&a, &b, 1), 1);
	CHECK_INT(td_tlsh_distance(&a, &a, 1), 0);
}

static void check_status_names(void)
{
	CHECK_STR(td_tlsh_status_name(TD_TLSH_OK), "ok");
	CHECK_STR(td_tlsh_status_name(TD_TLSH_TOO_SHORT), "too_short");
	CHECK_STR(td_tlsh_status_name(TD_TLSH_TOO_UNIFORM), "too_uniform");
}

/* Under TD_TLSH_LOOP (ctest runs this test once per loop), the default
 * loop, which every td_tlsh_hash above used, must be the one named; a loop
 * this CPU cannot run skips the test (77). */
static int check_forced_loop(void)
{
	const char *want = getenv("TD_TLSH_LOOP");
	td_error_t err;

	if (!want || !*want)
		return 0;
	if (td_tlsh_loop_check(&err)) {
		printf("skipped: %s\n", err.msg);
		return 77;
	}
	printf("TD_TLSH_LOOP=%s: the default loop is %s\n", want, td_tlsh_loop());
	if (strcmp(want, "auto"))
		CHECK_STR(td_tlsh_loop(), want);
	CHECK_STR(td_tlsh_impl_name(td_tlsh_impl_default()), td_tlsh_loop());
	return 0;
}

int main(void)
{
	static item_set_t examples, edge;
	const item_t *alice;

	if (check_forced_loop())
		return 77;

	load_examples(&examples);
	check_hash_file(&examples, DATA "expected/len.out", 80);
	check_hash_file(&examples, DATA "expected/xlen.out", 80);
	check_score_file(&examples, DATA "expected/len.scores", 1, 80);
	check_score_file(&examples, DATA "expected/xlen.scores", 0, 80);
	check_score_file(&examples, DATA "expected/len.xref.scores", 1, 3160);
	check_score_file(&examples, DATA "expected/xlen.xref.scores", 0, 3160);

	load_edge(&edge);
	CHECK_INT(edge.n, 41);
	check_hash_file(&edge, DATA "edge/hashes.tsv", 35);
	check_rejects(&edge, DATA "edge/rejects.tsv", 6);
	check_score_file(&edge, DATA "edge/xref.tsv", 1, 595);
	check_score_file(&edge, DATA "edge/xref_xlen.tsv", 0, 595);

	check_streaming(&examples);
	check_streaming(&edge);
	for (size_t k = 0; k < N_IMPLS; k++) {
		td_tlsh_impl_t impl = all_impls[k];

		if (!td_tlsh_impl_supported(impl)) {
			printf("%s: not supported by this build or CPU, not tested\n", td_tlsh_impl_name(impl));
			continue;
		}
		printf("%s: tested\n", td_tlsh_impl_name(impl));
		check_hash_file_impl(&examples, DATA "expected/len.out", impl, 80);
		check_hash_file_impl(&edge, DATA "edge/hashes.tsv", impl, 35);
		check_impls(&examples, impl);
		check_impls(&edge, impl);
		check_pairs(&examples, impl);
		check_body_distances(impl);
	}
	check_pairs(&edge, TD_TLSH_IMPL_AUTO);

	alice = find_item(&examples, "example_data/0Alice.txt");
	CHECK(alice != NULL);
	if (alice) {
		/* From parts/out.parts.0Alice.txt.EXP of the reference. */
		CHECK_INT(alice->digest.checksum, 84);
		CHECK_INT(alice->digest.lvalue, 29);
		CHECK_INT(alice->digest.q1_ratio, 8);
		CHECK_INT(alice->digest.q2_ratio, 4);
		check_final_midstream(alice);
		check_length_value(alice);
		check_saturation(alice);
	}
	for (int i = 0; i < examples.n; i++)
		check_parse(&examples.items[i]);
	check_body_scores();
	check_header_terms();
	check_status_names();

	free_items(&examples);
	free_items(&edge);
	return check_finish();
}
