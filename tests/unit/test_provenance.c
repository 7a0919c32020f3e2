/* Line provenance on generated trees: each upstream line change is used
 * once, whitespace is ignored as git patch-id ignores it, trivial lines
 * follow their hunk's deciding line (alone, the same trivial change made
 * upstream decides, else they are local), upstream
 * removals count, and a target that is the base plus upstream changes has
 * local distance 0. Distances are scored as compare scores files: a change
 * all of one side is the file's own distance, a whitespace-only local part
 * is 0, small files are scored from their lines. Checked through
 * td_analyze, as the CLI runs it. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "shell_fixture.h"
#include "treedrift/analysis.h"
#include "treedrift/lines.h"

static char dir[4096];

#define GIT "git -c user.name=T -c user.email=t@example.org -c commit.gpgsign=false "

/* ins N TEXT FILE: TEXT (awk escapes: \t, \n) after line N of FILE. */
#define INS "ins() { awk -v n=$1 -v t=\"$2\" 'NR == n { print; print t; next } 1' $3 > $3.t && mv $3.t $3; }; "

static int make(void)
{
	/* f.c: 40 distinct lines; upstream adds "x++;" once, an indented line, a
	 * function with braces, and removes line 30; b.c: functions apart by
	 * blank lines, upstream removes the second blank line */
	return sh(fmt("cd %s && mkdir up && cd up && git init -q -b main . && " INS
		      "awk 'BEGIN { for (i = 1; i <= 40; i++) printf \"int f_%%d(void) { return %%d * 3; }\\n\", i, i }' > f.c && "
		      "cp f.c g.c && sed 's/f_/w_/' f.c > w.c && "
		      "awk 'BEGIN { for (i = 1; i <= 12; i++) printf \"static int s_%%d = %%d + 1;\\n\", i, i }' > s.c && "
		      "awk 'BEGIN { for (i = 1; i <= 30; i++) printf \"int b_%%d(void) { return %%d * 5; }\\n\\n\", i, i }' > b.c && "
		      "git add . && " GIT "commit -qm base && git tag base && "
		      "ins 5 'x++;' f.c && ins 5 'int w_up = 1;' w.c && ins 3 'static int s_up = 3;' s.c && "
		      GIT "commit -qam one && "
		      "ins 15 '\\tint y = 2;' f.c && " GIT "commit -qam two && "
		      "ins 25 'static int h(void)\\n{\\n\\treturn 7;\\n}' f.c && " GIT "commit -qam three && "
		      "sed -i '/^int f_30(/d' f.c && " GIT "commit -qam four && "
		      "sed -i '4d' b.c && " GIT "commit -qam five && git tag tip", dir)) ||
	       /* the vendor: base, "x++;" twice, the indented line re-indented, the
		* function, f_30 removed; in g.c a line blanked and a lone blank line;
		* in b.c upstream's blank line removed, and a lone brace added */
	       sh(fmt("cd %s && mkdir vendor && git -C up archive base | tar -x -C vendor && cd vendor && " INS
		      "ins 5 'x++;' f.c && ins 8 'x++;' f.c && ins 16 '   int   y=2;' f.c && "
		      "ins 27 'static int h(void)\\n{\\n\\treturn 7;\\n}' f.c && sed -i '/^int f_30(/d' f.c && "
		      "sed -i '10s/.*//' g.c && ins 30 '' g.c && "
		      "ins 5 'int w_up = 1;' w.c && sed -i '20s/^/\t/' w.c && "
		      "ins 3 'static int s_up = 3;' s.c && sed -i '9s/.*/static long s_vendor = 9;/' s.c && "
		      "sed -i '4d' b.c && ins 30 '};' b.c", dir)) ||
	       sh(fmt("cd %s && mkdir exact && git -C up archive tip | tar -x -C exact", dir));
}

static const td_file_provenance_t *find(const td_analysis_t *a, const char *path)
{
	for (size_t i = 0; i < a->result->count; i++)
		if (!strcmp(a->result->changes[i].target ? a->result->changes[i].target->path : "", path))
			return td_provenance_find(a->provenance, i);
	return NULL;
}

static td_analysis_t *run_with(const char *target, int tlsh_small_files)
{
	td_analysis_opts_t o;
	td_analysis_t *a = NULL;
	td_error_t err = { 0 };
	char up[4200], tg[4200], hist[4200];

	td_analysis_opts_init(&o);
	snprintf(up, sizeof(up), "git:%s/up@base", dir);
	snprintf(tg, sizeof(tg), "%s/%s", dir, target);
	snprintf(hist, sizeof(hist), "git:%s/up@tip", dir);
	o.upstream = up;
	o.target = tg;
	o.history = hist;
	o.lines = 1;
	o.tlsh_small_files = tlsh_small_files;
	if (td_analyze(&a, &o, &err))
		fprintf(stderr, "%s\n", err.msg);
	return a;
}

static td_analysis_t *run(const char *target)
{
	return run_with(target, 0);
}

static void test_vendor(void)
{
	td_analysis_t *a = run("vendor");
	const td_file_provenance_t *f, *g, *w, *sm, *b;

	CHECK(a && a->provenance);
	if (!a || !a->provenance)
		return;
	CHECK_INT(a->provenance->history->count, 5);
	f = find(a, "f.c");
	CHECK(f != NULL);
	if (f) {
		CHECK_INT(f->state, TD_PROV_DONE);
		/* x++ once upstream, once local; the re-indented line; the
		 * function's four lines (its braces follow it) */
		CHECK_INT(f->added_upstream, 6);
		CHECK_INT(f->added_local, 1);
		CHECK_INT(f->removed_upstream, 1);
		CHECK_INT(f->removed_local, 0);
		CHECK_INT(f->ncommits, 4);
		CHECK(f->distance_local > 0);
		CHECK_INT(f->split_upstream + f->split_local, a->result->changes[f->change].distance);
	}
	g = find(a, "g.c");
	CHECK(g != NULL);
	if (g) {
		/* a line blanked: the removal is local and the blank line follows
		 * it; the lone blank line is local, alone in its hunk */
		CHECK_INT(g->added_upstream + g->removed_upstream, 0);
		CHECK_INT(g->added_local, 2);
		CHECK_INT(g->removed_local, 1);
		CHECK_INT(g->ncommits, 0);
		/* all local: the file's own distance */
		CHECK_INT(g->distance_upstream, 0);
		CHECK_INT(g->distance_local, a->result->changes[g->change].distance);
		CHECK(g->distance_local > 0);
	}
	w = find(a, "w.c");
	CHECK(w != NULL);
	if (w) {
		/* the upstream line, and a line re-indented: a cosmetic local part */
		CHECK_INT(w->added_upstream, 1);
		CHECK_INT(w->added_local + w->removed_local, 2);
		CHECK(w->distance_upstream > 0);
		CHECK_INT(w->distance_local, 0);
	}
	b = find(a, "b.c");
	CHECK(b != NULL);
	if (b) {
		/* each change alone in its hunk: the blank line's removal is
		 * upstream's, the brace no commit added is local */
		CHECK_INT(b->removed_upstream, 1);
		CHECK_INT(b->added_local, 1);
		CHECK_INT(b->added_upstream + b->removed_local, 0);
		CHECK_INT(b->ncommits, 1);
	}
	sm = find(a, "s.c");
	CHECK(sm != NULL);
	if (sm) {
		/* small: from the line diffs, base 12 lines, the two others 13 */
		CHECK(a->result->changes[sm->change].scored_by_lines);
		CHECK_INT(sm->added_upstream, 1);
		CHECK_INT(sm->added_local + sm->removed_local, 2);
		CHECK_INT(sm->distance_upstream, td_lines_distance(1.0 / 25.0));
		CHECK_INT(sm->distance_local, td_lines_distance(2.0 / 26.0));
	}
	CHECK_INT(a->provenance->distance_upstream + a->provenance->distance_local,
		  a->result->totals.total_distance);
	/* each stage that ran took some time; --patches did not run */
	CHECK(a->times.load > 0 && a->times.compare > 0 && a->times.origins > 0 && a->times.annotate > 0);
	CHECK(a->times.lines > 0 && a->times.provenance > 0 && a->times.summary > 0 && a->times.upstream > 0);
	CHECK(a->times.patches == 0);
	td_analysis_free(a);
}

static void test_exact(void)
{
	td_analysis_t *a = run("exact");
	const td_file_provenance_t *f;

	CHECK(a && a->provenance);
	if (!a || !a->provenance)
		return;
	f = find(a, "f.c");
	CHECK(f != NULL);
	if (f) {
		/* the base with the upstream changes is the target */
		CHECK_INT(f->added_local + f->removed_local, 0);
		CHECK_INT(f->distance_local, 0);
		CHECK_INT(f->split_local, 0);
		/* all upstream: the file's own distance */
		CHECK_INT(f->distance_upstream, a->result->changes[f->change].distance);
		CHECK(f->distance_upstream > 0);
	}
	CHECK_INT(a->provenance->distance_local, 0);
	CHECK_INT(a->provenance->files_upstream, 4);
	td_analysis_free(a);
}

/* With --tlsh-small-files the small file's distances are TLSH's, as its
 * own is. */
static void test_small_tlsh(void)
{
	td_analysis_t *a = run_with("vendor", 1);
	const td_file_provenance_t *sm;

	CHECK(a && a->provenance);
	if (!a || !a->provenance)
		return;
	sm = find(a, "s.c");
	CHECK(sm != NULL);
	if (sm) {
		CHECK(!a->result->changes[sm->change].scored_by_lines);
		CHECK(sm->distance_upstream > 0 && sm->distance_local > 0);
		CHECK(sm->distance_upstream != td_lines_distance(1.0 / 25.0) ||
		      sm->distance_local != td_lines_distance(2.0 / 26.0));
	}
	td_analysis_free(a);
}

int main(void)
{
	check_tmpdir(dir, sizeof(dir), "provenance");
	if (make())
		return 1;
	test_vendor();
	test_exact();
	test_small_tlsh();
	sh(fmt("rm -rf %s", dir));
	return check_finish();
}
