/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Release builds compile assertions out (NDEBUG, from configure through
 * AM_CPPFLAGS); --enable-debug builds keep them.
 */
#include "config.h"

#include <assert.h>
#include <signal.h>
#include <stdlib.h>

#include "uet_test.h"

START_TEST(test_ndebug_matches_mode)
{
#ifdef UET_DEBUG
#ifdef NDEBUG
	ck_abort_msg("--enable-debug build with NDEBUG defined");
#endif
#else
#ifndef NDEBUG
	ck_abort_msg("release build without NDEBUG: assertions compiled in");
#endif
#endif
}
END_TEST

/* An assertion that fails: aborts in a debug build, is nothing in a
 * release build. */
START_TEST(test_assert_effect)
{
	volatile int zero = 0;

	signal(SIGABRT, SIG_DFL);
	assert(zero);
	(void)zero;
}
END_TEST

static Suite *build_suite(void)
{
	Suite *s = suite_create("build_ndebug");
	TCase *tc = tcase_create("ndebug");
	const char *f = getenv("CK_FORK");

	tcase_add_test(tc, test_ndebug_matches_mode);
	if (!(f && f[0] == 'n')) {
#ifdef UET_DEBUG
		tcase_add_test_raise_signal(tc, test_assert_effect, SIGABRT);
#else
		tcase_add_test(tc, test_assert_effect);
#endif
	}
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(build_suite)
