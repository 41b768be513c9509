/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * FI_UET_* environment variables; see uet_env.h.
 *
 * The first half of this file is pure string parsing and formatting: no
 * environment, no libfabric.  The libfabric-facing part (registry,
 * fi_param_define, getenv, logging) is the second half and is kept thin.
 * Parsing is ASCII-only and does not depend on the locale.
 */
#include "config.h"

#include <assert.h>
#include <errno.h>
#include <stdatomic.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "uet_env.h"
#include "uet_log.h"

/* ================= pure parsers ================= */

static inline char uet_ascii_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static bool uet_ascii_caseeq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (uet_ascii_lower(*a) != uet_ascii_lower(*b))
			return false;
	return *a == *b;
}

static int uet_digit_value(char c, unsigned int base)
{
	int d;

	if (c >= '0' && c <= '9')
		d = c - '0';
	else if (c >= 'a' && c <= 'f')
		d = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		d = c - 'A' + 10;
	else
		return -1;
	return (unsigned int)d < base ? d : -1;
}

/*
 * Unsigned magnitude at s: decimal digits, or 0x/0X and hex digits.
 * Returns the first character after it, or NULL when there are no
 * digits or the value does not fit in 64 bits.
 */
static const char *uet_scan_u64(const char *s, uint64_t *v)
{
	unsigned int base = 10;
	const char *p = s, *digits;
	uint64_t acc = 0;
	int d;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	for (digits = p; (d = uet_digit_value(*p, base)) >= 0; p++) {
		if (acc > (UINT64_MAX - (uint64_t)d) / base)
			return NULL;
		acc = acc * base + (uint64_t)d;
	}
	if (p == digits)
		return NULL;
	*v = acc;
	return p;
}

int uet_env_parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "1", "yes", "true", "on" };
	static const char *const no[] = { "0", "no", "false", "off" };
	size_t i;

	if (!s)
		return -EINVAL;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (uet_ascii_caseeq(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (uet_ascii_caseeq(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}

int uet_env_parse_uint(const char *s, uint64_t min, uint64_t max,
		       uint64_t *out)
{
	const char *end;
	uint64_t v;

	if (!s)
		return -EINVAL;
	end = uet_scan_u64(s, &v);
	if (!end || *end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

int uet_env_parse_int(const char *s, int64_t min, int64_t max, int64_t *out)
{
	const char *end;
	bool neg = false;
	uint64_t mag;
	int64_t v;

	if (!s)
		return -EINVAL;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	end = uet_scan_u64(s, &mag);
	if (!end || *end)
		return -EINVAL;
	if (neg) {
		if (mag > (uint64_t)INT64_MAX + 1)
			return -EINVAL;
		/* -(mag - 1) - 1 stays in range even for mag == 2^63. */
		v = mag ? -(int64_t)(mag - 1) - 1 : 0;
	} else {
		if (mag > (uint64_t)INT64_MAX)
			return -EINVAL;
		v = (int64_t)mag;
	}
	if (v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

int uet_env_parse_size(const char *s, uint64_t min, uint64_t max,
		       uint64_t *out)
{
	const char *end;
	unsigned int shift = 0;
	uint64_t v;

	if (!s)
		return -EINVAL;
	end = uet_scan_u64(s, &v);
	if (!end)
		return -EINVAL;
	switch (uet_ascii_lower(*end)) {
	case '\0':
		break;
	case 'k':
		shift = 10;
		break;
	case 'm':
		shift = 20;
		break;
	case 'g':
		shift = 30;
		break;
	default:
		return -EINVAL;
	}
	if (shift) {
		if (end[1] != '\0' || v > (UINT64_MAX >> shift))
			return -EINVAL;
		v <<= shift;
	}
	if (v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

int uet_env_parse_enum(const char *s, const struct uet_env_enum *table,
		       int *out)
{
	const struct uet_env_enum *e;

	if (!s || !table)
		return -EINVAL;
	for (e = table; e->name; e++) {
		if (uet_ascii_caseeq(s, e->name)) {
			*out = e->value;
			return 0;
		}
	}
	return -EINVAL;
}

int uet_env_format_size(uint64_t v, char *buf, size_t len)
{
	static const struct {
		unsigned int shift;
		char suffix;
	} units[] = { { 30, 'G' }, { 20, 'M' }, { 10, 'K' } };
	size_t i;

	for (i = 0; v && i < sizeof(units) / sizeof(units[0]); i++) {
		if (!(v & ((1ull << units[i].shift) - 1)))
			return snprintf(buf, len, "%" PRIu64 "%c",
					v >> units[i].shift, units[i].suffix);
	}
	return snprintf(buf, len, "%" PRIu64, v);
}

/* ================= registry (libfabric-facing) ================= */

static const struct uet_env_var *uet_env_vars[UET_ENV_MAX_VARS];
static size_t uet_env_nvars;

int uet_env_var_name(const struct uet_env_var *var, char *buf, size_t len)
{
	static const char prefix[] = "FI_UET_";
	size_t n = strlen(var->name), i;

	if (len < sizeof(prefix) + n)
		return -EINVAL;
	memcpy(buf, prefix, sizeof(prefix) - 1);
	for (i = 0; i < n; i++) {
		char c = var->name[i];

		buf[sizeof(prefix) - 1 + i] =
			c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
	}
	buf[sizeof(prefix) - 1 + n] = '\0';
	return 0;
}

static const char *uet_env_enum_name(const struct uet_env_enum *table,
				     int value)
{
	const struct uet_env_enum *e;

	for (e = table; e && e->name; e++)
		if (e->value == value)
			return e->name;
	return NULL;
}

/* The default as the user would spell it. */
static void uet_env_format_default(const struct uet_env_var *var, char *buf,
				   size_t len)
{
	const char *name;

	switch (var->type) {
	case UET_ENV_BOOL:
		snprintf(buf, len, "%s", var->def.b ? "true" : "false");
		break;
	case UET_ENV_INT:
		snprintf(buf, len, "%" PRId64, var->def.i);
		break;
	case UET_ENV_UINT:
		snprintf(buf, len, "%" PRIu64, var->def.u);
		break;
	case UET_ENV_SIZE:
		uet_env_format_size(var->def.u, buf, len);
		break;
	case UET_ENV_ENUM:
		name = uet_env_enum_name(var->enums, var->def.e);
		snprintf(buf, len, "%s", name ? name : "?");
		break;
	case UET_ENV_STR:
		snprintf(buf, len, "%s%s%s", var->def.s ? "\"" : "",
			 var->def.s ? var->def.s : "unset",
			 var->def.s ? "\"" : "");
		break;
	}
}

/* What a valid value looks like, for help text and warnings. */
static void uet_env_describe(const struct uet_env_var *var, char *buf,
			     size_t len)
{
	const struct uet_env_enum *e;
	char lo[32], hi[32];
	size_t used;

	switch (var->type) {
	case UET_ENV_BOOL:
		snprintf(buf, len, "boolean: 1/0, yes/no, true/false, on/off");
		break;
	case UET_ENV_INT:
		snprintf(buf, len, "integer in [%" PRId64 ", %" PRId64 "]",
			 var->imin, var->imax);
		break;
	case UET_ENV_UINT:
		snprintf(buf, len, "unsigned integer in [%" PRIu64 ", %"
			 PRIu64 "]", var->umin, var->umax);
		break;
	case UET_ENV_SIZE:
		uet_env_format_size(var->umin, lo, sizeof(lo));
		uet_env_format_size(var->umax, hi, sizeof(hi));
		snprintf(buf, len, "size in bytes in [%s, %s], "
			 "K/M/G suffixes multiply by 2^10/2^20/2^30", lo, hi);
		break;
	case UET_ENV_ENUM:
		used = (size_t)snprintf(buf, len, "one of:");
		for (e = var->enums; e && e->name && used < len; e++)
			used += (size_t)snprintf(buf + used, len - used,
						 "%s %s", e == var->enums ?
						 "" : ",", e->name);
		break;
	case UET_ENV_STR:
		snprintf(buf, len, "string");
		break;
	}
}

/* Without a hook: nothing to define, values from the environment. */
static int uet_env_default_define(const char *name, const char *help)
{
	(void)name;
	(void)help;
	return 0;
}

static int uet_env_default_get(const char *name, const char **value)
{
	(void)name;
	(void)value;
	return -ENOENT;
}

static const struct uet_env_hook uet_env_default_hook = {
	.define = uet_env_default_define,
	.get = uet_env_default_get,
};

static const struct uet_env_hook *_Atomic uet_env_hook =
	&uet_env_default_hook;

void uet_env_set_hook(const struct uet_env_hook *hook)
{
	atomic_store(&uet_env_hook, hook ? hook : &uet_env_default_hook);
}

static bool uet_env_var_valid(const struct uet_env_var *var)
{
	char name[UET_ENV_NAME_MAX];
	const char *p;

	if (!var->name || !*var->name || !var->help || !*var->help)
		return false;
	for (p = var->name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		      *p == '_'))
			return false;
	if (uet_env_var_name(var, name, sizeof(name)))
		return false;

	switch (var->type) {
	case UET_ENV_BOOL:
	case UET_ENV_STR:
		return true;
	case UET_ENV_INT:
		return var->imin <= var->def.i && var->def.i <= var->imax;
	case UET_ENV_UINT:
	case UET_ENV_SIZE:
		return var->umin <= var->def.u && var->def.u <= var->umax;
	case UET_ENV_ENUM:
		return var->enums &&
		       uet_env_enum_name(var->enums, var->def.e) != NULL;
	}
	return false;
}

const struct uet_env_var *uet_env_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < uet_env_nvars; i++)
		if (!strcmp(uet_env_vars[i]->name, name))
			return uet_env_vars[i];
	return NULL;
}

size_t uet_env_count(void)
{
	return uet_env_nvars;
}

int uet_env_register(const struct uet_env_var *var)
{
	char what[256], def[64], help[512];
	int ret;

	if (!uet_env_var_valid(var))
		return -EINVAL;
	if (uet_env_lookup(var->name))
		return -EEXIST;
	if (uet_env_nvars == UET_ENV_MAX_VARS)
		return -ENOSPC;

	uet_env_describe(var, what, sizeof(what));
	uet_env_format_default(var, def, sizeof(def));
	snprintf(help, sizeof(help), "%s (%s; default %s)", var->help, what,
		 def);
	ret = atomic_load(&uet_env_hook)->define(var->name, help);
	if (ret)
		return ret;
	uet_env_vars[uet_env_nvars++] = var;
	return 0;
}

int uet_env_register_all(const struct uet_env_var *const *vars, size_t n)
{
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = uet_env_register(vars[i]);
		if (ret)
			return ret;
	}
	return 0;
}

void uet_env_unregister_all(void)
{
	uet_env_nvars = 0;
}

/*
 * The variable's value, or NULL when unset: through libfabric
 * (fi_param_get) when the variable is registered and libfabric still
 * knows it, else from the environment.  name receives the FI_UET_ name
 * for messages.
 */
static const char *uet_env_value(const struct uet_env_var *var, char *name,
				 size_t len)
{
	const char *v = NULL;
	int ret;

	if (uet_env_var_name(var, name, len)) {
		UET_WARN(UET_LOG_CORE, "environment variable name too long: "
			 "%s\n", var->name);
		return NULL;
	}
	if (uet_env_lookup(var->name) == var) {
		ret = atomic_load(&uet_env_hook)->get(var->name, &v);
		if (!ret)
			return v;
		/* -ENOENT: the hook does not know it (none installed, or
		 * libfabric re-initialised and dropped the definition in
		 * unit tests); the environment says the same. */
	}
	return getenv(name);
}

/*
 * The last invalid value of each variable that was warned about: one
 * warning per variable and value per process, however often a getter
 * reads it (fi_getinfo reads some variables once per interface).
 */
struct uet_env_refused {
	const struct uet_env_var *var;
	char *value;
};
static struct uet_env_refused uet_env_refused[UET_ENV_MAX_VARS];
static pthread_mutex_t uet_env_refused_lock = PTHREAD_MUTEX_INITIALIZER;

/* True when value is new for var (and remembers it). */
static bool uet_env_first_refusal(const struct uet_env_var *var,
				  const char *value)
{
	struct uet_env_refused *r, *slot = NULL;
	bool first = true;
	char *copy;
	size_t i;

	pthread_mutex_lock(&uet_env_refused_lock);
	for (i = 0; i < UET_ENV_MAX_VARS; i++) {
		r = &uet_env_refused[i];
		if (r->var == var) {
			slot = r;
			break;
		}
		if (!r->var && !slot)
			slot = r;
	}
	if (slot && slot->var == var && slot->value &&
	    !strcmp(slot->value, value)) {
		first = false;
	} else if (slot) {
		copy = strdup(value);
		if (copy) {
			free(slot->value);
			slot->var = var;
			slot->value = copy;
		}
	}
	pthread_mutex_unlock(&uet_env_refused_lock);
	return first;
}

static void uet_env_warn_invalid(const struct uet_env_var *var,
				 const char *name, const char *value)
{
	char what[256], def[64];

	if (!uet_env_first_refusal(var, value))
		return;
	uet_env_describe(var, what, sizeof(what));
	uet_env_format_default(var, def, sizeof(def));
	UET_WARN(UET_LOG_CORE, "%s=\"%s\" is invalid (expected %s); using the "
		 "default %s\n", name, value, what, def);
}

bool uet_env_get_bool(const struct uet_env_var *var)
{
	char name[UET_ENV_NAME_MAX];
	const char *s;
	bool v;

	assert(var->type == UET_ENV_BOOL);
	s = uet_env_value(var, name, sizeof(name));
	if (!s)
		return var->def.b;
	if (uet_env_parse_bool(s, &v)) {
		uet_env_warn_invalid(var, name, s);
		return var->def.b;
	}
	UET_INFO(UET_LOG_CORE, "%s=%s\n", name, v ? "true" : "false");
	return v;
}

int64_t uet_env_get_int(const struct uet_env_var *var)
{
	char name[UET_ENV_NAME_MAX];
	const char *s;
	int64_t v;

	assert(var->type == UET_ENV_INT);
	s = uet_env_value(var, name, sizeof(name));
	if (!s)
		return var->def.i;
	if (uet_env_parse_int(s, var->imin, var->imax, &v)) {
		uet_env_warn_invalid(var, name, s);
		return var->def.i;
	}
	UET_INFO(UET_LOG_CORE, "%s=%" PRId64 "\n", name, v);
	return v;
}

static uint64_t uet_env_get_u64(const struct uet_env_var *var,
				int (*parse)(const char *, uint64_t, uint64_t,
					     uint64_t *))
{
	char name[UET_ENV_NAME_MAX];
	const char *s;
	uint64_t v;

	s = uet_env_value(var, name, sizeof(name));
	if (!s)
		return var->def.u;
	if (parse(s, var->umin, var->umax, &v)) {
		uet_env_warn_invalid(var, name, s);
		return var->def.u;
	}
	UET_INFO(UET_LOG_CORE, "%s=%" PRIu64 "\n", name, v);
	return v;
}

uint64_t uet_env_get_uint(const struct uet_env_var *var)
{
	assert(var->type == UET_ENV_UINT);
	return uet_env_get_u64(var, uet_env_parse_uint);
}

uint64_t uet_env_get_size(const struct uet_env_var *var)
{
	assert(var->type == UET_ENV_SIZE);
	return uet_env_get_u64(var, uet_env_parse_size);
}

int uet_env_get_enum(const struct uet_env_var *var)
{
	char name[UET_ENV_NAME_MAX];
	const char *s;
	int v;

	assert(var->type == UET_ENV_ENUM);
	s = uet_env_value(var, name, sizeof(name));
	if (!s)
		return var->def.e;
	if (uet_env_parse_enum(s, var->enums, &v)) {
		uet_env_warn_invalid(var, name, s);
		return var->def.e;
	}
	UET_INFO(UET_LOG_CORE, "%s=%s\n", name, s);
	return v;
}

const char *uet_env_get_str(const struct uet_env_var *var)
{
	char name[UET_ENV_NAME_MAX];
	const char *s;

	assert(var->type == UET_ENV_STR);
	s = uet_env_value(var, name, sizeof(name));
	if (!s)
		return var->def.s;
	UET_INFO(UET_LOG_CORE, "%s=\"%s\"\n", name, s);
	return s;
}
