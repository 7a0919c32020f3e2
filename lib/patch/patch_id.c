/* Patch ids as git computes them for `git cherry` and `git patch-id
 * --stable`: per file, SHA-1 over the diff with all whitespace removed and
 * without line numbers, and the files' hashes summed as 160-bit numbers
 * (so the order of the files does not matter). Text files go through
 * libgit2's git_diff_patchid (the same sum); binary files are hashed here
 * as git's diff_get_patch_id does: the header, then the two blob ids in
 * hex, where libgit2 hashes its "Binary files differ" line instead.
 * Gitlinks are left out, as git leaves them out. */
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include "patch_impl.h"

void td_patchid_sum(unsigned char sum[TD_PATCHID_BYTES], const unsigned char part[TD_PATCHID_BYTES])
{
	unsigned carry = 0;

	for (size_t i = 0; i < TD_PATCHID_BYTES; i++) {
		carry += (unsigned)sum[i] + part[i];
		sum[i] = (unsigned char)carry;
		carry >>= 8;
	}
}

/* s[0..n) without its whitespace, as git's remove_space. */
static int update_nospace(EVP_MD_CTX *c, const char *s, size_t n)
{
	char buf[256];
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\v' || s[i] == '\f')
			continue;
		buf[k++] = s[i];
		if (k == sizeof(buf)) {
			if (EVP_DigestUpdate(c, buf, k) != 1)
				return -1;
			k = 0;
		}
	}
	return k && EVP_DigestUpdate(c, buf, k) != 1 ? -1 : 0;
}

static int update_str(EVP_MD_CTX *c, const char *s)
{
	return EVP_DigestUpdate(c, s, strlen(s)) == 1 ? 0 : -1;
}

static int update_mode(EVP_MD_CTX *c, uint32_t mode)
{
	char m[16];
	snprintf(m, sizeof(m), "%06o", (unsigned)mode);
	return update_str(c, m);
}

int td_patchid_binary_part(unsigned char out[TD_PATCHID_BYTES], const char *path, uint32_t old_mode,
			   const git_oid *old_id, uint32_t new_mode, const git_oid *new_id)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	char hex[GIT_OID_HEXSZ + 1];
	git_oid zero;
	unsigned len = 0;
	int rc = TD_ENOMEM;

	memset(&zero, 0, sizeof(zero));
	if (!c || EVP_DigestInit_ex(c, EVP_sha1(), NULL) != 1)
		goto out;
	if (update_str(c, "diff--gita/") || update_nospace(c, path, strlen(path)) || update_str(c, "b/") ||
	    update_nospace(c, path, strlen(path)))
		goto out;
	if (!old_mode) {
		if (update_str(c, "newfilemode") || update_mode(c, new_mode))
			goto out;
	} else if (!new_mode) {
		if (update_str(c, "deletedfilemode") || update_mode(c, old_mode))
			goto out;
	} else if (old_mode != new_mode) {
		if (update_str(c, "oldmode") || update_mode(c, old_mode) || update_str(c, "newmode") ||
		    update_mode(c, new_mode))
			goto out;
	}
	git_oid_tostr(hex, sizeof(hex), old_mode ? old_id : &zero);
	if (update_str(c, hex))
		goto out;
	git_oid_tostr(hex, sizeof(hex), new_mode ? new_id : &zero);
	if (update_str(c, hex) || EVP_DigestFinal_ex(c, out, &len) != 1 || len != TD_PATCHID_BYTES)
		goto out;
	rc = TD_OK;
out:
	EVP_MD_CTX_free(c);
	return rc;
}

int td_patchid_text_part(unsigned char out[TD_PATCHID_BYTES], git_repository *repo, const git_tree *a,
			 const git_tree *b, char **paths, size_t npaths)
{
	git_diff_options o;
	git_diff *diff = NULL;
	git_oid id;
	int rc = TD_EGIT;

	memset(out, 0, TD_PATCHID_BYTES);
	if (!npaths)
		return TD_OK;
	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	/* Only the files that changed, matched as exact paths: the trees'
	 * other entries are never walked. */
	o.pathspec.strings = paths;
	o.pathspec.count = npaths;
	o.flags |= GIT_DIFF_DISABLE_PATHSPEC_MATCH;
	o.context_lines = 3;
	if (git_diff_tree_to_tree(&diff, repo, (git_tree *)a, (git_tree *)b, &o) ||
	    git_diff_patchid(&id, diff, NULL))
		goto out;
	memcpy(out, id.id, TD_PATCHID_BYTES);
	rc = TD_OK;
out:
	git_diff_free(diff);
	return rc;
}

uint64_t td_patch_line_hash(const char *line, size_t len, int *trivial)
{
	/* FNV-1a, 64 bits, over the bytes that are not whitespace */
	uint64_t h = 0xcbf29ce484222325ull;
	char kept[3];
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)line[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f')
			continue;
		if (n < sizeof(kept))
			kept[n] = (char)c;
		n++;
		h ^= c;
		h *= 0x100000001b3ull;
	}
	if (trivial)
		*trivial = n == 0 ||
			   (n == 1 && (kept[0] == '{' || kept[0] == '}' || kept[0] == '(' || kept[0] == ')')) ||
			   (n == 2 && ((kept[0] == '}' && kept[1] == ';') || (kept[0] == ')' && kept[1] == ';')));
	return h ? h : 1;
}

static int push_hash(uint64_t **v, size_t *n, size_t *cap, uint64_t h)
{
	void *p = *v;

	if (td_grow(&p, cap, *n + 1, sizeof(**v)))
		return TD_ENOMEM;
	*v = p;
	(*v)[(*n)++] = h;
	return TD_OK;
}

int td_patch_file_hash_lines(td_patch_file_t *f, git_patch *gp)
{
	size_t cap_a = 0, cap_r = 0;

	for (size_t h = 0, nh = git_patch_num_hunks(gp); h < nh; h++) {
		int nl = git_patch_num_lines_in_hunk(gp, h);
		for (int k = 0; k < nl; k++) {
			const git_diff_line *l;
			uint64_t hash;
			int trivial;
			if (git_patch_get_line_in_hunk(&l, gp, h, (size_t)k))
				return TD_EGIT;
			if (l->origin != GIT_DIFF_LINE_ADDITION && l->origin != GIT_DIFF_LINE_DELETION)
				continue;
			hash = td_patch_line_hash(l->content, l->content_len, &trivial);
			if (trivial)
				continue;
			if (l->origin == GIT_DIFF_LINE_ADDITION ? push_hash(&f->added_hashes, &f->nadded_hashes, &cap_a, hash)
								: push_hash(&f->removed_hashes, &f->nremoved_hashes, &cap_r, hash))
				return TD_ENOMEM;
		}
	}
	return TD_OK;
}

int td_patchid_commit(unsigned char out[TD_PATCHID_BYTES], git_repository *repo, const git_oid *commit,
		      char **paths, size_t npaths)
{
	git_commit *c = NULL, *parent = NULL;
	git_tree *a = NULL, *b = NULL;
	git_diff *diff = NULL;
	git_diff_options o;
	char **text = NULL;
	size_t ntext = 0;
	int rc = TD_EGIT;

	memset(out, 0, TD_PATCHID_BYTES);
	if (git_commit_lookup(&c, repo, commit) || git_commit_tree(&b, c) ||
	    (git_commit_parentcount(c) && (git_commit_parent(&parent, c, 0) || git_commit_tree(&a, parent))))
		goto out;
	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	o.pathspec.strings = paths;
	o.pathspec.count = npaths;
	o.flags |= GIT_DIFF_DISABLE_PATHSPEC_MATCH;
	if (!npaths || git_diff_tree_to_tree(&diff, repo, a, b, &o))
		goto out;
	if (!(text = td_malloc_array(npaths, sizeof(*text)))) {
		rc = TD_ENOMEM;
		goto out;
	}
	for (size_t i = 0, n = git_diff_num_deltas(diff); i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		git_patch *p = NULL;
		unsigned char part[TD_PATCHID_BYTES];
		int binary;
		if (d->old_file.mode == GIT_FILEMODE_COMMIT || d->new_file.mode == GIT_FILEMODE_COMMIT)
			continue;
		if (git_patch_from_diff(&p, diff, i))
			goto out;
		binary = !p || (git_patch_get_delta(p)->flags & GIT_DIFF_FLAG_BINARY);
		git_patch_free(p);
		if (!binary) {
			if (ntext < npaths)
				text[ntext++] = (char *)(d->new_file.path ? d->new_file.path : d->old_file.path);
			continue;
		}
		if ((rc = td_patchid_binary_part(part, d->status == GIT_DELTA_DELETED ? d->old_file.path
										  : d->new_file.path,
						 d->status == GIT_DELTA_ADDED ? 0 : d->old_file.mode, &d->old_file.id,
						 d->status == GIT_DELTA_DELETED ? 0 : d->new_file.mode,
						 &d->new_file.id)))
			goto out;
		td_patchid_sum(out, part);
		rc = TD_EGIT;
	}
	{
		unsigned char part[TD_PATCHID_BYTES];
		if (ntext) {
			if ((rc = td_patchid_text_part(part, repo, a, b, text, ntext)))
				goto out;
			td_patchid_sum(out, part);
		}
	}
	rc = TD_OK;
out:
	free(text);
	git_diff_free(diff);
	git_tree_free(a);
	git_tree_free(b);
	git_commit_free(parent);
	git_commit_free(c);
	return rc;
}
