/* The tags of commit messages: Fixes:, Cc: stable, CVE ids, the commit reverted. */
#include <string.h>

#include "check.h"
#include "treedrift/patch.h"

static td_commit_tags_t tags(const char *msg)
{
	td_commit_tags_t t;
	CHECK_INT(td_commit_tags_parse(&t, msg, msg ? strlen(msg) : 0), 0);
	return t;
}

int main(void)
{
	td_commit_tags_t t;

	t = tags("net: fix a leak\n\nbody\n\nFixes: 1234567890ab (\"net: add a thing\")\n"
		 "Cc: stable@vger.kernel.org # 6.1+\nSigned-off-by: A <a@b>\n");
	CHECK_INT(t.nfixes, 1);
	CHECK_STR(t.nfixes ? t.fixes[0] : NULL, "1234567890ab");
	CHECK_INT(t.cc_stable, 1);
	CHECK_INT(t.ncves, 0);
	td_commit_tags_release(&t);

	/* two Fixes:, one repeated; upper-case hex; indented; stable@kernel.org */
	t = tags("x\n\n  fixes: ABCDEF1234 (\"a\")\nFixes: abcdef1234\nFixes: 0123456789abcdef\n"
		 "CC: <stable@kernel.org>\n");
	CHECK_INT(t.nfixes, 2);
	CHECK_STR(t.nfixes > 1 ? t.fixes[1] : NULL, "0123456789abcdef");
	CHECK_INT(t.cc_stable, 1);
	td_commit_tags_release(&t);

	/* not tags: a Fixes: without an id, too short an id, an id that runs on
	 * into a word, a Cc: to someone else, stable named outside a Cc: */
	t = tags("x\n\nFixes: the build\nFixes: 12ab\nFixes: 1234567zz\nCc: stable-team@example.org\n"
		 "Reported-by: stable@vger.kernel.org\nThis fixes: 1234567890\n");
	CHECK_INT(t.nfixes, 0);
	CHECK_INT(t.cc_stable, 0);
	td_commit_tags_release(&t);

	/* CVE ids: anywhere, upper-cased, distinct, in order; not in a word,
	 * not with a short or long year or a short number */
	t = tags("fix CVE-2024-1234 and cve-2023-123456\n\nSee CVE-2024-1234, xCVE-2024-9999, "
		 "CVE-24-1234, CVE-2024-123, CVE-20245-1234, CVE-2024-5678x, (CVE-2022-0001).");
	CHECK_INT(t.ncves, 3);
	CHECK_STR(t.ncves > 0 ? t.cves[0] : NULL, "CVE-2024-1234");
	CHECK_STR(t.ncves > 1 ? t.cves[1] : NULL, "CVE-2023-123456");
	CHECK_STR(t.ncves > 2 ? t.cves[2] : NULL, "CVE-2022-0001");
	td_commit_tags_release(&t);

	/* git revert's line, lower-cased; the first one only; a merge's
	 * ("reversing changes made to"); not quoted text, a short id, or one
	 * that runs on into a word */
	t = tags("Revert \"x: y\"\n\nThis reverts commit 0123456789ABCDEF0123456789abcdef01234567.\n\n"
		 "This reverts commit fedcba9876543210fedcba9876543210fedcba98.\n");
	CHECK_STR(t.reverts, "0123456789abcdef0123456789abcdef01234567");
	CHECK_INT(t.nfixes + t.ncves, 0);
	td_commit_tags_release(&t);
	t = tags("Revert \"Merge x\"\n\nThis reverts commit abcdef1234567, reversing\nchanges made to 1234567abcdef.\n");
	CHECK_STR(t.reverts, "abcdef1234567");
	td_commit_tags_release(&t);
	t = tags("x\n\n> This reverts commit 0123456789ab.\nThis reverts commit 12ab.\nThis reverts commit 1234567zz.\n"
		 "It reverts commit 0123456789ab.\n");
	CHECK(t.reverts == NULL);
	td_commit_tags_release(&t);

	/* empty, NULL, no trailing newline, not NUL-terminated */
	t = tags(NULL);
	CHECK_INT(t.nfixes + t.ncves + (size_t)t.cc_stable, 0);
	td_commit_tags_release(&t);
	{
		const char buf[] = "Fixes: 1234567890abXYZ";
		CHECK_INT(td_commit_tags_parse(&t, buf, 18), 0);
		CHECK_INT(t.nfixes, 1);
		td_commit_tags_release(&t);
	}
	td_commit_tags_release(NULL);
	return check_finish();
}
