/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * MPI part of bench/run.py, on 2 ranks:
 *   uet_mpi_bench pingpong    64 B ping-pong, half round trip in usec
 *   uet_mpi_bench allreduce   1 MiB MPI_Allreduce (MPI_SUM on doubles),
 *                             usec per call
 * Rank 0 prints "<what> <value>".  The result of the allreduce is checked.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int pingpong(int rank)
{
	char buf[64] = { 0 };
	const int iters = 10000, warm = 100;
	double t0 = 0.0;
	int i;

	for (i = 0; i < warm + iters; i++) {
		if (i == warm) {
			MPI_Barrier(MPI_COMM_WORLD);
			t0 = MPI_Wtime();
		}
		if (rank == 0) {
			MPI_Send(buf, sizeof(buf), MPI_CHAR, 1, 1, MPI_COMM_WORLD);
			MPI_Recv(buf, sizeof(buf), MPI_CHAR, 1, 1, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(buf, sizeof(buf), MPI_CHAR, 0, 1, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			MPI_Send(buf, sizeof(buf), MPI_CHAR, 0, 1, MPI_COMM_WORLD);
		}
	}
	if (rank == 0)
		printf("pingpong %.3f\n",
		       (MPI_Wtime() - t0) * 1e6 / iters / 2.0);
	return 0;
}

static int allreduce(int rank, int size)
{
	const int n = (1 << 20) / sizeof(double), iters = 50, warm = 5;
	double *in = malloc(n * sizeof(double));
	double *out = malloc(n * sizeof(double));
	double t0 = 0.0;
	int i, bad = 0;

	if (!in || !out)
		MPI_Abort(MPI_COMM_WORLD, 2);
	for (i = 0; i < n; i++)
		in[i] = rank + i % 7;
	for (i = 0; i < warm + iters; i++) {
		if (i == warm) {
			MPI_Barrier(MPI_COMM_WORLD);
			t0 = MPI_Wtime();
		}
		MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
	for (i = 0; i < n; i++)
		if (out[i] != size * (size - 1) / 2.0 + size * (i % 7))
			bad++;
	if (rank == 0 && !bad)
		printf("allreduce %.1f\n", (MPI_Wtime() - t0) * 1e6 / iters);
	free(in);
	free(out);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	int rank, size, ret = 2;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc == 2 && !strcmp(argv[1], "pingpong") && size == 2)
		ret = pingpong(rank);
	else if (argc == 2 && !strcmp(argv[1], "allreduce"))
		ret = allreduce(rank, size);
	else if (rank == 0)
		fprintf(stderr, "usage: %s pingpong|allreduce (2 ranks)\n",
			argv[0]);
	MPI_Finalize();
	return ret;
}
