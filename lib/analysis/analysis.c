/* The analysis pipeline: load, kernel, compare, origins, annotate,
 * summarise (see treedrift/analysis.h for the order and why). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "treedrift/analysis.h"
#include "treedrift/arch.h"
#include "treedrift/kconfig.h"
#include "treedrift/lines.h"
#include "treedrift/maintainers.h"
#include "treedrift/policy.h"
#include "analysis_impl.h"
#include "policy_impl.h"
#include "internal.h"

/* Kbuild warnings copied into an analysis; the rest are counted in one line. */
#define MAX_KBUILD_WARNINGS 20
/* Depths of the treemap's two levels. */
#define MAP_TOP_DEPTH 1
#define MAP_SUB_DEPTH 2

struct td_analyzer {
	const td_analysis_opts_t *o;
	td_load_opts_t lo;            /* o->load with upstream_full set */
	td_kconfig_t *cfg;
	const char *kbuild_arch;      /* the arch/ directory Kbuild is evaluated for */
	char *config_warning;         /* the .config is for another architecture */
	td_policy_t *policy;          /* o->policy, read once */
	td_policy_t *linux_policy;    /* the built-in one, read when a target needs it */
	td_maintainers_t *maintainers;
	td_db_t *up_db;               /* an upstream database, open across runs */
};

/* An analysis and the strings its kernel info points at. */
typedef struct analysis_impl {
	td_analysis_t pub;            /* first: td_analysis_free casts back */
	td_annotate_info_t info;
	char *arch, *config, *policy;
	td_policy_t *policy_held;     /* the changes' class names point into it */
	size_t warning_cap;
} analysis_impl_t;

void td_analysis_opts_init(td_analysis_opts_t *o)
{
	memset(o, 0, sizeof(*o));
	td_load_opts_init(&o->load);
	td_compare_opts_init(&o->compare);
	td_origin_opts_init(&o->origin);
	o->origins = 1;
}

void td_analysis_summary_release(td_analysis_t *a)
{
	td_rollup_free(a->dir_rollup);
	td_rollup_free(a->class_rollup);
	td_rollup_free(a->subsystem_rollup);
	td_rollup_free(a->policy_rollup);
	td_rollup_free(a->map_top);
	td_rollup_free(a->map_sub);
	free(a->dirty_core);
	a->dir_rollup = a->class_rollup = a->subsystem_rollup = a->policy_rollup = NULL;
	a->map_top = a->map_sub = NULL;
	a->dirty_core = NULL;
	a->dirty_core_count = 0;
}

/* Free what impl holds, not impl itself (it may be on the stack). */
static void impl_release(analysis_impl_t *impl)
{
	td_analysis_t *a = &impl->pub;

	td_result_free(a->result);
	td_analysis_summary_release(a);
	td_base_result_free(a->base);
	td_patch_set_free(a->patches);
	td_provenance_free(a->provenance);
	td_upstream_free(a->upstream);
	for (size_t i = 0; i < a->warning_count; i++)
		free(a->warnings[i]);
	free(a->warnings);
	free(impl->arch);
	free(impl->config);
	free(impl->policy);
	td_policy_free(impl->policy_held);
}

void td_analysis_free(td_analysis_t *a)
{
	if (!a)
		return;
	impl_release((analysis_impl_t *)a);
	free(a);
}

static int add_warning(analysis_impl_t *impl, td_error_t *err, const char *fmt, ...) TD_PRINTF(3, 4);

static int add_warning(analysis_impl_t *impl, td_error_t *err, const char *fmt, ...)
{
	td_analysis_t *a = &impl->pub;
	char *msg;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || td_grow((void **)&a->warnings, &impl->warning_cap, a->warning_count + 1,
			     sizeof(*a->warnings)) ||
	    !(msg = malloc((size_t)n + 1)))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	va_start(ap, fmt);
	vsnprintf(msg, (size_t)n + 1, fmt, ap);
	va_end(ap);
	a->warnings[a->warning_count++] = msg;
	return TD_OK;
}

static int copy_string(char **out, const char *s, td_error_t *err)
{
	if (!s)
		return TD_OK;
	if (!(*out = td_strndup(s, strlen(s))))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	return TD_OK;
}

void td_analyzer_free(td_analyzer_t *a)
{
	if (!a)
		return;
	td_kconfig_free(a->cfg);
	free(a->config_warning);
	td_policy_free(a->policy);
	td_policy_free(a->linux_policy);
	td_maintainers_free(a->maintainers);
	td_db_free(a->up_db);
	free(a);
}

/* Read the .config and decide which architecture Kbuild is evaluated for. */
static int load_config(td_analyzer_t *a, td_error_t *err)
{
	const td_analysis_opts_t *o = a->o;
	const char *guessed = NULL;
	int rc;

	if ((rc = td_kconfig_load_file(&a->cfg, &guessed, o->config, err)))
		return rc;
	a->kbuild_arch = o->arch ? td_arch_canonical(o->arch) : guessed;
	if (!a->kbuild_arch)
		return td_error_set(err, TD_EINVAL, "'%s' does not say which architecture it is for: give --arch",
				    o->config);
	if (o->arch && guessed && strcmp(guessed, a->kbuild_arch)) {
		size_t n = strlen(o->config) + strlen(guessed) + strlen(a->kbuild_arch) + 64;
		if (!(a->config_warning = malloc(n)))
			return td_error_set(err, TD_ENOMEM, "out of memory");
		snprintf(a->config_warning, n, "'%s' is a configuration for %s, not %s", o->config, guessed,
			 a->kbuild_arch);
	}
	return TD_OK;
}

/* The load options of the next run: the caller's (read at each run, so
 * that a progress callback may change between targets), with upstream_full
 * as the origin options need. */
static void refresh_load_opts(td_analyzer_t *a)
{
	const td_analysis_opts_t *o = a->o;

	a->lo = o->load;
	a->lo.upstream_full = !o->origins ? 0 : o->origin.find_copies ? TD_UPSTREAM_FULL_ALWAYS
								    : TD_UPSTREAM_FULL_IF_ADDED;
}

int td_analyzer_new(td_analyzer_t **out, const td_analysis_opts_t *o, td_error_t *err)
{
	td_analyzer_t *a;
	int rc = TD_OK;

	*out = NULL;
	if (!o || !o->upstream)
		return td_error_set(err, TD_EINVAL, "no upstream tree to analyse against");
	if (o->arch && !td_arch_canonical(o->arch))
		return td_error_set(err, TD_EINVAL, "unknown architecture '%s' (x86_64, arm64, arm, riscv, ...)",
				    o->arch);
	if (o->built_only && !o->config)
		return td_error_set(err, TD_EINVAL, "--built-only needs --config");
	if ((o->classify_local || o->base_commit) && !o->history)
		return td_error_set(err, TD_EINVAL, "%s needs --history",
				    o->classify_local ? "--classify local" : "--base-commit");
	if (o->rebase_onto && !o->patches)
		return td_error_set(err, TD_EINVAL, "--rebase-onto needs --patches");
	if (o->history && strncmp(o->history, "git:", 4))
		return td_error_set(err, TD_EINVAL, "history '%s' is not git:REPO[@TIP...]", o->history);
	if (o->policy && o->no_policy)
		return td_error_set(err, TD_EINVAL, "--policy and --no-policy exclude each other");
	if (o->compare.thresholds.clean_below > o->compare.thresholds.dirty_above + 1)
		return td_error_set(err, TD_EINVAL, "--clean-below %d is above --dirty-above %d",
				    o->compare.thresholds.clean_below, o->compare.thresholds.dirty_above);
	if (!(a = calloc(1, sizeof(*a))))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	a->o = o;
	refresh_load_opts(a);
	if (o->config && (rc = load_config(a, err)))
		goto out;
	if (o->policy && strcmp(o->policy, TD_POLICY_BUILTIN_LINUX))
		rc = td_policy_load_file(&a->policy, o->policy, err);
	else if (o->policy)
		rc = td_policy_default_linux(&a->policy, err);
	if (!rc && o->maintainers)
		rc = td_maintainers_load_file(&a->maintainers, o->maintainers, err);
out:
	if (rc) {
		td_analyzer_free(a);
		return rc;
	}
	*out = a;
	return TD_OK;
}

/* The policy for this target: the one given, or the built-in Linux policy
 * for a Linux tree unless told otherwise. */
static int choose_policy(const td_policy_t **out, td_analyzer_t *a, const td_tree_t *target,
			 analysis_impl_t *impl, td_error_t *err)
{
	const td_analysis_opts_t *o = a->o;
	int rc;

	*out = a->policy;
	if (!a->policy && !o->no_policy && td_tree_looks_like_linux(target)) {
		if (!a->linux_policy && (rc = td_policy_default_linux(&a->linux_policy, err)))
			return rc;
		*out = a->linux_policy;
	}
	if (!*out)
		return TD_OK;
	impl->policy_held = td_policy_retain(*out);
	if (o->policy && strcmp(o->policy, TD_POLICY_BUILTIN_LINUX)) {
		if ((rc = copy_string(&impl->policy, o->policy, err)))
			return rc;
	} else {
		const char *name = td_policy_name(*out);
		if ((rc = copy_string(&impl->policy, name ? name : "linux", err)))
			return rc;
		impl->info.policy_builtin = 1;
	}
	impl->info.policy = impl->policy;
	return TD_OK;
}

static int kbuild_warnings(analysis_impl_t *impl, const td_kbuild_result_t *kb, td_error_t *err)
{
	size_t shown = td_kbuild_warning_count(kb), total = td_kbuild_warning_total(kb);
	int rc;

	if (shown > MAX_KBUILD_WARNINGS)
		shown = MAX_KBUILD_WARNINGS;
	for (size_t i = 0; i < shown; i++) {
		const td_kbuild_warning_t *w = td_kbuild_warning(kb, i);
		if ((rc = add_warning(impl, err, "Kbuild: %s:%u: %s", w->file, w->line, w->msg)))
			return rc;
	}
	if (total > shown)
		return add_warning(impl, err, "Kbuild: %zu more constructs not understood", total - shown);
	return TD_OK;
}

/* The kernel stages on the loaded trees, before compare: the .config's
 * Kbuild evaluation, then the --arch and --built-only filters. *kb gets the
 * evaluation (NULL without a config). */
static int prepare_trees(td_kbuild_result_t **kb, td_analyzer_t *a, td_tree_t *up, td_tree_t *tgt,
			 const char *target, analysis_impl_t *impl, td_error_t *err)
{
	const td_analysis_opts_t *o = a->o;
	td_annotate_info_t *info = &impl->info;
	uint64_t n;
	int rc;

	*kb = NULL;
	if (a->cfg) {
		if ((rc = copy_string(&impl->config, o->config, err)))
			return rc;
		info->config = impl->config;
		info->built_only = o->built_only;
		if ((rc = td_kbuild_eval_tree(kb, tgt, target, &a->lo.source, a->cfg, a->kbuild_arch, err))) {
			char msg[sizeof(err->msg)];
			snprintf(msg, sizeof(msg), "%s", err->msg);
			return td_error_set(err, rc, "--config: %s", msg);
		}
		if ((rc = kbuild_warnings(impl, *kb, err)))
			return rc;
		info->kbuild_sources = td_kbuild_source_count(*kb);
		info->kbuild_warnings = td_kbuild_warning_total(*kb);
	}
	if (o->arch) {
		if ((rc = copy_string(&impl->arch, o->arch, err)))
			return rc;
		info->arch = impl->arch;
		info->srcarch = td_arch_canonical(o->arch);
		td_tree_drop_arch(up, o->arch, &n);
		info->arch_dropped = n;
		td_tree_drop_arch(tgt, o->arch, &n);
		info->arch_dropped += n;
	}
	if (o->built_only) {
		td_tree_drop_not_built(up, *kb, &n);
		info->built_dropped = n;
		td_tree_drop_not_built(tgt, *kb, &n);
		info->built_dropped += n;
	}
	return TD_OK;
}

static int is_scored(const td_change_t *c)
{
	return c->status == TD_STATUS_MODIFIED || c->status == TD_STATUS_ADDED;
}

/* A dirty core file and the key it is sorted by. */
typedef struct core_key {
	double risk;
	size_t index;
} core_key_t;

/* Highest risk first; r->changes is sorted by path, so between equal risks
 * the lower index is the path first in byte order. */
static int by_risk(const void *pa, const void *pb)
{
	const core_key_t *a = pa, *b = pb;

	if (a->risk != b->risk)
		return a->risk > b->risk ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

static int is_dirty_core(const td_change_t *c)
{
	return c->cls == TD_CLASS_DIRTY && is_scored(c) && c->weight > TD_CORE_WEIGHT &&
	       c->built != TD_BUILT_NO;
}

/* The dirty files the policy weighs above the default and the config does
 * not leave out, by risk: where review should start. */
static int find_dirty_core(td_analysis_t *a, td_error_t *err)
{
	const td_result_t *r = a->result;
	core_key_t *keys;
	size_t n = 0;

	for (size_t i = 0; i < r->count; i++)
		n += is_dirty_core(&r->changes[i]);
	if (!n)
		return TD_OK;
	keys = td_malloc_array(n, sizeof(*keys));
	a->dirty_core = td_malloc_array(n, sizeof(*a->dirty_core));
	if (!keys || !a->dirty_core) {
		free(keys);
		return td_error_set(err, TD_ENOMEM, "out of memory");
	}
	n = 0;
	for (size_t i = 0; i < r->count; i++)
		if (is_dirty_core(&r->changes[i]))
			keys[n++] = (core_key_t){ r->changes[i].risk, i };
	qsort(keys, n, sizeof(*keys), by_risk);
	for (size_t i = 0; i < n; i++)
		a->dirty_core[i] = keys[i].index;
	a->dirty_core_count = n;
	free(keys);
	return TD_OK;
}

int td_analysis_summarise(td_analysis_t *a, unsigned by_dir, int by_class, const td_maintainers_t *m,
			  int policy, td_error_t *err)
{
	const td_result_t *r = a->result;
	int rc;

	a->by_dir = by_dir;
	if ((by_dir && (rc = td_rollup_by_dir(&a->dir_rollup, r, by_dir, 0, err))) ||
	    (by_class && (rc = td_rollup_by_class(&a->class_rollup, r, err))) ||
	    (m && (rc = td_rollup_by_subsystem(&a->subsystem_rollup, r, m, err))) ||
	    (policy && (rc = td_rollup_by_class(&a->policy_rollup, r, err))) ||
	    (rc = td_rollup_by_dir(&a->map_top, r, MAP_TOP_DEPTH, 0, err)) ||
	    (rc = td_rollup_by_dir(&a->map_sub, r, MAP_SUB_DEPTH, 0, err)) ||
	    (rc = find_dirty_core(a, err)))
		return rc;
	td_origin_count(&a->origin_counts, r);
	return TD_OK;
}

/* Load both trees: as the options say, or with the base version that
 * detection ranks first. */
static int load_trees(td_tree_t **up, td_tree_t **tgt, td_analyzer_t *a, const char *target,
		      analysis_impl_t *impl, td_error_t *err)
{
	const char *label;
	td_base_result_t *b;
	int rc;

	if (!a->lo.upstream_label || strcmp(a->lo.upstream_label, TD_BASE_AUTO))
		return td_load_pair_db(up, tgt, &a->up_db, a->o->upstream, target, &a->lo, &impl->pub.stats, err);
	if (!a->up_db && !td_spec_is_db(a->o->upstream))
		return td_error_set(err, TD_EINVAL, "--base auto needs an upstream database, not '%s'",
				    a->o->upstream);
	if ((rc = td_analyzer_rank_base(&impl->pub.base, tgt, a, target, NULL, err)))
		return rc;
	b = impl->pub.base;
	label = b->candidates[0].label;
	if (b->ambiguous && (rc = add_warning(impl, err, "the base is ambiguous: %s or %s (see treedrift base); "
					     "comparing against %s", label, b->candidates[1].label, label)))
		return rc;
	return td_db_load(up, a->up_db, label, err);
}

/* Seconds on a monotonic clock, for td_stage_times_t. */
static double seconds_now(void)
{
	return (double)td_monotonic_ns() / 1e9;
}

/* The time since *mark into *stage (when stage is not NULL), and the mark
 * moved to now. */
static void stage_done(double *stage, double *mark)
{
	double now = seconds_now();

	if (stage)
		*stage += now - *mark;
	*mark = now;
}

/* rc, the outcome of a stage: when it is 0, the stage's time is added
 * (stage_done). */
static int timed(int rc, double *stage, double *mark)
{
	if (!rc)
		stage_done(stage, mark);
	return rc;
}

/* compare, origins and annotate on the loaded trees (taken, also on failure).
 * With content 0 (ranking base versions) nothing is read again: small files
 * keep their TLSH score and copies are judged by TLSH alone, the same way for
 * every version ranked. */
static int analyse_trees(td_result_t **out, td_origin_stats_t *ostats, td_stage_times_t *times, td_analyzer_t *a,
			 td_tree_t *up, td_tree_t *tgt, const td_kbuild_result_t *kb, const td_policy_t *policy,
			 int content, td_error_t *err)
{
	td_annotate_opts_t ao;
	td_lines_opts_t lo;
	td_result_t *r = NULL;
	double mark = seconds_now();
	int rc;

	*out = NULL;
	if ((rc = td_compare(&r, up, tgt, &a->o->compare, err)))
		return rc;
	td_origin_opts_t oo = a->o->origin;
	if (!oo.threads)
		oo.threads = a->lo.scan.jobs;
	if (!content)
		oo.verify = 0;
	td_lines_opts_init(&lo);
	lo.jobs = a->lo.scan.jobs;
	lo.source = a->lo.source;
	if ((a->up_db && r->base_version && (rc = td_origin_versions(r, a->up_db, NULL, err))) ||
	    (content && !a->o->tlsh_small_files && (rc = td_lines_score_small(r, &lo, err))))
		goto out;
	stage_done(times ? &times->compare : NULL, &mark);
	if (a->o->origins && (rc = timed(td_origin_find(r, &oo, ostats, err), times ? &times->origins : NULL, &mark)))
		goto out;
	td_annotate_opts_init(&ao);
	ao.kbuild = kb;
	ao.policy = policy;
	rc = timed(td_annotate(r, &ao, err), times ? &times->annotate : NULL, &mark);
out:
	if (rc) {
		td_result_free(r);
		return rc;
	}
	*out = r;
	return TD_OK;
}

/* Per-patch drift of the finished result. The set's class names point
 * into policy, which the analysis holds (policy_held). */
static int run_patches(td_analysis_t *an, td_analyzer_t *a, const char *target, const td_policy_t *policy,
		       td_error_t *err)
{
	td_patch_opts_t po;

	td_patch_opts_init(&po);
	po.base_spec = a->o->upstream;
	po.target_spec = target;
	po.source = &a->o->load.source;
	po.policy = policy;
	po.added_distance = a->o->compare.added_distance;
	po.tlsh_small_files = a->o->tlsh_small_files;
	po.copy_similarity = a->o->origin.copy_similarity;
	po.rebase_spec = a->o->rebase_onto;
	return td_patch_analyze(&an->patches, a->o->patches, an->result, &po, err);
}

/* With a history: the patches matched to its commits and its commits'
 * status in the target (treedrift/upstream.h), after the patches and the
 * build marks. */
static int run_upstream(td_analysis_t *an, const td_analyzer_t *a, const char *target, td_error_t *err)
{
	td_upstream_opts_t uo;

	if (!an->provenance || !an->provenance->history)
		return TD_OK;
	td_upstream_opts_init(&uo);
	uo.target_spec = target;
	uo.source = &a->o->load.source;
	uo.config = a->o->config != NULL;
	uo.provenance = an->provenance;
	return td_upstream_analyze(&an->upstream, an->provenance->history, an->result, an->patches, &uo, err);
}

/* The line counts of the modified files, after compare and origins (not
 * when ranking base versions, where they would be read for nothing). */
static int count_lines(td_result_t *r, const td_analyzer_t *a, td_error_t *err)
{
	td_lines_opts_t lo;

	td_lines_opts_init(&lo);
	lo.jobs = a->lo.scan.jobs;
	lo.source = a->lo.source;
	return td_lines_count(r, &lo, err);
}

/* The base commit of the history: --base-commit, else the commit of the
 * upstream operand when it is a git revision or a database version scanned
 * from git (its root is "git:REPO@COMMIT"). */
static int history_base(char **out, const td_analyzer_t *a, const td_result_t *r, td_error_t *err)
{
	const td_tree_meta_t *m = &r->upstream->meta;
	const char *at;

	*out = NULL;
	if (a->o->base_commit)
		*out = strdup(a->o->base_commit);
	else if (m->source_kind && !strcmp(m->source_kind, "git") && m->root && !strncmp(m->root, "git:", 4) &&
		 (at = strrchr(m->root, '@')) && at[1])
		*out = strdup(at + 1);
	else
		return td_error_set(err, TD_EINVAL, "--history needs the base commit: the upstream '%s' is not a git "
				    "revision (give --base-commit REV)", m->label ? m->label : a->o->upstream);
	return *out ? TD_OK : td_error_set(err, TD_ENOMEM, "out of memory");
}

static int cmp_path_ptr(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* Load the history for the changed paths of the result and split its
 * changed lines. */
static int run_provenance(td_analysis_t *an, const td_analyzer_t *a, td_error_t *err)
{
	td_result_t *r = an->result;
	td_history_opts_t ho;
	td_provenance_opts_t po;
	td_history_t *h = NULL;
	const char **paths = NULL;
	char *base = NULL;
	size_t n = 0;
	int rc;

	if ((rc = history_base(&base, a, r, err)))
		return rc;
	if (!(paths = td_malloc_array(r->count ? r->count : 1, sizeof(*paths)))) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < r->count; i++) {
		const td_change_t *c = &r->changes[i];
		if (c->status == TD_STATUS_MODIFIED || c->status == TD_STATUS_ADDED || c->status == TD_STATUS_REMOVED)
			paths[n++] = c->target ? c->target->path : c->upstream->path;
	}
	qsort(paths, n, sizeof(*paths), cmp_path_ptr);
	td_history_opts_init(&ho);
	ho.paths = paths;
	ho.npaths = n;
	ho.jobs = a->lo.scan.jobs;
	if ((rc = td_history_load(&h, a->o->history, base, &ho, err)))
		goto out;
	td_provenance_opts_init(&po);
	po.lines.jobs = a->lo.scan.jobs;
	po.lines.source = a->lo.source;
	po.added_distance = a->o->compare.added_distance;
	po.tlsh_small_files = a->o->tlsh_small_files;
	if ((rc = td_provenance_compute(&an->provenance, r, h, &po, err)))
		goto out;
	if (a->o->classify_local) {
		td_provenance_classify_local(r, an->provenance);
		an->classify_local = 1;
	}
out:
	free(paths);
	free(base);
	return rc;
}

int td_analyzer_run(td_analysis_t **out, td_analyzer_t *a, const char *target, td_error_t *err)
{
	analysis_impl_t *impl;
	td_tree_t *up = NULL, *tgt = NULL;
	td_kbuild_result_t *kb = NULL;
	const td_policy_t *policy = NULL;
	td_stage_times_t *t;
	double mark = seconds_now();
	int rc;

	*out = NULL;
	if (!target)
		target = a->o->target;
	if (!target)
		return td_error_set(err, TD_EINVAL, "no target tree to analyse");
	if (!(impl = calloc(1, sizeof(*impl))))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	t = &impl->pub.times;
	refresh_load_opts(a);
	if (a->config_warning && (rc = add_warning(impl, err, "%s", a->config_warning)))
		goto out;
	if ((rc = load_trees(&up, &tgt, a, target, impl, err)) ||
	    (rc = choose_policy(&policy, a, tgt, impl, err)) ||
	    (rc = prepare_trees(&kb, a, up, tgt, target, impl, err)))
		goto out;
	stage_done(&t->load, &mark);
	rc = analyse_trees(&impl->pub.result, &impl->pub.origin_stats, t, a, up, tgt, kb, policy, 1, err);
	up = tgt = NULL; /* taken by compare */
	mark = seconds_now();
	if (!rc && impl->pub.result->small_unscored &&
	    (rc = add_warning(impl, err, "small files keep their TLSH score: %s", impl->pub.result->small_unscored)))
		goto out;
	if (!rc && impl->pub.result->copies_unverified &&
	    (rc = add_warning(impl, err, "copies judged by TLSH distance alone: %s",
			      impl->pub.result->copies_unverified)))
		goto out;
	if (rc || (a->o->lines && (rc = timed(count_lines(impl->pub.result, a, err), &t->lines, &mark))) ||
	    (a->o->history && (rc = timed(run_provenance(&impl->pub, a, err), &t->provenance, &mark))) ||
	    (rc = timed(td_analysis_summarise(&impl->pub, a->o->by_dir, a->o->by_class, a->maintainers,
					      policy != NULL, err),
			&t->summary, &mark)))
		goto out;
	if (impl->info.arch || impl->info.config || impl->info.policy)
		impl->pub.kernel = &impl->info;
	if ((a->o->patches && (rc = timed(run_patches(&impl->pub, a, target, policy, err), &t->patches, &mark))) ||
	    (a->o->history && (rc = timed(run_upstream(&impl->pub, a, target, err), &t->upstream, &mark))))
		goto out;
out:
	td_kbuild_result_free(kb);
	td_tree_free(up);
	td_tree_free(tgt);
	if (rc) {
		td_analysis_free(&impl->pub);
		return rc;
	}
	*out = &impl->pub;
	return TD_OK;
}

int td_analyze(td_analysis_t **out, const td_analysis_opts_t *o, td_error_t *err)
{
	td_analyzer_t *a;
	int rc;

	*out = NULL;
	if ((rc = td_analyzer_new(&a, o, err)))
		return rc;
	rc = td_analyzer_run(out, a, NULL, err);
	td_analyzer_free(a);
	return rc;
}

/* ---- base detection ------------------------------------------------- */

typedef struct base_scorer {
	td_analyzer_t *a;
	const td_tree_t *target;
	const char *target_spec;
} base_scorer_t;

static int copy_tree(td_tree_t **out, const td_tree_t *t, td_error_t *err)
{
	td_tree_t *c = NULL;
	int rc;

	if ((rc = td_tree_new(&c)))
		goto out;
	for (size_t i = 0; i < t->count && !rc; i++) {
		td_file_t f;
		if (!(rc = td_file_copy(&f, &t->files[i])) && (rc = td_tree_append(c, &f)))
			td_file_release(&f);
	}
	if (!rc && !(rc = td_meta_set(&c->meta.label, t->meta.label)) &&
	    !(rc = td_meta_set(&c->meta.root, t->meta.root)))
		rc = td_meta_set(&c->meta.source_kind, t->meta.source_kind);
out:
	if (rc) {
		td_tree_free(c);
		return td_error_set(err, TD_ENOMEM, "out of memory copying a tree");
	}
	*out = c;
	return TD_OK;
}

/* Score one version as td_analyzer_run would compare the target with it. */
static int score_version(void *ctx, td_base_candidate_t *c, td_error_t *err)
{
	base_scorer_t *s = ctx;
	analysis_impl_t impl = { 0 };
	td_tree_t *up = NULL, *tgt = NULL;
	td_kbuild_result_t *kb = NULL;
	const td_policy_t *policy = NULL;
	td_result_t *r = NULL;
	int rc;

	if ((rc = td_db_load(&up, s->a->up_db, c->label, err)) ||
	    (rc = copy_tree(&tgt, s->target, err)) ||
	    (rc = choose_policy(&policy, s->a, tgt, &impl, err)) ||
	    (rc = prepare_trees(&kb, s->a, up, tgt, s->target_spec, &impl, err)))
		goto out;
	rc = analyse_trees(&r, NULL, NULL, s->a, up, tgt, kb, policy, 0, err);
	up = tgt = NULL;
	if (rc)
		goto out;
	c->modified = r->totals.modified;
	c->added = r->totals.added;
	c->removed = r->totals.removed;
	c->distance = r->totals.total_distance;
out:
	td_result_free(r);
	td_kbuild_result_free(kb);
	td_tree_free(up);
	td_tree_free(tgt);
	impl_release(&impl);
	return rc;
}

int td_analyzer_rank_base(td_base_result_t **out, td_tree_t **target_out, td_analyzer_t *a,
			  const char *target, const td_base_opts_t *bo, td_error_t *err)
{
	td_base_opts_t opts;
	base_scorer_t scorer;
	td_load_opts_t tlo;
	td_tree_t *tgt = NULL;
	int rc;

	*out = NULL;
	if (target_out)
		*target_out = NULL;
	if (!target)
		target = a->o->target;
	if (!target)
		return td_error_set(err, TD_EINVAL, "no target tree to analyse");
	refresh_load_opts(a);
	if (!a->up_db && (rc = td_db_open(&a->up_db, a->o->upstream, err)))
		return rc;
	tlo = a->lo; /* the target's progress, as td_load_pair gives it */
	if (tlo.progress_ctx_target)
		tlo.scan.progress_ctx = tlo.progress_ctx_target;
	if ((rc = td_load_tree(&tgt, target, a->lo.target_label, &tlo, NULL, err)))
		return rc;
	if (bo)
		opts = *bo;
	else
		td_base_opts_init(&opts);
	scorer.a = a;
	scorer.target = tgt;
	scorer.target_spec = target;
	opts.score = score_version;
	opts.score_ctx = &scorer;
	rc = td_base_rank(out, a->up_db, tgt, &opts, err);
	if (rc || !target_out)
		td_tree_free(tgt);
	else
		*target_out = tgt;
	return rc;
}
