/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The extension header's provider side (include/rdma/fi_uet_ext.h), in
 * process: the FI_OPT_UET_* endpoint options and what they change on the
 * wire (the mode of the PDCs both NICs see), FI_UET_OPS_V2's per-peer PDC
 * state, prov_errno of error completions (FI_UET_RC_* from the target,
 * FI_UET_PROV_ERRNO_BASE + FI_E* locally), and the address helpers
 * against the provider's own address codec.  Two domains (two software
 * NICs) on 127.0.0.1.
 */
#include "config.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fi_errno.h>
#include <rdma/fi_uet_ext.h>

#include "uet_addr.h"
#include "uet_clock.h"
#include "uet_prov.h"
#include "uet_test.h"
#include "prov_test.h"

#define API		FI_VERSION(1, 17)
#define WAIT_MS		10000

struct xside {
	struct fid_domain *dom;
	struct fid_ep *ep;
	struct fid_cq *cq;
	struct fid_av *av;
	fi_addr_t peer;
	struct fi_uet_ops_v2 *ops;
};

struct xpair {
	struct fi_info *info;
	struct fid_fabric *fab;
	struct xside s[2];
};

/* Open both sides up to (not including) fi_enable; side i's domain in
 * wire profile wire[i] (enum fi_uet_wire; 0: FI_UET_WIRE's). */
static void xpair_open_wire(struct xpair *p, const int wire[2])
{
	struct fi_cq_attr cqa = { .format = FI_CQ_FORMAT_TAGGED };
	struct fi_av_attr ava = { .type = FI_AV_TABLE };
	void *ops;
	int i;

	memset(p, 0, sizeof(*p));
	p->info = uet_test_lo_info(API, FI_MSG | FI_TAGGED);
	ck_assert_int_eq(uet_fabric(p->info->fabric_attr, &p->fab, NULL), 0);
	for (i = 0; i < 2; i++) {
		struct xside *s = &p->s[i];

		ck_assert_int_eq(fi_uet_addr_set_wire(p->info->src_addr,
						      p->info->src_addrlen,
						      wire[i]), 0);
		ck_assert_int_eq(fi_domain(p->fab, p->info, &s->dom, NULL), 0);
		ck_assert_int_eq(fi_open_ops(&s->dom->fid, FI_UET_OPS_V2, 0,
					     &ops, NULL), 0);
		s->ops = ops;
		ck_assert_uint_eq(s->ops->size, sizeof(struct fi_uet_ops_v2));
		ck_assert_int_eq(fi_cq_open(s->dom, &cqa, &s->cq, NULL), 0);
		ck_assert_int_eq(fi_av_open(s->dom, &ava, &s->av, NULL), 0);
		ck_assert_int_eq(fi_endpoint(s->dom, p->info, &s->ep, NULL),
				 0);
		ck_assert_int_eq(fi_ep_bind(s->ep, &s->cq->fid,
					    FI_TRANSMIT | FI_RECV), 0);
		ck_assert_int_eq(fi_ep_bind(s->ep, &s->av->fid, 0), 0);
	}
}

static void xpair_open(struct xpair *p)
{
	const int wire[2] = { FI_UET_WIRE_UNSPEC, FI_UET_WIRE_UNSPEC };

	xpair_open_wire(p, wire);
}

static void xpair_enable(struct xpair *p)
{
	uint8_t name[2][64];
	size_t len;
	int i;

	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(fi_enable(p->s[i].ep), 0);
		len = sizeof(name[i]);
		ck_assert_int_eq(fi_getname(&p->s[i].ep->fid, name[i], &len),
				 0);
	}
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(fi_av_insert(p->s[i].av, name[1 - i], 1,
					      &p->s[i].peer, 0, NULL), 1);
}

static void xpair_close(struct xpair *p)
{
	int i;

	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(fi_close(&p->s[i].ep->fid), 0);
		ck_assert_int_eq(fi_close(&p->s[i].av->fid), 0);
		ck_assert_int_eq(fi_close(&p->s[i].cq->fid), 0);
		ck_assert_int_eq(fi_close(&p->s[i].dom->fid), 0);
	}
	ck_assert_int_eq(fi_close(&p->fab->fid), 0);
	fi_freeinfo(p->info);
}

static int xwait(struct xpair *p, int i, struct fi_cq_err_entry *err)
{
	struct fi_cq_tagged_entry e;

	return uet_test_cq_wait(p->s[i].cq, p->s[1 - i].cq, WAIT_MS, &e,
				NULL, err);
}

/* n messages from side `from` to the other side, each completed. */
static void xsend(struct xpair *p, int from, unsigned int n)
{
	static char sb[3000], rb[3000];
	struct fi_cq_err_entry err;
	unsigned int k;

	for (k = 0; k < n; k++) {
		memset(sb, 'a' + (int)k, sizeof(sb));
		ck_assert_int_eq(fi_recv(p->s[1 - from].ep, rb, sizeof(rb),
					 NULL, FI_ADDR_UNSPEC, NULL), 0);
		ck_assert_int_eq(fi_send(p->s[from].ep, sb, sizeof(sb), NULL,
					 p->s[from].peer, NULL), 0);
		ck_assert_int_eq(xwait(p, 1 - from, &err), 1);
		ck_assert_int_eq(xwait(p, from, &err), 1);
		ck_assert(!memcmp(rb, sb, sizeof(sb)));
	}
}

/* Side i's PDCs with the other side's NIC. */
static void xpdcs(struct xpair *p, int i, struct fi_uet_peer_pdcs *pd)
{
	memset(pd, 0xee, sizeof(*pd));
	ck_assert_int_eq(p->s[i].ops->get_peer_pdcs(p->s[i].dom, p->s[i].av,
						    p->s[i].peer, pd,
						    sizeof(*pd)), 0);
	ck_assert_uint_le(pd->nfilled, FI_UET_PEER_PDC_MAX);
	ck_assert_uint_eq(pd->nfilled, pd->npdcs);
}

/* The mode of side i's PDC with the peer that `initiator` says; -1 when
 * there is none. */
static int xmode(const struct fi_uet_peer_pdcs *pd, bool initiator)
{
	unsigned int k;
	int mode = -1;

	for (k = 0; k < pd->nfilled; k++) {
		if (pd->pdc[k].initiator != initiator)
			continue;
		ck_assert_int_eq(mode, -1);	/* one of each here */
		mode = (int)pd->pdc[k].mode;
	}
	return mode;
}

static void xset_mode(struct xpair *p, int i, uint32_t mode)
{
	ck_assert_int_eq(fi_setopt(&p->s[i].ep->fid, FI_OPT_ENDPOINT,
				   FI_OPT_UET_DELIVERY, &mode, sizeof(mode)),
			 0);
}

/* The option's contract: values, size, state, getopt, tclass. */
START_TEST(test_delivery_option_args)
{
	struct xpair p;
	uint32_t v;
	uint64_t big = FI_UET_DELIVERY_ROD;
	size_t len;
	struct fid *ep;

	xpair_open(&p);
	ep = &p.s[0].ep->fid;
	len = sizeof(v);
	ck_assert_int_eq(fi_getopt(ep, FI_OPT_ENDPOINT, FI_OPT_UET_DELIVERY,
				   &v, &len), 0);
	ck_assert_uint_eq(v, FI_UET_DELIVERY_DEFAULT);
	ck_assert_uint_eq(len, sizeof(v));
	v = FI_UET_DELIVERY_ROD + 1;
	ck_assert_int_eq(fi_setopt(ep, FI_OPT_ENDPOINT, FI_OPT_UET_DELIVERY,
				   &v, sizeof(v)), -FI_EINVAL);
	ck_assert_int_eq(fi_setopt(ep, FI_OPT_ENDPOINT, FI_OPT_UET_DELIVERY,
				   &big, sizeof(big)), -FI_EINVAL);
	ck_assert_int_eq(fi_setopt(ep, FI_OPT_ENDPOINT, FI_OPT_UET_DELIVERY,
				   NULL, sizeof(v)), -FI_EINVAL);
	len = 2;
	ck_assert_int_eq(fi_getopt(ep, FI_OPT_ENDPOINT, FI_OPT_UET_DELIVERY,
				   &v, &len), -FI_EINVAL);
	xset_mode(&p, 0, FI_UET_DELIVERY_ROD);
	len = sizeof(v);
	ck_assert_int_eq(fi_getopt(ep, FI_OPT_ENDPOINT, FI_OPT_UET_DELIVERY,
				   &v, &len), 0);
	ck_assert_uint_eq(v, FI_UET_DELIVERY_ROD);
	/* traffic class: best effort only */
	v = FI_TC_LOW_LATENCY;
	ck_assert_int_eq(fi_setopt(ep, FI_OPT_ENDPOINT, FI_OPT_UET_TCLASS,
				   &v, sizeof(v)), -FI_EOPNOTSUPP);
	v = FI_TC_BEST_EFFORT;
	ck_assert_int_eq(fi_setopt(ep, FI_OPT_ENDPOINT, FI_OPT_UET_TCLASS,
				   &v, sizeof(v)), 0);
	v = 0;
	ck_assert_int_eq(fi_getopt(ep, FI_OPT_ENDPOINT, FI_OPT_UET_TCLASS,
				   &v, &len), 0);
	ck_assert_uint_eq(v, FI_TC_BEST_EFFORT);
	/* a name just outside the range */
	ck_assert_int_eq(fi_getopt(ep, FI_OPT_ENDPOINT,
				   FI_OPT_UET_TCLASS + 1, &v, &len),
			 -FI_ENOPROTOOPT);
	xpair_enable(&p);
	v = FI_UET_DELIVERY_RUD;
	ck_assert_int_eq(fi_setopt(ep, FI_OPT_ENDPOINT, FI_OPT_UET_DELIVERY,
				   &v, sizeof(v)), -FI_EOPBADSTATE);
	v = FI_TC_BEST_EFFORT;
	ck_assert_int_eq(fi_setopt(ep, FI_OPT_ENDPOINT, FI_OPT_UET_TCLASS,
				   &v, sizeof(v)), -FI_EOPBADSTATE);
	ck_assert_int_eq(fi_getopt(ep, FI_OPT_ENDPOINT, FI_OPT_UET_DELIVERY,
				   &v, &len), 0);
	ck_assert_uint_eq(v, FI_UET_DELIVERY_ROD);
	xpair_close(&p);
}
END_TEST

/*
 * ROD on one endpoint of a RUD domain: its NIC opens a ROD PDC, and the
 * peer's NIC sees ROD requests (its target PDC is ROD), while the
 * peer's own sends stay RUD.
 */
START_TEST(test_delivery_rod_on_wire)
{
	struct fi_uet_peer_pdcs pd;
	struct xpair p;

	unsetenv("FI_UET_DELIVERY");
	xpair_open(&p);
	xset_mode(&p, 0, FI_UET_DELIVERY_ROD);
	xpair_enable(&p);
	xpdcs(&p, 0, &pd);
	ck_assert_uint_eq(pd.npdcs, 0);
	xsend(&p, 0, 4);
	xsend(&p, 1, 4);
	xpdcs(&p, 0, &pd);
	ck_assert_int_eq(xmode(&pd, true), FI_UET_DELIVERY_ROD);
	ck_assert_int_eq(xmode(&pd, false), FI_UET_DELIVERY_RUD);
	xpdcs(&p, 1, &pd);
	ck_assert_int_eq(xmode(&pd, false), FI_UET_DELIVERY_ROD);
	ck_assert_int_eq(xmode(&pd, true), FI_UET_DELIVERY_RUD);
	xpair_close(&p);
}
END_TEST

/* RUD asked explicitly under FI_UET_DELIVERY=rod stays RUD (the HSI's
 * DEFAULT and RUD are distinct). */
START_TEST(test_delivery_rud_under_env_rod)
{
	struct fi_uet_peer_pdcs pd;
	struct xpair p;

	setenv("FI_UET_DELIVERY", "rod", 1);
	xpair_open(&p);
	xset_mode(&p, 0, FI_UET_DELIVERY_RUD);
	xpair_enable(&p);
	xsend(&p, 0, 2);
	xsend(&p, 1, 2);
	xpdcs(&p, 0, &pd);
	ck_assert_int_eq(xmode(&pd, true), FI_UET_DELIVERY_RUD);
	ck_assert_int_eq(xmode(&pd, false), FI_UET_DELIVERY_ROD);
	xpdcs(&p, 1, &pd);
	ck_assert_int_eq(xmode(&pd, false), FI_UET_DELIVERY_RUD);
	ck_assert_int_eq(xmode(&pd, true), FI_UET_DELIVERY_ROD);
	xpair_close(&p);
	unsetenv("FI_UET_DELIVERY");
}
END_TEST

/* FI_UET_OPS_V2: the PDC state after traffic, arguments, and v1. */
START_TEST(test_ops_v2_peer_pdcs)
{
	struct fi_uet_peer_pdcs pd;
	struct fi_uet_pdc_state ini, *st = NULL;
	struct fi_uet_counters c;
	struct fi_uet_ops_v1 *v1;
	struct xpair p;
	uint32_t two[3] = { 0, 0, 0x1234 };
	unsigned int k;
	void *ops;

	unsetenv("FI_UET_DELIVERY");
	xpair_open(&p);
	xpair_enable(&p);
	xsend(&p, 0, 5);
	xpdcs(&p, 0, &pd);
	ck_assert_uint_eq(pd.npdcs, 1);
	for (k = 0; k < pd.nfilled; k++)
		if (pd.pdc[k].initiator)
			st = &pd.pdc[k];
	ck_assert_ptr_nonnull(st);
	ini = *st;
	st = &ini;		/* pd is read again below */
	ck_assert_uint_eq(st->mode, FI_UET_DELIVERY_RUD);
	ck_assert_uint_eq(st->established, 1);
	ck_assert_uint_ne(st->local_pdcid, 0);
	ck_assert_uint_ne(st->remote_pdcid, 0);
	/* 3000-byte messages: at least one packet each */
	ck_assert_uint_ge(st->tx_pkts, 5);
	ck_assert_uint_gt(st->srtt_ns, 0);
	ck_assert_uint_gt(st->min_rtt_ns, 0);
	ck_assert_uint_gt(st->rx_psn_window, 0);
	/* the peer's side of the same PDC */
	xpdcs(&p, 1, &pd);
	ck_assert_uint_eq(pd.npdcs, 1);
	ck_assert_uint_eq(pd.pdc[0].initiator, 0);
	ck_assert_uint_ge(pd.pdc[0].rx_pkts, 5);
	/* the target has received at least what the initiator knows acked,
	 * at most what it sent */
	ck_assert_int_ge((int32_t)(pd.pdc[0].rx_next_psn -
				   st->tx_unacked_psn), 0);
	ck_assert_int_ge((int32_t)(st->tx_next_psn - pd.pdc[0].rx_next_psn),
			 0);
	/* a short (older) struct gets its prefix only */
	ck_assert_int_eq(p.s[0].ops->get_peer_pdcs(p.s[0].dom, p.s[0].av,
						   p.s[0].peer, (void *)two,
						   2 * sizeof(uint32_t)), 0);
	ck_assert_uint_eq(two[0], 1);
	ck_assert_uint_eq(two[2], 0x1234);
	/* bad arguments */
	ck_assert_int_eq(p.s[0].ops->get_peer_pdcs(p.s[0].dom, p.s[0].av,
						   p.s[0].peer + 7, &pd,
						   sizeof(pd)), -FI_EINVAL);
	ck_assert_int_eq(p.s[0].ops->get_peer_pdcs(p.s[0].dom, p.s[1].av,
						   0, &pd, sizeof(pd)),
			 -FI_EINVAL);
	ck_assert_int_eq(p.s[0].ops->get_peer_pdcs(p.s[0].dom, NULL,
						   p.s[0].peer, &pd,
						   sizeof(pd)), -FI_EINVAL);
	ck_assert_int_eq(p.s[0].ops->get_peer_pdcs(p.s[0].dom, p.s[0].av,
						   p.s[0].peer, &pd, 0),
			 -FI_EINVAL);
	/* the counters through v2, and v1 still opens */
	ck_assert_int_eq(p.s[0].ops->get_counters(p.s[0].dom, &c, sizeof(c)),
			 0);
	ck_assert_uint_ge(c.pkts_tx, 5);
	ck_assert_int_eq(fi_open_ops(&p.s[0].dom->fid, FI_UET_OPS_V1, 0, &ops,
				     NULL), 0);
	v1 = ops;
	ck_assert_uint_eq(v1->size, sizeof(*v1));
	ck_assert_int_eq(v1->get_counters(p.s[0].dom, &c, sizeof(c)), 0);
	ck_assert_int_eq(fi_open_ops(&p.s[0].dom->fid, "uet_ops_v3", 0, &ops,
				     NULL), -FI_ENOSYS);
	xpair_close(&p);
}
END_TEST

/*
 * prov_errno: a send to an endpoint that does not exist (pid 99 on the
 * peer's NIC, its address built with fi_uet_addr_build) fails with the
 * target's SES return code; a truncated receive carries
 * FI_UET_PROV_ERRNO_BASE + FI_ETRUNC.
 */
START_TEST(test_prov_errno)
{
	struct sockaddr_storage nic;
	struct fi_cq_err_entry err;
	struct xpair p;
	uint8_t name[64], bad[64];
	char sb[300], rb[100], buf[160];
	size_t len = sizeof(name), blen = sizeof(bad);
	uint16_t pid, ri;
	fi_addr_t nobody;

	unsetenv("FI_UET_DELIVERY");
	xpair_open(&p);
	xpair_enable(&p);
	ck_assert_int_eq(fi_getname(&p.s[1].ep->fid, name, &len), 0);
	ck_assert_int_eq(fi_uet_addr_parse(name, len, &nic, &pid, &ri), 0);
	ck_assert_int_eq(fi_uet_addr_build((struct sockaddr *)&nic, 99, ri,
					   bad, &blen), 0);
	ck_assert_int_eq(fi_av_insert(p.s[0].av, bad, 1, &nobody, 0, NULL),
			 1);
	memset(sb, 7, sizeof(sb));
	ck_assert_int_eq(fi_send(p.s[0].ep, sb, sizeof(sb), NULL, nobody,
				 (void *)5), 0);
	ck_assert_int_eq(xwait(&p, 0, &err), -FI_EAVAIL);
	ck_assert_ptr_eq(err.op_context, (void *)5);
	ck_assert(fi_uet_prov_errno_is_rc(err.prov_errno));
	ck_assert_int_eq(err.prov_errno, FI_UET_RC_BAD_JOB_ID);
	ck_assert_int_eq(fi_uet_prov_errno_local(err.prov_errno), 0);
	ck_assert_ptr_nonnull(strstr(fi_cq_strerror(p.s[0].cq,
						    err.prov_errno, NULL, buf,
						    sizeof(buf)),
				     "BAD_JOB_ID"));
	/* truncation, seen locally at the receiver */
	ck_assert_int_eq(fi_recv(p.s[1].ep, rb, sizeof(rb), NULL,
				 FI_ADDR_UNSPEC, (void *)6), 0);
	ck_assert_int_eq(fi_send(p.s[0].ep, sb, sizeof(sb), NULL, p.s[0].peer,
				 NULL), 0);
	ck_assert_int_eq(xwait(&p, 1, &err), -FI_EAVAIL);
	ck_assert_int_eq(err.err, FI_ETRUNC);
	ck_assert(!fi_uet_prov_errno_is_rc(err.prov_errno));
	ck_assert_int_eq(err.prov_errno, FI_UET_PROV_ERRNO_BASE + FI_ETRUNC);
	ck_assert_int_eq(fi_uet_prov_errno_local(err.prov_errno), FI_ETRUNC);
	xpair_close(&p);
}
END_TEST

/* The header's address helpers agree with the provider's codec. */
START_TEST(test_addr_helpers)
{
	struct sockaddr_in sin;
	struct sockaddr_in6 sin6;
	struct sockaddr_storage nic;
	struct uet_addr a;
	uint8_t raw[64], mine[64];
	size_t len, n;
	uint16_t pid, ri;

	ck_assert_uint_eq(fi_uet_addr_size(AF_INET), sizeof(sin));
	ck_assert_uint_eq(fi_uet_addr_size(AF_INET6), sizeof(sin6));
	ck_assert_uint_eq(fi_uet_addr_size(AF_UNIX), 0);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(4793);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	len = 4;
	ck_assert_int_eq(fi_uet_addr_build((struct sockaddr *)&sin, 0xabc,
					   0x123, raw, &len), -FI_ETOOSMALL);
	ck_assert_uint_eq(len, sizeof(sin));
	len = sizeof(raw);
	ck_assert_int_eq(fi_uet_addr_build((struct sockaddr *)&sin, 0x1000,
					   0, raw, &len), -FI_EINVAL);
	ck_assert_int_eq(fi_uet_addr_build((struct sockaddr *)&sin, 0xabc,
					   0x123, raw, &len), 0);
	ck_assert_uint_eq(len, sizeof(sin));
	/* the provider decodes it, and encodes the same bytes */
	ck_assert_int_eq(uet_addr_from_raw(&a, raw, len), 0);
	ck_assert_uint_eq(a.pid, 0xabc);
	ck_assert_uint_eq(a.ri, 0x123);
	n = uet_addr_to_raw(&a, mine, sizeof(mine));
	ck_assert_uint_eq(n, len);
	ck_assert_mem_eq(mine, raw, len);
	ck_assert_int_eq(fi_uet_addr_parse(raw, len, &nic, &pid, &ri), 0);
	ck_assert_uint_eq(pid, 0xabc);
	ck_assert_uint_eq(ri, 0x123);
	ck_assert_mem_eq(&nic, &sin, sizeof(sin));
	/* reserved bytes set, short */
	raw[8 + 5] = 1;
	ck_assert_int_eq(fi_uet_addr_parse(raw, len, NULL, NULL, NULL),
			 -FI_EINVAL);
	ck_assert_int_eq(fi_uet_addr_parse(raw, len - 1, NULL, NULL, NULL),
			 -FI_EINVAL);

	memset(&sin6, 0, sizeof(sin6));
	sin6.sin6_family = AF_INET6;
	sin6.sin6_port = htons(4794);
	sin6.sin6_addr = in6addr_loopback;
	sin6.sin6_scope_id = 3;
	len = sizeof(raw);
	ck_assert_int_eq(fi_uet_addr_build((struct sockaddr *)&sin6, 0xfff,
					   0x001, raw, &len), 0);
	ck_assert_uint_eq(len, sizeof(sin6));
	ck_assert_int_eq(uet_addr_from_raw(&a, raw, len), 0);
	ck_assert_uint_eq(a.pid, 0xfff);
	ck_assert_uint_eq(a.ri, 0x001);
	n = uet_addr_to_raw(&a, mine, sizeof(mine));
	ck_assert_uint_eq(n, len);
	ck_assert_mem_eq(mine, raw, len);
	ck_assert_int_eq(fi_uet_addr_parse(raw, len, &nic, &pid, &ri), 0);
	ck_assert_uint_eq(pid, 0xfff);
	ck_assert_uint_eq(ri, 0x001);
	ck_assert_mem_eq(&nic, &sin6, sizeof(sin6));
	/* flowinfo bits 24-27: the wire profile (0-2), 28-31 reserved */
	ck_assert_int_eq(fi_uet_addr_wire(raw, len), FI_UET_WIRE_UNSPEC);
	ck_assert_int_eq(fi_uet_addr_set_wire(raw, len, FI_UET_WIRE_UE), 0);
	ck_assert_int_eq(fi_uet_addr_wire(raw, len), FI_UET_WIRE_UE);
	ck_assert_uint_eq(raw[4], 0x02);
	ck_assert_int_eq(fi_uet_addr_parse(raw, len, NULL, &pid, &ri), 0);
	ck_assert_uint_eq(pid, 0xfff);
	ck_assert_uint_eq(ri, 0x001);
	ck_assert_int_eq(fi_uet_addr_set_wire(raw, len, 3), -FI_EINVAL);
	raw[4] = 0x03;	/* no such profile */
	ck_assert_int_eq(fi_uet_addr_parse(raw, len, NULL, NULL, NULL),
			 -FI_EINVAL);
	raw[4] = 0x10;	/* flowinfo bit 28 */
	ck_assert_int_eq(fi_uet_addr_parse(raw, len, NULL, NULL, NULL),
			 -FI_EINVAL);
}
END_TEST

/* The domain's wire profile: said by fi_getname and the counters. */
static void xcheck_wire(struct xpair *p, int i, int wire)
{
	struct fi_uet_counters c;
	uint8_t name[64];
	size_t len = sizeof(name);

	ck_assert_int_eq(fi_getname(&p->s[i].ep->fid, name, &len), 0);
	ck_assert_int_eq(fi_uet_addr_wire(name, len), wire);
	ck_assert_int_eq(p->s[i].ops->get_counters(p->s[i].dom, &c,
						   sizeof(c)), 0);
	ck_assert_uint_eq(c.wire, (uint32_t)wire);
}

/* Two domains of the UE 1.0.1 profile talk, both ways, eager and
 * rendezvous; nothing is counted as a mismatch. */
START_TEST(test_wire_ue_pair)
{
	const int ue[2] = { FI_UET_WIRE_UE, FI_UET_WIRE_UE };
	struct fi_uet_counters c;
	struct xpair p;
	int i;

	unsetenv("FI_UET_WIRE");
	xpair_open_wire(&p, ue);
	xpair_enable(&p);
	xsend(&p, 0, 4);
	xsend(&p, 1, 4);
	for (i = 0; i < 2; i++) {
		xcheck_wire(&p, i, FI_UET_WIRE_UE);
		ck_assert_int_eq(p.s[i].ops->get_counters(p.s[i].dom, &c,
							  sizeof(c)), 0);
		ck_assert_uint_eq(c.wire_mismatch, 0);
		ck_assert_uint_eq(c.malformed, 0);
	}
	xpair_close(&p);
}
END_TEST

/* FI_UET_WIRE sets the profile of domains whose src_addr says none. */
START_TEST(test_wire_env)
{
	struct xpair p;

	setenv("FI_UET_WIRE", "ue", 1);
	xpair_open(&p);
	xpair_enable(&p);
	xcheck_wire(&p, 0, FI_UET_WIRE_UE);
	xsend(&p, 0, 2);
	xpair_close(&p);
	unsetenv("FI_UET_WIRE");
	xpair_open(&p);
	xpair_enable(&p);
	xcheck_wire(&p, 1, FI_UET_WIRE_UEPLUS);
	xpair_close(&p);
}
END_TEST

/* A UE+ domain and a UE 1.0.1 domain: fi_av_insert refuses the other's
 * address (FI_ADDR_NOTAVAIL, -FI_EADDRNOTAVAIL with FI_SYNC_ERR). */
START_TEST(test_wire_mismatch_av)
{
	const int mixed[2] = { FI_UET_WIRE_UEPLUS, FI_UET_WIRE_UE };
	uint8_t name[64];
	size_t len = sizeof(name);
	fi_addr_t a = 0;
	int err = 0;
	struct xpair p;

	unsetenv("FI_UET_WIRE");
	xpair_open_wire(&p, mixed);
	ck_assert_int_eq(fi_enable(p.s[0].ep), 0);
	ck_assert_int_eq(fi_enable(p.s[1].ep), 0);
	xcheck_wire(&p, 0, FI_UET_WIRE_UEPLUS);
	xcheck_wire(&p, 1, FI_UET_WIRE_UE);
	ck_assert_int_eq(fi_getname(&p.s[1].ep->fid, name, &len), 0);
	ck_assert_int_eq(fi_av_insert(p.s[0].av, name, 1, &a, 0, NULL), 0);
	ck_assert(a == FI_ADDR_NOTAVAIL);
	a = 0;
	ck_assert_int_eq(fi_av_insert(p.s[0].av, name, 1, &a, FI_SYNC_ERR,
				      &err), 0);
	ck_assert(a == FI_ADDR_NOTAVAIL);
	ck_assert_int_eq(err, FI_EADDRNOTAVAIL);
	len = sizeof(name);
	ck_assert_int_eq(fi_getname(&p.s[0].ep->fid, name, &len), 0);
	ck_assert_int_eq(fi_av_insert(p.s[1].av, name, 1, &a, 0, NULL), 0);
	ck_assert(a == FI_ADDR_NOTAVAIL);
	xpair_close(&p);
}
END_TEST

/* An address that says no profile gets through fi_av_insert; then the
 * first datagram tells: the UE 1.0.1 side counts it as wire_mismatch
 * (not malformed), nothing lands in its receive buffer, and the UE+
 * sender's send fails within its PDS bound instead of hanging. */
START_TEST(test_wire_mismatch_datagram)
{
	const int mixed[2] = { FI_UET_WIRE_UEPLUS, FI_UET_WIRE_UE };
	struct fi_uet_counters c;
	struct fi_cq_err_entry err;
	static char sb[3000], rb[3000];
	uint8_t name[64];
	size_t len = sizeof(name);
	fi_addr_t a;
	struct xpair p;

	unsetenv("FI_UET_WIRE");
	setenv("FI_UET_DEAD_MS", "400", 1);
	setenv("FI_UET_RTO_MIN_US", "20000", 1);
	xpair_open_wire(&p, mixed);
	ck_assert_int_eq(fi_enable(p.s[0].ep), 0);
	ck_assert_int_eq(fi_enable(p.s[1].ep), 0);
	ck_assert_int_eq(fi_getname(&p.s[1].ep->fid, name, &len), 0);
	ck_assert_int_eq(fi_uet_addr_set_wire(name, len, FI_UET_WIRE_UNSPEC),
			 0);
	ck_assert_int_eq(fi_av_insert(p.s[0].av, name, 1, &a, 0, NULL), 1);
	memset(sb, 'x', sizeof(sb));
	memset(rb, 0, sizeof(rb));
	ck_assert_int_eq(fi_recv(p.s[1].ep, rb, sizeof(rb), NULL,
				 FI_ADDR_UNSPEC, NULL), 0);
	ck_assert_int_eq(fi_send(p.s[0].ep, sb, sizeof(sb), NULL, a,
				 (void *)9), 0);
	ck_assert_int_eq(xwait(&p, 0, &err), -FI_EAVAIL);
	ck_assert_ptr_eq(err.op_context, (void *)9);
	ck_assert_int_ne(err.err, 0);
	ck_assert_int_eq(p.s[1].ops->get_counters(p.s[1].dom, &c, sizeof(c)),
			 0);
	ck_assert_uint_ge(c.wire_mismatch, 1);
	ck_assert_uint_eq(c.drops[FI_UET_DROP_WIRE_MISMATCH], c.wire_mismatch);
	ck_assert_uint_eq(c.malformed, 0);
	ck_assert_uint_eq(c.drops[FI_UET_DROP_SES_MALFORMED], 0);
	ck_assert(uet_bytes_are_zero((const uint8_t *)rb, sizeof(rb)));
	xpair_close(&p);
	unsetenv("FI_UET_DEAD_MS");
	unsetenv("FI_UET_RTO_MIN_US");
}
END_TEST

/*
 * More unexpected messages than the receiver buffers (FI_UET_UNEXP_MSGS
 * 4): the ones beyond are answered with NACK NO_PKT_BUF and sent again
 * until receives are posted; every message arrives, once, intact.  The
 * capture tests run this case ("flood") for its NACKs.
 */
START_TEST(test_unexp_flood)
{
	enum { N = 48, LEN = 1500 };
	static char sb[N][LEN], rb[N][LEN];
	struct fi_uet_counters c;
	struct xpair p;
	int k, got = 0, sent = 0;
	uint64_t end;

	unsetenv("FI_UET_DELIVERY");
	setenv("FI_UET_UNEXP_MSGS", "4", 1);
	xpair_open(&p);
	xpair_enable(&p);
	for (k = 0; k < N; k++) {
		memset(sb[k], 'A' + k % 26, LEN);
		sb[k][0] = (char)k;
		ck_assert_int_eq(fi_tsend(p.s[0].ep, sb[k], LEN, NULL,
					  p.s[0].peer, (uint64_t)k, NULL), 0);
	}
	/* let them land unexpected, and the surplus be refused */
	end = uet_clock_now_ns() + 300 * UET_NSEC_PER_MSEC;
	while (uet_clock_now_ns() < end) {
		fi_cq_read(p.s[0].cq, NULL, 0);
		fi_cq_read(p.s[1].cq, NULL, 0);
	}
	for (k = 0; k < N; k++)
		ck_assert_int_eq(fi_trecv(p.s[1].ep, rb[k], LEN, NULL,
					  FI_ADDR_UNSPEC, (uint64_t)k, 0,
					  NULL), 0);
	end = uet_clock_now_ns() + WAIT_MS * UET_NSEC_PER_MSEC;
	while ((got < N || sent < N) && uet_clock_now_ns() < end) {
		struct fi_cq_tagged_entry e;
		ssize_t r;

		r = fi_cq_read(p.s[1].cq, &e, 1);
		ck_assert(r == 1 || r == -FI_EAGAIN);
		got += r == 1;
		r = fi_cq_read(p.s[0].cq, &e, 1);
		ck_assert(r == 1 || r == -FI_EAGAIN);
		sent += r == 1;
	}
	ck_assert_int_eq(got, N);
	ck_assert_int_eq(sent, N);
	for (k = 0; k < N; k++)
		ck_assert(!memcmp(rb[k], sb[k], LEN));
	ck_assert_int_eq(p.s[0].ops->get_counters(p.s[0].dom, &c, sizeof(c)),
			 0);
	ck_assert_uint_gt(c.retransmissions, 0);
	ck_assert_int_eq(p.s[1].ops->get_counters(p.s[1].dom, &c, sizeof(c)),
			 0);
	ck_assert_uint_gt(c.drops[FI_UET_DROP_UNEXP_FULL], 0);
	xpair_close(&p);
	unsetenv("FI_UET_UNEXP_MSGS");
}
END_TEST

static Suite *prov_ext_suite(void)
{
	Suite *s = suite_create("prov_ext");
	TCase *tc = tcase_create("ext");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_delivery_option_args);
	tcase_add_test(tc, test_delivery_rod_on_wire);
	tcase_add_test(tc, test_delivery_rud_under_env_rod);
	tcase_add_test(tc, test_ops_v2_peer_pdcs);
	tcase_add_test(tc, test_prov_errno);
	tcase_add_test(tc, test_addr_helpers);
	tcase_add_test(tc, test_wire_ue_pair);
	tcase_add_test(tc, test_wire_env);
	tcase_add_test(tc, test_wire_mismatch_av);
	tcase_add_test(tc, test_wire_mismatch_datagram);
	suite_add_tcase(s, tc);
	tc = tcase_create("flood");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_unexp_flood);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(prov_ext_suite)
