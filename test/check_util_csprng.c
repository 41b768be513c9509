/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * util/uet_csprng: unpredictable values from getrandom, never repeated
 * across fork().
 */
#include "config.h"

#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "uet_csprng.h"
#include "uet_test.h"

/* 4,096 draws: no repeat, and about half of the bits set. */
START_TEST(test_distinct)
{
	static uint64_t v[4096];
	unsigned int i, j, ones = 0;

	for (i = 0; i < 4096; i++) {
		v[i] = uet_csprng_u64();
		ones += (unsigned int)__builtin_popcountll(v[i]);
	}
	for (i = 0; i < 4096; i++)
		for (j = i + 1; j < 4096; j++)
			ck_assert_uint_ne(v[i], v[j]);
	/* 262,144 bits, sd 256: a 10 sd band. */
	ck_assert_uint_gt(ones, 131072 - 2560);
	ck_assert_uint_lt(ones, 131072 + 2560);
	ck_assert_uint_eq(uet_csprng_failures(), 0);
}
END_TEST

/* Lengths across the buffered and the direct path. */
START_TEST(test_fill_lengths)
{
	uint8_t a[300], z[300];
	size_t len;

	memset(z, 0, sizeof(z));
	for (len = 1; len <= sizeof(a); len += 37) {
		memset(a, 0, sizeof(a));
		ck_assert_int_eq(uet_csprng_fill(a, len), 0);
		/* 8 or more bytes all zero: 2^-64. */
		if (len >= 8)
			ck_assert(memcmp(a, z, len) != 0);
		ck_assert(memcmp(a + len, z, sizeof(a) - len) == 0);
	}
}
END_TEST

/* The child of a fork draws other values than the parent's next ones:
 * the buffer both inherit is not used after the fork. */
START_TEST(test_fork_fresh)
{
	uint64_t parent[4], child[4];
	unsigned int i, j;
	int fds[2], st;
	pid_t pid;

	(void)uet_csprng_u64();	/* the buffer is full of unused bytes */
	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		for (i = 0; i < 4; i++)
			child[i] = uet_csprng_u64();
		_exit(write(fds[1], child, sizeof(child)) ==
		      (ssize_t)sizeof(child) ? 0 : 1);
	}
	for (i = 0; i < 4; i++)
		parent[i] = uet_csprng_u64();
	ck_assert_int_eq(read(fds[0], child, sizeof(child)),
			 (ssize_t)sizeof(child));
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	close(fds[0]);
	close(fds[1]);
	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++)
			ck_assert_uint_ne(parent[i], child[j]);
}
END_TEST

static Suite *util_csprng_suite(void)
{
	Suite *s = suite_create("util_csprng");
	TCase *tc = tcase_create("csprng");

	tcase_add_test(tc, test_distinct);
	tcase_add_test(tc, test_fill_lengths);
	tcase_add_test(tc, test_fork_fresh);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(util_csprng_suite)
