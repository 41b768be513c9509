/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The cost of TSS's crypto path (snic/uet_tss_aead.c): AES-256-GCM seal
 * (14 bytes of associated data, the datagram gathered from two iovecs as
 * PDS hands it over) and open, per datagram size: ns per datagram, GB/s
 * and CPU cycles per byte.  Times are the thread's CPU time
 * (CLOCK_THREAD_CPUTIME_ID), so other load on the machine does not
 * inflate them; cycles are CPU time times the TSC rate (rdtsc against
 * the monotonic clock, x86-64).  Built and run by bench/tss.sh; not part
 * of make check.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_tsc.h"

#include "uet_tss_internal.h"

static uint64_t now_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 64, 512, 1422, 4096, 8192, 65000 };
	static uint8_t pt[65536], ct[65536], back[65536];
	uint8_t key[32], nonce[12] = { 0 }, aad[14] = { 0 }, tag[16];
	double budget = argc > 1 ? atof(argv[1]) : 0.3;	/* s per size */
	struct uet_tss_aead enc, dec;
	struct iovec iov[2];
	size_t s, len;
	uint64_t n, t0, t1, i;
	double ghz = tsc_ghz();

	memset(key, 0x42, sizeof(key));
	memset(pt, 0x5a, sizeof(pt));
	if (uet_tss_aead_init(&enc, key, 1) || uet_tss_aead_init(&dec, key, 0))
		return 1;
	printf("TSC %.2f GHz; CPU time of this thread\n", ghz);
	printf("%-8s %-5s %12s %10s %12s\n", "bytes", "op", "ns/datagram",
	       "GB/s", "cycles/byte");
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		len = sizes[s];
		iov[0] = (struct iovec){ pt, 14 < len ? 14 : len };
		iov[1] = (struct iovec){ pt + iov[0].iov_len,
					 len - iov[0].iov_len };
		for (int op = 0; op < 2; op++) {
			n = 0;
			t0 = now_ns();
			do {
				for (i = 0; i < 64; i++, n++) {
					nonce[11] = (uint8_t)n;
					if (op == 0) {
						uet_tss_aead_seal(&enc, nonce,
								  aad, 14, iov,
								  2, ct, tag);
					} else if (uet_tss_aead_open(&dec,
							nonce, aad, 14, ct,
							len, back, tag)) {
						nonce[11] = (uint8_t)(n + 1);
					}
				}
				t1 = now_ns();
			} while ((double)(t1 - t0) < budget * 1e9);
			/* open re-verifies the last sealed datagram: the tag
			 * check fails for other nonces, which costs the same
			 * (the whole datagram is authenticated first) */
			printf("%-8zu %-5s %12.1f %10.2f %12.2f\n", len,
			       op ? "open" : "seal",
			       (double)(t1 - t0) / (double)n,
			       (double)n * (double)len / (double)(t1 - t0),
			       ghz * (double)(t1 - t0) /
			       ((double)n * (double)len));
		}
	}
	uet_tss_aead_fini(&enc);
	uet_tss_aead_fini(&dec);
	return 0;
}
