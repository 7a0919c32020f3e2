/* A patch's declared origin, read from its own text: cherry-pick lines,
 * stable-kernel "commit X upstream.", DEP-3 Origin:/Forwarded:, Yocto
 * Upstream-Status:, and the subject prefixes of Android and Zephyr trees.
 * Pure: no I/O. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "treedrift/patch.h"

/* Commit ids are taken from 7 to 64 hex digits. */
#define HEX_MIN 7
#define HEX_MAX 64
/* Evidence longer than this is cut (a line can be anything). */
#define EVIDENCE_MAX 400

const char *td_rebase_status_name(td_rebase_status_t s)
{
	switch (s) {
	case TD_REBASE_APPLIES: return "applies";
	case TD_REBASE_PRESENT: return "present";
	case TD_REBASE_CONFLICT: return "conflict";
	default: return NULL;
	}
}

const char *td_rebase_why_name(td_rebase_why_t w)
{
	switch (w) {
	case TD_REBASE_ADDED_BOTH: return "added_both";
	case TD_REBASE_CHANGED_THERE: return "changed_there";
	case TD_REBASE_REMOVED_THERE: return "removed_there";
	case TD_REBASE_NOT_ADDED: return "not_added";
	default: return "lines";
	}
}

const char *td_patch_status_name(td_patch_status_t s)
{
	static const char *const names[] = { "unknown", "upstream", "submitted", "local" };
	return (unsigned)s < 4 ? names[s] : "unknown";
}

void td_patch_origin_release(td_patch_origin_t *o)
{
	if (!o)
		return;
	free(o->commit);
	free(o->evidence);
	memset(o, 0, sizeof(*o));
}

/* Strength of a claim: the strongest wins. */
static int strength(td_patch_status_t s)
{
	switch (s) {
	case TD_PATCH_UPSTREAM: return 3;
	case TD_PATCH_SUBMITTED: return 2;
	case TD_PATCH_LOCAL: return 1;
	default: return 0;
	}
}

typedef struct finding {
	td_patch_status_t status;
	const char *ev;      /* evidence text, not NUL-terminated */
	size_t ev_len;
	const char *hex;     /* commit id, or NULL */
	size_t hex_len;
} finding_t;

/* Case-insensitive search of needle in s[0..len). */
static const char *find_ci(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);

	for (size_t i = 0; n <= len && i <= len - n; i++) {
		size_t k = 0;
		while (k < n && tolower((unsigned char)s[i + k]) == tolower((unsigned char)needle[k]))
			k++;
		if (k == n)
			return s + i;
	}
	return NULL;
}

static int starts_ci(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	if (len < n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (tolower((unsigned char)s[i]) != tolower((unsigned char)prefix[i]))
			return 0;
	return 1;
}

static size_t hex_run(const char *s, const char *end)
{
	size_t n = 0;

	while (s + n < end && isxdigit((unsigned char)s[n]))
		n++;
	return n;
}

/* A commit id at s (HEX_MIN..HEX_MAX hex digits, not followed by more word
 * characters); its length, or 0. */
static size_t commit_at(const char *s, const char *end)
{
	size_t n = hex_run(s, end);

	if (n < HEX_MIN || n > HEX_MAX)
		return 0;
	if (s + n < end && (isalnum((unsigned char)s[n]) || s[n] == '_'))
		return 0;
	return n;
}

/* The first commit id in s[0..len) that follows one of the URL markers of
 * git web front ends (cgit's id=, gitweb's h=, /commit/, /linus/ ...). */
static const char *url_commit(const char *s, size_t len, size_t *hex_len)
{
	static const char *const markers[] = { "id=", "h=", "/commit/", "/commits/", "/linus/", "/c/" };
	const char *end = s + len;

	for (size_t m = 0; m < sizeof(markers) / sizeof(markers[0]); m++) {
		const char *p = s;
		const char *hit;
		while ((hit = find_ci(p, (size_t)(end - p), markers[m]))) {
			size_t n;
			hit += strlen(markers[m]);
			if ((n = commit_at(hit, end))) {
				*hex_len = n;
				return hit;
			}
			p = hit;
		}
	}
	return NULL;
}

static void trim(const char **s, size_t *len)
{
	while (*len && isspace((unsigned char)**s))
		(*s)++, (*len)--;
	while (*len && isspace((unsigned char)(*s)[*len - 1]))
		(*len)--;
}

/* Mailing-list archives and review sites: a patch pointing there was sent,
 * not (necessarily) taken. */
static int is_list_url(const char *v, size_t len)
{
	static const char *const hosts[] = { "lore.kernel.org", "lkml", "patchwork", "marc.info",
					     "mail-archive", "spinics", "lists.", "mailman",
					     "msgid", "review", "/pull/", "merge_requests" };

	for (size_t i = 0; i < sizeof(hosts) / sizeof(hosts[0]); i++)
		if (find_ci(v, len, hosts[i]))
			return 1;
	return 0;
}

/* Other distributions' trees: a commit there is theirs, not upstream's. */
static int is_vendor_url(const char *v, size_t len)
{
	static const char *const hosts[] = { "ubuntu.com", "fedoraproject.org", "debian.org", "suse.com",
					     "opensuse.org", "redhat.com", "gentoo.org", "archlinux.org" };

	for (size_t i = 0; i < sizeof(hosts) / sizeof(hosts[0]); i++)
		if (find_ci(v, len, hosts[i]))
			return 1;
	return 0;
}

/* DEP-3 Origin: upstream | backport | vendor | other, and/or a URL. */
static td_patch_status_t dep3_origin(const char *v, size_t len, const char **hex, size_t *hex_len)
{
	*hex = url_commit(v, len, hex_len);
	if (starts_ci(v, len, "upstream") || starts_ci(v, len, "backport"))
		return TD_PATCH_UPSTREAM;
	if (starts_ci(v, len, "vendor") || is_vendor_url(v, len)) {
		*hex = NULL;
		return TD_PATCH_LOCAL;
	}
	if (*hex && !is_list_url(v, len))
		return TD_PATCH_UPSTREAM;
	if (find_ci(v, len, "git.kernel.org") && !is_list_url(v, len))
		return TD_PATCH_UPSTREAM;
	if (is_list_url(v, len))
		return TD_PATCH_SUBMITTED;
	return TD_PATCH_UNKNOWN;
}

/* DEP-3 Forwarded: no | not-needed | yes | URL. */
static td_patch_status_t dep3_forwarded(const char *v, size_t len)
{
	if (starts_ci(v, len, "not-needed") || starts_ci(v, len, "not needed") || starts_ci(v, len, "no"))
		return TD_PATCH_LOCAL;
	if (len)
		return TD_PATCH_SUBMITTED;
	return TD_PATCH_UNKNOWN;
}

/* Yocto Upstream-Status: Backport | Accepted | Submitted | Pending |
 * Inappropriate | Denied | Inactive-Upstream. */
static td_patch_status_t yocto_status(const char *v, size_t len)
{
	if (starts_ci(v, len, "backport") || starts_ci(v, len, "accepted"))
		return TD_PATCH_UPSTREAM;
	if (starts_ci(v, len, "submitted"))
		return TD_PATCH_SUBMITTED;
	if (starts_ci(v, len, "pending") || starts_ci(v, len, "inappropriate") || starts_ci(v, len, "denied") ||
	    starts_ci(v, len, "inactive"))
		return TD_PATCH_LOCAL;
	return TD_PATCH_UNKNOWN;
}

static void offer(finding_t *best, td_patch_status_t s, const char *ev, size_t ev_len, const char *hex,
		  size_t hex_len)
{
	if (strength(s) <= strength(best->status))
		return;
	best->status = s;
	best->ev = ev;
	best->ev_len = ev_len;
	best->hex = hex;
	best->hex_len = hex_len;
}

/* Header "Name: value" at the start of line; the value trimmed. */
static int header_value(const char *line, size_t len, const char *name, const char **v, size_t *vlen)
{
	size_t n = strlen(name);

	if (!starts_ci(line, len, name) || len <= n || line[n] != ':')
		return 0;
	*v = line + n + 1;
	*vlen = len - n - 1;
	trim(v, vlen);
	return 1;
}

static void scan_line(finding_t *best, const char *line, size_t len)
{
	const char *end = line + len, *hit, *v, *hex = NULL;
	size_t n, vlen, hex_len = 0;

	trim(&line, &len);
	end = line + len;
	if (!len)
		return;
	if ((hit = find_ci(line, len, "cherry picked from commit "))) {
		hit += strlen("cherry picked from commit ");
		if ((n = commit_at(hit, end)))
			offer(best, TD_PATCH_UPSTREAM, line, len, hit, n);
		return;
	}
	/* Stable kernels: "commit X upstream." on a line of its own. */
	if (starts_ci(line, len, "commit ") && (n = commit_at(line + 7, end)) &&
	    starts_ci(line + 7 + n, (size_t)(end - line - 7 - n), " upstream")) {
		offer(best, TD_PATCH_UPSTREAM, line, len, line + 7, n);
		return;
	}
	/* "[ Upstream commit X ]" */
	if (line[0] == '[' && (hit = find_ci(line, len, "upstream commit "))) {
		hit += strlen("upstream commit ");
		if ((n = commit_at(hit, end)))
			offer(best, TD_PATCH_UPSTREAM, line, len, hit, n);
		return;
	}
	if (header_value(line, len, "Origin", &v, &vlen)) {
		td_patch_status_t s = dep3_origin(v, vlen, &hex, &hex_len);
		offer(best, s, line, len, s == TD_PATCH_UPSTREAM ? hex : NULL, hex_len);
		return;
	}
	if (header_value(line, len, "Forwarded", &v, &vlen)) {
		offer(best, dep3_forwarded(v, vlen), line, len, NULL, 0);
		return;
	}
	if (header_value(line, len, "Upstream-Status", &v, &vlen)) {
		offer(best, yocto_status(v, vlen), line, len, NULL, 0);
		return;
	}
	if (header_value(line, len, "Applied-Upstream", &v, &vlen) && vlen) {
		hex = url_commit(v, vlen, &hex_len);
		if (!hex && (n = commit_at(v, v + vlen)))
			hex = v, hex_len = n;
		offer(best, TD_PATCH_UPSTREAM, line, len, hex, hex_len);
	}
}

/* Subject prefixes: Android's UPSTREAM:, BACKPORT:, FROMGIT:, FROMLIST:,
 * ANDROID:, CHROMIUM:, and Zephyr's [nrf fromtree], [nrf fromlist],
 * [nrf noup]. Prefixes stack ("BACKPORT: FROMLIST: x"): the innermost one
 * says where the change itself is. [PATCH ...] tags are skipped. */
static void scan_subject(finding_t *best, const char *s, size_t len)
{
	static const struct {
		const char *prefix;
		td_patch_status_t status;
	} prefixes[] = {
		{ "UPSTREAM:", TD_PATCH_UPSTREAM },   { "BACKPORT:", TD_PATCH_UPSTREAM },
		{ "FROMGIT:", TD_PATCH_SUBMITTED },   { "FROMLIST:", TD_PATCH_SUBMITTED },
		{ "ANDROID:", TD_PATCH_LOCAL },       { "CHROMIUM:", TD_PATCH_LOCAL },
		{ "[nrf fromtree]", TD_PATCH_UPSTREAM }, { "[nrf fromlist]", TD_PATCH_SUBMITTED },
		{ "[nrf noup]", TD_PATCH_LOCAL },
	};
	const char *line = s;
	size_t line_len = len;
	td_patch_status_t found = TD_PATCH_UNKNOWN;
	int more = 1;

	trim(&line, &line_len);
	while (more && len) {
		more = 0;
		trim(&s, &len);
		if (len && s[0] == '[' && find_ci(s, len, "]") && starts_ci(s + 1, len - 1, "PATCH")) {
			const char *close = find_ci(s, len, "]");
			len -= (size_t)(close + 1 - s);
			s = close + 1;
			more = 1;
			continue;
		}
		for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
			size_t pl = strlen(prefixes[i].prefix);
			/* Case matters: "Upstream: ..." is an ordinary subject. */
			if (len >= pl && !memcmp(s, prefixes[i].prefix, pl)) {
				found = prefixes[i].status;
				s += pl;
				len -= pl;
				more = 1;
				break;
			}
		}
	}
	if (found != TD_PATCH_UNKNOWN)
		offer(best, found, line, line_len, NULL, 0);
}

static int set_text(char **out, const char *s, size_t len, size_t max)
{
	if (len > max)
		len = max;
	*out = td_strndup(s, len);
	return *out ? TD_OK : TD_ENOMEM;
}

int td_patch_origin_parse(td_patch_origin_t *out, const char *subject, const char *text, size_t len)
{
	finding_t best = { TD_PATCH_UNKNOWN, NULL, 0, NULL, 0 };
	const char *p = text, *end = text + len;

	memset(out, 0, sizeof(*out));
	while (text && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		/* The diff starts: no headers past it. */
		if ((size_t)(end - p) >= 11 && !memcmp(p, "diff --git ", 11))
			break;
		scan_line(&best, p, (size_t)(eol - p));
		p = nl ? nl + 1 : end;
	}
	if (subject)
		scan_subject(&best, subject, strlen(subject));
	out->status = best.status;
	if (best.status == TD_PATCH_UNKNOWN)
		return TD_OK;
	if (set_text(&out->evidence, best.ev, best.ev_len, EVIDENCE_MAX) ||
	    (best.hex && set_text(&out->commit, best.hex, best.hex_len, HEX_MAX))) {
		td_patch_origin_release(out);
		return TD_ENOMEM;
	}
	for (char *c = out->commit; c && *c; c++)
		*c = (char)tolower((unsigned char)*c);
	return TD_OK;
}
