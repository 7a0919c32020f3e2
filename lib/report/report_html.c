/* The HTML report: one self-contained file (inline CSS, SVG and a little
 * JavaScript; nothing is fetched) with a summary, a directory treemap, a
 * histogram of distances and the per-file table. Everything but sorting and
 * filtering the table is static markup, so the file reads the same without
 * JavaScript. Strings from a tree are escaped twice over: first as the text
 * report does (C escapes for controls, bidirectional formatting characters,
 * backslash and each byte that is not well-formed UTF-8: "\377"), then for
 * HTML (& < > " '). See doc/formats.md, "HTML". */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_impl.h"
#include "treedrift/lines.h"
#include "treedrift/patch.h"
#include "treedrift/rollup.h"
#include "internal.h"

/* Treemap and histogram canvas, in SVG user units. */
#define MAP_WIDTH 960.0
#define MAP_HEIGHT 440.0
#define MAP_LABEL_HEIGHT 15.0
#define HIST_WIDTH 960.0
#define HIST_HEIGHT 220.0
#define HIST_BIN 10        /* distance units per bar */
#define HIST_BINS 41       /* the last bar holds every distance >= 400 */

/* One byte of C-escaped text, with & < > " ' as entities. */
static void html_char(FILE *f, unsigned char c)
{
	switch (c) {
	case '&': fputs("&amp;", f); break;
	case '<': fputs("&lt;", f); break;
	case '>': fputs("&gt;", f); break;
	case '"': fputs("&quot;", f); break;
	case '\'': fputs("&#39;", f); break;
	default: fputc(c, f);
	}
}

/* s HTML-escaped (also fit for XML): text and attribute values alike. */
void td_report_html_text(FILE *f, const char *s, size_t len)
{
	td_escape_walk(f, s, len, html_char);
}

static void html_cstr(FILE *f, const char *s)
{
	if (s)
		td_report_html_text(f, s, strlen(s));
}

static void html_path(FILE *f, const td_file_t *file)
{
	td_report_html_text(f, file->path, file->path_len);
}

/* A git object id has at most this many hex digits (SHA-256); the report
 * shows the first HTML_OID_ABBREV of it, as git abbreviates one. */
#define HTML_OID_MAX 64
#define HTML_OID_ABBREV 12

/* A commit id as git shows it abbreviated, the whole id in its tooltip;
 * any other id (a patch file of a series) as it is. */
static void html_commit(FILE *f, const char *id)
{
	size_t n = id ? strspn(id, "0123456789abcdef") : 0;

	if (n > HTML_OID_ABBREV && n <= HTML_OID_MAX && !id[n])
		fprintf(f, "<span class=\"oid\" title=\"%s\">%.*s</span>", id, HTML_OID_ABBREV, id);
	else
		html_cstr(f, id);
}

static const char css[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;background:#fff}"
	"h1{font-size:1.5em;margin:0 0 .3em}h2{font-size:1.15em;margin:1.4em 0 .4em}"
	"table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left;vertical-align:top}"
	"th{background:#eee;border-bottom:1px solid #bbb}"
	".n{text-align:right;font-variant-numeric:tabular-nums}"
	"#files{table-layout:fixed;width:100%}" /* no measuring of 10^5 cells for column widths */
	"#files td{overflow-wrap:anywhere}"
	"#files td:first-child,#files td:last-child{font-family:monospace}"
	/* by position, not by a class on each of 10^5 cells: numbers right, classes coloured */
	"#files td:nth-child(4),#files td:nth-child(6),#files td:nth-child(7),#files.pol td:nth-child(8)"
	"{text-align:right;font-variant-numeric:tabular-nums}"
	"#files tr[data-c=clean] td:nth-child(3){color:#1a7f37}"
	"#files tr[data-c=safe] td:nth-child(3){color:#9a6700}"
	"#files tr[data-c=dirty] td:nth-child(3){color:#cf222e;font-weight:600}"
	"#files tr[data-c=new] td:nth-child(3){color:#0969da}"
	"#files tbody tr:nth-child(even){background:#f7f7f7}"
	"#files th{cursor:pointer;position:sticky;top:0}"
	"#files th[aria-sort=ascending]::after{content:' \\25b2'}"
	"#files th[aria-sort=descending]::after{content:' \\25bc'}"
	".clean{color:#1a7f37}.safe{color:#9a6700}.dirty{color:#cf222e;font-weight:600}.new{color:#0969da}"
	"dl.meta{display:grid;grid-template-columns:max-content auto;gap:2px 12px}"
	"dl.meta dt{font-weight:600}dl.meta dd{margin:0;font-family:monospace;word-break:break-all}"
	"svg{max-width:100%;height:auto;font:11px sans-serif}"
	"#ctl{margin:.5em 0}#ctl input,#ctl select{margin-right:1em}"
	".note{color:#666}"
	".wide{overflow-x:auto}.wide th{white-space:nowrap}.oid{font-family:monospace}"
	"summary{cursor:pointer}ul.pf{margin:.2em 0;padding:0 0 0 1em;list-style:none;font:12px monospace}";

/* Sort by a column click or the URL's #sort=COL&dir=asc|desc, filter by
 * #q=TEXT&class=CLASS&status=STATUS or the controls. Rows keep their
 * elements: only their order and their hidden flag change. A sort reads each
 * row's key once, then sorts indices: 10^5 rows take well under a second. */
static const char script[] =
	"(function(){\n"
	"var t=document.getElementById('files');if(!t)return;\n"
	"var tb=t.tBodies[0],rows=[].slice.call(tb.rows),hs=[].slice.call(t.tHead.rows[0].cells);\n"
	"rows.forEach(function(r,i){r._i=i});\n"
	"var q=document.getElementById('q'),fc=document.getElementById('fc'),fs=document.getElementById('fs'),"
	"cnt=document.getElementById('count'),timer=0;\n"
	"function val(r,i,num){var c=r.cells[i],v=c.hasAttribute('data-v')?c.getAttribute('data-v'):c.textContent;"
	"return num?(v===''?-Infinity:+v):v}\n"
	"function sortBy(i,d){var num=hs[i].classList.contains('n'),k=rows.map(function(r){return val(r,i,num)}),"
	"o=rows.map(function(r){return r._i}),ix=rows.map(function(r,j){return j});\n"
	" ix.sort(function(a,b){var x=k[a],y=k[b];return (x<y?-1:x>y?1:0)*d||o[a]-o[b]});\n"
	" var old=rows;rows=ix.map(function(j){return old[j]});\n"
	" var nx=tb.nextSibling;t.removeChild(tb);rows.forEach(function(r){tb.appendChild(r)});t.insertBefore(tb,nx);\n"
	" hs.forEach(function(h,k){if(k===i)h.setAttribute('aria-sort',d>0?'ascending':'descending');"
	"else h.removeAttribute('aria-sort')});t.setAttribute('data-sorted',hs[i].getAttribute('data-col'))}\n"
	"function filter(){var s=q.value.toLowerCase(),c=fc.value,st=fs.value,k=0;\n"
	" rows.forEach(function(r){var ok=(!c||r.getAttribute('data-c')===c)&&(!st||r.getAttribute('data-s')===st)&&"
	"(!s||r.cells[0].textContent.toLowerCase().indexOf(s)>=0);r.hidden=!ok;if(ok)k++});\n"
	" cnt.textContent=k+' of '+rows.length+' files shown'}\n"
	"hs.forEach(function(h,i){h.addEventListener('click',function(){"
	"sortBy(i,h.getAttribute('aria-sort')==='ascending'?-1:1)})});\n"
	"q.addEventListener('input',function(){clearTimeout(timer);timer=setTimeout(filter,150)});\n"
	"fc.addEventListener('change',filter);fs.addEventListener('change',filter);\n"
	"var p={};location.hash.slice(1).split('&').forEach(function(kv){var e=kv.indexOf('=');"
	"if(e>0)p[kv.slice(0,e)]=decodeURIComponent(kv.slice(e+1))});\n"
	"if(p.q)q.value=p.q;if(p['class'])fc.value=p['class'];if(p.status)fs.value=p.status;\n"
	"if(p.sort)hs.forEach(function(h,i){if(h.getAttribute('data-col')===p.sort)sortBy(i,p.dir==='desc'?-1:1)});\n"
	"document.getElementById('ctl').hidden=false;\n"
	"if(q.value||fc.value||fs.value)filter();else cnt.textContent=rows.length+' of '+rows.length+' files shown';\n"
	"document.body.setAttribute('data-js','ready');\n"
	"})();\n";

static void put_u64(FILE *f, uint64_t n)
{
	fprintf(f, "%" PRIu64, n);
}

static const char *class_css(td_class_t c)
{
	const char *n = td_class_name(c);
	return n ? n : "";
}

static void write_meta(FILE *f, const char *side, const td_tree_t *t)
{
	fprintf(f, "<dt>%s</dt><dd>", side);
	if (t && t->meta.label) {
		html_cstr(f, t->meta.label);
		fputs(" ", f);
	}
	if (t && t->meta.root) {
		fputs("(", f);
		html_cstr(f, t->meta.root);
		fputs(")", f);
	}
	fputs("</dd>\n", f);
}

static void write_summary(FILE *f, const td_analysis_t *a, int policy)
{
	const td_result_t *r = a->result;
	const td_totals_t *tt = &r->totals;
	char num[TD_REPORT_NUM_MAX];

	fputs("<h2 id=\"summary\">Summary</h2>\n<dl class=\"meta\">\n", f);
	write_meta(f, "upstream", r->upstream);
	write_meta(f, "target", r->target);
	fputs("<dt>base version</dt><dd>", f);
	if (r->base_version)
		html_cstr(f, r->base_version);
	else
		fputs("(unknown)", f);
	fprintf(f, "</dd>\n<dt>thresholds</dt><dd>clean &lt; %d, safe %d&ndash;%d, dirty &gt; %d%s</dd>\n",
		r->thresholds.clean_below, r->thresholds.clean_below, r->thresholds.dirty_above,
		r->thresholds.dirty_above, r->len_diff ? "" : " (no length term)");
	fprintf(f, "<dt>policy</dt><dd>%s</dd>\n", policy ? "path policy applied" : "none");
	if (r->lines_counted) {
		fputs("<dt>lines</dt><dd>", f);
		td_report_line_totals(f, tt, "&minus;", " in modified files");
		fputs("</dd>\n", f);
	}
	if (tt->cosmetic || tt->cosmetic_unknown) {
		fputs("<dt>cosmetic</dt><dd>", f);
		td_report_cosmetic_totals(f, tt);
		fputs("</dd>\n", f);
	}
	if (r->lines_missing) {
		fputs("<dt>line counts missing</dt><dd>", f);
		html_cstr(f, r->lines_missing);
		fputs("</dd>\n", f);
	}
	if (a->upstream) {
		/* the security backlog, before the patches and files that follow */
		const td_upstream_t *u = a->upstream;
		fprintf(f, "<dt>upstream fixes</dt><dd><a href=\"#missing-fixes\">%zu missing, %zu partial</a>; "
			   "naming a CVE: %zu missing, %zu partial</dd>\n",
			u->fix_count[TD_FIX_MISSING], u->fix_count[TD_FIX_PARTIAL], u->cve_count[TD_FIX_MISSING],
			u->cve_count[TD_FIX_PARTIAL]);
	}
	fputs("</dl>\n", f);

	fputs("<table id=\"totals\"><thead><tr><th>files</th><th class=\"n\">count</th>"
	      "<th class=\"n\">distance</th></tr></thead><tbody>\n", f);
	fputs("<tr><td>identical</td><td class=\"n\">", f);
	put_u64(f, tt->identical);
	fputs("</td><td></td></tr>\n<tr><td>modified</td><td class=\"n\">", f);
	put_u64(f, tt->modified);
	fputs("</td><td class=\"n\">", f);
	put_u64(f, tt->modified_distance);
	fputs("</td></tr>\n<tr><td>added</td><td class=\"n\">", f);
	put_u64(f, tt->added);
	fputs("</td><td class=\"n\">", f);
	put_u64(f, tt->added_distance);
	fputs("</td></tr>\n<tr><td>removed</td><td class=\"n\">", f);
	put_u64(f, tt->removed);
	fputs("</td><td></td></tr>\n<tr><td>skipped</td><td class=\"n\">", f);
	put_u64(f, tt->skipped);
	fputs("</td><td></td></tr>\n", f);
	for (int c = TD_CLASS_CLEAN; c < TD_CLASS_COUNT; c++) {
		fprintf(f, "<tr><td class=\"%s\">%s</td><td class=\"n\">", class_css((td_class_t)c),
			td_class_name((td_class_t)c));
		put_u64(f, tt->by_class[c].files);
		fputs("</td><td class=\"n\">", f);
		put_u64(f, tt->by_class[c].distance);
		fputs("</td></tr>\n", f);
	}
	fputs("<tr><th>total</th><th class=\"n\">", f);
	put_u64(f, tt->mismatched);
	fputs("</th><th class=\"n\">", f);
	put_u64(f, tt->total_distance);
	fputs("</th></tr>\n</tbody></table>\n", f);
	if (policy) {
		td_report_fixed(num, tt->total_risk, 1);
		fprintf(f, "<p>total risk (distance &times; policy weight): <b id=\"risk\">%s</b></p>\n", num);
	}
}

/* With --history: the total distance split into its upstream and local
 * parts, as numbers and as one bar. */
static void write_provenance_summary(FILE *f, const td_analysis_t *a)
{
	const td_provenance_t *p = a->provenance;
	uint64_t total;
	unsigned pct;

	if (!p)
		return;
	total = p->distance_upstream + p->distance_local;
	pct = total ? (unsigned)((p->distance_upstream * 100 + total / 2) / total) : 0;
	fputs("<h2 id=\"provenance\">Upstream and local drift</h2>\n<dl class=\"meta\">\n<dt>history</dt><dd>", f);
	html_cstr(f, p->history->repo);
	fprintf(f, ", base %.12s, %zu commits (%zu merges left out), %zu explain a line</dd>\n", p->history->base,
		p->history->count, p->history->merges_skipped, p->commits_used);
	fprintf(f, "<dt>classes from</dt><dd>the %s distance</dd>\n</dl>\n", a->classify_local ? "local" : "total");
	fprintf(f, "<div title=\"upstream %u%%\" style=\"display:flex;height:1.2em;max-width:40em;"
		   "background:#ffe4cc\"><div style=\"width:%u%%;background:#cfe8ff\"></div></div>\n", pct, pct);
	fputs("<table id=\"provenance-totals\"><thead><tr><th>part</th><th class=\"n\">distance</th>"
	      "<th class=\"n\">changed lines</th><th class=\"n\">files</th></tr></thead><tbody>\n", f);
	fprintf(f, "<tr><td style=\"background:#cfe8ff\">upstream</td><td class=\"n\">%" PRIu64
		   "</td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%" PRIu64 " all upstream</td></tr>\n",
		p->distance_upstream, p->lines_upstream, p->files_upstream);
	fprintf(f, "<tr><td style=\"background:#ffe4cc\">local</td><td class=\"n\">%" PRIu64
		   "</td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%" PRIu64 " all local, %" PRIu64
		   " mixed</td></tr>\n</tbody></table>\n",
		p->distance_local, p->lines_local, p->files_local, p->files_mixed);
}

static void write_policy_rollup(FILE *f, const td_rollup_t *ru)
{
	char num[TD_REPORT_NUM_MAX];

	fputs("<h2 id=\"policy\">By policy class</h2>\n<table><thead><tr><th>class</th>"
	      "<th class=\"n\">modified</th><th class=\"n\">added</th><th class=\"n\">removed</th>"
	      "<th class=\"n\">distance</th><th class=\"n\">risk</th></tr></thead><tbody>\n", f);
	for (size_t i = 0; i < ru->count; i++) {
		const td_rollup_row_t *row = &ru->rows[i];
		fputs("<tr><td>", f);
		td_report_html_text(f, row->key, row->key_len);
		fprintf(f, "</td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%" PRIu64
			"</td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%" PRIu64 "</td>",
			row->by_status[TD_STATUS_MODIFIED], row->by_status[TD_STATUS_ADDED],
			row->by_status[TD_STATUS_REMOVED], row->distance);
		td_report_fixed(num, row->risk, 1);
		fprintf(f, "<td class=\"n\">%s</td></tr>\n", num);
	}
	fputs("</tbody></table>\n", f);
}

/* Rows of the missing-fixes table at most (the JSON report has them all). */
#define HTML_FIXES_MAX 500

/* With --history: the upstream commits whose changes the target lacks
 * (missing, partial), in the analysis's order, and the counts of each
 * status. */
static void write_missing_fixes(FILE *f, const td_upstream_t *u)
{
	size_t want = td_fix_lacking(u->status_count);

	fprintf(f, "<h2 id=\"missing-fixes\">Missing upstream fixes</h2>\n<p class=\"note\">%zu missing, %zu partial "
		   "of %zu upstream commits that touch the target's files (%zu applied, %zu not applicable)",
		u->status_count[TD_FIX_MISSING], u->status_count[TD_FIX_PARTIAL], u->nfixes,
		u->status_count[TD_FIX_APPLIED], u->status_count[TD_FIX_NOT_APPLICABLE]);
	fprintf(f, "; of the missing and partial, %zu are fixes (Fixes:, Cc: stable or a CVE id) and %zu name a CVE",
		td_fix_lacking(u->fix_count), td_fix_lacking(u->cve_count));
	if (want > HTML_FIXES_MAX)
		fprintf(f, "; the first %d listed", HTML_FIXES_MAX);
	fputs(".</p>\n", f);
	if (!want)
		return;
	fputs("<div class=\"wide\"><table><thead><tr><th>status</th><th>built</th><th>tags</th><th>commit</th>"
	      "<th>subject</th><th>files</th><th class=\"n\">lines in target</th></tr></thead><tbody>\n", f);
	for (size_t i = 0, shown = 0; i < u->nfixes && shown < HTML_FIXES_MAX; i++) {
		const td_upstream_fix_t *x = &u->fixes[i];
		int any = 0;
		if (x->status != TD_FIX_MISSING && x->status != TD_FIX_PARTIAL)
			continue;
		shown++;
		fprintf(f, "<tr><td>%s</td><td>%s</td><td>", td_fix_status_name(x->status),
			x->built < 0 ? "" : x->built ? "yes" : "no");
		if (x->tags.nfixes)
			fputs("Fixes", f), any = 1;
		if (x->tags.cc_stable)
			fputs(any ? ", stable" : "stable", f), any = 1;
		for (size_t k = 0; k < x->tags.ncves; k++) {
			fputs(any ? ", " : "", f);
			html_cstr(f, x->tags.cves[k]);
			any = 1;
		}
		fputs("</td><td>", f);
		html_commit(f, x->id);
		fputs("</td><td>", f);
		html_cstr(f, x->subject);
		/* what to take with it */
		if (x->nfixed_by) {
			fputs("<br><span class=\"note\">fixed later by ", f);
			td_report_fixed_by(f, x, html_commit);
			fputs("</span>", f);
		}
		fputs("</td><td>", f);
		td_report_fix_files(f, x, html_cstr);
		/* the files as in the base have none of its changes, their lines uncounted */
		fputs("</td><td class=\"n\">", f);
		if (x->lines || !x->files_as_in_base)
			fprintf(f, "%" PRIu64 " of %" PRIu64 "%s", x->lines_in_target, x->lines,
				x->files_as_in_base ? "; " : "");
		if (x->files_as_in_base)
			fprintf(f, "%zu %s as in the base", x->files_as_in_base,
				x->files_as_in_base == 1 ? "file" : "files");
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

/* A patch's files, under its subject: status, path, lines, distance, and
 * where an added one came from. */
static void write_patch_files(FILE *f, const td_patch_t *p)
{
	fputs("<details><summary>", f);
	if (p->subject && *p->subject)
		html_cstr(f, p->subject);
	else
		fputs("(no subject)", f);
	fputs("</summary><ul class=\"pf\">", f);
	for (size_t i = 0; i < p->nfiles; i++) {
		const td_patch_file_t *pf = &p->files[i];
		fprintf(f, "<li>%c ", pf->status);
		html_cstr(f, pf->path);
		if (pf->binary)
			fputs(" binary", f);
		else
			fprintf(f, " +%" PRIu64 " -%" PRIu64, pf->lines_added, pf->lines_removed);
		fprintf(f, ", distance %d", pf->distance);
		if (pf->copied_from) {
			fputs(" from ", f);
			html_cstr(f, pf->copied_from);
		}
		fputs("</li>", f);
	}
	fputs("</ul></details>", f);
}

/* With --patches: the patches, riskiest first (each with its files under
 * its subject), and how many changed files no patch explains; with
 * --history, each patch's origin as verified, and their counts. */
static int write_patches(FILE *f, const td_patch_set_t *s, const td_upstream_t *u, int policy)
{
	size_t *order;

	if (td_report_patch_order(&order, s))
		return TD_ENOMEM;
	if (u && u->npatches != s->count)
		u = NULL;
	fprintf(f, "<h2 id=\"patches\">Patches</h2>\n<p class=\"note\">%zu patches (%s, ", s->count, s->kind);
	html_cstr(f, s->source);
	fprintf(f, "), riskiest first; %zu changed files no patch explains, %zu the patches do not reproduce.",
		s->unexplained, s->not_reproduced);
	if (u) {
		fputs(" Against upstream: ", f);
		td_report_patch_matches(f, u);
		fputc('.', f);
	}
	if (s->rebase_onto) {
		fputs(" Rebase onto ", f);
		html_cstr(f, s->rebase_onto);
		fputs(", each patch in turn as git rebase applies a commit: ", f);
		td_report_rebase_counts(f, s);
		fputc('.', f);
	}
	fputs("</p>\n<div class=\"wide\"><table><thead><tr><th>patch</th><th>subject</th><th>origin</th>", f);
	if (u)
		fputs("<th>verified</th>", f);
	if (s->rebase_onto)
		fputs("<th>rebase</th>", f);
	fputs("<th class=\"n\">distance</th><th>class</th>", f);
	if (policy)
		fputs("<th class=\"n\">risk</th>", f);
	fputs("<th class=\"n\">files</th><th class=\"n\">+lines</th><th class=\"n\">-lines</th>"
	      "<th class=\"n\">surviving</th><th>where</th></tr></thead><tbody>\n", f);
	for (size_t k = 0; k < s->count; k++) {
		const td_patch_t *p = &s->patches[order[k]];
		const char *cls = td_class_name(p->cls);
		fputs("<tr><td>", f);
		html_commit(f, p->id);
		fputs("</td><td>", f);
		write_patch_files(f, p);
		fprintf(f, "</td><td>%s", td_patch_status_name(p->origin.status));
		if (p->origin.commit) {
			fputs(" ", f);
			html_commit(f, p->origin.commit);
		}
		if (u) {
			fputs("</td><td>", f);
			td_report_patch_verified(f, &u->patches[order[k]], html_commit);
		}
		if (s->rebase_onto) {
			fprintf(f, "</td><td>%s", td_report_rebase_word(p->rebase));
			if (p->rebase_file) {
				fputs(": ", f);
				td_report_rebase_conflict(f, p, html_cstr);
			}
		}
		fprintf(f, "</td><td class=\"n\">%d</td><td class=\"%s\">%s</td>", p->distance, class_css(p->cls),
			cls ? cls : "");
		if (policy) {
			char num[TD_REPORT_NUM_MAX];
			td_report_fixed(num, p->risk, 1);
			fprintf(f, "<td class=\"n\">%s</td>", num);
		}
		fprintf(f, "<td class=\"n\">%zu</td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%" PRIu64
			"</td><td class=\"n\">%" PRIu64 "</td><td>", p->nfiles, p->lines_added, p->lines_removed,
			p->lines_surviving);
		for (size_t i = 0; i < p->ntop_dirs; i++) {
			if (i)
				fputs(", ", f);
			html_cstr(f, p->top_dirs[i]);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
	free(order);
	return TD_OK;
}

/* ---- treemap ------------------------------------------------------- */

typedef struct map_item {
	const td_rollup_row_t *row;
	double value;
	double x, y, w, h;
} map_item_t;

typedef struct map_rect {
	double x, y, w, h;
} map_rect_t;

static double worst_ratio(const map_item_t *it, size_t n, double sum, double side, double scale)
{
	double worst = 0, area_sum = sum * scale, s2 = side * side;

	for (size_t i = 0; i < n; i++) {
		double a = it[i].value * scale, r;
		if (a <= 0)
			continue;
		r = s2 * a / (area_sum * area_sum);
		if (r < 1)
			r = 1 / r;
		if (r > worst)
			worst = r;
	}
	return worst;
}

/* Squarified layout (Bruls, Huizing, van Wijk 2000) of items sorted by value,
 * highest first, into rect. */
static void squarify(map_item_t *it, size_t n, map_rect_t rect)
{
	size_t i = 0;

	while (i < n) {
		double total = 0, sum, scale, side, thick, pos;
		size_t k;

		for (size_t j = i; j < n; j++)
			total += it[j].value;
		if (total <= 0 || rect.w <= 0 || rect.h <= 0)
			break;
		scale = rect.w * rect.h / total;
		side = rect.w < rect.h ? rect.w : rect.h;
		sum = it[i].value;
		for (k = i + 1; k < n; k++) {
			if (worst_ratio(it + i, k + 1 - i, sum + it[k].value, side, scale) >
			    worst_ratio(it + i, k - i, sum, side, scale))
				break;
			sum += it[k].value;
		}
		thick = sum * scale / side;
		pos = 0;
		for (size_t j = i; j < k; j++) {
			double len = it[j].value * scale / thick;
			if (rect.w >= rect.h) { /* a column at the left */
				it[j].x = rect.x, it[j].y = rect.y + pos, it[j].w = thick, it[j].h = len;
			} else {               /* a row at the top */
				it[j].x = rect.x + pos, it[j].y = rect.y, it[j].w = len, it[j].h = thick;
			}
			pos += len;
		}
		if (rect.w >= rect.h)
			rect.x += thick, rect.w -= thick;
		else
			rect.y += thick, rect.h -= thick;
		i = k;
	}
}

/* Round a laid-out box to whole units, edge by edge, so that neighbours
 * still meet. Coordinates are printed with "%.0f", which no locale changes
 * (there is no decimal point to localise). */
static void snap(map_item_t *it, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		double x0 = round(it[i].x), y0 = round(it[i].y);
		it[i].w = round(it[i].x + it[i].w) - x0;
		it[i].h = round(it[i].y + it[i].h) - y0;
		it[i].x = x0;
		it[i].y = y0;
	}
}

/* Green (no drift) through yellow to red at 1.5 x the dirty threshold. */
static int drift_hue(const td_rollup_row_t *row, const td_result_t *r)
{
	uint64_t scored = row->by_status[TD_STATUS_MODIFIED] + row->by_status[TD_STATUS_ADDED];
	double mean = scored ? (double)row->distance / (double)scored : 0;
	double top = 1.5 * (r->thresholds.dirty_above > 0 ? r->thresholds.dirty_above : 150);
	double x = mean / top;

	if (x > 1)
		x = 1;
	return (int)lround(120.0 * (1.0 - x));
}

static int is_child(const td_rollup_row_t *parent, const td_rollup_row_t *row)
{
	if (row->key_len < parent->key_len || memcmp(row->key, parent->key, parent->key_len))
		return 0;
	return row->key_len == parent->key_len || row->key[parent->key_len] == '/';
}

static void map_tooltip(FILE *f, const td_rollup_row_t *row)
{
	fputs("<title>", f);
	td_report_html_text(f, row->key, row->key_len);
	fprintf(f, ": distance %" PRIu64 ", %" PRIu64 " modified, %" PRIu64 " added, %" PRIu64
		" removed; %" PRIu64 " dirty</title>",
		row->distance, row->by_status[TD_STATUS_MODIFIED], row->by_status[TD_STATUS_ADDED],
		row->by_status[TD_STATUS_REMOVED], row->by_class[TD_CLASS_DIRTY]);
}

static void map_label(FILE *f, const map_item_t *m, const char *key, size_t key_len, double dy)
{
	/* about 6.5 units per character at 11px; leave short boxes bare */
	size_t fits = (size_t)((m->w - 6) / 6.5);

	if (m->h < 13 || fits < 3)
		return;
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">", m->x + 3, m->y + dy);
	if (key_len > fits) {
		/* cut at a UTF-8 boundary so the label stays well-formed */
		size_t cut = fits - 1;
		while (cut > 0 && ((unsigned char)key[cut] & 0xc0) == 0x80)
			cut--;
		td_report_html_text(f, key, cut);
		fputs("&hellip;", f);
	} else {
		td_report_html_text(f, key, key_len);
	}
	fputs("</text>", f);
}

static int write_treemap(FILE *f, const td_analysis_t *a)
{
	const td_result_t *r = a->result;
	const td_rollup_t *top = a->map_top, *sub = a->map_sub;
	map_item_t *items = NULL, *kids = NULL;
	size_t n = 0;
	int rc = TD_OK;

	if (!top || !sub)
		return TD_EINVAL;
	items = td_malloc_array(top->count ? top->count : 1, sizeof(*items));
	kids = td_malloc_array(sub->count ? sub->count : 1, sizeof(*kids));
	if (!items || !kids) {
		rc = TD_ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < top->count; i++)
		if (top->rows[i].distance) {
			items[n].row = &top->rows[i];
			items[n++].value = (double)top->rows[i].distance;
		}
	fputs("<h2 id=\"treemap\">Drift by directory</h2>\n", f);
	if (!n) {
		fputs("<p class=\"note\">No modified or added files.</p>\n", f);
		goto out;
	}
	fprintf(f, "<p class=\"note\">Area: total distance of the directory's modified and added files; "
		"colour: their mean distance, green 0 to red %d and over. Hover for details.</p>\n",
		(int)(1.5 * r->thresholds.dirty_above));
	fprintf(f, "<svg id=\"map\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f %.0f\" "
		"width=\"%.0f\" height=\"%.0f\" role=\"img\" aria-label=\"treemap of drift by directory\">\n",
		MAP_WIDTH, MAP_HEIGHT, MAP_WIDTH, MAP_HEIGHT);
	squarify(items, n, (map_rect_t){ 0, 0, MAP_WIDTH, MAP_HEIGHT });
	snap(items, n);
	for (size_t i = 0; i < n; i++) {
		map_item_t *m = &items[i];
		map_rect_t inner = { m->x + 1, m->y + MAP_LABEL_HEIGHT, m->w - 2, m->h - MAP_LABEL_HEIGHT - 1 };
		size_t nk = 0;

		fputs("<g>", f);
		map_tooltip(f, m->row);
		fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"hsl(%d,55%%,42%%)\" "
			"stroke=\"#fff\"/>", m->x, m->y, m->w, m->h, drift_hue(m->row, r));
		if (inner.h > 8 && inner.w > 8) {
			for (size_t j = 0; j < sub->count; j++)
				if (sub->rows[j].distance && is_child(m->row, &sub->rows[j])) {
					kids[nk].row = &sub->rows[j];
					kids[nk++].value = (double)sub->rows[j].distance;
				}
			squarify(kids, nk, inner);
			snap(kids, nk);
			for (size_t j = 0; j < nk; j++) {
				const td_rollup_row_t *k = kids[j].row;
				size_t skip = m->row->key_len < k->key_len ? m->row->key_len + 1 : 0;
				fputs("<g>", f);
				map_tooltip(f, k);
				fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" "
					"fill=\"hsl(%d,65%%,62%%)\" stroke=\"#fff\" stroke-width=\"0.5\"/>",
					kids[j].x, kids[j].y, kids[j].w, kids[j].h, drift_hue(k, r));
				if (skip) /* a child that is the directory itself stays bare */
					map_label(f, &kids[j], k->key + skip, k->key_len - skip, 11);
				fputs("</g>", f);
			}
		}
		map_label(f, m, m->row->key, m->row->key_len, 11);
		fputs("</g>\n", f);
	}
	fputs("</svg>\n", f);
out:
	free(items);
	free(kids);
	return rc;
}

/* ---- histogram ----------------------------------------------------- */

static const char *bin_fill(int lo, const td_thresholds_t *t)
{
	switch (td_classify(lo, t)) {
	case TD_CLASS_CLEAN: return "#2da44e";
	case TD_CLASS_SAFE: return "#d4a72c";
	default: return "#cf222e";
	}
}

static void write_histogram(FILE *f, const td_result_t *r)
{
	uint64_t bins[HIST_BINS] = { 0 }, max = 0;
	const double left = 50, bottom = HIST_HEIGHT - 30, top = 10;
	const double bw = (HIST_WIDTH - left - 10) / HIST_BINS;
	const int marks[2] = { r->thresholds.clean_below, r->thresholds.dirty_above + 1 };

	for (size_t i = 0; i < r->count; i++) {
		const td_change_t *c = &r->changes[i];
		int b;
		if (c->status != TD_STATUS_MODIFIED)
			continue;
		b = c->distance < 0 ? 0 : c->distance / HIST_BIN;
		if (b >= HIST_BINS)
			b = HIST_BINS - 1;
		bins[b]++;
	}
	for (int b = 0; b < HIST_BINS; b++)
		if (bins[b] > max)
			max = bins[b];
	fputs("<h2 id=\"histogram\">Distances of modified files</h2>\n"
	      "<p class=\"note\">Files per distance band of 10, on a square-root scale; the dashed lines are "
	      "the class thresholds.</p>\n", f);
	fprintf(f, "<svg id=\"hist\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f %.0f\" "
		"width=\"%.0f\" height=\"%.0f\" role=\"img\" aria-label=\"histogram of distances\">\n",
		HIST_WIDTH, HIST_HEIGHT, HIST_WIDTH, HIST_HEIGHT);
	fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#444\"/>\n", left, bottom,
		HIST_WIDTH - 10, bottom);
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%" PRIu64 "</text>"
		"<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%" PRIu64 "</text>"
		"<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">0</text>\n",
		left - 4, top + 8, max, left - 4, bottom - (bottom - top) / 2 + 4, max / 4, left - 4, bottom);
	for (int b = 0; b < HIST_BINS; b++) {
		/* square-root scale: the few far files stay visible beside the many near ones */
		double h = max ? sqrt((double)bins[b] / (double)max) * (bottom - top) : 0;
		double x = left + b * bw;
		if (bins[b] && h < 1)
			h = 1;
		fprintf(f, "<rect class=\"bar\" x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"%s\">"
			"<title>%d%s: %" PRIu64 " files</title></rect>\n",
			x + 1, bottom - h, bw - 2, h, bin_fill(b * HIST_BIN, &r->thresholds), b * HIST_BIN,
			b == HIST_BINS - 1 ? " and over" : "", bins[b]);
		if (b % 5 == 0)
			fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">%d</text>\n", x,
				bottom + 14, b * HIST_BIN);
	}
	for (int m = 0; m < 2; m++) {
		double x = left + (double)marks[m] / HIST_BIN * bw;
		if (x > HIST_WIDTH - 10)
			continue;
		fprintf(f, "<line class=\"threshold\" x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" "
			"stroke=\"#000\" stroke-dasharray=\"4 3\"/><text x=\"%.0f\" y=\"%.0f\">%s %d</text>\n",
			x, top, x, bottom, x + 3, top + 10 + 12 * m, m ? "dirty &gt;" : "clean &lt;",
			m ? marks[m] - 1 : marks[m]);
	}
	fputs("</svg>\n", f);
	fprintf(f, "<p class=\"note\">%" PRIu64 " added files are not shown: a new file scores %s.</p>\n",
		r->totals.added, "its distance from its nearest upstream file, or the added-file score");
}

/* ---- table --------------------------------------------------------- */

/* The lines cell: "+A −R" (sorted by A + R), binary or missing. */
static void write_lines(FILE *f, const td_change_t *c)
{
	char text[TD_LINES_TEXT_MAX];

	if (c->lines == TD_LINES_COUNTED)
		fprintf(f, "<td data-v=\"%" PRIu64 "\">%s", c->lines_added + c->lines_removed,
			td_lines_text(text, c));
	else
		fprintf(f, "<td>%s", td_lines_text(text, c));
}

/* The path cell's shading: the upstream share of the changed lines, from
 * the left, and the split as its tooltip. */
static void write_provenance_cell(FILE *f, const td_file_provenance_t *fp)
{
	uint64_t up, lo;
	unsigned pct;

	if (!fp)
		return;
	up = fp->added_upstream + fp->removed_upstream;
	lo = fp->added_local + fp->removed_local;
	pct = up + lo ? (unsigned)((up * 100 + (up + lo) / 2) / (up + lo)) : 0;
	fprintf(f, " data-p=\"%s\" style=\"background:linear-gradient(90deg,#cfe8ff %u%%,#ffe4cc %u%%)\" "
		   "title=\"upstream %" PRIu64 " lines, local %" PRIu64 " lines; upstream distance %d, local "
		   "distance %d\"",
		fp->state != TD_PROV_DONE || !up ? "local" : lo ? "mixed" : "upstream", pct, pct, up, lo,
		fp->distance_upstream, fp->distance_local);
}

static void write_row(FILE *f, const td_change_t *c, int policy, const td_file_provenance_t *fp)
{
	const td_file_t *file = td_report_change_file(c);
	int scored = td_report_is_scored(c);
	const char *cls = scored ? td_class_name(c->cls) : NULL;
	int64_t delta = 0;

	if (c->upstream && c->target)
		delta = (int64_t)c->target->size_bytes - (int64_t)c->upstream->size_bytes;
	else if (c->target)
		delta = (int64_t)c->target->size_bytes;
	else if (c->upstream)
		delta = -(int64_t)c->upstream->size_bytes;
	fprintf(f, "<tr data-s=\"%s\" data-c=\"%s\"><td", td_status_name(c->status), cls ? cls : "");
	write_provenance_cell(f, fp);
	fputc('>', f);
	html_path(f, file);
	fprintf(f, "<td>%s<td>%s<td>", td_report_status_word(c), cls ? cls : "");
	if (scored)
		fprintf(f, "%d", c->distance);
	fputs("<td>", f);
	if (policy && c->policy_class)
		html_cstr(f, c->policy_class);
	if (policy) {
		fputs("<td>", f);
		if (scored && isfinite(c->risk)) {
			char num[TD_REPORT_NUM_MAX];
			td_report_fixed(num, c->risk, 1);
			fputs(num, f);
		}
	}
	fprintf(f, "<td>%s%" PRId64, delta > 0 ? "+" : "", delta);
	write_lines(f, c);
	fputs("<td>", f);
	if (c->origin && (c->origin_kind == TD_ORIGIN_MOVED || c->origin_kind == TD_ORIGIN_COPIED)) {
		char sim[TD_REPORT_NUM_MAX];
		html_path(f, c->origin);
		fputs(c->origin_kind == TD_ORIGIN_MOVED ? " (moved)" : " (copied)", f);
		if (c->origin_kind == TD_ORIGIN_COPIED && *td_report_similarity(sim, c))
			fprintf(f, " similarity %s", sim);
	}
	if (c->matches_version) {
		fputs(c->version_match == TD_VERSION_MATCH_ROLLBACK ? " rollback to " : " backport of ", f);
		html_cstr(f, c->matches_version);
	}
	fputs("\n", f);
}

static void write_table(FILE *f, const td_result_t *r, const size_t *idx, size_t n, int policy,
			const td_provenance_t *prov)
{
	fputs("<h2 id=\"files-title\">Files</h2>\n"
	      "<div id=\"ctl\" hidden><label>path contains <input id=\"q\" type=\"search\"></label>"
	      "<label>class <select id=\"fc\"><option value=\"\">any</option><option>clean</option>"
	      "<option>safe</option><option>dirty</option><option>new</option></select></label>"
	      "<label>status <select id=\"fs\"><option value=\"\">any</option><option>modified</option>"
	      "<option>added</option><option>removed</option><option>skipped</option>"
	      "<option>identical</option></select></label><span id=\"count\"></span></div>\n", f);
	fprintf(f, "<p class=\"note\">%zu files listed; with JavaScript, click a column to sort.", n);
	if (prov)
		fputs(" A path's shading is the share of its changed lines that upstream made too "
		      "(<span style=\"background:#cfe8ff\">upstream</span>, from the left) and the vendor's own "
		      "(<span style=\"background:#ffe4cc\">local</span>).", f);
	fputs("</p>\n", f);
	fprintf(f, "<table id=\"files\"%s><colgroup><col style=\"width:%s\"><col style=\"width:6em\">"
		"<col style=\"width:4em\"><col style=\"width:6.5em\"><col style=\"width:7em\">%s"
		"<col style=\"width:6em\"><col style=\"width:7em\"><col style=\"width:22%%\"></colgroup>\n",
		policy ? " class=\"pol\"" : "", policy ? "40%" : "45%", policy ? "<col style=\"width:5em\">" : "");
	fputs("<thead><tr><th data-col=\"path\">path</th><th data-col=\"status\">status</th>"
	      "<th data-col=\"class\">class</th><th data-col=\"distance\" class=\"n\">distance</th>"
	      "<th data-col=\"policy\">policy class</th>", f);
	if (policy)
		fputs("<th data-col=\"risk\" class=\"n\">risk</th>", f);
	fputs("<th data-col=\"size\" class=\"n\">size change</th><th data-col=\"lines\" class=\"n\">lines</th>"
	      "<th data-col=\"origin\">nearest upstream</th></tr></thead>\n<tbody>\n", f);
	for (size_t i = 0; i < n; i++)
		write_row(f, &r->changes[idx[i]], policy, td_provenance_find(prov, idx[i]));
	fputs("</tbody></table>\n", f);
}

int td_report_html(FILE *f, const td_analysis_t *a, const td_view_t *v)
{
	const td_result_t *r = a ? a->result : NULL;
	size_t *idx = NULL, n = 0;
	int policy, rc;

	if (!f || !r)
		return TD_EINVAL;
	if ((rc = td_view_select(&idx, &n, r, v)))
		return rc;
	policy = td_report_has_policy(r);
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
	      "<meta name=\"generator\" content=\"treedrift ", f);
	html_cstr(f, td_version());
	fputs("\">\n<title>treedrift: ", f);
	html_cstr(f, r->target && r->target->meta.label ? r->target->meta.label : "target");
	fputs(" against ", f);
	html_cstr(f, r->base_version ? r->base_version :
		     r->upstream && r->upstream->meta.label ? r->upstream->meta.label : "upstream");
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>treedrift report</h1>\n", css);
	write_summary(f, a, policy);
	write_provenance_summary(f, a);
	if (a->policy_rollup)
		write_policy_rollup(f, a->policy_rollup);
	if ((rc = write_treemap(f, a)))
		goto out;
	write_histogram(f, r);
	if (a->patches && (rc = write_patches(f, a->patches, a->upstream, policy)))
		goto out;
	if (a->upstream)
		write_missing_fixes(f, a->upstream);
	write_table(f, r, idx, n, policy, a->provenance);
	fprintf(f, "<script>\n%s</script>\n</body></html>\n", script);
	rc = td_report_finish(f);
out:
	free(idx);
	return rc;
}
