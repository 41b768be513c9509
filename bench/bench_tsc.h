/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Clocks of the TSS benchmarks (bench/uet_tss_*.c): a clock in ns and the
 * TSC rate, so that CPU time converts to cycles.
 */
#ifndef UET_BENCH_TSC_H
#define UET_BENCH_TSC_H

#include <stdint.h>
#include <time.h>

#if defined(__x86_64__)
#include <x86intrin.h>
#define HAVE_TSC 1
#else
#define HAVE_TSC 0
#endif

static inline uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* TSC ticks per ns, measured against the monotonic clock for 50 ms (0
 * without a TSC). */
static inline double tsc_ghz(void)
{
#if HAVE_TSC
	uint64_t t0 = clock_ns(CLOCK_MONOTONIC), c0 = __rdtsc(), t1;

	do {
		t1 = clock_ns(CLOCK_MONOTONIC);
	} while (t1 - t0 < 50000000);
	return (double)(__rdtsc() - c0) / (double)(t1 - t0);
#else
	return 0;
#endif
}

#endif
