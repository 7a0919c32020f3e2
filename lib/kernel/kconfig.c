/* .config parsing (see treedrift/kconfig.h). */
#include <stdlib.h>
#include <string.h>

#include "treedrift/arch.h"
#include "treedrift/kconfig.h"
#include "textfile.h"
#include "kbuild_map.h"
#include "internal.h"

#define KCONFIG_MAX_BYTES (16u << 20)
#define KCONFIG_MAX_NAME 256

struct td_kconfig {
	td_kbmap_t symbols; /* "CONFIG_FOO" -> malloc'd value text, NULL when unset */
	size_t set_count;
};

int td_kconfig_new(td_kconfig_t **out)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return TD_ENOMEM;
	td_kbmap_init(&(*out)->symbols);
	return TD_OK;
}

void td_kconfig_free(td_kconfig_t *cfg)
{
	if (!cfg)
		return;
	for (size_t i = 0; i < cfg->symbols.cap; i++)
		if (cfg->symbols.slots[i].key)
			free(cfg->symbols.slots[i].value);
	td_kbmap_release(&cfg->symbols);
	free(cfg);
}

static int set_n(td_kconfig_t *cfg, const char *name, size_t name_len,
		 const char *value, size_t value_len)
{
	td_kbmap_slot_t *s = td_kbmap_insert(&cfg->symbols, name, name_len, NULL);
	char *copy = NULL;

	if (!s)
		return TD_ENOMEM;
	if (value && !(value_len == 1 && value[0] == 'n')) {
		if (!(copy = td_strndup(value, value_len)))
			return TD_ENOMEM;
	}
	if (s->value)
		cfg->set_count--;
	free(s->value);
	s->value = copy;
	if (copy)
		cfg->set_count++;
	return TD_OK;
}

int td_kconfig_set(td_kconfig_t *cfg, const char *name, const char *value)
{
	if (!cfg || !name || !*name)
		return TD_EINVAL;
	return set_n(cfg, name, strlen(name), value, value ? strlen(value) : 0);
}

const char *td_kconfig_value(const td_kconfig_t *cfg, const char *name)
{
	td_kbmap_slot_t *s;

	if (!cfg || !name)
		return NULL;
	s = td_kbmap_find(&cfg->symbols, name, strlen(name));
	return s ? s->value : NULL;
}

int td_kconfig_tristate(const td_kconfig_t *cfg, const char *name)
{
	const char *v = td_kconfig_value(cfg, name);

	if (v && (v[0] == 'y' || v[0] == 'm') && !v[1])
		return v[0];
	return 0;
}

size_t td_kconfig_count(const td_kconfig_t *cfg)
{
	return cfg ? cfg->set_count : 0;
}

int td_kconfig_foreach(const td_kconfig_t *cfg,
		       int (*fn)(void *ctx, const char *name, const char *value), void *ctx)
{
	int rc;

	if (!cfg || !fn)
		return TD_OK;
	for (size_t i = 0; i < cfg->symbols.cap; i++) {
		const td_kbmap_slot_t *s = &cfg->symbols.slots[i];
		if (s->key && s->value && (rc = fn(ctx, s->key, s->value)))
			return rc;
	}
	return TD_OK;
}

static int is_name_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* Length of a symbol name "CONFIG_X..." at s, 0 when there is none. */
static size_t symbol_len(const char *s, size_t len)
{
	size_t n = 0;

	if (len < 8 || memcmp(s, "CONFIG_", 7))
		return 0;
	n = 7;
	while (n < len && is_name_char(s[n]))
		n++;
	return n > 7 ? n : 0;
}

static int valid_string(const char *v, size_t len)
{
	if (len < 2 || v[0] != '"' || v[len - 1] != '"')
		return 0;
	for (size_t i = 1; i < len - 1; i++) {
		if (v[i] == '\\') {
			if (++i >= len - 1)
				return 0; /* the closing quote is escaped */
		} else if (v[i] == '"') {
			return 0;
		}
	}
	return 1;
}

static int valid_number(const char *v, size_t len)
{
	size_t i = 0;

	if (len > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
		for (i = 2; i < len; i++)
			if (!((v[i] >= '0' && v[i] <= '9') || (v[i] >= 'a' && v[i] <= 'f') ||
			      (v[i] >= 'A' && v[i] <= 'F')))
				return 0;
		return 1;
	}
	if (len && v[0] == '-')
		i = 1;
	if (i == len)
		return 0;
	for (; i < len; i++)
		if (v[i] < '0' || v[i] > '9')
			return 0;
	return 1;
}

static int valid_value(const char *v, size_t len)
{
	if (len == 1 && (v[0] == 'y' || v[0] == 'm' || v[0] == 'n'))
		return 1;
	return valid_string(v, len) || valid_number(v, len);
}

/* "# CONFIG_FOO is not set": 1 and the name, or 0 for any other comment. */
static int not_set_line(const char *s, size_t len, size_t *name_off, size_t *name_len)
{
	static const char tail[] = " is not set";
	size_t n;

	if (len < 2 || s[0] != '#' || s[1] != ' ')
		return 0;
	n = symbol_len(s + 2, len - 2);
	if (!n || len - 2 - n != sizeof(tail) - 1 || memcmp(s + 2 + n, tail, sizeof(tail) - 1))
		return 0;
	*name_off = 2;
	*name_len = n;
	return 1;
}

static int parse_line(td_kconfig_t *cfg, const char *s, size_t len, size_t lineno,
		      td_error_t *err)
{
	size_t n, off, name_len, i = 0;

	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i == len)
		return TD_OK;
	if (s[i] == '#') {
		if (not_set_line(s + i, len - i, &off, &name_len))
			return set_n(cfg, s + i + off, name_len, NULL, 0);
		return TD_OK;
	}
	n = symbol_len(s + i, len - i);
	if (!n || n > KCONFIG_MAX_NAME || i + n >= len || s[i + n] != '=')
		return td_error_set(err, TD_EFORMAT, "line %zu: expected 'CONFIG_NAME=value' or a comment",
				    lineno);
	off = i + n + 1;
	if (!valid_value(s + off, len - off))
		return td_error_set(err, TD_EFORMAT,
				    "line %zu: malformed value for '%.*s' (want y, m, n, a quoted string or a number)",
				    lineno, (int)n, s + i);
	return set_n(cfg, s + i, n, s + off, len - off);
}

int td_kconfig_parse(td_kconfig_t **out, const char *data, size_t len, td_error_t *err)
{
	td_kconfig_t *cfg = NULL;
	size_t pos = 0, lineno = 0;
	int rc;

	*out = NULL;
	if (!data && len)
		return td_error_set(err, TD_EINVAL, "no .config data");
	if (len > KCONFIG_MAX_BYTES)
		return td_error_set(err, TD_ENOMEM, ".config larger than %u bytes", KCONFIG_MAX_BYTES);
	if ((rc = td_kconfig_new(&cfg)))
		return td_error_set(err, rc, "out of memory");
	while (pos < len) {
		const char *nl = memchr(data + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - data) : len, line_len = end - pos;

		lineno++;
		if (line_len && data[pos + line_len - 1] == '\r')
			line_len--;
		if (memchr(data + pos, '\0', line_len)) {
			rc = td_error_set(err, TD_EFORMAT, "line %zu: NUL byte", lineno);
			goto out;
		}
		if ((rc = parse_line(cfg, data + pos, line_len, lineno, err))) {
			if (rc == TD_ENOMEM)
				td_error_set(err, rc, "out of memory");
			goto out;
		}
		pos = end + 1;
	}
	*out = cfg;
	cfg = NULL;
out:
	td_kconfig_free(cfg);
	return rc;
}

const char *td_kconfig_guess_arch(const char *text, size_t len)
{
	static const char tag[] = "# Linux/";
	const size_t tag_len = sizeof(tag) - 1;
	size_t pos = 0;

	/* The header is in the first lines; look at a few. */
	for (int line = 0; line < 8 && pos < len; line++) {
		const char *s = text + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;

		if (n > tag_len && !memcmp(s, tag, tag_len)) {
			char name[64];
			size_t k = 0;
			for (size_t i = tag_len; i < n && s[i] != ' ' && s[i] != '\t'; i++) {
				if (k + 1 >= sizeof(name))
					return NULL;
				name[k++] = s[i];
			}
			name[k] = '\0';
			return k ? td_arch_canonical(name) : NULL;
		}
		pos += n + 1;
	}
	return NULL;
}

int td_kconfig_load_file(td_kconfig_t **out, const char **arch_out, const char *path,
			 td_error_t *err)
{
	td_error_t perr = { 0 };
	char *text = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	if (arch_out)
		*arch_out = NULL;
	if ((rc = td_read_file(&text, &len, path, 16u << 20, err)))
		return rc;
	rc = td_kconfig_parse(out, text, len, &perr);
	if (rc)
		td_error_set(err, rc, "'%s': %s", path, perr.msg);
	else if (arch_out)
		*arch_out = td_kconfig_guess_arch(text, len);
	free(text);
	return rc;
}
