/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Byte coverage of a message: a sorted set of disjoint half-open
 * intervals [start, end) of 64-bit offsets, adjacent intervals merged.
 * The receive paths use it so that a message (or a multi-packet write)
 * completes only when every byte arrived exactly once: a packet whose
 * bytes overlap what is already covered is refused as a whole
 * (uet_ranges_add returns -EEXIST and changes nothing).
 *
 * In-order arrival keeps one interval (the append is O(1)); holes cost
 * one interval each, up to UET_RANGES_MAX (then -ENOSPC: the caller
 * refuses the packet, so a hostile sender cannot grow the set without
 * bound).  No allocation until a second interval is needed.
 *
 * Not thread safe.
 */
#ifndef UET_RANGES_H
#define UET_RANGES_H

#include <stdint.h>

/* Most disjoint intervals one set holds (16 bytes each). */
#define UET_RANGES_MAX		1024u

struct uet_range {
	uint64_t start;
	uint64_t end;			/* exclusive */
};

struct uet_ranges {
	struct uet_range one;		/* storage while n <= 1 */
	struct uet_range *iv;		/* &one, or an array of cap */
	uint32_t n;
	uint32_t cap;
	uint64_t covered;		/* bytes in the set */
};

void uet_ranges_init(struct uet_ranges *r);
void uet_ranges_fini(struct uet_ranges *r);
/*
 * Add [start, start + len).  0 (added; len 0 is a no-op), -EEXIST (a
 * byte of it is already covered: nothing changes), -EINVAL (the end
 * wraps 2^64), -ENOSPC (UET_RANGES_MAX intervals), -ENOMEM.
 */
int uet_ranges_add(struct uet_ranges *r, uint64_t start, uint64_t len);
/* Whether every byte of [0, total) is covered. */
static inline int uet_ranges_full(const struct uet_ranges *r, uint64_t total)
{
	return r->covered == total &&
	       (total == 0 || (r->n == 1 && r->iv[0].start == 0));
}

#endif /* UET_RANGES_H */
