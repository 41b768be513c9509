/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SES unit tests: two or three SES instances joined by the fake PDS of
 * ses_fake_pds.c (delivery in FIFO, newest-first or random order, NACK
 * and retry on -EAGAIN, bounded windows).  Every wait is bounded by a
 * step count.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>


#include "ses_fake_pds.h"
#include "uet_byteorder.h"
#include "uet_ses.h"
#include "uet_ses_amo.h"
#include "uet_ses_internal.h"
#include "uet_ses_wire.h"
#include "uet_test.h"

#define MAX_CMPL	1024
#define MAX_EV		256
#define MAX_NODES	3
#define RUN_LIMIT	2000000u
#define JOB		0x123456u
#define KIB		1024u
#define MIB		(1024u * 1024u)

struct cq {
	struct uet_ses_send_cmpl s[MAX_CMPL];
	size_t ns;
	struct uet_ses_recv_cmpl r[MAX_CMPL];
	size_t nr;
};

struct node {
	struct uet_pds *pds;
	struct uet_ses *ses;
	struct uet_ses_ep *ep;
	struct uet_ses_addr addr;	/* how peers reach ep */
	struct cq cq;
	struct uet_ses_rma_event ev[MAX_EV];	/* rma_event upcalls */
	size_t nev;
};

struct fx {
	struct fake_net *net;
	struct node n[MAX_NODES];
	unsigned int nn;
	uint64_t now;
	uintptr_t seq;			/* for unique op_ctx values */
	struct uet_ses_cfg cfg;
	size_t path_mtu;		/* fake_net_cfg.path_mtu */
};

/* A fresh op_ctx (helpers called repeatedly must not reuse a stack
 * address). */
static void *new_ctx(struct fx *fx)
{
	return (void *)++fx->seq;
}

static void on_send_done(void *ctx, const struct uet_ses_send_cmpl *c)
{
	struct node *n = ctx;

	ck_assert_uint_lt(n->cq.ns, MAX_CMPL);
	n->cq.s[n->cq.ns++] = *c;
}

static void on_recv_done(void *ctx, const struct uet_ses_recv_cmpl *c)
{
	struct node *n = ctx;

	ck_assert_uint_lt(n->cq.nr, MAX_CMPL);
	n->cq.r[n->cq.nr++] = *c;
}

static void on_rma_event(void *ctx, const struct uet_ses_rma_event *e)
{
	struct node *n = ctx;

	ck_assert_uint_lt(n->nev, MAX_EV);
	n->ev[n->nev++] = *e;
}

static const struct uet_ses_upcalls test_up = {
	.send_done = on_send_done,
	.recv_done = on_recv_done,
	.rma_event = on_rma_event,
};

static void test_cfg(struct uet_ses_cfg *cfg)
{
	uet_ses_cfg_default(cfg);
	cfg->rdzv_threshold = 16 * KIB;
}

/* path_mtu: every destination's (fake_net_cfg.path_mtu). */
static struct fx *fx_new_path(const struct uet_ses_cfg *cfg, uint8_t order,
			      unsigned int window, unsigned int nodes,
			      size_t path_mtu)
{
	static const char *const ip[MAX_NODES] = {
		"127.0.0.1", "127.0.0.2", "127.0.0.3"
	};
	struct fake_net_cfg nc;
	struct fx *fx;
	unsigned int i;

	fx = calloc(1, sizeof(*fx));
	ck_assert_ptr_nonnull(fx);
	memset(&nc, 0, sizeof(nc));
	nc.seed = uet_test_rand64() | 1;
	nc.window = window;
	nc.order = order;
	nc.rsp_drop_pct = order == FAKE_SHUFFLE ? 30 : 0;
	nc.path_mtu = path_mtu;
	ck_assert_int_eq(fake_net_create(&fx->net, &nc), 0);
	fx->cfg = *cfg;
	fx->path_mtu = path_mtu;
	fx->nn = nodes;
	fx->now = 1000000;
	for (i = 0; i < nodes; i++) {
		struct node *n = &fx->n[i];

		ck_assert_int_eq(fake_pds_create(fx->net, ip[i], 4793,
						 &n->pds), 0);
		ck_assert_int_eq(uet_ses_create(&n->ses, cfg, n->pds,
						&test_up, n), 0);
		ck_assert_int_eq(uet_ses_ep_open(n->ses, JOB, 0x10 + i,
						 0x20 + i, &n->ep), 0);
		n->addr.fa = *fake_pds_addr(n->pds);
		n->addr.job_id = JOB;
		n->addr.pid_on_fep = 0x10 + i;
		n->addr.ri = 0x20 + i;
	}
	return fx;
}

static struct fx *fx_new(const struct uet_ses_cfg *cfg, uint8_t order,
			 unsigned int window, unsigned int nodes)
{
	return fx_new_path(cfg, order, window, nodes, 0);
}

static void fx_free(struct fx *fx)
{
	unsigned int i;

	for (i = 0; i < fx->nn; i++) {
		uet_ses_destroy(fx->n[i].ses);
		fx->n[i].ses = NULL;
	}
	for (i = 0; i < fx->nn; i++)
		if (fx->n[i].pds)
			uet_pds_destroy(fx->n[i].pds);
	fake_net_destroy(fx->net);
	free(fx);
}

static void fx_progress(struct fx *fx)
{
	unsigned int i;

	fx->now += 1000;
	for (i = 0; i < fx->nn; i++)
		if (fx->n[i].ses)
			uet_ses_progress(fx->n[i].ses, fx->now);
}

/* Run until nothing is in flight; fails the test if that never happens. */
static void fx_run(struct fx *fx)
{
	unsigned int iter;

	for (iter = 0; iter < RUN_LIMIT; iter++) {
		unsigned int did = fake_net_step(fx->net, 64);

		fx_progress(fx);
		if (!did && !fake_net_pending(fx->net))
			return;
	}
	ck_abort_msg("the fake network did not settle");
}

/* Run at most steps deliveries/ACKs. */
static void fx_run_steps(struct fx *fx, unsigned int steps)
{
	while (steps--) {
		if (!fake_net_step(fx->net, 1) && !fake_net_pending(fx->net))
			break;
		if (!(steps % 16))
			fx_progress(fx);
	}
	fx_progress(fx);
}

/* Split buf into pieces iovecs (uneven; some of length 0 when there are
 * more pieces than bytes). */
static unsigned int split(struct iovec *iov, unsigned int max, void *buf,
			  size_t len, unsigned int pieces)
{
	size_t off = 0, n;
	unsigned int i;

	if (pieces > max)
		pieces = max;
	if (!pieces)
		pieces = 1;
	for (i = 0; i < pieces; i++) {
		n = i == pieces - 1 ? len - off :
		    (len - off) / (pieces - i) + (i & 1);
		if (n > len - off)
			n = len - off;
		iov[i].iov_base = (uint8_t *)buf + off;
		iov[i].iov_len = n;
		off += n;
	}
	return pieces;
}

static int fx_send(struct fx *fx, unsigned int from,
		   const struct uet_ses_addr *dst, bool tagged, uint64_t tag,
		   bool hd, uint64_t hdata, void *buf, size_t len,
		   unsigned int pieces, void *ctx)
{
	struct uet_ses_send_req req;
	struct iovec iov[64];

	memset(&req, 0, sizeof(req));
	req.ep = fx->n[from].ep;
	req.dst = *dst;
	req.tagged = tagged;
	req.tag = tag;
	req.has_data = hd;
	req.header_data = hdata;
	req.iov = iov;
	req.iovcnt = split(iov, 64, buf, len, pieces);
	req.op_ctx = ctx;
	return uet_ses_send(fx->n[from].ses, &req, fx->now);
}

static int fx_recv(struct fx *fx, unsigned int at, bool tagged, uint64_t tag,
		   uint64_t ignore, const struct uet_ses_addr *src,
		   void *buf, size_t len, unsigned int pieces, void *ctx)
{
	struct uet_ses_recv_req req;
	struct iovec iov[64];

	memset(&req, 0, sizeof(req));
	req.ep = fx->n[at].ep;
	req.tagged = tagged;
	req.tag = tag;
	req.ignore = ignore;
	if (src) {
		req.directed = true;
		req.src = *src;
	}
	req.iov = iov;
	req.iovcnt = split(iov, 64, buf, len, pieces);
	req.op_ctx = ctx;
	return uet_ses_recv(fx->n[at].ses, &req, fx->now);
}

static const struct uet_ses_send_cmpl *find_send(const struct node *n,
						 const void *ctx)
{
	size_t i;

	for (i = 0; i < n->cq.ns; i++)
		if (n->cq.s[i].op_ctx == ctx)
			return &n->cq.s[i];
	return NULL;
}

static const struct uet_ses_recv_cmpl *find_recv(const struct node *n,
						 const void *ctx)
{
	size_t i;

	for (i = 0; i < n->cq.nr; i++)
		if (n->cq.r[i].op_ctx == ctx)
			return &n->cq.r[i];
	return NULL;
}

static struct uet_ses_stats stats(const struct node *n)
{
	struct uet_ses_stats st;

	uet_ses_get_stats(n->ses, &st);
	return st;
}

static void check_src(const struct uet_ses_recv_cmpl *rc,
		      const struct node *from)
{
	ck_assert_uint_eq(rc->src.fa.len, from->addr.fa.len);
	ck_assert_int_eq(memcmp(&rc->src.fa.ss, &from->addr.fa.ss,
				from->addr.fa.len), 0);
	ck_assert_uint_eq(rc->src.job_id, from->addr.job_id);
	ck_assert_uint_eq(rc->src.pid_on_fep, from->addr.pid_on_fep);
	ck_assert_uint_eq(rc->src.ri, from->addr.ri);
	ck_assert_uint_eq(rc->initiator,
			  uet_ses_initiator_id(from->addr.pid_on_fep,
					       from->addr.ri));
}

/* Payload bytes per packet at the default MTU (1452): 1440 after PDS. */
#define PAY_SMALL	(1452 - 12 - 32)
#define PAY_STD		(1452 - 12 - 44)
#define PAY_RDZV	(1452 - 12 - 44 - 32)
#define PAY_RDATA	(1452 - 12 - 24)

/*
 * An RMA read's last UET_READ: the whole read up to UET_SES_RMA_READ_MAX,
 * else the rest after the fewest requests of equal length (rounded up to
 * whole Response-with-Data payloads of pay bytes) of at most
 * UET_SES_RMA_READ_MAX.
 */
static uint64_t read_last_len_pay(uint64_t len, uint64_t pay)
{
	uint64_t m = UET_SES_RMA_READ_MAX / pay * pay, n, c;

	if (len <= UET_SES_RMA_READ_MAX)
		return len;
	n = (len + m - 1) / m;
	c = ((len + n - 1) / n + pay - 1) / pay * pay;
	return len - (n - 1) * c;
}

static uint64_t read_last_len(uint64_t len)
{
	return read_last_len_pay(len, PAY_RDATA);
}

static const size_t sizes[] = {
	0, 1, 100, PAY_SMALL, PAY_SMALL + 1, PAY_STD * 3, 16 * KIB - 1,
	16 * KIB, 16 * KIB + 1, 100000, MIB,
};
#define NSIZES	(sizeof(sizes) / sizeof(sizes[0]))

/*
 * One message A -> B of len bytes, checked byte for byte.  expected:
 * the receive is posted first.
 */
static void one_message(struct fx *fx, size_t len, bool tagged, bool hd,
			bool expected, unsigned int spieces,
			unsigned int rpieces)
{
	struct node *a = &fx->n[0], *b = &fx->n[1];
	const struct uet_ses_recv_cmpl *rc;
	const struct uet_ses_send_cmpl *sc;
	uint8_t *src, *dst;
	size_t ns = a->cq.ns, nr = b->cq.nr;
	uint64_t tag = uet_test_rand64();
	uint64_t hdata = uet_test_rand64();
	void *sctx = new_ctx(fx), *rctx = new_ctx(fx);

	src = malloc(len + 1);
	dst = malloc(len + 64);
	ck_assert(src && dst);
	uet_test_fill(src, len, len ^ tag);
	memset(dst, 0xa5, len + 64);
	if (expected)
		ck_assert_int_eq(fx_recv(fx, 1, tagged, tag, 0, NULL, dst, len,
					 rpieces, rctx), 0);
	ck_assert_int_eq(fx_send(fx, 0, &b->addr, tagged, tag, hd, hdata, src,
				 len, spieces, sctx), 0);
	fx_run(fx);
	if (!expected) {
		ck_assert_uint_eq(b->cq.nr, nr);
		ck_assert_int_eq(fx_recv(fx, 1, tagged, tag, 0, NULL, dst, len,
					 rpieces, rctx), 0);
		fx_run(fx);
	}
	sc = find_send(a, sctx);
	rc = find_recv(b, rctx);
	ck_assert_msg(sc && rc, "len %zu: no completion", len);
	ck_assert_uint_eq(a->cq.ns, ns + 1);
	ck_assert_uint_eq(b->cq.nr, nr + 1);
	ck_assert_int_eq(sc->status, 0);
	ck_assert_uint_eq(sc->rc, UET_RC_OK);
	ck_assert_uint_eq(sc->len, len);
	ck_assert_int_eq(rc->status, 0);
	ck_assert_uint_eq(rc->len, len);
	ck_assert_uint_eq(rc->olen, 0);
	ck_assert_uint_eq(rc->tag, (tagged ? tag : 0));
	ck_assert(rc->has_data == hd);
	if (hd)
		ck_assert_uint_eq(rc->header_data, hdata);
	ck_assert_uint_eq(rc->rc, UET_RC_OK);
	check_src(rc, a);
	ck_assert_msg(!memcmp(src, dst, len), "len %zu: data differs", len);
	ck_assert_uint_eq(dst[len], 0xa5);
	free(src);
	free(dst);
}

START_TEST(test_sizes_expected)
{
	struct uet_ses_stats sa, sb;
	struct uet_ses_cfg cfg;
	struct fx *fx;
	size_t i;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 64, 2);
	for (i = 0; i < NSIZES; i++) {
		one_message(fx, sizes[i], false, i & 1, true, 1, 1);
		one_message(fx, sizes[i], true, !(i & 1), true,
			    1 + i % 7, 1 + i % 5);
	}
	one_message(fx, 4 * MIB, true, true, true, 3, 2);
	sa = stats(&fx->n[0]);
	sb = stats(&fx->n[1]);
	ck_assert_uint_eq(sa.msgs_tx, 2 * NSIZES + 1);
	ck_assert_uint_eq(sb.msgs_rx, 2 * NSIZES + 1);
	ck_assert_uint_eq(sb.expected, 2 * NSIZES + 1);
	ck_assert_uint_eq(sb.unexpected, 0);
	/* 16 KiB + 1, 100000, 1 MiB twice, and 4 MiB */
	ck_assert_uint_eq(sa.rdzv_tx, 7);
	ck_assert_uint_eq(sb.rdzv_rx, 7);
	ck_assert_uint_gt(sa.rdzv_read_pkts, 4 * MIB / 1500);
	ck_assert_uint_gt(sb.rdzv_read_pkts, 0);
	ck_assert_uint_eq(sb.bad_hdr + sb.bad_job + sb.bad_pid +
			  sb.bad_index + sb.err_rsp_tx, 0);
	ck_assert_uint_eq(sa.err_rsp_rx, 0);
	/* Every packet sent was delivered once, none refused. */
	ck_assert_uint_eq(sb.pkts_rx, sa.pkts_tx);
	ck_assert_uint_eq(sa.pkts_rx, sb.pkts_tx);
	/* B sent its READs and one notice per rendezvous message. */
	ck_assert_uint_eq(sb.pkts_tx, sb.rdzv_read_pkts + sb.rdzv_rx);
	fx_free(fx);
}
END_TEST

START_TEST(test_sizes_unexpected)
{
	struct uet_ses_stats sb;
	struct uet_ses_cfg cfg;
	struct fx *fx;
	size_t i;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 64, 2);
	for (i = 0; i < NSIZES; i++) {
		one_message(fx, sizes[i], i & 1, true, false, 1 + i % 4, 2);
		one_message(fx, sizes[i], !(i & 1), false, false, 5, 1);
	}
	one_message(fx, 4 * MIB, false, true, false, 1, 1);
	sb = stats(&fx->n[1]);
	ck_assert_uint_eq(sb.unexpected, 2 * NSIZES + 1);
	ck_assert_uint_eq(sb.expected, 0);
	ck_assert_uint_eq(sb.msgs_rx, 2 * NSIZES + 1);
	ck_assert_uint_eq(sb.unexp_bytes, 0);
	/* The largest eager message buffered: 16 KiB. */
	ck_assert_uint_eq(sb.unexp_bytes_hwm, 16 * KIB);
	fx_free(fx);
}
END_TEST

/* The largest SES packet (header and payload) the fake net carried. */
static void maxlen_tap(void *arg, const struct uet_link_addr *from,
		       const struct uet_link_addr *to, uint8_t mode,
		       uint8_t next_hdr, const uint8_t *ses, size_t len,
		       int rx_ret)
{
	size_t *max = arg;

	(void)from;
	(void)to;
	(void)mode;
	(void)next_hdr;
	(void)ses;
	(void)rx_ret;
	if (len > *max)
		*max = len;
}

/* Packets A sends for one message of len bytes (expected or not). */
static uint64_t pkts_for(struct fx *fx, size_t len, bool expected)
{
	uint64_t before = stats(&fx->n[0]).pkts_tx;

	one_message(fx, len, true, false, expected, 3, 2);
	return stats(&fx->n[0]).pkts_tx - before;
}

/*
 * The link's MTU is 1500 but the path to the peer carries 65507-byte
 * datagrams (a peer on the same host, reached through loopback): a
 * message that fits one SOM=1 packet of the path goes in one (that
 * header has no payload_length), the packets of every larger message
 * and of every rendezvous pull's replies are path-sized (payload up to
 * the 14-bit limit, 16383), the single-packet ones of the link's size
 * and the rendezvous eager part stay as they were, and the bytes arrive
 * intact in every order.
 */
START_TEST(test_sizes_wide_path)
{
	static const uint8_t orders[] = { FAKE_FIFO, FAKE_SHUFFLE };
	struct uet_ses_cfg cfg;
	struct fx *fx;
	size_t i, o, max;

	test_cfg(&cfg);
	for (o = 0; o < sizeof(orders); o++) {
		fx = fx_new_path(&cfg, orders[o], 64, 2, 65507);
		max = 0;
		fake_net_set_tap(fx->net, maxlen_tap, &max);
		for (i = 0; i < NSIZES; i++) {
			one_message(fx, sizes[i], false, i & 1, true, 1, 1);
			one_message(fx, sizes[i], true, true, false, 5, 3);
		}
		ck_assert_uint_gt(max, UET_SES_SMALL_LEN_MAX + 44);
		ck_assert_uint_le(max, 65507 - 12);
		/* One packet as before; 16 KiB eager: 1 packet, not 12. */
		ck_assert_uint_eq(pkts_for(fx, PAY_SMALL, true), 1);
		ck_assert_uint_eq(pkts_for(fx, 16 * KIB, true), 1);
		ck_assert_uint_eq(pkts_for(fx, 16 * KIB, false), 1);
		/* 4 MiB by rendezvous: the pulls' replies, every one full
		 * but the last (2966 at the link's MTU; 321 when a 64 KiB
		 * pull took four full replies and one of 4 bytes). */
		ck_assert_uint_le(pkts_for(fx, 4 * MIB, true),
				  1 + (4 * MIB + UET_SES_SMALL_LEN_MAX - 1) /
				  UET_SES_SMALL_LEN_MAX);
		ck_assert_uint_eq(stats(&fx->n[1]).bad_hdr, 0);
		fx_free(fx);
	}
	/* Eager up to 256 KiB: 65507 - 12 - 44 bytes, the largest message
	 * in one packet, in one; one byte more, and 200000 bytes, in
	 * packets of 16383 (the continuations' 14-bit payload_length, one
	 * size for the link's GSO); every byte intact. */
	cfg.rdzv_threshold = 256 * KIB;
	for (o = 0; o < sizeof(orders); o++) {
		fx = fx_new_path(&cfg, orders[o], 64, 2, 65507);
		ck_assert_uint_eq(pkts_for(fx, 65507 - 12 - 44, true), 1);
		ck_assert_uint_eq(pkts_for(fx, 65507 - 12 - 44, false), 1);
		ck_assert_uint_eq(pkts_for(fx, 65507 - 12 - 44 + 1, true),
				  (65507 - 12 - 44 + 1 + UET_SES_SMALL_LEN_MAX -
				   1) / UET_SES_SMALL_LEN_MAX);
		ck_assert_uint_eq(pkts_for(fx, 200000, false),
				  (200000 + UET_SES_SMALL_LEN_MAX - 1) /
				  UET_SES_SMALL_LEN_MAX);
		one_message(fx, 200000, true, false, true, 4, 3);
		one_message(fx, 65507 - 12 - 44, false, false, true, 2, 1);
		one_message(fx, 65507 - 12 - 44, true, true, false, 3, 2);
		ck_assert_uint_eq(stats(&fx->n[1]).bad_hdr, 0);
		fx_free(fx);
	}
	/* A link of 65507 bytes (loopback) with no wider path: the same. */
	cfg.mtu = 65507;
	fx = fx_new(&cfg, FAKE_SHUFFLE, 64, 2);
	ck_assert_uint_eq(pkts_for(fx, 16 * KIB, true), 1);
	ck_assert_uint_eq(pkts_for(fx, 65507 - 12 - 44, false), 1);
	ck_assert_uint_eq(pkts_for(fx, 65507 - 12 - 44 + 1, true),
			  (65507 - 12 - 44 + 1 + UET_SES_SMALL_LEN_MAX - 1) /
			  UET_SES_SMALL_LEN_MAX);
	ck_assert_uint_eq(stats(&fx->n[1]).bad_hdr, 0);
	fx_free(fx);
}
END_TEST

/* Many messages in flight at once, all unexpected, then all received. */
START_TEST(test_unexpected_batch)
{
	static const size_t len[] = { 0, 1, 3000, 16 * KIB, 20000, 300000 };
	uint8_t *src[6], *dst[6];
	struct uet_ses_stats sb;
	struct uet_ses_cfg cfg;
	int sctx[6], rctx[6];
	struct fx *fx;
	unsigned int i;
	uint64_t eager = 0;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 16, 2);
	for (i = 0; i < 6; i++) {
		src[i] = malloc(len[i] + 1);
		dst[i] = malloc(len[i] + 1);
		uet_test_fill(src[i], len[i], i);
		ck_assert_int_eq(fx_send(fx, 0, &fx->n[1].addr, true, i, false,
					 0, src[i], len[i], 2, &sctx[i]), 0);
		eager += len[i] > cfg.rdzv_threshold ? PAY_RDZV : len[i];
	}
	fx_run(fx);
	sb = stats(&fx->n[1]);
	ck_assert_uint_eq(sb.unexpected, 6);
	ck_assert_uint_eq(sb.unexp_bytes, eager);
	ck_assert_uint_eq(sb.unexp_bytes_hwm, eager);
	/* The eager sends are done, the rendezvous ones (20000, 300000)
	 * wait for the target. */
	ck_assert_uint_eq(fx->n[0].cq.ns, 4);
	ck_assert_ptr_null(find_send(&fx->n[0], &sctx[4]));
	ck_assert_ptr_null(find_send(&fx->n[0], &sctx[5]));
	for (i = 6; i-- > 0;)
		ck_assert_int_eq(fx_recv(fx, 1, true, i, 0, NULL, dst[i],
					 len[i], 1, &rctx[i]), 0);
	fx_run(fx);
	for (i = 0; i < 6; i++) {
		const struct uet_ses_recv_cmpl *rc = find_recv(&fx->n[1],
							       &rctx[i]);

		ck_assert_ptr_nonnull(rc);
		ck_assert_int_eq(rc->status, 0);
		ck_assert_uint_eq(rc->len, len[i]);
		ck_assert(!memcmp(src[i], dst[i], len[i]));
		ck_assert_int_eq(find_send(&fx->n[0], &sctx[i])->status, 0);
		free(src[i]);
		free(dst[i]);
	}
	ck_assert_uint_eq(stats(&fx->n[1]).unexp_bytes, 0);
	fx_free(fx);
}
END_TEST

START_TEST(test_ignore_bits)
{
	uint8_t s1[8] = "abcdefg", s2[8] = "hijklmn", s3[8] = "opqrstu";
	uint8_t r1[8], r2[8], r3[8], r4[8];
	const struct uet_ses_recv_cmpl *rc;
	struct uet_ses_cfg cfg;
	struct fx *fx;
	int c1, c2, c3, c4, x;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 64, 2);
	/* r1 does not match 0x12cd under ignore 0xff, r2 does. */
	ck_assert_int_eq(fx_recv(fx, 1, true, 0x1300, 0xff, NULL, r1, 8, 1,
				 &c1), 0);
	ck_assert_int_eq(fx_recv(fx, 1, true, 0x1200, 0xff, NULL, r2, 8, 1,
				 &c2), 0);
	/* An untagged receive never takes a tagged send... */
	ck_assert_int_eq(fx_recv(fx, 1, false, 0, 0, NULL, r3, 8, 1, &c3), 0);
	ck_assert_int_eq(fx_send(fx, 0, &fx->n[1].addr, true, 0x12cd, false, 0,
				 s1, 8, 1, &x), 0);
	fx_run(fx);
	rc = find_recv(&fx->n[1], &c2);
	ck_assert_ptr_nonnull(rc);
	ck_assert_uint_eq(rc->tag, 0x12cd);
	ck_assert(!memcmp(r2, s1, 8));
	ck_assert_uint_eq(fx->n[1].cq.nr, 1);
	/* ... and a tagged receive never takes an untagged one. */
	ck_assert_int_eq(fx_send(fx, 0, &fx->n[1].addr, false, 0x1300, false,
				 0, s2, 8, 1, &x), 0);
	fx_run(fx);
	rc = find_recv(&fx->n[1], &c3);
	ck_assert_ptr_nonnull(rc);
	ck_assert_uint_eq(rc->tag, 0);
	ck_assert(!memcmp(r3, s2, 8));
	/* Ignore all bits: anything tagged matches. */
	ck_assert_int_eq(fx_recv(fx, 1, true, 0, UINT64_MAX, NULL, r4, 8, 1,
				 &c4), 0);
	ck_assert_int_eq(fx_send(fx, 0, &fx->n[1].addr, true,
				 0xfedcba9876543210ull, false, 0, s3, 8, 1, &x),
			 0);
	fx_run(fx);
	/* r1 (0x1300/0xff) is first in line but does not match. */
	rc = find_recv(&fx->n[1], &c4);
	ck_assert_ptr_nonnull(rc);
	ck_assert_uint_eq(rc->tag, 0xfedcba9876543210ull);
	ck_assert(!memcmp(r4, s3, 8));
	ck_assert_ptr_null(find_recv(&fx->n[1], &c1));
	ck_assert_int_eq(uet_ses_cancel(fx->n[1].ses, fx->n[1].ep, &c1), 0);
	rc = find_recv(&fx->n[1], &c1);
	ck_assert_ptr_nonnull(rc);
	ck_assert_int_eq(rc->status, -ECANCELED);
	fx_free(fx);
}
END_TEST

START_TEST(test_directed)
{
	uint8_t sa[100], sc[100], r1[100], r2[100], r3[100], r4[100], r5[100];
	const struct uet_ses_recv_cmpl *rc;
	struct uet_ses_cfg cfg;
	struct uet_ses_addr other;
	struct fx *fx;
	int c1, c2, c3, c4, c5, x;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 64, 3);
	uet_test_fill(sa, sizeof(sa), 1);
	uet_test_fill(sc, sizeof(sc), 2);
	/* Expected: B waits for C only, then for anyone. */
	ck_assert_int_eq(fx_recv(fx, 1, true, 7, 0, &fx->n[2].addr, r1, 100, 1,
				 &c1), 0);
	ck_assert_int_eq(fx_recv(fx, 1, true, 7, 0, NULL, r2, 100, 1, &c2), 0);
	ck_assert_int_eq(fx_send(fx, 0, &fx->n[1].addr, true, 7, false, 0, sa,
				 100, 1, &x), 0);
	fx_run(fx);
	rc = find_recv(&fx->n[1], &c2);
	ck_assert_ptr_nonnull(rc);
	check_src(rc, &fx->n[0]);
	ck_assert(!memcmp(r2, sa, 100));
	ck_assert_ptr_null(find_recv(&fx->n[1], &c1));
	ck_assert_int_eq(fx_send(fx, 2, &fx->n[1].addr, true, 7, false, 0, sc,
				 100, 1, &x), 0);
	fx_run(fx);
	rc = find_recv(&fx->n[1], &c1);
	ck_assert_ptr_nonnull(rc);
	check_src(rc, &fx->n[2]);
	ck_assert(!memcmp(r1, sc, 100));

	/* Unexpected: A's message arrives first, the directed receive for C
	 * skips it; C's process with another ri is still C (a scalable
	 * endpoint's contexts are one source), so the receive directed at
	 * that ri, posted first, takes C's message. */
	ck_assert_int_eq(fx_send(fx, 0, &fx->n[1].addr, true, 9, false, 0, sa,
				 100, 1, &x), 0);
	fx_run(fx);
	ck_assert_int_eq(fx_send(fx, 2, &fx->n[1].addr, true, 9, false, 0, sc,
				 100, 1, &x), 0);
	fx_run(fx);
	other = fx->n[2].addr;
	other.ri++;
	ck_assert_int_eq(fx_recv(fx, 1, true, 9, 0, &other, r4, 100, 1, &c4),
			 0);
	ck_assert_int_eq(fx_recv(fx, 1, true, 9, 0, &fx->n[2].addr, r3, 100, 1,
				 &c3), 0);
	fx_run(fx);
	rc = find_recv(&fx->n[1], &c4);
	ck_assert_ptr_nonnull(rc);
	check_src(rc, &fx->n[2]);
	ck_assert(!memcmp(r4, sc, 100));
	ck_assert_ptr_null(find_recv(&fx->n[1], &c3));
	/* Another process at C's address is another source: neither A's
	 * message (still unexpected) nor C's next one goes to it; C's next
	 * one goes to r3. */
	other = fx->n[2].addr;
	other.pid_on_fep++;
	ck_assert_int_eq(fx_recv(fx, 1, true, 9, 0, &other, r5, 100, 1, &c5),
			 0);
	ck_assert_int_eq(fx_send(fx, 2, &fx->n[1].addr, true, 9, false, 0, sc,
				 100, 1, &x), 0);
	fx_run(fx);
	rc = find_recv(&fx->n[1], &c3);
	ck_assert_ptr_nonnull(rc);
	check_src(rc, &fx->n[2]);
	ck_assert(!memcmp(r3, sc, 100));
	ck_assert_ptr_null(find_recv(&fx->n[1], &c5));
	ck_assert_uint_eq(stats(&fx->n[1]).unexpected, 2);
	fx_free(fx);
}
END_TEST

/* Newest first: every continuation reaches the target before its SOM=1. */
START_TEST(test_reorder_lifo)
{
	struct uet_ses_cfg cfg;
	struct fx *fx;

	test_cfg(&cfg);
	cfg.rdzv_threshold = 64 * KIB;
	fx = fx_new(&cfg, FAKE_LIFO, 64, 2);
	one_message(fx, 20000, true, true, true, 1, 3);
	one_message(fx, 20000, false, true, false, 4, 1);
	one_message(fx, 60000, true, false, false, 9, 2);
	one_message(fx, 200000, true, true, true, 2, 2);
	one_message(fx, 200000, false, true, false, 1, 1);
	fx_free(fx);
}
END_TEST

/* A tiny MTU: one byte of eager data, many continuations, many pieces. */
START_TEST(test_tiny_mtu)
{
	struct uet_ses_cfg cfg;
	struct fx *fx;

	test_cfg(&cfg);
	cfg.mtu = 12 + 44 + 32 + 1;
	cfg.rdzv_threshold = 3000;
	fx = fx_new(&cfg, FAKE_SHUFFLE, 32, 2);
	one_message(fx, 0, true, true, true, 1, 1);
	one_message(fx, 45, true, true, true, 1, 1);
	one_message(fx, 46, false, false, false, 7, 1);
	one_message(fx, 2999, true, true, false, 40, 13);
	one_message(fx, 3001, true, true, true, 50, 3);
	one_message(fx, 7000, false, true, false, 1, 60);
	fx_free(fx);
	ck_assert_int_eq(uet_ses_create(&(struct uet_ses *){ NULL }, &cfg,
					NULL, &test_up, NULL), -EINVAL);
}
END_TEST

static void trunc_case(struct fx *fx, size_t len, size_t rlen, bool expected)
{
	struct node *a = &fx->n[0], *b = &fx->n[1];
	const struct uet_ses_recv_cmpl *rc;
	const struct uet_ses_send_cmpl *sc;
	uint8_t *src = malloc(len), *dst = malloc(rlen + 32);
	uint64_t trunc = stats(b).truncated;
	void *sctx = new_ctx(fx), *rctx = new_ctx(fx);
	size_t i;

	uet_test_fill(src, len, len);
	memset(dst, 0x5c, rlen + 32);
	if (expected)
		ck_assert_int_eq(fx_recv(fx, 1, true, len, 0, NULL, dst, rlen,
					 3, rctx), 0);
	ck_assert_int_eq(fx_send(fx, 0, &b->addr, true, len, true, 5, src, len,
				 2, sctx), 0);
	fx_run(fx);
	if (!expected) {
		ck_assert_int_eq(fx_recv(fx, 1, true, len, 0, NULL, dst, rlen,
					 3, rctx), 0);
		fx_run(fx);
	}
	sc = find_send(a, sctx);
	rc = find_recv(b, rctx);
	ck_assert(sc && rc);
	ck_assert_int_eq(sc->status, 0);
	ck_assert_int_eq(rc->status, UET_SES_ETRUNC);
	ck_assert_uint_eq(rc->len, rlen);
	ck_assert_uint_eq(rc->olen, len - rlen);
	ck_assert_uint_eq(rc->header_data, 5);
	ck_assert(!memcmp(src, dst, rlen));
	for (i = rlen; i < rlen + 32; i++)
		ck_assert_uint_eq(dst[i], 0x5c);
	ck_assert_uint_eq(stats(b).truncated, trunc + 1);
	free(src);
	free(dst);
}

START_TEST(test_truncation)
{
	struct uet_ses_cfg cfg;
	struct fx *fx;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_SHUFFLE, 64, 2);
	trunc_case(fx, 100, 10, true);
	trunc_case(fx, 100, 0, false);
	trunc_case(fx, 10000, 3000, true);
	trunc_case(fx, 10000, 3000, false);
	trunc_case(fx, 100000, 20000, true);
	trunc_case(fx, 100000, 20000, false);
	trunc_case(fx, 100000, 100, true);	/* less than the eager part */
	trunc_case(fx, 100000, 0, false);
	fx_free(fx);
}
END_TEST

START_TEST(test_unexp_bound)
{
	enum { N = 8, LEN = 4000 };
	uint8_t src[N][LEN], dst[N][LEN];
	struct fake_net_stats ns;
	struct uet_ses_stats sb;
	struct uet_ses_cfg cfg;
	int sctx[N], rctx[N];
	struct fx *fx;
	unsigned int i;

	test_cfg(&cfg);
	cfg.unexp_max_bytes = 10000;
	cfg.unexp_max_msgs = 3;
	fx = fx_new(&cfg, FAKE_FIFO, 64, 2);
	for (i = 0; i < N; i++) {
		uet_test_fill(src[i], LEN, i + 100);
		ck_assert_int_eq(fx_send(fx, 0, &fx->n[1].addr, true, i, false,
					 0, src[i], LEN, 1, &sctx[i]), 0);
	}
	fx_run_steps(fx, 3000);
	sb = stats(&fx->n[1]);
	fake_net_get_stats(fx->net, &ns);
	ck_assert_uint_gt(sb.unexp_refused, 0);
	ck_assert_uint_gt(ns.nacked, 0);
	ck_assert_uint_eq(sb.unexp_bytes, 2 * LEN);	/* 2 fit in 10000 */
	ck_assert_uint_le(sb.unexp_bytes_hwm, cfg.unexp_max_bytes);
	ck_assert_uint_eq(sb.unexpected, 2);
	/* Message 2 is refused; 3 and 4 arrive before their turn and are
	 * held, under bounds of their own (the same values); 5 to 7 are
	 * refused as well. */
	ck_assert_uint_eq(sb.ord_held, 2);
	ck_assert_uint_eq(sb.held_bytes_hwm, 2 * LEN);
	ck_assert_uint_gt(sb.ord_refused, 0);
	ck_assert_uint_eq(fx->n[0].cq.ns, 4);
	ck_assert_ptr_null(find_send(&fx->n[0], &sctx[2]));
	ck_assert_ptr_nonnull(find_send(&fx->n[0], &sctx[3]));
	ck_assert_ptr_nonnull(find_send(&fx->n[0], &sctx[4]));
	ck_assert_uint_gt(fake_net_pending(fx->net), 0);
	/* Receives posted in reverse order: the refused messages now match
	 * when the initiator retries, the held ones in their turn. */
	for (i = N; i-- > 0;)
		ck_assert_int_eq(fx_recv(fx, 1, true, i, 0, NULL, dst[i], LEN,
					 1, &rctx[i]), 0);
	fx_run(fx);
	for (i = 0; i < N; i++) {
		ck_assert_int_eq(find_send(&fx->n[0], &sctx[i])->status, 0);
		ck_assert_int_eq(find_recv(&fx->n[1], &rctx[i])->status, 0);
		ck_assert(!memcmp(src[i], dst[i], LEN));
	}
	sb = stats(&fx->n[1]);
	ck_assert_uint_eq(sb.unexp_bytes, 0);
	ck_assert_uint_le(sb.unexp_bytes_hwm, cfg.unexp_max_bytes);
	ck_assert_uint_eq(sb.msgs_rx, N);
	ck_assert_uint_eq(fx->n[1].ses->held_bytes, 0);
	ck_assert_uint_eq(fx->n[1].ses->held_msgs, 0);
	fx_free(fx);

	/* Message-count bound. */
	cfg.unexp_max_bytes = 1 * MIB;
	cfg.unexp_max_msgs = 1;
	fx = fx_new(&cfg, FAKE_FIFO, 64, 2);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(fx_send(fx, 0, &fx->n[1].addr, true, i, false,
					 0, src[i], 10, 1, &sctx[i]), 0);
	fx_run_steps(fx, 200);
	sb = stats(&fx->n[1]);
	ck_assert_uint_eq(sb.unexpected, 1);
	ck_assert_uint_gt(sb.unexp_refused, 0);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(fx_recv(fx, 1, true, i, 0, NULL, dst[i], 10,
					 1, &rctx[i]), 0);
	fx_run(fx);
	for (i = 0; i < 3; i++)
		ck_assert(!memcmp(src[i], dst[i], 10));
	fx_free(fx);
}
END_TEST

START_TEST(test_rdzv_unexpected_memory)
{
	struct uet_ses_stats sa, sb;
	struct uet_ses_cfg cfg;
	uint8_t *src, *dst;
	struct fx *fx;
	int sctx, rctx;
	size_t len = 2 * MIB + 77;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_SHUFFLE, 64, 2);
	src = malloc(len);
	dst = malloc(len);
	uet_test_fill(src, len, 99);
	ck_assert_int_eq(fx_send(fx, 0, &fx->n[1].addr, true, 42, true, 1, src,
				 len, 3, &sctx), 0);
	fx_run(fx);
	sb = stats(&fx->n[1]);
	ck_assert_uint_eq(sb.unexpected, 1);
	ck_assert_uint_eq(sb.rdzv_rx, 1);
	ck_assert_uint_eq(sb.unexp_bytes, PAY_RDZV);
	ck_assert_uint_eq(sb.unexp_bytes_hwm, PAY_RDZV);
	ck_assert_uint_eq(sb.rdzv_read_pkts, 0);
	ck_assert_uint_eq(fx->n[0].cq.ns, 0);	/* waits for the target */
	ck_assert_int_eq(fx_recv(fx, 1, true, 42, 0, NULL, dst, len, 2, &rctx),
			 0);
	fx_run(fx);
	ck_assert_int_eq(find_send(&fx->n[0], &sctx)->status, 0);
	ck_assert_int_eq(find_recv(&fx->n[1], &rctx)->status, 0);
	ck_assert(!memcmp(src, dst, len));
	sa = stats(&fx->n[0]);
	sb = stats(&fx->n[1]);
	ck_assert_uint_eq(sa.rdzv_tx, 1);
	/* READs of 64 KiB rounded down to whole Responses with Data of
	 * PAY_RDATA (46 of them), every reply full but the last. */
	ck_assert_uint_eq(uet_ses_pull_chunk(PAY_RDATA), 46 * PAY_RDATA);
	ck_assert_uint_eq(sb.rdzv_read_pkts,
			  (len - PAY_RDZV + 46 * PAY_RDATA - 1) /
			  (46 * PAY_RDATA));
	ck_assert_uint_eq(sa.rdzv_read_pkts,
			  (len - PAY_RDZV + PAY_RDATA - 1) / PAY_RDATA);
	ck_assert_uint_eq(sb.unexp_bytes, 0);
	ck_assert_uint_eq(sb.unexp_bytes_hwm, PAY_RDZV);
	free(src);
	free(dst);
	fx_free(fx);
}
END_TEST

static void bad_addr_case(struct fx *fx, size_t len, unsigned int which)
{
	struct node *a = &fx->n[0], *b = &fx->n[1];
	/* answered alike (issue 15, docs/conformance.md E-8) */
	static const uint8_t want_rc[3] = {
		UET_RC_BAD_JOB_ID, UET_RC_BAD_JOB_ID, UET_RC_BAD_JOB_ID
	};
	struct uet_ses_stats before = stats(b), after;
	const struct uet_ses_send_cmpl *sc;
	struct uet_ses_addr dst = b->addr;
	uint8_t *buf = calloc(1, len + 1);
	void *sctx = new_ctx(fx);

	if (which == 0)
		dst.job_id ^= 1;
	else if (which == 1)
		dst.pid_on_fep ^= 0x100;
	else
		dst.ri ^= 0x100;
	ck_assert_int_eq(fx_send(fx, 0, &dst, true, 1, false, 0, buf, len, 1,
				 sctx), 0);
	fx_run(fx);
	sc = find_send(a, sctx);
	ck_assert_ptr_nonnull(sc);
	ck_assert_int_eq(sc->status, -EADDRNOTAVAIL);
	ck_assert_uint_eq(sc->rc, want_rc[which]);
	after = stats(b);
	ck_assert_uint_gt(which == 0 ? after.bad_job - before.bad_job :
			  which == 1 ? after.bad_pid - before.bad_pid :
			  after.bad_index - before.bad_index, 0);
	ck_assert_uint_gt(after.err_rsp_tx, before.err_rsp_tx);
	ck_assert_uint_eq(after.unexpected, before.unexpected);
	free(buf);
}

START_TEST(test_bad_address)
{
	static const size_t len[] = { 0, 100, 5000, 100000 };
	struct uet_ses_cfg cfg;
	struct fx *fx;
	unsigned int i, w;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_SHUFFLE, 64, 2);
	for (i = 0; i < 4; i++)
		for (w = 0; w < 3; w++)
			bad_addr_case(fx, len[i], w);
	ck_assert_uint_ge(stats(&fx->n[0]).err_rsp_rx, 12);
	ck_assert_uint_eq(fx->n[1].cq.nr, 0);
	fx_free(fx);
}
END_TEST

START_TEST(test_cancel)
{
	const struct uet_ses_recv_cmpl *rc;
	struct uet_ses_cfg cfg;
	uint8_t buf[16], src[16] = "0123456789abcde";
	struct fx *fx;
	int c1, c2, x;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 64, 2);
	ck_assert_int_eq(fx_recv(fx, 1, true, 5, 0, NULL, buf, 16, 1, &c1), 0);
	ck_assert_int_eq(fx_recv(fx, 1, false, 0, 0, NULL, buf, 16, 1, &c2), 0);
	ck_assert_int_eq(uet_ses_cancel(fx->n[1].ses, fx->n[1].ep, &c1), 0);
	rc = find_recv(&fx->n[1], &c1);
	ck_assert_ptr_nonnull(rc);
	ck_assert_int_eq(rc->status, -ECANCELED);
	ck_assert_int_eq(uet_ses_cancel(fx->n[1].ses, fx->n[1].ep, &c1),
			 -ENOENT);
	ck_assert_int_eq(uet_ses_cancel(fx->n[1].ses, fx->n[1].ep, &x),
			 -ENOENT);
	/* The cancelled receive no longer matches. */
	ck_assert_int_eq(fx_send(fx, 0, &fx->n[1].addr, true, 5, false, 0, src,
				 16, 1, &x), 0);
	fx_run(fx);
	ck_assert_uint_eq(fx->n[1].cq.nr, 1);
	ck_assert_uint_eq(stats(&fx->n[1]).unexpected, 1);
	ck_assert_int_eq(uet_ses_cancel(fx->n[1].ses, fx->n[1].ep, &c2), 0);
	ck_assert_int_eq(find_recv(&fx->n[1], &c2)->status, -ECANCELED);
	fx_free(fx);
}
END_TEST

/* ---- malformed input ---- */

static int inject(struct fx *fx, unsigned int to, unsigned int from,
		  uint8_t nh, const void *buf, size_t len,
		  struct uet_pds_rsp *rsp)
{
	return fake_pds_inject(fx->n[to].pds, &fx->n[from].addr.fa, nh, buf,
			       len, rsp);
}

/*
 * Hand-made requests come from an endpoint id of node 0 that its SES
 * never uses, so that their made-up message_ids are a stream of their
 * own (under RUD a message_id is a place in the stream's send order).
 */
#define FORGED_INITIATOR	uet_ses_initiator_id(0x7e, 0x7f)

static size_t mk_som1(uint8_t *buf, const struct node *to, uint8_t opcode,
		      uint16_t msg_id, bool eom, uint32_t total, uint32_t plen)
{
	struct uet_ses_std_som1 h;

	memset(&h, 0, sizeof(h));
	h.ctl.opcode = opcode;
	h.ctl.som = true;
	h.ctl.eom = eom;
	h.message_id = msg_id;
	h.job_id = to->addr.job_id;
	h.pid_on_fep = to->addr.pid_on_fep;
	h.resource_index = to->addr.ri;
	h.initiator = FORGED_INITIATOR;
	h.request_length = total;
	ck_assert_int_eq(uet_ses_std_som1_encode(UET_WIRE_UEPLUS, buf, 44, &h), 44);
	memset(buf + 44, 0x77, plen);
	return 44 + plen;
}

static size_t mk_som0(uint8_t *buf, const struct node *to, uint8_t opcode,
		      uint16_t msg_id, uint32_t off, uint16_t plen,
		      uint32_t total, bool eom)
{
	struct uet_ses_std_som0 h;

	memset(&h, 0, sizeof(h));
	h.ctl.opcode = opcode;
	h.ctl.eom = eom;
	h.message_id = msg_id;
	h.job_id = to->addr.job_id;
	h.pid_on_fep = to->addr.pid_on_fep;
	h.resource_index = to->addr.ri;
	h.initiator = FORGED_INITIATOR;
	h.payload_length = plen;
	h.message_offset = off;
	h.request_length = total;
	ck_assert_int_eq(uet_ses_std_som0_encode(UET_WIRE_UEPLUS, buf, 44, &h), 44);
	return 44;
}

START_TEST(test_malformed)
{
	struct uet_ses_small_msg sm;
	struct uet_ses_rsp_data rd;
	struct uet_ses_rdzv_ext rx;
	struct uet_ses_stats st;
	struct uet_ses_cfg cfg;
	struct uet_pds_rsp rsp;
	uint8_t buf[4096];
	uint64_t bad = 0, pkts;
	struct fx *fx;
	struct node *b;
	size_t len, i;
	int ret;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 64, 2);
	b = &fx->n[1];

	/* Random bytes: never a crash; every error is counted. */
	for (i = 0; i < 20000; i++) {
		len = uet_test_rand64() % 200;
		uet_test_fill(buf, len, uet_test_rand64());
		if (len >= 2 && (i & 1)) {
			/* Plausible first bytes: request, version 0. */
			buf[0] &= 0x0f;
			buf[1] &= 0x3f;
		}
		ret = inject(fx, 1, 0, uet_test_rand64() % 16, buf, len, &rsp);
		ck_assert_int_le(ret, 0);
		if (ret < 0 && ret != -EAGAIN)
			bad++;
	}
	st = stats(b);
	ck_assert_uint_eq(st.bad_hdr, bad);
	ck_assert_uint_gt(bad, 10000);
	fx_run(fx);

	/* Every truncated prefix of a valid header. */
	len = mk_som1(buf, b, UET_SEND, 1000, true, 8, 8);
	for (i = 0; i < 44; i++)
		ck_assert_int_lt(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, i,
					&rsp), 0);
	bad = stats(b).bad_hdr;

	/* Cross-field inconsistencies. */
	len = mk_som1(buf, b, UET_SEND, 1001, false, 8, 8);	/* eom=0 */
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len, &rsp),
			 -EPROTO);
	len = mk_som1(buf, b, UET_SEND, 1002, true, 8, 9);	/* > total */
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len, &rsp),
			 -EPROTO);
	len = mk_som0(buf, b, UET_SEND, 1003, 100, 50, 1000, false);
	memset(buf + len, 1, 49);	/* payload 49 != payload_length 50 */
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len + 49,
				&rsp), -EPROTO);
	len = mk_som0(buf, b, UET_SEND, 1004, 990, 20, 1000, true);
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len + 20,
				&rsp), -EPROTO);	/* past the end */
	len = mk_som0(buf, b, UET_SEND, 1005, 0, 20, 1000, false);
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len + 20,
				&rsp), -EPROTO);	/* offset 0 */
	len = mk_som0(buf, b, UET_RENDEZVOUS_SEND, 1006, 100, 20, 1000, false);
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len + 20,
				&rsp), -EPROTO);
	len = mk_som0(buf, b, UET_SEND, 1007, 100, 20, 1000, true);
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len + 20,
				&rsp), -EPROTO);	/* eom, not at end */

	memset(&sm, 0, sizeof(sm));
	sm.ctl.opcode = UET_SEND;
	sm.ctl.som = sm.ctl.eom = true;
	sm.request_length = 10;
	sm.job_id = JOB;
	sm.pid_on_fep = b->addr.pid_on_fep;
	sm.resource_index = b->addr.ri;
	ck_assert_int_eq(uet_ses_small_msg_encode(UET_WIRE_UEPLUS, buf, 32, &sm), 32);
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_MEDIUM, buf, 32 + 9,
				&rsp), -EPROTO);

	/* Rendezvous: eager length must be the payload. */
	len = mk_som1(buf, b, UET_RENDEZVOUS_SEND, 1008, true, 5000, 0);
	memset(&rx, 0, sizeof(rx));
	rx.eager_length = 100;
	rx.memory_key = 1;
	rx.buffer_offset = 100;
	rx.remaining_length = 4900;
	ck_assert_int_eq(uet_ses_rdzv_ext_encode(UET_WIRE_UEPLUS, buf + 44, 32, &rx), 32);
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf,
				44 + 32 + 99, &rsp), -EPROTO);
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, 44 + 20,
				&rsp), UET_WIRE_ETRUNC);

	/* A packet that cannot belong to the message in progress under its
	 * {source, message_id} (other length, opcode, a second SOM=1):
	 * the source reused the id, the old message fails and a new one
	 * starts. */
	st = stats(b);
	len = mk_som1(buf, b, UET_SEND, 1009, false, 3000, 1000);
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len, &rsp),
			 0);
	len = mk_som0(buf, b, UET_SEND, 1009, 1000, 100, 4000, false);
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len + 100,
				&rsp), 0);
	len = mk_som0(buf, b, UET_TAGGED_SEND, 1009, 1000, 100, 3000, false);
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len + 100,
				&rsp), 0);
	len = mk_som1(buf, b, UET_TAGGED_SEND, 1009, false, 3000, 1000);
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len, &rsp),
			 0);	/* the same message: fits */
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len, &rsp),
			 0);	/* a second SOM=1 */
	ck_assert_uint_eq(stats(b).stale_msgs, st.stale_msgs + 3);
	ck_assert_uint_eq(stats(b).unexpected, st.unexpected + 4);
	ck_assert_uint_eq(stats(b).unexp_bytes, st.unexp_bytes + 3000);

	/* Responses are not requests. */
	memset(buf, 0, 8);
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_RESPONSE, buf, 8, &rsp),
			 -EPROTO);
	st = stats(b);
	ck_assert_uint_eq(st.bad_hdr, bad + 11);

	/* Not malformed: an answer for an unknown READ is dropped, an
	 * unsupported opcode is answered with RC_UNSUPPORTED_OP, a write
	 * with a key that is not registered with RC_BAD_MKEY. */
	memset(&rd, 0, sizeof(rd));
	rd.ctl.opcode = UET_RESPONSE_W_DATA;
	rd.ctl.return_code = UET_RC_OK;
	rd.read_request_message_id = 4242;
	rd.payload_length = 4;
	ck_assert_int_eq(uet_ses_rsp_data_encode(UET_WIRE_UEPLUS, buf, 24, &rd), 24);
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_RESPONSE_DATA, buf, 28, &rsp),
			 0);
	len = mk_som1(buf, b, UET_TSEND_ATOMIC, 1010, true, 4, 4);
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len, &rsp),
			 0);
	ck_assert_uint_eq(rsp.next_hdr, UET_HDR_RESPONSE);
	ck_assert_int_eq(uet_ses_rsp_rc(UET_WIRE_UEPLUS, rsp.next_hdr, rsp.buf, rsp.len),
			 UET_RC_UNSUPPORTED_OP);
	len = mk_som1(buf, b, UET_WRITE, 1011, true, 4, 4);
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len, &rsp),
			 0);
	ck_assert_int_eq(uet_ses_rsp_rc(UET_WIRE_UEPLUS, rsp.next_hdr, rsp.buf, rsp.len),
			 UET_RC_BAD_MKEY);
	ck_assert_uint_eq(stats(b).rma_bad_key, 1);
	ck_assert_uint_eq(stats(b).bad_hdr, bad + 11);

	/* The good packets still work afterwards. */
	pkts = stats(b).pkts_rx;
	one_message(fx, 5000, true, true, true, 1, 1);
	ck_assert_uint_gt(stats(b).pkts_rx, pkts);
	fx_free(fx);
}
END_TEST

/* A source that reuses the message_id of a message it never finished
 * (its PDS gave up): the receive matched to the old one fails. */
START_TEST(test_stale_message)
{
	const struct uet_ses_recv_cmpl *rc;
	struct uet_ses_cfg cfg;
	struct uet_pds_rsp rsp;
	uint8_t buf[2000], dst[3000];
	struct fx *fx;
	size_t len;
	int r1;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 16, 2);
	ck_assert_int_eq(fx_recv(fx, 1, false, 0, 0, NULL, dst, 3000, 1, &r1),
			 0);
	len = mk_som1(buf, &fx->n[1], UET_SEND, 55, false, 3000, 1000);
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len, &rsp),
			 0);
	ck_assert_ptr_null(find_recv(&fx->n[1], &r1));
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len, &rsp),
			 0);
	rc = find_recv(&fx->n[1], &r1);
	ck_assert_ptr_nonnull(rc);
	ck_assert_int_eq(rc->status, -EIO);
	ck_assert_uint_eq(stats(&fx->n[1]).stale_msgs, 1);
	ck_assert_uint_eq(stats(&fx->n[1]).unexpected, 1);
	fx_free(fx);
}
END_TEST

/* The memory key of A's only rendezvous send. */
static uint64_t mkey_of(const struct node *a)
{
	const struct uet_ses_send_op *op;

	ck_assert(!uet_dlist_empty(&a->ses->sends));
	op = uet_dlist_first_entry(&a->ses->sends, struct uet_ses_send_op,
				   entry);
	ck_assert(op->rdzv);
	return op->mkey;
}

static size_t mk_read(uint8_t *buf, const struct node *to, uint16_t msg_id,
		      uint64_t key, uint64_t off, uint32_t len)
{
	size_t n = mk_som1(buf, to, UET_READ, msg_id, true, len, 0);

	uet_put_be64(buf + 12, off);
	uet_put_be64(buf + 24, key);
	return n;
}

START_TEST(test_read_checks)
{
	struct uet_ses_cfg cfg;
	struct uet_pds_rsp rsp;
	struct node *a, *b;
	uint8_t buf[128], *src;
	uint64_t key;
	struct fx *fx;
	size_t len;
	int sctx;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 64, 3);
	a = &fx->n[0];
	b = &fx->n[1];
	src = calloc(1, 100000);
	ck_assert_int_eq(fx_send(fx, 0, &b->addr, true, 1, false, 0, src,
				 100000, 1, &sctx), 0);
	fx_run(fx);	/* unexpected at B: the key stays registered */
	key = mkey_of(a);

	len = mk_read(buf, a, 77, key ^ 1, 0, 100);
	ck_assert_int_eq(inject(fx, 0, 1, UET_HDR_REQUEST_STD, buf, len, &rsp),
			 0);
	ck_assert_int_eq(uet_ses_rsp_rc(UET_WIRE_UEPLUS, rsp.next_hdr, rsp.buf, rsp.len),
			 UET_RC_BAD_MKEY);
	/* Only the destination of the send may read it. */
	len = mk_read(buf, a, 78, key, 0, 100);
	ck_assert_int_eq(inject(fx, 0, 2, UET_HDR_REQUEST_STD, buf, len, &rsp),
			 0);
	ck_assert_int_eq(uet_ses_rsp_rc(UET_WIRE_UEPLUS, rsp.next_hdr, rsp.buf, rsp.len),
			 UET_RC_BAD_MKEY);
	len = mk_read(buf, a, 79, key, 99990, 11);
	ck_assert_int_eq(inject(fx, 0, 1, UET_HDR_REQUEST_STD, buf, len, &rsp),
			 0);
	ck_assert_int_eq(uet_ses_rsp_rc(UET_WIRE_UEPLUS, rsp.next_hdr, rsp.buf, rsp.len),
			 UET_RC_BAD_ADDR);
	len = mk_read(buf, a, 80, key, 100001, 0);
	ck_assert_int_eq(inject(fx, 0, 1, UET_HDR_REQUEST_STD, buf, len, &rsp),
			 0);
	ck_assert_int_eq(uet_ses_rsp_rc(UET_WIRE_UEPLUS, rsp.next_hdr, rsp.buf, rsp.len),
			 UET_RC_BAD_ADDR);
	ck_assert_uint_eq(stats(a).err_rsp_tx, 4);
	/* A good one: answered RC_OK, the data goes to B (which ignores an
	 * answer to a READ it never sent). */
	len = mk_read(buf, a, 81, key, 1000, 5000);
	ck_assert_int_eq(inject(fx, 0, 1, UET_HDR_REQUEST_STD, buf, len, &rsp),
			 0);
	ck_assert_int_eq(uet_ses_rsp_rc(UET_WIRE_UEPLUS, rsp.next_hdr, rsp.buf, rsp.len),
			 UET_RC_OK);
	fx_run(fx);
	ck_assert_uint_eq(stats(a).rdzv_read_pkts, (5000 + 1415) / 1416);
	ck_assert_uint_eq(stats(b).bad_hdr, 0);
	ck_assert_ptr_null(find_send(a, &sctx));
	/* Then the real receive. */
	{
		uint8_t *dst = malloc(100000);
		int rctx;

		ck_assert_int_eq(fx_recv(fx, 1, true, 1, 0, NULL, dst, 100000,
					 1, &rctx), 0);
		fx_run(fx);
		ck_assert_int_eq(find_recv(b, &rctx)->status, 0);
		ck_assert(!memcmp(dst, src, 100000));
		ck_assert_int_eq(find_send(a, &sctx)->status, 0);
		free(dst);
	}
	free(src);
	fx_free(fx);
}
END_TEST

/* A rendezvous request whose READ the initiator refuses: the receive
 * fails with the initiator's code.  It claims to come from node 0's
 * endpoint (the READ goes there), as message msg_id of that stream. */
static void forged_rdzv(struct fx *fx, uint16_t msg_id, uint64_t key,
			uint64_t boff, int want_status, uint8_t want_rc)
{
	struct node *b = &fx->n[1];
	const struct uet_ses_recv_cmpl *rc;
	struct uet_ses_rdzv_ext rx;
	struct uet_pds_rsp rsp;
	uint8_t buf[200], dst[5000];
	uint64_t err = stats(b).err_rsp_rx;
	void *rctx = new_ctx(fx);

	ck_assert_int_eq(fx_recv(fx, 1, false, 0, 0, NULL, dst, sizeof(dst), 1,
				 rctx), 0);
	ck_assert_uint_eq(mk_som1(buf, b, UET_RENDEZVOUS_SEND, msg_id, true,
				  5000, 0), 44);
	uet_put_be32(buf + 20, uet_ses_initiator_id(fx->n[0].addr.pid_on_fep,
						    fx->n[0].addr.ri));
	memset(&rx, 0, sizeof(rx));
	rx.eager_length = 100;
	rx.memory_key = key;
	rx.buffer_offset = boff;
	rx.remaining_length = 4900;
	ck_assert_int_eq(uet_ses_rdzv_ext_encode(UET_WIRE_UEPLUS, buf + 44, 32, &rx), 32);
	memset(buf + 76, 3, 100);
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, 176, &rsp),
			 0);
	ck_assert_int_eq(uet_ses_rsp_rc(UET_WIRE_UEPLUS, rsp.next_hdr, rsp.buf, rsp.len),
			 UET_RC_OK);
	fx_run(fx);
	rc = find_recv(b, rctx);
	ck_assert_ptr_nonnull(rc);
	ck_assert_int_eq(rc->status, want_status);
	ck_assert_uint_eq(rc->rc, want_rc);
	ck_assert_uint_gt(stats(b).err_rsp_rx, err);
}

START_TEST(test_rdzv_read_error)
{
	struct uet_ses_cfg cfg;
	uint8_t *src;
	struct fx *fx;
	uint64_t key;
	int sctx;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_SHUFFLE, 64, 2);
	/* The stream is new at B: taken up at any id. */
	forged_rdzv(fx, 2000, 0x1234, 100, -EACCES, UET_RC_BAD_MKEY);
	/* A real key, an offset past the registered buffer. */
	src = calloc(1, 100000);
	ck_assert_int_eq(fx_send(fx, 0, &fx->n[1].addr, true, 1, false, 0, src,
				 100000, 1, &sctx), 0);
	fx_run(fx);
	key = mkey_of(&fx->n[0]);
	/* A's send started a sequence (message_id 1): B expects 2. */
	forged_rdzv(fx, 2, key, 99000, -EINVAL, UET_RC_BAD_ADDR);
	ck_assert_uint_ge(stats(&fx->n[0]).err_rsp_tx, 2);
	fx_free(fx);
	free(src);
}
END_TEST

START_TEST(test_ep_close)
{
	struct uet_ses_cfg cfg;
	uint8_t buf[64], *big;
	struct fx *fx;
	struct node *a, *b;
	int c1, c2, s1, s2, s3, s4;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 64, 2);
	a = &fx->n[0];
	b = &fx->n[1];
	big = calloc(1, 200000);
	memset(buf, 1, sizeof(buf));
	ck_assert_int_eq(fx_recv(fx, 1, true, 1, 0, NULL, buf, 64, 1, &c1), 0);
	ck_assert_int_eq(fx_recv(fx, 1, true, 2, 0, NULL, buf, 64, 1, &c2), 0);
	ck_assert_int_eq(fx_send(fx, 0, &b->addr, true, 3, false, 0, buf, 64, 1,
				 &s1), 0);
	ck_assert_int_eq(fx_send(fx, 0, &b->addr, true, 4, false, 0, big,
				 200000, 1, &s2), 0);
	fx_run(fx);
	ck_assert_uint_eq(stats(b).unexpected, 2);
	ck_assert_ptr_nonnull(find_send(a, &s1));
	ck_assert_ptr_null(find_send(a, &s2));	/* rendezvous waits */
	uet_ses_ep_close(b->ep);
	b->ep = NULL;
	ck_assert_int_eq(find_recv(b, &c1)->status, -ECANCELED);
	ck_assert_int_eq(find_recv(b, &c2)->status, -ECANCELED);
	ck_assert_uint_eq(stats(b).unexp_bytes, 0);
	fx_run(fx);
	/* The target told the initiator. */
	ck_assert_int_eq(find_send(a, &s2)->status, -ECANCELED);
	ck_assert_uint_eq(find_send(a, &s2)->rc, UET_RC_CANCELLED);
	/* Nobody is there any more. */
	ck_assert_int_eq(fx_send(fx, 0, &b->addr, true, 3, false, 0, buf, 64, 1,
				 &s3), 0);
	fx_run(fx);
	ck_assert_int_eq(find_send(a, &s3)->status, -EADDRNOTAVAIL);
	ck_assert_uint_eq(find_send(a, &s3)->rc, UET_RC_BAD_JOB_ID);
	/* Close of the sender's endpoint cancels its sends. */
	ck_assert_int_eq(uet_ses_ep_open(b->ses, JOB, b->addr.pid_on_fep,
					 b->addr.ri, &b->ep), 0);
	ck_assert_int_eq(uet_ses_ep_open(b->ses, JOB, b->addr.pid_on_fep,
					 b->addr.ri, &(struct uet_ses_ep *){
						 NULL }), -EEXIST);
	ck_assert_int_eq(fx_send(fx, 0, &b->addr, true, 3, false, 0, big,
				 200000, 1, &s4), 0);
	fx_run(fx);
	ck_assert_ptr_null(find_send(a, &s4));
	uet_ses_ep_close(a->ep);
	a->ep = NULL;
	fx_run(fx);
	ck_assert_int_eq(find_send(a, &s4)->status, -ECANCELED);
	free(big);
	fx_free(fx);
}
END_TEST

START_TEST(test_destroy_outstanding)
{
	struct uet_ses_cfg cfg;
	uint8_t *big;
	struct fx *fx;
	struct node *a;
	int s[4], r;
	unsigned int i;

	test_cfg(&cfg);
	cfg.rdzv_threshold = MIB;	/* many packets in flight */
	fx = fx_new(&cfg, FAKE_FIFO, 8, 2);
	a = &fx->n[0];
	big = calloc(1, 300000);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(fx_send(fx, 0, &fx->n[1].addr, true, i, false,
					 0, big, i ? 300000 : 10, 1, &s[i]), 0);
	ck_assert_int_eq(fx_recv(fx, 0, true, 1, 0, NULL, big, 10, 1, &r), 0);
	fx_run_steps(fx, 5);
	ck_assert_uint_gt(fake_net_pending(fx->net), 0);
	uet_ses_destroy(a->ses);
	a->ses = NULL;
	/* The first (one packet) was done; the rest are cancelled. */
	ck_assert_uint_eq(a->cq.ns, 4);
	ck_assert_int_eq(find_send(a, &s[0])->status, 0);
	for (i = 1; i < 4; i++)
		ck_assert_int_eq(find_send(a, &s[i])->status, -ECANCELED);
	ck_assert_int_eq(find_recv(a, &r)->status, -ECANCELED);
	/* PDS gives the packets back (the zombie SES frees itself). */
	uet_pds_destroy(a->pds);
	a->pds = NULL;
	fx_run(fx);
	fx_free(fx);
	free(big);
}
END_TEST

START_TEST(test_pds_failure)
{
	struct uet_ses_cfg cfg;
	unsigned int i;
	uint8_t *big;
	struct fx *fx;
	int s1, s2;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 8, 2);
	big = calloc(1, 300000);
	ck_assert_int_eq(fx_send(fx, 0, &fx->n[1].addr, true, 1, false, 0, big,
				 10000, 1, &s1), 0);
	ck_assert_int_eq(fx_send(fx, 0, &fx->n[1].addr, true, 2, false, 0, big,
				 300000, 1, &s2), 0);
	fx_run_steps(fx, 3);
	/* A failed PDC fails what is queued on it later as well. */
	for (i = 0; i < 10; i++) {
		fake_net_fail_all(fx->net, -ETIMEDOUT);
		fx_progress(fx);
	}
	ck_assert_uint_eq(fake_net_pending(fx->net), 0);
	ck_assert_int_eq(find_send(&fx->n[0], &s1)->status, -ETIMEDOUT);
	ck_assert_uint_eq(find_send(&fx->n[0], &s1)->rc, UET_RC_NULL);
	ck_assert_int_eq(find_send(&fx->n[0], &s2)->status, -ETIMEDOUT);
	free(big);
	fx_free(fx);
}
END_TEST

/* The window is respected and several destinations progress together. */
START_TEST(test_window)
{
	struct fake_net_stats ns;
	struct uet_ses_cfg cfg;
	uint8_t *src, *d1, *d2;
	struct fx *fx;
	int s1, s2, r1, r2;
	size_t len = 300000;

	test_cfg(&cfg);
	cfg.rdzv_threshold = 1 * MIB;
	fx = fx_new(&cfg, FAKE_SHUFFLE, 4, 3);
	src = malloc(len);
	d1 = malloc(len);
	d2 = malloc(len);
	uet_test_fill(src, len, 3);
	ck_assert_int_eq(fx_recv(fx, 1, false, 0, 0, NULL, d1, len, 1, &r1), 0);
	ck_assert_int_eq(fx_recv(fx, 2, false, 0, 0, NULL, d2, len, 1, &r2), 0);
	ck_assert_int_eq(fx_send(fx, 0, &fx->n[1].addr, false, 0, false, 0, src,
				 len, 1, &s1), 0);
	ck_assert_int_eq(fx_send(fx, 0, &fx->n[2].addr, false, 0, false, 0, src,
				 len, 1, &s2), 0);
	fx_run(fx);
	fake_net_get_stats(fx->net, &ns);
	ck_assert_uint_le(ns.max_in_flight, 4);
	/* tx_space is asked first: only the first packet of a cold PDC
	 * (and stashed retries) meet a full window. */
	ck_assert_uint_le(ns.busy, ns.sent / 10);
	ck_assert(!memcmp(src, d1, len) && !memcmp(src, d2, len));
	ck_assert_int_eq(find_send(&fx->n[0], &s1)->status, 0);
	ck_assert_int_eq(find_send(&fx->n[0], &s2)->status, 0);
	free(src);
	free(d1);
	free(d2);
	fx_free(fx);
}
END_TEST

/*
 * A send with nothing queued before it runs at once (stats.tx_direct),
 * one that finds others queued waits its turn on the transmit queue:
 * either way every message arrives whole, in order, and completes.
 */
START_TEST(test_direct_start)
{
	enum { N = 8, LEN = 5000, SMALL = 1000 };
	const struct uet_ses_recv_cmpl *rc;
	const struct uet_ses_send_cmpl *sc;
	struct node *a, *b;
	struct uet_ses_stats st;
	struct uet_ses_cfg cfg;
	uint8_t *src, *dst;
	void *sctx[N], *rctx[N];
	struct fx *fx;
	unsigned int i;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 2, 2);
	a = &fx->n[0];
	b = &fx->n[1];
	one_message(fx, 64, false, false, true, 1, 1);
	ck_assert_uint_eq(stats(a).tx_direct, 1);
	/* more packets than the window: the rest waits for ACKs */
	one_message(fx, LEN, true, false, true, 3, 2);
	ck_assert_uint_eq(stats(a).tx_direct, 2);

	fx_free(fx);

	/* RUD: the first message of a stream closes its gate until it is
	 * acknowledged, so the second (one packet, not parked behind a
	 * window) waits on the transmit queue, and the sends after it find
	 * the queue not empty. */
	fx = fx_new(&cfg, FAKE_FIFO, 2, 2);
	a = &fx->n[0];
	b = &fx->n[1];
	ck_assert_int_eq(uet_ses_ep_set_mode(a->ep, UET_PDS_MODE_RUD), 0);
	ck_assert_int_eq(uet_ses_ep_set_mode(b->ep, UET_PDS_MODE_RUD), 0);
	src = malloc(N * SMALL);
	dst = malloc(N * SMALL);
	ck_assert(src && dst);
	uet_test_fill(src, N * SMALL, 11);
	memset(dst, 0x5a, N * SMALL);
	for (i = 0; i < N; i++) {
		rctx[i] = new_ctx(fx);
		sctx[i] = new_ctx(fx);
		ck_assert_int_eq(fx_recv(fx, 1, false, 0, 0, NULL,
					 dst + i * SMALL, SMALL, 1, rctx[i]), 0);
	}
	for (i = 0; i < N; i++)
		ck_assert_int_eq(fx_send(fx, 0, &b->addr, false, 0, false, 0,
					 src + i * SMALL, SMALL, 1 + i % 3,
					 sctx[i]), 0);
	st = stats(a);
	ck_assert_uint_eq(st.msgs_tx, N);
	ck_assert_uint_eq(st.tx_direct, 2);
	fx_run(fx);
	for (i = 0; i < N; i++) {
		sc = find_send(a, sctx[i]);
		rc = find_recv(b, rctx[i]);
		ck_assert(sc && rc);
		ck_assert_int_eq(sc->status, 0);
		ck_assert_int_eq(rc->status, 0);
		ck_assert_uint_eq(rc->len, SMALL);
	}
	/* in send order: receive i holds message i */
	ck_assert(!memcmp(src, dst, N * SMALL));
	free(src);
	free(dst);
	fx_free(fx);
}
END_TEST

START_TEST(test_api_errors)
{
	struct uet_ses_send_req sreq;
	struct uet_ses_recv_req rreq;
	struct uet_ses_cfg cfg;
	struct uet_ses_ep *ep;
	struct iovec iov = { NULL, 5 };
	struct fx *fx;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 8, 2);
	ck_assert_int_eq(uet_ses_ep_open(fx->n[0].ses, UET_JOB_ID_MAX + 1, 0,
					 0, &ep), -EINVAL);
	ck_assert_int_eq(uet_ses_ep_open(fx->n[0].ses, 0, 0x1000, 0, &ep),
			 -EINVAL);
	memset(&sreq, 0, sizeof(sreq));
	ck_assert_int_eq(uet_ses_send(fx->n[0].ses, &sreq, 0), -EINVAL);
	sreq.ep = fx->n[0].ep;
	sreq.dst = fx->n[1].addr;
	sreq.iov = &iov;
	sreq.iovcnt = 1;
	ck_assert_int_eq(uet_ses_send(fx->n[0].ses, &sreq, 0), -EINVAL);
	sreq.iovcnt = 0;
	sreq.dst.pid_on_fep = 0x1000;
	ck_assert_int_eq(uet_ses_send(fx->n[0].ses, &sreq, 0), -EINVAL);
	sreq.ep = fx->n[1].ep;	/* another SES's endpoint */
	sreq.dst = fx->n[1].addr;
	ck_assert_int_eq(uet_ses_send(fx->n[0].ses, &sreq, 0), -EINVAL);
	memset(&rreq, 0, sizeof(rreq));
	ck_assert_int_eq(uet_ses_recv(fx->n[0].ses, &rreq, 0), -EINVAL);
	rreq.ep = fx->n[0].ep;
	rreq.iov = &iov;
	rreq.iovcnt = 1;
	ck_assert_int_eq(uet_ses_recv(fx->n[0].ses, &rreq, 0), -EINVAL);
	ck_assert_uint_eq(fx->n[0].cq.ns + fx->n[0].cq.nr, 0);
	fx_free(fx);
}
END_TEST

/* A sends a rendezvous message of len to B, which has a receive posted;
 * run until B is pulling. */
static void start_pull(struct fx *fx, uint8_t *src, uint8_t *dst, size_t len,
		       void *sctx, void *rctx)
{
	unsigned int i;

	ck_assert_int_eq(fx_recv(fx, 1, true, 77, 0, NULL, dst, len, 1, rctx),
			 0);
	ck_assert_int_eq(fx_send(fx, 0, &fx->n[1].addr, true, 77, false, 0,
				 src, len, 1, sctx), 0);
	for (i = 0; i < 1000 && !stats(&fx->n[0]).rdzv_read_pkts; i++)
		fx_run_steps(fx, 1);
	fx_run_steps(fx, 10);
	ck_assert_uint_gt(stats(&fx->n[1]).rdzv_read_pkts, 0);
	ck_assert_uint_gt(stats(&fx->n[0]).rdzv_read_pkts, 0);
	ck_assert_ptr_null(find_recv(&fx->n[1], rctx));
	ck_assert_ptr_null(find_send(&fx->n[0], sctx));
}

/* The target's endpoint closes while it pulls. */
START_TEST(test_close_target_during_pull)
{
	const struct uet_ses_send_cmpl *sc;
	struct uet_ses_cfg cfg;
	uint8_t *src, *dst;
	struct fx *fx;
	void *sctx, *rctx;
	size_t len = 2 * MIB;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 16, 2);
	sctx = new_ctx(fx);
	rctx = new_ctx(fx);
	src = calloc(1, len);
	dst = calloc(1, len);
	start_pull(fx, src, dst, len, sctx, rctx);
	uet_ses_ep_close(fx->n[1].ep);
	fx->n[1].ep = NULL;
	ck_assert_int_eq(find_recv(&fx->n[1], rctx)->status, -ECANCELED);
	fx_run(fx);
	sc = find_send(&fx->n[0], sctx);
	ck_assert_ptr_nonnull(sc);
	ck_assert_int_eq(sc->status, -ECANCELED);
	ck_assert_uint_eq(sc->rc, UET_RC_CANCELLED);
	ck_assert_uint_eq(stats(&fx->n[1]).bad_hdr, 0);
	free(src);
	free(dst);
	fx_free(fx);
}
END_TEST

/* The initiator's endpoint closes while the target pulls: the target is
 * told (Response with Data carrying RC_CANCELLED, or an address error on
 * the ACK of its next READ). */
START_TEST(test_close_initiator_during_pull)
{
	const struct uet_ses_recv_cmpl *rc;
	struct uet_ses_cfg cfg;
	uint8_t *src, *dst;
	struct fx *fx;
	void *sctx, *rctx;
	size_t len = 2 * MIB;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 16, 2);
	sctx = new_ctx(fx);
	rctx = new_ctx(fx);
	src = calloc(1, len);
	dst = calloc(1, len);
	start_pull(fx, src, dst, len, sctx, rctx);
	uet_ses_ep_close(fx->n[0].ep);
	fx->n[0].ep = NULL;
	fx_run(fx);
	ck_assert_int_eq(find_send(&fx->n[0], sctx)->status, -ECANCELED);
	/* Whichever comes first: the cancelled answer, or the ACK of a READ
	 * that found the endpoint gone. */
	rc = find_recv(&fx->n[1], rctx);
	ck_assert_ptr_nonnull(rc);
	if (rc->rc == UET_RC_CANCELLED) {
		ck_assert_int_eq(rc->status, -ECANCELED);
	} else {
		ck_assert_uint_eq(rc->rc, UET_RC_BAD_JOB_ID);
		ck_assert_int_eq(rc->status, -EADDRNOTAVAIL);
	}
	fx_free(fx);

	/* One READ, already answered RC_OK and partly served: only the
	 * Response with Data carrying RC_CANCELLED can tell the target. */
	fx = fx_new(&cfg, FAKE_FIFO, 4, 2);
	sctx = new_ctx(fx);
	rctx = new_ctx(fx);
	start_pull(fx, src, dst, 60000, sctx, rctx);
	uet_ses_ep_close(fx->n[0].ep);
	fx->n[0].ep = NULL;
	fx_run(fx);
	ck_assert_int_eq(find_send(&fx->n[0], sctx)->status, -ECANCELED);
	rc = find_recv(&fx->n[1], rctx);
	ck_assert_ptr_nonnull(rc);
	ck_assert_int_eq(rc->status, -ECANCELED);
	ck_assert_uint_eq(rc->rc, UET_RC_CANCELLED);
	ck_assert_uint_eq(stats(&fx->n[1]).err_rsp_rx, 1);
	free(src);
	free(dst);
	fx_free(fx);
}
END_TEST

/*
 * A message of a few hundred READs: the target queues a reply per READ,
 * most of them parked behind the PDS window.  Each packet that ends wakes
 * one of them, not all (which made a 1 GB rendezvous quadratic: a pass
 * over thousands of parked replies per packet).
 */
START_TEST(test_pull_many_reads)
{
	const struct uet_ses_send_cmpl *sc;
	const struct uet_ses_recv_cmpl *rc;
	struct uet_ses_stats st;
	struct uet_ses_cfg cfg;
	uint8_t *src, *dst;
	struct fx *fx;
	void *sctx, *rctx;
	size_t len = 24 * MIB;
	unsigned int n;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 16, 2);
	sctx = new_ctx(fx);
	rctx = new_ctx(fx);
	src = malloc(len);
	dst = calloc(1, len);
	uet_test_fill(src, len, 5);
	start_pull(fx, src, dst, len, sctx, rctx);
	fx_run(fx);
	rc = find_recv(&fx->n[1], rctx);
	ck_assert_ptr_nonnull(rc);
	ck_assert_int_eq(rc->status, 0);
	ck_assert_uint_eq(rc->len, len);
	ck_assert(memcmp(src, dst, len) == 0);
	sc = find_send(&fx->n[0], sctx);
	ck_assert_ptr_nonnull(sc);
	ck_assert_int_eq(sc->status, 0);
	for (n = 0; n < 2; n++) {
		st = stats(&fx->n[n]);
		ck_assert_uint_gt(st.pkts_tx, 0);
		ck_assert_msg(st.txi_runs <= 4 * st.pkts_tx + 16,
			      "node %u: %llu transmit-queue runs for %llu "
			      "packets", n, (unsigned long long)st.txi_runs,
			      (unsigned long long)st.pkts_tx);
	}
	ck_assert_uint_ge(stats(&fx->n[1]).rdzv_read_pkts,
			  len / (64 * 1024) - 1);
	free(src);
	free(dst);
	fx_free(fx);
}
END_TEST

/* PDS gives up on both directions in the middle of a pull. */
START_TEST(test_pull_failure)
{
	const struct uet_ses_send_cmpl *sc;
	const struct uet_ses_recv_cmpl *rc;
	struct uet_ses_cfg cfg;
	uint8_t *src, *dst;
	struct fx *fx;
	void *sctx, *rctx;
	size_t len = 2 * MIB;
	unsigned int i;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 16, 2);
	sctx = new_ctx(fx);
	rctx = new_ctx(fx);
	src = calloc(1, len);
	dst = calloc(1, len);
	start_pull(fx, src, dst, len, sctx, rctx);
	for (i = 0; i < 10; i++) {
		fake_net_fail_all(fx->net, -ETIMEDOUT);
		fx_progress(fx);
	}
	rc = find_recv(&fx->n[1], rctx);
	ck_assert_ptr_nonnull(rc);
	ck_assert_int_eq(rc->status, -ETIMEDOUT);
	sc = find_send(&fx->n[0], sctx);
	ck_assert_ptr_nonnull(sc);
	ck_assert_int_eq(sc->status, -ETIMEDOUT);
	fx_run(fx);
	free(src);
	free(dst);
	fx_free(fx);
}
END_TEST

/* uet_pds_send / uet_pds_send_reply fail hard (not -EAGAIN). */
START_TEST(test_hard_errors)
{
	const struct uet_ses_send_cmpl *sc;
	const struct uet_ses_recv_cmpl *rc;
	struct uet_ses_cfg cfg;
	uint8_t *src, *dst;
	struct fx *fx;
	void *sctx, *rctx;
	size_t len = 200000;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 16, 2);
	src = calloc(1, len);
	dst = calloc(1, len);

	/* A send: completes at once with the error. */
	sctx = new_ctx(fx);
	fake_pds_fail_sends(fx->n[0].pds, -EINVAL, 1);
	ck_assert_int_eq(fx_send(fx, 0, &fx->n[1].addr, true, 1, false, 0, src,
				 5000, 1, sctx), 0);
	sc = find_send(&fx->n[0], sctx);
	ck_assert_ptr_nonnull(sc);
	ck_assert_int_eq(sc->status, -EINVAL);
	ck_assert_uint_eq(sc->rc, UET_RC_NULL);
	fx_run(fx);

	/* The target's first READ: the receive fails, the initiator hears
	 * RC_CANCELLED in the notice. */
	sctx = new_ctx(fx);
	rctx = new_ctx(fx);
	ck_assert_int_eq(fx_recv(fx, 1, true, 2, 0, NULL, dst, len, 1, rctx),
			 0);
	fake_pds_fail_sends(fx->n[1].pds, -ENOMEM, 1);
	ck_assert_int_eq(fx_send(fx, 0, &fx->n[1].addr, true, 2, false, 0, src,
				 len, 1, sctx), 0);
	fx_run(fx);
	rc = find_recv(&fx->n[1], rctx);
	ck_assert_ptr_nonnull(rc);
	ck_assert_int_eq(rc->status, -ENOMEM);
	sc = find_send(&fx->n[0], sctx);
	ck_assert_ptr_nonnull(sc);
	ck_assert_int_eq(sc->status, -ECANCELED);
	ck_assert_uint_eq(sc->rc, UET_RC_CANCELLED);

	/* The initiator's first Response with Data (of the only READ): the
	 * send fails and a Response with Data carrying
	 * UET_RC_INITIATOR_ERR tells the target. */
	sctx = new_ctx(fx);
	rctx = new_ctx(fx);
	ck_assert_int_eq(fx_recv(fx, 1, true, 3, 0, NULL, dst, 60000, 1, rctx),
			 0);
	ck_assert_int_eq(fx_send(fx, 0, &fx->n[1].addr, true, 3, false, 0, src,
				 60000, 1, sctx), 0);
	fake_pds_fail_sends(fx->n[0].pds, -ENOMEM, 1);
	fx_run(fx);
	sc = find_send(&fx->n[0], sctx);
	ck_assert_ptr_nonnull(sc);
	ck_assert_int_eq(sc->status, -ENOMEM);
	rc = find_recv(&fx->n[1], rctx);
	ck_assert_ptr_nonnull(rc);
	ck_assert_int_eq(rc->status, -EIO);
	ck_assert_uint_eq(rc->rc, UET_RC_INITIATOR_ERR);
	free(src);
	free(dst);
	fx_free(fx);
}
END_TEST

/* SES and then PDS of the target destroyed in the middle of a pull. */
START_TEST(test_destroy_during_pull)
{
	const struct uet_ses_send_cmpl *sc;
	struct uet_ses_cfg cfg;
	uint8_t *src, *dst;
	struct fx *fx;
	void *sctx, *rctx;
	size_t len = 2 * MIB;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_SHUFFLE, 16, 2);
	sctx = new_ctx(fx);
	rctx = new_ctx(fx);
	src = calloc(1, len);
	dst = calloc(1, len);
	start_pull(fx, src, dst, len, sctx, rctx);
	uet_ses_destroy(fx->n[1].ses);
	fx->n[1].ses = NULL;
	ck_assert_int_eq(find_recv(&fx->n[1], rctx)->status, -ECANCELED);
	/* Packets still reach the destroyed SES (refused) and its READs
	 * finish; then PDS goes. */
	fx_run_steps(fx, 200);
	uet_pds_destroy(fx->n[1].pds);
	fx->n[1].pds = NULL;
	fx_run(fx);
	sc = find_send(&fx->n[0], sctx);
	ck_assert_ptr_nonnull(sc);
	ck_assert_int_lt(sc->status, 0);
	free(src);
	free(dst);
	fx_free(fx);
}
END_TEST

/* Well-formed requests SES does not implement get RC_UNSUPPORTED_OP; a
 * READ to a missing endpoint gets the address codes. */
START_TEST(test_unsupported)
{
	struct uet_ses_opt_nonmatch on;
	struct uet_ses_defer_send ds;
	struct uet_ses_small_msg sm;
	struct uet_ses_stats st;
	struct uet_ses_cfg cfg;
	struct uet_pds_rsp rsp;
	struct uet_ses_rtr rtr;
	struct node *a, *b;
	uint8_t buf[128];
	struct fx *fx;
	size_t len;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 16, 2);
	a = &fx->n[0];
	b = &fx->n[1];
	memset(&sm, 0, sizeof(sm));
	sm.ctl.opcode = UET_WRITE;
	sm.ctl.som = sm.ctl.eom = true;
	sm.job_id = JOB;
	ck_assert_int_eq(uet_ses_small_msg_encode(UET_WIRE_UEPLUS, buf, 32, &sm), 32);
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_MEDIUM, buf, 32,
				&rsp), 0);
	ck_assert_int_eq(uet_ses_rsp_rc(UET_WIRE_UEPLUS, rsp.next_hdr, rsp.buf, rsp.len),
			 UET_RC_UNSUPPORTED_OP);
	len = mk_som0(buf, b, UET_TSEND_ATOMIC, 5, 8, 8, 16, true);
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len + 8,
				&rsp), 0);
	ck_assert_int_eq(uet_ses_rsp_rc(UET_WIRE_UEPLUS, rsp.next_hdr, rsp.buf, rsp.len),
			 UET_RC_UNSUPPORTED_OP);
	memset(&on, 0, sizeof(on));
	on.ctl.opcode = UET_WRITE;
	on.ctl.som = on.ctl.eom = true;
	ck_assert_int_eq(uet_ses_opt_nonmatch_encode(UET_WIRE_UEPLUS, buf, 32, &on), 32);
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_SMALL, buf, 32, &rsp),
			 0);
	ck_assert_int_eq(uet_ses_rsp_rc(UET_WIRE_UEPLUS, rsp.next_hdr, rsp.buf, rsp.len),
			 UET_RC_UNSUPPORTED_OP);
	memset(&ds, 0, sizeof(ds));
	ds.ctl.opcode = UET_DEFERRABLE_SEND;
	ds.ctl.som = ds.ctl.eom = true;
	ds.message_id = 9;
	ck_assert_int_eq(uet_ses_defer_send_encode(UET_WIRE_UEPLUS, buf, 44, &ds), 44);
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, 44, &rsp),
			 0);
	ck_assert_int_eq(uet_ses_rsp_rc(UET_WIRE_UEPLUS, rsp.next_hdr, rsp.buf, rsp.len),
			 UET_RC_UNSUPPORTED_OP);
	memset(&rtr, 0, sizeof(rtr));
	rtr.ctl.opcode = UET_DEFERRABLE_RTR;
	rtr.ctl.som = true;
	rtr.message_id = 9;
	ck_assert_int_eq(uet_ses_rtr_encode(UET_WIRE_UEPLUS, buf, 44, &rtr), 44);
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, 44, &rsp),
			 0);
	ck_assert_int_eq(uet_ses_rsp_rc(UET_WIRE_UEPLUS, rsp.next_hdr, rsp.buf, rsp.len),
			 UET_RC_UNSUPPORTED_OP);
	st = stats(b);
	ck_assert_uint_eq(st.err_rsp_tx, 5);
	ck_assert_uint_eq(st.bad_hdr, 0);

	/* READs for endpoints A does not have. */
	len = mk_read(buf, a, 1, 1, 0, 10);
	uet_put_be24(buf + 5, JOB + 1);
	ck_assert_int_eq(inject(fx, 0, 1, UET_HDR_REQUEST_STD, buf, len, &rsp),
			 0);
	ck_assert_int_eq(uet_ses_rsp_rc(UET_WIRE_UEPLUS, rsp.next_hdr, rsp.buf, rsp.len),
			 UET_RC_BAD_JOB_ID);
	len = mk_read(buf, a, 1, 1, 0, 10);
	buf[8] ^= 0x08;
	ck_assert_int_eq(inject(fx, 0, 1, UET_HDR_REQUEST_STD, buf, len, &rsp),
			 0);
	ck_assert_int_eq(uet_ses_rsp_rc(UET_WIRE_UEPLUS, rsp.next_hdr, rsp.buf, rsp.len),
			 UET_RC_BAD_JOB_ID);
	len = mk_read(buf, a, 1, 1, 0, 10);
	buf[10] ^= 0x08;
	ck_assert_int_eq(inject(fx, 0, 1, UET_HDR_REQUEST_STD, buf, len, &rsp),
			 0);
	ck_assert_int_eq(uet_ses_rsp_rc(UET_WIRE_UEPLUS, rsp.next_hdr, rsp.buf, rsp.len),
			 UET_RC_BAD_JOB_ID);
	st = stats(a);
	ck_assert_uint_eq(st.bad_job + st.bad_pid + st.bad_index, 3);
	/* Responses on ACKs: the 16-byte Response, the Default SES
	 * Response, anything else is not understood. */
	memset(buf, 0, 8);
	ck_assert_int_eq(uet_ses_rsp_rc(UET_WIRE_UEPLUS, UET_HDR_RESPONSE, buf, 8), UET_RC_OK);
	buf[1] = UET_RC_OK;
	ck_assert_int_eq(uet_ses_rsp_rc(UET_WIRE_UEPLUS, UET_HDR_RESPONSE, buf, 8), UET_RC_OK);
	buf[1] = UET_RC_BAD_PID;	/* not allowed in a default response */
	ck_assert_int_lt(uet_ses_rsp_rc(UET_WIRE_UEPLUS, UET_HDR_RESPONSE, buf, 8), 0);
	ck_assert_int_lt(uet_ses_rsp_rc(UET_WIRE_UEPLUS, UET_HDR_RESPONSE, buf, 1), 0);
	ck_assert_int_eq(uet_ses_rsp_rc(UET_WIRE_UEPLUS, UET_HDR_REQUEST_STD, buf, 8), -EPROTO);
	/* A READ carries no payload. */
	len = mk_read(buf, a, 1, 1, 0, 10);
	ck_assert_int_eq(inject(fx, 0, 1, UET_HDR_REQUEST_STD, buf, len + 1,
				&rsp), -EPROTO);
	fx_free(fx);
}
END_TEST

/* Initiator ids: 12 bits of PIDonFEP, 12 of resource index. */
START_TEST(test_initiator_id)
{
	ck_assert_uint_eq(uet_ses_initiator_id(0xabc, 0x123), 0xabc123);
	ck_assert_uint_eq(uet_ses_initiator_id(0xfabc, 0xf123), 0xabc123);
}
END_TEST

/* ---- send order (RUD) ---- */

/* The completion of ctx, which must exist. */
static const struct uet_ses_send_cmpl *send_of(const struct node *n,
					       const void *ctx)
{
	const struct uet_ses_send_cmpl *c = find_send(n, ctx);

	ck_assert_msg(c != NULL, "no send completion");
	return c;
}

static const struct uet_ses_recv_cmpl *recv_of(const struct node *n,
					       const void *ctx)
{
	const struct uet_ses_recv_cmpl *c = find_recv(n, ctx);

	ck_assert_msg(c != NULL, "no receive completion");
	return c;
}

/*
 * A tap on the fake net: the send requests from one address to another
 * as they reach the target, by message_id.  "overtaken" counts messages
 * whose first packet arrived after a packet of a message sent later:
 * the arrival order was scrambled.
 */
struct otap {
	struct uet_link_addr from, to;
	uint8_t *seen;			/* 65536 flags: a packet arrived */
	uint16_t max_id;		/* largest id seen (first sequence) */
	unsigned int offers;		/* send packets offered */
	unsigned int firsts;		/* messages seen */
	unsigned int overtaken;
	unsigned int early;		/* taken before an earlier one */
	uint16_t missing;		/* smallest id not taken yet */
	unsigned int small;		/* small-message headers (no id) */
	unsigned int refused;		/* offers refused (-EAGAIN) */
	/* message_id of the SOM=1 packet by tag (tags < OT_TAGS) */
	uint16_t id_of_tag[256];
	bool tag_seen[256];
};

#define OT_TAGS	256

static bool send_opcode(uint8_t op)
{
	return op == UET_SEND || op == UET_TAGGED_SEND ||
	       op == UET_RENDEZVOUS_SEND || op == UET_RENDEZVOUS_TSEND;
}

static bool addr_is(const struct uet_link_addr *a,
		    const struct uet_link_addr *b)
{
	return a->len == b->len && !memcmp(&a->ss, &b->ss, a->len);
}

static void otap_fn(void *arg, const struct uet_link_addr *from,
		    const struct uet_link_addr *to, uint8_t mode,
		    uint8_t next_hdr, const uint8_t *ses, size_t len,
		    int rx_ret)
{
	struct otap *t = arg;
	struct uet_ses_std_som1 s1;
	struct uet_ses_std_som0 s0;
	uint16_t id;

	if (!addr_is(from, &t->from) || !addr_is(to, &t->to))
		return;
	switch (uet_ses_request_format(UET_WIRE_UEPLUS, next_hdr, ses, len)) {
	case UET_SES_FMT_SMALL_MSG:
		t->small++;
		return;
	case UET_SES_FMT_STD_SOM1:
		ck_assert_int_gt(uet_ses_std_som1_decode(UET_WIRE_UEPLUS, &s1, ses, len), 0);
		if (!send_opcode(s1.ctl.opcode))
			return;
		id = s1.message_id;
		if (s1.match_bits < OT_TAGS) {
			t->tag_seen[s1.match_bits] = true;
			t->id_of_tag[s1.match_bits] = id;
		}
		break;
	case UET_SES_FMT_STD_SOM0:
		ck_assert_int_gt(uet_ses_std_som0_decode(UET_WIRE_UEPLUS, &s0, ses, len), 0);
		if (!send_opcode(s0.ctl.opcode))
			return;
		id = s0.message_id;
		break;
	default:
		return;
	}
	t->offers++;
	if (rx_ret == -EAGAIN)
		t->refused++;
	if (rx_ret || t->seen[id])
		return;
	t->seen[id] = 1;
	t->firsts++;
	if (id < t->max_id)
		t->overtaken++;
	else
		t->max_id = id;
	if (id != t->missing)
		t->early++;
	while (t->seen[t->missing])
		t->missing++;
}

static void otap_init(struct otap *t, const struct node *from,
		      const struct node *to)
{
	memset(t, 0, sizeof(*t));
	t->seen = calloc(65536, 1);
	ck_assert_ptr_nonnull(t->seen);
	t->from = from->addr.fa;
	t->to = to->addr.fa;
	t->missing = 1;
}

#define ORD_N		48
#define ORD_MAX		40000
#define ORD_TAG		0x5a5a

static size_t ord_len(unsigned int k)
{
	switch (k % 6) {
	case 0:
		return (k * 7) % 64;			/* one packet */
	case 1:
		return 1000 + k * 13;			/* one packet */
	case 2:
		return 3000 + k * 101;			/* a few packets */
	case 3:
		return 12000 + k;			/* many packets */
	case 4:
		return k & 1 ? 20000 + k : 100;		/* rendezvous */
	default:
		return ORD_MAX - k;			/* rendezvous */
	}
}

struct ord_res {
	unsigned int wrong_match;	/* receive k did not get message k */
	unsigned int wrong_cmpl;	/* completion i was not receive i */
	struct otap tap;
	struct uet_ses_stats sa, sb;
};

/*
 * ORD_N messages A -> B with the same tag, in the given delivery order,
 * to receives posted before (expected) or one by one after everything
 * arrived (unexpected).  Receive k (in post order) must get message k
 * (send order), and (under RUD) the completions come in that order too.
 */
static void order_run(uint8_t mode, uint8_t order, bool expected,
		      struct ord_res *res)
{
	static uint8_t src[ORD_N][ORD_MAX], dst[ORD_N][ORD_MAX];
	int sctx[ORD_N], rctx[ORD_N];
	const struct uet_ses_recv_cmpl *rc;
	struct uet_ses_cfg cfg;
	struct node *a, *b;
	struct fx *fx;
	unsigned int k, slot;

	test_cfg(&cfg);
	cfg.mode = mode;
	fx = fx_new(&cfg, order, 16, 2);
	a = &fx->n[0];
	b = &fx->n[1];
	memset(res, 0, sizeof(*res));
	otap_init(&res->tap, a, b);
	fake_net_set_tap(fx->net, otap_fn, &res->tap);
	for (k = 0; k < ORD_N; k++) {
		uet_test_fill(src[k], ord_len(k), k + 1000);
		memset(dst[k], 0, ORD_MAX);
		if (expected)
			ck_assert_int_eq(fx_recv(fx, 1, true, ORD_TAG, 0, NULL,
						 dst[k], ORD_MAX, 1 + k % 3,
						 &rctx[k]), 0);
	}
	for (k = 0; k < ORD_N; k++) {
		ck_assert_int_eq(fx_send(fx, 0, &b->addr, true, ORD_TAG, true,
					 k, src[k], ord_len(k), 1 + k % 4,
					 &sctx[k]), 0);
		if (k % 5 == 4)
			fx_run_steps(fx, 7);
	}
	fx_run(fx);
	if (!expected) {
		ck_assert_uint_eq(b->cq.nr, 0);
		for (k = 0; k < ORD_N; k++) {
			ck_assert_int_eq(fx_recv(fx, 1, true, ORD_TAG, 0, NULL,
						 dst[k], ORD_MAX, 2, &rctx[k]),
					 0);
			if (k & 1)
				fx_run(fx);
		}
		fx_run(fx);
	}
	ck_assert_uint_eq(a->cq.ns, ORD_N);
	ck_assert_uint_eq(b->cq.nr, ORD_N);
	for (k = 0; k < ORD_N; k++) {
		ck_assert_int_eq(send_of(a, &sctx[k])->status, 0);
		rc = &b->cq.r[k];
		ck_assert_int_eq(rc->status, 0);
		slot = (unsigned int)((const int *)rc->op_ctx - rctx);
		ck_assert_uint_lt(slot, ORD_N);
		if (slot != k)
			res->wrong_cmpl++;
		if (rc->header_data != slot || rc->len != ord_len(slot) ||
		    memcmp(dst[slot], src[slot], ord_len(slot)))
			res->wrong_match++;
	}
	res->sa = stats(a);
	res->sb = stats(b);
	fx_free(fx);
	free(res->tap.seen);
	res->tap.seen = NULL;
}

static void order_check(uint8_t order, bool expected)
{
	static struct ord_res res;

	order_run(UET_PDS_MODE_RUD, order, expected, &res);
	ck_assert_msg(res.wrong_match == 0 && res.wrong_cmpl == 0,
		      "order %u expected %d: %u receives got another message, %u completions out of order",
		      order, expected, res.wrong_match, res.wrong_cmpl);
	/* The packets did arrive out of send order, and the target held
	 * messages back. */
	ck_assert_uint_eq(res.tap.firsts, ORD_N);
	ck_assert_uint_gt(res.tap.overtaken, 0);
	ck_assert_uint_gt(res.sb.ord_held, 0);
	ck_assert_uint_eq(res.sb.ord_held, res.tap.early);
	ck_assert_uint_eq(res.tap.refused, 0);
	ck_assert_uint_eq(res.tap.small, 0);	/* every message has an id */
	ck_assert_uint_eq(res.sb.ord_restart, 1);
	ck_assert_uint_eq(res.sb.ord_late + res.sb.ord_resync +
			  res.sb.ord_skipped, 0);
	ck_assert_uint_eq(res.sa.seq_starts, 1);
	ck_assert_uint_eq(res.sb.held_bytes_hwm > 0, 1);
	ck_assert_uint_eq(res.sb.unexp_bytes, 0);

	/* Control: the same traffic without the send order (RUDI: PDS
	 * delivers in any order, SES does not reorder) is matched out of
	 * order, so the check above can fail. */
	order_run(UET_PDS_MODE_RUDI, order, expected, &res);
	ck_assert_msg(res.wrong_match > 0,
		      "order %u expected %d: the control run stayed in order",
		      order, expected);
	ck_assert_uint_eq(res.sb.ord_held, 0);
}

START_TEST(test_order_expected)
{
	order_check(FAKE_SHUFFLE, true);
	order_check(FAKE_LIFO, true);
}
END_TEST

START_TEST(test_order_unexpected)
{
	order_check(FAKE_SHUFFLE, false);
	order_check(FAKE_LIFO, false);
}
END_TEST

/* message_id on the wire: per destination endpoint, 1, 2, 3, ... in send
 * order, whatever else (READs, other destinations) A sends. */
START_TEST(test_order_ids)
{
	enum { N = 40 };
	static uint8_t buf[N][30000], rbuf[N][30000];
	struct otap tb, tc;
	struct uet_ses_cfg cfg;
	struct fx *fx;
	unsigned int k, to;
	int ctx[3 * N];

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_SHUFFLE, 16, 3);
	otap_init(&tb, &fx->n[0], &fx->n[1]);
	otap_init(&tc, &fx->n[0], &fx->n[2]);
	fake_net_set_tap(fx->net, otap_fn, &tb);
	for (k = 0; k < N; k++) {
		/* B and C send A rendezvous messages: A's READs to them. */
		uet_test_fill(buf[k], sizeof(buf[k]), k);
		ck_assert_int_eq(fx_recv(fx, 0, true, 1000 + k, 0, NULL,
					 rbuf[k], sizeof(rbuf[k]), 1,
					 &ctx[2 * N + k]), 0);
		ck_assert_int_eq(fx_send(fx, 1 + k % 2, &fx->n[0].addr, true,
					 1000 + k, false, 0, buf[k],
					 sizeof(buf[k]), 1, &ctx[2 * N + k]),
				 0);
		/* A to B and C, with tag k: sizes across the threshold. */
		to = 1 + (k % 3 == 2);
		ck_assert_int_eq(fx_send(fx, 0, &fx->n[to].addr, true, k,
					 false, 0, buf[k],
					 k % 4 == 1 ? 20000 : 100 * k, 1,
					 &ctx[k]), 0);
		if (k % 3 == 0)
			fx_run_steps(fx, 20);
		if (k == N / 2) {
			fx_run(fx);
			fake_net_set_tap(fx->net, otap_fn, &tc);
		}
	}
	fx_run(fx);
	/* Unexpected at B and C; receives for them all. */
	for (k = 0; k < N; k++) {
		to = 1 + (k % 3 == 2);
		ck_assert_int_eq(fx_recv(fx, to, true, k, 0, NULL, rbuf[k],
					 sizeof(rbuf[k]), 1, &ctx[N + k]), 0);
	}
	fx_run(fx);
	ck_assert_uint_gt(stats(&fx->n[0]).rdzv_read_pkts, 0);
	ck_assert_uint_gt(stats(&fx->n[1]).rdzv_read_pkts, 0);
	/* A's messages to B in the first half, to C in the second, by tag:
	 * the n-th message to a destination carries message_id n. */
	{
		unsigned int nb = 0, nc = 0;

		for (k = 0; k < N; k++) {
			to = 1 + (k % 3 == 2);
			if (to == 1) {
				nb++;
				if (k > N / 2)
					continue;
				ck_assert(tb.tag_seen[k]);
				ck_assert_uint_eq(tb.id_of_tag[k], nb);
			} else {
				nc++;
				if (k <= N / 2)
					continue;
				ck_assert(tc.tag_seen[k]);
				ck_assert_uint_eq(tc.id_of_tag[k], nc);
			}
		}
	}
	ck_assert_uint_eq(tb.small + tc.small, 0);
	for (k = 0; k < N; k++) {
		ck_assert_int_eq(send_of(&fx->n[0], &ctx[k])->status, 0);
		ck_assert_int_eq(recv_of(&fx->n[1 + (k % 3 == 2)],
					   &ctx[N + k])->status, 0);
	}
	free(tb.seen);
	free(tc.seen);
	fx_free(fx);
}
END_TEST

/*
 * Two endpoints of A send to B: two streams whose message_ids coincide.
 * Rendezvous notices name their send by its memory key; each stream is
 * matched in its own send order.
 */
START_TEST(test_order_two_sources)
{
	enum { K = 8 };
	static uint8_t src[2][K][30000], dst[2 * K][30000];
	const struct uet_ses_recv_cmpl *rc;
	struct uet_ses_send_req req;
	struct uet_ses_ep *ep2;
	struct uet_ses_cfg cfg;
	struct iovec iov;
	struct fx *fx;
	struct node *a, *b;
	int sctx[2][K], rctx[2 * K];
	unsigned int i, k, s, last[2];

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_SHUFFLE, 16, 2);
	a = &fx->n[0];
	b = &fx->n[1];
	ck_assert_int_eq(uet_ses_ep_open(a->ses, JOB, 0x30, 0x31, &ep2), 0);
	for (k = 0; k < K; k++) {
		for (s = 0; s < 2; s++) {
			size_t len = k & 1 ? 30000 - k : 20000 + k;

			uet_test_fill(src[s][k], len, s * 100 + k);
			memset(&req, 0, sizeof(req));
			req.ep = s ? ep2 : a->ep;
			req.dst = b->addr;
			req.tagged = true;
			req.tag = 9;
			req.has_data = true;
			req.header_data = s * 100 + k;
			iov.iov_base = src[s][k];
			iov.iov_len = len;
			req.iov = &iov;
			req.iovcnt = 1;
			req.op_ctx = &sctx[s][k];
			ck_assert_int_eq(uet_ses_send(a->ses, &req, fx->now),
					 0);
		}
	}
	fx_run(fx);
	/* All unexpected at B: rendezvous, waiting for receives. */
	ck_assert_uint_eq(a->cq.ns, 0);
	ck_assert_uint_eq(stats(b).unexpected, 2 * K);
	for (i = 0; i < 2 * K; i++)
		ck_assert_int_eq(fx_recv(fx, 1, true, 9, 0, NULL, dst[i],
					 30000, 1, &rctx[i]), 0);
	fx_run(fx);
	ck_assert_uint_eq(a->cq.ns, 2 * K);
	for (k = 0; k < K; k++)
		for (s = 0; s < 2; s++)
			ck_assert_int_eq(send_of(a, &sctx[s][k])->status, 0);
	last[0] = last[1] = 0;
	for (i = 0; i < 2 * K; i++) {
		rc = recv_of(b, &rctx[i]);
		ck_assert_ptr_nonnull(rc);
		ck_assert_int_eq(rc->status, 0);
		s = rc->header_data / 100;
		k = rc->header_data % 100;
		ck_assert_uint_lt(s, 2);
		ck_assert_uint_eq(rc->src.pid_on_fep, s ? 0x30 : 0x10);
		/* In each source's send order. */
		ck_assert_uint_eq(k, last[s]);
		last[s]++;
		ck_assert(!memcmp(dst[i], src[s][k], rc->len));
	}
	ck_assert_uint_eq(stats(b).ord_restart, 2);
	uet_ses_ep_close(ep2);
	fx_free(fx);
}
END_TEST

/* The setup of the recovery tests: m1 matched; then m2..m4 sent, m4 and
 * m3 arrive (held), m2 is lost (its PDC fails). */
static void hole_setup(struct fx *fx, uint8_t (*src)[100], uint8_t (*dst)[100],
		       int *sctx, int *rctx, unsigned int nrecv)
{
	struct node *a = &fx->n[0], *b = &fx->n[1];
	unsigned int k;

	for (k = 0; k < nrecv; k++)
		ck_assert_int_eq(fx_recv(fx, 1, true, 3, 0, NULL, dst[k], 100,
					 1, &rctx[k]), 0);
	for (k = 0; k < 4; k++)
		uet_test_fill(src[k], 100, k);
	ck_assert_int_eq(fx_send(fx, 0, &b->addr, true, 3, true, 1, src[0],
				 100, 1, &sctx[0]), 0);
	fx_run(fx);
	ck_assert_int_eq(recv_of(b, &rctx[0])->status, 0);
	for (k = 1; k < 4; k++)
		ck_assert_int_eq(fx_send(fx, 0, &b->addr, true, 3, true, k + 1,
					 src[k], 100, 1, &sctx[k]), 0);
	ck_assert_uint_eq(fake_net_pending(fx->net), 3);
	/* Newest first: m4, then m3, are delivered (and held). */
	ck_assert_uint_eq(fake_net_step(fx->net, 2), 2);
	ck_assert_uint_eq(stats(b).ord_held, 2);
	ck_assert_int_eq(send_of(a, &sctx[3])->status, 0);
	ck_assert_int_eq(send_of(a, &sctx[2])->status, 0);
	fake_net_fail_all(fx->net, -ETIMEDOUT);
	ck_assert_int_eq(send_of(a, &sctx[1])->status, -ETIMEDOUT);
	fx_run(fx);
	/* B waits for m2: m3 and m4 are not matched. */
	ck_assert_uint_eq(b->cq.nr, 1);
	ck_assert_uint_eq(b->ses->held_msgs, 2);
}

/* The source starts a new sequence after the loss: the target takes what
 * it held (skipping the lost id), then the new messages, in order. */
START_TEST(test_order_restart)
{
	uint8_t src[6][100], dst[6][100];
	const struct uet_ses_recv_cmpl *rc;
	struct uet_ses_stats sa, sb;
	struct uet_ses_cfg cfg;
	int sctx[6], rctx[6];
	struct fx *fx;
	unsigned int k;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_LIFO, 16, 2);
	hole_setup(fx, src, dst, sctx, rctx, 5);
	for (k = 4; k < 6; k++) {
		uet_test_fill(src[k], 100, k);
		ck_assert_int_eq(fx_send(fx, 0, &fx->n[1].addr, true, 3, true,
					 k + 1, src[k], 100, 1, &sctx[k]), 0);
	}
	fx_run(fx);
	/* Receives 2..5 got m3, m4, m5, m6 (m2 was lost), in order. */
	ck_assert_uint_eq(fx->n[1].cq.nr, 5);
	for (k = 1; k < 5; k++) {
		rc = &fx->n[1].cq.r[k];
		ck_assert_ptr_eq(rc->op_ctx, &rctx[k]);
		ck_assert_int_eq(rc->status, 0);
		ck_assert_uint_eq(rc->header_data, k + 2);
		ck_assert(!memcmp(dst[k], src[k + 1], 100));
	}
	for (k = 4; k < 6; k++)
		ck_assert_int_eq(send_of(&fx->n[0], &sctx[k])->status, 0);
	sa = stats(&fx->n[0]);
	sb = stats(&fx->n[1]);
	ck_assert_uint_eq(sa.seq_starts, 2);
	ck_assert_uint_eq(sb.ord_restart, 2);
	ck_assert_uint_eq(sb.ord_skipped, 1);
	ck_assert_uint_eq(fx->n[1].ses->held_msgs, 0);
	ck_assert_uint_eq(fx->n[1].ses->held_bytes, 0);
	fx_free(fx);
}
END_TEST

/* The source sends nothing more: the gap is skipped after
 * order_timeout_ns, and not before. */
START_TEST(test_order_timeout)
{
	uint8_t src[4][100], dst[4][100];
	struct uet_ses_cfg cfg;
	int sctx[4], rctx[4];
	uint64_t due;
	struct fx *fx;
	struct node *b;
	unsigned int k;

	test_cfg(&cfg);
	ck_assert_uint_eq(cfg.order_timeout_ns, 10ull * 1000 * 1000 * 1000);
	fx = fx_new(&cfg, FAKE_LIFO, 16, 2);
	b = &fx->n[1];
	ck_assert_uint_eq(uet_ses_next_deadline(b->ses), UINT64_MAX);
	hole_setup(fx, src, dst, sctx, rctx, 3);
	due = uet_ses_next_deadline(b->ses);
	ck_assert_uint_ge(due, fx->now - 100000);
	ck_assert_uint_le(due, fx->now + cfg.order_timeout_ns);
	fx->now = due - 2000;
	fx_progress(fx);	/* due - 1000 */
	ck_assert_uint_eq(b->cq.nr, 1);
	ck_assert_uint_eq(stats(b).ord_skipped, 0);
	fx_progress(fx);	/* due */
	ck_assert_uint_eq(b->cq.nr, 3);
	for (k = 1; k < 3; k++) {
		ck_assert_ptr_eq(b->cq.r[k].op_ctx, &rctx[k]);
		ck_assert_uint_eq(b->cq.r[k].header_data, k + 2);
		ck_assert(!memcmp(dst[k], src[k + 1], 100));
	}
	ck_assert_uint_eq(stats(b).ord_skipped, 1);
	ck_assert_uint_eq(uet_ses_next_deadline(b->ses), UINT64_MAX);
	ck_assert_uint_eq(b->ses->held_msgs, 0);
	fx_free(fx);

	/* 0: never. */
	cfg.order_timeout_ns = 0;
	fx = fx_new(&cfg, FAKE_LIFO, 16, 2);
	b = &fx->n[1];
	hole_setup(fx, src, dst, sctx, rctx, 3);
	ck_assert_uint_eq(uet_ses_next_deadline(b->ses), UINT64_MAX);
	fx->now += 1000ull * 1000 * 1000 * 1000;
	fx_progress(fx);
	ck_assert_uint_eq(b->cq.nr, 1);
	ck_assert_uint_eq(b->ses->held_msgs, 2);
	fx_free(fx);
}
END_TEST

/* The first message of a sequence cannot reach its destination: the sends
 * queued behind it (not yet numbered) fail with it; the next send starts
 * a new sequence. */
START_TEST(test_order_first_lost)
{
	uint8_t src[100], dst[100];
	struct uet_ses_cfg cfg;
	struct fx *fx;
	struct node *a, *b;
	int s[4], r;
	unsigned int k;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 16, 2);
	a = &fx->n[0];
	b = &fx->n[1];
	uet_test_fill(src, sizeof(src), 5);
	for (k = 0; k < 3; k++)
		ck_assert_int_eq(fx_send(fx, 0, &b->addr, false, 0, false, 0,
					 src, 100, 1, &s[k]), 0);
	/* Only the first is in flight: the others wait for it to reach B. */
	ck_assert_uint_eq(fake_net_pending(fx->net), 1);
	fake_net_fail_all(fx->net, -ETIMEDOUT);
	ck_assert_uint_eq(a->cq.ns, 3);
	for (k = 0; k < 3; k++)
		ck_assert_int_eq(send_of(a, &s[k])->status, -ETIMEDOUT);
	ck_assert_uint_eq(fake_net_pending(fx->net), 0);
	ck_assert_int_eq(fx_recv(fx, 1, false, 0, 0, NULL, dst, 100, 1, &r),
			 0);
	ck_assert_int_eq(fx_send(fx, 0, &b->addr, false, 0, false, 0, src,
				 100, 1, &s[3]), 0);
	fx_run(fx);
	ck_assert_int_eq(send_of(a, &s[3])->status, 0);
	ck_assert_int_eq(recv_of(b, &r)->status, 0);
	ck_assert(!memcmp(dst, src, 100));
	ck_assert_uint_eq(stats(a).seq_starts, 2);
	ck_assert_uint_eq(stats(b).ord_restart, 1);
	fx_free(fx);
}
END_TEST

/* ---- random traffic in both directions, any order ---- */

struct rmsg {
	uint8_t *src;
	uint8_t *dst;
	size_t len;
	bool tagged;
	unsigned int from;
	int sctx;
	int rctx;
	bool early;		/* receive posted before the send */
};

START_TEST(test_random_traffic)
{
	enum { N = 120 };
	struct rmsg *m = calloc(N, sizeof(*m));
	struct uet_ses_cfg cfg;
	struct fx *fx;
	unsigned int i;
	size_t total = 0;

	test_cfg(&cfg);
	cfg.unexp_max_bytes = 256 * KIB;
	cfg.unexp_max_msgs = 16;
	fx = fx_new(&cfg, FAKE_SHUFFLE, 32, 2);
	for (i = 0; i < N; i++) {
		uint64_t r = uet_test_rand64();

		m[i].len = (r & 3) == 0 ? r % 64 :
			   (r & 3) == 1 ? r % 5000 :
			   (r & 3) == 2 ? r % 40000 : r % 300000;
		m[i].tagged = (r >> 20) & 1;
		m[i].from = (r >> 21) & 1;
		m[i].early = (r >> 22) & 1;
		m[i].src = malloc(m[i].len + 1);
		/* Untagged receives take any untagged message: make room. */
		m[i].dst = malloc(m[i].tagged ? m[i].len + 1 : 300000);
		uet_test_fill(m[i].src, m[i].len, i);
		total += m[i].len;
	}
	for (i = 0; i < N; i++) {
		unsigned int to = !m[i].from;

		if (m[i].early)
			ck_assert_int_eq(fx_recv(fx, to, m[i].tagged, i, 0,
						 NULL, m[i].dst,
						 m[i].tagged ? m[i].len :
						 300000, 1 + i % 3,
						 &m[i].rctx), 0);
		ck_assert_int_eq(fx_send(fx, m[i].from, &fx->n[to].addr,
					 m[i].tagged, i, true, i, m[i].src,
					 m[i].len, 1 + i % 5, &m[i].sctx), 0);
		if (i % 8 == 0)
			fx_run_steps(fx, 500);
	}
	fx_run_steps(fx, 20000);
	for (i = 0; i < N; i++) {
		unsigned int to = !m[i].from;

		if (!m[i].early)
			ck_assert_int_eq(fx_recv(fx, to, m[i].tagged, i, 0,
						 NULL, m[i].dst,
						 m[i].tagged ? m[i].len :
						 300000, 2, &m[i].rctx), 0);
	}
	fx_run(fx);
	for (i = 0; i < N; i++) {
		unsigned int to = !m[i].from;
		const struct uet_ses_send_cmpl *sc;
		const struct uet_ses_recv_cmpl *rc;
		const struct rmsg *got;

		sc = find_send(&fx->n[m[i].from], &m[i].sctx);
		rc = find_recv(&fx->n[to], &m[i].rctx);
		ck_assert_ptr_nonnull(sc);
		ck_assert_int_eq(sc->status, 0);
		ck_assert_ptr_nonnull(rc);
		ck_assert_int_eq(rc->status, 0);
		ck_assert(rc->has_data);
		/* header_data names the message that this receive got. */
		ck_assert_uint_lt(rc->header_data, N);
		got = &m[rc->header_data];
		ck_assert(got->tagged == m[i].tagged);
		if (m[i].tagged)
			ck_assert_uint_eq(rc->header_data, i);
		ck_assert_uint_eq(rc->len, got->len);
		ck_assert(!memcmp(m[i].dst, got->src, got->len));
	}
	for (i = 0; i < 2; i++) {
		struct uet_ses_stats st = stats(&fx->n[i]);

		ck_assert_uint_eq(st.unexp_bytes, 0);
		ck_assert_uint_le(st.unexp_bytes_hwm, cfg.unexp_max_bytes);
		ck_assert_uint_eq(st.bad_hdr, 0);
	}
	ck_assert_uint_eq(stats(&fx->n[0]).msgs_rx + stats(&fx->n[1]).msgs_rx,
			  N);
	for (i = 0; i < N; i++) {
		free(m[i].src);
		free(m[i].dst);
	}
	free(m);
	fx_free(fx);
	ck_assert_uint_gt(total, 0);
}
END_TEST

/* ---- RMA and atomics ---- */

static uint64_t mr_reg(struct node *n, void *addr, size_t len,
		       uint32_t access, bool virt)
{
	struct uet_ses_mr_attr a;
	uint64_t key = 0;

	memset(&a, 0, sizeof(a));
	a.addr = addr;
	a.len = len;
	a.access = access;
	a.virt_addr = virt;
	ck_assert_int_eq(uet_ses_mr_reg(n->ses, &a, &key), 0);
	return key;
}

static uint64_t mr_reg_user(struct node *n, void *addr, size_t len,
			    uint32_t access, bool virt, uint64_t key)
{
	struct uet_ses_mr_attr a;
	uint64_t got = 0;

	memset(&a, 0, sizeof(a));
	a.addr = addr;
	a.len = len;
	a.access = access;
	a.virt_addr = virt;
	a.user_key = true;
	a.requested_key = key;
	ck_assert_int_eq(uet_ses_mr_reg(n->ses, &a, &got), 0);
	ck_assert_uint_eq(got, key);
	return got;
}

#define ACC_RW	(UET_SES_ACC_REMOTE_READ | UET_SES_ACC_REMOTE_WRITE)

/* The remote address of byte off of a registration at base. */
static uint64_t raddr_of(const void *base, bool virt, uint64_t off)
{
	return virt ? (uint64_t)(uintptr_t)base + off : off;
}

static int fx_rma(struct fx *fx, unsigned int from, unsigned int to,
		  uint8_t kind, uint64_t key, uint64_t raddr, bool hd,
		  uint64_t hdata, void *buf, size_t len, unsigned int pieces,
		  void *ctx)
{
	struct uet_ses_rma_req req;
	struct iovec iov[64];

	memset(&req, 0, sizeof(req));
	req.ep = fx->n[from].ep;
	req.dst = fx->n[to].addr;
	req.kind = kind;
	req.key = key;
	req.raddr = raddr;
	req.has_data = hd;
	req.header_data = hdata;
	req.iov = iov;
	req.iovcnt = split(iov, 64, buf, len, pieces);
	req.op_ctx = ctx;
	return uet_ses_rma(fx->n[from].ses, &req, fx->now);
}

/* An atomic (fetch: with the prior values into result) of len operand
 * bytes; compare: one element for the CAS family (or NULL). */
static int fx_amo(struct fx *fx, unsigned int from, unsigned int to,
		  bool fetch, uint64_t key, uint64_t raddr, uint8_t op,
		  uint8_t dtype, const void *operand, size_t len,
		  const void *compare, void *result, void *ctx)
{
	struct uet_ses_rma_req req;
	struct iovec iov, res;

	memset(&req, 0, sizeof(req));
	req.ep = fx->n[from].ep;
	req.dst = fx->n[to].addr;
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
	return uet_ses_rma(fx->n[from].ses, &req, fx->now);
}

/* Run the net until it settles; the completion of ctx at node at. */
static struct uet_ses_send_cmpl wait_send(struct fx *fx, unsigned int at,
					  const void *ctx)
{
	const struct uet_ses_send_cmpl *sc;

	fx_run(fx);
	sc = find_send(&fx->n[at], ctx);
	ck_assert_msg(sc != NULL, "no completion");
	return *sc;
}

static void check_ev_src(const struct uet_ses_rma_event *e,
			 const struct node *from)
{
	ck_assert_uint_eq(e->src.fa.len, from->addr.fa.len);
	ck_assert_int_eq(memcmp(&e->src.fa.ss, &from->addr.fa.ss,
				from->addr.fa.len), 0);
	ck_assert_uint_eq(e->src.job_id, from->addr.job_id);
	ck_assert_uint_eq(e->src.pid_on_fep, from->addr.pid_on_fep);
	ck_assert_uint_eq(e->src.ri, from->addr.ri);
	ck_assert_uint_eq(e->initiator,
			  uet_ses_initiator_id(from->addr.pid_on_fep,
					       from->addr.ri));
}

/*
 * A writes len bytes into a registration of B (64 bytes in, header_data
 * = len), then reads them back into a fresh buffer: data, events,
 * completions and the bytes around the range are checked.
 */
static void rma_roundtrip(struct fx *fx, size_t len, bool virt,
			  unsigned int wpieces, unsigned int rpieces)
{
	struct node *b = &fx->n[1];
	const size_t pad = 64;
	struct uet_ses_send_cmpl sc;
	const struct uet_ses_rma_event *e;
	uint8_t *src, *mem, *back;
	void *wctx = new_ctx(fx), *rctx = new_ctx(fx);
	size_t nev = b->nev;
	uint64_t key;

	src = malloc(len + 1);
	mem = malloc(len + 2 * pad);
	back = malloc(len + 1);
	ck_assert(src && mem && back);
	uet_test_fill(src, len, len + 7);
	memset(mem, 0x5a, len + 2 * pad);
	memset(back, 0xa5, len + 1);
	key = mr_reg(b, mem, len + 2 * pad, ACC_RW, virt);

	ck_assert_int_eq(fx_rma(fx, 0, 1, UET_SES_RMA_WRITE, key,
				raddr_of(mem, virt, pad), true, len, src, len,
				wpieces, wctx), 0);
	sc = wait_send(fx, 0, wctx);
	ck_assert_int_eq(sc.status, 0);
	ck_assert_uint_eq(sc.rc, UET_RC_OK);
	ck_assert_uint_eq(sc.len, len);
	ck_assert_msg(!memcmp(mem + pad, src, len), "len %zu: data", len);
	ck_assert_uint_eq(mem[pad - 1], 0x5a);
	ck_assert_uint_eq(mem[pad + len], 0x5a);
	ck_assert_uint_eq(b->nev, nev + 1);
	e = &b->ev[nev];
	ck_assert_uint_eq(e->kind, UET_SES_RMA_WRITE);
	ck_assert_uint_eq(e->key, key);
	ck_assert_uint_eq(e->addr, (uint64_t)(uintptr_t)(mem + pad));
	ck_assert_uint_eq(e->len, len);
	ck_assert(e->has_data);
	ck_assert_uint_eq(e->header_data, len);
	check_ev_src(e, &fx->n[0]);

	ck_assert_int_eq(fx_rma(fx, 0, 1, UET_SES_RMA_READ, key,
				raddr_of(mem, virt, pad), false, 0, back, len,
				rpieces, rctx), 0);
	sc = wait_send(fx, 0, rctx);
	ck_assert_int_eq(sc.status, 0);
	ck_assert_uint_eq(sc.rc, UET_RC_OK);
	ck_assert_uint_eq(sc.len, len);
	ck_assert_msg(!memcmp(back, src, len), "len %zu: read back", len);
	ck_assert_uint_eq(back[len], 0xa5);
	ck_assert_uint_eq(b->nev, nev + 2);
	e = &b->ev[nev + 1];
	/* Reported once, for the operation's last UET_READ. */
	ck_assert_uint_eq(e->kind, UET_SES_RMA_READ);
	ck_assert_uint_eq(e->len, fx->path_mtu ?
			  read_last_len_pay(len, UET_SES_SMALL_LEN_MAX) :
			  read_last_len(len));
	ck_assert_uint_eq(e->addr + e->len, (uint64_t)(uintptr_t)(mem + pad) +
			  len);
	ck_assert(!e->has_data);

	ck_assert_int_eq(uet_ses_mr_dereg(b->ses, key), 0);
	free(src);
	free(mem);
	free(back);
}

static const size_t rma_sizes[] = { 0, 1, 4 * KIB, MIB, 16 * MIB };
#define RMA_NSIZES	(sizeof(rma_sizes) / sizeof(rma_sizes[0]))

static void rma_sizes_run(uint8_t order)
{
	struct uet_ses_cfg cfg;
	struct uet_ses_stats st;
	struct fx *fx;
	unsigned int i;

	test_cfg(&cfg);
	fx = fx_new(&cfg, order, 64, 2);
	for (i = 0; i < RMA_NSIZES; i++) {
		rma_roundtrip(fx, rma_sizes[i], i & 1, 1 + i, 7 - i);
		rma_roundtrip(fx, rma_sizes[i], !(i & 1), 5, 1);
	}
	st = stats(&fx->n[1]);
	ck_assert_uint_eq(st.rma_rx, 4 * RMA_NSIZES);
	ck_assert_uint_eq(st.bad_hdr, 0);
	ck_assert_uint_eq(st.err_rsp_tx, 0);
	ck_assert_uint_eq(stats(&fx->n[0]).rma_tx, 4 * RMA_NSIZES);
	fx_free(fx);
}

START_TEST(test_rma_sizes)
{
	rma_sizes_run(FAKE_FIFO);
}
END_TEST

/*
 * RMA over a path wider than the link (fake_net_cfg.path_mtu): writes
 * and read replies go in packets of up to 16383 payload bytes, in order
 * and shuffled; the bytes arrive intact.
 */
START_TEST(test_rma_wide_path)
{
	static const uint8_t orders[] = { FAKE_FIFO, FAKE_SHUFFLE };
	struct uet_ses_cfg cfg;
	uint64_t ta, tb, per;
	struct fx *fx;
	size_t o;

	test_cfg(&cfg);
	for (o = 0; o < sizeof(orders); o++) {
		fx = fx_new_path(&cfg, orders[o], 64, 2, 65507);
		rma_roundtrip(fx, 100000, false, 3, 2);
		/* A write that fits one SOM=1 packet of the path: one
		 * packet (the read of it: 4 replies of at most 16383). */
		ta = stats(&fx->n[0]).pkts_tx;
		rma_roundtrip(fx, 60000, false, 2, 2);
		ck_assert_uint_eq(stats(&fx->n[0]).pkts_tx - ta, 2);
		ta = stats(&fx->n[0]).pkts_tx;
		tb = stats(&fx->n[1]).pkts_tx;
		rma_roundtrip(fx, MIB, o & 1, 5, 7);
		/* 1 MiB in 65 packets each way (741 at the link's MTU) */
		per = (MIB + UET_SES_SMALL_LEN_MAX - 1) /
		      UET_SES_SMALL_LEN_MAX;
		ck_assert_uint_eq(stats(&fx->n[0]).pkts_tx - ta, per + 1);
		ck_assert_uint_le(stats(&fx->n[1]).pkts_tx - tb, per);
		rma_roundtrip(fx, 4 * MIB + 3, true, 1, 1);
		ck_assert_uint_eq(stats(&fx->n[1]).bad_hdr, 0);
		fx_free(fx);
	}
}
END_TEST

/* Newest packet first (continuations before SOM=1), and random order
 * with lost cumulative responses. */
START_TEST(test_rma_reorder)
{
	rma_sizes_run(FAKE_LIFO);
	rma_sizes_run(FAKE_SHUFFLE);
}
END_TEST

/* A read scattered into many iovecs (some empty), the write gathered
 * from as many. */
START_TEST(test_rma_read_iov)
{
	struct uet_ses_cfg cfg;
	struct fx *fx;
	unsigned int p;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_SHUFFLE, 32, 2);
	for (p = 2; p <= 64; p *= 2) {
		rma_roundtrip(fx, 3 * PAY_STD + 17, false, p, p + 1);
		rma_roundtrip(fx, 200 * KIB + 3, true, p - 1, p);
	}
	rma_roundtrip(fx, 40, false, 1, 64);	/* empty pieces */
	fx_free(fx);
}
END_TEST

/* header_data and the rest of the target event; ep_user. */
START_TEST(test_rma_event)
{
	const struct uet_ses_rma_event *e;
	struct uet_ses_send_cmpl sc;
	struct uet_ses_cfg cfg;
	uint8_t mem[256], src[100];
	uint64_t key, op = 5, res;
	struct node *b;
	struct fx *fx;
	int ctx[3];

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 16, 2);
	b = &fx->n[1];
	uet_ses_ep_set_user(b->ep, &ctx[2]);
	memset(mem, 0, sizeof(mem));
	uet_test_fill(src, sizeof(src), 3);
	key = mr_reg_user(b, mem, sizeof(mem), ACC_RW, false, 0x1122334455ull);
	ck_assert_int_eq(fx_rma(fx, 0, 1, UET_SES_RMA_WRITE, key, 16, true,
				0xfeedfacecafebeefull, src, sizeof(src), 1,
				&ctx[0]), 0);
	sc = wait_send(fx, 0, &ctx[0]);
	ck_assert_int_eq(sc.status, 0);
	ck_assert_uint_eq(b->nev, 1);
	e = &b->ev[0];
	ck_assert_ptr_eq(e->ep_user, &ctx[2]);
	ck_assert_uint_eq(e->kind, UET_SES_RMA_WRITE);
	ck_assert_uint_eq(e->key, key);
	ck_assert_uint_eq(e->addr, (uint64_t)(uintptr_t)(mem + 16));
	ck_assert_uint_eq(e->len, sizeof(src));
	ck_assert(e->has_data);
	ck_assert_uint_eq(e->header_data, 0xfeedfacecafebeefull);
	check_ev_src(e, &fx->n[0]);
	ck_assert(!memcmp(mem + 16, src, sizeof(src)));

	/* An atomic without header_data; a fetching one. */
	ck_assert_int_eq(fx_amo(fx, 0, 1, false, key, 8, UET_AMO_SUM,
				UET_AMO_UINT64, &op, 8, NULL, NULL, &ctx[1]),
			 0);
	sc = wait_send(fx, 0, &ctx[1]);
	ck_assert_int_eq(sc.status, 0);
	ck_assert_uint_eq(sc.len, 8);
	ck_assert_uint_eq(b->nev, 2);
	ck_assert_uint_eq(b->ev[1].kind, UET_SES_RMA_ATOMIC);
	ck_assert(!b->ev[1].has_data);
	ck_assert_uint_eq(b->ev[1].addr, (uint64_t)(uintptr_t)(mem + 8));
	ck_assert_uint_eq(b->ev[1].len, 8);
	ck_assert_int_eq(fx_amo(fx, 0, 1, true, key, 8, UET_AMO_SUM,
				UET_AMO_UINT64, &op, 8, NULL, &res, &ctx[2]),
			 0);
	sc = wait_send(fx, 0, &ctx[2]);
	ck_assert_int_eq(sc.status, 0);
	ck_assert_uint_eq(res, 5);
	ck_assert_uint_eq(b->ev[2].kind, UET_SES_RMA_FETCH);
	ck_assert_uint_eq(stats(b).amo_rx, 2);
	ck_assert_uint_eq(stats(b).rma_rx, 3);
	ck_assert_uint_eq(stats(b).rma_bytes_rx, sizeof(src) + 16);
	fx_free(fx);
}
END_TEST

/* One atomic A -> B; its completion status. */
static int amo_one(struct fx *fx, bool fetch, uint64_t key, uint64_t raddr,
		   uint8_t op, uint8_t dtype, const void *operand, size_t len,
		   const void *compare, void *result)
{
	struct uet_ses_send_cmpl sc;
	void *ctx = new_ctx(fx);

	ck_assert_int_eq(fx_amo(fx, 0, 1, fetch, key, raddr, op, dtype,
				operand, len, compare, result, ctx), 0);
	sc = wait_send(fx, 0, ctx);
	if (!sc.status)
		ck_assert_uint_eq(sc.len, len);
	return sc.status;
}

START_TEST(test_rma_atomic)
{
	uint64_t mem[8], ops[3] = { 1, 2, 0xffffffffffffffffull }, res[3];
	uint64_t cmp, swap, mask, old;
	struct uet_ses_cfg cfg;
	int32_t imem[4], iop[2] = { INT32_MAX, -5 }, ires[2];
	double dmem[2] = { 1.5, -2.0 }, dop[2] = { 0.25, 4.0 };
	struct node *b;
	struct fx *fx;
	uint64_t key, ikey, dkey;
	unsigned int i;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_SHUFFLE, 16, 2);
	b = &fx->n[1];
	for (i = 0; i < 8; i++)
		mem[i] = 1000 * i;
	key = mr_reg(b, mem, sizeof(mem), ACC_RW, false);

	/* SUM on three uint64 (wrapping), elements 1..3. */
	ck_assert_int_eq(amo_one(fx, false, key, 8, UET_AMO_SUM,
				 UET_AMO_UINT64, ops, 24, NULL, NULL), 0);
	ck_assert_uint_eq(mem[0], 0);
	ck_assert_uint_eq(mem[1], 1001);
	ck_assert_uint_eq(mem[2], 2002);
	ck_assert_uint_eq(mem[3], 2999);
	ck_assert_uint_eq(mem[4], 4000);
	/* Fetching SUM: the prior values come back. */
	ck_assert_int_eq(amo_one(fx, true, key, 8, UET_AMO_SUM,
				 UET_AMO_UINT64, ops, 24, NULL, res), 0);
	ck_assert_uint_eq(res[0], 1001);
	ck_assert_uint_eq(res[1], 2002);
	ck_assert_uint_eq(res[2], 2999);
	ck_assert_uint_eq(mem[1], 1002);
	ck_assert_uint_eq(mem[3], 2998);
	/* Atomic READ: nothing changes. */
	ck_assert_int_eq(amo_one(fx, true, key, 0, UET_AMO_READ,
				 UET_AMO_UINT64, ops, 16, NULL, res), 0);
	ck_assert_uint_eq(res[0], 0);
	ck_assert_uint_eq(res[1], 1002);
	ck_assert_uint_eq(mem[0], 0);

	/* CAS: success, then failure (fetching). */
	cmp = 5000;
	swap = 77;
	ck_assert_int_eq(amo_one(fx, true, key, 40, UET_AMO_CSWAP,
				 UET_AMO_UINT64, &swap, 8, &cmp, &old), 0);
	ck_assert_uint_eq(old, 5000);
	ck_assert_uint_eq(mem[5], 77);
	swap = 88;
	ck_assert_int_eq(amo_one(fx, true, key, 40, UET_AMO_CSWAP,
				 UET_AMO_UINT64, &swap, 8, &cmp, &old), 0);
	ck_assert_uint_eq(old, 77);
	ck_assert_uint_eq(mem[5], 77);
	/* Non-fetching CAS, success and failure. */
	cmp = 77;
	ck_assert_int_eq(amo_one(fx, false, key, 40, UET_AMO_CSWAP,
				 UET_AMO_UINT64, &swap, 8, &cmp, NULL), 0);
	ck_assert_uint_eq(mem[5], 88);
	ck_assert_int_eq(amo_one(fx, false, key, 40, UET_AMO_CSWAP,
				 UET_AMO_UINT64, &swap, 8, &cmp, NULL), 0);
	ck_assert_uint_eq(mem[5], 88);
	/* CSWAP_GT: compare > target. */
	cmp = 100;
	swap = 1;
	ck_assert_int_eq(amo_one(fx, true, key, 40, UET_AMO_CSWAP_GT,
				 UET_AMO_UINT64, &swap, 8, &cmp, &old), 0);
	ck_assert_uint_eq(old, 88);
	ck_assert_uint_eq(mem[5], 1);
	/* MSWAP: target = (swap & mask) | (target & ~mask). */
	mem[6] = 0xff00ff00ff00ff00ull;
	swap = 0x123456789abcdef0ull;
	mask = 0x0f0f0f0f0f0f0f0full;
	ck_assert_int_eq(amo_one(fx, true, key, 48, UET_AMO_MSWAP,
				 UET_AMO_UINT64, &swap, 8, &mask, &old), 0);
	ck_assert_uint_eq(old, 0xff00ff00ff00ff00ull);
	ck_assert_uint_eq(mem[6], (swap & mask) |
			  (0xff00ff00ff00ff00ull & ~mask));
	ck_assert_uint_eq(mem[7], 7000);

	/* int32 SUM wraps; double SUM; both through virtual addresses. */
	imem[0] = 1;
	imem[1] = 2;
	imem[2] = imem[3] = 0;
	ikey = mr_reg(b, imem, sizeof(imem), ACC_RW, true);
	ck_assert_int_eq(amo_one(fx, true, ikey, (uintptr_t)imem,
				 UET_AMO_SUM, UET_AMO_INT32, iop, 8, NULL,
				 ires), 0);
	ck_assert_int_eq(ires[0], 1);
	ck_assert_int_eq(ires[1], 2);
	ck_assert_int_eq(imem[0], INT32_MIN);
	ck_assert_int_eq(imem[1], -3);
	dkey = mr_reg(b, dmem, sizeof(dmem), ACC_RW, true);
	ck_assert_int_eq(amo_one(fx, false, dkey, (uintptr_t)dmem,
				 UET_AMO_SUM, UET_AMO_DOUBLE, dop, 16, NULL,
				 NULL), 0);
	ck_assert(dmem[0] == 1.75 && dmem[1] == 2.0);
	ck_assert_uint_eq(stats(b).amo_rx, 11);
	ck_assert_uint_eq(stats(b).amo_unsupported, 0);
	fx_free(fx);
}
END_TEST

/* A write (or read) that must fail with rc / status; B's bytes do not
 * change.  Returns nothing: asserts. */
static void rma_refused(struct fx *fx, uint8_t kind, uint64_t key,
			uint64_t raddr, size_t len, const uint8_t *mem,
			size_t mlen, uint8_t want_rc, int want_status)
{
	struct uet_ses_send_cmpl sc;
	uint8_t *src = malloc(len + 1), *snap = malloc(mlen);
	void *ctx = new_ctx(fx);
	size_t nev = fx->n[1].nev;

	ck_assert(src && snap);
	uet_test_fill(src, len, 99);
	memcpy(snap, mem, mlen);
	ck_assert_int_eq(fx_rma(fx, 0, 1, kind, key, raddr, true, 1, src, len,
				3, ctx), 0);
	sc = wait_send(fx, 0, ctx);
	ck_assert_int_eq(sc.status, want_status);
	ck_assert_uint_eq(sc.rc, want_rc);
	ck_assert_uint_eq(sc.len, 0);
	ck_assert_msg(!memcmp(snap, mem, mlen), "target memory changed");
	ck_assert_uint_eq(fx->n[1].nev, nev);
	free(src);
	free(snap);
}

/* An atomic that must fail; B's bytes do not change. */
static void amo_refused(struct fx *fx, bool fetch, uint64_t key,
			uint64_t raddr, uint8_t op, uint8_t dtype,
			size_t len, const uint8_t *mem, size_t mlen,
			uint8_t want_rc, int want_status)
{
	struct uet_ses_send_cmpl sc;
	uint8_t operand[64], cmp[16], res[64], snap[512];
	void *ctx = new_ctx(fx);

	ck_assert_uint_le(mlen, sizeof(snap));
	uet_test_fill(operand, sizeof(operand), 5);
	memset(cmp, 0, sizeof(cmp));
	memset(res, 0xee, sizeof(res));
	memcpy(snap, mem, mlen);
	ck_assert_int_eq(fx_amo(fx, 0, 1, fetch, key, raddr, op, dtype,
				operand, len, cmp, res, ctx), 0);
	sc = wait_send(fx, 0, ctx);
	ck_assert_int_eq(sc.status, want_status);
	ck_assert_uint_eq(sc.rc, want_rc);
	ck_assert_msg(!memcmp(snap, mem, mlen), "target memory changed");
	ck_assert_uint_eq(res[0], 0xee);
}

START_TEST(test_rma_errors)
{
	uint8_t mem[512] __attribute__((aligned(16)));
	uint8_t big[50000];
	struct uet_ses_stats st0, st;
	struct uet_ses_addr gone;
	struct uet_ses_cfg cfg;
	uint64_t k1, k2, kro, kwo, kbig;
	struct node *b;
	struct fx *fx;
	uint8_t buf[16];
	int ctx;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 16, 2);
	b = &fx->n[1];
	uet_test_fill(mem, sizeof(mem), 1);
	st0 = stats(b);

	/* Keys never registered: a user key, a provider key. */
	rma_refused(fx, UET_SES_RMA_WRITE, 0x42, 0, 8, mem, sizeof(mem),
		    UET_RC_BAD_MKEY, -EACCES);
	rma_refused(fx, UET_SES_RMA_READ, UET_SES_MKEY_PROV | 7, 0, 8, mem,
		    sizeof(mem), UET_RC_BAD_MKEY, -EACCES);
	/* A key after its deregistration. */
	k1 = mr_reg(b, mem, sizeof(mem), ACC_RW, false);
	ck_assert_int_eq(uet_ses_mr_dereg(b->ses, k1), 0);
	rma_refused(fx, UET_SES_RMA_WRITE, k1, 0, 8, mem, sizeof(mem),
		    UET_RC_BAD_GENERATION, -EACCES);
	rma_refused(fx, UET_SES_RMA_READ, k1, 0, 8, mem, sizeof(mem),
		    UET_RC_BAD_GENERATION, -EACCES);
	/* The slot is reused with a new generation: the old key stays
	 * stale, the new one works. */
	k2 = mr_reg(b, mem, sizeof(mem), ACC_RW, false);
	ck_assert_uint_eq(k2 & 0xffffffffu, k1 & 0xffffffffu);
	ck_assert_uint_ne(k2, k1);	/* a new 31-bit tag (issue 15) */
	rma_refused(fx, UET_SES_RMA_WRITE, k1, 0, 8, mem, sizeof(mem),
		    UET_RC_BAD_GENERATION, -EACCES);
	/* Any other generation of the slot is stale. */
	rma_refused(fx, UET_SES_RMA_WRITE, k2 + (1ull << 32), 0, 8, mem,
		    sizeof(mem), UET_RC_BAD_GENERATION, -EACCES);
	ck_assert_int_eq(fx_rma(fx, 0, 1, UET_SES_RMA_WRITE, k2, 0, false, 0,
				buf, 8, 1, &ctx), 0);
	ck_assert_int_eq(wait_send(fx, 0, &ctx).status, 0);
	uet_test_fill(mem, sizeof(mem), 1);

	/* Access rights. */
	kro = mr_reg(b, mem, sizeof(mem), UET_SES_ACC_REMOTE_READ, false);
	kwo = mr_reg(b, mem, sizeof(mem), UET_SES_ACC_REMOTE_WRITE, false);
	rma_refused(fx, UET_SES_RMA_WRITE, kro, 0, 8, mem, sizeof(mem),
		    UET_RC_PERM_VIOLATION, -EACCES);
	rma_refused(fx, UET_SES_RMA_READ, kwo, 0, 8, mem, sizeof(mem),
		    UET_RC_PERM_VIOLATION, -EACCES);
	amo_refused(fx, false, kro, 0, UET_AMO_SUM, UET_AMO_UINT64, 8, mem,
		    sizeof(mem), UET_RC_PERM_VIOLATION, -EACCES);
	amo_refused(fx, true, kwo, 0, UET_AMO_SUM, UET_AMO_UINT64, 8, mem,
		    sizeof(mem), UET_RC_PERM_VIOLATION, -EACCES);
	amo_refused(fx, false, kwo, 0, UET_AMO_CSWAP, UET_AMO_UINT64, 8, mem,
		    sizeof(mem), UET_RC_PERM_VIOLATION, -EACCES);
	amo_refused(fx, true, kwo, 0, UET_AMO_READ, UET_AMO_UINT64, 8, mem,
		    sizeof(mem), UET_RC_PERM_VIOLATION, -EACCES);
	/* The atomic READ needs only remote read. */
	{
		uint64_t x = 0, r = 0;

		ck_assert_int_eq(amo_one(fx, true, kro, 8, UET_AMO_READ,
					 UET_AMO_UINT64, &x, 8, NULL, &r), 0);
		ck_assert(!memcmp(&r, mem + 8, 8));
	}

	/* Ranges: offsets and virtual addresses, overflow. */
	rma_refused(fx, UET_SES_RMA_WRITE, k2, sizeof(mem) - 4, 8, mem,
		    sizeof(mem), UET_RC_AT_OUT_OF_RANGE, -EINVAL);
	rma_refused(fx, UET_SES_RMA_READ, k2, sizeof(mem) + 1, 0, mem,
		    sizeof(mem), UET_RC_AT_OUT_OF_RANGE, -EINVAL);
	rma_refused(fx, UET_SES_RMA_WRITE, k2, UINT64_MAX - 3, 8, mem,
		    sizeof(mem), UET_RC_AT_OUT_OF_RANGE, -EINVAL);
	kbig = mr_reg(b, mem, sizeof(mem), ACC_RW, true);
	rma_refused(fx, UET_SES_RMA_WRITE, kbig, (uintptr_t)mem - 1, 8, mem,
		    sizeof(mem), UET_RC_AT_OUT_OF_RANGE, -EINVAL);
	rma_refused(fx, UET_SES_RMA_READ, kbig, 0, 8, mem, sizeof(mem),
		    UET_RC_AT_OUT_OF_RANGE, -EINVAL);
	rma_refused(fx, UET_SES_RMA_WRITE, kbig, (uintptr_t)mem + 500, 13,
		    mem, sizeof(mem), UET_RC_AT_OUT_OF_RANGE, -EINVAL);
	amo_refused(fx, true, k2, sizeof(mem) - 8, UET_AMO_SUM,
		    UET_AMO_UINT64, 16, mem, sizeof(mem),
		    UET_RC_AT_OUT_OF_RANGE, -EINVAL);
	/* A write of many packets beyond the registration: no packet lands,
	 * whatever order they arrive in. */
	uet_test_fill(big, sizeof(big), 2);
	ck_assert_int_eq(uet_ses_mr_dereg(b->ses, kbig), 0);
	kbig = mr_reg(b, big, sizeof(big) - 1, ACC_RW, false);
	fake_net_set_order(fx->net, FAKE_LIFO);
	rma_refused(fx, UET_SES_RMA_WRITE, kbig, 0, sizeof(big), big,
		    sizeof(big), UET_RC_AT_OUT_OF_RANGE, -EINVAL);
	fake_net_set_order(fx->net, FAKE_FIFO);

	/* Atomics the target does not do. */
	amo_refused(fx, false, k2, 0, UET_AMO_BOR, UET_AMO_DOUBLE, 8, mem,
		    sizeof(mem), UET_RC_AMO_UNSUPPORTED_OP, -EOPNOTSUPP);
	amo_refused(fx, true, k2, 0, UET_AMO_MIN, UET_AMO_DOUBLE_COMPLEX, 16,
		    mem, sizeof(mem), UET_RC_AMO_UNSUPPORTED_OP, -EOPNOTSUPP);
	amo_refused(fx, true, k2, 0, UET_AMO_SUM, UET_AMO_FLOAT16, 8, mem,
		    sizeof(mem), UET_RC_AMO_UNSUPPORTED_DT, -EOPNOTSUPP);
	amo_refused(fx, false, k2, 4, UET_AMO_SUM, UET_AMO_UINT64, 8, mem,
		    sizeof(mem), UET_RC_AMO_UNALIGNED, -EINVAL);
	amo_refused(fx, true, k2, 6, UET_AMO_CSWAP, UET_AMO_UINT32, 4, mem,
		    sizeof(mem), UET_RC_AMO_UNALIGNED, -EINVAL);
	/* Complex: aligned to the component. */
	{
		float c[2] = { 1.0f, 2.0f };

		ck_assert_int_eq(amo_one(fx, false, k2, 4, UET_AMO_SUM,
					 UET_AMO_FLOAT_COMPLEX, c, 8, NULL,
					 NULL), 0);
	}
	uet_test_fill(mem, sizeof(mem), 1);

	/* An endpoint B does not have. */
	gone = b->addr;
	gone.ri ^= 1;
	{
		struct uet_ses_send_cmpl sc;
		struct uet_ses_rma_req req;
		struct iovec iov = { buf, 8 };

		memset(&req, 0, sizeof(req));
		req.ep = fx->n[0].ep;
		req.dst = gone;
		req.kind = UET_SES_RMA_WRITE;
		req.key = k2;
		req.iov = &iov;
		req.iovcnt = 1;
		req.op_ctx = &gone;
		ck_assert_int_eq(uet_ses_rma(fx->n[0].ses, &req, fx->now), 0);
		sc = wait_send(fx, 0, &gone);
		ck_assert_int_eq(sc.status, -EADDRNOTAVAIL);
		ck_assert_uint_eq(sc.rc, UET_RC_BAD_JOB_ID);
	}

	st = stats(b);
	ck_assert_uint_eq(st.rma_bad_key - st0.rma_bad_key, 2);
	ck_assert_uint_eq(st.rma_bad_gen - st0.rma_bad_gen, 4);
	ck_assert_uint_eq(st.rma_perm - st0.rma_perm, 6);
	ck_assert_uint_ge(st.rma_range - st0.rma_range, 8);
	ck_assert_uint_eq(st.amo_unsupported - st0.amo_unsupported, 5);
	ck_assert_uint_eq(st.bad_hdr, 0);
	ck_assert_uint_eq(st.bad_index, 1);
	fx_free(fx);
}
END_TEST

/* Hand-made atomic requests with an op or datatype no table knows. */
START_TEST(test_rma_amo_unknown)
{
	uint8_t mem[64] __attribute__((aligned(8))), snap[64], buf[128];
	struct uet_ses_cfg cfg;
	struct uet_pds_rsp rsp;
	struct node *b;
	struct fx *fx;
	size_t len;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 16, 2);
	b = &fx->n[1];
	uet_test_fill(mem, sizeof(mem), 4);
	memcpy(snap, mem, sizeof(mem));
	mr_reg_user(b, mem, sizeof(mem), ACC_RW, false, 0x77);

	/* op 0x15 (beyond UET_AMO_INVAL), uint64. */
	len = mk_som1(buf, b, UET_ATOMIC, 3000, true, 8, 0);
	uet_put_be64(buf + 24, 0x77);
	memset(buf + len, 0, 8);
	buf[len] = 0x15;
	buf[len + 1] = UET_AMO_UINT64;
	memset(buf + len + 8, 1, 8);
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len + 16,
				&rsp), 0);
	ck_assert_int_eq(uet_ses_rsp_rc(UET_WIRE_UEPLUS, rsp.next_hdr, rsp.buf, rsp.len),
			 UET_RC_AMO_UNSUPPORTED_OP);
	/* UET_AMO_INVAL itself. */
	buf[len] = UET_AMO_INVAL;
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len + 16,
				&rsp), 0);
	ck_assert_int_eq(uet_ses_rsp_rc(UET_WIRE_UEPLUS, rsp.next_hdr, rsp.buf, rsp.len),
			 UET_RC_AMO_UNSUPPORTED_OP);
	/* Datatype 0x0c (undefined). */
	buf[len] = UET_AMO_SUM;
	buf[len + 1] = 0x0c;
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len + 16,
				&rsp), 0);
	ck_assert_int_eq(uet_ses_rsp_rc(UET_WIRE_UEPLUS, rsp.next_hdr, rsp.buf, rsp.len),
			 UET_RC_AMO_UNSUPPORTED_DT);
	/* Length not a multiple of the element. */
	buf[len + 1] = UET_AMO_UINT64;
	uet_put_be32(buf + 40, 6);
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len + 14,
				&rsp), 0);
	ck_assert_int_eq(uet_ses_rsp_rc(UET_WIRE_UEPLUS, rsp.next_hdr, rsp.buf, rsp.len),
			 UET_RC_AMO_UNSUPPORTED_SIZE);
	/* CAS datatype 0x0d (undefined) in the CAS extension. */
	len = mk_som1(buf, b, UET_ATOMIC, 3001, true, 8, 0);
	uet_put_be64(buf + 24, 0x77);
	memset(buf + len, 0, 40);
	buf[len] = UET_AMO_CSWAP;
	buf[len + 1] = 0x0d;
	ck_assert_int_eq(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len + 40,
				&rsp), 0);
	ck_assert_int_eq(uet_ses_rsp_rc(UET_WIRE_UEPLUS, rsp.next_hdr, rsp.buf, rsp.len),
			 UET_RC_AMO_UNSUPPORTED_DT);
	/* Malformed: payload with a CAS, a missing extension, SOM=0. */
	buf[len + 1] = UET_AMO_UINT64;
	ck_assert_int_lt(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len + 48,
				&rsp), 0);
	ck_assert_int_lt(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len + 1,
				&rsp), 0);
	len = mk_som0(buf, b, UET_ATOMIC, 5, 8, 8, 16, true);
	ck_assert_int_lt(inject(fx, 1, 0, UET_HDR_REQUEST_STD, buf, len + 8,
				&rsp), 0);
	ck_assert(!memcmp(snap, mem, sizeof(mem)));
	ck_assert_uint_eq(stats(b).amo_unsupported, 5);
	ck_assert_uint_eq(stats(b).amo_rx, 0);
	ck_assert_uint_eq(b->nev, 0);
	fx_free(fx);
}
END_TEST

/* The RI table's API: keys, errors, slot reuse. */
START_TEST(test_rma_mr_api)
{
	uint64_t k[4], key, kfree[2];
	struct uet_ses_mr_attr a;
	struct uet_ses_cfg cfg;
	uint8_t mem[64];
	struct node *b;
	struct fx *fx;
	unsigned int i;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 16, 2);
	b = &fx->n[1];
	memset(&a, 0, sizeof(a));
	a.addr = mem;
	a.len = sizeof(mem);
	a.access = 0x4;
	ck_assert_int_eq(uet_ses_mr_reg(b->ses, &a, &key), -EINVAL);
	a.access = ACC_RW;
	a.addr = NULL;
	ck_assert_int_eq(uet_ses_mr_reg(b->ses, &a, &key), -EINVAL);
	a.addr = mem;
	ck_assert_int_eq(uet_ses_mr_reg(NULL, &a, &key), -EINVAL);
	ck_assert_int_eq(uet_ses_mr_reg(b->ses, NULL, &key), -EINVAL);
	ck_assert_int_eq(uet_ses_mr_reg(b->ses, &a, NULL), -EINVAL);
	/* Local only (no remote access) and empty registrations. */
	a.access = 0;
	ck_assert_int_eq(uet_ses_mr_reg(b->ses, &a, &key), 0);
	rma_refused(fx, UET_SES_RMA_READ, key, 0, 1, mem, sizeof(mem),
		    UET_RC_PERM_VIOLATION, -EACCES);
	ck_assert_int_eq(uet_ses_mr_dereg(b->ses, key), 0);
	a.access = ACC_RW;
	a.addr = NULL;
	a.len = 0;
	ck_assert_int_eq(uet_ses_mr_reg(b->ses, &a, &key), 0);
	ck_assert_int_eq(uet_ses_mr_dereg(b->ses, key), 0);
	a.addr = mem;
	a.len = sizeof(mem);

	/* Provider keys: bit 63, slot in the low 32 bits, a 31-bit tag in
	 * bits 62:32 (its low byte the generation on the wire); freed slots
	 * come back oldest first, under another tag. */
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(uet_ses_mr_reg(b->ses, &a, &k[i]), 0);
		ck_assert(k[i] & UET_SES_MKEY_PROV);
	}
	ck_assert_uint_ne(k[1] & 0xffffffffu, k[2] & 0xffffffffu);
	ck_assert_int_eq(uet_ses_mr_dereg(b->ses, k[2]), 0);
	ck_assert_int_eq(uet_ses_mr_dereg(b->ses, k[0]), 0);
	ck_assert_int_eq(uet_ses_mr_dereg(b->ses, k[0]), -ENOENT);
	ck_assert_int_eq(uet_ses_mr_reg(b->ses, &a, &kfree[0]), 0);
	ck_assert_int_eq(uet_ses_mr_reg(b->ses, &a, &kfree[1]), 0);
	ck_assert_uint_eq(kfree[0] & 0xffffffffu, k[2] & 0xffffffffu);
	ck_assert_uint_eq(kfree[1] & 0xffffffffu, k[0] & 0xffffffffu);
	ck_assert_uint_ne(kfree[0], k[2]);
	ck_assert_int_eq(uet_ses_mr_dereg(b->ses, k[2]), -ENOENT);
	ck_assert_int_eq(uet_ses_mr_dereg(b->ses, UET_SES_MKEY_PROV | 9999),
			 -ENOENT);

	/* User keys: any value with bit 63 clear, unique. */
	a.user_key = true;
	a.requested_key = 1ull << 63;
	ck_assert_int_eq(uet_ses_mr_reg(b->ses, &a, &key), -EINVAL);
	a.requested_key = 0;
	ck_assert_int_eq(uet_ses_mr_reg(b->ses, &a, &key), 0);
	ck_assert_uint_eq(key, 0);
	ck_assert_int_eq(uet_ses_mr_reg(b->ses, &a, &key), -EEXIST);
	a.requested_key = 0x7fffffffffffffffull;
	ck_assert_int_eq(uet_ses_mr_reg(b->ses, &a, &key), 0);
	ck_assert_uint_eq(key, 0x7fffffffffffffffull);
	ck_assert_int_eq(uet_ses_mr_reg(b->ses, &a, &key), -EEXIST);
	/* Its generation byte travels on the wire: it works. */
	{
		uint8_t x[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
		int ctx;

		ck_assert_int_eq(fx_rma(fx, 0, 1, UET_SES_RMA_WRITE, key, 8,
					false, 0, x, 8, 1, &ctx), 0);
		ck_assert_int_eq(wait_send(fx, 0, &ctx).status, 0);
		ck_assert(!memcmp(mem + 8, x, 8));
	}
	ck_assert_int_eq(uet_ses_mr_dereg(b->ses, 0), 0);
	ck_assert_int_eq(uet_ses_mr_dereg(b->ses, 0), -ENOENT);
	/* A user key deregistered is simply unknown. */
	ck_assert_int_eq(uet_ses_mr_dereg(b->ses, key), 0);
	rma_refused(fx, UET_SES_RMA_WRITE, key, 0, 8, mem, sizeof(mem),
		    UET_RC_BAD_MKEY, -EACCES);
	/* Left registered: freed with the SES. */
	fx_free(fx);
}
END_TEST

START_TEST(test_rma_api_errors)
{
	struct uet_ses_rma_req req;
	struct uet_ses_cfg cfg;
	uint8_t buf[1024], res[1024];
	struct iovec iov, riov;
	struct node *a;
	struct fx *fx;

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_FIFO, 16, 2);
	a = &fx->n[0];
	memset(buf, 0, sizeof(buf));
	memset(&req, 0, sizeof(req));
	req.ep = a->ep;
	req.dst = fx->n[1].addr;
	req.kind = UET_SES_RMA_WRITE;
	iov.iov_base = buf;
	iov.iov_len = 8;
	req.iov = &iov;
	req.iovcnt = 1;
	ck_assert_int_eq(uet_ses_rma(NULL, &req, fx->now), -EINVAL);
	ck_assert_int_eq(uet_ses_rma(a->ses, NULL, fx->now), -EINVAL);
	ck_assert_int_eq(uet_ses_rma(fx->n[1].ses, &req, fx->now), -EINVAL);
	req.kind = 0;
	ck_assert_int_eq(uet_ses_rma(a->ses, &req, fx->now), -EINVAL);
	req.kind = UET_SES_RMA_FETCH + 1;
	ck_assert_int_eq(uet_ses_rma(a->ses, &req, fx->now), -EINVAL);
	req.kind = UET_SES_RMA_WRITE;
	req.dst.ri = 0x1000;
	ck_assert_int_eq(uet_ses_rma(a->ses, &req, fx->now), -EINVAL);
	req.dst = fx->n[1].addr;
	iov.iov_base = NULL;
	ck_assert_int_eq(uet_ses_rma(a->ses, &req, fx->now), -EINVAL);
	iov.iov_base = buf;

	/* Atomics. */
	req.kind = UET_SES_RMA_ATOMIC;
	req.amo_op = UET_AMO_SUM;
	req.amo_dtype = UET_AMO_UINT64;
	iov.iov_len = UET_SES_AMO_MAX + 8;
	ck_assert_int_eq(uet_ses_rma(a->ses, &req, fx->now), -EINVAL);
	iov.iov_len = 12;
	ck_assert_int_eq(uet_ses_rma(a->ses, &req, fx->now), -EINVAL);
	iov.iov_len = 0;
	ck_assert_int_eq(uet_ses_rma(a->ses, &req, fx->now), -EINVAL);
	iov.iov_len = 8;
	req.amo_op = UET_AMO_INVAL;
	ck_assert_int_eq(uet_ses_rma(a->ses, &req, fx->now), -EINVAL);
	req.amo_op = UET_AMO_SUM;
	req.amo_dtype = 0x0c;
	ck_assert_int_eq(uet_ses_rma(a->ses, &req, fx->now), -EINVAL);
	req.amo_dtype = 0x20;
	ck_assert_int_eq(uet_ses_rma(a->ses, &req, fx->now), -EINVAL);
	req.amo_dtype = UET_AMO_UINT64;
	req.amo_op = UET_AMO_CSWAP;
	iov.iov_len = 16;
	ck_assert_int_eq(uet_ses_rma(a->ses, &req, fx->now), -EINVAL);
	req.kind = UET_SES_RMA_FETCH;
	req.amo_op = UET_AMO_SUM;
	riov.iov_base = res;
	riov.iov_len = 8;
	req.res_iov = &riov;
	req.res_iovcnt = 1;
	ck_assert_int_eq(uet_ses_rma(a->ses, &req, fx->now), -EINVAL);
	req.res_iovcnt = 0;
	ck_assert_int_eq(uet_ses_rma(a->ses, &req, fx->now), -EINVAL);

	/* RMA needs RUD or ROD. */
	req.kind = UET_SES_RMA_WRITE;
	ck_assert_int_eq(uet_ses_ep_set_mode(a->ep, UET_PDS_MODE_UUD), 0);
	ck_assert_int_eq(uet_ses_rma(a->ses, &req, fx->now), -EMSGSIZE);
	ck_assert_int_eq(uet_ses_ep_set_mode(a->ep, UET_PDS_MODE_RUDI), 0);
	ck_assert_int_eq(uet_ses_rma(a->ses, &req, fx->now), -EMSGSIZE);
	ck_assert_int_eq(uet_ses_ep_set_mode(a->ep, UET_PDS_MODE_RUD), 0);
	ck_assert_uint_eq(a->cq.ns, 0);
	ck_assert_uint_eq(stats(a).rma_tx, 0);
	fx_free(fx);

	/* A tiny MTU: an atomic must fit one packet. */
	test_cfg(&cfg);
	cfg.mtu = 12 + 44 + 40 + 8;
	fx = fx_new(&cfg, FAKE_FIFO, 16, 2);
	a = &fx->n[0];
	req.ep = a->ep;
	req.dst = fx->n[1].addr;
	req.kind = UET_SES_RMA_ATOMIC;
	req.amo_op = UET_AMO_SUM;
	iov.iov_len = 48;
	ck_assert_int_eq(uet_ses_rma(a->ses, &req, fx->now), -EINVAL);
	fx_free(fx);
}
END_TEST

/* Ops in flight when the initiator's endpoint closes, when a registration
 * goes, when the initiator's SES is destroyed. */
START_TEST(test_rma_cancel)
{
	const size_t len = MIB;
	struct uet_ses_send_cmpl sc;
	struct uet_ses_cfg cfg;
	uint8_t *src, *mem, *back, *snap;
	struct node *a, *b;
	struct fx *fx;
	uint64_t key;
	int ctx[4];

	src = malloc(len);
	mem = malloc(len);
	back = malloc(len);
	snap = malloc(len);
	ck_assert(src && mem && back && snap);
	uet_test_fill(src, len, 1);
	memset(mem, 0, len);

	test_cfg(&cfg);
	fx = fx_new(&cfg, FAKE_SHUFFLE, 16, 2);
	a = &fx->n[0];
	b = &fx->n[1];
	key = mr_reg(b, mem, len, ACC_RW, false);
	ck_assert_int_eq(fx_rma(fx, 0, 1, UET_SES_RMA_WRITE, key, 0, false, 0,
				src, len, 1, &ctx[0]), 0);
	ck_assert_int_eq(fx_rma(fx, 0, 1, UET_SES_RMA_READ, key, 0, false, 0,
				back, len, 1, &ctx[1]), 0);
	fx_run_steps(fx, 200);
	ck_assert_uint_eq(a->cq.ns, 0);
	uet_ses_ep_close(a->ep);
	a->ep = NULL;
	/* They complete once PDS is done with their packets. */
	fx_run(fx);
	ck_assert_uint_eq(a->cq.ns, 2);
	ck_assert_int_eq(find_send(a, &ctx[0])->status, -ECANCELED);
	ck_assert_int_eq(find_send(a, &ctx[1])->status, -ECANCELED);
	/* The write did not complete at B: no write event. */
	ck_assert(b->nev == 0 || b->ev[0].kind == UET_SES_RMA_READ);
	ck_assert_int_eq(uet_ses_ep_open(a->ses, JOB, 0x10, 0x20, &a->ep), 0);

	/* The registration goes while a read and a write are served. */
	ck_assert_int_eq(fx_rma(fx, 0, 1, UET_SES_RMA_READ, key, 0, false, 0,
				back, len, 1, &ctx[2]), 0);
	ck_assert_int_eq(fx_rma(fx, 0, 1, UET_SES_RMA_WRITE, key, 0, false, 0,
				src, len, 1, &ctx[3]), 0);
	fx_run_steps(fx, 300);
	ck_assert_uint_eq(a->cq.ns, 2);
	ck_assert_int_eq(uet_ses_mr_dereg(b->ses, key), 0);
	memset(mem, 0xcc, len);	/* nothing may read it back ... */
	memcpy(snap, mem, len);
	sc = wait_send(fx, 0, &ctx[2]);
	ck_assert_int_eq(sc.status, -EACCES);
	ck_assert_uint_eq(sc.rc, UET_RC_BAD_GENERATION);
	sc = wait_send(fx, 0, &ctx[3]);
	ck_assert_int_eq(sc.status, -EACCES);
	ck_assert_uint_eq(sc.rc, UET_RC_BAD_GENERATION);
	/* ... or write it. */
	ck_assert(!memcmp(snap, mem, len));
	ck_assert_uint_eq(fake_net_pending(fx->net), 0);

	/* The initiator's SES goes with operations in flight. */
	key = mr_reg(b, mem, len, ACC_RW, false);
	ck_assert_int_eq(fx_rma(fx, 0, 1, UET_SES_RMA_READ, key, 0, false, 0,
				back, len, 1, &ctx[0]), 0);
	ck_assert_int_eq(fx_rma(fx, 0, 1, UET_SES_RMA_WRITE, key, 0, false, 0,
				src, len, 1, &ctx[1]), 0);
	fx_run_steps(fx, 300);
	a->cq.ns = 0;
	uet_ses_destroy(a->ses);
	a->ses = NULL;
	ck_assert_uint_eq(a->cq.ns, 2);
	ck_assert_int_eq(a->cq.s[0].status, -ECANCELED);
	ck_assert_int_eq(a->cq.s[1].status, -ECANCELED);
	uet_pds_destroy(a->pds);
	a->pds = NULL;
	fx_run(fx);
	fx_free(fx);
	free(src);
	free(mem);
	free(back);
	free(snap);
}
END_TEST

static Suite *ses_suite(void)
{
	Suite *s = suite_create("ses");
	TCase *tc = tcase_create("ses");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_sizes_expected);
	tcase_add_test(tc, test_sizes_unexpected);
	tcase_add_test(tc, test_sizes_wide_path);
	tcase_add_test(tc, test_unexpected_batch);
	tcase_add_test(tc, test_ignore_bits);
	tcase_add_test(tc, test_directed);
	tcase_add_test(tc, test_reorder_lifo);
	tcase_add_test(tc, test_tiny_mtu);
	tcase_add_test(tc, test_truncation);
	tcase_add_test(tc, test_unexp_bound);
	tcase_add_test(tc, test_rdzv_unexpected_memory);
	tcase_add_test(tc, test_bad_address);
	tcase_add_test(tc, test_cancel);
	tcase_add_test(tc, test_malformed);
	tcase_add_test(tc, test_stale_message);
	tcase_add_test(tc, test_read_checks);
	tcase_add_test(tc, test_rdzv_read_error);
	tcase_add_test(tc, test_ep_close);
	tcase_add_test(tc, test_destroy_outstanding);
	tcase_add_test(tc, test_pds_failure);
	tcase_add_test(tc, test_window);
	tcase_add_test(tc, test_direct_start);
	tcase_add_test(tc, test_api_errors);
	tcase_add_test(tc, test_close_target_during_pull);
	tcase_add_test(tc, test_close_initiator_during_pull);
	tcase_add_test(tc, test_pull_failure);
	tcase_add_test(tc, test_pull_many_reads);
	tcase_add_test(tc, test_hard_errors);
	tcase_add_test(tc, test_destroy_during_pull);
	tcase_add_test(tc, test_unsupported);
	tcase_add_test(tc, test_initiator_id);
	tcase_add_test(tc, test_random_traffic);
	tcase_add_test(tc, test_order_expected);
	tcase_add_test(tc, test_order_unexpected);
	tcase_add_test(tc, test_order_ids);
	tcase_add_test(tc, test_order_two_sources);
	tcase_add_test(tc, test_order_restart);
	tcase_add_test(tc, test_order_timeout);
	tcase_add_test(tc, test_order_first_lost);
	tcase_add_test(tc, test_rma_sizes);
	tcase_add_test(tc, test_rma_wide_path);
	tcase_add_test(tc, test_rma_reorder);
	tcase_add_test(tc, test_rma_read_iov);
	tcase_add_test(tc, test_rma_event);
	tcase_add_test(tc, test_rma_atomic);
	tcase_add_test(tc, test_rma_errors);
	tcase_add_test(tc, test_rma_amo_unknown);
	tcase_add_test(tc, test_rma_mr_api);
	tcase_add_test(tc, test_rma_api_errors);
	tcase_add_test(tc, test_rma_cancel);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(ses_suite)
