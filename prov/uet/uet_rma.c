/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * RMA: every fi_write/fi_read variant becomes one HSI RMA command
 * (docs/conformance.md E-6) in the endpoint's command ring:
 *
 *   family     RMA; variant SEND (write), INJECT (write whose data the
 *              device copies when the doorbell rings) or RECV (read)
 *   data       write: <= 32 bytes INLINE (copied now), else one SGL entry
 *              per iovec; read: one SGL entry per iovec (destination)
 *   segments   fi_writemsg/fi_readmsg may name up to UET_RMA_IOV_LIMIT
 *              remote segments: one command each (the local iovec
 *              sliced in order), posted all or none, completing as one
 *              operation with the last; FI_REMOTE_CQ_DATA rides on the
 *              last, fenced behind the others
 *   tag        the remote memory key
 *   dest       the target endpoint (UET_HSI_DEST from the AV)
 *   extension  always: remote_addr = the remote address (FI_MR_VIRT_ADDR
 *              at the target) or offset; header_data + HAS_DATA
 *              (FI_REMOTE_CQ_DATA), DC (FI_DELIVERY_COMPLETE)
 *   flags      COMPLETION (always: counters and op slots need every
 *              completion; selective completion is applied when it comes
 *              back), INJECT, REMOTE_CQ, FENCE (FI_FENCE)
 *   metadata   the index of the operation in the ep's table
 *
 * FI_MORE holds the doorbell back as for messages.  Completions come
 * back as send completions (uet_ep_progress.c) with CQ flags FI_RMA |
 * FI_WRITE or FI_RMA | FI_READ and count on the FI_WRITE / FI_READ
 * counters.
 */
#include "config.h"

#include <string.h>

#include "uet_hmem.h"
#include "uet_post.h"
#include "uet_prov.h"

#define UET_RMA_FLAGS	(FI_COMPLETION | FI_INJECT | FI_REMOTE_CQ_DATA | \
			 FI_INJECT_COMPLETE | FI_TRANSMIT_COMPLETE |	\
			 FI_DELIVERY_COMPLETE | FI_MORE | FI_FENCE)
/* What a read cannot be asked for. */
#define UET_RMA_NOT_READ (FI_INJECT | FI_REMOTE_CQ_DATA)

struct uet_rma_req {
	uint64_t dir;				/* FI_READ or FI_WRITE */
	const struct iovec *iov;
	size_t count;
	fi_addr_t dest_addr;
	const struct fi_rma_iov *rma_iov;	/* remote segments */
	size_t rma_count;
	void *context;
	uint64_t flags;
	uint64_t data;
	unsigned int opts;			/* UET_POST_SILENT:
						 * fi_inject_write[data] */
};

/* The checks that need no lock; 0 or -FI_E*.  The local buffer fills the
 * remote segments in order and may be shorter than they are. */
static int uet_rma_check(const struct uet_ep *ep, const struct uet_rma_req *r,
			 size_t len)
{
	uint64_t dir = r->dir;
	size_t i, rlen = 0;

	if (!(ep->caps & FI_RMA) || !(ep->caps & dir))
		return -FI_EOPNOTSUPP;
	if (r->count > UET_IOV_LIMIT || (r->count && !r->iov) ||
	    !uet_iov_valid(r->iov, r->count))
		return -FI_EINVAL;
	if (!r->rma_count || r->rma_count > UET_RMA_IOV_LIMIT || !r->rma_iov)
		return -FI_EINVAL;
	if (r->flags & ~(uint64_t)UET_RMA_FLAGS)
		return -FI_EBADFLAGS;
	if (r->dir == FI_READ && (r->flags & UET_RMA_NOT_READ))
		return -FI_EINVAL;
	if (len > ep->max_msg_size || len > UINT32_MAX)
		return -FI_EMSGSIZE;
	if ((r->flags & FI_INJECT) && len > ep->inject_size)
		return -FI_EMSGSIZE;
	for (i = 0; i < r->rma_count; i++) {
		/* A remote range must not wrap (the target checks the
		 * rest). */
		if (r->rma_iov[i].len &&
		    r->rma_iov[i].addr + r->rma_iov[i].len - 1 <
		    r->rma_iov[i].addr)
			return -FI_EINVAL;
		if (rlen + r->rma_iov[i].len < rlen)
			return -FI_EINVAL;
		rlen += r->rma_iov[i].len;
	}
	if (r->rma_count > 1 && len > rlen)
		return -FI_EINVAL;
	return 0;
}

/*
 * The bytes [off, off + len) of the local iovec as iovec entries in out
 * (room for count); returns how many.
 */
static size_t uet_rma_iov_slice(const struct iovec *iov, size_t count,
				size_t off, size_t len, struct iovec *out)
{
	size_t i, n = 0, take;

	for (i = 0; i < count && len; i++) {
		if (off >= iov[i].iov_len) {
			off -= iov[i].iov_len;
			continue;
		}
		take = iov[i].iov_len - off;
		if (take > len)
			take = len;
		out[n].iov_base = (uint8_t *)iov[i].iov_base + off;
		out[n].iov_len = take;
		n++;
		len -= take;
		off = 0;
	}
	return n;
}

/* The local bytes that go to remote segment i (from offset *off). */
static size_t uet_rma_seg_len(const struct uet_rma_req *r, size_t i,
			      size_t len, size_t off)
{
	size_t left = len - off;

	if (r->rma_count == 1)
		return len;
	return r->rma_iov[i].len < left ? r->rma_iov[i].len : left;
}

/* The command of remote segment i, holding bytes [off, off+seg_len) of
 * the local buffer (sub: room for UET_IOV_LIMIT entries). */
static void uet_rma_seg_cmd(const struct uet_rma_req *r,
			    struct uet_post_cmd *cmd, struct iovec *sub,
			    size_t i, size_t off, size_t seg_len)
{
	bool last = i + 1 == r->rma_count;

	cmd->count = uet_rma_iov_slice(r->iov, r->count, off, seg_len, sub);
	cmd->iov = sub;
	cmd->seg.tag = r->rma_iov[i].key;
	cmd->ext.remote_addr = r->rma_iov[i].addr;
	if (r->dir == FI_WRITE && (r->flags & FI_INJECT) &&
	    seg_len > UET_HSI_CMD_INLINE_MAX)
		cmd->seg.variant = UET_HSI_VARIANT_INJECT;
	if (!last) {
		/* The target reports the operation once, when its last
		 * segment lands; the doorbell waits for that one too. */
		cmd->seg.remote_cq = false;
		cmd->ext.header_data = 0;
		cmd->ext.ext_flags &= (uint8_t)~UET_HSI_EXT_HAS_DATA;
		cmd->flags |= FI_MORE;
	} else if (r->rma_count > 1 && cmd->seg.remote_cq) {
		/* ... after every earlier segment has landed. */
		cmd->seg.fence = true;
	}
	if (r->dir == FI_WRITE && seg_len <= UET_HSI_CMD_INLINE_MAX) {
		cmd->data = UET_POST_DATA_INLINE;
	} else {
		cmd->data = UET_POST_DATA_SGL;
		cmd->seg.payload_len = seg_len > UINT16_MAX ? 0 :
				       (uint16_t)seg_len;
	}
}

static ssize_t uet_rma_post(struct uet_ep *ep, const struct uet_rma_req *req)
{
	struct uet_post_cmd cmd[UET_RMA_IOV_LIMIT];
	struct iovec sub[UET_RMA_IOV_LIMIT][UET_IOV_LIMIT];
	struct iovec bounce[UET_IOV_LIMIT];
	struct uet_hmem_bounce *hb = NULL;
	const struct uet_rma_req *r = req;
	struct uet_rma_req staged;
	size_t len, i, off, seg_len;
	int ret;

	len = uet_iov_len(r->iov, r->count);
	ret = uet_rma_check(ep, r, len);
	if (ret)
		return ret;
	/* Device memory: a write's bytes copied to host bounce buffers
	 * now, a read's copied to the device at its completion. */
	if (ep->domain->hmem_dev) {
		staged = *req;
		ret = uet_hmem_stage_list(ep->domain->hmem_dev, &hb,
					  &staged.iov, staged.count, bounce,
					  r->dir == FI_READ ? UET_HMEM_IN :
					  UET_HMEM_OUT);
		if (ret)
			return ret;
		r = &staged;
	}

	memset(&cmd[0], 0, sizeof(cmd[0]));
	cmd[0].seg.family = UET_HSI_FAMILY_RMA;
	cmd[0].seg.variant = r->dir == FI_READ ? UET_HSI_VARIANT_RECV :
			     UET_HSI_VARIANT_SEND;
	cmd[0].seg.completion = true;
	cmd[0].seg.inject = r->flags & FI_INJECT;
	cmd[0].seg.fence = r->flags & FI_FENCE;
	if (r->flags & FI_REMOTE_CQ_DATA) {
		cmd[0].seg.remote_cq = true;
		cmd[0].ext.header_data = r->data;
		cmd[0].ext.ext_flags |= UET_HSI_EXT_HAS_DATA;
	}
	/* A read completes when its data is here: DC adds nothing. */
	if ((r->flags & FI_DELIVERY_COMPLETE) && r->dir == FI_WRITE)
		cmd[0].ext.ext_flags |= UET_HSI_EXT_DC;
	cmd[0].opts = UET_POST_EXT;
	cmd[0].flags = r->flags;
	for (i = 1; i < r->rma_count; i++)
		cmd[i] = cmd[0];
	for (i = 0, off = 0; i < r->rma_count; i++) {
		seg_len = uet_rma_seg_len(r, i, len, off);
		uet_rma_seg_cmd(r, &cmd[i], sub[i], i, off, seg_len);
		off += seg_len;
	}

	return uet_post_tx(ep, &(struct uet_post_req){
		.dest_addr = r->dest_addr, .context = r->context,
		.op_flags = FI_RMA | r->dir, .flags = r->flags,
		.opts = r->opts,
		.len = len, .cmd = cmd, .ncmd = r->rma_count, .hb = hb });
}

/* fi_msg_rma: up to UET_RMA_IOV_LIMIT remote segments, filled in order. */
static ssize_t uet_rma_msg(struct fid_ep *fid, const struct fi_msg_rma *msg,
			   uint64_t flags, uint64_t dir)
{
	struct uet_rma_req r;

	if (!msg || !msg->rma_iov_count ||
	    msg->rma_iov_count > UET_RMA_IOV_LIMIT || !msg->rma_iov)
		return -FI_EINVAL;
	if (msg->iov_count > UET_IOV_LIMIT || (msg->iov_count && !msg->msg_iov))
		return -FI_EINVAL;
	if (msg->rma_iov_count == 1 &&
	    uet_iov_len(msg->msg_iov, msg->iov_count) > msg->rma_iov[0].len)
		return -FI_EINVAL;
	memset(&r, 0, sizeof(r));
	r.dir = dir;
	r.iov = msg->msg_iov;
	r.count = msg->iov_count;
	r.dest_addr = msg->addr;
	r.rma_iov = msg->rma_iov;
	r.rma_count = msg->rma_iov_count;
	r.context = msg->context;
	r.flags = flags;
	r.data = msg->data;
	return uet_rma_post(uet_ep_of(fid), &r);
}

/* One local buffer onto one remote segment of the same length; r holds
 * the rest of the request. */
static ssize_t uet_rma_one(struct fid_ep *fid, void *buf, size_t len,
			   uint64_t raddr, uint64_t key, struct uet_rma_req *r)
{
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct fi_rma_iov rma = { .addr = raddr, .len = len, .key = key };

	r->iov = &iov;
	r->count = 1;
	r->rma_iov = &rma;
	r->rma_count = 1;
	return uet_rma_post(uet_ep_of(fid), r);
}

static ssize_t uet_rma_vec(struct fid_ep *fid, uint64_t dir,
			   const struct iovec *iov, size_t count,
			   fi_addr_t addr, uint64_t raddr, uint64_t key,
			   void *context)
{
	struct uet_ep *ep = uet_ep_of(fid);
	struct fi_rma_iov rma = {
		.addr = raddr, .len = count && iov ? uet_iov_len(iov, count) : 0,
		.key = key,
	};
	struct uet_rma_req r = {
		.dir = dir, .iov = iov, .count = count, .dest_addr = addr,
		.rma_iov = &rma, .rma_count = 1, .context = context,
		.flags = ep->tx_op_flags & ~(uint64_t)(dir == FI_READ ? UET_RMA_NOT_READ
							    : 0),
	};

	return uet_rma_post(ep, &r);
}

/* ---- fi_ops_rma ---- */

static ssize_t uet_rma_read(struct fid_ep *fid, void *buf, size_t len,
			    void *desc, fi_addr_t src_addr, uint64_t addr,
			    uint64_t key, void *context)
{
	(void)desc;
	return uet_rma_one(fid, buf, len, addr, key, &(struct uet_rma_req){
		.dir = FI_READ, .dest_addr = src_addr, .context = context,
		.flags = uet_ep_of(fid)->tx_op_flags &
			 ~(uint64_t)UET_RMA_NOT_READ });
}

static ssize_t uet_rma_readv(struct fid_ep *fid, const struct iovec *iov,
			     void **desc, size_t count, fi_addr_t src_addr,
			     uint64_t addr, uint64_t key, void *context)
{
	(void)desc;
	return uet_rma_vec(fid, FI_READ, iov, count, src_addr, addr, key,
			   context);
}

static ssize_t uet_rma_readmsg(struct fid_ep *fid,
			       const struct fi_msg_rma *msg, uint64_t flags)
{
	return uet_rma_msg(fid, msg, flags, FI_READ);
}

static ssize_t uet_rma_write(struct fid_ep *fid, const void *buf, size_t len,
			     void *desc, fi_addr_t dest_addr, uint64_t addr,
			     uint64_t key, void *context)
{
	(void)desc;
	return uet_rma_one(fid, (void *)buf, len, addr, key,
			   &(struct uet_rma_req){
		.dir = FI_WRITE, .dest_addr = dest_addr, .context = context,
		.flags = uet_ep_of(fid)->tx_op_flags });
}

static ssize_t uet_rma_writev(struct fid_ep *fid, const struct iovec *iov,
			      void **desc, size_t count, fi_addr_t dest_addr,
			      uint64_t addr, uint64_t key, void *context)
{
	(void)desc;
	return uet_rma_vec(fid, FI_WRITE, iov, count, dest_addr, addr, key,
			   context);
}

static ssize_t uet_rma_writemsg(struct fid_ep *fid,
				const struct fi_msg_rma *msg, uint64_t flags)
{
	return uet_rma_msg(fid, msg, flags, FI_WRITE);
}

static ssize_t uet_rma_inject(struct fid_ep *fid, const void *buf,
			      size_t len, fi_addr_t dest_addr, uint64_t addr,
			      uint64_t key)
{
	return uet_rma_one(fid, (void *)buf, len, addr, key,
			   &(struct uet_rma_req){
		.dir = FI_WRITE, .dest_addr = dest_addr, .flags = FI_INJECT,
		.opts = UET_POST_SILENT });
}

static ssize_t uet_rma_writedata(struct fid_ep *fid, const void *buf,
				 size_t len, void *desc, uint64_t data,
				 fi_addr_t dest_addr, uint64_t addr,
				 uint64_t key, void *context)
{
	(void)desc;
	return uet_rma_one(fid, (void *)buf, len, addr, key,
			   &(struct uet_rma_req){
		.dir = FI_WRITE, .dest_addr = dest_addr, .context = context,
		.flags = uet_ep_of(fid)->tx_op_flags | FI_REMOTE_CQ_DATA,
		.data = data });
}

static ssize_t uet_rma_injectdata(struct fid_ep *fid, const void *buf,
				  size_t len, uint64_t data,
				  fi_addr_t dest_addr, uint64_t addr,
				  uint64_t key)
{
	return uet_rma_one(fid, (void *)buf, len, addr, key,
			   &(struct uet_rma_req){
		.dir = FI_WRITE, .dest_addr = dest_addr,
		.flags = FI_INJECT | FI_REMOTE_CQ_DATA, .data = data,
		.opts = UET_POST_SILENT });
}

struct fi_ops_rma uet_ep_rma_ops = {
	.size = sizeof(struct fi_ops_rma),
	.read = uet_rma_read,
	.readv = uet_rma_readv,
	.readmsg = uet_rma_readmsg,
	.write = uet_rma_write,
	.writev = uet_rma_writev,
	.writemsg = uet_rma_writemsg,
	.inject = uet_rma_inject,
	.writedata = uet_rma_writedata,
	.injectdata = uet_rma_injectdata,
};
