/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer harness: the TSS receive path (snic/uet_tss.c) in mode
 * required, two TSS links with one secret on the in-memory fabric.  The
 * first input byte picks the case:
 *   even  the rest is one datagram from the sender's address, as is:
 *         nothing may be delivered (it is unprotected, or its tag cannot
 *         verify: the fuzzer does not know the key);
 *   odd   bytes 1-2 are an offset and an XOR value, the rest a plaintext:
 *         the sender seals it, the byte at offset (mod length) of the
 *         protected datagram is XORed, and the receiver gets it: it must
 *         be delivered, byte-exact, exactly when the XOR value is 0;
 *         then the untouched datagram is delivered once (if the tampered
 *         copy was refused) and a replay of it is not.
 * The sender knows the receiver's SCI from the start
 * (uet_tss_link_learn_peer), so every datagram it seals names it.
 * Any other outcome, or a sanitizer report, is a finding (abort).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uet_link_mem.h"
#include "uet_tss.h"
#include "uet_tss_internal.h"

#define PORT_A	4793
#define PORT_B	4794

static struct uet_link_mem_fabric *fab;
static struct uet_link *ia, *ib, *a, *b;
static struct uet_link_addr addr_b;
static uint8_t wire[70000];

static void setup(void)
{
	struct uet_tss_cfg c;

	memset(&c, 0, sizeof(c));
	c.mode = UET_TSS_REQUIRED;
	c.job_id = 0x1234;
	memset(c.secret, 0x3c, sizeof(c.secret));
	c.sci = 0x01020304;
	if (uet_link_mem_fabric_create(&fab, 1, 9000) ||
	    uet_link_mem_open(fab, PORT_A, &ia) ||
	    uet_link_mem_open(fab, PORT_B, &ib) ||
	    uet_tss_link_open(&c, ia, false, &a) ||
	    uet_tss_link_open(&c, ib, false, &b) ||
	    ib->ops->local_addr(ib, &addr_b) ||
	    uet_tss_link_learn_peer(a, &addr_b, c.sci))
		abort();
}

static int send1(struct uet_link *l, const void *buf, size_t len)
{
	struct uet_link_pkt p = {
		.dst = &addr_b, .iovcnt = 1,
		.iov[0] = { .iov_base = (void *)buf, .iov_len = len },
	};

	return l->ops->send(l, &p, 1);
}

/* Deliver through b: the number of datagrams it returned. */
static int deliver(const uint8_t *buf, size_t len, const uint8_t *want,
		   size_t want_len)
{
	struct uet_link_rx rx[4];
	int n;

	if (send1(ia, buf, len) != 1)
		abort();
	n = b->ops->recv(b, rx, 4);
	if (n < 0 || n > 1)
		abort();
	if (n == 1 && want &&
	    (rx[0].len != want_len || memcmp(rx[0].buf, want, want_len)))
		abort();
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uet_link_rx rx;
	const uint8_t *pt;
	size_t len, wlen, off;
	uint8_t x;

	if (!fab)
		setup();
	if (size < 1)
		return 0;
	if (!(data[0] & 1)) {
		if (size - 1 > 8000)
			return 0;
		if (deliver(data + 1, size - 1, NULL, 0) != 0)
			abort();
		return 0;
	}
	if (size < 3)
		return 0;
	pt = data + 3;
	len = size - 3;
	if (len + UET_TSS_OVERHEAD > 9000)
		return 0;
	if (send1(a, pt, len) != 1 || ib->ops->recv(ib, &rx, 1) != 1)
		abort();
	wlen = rx.len;
	if (wlen != len + UET_TSS_OVERHEAD)
		abort();
	memcpy(wire, rx.buf, wlen);
	off = data[1] % wlen;
	x = data[2];
	wire[off] ^= x;
	if (deliver(wire, wlen, pt, len) != (x == 0))
		abort();
	wire[off] ^= x;
	/* A refused tampered copy left no trace: the original still goes
	 * through once; after that it is a replay. */
	if (x && deliver(wire, wlen, pt, len) != 1)
		abort();
	if (deliver(wire, wlen, NULL, 0) != 0)
		abort();
	return 0;
}
