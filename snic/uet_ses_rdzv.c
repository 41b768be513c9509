/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SES rendezvous.
 *
 * Initiator: a send above the rendezvous threshold registers its whole
 * buffer under a fresh 64-bit memory key and sends one packet: the SOM=1
 * header (opcode UET_RENDEZVOUS_SEND / _TSEND), the rendezvous extension
 * {eager_length, memory_key, buffer_offset = eager_length,
 * remaining_length} and the first eager_length bytes.
 *
 * Target: once the message is matched (at once for a posted receive, or
 * when a receive takes it from the unexpected list, which holds only its
 * eager bytes) it pulls the rest, up to what the receive can hold, with
 * UET_READ requests of at most UET_SES_READ_CHUNK bytes, rounded down to
 * whole Response-with-Data payloads (uet_ses_pull_chunk; standard SOM=1
 * header: memory_key in match_bits, buffer_offset, request_length; each
 * with want_rsp so a refusal comes back reliably) sent to the initiator
 * with uet_pds_send().
 *
 * Initiator: a UET_READ is checked (address, key, the reader is the send's
 * destination, range) and answered with an SES response on its ACK (RC_OK
 * or RC_BAD_MKEY / RC_BAD_ADDR / ...), then with Response-with-Data
 * packets (next_hdr RESPONSE_DATA, read_request_message_id, payload_length,
 * message_offset within the read, modified_length = read length) sent
 * zero-copy from the send buffer on the reverse direction of the READ's
 * PDC with uet_pds_send_reply().  The last one of each READ asks for an
 * immediate ACK (ar), as does the notice below: the peer may complete and
 * stop progressing before a delayed ACK would leave.
 *
 * Target: places them, completes the receive when every byte it asked for
 * has arrived, and then sends the initiator a deferred SES Response
 * (UET_RESPONSE, message_id of the rendezvous send, return code,
 * modified_length = bytes placed) followed by the send's 8-byte memory
 * key, as a request (next_hdr RESPONSE) on the same PDC as the READs:
 * the "notice".  The key names the send (a message_id is only unique in
 * its stream).  It sends one as well when the message fails or is
 * cancelled at the target (RC_CANCELLED, or the code the initiator
 * returned).
 *
 * Initiator: the send completes when its packets and all its
 * Response-with-Data packets are done and the notice has arrived (or an
 * error ended it); then the memory key is dropped.  A send that stops
 * while a READ is only partly served (its endpoint closed, a hard PDS
 * error) answers that READ once more with a Response with Data without
 * data carrying RC_CANCELLED or RC_INITIATOR_ERR, so the target's receive
 * fails instead of waiting; READs arriving after that get RC_CANCELLED.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "uet_byteorder.h"
#include "uet_csprng.h"
#include "uet_log.h"
#include "uet_ses_internal.h"

/* ---- memory keys (initiator) ---- */

int uet_ses_mkey_register(struct uet_ses *ses, struct uet_ses_send_op *op)
{
	uint64_t key;

	/* Unpredictable (issue 30, finding 8): a key seen on the wire
	 * tells nothing of the next one nor of this process's memory. */
	do {
		key = uet_csprng_u64();
	} while (!key || uet_hashmap_lookup_u64(&ses->mkeys, key));
	op->mkey = key;
	op->mkey_reg = true;
	return uet_hashmap_insert_u64(&ses->mkeys, &op->mkey_node, key);
}

void uet_ses_mkey_unregister(struct uet_ses *ses, struct uet_ses_send_op *op)
{
	if (!op->mkey_reg)
		return;
	uet_hashmap_remove(&ses->mkeys, &op->mkey_node);
	op->mkey_reg = false;
}

/* ---- pulls (target) ---- */

void uet_ses_pull_start(struct uet_ses *ses, struct uet_ses_rx_msg *m)
{
	uint64_t end = m->total < m->recv->len ? m->total : m->recv->len;

	if (end < m->eager_len)
		end = m->eager_len;
	m->pull_pos = m->eager_len;
	m->pull_end = end;
	m->need = end;
	if (m->pull_pos < m->pull_end)
		uet_ses_txi_queue(ses, &m->txi);
}

bool uet_ses_pull_more(const struct uet_ses_rx_msg *m)
{
	return !m->obj.dead && m->recv && m->pull_pos < m->pull_end;
}

/*
 * UET_SES_READ_CHUNK rounded down to whole Response-with-Data payloads,
 * so that every reply but the message's last is full: a 64 KiB pull on a
 * path of 16383-byte replies took four of them and a fifth of 4 bytes.
 */
uint64_t uet_ses_pull_chunk(uint64_t pay_rdata)
{
	uint64_t c = UET_SES_READ_CHUNK;

	if (pay_rdata && pay_rdata <= c)
		c = c / pay_rdata * pay_rdata;
	return c;
}

/* The initiator's reply payload on the path to it, taken to be ours
 * (uet_ses_send_op_init sizes our own replies and sends the same way). */
static uint64_t ses_pull_pay(struct uet_ses *ses,
			     const struct uet_ses_rx_msg *m)
{
	return uet_ses_rdata_pay(ses,
				 uet_pds_path_mtu(ses->pds, &m->peer_key.dst));
}

int uet_ses_pull_build(struct uet_ses *ses, struct uet_ses_rx_msg *m,
		       struct uet_ses_pkt **out)
{
	struct uet_ses_std_som1 h;
	struct uet_ses_read *rd;
	struct uet_ses_pkt *pkt;
	uint64_t len;
	ssize_t n;

	rd = uet_ses_obj_alloc(ses, UET_SES_OBJ_READ);
	if (!rd)
		return -EAGAIN;
	uet_ranges_init(&rd->got);
	if (uet_ses_msgid_alloc(ses, &rd->mid, UET_SES_OBJ_READ)) {
		uet_ses_release(ses, &rd->obj, false);
		return -EAGAIN;
	}
	pkt = uet_ses_pkt_get(ses, UET_SES_PKT_READ, rd);
	if (!pkt) {
		uet_ses_msgid_free(ses, &rd->mid);
		uet_ses_release(ses, &rd->obj, false);
		return -EAGAIN;
	}
	len = m->pull_end - m->pull_pos;
	if (len > UET_SES_READ_CHUNK) {
		uint64_t chunk = uet_ses_pull_chunk(ses_pull_pay(ses, m));

		if (len > chunk)
			len = chunk;
	}

	memset(&h, 0, sizeof(h));
	h.ctl.opcode = UET_READ;
	h.ctl.version = UET_SES_VERSION;
	h.ctl.som = true;
	h.ctl.eom = true;
	h.message_id = rd->mid.id;
	h.job_id = m->job_id;
	h.pid_on_fep = (m->read_from >> 12) & UET_PID_ON_FEP_MAX;
	h.resource_index = m->read_from & UET_RESOURCE_INDEX_MAX;
	h.buffer_offset = m->rbuf_off + (m->pull_pos - m->eager_len);
	h.initiator = uet_ses_initiator_id(m->ep->pid_on_fep, m->ep->ri);
	h.match_bits = m->mkey;
	h.request_length = (uint32_t)len;
	n = uet_ses_std_som1_encode(ses->cfg.wire, pkt->pds.hdr, sizeof(pkt->pds.hdr), &h);
	if (n < 0) {
		uet_ses_pkt_put(ses, pkt);
		uet_ses_msgid_free(ses, &rd->mid);
		uet_ses_release(ses, &rd->obj, false);
		return -EIO;
	}
	pkt->pds.next_hdr = UET_HDR_REQUEST_STD;
	pkt->pds.hdr_len = (uint16_t)n;
	pkt->pds.want_rsp = true;

	rd->msg = m;
	uet_dlist_insert_tail(&m->reads, &rd->entry);
	memcpy(rd->peer_fa, m->key, UET_SES_FA_KEY_LEN);
	rd->job_id = m->job_id;
	rd->pos = m->pull_pos;
	rd->len = len;
	m->pull_pos += len;
	*out = pkt;
	return 0;
}

void uet_ses_read_check(struct uet_ses *ses, struct uet_ses_read *rd)
{
	struct uet_ses_send_op *op = rd->op;

	if (rd->obj.dead || !rd->pkt_done)
		return;
	if ((rd->msg || op) && rd->got.covered < rd->len)
		return;
	if (rd->msg || op) {
		uet_dlist_remove(&rd->entry);
		rd->msg = NULL;
		rd->op = NULL;
	}
	uet_ses_msgid_free(ses, &rd->mid);
	uet_ses_release(ses, &rd->obj, false);
	if (op)
		uet_ses_send_check(ses, op);
}

/*
 * The message no longer takes data (completed or failed): its READs
 * stay until PDS is done with their packets, then go.  Response-with-Data
 * still arriving for them is ignored.
 */
void uet_ses_pull_orphan(struct uet_ses *ses, struct uet_ses_rx_msg *m)
{
	struct uet_ses_read *rd;

	uet_dlist_foreach_entry_safe(&m->reads, rd, entry) {
		uet_dlist_remove(&rd->entry);
		rd->msg = NULL;
		uet_ses_read_check(ses, rd);
	}
}

void uet_ses_read_tx_done(struct uet_ses *ses, struct uet_ses_pkt *pkt,
			  int status, int rc)
{
	struct uet_ses_read *rd = pkt->owner;
	struct uet_ses_send_op *op = rd->op;

	rd->pkt = NULL;
	rd->pkt_done = true;
	if (rd->msg && status < 0)
		uet_ses_rx_fail(ses, rd->msg, status, UET_RC_OK);
	else if (rd->msg && uet_ses_rc_is_error(rc))
		uet_ses_rx_fail(ses, rd->msg, uet_ses_rc_errno((uint8_t)rc),
				(uint8_t)rc);
	/* An RMA READ or FETCH: the op fails (and orphans rd). */
	if (op && status < 0)
		uet_ses_send_error(ses, op, status, UET_RC_NULL, UET_RC_NULL);
	else if (op && uet_ses_rc_is_error(rc))
		uet_ses_send_error(ses, op, uet_ses_rc_errno((uint8_t)rc),
				   (uint8_t)rc, UET_RC_NULL);
	uet_ses_read_check(ses, rd);
	if (op)
		uet_ses_send_check(ses, op);
}

/*
 * A Response with Data that answers none of our READs: one we gave up
 * on, or a forgery (issue 30, findings 1, 4 and 13).  Counted and
 * dropped; a PDC it would have opened is released (rsp->refused).
 */
static int ses_rdata_unmatched(struct uet_ses *ses, struct uet_pds_rsp *rsp)
{
	ses->stats.rdata_unmatched++;
	rsp->refused = true;
	return 0;
}

/*
 * Response with Data for one of our READs.  It must arrive on the PDC
 * the READ went out on (so never over RUDI or UUD), from the peer the
 * READ named, for a READ still outstanding; its bytes are placed by
 * offset, each once (rd->got), before anything of it is written.
 */
int uet_ses_rx_read_data(struct uet_ses *ses,
			 const struct uet_pds_rx_info *info,
			 struct uet_pds_rsp *rsp)
{
	uint8_t fa[UET_SES_FA_KEY_LEN];
	struct uet_ses_rsp_data h;
	struct uet_ses_send_op *op;
	struct uet_ses_msgid *mid;
	struct uet_ses_rx_msg *m;
	struct uet_ses_read *rd;
	uint64_t plen;
	ssize_t n;

	n = uet_ses_rsp_data_decode(ses->cfg.wire, &h, info->ses, info->ses_len);
	if (n < 0)
		return (int)n;
	plen = info->ses_len - (size_t)n;
	if (plen != h.payload_length)
		return -EPROTO;
	mid = uet_ses_msgid_find(ses, h.read_request_message_id,
				 UET_SES_OBJ_READ);
	if (!mid || !info->pdc)
		return ses_rdata_unmatched(ses, rsp);
	rd = uet_container_of(mid, struct uet_ses_read, mid);
	if (rd->pkt)
		rd->pdc = uet_pds_pkt_pdc(&rd->pkt->pds);
	uet_link_addr_key(info->src, fa);
	if (info->pdc != rd->pdc || memcmp(fa, rd->peer_fa, sizeof(fa)) ||
	    h.job_id != rd->job_id || rd->obj.dead)
		return ses_rdata_unmatched(ses, rsp);
	if (uet_ses_rc_is_error(h.ctl.return_code)) {
		ses->stats.err_rsp_rx++;
		if (rd->msg)
			uet_ses_rx_fail(ses, rd->msg,
					uet_ses_rc_errno(h.ctl.return_code),
					h.ctl.return_code);
		op = rd->op;
		if (op)
			uet_ses_send_error(ses, op,
					   uet_ses_rc_errno(h.ctl.return_code),
					   h.ctl.return_code, UET_RC_NULL);
		uet_ses_read_check(ses, rd);
		if (op)
			uet_ses_send_check(ses, op);
		return 0;
	}
	if (!plen || h.message_offset > rd->len ||
	    plen > rd->len - h.message_offset)
		return -EPROTO;
	if (uet_ranges_add(&rd->got, h.message_offset, plen)) {
		/* Bytes already placed (or the set is full): nothing of it
		 * is written. */
		ses->stats.overlap_refused++;
		return 0;
	}
	m = rd->msg;
	if (m) {
		uet_ses_iov_copy_in(m->recv->iov, m->recv->iovcnt,
				    rd->pos + h.message_offset,
				    info->ses + n, plen);
		m->rcvd += plen;
	}
	op = rd->op;
	if (op && op->rma == UET_SES_RMA_FETCH)
		uet_ses_iov_copy_in(op->res_iov, op->res_iovcnt,
				    rd->pos + h.message_offset,
				    info->ses + n, plen);
	else if (op)
		uet_ses_iov_copy_in(op->iov, op->iovcnt,
				    rd->pos + h.message_offset,
				    info->ses + n, plen);
	uet_ses_read_check(ses, rd);
	if (m)
		uet_ses_rx_check(ses, m);
	return 0;
}

/* ---- reads (initiator) ---- */

int uet_ses_rx_read_req(struct uet_ses *ses, const struct uet_pds_rx_info *info,
			const struct uet_ses_std_som1 *h,
			struct uet_pds_rsp *rsp)
{
	uint8_t fa[UET_SES_FA_KEY_LEN];
	struct uet_ses_send_op *op;
	struct uet_ses_reply *rp;
	struct uet_ses_ep *ep;
	struct uet_hnode *node;
	uint8_t rc;

	if (info->ses_len != UET_SES_STD_SOM1_LEN)
		return -EPROTO;
	ep = uet_ses_rx_som1_rma_ep(ses, info, h, rsp);
	if (!ep)
		return 0;
	/* A rendezvous key first, then the RI table. */
	node = uet_hashmap_lookup_u64(&ses->mkeys, h->match_bits);
	if (!node)
		return uet_ses_rx_rma_read(ses, info, h, ep, rsp);
	if (!h->ctl.eom)
		return -EPROTO;
	rc = UET_RC_BAD_MKEY;
	op = uet_container_of(node, struct uet_ses_send_op, mkey_node);
	uet_link_addr_key(info->src, fa);
	if (op->ep != ep || memcmp(fa, op->dst_fa, sizeof(fa)))
		goto err_rsp;
	rc = UET_RC_CANCELLED;
	if (op->stop || op->status)
		goto err_rsp;
	rc = UET_RC_BAD_ADDR;
	if (h->buffer_offset > op->len ||
	    h->request_length > op->len - h->buffer_offset)
		goto err_rsp;
	rc = UET_RC_UNSUPPORTED_OP;
	if (!info->pdc)
		goto err_rsp;

	if (h->request_length) {
		rp = uet_ses_reply_new(ses, info, h->message_id, h->job_id,
				       h->request_length);
		if (!rp)
			return -EAGAIN;
		rp->send = op;
		rp->off = h->buffer_offset;
		uet_dlist_insert_tail(&op->replies, &rp->entry);
		uet_ses_txi_queue(ses, &rp->txi);
	}
	uet_ses_rsp_fill(ses, rsp, UET_LIST_EXPECTED, UET_RC_OK, h->message_id,
			 h->job_id, h->request_length);
	return 0;

err_rsp:
	ses->stats.err_rsp_tx++;
	uet_ses_rsp_fill(ses, rsp, UET_LIST_EXPECTED, rc, h->message_id, h->job_id,
			 0);
	return 0;
}

struct uet_ses_reply *uet_ses_reply_new(struct uet_ses *ses,
					const struct uet_pds_rx_info *info,
					uint16_t read_msg_id, uint32_t job_id,
					uint64_t len)
{
	struct uet_ses_reply *rp;

	rp = uet_ses_obj_alloc(ses, UET_SES_OBJ_REPLY);
	if (!rp)
		return NULL;
	uet_dlist_init(&rp->txi.entry);
	uet_dlist_init(&rp->entry);
	uet_dlist_init(&rp->mr_entry);
	rp->txi.type = UET_SES_TXI_REPLY;
	rp->rx_pdc = info->pdc;
	rp->read_msg_id = read_msg_id;
	rp->job_id = job_id;
	rp->len = len;
	rp->pay = ses->pay_rdata;
	if (len > ses->pay_rdata)
		rp->pay = uet_ses_rdata_pay(ses,
			uet_pds_reply_mtu(ses->pds, info->pdc));
	return rp;
}

bool uet_ses_reply_more(const struct uet_ses_reply *rp)
{
	if (rp->obj.dead)
		return false;
	if (rp->stop)
		return rp->err_rc && !rp->err_built;
	return rp->next < rp->len;
}

int uet_ses_reply_build(struct uet_ses *ses, struct uet_ses_reply *rp,
			struct uet_ses_pkt **out)
{
	struct uet_ses_send_op *op = rp->send;
	struct uet_ses_rsp_data h;
	struct uet_ses_pkt *pkt;
	uint64_t max = rp->len - rp->next, plen;
	ssize_t n;

	pkt = uet_ses_pkt_get(ses, UET_SES_PKT_REPLY, rp);
	if (!pkt)
		return -EAGAIN;
	if (max > rp->pay)
		max = rp->pay;
	if (rp->stop) {
		plen = 0;	/* the error answer: no data */
	} else if (op) {
		plen = uet_ses_iov_gather(op->iov, op->iovcnt,
					  rp->off + rp->next, max,
					  pkt->pds.iov, UET_PDS_TX_MAX_IOV,
					  &pkt->pds.iovcnt);
	} else if (rp->own) {
		plen = max;
		pkt->pds.iov[0].iov_base = rp->own + rp->next;
		pkt->pds.iov[0].iov_len = plen;
		pkt->pds.iovcnt = 1;
	} else {
		/* A registration, zero copy like a send: the packet is on
		 * the registration's list until PDS is done with it, and a
		 * deregistration copies it (PDS may retransmit). */
		plen = uet_ses_mr_gather(rp->mr, rp->moff + rp->next, max,
					 pkt->pds.iov, UET_PDS_TX_MAX_IOV,
					 &pkt->pds.iovcnt);
		uet_ses_mr_pkt_add(rp->mr, pkt);
	}
	memset(&h, 0, sizeof(h));
	h.ctl.list = UET_LIST_EXPECTED;
	h.ctl.opcode = UET_RESPONSE_W_DATA;
	h.ctl.version = UET_SES_VERSION;
	h.ctl.return_code = rp->stop ? rp->err_rc : UET_RC_OK;
	h.job_id = rp->job_id;
	h.read_request_message_id = rp->read_msg_id;
	h.payload_length = (uint16_t)plen;
	h.modified_length = (uint32_t)rp->len;
	h.message_offset = (uint32_t)rp->next;
	n = uet_ses_rsp_data_encode(ses->cfg.wire, pkt->pds.hdr, sizeof(pkt->pds.hdr), &h);
	if ((!plen && !rp->stop) || n < 0) {
		uet_ses_pkt_put(ses, pkt);
		return -EIO;
	}
	pkt->pds.next_hdr = UET_HDR_RESPONSE_DATA;
	pkt->pds.hdr_len = (uint16_t)n;
	pkt->len = (uint32_t)plen;
	rp->next += plen;
	/* The last one of the read: the reader may complete its receive on
	 * it and stop progressing, so it must not wait for a delayed ACK
	 * (this send completes only when every reply packet is acked). */
	pkt->pds.ar = rp->stop || rp->next == rp->len;
	if (rp->stop)
		rp->err_built = true;
	*out = pkt;
	return 0;
}

void uet_ses_reply_check(struct uet_ses *ses, struct uet_ses_reply *rp)
{
	struct uet_ses_send_op *op = rp->send;

	if (rp->obj.dead || rp->pkts_out || rp->txi.stash ||
	    uet_ses_reply_more(rp))
		return;
	uet_ses_txi_cancel(ses, &rp->txi);
	uet_dlist_remove(&rp->entry);
	uet_dlist_remove(&rp->mr_entry);
	uet_ses_release(ses, &rp->obj, false);
	if (op)
		uet_ses_send_check(ses, op);
}

void uet_ses_reply_stop(struct uet_ses *ses, struct uet_ses_reply *rp,
			uint8_t tell)
{
	if (rp->obj.dead)
		return;
	if (!rp->stop) {
		rp->stop = true;
		uet_ses_txi_cancel(ses, &rp->txi);
		if (tell != UET_RC_NULL && rp->next < rp->len &&
		    !ses->closing) {
			rp->err_rc = tell;
			uet_ses_txi_queue(ses, &rp->txi);
		}
	}
	uet_ses_reply_check(ses, rp);
}

void uet_ses_reply_tx_done(struct uet_ses *ses, struct uet_ses_pkt *pkt,
			   int status)
{
	struct uet_ses_reply *rp = pkt->owner;
	struct uet_ses_send_op *op = rp->send;

	/* The data did not get through: the send fails, and its other
	 * replies (some queued on the same, failed PDC) stop. */
	if (status < 0 && op)
		uet_ses_send_error(ses, op, status, UET_RC_NULL, UET_RC_NULL);
	else if (status < 0)
		uet_ses_reply_stop(ses, rp, UET_RC_NULL);
	uet_ses_reply_check(ses, rp);
	if (op)
		uet_ses_send_check(ses, op);
}

/* The target's notice that a rendezvous send is finished. */
int uet_ses_rx_notice(struct uet_ses *ses, const struct uet_pds_rx_info *info)
{
	uint8_t fa[UET_SES_FA_KEY_LEN];
	struct uet_ses_send_op *op;
	struct uet_hnode *node;
	struct uet_ses_rsp h;
	ssize_t n;

	n = uet_ses_rsp_decode(ses->cfg.wire, &h, info->ses, info->ses_len);
	if (n < 0)
		return (int)n;
	if (info->ses_len != ses->notice_len)
		return -EPROTO;
	node = uet_hashmap_lookup_u64(&ses->mkeys,
				      uet_get_be64(info->ses + n));
	if (!node)
		return 0;	/* the send already ended */
	op = uet_container_of(node, struct uet_ses_send_op, mkey_node);
	uet_link_addr_key(info->src, fa);
	if (!op->rdzv || memcmp(fa, op->dst_fa, sizeof(fa)) ||
	    h.job_id != op->job_id || h.message_id != op->msg_id)
		return -EPROTO;
	op->notice = true;
	if (uet_ses_rc_is_error(h.ctl.return_code)) {
		ses->stats.err_rsp_rx++;
		uet_ses_send_error(ses, op, uet_ses_rc_errno(h.ctl.return_code),
				   h.ctl.return_code, UET_RC_NULL);
	}
	uet_ses_send_check(ses, op);
	return 0;
}

/* ---- notices (target) ---- */

void uet_ses_notice_send(struct uet_ses *ses, const struct uet_ses_rx_msg *m,
			 uint8_t rc, uint32_t mlen)
{
	struct uet_ses_notice *n;

	if (ses->closing)
		return;
	n = uet_ses_obj_alloc(ses, UET_SES_OBJ_NOTICE);
	if (!n) {
		UET_WARN_ONCE(UET_LOG_EP_DATA,
			      "SES: no memory for a rendezvous notice\n");
		return;
	}
	uet_dlist_init(&n->txi.entry);
	n->txi.type = UET_SES_TXI_NOTICE;
	n->key = m->peer_key;
	n->rsp.ctl.list = UET_LIST_EXPECTED;
	n->rsp.ctl.opcode = UET_RESPONSE;
	n->rsp.ctl.version = UET_SES_VERSION;
	n->rsp.ctl.return_code = rc;
	n->rsp.message_id = m->msg_id;
	n->rsp.job_id = m->job_id;
	n->rsp.modified_length = mlen;
	n->mkey = m->mkey;
	uet_ses_txi_queue(ses, &n->txi);
}

int uet_ses_notice_build(struct uet_ses *ses, struct uet_ses_notice *n,
			 struct uet_ses_pkt **out)
{
	struct uet_ses_pkt *pkt;
	ssize_t len;

	pkt = uet_ses_pkt_get(ses, UET_SES_PKT_NOTICE, n);
	if (!pkt)
		return -EAGAIN;
	len = uet_ses_rsp_encode(ses->cfg.wire, pkt->pds.hdr, sizeof(pkt->pds.hdr), &n->rsp);
	_Static_assert(UET_SES_NOTICE_LEN_MAX <= UET_PDS_SES_HDR_MAX,
		       "the notice fits a packet header");
	if (len < 0 || (size_t)len + UET_SES_NOTICE_KEY_LEN != ses->notice_len) {
		uet_ses_pkt_put(ses, pkt);
		return -EIO;
	}
	uet_put_be64(pkt->pds.hdr + len, n->mkey);
	pkt->pds.next_hdr = UET_HDR_RESPONSE;
	pkt->pds.hdr_len = (uint16_t)ses->notice_len;
	/* Acked at once: the initiator, whose send completes on it, may
	 * stop progressing then. */
	pkt->pds.ar = true;
	n->built = true;
	*out = pkt;
	return 0;
}
