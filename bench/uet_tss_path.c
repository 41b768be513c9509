/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The cost of the whole TSS link path (snic/uet_tss.c: header, nonce,
 * AES-256-GCM, replay window, context lookup, chunking, opening in place)
 * on top of the link it wraps: 1 MiB at a time is sent from link A to
 * link B of the in-memory fabric (which copies every datagram once, like
 * a socket) and received, with plain links and with TSS required on both.
 * The send and the receive sides are timed separately in thread CPU time
 * (CLOCK_THREAD_CPUTIME_ID, so other load on the machine does not inflate
 * them); cycles = CPU time x the TSC rate.  Prints ns per MiB plain and
 * with TSS, and the cycles per byte TSS adds on each side.  Built and run
 * by bench/tss.sh; not part of make check.
 *
 *   uet_tss_path [seconds per case]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_tsc.h"

#include "uet_link_mem.h"
#include "uet_tss.h"
#include "uet_tss_internal.h"

#define PORT_A	4793
#define PORT_B	4794
#define MIB	(1u << 20)
#define HDR	64		/* PDS + SES headers, a separate iovec */

struct side {
	struct uet_link_mem_fabric *fab;
	struct uet_link *ia, *ib, *a, *b;
};

static int side_open(struct side *s, size_t mtu, int tss)
{
	struct uet_link_addr addr_b;
	struct uet_tss_stats st;
	struct uet_tss_cfg c;

	memset(s, 0, sizeof(*s));
	if (uet_link_mem_fabric_create(&s->fab, 1, mtu) ||
	    uet_link_mem_open(s->fab, PORT_A, &s->ia) ||
	    uet_link_mem_open(s->fab, PORT_B, &s->ib))
		return -1;
	s->a = s->ia;
	s->b = s->ib;
	if (!tss)
		return 0;
	memset(&c, 0, sizeof(c));
	c.mode = UET_TSS_REQUIRED;
	c.job_id = 1;
	memset(c.secret, 0x42, sizeof(c.secret));
	if (uet_tss_link_open(&c, s->ia, false, &s->a) ||
	    uet_tss_link_open(&c, s->ib, false, &s->b))
		return -1;
	/* The sender knows the receiver's instance (SCI) from the start, as
	 * after the first round trip (docs/tss.md, "Instances"). */
	if (uet_tss_link_get_stats(s->b, &st) ||
	    s->ib->ops->local_addr(s->ib, &addr_b) ||
	    uet_tss_link_learn_peer(s->a, &addr_b, st.tx_sci))
		return -1;
	return 0;
}

static void side_close(struct side *s)
{
	if (s->a != s->ia)
		s->a->ops->close(s->a);
	if (s->b != s->ib)
		s->b->ops->close(s->b);
	s->ib->ops->close(s->ib);
	s->ia->ops->close(s->ia);
	uet_link_mem_fabric_destroy(s->fab);
}

/* 1 MiB in datagrams of the link's MTU, n_rounds times: CPU ns of the
 * send and the receive calls; -1 on a failure. */
static int run(struct side *s, double budget, double *tx_ns, double *rx_ns,
	       unsigned int *rounds)
{
	static uint8_t payload[MIB], hdr[HDR];
	static struct uet_link_pkt pk[1024];
	struct uet_link_rx rx[64];
	struct uet_link_addr db;
	size_t dlen = s->a->ops->mtu(s->a), off, len;
	unsigned int n, i, sent, got;
	uint64_t t0, tx = 0, rxt = 0, wall0 = clock_ns(CLOCK_MONOTONIC);
	int r;

	if (s->ib->ops->local_addr(s->ib, &db))
		return -1;
	memset(payload, 0x5a, sizeof(payload));
	for (n = 0, off = 0; off < MIB && n < 1024; n++, off += len) {
		len = MIB - off < dlen - HDR ? MIB - off : dlen - HDR;
		pk[n] = (struct uet_link_pkt){
			.dst = &db, .iovcnt = 2,
			.iov[0] = { hdr, HDR },
			.iov[1] = { payload + off, len },
		};
	}
	*rounds = 0;
	do {
		for (sent = 0; sent < n; ) {
			/* the fabric holds 8 MiB: 1 MiB goes at once */
			t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
			r = s->a->ops->send(s->a, pk + sent, n - sent);
			tx += clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
			if (r <= 0)
				return -1;
			sent += (unsigned int)r;
		}
		for (got = 0; got < n; ) {
			t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
			r = s->b->ops->recv(s->b, rx, 64);
			rxt += clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
			if (r <= 0)
				return -1;
			for (i = 0; i < (unsigned int)r; i++)
				if (rx[i].len <= HDR ||
				    rx[i].buf[rx[i].len - 1] != 0x5a)
					return -1;	/* not what was sent */
			got += (unsigned int)r;
		}
		(*rounds)++;
	} while ((double)(clock_ns(CLOCK_MONOTONIC) - wall0) < budget * 1e9);
	*tx_ns = (double)tx / *rounds;
	*rx_ns = (double)rxt / *rounds;
	return 0;
}

int main(int argc, char **argv)
{
	static const size_t mtus[] = { 65507, 9000, 1472 };
	double budget = argc > 1 ? atof(argv[1]) : 0.5;
	double ghz = tsc_ghz(), tx[2], rx[2];
	unsigned int m, rounds[2];
	struct side s;
	int tss;

	printf("TSC %.2f GHz; thread CPU time per MiB sent / received over "
	       "the in-memory link\n", ghz);
	printf("%-6s %10s %10s %10s %10s %10s %10s\n", "MTU", "plain tx",
	       "plain rx", "TSS tx", "TSS rx", "+cyc/B tx", "+cyc/B rx");
	for (m = 0; m < sizeof(mtus) / sizeof(mtus[0]); m++) {
		for (tss = 0; tss < 2; tss++) {
			if (side_open(&s, mtus[m], tss) ||
			    run(&s, budget, &tx[tss], &rx[tss], &rounds[tss])) {
				fprintf(stderr, "uet_tss_path: failed\n");
				return 1;
			}
			side_close(&s);
		}
		printf("%-6zu %8.0fus %8.0fus %8.0fus %8.0fus %10.2f %10.2f\n",
		       mtus[m], tx[0] / 1e3, rx[0] / 1e3, tx[1] / 1e3,
		       rx[1] / 1e3, ghz * (tx[1] - tx[0]) / MIB,
		       ghz * (rx[1] - rx[0]) / MIB);
	}
	return 0;
}
