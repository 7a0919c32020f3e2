/* treedrift distance: the TLSH distance of two digests, as the reference's
 * `tlsh -c DIGEST -d DIGEST` computes it (with -xlen for --no-length). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "treedrift/tlsh.h"

static const cli_opt_t distance_opts[] = {
	{ "no-length", 0, NULL, "leave out the file-length term (the reference's -xlen)" },
	CLI_OPT_END
};

int cmd_distance(int argc, char **argv)
{
	td_tlsh_t digest[2];
	cli_parser_t p;
	int len_diff = 1, c, ret = CLI_EXIT_SAME;

	if (cli_parser_init(&p, distance_opts, "treedrift distance [--no-length] DIGEST DIGEST",
			    "Print the TLSH distance between two digests: 0 for near-identical inputs,\n"
			    "growing as they differ. A digest is 70 hex digits, with or without \"T1\".",
			    argc, argv))
		return cli_error("out of memory");
	while ((c = cli_parser_next(&p)) != CLI_PARSE_DONE) {
		if (cli_parser_stop(c, &ret))
			goto out;
		if (c == cli_opt_index(distance_opts, "no-length"))
			len_diff = 0;
	}
	if (p.argc != 2) {
		cli_print_usage(stderr, &p);
		ret = CLI_EXIT_ERROR;
		goto out;
	}
	for (int i = 0; i < 2; i++) {
		if (td_tlsh_parse(&digest[i], p.argv[i], strlen(p.argv[i]))) {
			ret = cli_error("'%s' is not a TLSH digest", p.argv[i]);
			goto out;
		}
	}
	printf("%d\n", td_tlsh_distance(&digest[0], &digest[1], len_diff));
	if (fflush(stdout) || ferror(stdout))
		ret = cli_error("unable to write output");
out:
	cli_parser_release(&p);
	return ret;
}
