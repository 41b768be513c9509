/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * TSS replay window: a bitmap of the last UET_TSS_REPLAY_WINDOW sequence
 * numbers below and including the highest one accepted.  Bit (seq mod
 * window) stands for seq while seq is inside the window.  Sequence numbers
 * never wrap under one security context (the sender rekeys first).
 */
#include <string.h>

#include "uet_tss_internal.h"

#define W	UET_TSS_REPLAY_WINDOW

static inline uint64_t *replay_word(struct uet_tss_replay *w, uint32_t seq)
{
	return &w->bits[(seq % W) / 64];
}

static inline uint64_t replay_bit(uint32_t seq)
{
	return 1ull << (seq % 64);
}

int uet_tss_replay_check(const struct uet_tss_replay *w, uint32_t seq)
{
	if (seq == 0)
		return UET_TSS_DROP_OLD;
	if (seq > w->top)
		return 0;
	if (w->top - seq >= W)
		return UET_TSS_DROP_OLD;
	return w->bits[(seq % W) / 64] & replay_bit(seq) ?
	       UET_TSS_DROP_REPLAY : 0;
}

void uet_tss_replay_accept(struct uet_tss_replay *w, uint32_t seq)
{
	uint32_t s;

	if (seq > w->top) {
		if (seq - w->top >= W) {
			memset(w->bits, 0, sizeof(w->bits));
		} else {
			/* Forget the numbers that leave the window. */
			for (s = w->top + 1; s != seq; s++)
				*replay_word(w, s) &= ~replay_bit(s);
		}
		w->top = seq;
	}
	*replay_word(w, seq) |= replay_bit(seq);
}
