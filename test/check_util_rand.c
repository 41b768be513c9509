/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * util/uet_rand.h: xorshift64*, the one generator of the tree.
 */
#include "config.h"

#include <stdint.h>

#include "uet_rand.h"
#include "uet_test.h"

/* The first outputs from state 1, worked out by hand from the definition
 * (x ^= x >> 12; x ^= x << 25; x ^= x >> 27; out = x * 0x2545F4914F6CDD1D
 * mod 2^64). */
START_TEST(test_known_answers)
{
	uint64_t s = 1;

	ck_assert_uint_eq(uet_rand_next(&s), 0x47e4ce4b896cdd1dull);
	ck_assert_uint_eq(s, 0x2000001ull);
	ck_assert_uint_eq(uet_rand_next(&s), 0xabcfa6a8e079651dull);
	ck_assert_uint_eq(s, 0x4004000802801ull);
	ck_assert_uint_eq(uet_rand_next(&s), 0xb9d10d8feb731f57ull);
	ck_assert_uint_eq(s, 0xd004003202803ull);
}
END_TEST

/* A non-zero state never becomes 0, and the high bits are spread. */
START_TEST(test_never_zero)
{
	uint64_t s = 0x9e3779b97f4a7c15ull, ones = 0;
	unsigned int i;

	for (i = 0; i < 100000; i++) {
		ones += uet_rand_next(&s) >> 63;
		ck_assert_uint_ne(s, 0);
	}
	ck_assert_uint_gt(ones, 49000);
	ck_assert_uint_lt(ones, 51000);
}
END_TEST

static Suite *util_rand_suite(void)
{
	Suite *s = suite_create("util_rand");
	TCase *tc = tcase_create("rand");

	tcase_add_test(tc, test_known_answers);
	tcase_add_test(tc, test_never_zero);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(util_rand_suite)
