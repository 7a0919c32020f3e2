/* The upstream history loader on a generated repository: the range, merges
 * left out, touched paths, line hashes of the paths asked for, and patch
 * ids checked against `git patch-id --stable`. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "shell_fixture.h"
#include "treedrift/history.h"

static char dir[4096];

#define GIT "git -C %s -c user.name=T -c user.email=t@example.org -c commit.gpgsign=false "

static int make_repo(void)
{
	return sh(fmt("cd %s && git init -q -b main . && printf 'int a;\\n{\\n}\\nint b;\\n' > a.c && "
		      "printf 'keep\\n' > k.c && git add . && " GIT "commit -qm base && git tag base",
		      dir, dir)) ||
	       sh(fmt("cd %s && printf 'int a;\\n{\\n  int  x = 1;\\n\\n}\\nint b;\\n' > a.c && "
		      GIT "commit -qam 'a: add x' -m 'Fixes: 123456789abc (\"a\")'", dir, dir)) ||
	       sh(fmt("cd %s && git checkout -qb side base && printf 'new\\n' > n.c && git add n.c && "
		      GIT "commit -qm 'n: new' && git checkout -q main && " GIT "merge -q --no-ff -m merge side && "
		      "printf 'keep\\nmore\\n' > k.c && " GIT "commit -qam 'k: more' && git tag tip", dir, dir, dir, dir));
}

static void test_hash(void)
{
	int t;

	CHECK(td_line_hash("int  x = 1;", 11, &t) == td_line_hash("intx=1;\r", 8, NULL));
	CHECK_INT(t, 0);
	td_line_hash(" } ;", 4, &t);
	CHECK_INT(t, 1);
	td_line_hash("\t", 1, &t);
	CHECK_INT(t, 1);
	td_line_hash("{ x", 3, &t);
	CHECK_INT(t, 0);
	CHECK(td_line_hash("a", 1, NULL) != td_line_hash("b", 1, NULL));
}

static void test_load(void)
{
	const char *paths[] = { "a.c", "n.c" };
	td_history_opts_t o;
	td_history_t *h = NULL;
	td_error_t err = { 0 };
	const td_history_touch_t *t;
	size_t n;
	char pid[TD_HISTORY_ID_HEX];

	td_history_opts_init(&o);
	o.paths = paths;
	o.npaths = 2;
	o.jobs = 2;
	CHECK_INT(td_history_load(&h, fmt("git:%s@tip", dir), "base", &o, &err), 0);
	if (!h) {
		fprintf(stderr, "%s\n", err.msg);
		return;
	}
	CHECK_INT(h->count, 3);
	CHECK_INT(h->merges_skipped, 1);
	CHECK_INT(h->ntips, 1);
	td_history_find(&t, &n, h, "a.c");
	CHECK_INT(n, 1);
	if (n == 1) {
		const td_history_commit_t *c = &h->commits[t[0].commit];
		const td_history_file_t *f = &c->files[t[0].file];
		CHECK_STR(c->subject, "a: add x");
		CHECK(strstr(c->message, "Fixes: 123456789abc") != NULL);
		CHECK_STR(c->author, "T <t@example.org>");
		CHECK_INT(f->status, 'M');
		CHECK_INT(f->lines_added, 2);  /* "  int  x = 1;" and a blank line */
		CHECK_INT(f->nadded, 1);       /* the blank line decides nothing */
		CHECK_INT(f->nremoved, 0);
		CHECK_INT(f->nadded_trivial, 1); /* it is kept apart */
		CHECK_INT(f->nremoved_trivial, 0);
		if (f->nadded == 1)
			CHECK(f->added[0] == td_line_hash("int x=1;", 8, NULL));
		if (f->nadded_trivial == 1)
			CHECK(f->added_trivial[0] == td_line_hash("", 0, NULL));
		CHECK_INT(td_history_patch_id(pid, h, t[0].commit, &err), 0);
		{
			size_t len;
			char *want;
			sh(fmt("git -C %s show %s | git patch-id --stable | cut -c1-40 > %s/pid", dir, c->id, dir));
			want = slurp(fmt("%s/pid", dir), &len);
			if (want && len > 40)
				want[40] = '\0';
			CHECK_STR(pid, want);
			free(want);
		}
	}
	td_history_find(&t, &n, h, "k.c"); /* touched, not asked for */
	CHECK_INT(n, 0);
	td_history_find(&t, &n, h, "n.c");
	CHECK_INT(n, 1);
	CHECK_INT(td_history_commit_index(h, h->commits[2].id), 2);
	/* an abbreviation, as messages write ids: 7 digits or more, each
	 * commit found by its own; too short or too long, none */
	for (size_t i = 0; i < h->count; i++) {
		char id[TD_HISTORY_ID_HEX];
		memcpy(id, h->commits[i].id, sizeof(id));
		id[12] = '\0';
		CHECK_INT(td_history_commit_index(h, id), (long)i);
		id[7] = '\0';
		CHECK_INT(td_history_commit_index(h, id), (long)i);
		id[6] = '\0';
		CHECK_INT(td_history_commit_index(h, id), -1);
	}
	{
		char longer[TD_HISTORY_ID_HEX + 1];
		memcpy(longer, h->commits[0].id, TD_HISTORY_ID_HEX - 1);
		memcpy(longer + TD_HISTORY_ID_HEX - 1, "0", 2);
		CHECK_INT(td_history_commit_index(h, longer), -1);
	}
	CHECK_INT(td_history_commit_index(h, "0000000000000000000000000000000000000000"), -1);
	CHECK_STR(h->commits[2].subject, "k: more");
	CHECK_INT(h->commits[2].npaths, 1);
	CHECK_INT(h->commits[2].nfiles, 0);
	td_history_free(h);

	/* no tip: every ref that descends from the base (main, side, tip) */
	CHECK_INT(td_history_load(&h, fmt("git:%s", dir), "base", NULL, &err), 0);
	if (h) {
		CHECK_INT(h->count, 3);
		CHECK_INT(h->ntips, 2); /* main = tip, side */
		CHECK_INT(h->commits[0].nfiles + h->commits[1].nfiles + h->commits[2].nfiles, 3);
		td_history_free(h);
	}
	CHECK(td_history_load(&h, fmt("git:%s@nosuch", dir), "base", NULL, &err) == TD_EINVAL);
	CHECK(h == NULL);
	CHECK(td_history_load(&h, fmt("git:%s@base", dir), "tip", NULL, &err) == TD_EINVAL);
	CHECK(td_history_load(&h, "dir:/x", "base", NULL, &err) == TD_EINVAL);
}

int main(void)
{
	check_tmpdir(dir, sizeof(dir), "history");
	test_hash();
	if (make_repo())
		return 1;
	test_load();
	sh(fmt("rm -rf %s", dir));
	return check_finish();
}
