/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * util/uet_bufpool: fixed-size object pool.
 *
 * Leaks are checked by LeakSanitizer in the sanitizer build (each test
 * runs in its own process and must free everything it allocated, so a
 * destroy that forgot a chunk fails the test).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "uet_bufpool.h"
#include "uet_test.h"

#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif

#ifdef TEST_ASAN
/* test_invalid_attr asks for an impossible allocation: let it fail. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}
#endif

/*
 * For tests that must end the process: restore the default SIGABRT
 * action (Debian's libfabric loads PSM, whose constructor installs a
 * handler that turns abort() into exit(1)) and silence the expected
 * report on stderr.  Runs in libcheck's forked child only.
 */
static void expect_death(void)
{
	int fd = open("/dev/null", O_WRONLY);

	signal(SIGABRT, SIG_DFL);
	if (fd >= 0) {
		dup2(fd, STDERR_FILENO);
		close(fd);
	}
}

static void check_stats(const struct uet_bufpool *pool, size_t in_use,
			size_t high_water, size_t capacity, size_t chunks)
{
	struct uet_bufpool_stats st;

	uet_bufpool_stats(pool, &st);
	ck_assert_uint_eq(st.in_use, in_use);
	ck_assert_uint_eq(st.high_water, high_water);
	ck_assert_uint_eq(st.capacity, capacity);
	ck_assert_uint_eq(st.chunks, chunks);
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(void *const *)a;
	uintptr_t y = (uintptr_t)*(void *const *)b;

	return x < y ? -1 : x > y;
}

START_TEST(test_basic_alignment_reuse)
{
	struct uet_bufpool_attr attr = {
		.size = 40, .align = 64, .chunk_count = 8,
	};
	struct uet_bufpool pool;
	void *objs[24], *sorted[24];
	size_t i;

	ck_assert_int_eq(uet_bufpool_init(&pool, &attr), 0);
	check_stats(&pool, 0, 0, 0, 0);

	for (i = 0; i < 20; i++) {
		objs[i] = uet_bufpool_get(&pool);
		ck_assert_ptr_nonnull(objs[i]);
		ck_assert_uint_eq((uintptr_t)objs[i] % 64, 0);
		/* The whole object is writable (ASan checks the bounds). */
		memset(objs[i], (int)i, 40);
	}
	/* 20 objects in chunks of 8: three chunks, 24 objects. */
	check_stats(&pool, 20, 20, 24, 3);

	/* Distinct and non-overlapping; contents intact. */
	memcpy(sorted, objs, sizeof(void *) * 20);
	qsort(sorted, 20, sizeof(void *), cmp_ptr);
	for (i = 1; i < 20; i++)
		ck_assert_uint_ge((uintptr_t)sorted[i] -
				  (uintptr_t)sorted[i - 1], 64);
	for (i = 0; i < 20; i++) {
		ck_assert_uint_eq(((uint8_t *)objs[i])[0], i);
		ck_assert_uint_eq(((uint8_t *)objs[i])[39], i);
	}

	for (i = 0; i < 20; i++)
		uet_bufpool_put(&pool, objs[i]);
	check_stats(&pool, 0, 20, 24, 3);

	/* Reuse: LIFO, no new chunk for the whole capacity. */
	ck_assert_ptr_eq(uet_bufpool_get(&pool), objs[19]);
	ck_assert_ptr_eq(uet_bufpool_get(&pool), objs[18]);
	uet_bufpool_put(&pool, objs[18]);
	uet_bufpool_put(&pool, objs[19]);
	for (i = 0; i < 24; i++) {
		objs[i] = uet_bufpool_get(&pool);
		ck_assert_ptr_nonnull(objs[i]);
		ck_assert_uint_eq((uintptr_t)objs[i] % 64, 0);
	}
	check_stats(&pool, 24, 24, 24, 3);
	/* One more: a fourth chunk. */
	ck_assert_ptr_nonnull(uet_bufpool_get(&pool));
	check_stats(&pool, 25, 25, 32, 4);
	uet_bufpool_destroy(&pool);
	check_stats(&pool, 0, 25, 0, 0);
}
END_TEST

START_TEST(test_max_count_exhaustion)
{
	struct uet_bufpool_attr attr = {
		.size = 100, .align = 16, .chunk_count = 4, .max_count = 10,
	};
	struct uet_bufpool pool;
	void *objs[10], *o;
	size_t i;

	ck_assert_int_eq(uet_bufpool_init(&pool, &attr), 0);
	for (i = 0; i < 10; i++) {
		objs[i] = uet_bufpool_get(&pool);
		ck_assert_ptr_nonnull(objs[i]);
	}
	/* Chunks of 4, 4 and a last one trimmed to 2. */
	check_stats(&pool, 10, 10, 10, 3);
	ck_assert_ptr_null(uet_bufpool_get(&pool));
	ck_assert_ptr_null(uet_bufpool_get(&pool));
	check_stats(&pool, 10, 10, 10, 3);

	/* One back, one out: the same object. */
	uet_bufpool_put(&pool, objs[4]);
	o = uet_bufpool_get(&pool);
	ck_assert_ptr_eq(o, objs[4]);
	ck_assert_ptr_null(uet_bufpool_get(&pool));

	for (i = 0; i < 10; i++)
		uet_bufpool_put(&pool, objs[i]);
	check_stats(&pool, 0, 10, 10, 3);
	uet_bufpool_destroy(&pool);

	/* chunk_count larger than max_count: one chunk of max_count. */
	attr.chunk_count = 64;
	attr.max_count = 3;
	ck_assert_int_eq(uet_bufpool_init(&pool, &attr), 0);
	for (i = 0; i < 3; i++)
		ck_assert_ptr_nonnull(uet_bufpool_get(&pool));
	ck_assert_ptr_null(uet_bufpool_get(&pool));
	check_stats(&pool, 3, 3, 3, 1);
	uet_bufpool_destroy(&pool);
}
END_TEST

START_TEST(test_alignments)
{
	static const size_t aligns[] = { 0, 1, 2, 8, 16, 32, 64, 128, 4096 };
	static const size_t sizes[] = { 1, 3, 8, 17, 64, 100, 4097 };
	struct uet_bufpool_attr attr = { .chunk_count = 5 };
	struct uet_bufpool pool;
	void *objs[13];
	size_t a, s, i, want;

	for (a = 0; a < sizeof(aligns) / sizeof(aligns[0]); a++) {
		for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			attr.align = aligns[a];
			attr.size = sizes[s];
			want = aligns[a] ? aligns[a] : alignof(max_align_t);
			if (want < alignof(void *))
				want = alignof(void *);
			ck_assert_int_eq(uet_bufpool_init(&pool, &attr), 0);
			for (i = 0; i < 13; i++) {
				objs[i] = uet_bufpool_get(&pool);
				ck_assert_ptr_nonnull(objs[i]);
				ck_assert_uint_eq((uintptr_t)objs[i] % want, 0);
				memset(objs[i], 0xee, sizes[s]);
			}
			check_stats(&pool, 13, 13, 15, 3);
			for (i = 0; i < 13; i++)
				uet_bufpool_put(&pool, objs[i]);
			uet_bufpool_destroy(&pool);
		}
	}
}
END_TEST

START_TEST(test_invalid_attr)
{
	struct uet_bufpool_attr attr = { .size = 0 };
	struct uet_bufpool pool;

	ck_assert_int_eq(uet_bufpool_init(&pool, &attr), -EINVAL);
	attr.size = 8;
	attr.align = 3;
	ck_assert_int_eq(uet_bufpool_init(&pool, &attr), -EINVAL);
	attr.align = 48;
	ck_assert_int_eq(uet_bufpool_init(&pool, &attr), -EINVAL);
	attr.align = 8;
	attr.size = SIZE_MAX;
	ck_assert_int_eq(uet_bufpool_init(&pool, &attr), -EINVAL);
	/* A chunk whose byte size overflows. */
	attr.size = SIZE_MAX / 4;
	attr.chunk_count = 8;
	ck_assert_int_eq(uet_bufpool_init(&pool, &attr), -EINVAL);
	/* A pool that is valid but cannot be allocated up front. */
	attr.size = SIZE_MAX / 64;
	attr.chunk_count = 16;
	attr.initial_count = 1;
	ck_assert_int_eq(uet_bufpool_init(&pool, &attr), -ENOMEM);
}
END_TEST

START_TEST(test_initial_count)
{
	struct uet_bufpool_attr attr = {
		.size = 24, .chunk_count = 32, .initial_count = 100,
	};
	struct uet_bufpool pool;
	void *o;

	ck_assert_int_eq(uet_bufpool_init(&pool, &attr), 0);
	check_stats(&pool, 0, 0, 128, 4);
	o = uet_bufpool_get(&pool);
	check_stats(&pool, 1, 1, 128, 4);
	uet_bufpool_put(&pool, o);
	uet_bufpool_destroy(&pool);

	/* initial_count above max_count stops at max_count. */
	attr.max_count = 50;
	ck_assert_int_eq(uet_bufpool_init(&pool, &attr), 0);
	check_stats(&pool, 0, 0, 50, 2);
	uet_bufpool_destroy(&pool);

	/* Default chunk size. */
	attr.max_count = 0;
	attr.chunk_count = 0;
	attr.initial_count = 1;
	ck_assert_int_eq(uet_bufpool_init(&pool, &attr), 0);
	check_stats(&pool, 0, 0, UET_BUFPOOL_CHUNK, 1);
	uet_bufpool_destroy(&pool);
}
END_TEST

START_TEST(test_owns)
{
	struct uet_bufpool_attr attr = { .size = 32, .chunk_count = 4 };
	struct uet_bufpool a, b;
	void *oa[6], *ob;
	int local;
	size_t i;

	ck_assert_int_eq(uet_bufpool_init(&a, &attr), 0);
	ck_assert_int_eq(uet_bufpool_init(&b, &attr), 0);
	for (i = 0; i < 6; i++)
		oa[i] = uet_bufpool_get(&a);
	ob = uet_bufpool_get(&b);

	for (i = 0; i < 6; i++) {
		ck_assert(uet_bufpool_owns(&a, oa[i]));
		ck_assert(!uet_bufpool_owns(&b, oa[i]));
		ck_assert(!uet_bufpool_owns(&a, (char *)oa[i] + 1));
		ck_assert(!uet_bufpool_owns(&a, (char *)oa[i] + 16));
	}
	ck_assert(uet_bufpool_owns(&b, ob));
	ck_assert(!uet_bufpool_owns(&a, ob));
	ck_assert(!uet_bufpool_owns(&a, &local));
	ck_assert(!uet_bufpool_owns(&a, NULL));

	for (i = 0; i < 6; i++)
		uet_bufpool_put(&a, oa[i]);
	uet_bufpool_put(&b, ob);
	uet_bufpool_destroy(&a);
	uet_bufpool_destroy(&b);
}
END_TEST

/* Debug mode: a clean get/put cycle works and free objects are filled. */
START_TEST(test_debug_clean)
{
	struct uet_bufpool_attr attr = {
		.size = 48, .chunk_count = 4, .debug = true,
	};
	struct uet_bufpool pool;
	void *objs[9];
	size_t i;

	ck_assert_int_eq(uet_bufpool_init(&pool, &attr), 0);
	for (i = 0; i < 9; i++) {
		objs[i] = uet_bufpool_get(&pool);
		ck_assert_ptr_nonnull(objs[i]);
		ck_assert_uint_eq((uintptr_t)objs[i] % alignof(max_align_t), 0);
	}
	for (i = 0; i < 9; i++)
		uet_bufpool_put(&pool, objs[i]);
	for (i = 0; i < 9; i++)
		objs[i] = uet_bufpool_get(&pool);
	/* Reused objects carry the free fill past the link pointer. */
	ck_assert_uint_eq(((uint8_t *)objs[0])[47], 0x5a);
	for (i = 0; i < 9; i++)
		uet_bufpool_put(&pool, objs[i]);
	check_stats(&pool, 0, 9, 12, 3);
	uet_bufpool_destroy(&pool);
}
END_TEST

/* Debug mode: put of a foreign object aborts. */
START_TEST(test_debug_foreign_put)
{
	struct uet_bufpool_attr attr = { .size = 48, .debug = true };
	struct uet_bufpool pool;
	alignas(64) uint8_t foreign[64];

	expect_death();
	ck_assert_int_eq(uet_bufpool_init(&pool, &attr), 0);
	ck_assert_ptr_nonnull(uet_bufpool_get(&pool));
	uet_bufpool_put(&pool, foreign);
	ck_abort_msg("foreign put not detected");
}
END_TEST

/* Debug mode: put of a misaligned pointer into a chunk aborts. */
START_TEST(test_debug_interior_put)
{
	struct uet_bufpool_attr attr = { .size = 48, .debug = true };
	struct uet_bufpool pool;
	uint8_t *o;

	expect_death();
	ck_assert_int_eq(uet_bufpool_init(&pool, &attr), 0);
	o = uet_bufpool_get(&pool);
	ck_assert_ptr_nonnull(o);
	uet_bufpool_put(&pool, o + 8);
	ck_abort_msg("interior put not detected");
}
END_TEST

/* Debug mode: double put aborts. */
START_TEST(test_debug_double_put)
{
	struct uet_bufpool_attr attr = { .size = 48, .debug = true };
	struct uet_bufpool pool;
	void *o;

	expect_death();
	ck_assert_int_eq(uet_bufpool_init(&pool, &attr), 0);
	o = uet_bufpool_get(&pool);
	ck_assert_ptr_nonnull(uet_bufpool_get(&pool));
	uet_bufpool_put(&pool, o);
	uet_bufpool_put(&pool, o);
	ck_abort_msg("double put not detected");
}
END_TEST

#ifdef TEST_ASAN
/* Without debug, AddressSanitizer poisoning still catches a double put. */
START_TEST(test_asan_double_put)
{
	struct uet_bufpool_attr attr = { .size = 48 };
	struct uet_bufpool pool;
	void *o;

	expect_death();
	ck_assert_int_eq(uet_bufpool_init(&pool, &attr), 0);
	o = uet_bufpool_get(&pool);
	uet_bufpool_put(&pool, o);
	uet_bufpool_put(&pool, o);
	ck_abort_msg("double put not detected");
}
END_TEST

/* Use after put is an AddressSanitizer report (exit status 1). */
START_TEST(test_asan_use_after_put)
{
	struct uet_bufpool_attr attr = { .size = 48 };
	struct uet_bufpool pool;
	volatile uint8_t *o;

	expect_death();
	ck_assert_int_eq(uet_bufpool_init(&pool, &attr), 0);
	o = uet_bufpool_get(&pool);
	uet_bufpool_put(&pool, (void *)o);
	o[20] = 1;
	ck_abort_msg("use after put not detected");
}
END_TEST

/* Writing past the object size into the stride padding is reported. */
START_TEST(test_asan_overrun)
{
	struct uet_bufpool_attr attr = { .size = 40, .align = 64 };
	struct uet_bufpool pool;
	volatile uint8_t *o;

	expect_death();
	ck_assert_int_eq(uet_bufpool_init(&pool, &attr), 0);
	o = uet_bufpool_get(&pool);
	o[40] = 1;
	ck_abort_msg("overrun not detected");
}
END_TEST
#endif

/* Random get/put against a model: contents survive, no object twice. */
START_TEST(test_random_model)
{
	enum { SLOTS = 300, ROUNDS = 100000, SIZE = 56 };
	struct uet_bufpool_attr attr = {
		.size = SIZE, .align = 8, .chunk_count = 16, .max_count = 256,
	};
	struct uet_bufpool pool;
	uint8_t *held[SLOTS] = { NULL };
	size_t k, i, in_use = 0, high = 0;
	struct uet_bufpool_stats st;
	uint8_t *o;

	ck_assert_int_eq(uet_bufpool_init(&pool, &attr), 0);
	for (k = 0; k < ROUNDS; k++) {
		i = (size_t)(uet_test_rand64() % SLOTS);
		if (held[i]) {
			ck_assert_uint_eq(held[i][0], (uint8_t)i);
			ck_assert_uint_eq(held[i][SIZE - 1], (uint8_t)~i);
			uet_bufpool_put(&pool, held[i]);
			held[i] = NULL;
			in_use--;
			continue;
		}
		o = uet_bufpool_get(&pool);
		if (in_use == 256) {
			ck_assert_ptr_null(o);
			continue;
		}
		ck_assert_ptr_nonnull(o);
		memset(o, (int)i, SIZE - 1);
		o[SIZE - 1] = (uint8_t)~i;
		held[i] = o;
		if (++in_use > high)
			high = in_use;
	}
	uet_bufpool_stats(&pool, &st);
	ck_assert_uint_eq(st.in_use, in_use);
	ck_assert_uint_eq(st.high_water, high);
	ck_assert_uint_le(st.capacity, 256);
	for (i = 0; i < SLOTS; i++)
		if (held[i])
			uet_bufpool_put(&pool, held[i]);
	uet_bufpool_destroy(&pool);
}
END_TEST

/* Destroy with objects still out frees everything (LSan checks). */
START_TEST(test_destroy_with_objects_out)
{
	struct uet_bufpool_attr attr = { .size = 200, .chunk_count = 3 };
	struct uet_bufpool pool;
	size_t i;

	ck_assert_int_eq(uet_bufpool_init(&pool, &attr), 0);
	for (i = 0; i < 10; i++)
		ck_assert_ptr_nonnull(uet_bufpool_get(&pool));
	check_stats(&pool, 10, 10, 12, 4);
	uet_bufpool_destroy(&pool);
	check_stats(&pool, 0, 10, 0, 0);
	/* Destroy is idempotent. */
	uet_bufpool_destroy(&pool);
}
END_TEST

static bool fork_mode(void)
{
	const char *f = getenv("CK_FORK");

	return !(f && !strcmp(f, "no"));
}

static Suite *util_bufpool_suite(void)
{
	Suite *s = suite_create("util_bufpool");
	TCase *tc = tcase_create("bufpool");

	tcase_add_test(tc, test_basic_alignment_reuse);
	tcase_add_test(tc, test_max_count_exhaustion);
	tcase_add_test(tc, test_alignments);
	tcase_add_test(tc, test_invalid_attr);
	tcase_add_test(tc, test_initial_count);
	tcase_add_test(tc, test_owns);
	tcase_add_test(tc, test_debug_clean);
	tcase_add_test(tc, test_random_model);
	tcase_add_test(tc, test_destroy_with_objects_out);
	/* Tests that end the process need libcheck's fork mode. */
	if (fork_mode()) {
		tcase_add_test_raise_signal(tc, test_debug_foreign_put,
					    SIGABRT);
		tcase_add_test_raise_signal(tc, test_debug_interior_put,
					    SIGABRT);
		tcase_add_test_raise_signal(tc, test_debug_double_put,
					    SIGABRT);
#ifdef TEST_ASAN
		tcase_add_test_raise_signal(tc, test_asan_double_put, SIGABRT);
		tcase_add_exit_test(tc, test_asan_use_after_put, 1);
		tcase_add_exit_test(tc, test_asan_overrun, 1);
#endif
	}
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(util_bufpool_suite)
