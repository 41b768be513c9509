/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CPU cost of RMA read and write between two software NICs over UDP on
 * 127.0.0.1, with ONE thread progressing both NICs (as
 * bench/uet_tss_nics.c does for sends): every byte's work, both sides'
 * user space and system calls, is done in series on one CPU, so the
 * thread's CPU time per MiB is the total work per MiB whatever else the
 * machine runs.  NIC A keeps DEPTH operations of SIZE bytes in flight
 * against a region of NIC B (fi_rma_bw's pattern), OPS operations a run;
 * read and write alternate, ROUNDS times.  Prints CPU usec per MiB and
 * the MB/s that CPU time allows on one CPU, and the medians.
 * Built and run by bench/rma.sh; not part of make check.
 *
 *   uet_rma_nics [ops per run] [rounds] [size] [depth] [read|write]
 *   (the last one: only that operation)
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_tsc.h"
#include "snic_harness.h"

#define RMA_NICS_ROUNDS_MAX	64

/* ops operations of len bytes from a against key at b, depth at a time;
 * 0, or -1 (a post failed, an operation failed, or no progress). */
static int rma_ops(struct snh_nic *a, struct snh_nic *b, bool read,
		   uint64_t key, uint8_t *buf, size_t len, unsigned int ops,
		   unsigned int depth)
{
	struct snh_cmd c = {
		.family = UET_HSI_FAMILY_RMA,
		.variant = read ? UET_HSI_VARIANT_RECV : UET_HSI_VARIANT_SEND,
		.completion = true, .tag = key, .dest = snh_dest(a, b),
		.buf = buf, .len = len, .nseg = 1, .ext = true,
	};
	uint64_t done = a->sends + ops, posted = a->sends, spins = 0;

	while (a->sends < done) {
		while (posted < done && posted - a->sends < depth) {
			if (snh_post_ring(a, &c))
				return -1;
			posted++;
		}
		if (++spins > 100000000ull || a->bad)
			return -1;
		snh_nic_progress(a);
		snh_nic_progress(b);
	}
	return 0;
}

/* One run; CPU and wall ns per MiB. */
static int run(bool read, unsigned int ops, size_t len, unsigned int depth,
	       double *cpu, double *wall)
{
	static uint8_t *buf, *mem;
	struct uet_hsi_dev *dev;
	struct snh_nic a, b;
	uint64_t key = 0, c0, w0;
	double mib = (double)ops * (double)len / (1024.0 * 1024.0);
	int ret = -1;

	if (!buf && (!(buf = malloc(len)) || !(mem = malloc(len))))
		return -1;
	memset(mem, 0x5a, len);
	memset(buf, 0xa5, len);
	if (snh_nic_open_udp(&a, "127.0.0.1", SNH_JOB, 0x10, 0x20))
		return -1;
	if (snh_nic_open_udp(&b, "127.0.0.1", SNH_JOB, 0x11, 0x21))
		goto out_a;
	dev = b.dev;
	if (dev->ops->mr_reg(dev, mem, len, UET_HSI_ACCESS_REMOTE_READ |
			     UET_HSI_ACCESS_REMOTE_WRITE, 0, &key))
		goto out_b;
	/* Warm up: the PDC, its window, the pools. */
	if (snh_connect(&a, &b) ||
	    rma_ops(&a, &b, read, key, buf, len, depth, depth))
		goto out_dereg;
	c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	w0 = clock_ns(CLOCK_MONOTONIC);
	if (rma_ops(&a, &b, read, key, buf, len, ops, depth))
		goto out_dereg;
	*cpu = (double)(clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0) / mib;
	*wall = (double)(clock_ns(CLOCK_MONOTONIC) - w0) / mib;
	ret = (read ? buf[len - 1] == 0x5a : mem[len - 1] == 0xa5) ? 0 : -1;
out_dereg:
	dev->ops->mr_dereg(dev, key);
out_b:
	snh_nic_close(&b);
out_a:
	snh_nic_close(&a);
	return ret;
}

int main(int argc, char **argv)
{
	unsigned int ops = argc > 1 ? (unsigned int)atoi(argv[1]) : 200;
	unsigned int rounds = argc > 2 ? (unsigned int)atoi(argv[2]) : 5;
	size_t len = argc > 3 ? (size_t)atol(argv[3]) : 1048576;
	unsigned int depth = argc > 4 ? (unsigned int)atoi(argv[4]) : 16;
	static const char *const names[2] = { "write", "read" };
	double cpu[2][RMA_NICS_ROUNDS_MAX], wall, med[2];
	unsigned int r, m, m0 = 0, m1 = 2;

	if (rounds > RMA_NICS_ROUNDS_MAX || !rounds || !ops || !len ||
	    !depth) {
		fprintf(stderr, "uet_rma_nics: 1..%u rounds, ops, size and "
			"depth > 0\n", RMA_NICS_ROUNDS_MAX);
		return 2;
	}
	if (argc > 5) {
		m0 = strcmp(argv[5], "write") ? 1 : 0;
		m1 = m0 + 1;
	}
	printf("one thread, two NICs over UDP on 127.0.0.1, RMA of %zu bytes, "
	       "%u in flight, %u per run\n", len, depth, ops);
	for (r = 0; r < rounds; r++)
		for (m = m0; m < m1; m++) {
			if (run(m == 1, ops, len, depth, &cpu[m][r], &wall)) {
				fprintf(stderr, "uet_rma_nics: %s failed\n",
					names[m]);
				return 1;
			}
			printf("  %-6s CPU %8.1f usec/MiB (%7.1f MB/s on one "
			       "CPU), wall %8.1f usec/MiB\n", names[m],
			       cpu[m][r] / 1e3,
			       1048576.0 / (cpu[m][r] / 1e3), wall / 1e3);
		}
	if (m1 - m0 < 2)
		return 0;
	for (m = 0; m < 2; m++)
		med[m] = bench_median(cpu[m], rounds);
	printf("median CPU per MiB: write %.1f usec, read %.1f usec; "
	       "read/write %.3f\n", med[0] / 1e3, med[1] / 1e3,
	       med[1] / med[0]);
	return 0;
}
