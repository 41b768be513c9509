/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Clocks of the benchmarks (bench/uet_tss_*.c, bench/uet_rma_nics.c,
 * bench/uet_code_turn.c): a clock in ns, the TSC rate, so that CPU time
 * converts to cycles, and the median of a run's figures.
 */
#ifndef UET_BENCH_TSC_H
#define UET_BENCH_TSC_H

#include <stdint.h>
#include <stdlib.h>
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

static inline int bench_cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/* The median of v[0..n) (n > 0); v is sorted in place. */
static inline double bench_median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), bench_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
