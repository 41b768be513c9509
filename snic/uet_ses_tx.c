/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SES initiator: sends become packets, packets go to PDS as its windows
 * open, and PDS completions (with the SES responses on their ACKs) finish
 * the sends.
 *
 * Segmentation of a send of len bytes (P = payload per packet):
 *   - len fits one small-message packet (and at most UET_PDS_TX_MAX_IOV
 *     iovec pieces): one packet, next_hdr REQUEST_MEDIUM;
 *   - rendezvous (len > rdzv_threshold, RUD/ROD, and more than the first
 *     packet holds): one SOM=1 packet with the rendezvous extension and
 *     the first eager_len bytes, the target pulls the rest;
 *   - otherwise one SOM=1 packet and SOM=0 continuations, each carrying
 *     up to P bytes (fewer where the caller's iovecs would need more than
 *     UET_PDS_TX_MAX_IOV pieces).
 * The last packet (eom) of every message asks PDS for its SES response
 * (want_rsp), so an error code of the target always reaches the sender.
 * Under RUD every message carries a message_id (no small-message header):
 * its place in the sequence of its stream (send order, below).
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "uet_byteorder.h"
#include "uet_pds_wire.h"
#include "uet_ses_internal.h"

/* ---- send order: sender streams ---- */

/*
 * Every send belongs to the stream {local endpoint, destination endpoint}
 * and is numbered (message_id) when its first packet is built, in send
 * order: 1 starts a sequence, then 2, 3, ..., 65535, 2, ...  The rules
 * are those of struct uet_ses_txs; they keep the ids dense (a send that
 * never put a packet into PDS gives its id back) so the target can match
 * in send order whatever order the packets arrive in.
 */

static struct uet_ses_txs *ses_txs_get(struct uet_ses *ses,
				       const struct uet_ses_ep *ep,
				       const struct uet_ses_addr *dst)
{
	uint8_t k[UET_SES_STREAM_KEY_LEN];
	struct uet_ses_txs *txs;
	struct uet_hnode *n;

	uet_ses_stream_key(k, &dst->fa,
			   uet_ses_initiator_id(ep->pid_on_fep, ep->ri),
			   dst->job_id, dst->pid_on_fep, dst->ri);
	n = uet_hashmap_memo_lookup(&ses->txs_memo, &ses->tx_streams, k);
	if (n)
		return uet_container_of(n, struct uet_ses_txs, node);
	/* Forget the stream idle the longest: a later send to it simply
	 * starts a new sequence. */
	if (ses->txs_idle_n >= UET_SES_TXS_IDLE_MAX) {
		txs = uet_dlist_first_entry(&ses->txs_idle, struct uet_ses_txs,
					    idle);
		uet_dlist_remove(&txs->idle);
		ses->txs_idle_n--;
		uet_hashmap_memo_forget(&ses->txs_memo, &txs->node);
		uet_hashmap_remove(&ses->tx_streams, &txs->node);
		uet_bufpool_put(&ses->txs_pool, txs);
	}
	txs = uet_bufpool_get(&ses->txs_pool);
	if (!txs)
		return NULL;
	memset(txs, 0, sizeof(*txs));
	memcpy(txs->key, k, sizeof(k));
	uet_dlist_init(&txs->wait);
	uet_dlist_init(&txs->out);
	txs->next_id = UET_SES_SEQ_FIRST;
	/* Cannot fail: the key is not in the map. */
	(void)uet_hashmap_insert_bytes(&ses->tx_streams, &txs->node,
				       txs->key);
	uet_dlist_insert_tail(&ses->txs_idle, &txs->idle);
	ses->txs_idle_n++;
	return txs;
}

static void ses_txs_attach(struct uet_ses *ses, struct uet_ses_txs *txs,
			   struct uet_ses_send_op *op)
{
	if (!txs->nops++) {
		uet_dlist_remove(&txs->idle);
		ses->txs_idle_n--;
	}
	op->txs = txs;
	uet_dlist_insert_tail(&txs->wait, &op->seq_entry);
}

static void ses_txs_detach(struct uet_ses *ses, struct uet_ses_send_op *op)
{
	struct uet_ses_txs *txs = op->txs;

	if (!txs)
		return;
	if (uet_dlist_linked(&op->seq_entry))
		uet_dlist_remove(&op->seq_entry);
	if (txs->unsent == op)
		txs->unsent = NULL;
	if (txs->gate == op)
		txs->gate = NULL;
	op->txs = NULL;
	if (!--txs->nops) {
		uet_dlist_insert_tail(&ses->txs_idle, &txs->idle);
		ses->txs_idle_n++;
	}
}

/* Number op if its turn has come: 0, or -EAGAIN (not yet). */
static int ses_seq_number(struct uet_ses *ses, struct uet_ses_send_op *op)
{
	struct uet_ses_txs *txs = op->txs;
	struct uet_ses_send_op *oldest;

	if (uet_dlist_first(&txs->wait) != &op->seq_entry || txs->unsent ||
	    txs->gate)
		return -EAGAIN;
	if (txs->restart) {
		if (!uet_dlist_empty(&txs->out))
			return -EAGAIN;
		txs->restart = false;
		txs->next_id = UET_SES_SEQ_FIRST;
	}
	if (!uet_dlist_empty(&txs->out)) {
		oldest = uet_dlist_first_entry(&txs->out,
					       struct uet_ses_send_op,
					       seq_entry);
		if (uet_ses_seq_dist(oldest->msg_id, txs->next_id) >=
		    UET_SES_SEQ_WINDOW)
			return -EAGAIN;
	}
	op->msg_id = txs->next_id;
	op->numbered = true;
	txs->next_id = uet_ses_seq_next(txs->next_id);
	uet_dlist_remove(&op->seq_entry);
	uet_dlist_insert_tail(&txs->out, &op->seq_entry);
	txs->unsent = op;
	if (op->key.mode == UET_PDS_MODE_RUD &&
	    op->msg_id == UET_SES_SEQ_FIRST)
		txs->gate = op;
	return 0;
}

/* op's first packet is in PDS: the next send may be numbered. */
static void ses_seq_sent(struct uet_ses *ses, struct uet_ses_send_op *op)
{
	struct uet_ses_txs *txs = op->txs;

	if (!txs || txs->unsent != op)
		return;
	txs->unsent = NULL;
	if (op->msg_id == UET_SES_SEQ_FIRST)
		ses->stats.seq_starts++;
}

/* op's first packet never reached PDS (op is stopping): its id goes back
 * (nothing after it was numbered: see ses_seq_number). */
static void ses_seq_unsend(struct uet_ses_send_op *op)
{
	struct uet_ses_txs *txs = op->txs;

	if (!txs || txs->unsent != op)
		return;
	txs->unsent = NULL;
	if (txs->gate == op)
		txs->gate = NULL;
	txs->next_id = op->msg_id;
	op->msg_id = 0;
	op->numbered = false;
	uet_dlist_remove(&op->seq_entry);
}

/* A packet of op was acknowledged: the target has seen op. */
static void ses_seq_acked(struct uet_ses_send_op *op)
{
	op->acked = true;
	if (op->txs && op->txs->gate == op)
		op->txs->gate = NULL;
}

/*
 * op ended.  If it was numbered and none of its packets reached the
 * target (PDS failed them), the target may wait for its id for ever: the
 * stream starts a new sequence once its numbered sends have ended.  If
 * op was the first of a sequence, the destination did not answer it, and
 * the sends waiting behind it end with the same status (they would have
 * been on the failed PDC with it, had the gate not held them back).
 */
static void ses_seq_end(struct uet_ses *ses, struct uet_ses_send_op *op)
{
	struct uet_ses_txs *txs = op->txs;
	struct uet_ses_send_op *w;
	bool lost, first;
	int status;

	if (!txs)
		return;
	lost = op->key.mode == UET_PDS_MODE_RUD && op->numbered && !op->acked;
	first = txs->gate == op;
	status = op->status ? op->status : -EIO;
	if (lost)
		txs->restart = true;
	ses_txs_detach(ses, op);
	if (!lost || !first || status == -ECANCELED)
		return;
	uet_dlist_foreach_entry_safe(&txs->wait, w, seq_entry) {
		uet_ses_send_error(ses, w, status, UET_RC_NULL, UET_RC_NULL);
		uet_ses_send_check(ses, w);
	}
}

/* ---- packets ---- */

struct uet_ses_pkt *uet_ses_pkt_get(struct uet_ses *ses, uint8_t kind,
				    void *owner)
{
	struct uet_ses_pkt *pkt = uet_bufpool_get(&ses->pkt_pool);

	if (!pkt)
		return NULL;
	/* Everything but the header bytes and the iovecs, which a builder
	 * writes up to hdr_len and iovcnt (about 150 bytes not cleared). */
	memset(pkt, 0, offsetof(struct uet_ses_pkt, pds.hdr));
	pkt->pds.iovcnt = 0;
	memset(&pkt->pds.ctx, 0, sizeof(*pkt) -
	       offsetof(struct uet_ses_pkt, pds.ctx));
	pkt->pds.ctx = pkt;
	pkt->kind = kind;
	pkt->owner = owner;
	return pkt;
}

void uet_ses_pkt_put(struct uet_ses *ses, struct uet_ses_pkt *pkt)
{
	uet_ses_mr_pkt_del(pkt);
	if (pkt->bounce)
		uet_bufpool_put(uet_ses_bounce_pool(ses, pkt->len),
				pkt->bounce);
	uet_bufpool_put(&ses->pkt_pool, pkt);
}

/* Forget a built packet that never reached PDS. */
static void ses_pkt_abort(struct uet_ses *ses, struct uet_ses_pkt *pkt)
{
	struct uet_ses_reply *rp;
	struct uet_ses_read *rd;

	if (pkt->kind == UET_SES_PKT_SEND && pkt->first)
		ses_seq_unsend(pkt->owner);
	if (pkt->kind == UET_SES_PKT_REPLY) {
		/* Those bytes were not sent (an error answer may say so). */
		rp = pkt->owner;
		if (pkt->len)
			rp->next -= pkt->len;
		else if (rp->stop)
			rp->err_built = false;
	}
	if (pkt->kind == UET_SES_PKT_READ) {
		rd = pkt->owner;
		rd->pkt_done = true;
		if (rd->msg || rd->op) {
			uet_dlist_remove(&rd->entry);
			rd->msg = NULL;
			rd->op = NULL;
		}
		uet_ses_read_check(ses, rd);
	}
	uet_ses_pkt_put(ses, pkt);
}

/* ---- routes ---- */

/* The route of key (fa_key: its address key if already made, or NULL)
 * or of the received PDC pdc. */
static struct uet_ses_route *ses_route_get(struct uet_ses *ses,
					   const struct uet_pds_key *key,
					   const uint8_t *fa_key, void *pdc)
{
	uint8_t k[UET_SES_ROUTE_KEY_LEN];
	struct uet_ses_route *rt;
	struct uet_hnode *n;
	uintptr_t p = (uintptr_t)pdc;

	memset(k, 0, sizeof(k));
	if (key) {
		k[0] = 'K';
		uet_put_be24(k + 1, key->job_id & UET_JOB_ID_MAX);
		if (fa_key)
			memcpy(k + 4, fa_key, UET_SES_FA_KEY_LEN);
		else
			uet_link_addr_key(&key->dst, k + 4);
		k[4 + UET_SES_FA_KEY_LEN] = key->tc;
		k[5 + UET_SES_FA_KEY_LEN] = key->mode;
	} else {
		k[0] = 'P';
		memcpy(k + 1, &p, sizeof(p));
	}
	n = uet_hashmap_memo_lookup(&ses->route_memo, &ses->routes, k);
	if (n)
		return uet_container_of(n, struct uet_ses_route, node);
	rt = uet_bufpool_get(&ses->route_pool);
	if (!rt)
		return NULL;
	memset(rt, 0, sizeof(*rt));
	uet_dlist_init(&rt->parked);
	memcpy(rt->key, k, sizeof(k));
	if (uet_hashmap_insert_bytes(&ses->routes, &rt->node, rt->key)) {
		uet_bufpool_put(&ses->route_pool, rt);
		return NULL;
	}
	return rt;
}

/* Forget routes with nothing in flight (outside any push pass). */
void uet_ses_routes_sweep(struct uet_ses *ses)
{
	struct uet_hashmap_iter it;
	struct uet_ses_route *rt;
	struct uet_hnode *n;

	if (ses->pushing ||
	    uet_hashmap_count(&ses->routes) <= UET_SES_ROUTES_IDLE_MAX)
		return;
	uet_hashmap_foreach(&ses->routes, &it, n) {
		rt = uet_container_of(n, struct uet_ses_route, node);
		if (rt->inflight || !uet_dlist_empty(&rt->parked))
			continue;
		uet_hashmap_memo_forget(&ses->route_memo, n);
		uet_hashmap_remove(&ses->routes, n);
		uet_bufpool_put(&ses->route_pool, rt);
	}
}

/* ---- the transmit queue ---- */

/* txi->entry is initialised when its owner is created. */
void uet_ses_txi_queue(struct uet_ses *ses, struct uet_ses_txi *txi)
{
	if (!uet_dlist_linked(&txi->entry))
		uet_dlist_insert_tail(&ses->txq, &txi->entry);
	if (ses->pushing)
		ses->push_again = true;
}

void uet_ses_txi_cancel(struct uet_ses *ses, struct uet_ses_txi *txi)
{
	struct uet_ses_pkt *pkt = txi->stash;

	if (uet_dlist_linked(&txi->entry))
		uet_dlist_remove(&txi->entry);
	txi->woken = false;
	txi->stash = NULL;
	if (pkt)
		ses_pkt_abort(ses, pkt);
}

static struct uet_ses_send_op *ses_txi_send(struct uet_ses_txi *txi)
{
	return uet_container_of(txi, struct uet_ses_send_op, txi);
}

static struct uet_ses_rx_msg *ses_txi_msg(struct uet_ses_txi *txi)
{
	return uet_container_of(txi, struct uet_ses_rx_msg, txi);
}

static struct uet_ses_reply *ses_txi_reply(struct uet_ses_txi *txi)
{
	return uet_container_of(txi, struct uet_ses_reply, txi);
}

static struct uet_ses_notice *ses_txi_notice(struct uet_ses_txi *txi)
{
	return uet_container_of(txi, struct uet_ses_notice, txi);
}

static bool ses_send_more(const struct uet_ses_send_op *op)
{
	return !op->obj.dead && !op->stop && !op->built_all;
}

static bool ses_txi_more(struct uet_ses_txi *txi)
{
	const struct uet_ses_notice *n;

	switch (txi->type) {
	case UET_SES_TXI_SEND:
		return ses_send_more(ses_txi_send(txi));
	case UET_SES_TXI_PULL:
		return uet_ses_pull_more(ses_txi_msg(txi));
	case UET_SES_TXI_REPLY:
		return uet_ses_reply_more(ses_txi_reply(txi));
	case UET_SES_TXI_NOTICE:
		n = ses_txi_notice(txi);
		return !n->obj.dead && !n->built;
	default:
		return false;
	}
}

/* Not cancelled: a packet it built is still wanted. */
static bool ses_txi_alive(struct uet_ses_txi *txi)
{
	const struct uet_ses_send_op *op;
	const struct uet_ses_rx_msg *m;
	const struct uet_ses_reply *rp;

	switch (txi->type) {
	case UET_SES_TXI_SEND:
		op = ses_txi_send(txi);
		return !op->obj.dead && !op->stop;
	case UET_SES_TXI_PULL:
		m = ses_txi_msg(txi);
		return !m->obj.dead;
	case UET_SES_TXI_REPLY:
		rp = ses_txi_reply(txi);
		return !rp->obj.dead && (!rp->stop || rp->err_rc);
	case UET_SES_TXI_NOTICE:
		return !ses_txi_notice(txi)->obj.dead;
	default:
		return false;
	}
}

/* The PDC key of a txi, or NULL for a reply on a received PDC. */
static const struct uet_pds_key *ses_txi_key(struct uet_ses_txi *txi)
{
	switch (txi->type) {
	case UET_SES_TXI_SEND:
		return &ses_txi_send(txi)->key;
	case UET_SES_TXI_PULL:
		return &ses_txi_msg(txi)->peer_key;
	case UET_SES_TXI_NOTICE:
		return &ses_txi_notice(txi)->key;
	default:
		return NULL;
	}
}

static int ses_send_build(struct uet_ses *ses, struct uet_ses_send_op *op,
			  struct uet_ses_pkt **out);

static int ses_txi_build(struct uet_ses *ses, struct uet_ses_txi *txi,
			 struct uet_ses_pkt **out)
{
	switch (txi->type) {
	case UET_SES_TXI_SEND:
		return ses_send_build(ses, ses_txi_send(txi), out);
	case UET_SES_TXI_PULL:
		return uet_ses_pull_build(ses, ses_txi_msg(txi), out);
	case UET_SES_TXI_REPLY:
		return uet_ses_reply_build(ses, ses_txi_reply(txi), out);
	case UET_SES_TXI_NOTICE:
		return uet_ses_notice_build(ses, ses_txi_notice(txi), out);
	default:
		return -EINVAL;
	}
}

/* A hard error from PDS (not -EAGAIN) for a packet of txi. */
static void ses_txi_fail(struct uet_ses *ses, struct uet_ses_txi *txi,
			 int err)
{
	struct uet_ses_notice *n;
	struct uet_ses_reply *rp;

	switch (txi->type) {
	case UET_SES_TXI_SEND:
		uet_ses_send_error(ses, ses_txi_send(txi), err, UET_RC_NULL,
				   UET_RC_NULL);
		uet_ses_send_check(ses, ses_txi_send(txi));
		break;
	case UET_SES_TXI_PULL:
		uet_ses_rx_fail(ses, ses_txi_msg(txi), err, UET_RC_OK);
		break;
	case UET_SES_TXI_REPLY:
		rp = ses_txi_reply(txi);
		if (rp->send)
			uet_ses_send_error(ses, rp->send, err, UET_RC_NULL,
					   UET_RC_INITIATOR_ERR);
		uet_ses_reply_stop(ses, rp, UET_RC_NULL);
		break;
	case UET_SES_TXI_NOTICE:
		n = ses_txi_notice(txi);
		uet_ses_txi_cancel(ses, txi);
		uet_ses_release(ses, &n->obj, false);
		break;
	default:
		break;
	}
}

/* Account a packet as owned by PDS (before uet_pds_send: PDS may report
 * it done before returning) or undo that. */
static void ses_pkt_owned(struct uet_ses *ses, struct uet_ses_pkt *pkt,
			  int delta)
{
	struct uet_ses_send_op *op;
	struct uet_ses_reply *rp;

	ses->pkts_in_pds += delta;
	if (pkt->route)
		pkt->route->inflight += delta;
	switch (pkt->kind) {
	case UET_SES_PKT_SEND:
		op = pkt->owner;
		op->pkts_out += delta;
		break;
	case UET_SES_PKT_REPLY:
		rp = pkt->owner;
		rp->pkts_out += delta;
		if (rp->send)
			rp->send->pkts_out += delta;
		break;
	default:
		break;
	}
}

/*
 * Emit as many packets of txi as PDS takes.  Returns true when txi still
 * has packets to emit (blocked by a window), false when it is finished.
 */
/*
 * Wait on rt until one of its packets ends (uet_ses_pds_tx_done).  The
 * parked list keeps send order: a woken txi that parks again goes back to
 * its head.
 */
static bool ses_txi_park(struct uet_ses_route *rt, struct uet_ses_txi *txi)
{
	if (!uet_dlist_linked(&txi->entry)) {
		if (txi->woken)
			uet_dlist_insert_head(&rt->parked, &txi->entry);
		else
			uet_dlist_insert_tail(&rt->parked, &txi->entry);
	}
	txi->woken = false;
	return true;
}

/*
 * A packet of rt ended (or a txi of rt finished): the first txi parked on
 * rt runs again.  One at a time while rt has packets in flight (each of
 * them wakes one more when it ends, and a txi that finishes wakes the
 * next, ses_txi_run), so a route with thousands of parked txis (the
 * replies to a rendezvous' READs) costs O(1) per packet, not a pass over
 * all of them.  With nothing in flight no wake would follow: all run.
 */
static void ses_route_wake(struct uet_ses *ses, struct uet_ses_route *rt)
{
	struct uet_dlist *e;

	if (uet_dlist_empty(&rt->parked))
		return;
	if (!rt->inflight) {
		uet_dlist_splice_tail(&ses->txq, &rt->parked);
	} else {
		if (rt->blocked)
			return;
		e = uet_dlist_pop_head(&rt->parked);
		uet_container_of(e, struct uet_ses_txi, entry)->woken = true;
		uet_dlist_insert_tail(&ses->txq, e);
	}
	if (ses->pushing)
		ses->push_again = true;
}

static bool ses_txi_emit(struct uet_ses *ses, struct uet_ses_txi *txi,
			 struct uet_ses_route **rtp);

/* PDS upcall: a send refused by pacing may go now (no tx_done follows
 * for it when the route's packets in flight end later): every route's
 * parked operations run again at the next push. */
void uet_ses_pds_tx_room(void *ctx)
{
	struct uet_ses *ses = ctx;
	struct uet_hashmap_iter it;
	struct uet_ses_route *rt;
	struct uet_hnode *n;

	if (ses->zombie)
		return;
	uet_hashmap_foreach(&ses->routes, &it, n) {
		rt = uet_container_of(n, struct uet_ses_route, node);
		if (!rt->blocked)
			continue;
		rt->blocked = false;
		ses_route_wake(ses, rt);
	}
}


static bool ses_txi_run(struct uet_ses *ses, struct uet_ses_txi *txi)
{
	struct uet_ses_route *rt = NULL;

	ses->stats.txi_runs++;
	if (ses_txi_emit(ses, txi, &rt))
		return true;
	txi->woken = false;
	if (rt)
		ses_route_wake(ses, rt);
	return false;
}

static bool ses_txi_emit(struct uet_ses *ses, struct uet_ses_txi *txi,
			 struct uet_ses_route **rtp)
{
	const struct uet_pds_key *key = ses_txi_key(txi);
	struct uet_ses_route *rt;
	struct uet_ses_pkt *pkt;
	void *pdc = NULL, *owner;
	uint8_t kind;
	bool first, rdzv;
	int ret;

	if (!key)
		pdc = ses_txi_reply(txi)->rx_pdc;
	rt = ses_route_get(ses, key, txi->type == UET_SES_TXI_SEND ?
			   ses_txi_send(txi)->dst_fa : NULL, pdc);
	*rtp = rt;
	for (;;) {
		/* Refused by PDS: wait for one of our packets there to end
		 * (without any in flight, a retry is the only way on). */
		if (rt && rt->blocked && rt->inflight)
			return ses_txi_park(rt, txi);
		/* Older txis of rt wait: this one waits behind them (with
		 * nothing in flight, they all run again instead). */
		if (rt && !txi->woken && !uet_dlist_empty(&rt->parked)) {
			if (rt->inflight)
				return ses_txi_park(rt, txi);
			ses_route_wake(ses, rt);
		}
		pkt = txi->stash;
		txi->stash = NULL;
		if (!pkt) {
			if (!ses_txi_more(txi))
				return false;
			/* The window as PDS reports it.  With nothing of ours
			 * in flight the PDC may not exist yet (then it reports
			 * no room): the send opens it. */
			if (key && rt && rt->inflight &&
			    !uet_pds_tx_space(ses->pds, key))
				return ses_txi_park(rt, txi);
			ret = ses_txi_build(ses, txi, &pkt);
			if (ret == -EAGAIN)
				return true;
			if (ret < 0) {
				ses_txi_fail(ses, txi, ret);
				return false;
			}
		}
		pkt->route = rt;
		kind = pkt->kind;
		first = pkt->first;
		/* A rendezvous READ or reply (not RMA's). */
		rdzv = (kind == UET_SES_PKT_READ &&
			((struct uet_ses_read *)pkt->owner)->msg) ||
		       (kind == UET_SES_PKT_REPLY &&
			((struct uet_ses_reply *)pkt->owner)->send);
		owner = pkt->owner;
		ses_pkt_owned(ses, pkt, 1);
		if (key) {
			ret = uet_pds_send(ses->pds, key, &pkt->pds, ses->now);
			/* The PDC of key is closing: a new one opens once
			 * it is gone, so this is a retry-later. */
			if (ret == -ENOTCONN)
				ret = -EAGAIN;
		} else {
			ret = uet_pds_send_reply(ses->pds, pdc, &pkt->pds,
						 ses->now);
		}
		if (ret < 0) {
			ses_pkt_owned(ses, pkt, -1);
			if (ret == -EAGAIN && rt)
				rt->blocked = true;
			if (ret == -EAGAIN && ses_txi_alive(txi) &&
			    !txi->stash) {
				txi->stash = pkt;
				return true;
			}
			ses_pkt_abort(ses, pkt);
			if (ret != -EAGAIN)
				ses_txi_fail(ses, txi, ret);
			return false;
		}
		ses->stats.pkts_tx++;
		if (kind == UET_SES_PKT_READ) {
			((struct uet_ses_read *)owner)->pkt = pkt;
			((struct uet_ses_read *)owner)->pdc =
				uet_pds_pkt_pdc(&pkt->pds);
		}
		if (kind == UET_SES_PKT_SEND && first)
			ses_seq_sent(ses, owner);
		if (rdzv)
			ses->stats.rdzv_read_pkts++;
	}
}

void uet_ses_push(struct uet_ses *ses)
{
	struct uet_ses_txi *txi;
	struct uet_dlist round;
	struct uet_dlist *e;

	if (ses->pushing) {
		ses->push_again = true;
		return;
	}
	if (ses->closing || ses->zombie)
		return;
	ses->pushing = true;
	do {
		ses->push_again = false;
		uet_dlist_init(&round);
		uet_dlist_splice_tail(&round, &ses->txq);
		while ((e = uet_dlist_pop_head(&round)) != NULL) {
			txi = uet_container_of(e, struct uet_ses_txi, entry);
			if (ses_txi_run(ses, txi) &&
			    !uet_dlist_linked(&txi->entry))
				uet_dlist_insert_tail(&ses->txq, &txi->entry);
		}
	} while (ses->push_again);
	ses->pushing = false;
}

/* ---- sends ---- */

/* The addressing and matching fields every send header carries (small
 * message, SOM=1, SOM=0: the same fields of three wire structures). */
static void ses_send_ident(const struct uet_ses_send_op *op, uint32_t *job_id,
			   uint16_t *pid_on_fep, uint16_t *ri,
			   uint32_t *initiator, uint64_t *match_bits)
{
	*job_id = op->job_id;
	*pid_on_fep = op->pid_on_fep;
	*ri = op->ri;
	*initiator = op->initiator;
	*match_bits = op->tag;
}

static int ses_send_build(struct uet_ses *ses, struct uet_ses_send_op *op,
			  struct uet_ses_pkt **out)
{
	struct uet_ses_std_som1 s1;
	struct uet_ses_std_som0 s0;
	struct uet_ses_small_msg sm;
	struct uet_ses_rdzv_ext rx;
	struct uet_ses_req_ctl ctl;
	struct uet_pds_tx_pkt *p;
	struct uet_ses_pkt *pkt;
	uint64_t off = op->next_off, plen, max;
	ssize_t n, n2 = 0;
	bool eom;

	if (op->rma)
		return uet_ses_rma_build(ses, op, out);
	pkt = uet_ses_pkt_get(ses, UET_SES_PKT_SEND, op);
	if (!pkt)
		return -EAGAIN;
	if (!op->numbered) {
		if (ses_seq_number(ses, op)) {
			uet_ses_pkt_put(ses, pkt);
			return -EAGAIN;
		}
		pkt->first = true;
	}
	p = &pkt->pds;

	memset(&ctl, 0, sizeof(ctl));
	ctl.opcode = op->opcode;
	ctl.version = UET_SES_VERSION;
	ctl.dc = op->dc;

	if (op->small)
		max = op->len;
	else if (off == 0)
		max = op->rdzv ? op->eager_len : op->pay_first;
	else
		max = op->pay_std;
	plen = uet_ses_iov_gather(op->iov, op->iovcnt, off, max, p->iov,
				  UET_PDS_TX_MAX_IOV, &p->iovcnt);
	if (!plen && op->len) {
		ses_pkt_abort(ses, pkt);
		return -EIO;
	}
	eom = op->small || op->rdzv || off + plen == op->len;
	ctl.eom = eom;

	if (op->small) {
		memset(&sm, 0, sizeof(sm));
		ctl.som = true;
		ctl.hd = op->has_data;
		sm.ctl = ctl;
		sm.request_length = (uint16_t)op->len;
		ses_send_ident(op, &sm.job_id, &sm.pid_on_fep,
			       &sm.resource_index, &sm.initiator,
			       &sm.match_bits);
		sm.header_data = op->has_data ? op->header_data : 0;
		n = uet_ses_small_msg_encode(ses->cfg.wire, p->hdr, sizeof(p->hdr), &sm);
		p->next_hdr = UET_HDR_REQUEST_MEDIUM;
	} else if (off == 0) {
		memset(&s1, 0, sizeof(s1));
		ctl.som = true;
		ctl.hd = op->has_data;
		s1.ctl = ctl;
		s1.message_id = op->msg_id;
		ses_send_ident(op, &s1.job_id, &s1.pid_on_fep,
			       &s1.resource_index, &s1.initiator,
			       &s1.match_bits);
		s1.header_data = op->has_data ? op->header_data : 0;
		s1.request_length = (uint32_t)op->len;
		n = uet_ses_std_som1_encode(ses->cfg.wire, p->hdr, sizeof(p->hdr), &s1);
		if (n > 0 && op->rdzv) {
			memset(&rx, 0, sizeof(rx));
			rx.eager_length = (uint32_t)plen;
			rx.memory_key = op->mkey;
			rx.buffer_offset = plen;
			rx.remaining_length = (uint32_t)(op->len - plen);
			/* UE 1.0.1: read from the initiator itself */
			rx.read_pid_on_fep = (op->initiator >> 12) &
					     UET_PID_ON_FEP_MAX;
			rx.read_resource_index = op->initiator &
						 UET_RESOURCE_INDEX_MAX;
			n2 = uet_ses_rdzv_ext_encode(ses->cfg.wire, p->hdr + n,
						     sizeof(p->hdr) - n, &rx);
			if (n2 < 0)
				n = n2;
		}
		p->next_hdr = UET_HDR_REQUEST_STD;
	} else {
		memset(&s0, 0, sizeof(s0));
		s0.ctl = ctl;
		s0.message_id = op->msg_id;
		ses_send_ident(op, &s0.job_id, &s0.pid_on_fep,
			       &s0.resource_index, &s0.initiator,
			       &s0.match_bits);
		s0.payload_length = (uint16_t)plen;
		s0.message_offset = (uint32_t)off;
		s0.request_length = (uint32_t)op->len;
		n = uet_ses_std_som0_encode(ses->cfg.wire, p->hdr, sizeof(p->hdr), &s0);
		p->next_hdr = UET_HDR_REQUEST_STD;
	}
	if (n < 0) {
		ses_pkt_abort(ses, pkt);
		return -EIO;
	}
	p->hdr_len = (uint16_t)(n + n2);
	/* A held send wants no response, and its target may delay the ACK;
	 * any other eom packet asks for an ACK at once (ar), because its
	 * initiator waits for the response to complete. */
	p->want_rsp = eom && !op->held;
	p->ar = p->want_rsp;
	pkt->len = (uint32_t)plen;
	op->next_off = off + plen;
	if (eom)
		op->built_all = true;
	*out = pkt;
	return 0;
}

/* uet_ses_send_op_address() with the fabric address key already made
 * (the first UET_SES_FA_KEY_LEN bytes of a stream key, uet_ses_stream_key)
 * or NULL to make it here. */
static void ses_send_op_address_keyed(const struct uet_ses *ses,
				      struct uet_ses_send_op *op,
				      struct uet_ses_ep *ep,
				      const struct uet_ses_addr *dst,
				      const uint8_t *fa_key)
{
	op->ep = ep;
	op->key.job_id = dst->job_id;
	op->key.dst = dst->fa;
	op->key.tc = ses->cfg.tc;
	op->key.mode = ep->mode;
	if (fa_key)
		memcpy(op->dst_fa, fa_key, UET_SES_FA_KEY_LEN);
	else
		uet_link_addr_key(&dst->fa, op->dst_fa);
	op->job_id = dst->job_id;
	op->pid_on_fep = dst->pid_on_fep;
	op->ri = dst->ri;
	op->initiator = uet_ses_initiator_id(ep->pid_on_fep, ep->ri);
}

void uet_ses_send_op_address(const struct uet_ses *ses,
			     struct uet_ses_send_op *op,
			     struct uet_ses_ep *ep,
			     const struct uet_ses_addr *dst)
{
	ses_send_op_address_keyed(ses, op, ep, dst, NULL);
}

/* Whether op's bytes fit the iovecs of one packet: always when it has no
 * more entries than a packet takes (tmp is scratch). */
static bool ses_fits_one_pkt(const struct uet_ses_send_op *op,
			     struct iovec *tmp)
{
	unsigned int cnt;

	if (op->iovcnt <= UET_PDS_TX_MAX_IOV)
		return true;
	return uet_ses_iov_gather(op->iov, op->iovcnt, 0, op->len, tmp,
				  UET_PDS_TX_MAX_IOV, &cnt) == op->len;
}

/*
 * An operation whose payload fits one standard packet of the link's MTU
 * (pay_std <= pay_rdata) never asks for its path: the lookup is for the
 * multi-packet ones.  On a wider path, packets carry up to the 14-bit
 * payload_length of continuation packets and Responses with Data (16383
 * bytes), except the SOM=1 packet of a send or RMA write that fits one:
 * that header has no payload_length (only the 32-bit request_length), so
 * such a message goes whole in one datagram where the path (or a link
 * wider than 16 KiB: loopback) takes it: 16 KiB through loopback in one,
 * not 16383 + 1 bytes in two.  A larger one keeps packets of one size,
 * which the link sends as one GSO run (a first packet of 65451 bytes
 * and continuations of 16383 measured slower from 24 KiB up).
 */
void uet_ses_send_op_init(struct uet_ses *ses, struct uet_ses_send_op *op)
{
	size_t mtu, som1;

	op->pay_std = ses->pay_std;
	op->pay_rdata = ses->pay_rdata;
	op->pay_first = ses->pay_std;
	if (op->len > ses->pay_std) {
		som1 = uet_ses_format_len(ses->cfg.wire, UET_SES_FMT_STD_SOM1);
		mtu = uet_pds_path_mtu(ses->pds, &op->key.dst);
		if (mtu > ses->cfg.mtu) {
			op->pay_std = uet_ses_path_pay(mtu, som1);
			op->pay_rdata = uet_ses_rdata_pay(ses, mtu);
		} else {
			mtu = ses->cfg.mtu;
		}
		op->pay_first = op->pay_std;
		if ((!op->rma || op->rma == UET_SES_RMA_WRITE) &&
		    op->len <= uet_ses_path_one(mtu, som1))
			op->pay_first = op->len;
	}
	op->txi.type = UET_SES_TXI_SEND;
	uet_dlist_init(&op->txi.entry);
	uet_dlist_init(&op->replies);
	uet_dlist_init(&op->seq_entry);
	uet_dlist_init(&op->reads);
}

/*
 * With nothing queued and no push under way, the send runs at once: the
 * first (and, unless it wakes others, only) round of uet_ses_push() with
 * op alone in it, without putting it on the transmit queue to take it
 * off again.  What it leaves to do (window, pacing) and anything it
 * woke is queued and pushed as uet_ses_push() would.
 */
void uet_ses_send_op_start(struct uet_ses *ses, struct uet_ses_send_op *op)
{
	uet_dlist_insert_tail(&ses->sends, &op->entry);
	if (ses->pushing || ses->closing || ses->zombie ||
	    !uet_dlist_empty(&ses->txq)) {
		uet_ses_txi_queue(ses, &op->txi);
		uet_ses_push(ses);
		return;
	}
	ses->stats.tx_direct++;
	ses->pushing = true;
	ses->push_again = false;
	if (ses_txi_run(ses, &op->txi) && !uet_dlist_linked(&op->txi.entry))
		uet_dlist_insert_tail(&ses->txq, &op->txi.entry);
	ses->pushing = false;
	if (ses->push_again)
		uet_ses_push(ses);
}

int uet_ses_send(struct uet_ses *ses, const struct uet_ses_send_req *req,
		 uint64_t now)
{
	struct uet_ses_send_op *op;
	struct iovec tmp[UET_PDS_TX_MAX_IOV];
	struct uet_ses_txs *txs;
	unsigned int cnt;
	uint64_t eager;
	bool pull_ok;
	int ret;

	if (!ses || !req || !req->ep || req->ep->ses != ses)
		return -EINVAL;
	if (ses->closing || ses->zombie)
		return -EINVAL;
	if (req->dst.job_id > UET_JOB_ID_MAX ||
	    req->dst.pid_on_fep > UET_PID_ON_FEP_MAX ||
	    req->dst.ri > UET_RESOURCE_INDEX_MAX ||
	    req->dst.fa.len > sizeof(req->dst.fa.ss))
		return -EINVAL;
	uet_ses_set_now(ses, now);
	uet_ses_enter(ses);

	op = uet_ses_obj_alloc(ses, UET_SES_OBJ_SEND);
	if (!op) {
		ret = -EAGAIN;
		goto out;
	}
	ret = uet_ses_iov_dup(req->iov, req->iovcnt, op->iov_inline, &op->iov,
			      &op->len);
	if (ret) {
		op->iov = op->iov_inline;
		goto err_release;
	}
	if (op->len > UINT32_MAX) {
		ret = -EINVAL;
		goto err_release;
	}
	txs = ses_txs_get(ses, req->ep, &req->dst);
	if (!txs) {
		ret = -EAGAIN;
		goto err_release;
	}
	if (txs->nops >= UET_SES_SEQ_WINDOW) {
		ret = -EAGAIN;	/* its stream has the most in flight */
		goto err_release;
	}

	op->iovcnt = req->iovcnt;
	ses_send_op_address_keyed(ses, op, req->ep, &req->dst, txs->key);
	op->tagged = req->tagged;
	op->tag = req->tagged ? req->tag : 0;
	op->has_data = req->has_data;
	op->header_data = req->header_data;
	op->dc = req->dc;
	op->op_ctx = req->op_ctx;
	op->rc = UET_RC_OK;
	uet_ses_send_op_init(ses, op);

	pull_ok = op->key.mode == UET_PDS_MODE_RUD ||
		  op->key.mode == UET_PDS_MODE_ROD;
	if (pull_ok && op->len > ses->cfg.rdzv_threshold) {
		eager = uet_ses_iov_gather(op->iov, op->iovcnt, 0,
					   ses->pay_rdzv, tmp,
					   UET_PDS_TX_MAX_IOV, &cnt);
		if (eager < op->len) {
			op->rdzv = true;
			op->eager_len = eager;
		}
	}
	/* The small-message header has no message_id: not under RUD,
	 * where the id carries the send order. */
	if (!op->rdzv && op->key.mode != UET_PDS_MODE_RUD &&
	    op->len <= ses->pay_small && ses_fits_one_pkt(op, tmp))
		op->small = true;
	/* UUD: no reassembly state survives a lost packet, so a message
	 * is one packet. */
	if (op->key.mode == UET_PDS_MODE_UUD && !op->small) {
		ret = -EMSGSIZE;
		goto err_release;
	}
	if (op->rdzv)
		op->opcode = op->tagged ? UET_RENDEZVOUS_TSEND :
			     UET_RENDEZVOUS_SEND;
	else
		op->opcode = op->tagged ? UET_TAGGED_SEND : UET_SEND;
	if (op->rdzv) {
		ret = uet_ses_mkey_register(ses, op);
		if (ret)
			goto err_release;
		ses->stats.rdzv_tx++;
	}

	/* Held: an eager copy the NIC owns, to a peer that has answered
	 * on an established PDC; delivery-complete sends wait for the
	 * target as asked. */
	op->held = req->held_ok && !op->rdzv && !op->dc &&
		   uet_pds_peer_alive(ses->pds, &op->key);
	if (op->held)
		ses->stats.held_tx++;

	ses_txs_attach(ses, txs, op);
	ses->stats.msgs_tx++;
	uet_ses_send_op_start(ses, op);
	ret = op->held ? UET_SES_SEND_HELD : 0;
	goto out;

err_release:
	uet_ses_release(ses, &op->obj, false);
out:
	uet_ses_leave(ses);
	return ret;
}

void uet_ses_send_error(struct uet_ses *ses, struct uet_ses_send_op *op,
			int status, uint8_t rc, uint8_t tell)
{
	struct uet_ses_reply *rp;

	if (op->obj.dead)
		return;
	if (!op->status) {
		op->status = status;
		op->rc = rc;
	}
	op->stop = true;
	uet_ses_txi_cancel(ses, &op->txi);
	uet_dlist_foreach_entry_safe(&op->replies, rp, entry)
		uet_ses_reply_stop(ses, rp, tell);
	uet_ses_rma_stop(ses, op);
}

static void ses_send_finish(struct uet_ses *ses, struct uet_ses_send_op *op)
{
	uet_ses_txi_cancel(ses, &op->txi);
	uet_ses_mkey_unregister(ses, op);
	uet_ses_rma_finish(ses, op);
	uet_dlist_remove(&op->entry);
	op->cmpl.op_ctx = op->op_ctx;
	op->cmpl.status = op->status;
	op->cmpl.rc = op->status ? op->rc : UET_RC_OK;
	op->cmpl.len = op->status ? 0 : op->len;
	if (op->held && op->status)
		ses->stats.held_failed++;
	uet_ses_release(ses, &op->obj, true);
	ses_seq_end(ses, op);
}

void uet_ses_send_check(struct uet_ses *ses, struct uet_ses_send_op *op)
{
	if (op->obj.dead)
		return;
	if (ses_send_more(op) || op->txi.stash)
		return;
	if (op->pkts_out || !uet_dlist_empty(&op->replies) ||
	    !uet_dlist_empty(&op->reads))
		return;
	if (op->rdzv && !op->notice && !op->status)
		return;
	ses_send_finish(ses, op);
}

void uet_ses_send_cancel_all(struct uet_ses *ses, struct uet_ses_ep *ep)
{
	struct uet_ses_send_op *op;

	uet_dlist_foreach_entry_safe(&ses->sends, op, entry) {
		if (ep && op->ep != ep)
			continue;
		op->ep = NULL;
		uet_ses_send_error(ses, op, -ECANCELED, UET_RC_NULL,
				   UET_RC_CANCELLED);
		uet_ses_send_check(ses, op);
	}
}

/* ---- completions from PDS ---- */

int uet_ses_rsp_rc(enum uet_wire_prof wp, uint8_t next_hdr, const uint8_t *rsp,
		   size_t len)
{
	struct uet_pds_default_ses_rsp d;
	struct uet_ses_rsp r;
	ssize_t n;
	int fmt;

	fmt = uet_ses_request_format(wp, next_hdr, rsp, len);
	switch (fmt) {
	case UET_SES_FMT_RSP:
		n = uet_ses_rsp_decode(wp, &r, rsp, len);
		return n < 0 ? (int)n : r.ctl.return_code;
	case UET_SES_FMT_DEFAULT_RSP:
		n = uet_pds_default_ses_rsp_decode(wp, &d, rsp, len);
		return n < 0 ? (int)n : UET_RC_OK;
	default:
		return fmt < 0 ? fmt : -EPROTO;
	}
}

void uet_ses_pds_tx_done(void *ctx, struct uet_pds_tx_pkt *pdspkt,
			 int status, uint8_t rsp_next_hdr, const uint8_t *rsp,
			 size_t rsp_len)
{
	struct uet_ses *ses = ctx;
	struct uet_ses_pkt *pkt = pdspkt->ctx;
	struct uet_ses_send_op *op;
	struct uet_ses_notice *n;
	int rc = UET_RC_OK;

	if (ses->zombie) {
		uet_ses_zombie_pkt_done(ses, pkt);
		return;
	}
	uet_ses_enter(ses);
	ses_pkt_owned(ses, pkt, -1);
	if (pkt->route) {
		pkt->route->blocked = false;
		ses_route_wake(ses, pkt->route);
	}
	if (rsp && rsp_next_hdr != UET_HDR_NONE) {
		rc = uet_ses_rsp_rc(ses->cfg.wire, rsp_next_hdr, rsp, rsp_len);
		if (rc < 0) {
			ses->stats.bad_hdr++;
			rc = UET_RC_OK;
		} else if (uet_ses_rc_is_error(rc)) {
			ses->stats.err_rsp_rx++;
		}
	}
	switch (pkt->kind) {
	case UET_SES_PKT_SEND:
		op = pkt->owner;
		if (pkt->first)
			ses_seq_sent(ses, op);
		if (status == 0)
			ses_seq_acked(op);
		if (status < 0)
			uet_ses_send_error(ses, op, status, UET_RC_NULL,
					   UET_RC_NULL);
		else if (uet_ses_rc_is_error(rc))
			uet_ses_send_error(ses, op, uet_ses_rc_errno(rc), rc,
					   UET_RC_NULL);
		uet_ses_send_check(ses, op);
		break;
	case UET_SES_PKT_READ:
		uet_ses_read_tx_done(ses, pkt, status, rc);
		break;
	case UET_SES_PKT_REPLY:
		uet_ses_reply_tx_done(ses, pkt, status);
		break;
	case UET_SES_PKT_NOTICE:
		n = pkt->owner;
		uet_ses_release(ses, &n->obj, false);
		break;
	default:
		break;
	}
	uet_ses_pkt_put(ses, pkt);
	uet_ses_push(ses);
	uet_ses_leave(ses);
}
