/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * util/uet_bitmap: fixed-size bitmap and circular PSN window.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uet_bitmap.h"
#include "uet_test.h"

/* ---- fixed-size bitmap ---- */

/*
 * Each passing ck_assert costs libcheck a write to its result channel;
 * the model loops below make millions of checks, so they compare first
 * and only report through libcheck on a mismatch.
 */
#define FAST_EQ(a, b)							\
	do {								\
		uint64_t x_ = (uint64_t)(a), y_ = (uint64_t)(b);	\
		if (x_ != y_)						\
			ck_abort_msg("%s == %s failed: 0x%llx != 0x%llx", \
				     #a, #b, (unsigned long long)x_,	\
				     (unsigned long long)y_);		\
	} while (0)

/* Compare every observable of bm with a bool-array model. */
static void check_model(const struct uet_bitmap *bm, const bool *model)
{
	size_t i, n = bm->nbits, count = 0, next_set = n, next_zero = n;

	for (i = 0; i < n; i++) {
		FAST_EQ(uet_bitmap_test(bm, i), model[i]);
		count += model[i];
	}
	FAST_EQ(uet_bitmap_count(bm), count);
	FAST_EQ(uet_bitmap_is_zero(bm), count == 0);
	/* Walk backwards so next_* is the answer for "from i". */
	for (i = n; i-- > 0;) {
		if (model[i])
			next_set = i;
		else
			next_zero = i;
		FAST_EQ(uet_bitmap_find_next_set(bm, i), next_set);
		FAST_EQ(uet_bitmap_find_next_zero(bm, i), next_zero);
	}
	FAST_EQ(uet_bitmap_find_next_set(bm, n), n);
	FAST_EQ(uet_bitmap_find_next_zero(bm, n), n);
	FAST_EQ(uet_bitmap_find_next_set(bm, n + 100), n);
	/* Storage past nbits stays clear. */
	if (n % 64)
		FAST_EQ(bm->words[n / 64] >> (n % 64), 0);
}

START_TEST(test_edge_bits)
{
	static const size_t bits[] = { 0, 1, 62, 63, 64, 65, 127, 128, 129 };
	struct uet_bitmap bm;
	bool model[130] = { false };
	size_t i;

	ck_assert_int_eq(uet_bitmap_init(&bm, 130), 0);
	ck_assert_uint_eq(uet_bitmap_size(&bm), 130);
	check_model(&bm, model);
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		uet_bitmap_set(&bm, bits[i]);
		model[bits[i]] = true;
		check_model(&bm, model);
	}
	ck_assert_uint_eq(bm.words[0], 0xc000000000000003ull);
	ck_assert_uint_eq(bm.words[1], 0x8000000000000003ull);
	ck_assert_uint_eq(bm.words[2], 0x3ull);
	/* Setting twice changes nothing. */
	uet_bitmap_set(&bm, 64);
	check_model(&bm, model);
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i += 2) {
		uet_bitmap_clear(&bm, bits[i]);
		model[bits[i]] = false;
		check_model(&bm, model);
	}
	/* Clearing a clear bit changes nothing. */
	uet_bitmap_clear(&bm, 0);
	check_model(&bm, model);
	uet_bitmap_zero(&bm);
	memset(model, 0, sizeof(model));
	check_model(&bm, model);
	uet_bitmap_fini(&bm);

	/* Exactly one word: the last bit is 63. */
	ck_assert_int_eq(uet_bitmap_init(&bm, 64), 0);
	uet_bitmap_set(&bm, 63);
	ck_assert_uint_eq(bm.words[0], 0x8000000000000000ull);
	ck_assert_uint_eq(uet_bitmap_find_next_set(&bm, 0), 63);
	ck_assert_uint_eq(uet_bitmap_find_next_zero(&bm, 63), 64);
	uet_bitmap_fini(&bm);
}
END_TEST

START_TEST(test_empty_bitmap)
{
	struct uet_bitmap bm;

	ck_assert_int_eq(uet_bitmap_init(&bm, 0), 0);
	ck_assert_uint_eq(uet_bitmap_count(&bm), 0);
	ck_assert(uet_bitmap_is_zero(&bm));
	ck_assert_uint_eq(uet_bitmap_find_next_set(&bm, 0), 0);
	ck_assert_uint_eq(uet_bitmap_find_next_zero(&bm, 0), 0);
	uet_bitmap_set_range(&bm, 0, 0);
	uet_bitmap_clear_range(&bm, 0, 0);
	uet_bitmap_fini(&bm);
}
END_TEST

/* Every (start, count) range on sizes around word boundaries. */
START_TEST(test_ranges_exhaustive)
{
	static const size_t sizes[] = { 1, 63, 64, 65, 130 };
	struct uet_bitmap bm;
	bool model[130];
	size_t s, n, start, count, i;

	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		n = sizes[s];
		ck_assert_int_eq(uet_bitmap_init(&bm, n), 0);
		for (start = 0; start <= n; start++) {
			for (count = 0; start + count <= n; count++) {
				/* Set a range in an empty map. */
				uet_bitmap_zero(&bm);
				uet_bitmap_set_range(&bm, start, count);
				for (i = 0; i < n; i++)
					model[i] = i >= start &&
						   i < start + count;
				check_model(&bm, model);

				/* Clear the same range in a full map. */
				uet_bitmap_set_range(&bm, 0, n);
				FAST_EQ(uet_bitmap_count(&bm), n);
				uet_bitmap_clear_range(&bm, start, count);
				for (i = 0; i < n; i++)
					model[i] = !model[i];
				check_model(&bm, model);
			}
		}
		uet_bitmap_fini(&bm);
	}
}
END_TEST

START_TEST(test_random_model)
{
	enum { N = 333 };
	struct uet_bitmap bm;
	bool model[N] = { false };
	size_t k, i, start, count;
	unsigned int density;

	ck_assert_int_eq(uet_bitmap_init(&bm, N), 0);
	for (k = 0; k < 3000; k++) {
		switch (uet_test_rand_bits(2)) {
		case 0:
			i = (size_t)(uet_test_rand64() % N);
			uet_bitmap_set(&bm, i);
			model[i] = true;
			break;
		case 1:
			i = (size_t)(uet_test_rand64() % N);
			uet_bitmap_clear(&bm, i);
			model[i] = false;
			break;
		case 2:
			start = (size_t)(uet_test_rand64() % (N + 1));
			count = (size_t)(uet_test_rand64() % (N - start + 1));
			density = (unsigned int)uet_test_rand_bits(1);
			if (density)
				uet_bitmap_set_range(&bm, start, count);
			else
				uet_bitmap_clear_range(&bm, start, count);
			for (i = start; i < start + count; i++)
				model[i] = density;
			break;
		default:
			check_model(&bm, model);
			break;
		}
	}
	check_model(&bm, model);
	uet_bitmap_fini(&bm);
}
END_TEST

/* ---- sequence arithmetic ---- */

START_TEST(test_seq32)
{
	ck_assert_int_eq(uet_seq32_diff(5, 3), 2);
	ck_assert_int_eq(uet_seq32_diff(3, 5), -2);
	ck_assert_int_eq(uet_seq32_diff(0, 0xffffffffu), 1);
	ck_assert_int_eq(uet_seq32_diff(0xffffffffu, 0), -1);
	ck_assert_int_eq(uet_seq32_diff(0x10, 0xfffffff0u), 0x20);
	ck_assert_int_eq(uet_seq32_diff(0x7fffffffu, 0), INT32_MAX);
	ck_assert_int_eq(uet_seq32_diff(0x80000000u, 0), INT32_MIN);
	ck_assert_int_eq(uet_seq32_diff(0, 0x80000001u), INT32_MAX);
	ck_assert(uet_seq32_lt(0xfffffffeu, 1));
	ck_assert(!uet_seq32_lt(1, 0xfffffffeu));
	ck_assert(!uet_seq32_lt(7, 7));
	ck_assert(uet_seq32_le(7, 7));
	ck_assert(uet_seq32_le(0xffffffffu, 0));
	ck_assert(!uet_seq32_le(0, 0xffffffffu));
}
END_TEST

/* ---- PSN window ---- */

START_TEST(test_window_init)
{
	struct uet_psn_window w;

	ck_assert_int_eq(uet_psn_window_init(&w, 0, 0), -EINVAL);
	ck_assert_int_eq(uet_psn_window_init(&w, 0, UET_PSN_WINDOW_MAX + 1),
			 -EINVAL);
	ck_assert_int_eq(uet_psn_window_init(&w, 7, 1), 0);
	ck_assert_uint_eq(w.mask, 63);
	ck_assert_int_eq(uet_psn_window_set(&w, 7), 0);
	ck_assert_int_eq(uet_psn_window_set(&w, 8), -ERANGE);
	ck_assert_int_eq(uet_psn_window_set(&w, 6), -ERANGE);
	ck_assert_uint_eq(uet_psn_window_first_gap(&w), 1);
	ck_assert_uint_eq(uet_psn_window_advance_contiguous(&w), 1);
	ck_assert_uint_eq(uet_psn_window_base(&w), 8);
	ck_assert_uint_eq(uet_psn_window_count(&w), 0);
	uet_psn_window_fini(&w);

	ck_assert_int_eq(uet_psn_window_init(&w, 0, 65), 0);
	ck_assert_uint_eq(w.mask, 127);
	uet_psn_window_fini(&w);
	ck_assert_int_eq(uet_psn_window_init(&w, 0, UET_PSN_WINDOW_MAX), 0);
	ck_assert_uint_eq(w.mask, UET_PSN_WINDOW_MAX - 1);
	ck_assert_int_eq(uet_psn_window_set(&w, UET_PSN_WINDOW_MAX - 1), 0);
	ck_assert_uint_eq(uet_psn_window_next_set(&w, 0),
			  UET_PSN_WINDOW_MAX - 1);
	uet_psn_window_fini(&w);
}
END_TEST

START_TEST(test_window_basic)
{
	struct uet_psn_window w;

	ck_assert_int_eq(uet_psn_window_init(&w, 1000, 128), 0);
	ck_assert(uet_psn_window_contains(&w, 1000));
	ck_assert(uet_psn_window_contains(&w, 1127));
	ck_assert(!uet_psn_window_contains(&w, 1128));
	ck_assert(!uet_psn_window_contains(&w, 999));

	ck_assert_int_eq(uet_psn_window_set(&w, 1128), -ERANGE);
	ck_assert_int_eq(uet_psn_window_set(&w, 999), -ERANGE);
	ck_assert_int_eq(uet_psn_window_clear(&w, 999), -ERANGE);
	ck_assert_uint_eq(uet_psn_window_count(&w), 0);
	ck_assert_uint_eq(uet_psn_window_first_gap(&w), 0);
	ck_assert_uint_eq(uet_psn_window_next_set(&w, 0), 128);

	ck_assert_int_eq(uet_psn_window_set(&w, 1000), 0);
	ck_assert_int_eq(uet_psn_window_set(&w, 1001), 0);
	ck_assert_int_eq(uet_psn_window_set(&w, 1063), 0);
	ck_assert_int_eq(uet_psn_window_set(&w, 1064), 0);
	ck_assert_int_eq(uet_psn_window_set(&w, 1127), 0);
	ck_assert(uet_psn_window_test(&w, 1063));
	ck_assert(!uet_psn_window_test(&w, 1062));
	ck_assert(!uet_psn_window_test(&w, 1128));
	ck_assert_uint_eq(uet_psn_window_count(&w), 5);
	ck_assert_uint_eq(uet_psn_window_first_gap(&w), 2);
	ck_assert_uint_eq(uet_psn_window_next_set(&w, 2), 63);
	ck_assert_uint_eq(uet_psn_window_next_set(&w, 65), 127);
	ck_assert_uint_eq(uet_psn_window_next_set(&w, 128), 128);

	/* SACK words: bit i is PSN start + i. */
	ck_assert_uint_eq(uet_psn_window_get64(&w, 1000),
			  0x8000000000000003ull);
	ck_assert_uint_eq(uet_psn_window_get64(&w, 1064),
			  0x8000000000000001ull);
	/* PSNs before base read 0; 1000 and 1001 are bits 10 and 11. */
	ck_assert_uint_eq(uet_psn_window_get64(&w, 990), 0xc00ull);
	/* PSNs past the end read 0 even though their storage bits alias
	 * 1000.. (width 128 == storage 128). */
	ck_assert_uint_eq(uet_psn_window_get64(&w, 1100), 1ull << 27);
	ck_assert_uint_eq(uet_psn_window_get64(&w, 1127), 1);
	ck_assert_uint_eq(uet_psn_window_get64(&w, 1128), 0);
	ck_assert_uint_eq(uet_psn_window_get64(&w, 900), 0);
	ck_assert_uint_eq(uet_psn_window_get64(&w, 937), 1ull << 63);

	/* Cumulative advance past 1000, 1001. */
	ck_assert_uint_eq(uet_psn_window_advance_contiguous(&w), 2);
	ck_assert_uint_eq(uet_psn_window_base(&w), 1002);
	ck_assert_uint_eq(uet_psn_window_advance_contiguous(&w), 0);
	ck_assert(!uet_psn_window_test(&w, 1000));
	/* 1128, 1129 entered the window clear. */
	ck_assert(uet_psn_window_contains(&w, 1129));
	ck_assert(!uet_psn_window_test(&w, 1128));
	ck_assert(!uet_psn_window_test(&w, 1129));
	ck_assert_uint_eq(uet_psn_window_get64(&w, 1100), 1ull << 27);

	ck_assert_int_eq(uet_psn_window_clear(&w, 1063), 0);
	ck_assert(!uet_psn_window_test(&w, 1063));
	ck_assert_uint_eq(uet_psn_window_count(&w), 2);

	/* Advance by more than the width clears everything. */
	uet_psn_window_advance(&w, 500);
	ck_assert_uint_eq(uet_psn_window_base(&w), 1502);
	ck_assert_uint_eq(uet_psn_window_count(&w), 0);
	uet_psn_window_reset(&w, 5);
	ck_assert_uint_eq(uet_psn_window_base(&w), 5);
	uet_psn_window_fini(&w);
}
END_TEST

START_TEST(test_window_wrap)
{
	struct uet_psn_window w;
	uint32_t s;

	ck_assert_int_eq(uet_psn_window_init(&w, 0xfffffff0u, 64), 0);
	ck_assert(uet_psn_window_contains(&w, 0xffffffffu));
	ck_assert(uet_psn_window_contains(&w, 0));
	ck_assert(uet_psn_window_contains(&w, 0x2f));
	ck_assert(!uet_psn_window_contains(&w, 0x30));
	ck_assert(!uet_psn_window_contains(&w, 0xffffffefu));

	/* Fill all but 0x05 across the wrap. */
	for (s = 0xfffffff0u; s != 0x30; s++)
		if (s != 5)
			ck_assert_int_eq(uet_psn_window_set(&w, s), 0);
	ck_assert_int_eq(uet_psn_window_set(&w, 0x30), -ERANGE);
	ck_assert_uint_eq(uet_psn_window_count(&w), 63);
	ck_assert_uint_eq(uet_psn_window_first_gap(&w), 0x15);
	ck_assert_uint_eq(uet_psn_window_get64(&w, 0xfffffff0u),
			  ~(1ull << 0x15));
	/* 64 PSNs from 0xfffffff8: 8 before the wrap, 48 after, 8 outside. */
	ck_assert_uint_eq(uet_psn_window_get64(&w, 0xfffffff8u),
			  0x00ffffffffffffffull & ~(1ull << 13));

	/* Cumulative advance stops at the gap, past the wrap. */
	ck_assert_uint_eq(uet_psn_window_advance_contiguous(&w), 0x15);
	ck_assert_uint_eq(uet_psn_window_base(&w), 5);
	ck_assert(!uet_psn_window_contains(&w, 0xffffffffu));
	ck_assert(!uet_psn_window_test(&w, 0xfffffff0u));
	ck_assert_int_eq(uet_psn_window_set(&w, 0xfffffff0u), -ERANGE);
	/* 0x30..0x44 entered the window clear. */
	ck_assert(uet_psn_window_contains(&w, 0x44));
	ck_assert(!uet_psn_window_test(&w, 0x30));
	ck_assert_uint_eq(uet_psn_window_count(&w), 0x2a);
	ck_assert_int_eq(uet_psn_window_set(&w, 5), 0);
	ck_assert_uint_eq(uet_psn_window_advance_contiguous(&w), 0x2b);
	ck_assert_uint_eq(uet_psn_window_base(&w), 0x30);
	ck_assert_uint_eq(uet_psn_window_count(&w), 0);
	uet_psn_window_fini(&w);
}
END_TEST

/*
 * Random operations against a model over 64-bit absolute positions,
 * starting just below 2^32 so that PSNs wrap during the run.
 */
static void window_model_run(uint32_t width, unsigned int rounds)
{
	enum { SPAN = 1 << 16 };
	struct uet_psn_window w;
	uint64_t abs_base = 0x100000000ull - 3000, a, start;
	bool *mark;		/* mark[a - origin] */
	uint64_t origin = abs_base;
	uint32_t k, off, i, cnt, gap, next;
	uint64_t v, want;
	unsigned int r;

	mark = calloc(SPAN + 2 * (size_t)width + 256, sizeof(*mark));
	ck_assert_ptr_nonnull(mark);
	FAST_EQ(uet_psn_window_init(&w, (uint32_t)abs_base, width), 0);
	for (r = 0; r < rounds && abs_base - origin < SPAN; r++) {
		switch (uet_test_rand64() % 8) {
		case 0:
		case 1:
		case 2:
			/* set anywhere around the window */
			a = abs_base + uet_test_rand64() % (width + 20);
			if (a >= 10 + origin)
				a -= 10;
			FAST_EQ(uet_psn_window_set(&w, (uint32_t)a),
				a >= abs_base && a < abs_base + width ?
				0 : -ERANGE);
			if (a >= abs_base && a < abs_base + width)
				mark[a - origin] = true;
			break;
		case 3:
			a = abs_base + uet_test_rand64() % width;
			FAST_EQ(uet_psn_window_clear(&w, (uint32_t)a), 0);
			mark[a - origin] = false;
			break;
		case 4:
			k = (uint32_t)(uet_test_rand64() % (width + 3));
			uet_psn_window_advance(&w, k);
			for (a = abs_base; a < abs_base + k; a++)
				mark[a - origin] = false;
			abs_base += k;
			break;
		case 5:
			for (k = 0; k < width && mark[abs_base + k - origin];
			     k++)
				mark[abs_base + k - origin] = false;
			FAST_EQ(uet_psn_window_advance_contiguous(&w), k);
			abs_base += k;
			break;
		case 6:
			start = abs_base + uet_test_rand64() % (width + 70);
			start = start >= 64 + origin ? start - 64 : start;
			want = 0;
			for (i = 0; i < 64; i++)
				if (start + i >= abs_base &&
				    start + i < abs_base + width &&
				    mark[start + i - origin])
					want |= 1ull << i;
			v = uet_psn_window_get64(&w, (uint32_t)start);
			FAST_EQ(v, want);
			break;
		default:
			off = (uint32_t)(uet_test_rand64() % (width + 1));
			next = width;
			for (i = off; i < width; i++)
				if (mark[abs_base + i - origin]) {
					next = i;
					break;
				}
			FAST_EQ(uet_psn_window_next_set(&w, off), next);
			break;
		}
		FAST_EQ(uet_psn_window_base(&w), (uint32_t)abs_base);
		if (r % 64 == 0 || width <= 64) {
			cnt = 0;
			gap = width;
			for (i = 0; i < width; i++) {
				uint32_t seq = (uint32_t)(abs_base + i);
				bool m = mark[abs_base + i - origin];

				FAST_EQ(uet_psn_window_test(&w, seq), m);
				cnt += m;
				if (!m && gap == width)
					gap = i;
			}
			FAST_EQ(uet_psn_window_count(&w), cnt);
			FAST_EQ(uet_psn_window_first_gap(&w), gap);
			a = abs_base + width;
			FAST_EQ(uet_psn_window_test(&w, (uint32_t)a), 0);
		}
	}
	/* The run crossed the 2^32 wrap. */
	ck_assert_uint_gt(abs_base, 0x100000000ull);
	uet_psn_window_fini(&w);
	free(mark);
}

START_TEST(test_window_random_model)
{
	static const uint32_t widths[] = { 1, 7, 63, 64, 65, 100, 128, 1000 };

	window_model_run(widths[_i], _i < 5 ? 60000 : 20000);
}
END_TEST

static Suite *util_bitmap_suite(void)
{
	Suite *s = suite_create("util_bitmap");
	TCase *tc = tcase_create("bitmap");
	TCase *tw = tcase_create("psn_window");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_edge_bits);
	tcase_add_test(tc, test_empty_bitmap);
	tcase_add_test(tc, test_ranges_exhaustive);
	tcase_add_test(tc, test_random_model);
	tcase_add_test(tc, test_seq32);
	suite_add_tcase(s, tc);

	tcase_set_timeout(tw, 120);
	tcase_add_test(tw, test_window_init);
	tcase_add_test(tw, test_window_basic);
	tcase_add_test(tw, test_window_wrap);
	tcase_add_loop_test(tw, test_window_random_model, 0, 8);
	suite_add_tcase(s, tw);
	return s;
}

UET_TEST_MAIN(util_bitmap_suite)
