/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CMS CC state codec tests (compact 8 B, wide 16 B).
 *
 * Known vectors are worked out by hand from
 * ../shared/spec/tagged-send-and-encapsulation.md sections 4.2 ("CC State
 * Compact Fields") and 4.3 ("CC State Wide Fields") as resolved in
 * docs/conformance.md (4.1): byte 0 = cc_type << 4 | cc_flags (0).
 */
#include <stdlib.h>
#include <string.h>

#include "uet_test.h"
#include "uet_cms_wire.h"

#define BUF_MAX		32
#define RT_ITERS	2000
#define FUZZ_ITERS	20000
#define FILL		0xa5

#include "wire_fmt_test.h"

static ssize_t enc_compact(uint8_t *buf, size_t len, const void *h)
{
	return uet_cms_cc_state_compact_encode(buf, len, h);
}

static ssize_t dec_compact(void *h, const uint8_t *buf, size_t len)
{
	return uet_cms_cc_state_compact_decode(h, buf, len);
}

static ssize_t enc_wide(uint8_t *buf, size_t len, const void *h)
{
	return uet_cms_cc_state_wide_encode(buf, len, h);
}

static ssize_t dec_wide(void *h, const uint8_t *buf, size_t len)
{
	return uet_cms_cc_state_wide_decode(h, buf, len);
}

static bool eq_compact(const void *pa, const void *pb)
{
	const struct uet_cms_cc_state_compact *a = pa, *b = pb;

	return a->cc_type == b->cc_type && a->sent_bytes == b->sent_bytes &&
	       a->cwnd_bytes == b->cwnd_bytes;
}

static bool eq_wide(const void *pa, const void *pb)
{
	const struct uet_cms_cc_state_wide *a = pa, *b = pb;

	return a->cc_type == b->cc_type &&
	       !memcmp(a->cc_state, b->cc_state, sizeof(a->cc_state));
}

static void rnd_compact(void *p)
{
	struct uet_cms_cc_state_compact *h = p;

	h->cc_type = (uint8_t)uet_test_rand_bits(1);
	h->sent_bytes = (uint32_t)uet_test_rand_bits(24);
	h->cwnd_bytes = (uint32_t)uet_test_rand_bits(32);
}

static void rnd_wide(void *p)
{
	struct uet_cms_cc_state_wide *h = p;
	size_t i;

	h->cc_type = (uint8_t)uet_test_rand_bits(1);
	for (i = 0; i < sizeof(h->cc_state); i++)
		h->cc_state[i] = (uint8_t)uet_test_rand_bits(8);
}

enum { F_COMPACT, F_WIDE, NFMTS };

static const struct fmt fmts[NFMTS] = {
	[F_COMPACT] = { "cc_state_compact", UET_CMS_CC_STATE_COMPACT_LEN,
			sizeof(struct uet_cms_cc_state_compact), false,
			enc_compact, dec_compact, eq_compact, rnd_compact },
	[F_WIDE] = { "cc_state_wide", UET_CMS_CC_STATE_WIDE_LEN,
		     sizeof(struct uet_cms_cc_state_wide), false,
		     enc_wide, dec_wide, eq_wide, rnd_wide },
};

static const struct vec vecs[] = {
	/*
	 * Section 4.2: NSCC (0), sent_bytes 4096 = 0x001000 (bytes 1-3),
	 * cwnd_bytes 65536 = 0x00010000 (bytes 4-7).  Byte 0 = 0 << 4 | 0.
	 * Reserved: cc_flags = byte 0 & 0x0f.
	 */
	{ "compact_nscc", F_COMPACT,
	  &(const struct uet_cms_cc_state_compact){
		.cc_type = UET_CC_NSCC, .sent_bytes = 4096,
		.cwnd_bytes = 65536 },
	  { 0x00, 0x00, 0x10, 0x00, 0x00, 0x01, 0x00, 0x00 },
	  { [0] = 0x0f } },
	/*
	 * Section 4.2: CREDIT (1), both counters at their maxima.
	 * Byte 0 = 1 << 4 = 0x10.
	 */
	{ "compact_credit_max", F_COMPACT,
	  &(const struct uet_cms_cc_state_compact){
		.cc_type = UET_CC_CREDIT, .sent_bytes = 0xffffff,
		.cwnd_bytes = 0xffffffff },
	  { 0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	  { [0] = 0x0f } },
	/*
	 * Section 4.3: CREDIT (1), cc_state 01..0f (120 bits, bytes 1-15).
	 * Byte 0 = 0x10.
	 */
	{ "wide_credit", F_WIDE,
	  &(const struct uet_cms_cc_state_wide){
		.cc_type = UET_CC_CREDIT,
		.cc_state = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
			      0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f } },
	  { 0x10, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	    0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f },
	  { [0] = 0x0f } },
	/* Section 4.3: NSCC (0), cc_state all ones.  Byte 0 = 0x00. */
	{ "wide_nscc_ones", F_WIDE,
	  &(const struct uet_cms_cc_state_wide){
		.cc_type = UET_CC_NSCC,
		.cc_state = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff } },
	  { 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	  { [0] = 0x0f } },
};

#define NVECS ((int)(sizeof(vecs) / sizeof(vecs[0])))

/* ---- helpers ---- */

/* ---- vectors ---- */

START_TEST(test_vec_encode)
{
	const struct vec *v = &vecs[_i];
	const struct fmt *f = &fmts[v->fmt];
	uint8_t buf[BUF_MAX];
	size_t j;

	memset(buf, FILL, sizeof(buf));
	ck_assert_int_eq(f->enc(buf, f->len, v->host), (ssize_t)f->len);
	for (j = 0; j < f->len; j++)
		ck_assert_msg(buf[j] == v->bytes[j],
			      "%s: byte %zu = 0x%02x, want 0x%02x",
			      v->name, j, buf[j], v->bytes[j]);
	for (; j < sizeof(buf); j++)
		ck_assert_uint_eq(buf[j], FILL);
	ck_assert_int_eq(f->enc(buf, sizeof(buf), v->host), (ssize_t)f->len);
	ck_assert_mem_eq(buf, v->bytes, f->len);
}
END_TEST

START_TEST(test_vec_decode)
{
	const struct vec *v = &vecs[_i];
	const struct fmt *f = &fmts[v->fmt];
	uint8_t h[64], in[BUF_MAX];
	uint8_t *exact = dup_exact(v->bytes, f->len);

	memset(h, FILL, sizeof(h));
	ck_assert_int_eq(f->dec(h, exact, f->len), (ssize_t)f->len);
	ck_assert_msg(f->eq(h, v->host), "%s: decoded fields differ",
		      v->name);
	free(exact);

	memset(in, 0xff, sizeof(in));
	memcpy(in, v->bytes, f->len);
	memset(h, 0, sizeof(h));
	ck_assert_int_eq(f->dec(h, in, sizeof(in)), (ssize_t)f->len);
	ck_assert(f->eq(h, v->host));
}
END_TEST

START_TEST(test_vec_truncated)
{
	const struct vec *v = &vecs[_i];
	const struct fmt *f = &fmts[v->fmt];
	size_t n;

	for (n = 0; n < f->len; n++)
		expect_dec(f, v->bytes, n, UET_WIRE_ETRUNC, v->name);
}
END_TEST

START_TEST(test_vec_enobufs)
{
	const struct vec *v = &vecs[_i];
	const struct fmt *f = &fmts[v->fmt];
	uint8_t buf[BUF_MAX];
	size_t n, j;

	for (n = 0; n < f->len; n++) {
		memset(buf, FILL, sizeof(buf));
		ck_assert_int_eq(f->enc(buf, n, v->host), UET_WIRE_ENOBUFS);
		for (j = 0; j < sizeof(buf); j++)
			ck_assert_msg(buf[j] == FILL,
				      "%s: encode(len %zu) wrote byte %zu",
				      v->name, n, j);
	}
}
END_TEST

START_TEST(test_vec_reserved)
{
	const struct vec *v = &vecs[_i];
	const struct fmt *f = &fmts[v->fmt];
	uint8_t b[BUF_MAX];
	unsigned int bit, nbits = 0;
	size_t j;

	for (j = 0; j < f->len; j++) {
		for (bit = 0; bit < 8; bit++) {
			if (!(v->rsvd[j] & 1u << bit))
				continue;
			ck_assert(!(v->bytes[j] & 1u << bit));
			memcpy(b, v->bytes, f->len);
			b[j] |= (uint8_t)(1u << bit);
			expect_dec(f, b, f->len, UET_WIRE_ERESERVED, v->name);
			nbits++;
		}
	}
	ck_assert_uint_eq(nbits, 4);	/* cc_flags[3:0] */
}
END_TEST

/* ---- random ---- */

START_TEST(test_fmt_roundtrip)
{
	const struct fmt *f = &fmts[_i];
	uint8_t h1[64], h2[64], b1[BUF_MAX], b2[BUF_MAX];
	int it;

	for (it = 0; it < RT_ITERS; it++) {
		memset(h1, 0, sizeof(h1));
		f->rnd(h1);
		ck_assert_int_eq(f->enc(b1, sizeof(b1), h1), (ssize_t)f->len);
		memset(h2, FILL, sizeof(h2));
		ck_assert_int_eq(f->dec(h2, b1, f->len), (ssize_t)f->len);
		ck_assert_msg(f->eq(h1, h2), "%s it %d: fields differ",
			      f->name, it);
		ck_assert_int_eq(f->enc(b2, sizeof(b2), h2), (ssize_t)f->len);
		ck_assert_mem_eq(b1, b2, f->len);
	}
}
END_TEST

START_TEST(test_fmt_mutate)
{
	const struct fmt *f = &fmts[_i];
	uint8_t h[64], b[BUF_MAX], out[BUF_MAX];
	unsigned int ok = 0, bad = 0;
	int it, k, nflip;
	uint8_t *in;
	ssize_t r;

	for (it = 0; it < FUZZ_ITERS; it++) {
		f->rnd(h);
		ck_assert_int_eq(f->enc(b, sizeof(b), h), (ssize_t)f->len);
		nflip = 1 + (int)(uet_test_rand64() % 3);
		for (k = 0; k < nflip; k++) {
			unsigned int pos = (unsigned int)(uet_test_rand64() %
							  (f->len * 8));

			b[pos / 8] ^= (uint8_t)(1u << (pos % 8));
		}
		in = dup_exact(b, f->len);
		r = f->dec(h, in, f->len);
		if (r == (ssize_t)f->len) {
			ok++;
			ck_assert_int_eq(f->enc(out, sizeof(out), h),
					 (ssize_t)f->len);
			ck_assert_msg(!memcmp(out, in, f->len),
				      "%s it %d: non-canonical decode",
				      f->name, it);
		} else {
			bad++;
			ck_assert_msg(r == UET_WIRE_ERESERVED ||
				      r == UET_WIRE_ERANGE,
				      "%s it %d: decode = %zd", f->name, it,
				      r);
		}
		free(in);
	}
	ck_assert_uint_gt(ok, 0);
	ck_assert_uint_gt(bad, 0);
}
END_TEST

/* ---- invalid values ---- */

START_TEST(test_cc_type_invalid)
{
	const struct vec *v = &vecs[_i];
	const struct fmt *f = &fmts[v->fmt];
	uint8_t b[BUF_MAX];
	unsigned int t;

	for (t = 0; t < 16; t++) {
		memcpy(b, v->bytes, f->len);
		b[0] = (uint8_t)(t << 4);
		expect_dec(f, b, f->len, t <= UET_CC_CREDIT ? (ssize_t)f->len :
			   UET_WIRE_ERANGE, "cc_type");
	}
	for (t = 0; t < 256; t++) {
		struct uet_cms_cc_state_compact c;
		struct uet_cms_cc_state_wide w;
		const void *h;

		if (v->fmt == F_COMPACT) {
			c = *(const struct uet_cms_cc_state_compact *)v->host;
			c.cc_type = (uint8_t)t;
			h = &c;
		} else {
			w = *(const struct uet_cms_cc_state_wide *)v->host;
			w.cc_type = (uint8_t)t;
			h = &w;
		}
		expect_enc(f, h, t <= UET_CC_CREDIT ? (ssize_t)f->len :
			   UET_WIRE_ERANGE, "cc_type");
	}
}
END_TEST

START_TEST(test_sent_bytes_invalid)
{
	const struct fmt *f = &fmts[F_COMPACT];
	struct uet_cms_cc_state_compact h = {
		.cc_type = UET_CC_NSCC, .sent_bytes = UET_CMS_SENT_BYTES_MAX,
	};
	unsigned int bit;

	expect_enc(f, &h, (ssize_t)f->len, "sent_bytes max");
	for (bit = 24; bit < 32; bit++) {
		h.sent_bytes = 1u << bit;
		expect_enc(f, &h, UET_WIRE_ERANGE, "sent_bytes");
	}
}
END_TEST

static Suite *cms_wire_suite(void)
{
	Suite *s = suite_create("cms_wire");
	TCase *tc;

	tc = tcase_create("vectors");
	tcase_add_loop_test(tc, test_vec_encode, 0, NVECS);
	tcase_add_loop_test(tc, test_vec_decode, 0, NVECS);
	tcase_add_loop_test(tc, test_vec_truncated, 0, NVECS);
	tcase_add_loop_test(tc, test_vec_enobufs, 0, NVECS);
	tcase_add_loop_test(tc, test_vec_reserved, 0, NVECS);
	suite_add_tcase(s, tc);

	tc = tcase_create("random");
	tcase_add_loop_test(tc, test_fmt_roundtrip, 0, NFMTS);
	tcase_add_loop_test(tc, test_fmt_mutate, 0, NFMTS);
	suite_add_tcase(s, tc);

	tc = tcase_create("invalid");
	tcase_add_loop_test(tc, test_cc_type_invalid, 0, NVECS);
	tcase_add_test(tc, test_sent_bytes_invalid);
	suite_add_tcase(s, tc);

	return s;
}

UET_TEST_MAIN(cms_wire_suite)
