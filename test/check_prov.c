/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The provider's objects and messaging data path, driven in-process
 * through the fid ops tables (no dlopen): two endpoints on 127.0.0.1,
 * each on its own domain (its own software NIC and UDP socket).
 */
#include "config.h"

#include <net/if.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <rdma/fi_errno.h>

#include "uet_clock.h"
#include "uet_prov.h"
#include "uet_test.h"
#include "prov_test.h"

#define API		FI_VERSION(1, 17)
#define WAIT_MS		10000

struct side {
	struct fid_domain *dom;
	struct fid_ep *ep;
	struct fid_cq *cq;
	struct fid_av *av;
	struct fid_cntr *txc, *rxc;
	fi_addr_t peer;		/* the other side in this side's AV */
};

struct pair {
	struct fi_info *info;
	struct fid_fabric *fab;
	struct side s[2];
};

/* Side i's endpoint, bound to its CQ, AV and counters, enabled. */
static void side_ep_open(struct pair *p, int i)
{
	struct side *s = &p->s[i];

	ck_assert_int_eq(fi_endpoint(s->dom, p->info, &s->ep, NULL), 0);
	ck_assert_int_eq(fi_ep_bind(s->ep, &s->cq->fid,
				    FI_TRANSMIT | FI_RECV), 0);
	ck_assert_int_eq(fi_ep_bind(s->ep, &s->av->fid, 0), 0);
	ck_assert_int_eq(fi_ep_bind(s->ep, &s->txc->fid, FI_SEND), 0);
	ck_assert_int_eq(fi_ep_bind(s->ep, &s->rxc->fid, FI_RECV), 0);
	ck_assert_int_eq(fi_enable(s->ep), 0);
}

static void side_open(struct pair *p, int i, enum fi_cq_format fmt,
		      size_t cq_size)
{
	struct side *s = &p->s[i];
	struct fi_cq_attr cqa = { .format = fmt, .size = cq_size,
				  .wait_obj = FI_WAIT_FD };
	struct fi_av_attr ava = { .type = FI_AV_TABLE };
	struct fi_cntr_attr ca = { .events = FI_CNTR_EVENTS_COMP,
				   .wait_obj = FI_WAIT_UNSPEC };

	ck_assert_int_eq(fi_domain(p->fab, p->info, &s->dom, NULL), 0);
	ck_assert_int_eq(fi_cq_open(s->dom, &cqa, &s->cq, NULL), 0);
	ck_assert_int_eq(fi_av_open(s->dom, &ava, &s->av, NULL), 0);
	ck_assert_int_eq(fi_cntr_open(s->dom, &ca, &s->txc, NULL), 0);
	ck_assert_int_eq(fi_cntr_open(s->dom, &ca, &s->rxc, NULL), 0);
	side_ep_open(p, i);
}

static void pair_open_fmt(struct pair *p, enum fi_ep_type type,
			  enum fi_progress progress, enum fi_cq_format fmt,
			  size_t cq_size)
{
	int i;

	memset(p, 0, sizeof(*p));
	p->info = uet_test_info(API, &(struct uet_test_hints){
		.type = type, .progress = progress,
		.caps = FI_MSG | FI_TAGGED | FI_DIRECTED_RECV | FI_SOURCE |
			FI_MULTI_RECV });
	ck_assert_int_eq(uet_fabric(p->info->fabric_attr, &p->fab, NULL), 0);
	for (i = 0; i < 2; i++)
		side_open(p, i, fmt, cq_size);
	uet_test_pair_connect((struct fid_ep *[2]){ p->s[0].ep, p->s[1].ep },
			      (struct fid_av *[2]){ p->s[0].av, p->s[1].av },
			      (fi_addr_t *[2]){ &p->s[0].peer,
						&p->s[1].peer });
}

static void pair_open(struct pair *p)
{
	pair_open_fmt(p, FI_EP_RDM, FI_PROGRESS_MANUAL, FI_CQ_FORMAT_TAGGED,
		      0);
}

static void pair_close(struct pair *p)
{
	int i;

	for (i = 0; i < 2; i++) {
		struct side *s = &p->s[i];

		/* Objects in use refuse to close. */
		ck_assert_int_eq(fi_close(&s->dom->fid), -FI_EBUSY);
		ck_assert_int_eq(fi_close(&s->cq->fid), -FI_EBUSY);
		ck_assert_int_eq(fi_close(&s->ep->fid), 0);
		ck_assert_int_eq(fi_close(&s->av->fid), 0);
		ck_assert_int_eq(fi_close(&s->cq->fid), 0);
		ck_assert_int_eq(fi_close(&s->txc->fid), 0);
		ck_assert_int_eq(fi_close(&s->rxc->fid), 0);
		ck_assert_int_eq(fi_close(&s->dom->fid), 0);
	}
	ck_assert_int_eq(fi_close(&p->fab->fid), 0);
	fi_freeinfo(p->info);
}

/* Read one completion from side i, progressing both sides meanwhile.
 * Returns 1, or -FI_EAVAIL with *err filled, or -FI_EAGAIN at timeout. */
static int wait_comp(struct pair *p, int i, struct fi_cq_tagged_entry *e,
		     fi_addr_t *src, struct fi_cq_err_entry *err)
{
	return uet_test_cq_wait(p->s[i].cq, p->s[1 - i].cq, WAIT_MS, e, src,
				err);
}

/* ---- tests ---- */

/* Endpoint options: the HMEM ones as a provider of system memory answers
 * them (more in check_prov_hmem); with libfabric 2's headers the size limits (the untagged message
 * limits may shrink, never grow) and the shared-memory permission. */
START_TEST(test_ep_options)
{
	struct fid *ep;
	struct pair p;
	size_t v, len;
	int p2p;
#if FI_VERSION_GE(FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION), \
		  FI_VERSION(1, 20))
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	static char buf[8192];
	bool yes = true, no = false;
#endif

	pair_open(&p);
	ep = &p.s[0].ep->fid;
	len = sizeof(p2p);
	ck_assert_int_eq(fi_getopt(ep, FI_OPT_ENDPOINT, FI_OPT_FI_HMEM_P2P,
				   &p2p, &len), 0);
	ck_assert_int_eq(p2p, FI_HMEM_P2P_DISABLED);
	ck_assert_int_eq(fi_setopt(ep, FI_OPT_ENDPOINT, FI_OPT_FI_HMEM_P2P,
				   &p2p, sizeof(p2p)), 0);
	p2p = FI_HMEM_P2P_REQUIRED;
	ck_assert_int_eq(fi_setopt(ep, FI_OPT_ENDPOINT, FI_OPT_FI_HMEM_P2P,
				   &p2p, sizeof(p2p)), -FI_EOPNOTSUPP);
	len = sizeof(v);
	ck_assert_int_eq(fi_getopt(ep, FI_OPT_ENDPOINT + 1,
				   FI_OPT_MIN_MULTI_RECV, &v, &len),
			 -FI_ENOPROTOOPT);
	ck_assert_int_eq(fi_getopt(ep, FI_OPT_ENDPOINT, 9999, &v, &len),
			 -FI_ENOPROTOOPT);
#if FI_VERSION_GE(FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION), \
		  FI_VERSION(1, 20))
	len = sizeof(v);
	ck_assert_int_eq(fi_getopt(ep, FI_OPT_ENDPOINT, FI_OPT_MAX_MSG_SIZE,
				   &v, &len), 0);
	ck_assert_uint_eq(v, p.info->ep_attr->max_msg_size);
	ck_assert_int_eq(fi_getopt(ep, FI_OPT_ENDPOINT,
				   FI_OPT_INJECT_MSG_SIZE, &v, &len), 0);
	ck_assert_uint_eq(v, p.info->tx_attr->inject_size);
	v = p.info->ep_attr->max_msg_size + 1;
	ck_assert_int_eq(fi_setopt(ep, FI_OPT_ENDPOINT, FI_OPT_MAX_MSG_SIZE,
				   &v, sizeof(v)), -FI_EINVAL);
	v = 4096;
	ck_assert_int_eq(fi_setopt(ep, FI_OPT_ENDPOINT, FI_OPT_MAX_MSG_SIZE,
				   &v, sizeof(v)), 0);
	v = 16;
	ck_assert_int_eq(fi_setopt(ep, FI_OPT_ENDPOINT,
				   FI_OPT_INJECT_MSG_SIZE, &v, sizeof(v)), 0);
	ck_assert_int_eq(fi_getopt(ep, FI_OPT_ENDPOINT, FI_OPT_MAX_MSG_SIZE,
				   &v, &len), 0);
	ck_assert_uint_eq(v, 4096);
	/* untagged messages follow the new limits, tagged ones do not */
	ck_assert_int_eq(fi_send(p.s[0].ep, buf, 4097, NULL, p.s[0].peer,
				 NULL), -FI_EMSGSIZE);
	ck_assert_int_eq(fi_inject(p.s[0].ep, buf, 17, p.s[0].peer),
			 -FI_EMSGSIZE);
	ck_assert_int_eq(fi_trecv(p.s[1].ep, buf, sizeof(buf), NULL,
				  FI_ADDR_UNSPEC, 5, 0, (void *)1), 0);
	ck_assert_int_eq(fi_tsend(p.s[0].ep, buf, 5000, NULL, p.s[0].peer,
				  5, (void *)2), 0);
	ck_assert_int_eq(wait_comp(&p, 1, &e, NULL, &err), 1);
	ck_assert_uint_eq(e.len, 5000);
	ck_assert_int_eq(wait_comp(&p, 0, &e, NULL, &err), 1);
	ck_assert_int_eq(fi_setopt(ep, FI_OPT_ENDPOINT,
				   FI_OPT_SHARED_MEMORY_PERMITTED, &no,
				   sizeof(no)), 0);
	ck_assert_int_eq(fi_setopt(ep, FI_OPT_ENDPOINT,
				   FI_OPT_SHARED_MEMORY_PERMITTED, &yes,
				   sizeof(yes)), 0);
	ck_assert_int_eq(fi_setopt(ep, FI_OPT_ENDPOINT,
				   FI_OPT_CUDA_API_PERMITTED, &no, sizeof(no)),
			 -FI_EOPNOTSUPP);
#endif
	pair_close(&p);
}
END_TEST

START_TEST(test_fid_open_close)
{
	struct pair p;

	pair_open(&p);
	pair_close(&p);
}
END_TEST

START_TEST(test_send_recv_sizes)
{
	static const size_t sizes[] = { 0, 1, 31, 32, 33, 1000, 4096, 9000,
					65536, 200000, 1 << 20 };
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	struct pair p;
	uint8_t *tx, *rx;
	fi_addr_t src;
	size_t k;

	pair_open(&p);
	tx = malloc(1 << 20);
	rx = malloc(1 << 20);
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		uet_test_fill(tx, sizes[k], (unsigned int)k);
		memset(rx, 0xee, sizes[k] + 1 > (1 << 20) ? 1 << 20 :
		       sizes[k] + 1);
		ck_assert_int_eq(fi_recv(p.s[1].ep, rx, 1 << 20, NULL,
					 FI_ADDR_UNSPEC, (void *)0x10), 0);
		ck_assert_int_eq(fi_send(p.s[0].ep, tx, sizes[k], NULL,
					 p.s[0].peer, (void *)0x20), 0);
		ck_assert_int_eq(wait_comp(&p, 1, &e, &src, &err), 1);
		ck_assert_ptr_eq(e.op_context, (void *)0x10);
		ck_assert_uint_eq(e.len, sizes[k]);
		ck_assert_uint_eq(e.flags, FI_RECV | FI_MSG);
		ck_assert_ptr_eq(e.buf, rx);
		ck_assert_uint_eq(src, p.s[1].peer);
		ck_assert(!memcmp(tx, rx, sizes[k]));
		ck_assert_int_eq(wait_comp(&p, 0, &e, NULL, &err), 1);
		ck_assert_ptr_eq(e.op_context, (void *)0x20);
		ck_assert_uint_eq(e.flags, FI_SEND | FI_MSG);
	}
	ck_assert_uint_eq(fi_cntr_read(p.s[0].txc), k);
	ck_assert_uint_eq(fi_cntr_read(p.s[1].rxc), k);
	ck_assert_uint_eq(fi_cntr_readerr(p.s[0].txc), 0);
	free(tx);
	free(rx);
	pair_close(&p);
}
END_TEST

static void pingpong_both_ways(const size_t *sizes, size_t nsizes)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	struct pair p;
	uint8_t *tx, *rx;
	size_t k;
	int it, from, to;

	pair_open(&p);
	tx = malloc(1 << 20);
	rx = malloc(1 << 20);
	for (k = 0; k < nsizes; k++) {
		for (it = 0; it < 6; it++) {
			from = it % 2;
			to = 1 - from;
			uet_test_fill(tx, sizes[k], (unsigned int)(k + it));
			ck_assert_int_eq(fi_recv(p.s[to].ep, rx, 1 << 20, NULL,
						 FI_ADDR_UNSPEC, NULL), 0);
			ck_assert_int_eq(fi_send(p.s[from].ep, tx, sizes[k],
						 NULL, p.s[from].peer, NULL),
					 0);
			ck_assert_int_eq(wait_comp(&p, to, &e, NULL, &err), 1);
			ck_assert_uint_eq(e.len, sizes[k]);
			ck_assert(!memcmp(tx, rx, sizes[k]));
			ck_assert_int_eq(wait_comp(&p, from, &e, NULL, &err),
					 1);
		}
	}
	free(tx);
	free(rx);
	pair_close(&p);
}

/* Ping-pong of large messages: each side in turn sends and receives,
 * eager (the default threshold is above these sizes) and, with
 * FI_UET_RDZV_THRESHOLD=64K, by rendezvous. */
START_TEST(test_pingpong_both_ways)
{
	static const size_t sizes[] = { 70000, 131072, 1 << 20 };
	int rdzv;

	for (rdzv = 0; rdzv < 2; rdzv++) {
		if (rdzv)
			setenv("FI_UET_RDZV_THRESHOLD", "64K", 1);
		pingpong_both_ways(sizes, sizeof(sizes) / sizeof(sizes[0]));
		unsetenv("FI_UET_RDZV_THRESHOLD");
	}
}
END_TEST

/* Large messages that arrive before their receive is posted: buffered
 * eagerly, or pulled once the receive matches (rendezvous). */
static void unexpected_large(void)
{
	static const size_t sizes[] = { 131072, 1 << 20 };
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	struct pair p;
	uint8_t *tx, *rx;
	uint64_t end;
	size_t k;
	int it, from, to;

	pair_open(&p);
	tx = malloc(1 << 20);
	rx = malloc(1 << 20);
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		for (it = 0; it < 4; it++) {
			from = it % 2;
			to = 1 - from;
			uet_test_fill(tx, sizes[k], (unsigned int)(k + it));
			ck_assert_int_eq(fi_send(p.s[from].ep, tx, sizes[k],
						 NULL, p.s[from].peer, NULL),
					 0);
			/* Let the announcement arrive unexpected. */
			end = uet_clock_now_ns() + 20 * UET_NSEC_PER_MSEC;
			while (uet_clock_now_ns() < end) {
				fi_cq_read(p.s[0].cq, NULL, 0);
				fi_cq_read(p.s[1].cq, NULL, 0);
			}
			ck_assert_int_eq(fi_recv(p.s[to].ep, rx, 1 << 20, NULL,
						 FI_ADDR_UNSPEC, NULL), 0);
			ck_assert_int_eq(wait_comp(&p, to, &e, NULL, &err), 1);
			ck_assert_uint_eq(e.len, sizes[k]);
			ck_assert(!memcmp(tx, rx, sizes[k]));
			ck_assert_int_eq(wait_comp(&p, from, &e, NULL, &err),
					 1);
		}
	}
	free(tx);
	free(rx);
	pair_close(&p);
}

/* The same, eager (default threshold) and by rendezvous (64K). */
START_TEST(test_unexpected_large)
{
	unexpected_large();
	setenv("FI_UET_RDZV_THRESHOLD", "64K", 1);
	unexpected_large();
	unsetenv("FI_UET_RDZV_THRESHOLD");
}
END_TEST

START_TEST(test_tagged_ignore_directed_data)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	struct pair p;
	uint8_t tx[100], rx[2][100];
	struct iovec iov[2];
	struct fi_msg_tagged m;
	fi_addr_t src;

	pair_open(&p);
	uet_test_fill(tx, sizeof(tx), 7);
	/* Receive 1 wants tag 0x1234 exactly, receive 2 0x5600..0x56ff. */
	ck_assert_int_eq(fi_trecv(p.s[1].ep, rx[0], sizeof(rx[0]), NULL,
				  p.s[1].peer, 0x1234, 0, (void *)1), 0);
	ck_assert_int_eq(fi_trecv(p.s[1].ep, rx[1], sizeof(rx[1]), NULL,
				  FI_ADDR_UNSPEC, 0x5600, 0xff, (void *)2), 0);
	/* The second send, with data, goes first and matches receive 2. */
	iov[0].iov_base = tx;
	iov[0].iov_len = 40;
	iov[1].iov_base = tx + 40;
	iov[1].iov_len = 60;
	memset(&m, 0, sizeof(m));
	m.msg_iov = iov;
	m.iov_count = 2;
	m.addr = p.s[0].peer;
	m.tag = 0x56ab;
	m.context = (void *)3;
	m.data = 0xfeedfacecafebeefull;
	ck_assert_int_eq(fi_tsendmsg(p.s[0].ep, &m, FI_REMOTE_CQ_DATA |
				     FI_COMPLETION), 0);
	ck_assert_int_eq(wait_comp(&p, 1, &e, &src, &err), 1);
	ck_assert_ptr_eq(e.op_context, (void *)2);
	ck_assert_uint_eq(e.tag, 0x56ab);
	ck_assert_uint_eq(e.len, 100);
	ck_assert_uint_eq(e.data, 0xfeedfacecafebeefull);
	ck_assert_uint_eq(e.flags, FI_RECV | FI_TAGGED | FI_REMOTE_CQ_DATA);
	ck_assert(!memcmp(rx[1], tx, 100));
	ck_assert_int_eq(fi_tsend(p.s[0].ep, tx, 10, NULL, p.s[0].peer,
				  0x1234, (void *)4), 0);
	ck_assert_int_eq(wait_comp(&p, 1, &e, &src, &err), 1);
	ck_assert_ptr_eq(e.op_context, (void *)1);
	ck_assert_uint_eq(e.len, 10);
	ck_assert_uint_eq(src, p.s[1].peer);
	pair_close(&p);
}
END_TEST

START_TEST(test_truncation)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	struct pair p;
	uint8_t tx[300], rx[100];
	char buf[128];

	pair_open(&p);
	uet_test_fill(tx, sizeof(tx), 3);
	ck_assert_int_eq(fi_recv(p.s[1].ep, rx, sizeof(rx), NULL,
				 FI_ADDR_UNSPEC, (void *)9), 0);
	ck_assert_int_eq(fi_send(p.s[0].ep, tx, sizeof(tx), NULL,
				 p.s[0].peer, NULL), 0);
	ck_assert_int_eq(wait_comp(&p, 1, &e, NULL, &err), -FI_EAVAIL);
	ck_assert_int_eq(err.err, FI_ETRUNC);
	ck_assert_ptr_eq(err.op_context, (void *)9);
	ck_assert_uint_eq(err.len, sizeof(rx));
	ck_assert_uint_eq(err.olen, sizeof(tx) - sizeof(rx));
	ck_assert(!memcmp(rx, tx, sizeof(rx)));
	ck_assert_ptr_eq(fi_cq_strerror(p.s[1].cq, err.prov_errno, NULL,
					buf, sizeof(buf)), buf);
	ck_assert_ptr_nonnull(strstr(buf, "longer than the posted receive"));
	ck_assert_uint_eq(fi_cntr_readerr(p.s[1].rxc), 1);
	pair_close(&p);
}
END_TEST

START_TEST(test_cancel)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	struct pair p;
	uint8_t rx[64];

	pair_open(&p);
	ck_assert_int_eq(fi_trecv(p.s[1].ep, rx, sizeof(rx), NULL,
				  FI_ADDR_UNSPEC, 77, 0, (void *)5), 0);
	ck_assert_int_eq(fi_cancel(&p.s[1].ep->fid, (void *)6), -FI_ENOENT);
	ck_assert_int_eq(fi_cancel(&p.s[1].ep->fid, (void *)5), 0);
	ck_assert_int_eq(wait_comp(&p, 1, &e, NULL, &err), -FI_EAVAIL);
	ck_assert_int_eq(err.err, FI_ECANCELED);
	ck_assert_ptr_eq(err.op_context, (void *)5);
	pair_close(&p);
}
END_TEST

START_TEST(test_peek_claim_discard)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	struct fi_msg_tagged m;
	struct fi_context ctx;
	struct iovec iov;
	struct pair p;
	uint8_t tx[64], rx[64];

	pair_open(&p);
	uet_test_fill(tx, sizeof(tx), 9);
	memset(&m, 0, sizeof(m));
	m.tag = 42;
	m.addr = FI_ADDR_UNSPEC;
	m.context = &ctx;
	/* Nothing yet: FI_ENOMSG. */
	ck_assert_int_eq(fi_trecvmsg(p.s[1].ep, &m, FI_PEEK), 0);
	ck_assert_int_eq(wait_comp(&p, 1, &e, NULL, &err), -FI_EAVAIL);
	ck_assert_int_eq(err.err, FI_ENOMSG);
	ck_assert_int_eq(fi_tsend(p.s[0].ep, tx, sizeof(tx), NULL,
				  p.s[0].peer, 42, NULL), 0);
	ck_assert_int_eq(wait_comp(&p, 0, &e, NULL, &err), 1);
	/* Peek until the message is there, claiming it. */
	for (;;) {
		ck_assert_int_eq(fi_trecvmsg(p.s[1].ep, &m,
					     FI_PEEK | FI_CLAIM), 0);
		if (wait_comp(&p, 1, &e, NULL, &err) == 1)
			break;
		ck_assert_int_eq(err.err, FI_ENOMSG);
	}
	ck_assert_uint_eq(e.len, sizeof(tx));
	ck_assert_uint_eq(e.tag, 42);
	ck_assert_ptr_eq(e.op_context, &ctx);
	/* A normal receive posted now must not take the claimed message. */
	ck_assert_int_eq(fi_trecv(p.s[1].ep, rx, sizeof(rx), NULL,
				  FI_ADDR_UNSPEC, 42, 0, (void *)8), 0);
	iov.iov_base = rx;
	iov.iov_len = sizeof(rx);
	m.msg_iov = &iov;
	m.iov_count = 1;
	memset(rx, 0, sizeof(rx));
	ck_assert_int_eq(fi_trecvmsg(p.s[1].ep, &m, FI_CLAIM), 0);
	ck_assert_int_eq(wait_comp(&p, 1, &e, NULL, &err), 1);
	ck_assert_ptr_eq(e.op_context, &ctx);
	ck_assert_uint_eq(e.len, sizeof(tx));
	ck_assert(!memcmp(rx, tx, sizeof(tx)));
	ck_assert_int_eq(fi_cancel(&p.s[1].ep->fid, (void *)8), 0);
	ck_assert_int_eq(wait_comp(&p, 1, &e, NULL, &err), -FI_EAVAIL);
	ck_assert_int_eq(err.err, FI_ECANCELED);
	/* Peek + discard drops the next one. */
	ck_assert_int_eq(fi_tsend(p.s[0].ep, tx, 8, NULL, p.s[0].peer, 43,
				  NULL), 0);
	ck_assert_int_eq(wait_comp(&p, 0, &e, NULL, &err), 1);
	m.tag = 43;
	m.msg_iov = NULL;
	m.iov_count = 0;
	for (;;) {
		ck_assert_int_eq(fi_trecvmsg(p.s[1].ep, &m,
					     FI_PEEK | FI_DISCARD), 0);
		if (wait_comp(&p, 1, &e, NULL, &err) == 1)
			break;
		ck_assert_int_eq(err.err, FI_ENOMSG);
	}
	ck_assert_uint_eq(e.len, 8);
	ck_assert_int_eq(fi_trecvmsg(p.s[1].ep, &m, FI_PEEK), 0);
	ck_assert_int_eq(wait_comp(&p, 1, &e, NULL, &err), -FI_EAVAIL);
	ck_assert_int_eq(err.err, FI_ENOMSG);
	/* Peek + claim, then claim + discard (fabtests 2.x
	 * fi_rdm_tagged_peek): the discard's completion describes the
	 * message like the peek's, tag and length. */
	ck_assert_int_eq(fi_tsenddata(p.s[0].ep, tx, 24, NULL, 0x5eed,
				      p.s[0].peer, 0x9011, NULL), 0);
	ck_assert_int_eq(wait_comp(&p, 0, &e, NULL, &err), 1);
	m.tag = 0x9011;
	for (;;) {
		ck_assert_int_eq(fi_trecvmsg(p.s[1].ep, &m,
					     FI_PEEK | FI_CLAIM), 0);
		if (wait_comp(&p, 1, &e, NULL, &err) == 1)
			break;
		ck_assert_int_eq(err.err, FI_ENOMSG);
	}
	ck_assert_uint_eq(e.tag, 0x9011);
	ck_assert_int_eq(fi_trecvmsg(p.s[1].ep, &m, FI_CLAIM | FI_DISCARD),
			 0);
	ck_assert_int_eq(wait_comp(&p, 1, &e, NULL, &err), 1);
	ck_assert_ptr_eq(e.op_context, &ctx);
	ck_assert_uint_eq(e.tag, 0x9011);
	ck_assert_uint_eq(e.len, 24);
	ck_assert_uint_eq(e.data, 0x5eed);
	ck_assert(e.flags & FI_TAGGED);
	pair_close(&p);
}
END_TEST

/*
 * Remote CQ data reaches the receive completion on every path: sends and
 * injects, inline and SGL sizes, receives posted before and after the
 * message (Open MPI's OFI MTL carries the source rank this way).
 */
START_TEST(test_cq_data_paths)
{
	static const size_t sizes[] = { 0, 4, 24, 100, 3000, 5000, 70000 };
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	struct pair p;
	uint8_t *tx, *rx;
	unsigned int si, inj, unexp;
	uint64_t data, tag;
	int ctx;

	pair_open(&p);
	tx = malloc(70000);
	rx = malloc(70000);
	uet_test_fill(tx, 70000, 3);
	for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		for (inj = 0; inj < 2; inj++) {
			for (unexp = 0; unexp < 2; unexp++) {
				size_t len = sizes[si];

				if (inj && len > p.info->tx_attr->inject_size)
					continue;
				data = 0xda7a0000u + si * 4 + inj * 2 + unexp;
				tag = 0x700 + si;
				memset(rx, 0, len);
				if (!unexp)
					ck_assert_int_eq(fi_trecv(p.s[1].ep,
						rx, 70000, NULL, FI_ADDR_UNSPEC,
						tag, 0, &ctx), 0);
				if (inj)
					ck_assert_int_eq(fi_tinjectdata(
						p.s[0].ep, tx, len, data,
						p.s[0].peer, tag), 0);
				else
					ck_assert_int_eq(fi_tsenddata(
						p.s[0].ep, tx, len, NULL, data,
						p.s[0].peer, tag, NULL), 0);
				if (!inj)
					ck_assert_int_eq(wait_comp(&p, 0, &e,
						NULL, &err), 1);
				if (unexp) {
					/* let it arrive first */
					(void)fi_cq_read(p.s[1].cq, &e, 0);
					usleep(20000);
					(void)fi_cq_read(p.s[1].cq, &e, 0);
					ck_assert_int_eq(fi_trecv(p.s[1].ep,
						rx, 70000, NULL, FI_ADDR_UNSPEC,
						tag, 0, &ctx), 0);
				}
				ck_assert_int_eq(wait_comp(&p, 1, &e, NULL,
							   &err), 1);
				ck_assert_msg(e.data == data &&
					      (e.flags & FI_REMOTE_CQ_DATA),
					      "len %zu inject %u unexpected %u:"
					      " data 0x%llx flags 0x%llx",
					      len, inj, unexp,
					      (unsigned long long)e.data,
					      (unsigned long long)e.flags);
				ck_assert_uint_eq(e.len, len);
				ck_assert(!memcmp(rx, tx, len));
			}
		}
	}
	free(tx);
	free(rx);
	pair_close(&p);
}
END_TEST

START_TEST(test_multi_recv)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	struct fi_msg m;
	struct iovec iov;
	struct pair p;
	uint8_t tx[200], *rx;
	size_t min = 256, got = 0, released = 0;
	int k, n = 20;

	pair_open(&p);
	rx = calloc(1, 4096);
	ck_assert_int_eq(fi_setopt(&p.s[1].ep->fid, FI_OPT_ENDPOINT,
				   FI_OPT_MIN_MULTI_RECV, &min, sizeof(min)),
			 0);
	iov.iov_base = rx;
	iov.iov_len = 4096;
	memset(&m, 0, sizeof(m));
	m.msg_iov = &iov;
	m.iov_count = 1;
	m.addr = FI_ADDR_UNSPEC;
	m.context = (void *)0x77;
	ck_assert_int_eq(fi_recvmsg(p.s[1].ep, &m, FI_MULTI_RECV), 0);
	for (k = 0; k < n; k++) {
		uet_test_fill(tx, sizeof(tx), (unsigned int)k);
		ck_assert_int_eq(fi_send(p.s[0].ep, tx, sizeof(tx), NULL,
					 p.s[0].peer, NULL), 0);
		ck_assert_int_eq(wait_comp(&p, 0, &e, NULL, &err), 1);
	}
	/* After 19 messages of 200, 296 bytes are free (>= 256): the 20th
	 * fits, then fewer than 256 are left and the buffer is released. */
	while (got < 20 || !released) {
		ck_assert_int_eq(wait_comp(&p, 1, &e, NULL, &err), 1);
		ck_assert_ptr_eq(e.op_context, (void *)0x77);
		if (e.len) {
			ck_assert_uint_eq(e.len, sizeof(tx));
			ck_assert((uint8_t *)e.buf >= rx &&
				  (uint8_t *)e.buf + e.len <= rx + 4096);
			got++;
		}
		if (e.flags & FI_MULTI_RECV)
			released++;
	}
	ck_assert_uint_eq(got, 20);
	ck_assert_uint_eq(released, 1);
	free(rx);
	pair_close(&p);
}
END_TEST

START_TEST(test_inject_selective_counters)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	struct pair p;
	uint8_t tx[2000], rx[2000];
	int k;

	pair_open(&p);
	uet_test_fill(tx, sizeof(tx), 1);
	for (k = 0; k < 3; k++) {
		ck_assert_int_eq(fi_recv(p.s[1].ep, rx, sizeof(rx), NULL,
					 FI_ADDR_UNSPEC, NULL), 0);
	}
	ck_assert_int_eq(fi_inject(p.s[0].ep, tx, 20, p.s[0].peer), 0);
	ck_assert_int_eq(fi_inject(p.s[0].ep, tx, sizeof(tx), p.s[0].peer),
			 0);
	ck_assert_int_eq(fi_injectdata(p.s[0].ep, tx, 8, 99, p.s[0].peer), 0);
	ck_assert_int_eq(fi_inject(p.s[0].ep, tx, 5000, p.s[0].peer),
			 -FI_EMSGSIZE);
	for (k = 0; k < 3; k++)
		ck_assert_int_eq(wait_comp(&p, 1, &e, NULL, &err), 1);
	ck_assert_uint_eq(e.data, 99);
	/* Injects write no send completion but count. */
	ck_assert_int_eq(fi_cntr_wait(p.s[0].txc, 3, WAIT_MS), 0);
	ck_assert_int_eq(fi_cq_read(p.s[0].cq, &e, 1), -FI_EAGAIN);
	pair_close(&p);
}
END_TEST

START_TEST(test_bad_args)
{
	struct pair p;
	uint8_t b[16];
	struct iovec iov[UET_IOV_LIMIT + 1];
	struct fi_info *info;
	struct fid_ep *ep;
	uint32_t job = 77;

	pair_open(&p);
	/* An endpoint cannot take another JobID than its domain's. */
	info = fi_dupinfo(p.info);
	free(info->ep_attr->auth_key);
	info->ep_attr->auth_key = malloc(sizeof(job));
	memcpy(info->ep_attr->auth_key, &job, sizeof(job));
	info->ep_attr->auth_key_size = sizeof(job);
	ck_assert_int_eq(fi_endpoint(p.s[0].dom, info, &ep, NULL), -FI_EINVAL);
	fi_freeinfo(info);
	memset(iov, 0, sizeof(iov));
	ck_assert_int_eq(fi_send(p.s[0].ep, b, sizeof(b), NULL, 12345, NULL),
			 -FI_EINVAL);
	ck_assert_int_eq(fi_sendv(p.s[0].ep, iov, NULL, UET_IOV_LIMIT + 1,
				  p.s[0].peer, NULL), -FI_EINVAL);
	ck_assert_int_eq(fi_send(p.s[0].ep, NULL, 10, NULL, p.s[0].peer,
				 NULL), -FI_EINVAL);
	ck_assert_int_eq(fi_recv(p.s[0].ep, NULL, 10, NULL, FI_ADDR_UNSPEC,
				 NULL), -FI_EINVAL);
	pair_close(&p);
}
END_TEST

START_TEST(test_cq_overflow_and_formats)
{
	struct fi_cq_msg_entry me[64];
	struct pair p;
	uint8_t tx[8];
	int k, total = 0, n = 40;
	uint64_t end;
	ssize_t r;

	/* A 4-entry CQ with MSG format: 40 sends overflow it; nothing is
	 * lost. */
	pair_open_fmt(&p, FI_EP_RDM, FI_PROGRESS_MANUAL, FI_CQ_FORMAT_MSG, 4);
	for (k = 0; k < n; k++)
		ck_assert_int_eq(fi_recv(p.s[1].ep, NULL, 0, NULL,
					 FI_ADDR_UNSPEC, NULL), 0);
	for (k = 0; k < n; k++)
		ck_assert_int_eq(fi_send(p.s[0].ep, tx, sizeof(tx), NULL,
					 p.s[0].peer, (void *)(uintptr_t)(k +
									 1)),
				 0);
	end = uet_clock_now_ns() + WAIT_MS * UET_NSEC_PER_MSEC;
	while (total < n && uet_clock_now_ns() < end) {
		fi_cq_read(p.s[1].cq, NULL, 0);
		r = fi_cq_read(p.s[0].cq, me, 64);
		if (r > 0) {
			for (k = 0; k < r; k++) {
				ck_assert_uint_eq(me[k].flags,
						  FI_SEND | FI_MSG);
				ck_assert_ptr_eq(me[k].op_context,
						 (void *)(uintptr_t)(total +
								     k + 1));
			}
			total += (int)r;
		}
	}
	ck_assert_int_eq(total, n);
	/* Drain the receiver's (truncation errors: 0-byte buffers). */
	pair_close(&p);
}
END_TEST

START_TEST(test_dgram)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	struct pair p;
	uint8_t tx[1000], rx[1000];

	pair_open_fmt(&p, FI_EP_DGRAM, FI_PROGRESS_MANUAL,
		      FI_CQ_FORMAT_TAGGED, 0);
	uet_test_fill(tx, sizeof(tx), 4);
	ck_assert_int_eq(fi_recv(p.s[1].ep, rx, sizeof(rx), NULL,
				 FI_ADDR_UNSPEC, (void *)1), 0);
	ck_assert_int_eq(fi_send(p.s[0].ep, tx, sizeof(tx), NULL, p.s[0].peer,
				 (void *)2), 0);
	ck_assert_int_eq(wait_comp(&p, 1, &e, NULL, &err), 1);
	ck_assert_uint_eq(e.len, sizeof(tx));
	ck_assert(!memcmp(tx, rx, sizeof(tx)));
	ck_assert_int_eq(wait_comp(&p, 0, &e, NULL, &err), 1);
	ck_assert_int_eq(fi_send(p.s[0].ep, tx, p.info->ep_attr->max_msg_size
				 + 1, NULL, p.s[0].peer, NULL), -FI_EMSGSIZE);
	pair_close(&p);
}
END_TEST

/*
 * Sizes at the 32-bit SGL limit: a send above max_msg_size (4 GiB - 1) is
 * -FI_EMSGSIZE, not -FI_EINVAL; a receive buffer may be larger than any
 * message (its SGL entry says 4 GiB - 1): only the bytes that arrive are
 * written.  Neither call touches memory beyond the 64 bytes here.
 */
START_TEST(test_sizes_above_4g)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	struct pair p;
	uint8_t tx[64], rx[64];
	const size_t big = (size_t)5 << 30;

	pair_open(&p);
	ck_assert_uint_eq(p.info->ep_attr->max_msg_size, 0xffffffffull);
	uet_test_fill(tx, sizeof(tx), 9);
	ck_assert_int_eq(fi_send(p.s[0].ep, tx, big, NULL, p.s[0].peer,
				 NULL), -FI_EMSGSIZE);
	ck_assert_int_eq(fi_tsend(p.s[0].ep, tx, (size_t)1 << 32, NULL,
				  p.s[0].peer, 1, NULL), -FI_EMSGSIZE);
	ck_assert_int_eq(fi_recv(p.s[1].ep, rx, big, NULL, FI_ADDR_UNSPEC,
				 (void *)1), 0);
	ck_assert_int_eq(fi_send(p.s[0].ep, tx, sizeof(tx), NULL, p.s[0].peer,
				 (void *)2), 0);
	ck_assert_int_eq(wait_comp(&p, 1, &e, NULL, &err), 1);
	ck_assert_ptr_eq(e.op_context, (void *)1);
	ck_assert_uint_eq(e.len, sizeof(tx));
	ck_assert(!memcmp(tx, rx, sizeof(tx)));
	ck_assert_int_eq(wait_comp(&p, 0, &e, NULL, &err), 1);
	pair_close(&p);
}
END_TEST

START_TEST(test_auto_progress_sread)
{
	struct fi_cq_tagged_entry e;
	struct pair p;
	uint8_t tx[64], rx[64];
	int fd;

	pair_open_fmt(&p, FI_EP_RDM, FI_PROGRESS_AUTO, FI_CQ_FORMAT_TAGGED,
		      0);
	ck_assert_int_eq(fi_control(&p.s[1].cq->fid, FI_GETWAIT, &fd), 0);
	ck_assert_int_ge(fd, 0);
	/* Nothing to read: sread times out. */
	ck_assert_int_eq(fi_cq_sread(p.s[1].cq, &e, 1, NULL, 50), -FI_EAGAIN);
	ck_assert_int_eq(fi_recv(p.s[1].ep, rx, sizeof(rx), NULL,
				 FI_ADDR_UNSPEC, (void *)1), 0);
	ck_assert_int_eq(fi_send(p.s[0].ep, tx, sizeof(tx), NULL, p.s[0].peer,
				 (void *)2), 0);
	/* The device threads move the data; the receiver only sleeps. */
	ck_assert_int_eq(fi_cq_sread(p.s[1].cq, &e, 1, NULL, WAIT_MS), 1);
	ck_assert_ptr_eq(e.op_context, (void *)1);
	ck_assert_int_eq(fi_cq_sread(p.s[0].cq, &e, 1, NULL, WAIT_MS), 1);
	ck_assert_ptr_eq(e.op_context, (void *)2);
	ck_assert_int_eq(fi_cq_signal(p.s[0].cq), 0);
	ck_assert_int_eq(fi_cq_sread(p.s[0].cq, &e, 1, NULL, -1), -FI_EAGAIN);
	pair_close(&p);
}
END_TEST

START_TEST(test_av_ops)
{
	struct pair p;
	uint8_t raw[64], raw2[64];
	char str[128];
	size_t len = sizeof(raw), len2, slen = sizeof(str);
	fi_addr_t a[4];
	struct fid_eq *eq;
	struct fi_eq_attr eqa = { .wait_obj = FI_WAIT_UNSPEC };
	struct fi_av_attr ava = { .type = FI_AV_MAP, .flags = FI_EVENT };
	struct fid_av *av2;
	struct fi_eq_entry ev;
	uint32_t event;

	pair_open(&p);
	ck_assert_int_eq(fi_getname(&p.s[1].ep->fid, raw, &len), 0);
	len2 = 1;
	ck_assert_int_eq(fi_av_lookup(p.s[0].av, p.s[0].peer, raw2, &len2),
			 0);
	ck_assert_uint_eq(len2, len);
	len2 = sizeof(raw2);
	ck_assert_int_eq(fi_av_lookup(p.s[0].av, p.s[0].peer, raw2, &len2),
			 0);
	ck_assert(!memcmp(raw, raw2, len));
	ck_assert_ptr_nonnull(fi_av_straddr(p.s[0].av, raw, str, &slen));
	ck_assert_ptr_nonnull(strstr(str, "127.0.0.1"));
	ck_assert_int_eq(fi_av_insertsvc(p.s[0].av, "127.0.0.1", "9999",
					 &a[0], 0, NULL), 1);
	ck_assert_int_eq(fi_av_insertsym(p.s[0].av, "127.0.0.1", 1, "10000",
					 3, a + 1, 0, NULL), 3);
	ck_assert_int_eq(fi_av_remove(p.s[0].av, a, 4, 0), 0);
	ck_assert_int_eq(fi_av_lookup(p.s[0].av, a[0], raw2, &len2),
			 -FI_EINVAL);
	/* FI_EVENT AV: the insert completes on the EQ. */
	ck_assert_int_eq(fi_eq_open(p.fab, &eqa, &eq, NULL), 0);
	ck_assert_int_eq(fi_av_open(p.s[0].dom, &ava, &av2, NULL), 0);
	/* fi_av_bind is deprecated in libfabric 2 (its inline warns):
	 * the same call through the ops table. */
	ck_assert_int_eq(av2->fid.ops->bind(&av2->fid, &eq->fid, 0), 0);
	ck_assert_int_eq(fi_av_insert(av2, raw, 1, a, 0, (void *)0x55), 0);
	ck_assert_int_eq(fi_eq_sread(eq, &event, &ev, sizeof(ev), WAIT_MS, 0),
			 sizeof(ev));
	ck_assert_uint_eq(event, FI_AV_COMPLETE);
	ck_assert_uint_eq(ev.data, 1);
	ck_assert_ptr_eq(ev.context, (void *)0x55);
	ck_assert_int_eq(fi_close(&eq->fid), -FI_EBUSY);
	ck_assert_int_eq(fi_close(&av2->fid), 0);
	ck_assert_int_eq(fi_close(&eq->fid), 0);
	pair_close(&p);
}
END_TEST

/*
 * A run of messages from one peer: the source fi_addr comes from the
 * endpoint's last answer (no AV lookup); a change of the AV (remove,
 * insert) makes it look again, never report a stale address.
 */
static void send_expect_src(struct pair *p, fi_addr_t want)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	fi_addr_t src = 77;
	char tx[64] = "abc", rx[64];

	ck_assert_int_eq(fi_recv(p->s[1].ep, rx, sizeof(rx), NULL,
				 FI_ADDR_UNSPEC, NULL), 0);
	ck_assert_int_eq(fi_send(p->s[0].ep, tx, sizeof(tx), NULL,
				 p->s[0].peer, NULL), 0);
	ck_assert_int_eq(wait_comp(p, 1, &e, &src, &err), 1);
	ck_assert_uint_eq(src, want);
	ck_assert_int_eq(wait_comp(p, 0, &e, NULL, &err), 1);
}

START_TEST(test_src_cached)
{
	struct pair p;
	struct uet_ep *ep1;
	uint8_t raw[64];
	size_t len = sizeof(raw);
	fi_addr_t old, dup, d, a;
	uint64_t c0;
	int i;

	pair_open(&p);
	ep1 = uet_ep_of(p.s[1].ep);
	old = p.s[1].peer;
	for (i = 0; i < 8; i++)
		send_expect_src(&p, old);
	ck_assert_uint_ge(ep1->src_cached, 7);

	/* Removed while a duplicate entry keeps the peer (the same peer
	 * handle comes up): the source is unknown, not the cached one. */
	ck_assert_int_eq(fi_getname(&p.s[0].ep->fid, raw, &len), 0);
	ck_assert_int_eq(fi_av_insert(p.s[1].av, raw, 1, &dup, 0, NULL), 1);
	send_expect_src(&p, old);
	ck_assert_int_eq(fi_av_remove(p.s[1].av, &old, 1, 0), 0);
	send_expect_src(&p, FI_ADDR_NOTAVAIL);
	ck_assert_int_eq(fi_av_remove(p.s[1].av, &dup, 1, 0), 0);
	send_expect_src(&p, FI_ADDR_NOTAVAIL);
	/* Inserted again behind another address: its new fi_addr. */
	ck_assert_int_eq(fi_av_insertsvc(p.s[1].av, "127.0.0.1", "9",
					 &d, 0, NULL), 1);
	ck_assert_int_eq(fi_av_insert(p.s[1].av, raw, 1, &a, 0, NULL),
			 1);
	ck_assert_uint_ne(a, old);
	c0 = ep1->src_cached;
	send_expect_src(&p, a);
	send_expect_src(&p, a);
	ck_assert_uint_eq(ep1->src_cached, c0 + 1);
	pair_close(&p);
}
END_TEST

START_TEST(test_mr)
{
	struct pair p;
	struct fid_mr *mr;
	static uint8_t buf[4096];

	pair_open(&p);
	ck_assert_int_eq(fi_mr_reg(p.s[0].dom, buf, sizeof(buf),
				   FI_SEND | FI_RECV, 0, 0, 0, &mr, NULL), 0);
	ck_assert_ptr_nonnull(fi_mr_desc(mr));
	ck_assert_int_eq(fi_close(&p.s[0].dom->fid), -FI_EBUSY);
	ck_assert_int_eq(fi_close(&mr->fid), 0);
	/* no access at all is a valid (local-only) registration, as
	 * fabtests' fi_mr_test expects; unknown access bits are not */
	ck_assert_int_eq(fi_mr_reg(p.s[0].dom, buf, sizeof(buf), 0, 0, 0, 0,
				   &mr, NULL), 0);
	ck_assert_int_eq(fi_close(&mr->fid), 0);
	ck_assert_int_eq(fi_mr_reg(p.s[0].dom, buf, sizeof(buf), 1ull << 62,
				   0, 0, 0, &mr, NULL), -FI_EINVAL);
	pair_close(&p);
}
END_TEST

START_TEST(test_unreachable_peer)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	struct pair p;
	fi_addr_t dead;
	uint8_t tx[64];
	char buf[128];

	setenv("FI_UET_MAX_RETRIES", "2", 1);
	setenv("FI_UET_DEAD_MS", "200", 1);
	pair_open(&p);
	/* Nobody listens on 127.0.0.1:9 (discard port, closed). */
	ck_assert_int_eq(fi_av_insertsvc(p.s[0].av, "127.0.0.1", "9", &dead,
					 0, NULL), 1);
	ck_assert_int_eq(fi_send(p.s[0].ep, tx, sizeof(tx), NULL, dead,
				 (void *)0x99), 0);
	ck_assert_int_eq(wait_comp(&p, 0, &e, NULL, &err), -FI_EAVAIL);
	ck_assert_ptr_eq(err.op_context, (void *)0x99);
	ck_assert_int_eq(err.err, FI_ETIMEDOUT);
	ck_assert_ptr_eq(fi_cq_strerror(p.s[0].cq, err.prov_errno, NULL,
					buf, sizeof(buf)), buf);
	ck_assert_ptr_nonnull(strstr(buf, "peer unreachable"));
	ck_assert_uint_eq(fi_cntr_readerr(p.s[0].txc), 1);
	unsetenv("FI_UET_MAX_RETRIES");
	unsetenv("FI_UET_DEAD_MS");
	pair_close(&p);
}
END_TEST

/* ---- contexts: no completion carries one that was not posted ---- */

#define CTX_MAX	64

/* Every context the test handed to the provider. */
struct ctxset {
	void *ctx[CTX_MAX];
	unsigned int n;
	unsigned int seen;	/* completions checked */
};

static void *ctx_post(struct ctxset *cs, uintptr_t v)
{
	ck_assert_uint_lt(cs->n, CTX_MAX);
	cs->ctx[cs->n] = (void *)v;
	return cs->ctx[cs->n++];
}

static void ctx_check(struct ctxset *cs, void *ctx)
{
	unsigned int i;

	for (i = 0; i < cs->n; i++)
		if (cs->ctx[i] == ctx) {
			cs->seen++;
			return;
		}
	ck_abort_msg("completion with context %p, never posted", ctx);
}

/* Drain side i's CQ for ms, checking every entry and error entry. */
static void ctx_drain(struct pair *p, int i, struct ctxset *cs,
		      unsigned int ms, unsigned int *nerr)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	uint64_t end = uet_clock_now_ns() + ms * UET_NSEC_PER_MSEC;
	int ret;

	while (uet_clock_now_ns() < end) {
		ret = wait_comp(p, i, &e, NULL, &err);
		if (ret == 1) {
			ctx_check(cs, e.op_context);
		} else if (ret == -FI_EAVAIL) {
			ctx_check(cs, err.op_context);
			(*nerr)++;
		}
		fi_cq_read(p->s[1 - i].cq, NULL, 0);
	}
}

/*
 * Every kind of completion and error completion, injects to a peer that
 * is gone among them (fi_inject* gives no context: its failure must not
 * surface as a CQ entry with a NULL context, which is what crashed Open
 * MPI's OFI MTL), and each entry's context is one the test posted.
 */
START_TEST(test_contexts_are_posted)
{
	struct fi_cq_err_entry err;
	struct fi_cq_tagged_entry e;
	struct ctxset cs = { .n = 0 };
	uint8_t tx[3000], rx[4][3000], peek[8];
	unsigned int nerr0 = 0, nerr1 = 0;
	struct fi_msg_tagged tm;
	struct iovec iov;
	struct pair p;
	fi_addr_t dead;
	int k;

	setenv("FI_UET_UNREACH_MS", "100", 1);
	pair_open(&p);
	uet_test_fill(tx, sizeof(tx), 3);
	/* Receives, matched and unexpected, tagged and not. */
	ck_assert_int_eq(fi_recv(p.s[1].ep, rx[0], sizeof(rx[0]), NULL,
				 FI_ADDR_UNSPEC, ctx_post(&cs, 0x101)), 0);
	ck_assert_int_eq(fi_trecv(p.s[1].ep, rx[1], sizeof(rx[1]), NULL,
				  FI_ADDR_UNSPEC, 5, 0, ctx_post(&cs, 0x102)),
			 0);
	ck_assert_int_eq(fi_send(p.s[0].ep, tx, 100, NULL, p.s[0].peer,
				 ctx_post(&cs, 0x201)), 0);
	ck_assert_int_eq(fi_tsend(p.s[0].ep, tx, 2500, NULL, p.s[0].peer, 5,
				  ctx_post(&cs, 0x202)), 0);
	ck_assert_int_eq(fi_tinject(p.s[0].ep, tx, 16, p.s[0].peer, 9), 0);
	ck_assert_int_eq(fi_inject(p.s[0].ep, tx, 16, p.s[0].peer), 0);
	/* A peek that finds the unexpected tag 9, one that finds nothing,
	 * a receive cancelled. */
	for (k = 0; k < 200; k++) {
		fi_cq_read(p.s[0].cq, NULL, 0);
		fi_cq_read(p.s[1].cq, NULL, 0);
	}
	memset(&tm, 0, sizeof(tm));
	iov.iov_base = peek;
	iov.iov_len = sizeof(peek);
	tm.msg_iov = &iov;
	tm.iov_count = 1;
	tm.addr = FI_ADDR_UNSPEC;
	tm.tag = 77;
	tm.context = ctx_post(&cs, 0x103);
	ck_assert_int_eq(fi_trecvmsg(p.s[1].ep, &tm, FI_PEEK), 0);
	ck_assert_int_eq(fi_trecv(p.s[1].ep, rx[2], sizeof(rx[2]), NULL,
				  FI_ADDR_UNSPEC, 1234, 0,
				  ctx_post(&cs, 0x104)), 0);
	ck_assert_int_eq(fi_cancel(&p.s[1].ep->fid, (void *)0x104), 0);
	ck_assert_int_eq(fi_trecv(p.s[1].ep, rx[3], sizeof(rx[3]), NULL,
				  FI_ADDR_UNSPEC, 9, 0, ctx_post(&cs, 0x105)),
			 0);
	ck_assert_int_eq(fi_recv(p.s[1].ep, rx[2], sizeof(rx[2]), NULL,
				 FI_ADDR_UNSPEC, ctx_post(&cs, 0x106)), 0);
	/* Operations to a peer whose port is closed: injects fail
	 * silently (counters), the send reports its own context. */
	ck_assert_int_eq(fi_av_insertsvc(p.s[0].av, "127.0.0.1", "9", &dead,
					 0, NULL), 1);
	ck_assert_int_eq(fi_inject(p.s[0].ep, tx, 32, dead), 0);
	ck_assert_int_eq(fi_tinject(p.s[0].ep, tx, 32, dead, 1), 0);
	ck_assert_int_eq(fi_send(p.s[0].ep, tx, 32, NULL, dead,
				 ctx_post(&cs, 0x203)), 0);
	ctx_drain(&p, 1, &cs, 300, &nerr1);
	ctx_drain(&p, 0, &cs, 3000, &nerr0);
	/* Side 1: 5 completions (0x101, 0x102, 0x105, 0x106 and the
	 * peek's ENOMSG) and the cancel's error. */
	ck_assert_uint_eq(nerr1, 2);
	/* Side 0: 0x201, 0x202 and 0x203's error; nothing for injects. */
	ck_assert_uint_eq(nerr0, 1);
	ck_assert_uint_eq(cs.seen, 9);
	ck_assert_int_eq(fi_cq_read(p.s[0].cq, &e, 1), -FI_EAGAIN);
	ck_assert_int_eq(fi_cq_readerr(p.s[0].cq, &err, 0), -FI_EAGAIN);
	/* The three failed sends are counted as errors. */
	ck_assert_uint_eq(fi_cntr_readerr(p.s[0].txc), 3);
	unsetenv("FI_UET_UNREACH_MS");
	pair_close(&p);
}
END_TEST

/*
 * A peer whose process is gone on a live host (ICMP port unreachable)
 * fails its operations in about FI_UET_UNREACH_MS (1 s), not after
 * FI_UET_DEAD_MS (30 s by default).
 */
START_TEST(test_dead_peer_fails_fast)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	struct pair p;
	fi_addr_t dead;
	uint64_t t0, dt;
	uint8_t tx[64];
	char buf[160];

	unsetenv("FI_UET_DEAD_MS");
	unsetenv("FI_UET_MAX_RETRIES");
	pair_open(&p);
	ck_assert_int_eq(fi_av_insertsvc(p.s[0].av, "127.0.0.1", "9", &dead,
					 0, NULL), 1);
	t0 = uet_clock_now_ns();
	ck_assert_int_eq(fi_send(p.s[0].ep, tx, sizeof(tx), NULL, dead,
				 (void *)0x77), 0);
	ck_assert_int_eq(wait_comp(&p, 0, &e, NULL, &err), -FI_EAVAIL);
	dt = uet_clock_now_ns() - t0;
	ck_assert_ptr_eq(err.op_context, (void *)0x77);
	ck_assert_int_eq(err.err, FI_ECONNREFUSED);
	ck_assert_uint_ge(dt, 900 * UET_NSEC_PER_MSEC);
	ck_assert_uint_lt(dt, 5000 * UET_NSEC_PER_MSEC);
	ck_assert_ptr_eq(fi_cq_strerror(p.s[0].cq, err.prov_errno, NULL,
					buf, sizeof(buf)), buf);
	ck_assert_ptr_nonnull(strstr(buf, "port closed"));
	pair_close(&p);
}
END_TEST

/* Enter a network namespace of our own with lo up (this test process
 * only: libcheck forks each test).  false when not permitted. */
static bool own_netns(void)
{
	struct ifreq ifr;
	bool ok;
	int fd;

	if (unshare(CLONE_NEWNET))
		return false;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return false;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	ok = !ioctl(fd, SIOCGIFFLAGS, &ifr);
	ifr.ifr_flags |= IFF_UP;
	ok = ok && !ioctl(fd, SIOCSIFFLAGS, &ifr);
	close(fd);
	return ok;
}

/*
 * A domain that cannot reach a peer's address at all (no route from
 * it: here a namespace with nothing but lo) fails the operation at the
 * first send, not after FI_UET_DEAD_MS.  Nothing leaves the namespace.
 */
START_TEST(test_no_route_fails_at_once)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	struct pair p;
	fi_addr_t far;
	uint64_t t0, dt;
	uint8_t tx[64];

	if (!own_netns()) {
		fprintf(stderr, "test_no_route_fails_at_once: skipped (no "
			"network namespace: needs root)\n");
		return;
	}
	unsetenv("FI_UET_DEAD_MS");
	pair_open(&p);
	ck_assert_int_eq(fi_av_insertsvc(p.s[0].av, "192.0.2.1", "4793", &far,
					 0, NULL), 1);
	t0 = uet_clock_now_ns();
	ck_assert_int_eq(fi_send(p.s[0].ep, tx, sizeof(tx), NULL, far,
				 (void *)0x55), 0);
	ck_assert_int_eq(wait_comp(&p, 0, &e, NULL, &err), -FI_EAVAIL);
	dt = uet_clock_now_ns() - t0;
	ck_assert_ptr_eq(err.op_context, (void *)0x55);
	ck_assert_int_eq(err.err, FI_ENETUNREACH);
	ck_assert_uint_lt(dt, 1000 * UET_NSEC_PER_MSEC);
	/* The domain still works with the peer it can reach. */
	ck_assert_int_eq(fi_send(p.s[0].ep, tx, sizeof(tx), NULL, p.s[0].peer,
				 (void *)0x56), 0);
	ck_assert_int_eq(fi_recv(p.s[1].ep, tx, sizeof(tx), NULL,
				 FI_ADDR_UNSPEC, (void *)0x57), 0);
	ck_assert_int_eq(wait_comp(&p, 1, &e, NULL, &err), 1);
	ck_assert_ptr_eq(e.op_context, (void *)0x57);
	ck_assert_int_eq(wait_comp(&p, 0, &e, NULL, &err), 1);
	ck_assert_ptr_eq(e.op_context, (void *)0x56);
	pair_close(&p);
}
END_TEST

/*
 * More receives posted than rx_attr->size before the sender starts
 * (MPICH's rma/test5 through Open MPI's osc pt2pt posts 2,000): every
 * one is taken, and each completes with its own context, in posting
 * order for one tag.  uet used to answer -FI_EAGAIN from the 1,025th on,
 * which Open MPI retries forever.
 */
START_TEST(test_many_posted_receives)
{
	enum { N = 3000 };
	static uint32_t rx[N];
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	struct pair p;
	uint32_t v;
	int k, got = 0, sent = 0;
	ssize_t ret;

	pair_open(&p);
	ck_assert_uint_lt(p.info->rx_attr->size, N);
	for (k = 0; k < N; k++)
		ck_assert_int_eq(fi_trecv(p.s[1].ep, &rx[k], sizeof(rx[k]),
					  NULL, FI_ADDR_UNSPEC, 7, 0,
					  (void *)(uintptr_t)(k + 1)), 0);
	/* The sender posts while both sides progress (its own queue is
	 * bounded: -FI_EAGAIN there is flow control). */
	while (got < N) {
		if (sent < N) {
			v = (uint32_t)sent;
			ret = fi_tinject(p.s[0].ep, &v, sizeof(v), p.s[0].peer,
					 7);
			if (ret == 0)
				sent++;
			else
				ck_assert_int_eq(ret, -FI_EAGAIN);
		}
		fi_cq_read(p.s[0].cq, NULL, 0);
		ret = fi_cq_read(p.s[1].cq, &e, 1);
		if (ret == -FI_EAGAIN)
			continue;
		ck_assert_int_eq(ret, 1);
		ck_assert_ptr_eq(e.op_context, (void *)(uintptr_t)(got + 1));
		ck_assert_uint_eq(rx[got], (uint32_t)got);
		got++;
	}
	ck_assert_int_eq(fi_cq_readerr(p.s[1].cq, &err, 0), -FI_EAGAIN);
	pair_close(&p);
}
END_TEST

/* Read one completion of side i, progressing side i only. */
static int own_comp(struct pair *p, int i, unsigned int ms,
		    struct fi_cq_tagged_entry *e)
{
	struct fi_cq_err_entry err;

	return uet_test_cq_wait(p->s[i].cq, p->s[i].cq, ms, e, NULL, &err);
}

/* fi_sendmsg of len bytes of buf from side 0 to side 1. */
static void send_flags(struct pair *p, void *buf, size_t len, void *ctx,
		       uint64_t flags)
{
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct fi_msg m;

	memset(&m, 0, sizeof(m));
	m.msg_iov = &iov;
	m.iov_count = 1;
	m.addr = p->s[0].peer;
	m.context = ctx;
	ck_assert_int_eq(fi_sendmsg(p->s[0].ep, &m, flags), 0);
}

/*
 * Held sends (fi_uet(7), "Completion levels"): once the peer has
 * answered, a send of at most 16 KiB (UET_COPY_MAX, beyond inject_size:
 * a send of two packets too) without a completion level completes while
 * its target has not called libfabric at all (the NIC holds a copy for
 * retransmission); FI_TRANSMIT_COMPLETE and FI_DELIVERY_COMPLETE wait for
 * the target's acknowledgement, and so do a larger send and the first
 * send to a peer.  The target gets every byte as sent, although the
 * sender reused its buffer at once.
 */
START_TEST(test_send_held)
{
	enum { BIG = 16384, N = 6 };
	static uint8_t tx[BIG + 4096], rx[N][BIG + 4096];
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	struct pair p;
	size_t i;
	int k;

	/* The target stays silent: no standby thread answers for it. */
	setenv("FI_UET_STANDBY_MS", "0", 1);
	pair_open(&p);
	unsetenv("FI_UET_STANDBY_MS");
	for (i = 0; i < sizeof(tx); i++)
		tx[i] = (uint8_t)(i * 7 + 1);
	/* The first send to the peer waits for its answer. */
	send_flags(&p, tx, 64, (void *)0x1, 0);
	ck_assert_int_eq(own_comp(&p, 0, 100, &e), -FI_EAGAIN);
	ck_assert_int_eq(wait_comp(&p, 0, &e, NULL, &err), 1);
	ck_assert_ptr_eq(e.op_context, (void *)0x1);

	/* Held: complete with the target silent. */
	send_flags(&p, tx, 64, (void *)0x2, 0);
	ck_assert_int_eq(own_comp(&p, 0, 1000, &e), 1);
	ck_assert_ptr_eq(e.op_context, (void *)0x2);
	memset(tx, 0xee, 64);		/* the NIC has its own copy */

	/* Explicit levels wait for the target. */
	send_flags(&p, tx + 64, 64, (void *)0x3, FI_TRANSMIT_COMPLETE);
	ck_assert_int_eq(own_comp(&p, 0, 100, &e), -FI_EAGAIN);
	ck_assert_int_eq(wait_comp(&p, 0, &e, NULL, &err), 1);
	ck_assert_ptr_eq(e.op_context, (void *)0x3);
	send_flags(&p, tx + 128, 64, (void *)0x4, FI_DELIVERY_COMPLETE);
	ck_assert_int_eq(own_comp(&p, 0, 100, &e), -FI_EAGAIN);
	ck_assert_int_eq(wait_comp(&p, 0, &e, NULL, &err), 1);
	ck_assert_ptr_eq(e.op_context, (void *)0x4);

	/* 16 KiB, past inject_size and two packets: held too. */
	ck_assert_uint_lt(p.info->tx_attr->inject_size, BIG);
	send_flags(&p, tx + 64, BIG, (void *)0x5, 0);
	ck_assert_int_eq(own_comp(&p, 0, 1000, &e), 1);
	ck_assert_ptr_eq(e.op_context, (void *)0x5);
	memset(tx + 64, 0xdd, BIG);
	/* Larger: waits for the target. */
	send_flags(&p, tx, sizeof(tx), (void *)0x6, 0);
	ck_assert_int_eq(own_comp(&p, 0, 100, &e), -FI_EAGAIN);
	ck_assert_int_eq(wait_comp(&p, 0, &e, NULL, &err), 1);
	ck_assert_ptr_eq(e.op_context, (void *)0x6);

	/* The target: the messages in send order, the held ones intact. */
	for (k = 0; k < N; k++) {
		ck_assert_int_eq(fi_recv(p.s[1].ep, rx[k], sizeof(rx[k]), NULL,
					 FI_ADDR_UNSPEC, (void *)(uintptr_t)
					 (0x10 + k)), 0);
		ck_assert_int_eq(wait_comp(&p, 1, &e, NULL, &err), 1);
		ck_assert_ptr_eq(e.op_context, (void *)(uintptr_t)(0x10 + k));
	}
	for (i = 0; i < 64; i++)
		ck_assert_uint_eq(rx[1][i], (uint8_t)(i * 7 + 1));
	ck_assert_uint_eq(rx[2][0], (uint8_t)(64 * 7 + 1));
	for (i = 0; i < BIG; i++)
		ck_assert_uint_eq(rx[4][i], (uint8_t)((i + 64) * 7 + 1));
	ck_assert_uint_eq(rx[5][64], 0xdd);
	ck_assert_int_eq(fi_cntr_read(p.s[0].txc), N);
	ck_assert_int_eq(fi_cntr_readerr(p.s[0].txc), 0);
	pair_close(&p);
}
END_TEST

struct progress_thread {
	pthread_t t;
	struct fid_cq *cq;
	atomic_bool stop;
};

/* Progress a CQ (no entries read) until told to stop: a peer process. */
static void *progress_main(void *arg)
{
	struct progress_thread *pt = arg;
	struct timespec ts = { .tv_nsec = 50000 };

	while (!atomic_load(&pt->stop)) {
		fi_cq_read(pt->cq, NULL, 0);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

/*
 * Closing an endpoint right after its held sends completed still delivers
 * them: the close waits (bounded) until the peer acknowledged them, as
 * close() of a TCP socket sends what write() accepted.  Most of the
 * burst has not left when the close starts (the PDS window, the batching
 * of a doorbell behind packets in flight).
 */
START_TEST(test_close_delivers_held)
{
	enum { N = 600 };
	static uint8_t tx[64], rx[N][64];
	struct progress_thread pt;
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	struct pair p;
	ssize_t ret;
	int k, got = 0;

	pair_open(&p);
	memset(tx, 0x5a, sizeof(tx));
	ck_assert_int_eq(fi_recv(p.s[1].ep, rx[0], sizeof(rx[0]), NULL,
				 FI_ADDR_UNSPEC, NULL), 0);
	ck_assert_int_eq(fi_send(p.s[0].ep, tx, sizeof(tx), NULL,
				 p.s[0].peer, NULL), 0);
	ck_assert_int_eq(wait_comp(&p, 0, &e, NULL, &err), 1);
	ck_assert_int_eq(wait_comp(&p, 1, &e, NULL, &err), 1);
	for (k = 0; k < N; k++)
		ck_assert_int_eq(fi_recv(p.s[1].ep, rx[k], sizeof(rx[k]),
					 NULL, FI_ADDR_UNSPEC, NULL), 0);

	pt.cq = p.s[1].cq;
	atomic_init(&pt.stop, false);
	ck_assert_int_eq(pthread_create(&pt.t, NULL, progress_main, &pt), 0);
	for (k = 0; k < N; k++) {
		do {
			ret = fi_send(p.s[0].ep, tx, sizeof(tx), NULL,
				      p.s[0].peer, NULL);
		} while (ret == -FI_EAGAIN);
		ck_assert_int_eq(ret, 0);
	}
	ck_assert_int_eq(fi_close(&p.s[0].ep->fid), 0);
	atomic_store(&pt.stop, true);
	ck_assert_int_eq(pthread_join(pt.t, NULL), 0);

	while (got < N &&
	       uet_test_cq_wait(p.s[1].cq, p.s[1].cq, 2000, &e, NULL,
				&err) == 1)
		got++;
	ck_assert_int_eq(got, N);
	side_ep_open(&p, 0);
	pair_close(&p);
}
END_TEST

/*
 * Under manual progress the NIC still answers its peers when the
 * application stops calling (standby, FI_UET_STANDBY_MS): side 1 never
 * calls while side 0's send waits for its ACK and response, as when a
 * process sits in its own out-of-band exchange after its last receive.
 * Without standby the send never completes (the datagram waits in side
 * 1's socket); side 1 gets the message once it calls again.
 */
START_TEST(test_standby_answers_idle_side)
{
	static uint8_t tx[4096], rx[4096];
	struct iovec iov = { tx, sizeof(tx) };
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	struct fi_msg msg;
	struct pair p;

	pair_open(&p);
	memset(tx, 0x6b, sizeof(tx));
	memset(rx, 0, sizeof(rx));
	usleep(150 * 1000);		/* side 1 idle (standby: 50 ms) */
	memset(&msg, 0, sizeof(msg));
	msg.msg_iov = &iov;
	msg.iov_count = 1;
	msg.addr = p.s[0].peer;
	ck_assert_int_eq(fi_sendmsg(p.s[0].ep, &msg, FI_TRANSMIT_COMPLETE),
			 0);
	/* Only side 0 progresses. */
	ck_assert_msg(uet_test_cq_wait(p.s[0].cq, p.s[0].cq, 5000, &e, NULL,
				       &err) == 1,
		      "a send to an idle peer never completed");
	ck_assert(e.flags & FI_SEND);
	ck_assert_int_eq(fi_recv(p.s[1].ep, rx, sizeof(rx), NULL,
				 FI_ADDR_UNSPEC, NULL), 0);
	ck_assert_int_eq(uet_test_cq_wait(p.s[1].cq, p.s[0].cq, 2000, &e,
					  NULL, &err), 1);
	ck_assert_uint_eq(e.len, sizeof(rx));
	ck_assert_int_eq(memcmp(rx, tx, sizeof(rx)), 0);
	pair_close(&p);
}
END_TEST

/*
 * Under manual progress a posted receive waits for the endpoint's next
 * call to ring the doorbell (a reply posted right after it shares the
 * doorbell); the next progress rings it, and the message lands in it.
 * Under auto progress it rings at once.
 */
START_TEST(test_recv_rides_next_doorbell)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	uint8_t tx[64], rx[64];
	struct uet_ep *ep1;
	struct pair p;

	pair_open(&p);
	ep1 = uet_container_of(p.s[1].ep, struct uet_ep, fid);
	memset(tx, 0x3c, sizeof(tx));
	memset(rx, 0, sizeof(rx));
	ck_assert_int_eq(fi_recv(p.s[1].ep, rx, sizeof(rx), NULL,
				 FI_ADDR_UNSPEC, (void *)0x1), 0);
	ck_assert(ep1->doorbell_pending);
	fi_cq_read(p.s[1].cq, NULL, 0);		/* progress rings it */
	ck_assert(!ep1->doorbell_pending);
	ck_assert_int_eq(fi_recv(p.s[1].ep, rx, sizeof(rx), NULL,
				 FI_ADDR_UNSPEC, (void *)0x2), 0);
	ck_assert(ep1->doorbell_pending);
	ck_assert_int_eq(fi_send(p.s[1].ep, tx, sizeof(tx), NULL,
				 p.s[1].peer, (void *)0x3), 0);
	ck_assert(!ep1->doorbell_pending);	/* the send rang both */
	ck_assert_int_eq(fi_send(p.s[0].ep, tx, sizeof(tx), NULL,
				 p.s[0].peer, (void *)0x4), 0);
	do	/* side 1's own send (0x3) may complete first */
		ck_assert_int_eq(wait_comp(&p, 1, &e, NULL, &err), 1);
	while (e.op_context == (void *)0x3);
	ck_assert_ptr_eq(e.op_context, (void *)0x1);
	ck_assert_uint_eq(rx[0], 0x3c);
	pair_close(&p);

	pair_open_fmt(&p, FI_EP_RDM, FI_PROGRESS_AUTO, FI_CQ_FORMAT_TAGGED,
		      0);
	ep1 = uet_container_of(p.s[1].ep, struct uet_ep, fid);
	ck_assert_int_eq(fi_recv(p.s[1].ep, rx, sizeof(rx), NULL,
				 FI_ADDR_UNSPEC, (void *)0x1), 0);
	ck_assert(!ep1->doorbell_pending);
	pair_close(&p);
}
END_TEST

static Suite *prov_suite(void)
{
	Suite *s = suite_create("prov");
	TCase *tc = tcase_create("objects");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_fid_open_close);
	tcase_add_test(tc, test_av_ops);
	tcase_add_test(tc, test_src_cached);
	tcase_add_test(tc, test_mr);
	tcase_add_test(tc, test_bad_args);
	tcase_add_test(tc, test_ep_options);
	suite_add_tcase(s, tc);
	tc = tcase_create("data");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_send_recv_sizes);
	tcase_add_test(tc, test_pingpong_both_ways);
	tcase_add_test(tc, test_unexpected_large);
	tcase_add_test(tc, test_tagged_ignore_directed_data);
	tcase_add_test(tc, test_truncation);
	tcase_add_test(tc, test_cancel);
	tcase_add_test(tc, test_peek_claim_discard);
	tcase_add_test(tc, test_multi_recv);
	tcase_add_test(tc, test_inject_selective_counters);
	tcase_add_test(tc, test_cq_overflow_and_formats);
	tcase_add_test(tc, test_dgram);
	tcase_add_test(tc, test_sizes_above_4g);
	tcase_add_test(tc, test_cq_data_paths);
	tcase_add_test(tc, test_auto_progress_sread);
	tcase_add_test(tc, test_unreachable_peer);
	tcase_add_test(tc, test_contexts_are_posted);
	tcase_add_test(tc, test_dead_peer_fails_fast);
	tcase_add_test(tc, test_no_route_fails_at_once);
	tcase_add_test(tc, test_many_posted_receives);
	tcase_add_test(tc, test_send_held);
	tcase_add_test(tc, test_close_delivers_held);
	tcase_add_test(tc, test_recv_rides_next_doorbell);
	tcase_add_test(tc, test_standby_answers_idle_side);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(prov_suite)
