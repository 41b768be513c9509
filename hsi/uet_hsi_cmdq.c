/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * HSI command ring (see uet_hsi_cmdq.h).
 *
 * Ordering: the producer writes slots with plain stores, then the
 * doorbell is a release store of pi; the consumer's acquire load of the
 * doorbell makes those slot bytes visible.  The consumer reads the slots,
 * then frees them with a release store of ci; the producer's acquire load
 * of ci orders its later writes to those slots after the consumer's
 * reads.  Each index has a single writer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uet_hsi_cmdq.h"

_Static_assert(UET_HSI_CMDQ_SLOT_LEN ==
	       UET_HSI_CMD_SGL_PER_SLOT * UET_HSI_SGL_ENTRY_LEN,
	       "a slot holds two SGL entries");

/* Single-writer counter: no locked read-modify-write needed. */
static inline void stat_inc(_Atomic uint64_t *c)
{
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed)
			      + 1, memory_order_relaxed);
}

int uet_hsi_cmdq_init(struct uet_hsi_cmdq *q, uint32_t depth)
{
	size_t bytes;

	if (!depth || depth > UET_HSI_CMDQ_DEPTH_MAX || (depth & (depth - 1)))
		return -EINVAL;
	bytes = (size_t)depth * UET_HSI_CMDQ_SLOT_LEN;

	memset(q, 0, sizeof(*q));
	q->ring = aligned_alloc(UET_HSI_CMDQ_ALIGN, bytes);
	if (!q->ring)
		return -ENOMEM;
	memset(q->ring, 0, bytes);
	q->depth = depth;
	q->mask = depth - 1;
	atomic_init(&q->prod.commands, 0);
	atomic_init(&q->prod.doorbells, 0);
	atomic_init(&q->prod.full, 0);
	atomic_init(&q->db, 0);
	atomic_init(&q->ci, 0);
	atomic_init(&q->cons.commands, 0);
	return 0;
}

void uet_hsi_cmdq_fini(struct uet_hsi_cmdq *q)
{
	free(q->ring);
	q->ring = NULL;
	q->depth = 0;
	q->mask = 0;
}

/* ---- producer ---- */

uint32_t uet_hsi_cmdq_free_slots(struct uet_hsi_cmdq *q)
{
	return q->depth - (q->prod.pi - q->prod.ci_cache);
}

/* Claim n slots; does not touch the statistics except refusals. */
static int reserve_slots(struct uet_hsi_cmdq *q, uint32_t n, uint32_t *idx)
{
	if (n > q->depth)
		return -EINVAL;
	if (uet_hsi_cmdq_free_slots(q) < n) {
		q->prod.ci_cache = atomic_load_explicit(&q->ci,
							memory_order_acquire);
		if (uet_hsi_cmdq_free_slots(q) < n) {
			stat_inc(&q->prod.full);
			return -EAGAIN;
		}
	}
	*idx = q->prod.pi;
	q->prod.pi += n;
	return 0;
}

static void zero_sgl_padding(struct uet_hsi_cmdq *q, uint32_t idx,
			     unsigned int sgl_count)
{
	if (sgl_count % UET_HSI_CMD_SGL_PER_SLOT)
		memset(uet_hsi_cmdq_sgl(q, idx, sgl_count), 0,
		       UET_HSI_SGL_ENTRY_LEN);
}

int uet_hsi_cmdq_reserve(struct uet_hsi_cmdq *q, unsigned int sgl_count,
			 uint32_t *idx)
{
	int ret;

	if (sgl_count > UET_HSI_CMD_SGL_COUNT_MAX)
		return -EINVAL;
	ret = reserve_slots(q, uet_hsi_cmd_nslots(sgl_count), idx);
	if (ret)
		return ret;
	zero_sgl_padding(q, *idx, sgl_count);
	stat_inc(&q->prod.commands);
	return 0;
}

int uet_hsi_cmdq_post(struct uet_hsi_cmdq *q,
		      const struct uet_hsi_cmd_seg *seg,
		      const struct uet_hsi_sgl_entry *sgl, unsigned int n_sgl)
{
	uint32_t nslots, idx;
	unsigned int k;
	ssize_t len;
	int ret;

	if (n_sgl != seg->sgl_count)
		return -EINVAL;
	nslots = uet_hsi_cmd_nslots(n_sgl);
	ret = reserve_slots(q, nslots, &idx);
	if (ret)
		return ret;

	len = uet_hsi_cmd_seg_encode(uet_hsi_cmdq_slot(q, idx),
				     UET_HSI_CMDQ_SLOT_LEN, seg);
	if (len < 0)
		goto err_unreserve;
	for (k = 0; k < n_sgl; k++) {
		len = uet_hsi_sgl_entry_encode(uet_hsi_cmdq_sgl(q, idx, k),
					       UET_HSI_SGL_ENTRY_LEN, &sgl[k]);
		if (len < 0)
			goto err_unreserve;
	}
	zero_sgl_padding(q, idx, n_sgl);
	stat_inc(&q->prod.commands);
	return 0;

err_unreserve:
	/* Nothing was published: the slots simply return to the free pool. */
	q->prod.pi -= nslots;
	return (int)len;
}

uint32_t uet_hsi_cmdq_doorbell(struct uet_hsi_cmdq *q)
{
	uint32_t pi = q->prod.pi;

	atomic_store_explicit(&q->db, pi, memory_order_release);
	stat_inc(&q->prod.doorbells);
	return pi;
}

/* ---- consumer ---- */

uint32_t uet_hsi_cmdq_doorbell_read(struct uet_hsi_cmdq *q)
{
	return atomic_load_explicit(&q->db, memory_order_acquire);
}

int uet_hsi_cmdq_next(struct uet_hsi_cmdq *q, struct uet_hsi_cmdq_cmd *cmd)
{
	uint32_t avail = q->cons.db_cache - q->cons.ci;
	const uint8_t *seg;
	unsigned int count;

	if (!avail) {
		q->cons.db_cache = uet_hsi_cmdq_doorbell_read(q);
		avail = q->cons.db_cache - q->cons.ci;
		if (!avail)
			return -EAGAIN;
	}
	seg = uet_hsi_cmdq_slot(q, q->cons.ci);
	count = (unsigned int)uet_hsi_cmd_seg_peek_sgl_count(
				seg, UET_HSI_CMDQ_SLOT_LEN);
	cmd->idx = q->cons.ci;
	cmd->seg = seg;
	cmd->sgl_count = count;
	cmd->nslots = uet_hsi_cmd_nslots(count);
	if (cmd->nslots > avail) {
		/* The doorbell cannot cover a command reserve() sized. */
		cmd->nslots = avail;
		cmd->sgl_count = 0;
		return -EPROTO;
	}
	return 0;
}

int uet_hsi_cmdq_after(const struct uet_hsi_cmdq *q,
		       const struct uet_hsi_cmdq_cmd *prev,
		       struct uet_hsi_cmdq_cmd *cmd)
{
	uint32_t idx = prev->idx + prev->nslots;
	uint32_t avail = q->cons.db_cache - idx;
	const uint8_t *seg;
	unsigned int count;

	/* prev ends at or before the doorbell: avail is 0 there. */
	if (!avail || avail > q->cons.db_cache - q->cons.ci)
		return -EAGAIN;
	seg = uet_hsi_cmdq_slot(q, idx);
	count = (unsigned int)uet_hsi_cmd_seg_peek_sgl_count(
				seg, UET_HSI_CMDQ_SLOT_LEN);
	cmd->idx = idx;
	cmd->seg = seg;
	cmd->sgl_count = count;
	cmd->nslots = uet_hsi_cmd_nslots(count);
	if (cmd->nslots > avail)
		return -EPROTO;
	return 0;
}

void uet_hsi_cmdq_consume(struct uet_hsi_cmdq *q,
			  const struct uet_hsi_cmdq_cmd *cmd)
{
	q->cons.ci = cmd->idx + cmd->nslots;
	atomic_store_explicit(&q->ci, q->cons.ci, memory_order_release);
	stat_inc(&q->cons.commands);
}

int uet_hsi_cmdq_take(struct uet_hsi_cmdq *q, struct uet_hsi_cmd_seg *seg,
		      struct uet_hsi_sgl_entry *sgl, unsigned int max_sgl)
{
	struct uet_hsi_cmdq_cmd cmd;
	unsigned int k;
	ssize_t len;
	int ret;

	ret = uet_hsi_cmdq_next(q, &cmd);
	if (ret == -EAGAIN)
		return ret;
	if (ret)
		goto out_consume;
	if (cmd.sgl_count > max_sgl)
		return -ENOBUFS;

	len = uet_hsi_cmd_seg_decode(seg, cmd.seg, UET_HSI_CMDQ_SLOT_LEN);
	if (len < 0) {
		ret = (int)len;
		goto out_consume;
	}
	for (k = 0; k < cmd.sgl_count; k++) {
		len = uet_hsi_sgl_entry_decode(&sgl[k],
					       uet_hsi_cmdq_sgl(q, cmd.idx, k),
					       UET_HSI_SGL_ENTRY_LEN);
		if (len < 0) {
			ret = (int)len;
			goto out_consume;
		}
	}
	if (cmd.sgl_count % UET_HSI_CMD_SGL_PER_SLOT &&
	    !uet_bytes_are_zero(uet_hsi_cmdq_sgl(q, cmd.idx, cmd.sgl_count),
				UET_HSI_SGL_ENTRY_LEN))
		ret = UET_WIRE_ERESERVED;

out_consume:
	uet_hsi_cmdq_consume(q, &cmd);
	return ret;
}

void uet_hsi_cmdq_get_stats(const struct uet_hsi_cmdq *q,
			    struct uet_hsi_cmdq_stats *st)
{
	st->commands = atomic_load_explicit(&q->prod.commands,
					    memory_order_relaxed);
	st->doorbells = atomic_load_explicit(&q->prod.doorbells,
					     memory_order_relaxed);
	st->full = atomic_load_explicit(&q->prod.full, memory_order_relaxed);
	st->consumed = atomic_load_explicit(&q->cons.commands,
					    memory_order_relaxed);
}
