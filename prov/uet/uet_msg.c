/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The messaging data path: every fi_send/fi_tsend/fi_recv/fi_trecv
 * variant becomes one HSI command (segment + extension + SGL entries) in
 * the endpoint's command ring, followed by a doorbell (held back while
 * the application passes FI_MORE).  Completions come back through the
 * notification ring (uet_ep_progress.c).
 *
 * Encoding (snic/uet_snic.h, docs/conformance.md E-3..E-5):
 *   payload <= 32 bytes  INLINE in the segment (copied now)
 *   larger               SGL: the segment's entry + one entry per iovec
 *   FI_INJECT            variant INJECT: the device copies the data when
 *                        the doorbell rings (rung at once for injects)
 *   extension entry      header_data (FI_REMOTE_CQ_DATA), dc
 *                        (FI_DELIVERY_COMPLETE), ignore bits, directed
 *                        receive, peek/claim/discard, multi-receive,
 *                        cancel
 *   metadata             the index of the operation in the ep's table
 */
#include "config.h"

#include <string.h>

#include "uet_prov.h"

#define UET_TX_FLAGS	(FI_COMPLETION | FI_INJECT | FI_REMOTE_CQ_DATA | \
			 FI_INJECT_COMPLETE | FI_TRANSMIT_COMPLETE |	\
			 FI_DELIVERY_COMPLETE | FI_MORE | FI_FENCE |	\
			 FI_MATCH_COMPLETE)
/* The completion levels an application can ask for.  Without one, a send
 * of at most inject_size bytes is copied by the NIC (INJECT) and may
 * complete once the NIC holds it for retransmission: inject complete,
 * which libfabric allows when no level is requested (fi_uet(7)). */
#define UET_TX_LEVELS	(FI_TRANSMIT_COMPLETE | FI_DELIVERY_COMPLETE |	\
			 FI_MATCH_COMPLETE)
#define UET_RX_FLAGS	(FI_COMPLETION | FI_MULTI_RECV | FI_PEEK |	\
			 FI_CLAIM | FI_DISCARD | FI_MORE)

static struct uet_ep *uet_ep_of(struct fid_ep *fid)
{
	return uet_container_of(fid, struct uet_ep, fid);
}

void uet_ep_ring_locked(struct uet_ep *ep)
{
	int ret;

	uet_hsi_cmdq_doorbell(ep->q->cmdq);
	ep->doorbell_pending = false;
	ret = ep->domain->ops->doorbell(ep->q);
	if (ret < 0)
		UET_WARN_ONCE(FI_LOG_EP_DATA, "doorbell: %s\n",
			      fi_strerror(-ret));
}

int uet_ep_post_locked(struct uet_ep *ep, struct uet_hsi_cmd_seg *seg,
		       const struct uet_hsi_cmd_ext *ext,
		       const struct iovec *iov, size_t count, bool sgl_data,
		       const struct iovec *extra, size_t nextra,
		       uint64_t flags)
{
	struct uet_hsi_sgl_entry sgl[2 * UET_IOV_LIMIT + 1];
	unsigned int n = 0;
	size_t i;
	int ret;

	if (count > UET_IOV_LIMIT || nextra > UET_IOV_LIMIT)
		return -FI_EINVAL;
	if (ext) {
		uet_hsi_cmd_ext_to_sgl(&sgl[n++], ext);
		seg->ext = true;
	}
	if (sgl_data) {
		seg->data_src = UET_HSI_DATA_SGL;
		seg->sgl.is_inline = false;
		seg->sgl.address = count ? (uint64_t)(uintptr_t)iov[0].iov_base
				   : 0;
		seg->sgl.length = count ? uet_sgl_len(iov[0].iov_len) : 0;
		for (i = 1; i < count; i++) {
			memset(&sgl[n], 0, sizeof(sgl[n]));
			sgl[n].address = (uint64_t)(uintptr_t)iov[i].iov_base;
			sgl[n].length = uet_sgl_len(iov[i].iov_len);
			n++;
		}
	}
	for (i = 0; i < nextra; i++) {
		memset(&sgl[n], 0, sizeof(sgl[n]));
		sgl[n].address = (uint64_t)(uintptr_t)extra[i].iov_base;
		sgl[n].length = uet_sgl_len(extra[i].iov_len);
		n++;
	}
	seg->sgl_count = (uint8_t)n;
	ret = uet_hsi_cmdq_post(ep->q->cmdq, seg, sgl, n);
	if (ret == -EAGAIN) {
		if (ep->doorbell_pending)
			uet_ep_ring_locked(ep);
		uet_ep_progress_locked(ep);
		return -FI_EAGAIN;
	}
	if (ret) {
		UET_WARN(FI_LOG_EP_DATA, "posting a command: %s\n",
			 fi_strerror(-ret));
		return ret;
	}
	if ((flags & FI_MORE) && !(flags & FI_INJECT))
		ep->doorbell_pending = true;
	else
		uet_ep_ring_locked(ep);
	return 0;
}

/* The bytes of iov, SIZE_MAX when the sum does not fit. */
size_t uet_iov_len(const struct iovec *iov, size_t count)
{
	size_t i, len = 0;

	for (i = 0; i < count; i++) {
		if (iov[i].iov_len > SIZE_MAX - len)
			return SIZE_MAX;
		len += iov[i].iov_len;
	}
	return len;
}

/* No entry has bytes without an address.  Lengths are checked against
 * max_msg_size by transmits (-FI_EMSGSIZE); a receive buffer may be
 * larger than any message, its SGL entries say 4 GiB - 1 at most
 * (uet_sgl_len). */
bool uet_iov_valid(const struct iovec *iov, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++) {
		if (iov[i].iov_len && !iov[i].iov_base)
			return false;
	}
	return true;
}

struct uet_op *uet_ep_tx_op_locked(struct uet_ep *ep, int *ret)
{
	struct uet_op *op;

	if (ep->tx_inflight >= ep->tx_max) {
		uet_ep_progress_locked(ep);
		if (ep->tx_inflight >= ep->tx_max) {
			*ret = -FI_EAGAIN;
			return NULL;
		}
	}
	op = uet_op_alloc(ep, UET_OP_TX);
	if (!op)
		*ret = -FI_EAGAIN;
	return op;
}

/* UET_SEND_NOCQ: fi_inject / fi_injectdata, which never write a CQ entry
 * (fi_sendmsg with FI_INJECT does, when asked). */
#define UET_SEND_NOCQ	true

static ssize_t uet_ep_send(struct uet_ep *ep, const struct iovec *iov,
			   size_t count, fi_addr_t dest_addr, void *context,
			   uint64_t flags, bool tagged, uint64_t tag,
			   uint64_t data, bool nocq)
{
	struct uet_hsi_cmd_seg seg;
	struct uet_hsi_cmd_ext ext;
	bool use_ext = false;
	struct uet_op *op;
	uint64_t dest;
	size_t len, i, off;
	bool copy;
	int ret;

	if (count > UET_IOV_LIMIT || (count && !iov) ||
	    !uet_iov_valid(iov, count))
		return -FI_EINVAL;
	if (flags & ~(uint64_t)UET_TX_FLAGS)
		return -FI_EBADFLAGS;
	len = uet_iov_len(iov, count);
	if (len > (tagged ? ep->max_msg_size : ep->msg_max_size))
		return -FI_EMSGSIZE;
	if ((flags & FI_INJECT) &&
	    len > (tagged ? ep->inject_size : ep->msg_inject_size))
		return -FI_EMSGSIZE;
	if (!ep->enabled)
		return -FI_EOPBADSTATE;

	memset(&seg, 0, sizeof(seg));
	memset(&ext, 0, sizeof(ext));
	seg.family = tagged ? UET_HSI_FAMILY_TAGGED : UET_HSI_FAMILY_MSG;
	copy = (flags & FI_INJECT) ||
	       (!(flags & UET_TX_LEVELS) &&
		len <= (tagged ? ep->inject_size : ep->msg_inject_size));
	seg.variant = copy && len > UET_HSI_CMD_INLINE_MAX ?
		      UET_HSI_VARIANT_INJECT : UET_HSI_VARIANT_SEND;
	seg.completion = true;	/* counters and op slots need every one */
	seg.inject = copy && !(flags & UET_TX_LEVELS);
	seg.fence = flags & FI_FENCE;
	seg.payload_len = len > UINT16_MAX ? 0 : (uint16_t)len;
	seg.tag = tag;
	if (flags & FI_REMOTE_CQ_DATA) {
		seg.remote_cq = true;
		ext.header_data = data;
		ext.ext_flags |= UET_HSI_EXT_HAS_DATA;
		use_ext = true;
	}
	if (flags & FI_DELIVERY_COMPLETE) {
		ext.ext_flags |= UET_HSI_EXT_DC;
		use_ext = true;
	}

	pthread_mutex_lock(&ep->lock);
	ret = uet_av_dest(ep->av, dest_addr, &dest);
	if (ret) {
		pthread_mutex_unlock(&ep->lock);
		return -FI_EINVAL;
	}
	seg.dest = dest;
	op = uet_ep_tx_op_locked(ep, &ret);
	if (!op) {
		pthread_mutex_unlock(&ep->lock);
		return ret;
	}
	op->context = context;
	op->flags = FI_SEND | (tagged ? FI_TAGGED : FI_MSG);
	op->report = !nocq && (!ep->tx_selective || (flags & FI_COMPLETION));
	op->silent = nocq;
	op->len = len;
	seg.metadata = uet_op_index(ep, op);
	if (len <= UET_HSI_CMD_INLINE_MAX) {
		seg.data_src = UET_HSI_DATA_INLINE;
		seg.payload_len = (uint16_t)len;
		for (i = 0, off = 0; i < count; i++) {
			if (iov[i].iov_len)
				memcpy(seg.inline_data + off,
				       iov[i].iov_base, iov[i].iov_len);
			off += iov[i].iov_len;
		}
		ret = uet_ep_post_locked(ep, &seg, use_ext ? &ext : NULL,
					 NULL, 0, false, NULL, 0, flags);
	} else {
		ret = uet_ep_post_locked(ep, &seg, use_ext ? &ext : NULL,
					 iov, count, true, NULL, 0, flags);
	}
	if (ret)
		uet_op_free(ep, op);
	else
		ep->tx_inflight++;
	pthread_mutex_unlock(&ep->lock);
	return ret;
}

static ssize_t uet_ep_recv(struct uet_ep *ep, const struct iovec *iov,
			   size_t count, fi_addr_t src_addr, void *context,
			   uint64_t flags, bool tagged, uint64_t tag,
			   uint64_t ignore)
{
	struct uet_hsi_cmd_seg seg;
	struct uet_hsi_cmd_ext ext;
	bool use_ext = false;
	struct uet_op *op;
	uint64_t dest = 0;
	int ret;

	if (count > UET_IOV_LIMIT || (count && !iov) ||
	    !uet_iov_valid(iov, count))
		return -FI_EINVAL;
	if (flags & ~(uint64_t)UET_RX_FLAGS)
		return -FI_EBADFLAGS;
	if ((flags & (FI_PEEK | FI_CLAIM | FI_DISCARD)) && !tagged)
		return -FI_EOPNOTSUPP;
	if ((flags & FI_DISCARD) && !(flags & (FI_PEEK | FI_CLAIM)))
		return -FI_EINVAL;
	if ((flags & FI_MULTI_RECV) &&
	    (tagged || !(ep->caps & FI_MULTI_RECV) || count != 1))
		return -FI_EINVAL;
	if (!ep->enabled)
		return -FI_EOPBADSTATE;

	memset(&seg, 0, sizeof(seg));
	memset(&ext, 0, sizeof(ext));
	seg.family = tagged ? UET_HSI_FAMILY_TAGGED : UET_HSI_FAMILY_MSG;
	seg.variant = UET_HSI_VARIANT_RECV;
	seg.completion = true;
	seg.tag = tag;
	if (tagged && ignore) {
		ext.ignore = ignore;
		use_ext = true;
	}
	if (flags & FI_PEEK) {
		ext.ext_flags |= UET_HSI_EXT_PEEK;
		use_ext = true;
	}
	if (flags & FI_CLAIM) {
		ext.ext_flags |= UET_HSI_EXT_CLAIM;
		ext.header_data = (uint64_t)(uintptr_t)context;
		use_ext = true;
	}
	if (flags & FI_DISCARD)
		ext.ext_flags |= UET_HSI_EXT_DISCARD;
	if (flags & FI_MULTI_RECV) {
		ext.ext_flags |= UET_HSI_EXT_MULTI_RECV;
		ext.ignore = ep->min_multi_recv;
		use_ext = true;
	}

	pthread_mutex_lock(&ep->lock);
	if ((ep->caps & FI_DIRECTED_RECV) && src_addr != FI_ADDR_UNSPEC &&
	    !(flags & FI_CLAIM)) {
		ret = uet_av_dest(ep->av, src_addr, &dest);
		if (ret) {
			pthread_mutex_unlock(&ep->lock);
			return -FI_EINVAL;
		}
		ext.ext_flags |= UET_HSI_EXT_DIRECTED;
		use_ext = true;
	}
	seg.dest = dest;
	/* No -FI_EAGAIN at rx_attr->size: a posted receive waits for its
	 * message, and an application may post any number before the
	 * sender starts (MPI: MPICH's rma/test5 posts 2,000 through osc
	 * pt2pt).  The table grows up to UET_OP_MAX. */
	op = uet_op_alloc(ep, (flags & FI_PEEK) ? UET_OP_PEEK : UET_OP_RX);
	if (!op) {
		pthread_mutex_unlock(&ep->lock);
		return -FI_EAGAIN;
	}
	op->context = context;
	op->flags = FI_RECV | (tagged ? FI_TAGGED : FI_MSG) |
		    (flags & FI_MULTI_RECV);
	op->report = (flags & FI_PEEK) || !ep->rx_selective ||
		     (flags & FI_COMPLETION);
	op->buf = count ? iov[0].iov_base : NULL;
	op->len = uet_sgl_len(uet_iov_len(iov, count));
	seg.metadata = uet_op_index(ep, op);
	if (flags & FI_PEEK) {
		/* Peeks place no data: the inline source with no bytes. */
		seg.data_src = UET_HSI_DATA_INLINE;
		ret = uet_ep_post_locked(ep, &seg, &ext, NULL, 0, false,
					 NULL, 0, flags);
	} else {
		ret = uet_ep_post_locked(ep, &seg, use_ext ? &ext : NULL, iov,
					 count, true, NULL, 0, flags);
	}
	if (ret)
		uet_op_free(ep, op);
	else if (op->kind == UET_OP_RX)
		ep->rx_inflight++;
	pthread_mutex_unlock(&ep->lock);
	return ret;
}

int uet_ep_post_cancel_locked(struct uet_ep *ep, struct uet_op *op)
{
	struct uet_hsi_cmd_seg seg;
	struct uet_hsi_cmd_ext ext;

	memset(&seg, 0, sizeof(seg));
	memset(&ext, 0, sizeof(ext));
	seg.family = (op->flags & FI_TAGGED) ? UET_HSI_FAMILY_TAGGED :
		     UET_HSI_FAMILY_MSG;
	seg.variant = UET_HSI_VARIANT_RECV;
	seg.data_src = UET_HSI_DATA_INLINE;
	seg.metadata = uet_op_index(ep, op);
	ext.ext_flags = UET_HSI_EXT_CANCEL;
	return uet_ep_post_locked(ep, &seg, &ext, NULL, 0, false, NULL, 0,
				  0);
}

/* ---- fi_ops_msg ---- */

static ssize_t uet_msg_send(struct fid_ep *fid, const void *buf, size_t len,
			    void *desc, fi_addr_t dest_addr, void *context)
{
	struct uet_ep *ep = uet_ep_of(fid);
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	(void)desc;
	return uet_ep_send(ep, &iov, 1, dest_addr, context, ep->tx_op_flags,
			   false, 0, 0, false);
}

static ssize_t uet_msg_sendv(struct fid_ep *fid, const struct iovec *iov,
			     void **desc, size_t count, fi_addr_t dest_addr,
			     void *context)
{
	struct uet_ep *ep = uet_ep_of(fid);

	(void)desc;
	return uet_ep_send(ep, iov, count, dest_addr, context,
			   ep->tx_op_flags, false, 0, 0, false);
}

static ssize_t uet_msg_sendmsg(struct fid_ep *fid, const struct fi_msg *msg,
			       uint64_t flags)
{
	if (!msg)
		return -FI_EINVAL;
	return uet_ep_send(uet_ep_of(fid), msg->msg_iov, msg->iov_count,
			   msg->addr, msg->context, flags, false, 0,
			   msg->data, false);
}

static ssize_t uet_msg_inject(struct fid_ep *fid, const void *buf,
			      size_t len, fi_addr_t dest_addr)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	return uet_ep_send(uet_ep_of(fid), &iov, 1, dest_addr, NULL,
			   FI_INJECT, false, 0, 0, UET_SEND_NOCQ);
}

static ssize_t uet_msg_senddata(struct fid_ep *fid, const void *buf,
				size_t len, void *desc, uint64_t data,
				fi_addr_t dest_addr, void *context)
{
	struct uet_ep *ep = uet_ep_of(fid);
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	(void)desc;
	return uet_ep_send(ep, &iov, 1, dest_addr, context,
			   ep->tx_op_flags | FI_REMOTE_CQ_DATA, false, 0,
			   data, false);
}

static ssize_t uet_msg_injectdata(struct fid_ep *fid, const void *buf,
				  size_t len, uint64_t data,
				  fi_addr_t dest_addr)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	return uet_ep_send(uet_ep_of(fid), &iov, 1, dest_addr, NULL,
			   FI_INJECT | FI_REMOTE_CQ_DATA, false, 0, data,
			   UET_SEND_NOCQ);
}

static ssize_t uet_msg_recv(struct fid_ep *fid, void *buf, size_t len,
			    void *desc, fi_addr_t src_addr, void *context)
{
	struct uet_ep *ep = uet_ep_of(fid);
	struct iovec iov = { .iov_base = buf, .iov_len = len };

	(void)desc;
	return uet_ep_recv(ep, &iov, 1, src_addr, context, ep->rx_op_flags,
			   false, 0, 0);
}

static ssize_t uet_msg_recvv(struct fid_ep *fid, const struct iovec *iov,
			     void **desc, size_t count, fi_addr_t src_addr,
			     void *context)
{
	struct uet_ep *ep = uet_ep_of(fid);

	(void)desc;
	return uet_ep_recv(ep, iov, count, src_addr, context,
			   ep->rx_op_flags, false, 0, 0);
}

static ssize_t uet_msg_recvmsg(struct fid_ep *fid, const struct fi_msg *msg,
			       uint64_t flags)
{
	if (!msg)
		return -FI_EINVAL;
	return uet_ep_recv(uet_ep_of(fid), msg->msg_iov, msg->iov_count,
			   msg->addr, msg->context, flags, false, 0, 0);
}

struct fi_ops_msg uet_ep_msg_ops = {
	.size = sizeof(struct fi_ops_msg),
	.recv = uet_msg_recv,
	.recvv = uet_msg_recvv,
	.recvmsg = uet_msg_recvmsg,
	.send = uet_msg_send,
	.sendv = uet_msg_sendv,
	.sendmsg = uet_msg_sendmsg,
	.inject = uet_msg_inject,
	.senddata = uet_msg_senddata,
	.injectdata = uet_msg_injectdata,
};

/* ---- fi_ops_tagged ---- */

static ssize_t uet_tag_send(struct fid_ep *fid, const void *buf, size_t len,
			    void *desc, fi_addr_t dest_addr, uint64_t tag,
			    void *context)
{
	struct uet_ep *ep = uet_ep_of(fid);
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	(void)desc;
	return uet_ep_send(ep, &iov, 1, dest_addr, context, ep->tx_op_flags,
			   true, tag, 0, false);
}

static ssize_t uet_tag_sendv(struct fid_ep *fid, const struct iovec *iov,
			     void **desc, size_t count, fi_addr_t dest_addr,
			     uint64_t tag, void *context)
{
	struct uet_ep *ep = uet_ep_of(fid);

	(void)desc;
	return uet_ep_send(ep, iov, count, dest_addr, context,
			   ep->tx_op_flags, true, tag, 0, false);
}

static ssize_t uet_tag_sendmsg(struct fid_ep *fid,
			       const struct fi_msg_tagged *msg, uint64_t flags)
{
	if (!msg)
		return -FI_EINVAL;
	return uet_ep_send(uet_ep_of(fid), msg->msg_iov, msg->iov_count,
			   msg->addr, msg->context, flags, true, msg->tag,
			   msg->data, false);
}

static ssize_t uet_tag_inject(struct fid_ep *fid, const void *buf,
			      size_t len, fi_addr_t dest_addr, uint64_t tag)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	return uet_ep_send(uet_ep_of(fid), &iov, 1, dest_addr, NULL,
			   FI_INJECT, true, tag, 0, UET_SEND_NOCQ);
}

static ssize_t uet_tag_senddata(struct fid_ep *fid, const void *buf,
				size_t len, void *desc, uint64_t data,
				fi_addr_t dest_addr, uint64_t tag,
				void *context)
{
	struct uet_ep *ep = uet_ep_of(fid);
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	(void)desc;
	return uet_ep_send(ep, &iov, 1, dest_addr, context,
			   ep->tx_op_flags | FI_REMOTE_CQ_DATA, true, tag,
			   data, false);
}

static ssize_t uet_tag_injectdata(struct fid_ep *fid, const void *buf,
				  size_t len, uint64_t data,
				  fi_addr_t dest_addr, uint64_t tag)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	return uet_ep_send(uet_ep_of(fid), &iov, 1, dest_addr, NULL,
			   FI_INJECT | FI_REMOTE_CQ_DATA, true, tag, data,
			   UET_SEND_NOCQ);
}

static ssize_t uet_tag_recv(struct fid_ep *fid, void *buf, size_t len,
			    void *desc, fi_addr_t src_addr, uint64_t tag,
			    uint64_t ignore, void *context)
{
	struct uet_ep *ep = uet_ep_of(fid);
	struct iovec iov = { .iov_base = buf, .iov_len = len };

	(void)desc;
	return uet_ep_recv(ep, &iov, 1, src_addr, context, ep->rx_op_flags,
			   true, tag, ignore);
}

static ssize_t uet_tag_recvv(struct fid_ep *fid, const struct iovec *iov,
			     void **desc, size_t count, fi_addr_t src_addr,
			     uint64_t tag, uint64_t ignore, void *context)
{
	struct uet_ep *ep = uet_ep_of(fid);

	(void)desc;
	return uet_ep_recv(ep, iov, count, src_addr, context,
			   ep->rx_op_flags, true, tag, ignore);
}

static ssize_t uet_tag_recvmsg(struct fid_ep *fid,
			       const struct fi_msg_tagged *msg, uint64_t flags)
{
	if (!msg)
		return -FI_EINVAL;
	return uet_ep_recv(uet_ep_of(fid), msg->msg_iov, msg->iov_count,
			   msg->addr, msg->context, flags, true, msg->tag,
			   msg->ignore);
}

struct fi_ops_tagged uet_ep_tagged_ops = {
	.size = sizeof(struct fi_ops_tagged),
	.recv = uet_tag_recv,
	.recvv = uet_tag_recvv,
	.recvmsg = uet_tag_recvmsg,
	.send = uet_tag_send,
	.sendv = uet_tag_sendv,
	.sendmsg = uet_tag_sendmsg,
	.inject = uet_tag_inject,
	.senddata = uet_tag_senddata,
	.injectdata = uet_tag_injectdata,
};
