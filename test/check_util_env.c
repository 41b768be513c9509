/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * util/uet_env: FI_UET_* parsing, registry and getters.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdma/fabric.h>

#include "uet_env.h"
#include "uet_prov.h"
#include "uet_test.h"

/* ---- bool ---- */

START_TEST(test_parse_bool)
{
	static const char *const yes[] = {
		"1", "yes", "YES", "Yes", "yEs", "true", "TRUE", "True",
		"on", "ON", "On", "oN",
	};
	static const char *const no[] = {
		"0", "no", "NO", "No", "nO", "false", "FALSE", "False",
		"off", "OFF", "Off", "oFf",
	};
	static const char *const bad[] = {
		"", " ", " 1", "1 ", "2", "-1", "+1", "01", "00", "0x1", "y",
		"n", "t", "f", "yess", "ye", "tru", "truee", "onn", "o", "of",
		"offf", "enable", "disable", "1\n", "yes\t", "\xff",
	};
	size_t i;
	bool v;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		v = false;
		ck_assert_msg(uet_env_parse_bool(yes[i], &v) == 0, "%s",
			      yes[i]);
		ck_assert_msg(v == true, "%s", yes[i]);
	}
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		v = true;
		ck_assert_msg(uet_env_parse_bool(no[i], &v) == 0, "%s", no[i]);
		ck_assert_msg(v == false, "%s", no[i]);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		/* Rejected: -EINVAL and the value untouched, either way. */
		v = true;
		ck_assert_msg(uet_env_parse_bool(bad[i], &v) == -EINVAL,
			      "\"%s\"", bad[i]);
		ck_assert_msg(v == true, "\"%s\"", bad[i]);
		v = false;
		ck_assert_int_eq(uet_env_parse_bool(bad[i], &v), -EINVAL);
		ck_assert_msg(v == false, "\"%s\"", bad[i]);
	}
	ck_assert_int_eq(uet_env_parse_bool(NULL, &v), -EINVAL);
}
END_TEST

/* ---- unsigned ---- */

#define SENTINEL_U	0x5eed5eed5eed5eedull
#define SENTINEL_I	(-0x5eed5eed5eed5eedll)

static void uint_ok(const char *s, uint64_t min, uint64_t max, uint64_t want)
{
	uint64_t v = SENTINEL_U;

	ck_assert_msg(uet_env_parse_uint(s, min, max, &v) == 0, "\"%s\"", s);
	ck_assert_msg(v == want, "\"%s\" -> %llu, want %llu", s,
		      (unsigned long long)v, (unsigned long long)want);
}

static void uint_bad(const char *s, uint64_t min, uint64_t max)
{
	uint64_t v = SENTINEL_U;

	ck_assert_msg(uet_env_parse_uint(s, min, max, &v) == -EINVAL,
		      "\"%s\" accepted", s);
	ck_assert_msg(v == SENTINEL_U, "\"%s\" touched the value", s);
}

START_TEST(test_parse_uint)
{
	static const char *const bad[] = {
		"", " ", "-1", "+1", "-0", " 1", "1 ", "1a", "a1", "0x", "0X",
		"0xg", "0x 1", "x10", "1.5", "1e3", "1,000", "1_000", "1k",
		"--1", "\t7", "18446744073709551616", "99999999999999999999",
		"0x10000000000000000", "0x1ffffffffffffffff",
	};
	size_t i;

	uint_ok("0", 0, UINT64_MAX, 0);
	uint_ok("1", 0, UINT64_MAX, 1);
	uint_ok("42", 0, UINT64_MAX, 42);
	uint_ok("007", 0, UINT64_MAX, 7);	/* decimal, not octal */
	uint_ok("0x10", 0, UINT64_MAX, 16);
	uint_ok("0X1f", 0, UINT64_MAX, 31);
	uint_ok("0xABCDEF", 0, UINT64_MAX, 0xabcdef);
	uint_ok("18446744073709551615", 0, UINT64_MAX, UINT64_MAX);
	uint_ok("0xffffffffffffffff", 0, UINT64_MAX, UINT64_MAX);
	uint_ok("0x0000000000000000000001", 0, UINT64_MAX, 1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		uint_bad(bad[i], 0, UINT64_MAX);
	uint_bad(NULL, 0, UINT64_MAX);

	/* Range [10, 20]. */
	uint_bad("9", 10, 20);
	uint_ok("10", 10, 20, 10);
	uint_ok("20", 10, 20, 20);
	uint_bad("21", 10, 20);
	uint_bad("0", 10, 20);
	uint_bad("18446744073709551615", 10, 20);
}
END_TEST

/* ---- signed ---- */

static void int_ok(const char *s, int64_t min, int64_t max, int64_t want)
{
	int64_t v = SENTINEL_I;

	ck_assert_msg(uet_env_parse_int(s, min, max, &v) == 0, "\"%s\"", s);
	ck_assert_msg(v == want, "\"%s\" -> %lld, want %lld", s,
		      (long long)v, (long long)want);
}

static void int_bad(const char *s, int64_t min, int64_t max)
{
	int64_t v = SENTINEL_I;

	ck_assert_msg(uet_env_parse_int(s, min, max, &v) == -EINVAL,
		      "\"%s\" accepted", s);
	ck_assert_msg(v == SENTINEL_I, "\"%s\" touched the value", s);
}

START_TEST(test_parse_int)
{
	static const char *const bad[] = {
		"", "-", "+", "--1", "+-1", "-+1", " -1", "-1 ", "- 1", "1-",
		"0x", "-0x", "1.0", "one", "9223372036854775808",
		"-9223372036854775809", "18446744073709551615",
		"-18446744073709551616", "0x8000000000000000",
		"-0x8000000000000001", "99999999999999999999",
	};
	size_t i;

	int_ok("0", INT64_MIN, INT64_MAX, 0);
	int_ok("-0", INT64_MIN, INT64_MAX, 0);
	int_ok("+0", INT64_MIN, INT64_MAX, 0);
	int_ok("5", INT64_MIN, INT64_MAX, 5);
	int_ok("+5", INT64_MIN, INT64_MAX, 5);
	int_ok("-1", INT64_MIN, INT64_MAX, -1);
	int_ok("-0x10", INT64_MIN, INT64_MAX, -16);
	int_ok("9223372036854775807", INT64_MIN, INT64_MAX, INT64_MAX);
	int_ok("-9223372036854775808", INT64_MIN, INT64_MAX, INT64_MIN);
	int_ok("-0x8000000000000000", INT64_MIN, INT64_MAX, INT64_MIN);
	int_ok("0x7fffffffffffffff", INT64_MIN, INT64_MAX, INT64_MAX);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		int_bad(bad[i], INT64_MIN, INT64_MAX);
	int_bad(NULL, INT64_MIN, INT64_MAX);

	/* Range [-5, 3]. */
	int_bad("-6", -5, 3);
	int_ok("-5", -5, 3, -5);
	int_ok("3", -5, 3, 3);
	int_bad("4", -5, 3);
	int_bad("-9223372036854775808", -5, 3);
	int_bad("9223372036854775807", -5, 3);
}
END_TEST

/* ---- size ---- */

static void size_ok(const char *s, uint64_t min, uint64_t max, uint64_t want)
{
	uint64_t v = SENTINEL_U;

	ck_assert_msg(uet_env_parse_size(s, min, max, &v) == 0, "\"%s\"", s);
	ck_assert_msg(v == want, "\"%s\" -> %llu, want %llu", s,
		      (unsigned long long)v, (unsigned long long)want);
}

static void size_bad(const char *s, uint64_t min, uint64_t max)
{
	uint64_t v = SENTINEL_U;

	ck_assert_msg(uet_env_parse_size(s, min, max, &v) == -EINVAL,
		      "\"%s\" accepted", s);
	ck_assert_msg(v == SENTINEL_U, "\"%s\" touched the value", s);
}

START_TEST(test_parse_size)
{
	static const char *const bad[] = {
		"", "K", "k", "M", "G", "4KB", "4KiB", "4kb", "4 K", " 4K",
		"4K ", "4T", "4t", "4P", "4kk", "4Km", "-4k", "+4k", "4.5M",
		"k4", "0x", "0xK", "4B", "4b", "1e3",
		"99999999999G", "17179869184G", "17592186044416M",
		"18014398509481984K", "18446744073709551616",
		"0x400000000G",
	};
	size_t i;

	size_ok("0", 0, UINT64_MAX, 0);
	size_ok("0K", 0, UINT64_MAX, 0);
	size_ok("1", 0, UINT64_MAX, 1);
	size_ok("4096", 0, UINT64_MAX, 4096);
	size_ok("4k", 0, UINT64_MAX, 4096);
	size_ok("4K", 0, UINT64_MAX, 4096);
	size_ok("1m", 0, UINT64_MAX, 1048576);
	size_ok("1M", 0, UINT64_MAX, 1048576);
	size_ok("2g", 0, UINT64_MAX, 2147483648ull);
	size_ok("2G", 0, UINT64_MAX, 2147483648ull);
	size_ok("0x10k", 0, UINT64_MAX, 16384);
	size_ok("1536K", 0, UINT64_MAX, 1572864);
	/* Largest multiples that fit in 64 bits. */
	size_ok("17179869183G", 0, UINT64_MAX, 0xffffffffc0000000ull);
	size_ok("17592186044415M", 0, UINT64_MAX, 0xfffffffffff00000ull);
	size_ok("18014398509481983K", 0, UINT64_MAX, 0xfffffffffffffc00ull);
	size_ok("18446744073709551615", 0, UINT64_MAX, UINT64_MAX);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		size_bad(bad[i], 0, UINT64_MAX);
	size_bad(NULL, 0, UINT64_MAX);

	/* Range [4K, 1G]. */
	size_bad("4095", 4096, 1ull << 30);
	size_ok("4k", 4096, 1ull << 30, 4096);
	size_ok("1G", 4096, 1ull << 30, 1ull << 30);
	size_ok("1024M", 4096, 1ull << 30, 1ull << 30);
	size_bad("1025M", 4096, 1ull << 30);
	size_bad("1073741825", 4096, 1ull << 30);
	size_bad("0", 4096, 1ull << 30);
}
END_TEST

START_TEST(test_format_size)
{
	static const struct {
		uint64_t v;
		const char *s;
	} cases[] = {
		{ 0, "0" }, { 1, "1" }, { 1000, "1000" }, { 1024, "1K" },
		{ 1536, "1536" }, { 4096, "4K" }, { 1536 * 1024, "1536K" },
		{ 1ull << 20, "1M" }, { 3ull << 30, "3G" },
		{ 1ull << 40, "1024G" }, { 0xffffffffc0000000ull,
		  "17179869183G" }, { UINT64_MAX, "18446744073709551615" },
	};
	char buf[32];
	uint64_t v, r;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uet_env_format_size(cases[i].v, buf, sizeof(buf));
		ck_assert_str_eq(buf, cases[i].s);
	}
	/* Round trip through the parser. */
	for (i = 0; i < 2000; i++) {
		v = uet_test_rand64() >> (uet_test_rand64() % 64);
		if (i % 3 == 0)
			v <<= 10 * (i % 4);
		uet_env_format_size(v, buf, sizeof(buf));
		ck_assert_int_eq(uet_env_parse_size(buf, 0, UINT64_MAX, &r), 0);
		if (r != v)
			ck_abort_msg("%llu -> \"%s\" -> %llu",
				     (unsigned long long)v, buf,
				     (unsigned long long)r);
	}
}
END_TEST

/* ---- enum ---- */

enum { CC_OFF, CC_NSCC, CC_RCCC };

static const struct uet_env_enum cc_table[] = {
	{ "off", CC_OFF },
	{ "nscc", CC_NSCC },
	{ "rccc", CC_RCCC },
	{ NULL, 0 },
};

START_TEST(test_parse_enum)
{
	static const char *const bad[] = {
		"", "nsc", "nsccc", "nscc ", " nscc", "1", "2", "x", "of",
		"offf", "rccc\n",
	};
	size_t i;
	int v;

	v = -1;
	ck_assert_int_eq(uet_env_parse_enum("nscc", cc_table, &v), 0);
	ck_assert_int_eq(v, CC_NSCC);
	ck_assert_int_eq(uet_env_parse_enum("NSCC", cc_table, &v), 0);
	ck_assert_int_eq(v, CC_NSCC);
	ck_assert_int_eq(uet_env_parse_enum("Rccc", cc_table, &v), 0);
	ck_assert_int_eq(v, CC_RCCC);
	ck_assert_int_eq(uet_env_parse_enum("OFF", cc_table, &v), 0);
	ck_assert_int_eq(v, CC_OFF);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 77;
		ck_assert_msg(uet_env_parse_enum(bad[i], cc_table, &v) ==
			      -EINVAL, "\"%s\" accepted", bad[i]);
		ck_assert_int_eq(v, 77);
	}
	ck_assert_int_eq(uet_env_parse_enum(NULL, cc_table, &v), -EINVAL);
	ck_assert_int_eq(uet_env_parse_enum("off", NULL, &v), -EINVAL);
	ck_assert_int_eq(v, 77);
}
END_TEST

/* ---- registry and getters ---- */

static bool fork_mode(void)
{
	const char *f = getenv("CK_FORK");

	return !(f && !strcmp(f, "no"));
}

static const struct uet_env_var var_bool =
	UET_ENV_BOOL_VAR("test_flag", true, "A test flag");
static const struct uet_env_var var_int =
	UET_ENV_INT_VAR("test_int", -3, -10, 10, "A test integer");
static const struct uet_env_var var_uint =
	UET_ENV_UINT_VAR("test_uint", 8, 1, 64, "A test count");
static const struct uet_env_var var_size =
	UET_ENV_SIZE_VAR("test_size", 64 * 1024, 4096, 1ull << 30,
			 "A test buffer size");
static const struct uet_env_var var_enum =
	UET_ENV_ENUM_VAR("test_cc", CC_NSCC, cc_table, "A test CC choice");
static const struct uet_env_var var_str =
	UET_ENV_STR_VAR("test_iface", "lo", "A test interface");
static const struct uet_env_var var_str_null =
	UET_ENV_STR_VAR("test_path", NULL, "A test path");

START_TEST(test_var_name)
{
	char buf[UET_ENV_NAME_MAX];
	char small[14];

	ck_assert_int_eq(uet_env_var_name(&var_size, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "FI_UET_TEST_SIZE");
	/* "FI_UET_TEST_CC" needs 15 bytes with its terminator. */
	ck_assert_int_eq(uet_env_var_name(&var_enum, small, sizeof(small)),
			 -EINVAL);
	ck_assert_int_eq(uet_env_var_name(&var_enum, buf, 15), 0);
	ck_assert_str_eq(buf, "FI_UET_TEST_CC");
}
END_TEST

START_TEST(test_register_validation)
{
	static const struct uet_env_var bad[] = {
		UET_ENV_BOOL_VAR("Test_caps", true, "upper case"),
		UET_ENV_BOOL_VAR("test-dash", true, "dash"),
		UET_ENV_BOOL_VAR("", true, "empty name"),
		UET_ENV_BOOL_VAR(NULL, true, "no name"),
		UET_ENV_BOOL_VAR("test_nohelp", true, ""),
		UET_ENV_BOOL_VAR("test_nullhelp", true, NULL),
		UET_ENV_INT_VAR("test_i_lo", -11, -10, 10, "below range"),
		UET_ENV_INT_VAR("test_i_hi", 11, -10, 10, "above range"),
		UET_ENV_UINT_VAR("test_u_lo", 0, 1, 64, "below range"),
		UET_ENV_SIZE_VAR("test_s_hi", 2ull << 30, 4096, 1ull << 30,
				 "above range"),
		UET_ENV_ENUM_VAR("test_e_def", 9, cc_table, "not in table"),
		UET_ENV_ENUM_VAR("test_e_null", 0, NULL, "no table"),
		UET_ENV_BOOL_VAR("test_this_name_is_far_too_long_to_be_an_"
				 "environment_variable_x", true, "long"),
	};
	size_t i;

	uet_env_unregister_all();
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(uet_env_register(&bad[i]) == -EINVAL,
			      "bad declaration %zu accepted", i);
	ck_assert_uint_eq(uet_env_count(), 0);
}
END_TEST

START_TEST(test_register_and_list)
{
	static const struct uet_env_var *const all[] = {
		&var_bool, &var_int, &var_uint, &var_size, &var_enum,
		&var_str, &var_str_null,
	};
	static const struct uet_env_var dup =
		UET_ENV_UINT_VAR("test_uint", 2, 1, 4, "same name");
	struct fi_param *params;
	int count, i, found = 0;

	/* The provider's hook hands definitions to fi_param_define. */
	uet_prov_hooks_install();

	/*
	 * libfabric resets its list of definitions when it initialises, so
	 * (as inside fi_prov_ini) register only after it has: any call
	 * that initialises it will do.
	 */
	ck_assert_int_eq(fi_getparams(&params, &count), 0);
	fi_freeparams(params);

	uet_env_unregister_all();
	ck_assert_int_eq(uet_env_register_all(all, 7), 0);
	ck_assert_uint_eq(uet_env_count(), 7);
	ck_assert_ptr_eq(uet_env_lookup("test_size"), &var_size);
	ck_assert_ptr_eq(uet_env_lookup("test_path"), &var_str_null);
	ck_assert_ptr_null(uet_env_lookup("test_nothing"));
	ck_assert_int_eq(uet_env_register(&dup), -EEXIST);
	ck_assert_int_eq(uet_env_register(&var_bool), -EEXIST);
	ck_assert_uint_eq(uet_env_count(), 7);

	/* libfabric lists them (this is what `fi_info -e` prints). */
	ck_assert_int_eq(fi_getparams(&params, &count), 0);
	for (i = 0; i < count; i++) {
		if (!strcmp(params[i].name, "FI_UET_TEST_SIZE")) {
			found |= 1;
			ck_assert_int_eq(params[i].type, FI_PARAM_STRING);
			ck_assert_str_eq(params[i].help_string,
					 "uet: A test buffer size (size in "
					 "bytes in [4K, 1G], K/M/G suffixes "
					 "multiply by 2^10/2^20/2^30; default "
					 "64K)");
		} else if (!strcmp(params[i].name, "FI_UET_TEST_FLAG")) {
			found |= 2;
			ck_assert_int_eq(params[i].type, FI_PARAM_STRING);
			ck_assert_str_eq(params[i].help_string,
					 "uet: A test flag (boolean: 1/0, "
					 "yes/no, true/false, on/off; default "
					 "true)");
		} else if (!strcmp(params[i].name, "FI_UET_TEST_CC")) {
			found |= 4;
			ck_assert_str_eq(params[i].help_string,
					 "uet: A test CC choice (one of: off, "
					 "nscc, rccc; default nscc)");
		} else if (!strcmp(params[i].name, "FI_UET_TEST_INT")) {
			found |= 8;
			ck_assert_int_eq(params[i].type, FI_PARAM_STRING);
			ck_assert_str_eq(params[i].help_string,
					 "uet: A test integer (integer in "
					 "[-10, 10]; default -3)");
		} else if (!strcmp(params[i].name, "FI_UET_TEST_UINT")) {
			found |= 16;
			ck_assert_int_eq(params[i].type, FI_PARAM_STRING);
		} else if (!strcmp(params[i].name, "FI_UET_TEST_PATH")) {
			found |= 32;
			ck_assert_str_eq(params[i].help_string,
					 "uet: A test path (string; default "
					 "unset)");
		}
	}
	fi_freeparams(params);
	ck_assert_int_eq(found, 63);

	uet_env_unregister_all();
	ck_assert_uint_eq(uet_env_count(), 0);
	ck_assert_ptr_null(uet_env_lookup("test_size"));
}
END_TEST

START_TEST(test_register_full)
{
	static struct uet_env_var vars[UET_ENV_MAX_VARS + 1];
	static char names[UET_ENV_MAX_VARS + 1][16];
	size_t i;

	uet_env_unregister_all();
	for (i = 0; i <= UET_ENV_MAX_VARS; i++) {
		snprintf(names[i], sizeof(names[i]), "test_n%zu", i);
		vars[i].name = names[i];
		vars[i].type = UET_ENV_BOOL;
		vars[i].help = "filler";
	}
	for (i = 0; i < UET_ENV_MAX_VARS; i++)
		ck_assert_int_eq(uet_env_register(&vars[i]), 0);
	ck_assert_int_eq(uet_env_register(&vars[UET_ENV_MAX_VARS]), -ENOSPC);
	ck_assert_uint_eq(uet_env_count(), UET_ENV_MAX_VARS);
	uet_env_unregister_all();
}
END_TEST

START_TEST(test_getters_unset)
{
	unsetenv("FI_UET_TEST_FLAG");
	unsetenv("FI_UET_TEST_INT");
	unsetenv("FI_UET_TEST_UINT");
	unsetenv("FI_UET_TEST_SIZE");
	unsetenv("FI_UET_TEST_CC");
	unsetenv("FI_UET_TEST_IFACE");
	unsetenv("FI_UET_TEST_PATH");
	ck_assert(uet_env_get_bool(&var_bool) == true);
	ck_assert_int_eq(uet_env_get_int(&var_int), -3);
	ck_assert_uint_eq(uet_env_get_uint(&var_uint), 8);
	ck_assert_uint_eq(uet_env_get_size(&var_size), 65536);
	ck_assert_int_eq(uet_env_get_enum(&var_enum), CC_NSCC);
	ck_assert_str_eq(uet_env_get_str(&var_str), "lo");
	ck_assert_ptr_null(uet_env_get_str(&var_str_null));
}
END_TEST

START_TEST(test_getters_valid)
{
	/* Getters need no registration. */
	uet_env_unregister_all();
	setenv("FI_UET_TEST_FLAG", "off", 1);
	setenv("FI_UET_TEST_INT", "-10", 1);
	setenv("FI_UET_TEST_UINT", "0x40", 1);
	setenv("FI_UET_TEST_SIZE", "1G", 1);
	setenv("FI_UET_TEST_CC", "RCCC", 1);
	setenv("FI_UET_TEST_IFACE", "eth7", 1);
	setenv("FI_UET_TEST_PATH", "", 1);
	ck_assert(uet_env_get_bool(&var_bool) == false);
	ck_assert_int_eq(uet_env_get_int(&var_int), -10);
	ck_assert_uint_eq(uet_env_get_uint(&var_uint), 64);
	ck_assert_uint_eq(uet_env_get_size(&var_size), 1ull << 30);
	ck_assert_int_eq(uet_env_get_enum(&var_enum), CC_RCCC);
	ck_assert_str_eq(uet_env_get_str(&var_str), "eth7");
	ck_assert_str_eq(uet_env_get_str(&var_str_null), "");
	/* The lower-case name is not what is read. */
	unsetenv("FI_UET_TEST_FLAG");
	setenv("fi_uet_test_flag", "0", 1);
	ck_assert(uet_env_get_bool(&var_bool) == true);
	unsetenv("fi_uet_test_flag");
}
END_TEST

/*
 * Bad values fall back to the default, and each one is reported with a
 * libfabric warning (FI_LOG_LEVEL=warn, captured from stderr).
 */
START_TEST(test_getters_invalid)
{
	static const struct {
		const char *name;
		const char *value;
	} bad[] = {
		{ "FI_UET_TEST_FLAG", "maybe" },
		{ "FI_UET_TEST_FLAG", "" },
		{ "FI_UET_TEST_INT", "11" },
		{ "FI_UET_TEST_INT", "-11" },
		{ "FI_UET_TEST_INT", "3x" },
		{ "FI_UET_TEST_UINT", "0" },
		{ "FI_UET_TEST_UINT", "65" },
		{ "FI_UET_TEST_UINT", "-1" },
		{ "FI_UET_TEST_SIZE", "99999999999G" },
		{ "FI_UET_TEST_SIZE", "2G" },
		{ "FI_UET_TEST_SIZE", "4095" },
		{ "FI_UET_TEST_SIZE", "64KB" },
		{ "FI_UET_TEST_CC", "dcqcn" },
		{ "FI_UET_TEST_CC", "" },
	};
	char path[] = "/tmp/check_util_env_XXXXXX";
	char log[65536], want[256];
	const char *p;
	struct fi_info *info = NULL;
	int fd, saved, i;
	ssize_t n;

	/* Warnings through the provider's hook, libfabric logging at warn
	 * level. */
	uet_prov_hooks_install();
	setenv("FI_LOG_LEVEL", "warn", 1);
	unsetenv("FI_LOG_PROV");
	unsetenv("FI_LOG_SUBSYS");
	(void)fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, NULL, &info);
	if (info)
		fi_freeinfo(info);

	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	unlink(path);
	saved = dup(STDERR_FILENO);
	ck_assert_int_ge(saved, 0);
	fflush(stderr);
	ck_assert_int_ge(dup2(fd, STDERR_FILENO), 0);

	for (i = 0; i < (int)(sizeof(bad) / sizeof(bad[0])); i++) {
		unsetenv("FI_UET_TEST_FLAG");
		unsetenv("FI_UET_TEST_INT");
		unsetenv("FI_UET_TEST_UINT");
		unsetenv("FI_UET_TEST_SIZE");
		unsetenv("FI_UET_TEST_CC");
		setenv(bad[i].name, bad[i].value, 1);
		ck_assert(uet_env_get_bool(&var_bool) == true);
		ck_assert_int_eq(uet_env_get_int(&var_int), -3);
		ck_assert_uint_eq(uet_env_get_uint(&var_uint), 8);
		ck_assert_uint_eq(uet_env_get_size(&var_size), 65536);
		ck_assert_int_eq(uet_env_get_enum(&var_enum), CC_NSCC);
	}
	/* The same bad value read again: no second warning; another bad
	 * value: its own. */
	unsetenv("FI_UET_TEST_SIZE");
	unsetenv("FI_UET_TEST_CC");
	setenv("FI_UET_TEST_UINT", "77", 1);
	for (i = 0; i < 5; i++)
		ck_assert_uint_eq(uet_env_get_uint(&var_uint), 8);
	setenv("FI_UET_TEST_UINT", "78", 1);
	ck_assert_uint_eq(uet_env_get_uint(&var_uint), 8);

	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = pread(fd, log, sizeof(log) - 1, 0);
	close(fd);
	unsetenv("FI_LOG_LEVEL");
	/*
	 * libfabric reads FI_LOG_LEVEL once, when it initialises: without
	 * fork mode an earlier test has already initialised it.
	 */
	if (!fork_mode())
		return;
	ck_assert_int_gt(n, 0);
	log[n] = '\0';

	for (i = 0; i < (int)(sizeof(bad) / sizeof(bad[0])); i++) {
		snprintf(want, sizeof(want), "%s=\"%s\" is invalid",
			 bad[i].name, bad[i].value);
		ck_assert_msg(strstr(log, want), "no warning \"%s\" in:\n%s",
			      want, log);
	}
	ck_assert_msg(strstr(log, "FI_UET_TEST_SIZE=\"99999999999G\" is "
			     "invalid (expected size in bytes in [4K, 1G], "
			     "K/M/G suffixes multiply by 2^10/2^20/2^30); "
			     "using the default 64K"), "%s", log);
	ck_assert_msg(strstr(log, "FI_UET_TEST_CC=\"dcqcn\" is invalid "
			     "(expected one of: off, nscc, rccc); using the "
			     "default nscc"), "%s", log);
	ck_assert_msg(strstr(log, ":uet:"), "not logged as uet: %s", log);
	p = strstr(log, "FI_UET_TEST_UINT=\"77\" is invalid");
	ck_assert_msg(p, "%s", log);
	ck_assert_msg(!strstr(p + 1, "FI_UET_TEST_UINT=\"77\" is invalid"),
		      "warned twice: %s", log);
	ck_assert_msg(strstr(log, "FI_UET_TEST_UINT=\"78\" is invalid"),
		      "%s", log);
}
END_TEST

/* util without libfabric: registrations and reads go through the env
 * hook; without one, definitions are a no-op and values come from the
 * environment. */
static unsigned int hook_defines;
static char hook_last_help[512];

static int fake_define(const char *name, const char *help)
{
	(void)name;
	hook_defines++;
	snprintf(hook_last_help, sizeof(hook_last_help), "%s", help);
	return 0;
}

static int fake_get(const char *name, const char **value)
{
	if (!strcmp(name, "test_uint")) {
		*value = "7";
		return 0;
	}
	if (!strcmp(name, "test_int")) {
		*value = NULL;		/* known, unset */
		return 0;
	}
	return -ENOENT;
}

static int failing_define(const char *name, const char *help)
{
	(void)name;
	(void)help;
	return -EPERM;
}

START_TEST(test_env_hook)
{
	static const struct uet_env_hook fake = {
		.define = fake_define,
		.get = fake_get,
	};
	static const struct uet_env_hook failing = {
		.define = failing_define,
		.get = fake_get,
	};

	uet_env_unregister_all();
	/* default: no-op definition, getenv */
	uet_env_set_hook(NULL);
	ck_assert_int_eq(uet_env_register(&var_size), 0);
	setenv("FI_UET_TEST_SIZE", "8K", 1);
	ck_assert_uint_eq(uet_env_get_size(&var_size), 8192);
	unsetenv("FI_UET_TEST_SIZE");
	uet_env_unregister_all();

	uet_env_set_hook(&fake);
	hook_defines = 0;
	ck_assert_int_eq(uet_env_register(&var_uint), 0);
	ck_assert_int_eq(uet_env_register(&var_int), 0);
	ck_assert_int_eq(uet_env_register(&var_size), 0);
	ck_assert_uint_eq(hook_defines, 3);
	ck_assert_str_eq(hook_last_help, "A test buffer size (size in bytes "
			 "in [4K, 1G], K/M/G suffixes multiply by "
			 "2^10/2^20/2^30; default 64K)");
	/* the hook's value wins over the environment */
	setenv("FI_UET_TEST_UINT", "9", 1);
	ck_assert_uint_eq(uet_env_get_uint(&var_uint), 7);
	unsetenv("FI_UET_TEST_UINT");
	/* known and unset: the default, whatever the environment says */
	setenv("FI_UET_TEST_INT", "5", 1);
	ck_assert_int_eq(uet_env_get_int(&var_int), -3);
	unsetenv("FI_UET_TEST_INT");
	/* unknown to the hook: the environment */
	setenv("FI_UET_TEST_SIZE", "8K", 1);
	ck_assert_uint_eq(uet_env_get_size(&var_size), 8192);
	unsetenv("FI_UET_TEST_SIZE");
	/* not registered: never asks the hook */
	uet_env_unregister_all();
	setenv("FI_UET_TEST_UINT", "9", 1);
	ck_assert_uint_eq(uet_env_get_uint(&var_uint), 9);
	unsetenv("FI_UET_TEST_UINT");
	/* the hook's error is the registration's */
	uet_env_set_hook(&failing);
	ck_assert_int_eq(uet_env_register(&var_uint), -EPERM);
	ck_assert_uint_eq(uet_env_count(), 0);
	uet_env_set_hook(NULL);
}
END_TEST

static Suite *util_env_suite(void)
{
	Suite *s = suite_create("util_env");
	TCase *tp = tcase_create("parse");
	TCase *tr = tcase_create("registry");

	tcase_add_test(tp, test_parse_bool);
	tcase_add_test(tp, test_parse_uint);
	tcase_add_test(tp, test_parse_int);
	tcase_add_test(tp, test_parse_size);
	tcase_add_test(tp, test_format_size);
	tcase_add_test(tp, test_parse_enum);
	suite_add_tcase(s, tp);

	tcase_set_timeout(tr, 60);
	tcase_add_test(tr, test_var_name);
	tcase_add_test(tr, test_register_validation);
	tcase_add_test(tr, test_register_and_list);
	tcase_add_test(tr, test_register_full);
	tcase_add_test(tr, test_getters_unset);
	tcase_add_test(tr, test_getters_valid);
	tcase_add_test(tr, test_getters_invalid);
	tcase_add_test(tr, test_env_hook);
	suite_add_tcase(s, tr);
	return s;
}

UET_TEST_MAIN(util_env_suite)
