/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * MPI part of bench/run.py, on 2 ranks:
 *   uet_mpi_bench pingpong [BYTES]   ping-pong (default 64 B), half round
 *                                    trip in usec
 *   uet_mpi_bench allreduce [BYTES]  MPI_Allreduce (MPI_SUM on doubles,
 *                                    default 1 MiB, at least 8 B), usec
 *                                    per call
 * Rank 0 prints "<what> <value>".  The result of the allreduce is checked.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int pingpong(int rank, int bytes)
{
	char *buf = calloc(1, (size_t)bytes + 1);
	const int iters = 10000, warm = 100;
	double t0 = 0.0;
	int i;

	if (!buf)
		MPI_Abort(MPI_COMM_WORLD, 2);

	for (i = 0; i < warm + iters; i++) {
		if (i == warm) {
			MPI_Barrier(MPI_COMM_WORLD);
			t0 = MPI_Wtime();
		}
		if (rank == 0) {
			MPI_Send(buf, bytes, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
			MPI_Recv(buf, bytes, MPI_CHAR, 1, 1, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(buf, bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			MPI_Send(buf, bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
		}
	}
	if (rank == 0)
		printf("pingpong %.3f\n",
		       (MPI_Wtime() - t0) * 1e6 / iters / 2.0);
	free(buf);
	return 0;
}

static int allreduce(int rank, int size, int bytes)
{
	const int n = bytes / (int)sizeof(double);
	const int iters = bytes >= (64 << 10) ? 50 : 5000;
	const int warm = iters / 10;
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
	int rank, size, ret = 2, bytes = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc == 3)
		bytes = atoi(argv[2]);
	if ((argc == 2 || (argc == 3 && bytes > 0)) &&
	    !strcmp(argv[1], "pingpong") && size == 2)
		ret = pingpong(rank, argc == 3 ? bytes : 64);
	else if ((argc == 2 || (argc == 3 && bytes >= 8)) &&
		 !strcmp(argv[1], "allreduce"))
		ret = allreduce(rank, size, argc == 3 ? bytes : 1 << 20);
	else if (rank == 0)
		fprintf(stderr, "usage: %s pingpong|allreduce [BYTES] "
			"(2 ranks)\n", argv[0]);
	MPI_Finalize();
	return ret;
}
