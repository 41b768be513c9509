/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fake PDS for the SES tests; see ses_fake_pds.h.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "ses_fake_pds.h"
#include "uet_pds_wire.h"
#include "uet_wire_consts.h"
#include "uet_rand.h"

/* One direction between two addresses. */
struct fake_pdc {
	struct fake_pdc *next;
	struct uet_link_addr from;
	struct uet_link_addr to;
	unsigned int in_flight;
	uint32_t psn;
};

struct fake_ent {
	struct uet_pds *src;		/* NULL once the sender is gone */
	struct fake_pdc *pdc;
	struct uet_pds_tx_pkt *pkt;
	uint8_t mode;
	uint32_t psn;
	bool delivered;
	uint8_t rsp_nh;
	uint16_t rsp_len;
	uint8_t rsp[UET_PDS_RSP_MAX];
};

struct uet_pds {
	struct fake_net *net;
	struct uet_pds *next;
	struct uet_link_addr addr;
	const struct uet_pds_upcalls *up;
	void *up_ctx;
	int last_rx;
	int fail_err;
	unsigned int fail_n;
};

struct fake_net {
	struct fake_net_cfg cfg;
	uint64_t rng;
	struct uet_pds *nodes;
	struct fake_pdc *pdcs;
	struct fake_ent **ents;
	size_t nents;
	size_t cap;
	struct fake_net_stats st;
	fake_tap_fn tap;
	void *tap_arg;
};

static uint64_t fake_rand(struct fake_net *net)
{
	return uet_rand_next(&net->rng);
}

static bool fake_addr_eq(const struct uet_link_addr *a,
			 const struct uet_link_addr *b)
{
	return a->len == b->len && !memcmp(&a->ss, &b->ss, a->len);
}

int fake_net_create(struct fake_net **out, const struct fake_net_cfg *cfg)
{
	struct fake_net *net = calloc(1, sizeof(*net));

	if (!net)
		return -ENOMEM;
	net->cfg = *cfg;
	if (!net->cfg.window)
		net->cfg.window = 64;
	net->rng = cfg->seed ? cfg->seed : 0x1234567887654321ull;
	*out = net;
	return 0;
}

void fake_net_destroy(struct fake_net *net)
{
	struct fake_pdc *p;
	size_t i;

	if (!net)
		return;
	while ((p = net->pdcs) != NULL) {
		net->pdcs = p->next;
		free(p);
	}
	for (i = 0; i < net->nents; i++)
		free(net->ents[i]);
	free(net->ents);
	free(net);
}

void fake_net_set_order(struct fake_net *net, uint8_t order)
{
	net->cfg.order = order;
}

void fake_net_set_tap(struct fake_net *net, fake_tap_fn fn, void *arg)
{
	net->tap = fn;
	net->tap_arg = arg;
}

int fake_pds_create(struct fake_net *net, const char *ip, uint16_t port,
		    struct uet_pds **out)
{
	struct sockaddr_in sin;
	struct uet_pds *pds;

	pds = calloc(1, sizeof(*pds));
	if (!pds)
		return -ENOMEM;
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(port);
	if (inet_pton(AF_INET, ip, &sin.sin_addr) != 1) {
		free(pds);
		return -EINVAL;
	}
	memcpy(&pds->addr.ss, &sin, sizeof(sin));
	pds->addr.len = sizeof(sin);
	pds->net = net;
	pds->next = net->nodes;
	net->nodes = pds;
	*out = pds;
	return 0;
}

const struct uet_link_addr *fake_pds_addr(const struct uet_pds *pds)
{
	return &pds->addr;
}

int fake_pds_last_rx(const struct uet_pds *pds)
{
	return pds->last_rx;
}

void fake_pds_fail_sends(struct uet_pds *pds, int err, unsigned int n)
{
	pds->fail_err = err;
	pds->fail_n = n;
}

static struct uet_pds *fake_node(struct fake_net *net,
				 const struct uet_link_addr *a)
{
	struct uet_pds *n;

	for (n = net->nodes; n; n = n->next)
		if (fake_addr_eq(&n->addr, a))
			return n;
	return NULL;
}

static struct fake_pdc *fake_pdc_get(struct fake_net *net,
				     const struct uet_link_addr *from,
				     const struct uet_link_addr *to)
{
	struct fake_pdc *p;

	for (p = net->pdcs; p; p = p->next)
		if (fake_addr_eq(&p->from, from) && fake_addr_eq(&p->to, to))
			return p;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->from = *from;
	p->to = *to;
	p->psn = (uint32_t)fake_rand(net);
	p->next = net->pdcs;
	net->pdcs = p;
	return p;
}

static int fake_push(struct fake_net *net, struct fake_ent *e, bool head)
{
	struct fake_ent **n;

	if (net->nents == net->cap) {
		n = realloc(net->ents, (net->cap ? net->cap * 2 : 64) *
			    sizeof(*n));
		if (!n)
			return -ENOMEM;
		net->ents = n;
		net->cap = net->cap ? net->cap * 2 : 64;
	}
	if (head) {
		memmove(net->ents + 1, net->ents, net->nents * sizeof(*n));
		net->ents[0] = e;
	} else {
		net->ents[net->nents] = e;
	}
	net->nents++;
	return 0;
}

static struct fake_ent *fake_take(struct fake_net *net, size_t i)
{
	struct fake_ent *e = net->ents[i];

	memmove(net->ents + i, net->ents + i + 1,
		(net->nents - i - 1) * sizeof(net->ents[0]));
	net->nents--;
	return e;
}

static int fake_queue(struct uet_pds *pds, struct fake_pdc *pdc,
		      struct uet_pds_tx_pkt *pkt, uint8_t mode)
{
	struct fake_net *net = pds->net;
	struct fake_ent *e;

	if (!pkt || pkt->hdr_len > UET_PDS_SES_HDR_MAX ||
	    pkt->iovcnt > UET_PDS_TX_MAX_IOV)
		return -EINVAL;
	if (pds->fail_n) {
		pds->fail_n--;
		return pds->fail_err;
	}
	if (pdc->in_flight >= net->cfg.window) {
		net->st.busy++;
		return -EAGAIN;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->src = pds;
	e->pdc = pdc;
	e->pkt = pkt;
	/* A real PDC carries both directions: what comes back arrives on
	 * the reverse fake PDC, so that is the one uet_pds_pkt_pdc names. */
	pkt->priv.pdc = fake_pdc_get(net, &pdc->to, &pdc->from);
	e->mode = mode;
	e->psn = pdc->psn++;
	if (fake_push(net, e, false)) {
		free(e);
		return -ENOMEM;
	}
	pdc->in_flight++;
	if (pdc->in_flight > net->st.max_in_flight)
		net->st.max_in_flight = pdc->in_flight;
	net->st.sent++;
	return 0;
}

/* ---- the uet_pds.h functions SES calls ---- */

void uet_pds_set_upcalls(struct uet_pds *pds, const struct uet_pds_upcalls *up,
			 void *up_ctx)
{
	pds->up = up;
	pds->up_ctx = up_ctx;
}

unsigned int uet_pds_tx_space(struct uet_pds *pds,
			      const struct uet_pds_key *key)
{
	struct fake_pdc *p;

	for (p = pds->net->pdcs; p; p = p->next)
		if (fake_addr_eq(&p->from, &pds->addr) &&
		    fake_addr_eq(&p->to, &key->dst))
			return pds->net->cfg.window - p->in_flight;
	/* No PDC yet: opening nothing, report none (like a cold PDS). */
	return 0;
}

/* The fake network never holds a send: every one waits for its answer,
 * as the SES tests expect. */
bool uet_pds_peer_alive(struct uet_pds *pds, const struct uet_pds_key *key)
{
	(void)pds;
	(void)key;
	return false;
}

int uet_pds_send(struct uet_pds *pds, const struct uet_pds_key *key,
		 struct uet_pds_tx_pkt *pkt, uint64_t now)
{
	struct fake_pdc *pdc;

	if (!key)
		return -EINVAL;
	pdc = fake_pdc_get(pds->net, &pds->addr, &key->dst);
	if (!pdc)
		return -ENOMEM;
	return fake_queue(pds, pdc, pkt, key->mode);
}

int uet_pds_send_reply(struct uet_pds *pds, void *rx_pdc,
		       struct uet_pds_tx_pkt *pkt, uint64_t now)
{
	struct fake_pdc *in = rx_pdc, *pdc;

	if (!in || !fake_addr_eq(&in->to, &pds->addr))
		return -EINVAL;
	pdc = fake_pdc_get(pds->net, &pds->addr, &in->from);
	if (!pdc)
		return -ENOMEM;
	return fake_queue(pds, pdc, pkt, UET_PDS_MODE_RUD);
}

size_t uet_pds_path_mtu(struct uet_pds *pds, const struct uet_link_addr *dst)
{
	(void)dst;
	return pds->net->cfg.path_mtu;
}

size_t uet_pds_reply_mtu(struct uet_pds *pds, void *rx_pdc)
{
	(void)rx_pdc;
	return pds->net->cfg.path_mtu;
}

void *uet_pds_pkt_pdc(const struct uet_pds_tx_pkt *pkt)
{
	return pkt->priv.pdc;
}

void uet_pds_destroy(struct uet_pds *pds)
{
	struct fake_net *net = pds->net;
	struct uet_pds **pp;
	struct fake_ent *e;
	size_t i;

	/* Our packets fail; packets to us fail when they come up. */
	for (i = 0; i < net->nents;) {
		e = net->ents[i];
		if (e->src != pds) {
			i++;
			continue;
		}
		fake_take(net, i);
		e->pdc->in_flight--;
		net->st.failed++;
		if (pds->up)
			pds->up->tx_done(pds->up_ctx, e->pkt, -ECANCELED,
					 UET_HDR_NONE, NULL, 0);
		free(e);
		i = 0;
	}
	for (pp = &net->nodes; *pp; pp = &(*pp)->next) {
		if (*pp == pds) {
			*pp = pds->next;
			break;
		}
	}
	free(pds);
}

/* ---- the net ---- */

static void fake_done(struct fake_net *net, struct fake_ent *e, int status)
{
	struct uet_pds *src = e->src;
	bool rsp = e->rsp_nh != UET_HDR_NONE;

	e->pdc->in_flight--;
	if (rsp && !e->pkt->want_rsp && net->cfg.rsp_drop_pct &&
	    fake_rand(net) % 100 < net->cfg.rsp_drop_pct) {
		rsp = false;
		net->st.rsp_dropped++;
	}
	if (status)
		net->st.failed++;
	else
		net->st.acked++;
	if (src && src->up)
		src->up->tx_done(src->up_ctx, e->pkt, status,
				 rsp ? e->rsp_nh : UET_HDR_NONE,
				 rsp ? e->rsp : NULL, rsp ? e->rsp_len : 0);
	free(e);
}

/* What PDS sends when SES gave no response: the Default SES Response. */
static void fake_default_rsp(struct fake_ent *e)
{
	struct uet_pds_default_ses_rsp d;
	ssize_t n;

	memset(&d, 0, sizeof(d));
	d.opcode = UET_DEFAULT_RESPONSE;
	d.return_code = UET_RC_OK;
	n = uet_pds_default_ses_rsp_encode(UET_WIRE_UEPLUS, e->rsp, sizeof(e->rsp), &d);
	if (n < 0)
		return;
	e->rsp_nh = UET_HDR_RESPONSE;
	e->rsp_len = (uint16_t)n;
}

enum fake_rx_result {
	FAKE_GONE,		/* failed and freed */
	FAKE_DELIVERED,		/* delivered, ACK pending */
	FAKE_NACKED,		/* refused (-EAGAIN): offer again later */
};

static enum fake_rx_result fake_deliver(struct fake_net *net,
					struct fake_ent *e)
{
	struct uet_pds_tx_pkt *p = e->pkt;
	struct uet_pds_rx_info info;
	struct uet_pds_rsp rsp;
	struct uet_pds *dst;
	uint8_t *buf;
	size_t len = p->hdr_len, off;
	unsigned int i;
	int ret;

	dst = fake_node(net, &e->pdc->to);
	if (!dst || !dst->up) {
		fake_done(net, e, -ETIMEDOUT);
		return FAKE_GONE;
	}
	for (i = 0; i < p->iovcnt; i++)
		len += p->iov[i].iov_len;
	buf = malloc(len ? len : 1);
	if (!buf)
		return FAKE_NACKED;
	memcpy(buf, p->hdr, p->hdr_len);
	off = p->hdr_len;
	for (i = 0; i < p->iovcnt; i++) {
		memcpy(buf + off, p->iov[i].iov_base, p->iov[i].iov_len);
		off += p->iov[i].iov_len;
	}
	memset(&info, 0, sizeof(info));
	info.src = &e->pdc->from;
	info.mode = e->mode;
	info.next_hdr = p->next_hdr;
	info.psn = e->psn;
	info.pdc = e->pdc;
	info.ses = buf;
	info.ses_len = len;
	memset(&rsp, 0, sizeof(rsp));
	rsp.next_hdr = UET_HDR_NONE;
	ret = dst->up->rx(dst->up_ctx, &info, &rsp);
	dst->last_rx = ret;
	if (net->tap)
		net->tap(net->tap_arg, info.src, &e->pdc->to, e->mode,
			 p->next_hdr, buf, len, ret);
	free(buf);
	if (ret == -EAGAIN) {
		net->st.nacked++;
		return FAKE_NACKED;
	}
	if (ret < 0) {
		net->st.rx_err++;
		rsp.next_hdr = UET_HDR_NONE;
	} else {
		net->st.delivered++;
	}
	e->delivered = true;
	e->rsp_nh = rsp.next_hdr;
	if (rsp.next_hdr != UET_HDR_NONE) {
		e->rsp_len = rsp.len <= UET_PDS_RSP_MAX ? rsp.len : 0;
		memcpy(e->rsp, rsp.buf, e->rsp_len);
	} else if (net->cfg.order == FAKE_SHUFFLE && (fake_rand(net) & 1)) {
		fake_default_rsp(e);
	}
	return FAKE_DELIVERED;
}

static unsigned int fake_step_one(struct fake_net *net)
{
	enum fake_rx_result r;
	struct fake_ent *e;
	size_t n = net->nents;

	if (!n)
		return 0;
	switch (net->cfg.order) {
	case FAKE_SHUFFLE:
		e = fake_take(net, fake_rand(net) % n);
		if (e->delivered) {
			fake_done(net, e, 0);
			return 1;
		}
		/* Delivered: a random later step ACKs it; NACKed: retry. */
		r = fake_deliver(net, e);
		if (r != FAKE_GONE && fake_push(net, e, false))
			fake_done(net, e, -ENOMEM);
		return 1;
	case FAKE_LIFO:
		e = fake_take(net, n - 1);
		r = fake_deliver(net, e);
		if (r == FAKE_DELIVERED)
			fake_done(net, e, 0);
		else if (r == FAKE_NACKED && fake_push(net, e, true))
			fake_done(net, e, -ENOMEM);
		return 1;
	default:
		e = fake_take(net, 0);
		r = fake_deliver(net, e);
		if (r == FAKE_DELIVERED)
			fake_done(net, e, 0);
		else if (r == FAKE_NACKED && fake_push(net, e, false))
			fake_done(net, e, -ENOMEM);
		return 1;
	}
}

unsigned int fake_net_step(struct fake_net *net, unsigned int max)
{
	unsigned int done = 0;

	while (done < max && fake_step_one(net))
		done++;
	return done;
}

size_t fake_net_pending(const struct fake_net *net)
{
	return net->nents;
}

void fake_net_fail_all(struct fake_net *net, int status)
{
	while (net->nents)
		fake_done(net, fake_take(net, 0), status);
}

void fake_net_get_stats(const struct fake_net *net, struct fake_net_stats *st)
{
	*st = net->st;
}

int fake_pds_inject(struct uet_pds *dst, const struct uet_link_addr *src,
		    uint8_t next_hdr, const void *ses, size_t len,
		    struct uet_pds_rsp *rsp)
{
	struct uet_pds_rx_info info;
	struct fake_pdc *pdc;
	int ret;

	if (!dst->up)
		return -ENODEV;
	pdc = fake_pdc_get(dst->net, src, &dst->addr);
	if (!pdc)
		return -ENOMEM;
	memset(&info, 0, sizeof(info));
	info.src = &pdc->from;
	info.mode = UET_PDS_MODE_RUD;
	info.next_hdr = next_hdr;
	info.psn = pdc->psn++;
	info.pdc = pdc;
	info.ses = ses;
	info.ses_len = len;
	memset(rsp, 0, sizeof(*rsp));
	rsp->next_hdr = UET_HDR_NONE;
	ret = dst->up->rx(dst->up_ctx, &info, rsp);
	dst->last_rx = ret;
	return ret;
}
