/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SES target: the PDS rx upcall.  Every request packet is decoded with
 * the wire codecs, checked for self-consistency, addressed to an open
 * endpoint by {JobID, PIDonFEP, resource index}, and then:
 *   - the first packet of a message to arrive (whatever its offset)
 *     matches it against the endpoint's posted receives, or puts it on
 *     the unexpected list with a bounce buffer for its eager bytes (or
 *     returns -EAGAIN when the unexpected bound is reached: PDS NACKs it
 *     and the initiator retries);
 *   - later packets of the same {stream, message_id} (stream: source
 *     address and initiator, target endpoint) are placed at their
 *     message_offset in the same buffer (a packet that cannot belong to
 *     the message in progress under that id means the source reused the
 *     id of a message it gave up on: that one fails, a new one starts);
 *   - the message is complete when all its bytes have arrived.
 * Under RUD the first packet of a message is taken only in send order:
 * a message whose predecessors in its stream have not all arrived is
 * refused with -EAGAIN (send order, below).
 * The SES response (16-byte UET_RESPONSE) travels on the packet's ACK: an
 * error code for any packet that cannot be delivered, RC_OK for the last
 * packet (eom) of a message; other packets get PDS's default response.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uet_byteorder.h"
#include "uet_ses_internal.h"

/* One request packet of a send, whatever its header format. */
struct ses_rx_req {
	uint8_t opcode;
	bool som;
	bool eom;
	bool hd;
	bool tagged;
	bool rdzv;
	uint16_t msg_id;		/* 0: small-message format */
	uint16_t rsp_id;		/* message_id of our response */
	uint32_t job_id;
	uint16_t pid_on_fep;
	uint16_t ri;
	uint32_t initiator;
	uint64_t tag;
	uint64_t header_data;
	uint64_t total;			/* request_length */
	uint64_t off;			/* message_offset of data */
	const uint8_t *data;
	uint64_t plen;
	struct uet_ses_rdzv_ext ext;
};

void uet_ses_rsp_fill(const struct uet_ses *ses, struct uet_pds_rsp *rsp,
		      uint8_t list, uint8_t rc,
		      uint16_t msg_id, uint32_t job_id, uint64_t mlen)
{
	struct uet_ses_rsp h;
	ssize_t n;

	memset(&h, 0, sizeof(h));
	h.ctl.list = list;
	h.ctl.opcode = UET_RESPONSE;
	h.ctl.version = UET_SES_VERSION;
	h.ctl.return_code = rc;
	h.message_id = msg_id ? msg_id : 1;
	h.job_id = job_id & UET_JOB_ID_MAX;
	h.modified_length = mlen > UINT32_MAX ? UINT32_MAX : (uint32_t)mlen;
	n = uet_ses_rsp_encode(ses->cfg.wire, rsp->buf, sizeof(rsp->buf), &h);
	if (n < 0) {
		rsp->next_hdr = UET_HDR_NONE;
		rsp->len = 0;
		return;
	}
	rsp->next_hdr = UET_HDR_RESPONSE;
	rsp->len = (uint16_t)n;
}

/*
 * The response to a header without a message_id (small message,
 * optimized non-matching) carries the low 16 bits of the PSN (1 if
 * zero): PDS ties a response to its packet, the initiator ignores it.
 */
static uint16_t ses_psn_rsp_id(const struct uet_pds_rx_info *info)
{
	uint16_t id = (uint16_t)info->psn;

	return id ? id : 1;
}

/*
 * Refuse a request with rc.  The three addressing codes are counted
 * apart but answered alike (UET_RC_BAD_JOB_ID, and the PDC the request
 * opened is released: rsp->refused): an unauthenticated prober learns
 * nothing about which of JobID, PIDonFEP and resource index it got
 * right (docs/conformance.md).
 */
void uet_ses_rx_refuse(struct uet_ses *ses, struct uet_pds_rsp *rsp,
		       uint8_t rc, uint16_t rsp_id, uint32_t job_id)
{
	switch (rc) {
	case UET_RC_BAD_JOB_ID:
		ses->stats.bad_job++;
		break;
	case UET_RC_BAD_PID:
		ses->stats.bad_pid++;
		break;
	case UET_RC_BAD_INDEX:
		ses->stats.bad_index++;
		break;
	default:
		break;
	}
	if (rc == UET_RC_BAD_JOB_ID || rc == UET_RC_BAD_PID ||
	    rc == UET_RC_BAD_INDEX || rc == UET_SES_RC_MODE) {
		if (rc != UET_SES_RC_MODE) {
			ses->stats.addr_refused++;
			uet_ses_drop_warn(ses, UET_SES_DROP_ADDR);
		}
		rc = UET_RC_BAD_JOB_ID;
		rsp->refused = true;
	}
	ses->stats.err_rsp_tx++;
	uet_ses_rsp_fill(ses, rsp, UET_LIST_EXPECTED, rc, rsp_id, job_id, 0);
}

/*
 * The endpoint a request is addressed to, when it arrived the way that
 * endpoint's traffic travels: an endpoint of a PDC mode (RUD/ROD, an RDM
 * endpoint) takes nothing that came without a PDC (UUD, RUDI), and RMA,
 * atomics and reads always need a PDC and an endpoint of a PDC mode
 * (uet_ses_rma refuses other modes, so such a request without one is
 * forged).  A RUDI/UUD endpoint still takes sends that came on a PDC.
 * NULL and *rc otherwise; a mode mismatch is answered like an unknown
 * address (uniform) and counted.
 */
struct uet_ses_ep *uet_ses_rx_ep(struct uet_ses *ses,
				 const struct uet_pds_rx_info *info,
				 uint32_t job_id, uint16_t pid_on_fep,
				 uint16_t ri, bool rma, uint8_t *rc)
{
	struct uet_ses_ep *ep;
	bool ep_pdc;

	ep = uet_ses_ep_find(ses, job_id, pid_on_fep, ri, rc);
	if (!ep)
		return NULL;
	ep_pdc = ep->mode == UET_PDS_MODE_RUD || ep->mode == UET_PDS_MODE_ROD;
	if ((rma && (!info->pdc || !ep_pdc)) || (ep_pdc && !info->pdc)) {
		ses->stats.mode_refused++;
		uet_ses_drop_warn(ses, UET_SES_DROP_MODE);
		*rc = UET_SES_RC_MODE;
		return NULL;
	}
	return ep;
}

struct uet_ses_ep *uet_ses_rx_som1_rma_ep(struct uet_ses *ses,
					  const struct uet_pds_rx_info *info,
					  const struct uet_ses_std_som1 *h,
					  struct uet_pds_rsp *rsp)
{
	struct uet_ses_ep *ep;
	uint8_t rc;

	ep = uet_ses_rx_ep(ses, info, h->job_id, h->pid_on_fep,
			   h->resource_index, true, &rc);
	if (!ep)
		uet_ses_rx_refuse(ses, rsp, rc, h->message_id, h->job_id);
	return ep;
}

void uet_ses_rx_msg_unmap(struct uet_ses *ses, struct uet_ses_rx_msg *msg)
{
	if (!msg->in_map)
		return;
	uet_hashmap_remove(&ses->rx_msgs, &msg->node);
	if (uet_dlist_linked(&msg->inc_entry))
		uet_dlist_remove(&msg->inc_entry);
	msg->in_map = false;
}

/*
 * Bounce buffers of unexpected (and held) messages grow as bytes arrive
 * (doubling, so in-order arrival copies each byte about twice), never
 * more than UET_SES_UNEXP_AHEAD past what has arrived: a packet that
 * claims a large request_length (or a far message_offset) reserves no
 * more than that.  A packet beyond it is refused (-EAGAIN: retried by a
 * genuine initiator once the bytes before it arrived).
 */
#define UET_SES_UNEXP_AHEAD	(256u * 1024)
#define UET_SES_UNEXP_FIRST	(64u * 1024)

static void ses_held_account(struct uet_ses *ses, int64_t bytes, int msgs);

static uint64_t ses_rx_buf_len(uint64_t covered, uint64_t end,
			       uint64_t cur, uint64_t total)
{
	uint64_t len = cur ? 2 * cur : UET_SES_UNEXP_FIRST;
	uint64_t cap = covered + UET_SES_UNEXP_AHEAD;

	if (len < end)
		len = end;
	if (len > cap)
		len = cap;
	if (len > total)
		len = total;
	return len < end ? end : len;
}

/* Whether a first packet ending at end may start a bounce buffer. */
static bool ses_rx_ahead_ok(struct uet_ses *ses, const struct ses_rx_req *q)
{
	if (q->off + q->plen <= q->plen + UET_SES_UNEXP_AHEAD)
		return true;
	ses->stats.ahead_refused++;
	uet_ses_drop_warn(ses, UET_SES_DROP_AHEAD);
	return false;
}

/* Make m's bounce buffer reach end (accounted): 0 or -EAGAIN. */
static int ses_rx_grow(struct uet_ses *ses, struct uet_ses_rx_msg *m,
		       uint64_t end, uint64_t plen)
{
	uint64_t len, add, used, max = ses->cfg.unexp_max_bytes;
	uint8_t *b;

	if (end <= m->ubuf_len)
		return 0;
	if (end > m->cov.covered + plen + UET_SES_UNEXP_AHEAD) {
		ses->stats.ahead_refused++;
		uet_ses_drop_warn(ses, UET_SES_DROP_AHEAD);
		return -EAGAIN;
	}
	len = ses_rx_buf_len(m->cov.covered + plen, end, m->ubuf_len,
			     m->need);
	add = len - m->ubuf_len;
	used = m->held ? ses->held_bytes : ses->stats.unexp_bytes;
	if (used > max || add > max - used) {
		if (m->held)
			ses->stats.ord_refused++;
		else
			ses->stats.unexp_refused++;
		return -EAGAIN;
	}
	b = realloc(m->ubuf, len);
	if (!b)
		return -EAGAIN;
	m->ubuf = b;
	m->ubuf_len = len;
	if (m->held)
		ses_held_account(ses, (int64_t)add, 0);
	else if (m->on_unexp)
		uet_ses_unexp_account(ses, (int64_t)add, 0);
	return 0;
}

/*
 * Place q's bytes in m: 0, -EPROTO (a byte of it was placed already:
 * counted, nothing changes; a message completes only when every byte
 * arrived exactly once), or -EAGAIN (no buffer room yet).
 */
static int ses_rx_place(struct uet_ses *ses, struct uet_ses_rx_msg *m,
			const struct ses_rx_req *q)
{
	uint64_t n;
	int ret;

	if (!m->recv && !m->discard) {
		ret = ses_rx_grow(ses, m, q->off + q->plen, q->plen);
		if (ret)
			return ret;
	}
	ret = uet_ranges_add(&m->cov, q->off, q->plen);
	if (ret == -ENOMEM)
		return -EAGAIN;
	if (ret) {
		ses->stats.overlap_refused++;
		uet_ses_drop_warn(ses, UET_SES_DROP_OVERLAP);
		return -EPROTO;
	}
	m->last_ns = ses->now;
	if (uet_dlist_linked(&m->inc_entry)) {
		uet_dlist_remove(&m->inc_entry);
		uet_dlist_insert_tail(&ses->rx_inc, &m->inc_entry);
	}
	if (m->recv) {
		uet_ses_iov_copy_in(m->recv->iov, m->recv->iovcnt, q->off,
				    q->data, q->plen);
	} else if (q->off < m->ubuf_len) {
		n = m->ubuf_len - q->off;
		if (n > q->plen)
			n = q->plen;
		memcpy(m->ubuf + q->off, q->data, n);
	}
	m->rcvd += q->plen;
	if (q->som) {
		m->som_seen = true;
		m->hd = q->hd;
		m->header_data = q->header_data;
	}
	return 0;
}

/* RC_OK on the last packet of a message (and on a rendezvous request). */
static void ses_rx_respond(const struct uet_ses *ses, struct uet_pds_rsp *rsp,
			   const struct uet_ses_rx_msg *m,
			   const struct ses_rx_req *q)
{
	uint64_t mlen = m->total;

	if (!q->eom && !q->rdzv)
		return;
	if (m->recv && m->recv->len < mlen)
		mlen = m->recv->len;
	uet_ses_rsp_fill(ses, rsp, m->recv ? UET_LIST_EXPECTED :
			 UET_LIST_UNEXPECTED, UET_RC_OK, q->rsp_id, q->job_id,
			 mlen);
	/* An eager message's RC_OK: an initiator that holds its send
	 * (no ar) waits for none.  A rendezvous request's response starts
	 * the pull and always goes. */
	rsp->deferrable = !q->rdzv;
}

/* Whether q can be a packet of m (same message, bytes still missing). */
static bool ses_rx_fits(const struct uet_ses_rx_msg *m,
			const struct uet_ses_ep *ep, const struct ses_rx_req *q)
{
	return m->ep == ep && m->total == q->total &&
	       m->opcode == q->opcode && m->tag == q->tag &&
	       m->initiator == q->initiator && !q->rdzv && !m->rdzv &&
	       !(q->som && m->som_seen) && q->plen <= m->total - m->rcvd;
}

/* A later packet of a message already known. */
static int ses_rx_more(struct uet_ses *ses, struct uet_ses_rx_msg *m,
		       const struct ses_rx_req *q, struct uet_pds_rsp *rsp)
{
	int ret;

	ret = ses_rx_place(ses, m, q);
	if (ret)
		return ret;
	ses_rx_respond(ses, rsp, m, q);
	uet_ses_rx_check(ses, m);
	return 0;
}

/* ---- send order (RUD) ---- */

/*
 * A target stream remembers the next message_id it expects (its turn).
 * For the first packet of a message to arrive (the packets of a message
 * already taken are placed whatever their id):
 *   - message_id 1: the source starts a sequence (after the messages of
 *     its previous one still held here, whatever is missing before them);
 *   - a stream not known here, or an id too far either way: the stream is
 *     taken up at this message;
 *   - the expected id: taken (matched, or buffered as unexpected), then
 *     the held messages whose turn has come;
 *   - up to UET_SES_SEQ_WINDOW - 1 ahead: held, buffered, until its turn;
 *   - up to UET_SES_SEQ_WINDOW behind: a message the sequence has passed
 *     (the stream was taken up after it): taken at once.
 * "Taken" is the point where matching happens, so messages are matched
 * (or enter the unexpected list) in send order.  A message whose turn has
 * come but that neither matches a receive nor fits the unexpected bound
 * stays held (parked) until a receive is posted or room frees up.  A gap
 * that nothing fills for cfg.order_timeout_ns is skipped.
 */
enum ses_ord {
	SES_ORD_NONE,			/* no order: not RUD, or no id */
	SES_ORD_NEXT,
	SES_ORD_START,
	SES_ORD_RESYNC,
	SES_ORD_LATE,
	SES_ORD_AHEAD,
};

static bool ses_unexp_room(const struct uet_ses *ses, uint64_t need)
{
	uint64_t used = ses->stats.unexp_bytes;

	return ses->unexp_msgs < ses->cfg.unexp_max_msgs &&
	       used <= ses->cfg.unexp_max_bytes &&
	       need <= ses->cfg.unexp_max_bytes - used;
}

/* Held messages have bounds of their own, the same values. */
static bool ses_held_room(const struct uet_ses *ses, uint64_t need)
{
	return ses->held_msgs < ses->cfg.unexp_max_msgs &&
	       ses->held_bytes <= ses->cfg.unexp_max_bytes &&
	       need <= ses->cfg.unexp_max_bytes - ses->held_bytes;
}

static void ses_held_account(struct uet_ses *ses, int64_t bytes, int msgs)
{
	ses->held_bytes += (uint64_t)bytes;
	ses->held_msgs += (uint64_t)(int64_t)msgs;
	if (ses->held_bytes > ses->stats.held_bytes_hwm)
		ses->stats.held_bytes_hwm = ses->held_bytes;
}

/* A stream holding nothing may be forgotten (least recently used). */
static void ses_rxs_idle_update(struct uet_ses *ses, struct uet_ses_rxs *rxs)
{
	bool busy = !uet_dlist_empty(&rxs->held) ||
		    !uet_dlist_empty(&rxs->cmplq);

	if (busy && uet_dlist_linked(&rxs->lru))
		uet_dlist_remove(&rxs->lru);
	else if (!busy && !uet_dlist_linked(&rxs->lru))
		uet_dlist_insert_tail(&ses->rxs_lru, &rxs->lru);
}

void uet_ses_held_unlink(struct uet_ses *ses, struct uet_ses_rx_msg *m)
{
	struct uet_ses_rxs *rxs = m->rxs;

	if (!m->held)
		return;
	m->held = false;
	m->rxs = NULL;
	uet_dlist_remove(&m->entry);
	ses_held_account(ses, -(int64_t)m->ubuf_len, -1);
	if (uet_dlist_empty(&rxs->held))
		uet_dlist_remove(&rxs->hentry);
	ses_rxs_idle_update(ses, rxs);
}

/*
 * Receive completions of a stream are delivered in the order its
 * messages were matched: a message matched later may complete first (its
 * packets arrived first, or an earlier one is a rendezvous pull), and
 * then waits.  all: the stream goes, deliver what is complete and let go
 * of the rest (each is released when it completes).
 */
static void ses_cmplq_flush(struct uet_ses *ses, struct uet_ses_rxs *rxs,
			    bool all)
{
	struct uet_ses_recv_op *r;
	struct uet_dlist *e;

	while ((e = uet_dlist_first(&rxs->cmplq)) != NULL) {
		r = uet_container_of(e, struct uet_ses_recv_op, centry);
		if (!r->done && !all)
			break;
		uet_dlist_remove(&r->centry);
		r->crxs = NULL;
		if (r->done)
			uet_ses_release(ses, &r->obj, true);
	}
	ses_rxs_idle_update(ses, rxs);
}

void uet_ses_recv_matched(struct uet_ses *ses, struct uet_ses_recv_op *r,
			  const uint8_t *key)
{
	struct uet_ses_rxs *rxs;
	struct uet_hnode *n;

	n = uet_hashmap_memo_lookup(&ses->rxs_memo, &ses->rx_streams, key);
	if (!n || r->crxs)
		return;
	rxs = uet_container_of(n, struct uet_ses_rxs, node);
	r->crxs = rxs;
	uet_dlist_insert_tail(&rxs->cmplq, &r->centry);
	ses_rxs_idle_update(ses, rxs);
}

bool uet_ses_recv_ordered_done(struct uet_ses *ses, struct uet_ses_recv_op *r)
{
	if (!r->crxs)
		return false;
	r->done = true;
	ses_cmplq_flush(ses, r->crxs, false);
	return true;
}

static void ses_rxs_free(struct uet_ses *ses, struct uet_ses_rxs *rxs)
{
	struct uet_dlist *e;

	while ((e = uet_dlist_first(&rxs->held)) != NULL)
		uet_ses_rx_fail(ses, uet_container_of(e, struct uet_ses_rx_msg,
						      entry),
				-ECANCELED, UET_RC_CANCELLED);
	ses_cmplq_flush(ses, rxs, true);
	uet_hashmap_memo_forget(&ses->rxs_memo, &rxs->node);
	uet_hashmap_remove(&ses->rx_streams, &rxs->node);
	uet_dlist_remove(&rxs->lru);
	uet_dlist_remove(&rxs->hentry);
	uet_dlist_remove(&rxs->entry);
	uet_bufpool_put(&ses->rxs_pool, rxs);
}

void uet_ses_rxs_free_ep(struct uet_ses *ses, struct uet_ses_ep *ep)
{
	struct uet_dlist *e;

	while ((e = uet_dlist_first(&ep->rx_streams)) != NULL)
		ses_rxs_free(ses, uet_container_of(e, struct uet_ses_rxs,
						   entry));
}

static struct uet_ses_rxs *ses_rxs_get(struct uet_ses *ses,
				       struct uet_ses_ep *ep,
				       const uint8_t *key)
{
	struct uet_ses_rxs *rxs;
	struct uet_hnode *n;

	n = uet_hashmap_memo_lookup(&ses->rxs_memo, &ses->rx_streams, key);
	if (n) {
		rxs = uet_container_of(n, struct uet_ses_rxs, node);
		if (uet_dlist_linked(&rxs->lru)) {
			uet_dlist_remove(&rxs->lru);
			uet_dlist_insert_tail(&ses->rxs_lru, &rxs->lru);
		}
		return rxs;
	}
	/* Bounded: the stream used least recently (holding nothing) is
	 * forgotten; its next message takes it up again. */
	if (uet_hashmap_count(&ses->rx_streams) >= UET_SES_RXS_MAX &&
	    !uet_dlist_empty(&ses->rxs_lru))
		ses_rxs_free(ses, uet_dlist_first_entry(&ses->rxs_lru,
							struct uet_ses_rxs,
							lru));
	rxs = uet_bufpool_get(&ses->rxs_pool);
	if (!rxs)
		return NULL;
	memset(rxs, 0, sizeof(*rxs));
	memcpy(rxs->key, key, UET_SES_STREAM_KEY_LEN);
	uet_dlist_init(&rxs->held);
	uet_dlist_init(&rxs->cmplq);
	uet_dlist_init(&rxs->hentry);
	/* Cannot fail: the key is not in the map. */
	(void)uet_hashmap_insert_bytes(&ses->rx_streams, &rxs->node,
				       rxs->key);
	uet_dlist_insert_tail(&ses->rxs_lru, &rxs->lru);
	uet_dlist_insert_tail(&ep->rx_streams, &rxs->entry);
	return rxs;
}

/* Where the first packet of q stands in its stream; -EAGAIN for no
 * memory. */
static int ses_ord_check(struct uet_ses *ses, struct uet_ses_ep *ep,
			 const struct uet_pds_rx_info *info,
			 const struct ses_rx_req *q, const uint8_t *key,
			 struct uet_ses_rxs **out)
{
	struct uet_ses_rxs *rxs;
	uint32_t d;

	*out = NULL;
	if (info->mode != UET_PDS_MODE_RUD || !q->msg_id)
		return SES_ORD_NONE;
	rxs = ses_rxs_get(ses, ep, key);
	if (!rxs)
		return -EAGAIN;
	*out = rxs;
	if (q->msg_id == UET_SES_SEQ_FIRST)
		return SES_ORD_START;
	if (!rxs->synced)
		return SES_ORD_RESYNC;
	d = uet_ses_seq_dist(rxs->expect, q->msg_id);
	if (d == 0)
		return SES_ORD_NEXT;
	if (d < UET_SES_SEQ_WINDOW)
		return SES_ORD_AHEAD;
	if (d >= UET_SES_SEQ_SPACE - UET_SES_SEQ_WINDOW)
		return SES_ORD_LATE;
	return SES_ORD_RESYNC;
}

/* The stream moved on past id. */
static void ses_ord_advance(struct uet_ses *ses, struct uet_ses_rxs *rxs,
			    uint16_t id)
{
	rxs->expect = uet_ses_seq_next(id);
	rxs->synced = true;
	rxs->since = ses->now;
}

/* Take held message m, whose turn has come: false if it can neither be
 * matched nor buffered as unexpected (it stays, parked). */
static bool ses_held_take(struct uet_ses *ses, struct uet_ses_rx_msg *m)
{
	struct uet_ses_recv_op *r;

	r = uet_ses_match_posted(ses, m->ep, m->tagged, m->tag, m->initiator,
				 m->key, m->total);
	if (!r && !ses_unexp_room(ses, m->ubuf_len))
		return false;
	if (r) {
		r = uet_ses_recv_take(ses, r, m->total);
		if (!r)
			return false;
	}
	uet_ses_held_unlink(ses, m);
	if (r) {
		ses->stats.expected++;
		uet_ses_rx_bind(ses, m, r);
	} else {
		m->on_unexp = true;
		uet_dlist_insert_tail(&m->ep->unexp, &m->entry);
		uet_ses_unexp_account(ses, (int64_t)m->ubuf_len, 1);
		ses->stats.unexpected++;
	}
	return true;
}

/* Take the held messages of rxs whose turn has come. */
static void ses_ord_release(struct uet_ses *ses, struct uet_ses_rxs *rxs)
{
	struct uet_ses_rx_msg *m;
	uint16_t id;

	while (!uet_dlist_empty(&rxs->held)) {
		m = uet_dlist_first_entry(&rxs->held, struct uet_ses_rx_msg,
					  entry);
		id = m->msg_id;
		if (id != rxs->expect || !ses_held_take(ses, m))
			return;
		ses_ord_advance(ses, rxs, id);
	}
}

/* Take every held message of rxs in order, skipping the ids missing
 * before them, as far as they can be taken. */
static void ses_ord_flush(struct uet_ses *ses, struct uet_ses_rxs *rxs)
{
	struct uet_ses_rx_msg *m;

	while (!uet_dlist_empty(&rxs->held)) {
		m = uet_dlist_first_entry(&rxs->held, struct uet_ses_rx_msg,
					  entry);
		if (m->msg_id != rxs->expect) {
			rxs->expect = m->msg_id;
			ses->stats.ord_skipped++;
		}
		ses_ord_release(ses, rxs);
		if (!uet_dlist_empty(&rxs->held) &&
		    uet_dlist_first_entry(&rxs->held, struct uet_ses_rx_msg,
					  entry)->msg_id == rxs->expect)
			return;		/* parked */
	}
}

void uet_ses_ord_release_all(struct uet_ses *ses)
{
	struct uet_ses_rxs *rxs;

	uet_dlist_foreach_entry_safe(&ses->rxs_held, rxs, hentry)
		ses_ord_release(ses, rxs);
}

void uet_ses_ord_timer(struct uet_ses *ses)
{
	struct uet_ses_rx_msg *m;
	struct uet_ses_rxs *rxs;

	if (!ses->cfg.order_timeout_ns)
		return;
	uet_dlist_foreach_entry_safe(&ses->rxs_held, rxs, hentry) {
		m = uet_dlist_first_entry(&rxs->held, struct uet_ses_rx_msg,
					  entry);
		if (m->msg_id == rxs->expect ||
		    ses->now - rxs->since < ses->cfg.order_timeout_ns)
			continue;
		ses_ord_flush(ses, rxs);
	}
}

static uint64_t ses_add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Incomplete messages and writes with no packet for msg_timeout_ns are
 * dropped; a receive bound to such a message completes -ETIMEDOUT. */
void uet_ses_expire(struct uet_ses *ses)
{
	uint64_t tmo = ses->cfg.msg_timeout_ns;
	struct uet_ses_rx_msg *m;

	if (!tmo)
		return;
	while ((m = uet_dlist_first_entry(&ses->rx_inc, struct uet_ses_rx_msg,
					  inc_entry)) != NULL &&
	       ses_add_sat(m->last_ns, tmo) <= ses->now) {
		uet_dlist_remove(&m->inc_entry);
		ses->stats.msgs_expired++;
		uet_ses_drop_warn(ses, UET_SES_DROP_EXPIRED);
		uet_ses_rx_fail(ses, m, -ETIMEDOUT, UET_RC_CANCELLED);
	}
	uet_ses_rma_rx_expire(ses);
}

/* When uet_ses_expire has work next. */
static uint64_t ses_expire_deadline(const struct uet_ses *ses)
{
	uint64_t tmo = ses->cfg.msg_timeout_ns, best = UINT64_MAX;
	const struct uet_ses_rma_rx *x;
	const struct uet_ses_rx_msg *m;

	if (!tmo)
		return UINT64_MAX;
	m = uet_dlist_first_entry(&ses->rx_inc, struct uet_ses_rx_msg,
				  inc_entry);
	if (m)
		best = ses_add_sat(m->last_ns, tmo);
	x = uet_dlist_first_entry(&ses->rma_inc, struct uet_ses_rma_rx,
				  inc_entry);
	if (x && ses_add_sat(x->last_ns, tmo) < best)
		best = ses_add_sat(x->last_ns, tmo);
	return best;
}

uint64_t uet_ses_next_deadline(const struct uet_ses *ses)
{
	const struct uet_ses_rx_msg *m;
	const struct uet_ses_rxs *rxs;
	uint64_t t, best;

	if (!ses || ses->zombie)
		return UINT64_MAX;
	best = ses_expire_deadline(ses);
	if (!ses->cfg.order_timeout_ns)
		return best;
	uet_dlist_foreach_entry(&ses->rxs_held, rxs, hentry) {
		m = uet_dlist_first_entry(&rxs->held, struct uet_ses_rx_msg,
					  entry);
		if (m->msg_id == rxs->expect)
			continue;
		t = rxs->since + ses->cfg.order_timeout_ns;
		if (t < rxs->since)
			t = UINT64_MAX;
		if (t < best)
			best = t;
	}
	return best;
}

/* A whole message in one packet for a receive taken off the posted
 * list: no state kept. */
static int ses_rx_single(struct uet_ses *ses,
			 const struct uet_pds_rx_info *info,
			 struct uet_ses_recv_op *r, const struct ses_rx_req *q,
			 const uint8_t *key, struct uet_pds_rsp *rsp)
{
	struct uet_ses_rx_msg tmp;

	uet_ses_recv_matched(ses, r, key);
	uet_ses_iov_copy_in(r->iov, r->iovcnt, 0, q->data, q->plen);
	memset(&tmp, 0, sizeof(tmp));
	tmp.src = *info->src;
	tmp.job_id = q->job_id;
	tmp.initiator = q->initiator;
	tmp.tagged = q->tagged;
	tmp.tag = q->tag;
	tmp.hd = q->hd;
	tmp.header_data = q->header_data;
	tmp.total = q->total;
	tmp.recv = r;
	ses->stats.expected++;
	ses_rx_respond(ses, rsp, &tmp, q);
	uet_ses_recv_deliver(ses, r, &tmp);
	return 0;
}

/* A new rx_msg for the first packet of q, with a bounce buffer of
 * ubuf_len bytes, on no list yet. */
static struct uet_ses_rx_msg *ses_rx_msg_new(struct uet_ses *ses,
					     const struct uet_pds_rx_info *info,
					     struct uet_ses_ep *ep,
					     const struct ses_rx_req *q,
					     const uint8_t *key,
					     uint64_t ubuf_len)
{
	struct uet_ses_rx_msg *m;

	m = uet_ses_obj_alloc(ses, UET_SES_OBJ_RXMSG);
	if (!m)
		return NULL;
	if (ubuf_len) {
		m->ubuf = malloc(ubuf_len);
		if (!m->ubuf) {
			uet_ses_release(ses, &m->obj, false);
			return NULL;
		}
		m->ubuf_len = ubuf_len;
	}
	memcpy(m->key, key, UET_SES_RXKEY_LEN);
	uet_ranges_init(&m->cov);
	uet_dlist_init(&m->inc_entry);
	m->last_ns = ses->now;
	uet_dlist_init(&m->entry);
	uet_dlist_init(&m->txi.entry);
	uet_dlist_init(&m->reads);
	m->txi.type = UET_SES_TXI_PULL;
	m->ep = ep;
	m->src = *info->src;
	m->msg_id = q->msg_id;
	m->job_id = q->job_id;
	m->initiator = q->initiator;
	m->opcode = q->opcode;
	m->tagged = q->tagged;
	m->tag = q->tag;
	m->total = q->total;
	m->need = q->rdzv ? q->ext.eager_length : q->total;
	if (q->rdzv) {
		m->rdzv = true;
		m->mkey = q->ext.memory_key;
		m->rbuf_off = q->ext.buffer_offset;
		/* UE 1.0.1 names where to read; UE+ reads the initiator */
		m->read_from = ses->cfg.wire == UET_WIRE_UE ?
			       (uint32_t)q->ext.read_pid_on_fep << 12 |
			       q->ext.read_resource_index : q->initiator;
		m->eager_len = q->ext.eager_length;
		m->peer_key.job_id = q->job_id;
		m->peer_key.dst = *info->src;
		m->peer_key.tc = ses->cfg.tc;
		/* The pull goes back in the mode the request came in. */
		m->peer_key.mode = info->mode;
		ses->stats.rdzv_rx++;
	}
	return m;
}

/* Place the first packet of m and answer it. */
static void ses_rx_start(struct uet_ses *ses, struct uet_ses_rx_msg *m,
			 const struct ses_rx_req *q, struct uet_pds_rsp *rsp)
{
	/* The first bytes of a new message: nothing to overlap, and its
	 * buffer was sized for them. */
	(void)ses_rx_place(ses, m, q);
	if (!q->rdzv && m->rcvd < m->total &&
	    !uet_hashmap_insert_bytes(&ses->rx_msgs, &m->node, m->key)) {
		m->in_map = true;
		uet_dlist_insert_tail(&ses->rx_inc, &m->inc_entry);
	}
	if (m->recv && q->rdzv)
		uet_ses_pull_start(ses, m);
	ses_rx_respond(ses, rsp, m, q);
	uet_ses_rx_check(ses, m);
}

/* The first packet of a message to arrive, in its turn (key: its stream
 * and id): match it, or buffer it as unexpected. */
static int ses_rx_first(struct uet_ses *ses,
			const struct uet_pds_rx_info *info,
			struct uet_ses_ep *ep, const struct ses_rx_req *q,
			const uint8_t *key, struct uet_pds_rsp *rsp)
{
	struct uet_ses_recv_op *r, *t;
	struct uet_ses_rx_msg *m;
	uint64_t need_buf;

	r = uet_ses_match_posted(ses, ep, q->tagged, q->tag, q->initiator,
				 key, q->total);
	if (r && q->som && q->eom && !q->rdzv) {
		t = uet_ses_recv_take(ses, r, q->total);
		if (!t)
			return -EAGAIN;
		return ses_rx_single(ses, info, t, q, key, rsp);
	}
	if (q->rdzv)
		need_buf = q->ext.eager_length;
	else if (q->som && q->eom)
		need_buf = q->total;
	else if (!r && !ses_rx_ahead_ok(ses, q))
		return -EAGAIN;
	else
		need_buf = ses_rx_buf_len(q->plen, q->off + q->plen, 0,
					  q->total);
	if (!r && !ses_unexp_room(ses, need_buf)) {
		ses->stats.unexp_refused++;
		return -EAGAIN;
	}
	m = ses_rx_msg_new(ses, info, ep, q, key, r ? 0 : need_buf);
	if (!m)
		return -EAGAIN;
	if (r) {
		r = uet_ses_recv_take(ses, r, q->total);
		if (!r) {
			uet_ses_release(ses, &m->obj, false);
			return -EAGAIN;
		}
		uet_ses_recv_matched(ses, r, key);
		m->recv = r;
		uet_dlist_insert_tail(&ep->active, &m->entry);
		ses->stats.expected++;
	} else {
		m->on_unexp = true;
		uet_dlist_insert_tail(&ep->unexp, &m->entry);
		uet_ses_unexp_account(ses, (int64_t)need_buf, 1);
		ses->stats.unexpected++;
	}
	ses_rx_start(ses, m, q, rsp);
	return 0;
}

/* The first packet of a message that arrived before its turn: buffer it
 * (unmatched) on its stream's held list, in send order. */
static int ses_rx_hold(struct uet_ses *ses, const struct uet_pds_rx_info *info,
		       struct uet_ses_ep *ep, struct uet_ses_rxs *rxs,
		       const struct ses_rx_req *q, const uint8_t *key,
		       struct uet_pds_rsp *rsp)
{
	struct uet_ses_rx_msg *m, *o;
	struct uet_dlist *pos;
	uint64_t need_buf;
	uint32_t d;

	if (q->rdzv)
		need_buf = q->ext.eager_length;
	else if (q->som && q->eom)
		need_buf = q->total;
	else if (!ses_rx_ahead_ok(ses, q))
		return -EAGAIN;
	else
		need_buf = ses_rx_buf_len(q->plen, q->off + q->plen, 0,
					  q->total);
	if (!ses_held_room(ses, need_buf)) {
		ses->stats.ord_refused++;
		return -EAGAIN;
	}
	m = ses_rx_msg_new(ses, info, ep, q, key, need_buf);
	if (!m)
		return -EAGAIN;
	d = uet_ses_seq_dist(rxs->expect, q->msg_id);
	for (pos = rxs->held.next; pos != &rxs->held; pos = pos->next) {
		o = uet_container_of(pos, struct uet_ses_rx_msg, entry);
		if (uet_ses_seq_dist(rxs->expect, o->msg_id) > d)
			break;
	}
	if (uet_dlist_empty(&rxs->held)) {
		/* The gap starts now. */
		uet_dlist_insert_tail(&ses->rxs_held, &rxs->hentry);
		rxs->since = ses->now;
	}
	uet_dlist_insert_before(pos, &m->entry);
	m->held = true;
	m->rxs = rxs;
	ses_rxs_idle_update(ses, rxs);
	ses_held_account(ses, (int64_t)need_buf, 1);
	ses->stats.ord_held++;
	ses_rx_start(ses, m, q, rsp);
	return 0;
}

static int ses_rx_send(struct uet_ses *ses, const struct uet_pds_rx_info *info,
		       const struct ses_rx_req *q, struct uet_pds_rsp *rsp)
{
	uint8_t key[UET_SES_RXKEY_LEN];
	struct uet_ses_rx_msg *m = NULL;
	struct uet_ses_rxs *rxs;
	struct uet_ses_ep *ep;
	struct uet_hnode *n;
	uint8_t rc;
	int ord, ret;

	ep = uet_ses_rx_ep(ses, info, q->job_id, q->pid_on_fep, q->ri, false,
			   &rc);
	if (!ep) {
		uet_ses_rx_refuse(ses, rsp, rc, q->rsp_id, q->job_id);
		return 0;
	}
	uet_ses_stream_key(key, info->src, q->initiator, q->job_id,
			   q->pid_on_fep, q->ri);
	uet_put_be16(key + UET_SES_STREAM_KEY_LEN, q->msg_id);
	/* No message in progress (the single-packet case): no lookup. */
	if (q->msg_id && uet_hashmap_count(&ses->rx_msgs)) {
		n = uet_hashmap_lookup_bytes(&ses->rx_msgs, key);
		m = n ? uet_container_of(n, struct uet_ses_rx_msg, node) : NULL;
		if (m && ses_rx_fits(m, ep, q))
			return ses_rx_more(ses, m, q, rsp);
	}

	/* The first packet of this message to arrive. */
	ord = ses_ord_check(ses, ep, info, q, key, &rxs);
	if (ord < 0)
		return ord;
	if (ord == SES_ORD_START || ord == SES_ORD_RESYNC) {
		/* What is held came before (in the previous sequence). */
		ses_ord_flush(ses, rxs);
		if (!uet_dlist_empty(&rxs->held)) {
			ses->stats.ord_refused++;
			return -EAGAIN;
		}
	}
	if (m) {
		/*
		 * The source reused the message_id: the message it had
		 * started under it will never be finished (its initiator
		 * gave up on it).  It fails, this packet starts a new one.
		 */
		ses->stats.stale_msgs++;
		uet_ses_rx_fail(ses, m, -EIO, UET_RC_OK);
	}
	if (ord == SES_ORD_AHEAD)
		return ses_rx_hold(ses, info, ep, rxs, q, key, rsp);
	ret = ses_rx_first(ses, info, ep, q, key, rsp);
	if (ret == -EAGAIN && ord == SES_ORD_NEXT)
		rxs->since = ses->now;	/* the missing message is alive */
	if (ret || !rxs)
		return ret;
	switch (ord) {
	case SES_ORD_START:
		ses->stats.ord_restart++;
		break;
	case SES_ORD_RESYNC:
		ses->stats.ord_resync++;
		break;
	case SES_ORD_LATE:
		ses->stats.ord_late++;
		return 0;
	default:
		break;
	}
	ses_ord_advance(ses, rxs, q->msg_id);
	ses_ord_release(ses, rxs);
	return 0;
}

static bool ses_opcode_is_send(uint8_t opcode)
{
	return opcode == UET_SEND || opcode == UET_TAGGED_SEND;
}

static bool ses_opcode_is_rdzv(uint8_t opcode)
{
	return opcode == UET_RENDEZVOUS_SEND || opcode == UET_RENDEZVOUS_TSEND;
}

static bool ses_opcode_is_tagged(uint8_t opcode)
{
	return opcode == UET_TAGGED_SEND || opcode == UET_RENDEZVOUS_TSEND;
}

static void ses_rx_unsupported(struct uet_ses *ses, struct uet_pds_rsp *rsp,
			       uint16_t rsp_id, uint32_t job_id)
{
	/* Nothing was done: a PDC this request opened is not kept. */
	rsp->refused = true;
	ses->stats.err_rsp_tx++;
	uet_ses_rsp_fill(ses, rsp, UET_LIST_EXPECTED, UET_RC_UNSUPPORTED_OP, rsp_id,
			 job_id, 0);
}

static int ses_rx_small(struct uet_ses *ses, const struct uet_pds_rx_info *info,
			struct uet_pds_rsp *rsp)
{
	struct uet_ses_small_msg h;
	struct ses_rx_req q;
	ssize_t n;

	n = uet_ses_small_msg_decode(ses->cfg.wire, &h, info->ses, info->ses_len);
	if (n < 0)
		return (int)n;
	if (!ses_opcode_is_send(h.ctl.opcode)) {
		ses_rx_unsupported(ses, rsp, ses_psn_rsp_id(info), h.job_id);
		return 0;
	}
	memset(&q, 0, sizeof(q));
	q.plen = info->ses_len - (size_t)n;
	if (q.plen != h.request_length)
		return -EPROTO;
	q.opcode = h.ctl.opcode;
	q.som = true;
	q.eom = true;
	q.hd = h.ctl.hd;
	q.tagged = ses_opcode_is_tagged(h.ctl.opcode);
	q.rsp_id = ses_psn_rsp_id(info);
	q.job_id = h.job_id;
	q.pid_on_fep = h.pid_on_fep;
	q.ri = h.resource_index;
	q.initiator = h.initiator;
	q.tag = q.tagged ? h.match_bits : 0;
	q.header_data = q.hd ? h.header_data : 0;
	q.total = h.request_length;
	q.data = info->ses + n;
	return ses_rx_send(ses, info, &q, rsp);
}

static int ses_rx_som1(struct uet_ses *ses, const struct uet_pds_rx_info *info,
		       struct uet_pds_rsp *rsp)
{
	struct uet_ses_std_som1 h;
	struct ses_rx_req q;
	ssize_t n, x;

	n = uet_ses_std_som1_decode(ses->cfg.wire, &h, info->ses, info->ses_len);
	if (n < 0)
		return (int)n;
	if (h.ctl.opcode == UET_READ)
		return uet_ses_rx_read_req(ses, info, &h, rsp);
	if (uet_ses_opcode_is_rma(h.ctl.opcode))
		return uet_ses_rx_rma_som1(ses, info, &h, (size_t)n, rsp);
	if (!ses_opcode_is_send(h.ctl.opcode) &&
	    !ses_opcode_is_rdzv(h.ctl.opcode)) {
		ses_rx_unsupported(ses, rsp, h.message_id, h.job_id);
		return 0;
	}
	memset(&q, 0, sizeof(q));
	q.opcode = h.ctl.opcode;
	q.som = true;
	q.eom = h.ctl.eom;
	q.hd = h.ctl.hd;
	q.tagged = ses_opcode_is_tagged(h.ctl.opcode);
	q.rdzv = ses_opcode_is_rdzv(h.ctl.opcode);
	q.msg_id = h.message_id;
	q.rsp_id = h.message_id;
	q.job_id = h.job_id;
	q.pid_on_fep = h.pid_on_fep;
	q.ri = h.resource_index;
	q.initiator = h.initiator;
	q.tag = q.tagged ? h.match_bits : 0;
	q.header_data = q.hd ? h.header_data : 0;
	q.total = h.request_length;
	if (q.rdzv) {
		/* The whole eager part and the extension in this packet. */
		if (!h.ctl.eom)
			return -EPROTO;
		x = uet_ses_rdzv_ext_decode(ses->cfg.wire, &q.ext, info->ses + n,
					    info->ses_len - (size_t)n);
		if (x < 0)
			return (int)x;
		n += x;
		q.plen = info->ses_len - (size_t)n;
		/* UE 1.0.1 carries no remaining_length: what the request
		 * length leaves after the eager part */
		if (ses->cfg.wire == UET_WIRE_UE)
			q.ext.remaining_length = q.ext.eager_length <= q.total ?
				(uint32_t)(q.total - q.ext.eager_length) : 0;
		if (q.ext.eager_length != q.plen ||
		    q.plen + q.ext.remaining_length != q.total ||
		    q.ext.buffer_offset > UINT64_MAX - q.ext.remaining_length)
			return -EPROTO;
	} else {
		q.plen = info->ses_len - (size_t)n;
		if (q.plen > q.total || q.eom != (q.plen == q.total))
			return -EPROTO;
	}
	q.data = info->ses + n;
	return ses_rx_send(ses, info, &q, rsp);
}

static int ses_rx_som0(struct uet_ses *ses, const struct uet_pds_rx_info *info,
		       struct uet_pds_rsp *rsp)
{
	struct uet_ses_std_som0 h;
	struct ses_rx_req q;
	ssize_t n;

	n = uet_ses_std_som0_decode(ses->cfg.wire, &h, info->ses, info->ses_len);
	if (n < 0)
		return (int)n;
	if (ses_opcode_is_rdzv(h.ctl.opcode))
		return -EPROTO;	/* rendezvous messages are one packet */
	if (uet_ses_opcode_is_rma(h.ctl.opcode))
		return uet_ses_rx_rma_som0(ses, info, &h, (size_t)n, rsp);
	if (!ses_opcode_is_send(h.ctl.opcode)) {
		ses_rx_unsupported(ses, rsp, h.message_id, h.job_id);
		return 0;
	}
	memset(&q, 0, sizeof(q));
	q.plen = info->ses_len - (size_t)n;
	if (q.plen != h.payload_length || !q.plen || !h.message_offset ||
	    h.message_offset > h.request_length ||
	    q.plen > (uint64_t)h.request_length - h.message_offset ||
	    h.ctl.eom != (h.message_offset + q.plen == h.request_length))
		return -EPROTO;
	q.opcode = h.ctl.opcode;
	q.eom = h.ctl.eom;
	q.tagged = ses_opcode_is_tagged(h.ctl.opcode);
	q.msg_id = h.message_id;
	q.rsp_id = h.message_id;
	q.job_id = h.job_id;
	q.pid_on_fep = h.pid_on_fep;
	q.ri = h.resource_index;
	q.initiator = h.initiator;
	q.tag = q.tagged ? h.match_bits : 0;
	q.total = h.request_length;
	q.off = h.message_offset;
	q.data = info->ses + n;
	return ses_rx_send(ses, info, &q, rsp);
}

static int ses_rx_dispatch(struct uet_ses *ses,
			   const struct uet_pds_rx_info *info,
			   struct uet_pds_rsp *rsp)
{
	struct uet_ses_opt_nonmatch on;
	struct uet_ses_defer_send ds;
	struct uet_ses_rtr rtr;
	ssize_t n;
	int fmt;

	fmt = uet_ses_request_format(ses->cfg.wire, info->next_hdr, info->ses, info->ses_len);
	if (fmt < 0)
		return fmt;
	switch (fmt) {
	case UET_SES_FMT_SMALL_MSG:
		return ses_rx_small(ses, info, rsp);
	case UET_SES_FMT_STD_SOM1:
		return ses_rx_som1(ses, info, rsp);
	case UET_SES_FMT_STD_SOM0:
		return ses_rx_som0(ses, info, rsp);
	case UET_SES_FMT_RSP:
		return uet_ses_rx_notice(ses, info);
	case UET_SES_FMT_RSP_DATA:
		return uet_ses_rx_read_data(ses, info, rsp);
	/* Well-formed requests this SES does not implement. */
	case UET_SES_FMT_OPT_NONMATCH:
		n = uet_ses_opt_nonmatch_decode(ses->cfg.wire, &on, info->ses, info->ses_len);
		if (n < 0)
			return (int)n;
		ses_rx_unsupported(ses, rsp, ses_psn_rsp_id(info), on.job_id);
		return 0;
	case UET_SES_FMT_DEFER_SEND:
		n = uet_ses_defer_send_decode(ses->cfg.wire, &ds, info->ses, info->ses_len);
		if (n < 0)
			return (int)n;
		ses_rx_unsupported(ses, rsp, ds.message_id, ds.job_id);
		return 0;
	case UET_SES_FMT_RTR:
		n = uet_ses_rtr_decode(ses->cfg.wire, &rtr, info->ses, info->ses_len);
		if (n < 0)
			return (int)n;
		ses_rx_unsupported(ses, rsp, rtr.message_id, rtr.job_id);
		return 0;
	default:
		/* A default response or optimized response as a request. */
		return -EPROTO;
	}
}

/* The addressing fields of a request, whatever its format. */
struct ses_rx_target {
	uint32_t job;
	uint16_t pid;
	uint16_t ri;
	uint8_t opcode;
};

static void ses_rx_target_set(struct ses_rx_target *t,
			      const struct uet_ses_req_ctl *ctl, uint32_t job,
			      uint16_t pid, uint16_t ri)
{
	t->job = job;
	t->pid = pid;
	t->ri = ri;
	t->opcode = ctl->opcode;
}

/* The PDS check upcall: the request's endpoint exists and takes it. */
bool uet_ses_pds_check(void *ctx, const struct uet_pds_rx_info *info)
{
	struct uet_ses_small_msg sm;
	struct uet_ses_std_som1 s1;
	struct uet_ses_std_som0 s0;
	struct uet_ses *ses = ctx;
	struct ses_rx_target t;
	uint8_t rc;
	bool rma;

	if (!ses || ses->zombie || ses->closing || !info || !info->ses)
		return false;
	switch (uet_ses_request_format(ses->cfg.wire, info->next_hdr, info->ses,
				       info->ses_len)) {
	case UET_SES_FMT_SMALL_MSG:
		if (uet_ses_small_msg_decode(ses->cfg.wire, &sm, info->ses, info->ses_len) < 0)
			return false;
		ses_rx_target_set(&t, &sm.ctl, sm.job_id, sm.pid_on_fep,
				  sm.resource_index);
		break;
	case UET_SES_FMT_STD_SOM1:
		if (uet_ses_std_som1_decode(ses->cfg.wire, &s1, info->ses, info->ses_len) < 0)
			return false;
		ses_rx_target_set(&t, &s1.ctl, s1.job_id, s1.pid_on_fep,
				  s1.resource_index);
		break;
	case UET_SES_FMT_STD_SOM0:
		if (uet_ses_std_som0_decode(ses->cfg.wire, &s0, info->ses, info->ses_len) < 0)
			return false;
		ses_rx_target_set(&t, &s0.ctl, s0.job_id, s0.pid_on_fep,
				  s0.resource_index);
		break;
	default:
		return false;
	}
	rma = uet_ses_opcode_is_rma(t.opcode) || t.opcode == UET_READ;
	if (!uet_ses_ep_find(ses, t.job, t.pid, t.ri, &rc))
		return false;
	return uet_ses_rx_ep(ses, info, t.job, t.pid, t.ri, rma, &rc) != NULL;
}

int uet_ses_pds_rx(void *ctx, const struct uet_pds_rx_info *info,
		   struct uet_pds_rsp *rsp)
{
	struct uet_ses *ses = ctx;
	int ret;

	if (ses->zombie || ses->closing)
		return -EAGAIN;
	if (!info || !rsp || !info->src || (!info->ses && info->ses_len)) {
		ses->stats.bad_hdr++;
		return -EINVAL;
	}
	rsp->next_hdr = UET_HDR_NONE;
	rsp->len = 0;
	/* A packet may be the first thing SES hears of in a while (no
	 * command, no progress call since): what it starts is timed from
	 * its arrival. */
	uet_ses_set_now(ses, info->now);
	uet_ses_enter(ses);
	ret = ses_rx_dispatch(ses, info, rsp);
	if (ret == -EAGAIN) {
		rsp->next_hdr = UET_HDR_NONE;
		rsp->len = 0;
	} else {
		ses->stats.pkts_rx++;
		if (ret < 0) {
			ses->stats.bad_hdr++;
			rsp->next_hdr = UET_HDR_NONE;
			rsp->len = 0;
		}
	}
	uet_ses_push(ses);
	uet_ses_leave(ses);
	return ret;
}
