/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Bitmaps; see uet_bitmap.h for the contract.
 *
 * Both types share the word helpers below, which work on bit positions
 * [start, end) of a uint64_t array, a word at a time.
 *
 * PSN window invariant: every storage bit that does not belong to a
 * sequence number inside the window is zero.  set() refuses sequence
 * numbers outside the window and advance() clears the bits that leave,
 * so the bits that enter the window are always clear.
 */
#include "config.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uet_bitmap.h"

/* ---- word helpers ---- */

static inline uint64_t uet_bits_mask(size_t n)
{
	return n >= 64 ? ~0ull : (1ull << n) - 1;
}

static void uet_words_set_range(uint64_t *w, size_t start, size_t end)
{
	while (start < end) {
		size_t b = start % 64;
		size_t n = end - start < 64 - b ? end - start : 64 - b;

		w[start / 64] |= uet_bits_mask(n) << b;
		start += n;
	}
}

static void uet_words_clear_range(uint64_t *w, size_t start, size_t end)
{
	while (start < end) {
		size_t b = start % 64;
		size_t n = end - start < 64 - b ? end - start : 64 - b;

		w[start / 64] &= ~(uet_bits_mask(n) << b);
		start += n;
	}
}

/*
 * First position in [from, end) whose bit is set (flip 0) or clear
 * (flip ~0), or end.  Reads only words that hold bits below end.
 */
static size_t uet_words_find(const uint64_t *w, size_t from, size_t end,
			     uint64_t flip)
{
	while (from < end) {
		size_t i = from / 64;
		uint64_t v = (w[i] ^ flip) >> (from % 64);

		if (v) {
			from += (size_t)__builtin_ctzll(v);
			return from < end ? from : end;
		}
		from = (i + 1) * 64;
	}
	return end;
}

static size_t uet_words_count(const uint64_t *w, size_t nwords)
{
	size_t i, n = 0;

	for (i = 0; i < nwords; i++)
		n += (size_t)__builtin_popcountll(w[i]);
	return n;
}

/* ---- fixed-size bitmap ---- */

int uet_bitmap_init(struct uet_bitmap *bm, size_t nbits)
{
	size_t nwords = UET_BITMAP_WORDS(nbits);

	bm->nbits = nbits;
	bm->words = calloc(nwords ? nwords : 1, sizeof(*bm->words));
	return bm->words ? 0 : -ENOMEM;
}

void uet_bitmap_fini(struct uet_bitmap *bm)
{
	free(bm->words);
	bm->words = NULL;
	bm->nbits = 0;
}

void uet_bitmap_set(struct uet_bitmap *bm, size_t bit)
{
	assert(bit < bm->nbits);
	bm->words[bit / 64] |= 1ull << (bit % 64);
}

void uet_bitmap_clear(struct uet_bitmap *bm, size_t bit)
{
	assert(bit < bm->nbits);
	bm->words[bit / 64] &= ~(1ull << (bit % 64));
}

bool uet_bitmap_test(const struct uet_bitmap *bm, size_t bit)
{
	assert(bit < bm->nbits);
	return (bm->words[bit / 64] >> (bit % 64)) & 1;
}

void uet_bitmap_set_range(struct uet_bitmap *bm, size_t start, size_t count)
{
	assert(start <= bm->nbits && count <= bm->nbits - start);
	uet_words_set_range(bm->words, start, start + count);
}

void uet_bitmap_clear_range(struct uet_bitmap *bm, size_t start, size_t count)
{
	assert(start <= bm->nbits && count <= bm->nbits - start);
	uet_words_clear_range(bm->words, start, start + count);
}

void uet_bitmap_zero(struct uet_bitmap *bm)
{
	memset(bm->words, 0, UET_BITMAP_WORDS(bm->nbits) * sizeof(*bm->words));
}

size_t uet_bitmap_find_next_set(const struct uet_bitmap *bm, size_t from)
{
	return uet_words_find(bm->words, from, bm->nbits, 0);
}

size_t uet_bitmap_find_next_zero(const struct uet_bitmap *bm, size_t from)
{
	return uet_words_find(bm->words, from, bm->nbits, ~0ull);
}

size_t uet_bitmap_count(const struct uet_bitmap *bm)
{
	return uet_words_count(bm->words, UET_BITMAP_WORDS(bm->nbits));
}

bool uet_bitmap_is_zero(const struct uet_bitmap *bm)
{
	size_t i;

	for (i = 0; i < UET_BITMAP_WORDS(bm->nbits); i++)
		if (bm->words[i])
			return false;
	return true;
}

/* ---- circular PSN window ---- */

static inline size_t uet_psn_window_nwords(const struct uet_psn_window *w)
{
	return ((size_t)w->mask + 1) / 64;
}

int uet_psn_window_init(struct uet_psn_window *w, uint32_t base,
			uint32_t width)
{
	uint32_t nbits = 64;

	if (!width || width > UET_PSN_WINDOW_MAX)
		return -EINVAL;
	while (nbits < width)
		nbits *= 2;
	w->words = calloc(nbits / 64, sizeof(*w->words));
	if (!w->words)
		return -ENOMEM;
	w->base = base;
	w->width = width;
	w->mask = nbits - 1;
	return 0;
}

void uet_psn_window_fini(struct uet_psn_window *w)
{
	free(w->words);
	w->words = NULL;
}

void uet_psn_window_reset(struct uet_psn_window *w, uint32_t base)
{
	memset(w->words, 0, uet_psn_window_nwords(w) * sizeof(*w->words));
	w->base = base;
}

int uet_psn_window_set(struct uet_psn_window *w, uint32_t seq)
{
	uint32_t pos = seq & w->mask;

	if (!uet_psn_window_contains(w, seq))
		return -ERANGE;
	w->words[pos / 64] |= 1ull << (pos % 64);
	return 0;
}

int uet_psn_window_clear(struct uet_psn_window *w, uint32_t seq)
{
	uint32_t pos = seq & w->mask;

	if (!uet_psn_window_contains(w, seq))
		return -ERANGE;
	w->words[pos / 64] &= ~(1ull << (pos % 64));
	return 0;
}

bool uet_psn_window_test(const struct uet_psn_window *w, uint32_t seq)
{
	uint32_t pos = seq & w->mask;

	if (!uet_psn_window_contains(w, seq))
		return false;
	return (w->words[pos / 64] >> (pos % 64)) & 1;
}

/*
 * Storage segments of the offsets [off, off + len) from base (off + len
 * <= width): the run starting at storage position s, split in two where
 * it wraps past the end of storage.
 */
struct uet_psn_span {
	size_t start[2];
	size_t end[2];
};

static void uet_psn_window_span(const struct uet_psn_window *w, uint32_t off,
				uint32_t len, struct uet_psn_span *sp)
{
	size_t nbits = (size_t)w->mask + 1;
	size_t s = (w->base + off) & w->mask;

	sp->start[0] = s;
	if (s + len <= nbits) {
		sp->end[0] = s + len;
		sp->start[1] = sp->end[1] = 0;
	} else {
		sp->end[0] = nbits;
		sp->start[1] = 0;
		sp->end[1] = s + len - nbits;
	}
}

void uet_psn_window_advance(struct uet_psn_window *w, uint32_t k)
{
	struct uet_psn_span sp;

	if (k >= w->width) {
		uet_psn_window_reset(w, w->base + k);
		return;
	}
	uet_psn_window_span(w, 0, k, &sp);
	uet_words_clear_range(w->words, sp.start[0], sp.end[0]);
	uet_words_clear_range(w->words, sp.start[1], sp.end[1]);
	w->base += k;
}

/* Offset of the first bit (set: flip 0, clear: flip ~0) at offset >= from. */
static uint32_t uet_psn_window_find(const struct uet_psn_window *w,
				    uint32_t from, uint64_t flip)
{
	struct uet_psn_span sp;
	size_t r, seg0;

	if (from >= w->width)
		return w->width;
	uet_psn_window_span(w, from, w->width - from, &sp);
	seg0 = sp.end[0] - sp.start[0];
	r = uet_words_find(w->words, sp.start[0], sp.end[0], flip);
	if (r < sp.end[0])
		return from + (uint32_t)(r - sp.start[0]);
	r = uet_words_find(w->words, sp.start[1], sp.end[1], flip);
	if (r < sp.end[1])
		return from + (uint32_t)(seg0 + r);
	return w->width;
}

uint32_t uet_psn_window_first_gap(const struct uet_psn_window *w)
{
	return uet_psn_window_find(w, 0, ~0ull);
}

uint32_t uet_psn_window_next_set(const struct uet_psn_window *w,
				 uint32_t from)
{
	return uet_psn_window_find(w, from, 0);
}

uint32_t uet_psn_window_advance_contiguous(struct uet_psn_window *w)
{
	uint32_t k = uet_psn_window_first_gap(w);

	uet_psn_window_advance(w, k);
	return k;
}

uint32_t uet_psn_window_count(const struct uet_psn_window *w)
{
	return (uint32_t)uet_words_count(w->words, uet_psn_window_nwords(w));
}

uint64_t uet_psn_window_get64(const struct uet_psn_window *w, uint32_t start)
{
	size_t nwords = uet_psn_window_nwords(w);
	uint32_t pos = start & w->mask;
	uint32_t off = start - w->base;
	uint32_t lo = pos % 64, gap, n;
	size_t i = pos / 64;
	uint64_t v, valid;

	/* Which of start .. start + 63 are inside the window? */
	if (off < w->width) {
		valid = uet_bits_mask(w->width - off);
	} else {
		gap = -off;	/* start + gap == base (mod 2^32) */
		if (gap >= 64)
			return 0;
		n = 64 - gap < w->width ? 64 - gap : w->width;
		valid = uet_bits_mask(n) << gap;
	}

	/* 64 storage bits from pos, wrapping around the end of storage. */
	v = w->words[i] >> lo;
	if (lo)
		v |= w->words[(i + 1) % nwords] << (64 - lo);
	return v & valid;
}
