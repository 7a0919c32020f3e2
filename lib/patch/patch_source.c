/* Patch sources: a git commit range, a quilt series, a directory of patch
 * files, an mbox. Each is read into a td_patch_list_t, in order. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "patch_impl.h"
#include "textfile.h"

void td_patch_release(td_patch_t *p)
{
	if (!p)
		return;
	free(p->id);
	free(p->subject);
	free(p->author);
	free(p->date);
	free(p->message);
	free(p->patch_id);
	free(p->rebase_file);
	for (size_t i = 0; i < p->nfiles; i++) {
		free(p->files[i].path);
		free(p->files[i].added_hashes);
		free(p->files[i].removed_hashes);
		free(p->files[i].copied_from);
	}
	free(p->files);
	for (size_t i = 0; i < p->nclasses; i++)
		free(p->classes[i]);
	free(p->classes);
	for (size_t i = 0; i < p->ntop_dirs; i++)
		free(p->top_dirs[i]);
	free(p->top_dirs);
	td_patch_origin_release(&p->origin);
	memset(p, 0, sizeof(*p));
}

void td_patch_list_release(td_patch_list_t *list)
{
	for (size_t i = 0; i < list->count; i++) {
		if (list->patches)
			td_patch_release(&list->patches[i]);
		if (list->diffs)
			free(list->diffs[i]);
	}
	free(list->patches);
	free(list->diffs);
	free(list->diff_lens);
	free(list->commits);
	git_repository_free(list->repo);
	memset(list, 0, sizeof(*list));
}

/* Room for one more patch; returns its index in *at. */
static int list_add(td_patch_list_t *l, size_t *at, td_error_t *err)
{
	size_t cap = l->cap;
	void *p;

	if (l->count >= TD_PATCH_MAX_COUNT)
		return td_error_set(err, TD_ENOMEM, "more than %u patches", (unsigned)TD_PATCH_MAX_COUNT);
	if (l->count == l->cap) {
		cap = l->cap ? l->cap * 2 : 16;
		if (!(p = td_realloc_array(l->patches, cap, sizeof(*l->patches))))
			goto nomem;
		l->patches = p;
		if (!(p = td_realloc_array(l->diffs, cap, sizeof(*l->diffs))))
			goto nomem;
		l->diffs = p;
		if (!(p = td_realloc_array(l->diff_lens, cap, sizeof(*l->diff_lens))))
			goto nomem;
		l->diff_lens = p;
		if (!(p = td_realloc_array(l->commits, cap, sizeof(*l->commits))))
			goto nomem;
		l->commits = p;
		l->cap = cap;
	}
	*at = l->count++;
	memset(&l->patches[*at], 0, sizeof(l->patches[*at]));
	l->diffs[*at] = NULL;
	l->diff_lens[*at] = 0;
	memset(&l->commits[*at], 0, sizeof(l->commits[*at]));
	return TD_OK;
nomem:
	return td_error_set(err, TD_ENOMEM, "out of memory");
}

/* One patch from a file's text. */
static int add_text(td_patch_list_t *l, const char *id, const char *text, size_t len, unsigned strip,
		    td_error_t *err)
{
	size_t at = 0;
	int rc;

	if ((rc = list_add(l, &at, err)))
		return rc;
	if (!(l->patches[at].id = td_strndup(id, strlen(id))))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	return td_patch_parse_text(&l->patches[at], &l->diffs[at], &l->diff_lens[at], text, len, strip, id, err);
}

static int add_file(td_patch_list_t *l, const char *id, const char *path, unsigned strip, td_error_t *err)
{
	char *text;
	size_t len;
	int rc;

	if ((rc = td_read_file(&text, &len, path, TD_PATCH_MAX_BYTES, err)))
		return rc;
	rc = add_text(l, id, text, len, strip, err);
	free(text);
	return rc;
}

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}

/* dir + "/" + name, or NULL. */
static char *join(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *p = malloc(a + b + 2);

	if (!p)
		return NULL;
	memcpy(p, dir, a);
	p[a] = '/';
	memcpy(p + a + 1, name, b + 1);
	return p;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return td_strndup(".", 1);
	return td_strndup(path, slash == path ? 1 : (size_t)(slash - path));
}

/* A quilt series: one patch a line, '#' starts a comment, options after the
 * name; -pN (N 0 or 1) sets the strip level. Names are relative to the
 * series file's directory. */
static int read_series(td_patch_list_t *l, const char *series, td_error_t *err)
{
	char *text = NULL, *dir = NULL, *path = NULL;
	size_t len;
	unsigned lineno = 0;
	int rc;

	if ((rc = td_read_file(&text, &len, series, TD_PATCH_MAX_BYTES, err)))
		return rc;
	if (!(dir = dir_of(series))) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory");
		goto out;
	}
	for (char *p = text, *next; p < text + len; p = next) {
		char *nl = memchr(p, '\n', (size_t)(text + len - p)), *tok, *save = NULL, *name;
		unsigned strip = 1;
		next = nl ? nl + 1 : text + len;
		if (nl)
			*nl = '\0';
		lineno++;
		for (char *c = p; *c; c++)
			if (*c == '#' && (c == p || isspace((unsigned char)c[-1]))) {
				*c = '\0';
				break;
			}
		/* strtok is banned; split on blanks by hand. */
		(void)save;
		tok = p;
		while (*tok && isspace((unsigned char)*tok))
			tok++;
		if (!*tok)
			continue;
		name = tok;
		while (*tok && !isspace((unsigned char)*tok))
			tok++;
		if (*tok)
			*tok++ = '\0';
		while (*tok) {
			char *opt;
			while (*tok && isspace((unsigned char)*tok))
				tok++;
			if (!*tok)
				break;
			opt = tok;
			while (*tok && !isspace((unsigned char)*tok))
				tok++;
			if (*tok)
				*tok++ = '\0';
			if (!strcmp(opt, "-p0") || !strcmp(opt, "-p1")) {
				strip = (unsigned)(opt[2] - '0');
			} else if (!strcmp(opt, "-p")) {
				/* "-p 1" */
				while (*tok && isspace((unsigned char)*tok))
					tok++;
				if ((tok[0] == '0' || tok[0] == '1') && (!tok[1] || isspace((unsigned char)tok[1]))) {
					strip = (unsigned)(tok[0] - '0');
					tok++;
				} else {
					rc = td_error_at(err, TD_EUNSUPPORTED, series, lineno,
							 "option -p takes 0 or 1");
					goto out;
				}
			} else {
				rc = td_error_at(err, TD_EUNSUPPORTED, series, lineno, "unsupported option '%s' for '%s'",
						 opt, name);
				goto out;
			}
		}
		if (name[0] == '/' || strstr(name, "..")) {
			rc = td_error_at(err, TD_EINVAL, series, lineno, "patch name '%s' leaves the series' folder",
					 name);
			goto out;
		}
		free(path);
		if (!(path = join(dir, name))) {
			rc = td_error_set(err, TD_ENOMEM, "out of memory");
			goto out;
		}
		if ((rc = add_file(l, name, path, strip, err)))
			goto out;
	}
out:
	free(text);
	free(dir);
	free(path);
	return rc;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.patch and *.diff files of a directory, in byte order of their names. */
static int read_dir(td_patch_list_t *l, const char *dir, td_error_t *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL, *path = NULL;
	size_t n = 0, cap = 0;
	int rc = TD_OK;

	if (!d)
		return td_error_set(err, TD_EIO, "unable to open '%s'", dir);
	while ((de = readdir(d))) {
		void *p = names;
		if (de->d_name[0] == '.' || !(has_suffix(de->d_name, ".patch") || has_suffix(de->d_name, ".diff")))
			continue;
		if (td_grow(&p, &cap, n + 1, sizeof(*names))) {
			rc = td_error_set(err, TD_ENOMEM, "out of memory");
			goto out;
		}
		names = p;
		if (!(names[n] = td_strndup(de->d_name, strlen(de->d_name)))) {
			rc = td_error_set(err, TD_ENOMEM, "out of memory");
			goto out;
		}
		n++;
	}
	if (n)
		qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n; i++) {
		free(path);
		if (!(path = join(dir, names[i]))) {
			rc = td_error_set(err, TD_ENOMEM, "out of memory");
			goto out;
		}
		if ((rc = add_file(l, names[i], path, 1, err)))
			goto out;
	}
out:
	closedir(d);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(path);
	return rc;
}

/* An mbox separator: "From " at the start of a line, then a sender and a
 * weekday ("From 1a2b... Mon Sep 17 00:00:00 2001"). */
static int mbox_from(const char *s, size_t n)
{
	static const char *const days[] = { "Mon ", "Tue ", "Wed ", "Thu ", "Fri ", "Sat ", "Sun " };
	const char *sp;

	if (n < 10 || memcmp(s, "From ", 5))
		return 0;
	sp = memchr(s + 5, ' ', n - 5);
	if (!sp || (size_t)(s + n - sp) < 5)
		return 0;
	for (size_t i = 0; i < 7; i++)
		if (!memcmp(sp + 1, days[i], 4))
			return 1;
	return 0;
}

/* The messages of an mbox, each a patch; the id is the commit id of the
 * separator line when it has a real one, else "mbox:N". */
static int read_mbox_text(td_patch_list_t *l, const char *text, size_t len, td_error_t *err)
{
	size_t start = SIZE_MAX, msg = 0;
	int rc;

	for (size_t pos = 0; pos <= len;) {
		const char *nl = pos < len ? memchr(text + pos, '\n', len - pos) : NULL;
		size_t eol = nl ? (size_t)(nl - text) : len;
		int sep = pos < len && mbox_from(text + pos, eol - pos) && (pos == 0 || text[pos - 1] == '\n');
		if ((sep || pos >= len) && start != SIZE_MAX) {
			char id[64];
			const char *h = text + start + 5;
			size_t hn = 0;
			while (start + 5 + hn < len && isxdigit((unsigned char)h[hn]))
				hn++;
			msg++;
			if (hn == 40 && strspn(h, "0") < 40)
				snprintf(id, sizeof(id), "%.40s", h);
			else
				snprintf(id, sizeof(id), "mbox:%zu", msg);
			if ((rc = add_text(l, id, text + start, pos - start, 1, err)))
				return rc;
			start = SIZE_MAX;
		}
		if (sep)
			start = pos;
		if (pos >= len)
			break;
		pos = eol + 1;
	}
	if (!msg)
		return td_error_set(err, TD_EINVAL, "no message in the mbox");
	return TD_OK;
}

static int read_mbox(td_patch_list_t *l, const char *path, td_error_t *err)
{
	char *text;
	size_t len;
	int rc;

	if ((rc = td_read_file(&text, &len, path, TD_PATCH_MAX_BYTES, err)))
		return rc;
	rc = read_mbox_text(l, text, len, err);
	if (rc && rc != TD_ENOMEM) {
		char msg[sizeof(err->msg)];
		snprintf(msg, sizeof(msg), "%s", err ? err->msg : "");
		td_error_set(err, rc, "'%s': %s", path, msg);
	}
	free(text);
	return rc;
}

static const char *git_msg(void)
{
	const git_error *e = git_error_last();
	return e && e->message ? e->message : "unknown libgit2 error";
}

static int set_str(char **out, const char *s)
{
	if (!s)
		return TD_OK;
	*out = td_strndup(s, strlen(s));
	return *out ? TD_OK : TD_ENOMEM;
}

/* "Name <mail>" and an ISO 8601 date with the author's offset. */
static int commit_person(td_patch_t *p, const git_signature *sig)
{
	char buf[64];
	size_t n;
	int off = sig->when.offset;
	time_t t = (time_t)sig->when.time + (time_t)off * 60;
	struct tm tm;

	n = strlen(sig->name) + strlen(sig->email) + 4;
	if (!(p->author = malloc(n)))
		return TD_ENOMEM;
	snprintf(p->author, n, "%s <%s>", sig->name, sig->email);
	if (!gmtime_r(&t, &tm))
		return TD_OK;
	snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d%c%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1,
		 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, off < 0 ? '-' : '+', abs(off) / 60, abs(off) % 60);
	return set_str(&p->date, buf);
}

static int add_commit(td_patch_list_t *l, git_commit *c, td_error_t *err)
{
	const char *msg = git_commit_message(c);
	char hex[GIT_OID_HEXSZ + 1];
	td_patch_t *p;
	size_t at;
	int rc;

	if ((rc = list_add(l, &at, err)))
		return rc;
	p = &l->patches[at];
	git_oid_cpy(&l->commits[at], git_commit_id(c));
	git_oid_tostr(hex, sizeof(hex), git_commit_id(c));
	if (set_str(&p->id, hex) || set_str(&p->subject, git_commit_summary(c)) ||
	    set_str(&p->message, git_commit_body(c)) || commit_person(p, git_commit_author(c)) ||
	    td_patch_origin_parse(&p->origin, p->subject, msg, msg ? strlen(msg) : 0))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	return TD_OK;
}

/* "git:REPO@BASE..TIP": the non-merge commits of the range, oldest first. */
static int read_git(td_patch_list_t *l, const char *where, td_error_t *err)
{
	char *repo_path = NULL, *range = NULL;
	git_revwalk *walk = NULL;
	git_object *base = NULL, *tip = NULL;
	git_oid id;
	size_t len = strlen(where);
	struct stat st;
	const char *dots;
	int rc = TD_OK, g;

	/* The last '@' whose left part exists and whose right part is a range. */
	for (size_t i = len; i-- > 0;) {
		if (where[i] != '@' || !i || !strstr(where + i + 1, ".."))
			continue;
		free(repo_path);
		if (!(repo_path = td_strndup(where, i)))
			return td_error_set(err, TD_ENOMEM, "out of memory");
		if (stat(repo_path, &st) == 0) {
			range = td_strndup(where + i + 1, len - i - 1);
			break;
		}
	}
	if (!range) {
		rc = td_error_set(err, TD_EINVAL, "'git:%s' is not git:REPO@BASE..TIP with an existing REPO", where);
		goto out;
	}
	dots = strstr(range, "..");
	if (dots == range || !dots[2] || dots[2] == '.') {
		rc = td_error_set(err, TD_EINVAL, "'%s' is not a range BASE..TIP", range);
		goto out;
	}
	range[dots - range] = '\0';
	if (git_repository_open_ext(&l->repo, repo_path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL)) {
		rc = td_error_set(err, TD_EGIT, "unable to open repository '%s': %s", repo_path, git_msg());
		goto out;
	}
	if (git_revparse_single(&base, l->repo, range) || git_revparse_single(&tip, l->repo, dots + 2)) {
		rc = td_error_set(err, TD_ENOTFOUND, "unable to resolve '%s' in '%s': %s", base ? dots + 2 : range,
				  repo_path, git_msg());
		goto out;
	}
	if (git_revwalk_new(&walk, l->repo) ||
	    git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE) ||
	    git_revwalk_push(walk, git_object_id(tip)) || git_revwalk_hide(walk, git_object_id(base))) {
		rc = td_error_set(err, TD_EGIT, "unable to walk '%s' in '%s': %s", where, repo_path, git_msg());
		goto out;
	}
	while (!(g = git_revwalk_next(&id, walk))) {
		git_commit *c;
		if (git_commit_lookup(&c, l->repo, &id)) {
			rc = td_error_set(err, TD_EGIT, "unable to read a commit of '%s': %s", where, git_msg());
			goto out;
		}
		rc = git_commit_parentcount(c) > 1 ? TD_OK : add_commit(l, c, err);
		git_commit_free(c);
		if (rc)
			goto out;
	}
	if (g != GIT_ITEROVER)
		rc = td_error_set(err, TD_EGIT, "unable to walk '%s': %s", where, git_msg());
out:
	git_revwalk_free(walk);
	git_object_free(base);
	git_object_free(tip);
	free(repo_path);
	free(range);
	return rc;
}

int td_patch_list_read(td_patch_list_t *l, const char *source, td_error_t *err)
{
	struct stat st;
	char *series = NULL;
	int rc;

	if (!source || !*source)
		return td_error_set(err, TD_EINVAL, "empty patch source");
	if (!strncmp(source, "git:", 4)) {
		l->kind = "git";
		return read_git(l, source + 4, err);
	}
	if (stat(source, &st))
		return td_error_set(err, TD_ENOTFOUND, "unable to open '%s': no such file or directory", source);
	if (S_ISDIR(st.st_mode)) {
		/* A quilt patches folder has its series; otherwise the patch files. */
		if (!(series = join(source, "series")))
			return td_error_set(err, TD_ENOMEM, "out of memory");
		if (!stat(series, &st) && S_ISREG(st.st_mode)) {
			l->kind = "series";
			rc = read_series(l, series, err);
		} else {
			l->kind = "dir";
			rc = read_dir(l, source, err);
		}
		free(series);
		return rc;
	}
	if (has_suffix(source, ".patch") || has_suffix(source, ".diff")) {
		const char *base = strrchr(source, '/');
		l->kind = "series";
		return add_file(l, base ? base + 1 : source, source, 1, err);
	}
	{
		FILE *f = fopen(source, "rb");
		char head[5] = { 0 };
		size_t n = f ? fread(head, 1, sizeof(head), f) : 0;
		if (f)
			fclose(f);
		if (n == 5 && !memcmp(head, "From ", 5)) {
			l->kind = "mbox";
			return read_mbox(l, source, err);
		}
	}
	l->kind = "series";
	return read_series(l, source, err);
}
