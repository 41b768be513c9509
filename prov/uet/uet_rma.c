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

#include "uet_prov.h"

#define UET_RMA_FLAGS	(FI_COMPLETION | FI_INJECT | FI_REMOTE_CQ_DATA | \
			 FI_INJECT_COMPLETE | FI_TRANSMIT_COMPLETE |	\
			 FI_DELIVERY_COMPLETE | FI_MORE | FI_FENCE)
/* What a read cannot be asked for. */
#define UET_RMA_NOT_READ (FI_INJECT | FI_REMOTE_CQ_DATA)

/* fi_inject_write / fi_inject_writedata: no CQ entry ever. */
#define UET_RMA_NOCQ	true

struct uet_rma_req {
	bool read;
	const struct iovec *iov;
	size_t count;
	fi_addr_t dest_addr;
	const struct fi_rma_iov *rma_iov;	/* remote segments */
	size_t rma_count;
	void *context;
	uint64_t flags;
	uint64_t data;
	bool nocq;
};

static struct uet_ep *uet_ep_of(struct fid_ep *fid)
{
	return uet_container_of(fid, struct uet_ep, fid);
}

/* The checks that need no lock; 0 or -FI_E*.  The local buffer fills the
 * remote segments in order and may be shorter than they are. */
static int uet_rma_check(const struct uet_ep *ep, const struct uet_rma_req *r,
			 size_t len)
{
	uint64_t dir = r->read ? FI_READ : FI_WRITE;
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
	if (r->read && (r->flags & UET_RMA_NOT_READ))
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
	if (!ep->enabled)
		return -FI_EOPBADSTATE;
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

/* Command slots the operation takes in the ring (ext entry + SGL). */
static uint32_t uet_rma_slots(const struct uet_rma_req *r, size_t len)
{
	struct iovec sub[UET_IOV_LIMIT];
	size_t i, off = 0, seg_len, n;
	uint32_t slots = 0;

	for (i = 0; i < r->rma_count; i++) {
		seg_len = uet_rma_seg_len(r, i, len, off);
		n = uet_rma_iov_slice(r->iov, r->count, off, seg_len, sub);
		slots += uet_hsi_cmd_nslots((unsigned int)(1 + n));
		off += seg_len;
	}
	return slots;
}

/* Post the command of remote segment i, holding bytes [off, off+seg_len)
 * of the local buffer.  last: the operation's final command. */
static int uet_rma_post_seg_locked(struct uet_ep *ep,
				   const struct uet_rma_req *r,
				   struct uet_hsi_cmd_seg seg,
				   struct uet_hsi_cmd_ext ext, size_t i,
				   size_t off, size_t seg_len, bool last)
{
	struct iovec sub[UET_IOV_LIMIT];
	uint64_t flags = r->flags;
	size_t n, k, pos;

	n = uet_rma_iov_slice(r->iov, r->count, off, seg_len, sub);
	seg.tag = r->rma_iov[i].key;
	ext.remote_addr = r->rma_iov[i].addr;
	if (!r->read && (r->flags & FI_INJECT) &&
	    seg_len > UET_HSI_CMD_INLINE_MAX)
		seg.variant = UET_HSI_VARIANT_INJECT;
	if (!last) {
		/* The target reports the operation once, when its last
		 * segment lands; the doorbell waits for that one too. */
		seg.remote_cq = false;
		ext.header_data = 0;
		ext.ext_flags &= (uint8_t)~UET_HSI_EXT_HAS_DATA;
		flags |= FI_MORE;
	} else if (r->rma_count > 1 && seg.remote_cq) {
		/* ... after every earlier segment has landed. */
		seg.fence = true;
	}
	if (!r->read && seg_len <= UET_HSI_CMD_INLINE_MAX) {
		seg.data_src = UET_HSI_DATA_INLINE;
		seg.payload_len = (uint16_t)seg_len;
		for (k = 0, pos = 0; k < n; k++) {
			memcpy(seg.inline_data + pos, sub[k].iov_base,
			       sub[k].iov_len);
			pos += sub[k].iov_len;
		}
		return uet_ep_post_locked(ep, &seg, &ext, NULL, 0, false,
					  NULL, 0, flags);
	}
	seg.payload_len = seg_len > UINT16_MAX ? 0 : (uint16_t)seg_len;
	return uet_ep_post_locked(ep, &seg, &ext, sub, n, true, NULL, 0,
				  flags);
}

static ssize_t uet_rma_post(struct uet_ep *ep, const struct uet_rma_req *r)
{
	struct uet_hsi_cmd_seg seg;
	struct uet_hsi_cmd_ext ext;
	struct uet_op *op;
	uint64_t dest;
	size_t len, i, off, seg_len;
	int ret;

	len = uet_iov_len(r->iov, r->count);
	ret = uet_rma_check(ep, r, len);
	if (ret)
		return ret;

	memset(&seg, 0, sizeof(seg));
	memset(&ext, 0, sizeof(ext));
	seg.family = UET_HSI_FAMILY_RMA;
	seg.variant = r->read ? UET_HSI_VARIANT_RECV : UET_HSI_VARIANT_SEND;
	seg.completion = true;
	seg.inject = r->flags & FI_INJECT;
	seg.fence = r->flags & FI_FENCE;
	if (r->flags & FI_REMOTE_CQ_DATA) {
		seg.remote_cq = true;
		ext.header_data = r->data;
		ext.ext_flags |= UET_HSI_EXT_HAS_DATA;
	}
	/* A read completes when its data is here: DC adds nothing. */
	if ((r->flags & FI_DELIVERY_COMPLETE) && !r->read)
		ext.ext_flags |= UET_HSI_EXT_DC;

	pthread_mutex_lock(&ep->lock);
	if (uet_av_dest(ep->av, r->dest_addr, &dest)) {
		pthread_mutex_unlock(&ep->lock);
		return -FI_EINVAL;
	}
	seg.dest = dest;
	/* Every segment's command or none: room for all of them first. */
	if (r->rma_count > 1 &&
	    uet_hsi_cmdq_free_slots(ep->q->cmdq) < uet_rma_slots(r, len)) {
		if (ep->doorbell_pending)
			uet_ep_ring_locked(ep);
		uet_ep_progress_locked(ep);
		pthread_mutex_unlock(&ep->lock);
		return -FI_EAGAIN;
	}
	op = uet_ep_tx_op_locked(ep, &ret);
	if (!op) {
		pthread_mutex_unlock(&ep->lock);
		return ret;
	}
	op->context = r->context;
	op->flags = FI_RMA | (r->read ? FI_READ : FI_WRITE);
	op->silent = r->nocq;
	op->report = !r->nocq &&
		     (!ep->tx_selective || (r->flags & FI_COMPLETION));
	op->len = len;
	seg.metadata = uet_op_index(ep, op);
	for (i = 0, off = 0; i < r->rma_count; i++) {
		seg_len = uet_rma_seg_len(r, i, len, off);
		ret = uet_rma_post_seg_locked(ep, r, seg, ext, i, off, seg_len,
					      i + 1 == r->rma_count);
		if (ret)
			break;
		off += seg_len;
	}
	if (ret && i == 0) {
		uet_op_free(ep, op);
	} else {
		if (ret) {
			/* Segments already posted will complete: the
			 * operation fails with them (the room was checked,
			 * so this is a device failure). */
			UET_WARN(FI_LOG_EP_DATA, "RMA segment %zu of %zu not "
				 "posted: %s\n", i + 1, r->rma_count,
				 fi_strerror(-ret));
			op->part_status = FI_EIO;
			if (ep->doorbell_pending)
				uet_ep_ring_locked(ep);
			ret = 0;
		}
		op->parts_left = (uint16_t)(i - 1);	/* i posted */
		ep->tx_inflight++;
	}
	pthread_mutex_unlock(&ep->lock);
	return ret;
}

/* fi_msg_rma: up to UET_RMA_IOV_LIMIT remote segments, filled in order. */
static ssize_t uet_rma_msg(struct fid_ep *fid, const struct fi_msg_rma *msg,
			   uint64_t flags, bool read)
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
	r.read = read;
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

static ssize_t uet_rma_one(struct fid_ep *fid, bool read, void *buf,
			   size_t len, fi_addr_t addr, uint64_t raddr,
			   uint64_t key, void *context, uint64_t flags,
			   uint64_t data, bool nocq)
{
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct fi_rma_iov rma = { .addr = raddr, .len = len, .key = key };
	struct uet_rma_req r = {
		.read = read, .iov = &iov, .count = 1, .dest_addr = addr,
		.rma_iov = &rma, .rma_count = 1, .context = context,
		.flags = flags, .data = data, .nocq = nocq,
	};

	return uet_rma_post(uet_ep_of(fid), &r);
}

static ssize_t uet_rma_vec(struct fid_ep *fid, bool read,
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
		.read = read, .iov = iov, .count = count, .dest_addr = addr,
		.rma_iov = &rma, .rma_count = 1, .context = context,
		.flags = ep->tx_op_flags & ~(uint64_t)(read ? UET_RMA_NOT_READ
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
	return uet_rma_one(fid, true, buf, len, src_addr, addr, key, context,
			   uet_ep_of(fid)->tx_op_flags &
			   ~(uint64_t)UET_RMA_NOT_READ, 0, false);
}

static ssize_t uet_rma_readv(struct fid_ep *fid, const struct iovec *iov,
			     void **desc, size_t count, fi_addr_t src_addr,
			     uint64_t addr, uint64_t key, void *context)
{
	(void)desc;
	return uet_rma_vec(fid, true, iov, count, src_addr, addr, key,
			   context);
}

static ssize_t uet_rma_readmsg(struct fid_ep *fid,
			       const struct fi_msg_rma *msg, uint64_t flags)
{
	return uet_rma_msg(fid, msg, flags, true);
}

static ssize_t uet_rma_write(struct fid_ep *fid, const void *buf, size_t len,
			     void *desc, fi_addr_t dest_addr, uint64_t addr,
			     uint64_t key, void *context)
{
	(void)desc;
	return uet_rma_one(fid, false, (void *)buf, len, dest_addr, addr, key,
			   context, uet_ep_of(fid)->tx_op_flags, 0, false);
}

static ssize_t uet_rma_writev(struct fid_ep *fid, const struct iovec *iov,
			      void **desc, size_t count, fi_addr_t dest_addr,
			      uint64_t addr, uint64_t key, void *context)
{
	(void)desc;
	return uet_rma_vec(fid, false, iov, count, dest_addr, addr, key,
			   context);
}

static ssize_t uet_rma_writemsg(struct fid_ep *fid,
				const struct fi_msg_rma *msg, uint64_t flags)
{
	return uet_rma_msg(fid, msg, flags, false);
}

static ssize_t uet_rma_inject(struct fid_ep *fid, const void *buf,
			      size_t len, fi_addr_t dest_addr, uint64_t addr,
			      uint64_t key)
{
	return uet_rma_one(fid, false, (void *)buf, len, dest_addr, addr, key,
			   NULL, FI_INJECT, 0, UET_RMA_NOCQ);
}

static ssize_t uet_rma_writedata(struct fid_ep *fid, const void *buf,
				 size_t len, void *desc, uint64_t data,
				 fi_addr_t dest_addr, uint64_t addr,
				 uint64_t key, void *context)
{
	(void)desc;
	return uet_rma_one(fid, false, (void *)buf, len, dest_addr, addr, key,
			   context, uet_ep_of(fid)->tx_op_flags |
			   FI_REMOTE_CQ_DATA, data, false);
}

static ssize_t uet_rma_injectdata(struct fid_ep *fid, const void *buf,
				  size_t len, uint64_t data,
				  fi_addr_t dest_addr, uint64_t addr,
				  uint64_t key)
{
	return uet_rma_one(fid, false, (void *)buf, len, dest_addr, addr, key,
			   NULL, FI_INJECT | FI_REMOTE_CQ_DATA, data,
			   UET_RMA_NOCQ);
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
