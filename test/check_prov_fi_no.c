/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * util/uet_fi_no: "not supported" ops-table slots.
 *
 * Every stub is placed in a real libfabric ops table with a designated
 * initialiser (a signature mismatch is a compile error under -Werror),
 * then called through libfabric's public inline wrapper on a fake fid
 * where one exists, and directly through the table slot (a wrapper that
 * checks FI_CHECK_OP would also return -FI_ENOSYS for an empty slot, so
 * the direct call is what proves the stub is there).
 */
#include "config.h"

#include <string.h>

#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_collective.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <rdma/fi_tagged.h>

#include "uet_fi_no.h"
#include "uet_test.h"

#define ENOSYS_	(-FI_ENOSYS)

static struct fi_ops fid_ops = {
	.size = sizeof(struct fi_ops),
	.close = NULL,			/* every real fid implements close */
	.bind = uet_no_bind,
	.control = uet_no_control,
	.ops_open = uet_no_ops_open,
	.tostr = uet_no_tostr,
	.ops_set = uet_no_ops_set,
};

static struct fi_ops_fabric fabric_ops = {
	.size = sizeof(struct fi_ops_fabric),
	.domain = NULL,
	.passive_ep = uet_no_passive_ep,
	.eq_open = uet_no_eq_open,
	.wait_open = uet_no_wait_open,
	.trywait = uet_no_trywait,
	.domain2 = uet_no_domain2,
};

static struct fi_ops_domain domain_ops = {
	.size = sizeof(struct fi_ops_domain),
	.av_open = uet_no_av_open,
	.cq_open = uet_no_cq_open,
	.endpoint = uet_no_endpoint,
	.scalable_ep = uet_no_scalable_ep,
	.cntr_open = uet_no_cntr_open,
	.poll_open = uet_no_poll_open,
	.stx_ctx = uet_no_stx_ctx,
	.srx_ctx = uet_no_srx_ctx,
	.query_atomic = uet_no_query_atomic,
	.query_collective = uet_no_query_collective,
	.endpoint2 = uet_no_endpoint2,
};

static struct fi_ops_mr mr_ops = {
	.size = sizeof(struct fi_ops_mr),
	.reg = uet_no_mr_reg,
	.regv = uet_no_mr_regv,
	.regattr = uet_no_mr_regattr,
};

static struct fi_ops_av av_ops = {
	.size = sizeof(struct fi_ops_av),
	.insert = uet_no_av_insert,
	.insertsvc = uet_no_av_insertsvc,
	.insertsym = uet_no_av_insertsym,
	.remove = uet_no_av_remove,
	.lookup = uet_no_av_lookup,
	.straddr = uet_no_av_straddr,
	.av_set = uet_no_av_set,
#if UET_FI_VERSION_GE(1, 20)
	.insert_auth_key = uet_no_av_insert_auth_key,
	.lookup_auth_key = uet_no_av_lookup_auth_key,
	.set_user_id = uet_no_av_set_user_id,
#endif
};

static struct fi_ops_ep ep_ops = {
	.size = sizeof(struct fi_ops_ep),
	.cancel = uet_no_cancel,
	.getopt = uet_no_getopt,
	.setopt = uet_no_setopt,
	.tx_ctx = uet_no_tx_ctx,
	.rx_ctx = uet_no_rx_ctx,
	.rx_size_left = uet_no_rx_size_left,
	.tx_size_left = uet_no_tx_size_left,
};

static struct fi_ops_cm cm_ops = {
	.size = sizeof(struct fi_ops_cm),
	.setname = uet_no_setname,
	.getname = uet_no_getname,
	.getpeer = uet_no_getpeer,
	.connect = uet_no_connect,
	.listen = uet_no_listen,
	.accept = uet_no_accept,
	.reject = uet_no_reject,
	.shutdown = uet_no_shutdown,
	.join = uet_no_join,
};

static struct fi_ops_msg msg_ops = {
	.size = sizeof(struct fi_ops_msg),
	.recv = uet_no_msg_recv,
	.recvv = uet_no_msg_recvv,
	.recvmsg = uet_no_msg_recvmsg,
	.send = uet_no_msg_send,
	.sendv = uet_no_msg_sendv,
	.sendmsg = uet_no_msg_sendmsg,
	.inject = uet_no_msg_inject,
	.senddata = uet_no_msg_senddata,
	.injectdata = uet_no_msg_injectdata,
};

static struct fi_ops_tagged tagged_ops = {
	.size = sizeof(struct fi_ops_tagged),
	.recv = uet_no_tagged_recv,
	.recvv = uet_no_tagged_recvv,
	.recvmsg = uet_no_tagged_recvmsg,
	.send = uet_no_tagged_send,
	.sendv = uet_no_tagged_sendv,
	.sendmsg = uet_no_tagged_sendmsg,
	.inject = uet_no_tagged_inject,
	.senddata = uet_no_tagged_senddata,
	.injectdata = uet_no_tagged_injectdata,
};

static struct fi_ops_rma rma_ops = {
	.size = sizeof(struct fi_ops_rma),
	.read = uet_no_rma_read,
	.readv = uet_no_rma_readv,
	.readmsg = uet_no_rma_readmsg,
	.write = uet_no_rma_write,
	.writev = uet_no_rma_writev,
	.writemsg = uet_no_rma_writemsg,
	.inject = uet_no_rma_inject,
	.writedata = uet_no_rma_writedata,
	.injectdata = uet_no_rma_injectdata,
};

static struct fi_ops_atomic atomic_ops = {
	.size = sizeof(struct fi_ops_atomic),
	.write = uet_no_atomic_write,
	.writev = uet_no_atomic_writev,
	.writemsg = uet_no_atomic_writemsg,
	.inject = uet_no_atomic_inject,
	.readwrite = uet_no_atomic_readwrite,
	.readwritev = uet_no_atomic_readwritev,
	.readwritemsg = uet_no_atomic_readwritemsg,
	.compwrite = uet_no_atomic_compwrite,
	.compwritev = uet_no_atomic_compwritev,
	.compwritemsg = uet_no_atomic_compwritemsg,
	.writevalid = uet_no_atomic_writevalid,
	.readwritevalid = uet_no_atomic_readwritevalid,
	.compwritevalid = uet_no_atomic_compwritevalid,
};

static struct fi_ops_cq cq_ops = {
	.size = sizeof(struct fi_ops_cq),
	.read = uet_no_cq_read,
	.readfrom = uet_no_cq_readfrom,
	.readerr = uet_no_cq_readerr,
	.sread = uet_no_cq_sread,
	.sreadfrom = uet_no_cq_sreadfrom,
	.signal = uet_no_cq_signal,
	.strerror = uet_no_cq_strerror,
};

static struct fi_ops_cntr cntr_ops = {
	.size = sizeof(struct fi_ops_cntr),
	.read = uet_no_cntr_read,
	.readerr = uet_no_cntr_readerr,
	.add = uet_no_cntr_add,
	.set = uet_no_cntr_set,
	.wait = uet_no_cntr_wait,
	.adderr = uet_no_cntr_adderr,
	.seterr = uet_no_cntr_seterr,
};

static struct fi_ops_eq eq_ops = {
	.size = sizeof(struct fi_ops_eq),
	.read = uet_no_eq_read,
	.readerr = uet_no_eq_readerr,
	.write = uet_no_eq_write,
	.sread = uet_no_eq_sread,
	.strerror = uet_no_eq_strerror,
};

static struct fi_ops_wait wait_ops = {
	.size = sizeof(struct fi_ops_wait),
	.wait = uet_no_wait,
};

static struct fi_ops_poll poll_ops = {
	.size = sizeof(struct fi_ops_poll),
	.poll = uet_no_poll,
	.poll_add = uet_no_poll_add,
	.poll_del = uet_no_poll_del,
};

static struct fid_ep ep = {
	.fid = { .fclass = FI_CLASS_EP, .ops = &fid_ops },
	.ops = &ep_ops,
	.cm = &cm_ops,
	.msg = &msg_ops,
	.rma = &rma_ops,
	.tagged = &tagged_ops,
	.atomic = &atomic_ops,
};

static struct fid_pep pep = {
	.fid = { .fclass = FI_CLASS_PEP, .ops = &fid_ops },
	.ops = &ep_ops,
	.cm = &cm_ops,
};

static struct fid_fabric fabric = {
	.fid = { .fclass = FI_CLASS_FABRIC, .ops = &fid_ops },
	.ops = &fabric_ops,
};

static struct fid_domain domain = {
	.fid = { .fclass = FI_CLASS_DOMAIN, .ops = &fid_ops },
	.ops = &domain_ops,
	.mr = &mr_ops,
};

static struct fid_av av = {
	.fid = { .fclass = FI_CLASS_AV, .ops = &fid_ops },
	.ops = &av_ops,
};

static struct fid_cq cq = {
	.fid = { .fclass = FI_CLASS_CQ, .ops = &fid_ops },
	.ops = &cq_ops,
};

static struct fid_cntr cntr = {
	.fid = { .fclass = FI_CLASS_CNTR, .ops = &fid_ops },
	.ops = &cntr_ops,
};

static struct fid_eq eq = {
	.fid = { .fclass = FI_CLASS_EQ, .ops = &fid_ops },
	.ops = &eq_ops,
};

static struct fid_wait waitset = {
	.fid = { .fclass = FI_CLASS_WAIT, .ops = &fid_ops },
	.ops = &wait_ops,
};

static struct fid_poll pollset = {
	.fid = { .fclass = FI_CLASS_POLL, .ops = &fid_ops },
	.ops = &poll_ops,
};

/* Scratch arguments. */
static char buf[64];
static struct iovec iov = { buf, sizeof(buf) };
static void *desc;
static fi_addr_t addr;
static size_t len = sizeof(buf);

START_TEST(test_fid_ops)
{
	void *ops = NULL;

	ck_assert_int_eq(fi_control(&ep.fid, FI_GETWAIT, NULL), ENOSYS_);
	ck_assert_int_eq(fid_ops.control(&ep.fid, FI_GETWAIT, NULL), ENOSYS_);
	ck_assert_int_eq(fi_open_ops(&ep.fid, "x", 0, &ops, NULL), ENOSYS_);
	ck_assert_ptr_null(ops);
	ck_assert_int_eq(fid_ops.ops_open(&ep.fid, "x", 0, &ops, NULL),
			 ENOSYS_);
	ck_assert_int_eq(fi_ep_bind(&ep, &cq.fid, FI_TRANSMIT), ENOSYS_);
	ck_assert_int_eq(fid_ops.bind(&ep.fid, &cq.fid, 0), ENOSYS_);
	ck_assert_int_eq(fi_set_ops(&ep.fid, "x", 0, NULL, NULL), ENOSYS_);
	ck_assert_int_eq(fid_ops.ops_set(&ep.fid, "x", 0, NULL, NULL),
			 ENOSYS_);
	ck_assert_int_eq(fid_ops.tostr(&ep.fid, buf, sizeof(buf)), ENOSYS_);
	ck_assert_int_eq(fi_enable(&ep), ENOSYS_);
}
END_TEST

START_TEST(test_fabric_ops)
{
	struct fid_pep *p = NULL;
	struct fid_eq *e = NULL;
	struct fid_wait *w = NULL;
	struct fid_domain *d = NULL;
	struct fid *fids[1] = { &cq.fid };

	ck_assert_int_eq(fi_passive_ep(&fabric, NULL, &p, NULL), ENOSYS_);
	ck_assert_int_eq(fabric_ops.passive_ep(&fabric, NULL, &p, NULL),
			 ENOSYS_);
	ck_assert_int_eq(fi_eq_open(&fabric, NULL, &e, NULL), ENOSYS_);
	ck_assert_int_eq(fabric_ops.eq_open(&fabric, NULL, &e, NULL), ENOSYS_);
#if !UET_FI_VERSION_GE(2, 0)	/* deprecated in 2.x */
	ck_assert_int_eq(fi_wait_open(&fabric, NULL, &w), ENOSYS_);
#endif
	ck_assert_int_eq(fabric_ops.wait_open(&fabric, NULL, &w), ENOSYS_);
	ck_assert_int_eq(fi_trywait(&fabric, fids, 1), ENOSYS_);
	ck_assert_int_eq(fabric_ops.trywait(&fabric, fids, 1), ENOSYS_);
	/* With flags 0, fi_domain2() would call the domain slot instead. */
	ck_assert_int_eq(fi_domain2(&fabric, NULL, &d, FI_PEER, NULL),
			 ENOSYS_);
	ck_assert_int_eq(fabric_ops.domain2(&fabric, NULL, &d, FI_PEER, NULL),
			 ENOSYS_);
	ck_assert_ptr_null(p);
	ck_assert_ptr_null(e);
	ck_assert_ptr_null(w);
	ck_assert_ptr_null(d);
}
END_TEST

START_TEST(test_domain_ops)
{
	struct fid_av *a = NULL;
	struct fid_cq *c = NULL;
	struct fid_ep *e = NULL;
	struct fid_cntr *n = NULL;
	struct fid_poll *p = NULL;
	struct fid_stx *s = NULL;
	struct fi_atomic_attr aattr;
	struct fi_collective_attr cattr;

	ck_assert_int_eq(fi_av_open(&domain, NULL, &a, NULL), ENOSYS_);
	ck_assert_int_eq(domain_ops.av_open(&domain, NULL, &a, NULL), ENOSYS_);
	ck_assert_int_eq(fi_cq_open(&domain, NULL, &c, NULL), ENOSYS_);
	ck_assert_int_eq(domain_ops.cq_open(&domain, NULL, &c, NULL), ENOSYS_);
	ck_assert_int_eq(fi_endpoint(&domain, NULL, &e, NULL), ENOSYS_);
	ck_assert_int_eq(domain_ops.endpoint(&domain, NULL, &e, NULL),
			 ENOSYS_);
	ck_assert_int_eq(fi_scalable_ep(&domain, NULL, &e, NULL), ENOSYS_);
	ck_assert_int_eq(domain_ops.scalable_ep(&domain, NULL, &e, NULL),
			 ENOSYS_);
	ck_assert_int_eq(fi_cntr_open(&domain, NULL, &n, NULL), ENOSYS_);
	ck_assert_int_eq(domain_ops.cntr_open(&domain, NULL, &n, NULL),
			 ENOSYS_);
#if !UET_FI_VERSION_GE(2, 0)	/* deprecated in 2.x */
	ck_assert_int_eq(fi_poll_open(&domain, NULL, &p), ENOSYS_);
#endif
	ck_assert_int_eq(domain_ops.poll_open(&domain, NULL, &p), ENOSYS_);
	ck_assert_int_eq(fi_stx_context(&domain, NULL, &s, NULL), ENOSYS_);
	ck_assert_int_eq(domain_ops.stx_ctx(&domain, NULL, &s, NULL), ENOSYS_);
	ck_assert_int_eq(fi_srx_context(&domain, NULL, &e, NULL), ENOSYS_);
	ck_assert_int_eq(domain_ops.srx_ctx(&domain, NULL, &e, NULL), ENOSYS_);
	ck_assert_int_eq(fi_endpoint2(&domain, NULL, &e, FI_PEER, NULL),
			 ENOSYS_);
	ck_assert_int_eq(domain_ops.endpoint2(&domain, NULL, &e, FI_PEER,
					      NULL), ENOSYS_);
	/* "Is this supported?" queries answer "no". */
	ck_assert_int_eq(fi_query_atomic(&domain, FI_UINT64, FI_SUM, &aattr,
					 0), -FI_EOPNOTSUPP);
	ck_assert_int_eq(domain_ops.query_atomic(&domain, FI_UINT64, FI_SUM,
						 &aattr, 0), -FI_EOPNOTSUPP);
	ck_assert_int_eq(fi_query_collective(&domain, FI_BARRIER, &cattr, 0),
			 -FI_EOPNOTSUPP);
	ck_assert_int_eq(domain_ops.query_collective(&domain, FI_BARRIER,
						     &cattr, 0),
			 -FI_EOPNOTSUPP);
	ck_assert_ptr_null(a);
	ck_assert_ptr_null(c);
	ck_assert_ptr_null(e);
	ck_assert_ptr_null(n);
	ck_assert_ptr_null(p);
	ck_assert_ptr_null(s);
}
END_TEST

START_TEST(test_mr_ops)
{
	struct fid_mr *mr = NULL;
	struct fi_mr_attr attr;

	memset(&attr, 0, sizeof(attr));
	ck_assert_int_eq(fi_mr_reg(&domain, buf, len, FI_SEND, 0, 0, 0, &mr,
				   NULL), ENOSYS_);
	ck_assert_int_eq(mr_ops.reg(&domain.fid, buf, len, FI_SEND, 0, 0, 0,
				    &mr, NULL), ENOSYS_);
	ck_assert_int_eq(fi_mr_regv(&domain, &iov, 1, FI_SEND, 0, 0, 0, &mr,
				    NULL), ENOSYS_);
	ck_assert_int_eq(mr_ops.regv(&domain.fid, &iov, 1, FI_SEND, 0, 0, 0,
				     &mr, NULL), ENOSYS_);
	ck_assert_int_eq(fi_mr_regattr(&domain, &attr, 0, &mr), ENOSYS_);
	ck_assert_int_eq(mr_ops.regattr(&domain.fid, &attr, 0, &mr), ENOSYS_);
	ck_assert_ptr_null(mr);
}
END_TEST

START_TEST(test_av_ops)
{
	struct fid_av_set *set = NULL;
	struct fi_av_set_attr attr;
	size_t alen = sizeof(buf);
	const char *s;

	memset(&attr, 0, sizeof(attr));
	ck_assert_int_eq(fi_av_insert(&av, buf, 1, &addr, 0, NULL), ENOSYS_);
	ck_assert_int_eq(av_ops.insert(&av, buf, 1, &addr, 0, NULL), ENOSYS_);
	ck_assert_int_eq(fi_av_insertsvc(&av, "n", "s", &addr, 0, NULL),
			 ENOSYS_);
	ck_assert_int_eq(av_ops.insertsvc(&av, "n", "s", &addr, 0, NULL),
			 ENOSYS_);
	ck_assert_int_eq(fi_av_insertsym(&av, "n", 1, "s", 1, &addr, 0, NULL),
			 ENOSYS_);
	ck_assert_int_eq(av_ops.insertsym(&av, "n", 1, "s", 1, &addr, 0,
					  NULL), ENOSYS_);
	ck_assert_int_eq(fi_av_remove(&av, &addr, 1, 0), ENOSYS_);
	ck_assert_int_eq(av_ops.remove(&av, &addr, 1, 0), ENOSYS_);
	ck_assert_int_eq(fi_av_lookup(&av, 0, buf, &alen), ENOSYS_);
	ck_assert_int_eq(av_ops.lookup(&av, 0, buf, &alen), ENOSYS_);
	s = fi_av_straddr(&av, buf, buf, &alen);
	ck_assert_str_eq(s, "unknown");
	ck_assert_str_eq(av_ops.straddr(&av, buf, buf, &alen), "unknown");
	ck_assert_int_eq(fi_av_set(&av, &attr, &set, NULL), ENOSYS_);
	ck_assert_int_eq(av_ops.av_set(&av, &attr, &set, NULL), ENOSYS_);
	ck_assert_ptr_null(set);
#if UET_FI_VERSION_GE(1, 20)
	ck_assert_int_eq(fi_av_insert_auth_key(&av, buf, 8, &addr, 0),
			 ENOSYS_);
	ck_assert_int_eq(av_ops.insert_auth_key(&av, buf, 8, &addr, 0),
			 ENOSYS_);
	ck_assert_int_eq(fi_av_lookup_auth_key(&av, 0, buf, &alen), ENOSYS_);
	ck_assert_int_eq(av_ops.lookup_auth_key(&av, 0, buf, &alen), ENOSYS_);
	ck_assert_int_eq(fi_av_set_user_id(&av, 0, 1, 0), ENOSYS_);
	ck_assert_int_eq(av_ops.set_user_id(&av, 0, 1, 0), ENOSYS_);
#endif
}
END_TEST

START_TEST(test_ep_ops)
{
	struct fid_ep *ctx = NULL;
	size_t optlen = sizeof(buf);

	ck_assert_int_eq(fi_cancel(&ep.fid, NULL), ENOSYS_);
	ck_assert_int_eq(ep_ops.cancel(&ep.fid, NULL), ENOSYS_);
	/* An option the provider does not support: -FI_ENOPROTOOPT. */
	ck_assert_int_eq(fi_getopt(&ep.fid, FI_OPT_ENDPOINT,
				   FI_OPT_MIN_MULTI_RECV, buf, &optlen),
			 -FI_ENOPROTOOPT);
	ck_assert_int_eq(ep_ops.getopt(&ep.fid, FI_OPT_ENDPOINT, 0, buf,
				       &optlen), -FI_ENOPROTOOPT);
	ck_assert_int_eq(fi_setopt(&ep.fid, FI_OPT_ENDPOINT,
				   FI_OPT_MIN_MULTI_RECV, buf, sizeof(size_t)),
			 -FI_ENOPROTOOPT);
	ck_assert_int_eq(ep_ops.setopt(&ep.fid, FI_OPT_ENDPOINT, 0, buf, 8),
			 -FI_ENOPROTOOPT);
	ck_assert_uint_eq(optlen, sizeof(buf));
	ck_assert_int_eq(fi_tx_context(&ep, 0, NULL, &ctx, NULL), ENOSYS_);
	ck_assert_int_eq(ep_ops.tx_ctx(&ep, 0, NULL, &ctx, NULL), ENOSYS_);
	ck_assert_int_eq(fi_rx_context(&ep, 0, NULL, &ctx, NULL), ENOSYS_);
	ck_assert_int_eq(ep_ops.rx_ctx(&ep, 0, NULL, &ctx, NULL), ENOSYS_);
	/* fi_rx/tx_size_left() are deprecated: through the table only. */
	ck_assert_int_eq(ep_ops.rx_size_left(&ep), ENOSYS_);
	ck_assert_int_eq(ep_ops.tx_size_left(&ep), ENOSYS_);
	ck_assert_ptr_null(ctx);
}
END_TEST

START_TEST(test_cm_ops)
{
	struct fid_mc *mc = NULL;
	size_t alen = sizeof(buf);

	ck_assert_int_eq(fi_setname(&ep.fid, buf, 8), ENOSYS_);
	ck_assert_int_eq(cm_ops.setname(&ep.fid, buf, 8), ENOSYS_);
	ck_assert_int_eq(fi_getname(&ep.fid, buf, &alen), ENOSYS_);
	ck_assert_int_eq(cm_ops.getname(&ep.fid, buf, &alen), ENOSYS_);
	ck_assert_int_eq(fi_getpeer(&ep, buf, &alen), ENOSYS_);
	ck_assert_int_eq(cm_ops.getpeer(&ep, buf, &alen), ENOSYS_);
	ck_assert_int_eq(fi_connect(&ep, buf, NULL, 0), ENOSYS_);
	ck_assert_int_eq(cm_ops.connect(&ep, buf, NULL, 0), ENOSYS_);
	ck_assert_int_eq(fi_listen(&pep), ENOSYS_);
	ck_assert_int_eq(cm_ops.listen(&pep), ENOSYS_);
	ck_assert_int_eq(fi_accept(&ep, NULL, 0), ENOSYS_);
	ck_assert_int_eq(cm_ops.accept(&ep, NULL, 0), ENOSYS_);
	ck_assert_int_eq(fi_reject(&pep, &ep.fid, NULL, 0), ENOSYS_);
	ck_assert_int_eq(cm_ops.reject(&pep, &ep.fid, NULL, 0), ENOSYS_);
	ck_assert_int_eq(fi_shutdown(&ep, 0), ENOSYS_);
	ck_assert_int_eq(cm_ops.shutdown(&ep, 0), ENOSYS_);
	ck_assert_int_eq(fi_join(&ep, buf, 0, &mc, NULL), ENOSYS_);
	ck_assert_int_eq(cm_ops.join(&ep, buf, 0, &mc, NULL), ENOSYS_);
	ck_assert_uint_eq(alen, sizeof(buf));
	ck_assert_ptr_null(mc);
}
END_TEST

START_TEST(test_msg_ops)
{
	struct fi_msg msg;

	memset(&msg, 0, sizeof(msg));
	ck_assert_int_eq(fi_recv(&ep, buf, len, desc, addr, NULL), ENOSYS_);
	ck_assert_int_eq(msg_ops.recv(&ep, buf, len, desc, addr, NULL),
			 ENOSYS_);
	ck_assert_int_eq(fi_recvv(&ep, &iov, &desc, 1, addr, NULL), ENOSYS_);
	ck_assert_int_eq(msg_ops.recvv(&ep, &iov, &desc, 1, addr, NULL),
			 ENOSYS_);
	ck_assert_int_eq(fi_recvmsg(&ep, &msg, 0), ENOSYS_);
	ck_assert_int_eq(msg_ops.recvmsg(&ep, &msg, 0), ENOSYS_);
	ck_assert_int_eq(fi_send(&ep, buf, len, desc, addr, NULL), ENOSYS_);
	ck_assert_int_eq(msg_ops.send(&ep, buf, len, desc, addr, NULL),
			 ENOSYS_);
	ck_assert_int_eq(fi_sendv(&ep, &iov, &desc, 1, addr, NULL), ENOSYS_);
	ck_assert_int_eq(msg_ops.sendv(&ep, &iov, &desc, 1, addr, NULL),
			 ENOSYS_);
	ck_assert_int_eq(fi_sendmsg(&ep, &msg, 0), ENOSYS_);
	ck_assert_int_eq(msg_ops.sendmsg(&ep, &msg, 0), ENOSYS_);
	ck_assert_int_eq(fi_inject(&ep, buf, len, addr), ENOSYS_);
	ck_assert_int_eq(msg_ops.inject(&ep, buf, len, addr), ENOSYS_);
	ck_assert_int_eq(fi_senddata(&ep, buf, len, desc, 1, addr, NULL),
			 ENOSYS_);
	ck_assert_int_eq(msg_ops.senddata(&ep, buf, len, desc, 1, addr, NULL),
			 ENOSYS_);
	ck_assert_int_eq(fi_injectdata(&ep, buf, len, 1, addr), ENOSYS_);
	ck_assert_int_eq(msg_ops.injectdata(&ep, buf, len, 1, addr), ENOSYS_);
}
END_TEST

START_TEST(test_tagged_ops)
{
	struct fi_msg_tagged msg;

	memset(&msg, 0, sizeof(msg));
	ck_assert_int_eq(fi_trecv(&ep, buf, len, desc, addr, 1, 0, NULL),
			 ENOSYS_);
	ck_assert_int_eq(tagged_ops.recv(&ep, buf, len, desc, addr, 1, 0,
					 NULL), ENOSYS_);
	ck_assert_int_eq(fi_trecvv(&ep, &iov, &desc, 1, addr, 1, 0, NULL),
			 ENOSYS_);
	ck_assert_int_eq(tagged_ops.recvv(&ep, &iov, &desc, 1, addr, 1, 0,
					  NULL), ENOSYS_);
	ck_assert_int_eq(fi_trecvmsg(&ep, &msg, 0), ENOSYS_);
	ck_assert_int_eq(tagged_ops.recvmsg(&ep, &msg, 0), ENOSYS_);
	ck_assert_int_eq(fi_tsend(&ep, buf, len, desc, addr, 1, NULL),
			 ENOSYS_);
	ck_assert_int_eq(tagged_ops.send(&ep, buf, len, desc, addr, 1, NULL),
			 ENOSYS_);
	ck_assert_int_eq(fi_tsendv(&ep, &iov, &desc, 1, addr, 1, NULL),
			 ENOSYS_);
	ck_assert_int_eq(tagged_ops.sendv(&ep, &iov, &desc, 1, addr, 1, NULL),
			 ENOSYS_);
	ck_assert_int_eq(fi_tsendmsg(&ep, &msg, 0), ENOSYS_);
	ck_assert_int_eq(tagged_ops.sendmsg(&ep, &msg, 0), ENOSYS_);
	ck_assert_int_eq(fi_tinject(&ep, buf, len, addr, 1), ENOSYS_);
	ck_assert_int_eq(tagged_ops.inject(&ep, buf, len, addr, 1), ENOSYS_);
	ck_assert_int_eq(fi_tsenddata(&ep, buf, len, desc, 2, addr, 1, NULL),
			 ENOSYS_);
	ck_assert_int_eq(tagged_ops.senddata(&ep, buf, len, desc, 2, addr, 1,
					     NULL), ENOSYS_);
	ck_assert_int_eq(fi_tinjectdata(&ep, buf, len, 2, addr, 1), ENOSYS_);
	ck_assert_int_eq(tagged_ops.injectdata(&ep, buf, len, 2, addr, 1),
			 ENOSYS_);
}
END_TEST

START_TEST(test_rma_ops)
{
	struct fi_msg_rma msg;

	memset(&msg, 0, sizeof(msg));
	ck_assert_int_eq(fi_read(&ep, buf, len, desc, addr, 0, 7, NULL),
			 ENOSYS_);
	ck_assert_int_eq(rma_ops.read(&ep, buf, len, desc, addr, 0, 7, NULL),
			 ENOSYS_);
	ck_assert_int_eq(fi_readv(&ep, &iov, &desc, 1, addr, 0, 7, NULL),
			 ENOSYS_);
	ck_assert_int_eq(rma_ops.readv(&ep, &iov, &desc, 1, addr, 0, 7, NULL),
			 ENOSYS_);
	ck_assert_int_eq(fi_readmsg(&ep, &msg, 0), ENOSYS_);
	ck_assert_int_eq(rma_ops.readmsg(&ep, &msg, 0), ENOSYS_);
	ck_assert_int_eq(fi_write(&ep, buf, len, desc, addr, 0, 7, NULL),
			 ENOSYS_);
	ck_assert_int_eq(rma_ops.write(&ep, buf, len, desc, addr, 0, 7, NULL),
			 ENOSYS_);
	ck_assert_int_eq(fi_writev(&ep, &iov, &desc, 1, addr, 0, 7, NULL),
			 ENOSYS_);
	ck_assert_int_eq(rma_ops.writev(&ep, &iov, &desc, 1, addr, 0, 7,
					NULL), ENOSYS_);
	ck_assert_int_eq(fi_writemsg(&ep, &msg, 0), ENOSYS_);
	ck_assert_int_eq(rma_ops.writemsg(&ep, &msg, 0), ENOSYS_);
	ck_assert_int_eq(fi_inject_write(&ep, buf, len, addr, 0, 7), ENOSYS_);
	ck_assert_int_eq(rma_ops.inject(&ep, buf, len, addr, 0, 7), ENOSYS_);
	ck_assert_int_eq(fi_writedata(&ep, buf, len, desc, 1, addr, 0, 7,
				      NULL), ENOSYS_);
	ck_assert_int_eq(rma_ops.writedata(&ep, buf, len, desc, 1, addr, 0, 7,
					   NULL), ENOSYS_);
	ck_assert_int_eq(fi_inject_writedata(&ep, buf, len, 1, addr, 0, 7),
			 ENOSYS_);
	ck_assert_int_eq(rma_ops.injectdata(&ep, buf, len, 1, addr, 0, 7),
			 ENOSYS_);
}
END_TEST

START_TEST(test_atomic_ops)
{
	struct fi_msg_atomic msg;
	struct fi_ioc ioc = { buf, 1 }, res = { buf + 8, 1 };
	struct fi_ioc cmp = { buf + 16, 1 };
	void *rdesc = NULL, *cdesc = NULL;
	size_t count = 12345;

	memset(&msg, 0, sizeof(msg));
	ck_assert_int_eq(fi_atomic(&ep, buf, 1, desc, addr, 0, 7, FI_UINT64,
				   FI_SUM, NULL), ENOSYS_);
	ck_assert_int_eq(atomic_ops.write(&ep, buf, 1, desc, addr, 0, 7,
					  FI_UINT64, FI_SUM, NULL), ENOSYS_);
	ck_assert_int_eq(fi_atomicv(&ep, &ioc, &desc, 1, addr, 0, 7,
				    FI_UINT64, FI_SUM, NULL), ENOSYS_);
	ck_assert_int_eq(atomic_ops.writev(&ep, &ioc, &desc, 1, addr, 0, 7,
					   FI_UINT64, FI_SUM, NULL), ENOSYS_);
	ck_assert_int_eq(fi_atomicmsg(&ep, &msg, 0), ENOSYS_);
	ck_assert_int_eq(atomic_ops.writemsg(&ep, &msg, 0), ENOSYS_);
	ck_assert_int_eq(fi_inject_atomic(&ep, buf, 1, addr, 0, 7, FI_UINT64,
					  FI_SUM), ENOSYS_);
	ck_assert_int_eq(atomic_ops.inject(&ep, buf, 1, addr, 0, 7, FI_UINT64,
					   FI_SUM), ENOSYS_);
	ck_assert_int_eq(fi_fetch_atomic(&ep, buf, 1, desc, buf + 8, rdesc,
					 addr, 0, 7, FI_UINT64, FI_SUM, NULL),
			 ENOSYS_);
	ck_assert_int_eq(atomic_ops.readwrite(&ep, buf, 1, desc, buf + 8,
					      rdesc, addr, 0, 7, FI_UINT64,
					      FI_SUM, NULL), ENOSYS_);
	ck_assert_int_eq(fi_fetch_atomicv(&ep, &ioc, &desc, 1, &res, &rdesc,
					  1, addr, 0, 7, FI_UINT64, FI_SUM,
					  NULL), ENOSYS_);
	ck_assert_int_eq(atomic_ops.readwritev(&ep, &ioc, &desc, 1, &res,
					       &rdesc, 1, addr, 0, 7,
					       FI_UINT64, FI_SUM, NULL),
			 ENOSYS_);
	ck_assert_int_eq(fi_fetch_atomicmsg(&ep, &msg, &res, &rdesc, 1, 0),
			 ENOSYS_);
	ck_assert_int_eq(atomic_ops.readwritemsg(&ep, &msg, &res, &rdesc, 1,
						 0), ENOSYS_);
	ck_assert_int_eq(fi_compare_atomic(&ep, buf, 1, desc, buf + 16, cdesc,
					   buf + 8, rdesc, addr, 0, 7,
					   FI_UINT64, FI_CSWAP, NULL), ENOSYS_);
	ck_assert_int_eq(atomic_ops.compwrite(&ep, buf, 1, desc, buf + 16,
					      cdesc, buf + 8, rdesc, addr, 0,
					      7, FI_UINT64, FI_CSWAP, NULL),
			 ENOSYS_);
	ck_assert_int_eq(fi_compare_atomicv(&ep, &ioc, &desc, 1, &cmp, &cdesc,
					    1, &res, &rdesc, 1, addr, 0, 7,
					    FI_UINT64, FI_CSWAP, NULL),
			 ENOSYS_);
	ck_assert_int_eq(atomic_ops.compwritev(&ep, &ioc, &desc, 1, &cmp,
					       &cdesc, 1, &res, &rdesc, 1,
					       addr, 0, 7, FI_UINT64,
					       FI_CSWAP, NULL), ENOSYS_);
	ck_assert_int_eq(fi_compare_atomicmsg(&ep, &msg, &cmp, &cdesc, 1,
					      &res, &rdesc, 1, 0), ENOSYS_);
	ck_assert_int_eq(atomic_ops.compwritemsg(&ep, &msg, &cmp, &cdesc, 1,
						 &res, &rdesc, 1, 0), ENOSYS_);

	/* Validity queries: -FI_EOPNOTSUPP, count untouched. */
	ck_assert_int_eq(fi_atomicvalid(&ep, FI_UINT64, FI_SUM, &count),
			 -FI_EOPNOTSUPP);
	ck_assert_int_eq(atomic_ops.writevalid(&ep, FI_UINT64, FI_SUM,
					       &count), -FI_EOPNOTSUPP);
	ck_assert_int_eq(fi_fetch_atomicvalid(&ep, FI_UINT64, FI_SUM, &count),
			 -FI_EOPNOTSUPP);
	ck_assert_int_eq(atomic_ops.readwritevalid(&ep, FI_UINT64, FI_SUM,
						   &count), -FI_EOPNOTSUPP);
	ck_assert_int_eq(fi_compare_atomicvalid(&ep, FI_UINT64, FI_CSWAP,
						&count), -FI_EOPNOTSUPP);
	ck_assert_int_eq(atomic_ops.compwritevalid(&ep, FI_UINT64, FI_CSWAP,
						   &count), -FI_EOPNOTSUPP);
	ck_assert_uint_eq(count, 12345);
}
END_TEST

START_TEST(test_cq_ops)
{
	struct fi_cq_err_entry err;
	const char *s;

	ck_assert_int_eq(fi_cq_read(&cq, buf, 1), ENOSYS_);
	ck_assert_int_eq(cq_ops.read(&cq, buf, 1), ENOSYS_);
	ck_assert_int_eq(fi_cq_readfrom(&cq, buf, 1, &addr), ENOSYS_);
	ck_assert_int_eq(cq_ops.readfrom(&cq, buf, 1, &addr), ENOSYS_);
	ck_assert_int_eq(fi_cq_readerr(&cq, &err, 0), ENOSYS_);
	ck_assert_int_eq(cq_ops.readerr(&cq, &err, 0), ENOSYS_);
	ck_assert_int_eq(fi_cq_sread(&cq, buf, 1, NULL, 10), ENOSYS_);
	ck_assert_int_eq(cq_ops.sread(&cq, buf, 1, NULL, 10), ENOSYS_);
	ck_assert_int_eq(fi_cq_sreadfrom(&cq, buf, 1, &addr, NULL, 10),
			 ENOSYS_);
	ck_assert_int_eq(cq_ops.sreadfrom(&cq, buf, 1, &addr, NULL, 10),
			 ENOSYS_);
	ck_assert_int_eq(fi_cq_signal(&cq), ENOSYS_);
	ck_assert_int_eq(cq_ops.signal(&cq), ENOSYS_);
	s = fi_cq_strerror(&cq, 5, NULL, buf, sizeof(buf));
	ck_assert_str_eq(s, "unknown");
	ck_assert_str_eq(cq_ops.strerror(&cq, 5, NULL, NULL, 0), "unknown");
}
END_TEST

START_TEST(test_cntr_ops)
{
	ck_assert_uint_eq(fi_cntr_read(&cntr), 0);
	ck_assert_uint_eq(cntr_ops.read(&cntr), 0);
	ck_assert_uint_eq(fi_cntr_readerr(&cntr), 0);
	ck_assert_uint_eq(cntr_ops.readerr(&cntr), 0);
	ck_assert_int_eq(fi_cntr_add(&cntr, 1), ENOSYS_);
	ck_assert_int_eq(cntr_ops.add(&cntr, 1), ENOSYS_);
	ck_assert_int_eq(fi_cntr_set(&cntr, 1), ENOSYS_);
	ck_assert_int_eq(cntr_ops.set(&cntr, 1), ENOSYS_);
	ck_assert_int_eq(fi_cntr_wait(&cntr, 1, 10), ENOSYS_);
	ck_assert_int_eq(cntr_ops.wait(&cntr, 1, 10), ENOSYS_);
	ck_assert_int_eq(fi_cntr_adderr(&cntr, 1), ENOSYS_);
	ck_assert_int_eq(cntr_ops.adderr(&cntr, 1), ENOSYS_);
	ck_assert_int_eq(fi_cntr_seterr(&cntr, 1), ENOSYS_);
	ck_assert_int_eq(cntr_ops.seterr(&cntr, 1), ENOSYS_);
}
END_TEST

START_TEST(test_eq_ops)
{
	struct fi_eq_err_entry err;
	uint32_t event = 0;

	ck_assert_int_eq(fi_eq_read(&eq, &event, buf, len, 0), ENOSYS_);
	ck_assert_int_eq(eq_ops.read(&eq, &event, buf, len, 0), ENOSYS_);
	ck_assert_int_eq(fi_eq_readerr(&eq, &err, 0), ENOSYS_);
	ck_assert_int_eq(eq_ops.readerr(&eq, &err, 0), ENOSYS_);
	ck_assert_int_eq(fi_eq_write(&eq, FI_NOTIFY, buf, len, 0), ENOSYS_);
	ck_assert_int_eq(eq_ops.write(&eq, FI_NOTIFY, buf, len, 0), ENOSYS_);
	ck_assert_int_eq(fi_eq_sread(&eq, &event, buf, len, 10, 0), ENOSYS_);
	ck_assert_int_eq(eq_ops.sread(&eq, &event, buf, len, 10, 0), ENOSYS_);
	ck_assert_str_eq(fi_eq_strerror(&eq, 5, NULL, buf, sizeof(buf)),
			 "unknown");
	ck_assert_str_eq(eq_ops.strerror(&eq, 5, NULL, NULL, 0), "unknown");
	ck_assert_uint_eq(event, 0);
}
END_TEST

START_TEST(test_wait_poll_ops)
{
	void *ctx[1];

#if !UET_FI_VERSION_GE(2, 0)	/* the wrappers are deprecated in 2.x */
	ck_assert_int_eq(fi_wait(&waitset, 10), ENOSYS_);
	ck_assert_int_eq(fi_poll(&pollset, ctx, 1), ENOSYS_);
	ck_assert_int_eq(fi_poll_add(&pollset, &cq.fid, 0), ENOSYS_);
	ck_assert_int_eq(fi_poll_del(&pollset, &cq.fid, 0), ENOSYS_);
#endif
	ck_assert_int_eq(wait_ops.wait(&waitset, 10), ENOSYS_);
	ck_assert_int_eq(poll_ops.poll(&pollset, ctx, 1), ENOSYS_);
	ck_assert_int_eq(poll_ops.poll_add(&pollset, &cq.fid, 0), ENOSYS_);
	ck_assert_int_eq(poll_ops.poll_del(&pollset, &cq.fid, 0), ENOSYS_);
}
END_TEST

static Suite *util_fi_no_suite(void)
{
	Suite *s = suite_create("util_fi_no");
	TCase *tc = tcase_create("fi_no");

	tcase_add_test(tc, test_fid_ops);
	tcase_add_test(tc, test_fabric_ops);
	tcase_add_test(tc, test_domain_ops);
	tcase_add_test(tc, test_mr_ops);
	tcase_add_test(tc, test_av_ops);
	tcase_add_test(tc, test_ep_ops);
	tcase_add_test(tc, test_cm_ops);
	tcase_add_test(tc, test_msg_ops);
	tcase_add_test(tc, test_tagged_ops);
	tcase_add_test(tc, test_rma_ops);
	tcase_add_test(tc, test_atomic_ops);
	tcase_add_test(tc, test_cq_ops);
	tcase_add_test(tc, test_cntr_ops);
	tcase_add_test(tc, test_eq_ops);
	tcase_add_test(tc, test_wait_poll_ops);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(util_fi_no_suite)
