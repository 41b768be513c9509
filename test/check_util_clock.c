/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * util/uet_clock: monotonic clock, deadlines, timespec conversions.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "uet_clock.h"
#include "uet_test.h"

static uint64_t raw_monotonic_ns(void)
{
	struct timespec ts;

	ck_assert_int_eq(clock_gettime(CLOCK_MONOTONIC, &ts), 0);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

START_TEST(test_now_monotonic)
{
	uint64_t prev, now, before, after;
	unsigned int i;
	struct timespec nap = { 0, 2000000 };	/* 2 ms */

	/* It is CLOCK_MONOTONIC in ns: bracketed by direct reads. */
	before = raw_monotonic_ns();
	now = uet_clock_now_ns();
	after = raw_monotonic_ns();
	ck_assert_uint_le(before, now);
	ck_assert_uint_le(now, after);

	/* Never goes backwards. */
	prev = uet_clock_now_ns();
	for (i = 0; i < 100000; i++) {
		now = uet_clock_now_ns();
		if (now < prev)
			ck_abort_msg("clock went back: %llu < %llu",
				     (unsigned long long)now,
				     (unsigned long long)prev);
		prev = now;
	}

	/* Advances across a sleep by at least the sleep. */
	before = uet_clock_now_ns();
	ck_assert_int_eq(nanosleep(&nap, NULL), 0);
	after = uet_clock_now_ns();
	ck_assert_uint_ge(after - before, 2000000);
	ck_assert_uint_lt(after - before, 2000000000ull);
}
END_TEST

START_TEST(test_deadline_arith)
{
	struct uet_deadline d, never = uet_deadline_never();

	d = uet_deadline_after(100, 50);
	ck_assert_uint_eq(d.at_ns, 150);
	ck_assert(!uet_deadline_is_never(d));
	ck_assert(!uet_deadline_expired(d, 0));
	ck_assert(!uet_deadline_expired(d, 149));
	ck_assert(uet_deadline_expired(d, 150));
	ck_assert(uet_deadline_expired(d, 151));
	ck_assert_uint_eq(uet_deadline_remaining(d, 100), 50);
	ck_assert_uint_eq(uet_deadline_remaining(d, 149), 1);
	ck_assert_uint_eq(uet_deadline_remaining(d, 150), 0);
	ck_assert_uint_eq(uet_deadline_remaining(d, 10000), 0);

	/* Zero delay: already expired. */
	d = uet_deadline_after(77, 0);
	ck_assert(uet_deadline_expired(d, 77));

	/* Saturation. */
	d = uet_deadline_after(UINT64_MAX - 5, 10);
	ck_assert(uet_deadline_is_never(d));
	d = uet_deadline_after(1, UINT64_MAX);
	ck_assert(uet_deadline_is_never(d));
	d = uet_deadline_after(5, UINT64_MAX - 6);
	ck_assert_uint_eq(d.at_ns, UINT64_MAX - 1);
	ck_assert(!uet_deadline_is_never(d));

	ck_assert(uet_deadline_is_never(never));
	ck_assert(!uet_deadline_expired(never, UINT64_MAX - 1));
	ck_assert_uint_eq(uet_deadline_remaining(never, 0), UINT64_MAX);
	ck_assert_uint_eq(uet_deadline_remaining(never, UINT64_MAX),
			  UINT64_MAX);

	d = uet_deadline_after(0, 10);
	ck_assert_uint_eq(uet_deadline_min(d, never).at_ns, 10);
	ck_assert_uint_eq(uet_deadline_min(never, d).at_ns, 10);
	ck_assert_uint_eq(uet_deadline_min(d, uet_deadline_after(0, 9)).at_ns,
			  9);
}
END_TEST

START_TEST(test_deadline_in)
{
	uint64_t before, after;
	struct uet_deadline d;

	before = uet_clock_now_ns();
	d = uet_deadline_in(5000000);
	after = uet_clock_now_ns();
	ck_assert_uint_ge(d.at_ns, before + 5000000);
	ck_assert_uint_le(d.at_ns, after + 5000000);
	ck_assert(!uet_deadline_expired(d, after));
	ck_assert(uet_deadline_expired(d, after + 5000000));
	ck_assert(uet_deadline_is_never(uet_deadline_in(UINT64_MAX)));
}
END_TEST

START_TEST(test_remaining_ms)
{
	struct uet_deadline d = { 0 };

	ck_assert_int_eq(uet_deadline_remaining_ms(uet_deadline_never(), 0),
			 -1);
	d.at_ns = 0;
	ck_assert_int_eq(uet_deadline_remaining_ms(d, 0), 0);
	ck_assert_int_eq(uet_deadline_remaining_ms(d, 5), 0);
	d.at_ns = 1;
	ck_assert_int_eq(uet_deadline_remaining_ms(d, 0), 1);
	d.at_ns = 1000000;
	ck_assert_int_eq(uet_deadline_remaining_ms(d, 0), 1);
	d.at_ns = 1000001;
	ck_assert_int_eq(uet_deadline_remaining_ms(d, 0), 2);
	ck_assert_int_eq(uet_deadline_remaining_ms(d, 1), 1);
	d.at_ns = 2500000000ull;
	ck_assert_int_eq(uet_deadline_remaining_ms(d, 500000000), 2000);
	d.at_ns = UINT64_MAX - 1;
	ck_assert_int_eq(uet_deadline_remaining_ms(d, 0), INT32_MAX);
	d.at_ns = (uint64_t)INT32_MAX * 1000000;
	ck_assert_int_eq(uet_deadline_remaining_ms(d, 0), INT32_MAX);
	d.at_ns = (uint64_t)(INT32_MAX - 1) * 1000000;
	ck_assert_int_eq(uet_deadline_remaining_ms(d, 0), INT32_MAX - 1);
}
END_TEST

START_TEST(test_timespec_conv)
{
	struct timespec ts;

	ts = uet_ns_to_timespec(0);
	ck_assert_int_eq(ts.tv_sec, 0);
	ck_assert_int_eq(ts.tv_nsec, 0);
	ts = uet_ns_to_timespec(999999999);
	ck_assert_int_eq(ts.tv_sec, 0);
	ck_assert_int_eq(ts.tv_nsec, 999999999);
	ts = uet_ns_to_timespec(1500000000);
	ck_assert_int_eq(ts.tv_sec, 1);
	ck_assert_int_eq(ts.tv_nsec, 500000000);
	ts = uet_ns_to_timespec(UINT64_MAX);
	ck_assert_int_eq(ts.tv_sec, 18446744073);
	ck_assert_int_eq(ts.tv_nsec, 709551615);
	ck_assert_uint_eq(uet_timespec_to_ns(&ts), UINT64_MAX);

	ts.tv_sec = 3;
	ts.tv_nsec = 7;
	ck_assert_uint_eq(uet_timespec_to_ns(&ts), 3000000007ull);
	/* Beyond 2^64 ns saturates. */
	ts.tv_sec = 18446744074;
	ts.tv_nsec = 0;
	ck_assert_uint_eq(uet_timespec_to_ns(&ts), UINT64_MAX);
	ts.tv_sec = 18446744073;
	ts.tv_nsec = 709551616;
	ck_assert_uint_eq(uet_timespec_to_ns(&ts), UINT64_MAX);

	/* A deadline is already on CLOCK_MONOTONIC. */
	ts = uet_deadline_to_timespec(uet_deadline_after(0, 1999999999));
	ck_assert_int_eq(ts.tv_sec, 1);
	ck_assert_int_eq(ts.tv_nsec, 999999999);
	ts = uet_deadline_to_timespec(uet_deadline_never());
	ck_assert_int_eq(ts.tv_sec, 18446744073);
	ck_assert_int_eq(ts.tv_nsec, 709551615);
}
END_TEST

START_TEST(test_abstime)
{
	struct timespec before, after, t;
	uint64_t b, a, v;

	clock_gettime(CLOCK_REALTIME, &before);
	t = uet_clock_abstime(CLOCK_REALTIME, 1500000000);
	clock_gettime(CLOCK_REALTIME, &after);
	b = uet_timespec_to_ns(&before) + 1500000000;
	a = uet_timespec_to_ns(&after) + 1500000000;
	v = uet_timespec_to_ns(&t);
	ck_assert_uint_ge(v, b);
	ck_assert_uint_le(v, a);
	ck_assert_int_ge(t.tv_nsec, 0);
	ck_assert_int_lt(t.tv_nsec, 1000000000);

	/* Carry from tv_nsec into tv_sec, many times over. */
	for (v = 0; v < 2000; v++) {
		t = uet_clock_abstime(CLOCK_MONOTONIC, v * 999999937ull);
		if (t.tv_nsec < 0 || t.tv_nsec >= 1000000000)
			ck_abort_msg("tv_nsec %ld not normalised", t.tv_nsec);
	}

	/* Huge relative times do not wrap into the past. */
	t = uet_clock_abstime(CLOCK_MONOTONIC, UINT64_MAX);
	ck_assert_int_ge(t.tv_sec, 18446744073);
}
END_TEST

/* The conversions drive a real timed wait on a monotonic condvar. */
START_TEST(test_timed_wait)
{
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	pthread_condattr_t attr;
	pthread_cond_t cond;
	struct uet_deadline d;
	struct timespec ts;
	uint64_t start, end;
	int ret;

	ck_assert_int_eq(pthread_condattr_init(&attr), 0);
	ck_assert_int_eq(pthread_condattr_setclock(&attr, CLOCK_MONOTONIC), 0);
	ck_assert_int_eq(pthread_cond_init(&cond, &attr), 0);

	pthread_mutex_lock(&lock);
	start = uet_clock_now_ns();
	d = uet_deadline_after(start, 20000000);	/* 20 ms */
	ts = uet_deadline_to_timespec(d);
	do {
		ret = pthread_cond_timedwait(&cond, &lock, &ts);
	} while (ret == 0);
	end = uet_clock_now_ns();
	ck_assert_int_eq(ret, ETIMEDOUT);
	ck_assert(uet_deadline_expired(d, end));
	ck_assert_uint_ge(end - start, 20000000);

	start = uet_clock_now_ns();
	ts = uet_clock_abstime(CLOCK_MONOTONIC, 10000000);	/* 10 ms */
	do {
		ret = pthread_cond_timedwait(&cond, &lock, &ts);
	} while (ret == 0);
	end = uet_clock_now_ns();
	ck_assert_int_eq(ret, ETIMEDOUT);
	ck_assert_uint_ge(end - start, 10000000);
	pthread_mutex_unlock(&lock);

	pthread_cond_destroy(&cond);
	pthread_condattr_destroy(&attr);
}
END_TEST

static Suite *util_clock_suite(void)
{
	Suite *s = suite_create("util_clock");
	TCase *tc = tcase_create("clock");

	tcase_add_test(tc, test_now_monotonic);
	tcase_add_test(tc, test_deadline_arith);
	tcase_add_test(tc, test_deadline_in);
	tcase_add_test(tc, test_remaining_ms);
	tcase_add_test(tc, test_timespec_conv);
	tcase_add_test(tc, test_abstime);
	tcase_add_test(tc, test_timed_wait);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(util_clock_suite)
