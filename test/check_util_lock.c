/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * util/uet_lock: the lock-order checker (built here with UET_LOCK_CHECK
 * whatever the configuration).  Every pair of levels in order is
 * allowed; every pair out of order, a level taken twice and a release of
 * what is not held abort the process.
 */
#include "config.h"

#include <pthread.h>
#include <signal.h>

#include "uet_lock.h"
#include "uet_test.h"

#ifndef UET_LOCK_CHECK
#error "check_util_lock is built with -DUET_LOCK_CHECK"
#endif

/* Every pair (a, b) with a < b, taken in that order, then released in
 * either order. */
START_TEST(test_every_pair_in_order)
{
	pthread_mutex_t ma = PTHREAD_MUTEX_INITIALIZER;
	pthread_mutex_t mb = PTHREAD_MUTEX_INITIALIZER;
	unsigned int a, b;

	for (a = 1; a < UET_LOCK_NLEVELS; a++) {
		for (b = a + 1; b < UET_LOCK_NLEVELS; b++) {
			uet_lock(&ma, (enum uet_lock_level)a);
			uet_lock(&mb, (enum uet_lock_level)b);
			ck_assert_uint_eq(uet_lock_held(),
					  (1u << a) | (1u << b));
			if ((a + b) & 1) {
				uet_unlock(&mb, (enum uet_lock_level)b);
				uet_unlock(&ma, (enum uet_lock_level)a);
			} else {
				uet_unlock(&ma, (enum uet_lock_level)a);
				uet_unlock(&mb, (enum uet_lock_level)b);
			}
			ck_assert_uint_eq(uet_lock_held(), 0);
		}
	}
	/* The whole chain, outermost first. */
	for (a = 1; a < UET_LOCK_NLEVELS; a++)
		uet_lock_check_acquire((enum uet_lock_level)a);
	for (a = UET_LOCK_NLEVELS - 1; a >= 1; a--)
		uet_lock_check_release((enum uet_lock_level)a);
	ck_assert_uint_eq(uet_lock_held(), 0);
}
END_TEST

/* Each out-of-order pair aborts (child process per pair). */
START_TEST(test_every_pair_reversed)
{
	unsigned int a = 1 + (unsigned int)_i / UET_LOCK_NLEVELS;
	unsigned int b = 1 + (unsigned int)_i % UET_LOCK_NLEVELS;

	if (a >= UET_LOCK_NLEVELS || b >= UET_LOCK_NLEVELS || b > a) {
		raise(SIGABRT);		/* not a reversed pair: nothing */
		return;
	}
	/* b <= a: taking b while holding a is out of order (b == a: the
	 * same level twice). */
	uet_lock_check_acquire((enum uet_lock_level)a);
	uet_lock_check_acquire((enum uet_lock_level)b);
}
END_TEST

/* The endpoint -> AV and endpoint -> device pairs the old comment left
 * out: allowed that way, refused the other. */
START_TEST(test_ep_av_dev)
{
	uet_lock_check_acquire(UET_LOCK_EP);
	uet_lock_check_acquire(UET_LOCK_AV);
	uet_lock_check_release(UET_LOCK_AV);
	uet_lock_check_acquire(UET_LOCK_DEV);
	uet_lock_check_release(UET_LOCK_DEV);
	uet_lock_check_release(UET_LOCK_EP);
	uet_lock_check_acquire(UET_LOCK_AV);
	uet_lock_check_acquire(UET_LOCK_EP);	/* AV -> endpoint: aborts */
}
END_TEST

START_TEST(test_release_unheld)
{
	uet_lock_check_release(UET_LOCK_CQ);
}
END_TEST

static void *other_thread(void *arg)
{
	(void)arg;
	/* Nothing held here, whatever the main thread holds. */
	ck_assert_uint_eq(uet_lock_held(), 0);
	uet_lock_check_acquire(UET_LOCK_WAITSET);
	uet_lock_check_release(UET_LOCK_WAITSET);
	return NULL;
}

/* The levels held are per thread. */
START_TEST(test_per_thread)
{
	pthread_t t;

	uet_lock_check_acquire(UET_LOCK_DEV);
	ck_assert_int_eq(pthread_create(&t, NULL, other_thread, NULL), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	uet_lock_check_release(UET_LOCK_DEV);
}
END_TEST

static Suite *util_lock_suite(void)
{
	Suite *s = suite_create("util_lock");
	TCase *tc = tcase_create("lock");

	tcase_add_test(tc, test_every_pair_in_order);
	tcase_add_loop_test_raise_signal(tc, test_every_pair_reversed, SIGABRT,
					 0, UET_LOCK_NLEVELS *
					    UET_LOCK_NLEVELS);
	tcase_add_test_raise_signal(tc, test_ep_av_dev, SIGABRT);
	tcase_add_test_raise_signal(tc, test_release_unheld, SIGABRT);
	tcase_add_test(tc, test_per_thread);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(util_lock_suite)
