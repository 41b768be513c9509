/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Bitmaps.
 *
 * struct uet_bitmap: nbits bits fixed at init, stored in 64-bit words,
 * bit i in word i / 64 at position i % 64.  Bits past nbits in the last
 * word are always zero.  Out-of-range positions are a caller bug
 * (asserted); range operations clip nothing and assert the same.
 *
 * struct uet_psn_window: a window of `width` consecutive 32-bit sequence
 * numbers [base, base + width) modulo 2^32, one bit per sequence number,
 * for PSN tracking (received / acknowledged sets, SACK bitmaps).  The
 * storage is circular: sequence s lives in bit s mod nbits, with nbits a
 * power of two >= width, so advancing the base moves no data and the
 * 2^32 wrap needs no special case.  Sequence numbers compare by their
 * 32-bit difference (serial number arithmetic): uet_seq32_diff(a, b) is
 * the signed distance from b to a.
 *
 * Not thread safe.
 */
#ifndef UET_BITMAP_H
#define UET_BITMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- fixed-size bitmap ---- */

struct uet_bitmap {
	uint64_t *words;
	size_t nbits;
};

#define UET_BITMAP_WORDS(nbits)	(((nbits) + 63) / 64)

/* All bits clear.  nbits may be 0.  Returns 0 or -ENOMEM. */
int uet_bitmap_init(struct uet_bitmap *bm, size_t nbits);
void uet_bitmap_fini(struct uet_bitmap *bm);

static inline size_t uet_bitmap_size(const struct uet_bitmap *bm)
{
	return bm->nbits;
}

void uet_bitmap_set(struct uet_bitmap *bm, size_t bit);
void uet_bitmap_clear(struct uet_bitmap *bm, size_t bit);
bool uet_bitmap_test(const struct uet_bitmap *bm, size_t bit);

/* Set / clear bits [start, start + count); start + count <= nbits. */
void uet_bitmap_set_range(struct uet_bitmap *bm, size_t start, size_t count);
void uet_bitmap_clear_range(struct uet_bitmap *bm, size_t start, size_t count);

/* Clear every bit. */
void uet_bitmap_zero(struct uet_bitmap *bm);

/*
 * The first set (resp. clear) bit at a position >= from, or nbits when
 * there is none (from >= nbits also returns nbits).
 */
size_t uet_bitmap_find_next_set(const struct uet_bitmap *bm, size_t from);
size_t uet_bitmap_find_next_zero(const struct uet_bitmap *bm, size_t from);

/* Number of set bits. */
size_t uet_bitmap_count(const struct uet_bitmap *bm);

/* True when no bit is set. */
bool uet_bitmap_is_zero(const struct uet_bitmap *bm);

/* ---- 32-bit sequence arithmetic ---- */

/* Signed distance a - b modulo 2^32 (in [-2^31, 2^31)). */
static inline int32_t uet_seq32_diff(uint32_t a, uint32_t b)
{
	uint32_t d = a - b;

	/* Two's complement conversion without implementation-defined casts. */
	return d < 0x80000000u ? (int32_t)d : -(int32_t)(~d) - 1;
}

/* a before b / a at or before b, modulo 2^32. */
static inline bool uet_seq32_lt(uint32_t a, uint32_t b)
{
	return uet_seq32_diff(a, b) < 0;
}

static inline bool uet_seq32_le(uint32_t a, uint32_t b)
{
	return uet_seq32_diff(a, b) <= 0;
}

/* ---- circular PSN window ---- */

struct uet_psn_window {
	uint64_t *words;
	uint32_t base;		/* first sequence number in the window */
	uint32_t width;		/* sequence numbers tracked */
	uint32_t mask;		/* storage bits - 1 */
};

/* Largest window width. */
#define UET_PSN_WINDOW_MAX	(1u << 24)

/*
 * A window [base, base + width) with every bit clear.  width in
 * 1..UET_PSN_WINDOW_MAX.  Returns 0, -EINVAL or -ENOMEM.
 */
int uet_psn_window_init(struct uet_psn_window *w, uint32_t base,
			uint32_t width);
void uet_psn_window_fini(struct uet_psn_window *w);

/* Clear every bit and move the window to start at base. */
void uet_psn_window_reset(struct uet_psn_window *w, uint32_t base);

static inline uint32_t uet_psn_window_base(const struct uet_psn_window *w)
{
	return w->base;
}

/* True when seq lies in [base, base + width) modulo 2^32. */
static inline bool uet_psn_window_contains(const struct uet_psn_window *w,
					   uint32_t seq)
{
	return (uint32_t)(seq - w->base) < w->width;
}

/* Mark / unmark seq.  -ERANGE (nothing changed) when seq is outside. */
int uet_psn_window_set(struct uet_psn_window *w, uint32_t seq);
int uet_psn_window_clear(struct uet_psn_window *w, uint32_t seq);

/* Whether seq is marked; false when seq is outside the window. */
bool uet_psn_window_test(const struct uet_psn_window *w, uint32_t seq);

/*
 * Move the base forward by k, clearing the bits of the sequence numbers
 * that leave the window so that the ones entering it start clear.  Any
 * k is allowed (k >= width clears everything).
 */
void uet_psn_window_advance(struct uet_psn_window *w, uint32_t k);

/*
 * Advance past the run of marked sequence numbers that starts at base
 * (cumulative acknowledgement) and return how far the base moved.
 */
uint32_t uet_psn_window_advance_contiguous(struct uet_psn_window *w);

/*
 * The offset from base of the first unmarked sequence number, or width
 * when every one is marked.  (The first gap is base + result.)
 */
uint32_t uet_psn_window_first_gap(const struct uet_psn_window *w);

/*
 * Offset from base of the first marked sequence number at offset >=
 * from, or width when there is none.
 */
uint32_t uet_psn_window_next_set(const struct uet_psn_window *w,
				 uint32_t from);

/* Number of marked sequence numbers. */
uint32_t uet_psn_window_count(const struct uet_psn_window *w);

/*
 * 64 bits for sequence numbers start .. start + 63: bit i is set when
 * start + i is in the window and marked (a SACK bitmap).  start may be
 * anywhere, bits outside the window read as 0.
 */
uint64_t uet_psn_window_get64(const struct uet_psn_window *w, uint32_t start);

#endif /* UET_BITMAP_H */
