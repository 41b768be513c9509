/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SES RMA and atomics over the real PDS on the in-memory link, with 5%
 * loss, 5% reordering, duplicates and jitter (the SES unit test,
 * check_ses, runs over a fake PDS that never loses anything).  Two NICs,
 * fake time advanced to the next deadline of either side or the fabric;
 * every wait is bounded.  Checks that data arrives intact, that every
 * refusal still reaches the initiator and leaves the target's memory
 * alone, and that an atomic is applied exactly once whatever PDS
 * retransmits.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "uet_link_mem.h"
#include "uet_pds.h"
#include "uet_ses.h"
#include "uet_ses_internal.h"
#include "uet_test.h"
#include "uet_wire_consts.h"

#define US		1000ull
#define MS		1000000ull
#define KIB		1024u
#define MIB		(1024u * 1024u)
#define JOB		0x4242u
#define MAX_CMPL	1024
#define MAX_EV		1024
#define WAIT_LIMIT	(600ull * 1000 * MS)	/* fake time */
#define ACC_RW	(UET_SES_ACC_REMOTE_READ | UET_SES_ACC_REMOTE_WRITE)

struct lnode {
	struct uet_link *link;
	struct uet_pds *pds;
	struct uet_ses *ses;
	struct uet_ses_ep *ep;
	struct uet_ses_addr addr;
	struct uet_ses_send_cmpl s[MAX_CMPL];
	size_t ns;
	struct uet_ses_rma_event ev[MAX_EV];
	size_t nev;
};

struct lw {
	struct uet_link_mem_fabric *fab;
	struct lnode n[2];
	uint64_t now;
	uintptr_t seq;
};

static void on_send_done(void *ctx, const struct uet_ses_send_cmpl *c)
{
	struct lnode *n = ctx;

	ck_assert_uint_lt(n->ns, MAX_CMPL);
	n->s[n->ns++] = *c;
}

static void on_recv_done(void *ctx, const struct uet_ses_recv_cmpl *c)
{
	(void)ctx;
	(void)c;
	ck_abort_msg("no receive was posted");
}

static void on_rma_event(void *ctx, const struct uet_ses_rma_event *e)
{
	struct lnode *n = ctx;

	ck_assert_uint_lt(n->nev, MAX_EV);
	n->ev[n->nev++] = *e;
}

static const struct uet_ses_upcalls up = {
	.send_done = on_send_done,
	.recv_done = on_recv_done,
	.rma_event = on_rma_event,
};

/* Links of base_mtu (0: fab_mtu) over a fabric of fab_mtu: every path
 * wider than the link when base_mtu < fab_mtu (uet_link_mem_set_base_mtu). */
static struct lw *lw_new_mtu(size_t fab_mtu, size_t base_mtu)
{
	struct uet_link_mem_faults f;
	struct uet_ses_cfg scfg;
	struct uet_pds_cfg pcfg;
	struct lw *w = calloc(1, sizeof(*w));
	unsigned int i;

	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(uet_link_mem_fabric_create(&w->fab,
						    uet_test_rand64() | 1,
						    fab_mtu), 0);
	memset(&f, 0, sizeof(f));
	f.drop_ppm = 50000;
	f.reorder_ppm = 50000;
	f.dup_ppm = 10000;
	f.delay_ns = 10 * US;
	f.jitter_ns = 20 * US;
	uet_link_mem_fabric_set_faults(w->fab, &f);
	w->now = 1000 * MS;
	uet_link_mem_fabric_set_time(w->fab, w->now);
	uet_ses_cfg_default(&scfg);
	for (i = 0; i < 2; i++) {
		struct lnode *n = &w->n[i];

		uet_pds_cfg_default(&pcfg);
		pcfg.window = 64;
		pcfg.rto_init_ns = 200 * US;
		pcfg.rto_min_ns = 100 * US;
		pcfg.rto_max_ns = 5 * MS;
		pcfg.max_retries = 60;
		pcfg.ack_delay_ns = 20 * US;
		pcfg.idle_close_ns = 0;
		pcfg.seed = uet_test_rand64() | 1;
		ck_assert_int_eq(uet_link_mem_open(w->fab, (uint16_t)(4000 + i),
						   &n->link), 0);
		if (base_mtu)
			ck_assert_int_eq(uet_link_mem_set_base_mtu(n->link,
								   base_mtu),
					 0);
		ck_assert_int_eq(uet_pds_create(&n->pds, &pcfg, n->link, NULL,
						NULL), 0);
		ck_assert_int_eq(uet_ses_create(&n->ses, &scfg, n->pds, &up,
						n), 0);
		ck_assert_int_eq(uet_ses_ep_open(n->ses, JOB, 0x30 + i,
						 0x40 + i, &n->ep), 0);
		ck_assert_int_eq(n->link->ops->local_addr(n->link,
							  &n->addr.fa), 0);
		n->addr.job_id = JOB;
		n->addr.pid_on_fep = 0x30 + i;
		n->addr.ri = 0x40 + i;
	}
	return w;
}

static struct lw *lw_new(void)
{
	return lw_new_mtu(1500, 0);
}

static void lw_free(struct lw *w)
{
	unsigned int i;

	for (i = 0; i < 2; i++)
		uet_ses_destroy(w->n[i].ses);
	for (i = 0; i < 2; i++) {
		uet_pds_destroy(w->n[i].pds);
		w->n[i].link->ops->close(w->n[i].link);
	}
	uet_link_mem_fabric_destroy(w->fab);
	free(w);
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* Advance fake time to the next thing to do and do it. */
static void lw_step(struct lw *w)
{
	uint64_t next = uet_link_mem_fabric_next_delivery(w->fab);
	unsigned int i;

	for (i = 0; i < 2; i++) {
		next = min_u64(next, uet_pds_next_deadline(w->n[i].pds));
		next = min_u64(next, uet_ses_next_deadline(w->n[i].ses));
	}
	if (next == UINT64_MAX)
		next = w->now + 100 * US;
	if (next <= w->now)
		next = w->now + 1;
	w->now = next;
	uet_link_mem_fabric_set_time(w->fab, w->now);
	for (i = 0; i < 2; i++) {
		while (uet_pds_poll(w->n[i].pds, w->now) > 0)
			;
		uet_ses_progress(w->n[i].ses, w->now);
	}
}

static const struct uet_ses_send_cmpl *find_send(const struct lnode *n,
						 const void *ctx)
{
	size_t i;

	for (i = 0; i < n->ns; i++)
		if (n->s[i].op_ctx == ctx)
			return &n->s[i];
	return NULL;
}

/* Until node 0 has count more completions than it had at start. */
static void lw_wait_count(struct lw *w, size_t count)
{
	uint64_t limit = w->now + WAIT_LIMIT;

	while (w->n[0].ns < count) {
		ck_assert_msg(w->now < limit, "no completion in time");
		lw_step(w);
	}
}

static struct uet_ses_send_cmpl lw_wait(struct lw *w, const void *ctx)
{
	uint64_t limit = w->now + WAIT_LIMIT;
	const struct uet_ses_send_cmpl *c;

	while (!(c = find_send(&w->n[0], ctx))) {
		ck_assert_msg(w->now < limit, "no completion in time");
		lw_step(w);
	}
	return *c;
}

static struct uet_ses_stats lw_stats(struct lw *w, unsigned int i)
{
	struct uet_ses_stats st;

	uet_ses_get_stats(w->n[i].ses, &st);
	return st;
}

static void *new_ctx(struct lw *w)
{
	return (void *)++w->seq;
}

static uint64_t mr_reg(struct lw *w, void *addr, size_t len, uint32_t access,
		       bool virt)
{
	struct uet_ses_mr_attr a;
	uint64_t key;

	memset(&a, 0, sizeof(a));
	a.addr = addr;
	a.len = len;
	a.access = access;
	a.virt_addr = virt;
	ck_assert_int_eq(uet_ses_mr_reg(w->n[1].ses, &a, &key), 0);
	return key;
}

/* An RMA from node 0 to node 1, buf in `pieces` iovecs. */
static int lw_rma(struct lw *w, uint8_t kind, uint64_t key, uint64_t raddr,
		  bool hd, uint64_t hdata, void *buf, size_t len,
		  unsigned int pieces, void *ctx)
{
	struct uet_ses_rma_req req;
	struct iovec iov[16];
	size_t off = 0, n;
	unsigned int i;

	if (pieces > 16)
		pieces = 16;
	for (i = 0; i < pieces; i++) {
		n = i == pieces - 1 ? len - off : len / pieces;
		iov[i].iov_base = (uint8_t *)buf + off;
		iov[i].iov_len = n;
		off += n;
	}
	memset(&req, 0, sizeof(req));
	req.ep = w->n[0].ep;
	req.dst = w->n[1].addr;
	req.kind = kind;
	req.key = key;
	req.raddr = raddr;
	req.has_data = hd;
	req.header_data = hdata;
	req.iov = iov;
	req.iovcnt = pieces;
	req.op_ctx = ctx;
	return uet_ses_rma(w->n[0].ses, &req, w->now);
}

static int lw_amo(struct lw *w, bool fetch, uint64_t key, uint64_t raddr,
		  uint8_t op, uint8_t dtype, const void *operand, size_t len,
		  const void *compare, void *result, void *ctx)
{
	struct uet_ses_rma_req req;
	struct iovec iov, res;

	memset(&req, 0, sizeof(req));
	req.ep = w->n[0].ep;
	req.dst = w->n[1].addr;
	req.kind = fetch ? UET_SES_RMA_FETCH : UET_SES_RMA_ATOMIC;
	req.key = key;
	req.raddr = raddr;
	iov.iov_base = (void *)operand;
	iov.iov_len = len;
	req.iov = &iov;
	req.iovcnt = 1;
	req.amo_op = op;
	req.amo_dtype = dtype;
	if (compare)
		memcpy(req.compare, compare, uet_amo_dtype_size(dtype));
	if (fetch) {
		res.iov_base = result;
		res.iov_len = len;
		req.res_iov = &res;
		req.res_iovcnt = 1;
	}
	req.op_ctx = ctx;
	return uet_ses_rma(w->n[0].ses, &req, w->now);
}

/* An RMA of len bytes at offset 0 of key, to completion. */
static struct uet_ses_send_cmpl lw_wait_rma(struct lw *w, uint8_t kind,
					    uint64_t key, void *buf,
					    size_t len)
{
	void *ctx = new_ctx(w);

	ck_assert_int_eq(lw_rma(w, kind, key, 0, false, 0, buf, len, 1, ctx),
			 0);
	return lw_wait(w, ctx);
}

/* Write then read back len bytes, pieces iovecs each way. */
static void roundtrip(struct lw *w, size_t len, bool virt, unsigned int pieces)
{
	struct lnode *b = &w->n[1];
	struct uet_ses_send_cmpl c;
	uint8_t *src, *mem, *back;
	void *wc = new_ctx(w), *rc = new_ctx(w);
	size_t nev = b->nev;
	uint64_t key, copied = lw_stats(w, 1).reply_copy_bytes;

	src = malloc(len + 1);
	mem = calloc(1, len + 128);
	back = calloc(1, len + 1);
	ck_assert(src && mem && back);
	uet_test_fill(src, len, len);
	key = mr_reg(w, mem, len + 128, ACC_RW, virt);
	ck_assert_int_eq(lw_rma(w, UET_SES_RMA_WRITE, key,
				virt ? (uintptr_t)mem + 64 : 64, true, ~len,
				src, len, pieces, wc), 0);
	c = lw_wait(w, wc);
	ck_assert_int_eq(c.status, 0);
	ck_assert_uint_eq(c.len, len);
	ck_assert_msg(!memcmp(mem + 64, src, len), "len %zu: written", len);
	ck_assert_uint_eq(mem[63], 0);
	ck_assert_uint_eq(mem[64 + len], 0);
	ck_assert_uint_eq(b->nev, nev + 1);
	ck_assert_uint_eq(b->ev[nev].kind, UET_SES_RMA_WRITE);
	ck_assert_uint_eq(b->ev[nev].len, len);
	ck_assert_uint_eq(b->ev[nev].header_data, ~len);
	ck_assert_int_eq(lw_rma(w, UET_SES_RMA_READ, key,
				virt ? (uintptr_t)mem + 64 : 64, false, 0,
				back, len, pieces + 2, rc), 0);
	c = lw_wait(w, rc);
	ck_assert_int_eq(c.status, 0);
	ck_assert_uint_eq(c.len, len);
	ck_assert_msg(!memcmp(back, src, len), "len %zu: read back", len);
	ck_assert_uint_eq(b->nev, nev + 2);
	/* Every reply (retransmissions included) left from the registered
	 * memory itself: nothing copied until the deregistration, which
	 * copies what is not yet acknowledged. */
	ck_assert_uint_eq(lw_stats(w, 1).reply_copy_bytes, copied);
	ck_assert_int_eq(uet_ses_mr_dereg(b->ses, key), 0);
	free(src);
	free(mem);
	free(back);
}

START_TEST(test_loss_sizes)
{
	static const size_t sizes[] = { 0, 1, 4 * KIB, 100 * KIB + 3, MIB,
					16 * MIB };
	struct uet_link_mem_stats fs;
	struct uet_pds_stats ps;
	struct lw *w = lw_new();
	unsigned int i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		roundtrip(w, sizes[i], i & 1, 1 + i);
	uet_pds_get_stats(w->n[0].pds, &ps);
	uet_link_mem_fabric_get_stats(w->fab, &fs);
	/* The loss was real. */
	ck_assert_uint_gt(ps.retx, 100);
	ck_assert_uint_gt(fs.dropped, 1000);
	ck_assert_uint_gt(fs.reordered, 1000);
	lw_free(w);
}
END_TEST

/* No loss, no duplicates, no reordering: only drop_ppm (and a fixed
 * latency), so that a test decides which datagrams are lost. */
static void lw_faults(struct lw *w, uint32_t drop_ppm)
{
	struct uet_link_mem_faults f;

	memset(&f, 0, sizeof(f));
	f.drop_ppm = drop_ppm;
	f.delay_ns = 10 * US;
	uet_link_mem_fabric_set_faults(w->fab, &f);
}

static uint8_t *map_region(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert(p != MAP_FAILED);
	return p;
}

/*
 * A READ is served and every Response with Data is lost; the target
 * deregisters the region at once (uet_ses_mr_dereg returns without any
 * time passing and without an ACK from the peer), overwrites it and
 * unmaps it.  The retransmissions carry the region's bytes as they were
 * when the replies were built: the read completes with the original
 * data, and nothing touches the unmapped pages (a SIGSEGV otherwise).
 */
static void read_dereg_in_flight(struct lw *w)
{
	const size_t len = 40 * KIB + 5;	/* 29 replies (3 wide): a window */
	struct uet_ses_send_cmpl c;
	struct uet_ses_stats st;
	uint8_t *src, *mem, *back;
	void *ctx = new_ctx(w);
	uint64_t key, t;

	lw_faults(w, 0);
	src = malloc(len);
	back = malloc(len);
	ck_assert(src && back);
	uet_test_fill(src, len, 77);
	memset(back, 0xa5, len);
	mem = map_region(len);
	memcpy(mem, src, len);
	key = mr_reg(w, mem, len, ACC_RW, false);
	/* A first read verifies the PDC (its window opens past the few
	 * packets of an unverified one). */
	c = lw_wait_rma(w, UET_SES_RMA_READ, key, back, len);
	ck_assert_int_eq(c.status, 0);
	memset(back, 0xa5, len);

	/* The READ reaches the target; what the target sends is lost. */
	ck_assert_int_eq(lw_rma(w, UET_SES_RMA_READ, key, 0, false, 0, back,
				len, 1, ctx), 0);
	lw_faults(w, 1000000);
	while (lw_stats(w, 1).rma_bytes_rx < 2 * len)
		lw_step(w);
	lw_faults(w, 0);
	st = lw_stats(w, 1);
	ck_assert_uint_eq(st.rma_rx, 2);
	ck_assert_uint_eq(st.reply_copy_bytes, 0);
	ck_assert_uint_eq(w->n[0].ns, 1);

	t = w->now;
	ck_assert_int_eq(uet_ses_mr_dereg(w->n[1].ses, key), 0);
	ck_assert_uint_eq(w->now, t);
	/* What was in flight is now the NIC's copy. */
	ck_assert_uint_eq(lw_stats(w, 1).reply_copy_bytes, len);
	memset(mem, 0xcc, len);
	ck_assert_int_eq(munmap(mem, len), 0);

	c = lw_wait(w, ctx);
	ck_assert_int_eq(c.status, 0);
	ck_assert_uint_eq(c.len, len);
	ck_assert_msg(!memcmp(back, src, len), "the original bytes");
	ck_assert_uint_eq(lw_stats(w, 1).reply_copy_bytes, len);
	free(src);
	free(back);
	lw_free(w);
}

START_TEST(test_read_dereg_in_flight)
{
	read_dereg_in_flight(lw_new());
}
END_TEST

/* Datagrams the fabric carried while op ran to completion. */
static uint64_t lw_sent_for(struct lw *w, uint8_t kind, uint64_t key,
			    void *buf, size_t len)
{
	struct uet_link_mem_stats a, b;
	struct uet_ses_send_cmpl c;

	uet_link_mem_fabric_get_stats(w->fab, &a);
	c = lw_wait_rma(w, kind, key, buf, len);
	ck_assert_int_eq(c.status, 0);
	ck_assert_uint_eq(c.len, len);
	uet_link_mem_fabric_get_stats(w->fab, &b);
	return b.sent - a.sent;
}

/*
 * Links of 1500 bytes whose every path carries 65507-byte datagrams (a
 * peer on the same host, through loopback): the real PDS carries RMA
 * writes and read replies of up to 16383 payload bytes, and a write
 * that fits one SOM=1 packet of the path in one, with and without loss;
 * a deregistration with path-sized replies in flight
 * copies them into NIC buffers of their size (a smaller buffer would
 * be overrun: ASan, or the read back differs).
 */
START_TEST(test_wide_path)
{
	static const size_t sizes[] = { 1, 4 * KIB, 60000, 65507 - 12 - 44,
					100 * KIB + 3, MIB, 4 * MIB + 1 };
	struct lw *w = lw_new_mtu(65507, 1500);
	uint8_t *buf, *mem;
	uint64_t key, n;
	unsigned int i;

	lw_faults(w, 0);
	buf = malloc(MIB);
	mem = calloc(1, MIB);
	ck_assert(buf && mem);
	uet_test_fill(buf, MIB, 3);
	key = mr_reg(w, mem, MIB, ACC_RW, false);
	/* 65 data packets and their ACKs (741 packets at 1500) */
	n = lw_sent_for(w, UET_SES_RMA_WRITE, key, buf, MIB);
	ck_assert_uint_gt(n, 64);
	ck_assert_uint_lt(n, 200);
	ck_assert_msg(!memcmp(mem, buf, MIB), "written");
	memset(buf, 0, MIB);
	n = lw_sent_for(w, UET_SES_RMA_READ, key, buf, MIB);
	ck_assert_uint_gt(n, 64);
	ck_assert_uint_lt(n, 200);
	ck_assert_msg(!memcmp(mem, buf, MIB), "read back");
	/* A write that fits one SOM=1 packet of the path: one datagram
	 * and its ACK. */
	uet_test_fill(buf, 60000, 4);
	n = lw_sent_for(w, UET_SES_RMA_WRITE, key, buf, 60000);
	ck_assert_uint_le(n, 2);
	ck_assert_msg(!memcmp(mem, buf, 60000), "written in one");
	ck_assert_int_eq(uet_ses_mr_dereg(w->n[1].ses, key), 0);
	free(buf);
	free(mem);

	lw_free(w);
	w = lw_new_mtu(65507, 1500);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		roundtrip(w, sizes[i], i & 1, 1 + i);
	lw_free(w);
	read_dereg_in_flight(lw_new_mtu(65507, 1500));
}
END_TEST

/*
 * A 1 MiB read (more replies than a window) with 1% loss; the target
 * deregisters, overwrites and unmaps the region half way.  The read
 * either completes with the original bytes or fails with the target's
 * code for the key now; every byte of the reader's buffer is the
 * original one or its untouched fill, never the new contents.
 */
START_TEST(test_read_dereg_midway)
{
	const size_t len = MIB;
	struct uet_ses_send_cmpl c;
	uint8_t *src, *mem, *back;
	unsigned int round;
	struct lw *w = lw_new();
	uint64_t key;
	size_t i;

	src = malloc(len);
	back = malloc(len);
	ck_assert(src && back);
	for (round = 0; round < 4; round++) {
		void *ctx = new_ctx(w);
		unsigned int steps = 0;

		lw_faults(w, 10000);
		uet_test_fill(src, len, round);
		memset(back, 0xa5, len);
		mem = map_region(len);
		memcpy(mem, src, len);
		key = mr_reg(w, mem, len, ACC_RW, false);
		ck_assert_int_eq(lw_rma(w, UET_SES_RMA_READ, key, 0, false, 0,
					back, len, 3, ctx), 0);
		/* Some replies delivered, some in flight, some not built. */
		while (lw_stats(w, 1).pkts_tx < 100 + 150 * round &&
		       steps++ < 100000)
			lw_step(w);
		ck_assert_int_eq(uet_ses_mr_dereg(w->n[1].ses, key), 0);
		memset(mem, 0xcc, len);
		ck_assert_int_eq(munmap(mem, len), 0);
		c = lw_wait(w, ctx);
		if (c.status) {
			ck_assert_int_eq(c.status, -EACCES);
			ck_assert_uint_eq(c.rc, UET_RC_BAD_GENERATION);
		} else {
			ck_assert_uint_eq(c.len, len);
		}
		for (i = 0; i < len; i++)
			ck_assert_msg(back[i] == src[i] ||
				      (c.status && back[i] == 0xa5),
				      "byte %zu: %#x", i, back[i]);
	}
	ck_assert_uint_gt(lw_stats(w, 1).reply_copy_bytes, 0);
	free(src);
	free(back);
	lw_free(w);
}
END_TEST

/* Many fetching atomics in flight at once on one counter: each applied
 * exactly once, in some order (the prior values are a permutation). */
START_TEST(test_loss_atomics)
{
	enum { N = 200 };
	uint64_t mem[4] = { 0, 0, 7, 0xf0f0 }, one = 1, res[N], sw, cmp, old;
	struct uet_ses_send_cmpl c;
	struct lw *w = lw_new();
	uint8_t seen[N];
	uint64_t key;
	unsigned int i;
	void *ctx;

	key = mr_reg(w, mem, sizeof(mem), ACC_RW, false);
	for (i = 0; i < N; i++)
		ck_assert_int_eq(lw_amo(w, i & 1, key, 0, UET_AMO_SUM,
					UET_AMO_UINT64, &one, 8, NULL, &res[i],
					(void *)(uintptr_t)(1000 + i)), 0);
	lw_wait_count(w, N);
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < N; i++) {
		c = *find_send(&w->n[0], (void *)(uintptr_t)(1000 + i));
		ck_assert_int_eq(c.status, 0);
		if (!(i & 1))
			continue;
		ck_assert_uint_lt(res[i], N);
		ck_assert(!seen[res[i]]);
		seen[res[i]] = 1;
	}
	ck_assert_uint_eq(mem[0], N);
	ck_assert_uint_eq(w->n[1].nev, N);

	/* CAS success and failure, MSWAP. */
	cmp = 7;
	sw = 9;
	ctx = new_ctx(w);
	ck_assert_int_eq(lw_amo(w, true, key, 16, UET_AMO_CSWAP,
				UET_AMO_UINT64, &sw, 8, &cmp, &old, ctx), 0);
	ck_assert_int_eq(lw_wait(w, ctx).status, 0);
	ck_assert_uint_eq(old, 7);
	ck_assert_uint_eq(mem[2], 9);
	ctx = new_ctx(w);
	ck_assert_int_eq(lw_amo(w, true, key, 16, UET_AMO_CSWAP,
				UET_AMO_UINT64, &sw, 8, &cmp, &old, ctx), 0);
	ck_assert_int_eq(lw_wait(w, ctx).status, 0);
	ck_assert_uint_eq(old, 9);
	ck_assert_uint_eq(mem[2], 9);
	cmp = 0x00ff;
	sw = 0x1234;
	ctx = new_ctx(w);
	ck_assert_int_eq(lw_amo(w, false, key, 24, UET_AMO_MSWAP,
				UET_AMO_UINT64, &sw, 8, &cmp, NULL, ctx), 0);
	ck_assert_int_eq(lw_wait(w, ctx).status, 0);
	ck_assert_uint_eq(mem[3], 0xf034);
	lw_free(w);
}
END_TEST

/* Refusals survive the loss; the target's bytes do not change. */
START_TEST(test_loss_errors)
{
	uint8_t mem[4096] __attribute__((aligned(8))), snap[4096];
	uint8_t src[3000];
	struct uet_ses_send_cmpl c;
	struct lw *w = lw_new();
	uint64_t krw, kro, kdead, x = 1;
	void *ctx[8];
	unsigned int i;
	struct {
		uint8_t kind;
		uint64_t key;
		uint64_t raddr;
		size_t len;
		uint8_t rc;
		int status;
	} cases[6];

	uet_test_fill(mem, sizeof(mem), 3);
	uet_test_fill(src, sizeof(src), 4);
	memcpy(snap, mem, sizeof(mem));
	krw = mr_reg(w, mem, sizeof(mem), ACC_RW, false);
	kro = mr_reg(w, mem, sizeof(mem), UET_SES_ACC_REMOTE_READ, false);
	kdead = mr_reg(w, mem, sizeof(mem), ACC_RW, false);
	ck_assert_int_eq(uet_ses_mr_dereg(w->n[1].ses, kdead), 0);
	cases[0] = (typeof(cases[0])){ UET_SES_RMA_WRITE, 0x99, 0, 3000,
				       UET_RC_BAD_MKEY, -EACCES };
	cases[1] = (typeof(cases[0])){ UET_SES_RMA_WRITE, kdead, 0, 3000,
				       UET_RC_BAD_GENERATION, -EACCES };
	cases[2] = (typeof(cases[0])){ UET_SES_RMA_WRITE, kro, 0, 3000,
				       UET_RC_PERM_VIOLATION, -EACCES };
	cases[3] = (typeof(cases[0])){ UET_SES_RMA_WRITE, krw, 2000, 3000,
				       UET_RC_AT_OUT_OF_RANGE, -EINVAL };
	cases[4] = (typeof(cases[0])){ UET_SES_RMA_READ, kdead, 0, 3000,
				       UET_RC_BAD_GENERATION, -EACCES };
	cases[5] = (typeof(cases[0])){ UET_SES_RMA_READ, krw, 4000, 3000,
				       UET_RC_AT_OUT_OF_RANGE, -EINVAL };
	for (i = 0; i < 6; i++) {
		ctx[i] = new_ctx(w);
		ck_assert_int_eq(lw_rma(w, cases[i].kind, cases[i].key,
					cases[i].raddr, false, 0, src,
					cases[i].len, 2, ctx[i]), 0);
	}
	ctx[6] = new_ctx(w);
	ck_assert_int_eq(lw_amo(w, false, krw, 0, UET_AMO_BOR, UET_AMO_DOUBLE,
				&x, 8, NULL, NULL, ctx[6]), 0);
	ctx[7] = new_ctx(w);
	ck_assert_int_eq(lw_amo(w, false, krw, 4, UET_AMO_SUM, UET_AMO_UINT64,
				&x, 8, NULL, NULL, ctx[7]), 0);
	for (i = 0; i < 6; i++) {
		c = lw_wait(w, ctx[i]);
		ck_assert_int_eq(c.status, cases[i].status);
		ck_assert_uint_eq(c.rc, cases[i].rc);
	}
	c = lw_wait(w, ctx[6]);
	ck_assert_int_eq(c.status, -EOPNOTSUPP);
	ck_assert_uint_eq(c.rc, UET_RC_AMO_UNSUPPORTED_OP);
	c = lw_wait(w, ctx[7]);
	ck_assert_int_eq(c.status, -EINVAL);
	ck_assert_uint_eq(c.rc, UET_RC_AMO_UNALIGNED);
	ck_assert(!memcmp(mem, snap, sizeof(mem)));
	ck_assert_uint_eq(w->n[1].nev, 0);
	lw_free(w);
}
END_TEST

/* Fake time for n operations of len bytes (kind) in flight at once from
 * node 0 against key, all completed with status 0. */
static uint64_t flow_time(struct lw *w, uint8_t kind, uint64_t key,
			  uint8_t **buf, unsigned int n, size_t len)
{
	size_t ns = w->n[0].ns, i;
	uint64_t t0 = w->now;

	for (i = 0; i < n; i++)
		ck_assert_int_eq(lw_rma(w, kind, key, 0, false, 0, buf[i],
					len, 1, new_ctx(w)), 0);
	lw_wait_count(w, ns + n);
	for (i = ns; i < ns + n; i++)
		ck_assert_int_eq(w->n[0].s[i].status, 0);
	return w->now - t0;
}

/*
 * The window and ACK policy keep read replies flowing as they keep a
 * write's packets: 16 operations of 1 MiB in flight (fi_rma_bw's
 * pattern) take no longer to read than to write in fake time, lossless
 * (both bound by the PDS window, no retransmission) and with 1% loss,
 * where either keeps at least half of its lossless rate.
 */
START_TEST(test_read_flow)
{
	enum { N = 16 };
	const size_t len = MIB;
	uint64_t t[2][2], key;
	uint8_t *mem, *buf[N];
	struct uet_pds_stats ps;
	struct lw *w = lw_new();
	unsigned int i, loss, k;

	lw_faults(w, 0);
	mem = calloc(1, len);
	ck_assert_ptr_nonnull(mem);
	key = mr_reg(w, mem, len, ACC_RW, false);
	for (i = 0; i < N; i++) {
		buf[i] = calloc(1, len);
		ck_assert_ptr_nonnull(buf[i]);
	}
	ck_assert_int_eq(lw_wait_rma(w, UET_SES_RMA_READ, key, buf[0],
				     4096).status, 0);
	for (loss = 0; loss < 2; loss++) {
		lw_faults(w, loss ? 10000 : 0);
		for (k = 0; k < 2; k++)
			t[loss][k] = flow_time(w, k ? UET_SES_RMA_WRITE :
					       UET_SES_RMA_READ, key, buf, N,
					       len);
		if (!loss) {
			uet_pds_get_stats(w->n[1].pds, &ps);
			ck_assert_uint_eq(ps.retx, 0);
		}
	}
	/* read (k 0) against write (k 1): 10% of slack, 25% with loss
	 * (each run loses other packets) */
	for (loss = 0; loss < 2; loss++)
		ck_assert_msg(t[loss][0] * 100 <= t[loss][1] * (loss ? 125 :
								  110),
			      "loss %u: read %llu ns, write %llu ns", loss,
			      (unsigned long long)t[loss][0],
			      (unsigned long long)t[loss][1]);
	for (k = 0; k < 2; k++)
		ck_assert_msg(t[1][k] <= 2 * t[0][k],
			      "%s: lossy %llu ns, lossless %llu ns",
			      k ? "write" : "read",
			      (unsigned long long)t[1][k],
			      (unsigned long long)t[0][k]);
	ck_assert_int_eq(uet_ses_mr_dereg(w->n[1].ses, key), 0);
	for (i = 0; i < N; i++)
		free(buf[i]);
	free(mem);
	lw_free(w);
}
END_TEST

/* SES packets node i sent and received, and the ACKs its PDS sent. */
struct pkt_count {
	uint64_t tx, rx, ack;
};

static struct pkt_count pkt_count(struct lw *w, unsigned int i)
{
	struct uet_ses_stats st = lw_stats(w, i);
	struct uet_pds_stats ps;
	struct pkt_count c;

	uet_pds_get_stats(w->n[i].pds, &ps);
	c.tx = st.pkts_tx;
	c.rx = st.pkts_rx;
	c.ack = ps.ack_tx;
	return c;
}

/* One operation of len bytes from node 0, lossless: the packets it cost
 * (differences of pkt_count, node 0 and node 1). */
static void op_packets(struct lw *w, uint8_t kind, uint64_t key,
		       uint8_t *buf, size_t len, struct pkt_count d[2])
{
	struct pkt_count b[2], a;
	unsigned int i;

	for (i = 0; i < 2; i++)
		b[i] = pkt_count(w, i);
	ck_assert_int_eq(lw_wait_rma(w, kind, key, buf, len).status, 0);
	/* the last ACKs (delayed) */
	for (i = 0; i < 200; i++)
		lw_step(w);
	for (i = 0; i < 2; i++) {
		a = pkt_count(w, i);
		d[i].tx = a.tx - b[i].tx;
		d[i].rx = a.rx - b[i].rx;
		d[i].ack = a.ack - b[i].ack;
	}
}

/*
 * An RMA read is one UET_READ up to UET_SES_RMA_READ_MAX (4 MiB), and the
 * fewest of equal length, in whole reply payloads, beyond: 1 MiB costs one
 * request (17 of 64 KiB before), 9 MiB three, and no more packets or ACKs
 * than a write of the same size but that request.
 */
START_TEST(test_read_requests)
{
	const size_t big = 9 * MIB;
	struct pkt_count r[2], wr[2];
	uint8_t *mem, *buf;
	uint64_t key;
	struct lw *w = lw_new();

	lw_faults(w, 0);
	mem = calloc(1, big);
	buf = calloc(1, big);
	ck_assert(mem && buf);
	uet_test_fill(mem, big, 9);
	key = mr_reg(w, mem, big, ACC_RW, false);
	/* the PDC first */
	ck_assert_int_eq(lw_wait_rma(w, UET_SES_RMA_READ, key, buf,
				     4096).status, 0);

	op_packets(w, UET_SES_RMA_READ, key, buf, MIB, r);
	ck_assert(!memcmp(buf, mem, MIB));
	ck_assert_uint_eq(r[1].rx, 1);		/* one UET_READ */
	ck_assert_uint_eq(r[0].tx, 1);
	ck_assert_uint_eq(r[0].rx, r[1].tx);	/* every reply placed */
	op_packets(w, UET_SES_RMA_WRITE, key, buf, MIB, wr);
	/* replies carry 20 bytes more than write packets: never more */
	ck_assert_uint_le(r[1].tx, wr[0].tx);
	ck_assert_msg(r[0].ack + r[1].ack <= wr[0].ack + wr[1].ack + 1,
		      "read: ACKs %llu + %llu, write %llu + %llu",
		      (unsigned long long)r[0].ack,
		      (unsigned long long)r[1].ack,
		      (unsigned long long)wr[0].ack,
		      (unsigned long long)wr[1].ack);

	memset(buf, 0, big);
	op_packets(w, UET_SES_RMA_READ, key, buf, big, r);
	ck_assert(!memcmp(buf, mem, big));
	ck_assert_uint_eq(r[1].rx, 3);		/* 3 x 3 MiB, whole payloads */
	ck_assert_uint_eq(r[0].rx, r[1].tx);
	ck_assert_uint_eq(r[1].tx, (big + w->n[1].ses->pay_rdata - 1) /
			  w->n[1].ses->pay_rdata);

	ck_assert_int_eq(uet_ses_mr_dereg(w->n[1].ses, key), 0);
	free(buf);
	free(mem);
	lw_free(w);
}
END_TEST

static Suite *ses_loss_suite(void)
{
	Suite *s = suite_create("ses_loss");
	TCase *tc = tcase_create("ses_loss");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_loss_sizes);
	tcase_add_test(tc, test_loss_atomics);
	tcase_add_test(tc, test_loss_errors);
	tcase_add_test(tc, test_read_dereg_in_flight);
	tcase_add_test(tc, test_wide_path);
	tcase_add_test(tc, test_read_dereg_midway);
	tcase_add_test(tc, test_read_flow);
	tcase_add_test(tc, test_read_requests);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(ses_loss_suite)
