/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SES RMA and atomics: initiator and target.
 *
 * Initiator (uet_ses_rma): an operation is a uet_ses_send_op with rma set,
 * on the send path (transmit queue, PDS completions, cancellation) but
 * outside the send order: its message_id comes from the READ id space.
 *   - WRITE: a standard SOM=1 packet (opcode UET_WRITE, match_bits = key,
 *     ri_generation = UET_SES_MKEY_GEN(key), buffer_offset = remote
 *     address, request_length, header_data) and SOM=0 continuations whose
 *     buffer_offset is their own remote address (message_offset added);
 *     the eom packet asks for its SES response.
 *   - READ: one UET_READ per operation of up to UET_SES_RMA_READ_MAX
 *     bytes, larger ones in chunks of uet_ses_rma_read_chunk() bytes
 *     (a uet_ses_read each, with its own id), answered by
 *     Response-with-Data packets placed in the caller's iovecs.
 *   - ATOMIC / FETCH: one SOM=1 packet (UET_ATOMIC / UET_FETCHING_ATOMIC)
 *     with the atomic extension and the operand bytes, or for the CAS
 *     family the CAS extension (compare, swap) and no payload.  A FETCH
 *     is a uet_ses_read: the prior values come back in
 *     Response-with-Data with read_request_message_id = its message_id.
 * Operands travel in the initiator's host byte order (the software NIC's
 * peers share it).
 *
 * Target: each request packet is checked on its own, in the order of the
 * contract (addressing, then uet_ses_mr_access: key, generation, access,
 * range of the whole message, then the atomic op/datatype/size/alignment)
 * before anything touches memory; a refusal answers the packet with the
 * return code on its ACK.  Write packets are placed at once, in any
 * order; a write of several packets has a uet_ses_rma_rx under {stream,
 * message_id} counting its bytes, so the rma_event upcall fires once,
 * when all of them have landed.  Atomics are applied with
 * uet_ses_amo_apply() in the rx upcall, under the NIC lock, so atomics
 * from every initiator are serialised; PDS delivers a PSN once, and
 * everything that can fail (memory) is allocated before the op is
 * applied, so a retransmission never applies it twice.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uet_byteorder.h"
#include "uet_log.h"
#include "uet_ses_amo.h"
#include "uet_ses_internal.h"

static bool ses_amo_is_cas(uint8_t op)
{
	return (op >= UET_AMO_CSWAP && op <= UET_AMO_CSWAP_GT) ||
	       op == UET_AMO_MSWAP;
}

static bool ses_amo_is_complex(uint8_t dtype)
{
	return dtype == UET_AMO_FLOAT_COMPLEX ||
	       dtype == UET_AMO_DOUBLE_COMPLEX;
}

bool uet_ses_opcode_is_rma(uint8_t opcode)
{
	return opcode == UET_WRITE || opcode == UET_ATOMIC ||
	       opcode == UET_FETCHING_ATOMIC;
}

/* ---- initiator ---- */

/* Copy len bytes of iov from its start into dst. */
static void ses_iov_copy_out(const struct iovec *iov, unsigned int cnt,
			     void *dst, uint64_t len)
{
	uint8_t *d = dst;
	unsigned int i;
	uint64_t n;

	for (i = 0; i < cnt && len; i++) {
		n = iov[i].iov_len < len ? iov[i].iov_len : len;
		if (n)
			memcpy(d, iov[i].iov_base, n);
		d += n;
		len -= n;
	}
}

/* The SOM=1 header every RMA request starts with. */
static void ses_rma_hdr(const struct uet_ses_send_op *op,
			struct uet_ses_std_som1 *h, uint16_t msg_id,
			uint64_t raddr, uint64_t len)
{
	memset(h, 0, sizeof(*h));
	h->ctl.opcode = op->opcode;
	h->ctl.version = UET_SES_VERSION;
	h->ctl.dc = op->dc;
	h->ctl.som = true;
	h->ctl.eom = true;
	h->message_id = msg_id;
	h->ri_generation = UET_SES_MKEY_GEN(op->rkey);
	h->job_id = op->job_id;
	h->pid_on_fep = op->pid_on_fep;
	h->resource_index = op->ri;
	h->buffer_offset = raddr;
	h->initiator = op->initiator;
	h->match_bits = op->rkey;
	h->request_length = (uint32_t)len;
}

static int ses_rma_write_build(struct uet_ses *ses, struct uet_ses_send_op *op,
			       struct uet_ses_pkt **out)
{
	struct uet_ses_std_som1 s1;
	struct uet_ses_std_som0 s0;
	struct uet_pds_tx_pkt *p;
	struct uet_ses_pkt *pkt;
	uint64_t off = op->next_off, plen;
	ssize_t n;
	bool eom;

	if (!op->mid.id && uet_ses_msgid_alloc(ses, &op->mid,
					       UET_SES_OBJ_SEND))
		return -EAGAIN;
	pkt = uet_ses_pkt_get(ses, UET_SES_PKT_SEND, op);
	if (!pkt)
		return -EAGAIN;
	p = &pkt->pds;
	plen = uet_ses_iov_gather(op->iov, op->iovcnt, off,
				  off ? op->pay_std : op->pay_first,
				  p->iov, UET_PDS_TX_MAX_IOV, &p->iovcnt);
	if (!plen && op->len) {
		uet_ses_pkt_put(ses, pkt);
		return -EIO;
	}
	eom = off + plen == op->len;
	if (off == 0) {
		ses_rma_hdr(op, &s1, op->mid.id, op->raddr, op->len);
		s1.ctl.eom = eom;
		s1.ctl.hd = op->has_data;
		s1.header_data = op->has_data ? op->header_data : 0;
		n = uet_ses_std_som1_encode(ses->cfg.wire, p->hdr, sizeof(p->hdr), &s1);
	} else {
		memset(&s0, 0, sizeof(s0));
		s0.ctl.opcode = op->opcode;
		s0.ctl.version = UET_SES_VERSION;
		s0.ctl.dc = op->dc;
		s0.ctl.eom = eom;
		s0.message_id = op->mid.id;
		s0.ri_generation = UET_SES_MKEY_GEN(op->rkey);
		s0.job_id = op->job_id;
		s0.pid_on_fep = op->pid_on_fep;
		s0.resource_index = op->ri;
		/* Its own target address (wraps like the target's sum). */
		s0.buffer_offset = op->raddr + off;
		s0.initiator = op->initiator;
		s0.match_bits = op->rkey;
		s0.payload_length = (uint16_t)plen;
		s0.message_offset = (uint32_t)off;
		s0.request_length = (uint32_t)op->len;
		n = uet_ses_std_som0_encode(ses->cfg.wire, p->hdr, sizeof(p->hdr), &s0);
	}
	if (n < 0) {
		uet_ses_pkt_put(ses, pkt);
		return -EIO;
	}
	p->next_hdr = UET_HDR_REQUEST_STD;
	p->hdr_len = (uint16_t)n;
	p->want_rsp = eom;
	pkt->len = (uint32_t)plen;
	op->next_off = off + plen;
	op->built_all = eom;
	*out = pkt;
	return 0;
}

/* A uet_ses_read of op with a message_id and its packet; NULL and
 * -EAGAIN when out of ids or memory. */
static struct uet_ses_read *ses_rma_read_new(struct uet_ses *ses,
					     struct uet_ses_send_op *op,
					     struct uet_ses_pkt **pkt)
{
	struct uet_ses_read *rd;

	rd = uet_ses_obj_alloc(ses, UET_SES_OBJ_READ);
	if (!rd)
		return NULL;
	uet_ranges_init(&rd->got);
	if (uet_ses_msgid_alloc(ses, &rd->mid, UET_SES_OBJ_READ)) {
		uet_ses_release(ses, &rd->obj, false);
		return NULL;
	}
	*pkt = uet_ses_pkt_get(ses, UET_SES_PKT_READ, rd);
	if (!*pkt) {
		uet_ses_msgid_free(ses, &rd->mid);
		uet_ses_release(ses, &rd->obj, false);
		return NULL;
	}
	uet_dlist_init(&rd->entry);
	memcpy(rd->peer_fa, op->dst_fa, UET_SES_FA_KEY_LEN);
	rd->job_id = op->job_id;
	return rd;
}

/* Undo ses_rma_read_new (the packet never went out). */
static void ses_rma_read_drop(struct uet_ses *ses, struct uet_ses_read *rd,
			      struct uet_ses_pkt *pkt)
{
	uet_ses_pkt_put(ses, pkt);
	uet_ses_msgid_free(ses, &rd->mid);
	uet_ses_release(ses, &rd->obj, false);
}

static void ses_rma_read_attach(struct uet_ses_send_op *op,
				struct uet_ses_read *rd, uint64_t pos,
				uint64_t len)
{
	rd->op = op;
	rd->pos = pos;
	rd->len = len;
	uet_dlist_insert_tail(&op->reads, &rd->entry);
}

/*
 * Bytes per UET_READ of an operation of op_len bytes: the whole operation
 * up to UET_SES_RMA_READ_MAX (request_length is 32 bits: one request per
 * fi_read of up to 4 MiB); a larger one in the fewest requests of at most
 * UET_SES_RMA_READ_MAX rounded down to whole Response-with-Data payloads
 * (the target's, taken to be ours on the path to it), of equal
 * length rounded up to whole payloads, so that every reply but the
 * operation's last is full.  Requests of 64 KiB were 17 per MiB on
 * loopback, each with its own SES response and an immediate ACK of its
 * last reply (docs/performance.md, "RMA read (issue 18, fourth pass)").
 */
uint64_t uet_ses_rma_read_chunk(uint64_t pay_rdata, uint64_t op_len)
{
	uint64_t p = pay_rdata, m = UET_SES_RMA_READ_MAX, n, c;

	if (op_len <= m)
		return op_len ? op_len : 1;
	if (p && p <= m)
		m = m / p * p;
	n = (op_len + m - 1) / m;
	c = (op_len + n - 1) / n;
	if (p && p <= m)
		c = (c + p - 1) / p * p;	/* still <= m: m is whole payloads */
	return c;
}

static int ses_rma_read_build(struct uet_ses *ses, struct uet_ses_send_op *op,
			      struct uet_ses_pkt **out)
{
	struct uet_ses_std_som1 h;
	struct uet_ses_read *rd;
	struct uet_ses_pkt *pkt;
	uint64_t len = op->len - op->next_off, chunk;
	ssize_t n;

	chunk = uet_ses_rma_read_chunk(op->pay_rdata, op->len);
	if (len > chunk)
		len = chunk;
	rd = ses_rma_read_new(ses, op, &pkt);
	if (!rd)
		return -EAGAIN;
	ses_rma_hdr(op, &h, rd->mid.id, op->raddr + op->next_off, len);
	/* eom: the last UET_READ of the operation (the target reports the
	 * operation once, when it accepts that one). */
	h.ctl.eom = op->next_off + len == op->len;
	n = uet_ses_std_som1_encode(ses->cfg.wire, pkt->pds.hdr, sizeof(pkt->pds.hdr), &h);
	if (n < 0) {
		ses_rma_read_drop(ses, rd, pkt);
		return -EIO;
	}
	pkt->pds.next_hdr = UET_HDR_REQUEST_STD;
	pkt->pds.hdr_len = (uint16_t)n;
	pkt->pds.want_rsp = true;
	ses_rma_read_attach(op, rd, op->next_off, len);
	op->next_off += len;
	op->built_all = op->next_off == op->len;
	*out = pkt;
	return 0;
}

static int ses_rma_amo_build(struct uet_ses *ses, struct uet_ses_send_op *op,
			     struct uet_ses_pkt **out)
{
	/* cas: the values go in the CAS extension; UE 1.0.1 carries
	 * MSWAP's in the payload, the mask first (docs/conformance.md) */
	bool cas = uet_ses_amo_uses_cas(ses->cfg.wire, op->amo_op);
	bool mswap = ses_amo_is_cas(op->amo_op) && !cas;
	bool fetch = op->rma == UET_SES_RMA_FETCH;
	struct uet_ses_atomic_ext ax;
	struct uet_ses_read *rd = NULL;
	struct uet_ses_std_som1 h;
	struct uet_ses_cas_ext cx;
	struct uet_ses_pkt *pkt;
	uint16_t id;
	ssize_t n, x;
	int ret = -EIO;

	if (fetch) {
		rd = ses_rma_read_new(ses, op, &pkt);
		if (!rd)
			return -EAGAIN;
		id = rd->mid.id;
	} else {
		if (!op->mid.id && uet_ses_msgid_alloc(ses, &op->mid,
						       UET_SES_OBJ_SEND))
			return -EAGAIN;
		pkt = uet_ses_pkt_get(ses, UET_SES_PKT_SEND, op);
		if (!pkt)
			return -EAGAIN;
		id = op->mid.id;
	}
	if (!cas) {
		/* The operand is copied: any number of iovec pieces. */
		size_t at = mswap ? op->len : 0;

		pkt->bounce = uet_bufpool_get(uet_ses_bounce_pool(ses,
								  at + op->len));
		ret = -EAGAIN;
		if (!pkt->bounce)
			goto err_drop;
		ret = -EIO;
		if (mswap)
			memcpy(pkt->bounce, op->compare, op->len);
		ses_iov_copy_out(op->iov, op->iovcnt, pkt->bounce + at,
				 op->len);
		pkt->pds.iov[0].iov_base = pkt->bounce;
		pkt->pds.iov[0].iov_len = at + op->len;
		pkt->pds.iovcnt = 1;
		pkt->len = (uint32_t)(at + op->len);
	}
	ses_rma_hdr(op, &h, id, op->raddr, op->len);
	h.ctl.hd = op->has_data;
	h.header_data = op->has_data ? op->header_data : 0;
	n = uet_ses_std_som1_encode(ses->cfg.wire, pkt->pds.hdr, sizeof(pkt->pds.hdr), &h);
	if (n < 0)
		goto err_drop;
	if (cas) {
		memset(&cx, 0, sizeof(cx));
		cx.atomic_opcode = op->amo_op;
		cx.atomic_datatype = op->amo_dtype;
		memcpy(cx.compare_mask_value, op->compare,
		       sizeof(cx.compare_mask_value));
		ses_iov_copy_out(op->iov, op->iovcnt, cx.swap_value, op->len);
		x = uet_ses_cas_ext_encode(ses->cfg.wire, pkt->pds.hdr + n,
					   sizeof(pkt->pds.hdr) - (size_t)n,
					   &cx);
	} else {
		memset(&ax, 0, sizeof(ax));
		ax.atomic_opcode = op->amo_op;
		ax.atomic_datatype = op->amo_dtype;
		x = uet_ses_atomic_ext_encode(ses->cfg.wire, pkt->pds.hdr + n,
					      sizeof(pkt->pds.hdr) - (size_t)n,
					      &ax);
	}
	if (x < 0)
		goto err_drop;
	pkt->pds.next_hdr = UET_HDR_REQUEST_STD;
	pkt->pds.hdr_len = (uint16_t)(n + x);
	pkt->pds.want_rsp = true;
	if (rd)
		ses_rma_read_attach(op, rd, 0, op->len);
	op->next_off = op->len;
	op->built_all = true;
	*out = pkt;
	return 0;

err_drop:
	if (rd)
		ses_rma_read_drop(ses, rd, pkt);
	else
		uet_ses_pkt_put(ses, pkt);
	return ret;
}

int uet_ses_rma_build(struct uet_ses *ses, struct uet_ses_send_op *op,
		      struct uet_ses_pkt **out)
{
	switch (op->rma) {
	case UET_SES_RMA_WRITE:
		return ses_rma_write_build(ses, op, out);
	case UET_SES_RMA_READ:
		return ses_rma_read_build(ses, op, out);
	default:
		return ses_rma_amo_build(ses, op, out);
	}
}

void uet_ses_rma_stop(struct uet_ses *ses, struct uet_ses_send_op *op)
{
	struct uet_ses_read *rd;

	if (!op->rma)
		return;
	uet_dlist_foreach_entry_safe(&op->reads, rd, entry) {
		uet_dlist_remove(&rd->entry);
		rd->op = NULL;
		uet_ses_read_check(ses, rd);
	}
}

void uet_ses_rma_finish(struct uet_ses *ses, struct uet_ses_send_op *op)
{
	if (!op->rma)
		return;
	uet_ses_msgid_free(ses, &op->mid);
	ses->rma_ops--;
}

/* The checks that need nothing but the request: -errno or 0. */
static int ses_rma_req_check(const struct uet_ses *ses,
			     const struct uet_ses_rma_req *req, uint64_t len)
{
	size_t size, room, cas_len, amo_len;

	if (len > UINT32_MAX)
		return -EINVAL;
	if (req->kind == UET_SES_RMA_WRITE || req->kind == UET_SES_RMA_READ)
		return 0;
	/* ATOMIC, FETCH: an op and a datatype of the wire's tables. */
	if (req->amo_op >= UET_AMO_INVAL)
		return -EINVAL;
	size = uet_amo_dtype_size(req->amo_dtype);
	if (!size || !len || len % size || len > UET_SES_AMO_MAX)
		return -EINVAL;
	room = ses->cfg.mtu - UET_SES_PDS_HDR_LEN - UET_SES_STD_SOM1_LEN;
	cas_len = uet_ses_ext_len(ses->cfg.wire, UET_SES_EXT_CAS);
	amo_len = uet_ses_ext_len(ses->cfg.wire, UET_SES_EXT_ATOMIC);
	if (ses_amo_is_cas(req->amo_op)) {
		if (len != size || room < cas_len)
			return -EINVAL;
		/* UE 1.0.1: MSWAP's mask and operand travel as the payload */
		if (!uet_ses_amo_uses_cas(ses->cfg.wire, req->amo_op) &&
		    room < amo_len + 2 * len)
			return -EINVAL;
	} else if (room < amo_len || len > room - amo_len ||
		   len > ses->pay_rdata) {
		return -EINVAL;	/* more than one packet holds */
	}
	return 0;
}

uint8_t uet_ses_rma_opcode(uint8_t kind)
{
	switch (kind) {
	case UET_SES_RMA_WRITE:
		return UET_WRITE;
	case UET_SES_RMA_READ:
		return UET_READ;
	case UET_SES_RMA_ATOMIC:
		return UET_ATOMIC;
	case UET_SES_RMA_FETCH:
		return UET_FETCHING_ATOMIC;
	default:
		return 0;
	}
}

int uet_ses_rma(struct uet_ses *ses, const struct uet_ses_rma_req *req,
		uint64_t now)
{
	struct uet_ses_send_op *op;
	uint64_t rlen = 0;
	int ret;

	if (!ses || !req || !req->ep || req->ep->ses != ses)
		return -EINVAL;
	if (ses->closing || ses->zombie)
		return -EINVAL;
	if (req->kind < UET_SES_RMA_WRITE || req->kind > UET_SES_RMA_FETCH)
		return -EINVAL;
	if (req->dst.job_id > UET_JOB_ID_MAX ||
	    req->dst.pid_on_fep > UET_PID_ON_FEP_MAX ||
	    req->dst.ri > UET_RESOURCE_INDEX_MAX ||
	    req->dst.fa.len > sizeof(req->dst.fa.ss))
		return -EINVAL;
	if (req->ep->mode != UET_PDS_MODE_RUD &&
	    req->ep->mode != UET_PDS_MODE_ROD)
		return -EMSGSIZE;
	uet_ses_set_now(ses, now);
	uet_ses_enter(ses);

	if (ses->rma_ops >= UET_SES_RMA_MAX) {
		ret = -EAGAIN;
		goto out;
	}
	op = uet_ses_obj_alloc(ses, UET_SES_OBJ_SEND);
	if (!op) {
		ret = -EAGAIN;
		goto out;
	}
	op->iov = op->iov_inline;
	op->res_iov = op->res_inline;
	ret = uet_ses_iov_dup(req->iov, req->iovcnt, op->iov_inline, &op->iov,
			      &op->len);
	if (ret) {
		op->iov = op->iov_inline;
		goto err_release;
	}
	op->iovcnt = req->iovcnt;
	if (req->kind == UET_SES_RMA_FETCH) {
		ret = uet_ses_iov_dup(req->res_iov, req->res_iovcnt,
				      op->res_inline, &op->res_iov, &rlen);
		if (ret) {
			op->res_iov = op->res_inline;
			goto err_release;
		}
		op->res_iovcnt = req->res_iovcnt;
		ret = -EINVAL;
		if (rlen != op->len)
			goto err_release;
	}
	ret = ses_rma_req_check(ses, req, op->len);
	if (ret)
		goto err_release;

	uet_ses_send_op_address(ses, op, req->ep, &req->dst);
	op->has_data = req->has_data && req->kind != UET_SES_RMA_READ;
	op->header_data = op->has_data ? req->header_data : 0;
	op->dc = req->dc;
	op->op_ctx = req->op_ctx;
	op->rc = UET_RC_OK;
	op->rma = req->kind;
	op->opcode = uet_ses_rma_opcode(req->kind);
	op->rkey = req->key;
	op->raddr = req->raddr;
	op->amo_op = req->amo_op;
	op->amo_dtype = req->amo_dtype;
	memcpy(op->compare, req->compare, sizeof(op->compare));
	uet_ses_send_op_init(ses, op);

	ses->rma_ops++;
	ses->stats.rma_tx++;
	uet_ses_send_op_start(ses, op);
	ret = 0;
	goto out;

err_release:
	uet_ses_release(ses, &op->obj, false);
out:
	uet_ses_leave(ses);
	return ret;
}

/* ---- target ---- */

/* One request packet of a write, whatever its header. */
struct ses_rma_wpkt {
	bool som;
	bool eom;
	bool hd;
	uint16_t msg_id;
	uint8_t ri_gen;
	uint32_t job_id;
	uint16_t pid_on_fep;
	uint16_t ri;
	uint32_t initiator;
	uint64_t key;
	uint64_t header_data;
	uint64_t total;			/* request_length */
	uint64_t start;			/* target address of message byte 0 */
	uint64_t off;			/* message_offset of the payload */
	const uint8_t *data;
	uint64_t plen;
};

/*
 * q from what the SOM=1 and SOM=0 headers of a write packet share
 * (bytes 0-31 and 40-43, the same fields under the same names), its
 * payload and eom; the rest zero.
 */
static void ses_rma_wpkt_set(struct ses_rma_wpkt *q,
			     const struct uet_pds_rx_info *info, size_t hlen,
			     const struct uet_ses_req_ctl *ctl, uint16_t msg_id,
			     uint8_t ri_gen, uint32_t job_id,
			     uint16_t pid_on_fep, uint16_t ri,
			     uint32_t initiator, uint64_t key, uint32_t total)
{
	memset(q, 0, sizeof(*q));
	q->eom = ctl->eom;
	q->msg_id = msg_id;
	q->ri_gen = ri_gen;
	q->job_id = job_id;
	q->pid_on_fep = pid_on_fep;
	q->ri = ri;
	q->initiator = initiator;
	q->key = key;
	q->total = total;
	q->data = info->ses + hlen;
	q->plen = info->ses_len - hlen;
}

/* A new access record (the event to deliver); NULL when out of memory. */
static struct uet_ses_rma_rx *ses_rma_rx_new(struct uet_ses *ses,
					     const struct uet_pds_rx_info *info,
					     struct uet_ses_ep *ep,
					     uint8_t kind, uint64_t key,
					     const uint8_t *ptr, uint64_t len,
					     uint32_t job_id,
					     uint32_t initiator)
{
	struct uet_ses_rma_rx *x;

	x = uet_ses_obj_alloc(ses, UET_SES_OBJ_RMARX);
	if (!x)
		return NULL;
	uet_dlist_init(&x->entry);
	uet_dlist_init(&x->inc_entry);
	uet_ranges_init(&x->cov);
	x->last_ns = ses->now;
	x->total = len;
	x->ev.ep_user = ep->user;
	x->ev.kind = kind;
	x->ev.key = key;
	x->ev.addr = (uint64_t)(uintptr_t)ptr;
	x->ev.len = len;
	x->ev.src.fa = *info->src;
	x->ev.src.job_id = job_id;
	x->ev.src.pid_on_fep = (initiator >> 12) & UET_PID_ON_FEP_MAX;
	x->ev.src.ri = initiator & UET_RESOURCE_INDEX_MAX;
	x->ev.initiator = initiator;
	return x;
}

static void ses_rma_rx_unmap(struct uet_ses *ses, struct uet_ses_rma_rx *x)
{
	if (!x->in_map)
		return;
	uet_hashmap_remove(&ses->rma_rx, &x->node);
	uet_dlist_remove(&x->entry);
	uet_dlist_remove(&x->inc_entry);
	ses->rma_inc_n--;
	x->in_map = false;
}

/* The access x is complete: count it, deliver its event. */
static void ses_rma_rx_done(struct uet_ses *ses, struct uet_ses_rma_rx *x)
{
	ses_rma_rx_unmap(ses, x);
	ses->stats.rma_rx++;
	uet_ses_release(ses, &x->obj, ses->up.rma_event != NULL);
}

/* Drop x without an event. */
static void ses_rma_rx_drop(struct uet_ses *ses, struct uet_ses_rma_rx *x)
{
	ses_rma_rx_unmap(ses, x);
	uet_ses_release(ses, &x->obj, false);
}

/* Multi-packet writes with no packet for cfg.msg_timeout_ns: dropped
 * (no event; the initiator gave up on them or never existed). */
void uet_ses_rma_rx_expire(struct uet_ses *ses)
{
	uint64_t tmo = ses->cfg.msg_timeout_ns;
	struct uet_ses_rma_rx *x;

	if (!tmo)
		return;
	while ((x = uet_dlist_first_entry(&ses->rma_inc, struct uet_ses_rma_rx,
					  inc_entry)) != NULL &&
	       x->last_ns <= UINT64_MAX - tmo && x->last_ns + tmo <= ses->now) {
		ses->stats.rma_rx_expired++;
		uet_ses_drop_warn(ses, UET_SES_DROP_RMA_EXPIRED);
		ses_rma_rx_drop(ses, x);
	}
}

void uet_ses_rma_rx_free_ep(struct uet_ses *ses, struct uet_ses_ep *ep)
{
	struct uet_dlist *e;

	while ((e = uet_dlist_first(&ep->rma_rx)) != NULL)
		ses_rma_rx_drop(ses, uet_container_of(e, struct uet_ses_rma_rx,
						      entry));
}

static int ses_rx_write(struct uet_ses *ses, const struct uet_pds_rx_info *info,
			const struct ses_rma_wpkt *q, struct uet_pds_rsp *rsp)
{
	uint8_t key[UET_SES_RXKEY_LEN];
	struct uet_ses_rma_rx *x = NULL;
	struct uet_ses_ep *ep;
	struct uet_ses_mr *mr;
	struct uet_hnode *n;
	uint64_t moff;
	uint8_t *ptr;
	uint8_t rc;
	int ret;

	ep = uet_ses_rx_ep(ses, info, q->job_id, q->pid_on_fep, q->ri, true,
			   &rc);
	if (!ep) {
		uet_ses_rx_refuse(ses, rsp, rc, q->msg_id, q->job_id);
		return 0;
	}
	uet_ses_stream_key(key, info->src, q->initiator, q->job_id,
			   q->pid_on_fep, q->ri);
	uet_put_be16(key + UET_SES_STREAM_KEY_LEN, q->msg_id);
	n = uet_hashmap_lookup_bytes(&ses->rma_rx, key);
	if (n)
		x = uet_container_of(n, struct uet_ses_rma_rx, node);

	rc = uet_ses_mr_access(ses, q->key, q->ri_gen,
			       UET_SES_ACC_REMOTE_WRITE, q->start, q->total,
			       &mr, &moff, &ptr);
	if (rc != UET_RC_OK) {
		/* The write failed: what landed of it is forgotten. */
		if (x)
			ses_rma_rx_drop(ses, x);
		uet_ses_rx_refuse(ses, rsp, rc, q->msg_id, q->job_id);
		return 0;
	}
	/* A record under this id that the packet cannot belong to: the
	 * initiator reused the id of a write it gave up on. */
	if (x && (x->ev.key != q->key || x->total != q->total ||
		  x->ev.addr != (uint64_t)(uintptr_t)ptr ||
		  (q->som && x->som_seen))) {
		ses->stats.stale_msgs++;
		ses_rma_rx_drop(ses, x);
		x = NULL;
	}
	if (!x && !(q->som && q->eom) &&
	    ses->rma_inc_n >= ses->cfg.rma_rx_max) {
		/* The record bound: retried by a genuine initiator once
		 * writes in progress finished or expired. */
		ses->stats.rma_rx_full++;
		uet_ses_drop_warn(ses, UET_SES_DROP_RMA_FULL);
		return -EAGAIN;
	}
	if (!x) {
		x = ses_rma_rx_new(ses, info, ep, UET_SES_RMA_WRITE, q->key,
				   ptr, q->total, q->job_id, q->initiator);
		if (!x)
			return -EAGAIN;
		if (!(q->som && q->eom)) {
			memcpy(x->key, key, sizeof(key));
			if (uet_hashmap_insert_bytes(&ses->rma_rx, &x->node,
						     x->key)) {
				uet_ses_release(ses, &x->obj, false);
				return -EAGAIN;
			}
			x->in_map = true;
			uet_dlist_insert_tail(&ep->rma_rx, &x->entry);
			uet_dlist_insert_tail(&ses->rma_inc, &x->inc_entry);
			ses->rma_inc_n++;
		}
	}
	/* Every byte of the write counts once (a duplicate offset under a
	 * new PSN is refused, it never completes the write early). */
	ret = uet_ranges_add(&x->cov, q->off, q->plen);
	if (ret) {
		if (!x->in_map)
			uet_ses_release(ses, &x->obj, false);
		if (ret == -ENOMEM)
			return -EAGAIN;
		ses->stats.overlap_refused++;
		uet_ses_drop_warn(ses, UET_SES_DROP_OVERLAP);
		return -EPROTO;
	}
	if (x->in_map) {
		x->last_ns = ses->now;
		uet_dlist_remove(&x->inc_entry);
		uet_dlist_insert_tail(&ses->rma_inc, &x->inc_entry);
	}
	if (q->plen && uet_ses_mr_put(mr, moff + q->off, q->data, q->plen)) {
		/* device memory the runtime would not copy into */
		UET_WARN_ONCE(UET_LOG_EP_DATA, "SES: copy into device memory "
			      "failed\n");
		ses_rma_rx_drop(ses, x);
		uet_ses_rx_refuse(ses, rsp, UET_RC_HOST_UNSUCCESS_CMPL,
				  q->msg_id, q->job_id);
		return 0;
	}
	ses->stats.rma_bytes_rx += q->plen;
	x->rcvd += q->plen;
	if (q->som) {
		x->som_seen = true;
		x->ev.has_data = q->hd;
		x->ev.header_data = q->hd ? q->header_data : 0;
	}
	if (x->som_seen && x->rcvd == x->total)
		ses_rma_rx_done(ses, x);
	if (q->eom)
		uet_ses_rsp_fill(ses, rsp, UET_LIST_EXPECTED, UET_RC_OK, q->msg_id,
				 q->job_id, q->total);
	return 0;
}

/* The atomic extension at buf: its op and datatype (whatever their
 * values: an unknown op or datatype is refused later with its code) and
 * length, or a negative errno for a malformed one. */
static ssize_t ses_rx_amo_ext(const struct uet_ses *ses, const uint8_t *buf,
			      size_t len, uint8_t *op, uint8_t *dtype,
			      struct uet_ses_cas_ext *cx)
{
	struct uet_ses_atomic_ext ax;
	ssize_t x;

	if (uet_ses_amo_ext_peek(ses->cfg.wire, buf, len, op, dtype))
		return UET_WIRE_ETRUNC;
	if (uet_ses_amo_uses_cas(ses->cfg.wire, *op)) {
		x = uet_ses_cas_ext_decode(ses->cfg.wire, cx, buf, len);
		/* the datatype: copy the values as they are */
		if (x == UET_WIRE_ERANGE)
			x = uet_ses_cas_ext_values(ses->cfg.wire, cx, buf, len);
		return x;
	}
	x = uet_ses_atomic_ext_decode(ses->cfg.wire, &ax, buf, len);
	return x == UET_WIRE_ERANGE ?
	       (ssize_t)uet_ses_ext_len(ses->cfg.wire, UET_SES_EXT_ATOMIC) : x;
}

/* Check 5 of the contract: UET_RC_OK or the AMO code. */
static uint8_t ses_rx_amo_check(uint8_t op, uint8_t dtype, uint64_t len,
				const uint8_t *ptr)
{
	size_t size, unit;
	uint8_t rc;

	rc = uet_ses_amo_check(op, dtype);
	if (rc != UET_RC_OK)
		return rc;
	size = uet_ses_amo_size(dtype);
	if (!size || !len || len % size || len > UET_SES_AMO_MAX ||
	    (ses_amo_is_cas(op) && len != size))
		return UET_RC_AMO_UNSUPPORTED_SIZE;
	unit = ses_amo_is_complex(dtype) ? size / 2 : size;
	if ((uintptr_t)ptr % unit)
		return UET_RC_AMO_UNALIGNED;
	return UET_RC_OK;
}

/* Apply the atomic at ptr (bytes [moff, moff + len) of mr); device
 * memory on a host copy, read from the device and written back. */
static uint8_t ses_rx_amo_apply(const struct uet_ses_mr *mr, uint64_t moff,
				uint8_t op, uint8_t dtype, uint8_t *ptr,
				const uint8_t *operand, const uint8_t *compare,
				uint8_t *prior, uint64_t len)
{
	uint8_t tmp[UET_SES_AMO_MAX];
	uint8_t rc;

	if (!mr->devmem)
		return uet_ses_amo_apply(op, dtype, ptr, operand, compare,
					 prior, len / uet_ses_amo_size(dtype));
	if (uet_ses_mr_get(mr, moff, tmp, len))
		return UET_RC_HOST_UNSUCCESS_CMPL;
	rc = uet_ses_amo_apply(op, dtype, tmp, operand, compare, prior,
			       len / uet_ses_amo_size(dtype));
	if (rc == UET_RC_OK && uet_ses_mr_put(mr, moff, tmp, len))
		rc = UET_RC_HOST_UNSUCCESS_CMPL;
	return rc;
}

static int ses_rx_amo(struct uet_ses *ses, const struct uet_pds_rx_info *info,
		      const struct uet_ses_std_som1 *h, size_t hlen,
		      struct uet_pds_rsp *rsp)
{
	bool fetch = h->ctl.opcode == UET_FETCHING_ATOMIC;
	struct uet_ses_rma_rx *x = NULL;
	struct uet_ses_reply *rp = NULL;
	struct uet_ses_cas_ext cx;
	const uint8_t *payload;
	struct uet_ses_ep *ep;
	struct uet_ses_mr *mr;
	uint64_t plen, moff, len = h->request_length;
	uint8_t op, dtype, rc;
	uint32_t need;
	uint8_t *ptr;
	ssize_t xl;
	bool cas;

	if (!h->ctl.eom)
		return -EPROTO;	/* atomics are one packet */
	xl = ses_rx_amo_ext(ses, info->ses + hlen, info->ses_len - hlen, &op,
			    &dtype, &cx);
	if (xl < 0)
		return (int)xl;
	cas = ses_amo_is_cas(op);
	payload = info->ses + hlen + (size_t)xl;
	plen = info->ses_len - hlen - (size_t)xl;
	if (cas && !uet_ses_amo_uses_cas(ses->cfg.wire, op)) {
		/* UE 1.0.1 MSWAP: the mask, then the operand, as payload */
		if (plen != 2 * len || len > sizeof(cx.swap_value))
			return -EPROTO;
		memset(&cx, 0, sizeof(cx));
		memcpy(cx.compare_mask_value, payload, len);
		memcpy(cx.swap_value, payload + len, len);
		plen = 0;
	}
	if (cas ? plen != 0 : plen != len)
		return -EPROTO;

	ep = uet_ses_rx_som1_rma_ep(ses, info, h, rsp);
	if (!ep)
		return 0;
	if (op == UET_AMO_READ)
		need = UET_SES_ACC_REMOTE_READ;
	else if (fetch || cas)
		need = UET_SES_ACC_REMOTE_READ | UET_SES_ACC_REMOTE_WRITE;
	else
		need = UET_SES_ACC_REMOTE_WRITE;
	rc = uet_ses_mr_access(ses, h->match_bits, h->ri_generation, need,
			       h->buffer_offset, len, &mr, &moff, &ptr);
	if (rc != UET_RC_OK)
		goto err_refuse;
	/* Atomics apply in place: the operand may not cross a segment of
	 * a registration of several (docs/conformance.md). */
	rc = UET_RC_AT_OUT_OF_RANGE;
	if (!uet_ses_mr_contig(mr, moff, len))
		goto err_refuse;
	rc = ses_rx_amo_check(op, dtype, len, ptr);
	if (rc != UET_RC_OK) {
		ses->stats.amo_unsupported++;
		UET_DBG(UET_LOG_EP_DATA,
			"SES: atomic refused (rc %u): op %u dtype %u len %llu\n",
			rc, op, dtype, (unsigned long long)len);
		goto err_refuse;
	}
	rc = UET_RC_UNSUPPORTED_OP;
	if (fetch && !info->pdc)
		goto err_refuse;	/* no way back for the prior values */

	/* Everything that can fail before the op is applied. */
	x = ses_rma_rx_new(ses, info, ep, fetch ? UET_SES_RMA_FETCH :
			   UET_SES_RMA_ATOMIC, h->match_bits, ptr, len,
			   h->job_id, h->initiator);
	if (!x)
		return -EAGAIN;
	x->ev.has_data = h->ctl.hd;
	x->ev.header_data = h->ctl.hd ? h->header_data : 0;
	if (fetch) {
		rp = uet_ses_reply_new(ses, info, h->message_id, h->job_id,
				       len);
		if (rp)
			rp->own = malloc(len);
		if (!rp || !rp->own)
			goto err_nomem;
	}
	rc = ses_rx_amo_apply(mr, moff, op, dtype, ptr,
			      cas ? cx.swap_value : payload,
			      cas ? cx.compare_mask_value : NULL,
			      rp ? rp->own : NULL, len);
	if (rc != UET_RC_OK) {
		ses->stats.amo_unsupported++;
		if (rp)
			uet_ses_release(ses, &rp->obj, false);
		uet_ses_release(ses, &x->obj, false);
		goto err_refuse;
	}
	if (rp)
		uet_ses_txi_queue(ses, &rp->txi);
	ses->stats.amo_rx++;
	ses->stats.rma_bytes_rx += len;
	ses_rma_rx_done(ses, x);
	uet_ses_rsp_fill(ses, rsp, UET_LIST_EXPECTED, UET_RC_OK, h->message_id,
			 h->job_id, len);
	return 0;

err_nomem:
	if (rp)
		uet_ses_release(ses, &rp->obj, false);
	uet_ses_release(ses, &x->obj, false);
	return -EAGAIN;
err_refuse:
	uet_ses_rx_refuse(ses, rsp, rc, h->message_id, h->job_id);
	return 0;
}

int uet_ses_rx_rma_som1(struct uet_ses *ses,
			const struct uet_pds_rx_info *info,
			const struct uet_ses_std_som1 *h, size_t hlen,
			struct uet_pds_rsp *rsp)
{
	struct ses_rma_wpkt q;

	if (h->ctl.opcode != UET_WRITE)
		return ses_rx_amo(ses, info, h, hlen, rsp);
	ses_rma_wpkt_set(&q, info, hlen, &h->ctl, h->message_id,
			 h->ri_generation, h->job_id, h->pid_on_fep,
			 h->resource_index, h->initiator, h->match_bits,
			 h->request_length);
	if (q.plen > q.total || q.eom != (q.plen == q.total))
		return -EPROTO;
	q.som = true;
	q.hd = h->ctl.hd;
	q.header_data = h->header_data;
	q.start = h->buffer_offset;
	return ses_rx_write(ses, info, &q, rsp);
}

int uet_ses_rx_rma_som0(struct uet_ses *ses,
			const struct uet_pds_rx_info *info,
			const struct uet_ses_std_som0 *h, size_t hlen,
			struct uet_pds_rsp *rsp)
{
	struct ses_rma_wpkt q;

	if (h->ctl.opcode != UET_WRITE)
		return -EPROTO;	/* atomics are one packet */
	ses_rma_wpkt_set(&q, info, hlen, &h->ctl, h->message_id,
			 h->ri_generation, h->job_id, h->pid_on_fep,
			 h->resource_index, h->initiator, h->match_bits,
			 h->request_length);
	if (q.plen != h->payload_length || !q.plen || !h->message_offset ||
	    h->message_offset > q.total ||
	    q.plen > q.total - h->message_offset ||
	    q.eom != (h->message_offset + q.plen == q.total))
		return -EPROTO;
	/* buffer_offset is this packet's address: the message's is
	 * message_offset before it (modulo 2^64, as the initiator added). */
	q.start = h->buffer_offset - h->message_offset;
	q.off = h->message_offset;
	return ses_rx_write(ses, info, &q, rsp);
}

int uet_ses_rx_rma_read(struct uet_ses *ses,
			const struct uet_pds_rx_info *info,
			const struct uet_ses_std_som1 *h,
			struct uet_ses_ep *ep, struct uet_pds_rsp *rsp)
{
	struct uet_ses_reply *rp = NULL;
	struct uet_ses_rma_rx *x = NULL;
	struct uet_ses_mr *mr;
	uint64_t moff, len = h->request_length;
	uint8_t *ptr;
	uint8_t rc;

	rc = uet_ses_mr_access(ses, h->match_bits, h->ri_generation,
			       UET_SES_ACC_REMOTE_READ, h->buffer_offset, len,
			       &mr, &moff, &ptr);
	if (rc != UET_RC_OK)
		goto err_refuse;
	rc = UET_RC_UNSUPPORTED_OP;
	if (!info->pdc)
		goto err_refuse;
	/* The operation's last UET_READ (eom) is its event. */
	if (h->ctl.eom) {
		x = ses_rma_rx_new(ses, info, ep, UET_SES_RMA_READ,
				   h->match_bits, ptr, len, h->job_id,
				   h->initiator);
		if (!x)
			return -EAGAIN;
	}
	if (len) {
		rp = uet_ses_reply_new(ses, info, h->message_id, h->job_id,
				       len);
		if (!rp) {
			if (x)
				uet_ses_release(ses, &x->obj, false);
			return -EAGAIN;
		}
		if (mr->devmem) {
			/* Device memory: answered from a host copy taken
			 * now (nothing of the reply refers to the region). */
			rp->own = malloc(len);
			if (!rp->own || uet_ses_mr_get(mr, moff, rp->own,
						       len)) {
				rc = rp->own ? UET_RC_HOST_UNSUCCESS_CMPL : 0;
				uet_ses_release(ses, &rp->obj, false);
				if (x)
					uet_ses_release(ses, &x->obj, false);
				if (!rc)
					return -EAGAIN;
				goto err_refuse;
			}
		} else {
			rp->mr = mr;
			rp->src = ptr;
			rp->moff = moff;
			uet_dlist_insert_tail(&mr->replies, &rp->mr_entry);
		}
		uet_ses_txi_queue(ses, &rp->txi);
	}
	ses->stats.rma_bytes_rx += len;
	if (x)
		ses_rma_rx_done(ses, x);
	uet_ses_rsp_fill(ses, rsp, UET_LIST_EXPECTED, UET_RC_OK, h->message_id,
			 h->job_id, len);
	return 0;

err_refuse:
	uet_ses_rx_refuse(ses, rsp, rc, h->message_id, h->job_id);
	return 0;
}
