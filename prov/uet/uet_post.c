/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The one posting path (uet_post.h): every transmit-side operation and
 * every receive and cancel command goes through here.
 *
 *   uet_post_tx()          lock, enabled?, AV lookup, room for every
 *                          command of a multi-segment RMA, operation
 *                          slot, the commands, free-or-count, unlock
 *   uet_post_cmd_locked()  one command: inline copy or SGL entries
 *                          (extension first, then the iovec after its
 *                          first entry, then the extra entries), then
 *                          the doorbell unless FI_MORE
 *   uet_post_ring_locked() the doorbell: publish the producer index and
 *                          tell the device (its return code logged)
 */
#include "config.h"

#include <string.h>

#include "uet_hmem.h"
#include "uet_post.h"
#include "uet_prov.h"

void uet_post_ring_locked(struct uet_ep *ep)
{
	int ret;

	uet_hsi_cmdq_doorbell(ep->q->cmdq);
	ep->doorbell_pending = false;
	uet_lock_check_acquire(UET_LOCK_DEV);	/* its lock, in the backend */
	ret = ep->domain->ops->doorbell(ep->q);
	uet_lock_check_release(UET_LOCK_DEV);
	if (ret < 0)
		UET_WARN_ONCE(FI_LOG_EP_DATA, "doorbell: %s\n",
			      fi_strerror(-ret));
}

/* The bytes of iov into the segment (zeros for a NULL base). */
static void uet_post_inline(struct uet_hsi_cmd_seg *seg,
			    const struct iovec *iov, size_t count)
{
	size_t i, off = 0;

	for (i = 0; i < count; i++) {
		if (iov[i].iov_base)
			memcpy(seg->inline_data + off, iov[i].iov_base,
			       iov[i].iov_len);
		else
			memset(seg->inline_data + off, 0, iov[i].iov_len);
		off += iov[i].iov_len;
	}
	seg->data_src = UET_HSI_DATA_INLINE;
	seg->payload_len = (uint16_t)off;
}

/* n entries of iov as SGL entries at sgl. */
static unsigned int uet_post_sgl(struct uet_hsi_sgl_entry *sgl,
				 const struct iovec *iov, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		memset(&sgl[i], 0, sizeof(sgl[i]));
		sgl[i].address = (uint64_t)(uintptr_t)iov[i].iov_base;
		sgl[i].length = uet_sgl_len(iov[i].iov_len);
	}
	return (unsigned int)n;
}

/*
 * Under manual progress a posted receive rings no doorbell of its own: it
 * goes with the endpoint's next send or progress call, which rings first
 * (every completion read and every wait progresses).  Until then nothing
 * of this endpoint reads the network, so no message can miss it; one that
 * the device takes for another endpoint's progress meanwhile is
 * unexpected and matches when the receive arrives.  A reply posted right
 * after the receive then leaves in the same doorbell.
 */
static bool uet_post_recv_may_wait(const struct uet_ep *ep,
				   const struct uet_hsi_cmd_seg *seg)
{
	return seg->variant == UET_HSI_VARIANT_RECV &&
	       (seg->family == UET_HSI_FAMILY_MSG ||
		seg->family == UET_HSI_FAMILY_TAGGED) &&
	       ep->domain->data_progress != FI_PROGRESS_AUTO;
}

int uet_post_cmd_locked(struct uet_ep *ep, struct uet_post_cmd *cmd)
{
	struct uet_hsi_sgl_entry sgl[2 * UET_IOV_LIMIT + 1];
	struct uet_hsi_cmd_seg *seg = &cmd->seg;
	unsigned int n = 0;
	int ret;

	if (cmd->count > UET_IOV_LIMIT || cmd->nextra > UET_IOV_LIMIT)
		return -FI_EINVAL;
	if (cmd->opts & UET_POST_EXT) {
		uet_hsi_cmd_ext_to_sgl(&sgl[n++], &cmd->ext);
		seg->ext = true;
	}
	switch (cmd->data) {
	case UET_POST_DATA_NONE:
		seg->data_src = UET_HSI_DATA_INLINE;
		break;
	case UET_POST_DATA_INLINE:
		uet_post_inline(seg, cmd->iov, cmd->count);
		break;
	case UET_POST_DATA_SGL:
		seg->data_src = UET_HSI_DATA_SGL;
		seg->sgl.is_inline = false;
		seg->sgl.address = cmd->count ?
				   (uint64_t)(uintptr_t)cmd->iov[0].iov_base : 0;
		seg->sgl.length = cmd->count ?
				  uet_sgl_len(cmd->iov[0].iov_len) : 0;
		if (cmd->count > 1)
			n += uet_post_sgl(&sgl[n], cmd->iov + 1,
					  cmd->count - 1);
		break;
	}
	n += uet_post_sgl(&sgl[n], cmd->extra, cmd->nextra);
	seg->sgl_count = (uint8_t)n;
	ret = uet_hsi_cmdq_post(ep->q->cmdq, seg, sgl, n);
	if (ret == -EAGAIN) {
		if (ep->doorbell_pending)
			uet_post_ring_locked(ep);
		uet_ep_progress_locked(ep);
		return -FI_EAGAIN;
	}
	if (ret) {
		UET_WARN(FI_LOG_EP_DATA, "posting a command: %s\n",
			 fi_strerror(-ret));
		return ret;
	}
	if (((cmd->flags & FI_MORE) && !(cmd->flags & FI_INJECT)) ||
	    uet_post_recv_may_wait(ep, seg))
		ep->doorbell_pending = true;
	else
		uet_post_ring_locked(ep);
	return 0;
}

/* Make room for one more transmit operation: an op slot, or -FI_EAGAIN
 * (after progressing once). */
static struct uet_op *uet_post_tx_op_locked(struct uet_ep *ep, int *ret)
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

/* Is there room in the ring for every command of req (the extension and
 * every data and extra entry counted, as for SGL data)? */
static bool uet_post_room_locked(struct uet_ep *ep,
				 const struct uet_post_req *req)
{
	uint32_t slots = 0;
	size_t i;

	for (i = 0; i < req->ncmd; i++)
		slots += uet_hsi_cmd_nslots((unsigned int)
			(((req->cmd[i].opts & UET_POST_EXT) ? 1 : 0) +
			 req->cmd[i].count + req->cmd[i].nextra));
	return uet_hsi_cmdq_free_slots(ep->q->cmdq) >= slots;
}

ssize_t uet_post_tx(struct uet_ep *ep, struct uet_post_req *req)
{
	struct uet_op *op;
	uint64_t dest;
	size_t i;
	int ret = 0;

	uet_ep_lock(ep);
	if (!ep->enabled) {
		ret = -FI_EOPBADSTATE;
		goto unlock;
	}
	if (uet_av_dest(ep->av, req->dest_addr, &dest)) {
		ret = -FI_EINVAL;
		goto unlock;
	}
	/* Every command or none: room for all of them first. */
	if (req->ncmd > 1 && !uet_post_room_locked(ep, req)) {
		if (ep->doorbell_pending)
			uet_post_ring_locked(ep);
		uet_ep_progress_locked(ep);
		ret = -FI_EAGAIN;
		goto unlock;
	}
	op = uet_post_tx_op_locked(ep, &ret);
	if (!op)
		goto unlock;
	op->context = req->context;
	op->flags = req->op_flags;
	op->silent = req->opts & UET_POST_SILENT;
	op->report = !op->silent &&
		     (!ep->tx_selective || (req->flags & FI_COMPLETION));
	op->len = req->len;
	op->hb = req->hb;
	req->hb = NULL;
	for (i = 0; i < req->ncmd; i++) {
		req->cmd[i].seg.dest = dest;
		req->cmd[i].seg.metadata = uet_op_index(ep, op);
		ret = uet_post_cmd_locked(ep, &req->cmd[i]);
		if (ret)
			break;
	}
	if (ret && i == 0) {
		uet_op_free(ep, op);
		goto unlock;
	}
	if (ret) {
		/* Commands already posted will complete: the operation
		 * fails with them (the room was checked, so this is a
		 * device failure). */
		UET_WARN(FI_LOG_EP_DATA, "command %zu of %zu not posted: %s\n",
			 i + 1, req->ncmd, fi_strerror(-ret));
		op->part_status = FI_EIO;
		if (ep->doorbell_pending)
			uet_post_ring_locked(ep);
		ret = 0;
	}
	op->parts_left = (uint16_t)(i - 1);	/* i posted */
	ep->tx_inflight++;
unlock:
	uet_ep_unlock(ep);
	if (req->hb) {
		uet_hmem_bounce_free(req->hb);
		req->hb = NULL;
	}
	return ret;
}
