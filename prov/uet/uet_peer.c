/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The peer shared receive context (FI_PEER, libfabric's fi_peer.h), as
 * the lnx (LINKx) provider uses it: the owner (lnx) matches every
 * message against its own receive queue; uet, the peer, hands it each
 * message that arrives and moves the data once the owner says where.
 *
 * uet's device matches receives itself, so a peer endpoint posts no
 * receive of its own.  Instead it keeps one tagged and one untagged
 * PEEK|CLAIM outstanding (ignore every tag bit, any source): the device
 * answers with the header of the oldest unmatched message (tag, length,
 * source, CQ data) and reserves it under a claim id the provider chose,
 * or with NO_MSG.  The header goes to the owner (get_tag / get_msg):
 *   - a receive matches: a CLAIM receive into the owner's buffers; its
 *     completion goes to the (peer) CQ with the owner's context, then
 *     owner free_entry;
 *   - none (-FI_ENOENT): the entry the owner returned is queued
 *     (queue_tag / queue_msg) with our claim id in peer_context; later
 *     start_tag / start_msg post the CLAIM receive, discard_tag /
 *     discard_msg a CLAIM|DISCARD (the owner frees the entry then).
 * The device reserves messages in arrival order and one peek of each
 * kind is outstanding at a time, so the owner sees them in order.
 *
 * Locking: the owner's callbacks are called with ep->lock held; start
 * and discard (called by the owner from the application's thread) take
 * it.
 *
 * Records: each message handed to the owner has a struct uet_peer_msg
 * (its claim id) on the SRX's list until its CLAIM receive or discard
 * completes.  Closing the endpoint leaves the records of messages still
 * queued with the owner (lnx frees its queue without discarding) or
 * with a command out; the SRX's close frees them.
 */
#include "config.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "uet_peer.h"

#if UET_HAVE_PEER

#include "uet_fi_no.h"
#include "uet_post.h"
#include "uet_prov.h"

/* Ours in fi_peer_rx_entry.peer_context. */
struct uet_peer_msg {
	struct uet_dlist link;		/* on srx->msgs */
	struct uet_dlist pend;		/* on srx->pending while queued */
	struct uet_srx *srx;
	struct uet_ep *ep;		/* NULL once the endpoint closed */
	struct fi_peer_rx_entry *entry;	/* a queued start's */
	uint64_t claim_id;
	uint8_t pending;		/* 0, or the queued command's kind:
					 * UET_OP_PEER_RX or _DISCARD */
	bool tagged;
};

static atomic_long uet_peer_nmsgs;

long uet_peer_msgs_live(void)
{
	return atomic_load(&uet_peer_nmsgs);
}

/* A record on ep's SRX; with ep->lock held. */
static struct uet_peer_msg *uet_peer_msg_new_locked(struct uet_ep *ep,
						    bool tagged,
						    uint64_t claim_id)
{
	struct uet_peer_msg *pm = calloc(1, sizeof(*pm));

	if (!pm)
		return NULL;
	pm->srx = ep->peer_srx;
	pm->ep = ep;
	pm->claim_id = claim_id;
	pm->tagged = tagged;
	uet_dlist_insert_tail(&pm->srx->msgs, &pm->link);
	atomic_fetch_add(&uet_peer_nmsgs, 1);
	return pm;
}

/* With ep->lock held while the SRX is bound to an endpoint. */
static void uet_peer_msg_free(struct uet_peer_msg *pm)
{
	if (!pm)
		return;
	if (pm->pending)
		uet_dlist_remove(&pm->pend);
	uet_dlist_remove(&pm->link);
	atomic_fetch_sub(&uet_peer_nmsgs, 1);
	free(pm);
}

static struct uet_srx *uet_srx_of(struct fid *fid)
{
	return uet_container_of(fid, struct uet_srx, fid.fid);
}

static int uet_srx_close(struct fid *fid)
{
	struct uet_srx *srx = uet_srx_of(fid);
	struct uet_peer_msg *pm;
	long n = 0;

	if (srx->ep)
		return -FI_EBUSY;
	uet_dlist_foreach_entry_safe(&srx->msgs, pm, link) {
		uet_peer_msg_free(pm);
		n++;
	}
	if (n)
		UET_INFO(FI_LOG_EP_CTRL, "peer SRX closed with %ld messages "
			 "the owner neither started nor discarded\n", n);
	atomic_fetch_sub(&srx->domain->ref, 1);
	free(srx);
	return 0;
}

static struct fi_ops uet_srx_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = uet_srx_close,
	.bind = uet_no_bind,
	.control = uet_no_control,
	.ops_open = uet_no_ops_open,
	.tostr = uet_no_tostr,
	.ops_set = uet_no_ops_set,
};

/* Post a peer receive command: PEEK|CLAIM (iov NULL), CLAIM into iov,
 * or CLAIM|DISCARD.  With ep->lock held. */
static int uet_peer_post_locked(struct uet_ep *ep, uint8_t kind, bool tagged,
				uint32_t ext_flags, uint64_t claim_id,
				const struct iovec *iov, size_t count,
				struct uet_peer_msg *pm,
				struct fi_peer_rx_entry *entry)
{
	struct uet_post_cmd cmd;
	struct uet_op *op;
	int ret;

	memset(&cmd, 0, sizeof(cmd));
	cmd.seg.family = tagged ? UET_HSI_FAMILY_TAGGED : UET_HSI_FAMILY_MSG;
	cmd.seg.variant = UET_HSI_VARIANT_RECV;
	cmd.seg.completion = true;
	cmd.ext.ext_flags = ext_flags;
	cmd.ext.header_data = claim_id;
	if (tagged && (ext_flags & UET_HSI_EXT_PEEK))
		cmd.ext.ignore = ~(uint64_t)0;
	cmd.opts = UET_POST_EXT;
	if (iov && count) {
		cmd.data = UET_POST_DATA_SGL;
		cmd.iov = iov;
		cmd.count = count;
	} else {
		cmd.data = UET_POST_DATA_NONE;
	}
	op = uet_op_alloc(ep, kind);
	if (!op)
		return -FI_EAGAIN;
	op->context = entry;
	op->buf = pm;
	op->flags = FI_RECV | (tagged ? FI_TAGGED : FI_MSG);
	/* a peek keeps its claim id (the device answers with the
	 * message's own header_data) */
	op->len = kind == UET_OP_PEER_PEEK ? claim_id :
		  uet_iov_len(iov, count);
	cmd.seg.metadata = uet_op_index(ep, op);
	ret = uet_post_cmd_locked(ep, &cmd);
	if (ret) {
		uet_op_free(ep, op);
		return ret;
	}
	if (kind == UET_OP_PEER_PEEK)
		ep->peer_peeks |= tagged ? 1u : 2u;
	return 0;
}

static void uet_peer_rx_done_locked(struct uet_ep *ep,
				    struct uet_peer_msg *pm,
				    struct fi_peer_rx_entry *entry,
				    const struct uet_hsi_recv_notif *n,
				    const struct uet_hsi_recv_cont *cont);

/* Post pm's CLAIM receive into entry's buffers (UET_OP_PEER_RX) or its
 * CLAIM|DISCARD (UET_OP_PEER_DISCARD).  With ep->lock held. */
static int uet_peer_post_msg_locked(struct uet_ep *ep,
				    struct uet_peer_msg *pm, uint8_t kind,
				    struct fi_peer_rx_entry *entry)
{
	if (kind == UET_OP_PEER_RX)
		return uet_peer_post_locked(ep, kind, pm->tagged,
					    UET_HSI_EXT_CLAIM, pm->claim_id,
					    entry->iov, entry->count, pm,
					    entry);
	return uet_peer_post_locked(ep, kind, pm->tagged,
				    UET_HSI_EXT_CLAIM | UET_HSI_EXT_DISCARD,
				    pm->claim_id, NULL, 0, pm, NULL);
}

/* A queued start or discard failed for another reason than room: the
 * start ends in an error completion for the owner's entry, the discard
 * only frees the record (as when it fails at once). */
static void uet_peer_queued_failed_locked(struct uet_ep *ep,
					  struct uet_peer_msg *pm,
					  uint8_t kind,
					  struct fi_peer_rx_entry *entry,
					  int ret)
{
	struct uet_hsi_recv_notif n;
	struct uet_hsi_recv_cont cont;

	UET_WARN(FI_LOG_EP_DATA, "queued peer %s not posted: %d\n",
		 kind == UET_OP_PEER_RX ? "start" : "discard", ret);
	if (kind != UET_OP_PEER_RX) {
		uet_peer_msg_free(pm);
		return;
	}
	memset(&n, 0, sizeof(n));
	memset(&cont, 0, sizeof(cont));
	n.status = (uint16_t)-ret;
	n.total_length = entry->msg_size;
	n.tag = entry->tag;
	uet_peer_rx_done_locked(ep, pm, entry, &n, &cont);
}

/* Retry the queued starts and discards in their order, up to the first
 * that still finds no room.  With ep->lock held; not re-entered (a
 * post that finds the ring full progresses the endpoint). */
static void uet_peer_drain_locked(struct uet_ep *ep)
{
	struct uet_srx *srx = ep->peer_srx;
	struct fi_peer_rx_entry *entry;
	struct uet_peer_msg *pm;
	uint8_t kind;
	int ret;

	if (srx->draining)
		return;
	srx->draining = true;
	while (!uet_dlist_empty(&srx->pending)) {
		pm = uet_dlist_first_entry(&srx->pending, struct uet_peer_msg,
					   pend);
		ret = uet_peer_post_msg_locked(ep, pm, pm->pending, pm->entry);
		if (ret == -FI_EAGAIN)
			break;
		kind = pm->pending;
		entry = pm->entry;
		uet_dlist_remove(&pm->pend);
		pm->pending = 0;
		pm->entry = NULL;
		if (ret)
			uet_peer_queued_failed_locked(ep, pm, kind, entry, ret);
	}
	srx->draining = false;
}

/* Start (UET_OP_PEER_RX) or discard pm: posted now, or, when the
 * command ring or the operation table has no room or earlier ones wait,
 * queued for the endpoint's progress (0 then too).  Other errors are
 * returned.  With ep->lock held. */
static int uet_peer_submit_locked(struct uet_ep *ep, struct uet_peer_msg *pm,
				  uint8_t kind,
				  struct fi_peer_rx_entry *entry)
{
	struct uet_srx *srx = ep->peer_srx;
	bool behind = !uet_dlist_empty(&srx->pending);
	int ret;

	if (!behind) {
		ret = uet_peer_post_msg_locked(ep, pm, kind, entry);
		if (ret != -FI_EAGAIN)
			return ret;
	}
	pm->pending = kind;
	pm->entry = entry;
	/* Without earlier ones waiting, whatever the failed post's
	 * progress queued is newer: this one goes first. */
	if (behind)
		uet_dlist_insert_tail(&srx->pending, &pm->pend);
	else
		uet_dlist_insert_head(&srx->pending, &pm->pend);
	UET_DBG(FI_LOG_EP_DATA, "peer %s queued: no room for the command\n",
		kind == UET_OP_PEER_RX ? "start" : "discard");
	if (behind)
		uet_peer_drain_locked(ep);
	return 0;
}

void uet_peer_poll_locked(struct uet_ep *ep)
{
	int k;

	if (!ep->peer_srx || !ep->enabled || ep->peer_stop)
		return;
	uet_peer_drain_locked(ep);
	if (!uet_dlist_empty(&ep->peer_srx->pending))
		return;	/* still no room: the queued ones go first */
	for (k = 0; k < 2; k++) {
		bool tagged = k == 0;

		if (ep->peer_peeks & (tagged ? 1u : 2u))
			continue;
		if (!(ep->caps & (tagged ? FI_TAGGED : FI_MSG)))
			continue;
		if (uet_peer_post_locked(ep, UET_OP_PEER_PEEK, tagged,
					 UET_HSI_EXT_PEEK | UET_HSI_EXT_CLAIM,
					 ++ep->peer_claim_seq, NULL, 0, NULL,
					 NULL))
			return;	/* ring full: the next progress retries */
	}
}

/* The owner's answer for an arrived message: start it now, or queue it. */
static void uet_peer_arrived_locked(struct uet_ep *ep, bool tagged,
				    uint64_t claim_id,
				    const struct uet_hsi_recv_notif *n,
				    const struct uet_hsi_recv_cont *cont)
{
	struct fid_peer_srx *owner = ep->peer_srx->owner;
	struct fi_peer_match_attr attr;
	struct fi_peer_rx_entry *entry = NULL;
	struct uet_peer_msg *pm;
	int ret;

	memset(&attr, 0, sizeof(attr));
	attr.addr = uet_av_reverse(ep->av, n->src_id, cont->initiator);
	attr.msg_size = n->total_length;
	attr.tag = tagged ? n->tag : 0;
	ret = tagged ? owner->owner_ops->get_tag(owner, &attr, &entry) :
		       owner->owner_ops->get_msg(owner, &attr, &entry);
	if ((ret && ret != -FI_ENOENT) || !entry) {
		/* The owner takes no such message (lnx 2.x: no untagged
		 * receives): dropped, with a warning. */
		UET_WARN_ONCE(FI_LOG_EP_DATA, "peer owner refused a %s "
			      "message (%d): dropped\n",
			      tagged ? "tagged" : "untagged", ret);
		uet_peer_post_locked(ep, UET_OP_PEER_DISCARD, tagged,
				     UET_HSI_EXT_CLAIM | UET_HSI_EXT_DISCARD,
				     claim_id, NULL, 0, NULL, NULL);
		return;
	}
	pm = uet_peer_msg_new_locked(ep, tagged, claim_id);
	if (!pm) {
		UET_WARN(FI_LOG_EP_DATA, "out of memory: message dropped\n");
		uet_peer_post_locked(ep, UET_OP_PEER_DISCARD, tagged,
				     UET_HSI_EXT_CLAIM | UET_HSI_EXT_DISCARD,
				     claim_id, NULL, 0, NULL, NULL);
		if (!ret)
			owner->owner_ops->free_entry(entry);
		return;
	}
	entry->peer_context = pm;
	entry->msg_size = n->total_length;
	entry->tag = attr.tag;
	if (cont->has_data) {
		entry->cq_data = cont->header_data;
		entry->flags |= FI_REMOTE_CQ_DATA;
	}
	if (ret == -FI_ENOENT) {
		entry->addr = attr.addr;
		ret = tagged ? owner->owner_ops->queue_tag(entry) :
			       owner->owner_ops->queue_msg(entry);
		if (ret)
			UET_WARN(FI_LOG_EP_DATA, "peer owner queue: %d\n",
				 ret);
		return;
	}
	ret = uet_peer_submit_locked(ep, pm, UET_OP_PEER_RX, entry);
	if (ret) {
		UET_WARN(FI_LOG_EP_DATA, "peer receive not posted: %d\n", ret);
		entry->peer_context = NULL;
		uet_peer_msg_free(pm);
		owner->owner_ops->free_entry(entry);
	}
}

/* A CLAIM receive finished: the owner's completion, then its entry. */
static void uet_peer_rx_done_locked(struct uet_ep *ep,
				    struct uet_peer_msg *pm,
				    struct fi_peer_rx_entry *entry,
				    const struct uet_hsi_recv_notif *n,
				    const struct uet_hsi_recv_cont *cont)
{
	struct fid_peer_srx *owner = ep->peer_srx->owner;
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	uint64_t flags = FI_RECV | (pm->tagged ? FI_TAGGED : FI_MSG);
	int status = n->status;		/* FI_E* (uet_ep_recv_done) */

	if (cont->has_data)
		flags |= FI_REMOTE_CQ_DATA;
	if (!status) {
		uet_cntr_inc(ep->recv_cntr);
		if (ep->rx_cq) {
			memset(&e, 0, sizeof(e));
			e.op_context = entry->context;
			e.flags = flags;
			e.len = n->total_length;
			e.buf = entry->count ? entry->iov[0].iov_base : NULL;
			e.data = cont->header_data;
			e.tag = n->tag;
			uet_cq_write(ep->rx_cq, &e, entry->addr);
		}
	} else {
		uet_cntr_inc_err(ep->recv_cntr);
		if (ep->rx_cq) {
			memset(&err, 0, sizeof(err));
			err.op_context = entry->context;
			err.flags = flags;
			err.len = n->total_length;
			err.olen = cont->olen;
			err.tag = n->tag;
			err.data = cont->header_data;
			err.err = status;
			err.prov_errno = UET_PROV_ERRNO_BASE + status;
			uet_cq_write_err(ep->rx_cq, &err, entry->addr);
		}
	}
	uet_peer_msg_free(pm);
	owner->owner_ops->free_entry(entry);
}

bool uet_peer_recv_done_locked(struct uet_ep *ep, uint32_t idx,
			       const struct uet_hsi_recv_notif *n,
			       const struct uet_hsi_recv_cont *cont)
{
	struct uet_op *op;
	bool tagged;

	if (!ep->peer_srx || idx >= ep->nops)
		return false;
	op = uet_op_at(ep, idx);
	switch (op->kind) {
	case UET_OP_PEER_PEEK:
		tagged = op->flags & FI_TAGGED;
		ep->peer_peeks &= ~(tagged ? 1u : 2u);
		if (!n->status && !ep->peer_stop)
			uet_peer_arrived_locked(ep, tagged, op->len, n, cont);
		uet_op_free(ep, op);
		return true;
	case UET_OP_PEER_RX:
		uet_peer_rx_done_locked(ep, op->buf, op->context, n, cont);
		uet_op_free(ep, op);
		return true;
	case UET_OP_PEER_DISCARD:
		uet_peer_msg_free(op->buf);
		uet_op_free(ep, op);
		return true;
	default:
		return false;
	}
}

/* ---- the peer side of the SRX (called by the owner) ---- */

static int uet_peer_start(struct fi_peer_rx_entry *entry)
{
	struct uet_peer_msg *pm = entry->peer_context;
	struct uet_ep *ep;
	int ret;

	if (!pm || !pm->ep)
		return -FI_EINVAL;	/* discarded, or the endpoint closed */
	ep = pm->ep;
	uet_ep_lock(ep);
	ret = uet_peer_submit_locked(ep, pm, UET_OP_PEER_RX, entry);
	uet_ep_unlock(ep);
	return ret;
}

static int uet_peer_discard(struct fi_peer_rx_entry *entry)
{
	struct uet_peer_msg *pm = entry->peer_context;
	struct uet_ep *ep;
	int ret;

	if (!pm)
		return -FI_EINVAL;
	entry->peer_context = NULL;
	ep = pm->ep;
	if (!ep) {
		/* the endpoint closed: the device dropped the message */
		uet_peer_msg_free(pm);
		return 0;
	}
	uet_ep_lock(ep);
	/* pm goes with the discard's completion */
	ret = uet_peer_submit_locked(ep, pm, UET_OP_PEER_DISCARD, NULL);
	if (ret)
		uet_peer_msg_free(pm);
	uet_ep_unlock(ep);
	return ret;
}

static struct fi_ops_srx_peer uet_srx_peer_ops = {
	.size = sizeof(struct fi_ops_srx_peer),
	.start_msg = uet_peer_start,
	.start_tag = uet_peer_start,
	.discard_msg = uet_peer_discard,
	.discard_tag = uet_peer_discard,
};

int uet_srx_context(struct fid_domain *domain, struct fi_rx_attr *attr,
		    struct fid_ep **rx_ep, void *context)
{
	struct fi_peer_srx_context *pc = context;
	struct uet_domain *dom;
	struct uet_srx *srx;

	if (!domain || !attr || !rx_ep)
		return -FI_EINVAL;
	*rx_ep = NULL;
	if (!(attr->op_flags & FI_PEER)) {
		UET_INFO(FI_LOG_DOMAIN, "shared receive contexts are offered "
			 "only as peer (FI_PEER)\n");
		return -FI_ENOSYS;
	}
	if (!pc || pc->size < sizeof(*pc) || !pc->srx ||
	    !pc->srx->owner_ops || !pc->srx->owner_ops->get_tag ||
	    !pc->srx->owner_ops->get_msg || !pc->srx->owner_ops->queue_tag ||
	    !pc->srx->owner_ops->queue_msg || !pc->srx->owner_ops->free_entry)
		return -FI_EINVAL;
	dom = uet_container_of(domain, struct uet_domain, fid);
	srx = calloc(1, sizeof(*srx));
	if (!srx)
		return -FI_ENOMEM;
	srx->domain = dom;
	srx->owner = pc->srx;
	uet_dlist_init(&srx->msgs);
	uet_dlist_init(&srx->pending);
	pc->srx->peer_ops = &uet_srx_peer_ops;
	srx->fid.fid.fclass = FI_CLASS_SRX_CTX;
	srx->fid.fid.context = NULL;
	srx->fid.fid.ops = &uet_srx_fi_ops;
	atomic_fetch_add(&dom->ref, 1);
	*rx_ep = &srx->fid;
	return 0;
}

int uet_peer_ep_bind_srx(struct uet_ep *ep, struct fid *fid)
{
	struct uet_srx *srx = uet_srx_of(fid);

	if (srx->domain != ep->domain)
		return -FI_EINVAL;
	if (ep->peer_srx || srx->ep)
		return -FI_EBUSY;
	srx->ep = ep;
	ep->peer_srx = srx;
	return 0;
}

void uet_peer_ep_close(struct uet_ep *ep)
{
	uet_ep_lock(ep);
	ep->peer_stop = true;
	uet_ep_unlock(ep);
}

void uet_peer_ep_release(struct uet_ep *ep)
{
	struct uet_peer_msg *pm;
	long n = 0;

	if (ep->peer_srx) {
		/* starts and discards still queued are not posted now: their
		 * records stay on msgs, like those with a command out */
		uet_dlist_foreach_entry_safe(&ep->peer_srx->pending, pm, pend) {
			uet_dlist_remove(&pm->pend);
			pm->pending = 0;
			pm->entry = NULL;
			n++;
		}
		if (n)
			UET_INFO(FI_LOG_EP_CTRL, "endpoint closed with %ld "
				 "peer starts or discards still queued\n", n);
		/* the queue is closed: no command of ours completes now */
		uet_dlist_foreach_entry(&ep->peer_srx->msgs, pm, link)
			pm->ep = NULL;
		ep->peer_srx->ep = NULL;
		ep->peer_srx = NULL;
	}
}

#endif /* UET_HAVE_PEER */
