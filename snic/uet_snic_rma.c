/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * RMA and ATOMIC commands (docs/conformance.md E-6, the conventions in
 * uet_snic.h): decoded and checked here, handed to SES as one
 * uet_ses_rma() request each, and completed through the send-completion
 * path (uet_snic_ses_send_done).
 *
 * Data: a write's INLINE payload, its inline SGL entries and everything
 * an INJECT writes are copied into a NIC buffer at doorbell time; other
 * write sources and every read destination are handed to SES as iovecs
 * (zero copy, valid until the completion).  Atomic operands (at most
 * UET_SES_AMO_MAX bytes, the CAS family two elements) are always copied
 * at doorbell time, which splits the CAS payload into the swap value and
 * the compare value SES wants; the prior values of a fetching atomic go
 * straight into the trailing result entries.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "uet_log.h"
#include "uet_ses_amo.h"
#include "uet_snic_internal.h"
#include "uet_wire_consts.h"

/* The ext_flags an RMA or ATOMIC command may carry. */
#define SNIC_RMA_EXT_FLAGS	(UET_HSI_EXT_HAS_DATA | UET_HSI_EXT_DC)

static bool snic_amo_is_cas(uint8_t op)
{
	return op >= UET_AMO_CSWAP && op <= UET_AMO_MSWAP;
}

/*
 * Check the data entries dev->sgl[first, first + n): indirect entries
 * need an address when they have a length; inline ones are refused when
 * !inline_ok.  *bytes = their total length.
 */
static int snic_sgl_check(struct uet_snic_dev *dev, unsigned int first,
			  unsigned int n, bool inline_ok, uint64_t *bytes)
{
	const struct uet_hsi_sgl_entry *e;
	uint64_t total = 0;
	unsigned int i;

	for (i = first; i < first + n; i++) {
		e = &dev->sgl[i];
		if (e->is_inline && !inline_ok)
			return -EINVAL;
		if (!e->is_inline && e->length && !e->address)
			return -EFAULT;
		total += e->length;
	}
	*bytes = total;
	return 0;
}

/* Copy the payload (inline data, or entries [0, n) of dev->sgl) to dst. */
static void snic_gather(struct uet_snic_dev *dev, const struct uet_snic_cmd *c,
			unsigned int n, uint8_t *dst)
{
	const struct uet_hsi_sgl_entry *e;
	unsigned int i;

	if (c->seg.data_src == UET_HSI_DATA_INLINE) {
		memcpy(dst, c->seg.inline_data, c->seg.payload_len);
		return;
	}
	for (i = 0; i < n; i++) {
		e = &dev->sgl[i];
		if (!e->length)
			continue;
		memcpy(dst, e->is_inline ? (const void *)e->inline_data :
			    (const void *)(uintptr_t)e->address, e->length);
		dst += e->length;
	}
}

/* Indirect entries [first, first + n) as iovecs. */
static unsigned int snic_sgl_iov(struct uet_snic_dev *dev, unsigned int first,
				 unsigned int n, struct iovec *iov)
{
	unsigned int i, niov = 0;

	for (i = first; i < first + n; i++)
		uet_snic_iov_add(iov, &niov,
				 (void *)(uintptr_t)dev->sgl[i].address,
				 dev->sgl[i].length);
	return niov;
}

/* WRITE (SEND / INJECT variant): fills req->iov; *op gets the bounce
 * buffer when data is copied. */
static int snic_rma_write(struct uet_snic_queue *q, const struct uet_snic_cmd *c,
			  bool inject, struct uet_ses_rma_req *req,
			  struct uet_snic_op **opp)
{
	enum uet_snic_copy mode = inject ? UET_SNIC_COPY_ALL :
				  UET_SNIC_COPY_INLINE;
	struct uet_snic_dev *dev = q->dev;
	uint64_t total = 0, copy = 0;
	struct uet_snic_op *op;
	int ret;

	ret = uet_snic_data_len(dev, c, mode, &total, &copy);
	if (ret)
		return ret;
	if (total > UINT32_MAX || copy > UET_SNIC_INJECT_MAX ||
	    (inject && total > UET_SNIC_INJECT_MAX))
		return -EMSGSIZE;
	op = uet_snic_op_get_locked(q, UET_SNIC_OP_RMA, copy);
	if (!op)
		return -EAGAIN;
	req->kind = UET_SES_RMA_WRITE;
	req->iov = dev->iov;
	req->iovcnt = uet_snic_data_iov(dev, c, mode, op->buf);
	*opp = op;
	return 0;
}

/* READ (RECV variant): the SGL entries are the local destination. */
static int snic_rma_read(struct uet_snic_queue *q, const struct uet_snic_cmd *c,
			 struct uet_ses_rma_req *req, struct uet_snic_op **opp)
{
	struct uet_snic_dev *dev = q->dev;
	uint64_t total;
	int ret;

	ret = snic_sgl_check(dev, 0, c->nsgl, false, &total);
	if (ret)
		return ret;
	if (total > UINT32_MAX)
		return -EMSGSIZE;
	*opp = uet_snic_op_get_locked(q, UET_SNIC_OP_RMA, 0);
	if (!*opp)
		return -EAGAIN;
	req->kind = UET_SES_RMA_READ;
	req->iov = dev->iov;
	req->iovcnt = snic_sgl_iov(dev, 0, c->nsgl, dev->iov);
	return 0;
}

/*
 * ATOMIC (SEND / INJECT variant) and fetching ATOMIC (RECV variant).
 * Returns 1 when the op / datatype is not supported (the caller writes
 * the FI_EOPNOTSUPP completion).
 */
static int snic_amo(struct uet_snic_queue *q, const struct uet_snic_cmd *c,
		    bool fetch, struct uet_ses_rma_req *req,
		    struct uet_snic_op **opp)
{
	struct uet_snic_dev *dev = q->dev;
	const struct uet_hsi_cmd_seg *seg = &c->seg;
	const struct uet_hsi_cmd_ext *ext = &c->ext;
	unsigned int nres = fetch ? ext->nresult : 0, nopd;
	uint64_t olen = 0, rlen = 0, count, bytes;
	bool cas = snic_amo_is_cas(ext->amo_op);
	struct uet_snic_op *op;
	size_t size;
	int ret;

	if (fetch && (seg->data_src != UET_HSI_DATA_SGL || !nres ||
		      nres > c->nsgl))
		return -EINVAL;
	if (!fetch && ext->nresult)
		return -EINVAL;
	nopd = seg->data_src == UET_HSI_DATA_SGL ? c->nsgl - nres : 0;
	if (seg->data_src == UET_HSI_DATA_INLINE) {
		olen = seg->payload_len;
	} else {
		ret = snic_sgl_check(dev, 0, nopd, true, &olen);
		if (ret)
			return ret;
		ret = snic_sgl_check(dev, nopd, nres, false, &rlen);
		if (ret)
			return ret;
	}
	if (uet_ses_amo_check(ext->amo_op, ext->amo_dtype) != UET_RC_OK)
		return 1;
	size = uet_ses_amo_size(ext->amo_dtype);
	if (!size)
		return 1;
	if (cas) {
		/* swap value, then compare value (MSWAP: mask) */
		if (olen != 2 * size)
			return -EINVAL;
		count = 1;
	} else if (fetch && ext->amo_op == UET_AMO_READ && !olen) {
		/* a read needs no operand: zeros travel */
		if (rlen % size)
			return -EINVAL;
		count = rlen / size;
	} else {
		if (olen % size)
			return -EINVAL;
		count = olen / size;
	}
	bytes = count * size;
	if (!count)
		return -EINVAL;
	if (bytes > UET_SES_AMO_MAX)
		return -EMSGSIZE;
	if (fetch && rlen != bytes)
		return -EINVAL;

	op = uet_snic_op_get_locked(q, UET_SNIC_OP_RMA, olen > bytes ? olen :
						       bytes);
	if (!op)
		return -EAGAIN;
	if (olen)
		snic_gather(dev, c, nopd, op->buf);
	else
		memset(op->buf, 0, (size_t)bytes);
	if (cas)
		memcpy(req->compare, (uint8_t *)op->buf + size, size);
	dev->iov[0].iov_base = op->buf;
	dev->iov[0].iov_len = (size_t)bytes;
	req->iov = dev->iov;
	req->iovcnt = 1;
	req->amo_op = ext->amo_op;
	req->amo_dtype = ext->amo_dtype;
	if (fetch) {
		req->kind = UET_SES_RMA_FETCH;
		req->res_iov = dev->res_iov;
		req->res_iovcnt = snic_sgl_iov(dev, nopd, nres, dev->res_iov);
	} else {
		req->kind = UET_SES_RMA_ATOMIC;
	}
	*opp = op;
	return 0;
}

int uet_snic_exec_rma_locked(struct uet_snic_queue *q, struct uet_snic_cmd *c,
			     uint64_t now)
{
	struct uet_snic_dev *dev = q->dev;
	const struct uet_hsi_cmd_seg *seg = &c->seg;
	const struct uet_hsi_cmd_ext *ext = &c->ext;
	bool amo = seg->family == UET_HSI_FAMILY_ATOMIC;
	bool recv = seg->variant == UET_HSI_VARIANT_RECV;
	bool inject = seg->variant == UET_HSI_VARIANT_INJECT || seg->inject;
	bool has_data = seg->remote_cq || (ext->ext_flags & UET_HSI_EXT_HAS_DATA);
	struct uet_ses_rma_req req;
	struct uet_snic_op *op = NULL;
	int ret;

	/* E-6: the extension carries the remote address */
	if (!seg->ext)
		return -EINVAL;
	if (ext->ext_flags & ~(uint32_t)SNIC_RMA_EXT_FLAGS)
		return -EINVAL;
	if (!has_data && ext->header_data)
		return -EINVAL;
	if (!amo && (ext->amo_op || ext->amo_dtype || ext->nresult))
		return UET_WIRE_ERANGE;
	/* reads take no INJECT and carry no header_data */
	if (recv && (inject || (!amo && has_data)))
		return -EINVAL;
	if (recv && seg->data_src != UET_HSI_DATA_SGL)
		return -EINVAL;

	memset(&req, 0, sizeof(req));
	ret = uet_snic_dest_locked(q, seg->dest, &req.dst);
	if (ret)
		return ret;
	if (seg->data_src == UET_HSI_DATA_SGL) {
		ret = uet_snic_sgl_locked(q, c);
		if (ret)
			return ret;
	}
	if (amo)
		ret = snic_amo(q, c, recv, &req, &op);
	else if (recv)
		ret = snic_rma_read(q, c, &req, &op);
	else
		ret = snic_rma_write(q, c, inject, &req, &op);
	if (ret == 1) {
		uet_snic_cmd_error_locked(q, false, seg->metadata,
					  -EOPNOTSUPP);
		return 0;
	}
	if (ret)
		return ret;
	op->metadata = seg->metadata;
	op->completion = seg->completion;
	/* RMA needs a reliable delivery mode */
	if (q->mode == UET_PDS_MODE_UUD) {
		uet_snic_op_free_locked(dev, op);
		uet_snic_cmd_error_locked(q, false, seg->metadata, -EMSGSIZE);
		return 0;
	}

	req.ep = q->ep;
	req.key = seg->tag;
	req.raddr = ext->remote_addr;
	req.has_data = has_data;
	req.header_data = has_data ? ext->header_data : 0;
	req.dc = !!(ext->ext_flags & UET_HSI_EXT_DC);
	req.op_ctx = op;
	ret = uet_snic_submit_locked(q, op, NULL, NULL, &req, now);
	if (ret == -EAGAIN || ret == -EINVAL)
		return ret;
	if (ret) {
		uet_snic_cmd_error_locked(q, false, seg->metadata, ret);
		return 0;
	}
	if (amo)
		dev->st.amo_cmds++;
	else
		dev->st.rma_cmds++;
	return 0;
}
