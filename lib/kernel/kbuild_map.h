/* A string-keyed hash map for the kernel modules (kconfig.c, kbuild*.c);
 * not part of the public API. Keys are copied; values are borrowed pointers
 * whose ownership stays with the caller. Open addressing, no removal. */
#ifndef TD_KBUILD_MAP_H
#define TD_KBUILD_MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct td_kbmap_slot {
	char *key;       /* NULL: empty slot */
	size_t key_len;
	uint64_t hash;
	void *value;
} td_kbmap_slot_t;

typedef struct td_kbmap {
	td_kbmap_slot_t *slots;
	size_t cap;      /* a power of two, or 0 */
	size_t count;
} td_kbmap_t;

void td_kbmap_init(td_kbmap_t *m);
/* Frees the keys and the table; values are the caller's. */
void td_kbmap_release(td_kbmap_t *m);

/* The slot for key, or NULL. */
td_kbmap_slot_t *td_kbmap_find(const td_kbmap_t *m, const char *key, size_t len);
/* The slot for key, added (value NULL) when missing; *added says which. NULL
 * when out of memory. */
td_kbmap_slot_t *td_kbmap_insert(td_kbmap_t *m, const char *key, size_t len, int *added);

#endif
