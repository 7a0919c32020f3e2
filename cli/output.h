/* Every file the CLI writes as a command's output (compare -o, trend --svg)
 * goes through here, so that all of them follow the same rules (see
 * doc/formats.md, "Output files"):
 * - a regular file, or a new one, is written to a temporary file beside it
 *   and renamed into place when complete: a reader sees the old file or the
 *   new one, and a failed run leaves the old one as it was. The temporary
 *   file is unnamed (O_TMPFILE) until it is complete, so that even a run
 *   killed by SIGKILL leaves nothing behind; where the file system has no
 *   such files it is created with O_EXCL (a planted symlink is never
 *   followed);
 * - anything else (a device such as /dev/null, a FIFO, a terminal) and a
 *   symlink are opened as they are, as a shell redirection would open them,
 *   and written in place: never renamed over, never unlinked;
 * - an output that is one of the run's inputs (the same path, or the same
 *   file by st_dev and st_ino) is refused before anything is written;
 * - only what this run created is ever removed.
 * Messages name the output as the user gave it, never the temporary file. */
#ifndef TD_CLI_OUTPUT_H
#define TD_CLI_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

typedef struct cli_output {
	FILE *f;           /* where to write; stdout when there is no path */
	const char *path;  /* as given (borrowed); NULL for stdout */
	char *tmp;         /* the temporary file to rename to path; NULL when written in place */
	int unnamed;       /* tmp is not made yet: the file is unnamed (O_TMPFILE) until the commit */
} cli_output_t;

/* Open path for writing (NULL: stdout). inputs[0..n_inputs): the paths or
 * specs the run reads (NULL entries are skipped; "archive:" and "git:"
 * prefixes are understood), which the output may not be. 0, or CLI_EXIT_ERROR
 * after a message. */
int cli_output_open(cli_output_t *o, const char *path, const char *const *inputs, size_t n_inputs);
/* Flush, close and put the output in place. 0, or CLI_EXIT_ERROR after a
 * message (the temporary file removed). o is released either way. */
int cli_output_commit(cli_output_t *o);
/* Give up: close, and remove the temporary file if there is one; what was
 * there before stays as it was. No-op on a released or zeroed o. */
void cli_output_abort(cli_output_t *o);

#endif
