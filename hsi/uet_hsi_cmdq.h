/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * HSI command ring: host (producer) -> NIC (consumer).
 *
 * Fixed 64-byte slots, depth a power of two, ring memory owned by the ring
 * and 64-byte aligned.  Indices are free-running 32-bit counters; slot of
 * index i is i & (depth - 1).
 *
 * A command is one segment slot (uet_hsi_cmd_seg, 64 B) followed by
 * ceil(sgl_count / 2) slots of extra SGL entries (two 32-byte entries per
 * slot; when sgl_count is odd the second half of the last slot is zero
 * padding).  A command's slots are contiguous in index space and may wrap
 * around the end of the array: always address them through
 * uet_hsi_cmdq_slot() / uet_hsi_cmdq_sgl().
 *
 * Producer (one thread):
 *	uet_hsi_cmdq_post()	encode a segment + extra SGL entries, or
 *	uet_hsi_cmdq_reserve()	reserve the slots and encode in place;
 *	uet_hsi_cmdq_doorbell()	publish everything written so far (release
 *				store of the producer index: the doorbell
 *				value).
 * Reserved slots are private to the producer until the doorbell; ringing
 * the doorbell before the reserved slots are written publishes garbage.
 *
 * Consumer (one other thread):
 *	uet_hsi_cmdq_next()	look at the next published command (acquire
 *				load of the doorbell value when needed);
 *	uet_hsi_cmdq_consume()	free its slots (release store of ci);
 *	uet_hsi_cmdq_take()	next + decode + consume in one call.
 *
 * Ring APIs return 0 or a negative errno value (-EINVAL, -EAGAIN, ...);
 * decoding errors are the codec's UET_WIRE_E* values, which are negative
 * errno values too.
 */
#ifndef UET_HSI_CMDQ_H
#define UET_HSI_CMDQ_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "uet_hsi_formats.h"

#define UET_HSI_CMDQ_SLOT_LEN		UET_HSI_CMD_SEG_LEN
#define UET_HSI_CMDQ_ALIGN		64
#define UET_HSI_CMDQ_DEPTH_MAX		(1u << 24)
#define UET_HSI_CACHELINE		64

/*
 * Field groups are separated by a cache line of padding so that the
 * producer's and the consumer's lines do not share; no _Alignas, so the
 * struct may live in ordinarily allocated memory.
 */
struct uet_hsi_cmdq {
	uint8_t *ring;			/* depth * 64 bytes, aligned 64 */
	uint32_t depth;
	uint32_t mask;
	uint8_t pad0[UET_HSI_CACHELINE];

	struct {			/* producer thread only */
		uint32_t pi;		/* next free index (reserved + 1) */
		uint32_t ci_cache;	/* last consumer index seen */
		_Atomic uint64_t commands;
		_Atomic uint64_t doorbells;
		_Atomic uint64_t full;	/* -EAGAIN refusals */
	} prod;
	uint8_t pad1[UET_HSI_CACHELINE];

	_Atomic uint32_t db;		/* doorbell: published pi */
	uint8_t pad2[UET_HSI_CACHELINE];

	_Atomic uint32_t ci;		/* consumer index: slots freed */
	uint8_t pad3[UET_HSI_CACHELINE];

	struct {			/* consumer thread only */
		uint32_t ci;		/* private copy of ci */
		uint32_t db_cache;	/* last doorbell value read */
		_Atomic uint64_t commands;
	} cons;
};

/* A published command, as seen by the consumer (raw slot pointers). */
struct uet_hsi_cmdq_cmd {
	uint32_t idx;			/* index of the segment slot */
	uint32_t nslots;		/* slots to free with consume() */
	unsigned int sgl_count;		/* extra SGL entries */
	const uint8_t *seg;		/* UET_HSI_CMD_SEG_LEN bytes */
};

struct uet_hsi_cmdq_stats {
	uint64_t commands;		/* reserved/posted by the producer */
	uint64_t doorbells;
	uint64_t full;			/* refused with -EAGAIN */
	uint64_t consumed;		/* commands freed by the consumer */
};

/* depth: power of two in 1..UET_HSI_CMDQ_DEPTH_MAX, else -EINVAL. */
int uet_hsi_cmdq_init(struct uet_hsi_cmdq *q, uint32_t depth);
void uet_hsi_cmdq_fini(struct uet_hsi_cmdq *q);

static inline uint8_t *uet_hsi_cmdq_slot(const struct uet_hsi_cmdq *q,
					 uint32_t idx)
{
	return q->ring + (size_t)(idx & q->mask) * UET_HSI_CMDQ_SLOT_LEN;
}

/* Extra SGL entry k (0-based) of the command whose segment is at idx. */
static inline uint8_t *uet_hsi_cmdq_sgl(const struct uet_hsi_cmdq *q,
					uint32_t idx, unsigned int k)
{
	return uet_hsi_cmdq_slot(q, idx + 1 + k / UET_HSI_CMD_SGL_PER_SLOT) +
	       (k % UET_HSI_CMD_SGL_PER_SLOT) * UET_HSI_SGL_ENTRY_LEN;
}

/* ---- producer ---- */

/* Slots not reserved (by the producer's last view of ci). */
uint32_t uet_hsi_cmdq_free_slots(struct uet_hsi_cmdq *q);

/*
 * Reserve the uet_hsi_cmd_nslots(sgl_count) slots of one command and
 * return the index of its segment slot in *idx.  The padding half of an
 * odd last SGL slot is zeroed here; the caller encodes the segment (with
 * the same sgl_count) at uet_hsi_cmdq_slot(q, *idx) and entry k at
 * uet_hsi_cmdq_sgl(q, *idx, k).
 * Returns 0, -EAGAIN when fewer slots are free (nothing changes), or
 * -EINVAL when sgl_count > 255 or the command is larger than the ring.
 */
int uet_hsi_cmdq_reserve(struct uet_hsi_cmdq *q, unsigned int sgl_count,
			 uint32_t *idx);

/*
 * Reserve and encode one command: seg, then seg->sgl_count entries of
 * sgl[].  n_sgl must equal seg->sgl_count (-EINVAL).  Returns 0, -EAGAIN,
 * -EINVAL, or the codec's UET_WIRE_E* error; on any failure the producer
 * index is unchanged.  Not visible to the consumer before the doorbell.
 */
int uet_hsi_cmdq_post(struct uet_hsi_cmdq *q,
		      const struct uet_hsi_cmd_seg *seg,
		      const struct uet_hsi_sgl_entry *sgl, unsigned int n_sgl);

/* Publish the producer index (release); returns the doorbell value. */
uint32_t uet_hsi_cmdq_doorbell(struct uet_hsi_cmdq *q);

/* ---- consumer ---- */

/* Doorbell value (acquire load). */
uint32_t uet_hsi_cmdq_doorbell_read(struct uet_hsi_cmdq *q);

/*
 * Next published command, without freeing it.  Returns 0, -EAGAIN when no
 * command is published, or -EPROTO when the segment's sgl_count runs past
 * the doorbell (a partial command was published): cmd then covers every
 * published slot so that consume() discards them.
 */
int uet_hsi_cmdq_next(struct uet_hsi_cmdq *q, struct uet_hsi_cmdq_cmd *cmd);

/*
 * The published command after prev (one next() or after() returned),
 * without freeing anything: a look ahead within the doorbell next() last
 * read.  Returns 0, -EAGAIN when prev is the last published command, or
 * -EPROTO when the segment's sgl_count runs past the doorbell.
 */
int uet_hsi_cmdq_after(const struct uet_hsi_cmdq *q,
		       const struct uet_hsi_cmdq_cmd *prev,
		       struct uet_hsi_cmdq_cmd *cmd);

/* Free the slots of cmd (the one next() returned); release store of ci. */
void uet_hsi_cmdq_consume(struct uet_hsi_cmdq *q,
			  const struct uet_hsi_cmdq_cmd *cmd);

/*
 * next + decode + consume.  Decodes the segment into *seg and its extra
 * entries into sgl[0..seg->sgl_count).  Returns 0, -EAGAIN (nothing
 * published), -EPROTO (as next(), slots discarded), -ENOBUFS when
 * max_sgl < sgl_count (command left in place), or a codec error
 * (UET_WIRE_ERESERVED also for non-zero SGL padding): a command that does
 * not decode is consumed all the same, as a NIC drops a bad descriptor.
 */
int uet_hsi_cmdq_take(struct uet_hsi_cmdq *q, struct uet_hsi_cmd_seg *seg,
		      struct uet_hsi_sgl_entry *sgl, unsigned int max_sgl);

/* Counters; safe to call from any thread (relaxed snapshot). */
void uet_hsi_cmdq_get_stats(const struct uet_hsi_cmdq *q,
			    struct uet_hsi_cmdq_stats *st);

#endif /* UET_HSI_CMDQ_H */
