/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SES target: posted receives, the unexpected list, matching, and the
 * completion of receives.
 *
 * Matching rule, for a message {tagged, tag, initiator, source address}
 * and a receive {tagged, tag, ignore, directed, src}:
 *   - tagged messages only match tagged receives, untagged only untagged;
 *   - tagged: (tag & ~ignore) == (receive tag & ~ignore);
 *   - directed receive: the source fabric address and the source
 *     process (the PIDonFEP of the initiator field, uet_ses_initiator_id)
 *     are equal.  The resource index is not compared: a process sends
 *     from any of its queues (a scalable endpoint's transmit context i
 *     from rx_cnt + i), and its messages are all from that source, as
 *     libfabric defines a scalable endpoint's (MPICH's ch4:ofi waited
 *     in MPI_Init for a message directed at its peer's endpoint that
 *     came from the peer's transmit context).  Two endpoints of one NIC
 *     never share a PIDonFEP.
 * Posted receives are searched in post order, unexpected messages in the
 * order their first packet was taken (under RUD and ROD: for one source
 * endpoint, its send order).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uet_ses_internal.h"

static bool ses_recv_match(const struct uet_ses_recv_op *r, bool tagged,
			   uint64_t tag, uint32_t initiator,
			   const uint8_t *src_fa)
{
	if (r->tagged != tagged)
		return false;
	if (tagged && ((r->tag ^ tag) & ~r->ignore))
		return false;
	if (r->directed && ((r->src_initiator ^ initiator) >>
			    UET_SES_INITIATOR_PID_SHIFT ||
			    memcmp(r->src_fa, src_fa, UET_SES_FA_KEY_LEN)))
		return false;
	return true;
}

/* Whether a message of total bytes goes into r: a multi-receive buffer
 * already used takes only what fits in the space left. */
static bool ses_recv_fits(const struct uet_ses_recv_op *r, uint64_t total)
{
	return !r->multi || !r->mr_used || total <= r->len - r->mr_used;
}

struct uet_ses_recv_op *uet_ses_match_posted(struct uet_ses *ses,
					     struct uet_ses_ep *ep,
					     bool tagged, uint64_t tag,
					     uint32_t initiator,
					     const uint8_t *src_fa,
					     uint64_t total)
{
	struct uet_ses_recv_op *r;

	uet_dlist_foreach_entry_safe(&ep->posted, r, entry) {
		if (!ses_recv_match(r, tagged, tag, initiator, src_fa))
			continue;
		if (ses_recv_fits(r, total))
			return r;
		/* The message goes to the next buffer. */
		uet_ses_mr_retire(ses, r, 0);
	}
	return NULL;
}

/* A buffer with less than min_free bytes (or none) left is retired. */
static void ses_mr_check_room(struct uet_ses *ses, struct uet_ses_recv_op *r)
{
	uint64_t room = r->len - r->mr_used;

	if (!room || room < r->min_free)
		uet_ses_mr_retire(ses, r, 0);
}

void uet_ses_mr_retire(struct uet_ses *ses, struct uet_ses_recv_op *r,
		       int status)
{
	if (r->retired)
		return;
	r->retired = true;
	if (r->posted) {
		uet_dlist_remove(&r->entry);
		r->posted = false;
	}
	if (r->mr_inflight)
		return;		/* the last message completes with the flag */
	r->cmpl.multi = true;
	r->cmpl.mr_released = true;
	r->cmpl.len = 0;
	r->cmpl.olen = 0;
	uet_ses_recv_complete(ses, r, status);
}

void uet_ses_mr_child_done(struct uet_ses *ses, struct uet_ses_recv_op *c)
{
	struct uet_ses_recv_op *p = c->parent;

	c->cmpl.multi = true;
	c->cmpl.mr_valid = true;
	c->cmpl.mr_offset = c->mr_off;
	if (ses->closing || p->obj.dead)
		return;
	p->mr_inflight--;
	if (!p->retired || p->mr_inflight)
		return;
	c->cmpl.mr_released = true;
	uet_ses_release(ses, &p->obj, false);
}

struct uet_ses_recv_op *uet_ses_recv_take(struct uet_ses *ses,
					  struct uet_ses_recv_op *r,
					  uint64_t total)
{
	struct uet_ses_recv_op *c;
	uint64_t n;

	if (!r->multi) {
		uet_dlist_remove(&r->entry);
		r->posted = false;
		return r;
	}
	c = uet_ses_obj_alloc(ses, UET_SES_OBJ_RECV);
	if (!c)
		return NULL;
	n = r->len - r->mr_used;
	if (total < n)
		n = total;
	uet_dlist_init(&c->entry);
	uet_dlist_init(&c->centry);
	c->iov = c->iov_inline;
	c->iov[0].iov_base = (uint8_t *)r->iov[0].iov_base + r->mr_used;
	c->iov[0].iov_len = (size_t)n;
	c->iovcnt = 1;
	c->len = n;
	c->ep = r->ep;
	c->tagged = r->tagged;
	c->tag = r->tag;
	c->op_ctx = r->op_ctx;
	c->cmpl.rc = UET_RC_OK;
	c->parent = r;
	c->mr_off = r->mr_used;
	r->mr_used += n;
	r->mr_inflight++;
	ses_mr_check_room(ses, r);
	return c;
}

void uet_ses_unexp_account(struct uet_ses *ses, int64_t bytes, int msgs)
{
	ses->stats.unexp_bytes += (uint64_t)bytes;
	if (ses->stats.unexp_bytes > ses->stats.unexp_bytes_hwm)
		ses->stats.unexp_bytes_hwm = ses->stats.unexp_bytes;
	ses->unexp_msgs += (uint64_t)(int64_t)msgs;
}

/* Message attributes of a receive completion. */
static void ses_recv_fill(struct uet_ses_recv_op *r,
			  const struct uet_ses_rx_msg *m)
{
	struct uet_ses_recv_cmpl *c = &r->cmpl;

	c->tag = m->tag;
	c->has_data = m->hd;
	c->header_data = m->hd ? m->header_data : 0;
	c->src.fa = m->src;
	c->src.job_id = m->job_id;
	c->src.pid_on_fep = (m->initiator >> 12) & UET_PID_ON_FEP_MAX;
	c->src.ri = m->initiator & UET_RESOURCE_INDEX_MAX;
	c->initiator = m->initiator;
}

void uet_ses_recv_complete(struct uet_ses *ses, struct uet_ses_recv_op *r,
			   int status)
{
	r->cmpl.op_ctx = r->op_ctx;
	r->cmpl.status = status;
	if (uet_ses_recv_ordered_done(ses, r))
		return;
	uet_ses_release(ses, &r->obj, true);
}

void uet_ses_recv_deliver(struct uet_ses *ses, struct uet_ses_recv_op *r,
			  const struct uet_ses_rx_msg *m)
{
	uint64_t len = m->total < r->len ? m->total : r->len;

	ses_recv_fill(r, m);
	r->cmpl.len = len;
	r->cmpl.olen = m->total - len;
	r->cmpl.rc = UET_RC_OK;
	if (r->cmpl.olen)
		ses->stats.truncated++;
	ses->stats.msgs_rx++;
	uet_ses_recv_complete(ses, r, r->cmpl.olen ? UET_SES_ETRUNC : 0);
}

void uet_ses_rx_check(struct uet_ses *ses, struct uet_ses_rx_msg *m)
{
	uint64_t placed;

	if (m->obj.dead || !m->som_seen || m->rcvd < m->need)
		return;
	uet_ses_rx_msg_unmap(ses, m);
	if (!m->recv) {
		if (!m->discard)
			return;	/* waits on the unexpected list */
		uet_dlist_remove(&m->entry);
		uet_ses_release(ses, &m->obj, false);
		return;
	}
	uet_ses_txi_cancel(ses, &m->txi);
	uet_ses_pull_orphan(ses, m);
	if (m->rdzv) {
		placed = m->total < m->recv->len ? m->total : m->recv->len;
		uet_ses_notice_send(ses, m, UET_RC_OK, placed);
	}
	uet_dlist_remove(&m->entry);
	uet_ses_recv_deliver(ses, m->recv, m);
	m->recv = NULL;
	uet_ses_release(ses, &m->obj, false);
}

void uet_ses_rx_fail(struct uet_ses *ses, struct uet_ses_rx_msg *m,
		     int status, uint8_t rc)
{
	struct uet_ses_recv_op *r = m->recv;

	if (m->obj.dead)
		return;
	uet_ses_txi_cancel(ses, &m->txi);
	uet_ses_rx_msg_unmap(ses, m);
	uet_ses_held_unlink(ses, m);
	uet_ses_pull_orphan(ses, m);
	if (m->rdzv)
		uet_ses_notice_send(ses, m, uet_ses_rc_is_error(rc) ? rc :
				    UET_RC_CANCELLED, 0);
	if (m->on_unexp) {
		uet_ses_unexp_account(ses, -(int64_t)m->ubuf_len, -1);
		m->on_unexp = false;
	}
	uet_dlist_remove(&m->entry);
	if (r) {
		ses_recv_fill(r, m);
		r->cmpl.rc = rc;
		uet_ses_recv_complete(ses, r, status);
		m->recv = NULL;
	}
	uet_ses_release(ses, &m->obj, false);
}

void uet_ses_rx_drop_unexp(struct uet_ses *ses, struct uet_ses_rx_msg *m)
{
	uet_ses_rx_fail(ses, m, -ECANCELED, UET_RC_CANCELLED);
}

/* A receive takes an unexpected (or held) message: copy out what was
 * buffered and continue in the receive's own buffer. */
void uet_ses_rx_bind(struct uet_ses *ses, struct uet_ses_rx_msg *m,
		     struct uet_ses_recv_op *r)
{
	uet_dlist_remove(&m->entry);
	uet_dlist_insert_tail(&m->ep->active, &m->entry);
	if (m->ubuf_len)
		uet_ses_iov_copy_in(r->iov, r->iovcnt, 0, m->ubuf,
				    m->ubuf_len);
	free(m->ubuf);
	m->ubuf = NULL;
	if (m->on_unexp)
		uet_ses_unexp_account(ses, -(int64_t)m->ubuf_len, -1);
	m->ubuf_len = 0;
	m->on_unexp = false;
	m->recv = r;
	uet_ses_recv_matched(ses, r, m->key);
	if (m->rdzv)
		uet_ses_pull_start(ses, m);
	uet_ses_rx_check(ses, m);
}

static struct uet_ses_rx_msg *ses_find_claimed(struct uet_ses_ep *ep,
					       uint64_t claim_id)
{
	struct uet_ses_rx_msg *m;

	uet_dlist_foreach_entry(&ep->unexp, m, entry)
		if (m->claimed && m->claim_id == claim_id)
			return m;
	return NULL;
}

/* Post a multi-receive buffer: it takes the unexpected messages that
 * match, in order, while they fit, then stays posted unless retired. */
static void ses_mr_post(struct uet_ses *ses, struct uet_ses_recv_op *r)
{
	struct uet_ses_recv_op *c;
	struct uet_ses_rx_msg *m;

	r->posted = true;
	uet_dlist_insert_tail(&r->ep->posted, &r->entry);
	uet_dlist_foreach_entry_safe(&r->ep->unexp, m, entry) {
		if (r->retired)
			return;
		if (m->claimed || !ses_recv_match(r, m->tagged, m->tag,
						  m->initiator, m->key))
			continue;
		if (!ses_recv_fits(r, m->total)) {
			uet_ses_mr_retire(ses, r, 0);
			return;
		}
		c = uet_ses_recv_take(ses, r, m->total);
		if (!c)
			return;		/* later messages find it posted */
		uet_ses_rx_bind(ses, m, c);
	}
	if (!r->retired)
		ses_mr_check_room(ses, r);
}

int uet_ses_recv(struct uet_ses *ses, const struct uet_ses_recv_req *req,
		 uint64_t now)
{
	struct uet_ses_recv_op *r;
	struct uet_ses_rx_msg *m;
	struct uet_ses_ep *ep;
	int ret;

	if (!ses || !req || !req->ep || req->ep->ses != ses)
		return -EINVAL;
	if (ses->closing || ses->zombie)
		return -EINVAL;
	if (req->directed && req->src.fa.len > sizeof(req->src.fa.ss))
		return -EINVAL;
	if (req->multi && (req->iovcnt != 1 || req->claim))
		return -EINVAL;
	ep = req->ep;
	uet_ses_set_now(ses, now);
	uet_ses_enter(ses);

	r = uet_ses_obj_alloc(ses, UET_SES_OBJ_RECV);
	if (!r) {
		ret = -EAGAIN;
		goto out;
	}
	ret = uet_ses_iov_dup(req->iov, req->iovcnt, r->iov_inline, &r->iov,
			      &r->len);
	if (ret) {
		r->iov = r->iov_inline;
		uet_ses_release(ses, &r->obj, false);
		goto out;
	}
	r->iovcnt = req->iovcnt;
	r->ep = ep;
	r->tagged = req->tagged;
	r->tag = req->tag;
	r->ignore = req->tagged ? req->ignore : 0;
	r->directed = req->directed;
	if (req->directed) {
		uet_link_addr_key(&req->src.fa, r->src_fa);
		r->src_initiator = uet_ses_initiator_id(req->src.pid_on_fep,
							req->src.ri);
	}
	r->op_ctx = req->op_ctx;
	r->cmpl.rc = UET_RC_OK;
	r->multi = req->multi;
	r->min_free = req->min_free;
	uet_dlist_init(&r->entry);
	uet_dlist_init(&r->centry);

	if (req->claim) {
		m = ses_find_claimed(ep, req->claim_id);
		if (!m) {
			uet_ses_release(ses, &r->obj, false);
			ret = -ENOMSG;
			goto out;
		}
		uet_ses_rx_bind(ses, m, r);
		goto push;
	}
	if (r->multi) {
		ses_mr_post(ses, r);
		goto push;
	}
	uet_dlist_foreach_entry(&ep->unexp, m, entry) {
		if (!m->claimed &&
		    ses_recv_match(r, m->tagged, m->tag, m->initiator,
				   m->key)) {
			uet_ses_rx_bind(ses, m, r);
			goto push;
		}
	}
	r->posted = true;
	uet_dlist_insert_tail(&ep->posted, &r->entry);
push:
	/* A held message whose turn has come may match r, or fit where an
	 * unexpected message left. */
	uet_ses_ord_release_all(ses);
	uet_ses_push(ses);
	ret = 0;
out:
	uet_ses_leave(ses);
	return ret;
}

int uet_ses_cancel(struct uet_ses *ses, struct uet_ses_ep *ep, void *op_ctx)
{
	struct uet_ses_recv_op *r;
	int ret = -ENOENT;

	if (!ses || !ep || ep->ses != ses)
		return -EINVAL;
	uet_ses_enter(ses);
	uet_dlist_foreach_entry(&ep->posted, r, entry) {
		if (r->op_ctx != op_ctx)
			continue;
		if (r->multi) {
			uet_ses_mr_retire(ses, r, -ECANCELED);
			ret = 0;
			break;
		}
		uet_dlist_remove(&r->entry);
		r->posted = false;
		uet_ses_recv_complete(ses, r, -ECANCELED);
		ret = 0;
		break;
	}
	uet_ses_leave(ses);
	return ret;
}

/* ---- peek, claim, discard ---- */

/* Drop unexpected message m: what arrived is freed, what is still to
 * arrive of it is taken and forgotten, a rendezvous initiator is told
 * the message is done (nothing pulled). */
static void ses_rx_discard(struct uet_ses *ses, struct uet_ses_rx_msg *m)
{
	uet_dlist_remove(&m->entry);
	uet_ses_unexp_account(ses, -(int64_t)m->ubuf_len, -1);
	m->on_unexp = false;
	m->claimed = false;
	free(m->ubuf);
	m->ubuf = NULL;
	m->ubuf_len = 0;
	if (m->som_seen && m->rcvd >= m->need) {
		if (m->rdzv)
			uet_ses_notice_send(ses, m, UET_RC_OK, 0);
		uet_ses_release(ses, &m->obj, false);
		return;
	}
	m->discard = true;
	uet_dlist_insert_tail(&m->ep->active, &m->entry);
}

int uet_ses_peek(struct uet_ses *ses, const struct uet_ses_peek_req *req,
		 struct uet_ses_recv_cmpl *out, uint64_t now)
{
	struct uet_ses_recv_op t;
	struct uet_ses_rx_msg *m;
	int ret = -ENOMSG;

	if (!ses || !req || !out || !req->ep || req->ep->ses != ses ||
	    (req->claim && req->discard))
		return -EINVAL;
	if (req->directed && req->src.fa.len > sizeof(req->src.fa.ss))
		return -EINVAL;
	memset(&t, 0, sizeof(t));
	t.tagged = req->tagged;
	t.tag = req->tag;
	t.ignore = req->tagged ? req->ignore : 0;
	t.directed = req->directed;
	if (req->directed) {
		uet_link_addr_key(&req->src.fa, t.src_fa);
		t.src_initiator = uet_ses_initiator_id(req->src.pid_on_fep,
						       req->src.ri);
	}
	uet_ses_set_now(ses, now);
	uet_ses_enter(ses);
	uet_dlist_foreach_entry(&req->ep->unexp, m, entry) {
		/* The first packet tells tag, length and header_data. */
		if (m->claimed || !m->som_seen ||
		    !ses_recv_match(&t, m->tagged, m->tag, m->initiator,
				    m->key))
			continue;
		ses_recv_fill(&t, m);
		t.cmpl.len = m->total;
		t.cmpl.rc = UET_RC_OK;
		*out = t.cmpl;
		if (req->claim) {
			m->claimed = true;
			m->claim_id = req->claim_id;
		} else if (req->discard) {
			ses_rx_discard(ses, m);
		}
		ret = 0;
		break;
	}
	uet_ses_push(ses);
	uet_ses_leave(ses);
	return ret;
}

int uet_ses_claim_discard(struct uet_ses *ses, struct uet_ses_ep *ep,
			  uint64_t claim_id, struct uet_ses_recv_cmpl *out,
			  uint64_t now)
{
	struct uet_ses_recv_op t;
	struct uet_ses_rx_msg *m;
	int ret = -ENOMSG;

	if (!ses || !ep || ep->ses != ses || !out)
		return -EINVAL;
	uet_ses_set_now(ses, now);
	uet_ses_enter(ses);
	m = ses_find_claimed(ep, claim_id);
	if (m) {
		memset(&t, 0, sizeof(t));
		ses_recv_fill(&t, m);
		t.cmpl.len = m->total;
		t.cmpl.rc = UET_RC_OK;
		*out = t.cmpl;
		ses_rx_discard(ses, m);
		ret = 0;
	}
	uet_ses_push(ses);
	uet_ses_leave(ses);
	return ret;
}
