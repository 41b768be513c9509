/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Open MPI one-sided test (issue 5; not a CI gate, see test/mpi/README.md):
 * MPI_Put, MPI_Get, MPI_Accumulate, MPI_Fetch_and_op and
 * MPI_Compare_and_swap in a window on every rank, under passive-target
 * (lock_all) and fence synchronisation.  Every result is checked; rank 0
 * prints "osc: ALL PASS" or the first failure and the exit status is
 * non-zero on any failure.  With the argument "nocas" the
 * MPI_Compare_and_swap step is skipped (Open MPI 4.1.4's btl/ofi
 * dereferences a NULL local registration handle in mca_btl_ofi_acswap
 * when osc/rdma calls it without one: test/mpi/README.md).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 1024

static int fails;

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			if (!fails++)					\
				fprintf(stderr, __VA_ARGS__);		\
		}							\
	} while (0)

int main(int argc, char **argv)
{
	int64_t *base, *buf, one = 1, old, cmp, swp;
	int rank, size, peer, i, all;
	int cas = !(argc > 1 && !strcmp(argv[1], "nocas"));
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	peer = (rank + 1) % size;
	buf = calloc(N, sizeof(*buf));
	MPI_Win_allocate(N * sizeof(int64_t) + 64, sizeof(int64_t),
			 MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
	memset(base, 0, N * sizeof(int64_t) + 64);
	MPI_Barrier(MPI_COMM_WORLD);

	/* Put with fence: rank r writes r*1000+i into its peer. */
	for (i = 0; i < N; i++)
		buf[i] = rank * 1000 + i;
	MPI_Win_fence(0, win);
	MPI_Put(buf, N, MPI_INT64_T, peer, 0, N, MPI_INT64_T, win);
	MPI_Win_fence(0, win);
	for (i = 0; i < N; i++)
		CHECK(base[i] == ((rank + size - 1) % size) * 1000 + i,
		      "put: rank %d base[%d] = %ld\n", rank, i, (long)base[i]);

	/* Get under lock_all: read the peer's window back. */
	MPI_Win_lock_all(0, win);
	memset(buf, 0, N * sizeof(*buf));
	MPI_Get(buf, N, MPI_INT64_T, peer, 0, N, MPI_INT64_T, win);
	MPI_Win_flush(peer, win);
	for (i = 0; i < N; i++)
		CHECK(buf[i] == rank * 1000 + i, "get: rank %d buf[%d] = %ld\n",
		      rank, i, (long)buf[i]);
	MPI_Win_unlock_all(win);
	MPI_Barrier(MPI_COMM_WORLD);

	/* Accumulate and fetch-and-op on rank 0's counter word N. */
	MPI_Win_lock_all(0, win);
	MPI_Accumulate(&one, 1, MPI_INT64_T, 0, N, 1, MPI_INT64_T, MPI_SUM,
		       win);
	MPI_Win_flush(0, win);
	MPI_Fetch_and_op(&one, &old, MPI_INT64_T, 0, N + 1, MPI_SUM, win);
	MPI_Win_flush(0, win);
	CHECK(old >= 0 && old < size, "fetch_and_op: rank %d got %ld\n",
	      rank, (long)old);
	MPI_Win_unlock_all(win);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0) {
		CHECK(base[N] == size, "accumulate: %ld != %d\n", (long)base[N],
		      size);
		CHECK(base[N + 1] == size, "fetch_and_op total: %ld != %d\n",
		      (long)base[N + 1], size);
	}

	/* Compare-and-swap: every rank tries to claim word N+2 (0 -> r+1);
	 * exactly one succeeds. */
	if (cas) {
		MPI_Win_lock_all(0, win);
		cmp = 0;
		swp = rank + 1;
		MPI_Compare_and_swap(&swp, &cmp, &old, MPI_INT64_T, 0, N + 2,
				     win);
		MPI_Win_flush(0, win);
		MPI_Win_unlock_all(win);
		i = old == 0;
		MPI_Allreduce(&i, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		CHECK(all == 1, "compare_and_swap: %d winners\n", all);
	}

	MPI_Win_free(&win);
	free(buf);
	MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("osc: %s%s\n", all ? "FAILED" : "ALL PASS",
		       cas ? "" : " (without compare-and-swap)");
	MPI_Finalize();
	return all ? 1 : 0;
}
