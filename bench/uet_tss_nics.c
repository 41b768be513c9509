/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CPU cost of a whole 1 MiB ping-pong between two software NICs over UDP
 * on 127.0.0.1 (PDS, SES, the UDP link, and TSS when FI_UET_TSS says so),
 * with ONE thread progressing both NICs: every byte's work is done in
 * series on one CPU, so the thread's CPU time per MiB is the total work
 * per MiB, whatever else the machine runs.  FI_UET_TSS=off and required
 * (key file FI_UET_TSS_KEY_FILE, which must exist) alternate, ROUNDS
 * times.  Prints CPU usec per MiB (one way) and the MB/s that CPU time
 * allows on one CPU; the required/off ratio of those is the ratio a
 * CPU-bound transfer would see with no overlap between the two sides.
 * Built and run by bench/tss.sh; not part of make check.
 *
 *   uet_tss_nics [iterations per run] [rounds] [size] [off|required]
 *   (the last one: only that mode, e.g. under perf)
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_tsc.h"
#include "snic_harness.h"

/* One message from s to r: post the receive and the send, progress both
 * until r received and s completed.  0, or -1 after too many rounds. */
static int one_way(struct snh_nic *s, struct snh_nic *r, uint8_t *sb,
		   uint8_t *rb, size_t len)
{
	struct snh_cmd rc = {
		.family = UET_HSI_FAMILY_MSG, .variant = UET_HSI_VARIANT_RECV,
		.completion = true, .buf = rb, .len = len, .nseg = 1,
	};
	struct snh_cmd sc = {
		.family = UET_HSI_FAMILY_MSG, .variant = UET_HSI_VARIANT_SEND,
		.completion = true, .dest = snh_dest(s, r), .buf = sb,
		.len = len, .nseg = 1,
	};
	uint64_t recvs = r->recvs + 1, sends = s->sends + 1, spins;

	if (snh_post_ring(r, &rc) || snh_post_ring(s, &sc))
		return -1;
	for (spins = 0; r->recvs < recvs || s->sends < sends; spins++) {
		if (spins > 100000000ull)
			return -1;
		snh_nic_progress(s);
		snh_nic_progress(r);
	}
	return 0;
}

/* iters round trips of len bytes; CPU and wall ns per one-way message. */
static int run(const char *mode, unsigned int iters, size_t len,
	       double *cpu, double *wall)
{
	static uint8_t *sb, *rb;
	struct snh_nic a, b;
	uint64_t c0, w0;
	unsigned int i;
	int ret = -1;

	if (!sb && (!(sb = malloc(len)) || !(rb = malloc(len))))
		return -1;
	memset(sb, 0x5a, len);
	setenv("FI_UET_TSS", mode, 1);
	if (snh_nic_open_udp(&a, "127.0.0.1", SNH_JOB, 0x10, 0x20))
		return -1;
	if (snh_nic_open_udp(&b, "127.0.0.1", SNH_JOB, 0x11, 0x21))
		goto out_a;
	if (snh_connect(&a, &b) || one_way(&a, &b, sb, rb, len) ||
	    one_way(&b, &a, sb, rb, len))
		goto out_b;
	c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	w0 = clock_ns(CLOCK_MONOTONIC);
	for (i = 0; i < iters; i++)
		if (one_way(&a, &b, sb, rb, len) ||
		    one_way(&b, &a, sb, rb, len))
			goto out_b;
	*cpu = (double)(clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0) / (2.0 * iters);
	*wall = (double)(clock_ns(CLOCK_MONOTONIC) - w0) / (2.0 * iters);
	ret = rb[len - 1] == 0x5a ? 0 : -1;
	if (getenv("UET_TSS_NICS_STATS")) {
		struct uet_snic_stats st;

		uet_snic_get_stats(a.dev, &st);
		printf("    A: %llu packets, %llu bytes sent, %llu retx "
		       "(%llu timeout), %llu ACKs sent, %llu received\n",
		       (unsigned long long)st.pds.tx_pkts,
		       (unsigned long long)st.pds.tx_bytes,
		       (unsigned long long)st.pds.retx,
		       (unsigned long long)st.pds.retx_timeout,
		       (unsigned long long)st.pds.ack_tx,
		       (unsigned long long)st.pds.ack_rx);
	}
out_b:
	snh_nic_close(&b);
out_a:
	snh_nic_close(&a);
	return ret;
}

int main(int argc, char **argv)
{
	unsigned int iters = argc > 1 ? (unsigned int)atoi(argv[1]) : 100;
	unsigned int rounds = argc > 2 ? (unsigned int)atoi(argv[2]) : 5;
	size_t len = argc > 3 ? (size_t)atol(argv[3]) : 1048576;
	static const char *const modes[2] = { "off", "required" };
	double cpu[2][64], wall, med[2];
	unsigned int r, m, m0 = 0, m1 = 2;

	if (!getenv("FI_UET_TSS_KEY_FILE") || rounds > 64 || !iters ||
	    !len) {
		fprintf(stderr, "uet_tss_nics: set FI_UET_TSS_KEY_FILE; "
			"1..64 rounds\n");
		return 2;
	}
	if (argc > 4) {
		m0 = strcmp(argv[4], "off") ? 1 : 0;
		m1 = m0 + 1;
	}
	printf("one thread, two NICs over UDP on 127.0.0.1, %zu-byte "
	       "messages, %u round trips per run\n", len, iters);
	for (r = 0; r < rounds; r++)
		for (m = m0; m < m1; m++) {
			if (run(modes[m], iters, len, &cpu[m][r], &wall)) {
				fprintf(stderr, "uet_tss_nics: %s failed\n",
					modes[m]);
				return 1;
			}
			printf("  %-8s CPU %8.1f usec/msg (%7.1f MB/s on one "
			       "CPU), wall %8.1f usec\n", modes[m],
			       cpu[m][r] / 1e3, len / (cpu[m][r] / 1e3),
			       wall / 1e3);
		}
	if (m1 - m0 < 2)
		return 0;
	for (m = 0; m < 2; m++)
		med[m] = bench_median(cpu[m], rounds);
	printf("median CPU per message: off %.1f usec, required %.1f usec; "
	       "CPU-bound MB/s ratio required/off %.3f\n", med[0] / 1e3,
	       med[1] / 1e3, med[0] / med[1]);
	return 0;
}
