/* MAINTAINERS: sections, F:/X: patterns read as get_maintainer.pl reads them,
 * the most specific section winning, and errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "treedrift/maintainers.h"

static const char sample[] =
	"List of maintainers and how to submit kernel changes\n"
	"====================================================\n"
	"\n"
	"Descriptions of section entries and preferred order\n"
	"---------------------------------------------------\n"
	"\n"
	"\tM: *Mail* patches to: FullName <address@domain>\n"
	"\tF: *Files* and directories wildcard patterns.\n"
	"\t   F:\tdrivers/net/\tall files in and below drivers/net\n"
	"\n"
	"Maintainers List\n"
	"----------------\n"
	"\n"
	"3C59X NETWORK DRIVER\n"
	"M:\tSomeone <a@b>\n"
	"S:\tOdd Fixes\n"
	"F:\tDocumentation/networking/vortex.rst\n"
	"F:\tdrivers/net/ethernet/3com/3c59x.c\n"
	"\n"
	"3CR990 NETWORK DRIVER\n"
	"F:\tdrivers/net/ethernet/3com/typhoon*\n"
	"\n"
	"NETWORKING DRIVERS\n"
	"L:\tnetdev@vger.kernel.org\n"
	"F:\tdrivers/net/\n"
	"X:\tdrivers/net/wireless/\n"
	"\n"
	"NETWORKING [WIRELESS]\n"
	"F:\tdrivers/net/wireless/\n"
	"\n"
	"ACPI FOR ARM64 (ACPI/arm64)\n"
	"F:\tdrivers/acpi/arm64\n"
	"\n"
	"ALTERA EDAC\n"
	"F:\tdrivers/edac/altera_edac.[ch]\n"
	"\n"
	"ANY TOP NET\n"
	"F:\t*/net/*\n"
	"\n"
	"SCHEDULER\n"
	"F:\tkernel/sched/\n"
	"F:\tinclude/linux/sched.h\n"
	"N:\tsched\n"
	"\n"
	"KERNEL BUILD\n"
	"F:\tMakefile\n"
	"F:\tscripts/Makefile.*\r\n"
	"\n"
	"NO FILES\n"
	"M:\tNobody <n@n>\n"
	"\n"
	"THE REST\n"
	"M:\tLinus <l@l>\n"
	"F:\t*\n"
	"F:\t*/\n";

static td_maintainers_t *load(const char *text)
{
	td_maintainers_t *m = NULL;
	td_error_t err = { 0 };

	CHECK_INT(td_maintainers_parse(&m, text, strlen(text), "MAINTAINERS", &err), 0);
	if (!m)
		fprintf(stderr, "  %s\n", err.msg);
	return m;
}

static const char *sub(const td_maintainers_t *m, const char *path)
{
	const char *s = td_maintainers_lookup(m, path, strlen(path));

	return s ? s : "(null)";
}

static void test_sample(void)
{
	td_maintainers_t *m = load(sample);

	if (!m)
		return;
	/* "NO FILES" has no F: line; the prose above the list makes no section */
	CHECK_INT(td_maintainers_count(m), 10);
	CHECK_STR(sub(m, "drivers/net/ethernet/3com/3c59x.c"), "3C59X NETWORK DRIVER");
	CHECK_STR(sub(m, "Documentation/networking/vortex.rst"), "3C59X NETWORK DRIVER");
	CHECK_STR(sub(m, "drivers/net/ethernet/3com/typhoon.c"), "3CR990 NETWORK DRIVER");
	CHECK_STR(sub(m, "drivers/net/ethernet/3com/typhoon.h"), "3CR990 NETWORK DRIVER");
	CHECK_STR(sub(m, "drivers/net/ethernet/3com/Makefile"), "NETWORKING DRIVERS");
	CHECK_STR(sub(m, "drivers/net/phy/phy.c"), "NETWORKING DRIVERS");
	/* X: leaves wireless out of NETWORKING DRIVERS, and it has its own section */
	CHECK_STR(sub(m, "drivers/net/wireless/ath/main.c"), "NETWORKING [WIRELESS]");
	/* a plain name that is a directory */
	CHECK_STR(sub(m, "drivers/acpi/arm64/iort.c"), "ACPI FOR ARM64 (ACPI/arm64)");
	CHECK_STR(sub(m, "drivers/acpi/arm64"), "ACPI FOR ARM64 (ACPI/arm64)");
	CHECK_STR(sub(m, "drivers/acpi/arm64x.c"), "THE REST");
	CHECK_STR(sub(m, "drivers/edac/altera_edac.c"), "ALTERA EDAC");
	CHECK_STR(sub(m, "drivers/edac/altera_edac.h"), "ALTERA EDAC");
	CHECK_STR(sub(m, "drivers/edac/altera_edac.o"), "THE REST");
	/* '*' stays within one part: */
	CHECK_STR(sub(m, "include/net/sock.h"), "ANY TOP NET");
	CHECK_STR(sub(m, "include/net/x/sock.h"), "THE REST");
	CHECK_STR(sub(m, "net/core/dev.c"), "THE REST");
	CHECK_STR(sub(m, "kernel/sched/core.c"), "SCHEDULER");
	CHECK_STR(sub(m, "include/linux/sched.h"), "SCHEDULER");
	CHECK_STR(sub(m, "include/linux/sched.hx"), "THE REST");
	/* patterns are anchored at the top: "Makefile" is only the top one */
	CHECK_STR(sub(m, "Makefile"), "KERNEL BUILD");
	CHECK_STR(sub(m, "kernel/Makefile"), "THE REST");
	CHECK_STR(sub(m, "scripts/Makefile.build"), "KERNEL BUILD");  /* CRLF line */
	/* THE REST: "*" top-level files, "*\/" everything in a directory */
	CHECK_STR(sub(m, "README"), "THE REST");
	CHECK_STR(sub(m, "fs/ext4/inode.c"), "THE REST");
	td_maintainers_free(m);
}

static void test_specificity(void)
{
	td_maintainers_t *m = load(
		"FIRST\nF:\ta/b/\n\n"
		"SECOND\nF:\ta/b/\n\n"   /* the same length: the first wins */
		"DEEPER\nF:\ta/b/c/\n\n"
		"EXCLUDING\nF:\ta/b/c/d/\nX:\ta/b/c/d/e.c\nX:\ta/b/c/d/skip\n\n"
		"WILD\nF:\ta/b/c/d/*.h\n");

	if (!m)
		return;
	CHECK_STR(sub(m, "a/b/x.c"), "FIRST");
	CHECK_STR(sub(m, "a/b/c/x.c"), "DEEPER");
	CHECK_STR(sub(m, "a/b/c/d/x.c"), "EXCLUDING");
	/* excluded from the best section: the next best takes it */
	CHECK_STR(sub(m, "a/b/c/d/e.c"), "DEEPER");
	CHECK_STR(sub(m, "a/b/c/d/skip/y.c"), "DEEPER");
	CHECK_STR(sub(m, "a/b/c/d/skip"), "DEEPER");
	CHECK_STR(sub(m, "a/b/c/d/x.h"), "WILD");         /* 13 over 10 */
	CHECK(td_maintainers_lookup(m, "z/y", 3) == NULL);
	CHECK(td_maintainers_lookup(NULL, "z/y", 3) == NULL);
	td_maintainers_free(m);

	/* empty text: no sections */
	m = load("");
	if (m) {
		CHECK_INT(td_maintainers_count(m), 0);
		CHECK(td_maintainers_lookup(m, "a", 1) == NULL);
	}
	td_maintainers_free(m);
	/* tag lines without a title above them are not a section */
	m = load("\nF:\ta/\n");
	if (m)
		CHECK_INT(td_maintainers_count(m), 0);
	td_maintainers_free(m);
}

static void test_errors(void)
{
	td_maintainers_t *m = (td_maintainers_t *)1;
	td_error_t err;
	char *big;
	size_t n;
	static const char nul[] = "A\nF:\ta\0b\n";

	CHECK_INT(td_maintainers_parse(&m, nul, sizeof(nul) - 1, "M", &err), TD_EINVAL);
	CHECK(m == NULL);
	CHECK(strstr(err.msg, "M:2: NUL byte") != NULL);

	big = malloc(8192);
	if (!big)
		return;
	n = (size_t)snprintf(big, 8192, "T\nF:\t");
	memset(big + n, 'x', 4097);
	n += 4097;
	CHECK_INT(td_maintainers_parse(&m, big, n, "M", &err), TD_EINVAL);
	CHECK(strstr(err.msg, "M:2: pattern longer than 4096 bytes") != NULL);
	memset(big, 'T', 1025);
	memcpy(big + 1025, "\nF:\ta\n", 6);
	CHECK_INT(td_maintainers_parse(&m, big, 1031, "M", &err), TD_EINVAL);
	CHECK(strstr(err.msg, "M:1: section title longer than 1024 bytes") != NULL);
	free(big);
}

static void test_load_file(void)
{
	char dir[] = "/tmp/td_maint_XXXXXX", path[64];
	td_maintainers_t *m = NULL;
	td_error_t err;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/MAINTAINERS", dir);
	CHECK_INT(td_maintainers_load_file(&m, path, &err), TD_ENOTFOUND);
	CHECK(strstr(err.msg, "unable to open") != NULL);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(sample, f);
		fclose(f);
	}
	CHECK_INT(td_maintainers_load_file(&m, path, &err), 0);
	if (m)
		CHECK_STR(sub(m, "kernel/sched/fair.c"), "SCHEDULER");
	td_maintainers_free(m);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	test_sample();
	test_specificity();
	test_errors();
	test_load_file();
	return check_finish();
}
