/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The notification consumer: reads the endpoint's notification ring
 * (entries are valid once their prime marker matches their position) and
 * turns each entry into a CQ entry, an error CQ entry and/or a counter
 * update.
 *
 * Send completions finish messages, RMA and atomics alike: the op's
 * flags (FI_SEND / FI_RMA|FI_WRITE / FI_RMA|FI_READ / FI_ATOMIC|FI_WRITE /
 * FI_ATOMIC|FI_READ) pick the counter (send, write, read) and are the CQ
 * entry's flags.  Receive notifications with the RMA flag (E-6) report an
 * RMA or atomic that landed here: the remote counters of the endpoint
 * and of the MR (by key) count it, and one that carried header_data
 * writes an rx CQ entry {FI_RMA|FI_REMOTE_WRITE|FI_REMOTE_CQ_DATA, len,
 * data} (FI_ATOMIC for atomics) without consuming a receive.
 */
#include "config.h"

#include <string.h>

#include "uet_hmem.h"
#include "uet_peer.h"
#include "uet_post.h"
#include "uet_prov.h"
#include "uet_xlate.h"
#include "uet_wire_consts.h"

static struct uet_op *uet_ep_op_at(struct uet_ep *ep, uint64_t idx,
				   uint8_t kind1, uint8_t kind2)
{
	struct uet_op *op;

	if (idx >= ep->nops) {
		UET_WARN_ONCE(FI_LOG_EP_DATA, "notification for unknown "
			      "operation %llu\n", (unsigned long long)idx);
		return NULL;
	}
	op = uet_op_at(ep, (uint32_t)idx);
	if (op->kind != kind1 && op->kind != kind2) {
		UET_WARN_ONCE(FI_LOG_EP_DATA, "notification for operation "
			      "%llu in state %u\n", (unsigned long long)idx,
			      op->kind);
		return NULL;
	}
	return op;
}

/* What an error completion says besides the operation's context. */
struct uet_ep_err_info {
	uint64_t flags;
	int err;			/* FI_E* */
	int prov_errno;			/* UET return code, 0: none */
	size_t len, olen;
	uint64_t tag, data;
	void *buf;
	fi_addr_t src;
};

static void uet_ep_err(struct uet_cq *cq, const struct uet_op *op,
		       const struct uet_ep_err_info *i)
{
	struct fi_cq_err_entry e;

	if (i->err != FI_ENOMSG)
		UET_INFO(FI_LOG_EP_DATA, "error completion: %s (%d), prov_errno %d, "
			 "flags %#llx, len %zu, olen %zu\n", fi_strerror(i->err),
			 i->err, i->prov_errno, (unsigned long long)i->flags,
			 i->len, i->olen);
	if (!cq)
		return;
	memset(&e, 0, sizeof(e));
	e.op_context = op->context;
	e.flags = i->flags;
	e.len = i->len;
	e.buf = i->buf;
	e.data = i->data;
	e.tag = i->tag;
	e.olen = i->olen;
	e.err = i->err;
	/* Without a UET return code from the target, say what the local
	 * side saw (uet_prov_strerror() names both kinds). */
	e.prov_errno = i->prov_errno ? i->prov_errno :
		       UET_PROV_ERRNO_BASE + i->err;
	uet_cq_write_err(cq, &e, i->src);
}

/* The counter of a transmit operation with these flags. */
static struct uet_cntr *uet_ep_tx_cntr(struct uet_ep *ep, uint64_t flags)
{
	if (flags & FI_SEND)
		return ep->send_cntr;
	if (flags & FI_WRITE)
		return ep->write_cntr;
	return ep->read_cntr;
}

static void uet_ep_send_done(struct uet_ep *ep, const uint8_t *ent)
{
	struct uet_hsi_send_cmpl c;
	struct fi_cq_tagged_entry e;
	struct uet_cntr *cntr;
	struct uet_op *op;

	if (uet_hsi_send_cmpl_decode(&c, ent, UET_HSI_NOTIF_LEN) < 0) {
		UET_WARN_ONCE(FI_LOG_EP_DATA, "malformed send completion\n");
		return;
	}
	c.status = (uint16_t)uet_xlate_status(c.status);
	op = uet_ep_op_at(ep, c.op_context, UET_OP_TX, UET_OP_TX);
	if (!op)
		return;
	/* One segment of a multi-segment RMA: the operation completes with
	 * its last segment, failed if any segment failed. */
	if (op->parts_left) {
		if (c.status && !op->part_status) {
			op->part_status = c.status;
			op->part_flags = c.flags;
		}
		op->parts_left--;
		return;
	}
	if (!c.status && op->part_status) {
		c.status = op->part_status;
		c.flags = op->part_flags;
	}
	/* Device memory: what a read or fetching atomic brought goes from
	 * its host bounce to the device now. */
	if (op->hb && !c.status && uet_hmem_back(op->hb, 0, SIZE_MAX))
		c.status = FI_EIO;
	cntr = uet_ep_tx_cntr(ep, op->flags);
	if (!c.status) {
		uet_cntr_inc(cntr);
		if (op->report && ep->tx_cq) {
			memset(&e, 0, sizeof(e));
			e.op_context = op->context;
			e.flags = op->flags;
			uet_cq_write(ep->tx_cq, &e, FI_ADDR_NOTAVAIL);
		}
	} else if (op->silent) {
		/* The application gave no context to report it with
		 * (fi_inject*): the error counter and a warning only. */
		uet_cntr_inc_err(cntr);
		UET_WARN_ONCE(FI_LOG_EP_DATA, "an inject operation failed: "
			      "%s (%u); injects report errors through "
			      "counters only\n", fi_strerror(c.status),
			      c.status);
	} else {
		uet_cntr_inc_err(cntr);
		uet_ep_err(ep->tx_cq, op, &(struct uet_ep_err_info){
			.flags = op->flags, .err = c.status,
			.prov_errno = c.flags, .src = FI_ADDR_NOTAVAIL });
	}
	uet_op_free(ep, op);
	ep->tx_inflight--;
}

/*
 * The fi_addr of a receive's source: the answer found last while the AV
 * has not changed since (a run of messages from one peer: no AV lock, no
 * hash lookup), else the AV's.  Under the endpoint lock.
 */
static fi_addr_t uet_ep_src(struct uet_ep *ep, uint32_t peer,
			    uint32_t initiator)
{
	unsigned long gen;
	fi_addr_t a;

	if (ep->src_last.valid && ep->src_last.peer == peer &&
	    ep->src_last.initiator == initiator &&
	    ep->src_last.gen == atomic_load(&ep->av->rev_gen)) {
		ep->src_cached++;
		return ep->src_last.addr;
	}
	a = uet_av_reverse_gen(ep->av, peer, initiator, &gen);
	ep->src_last.valid = a != FI_ADDR_NOTAVAIL;
	ep->src_last.peer = peer;
	ep->src_last.initiator = initiator;
	ep->src_last.gen = gen;
	ep->src_last.addr = a;
	return a;
}

/* An RMA or atomic landed at this endpoint (E-6 target notification). */
static void uet_ep_rma_event(struct uet_ep *ep,
			     const struct uet_hsi_recv_notif *n,
			     const struct uet_hsi_recv_cont *cont)
{
	struct fi_cq_tagged_entry e;
	uint64_t access, cls;

	switch (n->buffer_id_0) {
	case UET_WRITE:
		access = FI_REMOTE_WRITE;
		cls = FI_RMA;
		break;
	case UET_READ:
		access = FI_REMOTE_READ;
		cls = FI_RMA;
		break;
	case UET_ATOMIC:
		access = FI_REMOTE_WRITE;
		cls = FI_ATOMIC;
		break;
	case UET_FETCHING_ATOMIC:
		access = FI_REMOTE_READ;
		cls = FI_ATOMIC;
		break;
	default:
		UET_WARN_ONCE(FI_LOG_EP_DATA, "RMA notification with opcode "
			      "%u\n", n->buffer_id_0);
		return;
	}
	if (n->status) {
		UET_WARN_ONCE(FI_LOG_EP_DATA, "RMA notification with status "
			      "%u\n", n->status);
		return;
	}
	uet_cntr_inc(access == FI_REMOTE_WRITE ? ep->rwrite_cntr :
		     ep->rread_cntr);
	uet_mr_remote_event(ep->domain, n->tag, access);
	if (!cont->has_data || !ep->rx_cq)
		return;
	memset(&e, 0, sizeof(e));
	e.flags = cls | access | FI_REMOTE_CQ_DATA;
	e.len = n->total_length;
	e.data = cont->header_data;
	uet_cq_write(ep->rx_cq, &e, ep->av ?
		     uet_ep_src(ep, n->src_id, cont->initiator) :
		     FI_ADDR_NOTAVAIL);
}

static void uet_ep_recv_done(struct uet_ep *ep, const uint8_t *ent,
			     const uint8_t *cont_ent)
{
	struct uet_hsi_recv_notif n;
	struct uet_hsi_recv_cont cont;
	struct fi_cq_tagged_entry e;
	struct uet_op *op;
	uint64_t flags;
	fi_addr_t src;
	bool release = false, done = true;
	uint8_t *buf;

	if (uet_hsi_recv_notif_decode(&n, ent, UET_HSI_NOTIF_LEN) < 0) {
		UET_WARN_ONCE(FI_LOG_EP_DATA, "malformed receive "
			      "notification\n");
		return;
	}
	n.status = (uint16_t)uet_xlate_status(n.status);
	memset(&cont, 0, sizeof(cont));
	if (cont_ent &&
	    uet_hsi_recv_cont_decode(&cont, cont_ent, UET_HSI_NOTIF_LEN) < 0) {
		UET_WARN_ONCE(FI_LOG_EP_DATA, "malformed continuation\n");
		memset(&cont, 0, sizeof(cont));
	}
	if (n.rma) {
		uet_ep_rma_event(ep, &n, &cont);
		return;
	}
#if UET_HAVE_PEER
	if (uet_peer_recv_done_locked(ep, (uint32_t)n.buffer_id_0 |
				      (uint32_t)n.buffer_id_1 << 16, &n,
				      &cont))
		return;
#endif
	op = uet_ep_op_at(ep, (uint32_t)n.buffer_id_0 |
			  (uint32_t)n.buffer_id_1 << 16, UET_OP_RX,
			  UET_OP_PEEK);
	if (!op)
		return;
	src = ((ep->caps & FI_SOURCE) || ep->rx_cq) && ep->av ?
	      uet_ep_src(ep, n.src_id, cont.initiator) : FI_ADDR_NOTAVAIL;
	flags = op->flags & ~(uint64_t)FI_MULTI_RECV;
	if (cont.has_data)
		flags |= FI_REMOTE_CQ_DATA;
	buf = op->buf;
	if (op->flags & FI_MULTI_RECV) {
		if (cont.mr_valid)
			buf = (uint8_t *)op->buf + cont.mr_offset;
		release = cont.mr_released;
		done = release;
		if (release)
			flags |= FI_MULTI_RECV;
	}
	if (op->kind == UET_OP_PEEK)
		buf = NULL;
	/* Device memory: the bytes placed go from the host bounce to the
	 * device before the application hears of them. */
	if (op->hb && (n.status == 0 || n.status == FI_ETRUNC) &&
	    uet_hmem_back(op->hb, (size_t)(buf - (uint8_t *)op->buf),
			  n.total_length < op->len ? n.total_length :
			  op->len))
		n.status = FI_EIO;

	switch (n.status) {
	case 0:
		if (op->kind == UET_OP_RX && (n.total_length || !release))
			uet_cntr_inc(ep->recv_cntr);
		if ((op->report || release) && ep->rx_cq) {
			memset(&e, 0, sizeof(e));
			e.op_context = op->context;
			e.flags = flags;
			e.len = n.total_length;
			e.buf = n.total_length || !release ? buf : NULL;
			e.data = cont.header_data;
			e.tag = n.tag;
			uet_cq_write(ep->rx_cq, &e, src);
		}
		break;
	case FI_ENOMSG:
	case FI_ECANCELED:
		uet_ep_err(ep->rx_cq, op, &(struct uet_ep_err_info){
			.flags = flags, .err = n.status, .tag = n.tag,
			.src = src });
		break;
	default:
		if (op->kind == UET_OP_RX)
			uet_cntr_inc_err(ep->recv_cntr);
		uet_ep_err(ep->rx_cq, op, &(struct uet_ep_err_info){
			.flags = flags, .err = n.status,
			.len = n.total_length, .olen = cont.olen, .tag = n.tag,
			.data = cont.header_data, .buf = buf, .src = src });
		break;
	}
	if (!done)
		return;
	if (op->kind == UET_OP_RX)
		ep->rx_inflight--;
	uet_op_free(ep, op);
}

static void uet_ep_event(struct uet_ep *ep, const uint8_t *ent)
{
	struct uet_hsi_event_notif ev;

	if (uet_hsi_event_notif_decode(&ev, ent, UET_HSI_NOTIF_LEN) < 0)
		return;
	if (ev.severity >= UET_HSI_SEV_ERROR)
		UET_WARN(FI_LOG_EP_DATA, "device event %s (%s) data %llu\n",
			 uet_hsi_event_type_str(ev.event_type),
			 uet_hsi_severity_str(ev.severity),
			 (unsigned long long)ev.event_data);
	else
		UET_DBG(FI_LOG_EP_DATA, "device event %s data %llu\n",
			uet_hsi_event_type_str(ev.event_type),
			(unsigned long long)ev.event_data);
	(void)ep;
}

static bool uet_notif_has_cont(const uint8_t *ent)
{
	return uet_hsi_notif_has_continuation(ent, UET_HSI_NOTIF_LEN);
}

void uet_ep_progress_locked(struct uet_ep *ep)
{
	uint8_t batch[UET_EP_POLL_BATCH][UET_HSI_NOTIF_LEN];
	unsigned int n, i;
	const uint8_t *ent;

	if (!ep->enabled)
		return;
#if UET_HAVE_PEER
	uet_peer_poll_locked(ep);
#endif
	if (ep->doorbell_pending)
		uet_post_ring_locked(ep);
	for (;;) {
		n = uet_hsi_notifq_poll_batch(ep->q->notifq, batch,
					      UET_EP_POLL_BATCH);
		if (!n)
			return;
		for (i = 0; i < n; i++) {
			ent = batch[i];
			if (ep->held_valid) {
				ep->held_valid = false;
				uet_ep_recv_done(ep, ep->held, ent);
				continue;
			}
			switch (uet_hsi_notif_peek_type(ent,
							UET_HSI_NOTIF_LEN)) {
			case UET_HSI_NOTIF_SEND:
				uet_ep_send_done(ep, ent);
				break;
			case UET_HSI_NOTIF_RECV:
				if (!uet_notif_has_cont(ent)) {
					uet_ep_recv_done(ep, ent, NULL);
				} else if (i + 1 < n) {
					uet_ep_recv_done(ep, ent, batch[i + 1]);
					i++;
				} else {
					memcpy(ep->held, ent,
					       UET_HSI_NOTIF_LEN);
					ep->held_valid = true;
				}
				break;
			case UET_HSI_NOTIF_EVENT:
				uet_ep_event(ep, ent);
				break;
			default:
				UET_WARN_ONCE(FI_LOG_EP_DATA, "unknown "
					      "notification type\n");
				break;
			}
		}
		if (n < UET_EP_POLL_BATCH)
			return;
	}
}

void uet_ep_progress(struct uet_ep *ep)
{
	uet_domain_progress(ep->domain);
	uet_lock(&ep->lock, UET_LOCK_EP);
	uet_ep_progress_locked(ep);
	uet_unlock(&ep->lock, UET_LOCK_EP);
}
