/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Small helpers shared by the libcheck suites.
 *
 *   UET_TEST_MAIN(make_suite)   defines main(): runs the suite with
 *                               libcheck's normal output and exits
 *                               non-zero on any failure.
 *   uet_test_seed()             the random seed of this run: from
 *                               UET_TEST_SEED if set, else time-based;
 *                               printed so that a failure is replayable.
 *   uet_test_rand64()           xorshift64* generator over that seed.
 *   uet_test_write_file()       a new file of given bytes and mode.
 */
#ifndef UET_TEST_H
#define UET_TEST_H

#include <check.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "uet_rand.h"

static uint64_t uet_test_rng_state;

static inline uint64_t uet_test_seed(void)
{
	static uint64_t seed;
	const char *env;

	if (seed)
		return seed;
	env = getenv("UET_TEST_SEED");
	if (env && *env)
		seed = strtoull(env, NULL, 0);
	else
		seed = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
	if (!seed)
		seed = 0x9e3779b97f4a7c15ull;
	fprintf(stderr, "UET_TEST_SEED=0x%llx\n", (unsigned long long)seed);
	uet_test_rng_state = seed;
	return seed;
}

static inline uint64_t uet_test_rand64(void)
{
	if (!uet_test_rng_state)
		uet_test_seed();
	return uet_rand_next(&uet_test_rng_state);
}

/* Byte i of the test pattern of seed: any byte can be checked alone,
 * and patterns of different seeds differ. */
static inline uint8_t uet_test_pattern(uint64_t seed, size_t i)
{
	uint64_t x = (seed + 1) * 0x9e3779b97f4a7c15ull +
		     (uint64_t)(i / 8) * 0xbf58476d1ce4e5b9ull;

	x ^= x >> 31;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 29;
	return (uint8_t)(x >> (8 * (i % 8)));
}

/* buf = the first len bytes of the pattern of seed. */
static inline void uet_test_fill(uint8_t *buf, size_t len, uint64_t seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = uet_test_pattern(seed, i);
}

/* Uniform value in [0, 2^bits). */
static inline uint64_t uet_test_rand_bits(unsigned int bits)
{
	uint64_t v = uet_test_rand64();

	return bits >= 64 ? v : (v & ((1ull << bits) - 1));
}

/* path (replaced when it exists) holds len bytes of buf, mode mode. */
static inline void uet_test_write_file(const char *path, const void *buf,
				       size_t len, mode_t mode)
{
	int fd;

	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, len), (ssize_t)len);
	ck_assert_int_eq(fchmod(fd, mode), 0);
	close(fd);
}

#define UET_TEST_MAIN(make_suite)					\
	int main(void)							\
	{								\
		SRunner *sr;						\
		int failed;						\
									\
		uet_test_seed();					\
		sr = srunner_create(make_suite());			\
		srunner_run_all(sr, CK_NORMAL);				\
		failed = srunner_ntests_failed(sr);			\
		srunner_free(sr);					\
		return failed ? EXIT_FAILURE : EXIT_SUCCESS;		\
	}

#endif /* UET_TEST_H */
