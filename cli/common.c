/* Option handling and terminal output shared by the commands. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "treedrift/text.h"

int cli_parse_size(const char *s, unsigned long long *out)
{
	char *end;
	unsigned long long v, mul = 1;

	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case '\0': break;
	case 'k': case 'K': mul = 1ull << 10; end++; break;
	case 'm': case 'M': mul = 1ull << 20; end++; break;
	case 'g': case 'G': mul = 1ull << 30; end++; break;
	case 't': case 'T': mul = 1ull << 40; end++; break;
	default: return -1;
	}
	if (*end == 'i' || *end == 'B')
		end += *end == 'i' && end[1] == 'B' ? 2 : 1;
	if (*end || v > ~0ull / mul)
		return -1;
	*out = v * mul;
	return 0;
}

void cli_load_opts_init(td_load_opts_t *o)
{
	td_load_opts_init(o);
	o->source.max_file_size = CLI_DEFAULT_MAX_FILE_SIZE;
}

int cli_tree_opt(const char *name, const char *arg, td_load_opts_t *o, int *quiet)
{
	unsigned long long v;

	if (!strcmp(name, "repo")) {
		if (!*arg)
			return cli_error("--repo takes a repository path"), -1;
		o->source.repo = arg;
	} else if (!strcmp(name, "jobs")) {
		if (cli_parse_uint(arg, 256, &v) || !v)
			return cli_error("--jobs takes a number from 1 to 256, not '%s'", arg), -1;
		o->scan.jobs = (unsigned)v;
	} else if (!strcmp(name, "strip-components")) {
		if (cli_parse_uint(arg, 1000, &v))
			return cli_error("--strip-components takes a number, not '%s'", arg), -1;
		o->source.strip_components = (unsigned)v;
	} else if (!strcmp(name, "no-auto-strip")) {
		o->source.no_auto_strip = 1;
	} else if (!strcmp(name, "keep-going")) {
		o->source.keep_going = 1;
	} else if (!strcmp(name, "max-file-size")) {
		if (!strcmp(arg, "none") || !strcmp(arg, "0"))
			v = 0; /* no limit */
		else if (cli_parse_size(arg, &v) || !v)
			return cli_error("--max-file-size takes a size such as 64M, or none, not '%s'", arg), -1;
		o->source.max_file_size = v;
	} else if (!strcmp(name, "max-entries")) {
		if (!strcmp(arg, "none"))
			v = UINT64_MAX;
		else if (cli_parse_uint(arg, UINT64_MAX - 1, &v) || !v)
			return cli_error("--max-entries takes a number, or none, not '%s'", arg), -1;
		o->source.max_entries = v;
	} else if (!strcmp(name, "quiet")) {
		*quiet = 1;
	} else {
		return 0;
	}
	return 1;
}

double cli_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void cli_progress_init(cli_progress_t *p, const char *what, int quiet)
{
	memset(p, 0, sizeof(*p));
	p->enabled = !quiet && isatty(STDERR_FILENO);
	p->what = what;
	p->start = cli_now_s();
	p->line = p;
}

void cli_progress_sides(cli_progress_t *up, cli_progress_t *tgt, td_load_opts_t *lo, int quiet)
{
	cli_progress_init(up, "reading upstream", quiet);
	cli_progress_init(tgt, "reading target", quiet);
	tgt->line = up;
	lo->scan.progress = cli_progress_cb;
	lo->scan.progress_ctx = up;
	lo->progress_ctx_target = tgt;
}

static void human_bytes(char *buf, size_t n, double b)
{
	const char *units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;
	while (b >= 1024 && u < 4)
		b /= 1024, u++;
	snprintf(buf, n, u ? "%.1f %s" : "%.0f %s", b, units[u]);
}

void cli_progress_cb(void *ctx, uint64_t files_done, uint64_t files_total,
		     uint64_t bytes_done, uint64_t bytes_total)
{
	cli_progress_t *p = ctx;
	double el;
	char done[32], speed[32], eta_text[32] = "";
	int width = 30, timed;

	if (!p->enabled)
		return;
	if (files_total != p->phase_total || p->line->last != p) {
		/* a new pass (e.g. TLSH after SHA-256) or the other side: its own rate */
		p->phase_total = files_total;
		p->start = cli_now_s();
		p->line->last = p;
	}
	el = cli_now_s() - p->start;
	timed = el >= CLI_PROGRESS_RATE_AFTER;
	human_bytes(done, sizeof(done), (double)bytes_done);
	speed[0] = '\0';
	if (timed) {
		double rate = bytes_done / el;
		char r[24];
		human_bytes(r, sizeof(r), rate);
		snprintf(speed, sizeof(speed), ", %s/s", r);
		if (files_total && bytes_total) {
			double eta = rate > 0 ? (bytes_total - bytes_done) / rate : 0;
			unsigned secs;
			if (eta > 99 * 3600.0) /* a stalled start: keep the field short */
				eta = 99 * 3600.0;
			/* whole seconds, rounded up: 0m00s only when nothing is left */
			secs = (unsigned)eta + (eta > (unsigned)eta);
			snprintf(eta_text, sizeof(eta_text), ", ETA %um%02us", secs / 60, secs % 60);
		}
	}
	/* \033[K: what a longer line drawn before left stays not */
	if (files_total && bytes_total) {
		double frac = (double)bytes_done / (double)bytes_total;
		int fill = (int)(frac * width);
		char bar[64];
		if (fill > width)
			fill = width;
		memset(bar, '#', (size_t)fill);
		memset(bar + fill, '.', (size_t)(width - fill));
		bar[width] = '\0';
		fprintf(stderr, "\r%s [%s] %llu/%llu files, %s%s%s\033[K", p->what, bar,
			(unsigned long long)files_done, (unsigned long long)files_total, done, speed, eta_text);
	} else {
		fprintf(stderr, "\r%s %llu files, %s%s\033[K", p->what, (unsigned long long)files_done, done,
			speed);
	}
	p->line->drawn = 1;
}

void cli_progress_done(cli_progress_t *p)
{
	if (p->enabled && p->line->drawn)
		fputs("\r\033[K", stderr);
	p->line->drawn = 0;
}

void cli_fput_path(FILE *f, const char *path, size_t len)
{
	td_text_escape(f, path, len);
}

char *cli_escaped(const char *s)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);

	if (!m)
		return NULL;
	cli_fput_path(m, s, strlen(s));
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return buf;
}

size_t cli_escaped_len(const char *s)
{
	char *e = cli_escaped(s);
	size_t n = e ? strlen(e) : strlen(s);

	free(e);
	return n;
}

void cli_fput_cell(FILE *f, const char *s, int width)
{
	size_t n = strlen(s);

	cli_fput_path(f, s, n);
	for (int pad = width - (int)cli_escaped_len(s); pad > 0; pad--)
		fputc(' ', f);
}

void cli_warn_skipped(const td_tree_t *tree, const char *side, int quiet)
{
	if (quiet)
		return;
	for (size_t i = 0; i < tree->count; i++) {
		const td_file_t *f = &tree->files[i];
		if (f->type == TD_ENTRY_SYMLINK && f->skip_detail) {
			/* recorded, never followed: worth a note all the same */
			fprintf(stderr, "treedrift: warning: %s%ssymlink '", side ? side : "", side ? ": " : "");
			cli_fput_path(stderr, f->path, f->path_len);
			fputs("' ", stderr);
			cli_fput_path(stderr, f->skip_detail, strlen(f->skip_detail));
			fputs(": ", stderr);
			cli_fput_path(stderr, f->link_target ? f->link_target : "", f->link_len);
			fputc('\n', stderr);
			continue;
		}
		if (f->type != TD_ENTRY_SKIPPED)
			continue;
		fprintf(stderr, "treedrift: warning: %s%sskipped '", side ? side : "", side ? ": " : "");
		cli_fput_path(stderr, f->path, f->path_len);
		fputs("': ", stderr);
		cli_fput_path(stderr, f->skip_reason ? f->skip_reason : "unknown",
			      strlen(f->skip_reason ? f->skip_reason : "unknown"));
		if (f->skip_detail) {
			fputs(": ", stderr);
			cli_fput_path(stderr, f->skip_detail, strlen(f->skip_detail));
		}
		fputc('\n', stderr);
	}
}
