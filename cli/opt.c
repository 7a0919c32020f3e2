#include <getopt.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "treedrift/text.h"

#define CLI_OPT_BASE 256

typedef struct parser_impl {
	struct option *longopts;
	char *shortopts;
	int help_index;
} parser_impl_t;

int cli_opt_index(const cli_opt_t *opts, const char *name)
{
	for (int i = 0; opts[i].name; i++)
		if (!strcmp(opts[i].name, name))
			return i;
	return -1;
}

int cli_parser_init(cli_parser_t *p, const cli_opt_t *opts, const char *usage,
		    const char *summary, int argc, char **argv)
{
	parser_impl_t *impl;
	size_t n = 0, s = 0;

	while (opts[n].name)
		n++;
	memset(p, 0, sizeof(*p));
	p->opts = opts;
	p->usage = usage;
	p->summary = summary;
	p->argc = argc;
	p->argv = argv;
	impl = calloc(1, sizeof(*impl));
	if (!impl)
		return -1;
	impl->longopts = calloc(n + 3, sizeof(struct option));
	impl->shortopts = calloc(2 * n + 4, 1);
	if (!impl->longopts || !impl->shortopts) {
		free(impl->longopts);
		free(impl->shortopts);
		free(impl);
		return -1;
	}
	impl->shortopts[s++] = ':';
	for (size_t i = 0; i < n; i++) {
		impl->longopts[i].name = opts[i].name;
		impl->longopts[i].has_arg = opts[i].metavar ? required_argument : no_argument;
		impl->longopts[i].val = CLI_OPT_BASE + (int)i;
		if (opts[i].short_name) {
			impl->shortopts[s++] = (char)opts[i].short_name;
			if (opts[i].metavar)
				impl->shortopts[s++] = ':';
		}
	}
	impl->help_index = (int)n;
	impl->longopts[n].name = "help";
	impl->longopts[n].has_arg = no_argument;
	impl->longopts[n].val = CLI_OPT_BASE + (int)n;
	/* hidden: the option table for the shell completion (completion/treedrift.bash) */
	impl->longopts[n + 1].name = "list-options";
	impl->longopts[n + 1].has_arg = no_argument;
	impl->longopts[n + 1].val = CLI_OPT_BASE + (int)n + 1;
	p->impl = impl;
	optind = 1;
	opterr = 0;
	return 0;
}

void cli_parser_release(cli_parser_t *p)
{
	parser_impl_t *impl = p->impl;
	if (impl) {
		free(impl->longopts);
		free(impl->shortopts);
		free(impl);
	}
	p->impl = NULL;
}

static int short_to_index(const cli_opt_t *opts, int c)
{
	for (int i = 0; opts[i].name; i++)
		if (opts[i].short_name == c)
			return i;
	return -1;
}

int cli_parser_next(cli_parser_t *p)
{
	parser_impl_t *impl = p->impl;
	char **argv = p->argv;
	int c, idx;

	c = getopt_long(p->argc, argv, impl->shortopts, impl->longopts, NULL);
	if (c == -1) {
		p->argc -= optind;
		p->argv += optind;
		return CLI_PARSE_DONE;
	}
	if (c == '?' || c == ':') {
		const char *what = argv[optind - 1];
		if (c == ':')
			cli_error("option '%s' needs an argument", what);
		else if (optopt && optopt < CLI_OPT_BASE)
			cli_error("unknown option '-%c'", optopt);
		else
			cli_error("unknown option '%s'", what);
		fprintf(stderr, "Try 'treedrift %s --help'.\n", argv[0]);
		return CLI_PARSE_ERROR;
	}
	idx = c >= CLI_OPT_BASE ? c - CLI_OPT_BASE : short_to_index(p->opts, c);
	if (idx == impl->help_index) {
		cli_print_usage(stdout, p);
		return CLI_PARSE_HELP;
	}
	if (idx == impl->help_index + 1) {
		cli_print_options(stdout, p->opts);
		return CLI_PARSE_HELP;
	}
	p->arg = optarg;
	return idx;
}

void cli_print_usage(FILE *f, const cli_parser_t *p)
{
	fprintf(f, "usage: %s\n\n%s\n\noptions:\n", p->usage, p->summary);
	for (int i = 0; p->opts[i].name; i++) {
		char left[64];
		const cli_opt_t *o = &p->opts[i];
		if (o->short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", o->short_name, o->name,
				 o->metavar ? " " : "", o->metavar ? o->metavar : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->name,
				 o->metavar ? " " : "", o->metavar ? o->metavar : "");
		fprintf(f, "  %-28s %s\n", left, o->help);
	}
	fprintf(f, "  %-28s %s\n", "    --help", "print this help and exit");
}

void cli_print_options(FILE *f, const cli_opt_t *opts)
{
	for (int i = 0; opts[i].name; i++) {
		fprintf(f, "--%s%s%s\n", opts[i].name, opts[i].metavar ? " " : "",
			opts[i].metavar ? opts[i].metavar : "");
		if (opts[i].short_name)
			fprintf(f, "-%c%s%s\n", opts[i].short_name, opts[i].metavar ? " " : "",
				opts[i].metavar ? opts[i].metavar : "");
	}
	fputs("--help\n", f);
}

/* "treedrift: " + prefix + the message, escaped, + newline. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 0)))
#endif
static void vmessage(const char *prefix, const char *fmt, va_list ap);

static void vmessage(const char *prefix, const char *fmt, va_list ap)
{
	char buf[1024], *text = buf;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n >= (int)sizeof(buf) && (text = malloc((size_t)n + 1)))
		vsnprintf(text, (size_t)n + 1, fmt, again);
	else if (n >= (int)sizeof(buf))
		text = buf, n = (int)sizeof(buf) - 1; /* out of memory: the message cut */
	va_end(again);
	fputs("treedrift: ", stderr);
	fputs(prefix, stderr);
	if (n > 0)
		td_text_escape(stderr, text, (size_t)n);
	fputc('\n', stderr);
	if (text != buf)
		free(text);
}

int cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("", fmt, ap);
	va_end(ap);
	return CLI_EXIT_ERROR;
}

void cli_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("", fmt, ap);
	va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("warning: ", fmt, ap);
	va_end(ap);
}

int cli_lib_error(const td_error_t *err)
{
	return cli_error("%s", err->msg[0] ? err->msg : td_strerror(err->code));
}

int cli_parse_uint(const char *s, unsigned long long max, unsigned long long *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

int cli_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

int cli_parser_stop(int opt, int *rc)
{
	if (opt == CLI_PARSE_HELP)
		*rc = CLI_EXIT_SAME;
	else if (opt == CLI_PARSE_ERROR)
		*rc = CLI_EXIT_ERROR;
	else
		return 0;
	return 1;
}

int cli_parse_score(const char *name, const char *arg, int *out)
{
	unsigned long long v;

	if (cli_parse_uint(arg, 100000, &v))
		return cli_error("--%s takes a whole number, not '%s'", name, arg), -1;
	*out = (int)v;
	return 0;
}
