/* libFuzzer target: the database loader on any file, e.g. a corrupt SQLite
 * file or one with a wrong schema. Open, list, load every version, match
 * the loaded tree and run the integrity check: each must succeed or fail
 * with an error code, never crash or leak. */
#include <stddef.h>
#include <stdint.h>

#include "treedrift/store.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write_file(data, size, ".db");
	td_db_t *db = NULL;
	td_version_t *v = NULL;
	size_t nv = 0;
	td_error_t err;

	td_db_sniff(path);
	if (td_db_open(&db, path, &err))
		return 0;
	if (!td_db_versions(&v, &nv, db, &err)) {
		for (size_t i = 0; i < nv && i < 8; i++) {
			td_tree_t *t = NULL;
			td_db_matches_t *m = NULL;

			if (td_db_load(&t, db, v[i].meta.label, &err))
				continue;
			if (!td_db_match(&m, db, t, &err))
				td_db_matches_free(m);
			td_tree_free(t);
		}
		td_versions_free(v, nv);
	}
	td_db_check(db, &err);
	td_db_free(db);
	return 0;
}
