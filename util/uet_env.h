/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * FI_UET_* environment variables.
 *
 * Two layers:
 *
 * 1. Pure parsers, uet_env_parse_*(): string in, value out, no
 *    environment and no libfabric.  Each returns 0 and stores the value,
 *    or -EINVAL and leaves *out untouched.  Grammar (no whitespace or
 *    other characters anywhere):
 *      bool  1 0 yes no true false on off (case-insensitive)
 *      int   [+-]digits, uint: digits; digits are decimal, or hex after
 *            0x/0X; overflow and values outside [min, max] are errors
 *      size  uint followed by an optional K, M or G (case-insensitive)
 *            meaning 2^10, 2^20, 2^30; overflow of 64 bits is an error
 *      enum  one of the names in a table (case-insensitive)
 *
 * 2. A registry.  Each module declares every variable it reads once, as
 *    a static const struct uet_env_var (name, type, default, range, help
 *    text), registers it at provider init with uet_env_register() --
 *    which also hands it to the env hook's define() (the provider's
 *    hook calls fi_param_define so that `fi_info -e` lists it) -- and
 *    reads it with the typed getter.  The
 *    getter reads FI_UET_<NAME> (name upper-cased); when the variable is
 *    unset it returns the default, and when its value does not parse or
 *    is out of range it logs UET_WARN and returns the default.  Getters
 *    never abort and never fail.
 *
 * Register from fi_prov_ini() (or later): libfabric resets its list of
 * definitions when it initialises, so definitions made before that are
 * silently lost.  Registration is single-threaded (provider init);
 * getters may be called from any thread.
 */
#ifndef UET_ENV_H
#define UET_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- pure parsers ---- */

struct uet_env_enum {
	const char *name;		/* NULL terminates a table */
	int value;
};

int uet_env_parse_bool(const char *s, bool *out);
int uet_env_parse_int(const char *s, int64_t min, int64_t max, int64_t *out);
int uet_env_parse_uint(const char *s, uint64_t min, uint64_t max,
		       uint64_t *out);
int uet_env_parse_size(const char *s, uint64_t min, uint64_t max,
		       uint64_t *out);
int uet_env_parse_enum(const char *s, const struct uet_env_enum *table,
		       int *out);

/*
 * Write v in the size grammar, using the largest of G/M/K that divides
 * it exactly ("64K", "3G", "1000").  Returns the snprintf result.
 */
int uet_env_format_size(uint64_t v, char *buf, size_t len);

/* ---- registry ---- */

enum uet_env_type {
	UET_ENV_BOOL,
	UET_ENV_INT,
	UET_ENV_UINT,
	UET_ENV_SIZE,
	UET_ENV_ENUM,
	UET_ENV_STR,
};

struct uet_env_var {
	const char *name;		/* lower case [a-z0-9_]: "rx_size" */
	enum uet_env_type type;
	const char *help;		/* one line, no final period */
	union {
		bool b;
		int64_t i;
		uint64_t u;		/* UINT and SIZE */
		int e;			/* ENUM: a value in enums */
		const char *s;		/* STR: may be NULL */
	} def;
	int64_t imin, imax;		/* INT range */
	uint64_t umin, umax;		/* UINT / SIZE range */
	const struct uet_env_enum *enums;	/* ENUM table */
};

/* Declarations, e.g.
 *   static const struct uet_env_var uet_env_rx_size =
 *	UET_ENV_SIZE_VAR("rx_size", 64 * 1024, 4096, 1ull << 30,
 *			 "Receive buffer size");
 */
#define UET_ENV_BOOL_VAR(n, d, h)					\
	{ .name = (n), .type = UET_ENV_BOOL, .help = (h), .def = { .b = (d) } }
#define UET_ENV_INT_VAR(n, d, lo, hi, h)				\
	{ .name = (n), .type = UET_ENV_INT, .help = (h), .def = { .i = (d) }, \
	  .imin = (lo), .imax = (hi) }
#define UET_ENV_UINT_VAR(n, d, lo, hi, h)				\
	{ .name = (n), .type = UET_ENV_UINT, .help = (h), .def = { .u = (d) }, \
	  .umin = (lo), .umax = (hi) }
#define UET_ENV_SIZE_VAR(n, d, lo, hi, h)				\
	{ .name = (n), .type = UET_ENV_SIZE, .help = (h), .def = { .u = (d) }, \
	  .umin = (lo), .umax = (hi) }
#define UET_ENV_ENUM_VAR(n, d, table, h)				\
	{ .name = (n), .type = UET_ENV_ENUM, .help = (h), .def = { .e = (d) }, \
	  .enums = (table) }
#define UET_ENV_STR_VAR(n, d, h)					\
	{ .name = (n), .type = UET_ENV_STR, .help = (h), .def = { .s = (d) } }

/* Room for the longest variable name, FI_UET_ included. */
#define UET_ENV_NAME_MAX	64
#define UET_ENV_MAX_VARS	128

/* "FI_UET_" + upper-cased name into buf; -EINVAL if it does not fit. */
int uet_env_var_name(const struct uet_env_var *var, char *buf, size_t len);

/*
 * Check the declaration (name spelling, default inside the range or the
 * table), add it to the registry and define() it through the hook.
 * Returns 0, -EINVAL for a bad declaration, -EEXIST if a variable of that
 * name is already registered, -ENOSPC past UET_ENV_MAX_VARS, or the
 * hook's error.  var must outlive the registration (normally static const).
 */
int uet_env_register(const struct uet_env_var *var);

/*
 * Where registered variables live.  util knows no libfabric: the
 * provider installs a hook backed by fi_param_define / fi_param_get_str
 * (prov/uet/uet_hooks.c).  Without one, define() does nothing and values
 * come from getenv().
 */
struct uet_env_hook {
	/* Define a variable (name without the FI_UET_ prefix, help text
	 * with type and default): 0 or a negative errno. */
	int (*define)(const char *name, const char *help);
	/* The value of a defined variable: 0 with *value (NULL: unset),
	 * or -ENOENT when the hook does not know it (getenv() then). */
	int (*get)(const char *name, const char **value);
};

/* Install a hook (NULL: the default); it must outlive its installation. */
void uet_env_set_hook(const struct uet_env_hook *hook);

/* Register n variables; stops at and returns the first error. */
int uet_env_register_all(const struct uet_env_var *const *vars, size_t n);

/* The registered variable called name (without prefix), or NULL. */
const struct uet_env_var *uet_env_lookup(const char *name);
size_t uet_env_count(void);

/*
 * Forget every registration (provider cleanup; libfabric drops its own
 * copies of the definitions when it unloads the provider).
 */
void uet_env_unregister_all(void);

/*
 * Getters: the value of FI_UET_<NAME>, or the default when unset or
 * invalid (invalid values are reported with UET_WARN).  The variable
 * need not be registered.  The type must match the declaration.
 */
bool uet_env_get_bool(const struct uet_env_var *var);
int64_t uet_env_get_int(const struct uet_env_var *var);
uint64_t uet_env_get_uint(const struct uet_env_var *var);
uint64_t uet_env_get_size(const struct uet_env_var *var);
int uet_env_get_enum(const struct uet_env_var *var);
/* The environment string itself (not copied), or the default. */
const char *uet_env_get_str(const struct uet_env_var *var);

#endif /* UET_ENV_H */
