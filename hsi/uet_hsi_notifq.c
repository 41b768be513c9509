/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * HSI notification ring (see uet_hsi_notifq.h).
 *
 * Ordering: the producer writes bytes 0..62 of an entry with plain
 * stores, then release-stores byte 63 (the marker); the consumer
 * acquire-loads byte 63 and, when it is the expected marker, reads bytes
 * 0..62.  The consumer frees entries with a release store of ci; the
 * producer acquire-loads ci before it reuses a slot.
 *
 * The marker is one byte inside ordinary descriptor memory, which C11
 * <stdatomic.h> cannot address without declaring the whole ring _Atomic;
 * the GCC/Clang __atomic builtins give the same C11 memory-order
 * semantics on an ordinary uint8_t (as the kernel's smp_store_release /
 * smp_load_acquire do).  The indices use <stdatomic.h>.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uet_hsi_notifq.h"

static inline void marker_store_release(uint8_t *entry, uint8_t marker)
{
	__atomic_store_n(&entry[UET_HSI_NOTIF_MARKER_OFF], marker,
			 __ATOMIC_RELEASE);
}

static inline uint8_t marker_load_acquire(const uint8_t *entry)
{
	return __atomic_load_n(&entry[UET_HSI_NOTIF_MARKER_OFF],
			       __ATOMIC_ACQUIRE);
}

static inline void stat_add(_Atomic uint64_t *c, uint64_t n)
{
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed)
			      + n, memory_order_relaxed);
}

static inline uint8_t *entry_at(const struct uet_hsi_notifq *q, uint32_t slot)
{
	return q->ring + (size_t)slot * UET_HSI_NOTIF_LEN;
}

/* Advance a (slot, marker) position by one entry: the marker cycles per
 * entry (uet_hsi_notifq_marker_for_index). */
static inline void advance(const struct uet_hsi_notifq *q, uint32_t *slot,
			   uint8_t *marker)
{
	if (++*slot == q->depth)
		*slot = 0;
	*marker = *marker == UET_HSI_MARKER_MAX ? UET_HSI_MARKER_MIN :
						  *marker + 1;
}

int uet_hsi_notifq_init(struct uet_hsi_notifq *q, uint32_t depth)
{
	size_t bytes;

	if (!depth || depth > UET_HSI_NOTIFQ_DEPTH_MAX ||
	    depth % UET_HSI_NOTIFQ_MARKER_PERIOD == 0)
		return -EINVAL;
	bytes = (size_t)depth * UET_HSI_NOTIF_LEN;

	memset(q, 0, sizeof(*q));
	q->ring = aligned_alloc(UET_HSI_NOTIFQ_ALIGN, bytes);
	if (!q->ring)
		return -ENOMEM;
	memset(q->ring, 0, bytes);	/* marker 0: never valid */
	q->depth = depth;
	q->prod.marker = uet_hsi_notifq_marker_for_index(0);
	q->cons.marker = uet_hsi_notifq_marker_for_index(0);
	atomic_init(&q->prod.posted, 0);
	atomic_init(&q->prod.full, 0);
	atomic_init(&q->ci, 0);
	atomic_init(&q->cons.polled, 0);
	return 0;
}

void uet_hsi_notifq_fini(struct uet_hsi_notifq *q)
{
	free(q->ring);
	q->ring = NULL;
	q->depth = 0;
}

/* ---- producer ---- */

int uet_hsi_notifq_reserve(struct uet_hsi_notifq *q, uint8_t **entry)
{
	if (!q->prod.reserved) {
		if (q->prod.count - q->prod.ci_cache >= q->depth) {
			q->prod.ci_cache = atomic_load_explicit(
						&q->ci, memory_order_acquire);
			if (q->prod.count - q->prod.ci_cache >= q->depth) {
				stat_add(&q->prod.full, 1);
				return -EAGAIN;
			}
		}
		q->prod.reserved = true;
	}
	*entry = entry_at(q, q->prod.slot);
	return 0;
}

uint32_t uet_hsi_notifq_room(struct uet_hsi_notifq *q)
{
	uint32_t ci = atomic_load_explicit(&q->ci, memory_order_acquire);

	return q->depth - (q->prod.count - ci);
}

int uet_hsi_notifq_commit(struct uet_hsi_notifq *q)
{
	if (!q->prod.reserved)
		return -EINVAL;
	marker_store_release(entry_at(q, q->prod.slot), q->prod.marker);
	q->prod.reserved = false;
	q->prod.count++;
	advance(q, &q->prod.slot, &q->prod.marker);
	stat_add(&q->prod.posted, 1);
	return 0;
}

int uet_hsi_notifq_post(struct uet_hsi_notifq *q,
			const uint8_t entry[UET_HSI_NOTIF_LEN])
{
	uint8_t *slot;
	int ret;

	ret = uet_hsi_notifq_reserve(q, &slot);
	if (ret)
		return ret;
	memcpy(slot, entry, UET_HSI_NOTIF_MARKER_OFF);
	return uet_hsi_notifq_commit(q);
}

/* ---- consumer ---- */

/* The entry at the consumer position if its marker is the expected one. */
static inline const uint8_t *cons_valid(const struct uet_hsi_notifq *q)
{
	const uint8_t *e = entry_at(q, q->cons.slot);

	return marker_load_acquire(e) == q->cons.marker ? e : NULL;
}

static inline void cons_advance(struct uet_hsi_notifq *q, uint32_t n)
{
	q->cons.count += n;
	atomic_store_explicit(&q->ci, q->cons.count, memory_order_release);
	stat_add(&q->cons.polled, n);
}

unsigned int uet_hsi_notifq_poll_batch(struct uet_hsi_notifq *q,
				       uint8_t (*out)[UET_HSI_NOTIF_LEN],
				       unsigned int max)
{
	const uint8_t *e;
	unsigned int n;

	q->cons.peeked = false;
	for (n = 0; n < max; n++) {
		e = cons_valid(q);
		if (!e)
			break;
		memcpy(out[n], e, UET_HSI_NOTIF_MARKER_OFF);
		out[n][UET_HSI_NOTIF_MARKER_OFF] = q->cons.marker;
		advance(q, &q->cons.slot, &q->cons.marker);
	}
	if (n)
		cons_advance(q, n);
	return n;
}

int uet_hsi_notifq_poll(struct uet_hsi_notifq *q,
			uint8_t out[UET_HSI_NOTIF_LEN])
{
	return (int)uet_hsi_notifq_poll_batch(
			q, (uint8_t (*)[UET_HSI_NOTIF_LEN])out, 1);
}

const uint8_t *uet_hsi_notifq_peek(struct uet_hsi_notifq *q)
{
	const uint8_t *e = cons_valid(q);

	q->cons.peeked = e != NULL;
	return e;
}

int uet_hsi_notifq_ack(struct uet_hsi_notifq *q)
{
	if (!q->cons.peeked)
		return -EINVAL;
	q->cons.peeked = false;
	advance(q, &q->cons.slot, &q->cons.marker);
	cons_advance(q, 1);
	return 0;
}

void uet_hsi_notifq_get_stats(const struct uet_hsi_notifq *q,
			      struct uet_hsi_notifq_stats *st)
{
	st->posted = atomic_load_explicit(&q->prod.posted,
					  memory_order_relaxed);
	st->full = atomic_load_explicit(&q->prod.full, memory_order_relaxed);
	st->polled = atomic_load_explicit(&q->cons.polled,
					  memory_order_relaxed);
}
