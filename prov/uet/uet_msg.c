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
 *   device memory        (FI_HMEM with a runtime, uet_hmem.h) staged
 *                        through host bounce buffers: a send's copied
 *                        now, a receive's copied back at completion
 */
#include "config.h"

#include <string.h>

#include "uet_hmem.h"
#include "uet_post.h"
#include "uet_prov.h"

#define UET_TX_FLAGS	(FI_COMPLETION | FI_INJECT | FI_REMOTE_CQ_DATA | \
			 FI_INJECT_COMPLETE | FI_TRANSMIT_COMPLETE |	\
			 FI_DELIVERY_COMPLETE | FI_MORE | FI_FENCE |	\
			 FI_MATCH_COMPLETE)
/* The completion levels an application can ask for.  Without one, a send
 * of at most ep->copy_max bytes is copied by the NIC (INJECT) and may
 * complete once the NIC holds it for retransmission: inject complete,
 * which libfabric allows when no level is requested (fi_uet(7)). */
#define UET_TX_LEVELS	(FI_TRANSMIT_COMPLETE | FI_DELIVERY_COMPLETE |	\
			 FI_MATCH_COMPLETE)
#define UET_RX_FLAGS	(FI_COMPLETION | FI_MULTI_RECV | FI_PEEK |	\
			 FI_CLAIM | FI_DISCARD | FI_MORE)

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

/* One fi_send/fi_tsend/fi_recv/fi_trecv variant's arguments. */
struct uet_msg_req {
	uint64_t kind;			/* FI_MSG or FI_TAGGED */
	const struct iovec *iov;
	size_t count;
	fi_addr_t addr;			/* destination or source */
	void *context;
	uint64_t flags;
	uint64_t tag, ignore, data;
	unsigned int opts;		/* UET_POST_SILENT: fi_inject /
					 * fi_injectdata, which never write a
					 * CQ entry (fi_sendmsg with FI_INJECT
					 * does, when asked) */
};

static ssize_t uet_ep_send(struct uet_ep *ep, const struct uet_msg_req *m)
{
	bool tagged = m->kind == FI_TAGGED;
	struct iovec bounce[UET_IOV_LIMIT];
	struct uet_hmem_bounce *hb = NULL;
	const struct iovec *iov = m->iov;
	struct uet_post_cmd cmd;
	uint64_t flags = m->flags;
	size_t len;
	bool copy;
	int ret;

	if (m->count > UET_IOV_LIMIT || (m->count && !m->iov) ||
	    !uet_iov_valid(m->iov, m->count))
		return -FI_EINVAL;
	if (flags & ~(uint64_t)UET_TX_FLAGS)
		return -FI_EBADFLAGS;
	len = uet_iov_len(m->iov, m->count);
	if (len > (tagged ? ep->max_msg_size : ep->msg_max_size))
		return -FI_EMSGSIZE;
	if ((flags & FI_INJECT) &&
	    len > (tagged ? ep->inject_size : ep->msg_inject_size))
		return -FI_EMSGSIZE;
	if (ep->domain->hmem_dev) {
		ret = uet_hmem_stage_list(ep->domain->hmem_dev, &hb, &iov,
					  m->count, bounce, UET_HMEM_OUT);
		if (ret)
			return ret;
	}

	memset(&cmd, 0, sizeof(cmd));
	cmd.seg.family = tagged ? UET_HSI_FAMILY_TAGGED : UET_HSI_FAMILY_MSG;
	copy = (flags & FI_INJECT) ||
	       (!(flags & UET_TX_LEVELS) && len <= ep->copy_max);
	cmd.seg.variant = copy && len > UET_HSI_CMD_INLINE_MAX ?
			  UET_HSI_VARIANT_INJECT : UET_HSI_VARIANT_SEND;
	cmd.seg.completion = true;	/* counters and op slots need every one */
	cmd.seg.inject = copy && !(flags & UET_TX_LEVELS);
	cmd.seg.fence = flags & FI_FENCE;
	cmd.seg.payload_len = len > UINT16_MAX ? 0 : (uint16_t)len;
	cmd.seg.tag = m->tag;
	if (flags & FI_REMOTE_CQ_DATA) {
		cmd.seg.remote_cq = true;
		cmd.ext.header_data = m->data;
		cmd.ext.ext_flags |= UET_HSI_EXT_HAS_DATA;
		cmd.opts |= UET_POST_EXT;
	}
	if (flags & FI_DELIVERY_COMPLETE) {
		cmd.ext.ext_flags |= UET_HSI_EXT_DC;
		cmd.opts |= UET_POST_EXT;
	}
	cmd.data = len <= UET_HSI_CMD_INLINE_MAX ? UET_POST_DATA_INLINE :
		   UET_POST_DATA_SGL;
	cmd.iov = iov;
	cmd.count = m->count;
	cmd.flags = flags;

	return uet_post_tx(ep, &(struct uet_post_req){
		.dest_addr = m->addr, .context = m->context,
		.op_flags = FI_SEND | m->kind, .flags = flags,
		.opts = m->opts,
		.len = len, .cmd = &cmd, .ncmd = 1, .hb = hb });
}

static ssize_t uet_ep_recv(struct uet_ep *ep, const struct uet_msg_req *m)
{
	bool tagged = m->kind == FI_TAGGED;
	struct iovec bounce[UET_IOV_LIMIT];
	struct uet_hmem_bounce *hb = NULL;
	const struct iovec *iov = m->iov;
	uint64_t flags = m->flags;
	struct uet_post_cmd cmd;
	struct uet_op *op;
	uint64_t dest = 0;
	int ret;

	if (m->count > UET_IOV_LIMIT || (m->count && !m->iov) ||
	    !uet_iov_valid(m->iov, m->count))
		return -FI_EINVAL;
	if (flags & ~(uint64_t)UET_RX_FLAGS)
		return -FI_EBADFLAGS;
	if ((flags & (FI_PEEK | FI_CLAIM | FI_DISCARD)) && !tagged)
		return -FI_EOPNOTSUPP;
	if ((flags & FI_DISCARD) && !(flags & (FI_PEEK | FI_CLAIM)))
		return -FI_EINVAL;
	if ((flags & FI_MULTI_RECV) &&
	    (tagged || !(ep->caps & FI_MULTI_RECV) || m->count != 1))
		return -FI_EINVAL;

	memset(&cmd, 0, sizeof(cmd));
	cmd.seg.family = tagged ? UET_HSI_FAMILY_TAGGED : UET_HSI_FAMILY_MSG;
	cmd.seg.variant = UET_HSI_VARIANT_RECV;
	cmd.seg.completion = true;
	cmd.seg.tag = m->tag;
	if (tagged && m->ignore) {
		cmd.ext.ignore = m->ignore;
		cmd.opts |= UET_POST_EXT;
	}
	if (flags & FI_PEEK) {
		cmd.ext.ext_flags |= UET_HSI_EXT_PEEK;
		cmd.opts |= UET_POST_EXT;
	}
	if (flags & FI_CLAIM) {
		cmd.ext.ext_flags |= UET_HSI_EXT_CLAIM;
		cmd.ext.header_data = (uint64_t)(uintptr_t)m->context;
		cmd.opts |= UET_POST_EXT;
	}
	if (flags & FI_DISCARD)
		cmd.ext.ext_flags |= UET_HSI_EXT_DISCARD;
	if (flags & FI_MULTI_RECV) {
		cmd.ext.ext_flags |= UET_HSI_EXT_MULTI_RECV;
		cmd.ext.ignore = ep->min_multi_recv;
		cmd.opts |= UET_POST_EXT;
	}
	if (flags & FI_PEEK) {
		/* Peeks place no data. */
		cmd.data = UET_POST_DATA_NONE;
	} else {
		/* Device memory: the data lands in host bounce buffers,
		 * copied to the device at the completion. */
		if (ep->domain->hmem_dev) {
			ret = uet_hmem_stage_list(ep->domain->hmem_dev, &hb,
						  &iov, m->count, bounce,
						  UET_HMEM_IN);
			if (ret)
				return ret;
		}
		cmd.data = UET_POST_DATA_SGL;
		cmd.iov = iov;
		cmd.count = m->count;
	}
	cmd.flags = flags;

	uet_ep_lock(ep);
	if (!ep->enabled) {
		ret = -FI_EOPBADSTATE;
		goto unlock;
	}
	if ((ep->caps & FI_DIRECTED_RECV) && m->addr != FI_ADDR_UNSPEC &&
	    !(flags & FI_CLAIM)) {
		if (uet_av_dest(ep->av, m->addr, &dest)) {
			ret = -FI_EINVAL;
			goto unlock;
		}
		cmd.ext.ext_flags |= UET_HSI_EXT_DIRECTED;
		cmd.opts |= UET_POST_EXT;
	}
	cmd.seg.dest = dest;
	/* No -FI_EAGAIN at rx_attr->size: a posted receive waits for its
	 * message, and an application may post any number before the
	 * sender starts (MPI: MPICH's rma/test5 posts 2,000 through osc
	 * pt2pt).  The table grows up to UET_OP_MAX. */
	op = uet_op_alloc(ep, (flags & FI_PEEK) ? UET_OP_PEEK : UET_OP_RX);
	if (!op) {
		ret = -FI_EAGAIN;
		goto unlock;
	}
	op->context = m->context;
	op->flags = FI_RECV | m->kind | (flags & FI_MULTI_RECV);
	op->report = (flags & FI_PEEK) || !ep->rx_selective ||
		     (flags & FI_COMPLETION);
	op->buf = m->count ? m->iov[0].iov_base : NULL;
	op->len = uet_sgl_len(uet_iov_len(m->iov, m->count));
	op->hb = hb;
	hb = NULL;
	cmd.seg.metadata = uet_op_index(ep, op);
	ret = uet_post_cmd_locked(ep, &cmd);
	if (ret)
		uet_op_free(ep, op);
	else if (op->kind == UET_OP_RX)
		ep->rx_inflight++;
unlock:
	uet_ep_unlock(ep);
	uet_hmem_bounce_free(hb);
	return ret;
}

int uet_ep_post_cancel_locked(struct uet_ep *ep, struct uet_op *op)
{
	struct uet_post_cmd cmd;

	memset(&cmd, 0, sizeof(cmd));
	cmd.seg.family = (op->flags & FI_TAGGED) ? UET_HSI_FAMILY_TAGGED :
			 UET_HSI_FAMILY_MSG;
	cmd.seg.variant = UET_HSI_VARIANT_RECV;
	cmd.seg.metadata = uet_op_index(ep, op);
	cmd.ext.ext_flags = UET_HSI_EXT_CANCEL;
	cmd.opts = UET_POST_EXT;
	cmd.data = UET_POST_DATA_NONE;
	return uet_post_cmd_locked(ep, &cmd);
}

/*
 * The fi_ops_msg and fi_ops_tagged slots differ only in the request's
 * kind, tag and ignore: each fills a struct uet_msg_req and hands it to
 * one of these.  tx/rx add the endpoint's default op flags; the _buf
 * forms post one buffer.
 */
static ssize_t uet_req_tx(struct fid_ep *fid, struct uet_msg_req *r)
{
	struct uet_ep *ep = uet_ep_of(fid);

	r->flags |= ep->tx_op_flags;
	return uet_ep_send(ep, r);
}

static ssize_t uet_req_tx_buf(struct fid_ep *fid, const void *buf,
			      size_t len, struct uet_msg_req *r)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	r->iov = &iov;
	r->count = 1;
	return uet_req_tx(fid, r);
}

/* fi_inject / fi_injectdata: no context, no completion. */
static ssize_t uet_req_inject_buf(struct fid_ep *fid, const void *buf,
				  size_t len, struct uet_msg_req *r)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	r->iov = &iov;
	r->count = 1;
	r->flags |= FI_INJECT;
	r->opts = UET_POST_SILENT;
	return uet_ep_send(uet_ep_of(fid), r);
}

static ssize_t uet_req_rx(struct fid_ep *fid, struct uet_msg_req *r)
{
	struct uet_ep *ep = uet_ep_of(fid);

	r->flags |= ep->rx_op_flags;
	return uet_ep_recv(ep, r);
}

static ssize_t uet_req_rx_buf(struct fid_ep *fid, void *buf, size_t len,
			      struct uet_msg_req *r)
{
	struct iovec iov = { .iov_base = buf, .iov_len = len };

	r->iov = &iov;
	r->count = 1;
	return uet_req_rx(fid, r);
}

/* ---- fi_ops_msg ---- */

static ssize_t uet_msg_send(struct fid_ep *fid, const void *buf, size_t len,
			    void *desc, fi_addr_t dest_addr, void *context)
{
	(void)desc;
	return uet_req_tx_buf(fid, buf, len, &(struct uet_msg_req){
		.kind = FI_MSG, .addr = dest_addr, .context = context });
}

static ssize_t uet_msg_sendv(struct fid_ep *fid, const struct iovec *iov,
			     void **desc, size_t count, fi_addr_t dest_addr,
			     void *context)
{
	(void)desc;
	return uet_req_tx(fid, &(struct uet_msg_req){
		.kind = FI_MSG, .iov = iov, .count = count, .addr = dest_addr,
		.context = context });
}

static ssize_t uet_msg_sendmsg(struct fid_ep *fid, const struct fi_msg *msg,
			       uint64_t flags)
{
	if (!msg)
		return -FI_EINVAL;
	return uet_ep_send(uet_ep_of(fid), &(struct uet_msg_req){
		.kind = FI_MSG, .iov = msg->msg_iov, .count = msg->iov_count,
		.addr = msg->addr, .context = msg->context, .flags = flags,
		.data = msg->data });
}

static ssize_t uet_msg_inject(struct fid_ep *fid, const void *buf,
			      size_t len, fi_addr_t dest_addr)
{
	return uet_req_inject_buf(fid, buf, len, &(struct uet_msg_req){
		.kind = FI_MSG, .addr = dest_addr });
}

static ssize_t uet_msg_senddata(struct fid_ep *fid, const void *buf,
				size_t len, void *desc, uint64_t data,
				fi_addr_t dest_addr, void *context)
{
	(void)desc;
	return uet_req_tx_buf(fid, buf, len, &(struct uet_msg_req){
		.kind = FI_MSG, .addr = dest_addr, .context = context,
		.flags = FI_REMOTE_CQ_DATA, .data = data });
}

static ssize_t uet_msg_injectdata(struct fid_ep *fid, const void *buf,
				  size_t len, uint64_t data,
				  fi_addr_t dest_addr)
{
	return uet_req_inject_buf(fid, buf, len, &(struct uet_msg_req){
		.kind = FI_MSG, .addr = dest_addr,
		.flags = FI_REMOTE_CQ_DATA, .data = data });
}

static ssize_t uet_msg_recv(struct fid_ep *fid, void *buf, size_t len,
			    void *desc, fi_addr_t src_addr, void *context)
{
	(void)desc;
	return uet_req_rx_buf(fid, buf, len, &(struct uet_msg_req){
		.kind = FI_MSG, .addr = src_addr, .context = context });
}

static ssize_t uet_msg_recvv(struct fid_ep *fid, const struct iovec *iov,
			     void **desc, size_t count, fi_addr_t src_addr,
			     void *context)
{
	(void)desc;
	return uet_req_rx(fid, &(struct uet_msg_req){
		.kind = FI_MSG, .iov = iov, .count = count, .addr = src_addr,
		.context = context });
}

static ssize_t uet_msg_recvmsg(struct fid_ep *fid, const struct fi_msg *msg,
			       uint64_t flags)
{
	if (!msg)
		return -FI_EINVAL;
	return uet_ep_recv(uet_ep_of(fid), &(struct uet_msg_req){
		.kind = FI_MSG, .iov = msg->msg_iov, .count = msg->iov_count,
		.addr = msg->addr, .context = msg->context, .flags = flags });
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
	(void)desc;
	return uet_req_tx_buf(fid, buf, len, &(struct uet_msg_req){
		.kind = FI_TAGGED, .addr = dest_addr, .context = context,
		.tag = tag });
}

static ssize_t uet_tag_sendv(struct fid_ep *fid, const struct iovec *iov,
			     void **desc, size_t count, fi_addr_t dest_addr,
			     uint64_t tag, void *context)
{
	(void)desc;
	return uet_req_tx(fid, &(struct uet_msg_req){
		.kind = FI_TAGGED, .iov = iov, .count = count,
		.addr = dest_addr, .context = context, .tag = tag });
}

static ssize_t uet_tag_sendmsg(struct fid_ep *fid,
			       const struct fi_msg_tagged *msg, uint64_t flags)
{
	if (!msg)
		return -FI_EINVAL;
	return uet_ep_send(uet_ep_of(fid), &(struct uet_msg_req){
		.kind = FI_TAGGED, .iov = msg->msg_iov,
		.count = msg->iov_count, .addr = msg->addr,
		.context = msg->context, .flags = flags, .tag = msg->tag,
		.data = msg->data });
}

static ssize_t uet_tag_inject(struct fid_ep *fid, const void *buf,
			      size_t len, fi_addr_t dest_addr, uint64_t tag)
{
	return uet_req_inject_buf(fid, buf, len, &(struct uet_msg_req){
		.kind = FI_TAGGED, .addr = dest_addr, .tag = tag });
}

static ssize_t uet_tag_senddata(struct fid_ep *fid, const void *buf,
				size_t len, void *desc, uint64_t data,
				fi_addr_t dest_addr, uint64_t tag,
				void *context)
{
	(void)desc;
	return uet_req_tx_buf(fid, buf, len, &(struct uet_msg_req){
		.kind = FI_TAGGED, .addr = dest_addr, .context = context,
		.flags = FI_REMOTE_CQ_DATA, .tag = tag, .data = data });
}

static ssize_t uet_tag_injectdata(struct fid_ep *fid, const void *buf,
				  size_t len, uint64_t data,
				  fi_addr_t dest_addr, uint64_t tag)
{
	return uet_req_inject_buf(fid, buf, len, &(struct uet_msg_req){
		.kind = FI_TAGGED, .addr = dest_addr,
		.flags = FI_REMOTE_CQ_DATA, .tag = tag, .data = data });
}

static ssize_t uet_tag_recv(struct fid_ep *fid, void *buf, size_t len,
			    void *desc, fi_addr_t src_addr, uint64_t tag,
			    uint64_t ignore, void *context)
{
	(void)desc;
	return uet_req_rx_buf(fid, buf, len, &(struct uet_msg_req){
		.kind = FI_TAGGED, .addr = src_addr, .context = context,
		.tag = tag, .ignore = ignore });
}

static ssize_t uet_tag_recvv(struct fid_ep *fid, const struct iovec *iov,
			     void **desc, size_t count, fi_addr_t src_addr,
			     uint64_t tag, uint64_t ignore, void *context)
{
	(void)desc;
	return uet_req_rx(fid, &(struct uet_msg_req){
		.kind = FI_TAGGED, .iov = iov, .count = count,
		.addr = src_addr, .context = context, .tag = tag,
		.ignore = ignore });
}

static ssize_t uet_tag_recvmsg(struct fid_ep *fid,
			       const struct fi_msg_tagged *msg, uint64_t flags)
{
	if (!msg)
		return -FI_EINVAL;
	return uet_ep_recv(uet_ep_of(fid), &(struct uet_msg_req){
		.kind = FI_TAGGED, .iov = msg->msg_iov,
		.count = msg->iov_count, .addr = msg->addr,
		.context = msg->context, .flags = flags, .tag = msg->tag,
		.ignore = msg->ignore });
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
