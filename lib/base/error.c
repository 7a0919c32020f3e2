#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

#ifndef TD_VERSION
#define TD_VERSION "unknown"
#endif

const char *td_version(void)
{
	return TD_VERSION;
}

const char *td_strerror(int code)
{
	switch (code) {
	case TD_OK: return "success";
	case TD_EINVAL: return "invalid argument";
	case TD_ENOMEM: return "out of memory";
	case TD_EIO: return "input/output error";
	case TD_EDB: return "database error";
	case TD_EFORMAT: return "bad format";
	case TD_ENOTFOUND: return "not found";
	case TD_EUNSUPPORTED: return "not supported";
	case TD_ELOCKED: return "locked by another writer";
	case TD_ENEWER: return "written by a newer treedrift";
	case TD_EGIT: return "git error";
	case TD_EARCHIVE: return "archive error";
	case TD_ECANCELED: return "canceled";
	default: return "unknown error";
	}
}

int td_error_set(td_error_t *err, int code, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
		err->code = code;
	}
	return code;
}

void td_error_clear(td_error_t *err)
{
	if (err) {
		err->code = TD_OK;
		err->msg[0] = '\0';
	}
}

void *td_malloc_array(size_t n, size_t size)
{
	void *p;

	if (size && n > SIZE_MAX / size)
		return NULL;
	p = malloc(n && size ? n * size : 1);
	td_advise_huge(p, n * size);
	return p;
}

void *td_calloc_array(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	td_advise_huge(p, n * size);
	return p;
}

void *td_realloc_array(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	p = realloc(p, n && size ? n * size : 1);
	td_advise_huge(p, n * size);
	return p;
}

char *td_strndup(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (!d)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

uint64_t td_monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int td_size_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

int td_grow(void **buf, size_t *cap, size_t need, size_t elem_size)
{
	size_t ncap;
	void *p;

	if (need <= *cap)
		return TD_OK;
	ncap = *cap ? *cap : 16;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return TD_ENOMEM;
		ncap *= 2;
	}
	p = td_realloc_array(*buf, ncap, elem_size);
	if (!p)
		return TD_ENOMEM;
	*buf = p;
	*cap = ncap;
	return TD_OK;
}
