/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * MPI_Allreduce at scale (test/mpi/scale-allreduce.sh runs it on 64
 * oversubscribed ranks over uet).
 *
 * Every rank contributes values derived from its rank; the sums are known
 * in closed form, so every element of every result is checked.  Counts:
 * 1, 1000 and UET_MPI_AR_COUNT (default 65536) ints (256 KiB), then the
 * same counts of doubles (exact: small integers), each UET_MPI_AR_ITERS
 * times (default 5), plus an MPI_Barrier between rounds.  Rank 0 prints
 * the wall time of the whole loop and of one allreduce of each size.
 *
 * UET_MPI_AR_STALL=S (default 0: off) adds a slow rank: after the loop
 * the last rank sleeps S seconds without calling MPI while rank 0 sends
 * it 8 KiB (above the inject size, so the send completes only once the
 * sleeper's NIC acknowledges it) and then checks what arrived.
 *
 * A mismatch prints a FAIL line and aborts the job; alarm()
 * (UET_MPI_TEST_TIMEOUT seconds, default 300) ends a hang.  The last line
 * of rank 0 is "uet_mpi_allreduce: ALL PASS ranks=N ..." on success.
 */
#define _POSIX_C_SOURCE 200809L

#include <mpi.h>

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define AR_DEFAULT_TIMEOUT	300
#define AR_DEFAULT_COUNT	65536ul
#define AR_DEFAULT_ITERS	5ul

static int ar_rank;
static int ar_nranks;

static void ar_fail(const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "uet_mpi_allreduce: FAIL rank %d/%d: %s\n", ar_rank,
		ar_nranks, msg);
	fflush(stderr);
	MPI_Abort(MPI_COMM_WORLD, 1);
	exit(1);
}

#define AR_MPI(call)                                                         \
	do {                                                                 \
		int ar_rc_ = (call);                                         \
		if (ar_rc_ != MPI_SUCCESS)                                   \
			ar_fail("%s returned %d at line %d", #call, ar_rc_,  \
				__LINE__);                                   \
	} while (0)

static void ar_on_alarm(int sig)
{
	static const char msg[] = "uet_mpi_allreduce: FAIL: timeout "
				  "(alarm), a rank hangs\n";
	ssize_t r;

	(void)sig;
	r = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)r;
	_exit(2);
}

static unsigned long ar_env_ulong(const char *name, unsigned long dflt)
{
	const char *v = getenv(name);
	char *end;
	unsigned long x;

	if (!v || !*v)
		return dflt;
	x = strtoul(v, &end, 0);
	if (*end || !x)
		return dflt;
	return x;
}

/* Rank r's element i: small, so sums over 64 ranks stay exact. */
static int ar_val(int r, size_t i, unsigned long it)
{
	return (int)((r + 1) * 3 + (i % 1009) + it);
}

/* Sum of ar_val over every rank. */
static long ar_sum(size_t i, unsigned long it)
{
	long n = ar_nranks;

	return 3 * n * (n + 1) / 2 + n * (long)((i % 1009) + it);
}

static double ar_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The slow rank (UET_MPI_AR_STALL): rank 0 sends to the last rank while
 * it sleeps without calling MPI. */
static void ar_stall(unsigned long secs)
{
	static unsigned char buf[8192];
	int last = ar_nranks - 1;
	double t;
	size_t i;

	if (ar_nranks < 2)
		return;
	AR_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (ar_rank == 0) {
		for (i = 0; i < sizeof(buf); i++)
			buf[i] = (unsigned char)(i * 7 + 1);
		t = ar_now();
		AR_MPI(MPI_Send(buf, (int)sizeof(buf), MPI_BYTE, last, 99,
				MPI_COMM_WORLD));
		printf("uet_mpi_allreduce: send to a rank stalled %lu s "
		       "completed after %.2f s\n", secs, ar_now() - t);
		fflush(stdout);
	} else if (ar_rank == last) {
		sleep((unsigned int)secs);
		AR_MPI(MPI_Recv(buf, (int)sizeof(buf), MPI_BYTE, 0, 99,
				MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		for (i = 0; i < sizeof(buf); i++)
			if (buf[i] != (unsigned char)(i * 7 + 1))
				ar_fail("stall: byte %zu is %u", i, buf[i]);
	}
	AR_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
	unsigned long count, iters, it, stall;
	size_t counts[3], c, i, n;
	double t0, t1, tsize[3] = { 0, 0, 0 }, ts;
	int *is, *ir;
	double *ds, *dr;

	AR_MPI(MPI_Init(&argc, &argv));
	AR_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &ar_rank));
	AR_MPI(MPI_Comm_size(MPI_COMM_WORLD, &ar_nranks));
	signal(SIGALRM, ar_on_alarm);
	alarm((unsigned int)ar_env_ulong("UET_MPI_TEST_TIMEOUT",
					 AR_DEFAULT_TIMEOUT));
	count = ar_env_ulong("UET_MPI_AR_COUNT", AR_DEFAULT_COUNT);
	iters = ar_env_ulong("UET_MPI_AR_ITERS", AR_DEFAULT_ITERS);
	stall = ar_env_ulong("UET_MPI_AR_STALL", 0);
	counts[0] = 1;
	counts[1] = count < 1000 ? count : 1000;
	counts[2] = count;

	is = malloc(count * sizeof(*is));
	ir = malloc(count * sizeof(*ir));
	ds = malloc(count * sizeof(*ds));
	dr = malloc(count * sizeof(*dr));
	if (!is || !ir || !ds || !dr)
		ar_fail("out of memory (%lu elements)", count);

	AR_MPI(MPI_Barrier(MPI_COMM_WORLD));
	t0 = ar_now();
	for (it = 0; it < iters; it++) {
		for (c = 0; c < 3; c++) {
			n = counts[c];
			for (i = 0; i < n; i++) {
				is[i] = ar_val(ar_rank, i, it);
				ds[i] = (double)ar_val(ar_rank, i, it);
			}
			memset(ir, 0xee, n * sizeof(*ir));
			memset(dr, 0xee, n * sizeof(*dr));
			ts = ar_now();
			AR_MPI(MPI_Allreduce(is, ir, (int)n, MPI_INT, MPI_SUM,
					     MPI_COMM_WORLD));
			AR_MPI(MPI_Allreduce(ds, dr, (int)n, MPI_DOUBLE,
					     MPI_SUM, MPI_COMM_WORLD));
			tsize[c] += ar_now() - ts;
			for (i = 0; i < n; i++) {
				if (ir[i] != ar_sum(i, it))
					ar_fail("int count %zu iter %lu "
						"element %zu: %d, expected "
						"%ld", n, it, i, ir[i],
						ar_sum(i, it));
				if (dr[i] != (double)ar_sum(i, it))
					ar_fail("double count %zu iter %lu "
						"element %zu: %g, expected "
						"%ld", n, it, i, dr[i],
						ar_sum(i, it));
			}
		}
		AR_MPI(MPI_Barrier(MPI_COMM_WORLD));
	}
	t1 = ar_now();
	if (stall)
		ar_stall(stall);
	if (ar_rank == 0) {
		printf("uet_mpi_allreduce: per allreduce pair (int + double): "
		       "count 1 %.3f ms, count %zu %.3f ms, count %zu "
		       "%.3f ms\n", tsize[0] * 1e3 / (double)iters,
		       counts[1], tsize[1] * 1e3 / (double)iters, counts[2],
		       tsize[2] * 1e3 / (double)iters);
		printf("uet_mpi_allreduce: ALL PASS ranks=%d iters=%lu "
		       "count=%lu time=%.3fs\n", ar_nranks, iters, count,
		       t1 - t0);
		fflush(stdout);
	}
	free(is);
	free(ir);
	free(ds);
	free(dr);
	AR_MPI(MPI_Finalize());
	return 0;
}
