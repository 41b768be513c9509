/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Scalable endpoints (uet_sep.c): contexts, their resource indexes,
 * fi_rx_addr through an AV with rx_ctx_bits, and the argument checks.
 * Side A is a plain endpoint, side B a scalable endpoint with two
 * transmit and two receive contexts, each on 127.0.0.1.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <rdma/fi_errno.h>

#include "uet_clock.h"
#include "uet_prov.h"
#include "prov_test.h"
#include "uet_test.h"

#define API		FI_VERSION(1, 17)
#define WAIT_MS		10000
#define NCTX		2
#define RX_BITS		2

static struct fi_info *get_info(void)
{
	struct fi_info *info = uet_test_lo_info(API, FI_MSG |
						FI_NAMED_RX_CTX);

	ck_assert_uint_ne(info->caps & FI_NAMED_RX_CTX, 0);
	ck_assert_uint_ge(info->domain_attr->max_ep_rx_ctx, NCTX);
	return info;
}

/* One completion from cq, progressing other meanwhile. */
static void wait_one(struct fid_cq *cq, struct fid_cq *other, void *ctx)
{
	uint64_t end = uet_clock_now_ns() + WAIT_MS * UET_NSEC_PER_MSEC;
	struct fi_cq_entry e;
	ssize_t ret;

	do {
		ret = fi_cq_read(cq, &e, 1);
		if (ret == -FI_EAGAIN)
			fi_cq_read(other, NULL, 0);
	} while (ret == -FI_EAGAIN && uet_clock_now_ns() < end);
	ck_assert_int_eq(ret, 1);
	ck_assert_ptr_eq(e.op_context, ctx);
}

START_TEST(test_sep)
{
	struct fi_info *info = get_info(), *bad;
	struct fi_cq_attr cqa = { .format = FI_CQ_FORMAT_CONTEXT };
	struct fi_av_attr ava = { .type = FI_AV_TABLE };
	struct fid_fabric *fab;
	struct fid_domain *dom[2];
	struct fid_av *av[2];
	struct fid_cq *acq, *txcq[NCTX], *rxcq[NCTX];
	struct fid_ep *aep, *sep, *tx[NCTX], *rx[NCTX], *ep;
	static char rbuf[NCTX][32], abuf[32];
	char sbuf[32];
	uint8_t name[64], aname[64];
	struct uet_addr ua;
	fi_addr_t b_in_a, a_in_b;
	size_t len;
	int i;

	ck_assert_int_eq(uet_fabric(info->fabric_attr, &fab, NULL), 0);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(fi_domain(fab, info, &dom[i], NULL), 0);

	/* A: a plain endpoint; its AV names receive contexts */
	ava.rx_ctx_bits = UET_ADDR_ID_BITS + 1;
	ck_assert_int_eq(fi_av_open(dom[0], &ava, &av[0], NULL), -FI_EINVAL);
	ava.rx_ctx_bits = RX_BITS;
	ck_assert_int_eq(fi_av_open(dom[0], &ava, &av[0], NULL), 0);
	ck_assert_int_eq(fi_cq_open(dom[0], &cqa, &acq, NULL), 0);
	ck_assert_int_eq(fi_endpoint(dom[0], info, &aep, NULL), 0);
	ck_assert_int_eq(fi_ep_bind(aep, &av[0]->fid, 0), 0);
	ck_assert_int_eq(fi_ep_bind(aep, &acq->fid, FI_TRANSMIT | FI_RECV),
			 0);
	ck_assert_int_eq(fi_enable(aep), 0);

	/* B: bad counts; a plain endpoint takes one context */
	bad = fi_dupinfo(info);
	bad->ep_attr->tx_ctx_cnt = FI_SHARED_CONTEXT;
	ck_assert_int_eq(fi_scalable_ep(dom[1], bad, &sep, NULL), -FI_ENOSYS);
	bad->ep_attr->tx_ctx_cnt = UET_SEP_CTX_MAX + 1;
	ck_assert_int_eq(fi_scalable_ep(dom[1], bad, &sep, NULL), -FI_EINVAL);
	bad->ep_attr->tx_ctx_cnt = NCTX;
	ck_assert_int_eq(fi_endpoint(dom[1], bad, &ep, NULL), -FI_EINVAL);
	bad->ep_attr->rx_ctx_cnt = NCTX;
	ck_assert_int_eq(fi_scalable_ep(dom[1], bad, &sep, NULL), 0);
	fi_freeinfo(bad);

	ck_assert_int_eq(fi_av_open(dom[1], &(struct fi_av_attr){
					.type = FI_AV_TABLE }, &av[1], NULL),
			 0);
	ck_assert_int_eq(fi_enable(sep), -FI_ENOAV);
	ck_assert_int_eq(fi_scalable_ep_bind(sep, &acq->fid, 0), -FI_EINVAL);
	ck_assert_int_eq(fi_scalable_ep_bind(sep, &av[1]->fid, 0), 0);
	ck_assert_int_eq(fi_scalable_ep_bind(sep, &av[1]->fid, 0), -FI_EBUSY);
	ck_assert_int_eq(fi_send(sep, sbuf, 1, NULL, 0, NULL), -FI_ENOSYS);
	ck_assert_int_eq(fi_tx_context(sep, NCTX, NULL, &ep, NULL),
			 -FI_EINVAL);
	ck_assert_int_eq(fi_rx_context(sep, -1, NULL, &ep, NULL), -FI_EINVAL);
	for (i = 0; i < NCTX; i++) {
		ck_assert_int_eq(fi_tx_context(sep, i, NULL, &tx[i], NULL), 0);
		ck_assert_int_eq(fi_rx_context(sep, i, NULL, &rx[i], NULL), 0);
		ck_assert_int_eq(fi_cq_open(dom[1], &cqa, &txcq[i], NULL), 0);
		ck_assert_int_eq(fi_cq_open(dom[1], &cqa, &rxcq[i], NULL), 0);
		ck_assert_int_eq(fi_ep_bind(tx[i], &txcq[i]->fid, FI_SEND),
				 0);
		ck_assert_int_eq(fi_ep_bind(rx[i], &rxcq[i]->fid, FI_RECV),
				 0);
		ck_assert_int_eq(fi_enable(tx[i]), 0);
		ck_assert_int_eq(fi_enable(rx[i]), 0);
	}
	ck_assert_int_eq(fi_tx_context(sep, 0, NULL, &ep, NULL), -FI_EBUSY);
	ck_assert_int_eq(fi_enable(sep), 0);
	/* the scalable endpoint's name: its PIDonFEP, resource index 0;
	 * receive context i is resource index i */
	len = sizeof(name);
	ck_assert_int_eq(fi_getname(&sep->fid, name, &len), 0);
	ck_assert_int_eq(uet_addr_from_raw(&ua, name, len), 0);
	ck_assert_uint_eq(ua.ri, 0);
	len = sizeof(aname);
	ck_assert_int_eq(fi_getname(&rx[1]->fid, aname, &len), 0);
	{
		struct uet_addr r1;

		ck_assert_int_eq(uet_addr_from_raw(&r1, aname, len), 0);
		ck_assert_uint_eq(r1.pid, ua.pid);
		ck_assert_uint_eq(r1.ri, 1);
	}
	ck_assert_int_eq(fi_av_insert(av[0], name, 1, &b_in_a, 0, NULL), 1);
	len = sizeof(aname);
	ck_assert_int_eq(fi_getname(&aep->fid, aname, &len), 0);
	ck_assert_int_eq(fi_av_insert(av[1], aname, 1, &a_in_b, 0, NULL), 1);

	/* A sends to each receive context by fi_rx_addr */
	for (i = 0; i < NCTX; i++)
		ck_assert_int_eq(fi_recv(rx[i], rbuf[i], sizeof(rbuf[i]), NULL,
					 0, rbuf[i]), 0);
	for (i = NCTX - 1; i >= 0; i--) {
		snprintf(sbuf, sizeof(sbuf), "to context %d", i);
		ck_assert_int_eq(fi_send(aep, sbuf, sizeof(sbuf), NULL,
					 fi_rx_addr(b_in_a, i, RX_BITS), sbuf),
				 0);
		wait_one(acq, rxcq[i], sbuf);
		wait_one(rxcq[i], acq, rbuf[i]);
		ck_assert_str_eq(rbuf[i], sbuf);
	}
	/* an fi_rx_addr made with other rx_ctx_bits names no entry */
	ck_assert_int_eq(fi_send(aep, sbuf, 1, NULL,
				 fi_rx_addr(b_in_a, 4095, 12), NULL),
			 -FI_EINVAL);
	/* B's transmit context 1 sends to A */
	ck_assert_int_eq(fi_recv(aep, abuf, sizeof(abuf), NULL, 0, abuf), 0);
	snprintf(sbuf, sizeof(sbuf), "from tx context 1");
	ck_assert_int_eq(fi_send(tx[1], sbuf, sizeof(sbuf), NULL, a_in_b,
				 sbuf), 0);
	wait_one(acq, txcq[1], abuf);
	wait_one(txcq[1], acq, sbuf);
	ck_assert_str_eq(abuf, "from tx context 1");

	/* contexts close before the scalable endpoint; a closed index can
	 * be opened again */
	ck_assert_int_eq(fi_close(&sep->fid), -FI_EBUSY);
	ck_assert_int_eq(fi_close(&tx[0]->fid), 0);
	ck_assert_int_eq(fi_tx_context(sep, 0, NULL, &tx[0], NULL), 0);
	for (i = 0; i < NCTX; i++) {
		ck_assert_int_eq(fi_close(&tx[i]->fid), 0);
		ck_assert_int_eq(fi_close(&rx[i]->fid), 0);
		ck_assert_int_eq(fi_close(&txcq[i]->fid), 0);
		ck_assert_int_eq(fi_close(&rxcq[i]->fid), 0);
	}
	ck_assert_int_eq(fi_close(&av[1]->fid), -FI_EBUSY);
	ck_assert_int_eq(fi_close(&sep->fid), 0);
	ck_assert_int_eq(fi_close(&aep->fid), 0);
	ck_assert_int_eq(fi_close(&acq->fid), 0);
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(fi_close(&av[i]->fid), 0);
		ck_assert_int_eq(fi_close(&dom[i]->fid), 0);
	}
	ck_assert_int_eq(fi_close(&fab->fid), 0);
	fi_freeinfo(info);
}
END_TEST

/*
 * The source of a transmit context's messages is the scalable endpoint
 * (fi_endpoint(3)): a receive directed at the scalable endpoint's AV
 * entry takes them, and FI_SOURCE reports that entry.  Transmit context
 * i sends from resource index rx_cnt + i, which matched no directed
 * receive: MPICH's ch4:ofi, which uses scalable endpoints over uet,
 * waited for ever in MPI_Init.
 */
START_TEST(test_sep_source)
{
	struct fi_info *info = uet_test_lo_info(API, FI_TAGGED |
						FI_NAMED_RX_CTX |
						FI_DIRECTED_RECV | FI_SOURCE);
	struct fi_cq_attr cqa = { .format = FI_CQ_FORMAT_TAGGED };
	struct fi_av_attr ava = { .type = FI_AV_TABLE };
	struct fid_fabric *fab;
	struct fid_domain *dom[2];
	struct fid_av *av[2];
	struct fid_cq *acq, *txcq[NCTX];
	struct fid_ep *aep, *sep, *tx[NCTX];
	struct fi_cq_tagged_entry e;
	static char abuf[NCTX][32], other[32];
	char sbuf[NCTX][32];
	uint8_t name[64], aname[64];
	fi_addr_t b_in_a, a_in_b, nobody, src;
	uint64_t end;
	size_t len;
	ssize_t ret;
	int i, got;

	ck_assert_uint_ne(info->caps & FI_DIRECTED_RECV, 0);
	ck_assert_uint_ne(info->caps & FI_SOURCE, 0);
	ck_assert_int_eq(uet_fabric(info->fabric_attr, &fab, NULL), 0);
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(fi_domain(fab, info, &dom[i], NULL), 0);
		ck_assert_int_eq(fi_av_open(dom[i], &ava, &av[i], NULL), 0);
	}
	ck_assert_int_eq(fi_cq_open(dom[0], &cqa, &acq, NULL), 0);
	ck_assert_int_eq(fi_endpoint(dom[0], info, &aep, NULL), 0);
	ck_assert_int_eq(fi_ep_bind(aep, &av[0]->fid, 0), 0);
	ck_assert_int_eq(fi_ep_bind(aep, &acq->fid, FI_TRANSMIT | FI_RECV),
			 0);
	ck_assert_int_eq(fi_enable(aep), 0);

	info->ep_attr->tx_ctx_cnt = NCTX;
	info->ep_attr->rx_ctx_cnt = NCTX;
	ck_assert_int_eq(fi_scalable_ep(dom[1], info, &sep, NULL), 0);
	ck_assert_int_eq(fi_scalable_ep_bind(sep, &av[1]->fid, 0), 0);
	for (i = 0; i < NCTX; i++) {
		ck_assert_int_eq(fi_tx_context(sep, i, NULL, &tx[i], NULL), 0);
		ck_assert_int_eq(fi_cq_open(dom[1], &cqa, &txcq[i], NULL), 0);
		ck_assert_int_eq(fi_ep_bind(tx[i], &txcq[i]->fid, FI_SEND),
				 0);
		ck_assert_int_eq(fi_enable(tx[i]), 0);
	}
	ck_assert_int_eq(fi_enable(sep), 0);
	len = sizeof(name);
	ck_assert_int_eq(fi_getname(&sep->fid, name, &len), 0);
	ck_assert_int_eq(fi_av_insert(av[0], name, 1, &b_in_a, 0, NULL), 1);
	len = sizeof(aname);
	ck_assert_int_eq(fi_getname(&aep->fid, aname, &len), 0);
	ck_assert_int_eq(fi_av_insert(av[1], aname, 1, &a_in_b, 0, NULL), 1);
	/* A's own name in its AV: another source, directed at by a
	 * receive that must take none of B's messages */
	ck_assert_int_eq(fi_av_insert(av[0], aname, 1, &nobody, 0, NULL), 1);

	ck_assert_int_eq(fi_trecv(aep, other, sizeof(other), NULL, nobody, 5,
				  0, other), 0);
	for (i = 0; i < NCTX; i++)
		ck_assert_int_eq(fi_trecv(aep, abuf[i], sizeof(abuf[i]), NULL,
					  b_in_a, 5, 0, abuf[i]), 0);
	for (i = 0; i < NCTX; i++) {
		snprintf(sbuf[i], sizeof(sbuf[i]), "from tx context %d", i);
		ck_assert_int_eq(fi_tsend(tx[i], sbuf[i], sizeof(sbuf[i]),
					  NULL, a_in_b, 5, sbuf[i]), 0);
	}
	end = uet_clock_now_ns() + WAIT_MS * UET_NSEC_PER_MSEC;
	for (got = 0; got < NCTX && uet_clock_now_ns() < end;) {
		for (i = 0; i < NCTX; i++)
			fi_cq_read(txcq[i], NULL, 0);
		ret = fi_cq_readfrom(acq, &e, 1, &src);
		if (ret == -FI_EAGAIN)
			continue;
		ck_assert_int_eq(ret, 1);
		if (!(e.flags & FI_RECV))
			continue;
		ck_assert_msg(e.op_context == abuf[0] ||
			      e.op_context == abuf[1],
			      "a receive not directed at B took B's message");
		ck_assert_uint_eq(src, b_in_a);
		got++;
	}
	ck_assert_int_eq(got, NCTX);
	ck_assert_str_eq(abuf[0], "from tx context 0");
	ck_assert_str_eq(abuf[1], "from tx context 1");
	ck_assert_int_eq(fi_cancel(&aep->fid, other), 0);

	for (i = 0; i < NCTX; i++) {
		ck_assert_int_eq(fi_close(&tx[i]->fid), 0);
		ck_assert_int_eq(fi_close(&txcq[i]->fid), 0);
	}
	ck_assert_int_eq(fi_close(&sep->fid), 0);
	ck_assert_int_eq(fi_close(&aep->fid), 0);
	ck_assert_int_eq(fi_close(&acq->fid), 0);
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(fi_close(&av[i]->fid), 0);
		ck_assert_int_eq(fi_close(&dom[i]->fid), 0);
	}
	ck_assert_int_eq(fi_close(&fab->fid), 0);
	fi_freeinfo(info);
}
END_TEST

static Suite *prov_sep_suite(void)
{
	Suite *s = suite_create("prov_sep");
	TCase *tc = tcase_create("scalable_ep");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_sep);
	tcase_add_test(tc, test_sep_source);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(prov_sep_suite)
