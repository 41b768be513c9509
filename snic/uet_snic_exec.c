/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Command execution: the doorbell consumes the published command
 * segments of a queue, checks them against the messaging conventions of
 * uet_snic.h (docs/conformance.md E-3) and hands sends and receives to
 * SES.  Nothing a command says can crash the NIC: every decoding or
 * validation failure becomes an INVALID_DESCRIPTOR event (and an error
 * completion where the conventions ask for one).
 *
 * Data: INLINE payloads, inline SGL entries and everything an INJECT
 * sends are copied into NIC-owned buffers at doorbell time, so the
 * provider may reuse its memory as soon as the doorbell returns.
 * Indirect SGL entries of SEND and RECV are handed to SES as iovecs, zero
 * copy: that memory must stay valid until the command's completion.
 * Indirect addresses are taken as addresses in the provider's process
 * (the software NIC reads and writes them directly); memory keys of
 * indirect entries are not checked.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "uet_byteorder.h"
#include "uet_clock.h"
#include "uet_log.h"
#include "uet_pds.h"
#include "uet_snic_internal.h"
#include "uet_wire_consts.h"

/* The size of the NIC buffer that holds a copy of n bytes. */
static uint32_t snic_copy_size(uint64_t n)
{
	if (n <= UET_SNIC_BUF_SMALL)
		return UET_SNIC_BUF_SMALL;
	return n <= UET_SNIC_BUF_LARGE ? UET_SNIC_BUF_LARGE : UET_SNIC_BUF_BIG;
}

static struct uet_bufpool *snic_copy_pool(struct uet_snic_dev *dev,
					  uint32_t size)
{
	if (size == UET_SNIC_BUF_SMALL)
		return &dev->small_pool;
	return size == UET_SNIC_BUF_LARGE ? &dev->large_pool : &dev->big_pool;
}

void uet_snic_op_free_locked(struct uet_snic_dev *dev, struct uet_snic_op *op)
{
	if (op->buf)
		uet_bufpool_put(snic_copy_pool(dev, op->buf_size), op->buf);
	uet_bufpool_put(&dev->op_pool, op);
}

struct uet_snic_op *uet_snic_op_get_locked(struct uet_snic_queue *q,
					   uint8_t kind, uint64_t copy)
{
	struct uet_snic_dev *dev = q->dev;
	struct uet_snic_op *op;

	op = uet_bufpool_get(&dev->op_pool);
	if (!op)
		return NULL;
	memset(op, 0, sizeof(*op));
	uet_dlist_init(&op->entry);
	op->q = q;
	op->kind = kind;
	if (copy) {
		op->buf_size = snic_copy_size(copy);
		op->buf = uet_bufpool_get(snic_copy_pool(dev, op->buf_size));
		if (!op->buf) {
			uet_bufpool_put(&dev->op_pool, op);
			return NULL;
		}
	}
	return op;
}

int uet_snic_dest_locked(struct uet_snic_queue *q, uint64_t dest,
			 struct uet_ses_addr *out)
{
	struct uet_snic_peer *peer;

	if (dest & UET_HSI_DEST_RSVD_MASK)
		return -EINVAL;
	peer = uet_snic_peer_get_locked(q->dev, UET_HSI_DEST_PEER(dest));
	if (!peer)
		return -ENXIO;
	out->fa = peer->addr;
	out->job_id = q->dev->job_id;
	out->pid_on_fep = UET_HSI_DEST_PID(dest);
	out->ri = UET_HSI_DEST_RI(dest);
	return 0;
}

/* The data entries: the one embedded in the segment, then the extra
 * entries after the extension. */
int uet_snic_sgl_locked(struct uet_snic_queue *q, struct uet_snic_cmd *c)
{
	struct uet_snic_dev *dev = q->dev;
	unsigned int k, n = 0;
	ssize_t r;

	dev->sgl[n++] = c->seg.sgl;
	for (k = c->seg.ext ? 1 : 0; k < c->seg.sgl_count; k++) {
		r = uet_hsi_sgl_entry_decode(&dev->sgl[n],
				uet_hsi_cmdq_sgl(&q->cmdq, c->raw->idx, k),
				UET_HSI_SGL_ENTRY_LEN);
		if (r < 0)
			return (int)r;
		n++;
	}
	c->nsgl = n;
	return 0;
}

/* Merging with the previous piece when it is contiguous (the pieces of
 * a bounce buffer). */
void uet_snic_iov_add(struct iovec *iov, unsigned int *n, void *p,
		      size_t len)
{
	if (!len)
		return;
	if (*n && (uint8_t *)iov[*n - 1].iov_base + iov[*n - 1].iov_len ==
		  (uint8_t *)p) {
		iov[*n - 1].iov_len += len;
		return;
	}
	iov[*n].iov_base = p;
	iov[*n].iov_len = len;
	(*n)++;
}

int uet_snic_data_len(const struct uet_snic_dev *dev,
		      const struct uet_snic_cmd *c, enum uet_snic_copy mode,
		      uint64_t *total, uint64_t *copy)
{
	const struct uet_hsi_sgl_entry *e;
	unsigned int i;

	*total = *copy = 0;
	if (c->seg.data_src == UET_HSI_DATA_INLINE) {
		*total = *copy = c->seg.payload_len;
		return 0;
	}
	for (i = 0; i < c->nsgl; i++) {
		e = &dev->sgl[i];
		if (!e->is_inline && e->length && !e->address)
			return -EFAULT;
		if (e->is_inline || mode == UET_SNIC_COPY_ALL)
			*copy += e->length;
		*total += e->length;
	}
	return 0;
}

unsigned int uet_snic_data_iov(struct uet_snic_dev *dev,
			       const struct uet_snic_cmd *c,
			       enum uet_snic_copy mode, uint8_t *buf)
{
	const struct uet_hsi_sgl_entry *e;
	unsigned int i, niov = 0;

	if (c->seg.data_src == UET_HSI_DATA_INLINE) {
		/* An empty message has no NIC buffer (buf NULL). */
		if (c->seg.payload_len) {
			memcpy(buf, c->seg.inline_data, c->seg.payload_len);
			uet_snic_iov_add(dev->iov, &niov, buf,
					 c->seg.payload_len);
		}
		return niov;
	}
	for (i = 0; i < c->nsgl; i++) {
		e = &dev->sgl[i];
		if (!e->length)
			continue;
		if (!e->is_inline && mode != UET_SNIC_COPY_ALL) {
			uet_snic_iov_add(dev->iov, &niov,
					 (void *)(uintptr_t)e->address,
					 e->length);
			continue;
		}
		memcpy(buf, e->is_inline ? (const void *)e->inline_data :
			    (const void *)(uintptr_t)e->address, e->length);
		uet_snic_iov_add(dev->iov, &niov, buf, e->length);
		buf += e->length;
	}
	return niov;
}

int uet_snic_submit_locked(struct uet_snic_queue *q, struct uet_snic_op *op,
			   const struct uet_ses_send_req *sreq,
			   const struct uet_ses_recv_req *rreq,
			   const struct uet_ses_rma_req *mreq, uint64_t now)
{
	struct uet_snic_dev *dev = q->dev;
	bool tx = op->kind != UET_SNIC_OP_RECV;
	int ret;

	uet_dlist_insert_tail(&q->ops, &op->entry);
	if (tx)
		q->ntx++;
	if (sreq)
		ret = uet_ses_send(dev->ses, sreq, now);
	else if (rreq)
		ret = uet_ses_recv(dev->ses, rreq, now);
	else
		ret = uet_ses_rma(dev->ses, mreq, now);
	if (ret < 0) {
		if (tx)
			q->ntx--;
		uet_dlist_remove(&op->entry);
		uet_snic_op_free_locked(dev, op);
	}
	return ret;
}

/*
 * Returns 0 (done: submitted, or failed with a completion written),
 * -EAGAIN (SES full: retry the command later), or the negative reason of
 * an invalid descriptor.
 */
static int snic_exec_send_locked(struct uet_snic_queue *q, struct uet_snic_cmd *c,
				 uint64_t now)
{
	struct uet_snic_dev *dev = q->dev;
	const struct uet_hsi_cmd_seg *seg = &c->seg;
	const struct uet_hsi_cmd_ext *ext = &c->ext;
	struct uet_ses_send_req req;
	uint64_t total = 0, copy = 0;
	struct uet_snic_op *op;
	unsigned int niov;
	bool inject, gather, has_data;
	int ret;

	inject = seg->variant == UET_HSI_VARIANT_INJECT || seg->inject;
	/* UUD sends are one packet of at most UET_PDS_TX_MAX_IOV pieces:
	 * more SGL entries than that are gathered into a NIC buffer. */
	gather = inject || (q->mode == UET_PDS_MODE_UUD &&
			    seg->data_src == UET_HSI_DATA_SGL &&
			    seg->sgl_count - (seg->ext ? 1u : 0u) + 1u >
			    UET_PDS_TX_MAX_IOV);
	has_data = seg->remote_cq || (ext->ext_flags & UET_HSI_EXT_HAS_DATA);
	if ((ext->ext_flags & UET_HSI_EXT_DIRECTED) || ext->ignore)
		return -EINVAL;
	if ((has_data && !seg->ext) || (!has_data && ext->header_data))
		return -EINVAL;

	/* Every field of req is set below (no clear of its 140 bytes). */
	ret = uet_snic_dest_locked(q, seg->dest, &req.dst);
	if (ret)
		return ret;

	if (seg->data_src != UET_HSI_DATA_INLINE) {
		ret = uet_snic_sgl_locked(q, c);
		if (ret)
			return ret;
	}
	ret = uet_snic_data_len(dev, c, gather ? UET_SNIC_COPY_ALL :
				UET_SNIC_COPY_INLINE, &total, &copy);
	if (ret)
		return ret;
	if (total > UINT32_MAX || copy > UET_SNIC_INJECT_MAX)
		return -EMSGSIZE;

	op = uet_snic_op_get_locked(q, UET_SNIC_OP_SEND, copy);
	if (!op)
		return -EAGAIN;
	op->metadata = seg->metadata;
	/* INJECT: the data is ours already; the success completion is
	 * still written when asked for (counters). */
	op->completion = seg->completion;

	niov = uet_snic_data_iov(dev, c, gather ? UET_SNIC_COPY_ALL :
				 UET_SNIC_COPY_INLINE, op->buf);

	req.ep = q->ep;
	req.tagged = seg->family == UET_HSI_FAMILY_TAGGED;
	req.tag = seg->tag;
	req.has_data = has_data;
	req.header_data = has_data ? ext->header_data : 0;
	req.dc = !!(ext->ext_flags & UET_HSI_EXT_DC);
	/* INJECT_COMPLETE (E-3): an inject whose data the NIC copied may
	 * complete once held for retransmission. */
	req.held_ok = seg->inject && (seg->data_src == UET_HSI_DATA_INLINE ||
				      gather);
	req.iov = dev->iov;
	req.iovcnt = niov;
	req.op_ctx = op;
	ret = uet_snic_submit_locked(q, op, &req, NULL, NULL, now);
	if (ret == -EAGAIN || ret == -EINVAL)
		return ret;
	if (ret == UET_SES_SEND_HELD && q->held_later && op->completion) {
		/* Held at once; its completion is written once the datagram
		 * left (snic_send_first_locked). */
		q->held_due = true;
		q->held_md = op->metadata;
		q->held_len = (uint32_t)total;
		op->completion = false;
		op->held = true;
	} else if (ret == UET_SES_SEND_HELD) {
		uet_snic_send_held_locked(q, op, total);
	} else if (ret)
		uet_snic_cmd_error_locked(q, false, seg->metadata, ret);
	return 0;
}

/* CANCEL: the posted (unmatched) receive with the same metadata
 * completes with status CANCELED; nothing is written if there is none. */
static void snic_cancel_locked(struct uet_snic_queue *q, uint64_t metadata)
{
	struct uet_snic_op *op;

	uet_dlist_foreach_entry(&q->ops, op, entry) {
		if (op->kind != UET_SNIC_OP_RECV || op->metadata != metadata)
			continue;
		/* The completion may free op: stop at once. */
		if (!uet_ses_cancel(q->dev->ses, q->ep, op))
			return;
	}
}

/* PEEK (+ CLAIM or DISCARD), CLAIM|DISCARD: one receive notification. */
static int snic_peek_locked(struct uet_snic_queue *q, struct uet_snic_cmd *c,
			    const struct uet_ses_recv_req *rreq, uint64_t now)
{
	const struct uet_hsi_cmd_ext *ext = &c->ext;
	struct uet_ses_peek_req pr;
	struct uet_ses_recv_cmpl pc;
	int ret;

	memset(&pc, 0, sizeof(pc));
	if (!(ext->ext_flags & UET_HSI_EXT_PEEK)) {
		/* CLAIM|DISCARD */
		ret = uet_ses_claim_discard(q->dev->ses, q->ep,
					    ext->header_data, &pc, now);
	} else {
		memset(&pr, 0, sizeof(pr));
		pr.ep = q->ep;
		pr.tagged = rreq->tagged;
		pr.tag = c->seg.tag;
		pr.ignore = ext->ignore;
		pr.directed = rreq->directed;
		pr.src = rreq->src;
		pr.claim = !!(ext->ext_flags & UET_HSI_EXT_CLAIM);
		pr.claim_id = ext->header_data;
		pr.discard = !!(ext->ext_flags & UET_HSI_EXT_DISCARD);
		ret = uet_ses_peek(q->dev->ses, &pr, &pc, now);
	}
	if (ret && ret != -ENOMSG)
		return ret;
	if (ret)
		uet_snic_cmd_error_locked(q, true, c->seg.metadata, -ENOMSG);
	else
		uet_snic_recv_notify_locked(q, c->seg.metadata, &pc, 0, NULL,
					    0);
	return 0;
}

/* The ext_flags combinations a receive may carry; -EINVAL otherwise. */
static int snic_recv_flags_check(const struct uet_hsi_cmd_seg *seg,
				 const struct uet_hsi_cmd_ext *ext)
{
	uint32_t f = ext->ext_flags;
	bool peek = f & UET_HSI_EXT_PEEK, claim = f & UET_HSI_EXT_CLAIM;
	bool discard = f & UET_HSI_EXT_DISCARD;

	if (f & (UET_HSI_EXT_HAS_DATA | UET_HSI_EXT_DC))
		return -EINVAL;
	if ((f & UET_HSI_EXT_CANCEL) && f != UET_HSI_EXT_CANCEL)
		return -EINVAL;
	if (discard && !peek && !claim)
		return -EINVAL;
	if (peek && claim && discard)
		return -EINVAL;
	/* header_data is the claim id, nothing else */
	if (ext->header_data && !claim)
		return -EINVAL;
	if (f & UET_HSI_EXT_MULTI_RECV) {
		if (f != UET_HSI_EXT_MULTI_RECV ||
		    seg->family != UET_HSI_FAMILY_MSG)
			return -EINVAL;
		return 0;	/* ignore = the minimum free space */
	}
	if (ext->ignore && seg->family != UET_HSI_FAMILY_TAGGED)
		return -EINVAL;
	return 0;
}

static int snic_exec_recv_locked(struct uet_snic_queue *q, struct uet_snic_cmd *c,
				 uint64_t now)
{
	struct uet_snic_dev *dev = q->dev;
	const struct uet_hsi_cmd_seg *seg = &c->seg;
	const struct uet_hsi_cmd_ext *ext = &c->ext;
	uint32_t f = ext->ext_flags;
	struct uet_ses_recv_req req;
	struct uet_snic_op *op;
	unsigned int i, niov = 0;
	bool nodata;
	int ret;

	memset(&req, 0, sizeof(req));
	req.tagged = seg->family == UET_HSI_FAMILY_TAGGED;
	/* Commands that place no data may come without buffers. */
	nodata = (f & (UET_HSI_EXT_PEEK | UET_HSI_EXT_CANCEL |
		       UET_HSI_EXT_DISCARD));
	if ((seg->data_src != UET_HSI_DATA_SGL && !nodata) || seg->inject ||
	    seg->remote_cq)
		return -EINVAL;
	ret = snic_recv_flags_check(seg, ext);
	if (ret)
		return ret;
	if (f & UET_HSI_EXT_CANCEL) {
		snic_cancel_locked(q, seg->metadata);
		return 0;
	}
	if (f & UET_HSI_EXT_DIRECTED) {
		ret = uet_snic_dest_locked(q, seg->dest, &req.src);
		if (ret)
			return ret;
		req.directed = true;
	}
	if (nodata)
		return snic_peek_locked(q, c, &req, now);
	ret = uet_snic_sgl_locked(q, c);
	if (ret)
		return ret;
	for (i = 0; i < c->nsgl; i++) {
		const struct uet_hsi_sgl_entry *e = &dev->sgl[i];

		if (e->is_inline)
			return -EINVAL;
		if (e->length && !e->address)
			return -EFAULT;
		if (e->length) {
			dev->iov[niov].iov_base = (void *)(uintptr_t)e->address;
			dev->iov[niov].iov_len = e->length;
			niov++;
		}
	}
	/* A multi-receive buffer is one SGL entry, not empty. */
	if ((f & UET_HSI_EXT_MULTI_RECV) && (c->nsgl != 1 || niov != 1))
		return -EINVAL;

	op = uet_snic_op_get_locked(q, UET_SNIC_OP_RECV, 0);
	if (!op)
		return -EAGAIN;
	op->metadata = seg->metadata;
	op->completion = seg->completion;
	op->multi = !!(f & UET_HSI_EXT_MULTI_RECV);
	op->rx_first = niov ? dev->iov[0].iov_base : NULL;
	op->rx_first_len = niov ? dev->iov[0].iov_len : 0;

	req.ep = q->ep;
	req.tag = seg->tag;
	req.iov = dev->iov;
	req.iovcnt = niov;
	req.op_ctx = op;
	if (op->multi) {
		req.multi = true;
		req.min_free = ext->ignore;
	} else {
		req.ignore = ext->ignore;
	}
	if (f & UET_HSI_EXT_CLAIM) {
		req.claim = true;
		req.claim_id = ext->header_data;
	}
	ret = uet_snic_submit_locked(q, op, NULL, &req, NULL, now);
	if (ret == -EAGAIN || ret == -EINVAL)
		return ret;
	if (ret)
		uet_snic_cmd_error_locked(q, true, seg->metadata, ret);
	return 0;
}

/* Decode and execute one command: 0 (consume it) or -EAGAIN (keep it). */
static int snic_exec_locked(struct uet_snic_queue *q,
			    const struct uet_hsi_cmdq_cmd *cmd, uint64_t now)
{
	struct uet_snic_cmd c;
	ssize_t r;
	int ret;

	/* The segment is written whole by its decode. */
	memset(&c.ext, 0, sizeof(c.ext));
	c.nsgl = 0;
	c.raw = cmd;
	r = uet_hsi_cmd_seg_decode(&c.seg, cmd->seg, UET_HSI_CMD_SEG_LEN);
	if (r < 0) {
		ret = (int)r;
		goto bad;
	}
	/* the padding half of an odd last slot */
	if ((c.seg.sgl_count % UET_HSI_CMD_SGL_PER_SLOT) &&
	    !uet_bytes_are_zero(uet_hsi_cmdq_sgl(&q->cmdq, cmd->idx,
						 c.seg.sgl_count),
				UET_HSI_SGL_ENTRY_LEN)) {
		ret = UET_WIRE_ERESERVED;
		goto bad;
	}
	if (c.seg.ext) {
		r = uet_hsi_cmd_ext_decode(&c.ext,
				uet_hsi_cmdq_sgl(&q->cmdq, cmd->idx, 0),
				UET_HSI_CMD_EXT_LEN);
		if (r < 0) {
			ret = (int)r;
			goto bad;
		}
	}
	if (!q->ep) {
		ret = -ENOTCONN;	/* the endpoint could not be reopened */
		goto bad;
	}
	if (c.seg.family == UET_HSI_FAMILY_RMA ||
	    c.seg.family == UET_HSI_FAMILY_ATOMIC) {
		ret = uet_snic_exec_rma_locked(q, &c, now);
		if (ret == 0 || ret == -EAGAIN)
			return ret;
		goto bad;
	}
	if (c.seg.family != UET_HSI_FAMILY_MSG &&
	    c.seg.family != UET_HSI_FAMILY_TAGGED) {
		ret = -EOPNOTSUPP;
		goto bad;
	}
	/* the E-6 atomic bytes of the extension are 0 in messaging */
	if (c.seg.ext && (c.ext.amo_op || c.ext.amo_dtype || c.ext.nresult)) {
		ret = UET_WIRE_ERANGE;
		goto bad;
	}
	if (c.seg.variant == UET_HSI_VARIANT_RECV)
		ret = snic_exec_recv_locked(q, &c, now);
	else
		ret = snic_exec_send_locked(q, &c, now);
	if (ret == 0 || ret == -EAGAIN)
		return ret;
bad:
	uet_snic_bad_cmd_locked(q, cmd->idx, cmd->seg, ret, now);
	return 0;
}

/* A plain messaging receive or send (cancel and peek are receives): the
 * raw opcode, no FENCE.  Anything else, malformed included, is false. */
static bool snic_is_msg(const uint8_t *seg, bool recv)
{
	unsigned int op = uet_hsi_cmd_seg_opcode_of(seg);
	unsigned int family, variant;

	if ((op & UET_HSI_OP_RSVD_MASK) ||
	    (uet_hsi_cmd_seg_flags_of(seg) & UET_HSI_CMD_FLAG_FENCE))
		return false;
	family = (op & UET_HSI_OP_FAMILY_MASK) >> UET_HSI_OP_FAMILY_SHIFT;
	variant = (op & UET_HSI_OP_VARIANT_MASK) >> UET_HSI_OP_VARIANT_SHIFT;
	if (family != UET_HSI_FAMILY_MSG && family != UET_HSI_FAMILY_TAGGED)
		return false;
	return recv ? variant == UET_HSI_VARIANT_RECV :
		      variant == UET_HSI_VARIANT_SEND ||
		      variant == UET_HSI_VARIANT_INJECT;
}

/* The receives a send overtook, in order, each consumed once run: 0, or
 * -EAGAIN at the first that must wait.  Not inlined: bench/cpu.sh counts
 * it apart, as work after the datagram left. */
static __attribute__((noinline)) int
snic_recvs_after_locked(struct uet_snic_queue *q,
			const struct uet_hsi_cmdq_cmd *rx, unsigned int n,
			uint64_t now)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (snic_exec_locked(q, &rx[i], now) == -EAGAIN)
			return -EAGAIN;
		uet_hsi_cmdq_consume(&q->cmdq, &rx[i]);
		q->dev->st.cmds++;
	}
	return 0;
}


/*
 * The datagram out first (docs/software-nic.md "The send before the
 * receives"): a doorbell that publishes receives and then a send (under
 * manual progress a receive rings no doorbell of its own, so a reply
 * posted after its receive brings both) runs the send, flushes its
 * datagrams, writes its completion if it is held, then runs the
 * receives, in their order.  Equivalent: the
 * commands are of independent kinds, and nothing can arrive for the
 * receives meanwhile (the link is read only under the device lock, held
 * throughout).  head is the receive at the consumer index.  Returns 1
 * when the send and the receives ran (all consumed), -EAGAIN when the
 * send ran but a receive must wait (those before it consumed; the run
 * skips the send when it reaches it), 0 to run head the usual way.
 */
static int snic_send_first_locked(struct uet_snic_queue *q,
				   const struct uet_hsi_cmdq_cmd *head,
				   uint64_t now)
{
	struct uet_hsi_cmdq_cmd rx[UET_SNIC_SEND_FIRST_MAX], tx;
	struct uet_snic_dev *dev = q->dev;
	unsigned int n = 0;
	int ret;

	if (q->sent_ahead || q->ndeferred || !snic_is_msg(head->seg, true))
		return 0;
	rx[n++] = *head;
	for (;;) {
		if (uet_hsi_cmdq_after(&q->cmdq, &rx[n - 1], &tx))
			return 0;
		if (!snic_is_msg(tx.seg, true))
			break;
		if (n == UET_SNIC_SEND_FIRST_MAX)
			return 0;
		rx[n++] = tx;
	}
	if (!snic_is_msg(tx.seg, false))
		return 0;
	q->held_later = true;
	ret = snic_exec_locked(q, &tx, now);
	q->held_later = false;
	if (ret == -EAGAIN)
		return 0;
	dev->st.send_first++;
	dev->st.cmds++;
	uet_pds_batch_flush(dev->pds, now, !dev->ap.running);
	if (q->held_due) {
		q->held_due = false;
		dev->st.held_late++;
		uet_snic_send_ok_locked(q, q->held_md, q->held_len);
	}
	q->sent_ahead = true;
	q->sent_idx = tx.idx;
	if (snic_recvs_after_locked(q, rx, n, now))
		return -EAGAIN;
	uet_hsi_cmdq_consume(&q->cmdq, &tx);
	q->sent_ahead = false;
	return 1;
}

/* send_first: from a doorbell (the outermost PDS batch), where a send
 * behind receives may run first. */
static void snic_queue_run_locked(struct uet_snic_queue *q, uint64_t now,
				  bool send_first)
{
	struct uet_snic_dev *dev = q->dev;
	struct uet_hsi_cmdq_cmd cmd;
	bool was_waiting;
	int ret;

	uet_snic_assert_locked(dev);
	/* a fence still waiting from the last run is not counted again */
	was_waiting = q->fence_wait;
	q->stalled = false;
	q->fence_wait = false;
	for (;;) {
		/* Backpressure: stop while a ring's worth of notifications
		 * waits in the NIC (the provider is not reading them). */
		if (q->ndeferred >= q->notifq.depth)
			return;
		ret = uet_hsi_cmdq_next(&q->cmdq, &cmd);
		if (ret == -EAGAIN)
			return;
		if (q->sent_ahead && cmd.idx == q->sent_idx) {
			/* ran before the receives ahead of it */
			q->sent_ahead = false;
			uet_hsi_cmdq_consume(&q->cmdq, &cmd);
			continue;
		}
		/* FENCE (raw flag: even a malformed command waits): start
		 * only when every earlier send, RMA and atomic completed;
		 * the completion that makes ntx 0 sets q->stalled. */
		if (!ret && (uet_hsi_cmd_seg_peek_flags(cmd.seg,
		    UET_HSI_CMD_SEG_LEN) & UET_HSI_CMD_FLAG_FENCE) && q->ntx) {
			q->fence_wait = true;
			if (!was_waiting)
				dev->st.fence_waits++;
			return;
		}
		if (ret) {
			/* -EPROTO: sgl_count runs past the doorbell */
			uet_snic_bad_cmd_locked(q, cmd.idx, cmd.seg, ret, now);
		} else if (send_first &&
			   (ret = snic_send_first_locked(q, &cmd, now))) {
			if (ret == 1)
				continue;	/* consumed */
			q->stalled = true;
			return;
		} else if (snic_exec_locked(q, &cmd, now) == -EAGAIN) {
			q->stalled = true;
			return;
		}
		uet_hsi_cmdq_consume(&q->cmdq, &cmd);
		dev->st.cmds++;
	}
}

void uet_snic_queue_run_locked(struct uet_snic_queue *q, uint64_t now)
{
	snic_queue_run_locked(q, now, false);
}

int uet_snic_doorbell_at(struct uet_hsi_queue *pq, uint64_t now)
{
	struct uet_snic_queue *q;
	struct uet_snic_dev *dev;

	if (!pq)
		return -EINVAL;
	q = uet_snic_queue_of(pq);
	dev = q->dev;
	pthread_mutex_lock(&dev->lock);
	if (now > dev->now)
		dev->now = now;
	dev->st.doorbells++;
	atomic_store_explicit(&dev->app_ns, now, memory_order_relaxed);
	uet_pds_batch_begin(dev->pds);
	uet_snic_flush_locked(q);
	snic_queue_run_locked(q, now, true);
	/* Under manual progress the caller comes back to progress. */
	if (dev->ap.running)
		uet_pds_batch_end(dev->pds, now);
	else
		uet_pds_batch_end_tx(dev->pds, now);
	uet_snic_rearm_locked(dev, now);
	pthread_mutex_unlock(&dev->lock);
	return 0;
}

int uet_snic_doorbell(struct uet_hsi_queue *q)
{
	return uet_snic_doorbell_at(q, uet_clock_now_ns());
}
