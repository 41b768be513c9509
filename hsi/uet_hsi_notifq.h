/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * HSI notification ring: NIC (producer) -> host (consumer).
 *
 * 64-byte entries; any depth > 0 that is not a multiple of 13.  Ring
 * memory is owned by the ring, 64-byte aligned and starts all zero, so no
 * entry is valid until written (0 is never a valid marker).
 *
 * Validity is the prime marker in byte 63.  It cycles per entry: the
 * entry written at ring position n (counted from 0 since the ring was
 * created) carries uet_hsi_notifq_marker_for_index(n) == (n % 13) + 1, so
 * consecutive entries carry 1, 2, ..., 13, 1, ...  The producer writes
 * bytes 0..62, then stores the marker with release semantics; the
 * consumer loads byte 63 of the next expected slot with acquire semantics
 * and reads the body only when it equals the marker expected at its
 * position.  The entry left in that slot from the previous lap was written
 * at position n - depth, and its marker differs because depth is not a
 * multiple of 13 (hsi-formats.md 6.1: the reason for that rule).
 *
 * The producer never overwrites an entry the consumer has not consumed:
 * it compares its count with the consumer index (acquire load, cached)
 * and refuses with -EAGAIN when the ring is full.
 *
 * Producer (one thread): uet_hsi_notifq_reserve() + encode in place +
 * uet_hsi_notifq_commit(), or uet_hsi_notifq_post() to copy an encoded
 * entry.  Consumer (one other thread): uet_hsi_notifq_poll(),
 * uet_hsi_notifq_poll_batch(), or zero-copy uet_hsi_notifq_peek() +
 * uet_hsi_notifq_ack().
 */
#ifndef UET_HSI_NOTIFQ_H
#define UET_HSI_NOTIFQ_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "uet_hsi_formats.h"

#define UET_HSI_NOTIFQ_ALIGN		64
#define UET_HSI_NOTIFQ_DEPTH_MAX	(1u << 24)
#define UET_HSI_NOTIFQ_MARKER_PERIOD	13
#define UET_HSI_NOTIFQ_PAD		64	/* cache line */

/* Marker of the entry written at ring position n (0, 1, ... since the
 * ring was created). */
static inline uint8_t uet_hsi_notifq_marker_for_index(uint64_t n)
{
	return (uint8_t)(n % UET_HSI_NOTIFQ_MARKER_PERIOD + 1);
}

/*
 * Positions are (slot, marker) pairs advanced one entry at a time; the
 * occupancy check uses free-running 32-bit counts (their difference is
 * exact for any depth).  No _Alignas: padding separates the groups.
 */
struct uet_hsi_notifq {
	uint8_t *ring;			/* depth * 64 bytes, aligned 64 */
	uint32_t depth;
	uint8_t pad0[UET_HSI_NOTIFQ_PAD];

	struct {			/* producer thread only */
		uint32_t count;		/* entries committed */
		uint32_t ci_cache;	/* last consumer count seen */
		uint32_t slot;
		uint8_t marker;		/* marker of the current lap */
		bool reserved;		/* reserve() done, commit() pending */
		_Atomic uint64_t posted;
		_Atomic uint64_t full;	/* -EAGAIN refusals */
	} prod;
	uint8_t pad1[UET_HSI_NOTIFQ_PAD];

	_Atomic uint32_t ci;		/* entries consumed */
	uint8_t pad2[UET_HSI_NOTIFQ_PAD];

	struct {			/* consumer thread only */
		uint32_t count;		/* private copy of ci */
		uint32_t slot;
		uint8_t marker;		/* marker expected at slot */
		bool peeked;		/* peek() returned an entry */
		_Atomic uint64_t polled;
	} cons;
};

struct uet_hsi_notifq_stats {
	uint64_t posted;
	uint64_t full;
	uint64_t polled;
};

/* depth in 1..UET_HSI_NOTIFQ_DEPTH_MAX and depth % 13 != 0, else -EINVAL. */
int uet_hsi_notifq_init(struct uet_hsi_notifq *q, uint32_t depth);
void uet_hsi_notifq_fini(struct uet_hsi_notifq *q);

/* ---- producer ---- */

/*
 * Slot for the next entry in *entry (64 bytes; the caller writes bytes
 * 0..62, e.g. with a notification encoder, and must not touch byte 63).
 * Returns 0 or -EAGAIN when the ring is full.  Calling it again before
 * commit() returns the same slot.
 */
int uet_hsi_notifq_reserve(struct uet_hsi_notifq *q, uint8_t **entry);

/* Entries the producer may still write before the ring is full (reads
 * the consumer index with acquire semantics; producer thread only). */
uint32_t uet_hsi_notifq_room(struct uet_hsi_notifq *q);

/* Store the lap's marker in the reserved slot (release) and advance.
 * -EINVAL when no slot is reserved. */
int uet_hsi_notifq_commit(struct uet_hsi_notifq *q);

/* reserve + copy bytes 0..62 of entry (byte 63 is ignored) + commit.
 * Returns 0 or -EAGAIN. */
int uet_hsi_notifq_post(struct uet_hsi_notifq *q,
			const uint8_t entry[UET_HSI_NOTIF_LEN]);

/* ---- consumer ---- */

/* Copy the next valid entry (with its marker) to out and consume it.
 * Returns 1, or 0 when the ring is empty. */
int uet_hsi_notifq_poll(struct uet_hsi_notifq *q,
			uint8_t out[UET_HSI_NOTIF_LEN]);

/* Up to max entries; one release store of ci for the batch.  Returns the
 * number copied (0 when empty). */
unsigned int uet_hsi_notifq_poll_batch(struct uet_hsi_notifq *q,
				       uint8_t (*out)[UET_HSI_NOTIF_LEN],
				       unsigned int max);

/* Next valid entry in place (stable until ack), or NULL when empty. */
const uint8_t *uet_hsi_notifq_peek(struct uet_hsi_notifq *q);

/* Consume the entry peek() returned: 0, or -EINVAL when peek() did not
 * return an entry since the last ack. */
int uet_hsi_notifq_ack(struct uet_hsi_notifq *q);

/* Marker the consumer expects next (for diagnostics and tests). */
static inline uint8_t uet_hsi_notifq_expected_marker(
					const struct uet_hsi_notifq *q)
{
	return q->cons.marker;
}

void uet_hsi_notifq_get_stats(const struct uet_hsi_notifq *q,
			      struct uet_hsi_notifq_stats *st);

#endif /* UET_HSI_NOTIFQ_H */
