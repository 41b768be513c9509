/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The peer API as libfabric's lnx provider uses it (uet_peer.c):
 * FI_AV_USER_ID (every libfabric generation), and with libfabric
 * headers that have fi_peer.h an imported peer CQ and a peer SRX driven
 * by a small owner written here (posted receives matched by tag, an
 * unexpected queue, the completions it is given).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fi_errno.h>

#include "uet_addr.h"
#include "uet_clock.h"
#include "uet_info.h"
#include "uet_peer.h"
#include "uet_prov.h"
#include "uet_test.h"
#include "prov_test.h"

#define API		FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION)
#define WAIT_MS		10000

struct side {
	struct fid_domain *dom;
	struct fid_ep *ep;
	struct fid_cq *cq;
	struct fid_av *av;
	fi_addr_t peer;
};

struct pair {
	struct fi_info *info;
	struct fid_fabric *fab;
	struct side s[2];
};

static void side_objs(struct pair *p, int i, uint64_t cq_flags,
		      void *cq_ctx)
{
	struct side *s = &p->s[i];
	struct fi_cq_attr cqa = { .format = FI_CQ_FORMAT_TAGGED,
				  .flags = cq_flags };
	struct fi_av_attr ava = { .type = FI_AV_TABLE };

	ck_assert_int_eq(fi_domain(p->fab, p->info, &s->dom, NULL), 0);
	ck_assert_int_eq(fi_cq_open(s->dom, &cqa, &s->cq, cq_ctx), 0);
	ck_assert_int_eq(fi_av_open(s->dom, &ava, &s->av, NULL), 0);
	ck_assert_int_eq(fi_endpoint(s->dom, p->info, &s->ep, NULL), 0);
	ck_assert_int_eq(fi_ep_bind(s->ep, &s->cq->fid,
				    FI_TRANSMIT | FI_RECV), 0);
	ck_assert_int_eq(fi_ep_bind(s->ep, &s->av->fid, 0), 0);
}

static void pair_init(struct pair *p, uint64_t caps)
{
	memset(p, 0, sizeof(*p));
	p->info = uet_test_info(API, &(struct uet_test_hints){
		.caps = FI_MSG | FI_TAGGED | FI_SOURCE | caps });
	ck_assert(p->info->domain_attr->caps & FI_AV_USER_ID);
	ck_assert_int_eq(uet_fabric(p->info->fabric_attr, &p->fab, NULL), 0);
}

/* Side 0 knows side 1 plainly; side 1 inserts side 0 with user id uid. */
static void pair_connect(struct pair *p, fi_addr_t uid)
{
	uint8_t name[2][64];
	size_t len;
	int i;

	for (i = 0; i < 2; i++) {
		len = sizeof(name[i]);
		ck_assert_int_eq(fi_getname(&p->s[i].ep->fid, name[i], &len),
				 0);
	}
	ck_assert_int_eq(fi_av_insert(p->s[0].av, name[1], 1, &p->s[0].peer,
				      0, NULL), 1);
	/* FI_AV_USER_ID needs the array: it holds the ids */
	ck_assert_int_eq(fi_av_insert(p->s[1].av, name[0], 1, NULL,
				      FI_AV_USER_ID, NULL), -FI_EINVAL);
	p->s[1].peer = uid;
	ck_assert_int_eq(fi_av_insert(p->s[1].av, name[0], 1, &p->s[1].peer,
				      FI_AV_USER_ID, NULL), 1);
	/* the fi_addr_t to send with comes back in its place */
	ck_assert_uint_ne(p->s[1].peer, uid);
}

static void pair_close(struct pair *p)
{
	int i;

	for (i = 0; i < 2; i++) {
		struct side *s = &p->s[i];

		ck_assert_int_eq(fi_close(&s->ep->fid), 0);
		ck_assert_int_eq(fi_close(&s->av->fid), 0);
		ck_assert_int_eq(fi_close(&s->cq->fid), 0);
		ck_assert_int_eq(fi_close(&s->dom->fid), 0);
	}
	ck_assert_int_eq(fi_close(&p->fab->fid), 0);
	fi_freeinfo(p->info);
}

/* FI_AV_USER_ID: a receive reports the id given at insertion as its
 * source; sends use the fi_addr_t returned. */
START_TEST(test_av_user_id)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	const fi_addr_t uid = 0xabc0de;
	char buf[16] = "hello", in[16];
	fi_addr_t src;
	struct pair p;
	int i;

	pair_init(&p, 0);
	for (i = 0; i < 2; i++) {
		side_objs(&p, i, 0, NULL);
		ck_assert_int_eq(fi_enable(p.s[i].ep), 0);
	}
	pair_connect(&p, uid);
	ck_assert_int_eq(fi_recv(p.s[1].ep, in, sizeof(in), NULL,
				 FI_ADDR_UNSPEC, (void *)1), 0);
	ck_assert_int_eq(fi_send(p.s[0].ep, buf, 6, NULL, p.s[0].peer,
				 (void *)2), 0);
	ck_assert_int_eq(uet_test_cq_wait(p.s[1].cq, p.s[0].cq, WAIT_MS, &e,
					  &src, &err), 1);
	ck_assert_ptr_eq(e.op_context, (void *)1);
	ck_assert_uint_eq(src, uid);
	ck_assert_str_eq(in, "hello");
	/* and back, with the fi_addr_t the insert returned */
	ck_assert_int_eq(fi_recv(p.s[0].ep, in, sizeof(in), NULL,
				 FI_ADDR_UNSPEC, (void *)3), 0);
	ck_assert_int_eq(fi_send(p.s[1].ep, "back", 5, NULL, p.s[1].peer,
				 (void *)4), 0);
	for (;;) {
		ck_assert_int_eq(uet_test_cq_wait(p.s[0].cq, p.s[1].cq,
						  WAIT_MS, &e, NULL, &err), 1);
		if (e.op_context == (void *)3)
			break;
	}
	ck_assert_str_eq(in, "back");
	pair_close(&p);
}
END_TEST

/* fi_domain2 / fi_endpoint2: flags 0 as fi_domain / fi_endpoint;
 * FI_PEER with the owner's domain context (fi_peer.h); others refused. */
START_TEST(test_domain2_endpoint2)
{
	struct fid_domain *dom;
	struct fid_ep *ep;
	struct pair p;

	pair_init(&p, 0);
	ck_assert_int_eq(fi_domain2(p.fab, p.info, &dom, 0, NULL), 0);
	ck_assert_int_eq(fi_endpoint2(dom, p.info, &ep, 0, NULL), 0);
	ck_assert_int_eq(fi_close(&ep->fid), 0);
	ck_assert_int_eq(fi_endpoint2(dom, p.info, &ep, FI_PEER, NULL), 0);
	ck_assert_int_eq(fi_close(&ep->fid), 0);
	ck_assert_int_eq(fi_endpoint2(dom, p.info, &ep, FI_MORE, NULL),
			 -FI_EINVAL);
	ck_assert_int_eq(fi_domain2(p.fab, p.info, &p.s[0].dom, FI_MORE,
				    NULL), -FI_EINVAL);
#if UET_HAVE_PEER
	{
		struct fi_peer_domain_context pc = { .size = sizeof(pc),
						     .domain = dom };
		struct fid_domain *peer;

		ck_assert_int_eq(fi_domain2(p.fab, p.info, &peer, FI_PEER,
					    NULL), -FI_EINVAL);
		ck_assert_int_eq(fi_domain2(p.fab, p.info, &peer, FI_PEER,
					    &pc), 0);
		ck_assert_int_eq(fi_close(&peer->fid), 0);
	}
#else
	ck_assert_int_eq(fi_domain2(p.fab, p.info, &p.s[0].dom, FI_PEER,
				    NULL), -FI_EINVAL);
#endif
	ck_assert_int_eq(fi_close(&dom->fid), 0);
	ck_assert_int_eq(fi_close(&p.fab->fid), 0);
	fi_freeinfo(p.info);
}
END_TEST

#if UET_HAVE_PEER

/* ---- a small owner: the CQ and receive queue lnx would be ---- */

#define OWN_MAX	1700
#define OWN_PARTS	4

struct own_entry {
	struct fi_peer_rx_entry e;
	struct iovec iov;
	struct iovec part[OWN_PARTS];	/* a scattered receive's */
	bool posted;		/* a receive, not an unexpected message */
	bool used;
};

struct owner {
	struct fid_peer_cq cq;
	struct fi_ops_cq_owner cq_ops;
	struct fid_peer_srx srx;
	struct fi_ops_srx_owner srx_ops;
	struct own_entry ent[OWN_MAX];
	struct fi_cq_tagged_entry comp[OWN_MAX];
	fi_addr_t comp_src[OWN_MAX];
	int ncomp, nerr, nfree, nqueued;
	struct fi_peer_rx_entry *queued[OWN_MAX];
};

static struct owner *own_of_cq(struct fid_peer_cq *cq)
{
	return uet_container_of(cq, struct owner, cq);
}

static struct owner *own_of_srx(struct fid_peer_srx *srx)
{
	return uet_container_of(srx, struct owner, srx);
}

static ssize_t own_write(struct fid_peer_cq *cq, void *context,
			 uint64_t flags, size_t len, void *buf, uint64_t data,
			 uint64_t tag, fi_addr_t src)
{
	struct owner *o = own_of_cq(cq);
	struct fi_cq_tagged_entry *c;

	if (o->ncomp == OWN_MAX)
		return -FI_EAGAIN;
	c = &o->comp[o->ncomp];
	c->op_context = context;
	c->flags = flags;
	c->len = len;
	c->buf = buf;
	c->data = data;
	c->tag = tag;
	o->comp_src[o->ncomp++] = src;
	return 0;
}

static ssize_t own_writeerr(struct fid_peer_cq *cq,
			    const struct fi_cq_err_entry *err)
{
	own_of_cq(cq)->nerr++;
	return 0;
}

static struct own_entry *own_alloc(struct owner *o)
{
	int i;

	for (i = 0; i < OWN_MAX; i++)
		if (!o->ent[i].used) {
			memset(&o->ent[i], 0, sizeof(o->ent[i]));
			o->ent[i].used = true;
			o->ent[i].e.srx = &o->srx;
			return &o->ent[i];
		}
	return NULL;
}

/* A posted receive of tag (or untagged: tag ignored). */
static void own_post(struct owner *o, void *buf, size_t len, uint64_t tag,
		     void *ctx)
{
	struct own_entry *x = own_alloc(o);

	ck_assert_ptr_nonnull(x);
	x->posted = true;
	x->iov.iov_base = buf;
	x->iov.iov_len = len;
	x->e.iov = &x->iov;
	x->e.count = 1;
	x->e.tag = tag;
	x->e.context = ctx;
	x->e.flags = FI_RECV | FI_TAGGED;
}

static int own_get(struct fid_peer_srx *srx, struct fi_peer_match_attr *a,
		   struct fi_peer_rx_entry **entry, bool tagged)
{
	struct owner *o = own_of_srx(srx);
	struct own_entry *x;
	int i;

	for (i = 0; i < OWN_MAX; i++) {
		x = &o->ent[i];
		if (x->used && x->posted &&
		    (!tagged || x->e.tag == a->tag)) {
			x->posted = false;
			x->e.addr = a->addr;
			*entry = &x->e;
			return 0;
		}
	}
	x = own_alloc(o);
	if (!x)
		return -FI_ENOMEM;
	x->e.addr = a->addr;
	x->e.tag = a->tag;
	x->e.flags = FI_RECV | (tagged ? FI_TAGGED : FI_MSG);
	*entry = &x->e;
	return -FI_ENOENT;
}

static int own_get_tag(struct fid_peer_srx *srx,
		       struct fi_peer_match_attr *a,
		       struct fi_peer_rx_entry **entry)
{
	return own_get(srx, a, entry, true);
}

static int own_get_msg(struct fid_peer_srx *srx,
		       struct fi_peer_match_attr *a,
		       struct fi_peer_rx_entry **entry)
{
	return own_get(srx, a, entry, false);
}

static int own_queue(struct fi_peer_rx_entry *entry)
{
	struct owner *o = own_of_srx(entry->srx);

	o->queued[o->nqueued++] = entry;
	return 0;
}

static void own_free(struct fi_peer_rx_entry *entry)
{
	struct owner *o = own_of_srx(entry->srx);
	struct own_entry *x = uet_container_of(entry, struct own_entry, e);

	x->used = false;
	o->nfree++;
}

static void owner_init(struct owner *o)
{
	memset(o, 0, sizeof(*o));
	o->cq_ops.size = sizeof(o->cq_ops);
	o->cq_ops.write = own_write;
	o->cq_ops.writeerr = own_writeerr;
	o->cq.owner_ops = &o->cq_ops;
	o->srx_ops.size = sizeof(o->srx_ops);
	o->srx_ops.get_tag = own_get_tag;
	o->srx_ops.get_msg = own_get_msg;
	o->srx_ops.queue_tag = own_queue;
	o->srx_ops.queue_msg = own_queue;
	o->srx_ops.free_entry = own_free;
	o->srx.owner_ops = &o->srx_ops;
}

/* Progress both sides (side 1's CQ is the peer one: reading it with no
 * buffer progresses) until cond or the deadline. */
#define WAIT_UNTIL(p, cond)	WAIT_UNTIL_MS(p, WAIT_MS, cond)
#define WAIT_UNTIL_MS(p, ms, cond)					\
	do {								\
		uint64_t end_ = uet_clock_now_ns() +			\
				(uint64_t)(ms) * UET_NSEC_PER_MSEC;	\
		struct fi_cq_tagged_entry e_;				\
		while (!(cond)) {					\
			ck_assert_msg(uet_clock_now_ns() < end_,	\
				      "timed out: " #cond);		\
			(void)fi_cq_read((p)->s[0].cq, &e_, 1);		\
			(void)fi_cq_read((p)->s[1].cq, NULL, 0);	\
		}							\
	} while (0)

/* Side 1 as lnx opens a core endpoint: a peer CQ (o's), a peer SRX
 * bound to the endpoint; both sides enabled and connected (uid). */
static void peer_pair_open(struct pair *p, struct owner *o,
			   struct fid_ep **srx, fi_addr_t uid)
{
	struct fi_peer_cq_context cqc = { .size = sizeof(cqc) };
	struct fi_peer_srx_context srxc = { .size = sizeof(srxc) };
	struct fi_rx_attr rxa = { .op_flags = FI_PEER };

	owner_init(o);
	cqc.cq = &o->cq;
	srxc.srx = &o->srx;
	pair_init(p, FI_PEER | FI_AV_USER_ID);
	side_objs(p, 0, 0, NULL);
	side_objs(p, 1, FI_PEER, &cqc);
	ck_assert_int_eq(fi_srx_context(p->s[1].dom, &rxa, srx, &srxc), 0);
	ck_assert_int_eq(fi_ep_bind(p->s[1].ep, &(*srx)->fid, 0), 0);
	ck_assert_int_eq(fi_enable(p->s[0].ep), 0);
	ck_assert_int_eq(fi_enable(p->s[1].ep), 0);
	pair_connect(p, uid);
}

/* Everything but the endpoint and the SRX of side 1. */
static void peer_pair_close_rest(struct pair *p)
{
	ck_assert_int_eq(fi_close(&p->s[0].ep->fid), 0);
	ck_assert_int_eq(fi_close(&p->s[0].av->fid), 0);
	ck_assert_int_eq(fi_close(&p->s[1].av->fid), 0);
	ck_assert_int_eq(fi_close(&p->s[0].cq->fid), 0);
	ck_assert_int_eq(fi_close(&p->s[1].cq->fid), 0);
	ck_assert_int_eq(fi_close(&p->s[0].dom->fid), 0);
	ck_assert_int_eq(fi_close(&p->s[1].dom->fid), 0);
	ck_assert_int_eq(fi_close(&p->fab->fid), 0);
	fi_freeinfo(p->info);
}

/* A peer CQ and a peer SRX: an expected message lands in the owner's
 * posted buffer, an unexpected one is queued with the owner and lands
 * when the owner starts it, a discarded one never lands; every
 * completion goes to the owner's CQ with the user id as source. */
START_TEST(test_peer_srx)
{
	struct fi_peer_cq_context cqc = { .size = sizeof(cqc) };
	struct fi_peer_srx_context srxc = { .size = sizeof(srxc) };
	struct fi_rx_attr rxa = { .op_flags = FI_PEER };
	struct fid_ep *srx, *srx2;
	struct fid_cq *bad;
	const fi_addr_t uid = 0x5150;
	char a[32] = "", b[32] = "", c[32] = "";
	struct fi_peer_rx_entry *q;
	struct owner *o;
	struct pair p;
	int n;

	o = calloc(1, sizeof(*o));
	ck_assert_ptr_nonnull(o);
	owner_init(o);
	cqc.cq = &o->cq;
	srxc.srx = &o->srx;
	/* what lnx asks of its core providers */
	pair_init(&p, FI_PEER | FI_AV_USER_ID);
	ck_assert(p.info->caps & FI_PEER);
	side_objs(&p, 0, 0, NULL);
	side_objs(&p, 1, FI_PEER, &cqc);
	/* FI_PEER needs the owner's CQ */
	ck_assert_int_eq(fi_cq_open(p.s[1].dom, &(struct fi_cq_attr){
				    .flags = FI_PEER }, &bad, NULL),
			 -FI_EINVAL);
	/* no shared receive context of uet's own */
	ck_assert_int_eq(fi_srx_context(p.s[1].dom, &(struct fi_rx_attr){ 0 },
					&srx2, NULL), -FI_ENOSYS);
	ck_assert_int_eq(fi_srx_context(p.s[1].dom, &rxa, &srx, &srxc), 0);
	ck_assert_ptr_nonnull(o->srx.peer_ops);
	ck_assert_int_eq(fi_ep_bind(p.s[1].ep, &srx->fid, 0), 0);
	ck_assert_int_eq(fi_close(&srx->fid), -FI_EBUSY);
	ck_assert_int_eq(fi_enable(p.s[0].ep), 0);
	ck_assert_int_eq(fi_enable(p.s[1].ep), 0);
	pair_connect(&p, uid);

	/* expected: the owner has a receive for tag 5 */
	own_post(o, a, sizeof(a), 5, (void *)0x5);
	ck_assert_int_eq(fi_tsenddata(p.s[0].ep, "expected", 9, NULL, 77,
				      p.s[0].peer, 5, (void *)0x10), 0);
	WAIT_UNTIL(&p, o->ncomp >= 1);
	ck_assert_ptr_eq(o->comp[0].op_context, (void *)0x5);
	ck_assert_uint_eq(o->comp[0].flags,
			  FI_RECV | FI_TAGGED | FI_REMOTE_CQ_DATA);
	ck_assert_uint_eq(o->comp[0].len, 9);
	ck_assert_uint_eq(o->comp[0].tag, 5);
	ck_assert_uint_eq(o->comp[0].data, 77);
	ck_assert_uint_eq(o->comp_src[0], uid);
	ck_assert_str_eq(a, "expected");
	ck_assert_int_eq(o->nfree, 1);

	/* unexpected: queued with the owner, lands once started */
	ck_assert_int_eq(fi_tsend(p.s[0].ep, "unexpected", 11, NULL,
				  p.s[0].peer, 7, (void *)0x11), 0);
	WAIT_UNTIL(&p, o->nqueued >= 1);
	q = o->queued[0];
	ck_assert_uint_eq(q->tag, 7);
	ck_assert_uint_eq(q->msg_size, 11);
	ck_assert_uint_eq(q->addr, uid);
	ck_assert_int_eq(o->ncomp, 1);
	{
		struct own_entry *x = uet_container_of(q, struct own_entry, e);

		x->iov.iov_base = b;
		x->iov.iov_len = sizeof(b);
		q->iov = &x->iov;
		q->count = 1;
		q->context = (void *)0x7;
	}
	ck_assert_int_eq(o->srx.peer_ops->start_tag(q), 0);
	WAIT_UNTIL(&p, o->ncomp >= 2);
	ck_assert_ptr_eq(o->comp[1].op_context, (void *)0x7);
	ck_assert_uint_eq(o->comp[1].len, 11);
	ck_assert_uint_eq(o->comp[1].tag, 7);
	ck_assert_str_eq(b, "unexpected");
	ck_assert_int_eq(o->nfree, 2);

	/* discarded: queued, then dropped; the owner frees it itself */
	ck_assert_int_eq(fi_tsend(p.s[0].ep, "discarded", 10, NULL,
				  p.s[0].peer, 9, (void *)0x12), 0);
	WAIT_UNTIL(&p, o->nqueued >= 2);
	q = o->queued[1];
	ck_assert_uint_eq(q->tag, 9);
	ck_assert_int_eq(o->srx.peer_ops->discard_tag(q), 0);
	own_free(q);
	/* then one more expected message still arrives in order */
	own_post(o, c, sizeof(c), 11, (void *)0xb);
	ck_assert_int_eq(fi_tsend(p.s[0].ep, "after", 6, NULL, p.s[0].peer,
				  11, (void *)0x13), 0);
	WAIT_UNTIL(&p, o->ncomp >= 3);
	ck_assert_ptr_eq(o->comp[2].op_context, (void *)0xb);
	ck_assert_str_eq(c, "after");
	n = o->ncomp;
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(o->nerr, 0);

	/* the sender's completions were ordinary */
	ck_assert_int_eq(fi_close(&p.s[1].ep->fid), 0);
	ck_assert_int_eq(fi_close(&srx->fid), 0);
	peer_pair_close_rest(&p);
	ck_assert_int_eq(uet_peer_msgs_live(), 0);
	free(o);
}
END_TEST

/* Messages still queued with the owner when the endpoint closes (lnx
 * closes its core endpoint and SRX without discarding its unexpected
 * queue): start then fails, discard frees the record, and the SRX's
 * close frees the records left. */
START_TEST(test_peer_close_queued)
{
	struct fi_peer_rx_entry *q[3];
	struct fid_ep *srx;
	struct owner *o;
	struct pair p;
	int i;

	o = calloc(1, sizeof(*o));
	ck_assert_ptr_nonnull(o);
	peer_pair_open(&p, o, &srx, 0x77);
	ck_assert_int_eq(uet_peer_msgs_live(), 0);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(fi_tsend(p.s[0].ep, "queued", 7, NULL,
					  p.s[0].peer, 20 + i, NULL), 0);
	WAIT_UNTIL(&p, o->nqueued >= 3);
	for (i = 0; i < 3; i++) {
		q[i] = o->queued[i];
		ck_assert_uint_eq(q[i]->tag, 20 + i);
	}
	ck_assert_int_eq(uet_peer_msgs_live(), 3);
	ck_assert_int_eq(fi_close(&p.s[1].ep->fid), 0);
	/* the records outlive the endpoint, not its use */
	ck_assert_int_eq(uet_peer_msgs_live(), 3);
	ck_assert_int_eq(o->srx.peer_ops->start_tag(q[0]), -FI_EINVAL);
	ck_assert_int_eq(o->srx.peer_ops->discard_tag(q[1]), 0);
	ck_assert_ptr_null(q[1]->peer_context);
	ck_assert_int_eq(uet_peer_msgs_live(), 2);
	ck_assert_int_eq(fi_close(&srx->fid), 0);
	ck_assert_int_eq(uet_peer_msgs_live(), 0);
	peer_pair_close_rest(&p);
	ck_assert_int_eq(o->ncomp, 0);
	free(o);
}
END_TEST

/* More unexpected messages than the command ring holds CLAIM receives
 * for: each start is a CLAIM receive into OWN_PARTS iovs (an extension
 * and OWN_PARTS - 1 SGL entries, the first in the segment: 3 of the
 * ring's UET_EP_CMDQ_DEPTH
 * slots), and with manual progress the doorbell waits for the next
 * progress, so starting RING_NMSG at once overflows the ring. */
#define RING_NMSG	1600
#define RING_NSTART	1500	/* the rest are discarded */
#define RING_LEN	16
/* thousands of messages: room for valgrind (CK_FORK=no, no timeout) */
#define RING_WAIT_MS	120000

/* Send RING_NMSG tagged messages (tag i, "ring %05d") and wait until
 * the owner has queued every one. */
static void ring_fill_owner(struct pair *p, struct owner *o)
{
	char msg[RING_LEN];
	uint64_t end;
	ssize_t ret;
	int i;

	for (i = 0; i < RING_NMSG; i++) {
		memset(msg, 0, sizeof(msg));
		snprintf(msg, sizeof(msg), "ring %05d", i);
		end = uet_clock_now_ns() +
		      (uint64_t)RING_WAIT_MS * UET_NSEC_PER_MSEC;
		for (;;) {
			struct fi_cq_tagged_entry e;

			ret = fi_tsend(p->s[0].ep, msg, sizeof(msg), NULL,
				       p->s[0].peer, (uint64_t)i, NULL);
			if (ret != -FI_EAGAIN)
				break;
			ck_assert(uet_clock_now_ns() < end);
			(void)fi_cq_read(p->s[0].cq, &e, 1);
			(void)fi_cq_read(p->s[1].cq, NULL, 0);
		}
		ck_assert_int_eq(ret, 0);
	}
	WAIT_UNTIL_MS(p, RING_WAIT_MS, o->nqueued >= RING_NMSG);
}

/* Point queued entry q at buf in OWN_PARTS pieces. */
static void ring_scatter(struct fi_peer_rx_entry *q, char *buf)
{
	struct own_entry *x = uet_container_of(q, struct own_entry, e);
	int k;

	for (k = 0; k < OWN_PARTS; k++) {
		x->part[k].iov_base = buf + k * (RING_LEN / OWN_PARTS);
		x->part[k].iov_len = RING_LEN / OWN_PARTS;
	}
	q->iov = x->part;
	q->count = OWN_PARTS;
	q->context = (void *)(uintptr_t)(q->tag + 1);
}

static bool ring_srx_queued(struct fid_ep *srx)
{
	struct uet_srx *u = uet_container_of(srx, struct uet_srx, fid);

	return !uet_dlist_empty(&u->pending);
}

/* Starts and discards that find the command ring full are queued, not
 * failed (lnx 2.6 only warns about a failed start: the message would be
 * lost): every one returns 0, and after progress every started message
 * lands whole, in its own buffer, and every discarded one is gone. */
START_TEST(test_peer_start_ring_full)
{
	char (*bufs)[RING_LEN], want[RING_LEN];
	struct fid_ep *srx;
	struct owner *o;
	struct pair p;
	bool queued = false;
	int i, n;

	o = calloc(1, sizeof(*o));
	bufs = calloc(RING_NMSG, sizeof(*bufs));
	ck_assert_ptr_nonnull(o);
	ck_assert_ptr_nonnull(bufs);
	peer_pair_open(&p, o, &srx, 0x99);
	ring_fill_owner(&p, o);
	ck_assert_int_eq(o->ncomp, 0);
	for (i = 0; i < RING_NMSG; i++) {
		struct fi_peer_rx_entry *q = o->queued[i];

		ck_assert_uint_eq(q->tag, i);
		if (i < RING_NSTART) {
			ring_scatter(q, bufs[q->tag]);
			ck_assert_int_eq(o->srx.peer_ops->start_tag(q), 0);
		} else {
			ck_assert_int_eq(o->srx.peer_ops->discard_tag(q), 0);
			own_free(q);	/* as lnx: right after the discard */
		}
		queued |= ring_srx_queued(srx);
	}
	/* the ring did overflow: some waited for progress */
	ck_assert(queued);
	WAIT_UNTIL_MS(&p, RING_WAIT_MS, o->ncomp >= RING_NSTART &&
		      uet_peer_msgs_live() == 0);
	ck_assert_int_eq(o->ncomp, RING_NSTART);
	ck_assert_int_eq(o->nerr, 0);
	ck_assert_int_eq(o->nfree, RING_NMSG);
	for (n = 0; n < RING_NSTART; n++) {
		uint64_t tag = o->comp[n].tag;

		ck_assert_uint_lt(tag, RING_NSTART);
		ck_assert_ptr_eq(o->comp[n].op_context,
				 (void *)(uintptr_t)(tag + 1));
		ck_assert_uint_eq(o->comp[n].len, RING_LEN);
	}
	for (i = 0; i < RING_NMSG; i++) {
		memset(want, 0, sizeof(want));
		if (i < RING_NSTART)
			snprintf(want, sizeof(want), "ring %05d", i);
		ck_assert_mem_eq(bufs[i], want, RING_LEN);
	}
	ck_assert_int_eq(fi_close(&p.s[1].ep->fid), 0);
	ck_assert_int_eq(fi_close(&srx->fid), 0);
	peer_pair_close_rest(&p);
	ck_assert_int_eq(uet_peer_msgs_live(), 0);
	free(bufs);
	free(o);
}
END_TEST

/* Closing the endpoint while starts wait for room: nothing posted after
 * the close, no completion, every record freed by the SRX's close. */
START_TEST(test_peer_close_start_queued)
{
	char (*bufs)[RING_LEN];
	struct fid_ep *srx;
	struct owner *o;
	struct pair p;
	long live;
	int i;

	o = calloc(1, sizeof(*o));
	bufs = calloc(RING_NMSG, sizeof(*bufs));
	ck_assert_ptr_nonnull(o);
	ck_assert_ptr_nonnull(bufs);
	peer_pair_open(&p, o, &srx, 0x98);
	ring_fill_owner(&p, o);
	/* start until one waits for room (the next start would post it) */
	for (i = 0; i < RING_NMSG && !ring_srx_queued(srx); i++) {
		ring_scatter(o->queued[i], bufs[i]);
		ck_assert_int_eq(o->srx.peer_ops->start_tag(o->queued[i]), 0);
	}
	ck_assert(ring_srx_queued(srx));
	/* some of the first may have completed in a full ring's progress */
	live = uet_peer_msgs_live();
	ck_assert_int_gt(live, 0);
	ck_assert_int_eq(fi_close(&p.s[1].ep->fid), 0);
	ck_assert(!ring_srx_queued(srx));
	ck_assert_int_eq(uet_peer_msgs_live(), live);
	ck_assert_int_eq(o->ncomp + live, RING_NMSG);	/* started or not */
	ck_assert_int_eq(fi_close(&srx->fid), 0);
	ck_assert_int_eq(uet_peer_msgs_live(), 0);
	peer_pair_close_rest(&p);
	ck_assert_int_eq(o->nerr, 0);
	free(bufs);
	free(o);
}
END_TEST

/* What lnx needs of the infos it gets for FI_PEER: no auth_key (lnx
 * refuses any auth_key_size but its own), iov limits of at most 4, and
 * its own address format in the hints ignored. */
START_TEST(test_peer_info)
{
	struct fi_info *hints, *info, *cur;
	char foreign[600];
	struct uet_addr a;

	hints = fi_allocinfo();
	ck_assert_ptr_nonnull(hints);
	hints->caps = FI_TAGGED | FI_PEER | FI_AV_USER_ID;
	hints->ep_attr->type = FI_EP_RDM;
	hints->fabric_attr->prov_name = strdup("uet");
	setenv("FI_UET_IFACE", "lo", 1);
	ck_assert_int_eq(uet_getinfo(API, NULL, NULL, 0, hints, &info), 0);
	for (cur = info; cur; cur = cur->next) {
		ck_assert(cur->caps & FI_PEER);
		ck_assert_uint_eq(cur->domain_attr->auth_key_size, 0);
		ck_assert_ptr_null(cur->domain_attr->auth_key);
		ck_assert_uint_eq(cur->ep_attr->auth_key_size, 0);
		ck_assert_uint_le(cur->tx_attr->iov_limit, 4);
		ck_assert_uint_le(cur->rx_attr->iov_limit, 4);
		/* text addresses, the format shm takes too */
		ck_assert_uint_eq(cur->addr_format, FI_ADDR_STR);
		ck_assert_int_eq(uet_addr_from_text(&a, cur->src_addr,
						    cur->src_addrlen), 0);
	}
	fi_freeinfo(info);
	/* as fi_pingpong's client over lnx asks: lnx's format (text) and
	 * lnx's address of the server */
	hints->addr_format = FI_ADDR_STR;
	memset(foreign, 'y', sizeof(foreign));
	hints->dest_addr = malloc(sizeof(foreign));
	ck_assert_ptr_nonnull(hints->dest_addr);
	memcpy(hints->dest_addr, foreign, sizeof(foreign));
	hints->dest_addrlen = sizeof(foreign);
	ck_assert_int_eq(uet_getinfo(API, NULL, NULL, 0, hints, &info), 0);
	ck_assert_uint_eq(info->addr_format, FI_ADDR_STR);
	fi_freeinfo(info);
	free(hints->dest_addr);
	hints->dest_addr = NULL;
	hints->dest_addrlen = 0;
	/* a sockaddr format asked for is kept */
	hints->addr_format = FI_SOCKADDR_IN;
	ck_assert_int_eq(uet_getinfo(API, NULL, NULL, 0, hints, &info), 0);
	ck_assert_uint_eq(info->addr_format, FI_SOCKADDR_IN);
	fi_freeinfo(info);
	hints->addr_format = FI_FORMAT_UNSPEC;
	/* an address of the owner's format (lnx: host name and its core
	 * addresses) */
	memset(foreign, 'x', sizeof(foreign));
	hints->dest_addr = malloc(sizeof(foreign));
	ck_assert_ptr_nonnull(hints->dest_addr);
	memcpy(hints->dest_addr, foreign, sizeof(foreign));
	hints->dest_addrlen = sizeof(foreign);
	ck_assert_int_eq(uet_getinfo(API, NULL, NULL, 0, hints, &info), 0);
	fi_freeinfo(info);
	/* without FI_PEER such an address is refused */
	hints->caps = FI_TAGGED;
	ck_assert_int_eq(uet_getinfo(API, NULL, NULL, 0, hints, &info),
			 -FI_ENODATA);
	fi_freeinfo(hints);
}
END_TEST

#endif /* UET_HAVE_PEER */

static Suite *prov_peer_suite(void)
{
	Suite *s = suite_create("prov_peer");
	TCase *tc = tcase_create("peer");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_av_user_id);
	tcase_add_test(tc, test_domain2_endpoint2);
#if UET_HAVE_PEER
	tcase_add_test(tc, test_peer_srx);
	tcase_add_test(tc, test_peer_close_queued);
	tcase_add_test(tc, test_peer_start_ring_full);
	tcase_add_test(tc, test_peer_close_start_queued);
	tcase_add_test(tc, test_peer_info);
#endif
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(prov_peer_suite)
