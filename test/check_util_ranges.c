/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * util/uet_ranges: byte coverage sets (exactly-once message assembly).
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "uet_ranges.h"
#include "uet_test.h"

START_TEST(test_append_and_full)
{
	struct uet_ranges r;

	uet_ranges_init(&r);
	ck_assert_int_eq(uet_ranges_add(&r, 0, 0), 0);
	ck_assert(uet_ranges_full(&r, 0));
	ck_assert_int_eq(uet_ranges_add(&r, 0, 500), 0);
	ck_assert_int_eq(uet_ranges_add(&r, 500, 500), 0);
	ck_assert(!uet_ranges_full(&r, 1500));
	ck_assert_uint_eq(r.n, 1);
	ck_assert_int_eq(uet_ranges_add(&r, 1000, 500), 0);
	ck_assert(uet_ranges_full(&r, 1500));
	uet_ranges_fini(&r);
}
END_TEST

/* The duplicate of finding 9: bytes 500-999 twice never count twice. */
START_TEST(test_duplicate_refused)
{
	struct uet_ranges r;

	uet_ranges_init(&r);
	ck_assert_int_eq(uet_ranges_add(&r, 0, 500), 0);
	ck_assert_int_eq(uet_ranges_add(&r, 500, 500), 0);
	ck_assert_int_eq(uet_ranges_add(&r, 500, 500), -EEXIST);
	ck_assert_int_eq(uet_ranges_add(&r, 999, 2), -EEXIST);
	ck_assert_int_eq(uet_ranges_add(&r, 0, 1), -EEXIST);
	ck_assert_uint_eq(r.covered, 1000);
	ck_assert(!uet_ranges_full(&r, 1500));
	ck_assert_int_eq(uet_ranges_add(&r, UINT64_MAX - 1, 4), -EINVAL);
	uet_ranges_fini(&r);
}
END_TEST

/* Random disjoint packets in random order against a byte model. */
START_TEST(test_random_model)
{
	enum { N = 4096 };
	static bool model[N];
	struct uet_ranges r;
	uint64_t s, l, i, cov = 0;
	bool overlap;
	int k, ret;

	memset(model, 0, sizeof(model));
	uet_ranges_init(&r);
	for (k = 0; k < 20000; k++) {
		s = uet_test_rand64() % N;
		l = 1 + uet_test_rand64() % 64;
		if (s + l > N)
			l = N - s;
		overlap = false;
		for (i = s; i < s + l; i++)
			overlap |= model[i];
		ret = uet_ranges_add(&r, s, l);
		if (overlap) {
			ck_assert_int_eq(ret, -EEXIST);
			continue;
		}
		ck_assert_int_eq(ret, 0);
		for (i = s; i < s + l; i++)
			model[i] = true;
		cov += l;
		ck_assert_uint_eq(r.covered, cov);
		for (i = 1; i < r.n; i++)
			ck_assert(r.iv[i - 1].end < r.iv[i].start);
	}
	ck_assert_int_eq(uet_ranges_full(&r, N), cov == N);
	uet_ranges_fini(&r);
}
END_TEST

START_TEST(test_interval_bound)
{
	struct uet_ranges r;
	uint32_t i;

	uet_ranges_init(&r);
	for (i = 0; i < UET_RANGES_MAX; i++)
		ck_assert_int_eq(uet_ranges_add(&r, 2ull * i, 1), 0);
	ck_assert_int_eq(uet_ranges_add(&r, 2ull * i + 10, 1), -ENOSPC);
	/* Filling a hole still works at the bound (it merges). */
	ck_assert_int_eq(uet_ranges_add(&r, 1, 1), 0);
	ck_assert_uint_eq(r.n, UET_RANGES_MAX - 1);
	uet_ranges_fini(&r);
}
END_TEST

static Suite *util_ranges_suite(void)
{
	Suite *s = suite_create("util_ranges");
	TCase *tc = tcase_create("ranges");

	tcase_add_test(tc, test_append_and_full);
	tcase_add_test(tc, test_duplicate_refused);
	tcase_add_test(tc, test_random_model);
	tcase_add_test(tc, test_interval_bound);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(util_ranges_suite)
