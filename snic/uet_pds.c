/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * PDS: creation, configuration, statistics, the link output queues, the
 * completion queue, the timer pass and poll.  The protocol lives in
 * uet_pds_pdc.c, uet_pds_tx.c, uet_pds_rx.c and uet_pds_rudi.c; see
 * uet_pds_internal.h for the map and docs/software-nic.md (PDS) for the
 * state machines.
 *
 * Link output: every datagram goes out through link->ops->send as
 * iovecs.  Data packets are {header buffer (PDS + SES header, from
 * hbuf_pool), payload iovecs of the caller}; control datagrams are one
 * small buffer.  When the link accepts nothing (busy), control datagrams
 * are copied to ctlq (bounded; beyond it they are dropped and counted:
 * every one of them is recoverable) and data packets are linked on dataq
 * by priv.qentry; both queues are retried by the timer, data headers
 * being re-encoded at that time so that they carry the current state.
 *
 * Completions: tx_done upcalls are queued on doneq (priv.entry) while the
 * state machines run and delivered by uet_pds_flush_done() at the end of
 * uet_pds_rx() and uet_pds_timer(), so an upcall never runs in the middle
 * of a state change and may call uet_pds_send().
 */
#include "config.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "uet_byteorder.h"
#include "uet_pds_internal.h"
#include "uet_rand.h"

/* ---- configuration ---- */

void uet_pds_cfg_default(struct uet_pds_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->window = 256;
	cfg->rto_init_ns = 4000000ull;		/* 4 ms */
	cfg->rto_min_ns = 1000000ull;		/* 1 ms */
	cfg->rto_max_ns = 500000000ull;		/* 500 ms */
	cfg->max_retries = 12;
	cfg->dead_ns = 2000000000ull;		/* 2 s */
	cfg->unreach_ns = 1000000000ull;	/* 1 s */
	cfg->reorder_min_ns = 10000ull;		/* 10 us */
	cfg->ack_coalesce = 8;
	cfg->ack_delay_ns = 100000ull;		/* 100 us */
	cfg->idle_close_ns = 5000000000ull;	/* 5 s */
	cfg->max_pdcs = 4096;
	cfg->max_pdcs_per_src = 64;
	cfg->max_pdcs_per_ip = 512;
	cfg->seed = 0;
	cfg->fixed_start_psn = false;
	cfg->start_psn = 0;
}

static int uet_pds_cfg_check(const struct uet_pds_cfg *cfg)
{
	if (cfg->window == 0 || cfg->window > UET_PDS_WINDOW_MAX ||
	    cfg->wire >= UET_WIRE_NPROF)
		return -EINVAL;
	if (cfg->rto_min_ns == 0 || cfg->rto_min_ns > cfg->rto_max_ns ||
	    cfg->rto_init_ns < cfg->rto_min_ns ||
	    cfg->rto_init_ns > cfg->rto_max_ns)
		return -EINVAL;
	if (cfg->ack_coalesce == 0)
		return -EINVAL;
	if (cfg->max_pdcs == 0 || cfg->max_pdcs > UINT16_MAX - 1)
		return -EINVAL;
	if (cfg->max_retries > UINT16_MAX - 1)
		return -EINVAL;
	return 0;
}

/* ---- randomness ---- */

uint64_t uet_pds_rand(struct uet_pds *pds)
{
	return uet_rand_next(&pds->rng);
}

static uint64_t uet_pds_seed(const struct uet_pds_cfg *cfg,
			     const struct uet_pds *pds)
{
	uint64_t seed = cfg->seed;

	if (!seed &&
	    getrandom(&seed, sizeof(seed), GRND_NONBLOCK) != sizeof(seed))
		seed = uet_hash_u64((uint64_t)(uintptr_t)pds);
	seed = uet_hash_mix64(seed);
	return seed ? seed : 0x9e3779b97f4a7c15ull;
}

/* ---- helpers ---- */

size_t uet_pds_mode_hdr_len(const struct uet_pds *pds, uint8_t mode)
{
	switch (mode) {
	case UET_PDS_MODE_RUD:
	case UET_PDS_MODE_ROD:
		return uet_pds_type_len(pds->cfg.wire, UET_PDS_TYPE_RUD_REQ);
	case UET_PDS_MODE_UUD:
		return uet_pds_type_len(pds->cfg.wire, UET_PDS_TYPE_UUD_REQ);
	default:
		return uet_pds_type_len(pds->cfg.wire, UET_PDS_TYPE_RUDI_REQ);
	}
}

void uet_pds_default_rsp(const struct uet_pds *pds, struct uet_pds_rsp *rsp)
{
	struct uet_pds_default_ses_rsp d;
	ssize_t n;

	memset(&d, 0, sizeof(d));
	d.opcode = UET_DEFAULT_RESPONSE;
	d.return_code = UET_RC_OK;
	n = uet_pds_default_ses_rsp_encode(pds->cfg.wire, rsp->buf, sizeof(rsp->buf), &d);
	rsp->next_hdr = UET_HDR_RESPONSE;
	rsp->len = n > 0 ? (uint16_t)n : 0;
}

void uet_pds_rtt_sample(struct uet_pds *pds, struct uet_pds_rtt *rtt,
			uint64_t sample)
{
	uint64_t delta, rto;

	if (!rtt->valid) {
		rtt->srtt = sample;
		rtt->rttvar = sample / 2;
		rtt->min_rtt = sample;
		rtt->valid = true;
	} else {
		if (sample < rtt->min_rtt)
			rtt->min_rtt = sample;
		delta = rtt->srtt > sample ? rtt->srtt - sample :
					     sample - rtt->srtt;
		rtt->rttvar = (3 * rtt->rttvar + delta) / 4;
		rtt->srtt = (7 * rtt->srtt + sample) / 8;
	}
	rto = rtt->srtt + 4 * rtt->rttvar;
	if (rto < pds->cfg.rto_min_ns)
		rto = pds->cfg.rto_min_ns;
	if (rto > pds->cfg.rto_max_ns)
		rto = pds->cfg.rto_max_ns;
	rtt->rto = rto;
}

uint64_t uet_pds_rto_backoff(const struct uet_pds *pds,
			     const struct uet_pds_rtt *rtt, unsigned int shift)
{
	uint64_t rto = rtt->rto;

	while (shift-- && rto < pds->cfg.rto_max_ns) {
		if (rto > UINT64_MAX / 2)
			return pds->cfg.rto_max_ns;
		rto <<= 1;
	}
	return uet_pds_min64(rto, pds->cfg.rto_max_ns);
}

/* ---- link output ---- */

/* Queue a copy of a control datagram on ctlq (bounded: beyond it the
 * datagram is lost, as the network may lose it). */
static void uet_pds_ctl_queue(struct uet_pds *pds,
			      const struct uet_link_addr *dst,
			      uint16_t entropy, const uint8_t *buf, size_t len)
{
	struct uet_pds_ctl *c;

	if (pds->nctlq >= UET_PDS_CTLQ_MAX || len > sizeof(c->buf))
		return;
	c = uet_bufpool_get(&pds->ctl_pool);
	if (!c)
		return;
	c->dst = *dst;
	c->entropy = entropy;
	c->len = (uint16_t)len;
	memcpy(c->buf, buf, len);
	uet_dlist_insert_tail(&pds->ctlq, &c->entry);
	pds->nctlq++;
}

/* The link is busy: queue the datagram for the retry. */
static void uet_pds_ctl_enqueue(struct uet_pds *pds,
				const struct uet_link_addr *dst,
				uint16_t entropy, const uint8_t *buf,
				size_t len, uint64_t now)
{
	pds->busy_ns = now;
	uet_pds_ctl_queue(pds, dst, entropy, buf, len);
}

void uet_pds_out_ctl(struct uet_pds *pds, const struct uet_link_addr *dst,
		     uint16_t entropy, const uint8_t *buf, size_t len,
		     uint64_t now)
{
	struct uet_link_pkt lp;
	int ret;

	pds->st.tx_pkts++;
	pds->st.tx_bytes += len;
	if (pds->batch) {
		uet_pds_ctl_queue(pds, dst, entropy, buf, len);
		return;
	}
	if (!uet_dlist_empty(&pds->ctlq)) {
		uet_pds_ctl_enqueue(pds, dst, entropy, buf, len, now);
		return;
	}
	memset(&lp, 0, sizeof(lp));
	lp.dst = dst;
	lp.entropy = entropy;
	lp.iovcnt = 1;
	lp.iov[0].iov_base = (void *)buf;
	lp.iov[0].iov_len = len;
	ret = pds->link->ops->send(pds->link, &lp, 1);
	if (ret == 0) {
		pds->st.link_busy++;
		uet_pds_ctl_enqueue(pds, dst, entropy, buf, len, now);
	}
	/* A hard error loses the datagram, as the network may. */
}

static const struct uet_link_addr *uet_pds_pkt_dst(struct uet_pds_tx_pkt *pkt)
{
	struct uet_pdc *pdc = pkt->priv.pdc;
	struct uet_pds_hbuf *hb = pkt->priv.hbuf;

	return pdc ? &pdc->peer : &hb->dst;
}

static void uet_pds_encode_pkt(struct uet_pds *pds, struct uet_pds_tx_pkt *pkt)
{
	if (pkt->priv.pdc)
		uet_pdc_encode_req(pds, pkt);
	else
		uet_pds_nopdc_encode_hdr(pds, pkt);
}

/* The link datagram of an encoded packet. */
static void uet_pds_pkt_lp(struct uet_pds *pds, struct uet_pds_tx_pkt *pkt,
			   struct uet_link_pkt *lp)
{
	struct uet_pds_hbuf *hb = pkt->priv.hbuf;
	struct uet_pdc *pdc = pkt->priv.pdc;
	unsigned int i;

	lp->dst = uet_pds_pkt_dst(pkt);
	lp->sprayed = false;
	lp->entropy = pdc ? uet_pds_cc_entropy(pds, pdc, pkt, &lp->sprayed) :
			    (uint16_t)pkt->priv.psn;
	lp->iov[0].iov_base = hb->bytes;
	lp->iov[0].iov_len = (size_t)pkt->priv.pds_len + pkt->hdr_len;
	for (i = 0; i < pkt->iovcnt; i++)
		lp->iov[i + 1] = pkt->iov[i];
	lp->iovcnt = pkt->iovcnt + 1;
}

/* One send attempt of an encoded packet: 1 sent, 0 busy, < 0 error. */
static int uet_pds_try_pkt(struct uet_pds *pds, struct uet_pds_tx_pkt *pkt)
{
	struct uet_link_pkt lp;

	uet_pds_pkt_lp(pds, pkt, &lp);
	return pds->link->ops->send(pds->link, &lp, 1);
}

static size_t uet_pds_pkt_bytes(const struct uet_pds_tx_pkt *pkt)
{
	size_t n = (size_t)pkt->priv.pds_len + pkt->hdr_len;
	unsigned int i;

	for (i = 0; i < pkt->iovcnt; i++)
		n += pkt->iov[i].iov_len;
	return n;
}

/* The link took pkt (or lost it for good). */
static void uet_pds_pkt_gone(struct uet_pds *pds, struct uet_pds_tx_pkt *pkt,
			     int ret)
{
	struct uet_pdc *pdc = pkt->priv.pdc;

	UET_PDS_INC(pds, pdc, tx_pkts);
	UET_PDS_ADD(pds, pdc, tx_bytes, uet_pds_pkt_bytes(pkt));
	if (pkt->priv.state == UET_PKT_UUD) {
		pds->uud_pending--;
		uet_pds_complete(pds, pkt, ret < 0 ? ret : 0, UET_HDR_NONE,
				 NULL, 0);
	}
}

void uet_pds_out_pkt(struct uet_pds *pds, struct uet_pds_tx_pkt *pkt,
		     uint64_t now)
{
	int ret;

	if (uet_dlist_linked(&pkt->priv.qentry))
		return;		/* goes out, freshly encoded, at the flush */
	if (pds->batch || !uet_dlist_empty(&pds->dataq)) {
		uet_dlist_insert_tail(&pds->dataq, &pkt->priv.qentry);
		return;
	}
	uet_pds_encode_pkt(pds, pkt);
	ret = uet_pds_try_pkt(pds, pkt);
	if (ret == 0) {
		UET_PDS_INC(pds, (struct uet_pdc *)pkt->priv.pdc, link_busy);
		pds->busy_ns = now;
		uet_dlist_insert_tail(&pds->dataq, &pkt->priv.qentry);
		return;
	}
	uet_pds_pkt_gone(pds, pkt, ret);
}

void uet_pds_unqueue_pkt(struct uet_pds *pds, struct uet_pds_tx_pkt *pkt)
{
	if (uet_dlist_linked(&pkt->priv.qentry))
		uet_dlist_remove(&pkt->priv.qentry);
}

/* Fill lp[n..] from ctlq: the number of datagrams taken. */
static unsigned int uet_pds_take_ctl(struct uet_pds *pds,
				     struct uet_link_pkt *lp, void **what,
				     unsigned int n)
{
	struct uet_pds_ctl *c;

	uet_dlist_foreach_entry(&pds->ctlq, c, entry) {
		if (n == UET_PDS_TX_BATCH)
			break;
		lp[n].dst = &c->dst;
		lp[n].entropy = c->entropy;
		lp[n].sprayed = false;
		lp[n].iovcnt = 1;
		lp[n].iov[0].iov_base = c->buf;
		lp[n].iov[0].iov_len = c->len;
		what[n++] = c;
	}
	return n;
}

/* Fill lp[n..] from dataq, encoding each packet afresh. */
static unsigned int uet_pds_take_data(struct uet_pds *pds,
				      struct uet_link_pkt *lp, void **what,
				      unsigned int n)
{
	struct uet_pds_tx_pkt *pkt;

	uet_dlist_foreach_entry(&pds->dataq, pkt, priv.qentry) {
		if (n == UET_PDS_TX_BATCH)
			break;
		uet_pds_encode_pkt(pds, pkt);
		uet_pds_pkt_lp(pds, pkt, &lp[n]);
		what[n++] = pkt;
	}
	return n;
}

/* The data queue's length, counted up to cap (the queue may be long). */
static unsigned int uet_pds_dataq_len(struct uet_pds *pds, unsigned int cap)
{
	struct uet_pds_tx_pkt *pkt;
	unsigned int q = 0;

	uet_dlist_foreach_entry(&pds->dataq, pkt, priv.qentry) {
		if (++q >= cap)
			break;
	}
	return q;
}

/*
 * Send the queued datagrams, UET_PDS_TX_BATCH per link call (one
 * sendmmsg); stop when the link refuses one.  Data goes first when all
 * of it and the control fit in one call: a datagram is delivered on the
 * loopback (and leaves a NIC queue) in batch order, so the reply a
 * ping-pong waits for does not queue behind the ACK riding with it
 * (docs/performance.md, issue 18).  A single datagram of data goes in a
 * call of its own, the control in the next: the peer's link reads one
 * datagram a call while the traffic is sparse, so it hands the reply
 * over before the ACK reaches it.  Otherwise control goes first, so
 * that a long data queue never holds the ACKs back.
 */
static void uet_pds_flush_link(struct uet_pds *pds, uint64_t now)
{
	struct uet_link_pkt lp[UET_PDS_TX_BATCH];
	void *what[UET_PDS_TX_BATCH];
	unsigned int n, c0, c1, i;
	int ret, err;

	if (pds->batch)
		return;		/* batch_end flushes */
	for (;;) {
		if (pds->nctlq && pds->nctlq < UET_PDS_TX_BATCH &&
		    !uet_dlist_empty(&pds->dataq) &&
		    uet_pds_dataq_len(pds, UET_PDS_TX_BATCH) <=
		    UET_PDS_TX_BATCH - pds->nctlq) {
			c0 = uet_pds_take_data(pds, lp, what, 0);
			/* One datagram (a reply) leaves alone, the control
			 * in the next call: a receiver reading one datagram
			 * a call acts on it before it reads the ACK. */
			c1 = c0 == 1 ? c0 : uet_pds_take_ctl(pds, lp, what,
							     c0);
			n = c1;
			pds->st.data_first++;
		} else {
			c0 = 0;
			c1 = uet_pds_take_ctl(pds, lp, what, 0);
			n = uet_pds_take_data(pds, lp, what, c1);
		}
		if (n == 0)
			return;
		ret = pds->link->ops->send(pds->link, lp, n);
		/* A hard error for the first datagram loses it, as the
		 * network may; the rest are tried again. */
		err = ret < 0 ? ret : 0;
		if (ret < 0)
			ret = 1;
		for (i = 0; i < (unsigned int)ret; i++) {
			if (i >= c0 && i < c1) {
				struct uet_pds_ctl *c = what[i];

				uet_dlist_remove(&c->entry);
				pds->nctlq--;
				uet_bufpool_put(&pds->ctl_pool, c);
			} else {
				struct uet_pds_tx_pkt *pkt = what[i];

				uet_dlist_remove(&pkt->priv.qentry);
				uet_pds_pkt_gone(pds, pkt, i == 0 ? err : 0);
			}
		}
		if ((unsigned int)ret < n) {
			pds->st.link_busy++;
			pds->busy_ns = now;
			return;
		}
	}
}

void uet_pds_batch_begin(struct uet_pds *pds)
{
	if (pds)
		pds->batch++;
}

void uet_pds_batch_end(struct uet_pds *pds, uint64_t now)
{
	if (!pds || !pds->batch)
		return;
	if (pds->batch > 1) {
		pds->batch--;
		return;
	}
	now = uet_pds_clock(pds, now);
	if (pds->nctlq == 0 && uet_pds_dataq_len(pds, 2) == 1) {
		/* One datagram of data (a reply) and no control: it leaves
		 * now, in a call of its own as uet_pds_flush_link would send
		 * it, and the ACKs that ride with it are chosen and built
		 * after it left, off the reply's path. */
		const struct uet_link_addr *peer[UET_PDS_PIGGYBACK_PEERS];
		unsigned int np = uet_pds_piggyback_peers(pds, peer);

		pds->batch = 0;
		uet_pds_flush_link(pds, now);
		pds->batch = 1;
		uet_pds_piggyback_send(pds, peer, np, now);
		uet_pds_send_owed_acks(pds, now);
		if (pds->nctlq)
			pds->st.data_first++;
	} else {
		/* Still inside the batch: the owed ACKs, and the delayed
		 * ones to the peers the queued data goes to, join the
		 * queue. */
		uet_pds_send_piggyback_acks(pds, now);
		uet_pds_send_owed_acks(pds, now);
	}
	pds->batch = 0;
	pds->in_burst = false;
	uet_pds_flush_link(pds, now);
	uet_pds_flush_done(pds);
}

/*
 * Whether the queued data may wait for the next flush: it is less than a
 * link batch, an earlier doorbell ran since the last full flush (a
 * burst: the application posts several sends between progress calls, so
 * they can leave in one sendmmsg) and the PDC of its first packet has
 * packets in flight besides the queued ones (nout counts both); its
 * ACKs, or the application's next progress call, will come.  The first
 * doorbell after a flush never waits: packets still in flight then are
 * those of an earlier exchange (a held send whose ACK the peer delays
 * until its next message), and making the data wait for the next
 * progress pass would put a receive poll (a recvmmsg) in front of it on
 * the latency path of a simultaneous exchange (an MPI_Allreduce step,
 * docs/performance.md, issue 18).
 */
static bool uet_pds_may_defer(struct uet_pds *pds)
{
	struct uet_pds_tx_pkt *first;
	struct uet_pdc *pdc;
	unsigned int q;

	if (!pds->in_burst || !uet_dlist_empty(&pds->ctlq))
		return false;
	first = uet_dlist_first_entry(&pds->dataq, struct uet_pds_tx_pkt,
				      priv.qentry);
	if (!first || !first->priv.pdc)
		return false;
	q = uet_pds_dataq_len(pds, UET_PDS_TX_BATCH);
	if (q >= UET_PDS_TX_BATCH)
		return false;
	pdc = first->priv.pdc;
	return pdc->nout > q;
}

void uet_pds_batch_end_tx(struct uet_pds *pds, uint64_t now)
{
	/* Owed ACKs would be control to send: then nothing waits. */
	if (!pds || pds->batch != 1 || !uet_dlist_empty(&pds->owed) ||
	    !uet_pds_may_defer(pds)) {
		uet_pds_batch_end(pds, now);
		if (pds)
			pds->in_burst = true;
		return;
	}
	pds->batch = 0;
	pds->st.tx_deferred++;
	uet_pds_flush_done(pds);
}

bool uet_pds_batch_flush(struct uet_pds *pds, uint64_t now, bool tx)
{
	bool burst;

	if (!pds || pds->batch != 1)
		return false;
	if (tx && uet_dlist_empty(&pds->owed) && uet_pds_may_defer(pds))
		return false;
	/* The batch goes on: its end decides about the burst as before. */
	burst = pds->in_burst;
	uet_pds_batch_end(pds, now);
	pds->in_burst = burst;
	pds->batch = 1;
	return true;
}

/* ---- completions ---- */

void uet_pds_complete(struct uet_pds *pds, struct uet_pds_tx_pkt *pkt,
		      int status, uint8_t rsp_next_hdr, const uint8_t *rsp,
		      size_t rsp_len)
{
	uet_pds_cc_pkt_release(pkt);
	uet_pds_unqueue_pkt(pds, pkt);
	if (uet_dlist_linked(&pkt->priv.entry))
		uet_dlist_remove(&pkt->priv.entry);
	if (pkt->priv.hbuf) {
		uet_bufpool_put(&pds->hbuf_pool, pkt->priv.hbuf);
		pkt->priv.hbuf = NULL;
	}
	pkt->priv.state = UET_PKT_DONE;
	pkt->priv.status = status;
	pkt->priv.rsp_next_hdr = rsp ? rsp_next_hdr : UET_HDR_NONE;
	pkt->priv.rsp = rsp;
	pkt->priv.rsp_len = (uint16_t)(rsp ? rsp_len : 0);
	uet_dlist_insert_tail(&pds->doneq, &pkt->priv.entry);
}

void uet_pds_flush_done(struct uet_pds *pds)
{
	struct uet_pds_tx_pkt *pkt;
	struct uet_dlist *e;

	while ((e = uet_dlist_pop_head(&pds->doneq))) {
		pkt = uet_container_of(e, struct uet_pds_tx_pkt, priv.entry);
		pkt->priv.state = UET_PKT_IDLE;
		pkt->priv.pdc = NULL;
		if (pds->have_up && pds->up.tx_done)
			pds->up.tx_done(pds->up_ctx, pkt, pkt->priv.status,
					pkt->priv.rsp_next_hdr, pkt->priv.rsp,
					pkt->priv.rsp_len);
	}
}

/* ---- create / destroy ---- */

static int uet_pds_pools_init(struct uet_pds *pds)
{
	struct uet_bufpool_attr attr;
	int ret;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(struct uet_pds_hbuf);
	ret = uet_bufpool_init(&pds->hbuf_pool, &attr);
	if (ret)
		return ret;
	attr.size = sizeof(struct uet_pds_ctl);
	attr.max_count = UET_PDS_CTLQ_MAX;
	ret = uet_bufpool_init(&pds->ctl_pool, &attr);
	if (ret)
		goto err_hbuf;
	attr.size = sizeof(struct uet_pds_retained);
	attr.max_count = 0;
	ret = uet_bufpool_init(&pds->ret_pool, &attr);
	if (ret)
		goto err_ctl;
	/* Peers may send datagrams larger than our own MTU (theirs is
	 * larger): hold whatever the link can deliver. */
	pds->hold_data_max = UET_PDS_HOLD_MAX;
	attr.size = sizeof(struct uet_pds_hold) + pds->hold_data_max;
	attr.chunk_count = 8;
	attr.max_count = (size_t)pds->cfg.window * UET_PDS_HOLD_WINDOWS;
	ret = uet_bufpool_init(&pds->hold_pool, &attr);
	if (ret)
		goto err_ret;
	return 0;

err_ret:
	uet_bufpool_destroy(&pds->ret_pool);
err_ctl:
	uet_bufpool_destroy(&pds->ctl_pool);
err_hbuf:
	uet_bufpool_destroy(&pds->hbuf_pool);
	return ret;
}

static void uet_pds_pools_fini(struct uet_pds *pds)
{
	uet_bufpool_destroy(&pds->hold_pool);
	uet_bufpool_destroy(&pds->ret_pool);
	uet_bufpool_destroy(&pds->ctl_pool);
	uet_bufpool_destroy(&pds->hbuf_pool);
}

int uet_pds_create(struct uet_pds **pdsp, const struct uet_pds_cfg *cfg,
		   struct uet_link *link, const struct uet_pds_upcalls *up,
		   void *up_ctx)
{
	struct uet_pds *pds;
	int ret;

	if (!pdsp || !cfg || !link || !link->ops)
		return -EINVAL;
	ret = uet_pds_cfg_check(cfg);
	if (ret)
		return ret;
	pds = calloc(1, sizeof(*pds));
	if (!pds)
		return -ENOMEM;
	pds->cfg = *cfg;
	pds->link = link;
	pds->mtu = link->ops->mtu(link);
	pds->rng = uet_pds_seed(cfg, pds);
	pds->ring_size = 1;
	while (pds->ring_size < cfg->window)
		pds->ring_size <<= 1;
	pds->ring_mask = pds->ring_size - 1;
	uet_dlist_init(&pds->pdcs);
	uet_dlist_init(&pds->touched);
	uet_dlist_init(&pds->owed);
	uet_dlist_init(&pds->delayed);
	pds->due_ns = UINT64_MAX;
	uet_dlist_init(&pds->ctlq);
	uet_dlist_init(&pds->dataq);
	uet_dlist_init(&pds->doneq);
	pds->next_gen = (uint32_t)uet_pds_rand(pds);
	uet_pds_set_upcalls(pds, up, up_ctx);

	ret = uet_hashmap_init(&pds->ini_map, UET_PDS_INI_KEY_LEN, 0);
	if (ret)
		goto err_free;
	ret = uet_hashmap_init(&pds->tgt_map, UET_PDS_TGT_KEY_LEN, 0);
	if (ret)
		goto err_ini;
	ret = uet_hashmap_init(&pds->id_map, 0, 0);
	if (ret)
		goto err_tgt;
	ret = uet_hashmap_init(&pds->ret_map, 0, 0);
	if (ret)
		goto err_id;
	ret = uet_pds_pools_init(pds);
	if (ret)
		goto err_ret;
	ret = uet_pds_rudi_init(pds);
	if (ret)
		goto err_pools;
	ret = uet_pds_guard_init(pds);
	if (ret)
		goto err_rudi;
	ret = uet_pds_cc_init(pds);
	if (ret)
		goto err_guard;
	*pdsp = pds;
	return 0;

err_guard:
	uet_pds_guard_fini(pds);
err_rudi:
	uet_pds_rudi_fini(pds);
err_pools:
	uet_pds_pools_fini(pds);
err_ret:
	uet_hashmap_fini(&pds->ret_map);
err_id:
	uet_hashmap_fini(&pds->id_map);
err_tgt:
	uet_hashmap_fini(&pds->tgt_map);
err_ini:
	uet_hashmap_fini(&pds->ini_map);
err_free:
	free(pds);
	return ret;
}

void uet_pds_set_upcalls(struct uet_pds *pds, const struct uet_pds_upcalls *up,
			 void *up_ctx)
{
	if (up) {
		pds->up = *up;
		pds->have_up = true;
	} else {
		memset(&pds->up, 0, sizeof(pds->up));
		pds->have_up = false;
	}
	pds->up_ctx = up_ctx;
}

void uet_pds_destroy(struct uet_pds *pds)
{
	struct uet_pds_ctl *c;
	struct uet_pdc *pdc;

	if (!pds)
		return;
	pds->destroying = true;
	/* Best effort: the delayed and owed ACKs (the peers' held sends
	 * wait for them), then one CLOSE_COMMAND / CLOSE_REQUEST per live
	 * PDC. */
	uet_pds_send_all_acks(pds, pds->now);
	uet_dlist_foreach_entry(&pds->pdcs, pdc, entry) {
		if (!pdc->rpdcid)
			continue;
		if (pdc->initiator)
			uet_pdc_send_cp(pds, pdc, UET_CTL_CLOSE_COMMAND,
					pdc->next_psn, false, false, 0, 0);
		else
			uet_pdc_send_cp(pds, pdc, UET_CTL_CLOSE_REQUEST,
					pdc->next_psn, false, false, 0, 0);
	}
	uet_dlist_foreach_entry_safe(&pds->pdcs, pdc, entry)
		uet_pdc_fail(pds, pdc, -ECANCELED);
	uet_pds_rudi_fail_all(pds, -ECANCELED);
	uet_pds_flush_done(pds);

	uet_dlist_foreach_entry_safe(&pds->ctlq, c, entry) {
		uet_dlist_remove(&c->entry);
		uet_bufpool_put(&pds->ctl_pool, c);
	}
	uet_pds_cc_fini(pds);
	uet_pds_guard_fini(pds);
	uet_pds_rudi_fini(pds);
	uet_pds_pools_fini(pds);
	uet_hashmap_fini(&pds->ret_map);
	uet_hashmap_fini(&pds->id_map);
	uet_hashmap_fini(&pds->tgt_map);
	uet_hashmap_fini(&pds->ini_map);
	free(pds);
}

/* ---- send entry points ---- */

size_t uet_pds_path_mtu(struct uet_pds *pds, const struct uet_link_addr *dst)
{
	size_t m;

	if (!pds || !dst || !pds->link->ops->path_mtu)
		return 0;
	m = pds->link->ops->path_mtu(pds->link, dst);
	return m > pds->mtu ? m : 0;
}

size_t uet_pds_reply_mtu(struct uet_pds *pds, void *rx_pdc)
{
	struct uet_pdc *pdc;

	if (!pds || !rx_pdc)
		return 0;
	pdc = uet_pdc_from_handle(pds, rx_pdc);
	return pdc ? uet_pds_path_mtu(pds, &pdc->peer) : 0;
}

/* pkt fits the path to dst (NULL: the link's MTU).  The path is looked
 * up only for a datagram larger than the MTU. */
static int uet_pds_pkt_check(struct uet_pds *pds,
			     const struct uet_pds_tx_pkt *pkt, size_t pds_len,
			     const struct uet_link_addr *dst)
{
	size_t total = pds_len + pkt->hdr_len;
	unsigned int i;

	if (pkt->next_hdr == UET_HDR_NONE || pkt->next_hdr > UET_HDR_MAX ||
	    pkt->hdr_len > UET_PDS_SES_HDR_MAX ||
	    pkt->iovcnt > UET_PDS_TX_MAX_IOV)
		return -EINVAL;
	for (i = 0; i < pkt->iovcnt; i++) {
		if (pkt->iov[i].iov_len && !pkt->iov[i].iov_base)
			return -EINVAL;
		total += pkt->iov[i].iov_len;
	}
	if (total > pds->mtu && total > uet_pds_path_mtu(pds, dst))
		return -EMSGSIZE;
	return 0;
}

static void uet_pds_pkt_init(struct uet_pds_tx_pkt *pkt, uint8_t mode)
{
	memset(&pkt->priv, 0, sizeof(pkt->priv));
	uet_dlist_init(&pkt->priv.entry);
	uet_dlist_init(&pkt->priv.qentry);
	pkt->priv.mode = mode;
}

unsigned int uet_pds_tx_space(struct uet_pds *pds,
			      const struct uet_pds_key *key)
{
	uint8_t ikey[UET_PDS_INI_KEY_LEN];
	struct uet_pdc *pdc;

	if (!pds || !key || pds->destroying)
		return 0;
	switch (key->mode) {
	case UET_PDS_MODE_RUDI:
		return uet_pds_rudi_space(pds);
	case UET_PDS_MODE_UUD:
		return uet_pds_uud_space(pds);
	case UET_PDS_MODE_RUD:
	case UET_PDS_MODE_ROD:
		break;
	default:
		return 0;
	}
	if (uet_pds_ini_key(key, ikey))
		return 0;
	pdc = uet_pdc_by_ini_key_last(pds, ikey);
	if (!pdc)
		return pds->npdcs < pds->cfg.max_pdcs ? pds->cfg.window : 0;
	return uet_pdc_tx_space(pds, pdc);
}

bool uet_pds_peer_alive(struct uet_pds *pds, const struct uet_pds_key *key)
{
	uint8_t ikey[UET_PDS_INI_KEY_LEN];
	struct uet_pdc *pdc;

	if (!pds || !key || pds->destroying ||
	    (key->mode != UET_PDS_MODE_RUD && key->mode != UET_PDS_MODE_ROD) ||
	    uet_pds_ini_key(key, ikey))
		return false;
	pdc = uet_pdc_by_ini_key_last(pds, ikey);
	/* A PDC retransmitting on timeouts may be losing its peer: its
	 * sends keep their errors (no backoff once an RTT sample came). */
	return pdc && pdc->state == UET_PDC_ESTABLISHED && !pdc->backoff;
}

int uet_pds_send(struct uet_pds *pds, const struct uet_pds_key *key,
		 struct uet_pds_tx_pkt *pkt, uint64_t now)
{
	uint8_t ikey[UET_PDS_INI_KEY_LEN];
	struct uet_pdc *pdc;
	size_t pds_len;
	int ret;

	if (!pds || !key || !pkt)
		return -EINVAL;
	if (pds->destroying)
		return -ECANCELED;
	pds_len = uet_pds_mode_hdr_len(pds, key->mode);
	ret = uet_pds_pkt_check(pds, pkt, pds_len, &key->dst);
	if (ret)
		return ret;
	uet_pds_pkt_init(pkt, key->mode);
	now = uet_pds_clock(pds, now);
	switch (key->mode) {
	case UET_PDS_MODE_RUDI:
		return uet_pds_rudi_send(pds, key, pkt, now);
	case UET_PDS_MODE_UUD:
		return uet_pds_uud_send(pds, key, pkt, now);
	case UET_PDS_MODE_RUD:
	case UET_PDS_MODE_ROD:
		break;
	default:
		return -EINVAL;
	}
	if (uet_pds_ini_key(key, ikey))
		return -EINVAL;		/* job_id too wide, unknown family */
	pdc = uet_pdc_by_ini_key_last(pds, ikey);
	if (!pdc) {
		ret = uet_pdc_create_ini(pds, key, ikey, now, &pdc);
		if (ret)
			return ret;
	}
	uet_pdc_touch(pds, pdc);
	return uet_pdc_send(pds, pdc, pkt, now);
}

int uet_pds_send_reply(struct uet_pds *pds, void *rx_pdc,
		       struct uet_pds_tx_pkt *pkt, uint64_t now)
{
	struct uet_pdc *pdc;
	int ret;

	if (!pds || !rx_pdc || !pkt)
		return -EINVAL;
	if (pds->destroying)
		return -ECANCELED;
	pdc = uet_pdc_from_handle(pds, rx_pdc);
	if (!pdc || !pdc->rpdcid || pdc->state == UET_PDC_CLOSE_ACK_WAIT)
		return -ENOTCONN;
	ret = uet_pds_pkt_check(pds, pkt, UET_PDS_RUD_ROD_REQ_LEN,
				&pdc->peer);
	if (ret)
		return ret;
	uet_pds_pkt_init(pkt, pdc->mode);
	uet_pdc_touch(pds, pdc);
	return uet_pdc_send(pds, pdc, pkt, uet_pds_clock(pds, now));
}

void *uet_pds_pkt_pdc(const struct uet_pds_tx_pkt *pkt)
{
	return pkt->priv.pdc ? uet_pdc_handle(pkt->priv.pdc) : NULL;
}

/* ---- timers ---- */

static uint64_t uet_pdc_deadline(const struct uet_pds *pds,
				 const struct uet_pdc *pdc)
{
	uint64_t next = uet_pdc_tx_deadline(pds, pdc);

	next = uet_pds_min64(next, uet_pdc_rx_deadline(pds, pdc));
	return uet_pds_min64(next, uet_pdc_lifecycle_deadline(pds, pdc));
}

/* Run pdc's timers; false when they destroyed it. */
static bool uet_pdc_timers(struct uet_pds *pds, struct uet_pdc *pdc,
			   uint64_t now)
{
	if (!uet_pdc_tx_timer(pds, pdc, now))
		return false;
	if (!uet_pdc_rx_timer(pds, pdc, now))
		return false;
	return uet_pdc_lifecycle_timer(pds, pdc, now);
}

/*
 * The timer pass.  Before due_ns only the PDCs that events touched since
 * the last pass can have a deadline that passed: it visits those (one
 * per peer that sent or received, not every PDC on every poll) and
 * lowers due_ns to their deadlines.  From due_ns on it visits every PDC
 * and computes due_ns afresh.  PDCs touched while it runs (timers
 * retransmit, upcalls send) stay on touched for the next pass.
 */
void uet_pds_timer(struct uet_pds *pds, uint64_t now)
{
	struct uet_dlist visit, *e;
	struct uet_pdc *pdc;
	uint64_t due;

	if (!pds)
		return;
	now = uet_pds_clock(pds, now);
	uet_pds_flush_link(pds, now);
	uet_dlist_init(&visit);
	if (now >= pds->due_ns) {
		due = UINT64_MAX;
		uet_dlist_foreach_entry(&pds->pdcs, pdc, entry) {
			if (uet_dlist_linked(&pdc->touch_entry))
				uet_dlist_remove(&pdc->touch_entry);
			uet_dlist_insert_tail(&visit, &pdc->touch_entry);
		}
	} else {
		due = pds->due_ns;
		uet_dlist_splice_tail(&visit, &pds->touched);
		uet_dlist_init(&pds->touched);
	}
	while ((e = uet_dlist_pop_head(&visit))) {
		pdc = uet_container_of(e, struct uet_pdc, touch_entry);
		if (uet_pdc_timers(pds, pdc, now))
			due = uet_pds_min64(due, uet_pdc_deadline(pds, pdc));
	}
	pds->due_ns = due;
	uet_pds_rudi_timer(pds, now);
	uet_pds_flush_done(pds);
}

uint64_t uet_pds_next_deadline(const struct uet_pds *pds)
{
	const struct uet_pdc *pdc;
	uint64_t next;

	if (!pds)
		return UINT64_MAX;
	if (!uet_dlist_empty(&pds->doneq))
		return 0;
	next = pds->due_ns;
	if (!uet_dlist_empty(&pds->ctlq) || !uet_dlist_empty(&pds->dataq))
		next = uet_pds_min64(next,
				     pds->busy_ns + UET_PDS_BUSY_RETRY_NS);
	uet_dlist_foreach_entry(&pds->touched, pdc, touch_entry)
		next = uet_pds_min64(next, uet_pdc_deadline(pds, pdc));
	return uet_pds_min64(next, uet_pds_rudi_deadline(pds));
}

/*
 * Nothing for a pass to do but read the link: no PDC touched since the
 * last timer pass and none due (due_ns), no RUDI packet outstanding,
 * nothing queued for the link, no ACK owed, no tx_done due.  The timer
 * pass and batch_end would then change nothing (the touched/due_ns
 * invariant of uet_pds_timer), so an empty poll skips them.
 */
bool uet_pds_quiet(const struct uet_pds *pds, uint64_t now)
{
	return now < pds->due_ns && pds->now < pds->due_ns &&
	       uet_dlist_empty(&pds->touched) &&
	       uet_dlist_empty(&pds->ctlq) && uet_dlist_empty(&pds->dataq) &&
	       uet_dlist_empty(&pds->doneq) && uet_dlist_empty(&pds->owed) &&
	       uet_dlist_empty(&pds->rudi_out);
}

void uet_pds_batch_end_quiet(struct uet_pds *pds)
{
	/* What batch_end does when uet_pds_quiet() holds: close the batch
	 * (the last one ends a burst) and send nothing. */
	if (pds->batch && --pds->batch == 0)
		pds->in_burst = false;
}

int uet_pds_poll(struct uet_pds *pds, uint64_t now)
{
	struct uet_link_rx rx[UET_PDS_RECV_BATCH];
	int n, i;

	if (!pds)
		return -EINVAL;
	now = uet_pds_clock(pds, now);
	uet_pds_batch_begin(pds);
	/* Links that cannot read the TOS byte leave it alone. */
	if (!pds->link->ops->rx_sets_tos)
		for (i = 0; i < (int)UET_PDS_RECV_BATCH; i++)
			rx[i].tos = 0;
	n = pds->link->ops->recv(pds->link, rx, UET_PDS_RECV_BATCH);
	for (i = 0; i < n; i++)
		uet_pds_rx_tos(pds, rx[i].buf, rx[i].len, &rx[i].src,
			       rx[i].tos, now);
	uet_pds_link_errors(pds, now);
	if (n == 0 && uet_pds_quiet(pds, now)) {
		/* The empty poll: no timer due, nothing to send. */
		pds->st.quiet_polls++;
		uet_pds_batch_end_quiet(pds);
		return 0;
	}
	/* A pass that brought datagrams leaves the timers of the PDCs they
	 * touched to the next pass (they stay on touched, so that pass is
	 * no quiet one and next_deadline sees them), unless one is due or
	 * the last pass left them already: the timer pass comes after the
	 * reply reached the application, not before. */
	if (n > 0 && !pds->timer_deferred && now < pds->due_ns &&
	    pds->now < pds->due_ns) {
		pds->timer_deferred = true;
		pds->st.timer_deferred++;
	} else {
		pds->timer_deferred = false;
		uet_pds_timer(pds, now);
	}
	uet_pds_batch_end(pds, now);
	return n;
}

/* ---- statistics ---- */

void uet_pds_get_stats(const struct uet_pds *pds, struct uet_pds_stats *st)
{
	*st = pds->st;
	st->pdcs_open = pds->npdcs;
}

static void uet_pds_cc_info_stats(struct uet_pds_cc_info *info,
				  const struct uet_pds_cc_stats *st)
{
	info->acks_marked = st->acks_marked;
	info->trims = st->trims;
	info->decreases = st->decreases;
	info->ent_moved = st->ent_moved;
	info->ce_rx = st->ce_rx;
	info->trimmed_rx = st->trimmed_rx;
	info->pace_waits = st->pace_waits;
	info->csig_tx = st->csig_tx;
	info->csig_rx = st->csig_rx;
	info->csig_bad = st->csig_bad;
}

int uet_pds_get_cc_info(const struct uet_pds *pds,
			const struct uet_link_addr *peer,
			struct uet_pds_cc_info *info)
{
	uint8_t key[UET_PDS_ADDR_KEY_LEN];
	const struct uet_pds_ccd *d;
	struct uet_hnode *n;

	if (!pds || !peer || !info)
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	if (uet_link_addr_key(peer, key))
		return -EINVAL;
	n = uet_hashmap_lookup_bytes(&pds->cc.map, key);
	if (!n)
		return -ENOENT;
	d = uet_container_of(n, struct uet_pds_ccd, node);
	info->cwnd = d->cwnd;
	info->inflight = d->inflight;
	info->credit = d->credit;
	info->base_rtt = d->base_rtt;
	info->srtt = d->srtt;
	info->alpha = d->alpha;
	info->nent = d->nent;
	memcpy(info->ent, d->ent, sizeof(info->ent));
	uet_pds_cc_info_stats(info, &d->st);
	info->peer_sent = d->csig_sent;
	info->peer_cwnd = d->csig_cwnd;
	info->peer_csig = d->csig_ns != 0;
	return 0;
}

void uet_pds_get_cc_totals(const struct uet_pds *pds,
			   struct uet_pds_cc_info *info)
{
	memset(info, 0, sizeof(*info));
	uet_pds_cc_info_stats(info, &pds->cc.st);
}

int uet_pds_get_pdc_stats(const struct uet_pds *pds,
			  const struct uet_pds_key *key,
			  struct uet_pds_stats *st)
{
	uint8_t ikey[UET_PDS_INI_KEY_LEN];
	struct uet_pdc *pdc;

	if (!pds || !key || !st)
		return -EINVAL;
	if (uet_pds_ini_key(key, ikey))
		return -ENOENT;
	pdc = uet_pdc_by_ini_key(pds, ikey);
	if (!pdc)
		return -ENOENT;
	*st = pdc->st;
	return 0;
}

static void uet_pds_pdc_info_of(const struct uet_pdc *pdc,
				struct uet_hsi_pdc_info *i)
{
	memset(i, 0, sizeof(*i));
	i->initiator = pdc->initiator;
	i->established = pdc->rpdcid != 0;
	i->mode = pdc->mode == UET_PDS_MODE_ROD ? UET_HSI_QUEUE_MODE_ROD :
		  UET_HSI_QUEUE_MODE_RUD;
	i->lpdcid = pdc->lpdcid;
	i->rpdcid = pdc->rpdcid;
	i->tx_next_psn = pdc->next_psn;
	i->tx_una_psn = pdc->snd_una;
	i->tx_outstanding = pdc->nout;
	i->rx_next_psn = pdc->win.base;
	i->rx_window = pdc->win.width;
	i->tx_pkts = pdc->st.tx_pkts;
	i->rx_pkts = pdc->st.rx_pkts;
	i->retx = pdc->st.retx;
	if (pdc->rtt.valid) {
		i->srtt_ns = pdc->rtt.srtt;
		i->min_rtt_ns = pdc->rtt.min_rtt;
	}
}

int uet_pds_get_peer_pdcs(const struct uet_pds *pds,
			  const struct uet_link_addr *peer,
			  struct uet_hsi_pdc_info *v, unsigned int max)
{
	const struct uet_pdc *pdc;
	unsigned int n = 0;

	if (!pds || !peer || (max && !v))
		return -EINVAL;
	uet_dlist_foreach_entry(&pds->pdcs, pdc, entry) {
		if (pdc->state == UET_PDC_CLOSED ||
		    !uet_link_addr_eq(&pdc->peer, peer))
			continue;
		if (n < max)
			uet_pds_pdc_info_of(pdc, &v[n]);
		n++;
	}
	return (int)n;
}
