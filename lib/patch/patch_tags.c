/* What a commit message says it fixes: Fixes: lines, a Cc: to the stable
 * list, CVE ids, and the commit it reverts. Pure: no I/O. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "treedrift/patch.h"

/* Fixes: ids are taken from 7 to 64 hex digits, as the cherry-pick lines. */
#define HEX_MIN 7
#define HEX_MAX 64
/* At most this many ids of each kind are kept (a message can be anything). */
#define TAGS_MAX 64

void td_commit_tags_release(td_commit_tags_t *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nfixes; i++)
		free(t->fixes[i]);
	free(t->fixes);
	for (size_t i = 0; i < t->ncves; i++)
		free(t->cves[i]);
	free(t->cves);
	free(t->reverts);
	memset(t, 0, sizeof(*t));
}

/* 1 when s[0..len) starts with word, case-insensitively. */
static int starts_ci(const char *s, size_t len, const char *word)
{
	size_t n = strlen(word);

	if (len < n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (tolower((unsigned char)s[i]) != tolower((unsigned char)word[i]))
			return 0;
	return 1;
}

static const char *find_ci(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);

	for (size_t i = 0; n <= len && i <= len - n; i++)
		if (starts_ci(s + i, len - i, needle))
			return s + i;
	return NULL;
}

/* Add a copy of s[0..n) to list, lower- or upper-cased, unless it is there. */
static int list_add(char ***list, size_t *count, const char *s, size_t n, int upper)
{
	char *copy, **grown;

	if (*count >= TAGS_MAX)
		return TD_OK;
	if (!(copy = td_strndup(s, n)))
		return TD_ENOMEM;
	for (size_t i = 0; i < n; i++)
		copy[i] = (char)(upper ? toupper((unsigned char)copy[i]) : tolower((unsigned char)copy[i]));
	for (size_t i = 0; i < *count; i++) {
		if (!strcmp((*list)[i], copy)) {
			free(copy);
			return TD_OK;
		}
	}
	if (!(grown = td_realloc_array(*list, *count + 1, sizeof(**list)))) {
		free(copy);
		return TD_ENOMEM;
	}
	*list = grown;
	(*list)[(*count)++] = copy;
	return TD_OK;
}

/* The length of the hex id at l[k..n) after the blanks from k (*at its
 * start), or 0 when there is none that ends there ("1234abcd (...)",
 * "1234abcd."). */
static size_t hex_id(const char *l, size_t n, size_t k, size_t *at)
{
	size_t h;

	while (k < n && (l[k] == ' ' || l[k] == '\t'))
		k++;
	for (h = 0; k + h < n && isxdigit((unsigned char)l[k + h]); h++)
		;
	*at = k;
	return h >= HEX_MIN && h <= HEX_MAX && (k + h == n || !isalnum((unsigned char)l[k + h])) ? h : 0;
}

/* One line l[0..n), its leading blanks skipped. */
static int read_line(td_commit_tags_t *t, const char *l, size_t n)
{
	static const char reverts[] = "This reverts commit ";
	size_t i = 0, at, h;

	while (i < n && (l[i] == ' ' || l[i] == '\t'))
		i++;
	l += i;
	n -= i;
	if (starts_ci(l, n, "Fixes:"))
		return (h = hex_id(l, n, 6, &at)) ? list_add(&t->fixes, &t->nfixes, l + at, h, 0) : TD_OK;
	if (!t->reverts && starts_ci(l, n, reverts) && (h = hex_id(l, n, sizeof(reverts) - 1, &at))) {
		if (!(t->reverts = td_strndup(l + at, h)))
			return TD_ENOMEM;
		for (size_t k = 0; k < h; k++)
			t->reverts[k] = (char)tolower((unsigned char)t->reverts[k]);
		return TD_OK;
	}
	if (starts_ci(l, n, "Cc:") &&
	    (find_ci(l, n, "stable@vger.kernel.org") || find_ci(l, n, "stable@kernel.org")))
		t->cc_stable = 1;
	return TD_OK;
}

/* CVE-YYYY-NNNN (four or more digits) anywhere, not inside a word. */
static int read_cves(td_commit_tags_t *t, const char *s, size_t len)
{
	for (size_t i = 0; i + 13 <= len; i++) {
		size_t k = i + 4, d;
		if (!starts_ci(s + i, len - i, "CVE-") || (i && isalnum((unsigned char)s[i - 1])))
			continue;
		for (d = 0; k + d < len && isdigit((unsigned char)s[k + d]); d++)
			;
		if (d != 4 || k + d >= len || s[k + d] != '-')
			continue;
		k += 5;
		for (d = 0; k + d < len && isdigit((unsigned char)s[k + d]); d++)
			;
		if (d < 4 || d > 19 || (k + d < len && isalnum((unsigned char)s[k + d])))
			continue;
		if (list_add(&t->cves, &t->ncves, s + i, k + d - i, 1))
			return TD_ENOMEM;
		i = k + d - 1;
	}
	return TD_OK;
}

int td_commit_tags_parse(td_commit_tags_t *out, const char *text, size_t len)
{
	size_t pos = 0;
	int rc = TD_OK;

	memset(out, 0, sizeof(*out));
	if (!text)
		return TD_OK;
	while (!rc && pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		rc = read_line(out, text + pos, end - pos);
		pos = end + 1;
	}
	if (!rc)
		rc = read_cves(out, text, len);
	if (rc)
		td_commit_tags_release(out);
	return rc;
}
